/* embers-transform-stack.h: the frame actions a person applied to a
 * profile, in order (as the Firefox Profiler's transform stack)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "embers-profile.h"

G_BEGIN_DECLS

/**
 * EmbersTransformKind:
 * @EMBERS_TRANSFORM_FOCUS_SUBTREE: keep one call node's subtree (a path)
 * @EMBERS_TRANSFORM_FOCUS_FUNCTION: keep a function's subtrees, merged
 * @EMBERS_TRANSFORM_MERGE_FUNCTION: remove a function, its callees go to its callers
 * @EMBERS_TRANSFORM_HIDE: remove one call node (a path), as merge does
 * @EMBERS_TRANSFORM_DROP_FUNCTION: drop the samples whose stack has a function
 * @EMBERS_TRANSFORM_COLLAPSE_PACKAGE: a package's runs of frames become one frame
 * @EMBERS_TRANSFORM_COLLAPSE_RECURSION: with no argument, direct recursion
 *   of every function; with a function, its recursion, direct and indirect
 *
 * The order of the values is part of no file: files use the names of
 * embers_transform_kind_to_string().
 */
typedef enum
{
  EMBERS_TRANSFORM_FOCUS_SUBTREE,
  EMBERS_TRANSFORM_FOCUS_FUNCTION,
  EMBERS_TRANSFORM_MERGE_FUNCTION,
  EMBERS_TRANSFORM_HIDE,
  EMBERS_TRANSFORM_DROP_FUNCTION,
  EMBERS_TRANSFORM_COLLAPSE_PACKAGE,
  EMBERS_TRANSFORM_COLLAPSE_RECURSION,
  EMBERS_TRANSFORM_N_KINDS
} EmbersTransformKind;

/* Limits of a stack read from a file or an action */
#define EMBERS_TRANSFORM_STACK_MAX_STEPS 64
#define EMBERS_TRANSFORM_STACK_MAX_PATH  4096
#define EMBERS_TRANSFORM_STACK_MAX_NAME  65536

/* "focus-subtree", "focus-function", "merge-function", "hide",
 * "drop-function", "collapse-package", "collapse-recursion" */
const char *embers_transform_kind_to_string   (EmbersTransformKind  kind);
gboolean    embers_transform_kind_from_string (const char          *string,
                                               EmbersTransformKind *kind);
/* Whether the kind's arguments are a path (call node) rather than one name */
gboolean    embers_transform_kind_takes_path  (EmbersTransformKind  kind);

typedef struct _EmbersTransformStack EmbersTransformStack;

EmbersTransformStack *embers_transform_stack_new    (void);
EmbersTransformStack *embers_transform_stack_copy   (const EmbersTransformStack *stack);
void                  embers_transform_stack_free   (EmbersTransformStack       *stack);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersTransformStack, embers_transform_stack_free)

guint                 embers_transform_stack_get_length (const EmbersTransformStack *stack);
EmbersTransformKind   embers_transform_stack_get_kind   (const EmbersTransformStack *stack,
                                                         guint                       index);
/* The step's arguments: a path (names from the root's child down), one
 * name, or none (collapse-recursion of every function) */
const char * const   *embers_transform_stack_get_args   (const EmbersTransformStack *stack,
                                                         guint                       index);
/* The index of an equal step, or -1 */
int                   embers_transform_stack_find       (const EmbersTransformStack *stack,
                                                         EmbersTransformKind         kind,
                                                         const char * const         *args);
/* Appends a step; FALSE (and sets @error) when its arguments do not fit
 * the kind, when an equal step is there already, or when the stack is
 * full */
gboolean              embers_transform_stack_push       (EmbersTransformStack       *stack,
                                                         EmbersTransformKind         kind,
                                                         const char * const         *args,
                                                         GError                    **error);
/* Removes step @index; the later steps keep their order */
void                  embers_transform_stack_remove     (EmbersTransformStack       *stack,
                                                         guint                       index);
void                  embers_transform_stack_clear      (EmbersTransformStack       *stack);
gboolean              embers_transform_stack_equal      (const EmbersTransformStack *a,
                                                         const EmbersTransformStack *b);

/* A step as a GVariant "(sas)": kind name and arguments (action targets) */
GVariant             *embers_transform_stack_step_to_variant   (const EmbersTransformStack *stack,
                                                                guint                       index);
gboolean              embers_transform_stack_push_variant      (EmbersTransformStack       *stack,
                                                                GVariant                   *step,
                                                                GError                    **error);

/* As JSON: an array of { "kind": "...", "args": [ "...", ... ] } */
JsonNode             *embers_transform_stack_to_json    (const EmbersTransformStack *stack);
EmbersTransformStack *embers_transform_stack_from_json  (JsonNode                   *node,
                                                         GError                    **error);

/**
 * embers_transform_stack_apply:
 *
 * Runs the steps in order, each on the result of the one before (blocking;
 * checks @cancellable between steps). Returns a new reference: @profile
 * itself for an empty stack.
 */
EmbersProfile        *embers_transform_stack_apply      (const EmbersTransformStack *stack,
                                                         EmbersProfile              *profile,
                                                         GCancellable               *cancellable,
                                                         GError                    **error);
/* The same from step @first on: @profile is the result of the steps
 * before it (a step pushed costs one transform, not the whole stack) */
EmbersProfile        *embers_transform_stack_apply_from (const EmbersTransformStack *stack,
                                                         guint                       first,
                                                         EmbersProfile              *profile,
                                                         GCancellable               *cancellable,
                                                         GError                    **error);
/* Whether @prefix's steps are @stack's first ones, in order */
gboolean              embers_transform_stack_is_prefix  (const EmbersTransformStack *prefix,
                                                         const EmbersTransformStack *stack);

G_END_DECLS
