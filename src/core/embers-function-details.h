/* embers-function-details.h: one function's file, lines, callers and callees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile.h"
#include "embers-transform-stack.h"

G_BEGIN_DECLS

/*
 * The details of one function (all the frames with its name): its file,
 * the source lines that have samples with their self and total values,
 * and its callers and callees with the value that flows through each.
 *
 * The profile's node arrays keep one name per frame and nothing per line,
 * so lines are read again from the pprof bytes when details are asked
 * for (embers_function_details_new_from_pprof); nothing per location is
 * kept in the profile. For any other profile (folded stacks, server
 * data) embers_function_details_new_from_profile gives the same totals,
 * callers and callees from the tree, and no lines.
 *
 * Values count each sample once, as `go tool pprof -list` does: a line's
 * total is the samples whose stack holds that line of the function (once
 * however often it recurs), its self the samples whose leaf it is; a
 * caller's value is the samples where it calls the function directly
 * (once per sample), a callee's likewise.
 */

typedef struct
{
  gint64 line;    /* 1-based; 0: the line is not known */
  gint64 self;
  gint64 total;
} EmbersLineCost;

typedef struct
{
  char  *name;
  gint64 value;
} EmbersFunctionEdge;

typedef struct
{
  char   *name;
  char   *file;         /* "" when unknown */
  gint64  start_line;   /* the function's first line; 0 when unknown */
  gint64  self;
  gint64  total;
  gint64  profile_total; /* every sample's value, for percentages */
  gboolean has_lines;   /* the data had line numbers for it (pprof) */
  GArray *lines;        /* EmbersLineCost, by line, only lines with samples */
  GArray *callers;      /* EmbersFunctionEdge, heaviest first */
  GArray *callees;      /* EmbersFunctionEdge, heaviest first */
  /* Over a view (a transform stack): a step merged frames of the function
   * itself (collapsed recursion or package), so which line a merged
   * frame stands for is not known: the per-line figures are approximate */
  gboolean lines_inexact;
} EmbersFunctionDetails;

#define EMBERS_TYPE_FUNCTION_DETAILS (embers_function_details_get_type ())
GType                  embers_function_details_get_type      (void) G_GNUC_CONST;
EmbersFunctionDetails *embers_function_details_ref           (EmbersFunctionDetails *details);
void                   embers_function_details_unref         (EmbersFunctionDetails *details);

/* From uncompressed pprof bytes: @sample_type indexes the pprof's sample
 * types (the same order as an EmbersProfile read from it). A function
 * that is not in the profile gives details with zero values. */
EmbersFunctionDetails *embers_function_details_new_from_pprof (const guint8  *data,
                                                               gsize          len,
                                                               const char    *name,
                                                               guint          sample_type,
                                                               GCancellable  *cancellable,
                                                               GError       **error);

/* The same over the view @view makes of the data (NULL or empty: the data
 * as it is): lines, callers, callees and totals are counted over the
 * stacks as the view shows them, as embers-transforms.h defines each
 * step: samples a drop or a focus leaves out are not counted, a focus's
 * stacks start at its frame, merged and hidden frames are not there, a
 * collapsed package is one frame (with no line). Where a step merges
 * frames of the function itself, lines_inexact is set. */
EmbersFunctionDetails *embers_function_details_new_from_pprof_view (const guint8               *data,
                                                                    gsize                       len,
                                                                    const char                 *name,
                                                                    guint                       sample_type,
                                                                    const EmbersTransformStack *view,
                                                                    GCancellable               *cancellable,
                                                                    GError                    **error);

/* Whether the stacks of @view are the recorded ones (it only drops
 * samples): only then is a path in it a call site a server has */
gboolean               embers_function_details_view_keeps_call_sites (const EmbersTransformStack *view);

/* The frame of function @name to select when it is chosen from @from's
 * callers or callees: @from's parent or heaviest child of that name, else
 * (or with @from EMBERS_NODE_NONE) the function's heaviest frame; or
 * EMBERS_NODE_NONE when @profile has none */
guint32                embers_function_details_pick_node (EmbersProfile *profile,
                                                          guint32        from,
                                                          const char    *name,
                                                          guint          sample_type);

/* From a profile's tree, for data without lines (has_lines is FALSE) */
EmbersFunctionDetails *embers_function_details_new_from_profile (EmbersProfile *profile,
                                                                 const char    *name,
                                                                 guint          sample_type);

/* The line with the largest total (then self), or NULL */
const EmbersLineCost  *embers_function_details_get_hottest_line (EmbersFunctionDetails *details);
/* The cost of @line, or NULL when it has no samples */
const EmbersLineCost  *embers_function_details_get_line     (EmbersFunctionDetails *details,
                                                             gint64                 line);

/* Reads @file (pprof, compressed or not) off the main thread and computes
 * the details there. Other formats fail with EMBERS_PROFILE_ERROR_UNSUPPORTED. */
void                   embers_function_details_load_async   (GFile                 *file,
                                                             const char            *name,
                                                             guint                  sample_type,
                                                             GCancellable          *cancellable,
                                                             GAsyncReadyCallback    callback,
                                                             gpointer               user_data);
/* The same over a view (see embers_function_details_new_from_pprof_view());
 * @view is copied */
void                   embers_function_details_load_view_async (GFile                      *file,
                                                                const char                 *name,
                                                                guint                       sample_type,
                                                                const EmbersTransformStack *view,
                                                                GCancellable               *cancellable,
                                                                GAsyncReadyCallback         callback,
                                                                gpointer                    user_data);
void                   embers_function_details_compute_view_async (GBytes                     *pprof,
                                                                   const char                 *name,
                                                                   guint                       sample_type,
                                                                   const EmbersTransformStack *view,
                                                                   GCancellable               *cancellable,
                                                                   GAsyncReadyCallback         callback,
                                                                   gpointer                    user_data);
/* The same from uncompressed pprof bytes (a server's merged profile),
 * off the main thread; finish with embers_function_details_load_finish() */
void                   embers_function_details_compute_async (GBytes               *pprof,
                                                              const char           *name,
                                                              guint                 sample_type,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
EmbersFunctionDetails *embers_function_details_load_finish  (GAsyncResult          *result,
                                                             GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersFunctionDetails, embers_function_details_unref)

G_END_DECLS
