/* embers-profile-page.h: one opened profile (a tab)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-pipeline.h"
#include "embers-session.h"

#include "embers-format.h"
#include "embers-diff-legend.h"
#include "embers-details-panel.h"
#include "embers-diff-table.h"
#include "embers-flame-graph.h"
#include "embers-top-table.h"
#include "embers-transform-bar.h"

G_BEGIN_DECLS

typedef enum
{
  EMBERS_PAGE_STATE_EMPTY,
  EMBERS_PAGE_STATE_LOADING,
  EMBERS_PAGE_STATE_READY,
  EMBERS_PAGE_STATE_FAILED,
  EMBERS_PAGE_STATE_CANCELLED,
} EmbersPageState;


#define EMBERS_TYPE_PROFILE_PAGE (embers_profile_page_get_type ())

G_DECLARE_FINAL_TYPE (EmbersProfilePage, embers_profile_page, EMBERS, PROFILE_PAGE, AdwBreakpointBin)

EmbersProfilePage *embers_profile_page_new              (void);
/* A page loading @file, its load started before the page is built: @page,
 * a page made ahead and never used, returned (transfer none: the caller's
 * reference stays the caller's), or a new one when @page is NULL */
EmbersProfilePage *embers_profile_page_new_for_file_in  (GFile              *file,
                                                        EmbersProfilePage  *page);

/* Loads @file off the main thread; @title (nullable) names the tab */
void               embers_profile_page_load             (EmbersProfilePage   *self,
                                                         GFile               *file,
                                                         const char          *title);
/* Shows an already loaded profile */
void               embers_profile_page_set_profile      (EmbersProfilePage   *self,
                                                         EmbersProfile       *profile,
                                                         const char          *title);
void               embers_profile_page_cancel           (EmbersProfilePage   *self);
/* TRUE while a long load shows a coarse profile of the samples read so
 * far (dimmed, under a banner); the page has no profile yet */
gboolean           embers_profile_page_get_partial      (EmbersProfilePage   *self);
/* Tests: the next loads offer a coarse profile every @n_stacks stacks
 * however short they are, and wait until the page has shown each (0: as
 * usual, for long loads, about once a second) */
void               embers_profile_page_set_interim_every (EmbersProfilePage  *self,
                                                          guint               n_stacks);
/* The same answer in more detail (a fill-in): the view's choices stay */
void               embers_profile_page_replace_profile  (EmbersProfilePage   *self,
                                                         EmbersProfile       *profile);

GFile             *embers_profile_page_get_file         (EmbersProfilePage   *self);
const char        *embers_profile_page_get_title        (EmbersProfilePage   *self);
EmbersPageState    embers_profile_page_get_state        (EmbersProfilePage   *self);
const char        *embers_profile_page_get_error        (EmbersProfilePage   *self);
/* The loaded profile, before any transform */
EmbersProfile     *embers_profile_page_get_profile      (EmbersProfilePage   *self);
/* TRUE while loading or computing transforms */
gboolean           embers_profile_page_get_busy         (EmbersProfilePage   *self);
/* TRUE while a search is being matched (off the main thread) */
gboolean           embers_profile_page_get_search_pending (EmbersProfilePage *self);

EmbersView         embers_profile_page_get_view         (EmbersProfilePage   *self);
void               embers_profile_page_set_view         (EmbersProfilePage   *self,
                                                         EmbersView           view);
guint              embers_profile_page_get_sample_type  (EmbersProfilePage   *self);
void               embers_profile_page_set_sample_type  (EmbersProfilePage   *self,
                                                         guint                sample_type);
void               embers_profile_page_set_search       (EmbersProfilePage   *self,
                                                         const char          *text,
                                                         gboolean             regex,
                                                         gboolean             case_sensitive);
void               embers_profile_page_begin_search     (EmbersProfilePage   *self);
/* "3 matching frames, 12.5% of total" or "" */
const char        *embers_profile_page_get_search_summary (EmbersProfilePage *self);

