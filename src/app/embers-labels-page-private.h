/* embers-labels-page-private.h: what the labels page's files share
 *
 * The page is four files over one struct: embers-labels-page.c (the
 * object, its requests, the values' loading, actions and API),
 * -names.c (the label names beside the values and their counts),
 * -cards.c (the values as cards, the marks and the heading) and
 * -table.c (the values as a table). Each calls the others only through
 * the functions below.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-accessible.h"
#include "embers-adaptive.h"
#include "embers-label-chart.h"
#include "embers-query-url.h"
#include "embers-status.h"
#include "embers-focus.h"
#include "embers-labels-page.h"
#include "embers-request.h"
#include "embers-selector.h"
#include "embers-time.h"
#include "embers-units.h"

G_BEGIN_DECLS

#define SERVICE_LABEL "service_name"

typedef enum
{
  REQ_NAMES,
  REQ_VALUES,
  N_REQ
} RequestKind;

/* The table's columns */
typedef enum
{
  COL_VALUE,
  COL_TOTAL,
  COL_SHARE,
  COL_MEAN,
  COL_STDDEV,
  COL_MAX,
  COL_STEPS,
  COL_MARK,
  COL_ACTIONS,
} Column;

/* The page */

struct _EmbersLabelsPage
{
  AdwBreakpointBin   parent_instance;

  GtkWidget         *root;
  GtkLabel          *title_label;
  GtkToggleButton   *view_buttons[EMBERS_LABELS_VIEW_TABLE + 1];
  GtkToggleButton   *show_all_button;
  GtkDropDown       *view_dropdown;   /* instead of view_buttons when narrow */
  GtkStack          *view_switch;     /* the buttons, or the drop-down */
  AdwBreakpoint     *views_breakpoint;
  AdwOverlaySplitView *split_view;    /* label names beside or over the values */
  GtkWidget         *spinner;
  GtkButton         *compare_button;
  GtkLabel          *baseline_label;
  GtkLabel          *comparison_label;
  GtkStack          *names_stack;
  GtkListBox        *names_list;
  AdwStatusPage     *names_status;
  GtkStack          *values_stack;
  GtkLabel          *values_heading;
  GtkCheckButton    *same_scale_check;
  GtkLabel          *no_time_label;
  GtkWidget         *hint_label;      /* with values; whole, or hidden when narrow */
  GtkWidget         *toolbar;
  GtkWidget         *values_box;      /* the split view's content */
  GtkFlowBox        *cards;
  GtkLabel          *rest_label;
  GtkColumnView     *table;
  GListStore        *table_store;
  GPtrArray         *table_stats;     /* the stats the table's rows are of */
  gboolean           table_marks_stale; /* marks changed while the table was hidden */
  EmbersStatus      *values_panel;    /* the cards or table, loading or a message */
  char              *shown_label;     /* the label whose values are on screen */
  gboolean           values_stale;    /* they answer an older query: new ones are asked for */

  EmbersSource      *source;
  EmbersQuery       *query;
  char              *service;
  char              *unit;
  char              *title;
  GWeakRef           explore;
  GWeakRef           model;    /* the workspace's query: where filters go */

  GtkStringList     *names;
  GHashTable        *cardinality;     /* name -> GINT_TO_POINTER (n + 1) */
  guint              pending_counts;
  GStrv              count_names;     /* label names whose values are counted */
  guint              count_next;      /* the next of them to ask for */
  char              *label;
  GPtrArray         *stats;
  GPtrArray         *charts;          /* EmbersLabelChart shown */
  EmbersLabelsView   view;
  gboolean           show_all;
  gboolean           same_scale;      /* one scale for every value's chart */
  gboolean           has_time;        /* the values' points have more than one time */
  double             grand_total;
  double             max_of_max;
  double             hist_lo;         /* every value's per-step range */
  double             hist_hi;
  GPtrArray         *top;             /* the values shown as cards */
  guint              n_built;         /* of top */
  guint              build_source;    /* the tick that builds the rest of the cards */
  GListModel        *sorted;          /* the table's rows as sorted */
  int                sort_column;     /* the table's primary sort column */

