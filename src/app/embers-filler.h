/* embers-filler.h: Load More, filling in a server answer's `other` frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-profile-page.h"
#include "embers-source.h"
#include "embers-status.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_FILLER (embers_filler_get_type ())

G_DECLARE_FINAL_TYPE (EmbersFiller, embers_filler, EMBERS, FILLER, GObject)

/*
 * The fill-ins of one profile page that shows a server's merged answer:
 *
 * - load_more: the call site of a frame (an `other` frame: its parent) is
 *   asked for again, alone (a stack-trace selector) with a node budget,
 *   and the answer is merged into the page's profile (embers-fill.h, on a
 *   worker thread); asked again at the same call site, the budget doubles.
 * - after a zoom or a focus, the `other` frames that are on screen and
 *   wide enough are filled in the same way, at most a few, each call site
 *   once per answer.
 *
 * A comparison (embers_filler_reset_diff) is filled in the same way, each
 * call site asked for on both sides.
 *
 * One run at a time: a newer one cancels the older (newest wins), and so
 * does a new base query (reset). While it runs the page's EmbersStatus
 * shows the old graph dimmed under what is being loaded; the profile is
 * replaced once, whole, when every query of the run has been merged; the
 * focus, selection and zoom are kept. Nothing changes on an error (a
 * toast says why).
 *
 * Properties: busy, message (the last thing said, for tests), n-filled
 * (frames brought in since the last reset), announcement (what came in,
 * said to screen readers: a toast is read out by itself).
 */

/* Wide enough to fill in after a zoom, in pixels; and how many at once */
#define EMBERS_FILLER_MIN_WIDTH 40.0
#define EMBERS_FILLER_MAX_AUTO  4

EmbersFiller *embers_filler_new             (EmbersSource       *source,
                                             EmbersProfilePage  *page,
                                             EmbersStatus       *status);
/* The query whose answer the page shows (NULL: none), and the node budget
 * it was cut at (0: the server's default): cancels what runs and forgets
 * what was filled */
void          embers_filler_reset           (EmbersFiller       *self,
                                             const EmbersQuery  *query,
                                             gint64              max_nodes);
/* The same for a comparison (the page shows a diff): each fill-in asks
 * for the call site on both sides, and merges both answers into the
 * diff's columns (embers_fill_merge_diff_async) */
void          embers_filler_reset_diff      (EmbersFiller       *self,
                                             const EmbersQuery  *baseline,
                                             const EmbersQuery  *comparison,
                                             gint64              max_nodes);
/* The frame of the page's flame graph whose `other` would be filled in:
 * the frame itself when it is an `other` frame or has one. FALSE and why
 * (nullable) when there is none or the view is not the server's tree. */
gboolean      embers_filler_can_load_more   (EmbersFiller       *self,
                                             guint32             view_node,
                                             char              **why);
gboolean      embers_filler_load_more       (EmbersFiller       *self,
                                             guint32             view_node);
/* The wide `other` frames on screen, each call site once (a run under
 * way gives way to it) */
guint         embers_filler_fill_visible    (EmbersFiller       *self);
void          embers_filler_cancel          (EmbersFiller       *self);
gboolean      embers_filler_get_busy        (EmbersFiller       *self);
const char   *embers_filler_get_message     (EmbersFiller       *self);
guint         embers_filler_get_n_filled    (EmbersFiller       *self);
/* The last announcement, and whether the AT context took it */
const char   *embers_filler_get_announcement (EmbersFiller      *self,
                                              gboolean          *delivered);

G_END_DECLS
