/* embers-explore-page-private.h: what the explore page's files share
 *
 * The page is four files over one struct: embers-explore-page.c (the
 * object, its requests, the query, the range, the flame graph and the
 * API), -services.c (the services and profile types), -chart.c (the
 * time-series chart and its drag) and -actions.c (the page's actions,
 * its menu, the node limit and the recording-rule buttons). Each calls
 * the others only through the functions below.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include "embers-accessible.h"
#include "embers-chart.h"
#include "embers-drop-down.h"
#include "embers-explore-page.h"
#include "embers-explore-profiles.h"
#include "embers-over-time-dialog.h"
#include "embers-theme.h"
#include "embers-filter-bar.h"
#include "embers-pyroscope-source.h"
#include "embers-rule-dialog.h"
#include "embers-filler.h"
#include "embers-flame-graph.h"
#include "embers-query-url.h"
#include "embers-status.h"
#include "embers-request.h"
#include "embers-widgets.h"

G_BEGIN_DECLS

#define DEFAULT_PRESET_S (60 * 60)
#define SERVICE_LABEL    "service_name"
#define TYPE_LABEL       "__profile_type__"

typedef enum
{
  REQ_SERVICES,
  REQ_CHART,
  REQ_PROFILE,
  N_REQ
} RequestKind;

/* The time range buttons (presets[] in embers-explore-page.c) */
#define EMBERS_EXPLORE_N_PRESETS 5

struct _EmbersExplorePage
{
  AdwBreakpointBin   parent_instance;

  /* Template */
  AdwOverlaySplitView *split_view;
  GtkStack          *services_stack;
  GtkListView       *services_view;
  AdwStatusPage     *services_status;
  GtkButton         *services_retry;
  GtkBox            *toolbar_start;
  GtkBox            *toolbar;
  EmbersFilterBar   *filter_bar;
  EmbersStatus      *chart_stack;     /* the chart, loading or a message */
  EmbersStatus      *profile_stack;   /* the flame graph and table, likewise */
  GtkWidget         *spinner;
  GtkButton         *compare_button;
  GtkBox            *actions_box;     /* wide: Nodes, refresh, Compare…, Labels, Rules */
  GtkMenuButton     *more_button;     /* narrow: refresh and this menu instead */
  AdwBreakpoint     *small_breakpoint; /* 600 × 500: one row, filters folded */
  AdwBreakpoint     *narrow_breakpoint; /* 600 px: two rows */

  /* Built in code */
  GtkDropDown       *type_dropdown;
  GtkStringList     *type_names;      /* shown */
  GPtrArray         *type_ids;        /* char *, parallel to type_names */
  GtkToggleButton   *preset_buttons[EMBERS_EXPLORE_N_PRESETS];
  GtkEntry          *from_entry;
  GtkEntry          *to_entry;
  GtkLabel          *zone_label;
  GtkAdjustment     *max_nodes;
  GtkBox            *chips;
  GtkBox            *time_box;       /* in the range button's popover */
  GtkMenuButton     *range_button;
  GtkLabel          *range_label;
  GtkImage          *range_icon;      /* instead of the range at 600 × 500 */
  GtkDrawingArea    *chart_area;
  EmbersProfilePage *profile_page;
  EmbersFiller      *filler;          /* Load More: `other` filled in */

  EmbersSource      *source;
  EmbersQueryModel  *model;           /* the workspace's query, or NULL */
  char              *source_name;
  char              *title;
  GtkStringList     *services;
  GtkSingleSelection *selection;
  GHashTable        *service_types;   /* service -> GStrv of type ids */
  char              *service;
  char              *profile_type;
  gint64             preset_s;        /* 0: absolute */
  gint64             start_ms;
  gint64             end_ms;

  GCancellable      *cancellables[N_REQ];
  GCancellable      *details_cancellable;   /* the details panel's lines */
  char              *errors[N_REQ];

  EmbersChart       *chart;
  GPtrArray         *series;
  EmbersProfilesBar *profiles_bar;    /* the heaviest profiles, one picked */
  char              *picked_scope;    /* the query the pick was made in */
  double             drag_x;
  double             drag_y;
  gboolean           dragging;

  /* Refresh keeps the focused frame: its name path from the root */
  GPtrArray         *restore_path;
};

enum
{
  EMBERS_EXPLORE_PAGE_PROP_0,
  EMBERS_EXPLORE_PAGE_PROP_TITLE,
  EMBERS_EXPLORE_PAGE_PROP_LOADING,
  EMBERS_EXPLORE_PAGE_N_PROPS
};

extern GParamSpec *embers_explore_page_properties[EMBERS_EXPLORE_PAGE_N_PROPS];

enum
{
  EMBERS_EXPLORE_PAGE_SIGNAL_COMPARE_REQUESTED,
  EMBERS_EXPLORE_PAGE_N_SIGNALS
};

extern guint embers_explore_page_signals[EMBERS_EXPLORE_PAGE_N_SIGNALS];

void embers_explore_update_loading (EmbersExplorePage *self);
EmbersRequest * embers_explore_request_start (EmbersExplorePage *self, RequestKind kind);
void embers_explore_request_cancel (EmbersExplorePage *self, RequestKind kind);
gboolean embers_explore_request_finish (EmbersRequest *req);
void embers_explore_set_error (EmbersExplorePage *self, RequestKind kind, const GError *error);
void embers_explore_set_title (EmbersExplorePage *self);
void embers_explore_push_model (EmbersExplorePage *self);
void embers_explore_show_loading (EmbersExplorePage *self, EmbersStatus *panel);
void embers_explore_profile_show_status (EmbersExplorePage *self, const char *icon, const char *title, const char *description, gboolean retry);
void embers_explore_load_profile (EmbersExplorePage *self);
void embers_explore_reload_queries (EmbersExplorePage *self);
void embers_explore_fill_types (EmbersExplorePage *self);
void embers_explore_load_services (EmbersExplorePage *self);
void embers_explore_service_selected (EmbersExplorePage *self);
void embers_explore_type_selected (EmbersExplorePage *self);
void embers_explore_setup_service_row (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data);
void embers_explore_bind_service_row (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data);
void embers_explore_chart_show_status (EmbersExplorePage *self, const char *title, const char *description, gboolean retry);
void embers_explore_load_chart (EmbersExplorePage *self);
void embers_explore_build_chart (EmbersExplorePage *self);
void embers_explore_create_rule_action (GtkWidget *widget, const char *action_name, GVariant *param);
void embers_explore_show_rules_action (GtkWidget *widget, const char *action_name, GVariant *param);
void embers_explore_refresh_action (GtkWidget *widget, const char *action_name, GVariant *param);
void embers_explore_compare_action (GtkWidget *widget, const char *action_name, GVariant *param);
void embers_explore_services_action (GtkWidget *widget, const char *action_name, GVariant *param);
void embers_explore_labels_action (GtkWidget *widget, const char *action_name, GVariant *param);
void embers_explore_add_max_nodes (EmbersExplorePage *self);
void embers_explore_build_more_menu (EmbersExplorePage *self);
void embers_explore_add_rules_buttons (EmbersExplorePage *self);

G_END_DECLS