/* The flame graph with keyboard focus in this view (the callees half in
 * a sandwich) and the top table, for tests */
EmbersFlameGraph  *embers_profile_page_get_flame_graph  (EmbersProfilePage   *self);
/* The selected frame's stack, root first, or NULL (no frame, an inverted
 * view, or transforms that rewrote the stacks) */
GStrv              embers_profile_page_dup_selected_call_site (EmbersProfilePage *self);
EmbersTopTable    *embers_profile_page_get_top_table    (EmbersProfilePage   *self);

/* The function details panel (Ctrl+I) beside the views, for the
 * selected function; the hosting page names the service whose source
 * roots it uses (embers_details_panel_set_source_key) */
EmbersDetailsPanel *embers_profile_page_get_details_panel (EmbersProfilePage *self);
gboolean           embers_profile_page_get_details_shown (EmbersProfilePage *self);

/* Diff profiles (embers_profile_is_diff()): the diff table shown instead
 * of the top table, the legend, and the switches over them. The palette
 * is the "diff-palette" setting, shared by every diff view. */
EmbersDiffTable   *embers_profile_page_get_diff_table   (EmbersProfilePage   *self);
EmbersDiffLegend  *embers_profile_page_get_diff_legend  (EmbersProfilePage   *self);
EmbersDiffPalette  embers_profile_page_get_diff_palette (EmbersProfilePage   *self);
void               embers_profile_page_set_diff_palette (EmbersProfilePage   *self,
                                                         EmbersDiffPalette    palette);
EmbersDiffMode     embers_profile_page_get_diff_mode    (EmbersProfilePage   *self);
void               embers_profile_page_set_diff_mode    (EmbersProfilePage   *self,
                                                         EmbersDiffMode       mode);
EmbersDiffWidth    embers_profile_page_get_diff_width   (EmbersProfilePage   *self);
void               embers_profile_page_set_diff_width   (EmbersProfilePage   *self,
                                                         EmbersDiffWidth      width);

/* A file name for exporting this page with extension @ext ("png") */
char              *embers_profile_page_suggest_name     (EmbersProfilePage   *self,
                                                         const char          *ext);
/* Writes what is on screen to @file: an image (PNG, SVG, PDF) through the
 * core painter, or the shown profile (pprof, folded, JSON); the format
 * comes from the file name. Runs off the main thread. */
/* Images are exported this many pixels wide (the window asks the user;
 * 1920 by default there); 0 exports them as wide as on screen */
void               embers_profile_page_set_export_width (EmbersProfilePage *self,
                                                         int                width);
int                embers_profile_page_get_export_width (EmbersProfilePage *self);
void               embers_profile_page_export_async     (EmbersProfilePage   *self,
                                                         GFile               *file,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
gboolean           embers_profile_page_export_finish    (EmbersProfilePage   *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);

/* The frame actions applied, in order; setting replaces them all */
const EmbersTransformStack *embers_profile_page_get_transforms    (EmbersProfilePage          *self);
void                        embers_profile_page_set_transforms    (EmbersProfilePage          *self,
                                                                   const EmbersTransformStack *stack);
EmbersTransformBar         *embers_profile_page_get_transform_bar (EmbersProfilePage          *self);

/* Saved views (.embers files): the view's part of @session (mode, sample
 * type, sandwich, frame actions, focus, search), and restoring it: at
 * once when a profile is shown, else when the next one is */
void               embers_profile_page_save_view        (EmbersProfilePage   *self,
                                                         EmbersSession       *session);
void               embers_profile_page_restore_view     (EmbersProfilePage   *self,
                                                         const EmbersSession *session);
/* Shows @message on the page's error page (a view file that cannot be
 * opened); @title names the tab */
void               embers_profile_page_show_error       (EmbersProfilePage   *self,
                                                         const char          *title,
                                                         const char          *message);

G_END_DECLS
