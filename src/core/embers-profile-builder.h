/* embers-profile-builder.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile.h"

G_BEGIN_DECLS

/*
 * EmbersProfileBuilder turns stacks (root-first frame name ids with one value
 * per sample type) into an immutable EmbersProfile. It is not thread-safe;
 * one builder is used by one thread. Node 0 is the root.
 *
 * Typical use:
 *
 *   b = embers_profile_builder_new ();
 *   embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
 *   id = embers_profile_builder_intern (b, "main", -1);
 *   embers_profile_builder_add_stack (b, ids, n, values, 0);
 *   profile = embers_profile_builder_finish (b, &error);
 */

typedef struct _EmbersProfileBuilder EmbersProfileBuilder;

/* Limits that keep hostile input from eating the machine. */
#define EMBERS_PROFILE_MAX_NODES        (64u * 1024u * 1024u)
#define EMBERS_PROFILE_MAX_DEPTH        60000u
#define EMBERS_PROFILE_MAX_SAMPLE_TYPES 64u

EmbersProfileBuilder *embers_profile_builder_new                 (void);
void                  embers_profile_builder_free                (EmbersProfileBuilder *b);

/* Header; sample types must all be added before the first value. */
guint                 embers_profile_builder_add_sample_type     (EmbersProfileBuilder *b,
                                                                  const char           *type,
                                                                  const char           *unit);
guint                 embers_profile_builder_get_n_sample_types  (EmbersProfileBuilder *b);
void                  embers_profile_builder_set_default_sample_type (EmbersProfileBuilder *b,
                                                                  guint                 index);
void                  embers_profile_builder_set_period          (EmbersProfileBuilder *b,
                                                                  const char           *type,
                                                                  const char           *unit,
                                                                  gint64                period);
void                  embers_profile_builder_set_time            (EmbersProfileBuilder *b,
                                                                  gint64                time_nanos,
                                                                  gint64                duration_nanos);
void                  embers_profile_builder_set_diff            (EmbersProfileBuilder *b,
                                                                  gboolean              is_diff);

/* Strings. len may be -1 for NUL-terminated. Returns a stable id; "" is 0. */
guint32               embers_profile_builder_intern              (EmbersProfileBuilder *b,
                                                                  const char           *str,
                                                                  gssize                len);
const char           *embers_profile_builder_get_string          (EmbersProfileBuilder *b,
                                                                  guint32               string_id);
void                  embers_profile_builder_set_name_location   (EmbersProfileBuilder *b,
                                                                  guint32               name_id,
                                                                  guint32               file_id,
                                                                  gint64                line);

/* Label sets: interned, order-insensitive. Returns 0 for n_labels == 0. */
guint32               embers_profile_builder_add_label_set       (EmbersProfileBuilder *b,
                                                                  const EmbersLabel    *labels,
                                                                  guint                 n_labels);

/* Stacks: names are root first; values has one entry per sample type.
 * Values must be >= 0. Identical stacks are merged at once; the tree is
 * laid out in finish, by sorting the unique stacks. */
void                  embers_profile_builder_add_stack           (EmbersProfileBuilder *b,
                                                                  const guint32        *names,
                                                                  guint                 n_names,
                                                                  const gint64         *values,
                                                                  guint32               label_set);

/* The same, for a reader that has merged identical stacks itself (it may
 * still give the same names twice: they end at the same node): no lookup.
 * values is the stack's whole value; add_stack_labels then says how much of
 * it has which label set (the rest has none). Returns a stack id, or
 * G_MAXUINT32 when a limit was hit (see check). */
guint32               embers_profile_builder_add_unique_stack    (EmbersProfileBuilder *b,
                                                                  const guint32        *names,
                                                                  guint                 n_names,
                                                                  const gint64         *values);
void                  embers_profile_builder_add_stack_labels    (EmbersProfileBuilder *b,
                                                                  guint32               stack,
                                                                  const gint64         *values,
                                                                  guint32               label_set);
/* Many at once: n labelled parts, stacks[i] (ids from add_unique_stack)
 * with sets[i] and values[i * n_types ...]; the arrays are the builder's
 * from then on (g_free). Parts of the same stack and set may repeat. */
void                  embers_profile_builder_take_stack_labels   (EmbersProfileBuilder *b,
                                                                  guint32              *stacks,
                                                                  guint32              *sets,
                                                                  gint64               *values,
                                                                  guint                 n);

/* Lower level, for tree-shaped inputs (flame graph levels). Node ids are
 * final as soon as they are returned; stacks added too are put into these
 * nodes frame by frame in finish. get_n_nodes counts these nodes only. */
guint32               embers_profile_builder_get_child           (EmbersProfileBuilder *b,
                                                                  guint32               parent,
                                                                  guint32               name_id);
void                  embers_profile_builder_add_self            (EmbersProfileBuilder *b,
                                                                  guint32               node,
                                                                  guint                 sample_type,
                                                                  gint64                value);
/* A part of a node's value (added to its own value too) that becomes a
 * sample with this label set (0: a sample without labels) if the profile
 * has labels */
void                  embers_profile_builder_add_node_labels     (EmbersProfileBuilder *b,
                                                                  guint32               node,
                                                                  const gint64         *values,
                                                                  guint32               label_set);
guint                 embers_profile_builder_get_n_nodes         (EmbersProfileBuilder *b);

/* For a caller that walks a tree it knows (a transform): room for n_nodes
 * nodes at once, n_looked_up of them in the (parent, name) map; a child added without the (parent, name) lookup, when the
 * caller knows the parent has no child of that name and will not ask
 * get_child about this parent before it has called index_child for each
 * child added so (stacks added are put in place in finish all the same). */
void                  embers_profile_builder_reserve             (EmbersProfileBuilder *b,
                                                                  guint                 n_nodes,
                                                                  guint                 n_looked_up);
guint32               embers_profile_builder_add_child           (EmbersProfileBuilder *b,
                                                                  guint32               parent,
                                                                  guint32               name_id);
void                  embers_profile_builder_index_child         (EmbersProfileBuilder *b,
                                                                  guint32               node);

/* Merges a whole profile's tree into one value column, by name path.
 * self_values: per-node self values to use instead of the profile's own
 * (e.g. only the samples a filter kept), or NULL. */
void                  embers_profile_builder_add_profile         (EmbersProfileBuilder *b,
                                                                  EmbersProfile        *profile,
                                                                  guint                 sample_type,
                                                                  guint                 column,
                                                                  const gint64         *self_values);

/* Called in finish while the tree is made (stacks laid out, of twice their
 * number: the first half is the reader's, resolving them) */
typedef void (*EmbersBuilderProgressFunc) (guint64  done,
                                           guint64  total,
                                           gpointer user_data);
void                  embers_profile_builder_set_progress        (EmbersProfileBuilder *b,
                                                                  EmbersBuilderProgressFunc progress,
                                                                  gpointer              user_data);

/* Sets an error when a limit was hit while adding (checked in finish too). */
gboolean              embers_profile_builder_check               (EmbersProfileBuilder *b,
                                                                  GError              **error);

/* Consumes the stacks and hands the string pool to the profile; the
 * builder must still be freed, and not be finished twice. */
EmbersProfile        *embers_profile_builder_finish              (EmbersProfileBuilder *b,
                                                                  GError              **error);
EmbersProfile        *embers_profile_builder_finish_cancellable  (EmbersProfileBuilder *b,
                                                                  GCancellable         *cancellable,
                                                                  GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersProfileBuilder, embers_profile_builder_free)

G_END_DECLS
