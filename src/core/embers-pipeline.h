/* embers-pipeline.h: what a profile view shows, from the profile and the
 * person's choices
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile.h"
#include "embers-transform-stack.h"

G_BEGIN_DECLS

/* How the graph is drawn: top-down (icicle), bottom-up flame, inverted
 * (callers below their callees), the sandwich of one function, or the
 * call tree (a table of the table profile; the view profile as icicle) */
typedef enum
{
  EMBERS_VIEW_ICICLE,
  EMBERS_VIEW_FLAME,
  EMBERS_VIEW_BOTTOM_UP,
  EMBERS_VIEW_SANDWICH,
  EMBERS_VIEW_CALL_TREE,
} EmbersView;

/* The person's choices: the frame actions of @stack, in order (focus,
 * merge, drop, collapse, hide; embers-transform-stack.h); the table is
 * computed from their result; then the view (invert, or the sandwich's
 * callers and callees of @sandwich_function). Invert and sandwich are
 * views of the stack's result, not steps of it: the view switch picks one,
 * and a frame action on an inverted view still applies to the call tree. */
typedef struct
{
  EmbersTransformStack *stack;              /* never NULL */
  /* Optional: the result of the first @base_steps steps of @stack on the
   * profile (an earlier run's table_profile), to go on from */
  EmbersProfile        *base;
  guint                 base_steps;
  EmbersView            view;
  char                 *sandwich_function;  /* with EMBERS_VIEW_SANDWICH */
  guint                 sample_type;
} EmbersPipelineParams;

EmbersPipelineParams *embers_pipeline_params_new  (void);
EmbersPipelineParams *embers_pipeline_params_copy (const EmbersPipelineParams *params);
void                  embers_pipeline_params_free (EmbersPipelineParams       *params);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersPipelineParams, embers_pipeline_params_free)

typedef struct
{
  EmbersProfile *table_profile;     /* after the transform stack */
  EmbersProfile *view_profile;      /* what the main graph draws */
  EmbersProfile *callers;           /* sandwich: callers (inverted) */
  EmbersProfile *callees;           /* sandwich: callees */
  GArray        *rows;              /* EmbersTopRow, or NULL for a diff */
  GArray        *diff_rows;         /* EmbersDiffRow for a diff, else NULL */
  char          *hottest_function;  /* the top row's function (the one that
                                     * grew most in a diff), or NULL */
} EmbersPipelineResult;

void embers_pipeline_result_free (EmbersPipelineResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersPipelineResult, embers_pipeline_result_free)

/* Runs the pipeline (blocking; checks @cancellable between steps) */
EmbersPipelineResult *embers_pipeline_run        (EmbersProfile               *profile,
                                                  const EmbersPipelineParams  *params,
                                                  GCancellable                *cancellable,
                                                  GError                     **error);
/* The same on a worker thread */
void                  embers_pipeline_run_async  (EmbersProfile               *profile,
                                                  const EmbersPipelineParams  *params,
                                                  GCancellable                *cancellable,
                                                  GAsyncReadyCallback          callback,
                                                  gpointer                     user_data);
EmbersPipelineResult *embers_pipeline_run_finish (GAsyncResult                *result,
                                                  GError                     **error);

G_END_DECLS