  gint64             preset_s;        /* > 0: the range is the last preset_s seconds */

  char              *baseline_name;
  char              *baseline_value;
  char              *comparison_name;
  char              *comparison_value;

  GCancellable      *cancellables[N_REQ];
  char              *errors[N_REQ];
};

enum
{
  EMBERS_LABELS_PAGE_PROP_0,
  EMBERS_LABELS_PAGE_PROP_TITLE,
  EMBERS_LABELS_PAGE_PROP_LOADING,
  EMBERS_LABELS_PAGE_PROP_CAN_COMPARE,
  EMBERS_LABELS_PAGE_PROP_VIEW,
  EMBERS_LABELS_PAGE_PROP_SHOW_ALL,
  EMBERS_LABELS_PAGE_PROP_SAME_SCALE,
  EMBERS_LABELS_PAGE_N_PROPS
};

extern GParamSpec *embers_labels_page_properties[EMBERS_LABELS_PAGE_N_PROPS];

enum
{
  EMBERS_LABELS_PAGE_SIGNAL_COMPARE_REQUESTED,
  EMBERS_LABELS_PAGE_SIGNAL_FILTER_ADDED,
  EMBERS_LABELS_PAGE_N_SIGNALS
};

extern guint embers_labels_page_signals[EMBERS_LABELS_PAGE_N_SIGNALS];

/* The views' names and tooltips, in EmbersLabelsView order */
typedef struct
{
  const char *label;
  const char *tooltip;
} EmbersLabelsViewName;

extern const EmbersLabelsViewName embers_labels_view_names[EMBERS_LABELS_VIEW_TABLE + 1];

/* A row of the table: one value's statistics */
#define EMBERS_TYPE_LABEL_VALUE_ROW (embers_label_value_row_get_type ())
G_DECLARE_FINAL_TYPE (EmbersLabelValueRow, embers_label_value_row, EMBERS, LABEL_VALUE_ROW, GObject)

void embers_labels_update_loading (EmbersLabelsPage *self);
EmbersRequest * embers_labels_request_start (EmbersLabelsPage *self, RequestKind kind);
void embers_labels_request_done (EmbersLabelsPage *self, RequestKind kind);
const char * embers_labels_display_value (const char *value);
char * embers_labels_format_value (EmbersLabelsPage *self, double value);
EmbersLabelView embers_labels_chart_view (EmbersLabelsPage *self);
const char * const * embers_labels_matchers (EmbersLabelsPage *self, const char *out[2]);
void embers_labels_show_status (EmbersLabelsPage *self, const char *title, const char *description, gboolean retry);
void embers_labels_show_values_loading (EmbersLabelsPage *self);
void embers_labels_load_values (EmbersLabelsPage *self);
gboolean embers_labels_page_focus (GtkWidget *widget, GtkDirectionType direction);
gboolean embers_labels_is_baseline (EmbersLabelsPage *self, const char *value);
void embers_labels_refresh_table_marks (EmbersLabelsPage *self);
void embers_labels_update_marks (EmbersLabelsPage *self, gboolean changed);
GtkWidget * embers_labels_value_menu_button (const char *value);
void embers_labels_apply_scale (EmbersLabelsPage *self, EmbersLabelChart *chart);
void embers_labels_stop_building (EmbersLabelsPage *self);
void embers_labels_clear_values (EmbersLabelsPage *self);
void embers_labels_update_sensitivity (EmbersLabelsPage *self);
void embers_labels_update_heading (EmbersLabelsPage *self);
void embers_labels_show_values_view (EmbersLabelsPage *self);
void embers_labels_rebuild_values (EmbersLabelsPage *self);
EmbersLabelValueRow * embers_label_value_row_new (GPtrArray *all, guint index);
void embers_labels_build_table (EmbersLabelsPage *self);
GtkListBoxRow * embers_labels_find_name_row (EmbersLabelsPage *self, const char *name);
void embers_labels_load_names (EmbersLabelsPage *self);
void embers_labels_name_activated (EmbersLabelsPage *self, GtkListBoxRow *row, GtkListBox *list);

G_END_DECLS
