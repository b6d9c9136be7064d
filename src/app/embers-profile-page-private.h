/* embers-profile-page-private.h: what the profile page's files share
 *
 * The page is five files over one struct and one template
 * (ui/embers-profile-page.ui, the one place for its structure):
 *
 *  - embers-profile-page.c: the object, its properties, the view's
 *    choices (view, sample type, colours, diff switches), narrow
 *    windows, saved views;
 *  - -view.c: the view pipeline (transforms off the main thread), the
 *    search, and the links between the graphs, the tables and the tree;
 *  - -actions.c: the page.* actions, their keys and their states, the
 *    frame actions (transform stack);
 *  - -load.c: loading a file (progress, a partial profile, errors),
 *    showing a profile, export;
 *  - -details.c: the function details panel beside the views.
 *
 * Each calls the others only through the functions below.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-call-tree-view.h"
#include "embers-profile-page.h"
#include "embers-search.h"

G_BEGIN_DECLS

struct _EmbersProfilePage
{
  AdwBreakpointBin   parent_instance;

  /* Template */
  GtkStack          *stack;
  AdwStatusPage     *loading_page;
  AdwStatusPage     *error_page;
  GtkProgressBar    *load_progress;
  AdwBanner         *partial_banner;
  EmbersTransformBar *transform_bar;
  GtkDropDown       *sample_type_dropdown;
  GtkLabel          *view_menu_label;
  GtkStringList     *sample_types;
  GtkSearchBar      *search_bar;
  GtkSearchEntry    *search_entry;
  GtkToggleButton   *regex_button;
  GtkToggleButton   *case_button;
  GtkLabel          *search_summary;
  GtkPaned          *paned;
  GtkStack          *table_stack;
  EmbersTopTable    *top_table;
  EmbersDiffTable   *diff_table;
  GtkWidget         *diff_bar;
  EmbersDiffLegend  *diff_legend;
  GtkDropDown       *diff_palette_dropdown;
  GtkDropDown       *diff_mode_dropdown;
  GtkDropDown       *diff_width_dropdown;
  GtkWidget         *colors_button;
  GtkMenuButton     *view_menu_button;
  GMenuModel        *view_menu;
  GMenuModel        *colors_menu;
  AdwBreakpoint     *split_breakpoint;
  AdwBreakpoint     *narrow_breakpoint;
  AdwBreakpoint     *toolbar_breakpoint;
  GtkWidget         *toolbar;
  GtkStack          *view_switch;
  GtkStack          *view_stack;
  EmbersFlameGraph  *graph;
  EmbersFlameGraph  *callers_graph;
  EmbersFlameGraph  *callees_graph;
  GtkLabel          *callers_label;
  GtkLabel          *callees_label;
  EmbersCallTreeView *call_tree;
  GtkProgressBar    *busy_bar;

  /* The function details beside the views (embers-details-panel.c) */
  AdwOverlaySplitView *details_split;
  EmbersDetailsPanel  *details;
  gpointer             details_profile;   /* what the panel shows, compared only */

  GSettings         *settings;

  GFile             *file;
  char              *title;
  char              *error;
  EmbersPageState    state;
  GCancellable      *load_cancellable;
  GCancellable      *compute_cancellable;
  guint              compute_serial;
  guint              pulse_id;
  struct _LoadProgress *progress;    /* of the running load */
  guint              progress_id;
  /* A long load's coarse profile, shown in the graph until the whole one
   * is (embers-profile-page-load.c); tests: one every this many stacks */
  EmbersProfile     *partial_profile;
  guint              interim_every;

  /* The loaded profile and what the user did to it */
  EmbersProfile     *profile;
  EmbersView         view;
  EmbersView         last_tree_view;
  EmbersColorScheme  colors;
  EmbersDiffPalette  diff_palette;
  EmbersDiffMode     diff_mode;
  EmbersDiffWidth    diff_width;
  guint              sample_type;
  /* The frame actions, in order (embers-transform-stack.h) */
  EmbersTransformStack *transforms;
  /* The steps table_profile is the result of: a step pushed on them
   * applies to it alone */
  EmbersTransformStack *applied;
  /* A saved view to restore when the next profile is shown, and the
   * focus path to find once the graph has that profile */
  EmbersSession     *pending_view;
  GStrv              pending_focus;
  int                wide_position;
  int                export_width;   /* images, 0 = as on screen */
  gboolean           stacked;
  int                fit_diff_frames;
  char              *sandwich_function;
  /* The function with the most self time (the first top table row) */
  char              *hottest_function;

  /* Results of the transforms */
  EmbersProfile     *table_profile;
  EmbersProfile     *view_profile;
  EmbersProfile     *callers_profile;
  EmbersProfile     *callees_profile;

  /* Search */
  char              *search_text;
  GCancellable      *search_cancellable;
  guint              search_serial;
  guint              search_serial_done;
  EmbersSearch      *table_search;
  char              *summary;

  gboolean           search_regex;
  gboolean           search_case_sensitive;

  guint              focus_graph : 1;
};

enum {
  PAGE_PROP_0,
  PAGE_PROP_SEARCH_REGEX,
  PAGE_PROP_SEARCH_CASE_SENSITIVE,
  PAGE_PROP_PARTIAL,
  PAGE_PROP_TITLE,
  PAGE_PROP_STATE,
  PAGE_PROP_BUSY,
  PAGE_PROP_VIEW,
  PAGE_PROP_COLLAPSE_RECURSION,
  PAGE_PROP_COLORS,
  PAGE_PROP_SAMPLE_TYPE,
  PAGE_PROP_SEARCH_SUMMARY,
  PAGE_PROP_N_TRANSFORMS,
  N_PAGE_PROPS
};

extern GParamSpec *embers_profile_page_properties[N_PAGE_PROPS];

static inline void
embers_profile_page_notify (EmbersProfilePage *self,
                            guint              prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), embers_profile_page_properties[prop]);
}

static inline gboolean
embers_profile_page_is_diff (EmbersProfilePage *self)
{
  return self->profile != NULL && embers_profile_is_diff (self->profile);
}

/* The name of @node in @graph's profile, or NULL (none, or the root) */
static inline const char *
embers_profile_page_node_name (EmbersFlameGraph *graph,
                               guint32           node)
{
  EmbersProfile *profile = embers_flame_graph_get_profile (graph);

  if (profile == NULL || node == EMBERS_NODE_NONE || node == 0)
    return NULL;
  return embers_profile_node_name_str (profile, node);
}

/* embers-profile-page.c */
void              embers_profile_page_toast              (EmbersProfilePage   *self,
                                                          const char          *message);
void              embers_profile_page_set_state          (EmbersProfilePage   *self,
                                                          EmbersPageState      state);
void              embers_profile_page_set_title          (EmbersProfilePage   *self,
                                                          const char          *title);
/* The flame graph with the keyboard (a sandwich's half, or the main one) */
EmbersFlameGraph *embers_profile_page_active_graph       (EmbersProfilePage   *self);
void              embers_profile_page_apply_saved_view   (EmbersProfilePage   *self,
                                                          const EmbersSession *view);
gboolean          embers_profile_page_fit_diff_table     (GtkWidget           *paned,
                                                          GdkFrameClock       *clock,
                                                          gpointer             data);

/* embers-profile-page-view.c */
void              embers_profile_page_class_init_view    (GtkWidgetClass      *widget_class);
void              embers_profile_page_update_chips       (EmbersProfilePage   *self);
void              embers_profile_page_show_view          (EmbersProfilePage   *self);
void              embers_profile_page_recompute          (EmbersProfilePage   *self);
void              embers_profile_page_refresh_search     (EmbersProfilePage   *self);
void              embers_profile_page_search_step        (EmbersProfilePage   *self,
                                                          gboolean             forward);
/* @prop: PAGE_PROP_SEARCH_REGEX or PAGE_PROP_SEARCH_CASE_SENSITIVE */
void              embers_profile_page_set_search_flag    (EmbersProfilePage   *self,
                                                          guint                prop,
                                                          gboolean             value);
/* The function the view's actions default to: the graph's selection,
 * the table's, or the hottest */
const char       *embers_profile_page_default_function   (EmbersProfilePage   *self);

/* embers-profile-page-actions.c */
void              embers_profile_page_class_init_actions (GtkWidgetClass      *widget_class);
void              embers_profile_page_update_actions     (EmbersProfilePage   *self);
void              embers_profile_page_transforms_changed (EmbersProfilePage   *self);

/* embers-profile-page-load.c */
void              embers_profile_page_stop_load          (EmbersProfilePage   *self);
/* The coarse profile leaves the graph (the whole one takes its place,
 * or the load ended without one) */
void              embers_profile_page_end_partial        (EmbersProfilePage   *self);

/* embers-profile-page-details.c */
void              embers_profile_page_setup_details      (EmbersProfilePage   *self);
void              embers_profile_page_update_details     (EmbersProfilePage   *self);

G_END_DECLS
