/* embers-compare-pane-private.h: what the compare pane's files share
 *
 * The pane is two files over one struct: embers-compare-pane.c (the
 * object, its kind, the query side: type, selector, chart, range) and
 * -file.c (the file or query URL side: the file, its load and sample
 * types, the file chooser).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-accessible.h"
#include "embers-compare-pane.h"
#include "embers-diff.h"
#include "embers-drop-down.h"
#include "embers-location.h"
#include "embers-query-model.h"
#include "embers-query-url.h"
#include "embers-status.h"
#include "embers-text.h"
#include "embers-time.h"

G_BEGIN_DECLS

#define MINUTE_MS ((gint64) 60 * 1000)
#define HOUR_MS   ((gint64) 3600 * 1000)

struct _EmbersComparePane
{
  GtkBox                 parent_instance;

  gboolean               comparison;
  EmbersComparePaneKind  kind;
  EmbersComparePane     *partner;
  EmbersSource          *source;

  /* A file: its profile once loaded (for its sample types) */
  GFile                 *file;
  EmbersProfile         *profile;
  char                  *sample_type;  /* chosen by name; NULL: the file's default */
  GCancellable          *load_cancellable;
  /* A Pyroscope query URL */
  char                  *url;
  /* A query on the source */
  char                  *profile_type;
  char                  *selector;     /* as applied, canonical */
  gint64                 start_ms;     /* the selected range */
  gint64                 end_ms;
  gint64                 win_start;    /* the chart's window */
  gint64                 win_end;
  GCancellable          *series_cancellable;
  GCancellable          *dialog_cancellable;
  /* The drop-downs' lists change under them: not a choice */
  gboolean               filling;

  /* Template */
  GtkLabel              *title_label;
  GtkWidget             *kind_switch;
  GtkToggleButton       *file_toggle;
  GtkToggleButton       *query_toggle;
  GtkWidget             *file_box;
  GtkButton             *choose_button;
  GtkLabel              *file_label;
  GtkWidget             *sample_box;
  GtkLabel              *sample_label;
  GtkDropDown           *sample_dropdown;
  GtkStringList         *samples;
  GtkWidget             *query_box;
  GtkDropDown           *type_dropdown;
  GtkStringList         *types;
  GtkEntry              *selector_entry;
  EmbersFilterBar       *filter_bar;
  EmbersSeriesChart     *chart;
  EmbersStatus          *chart_panel;  /* the chart, loading or a message */
  GtkEntry              *from_entry;
  GtkEntry              *to_entry;
};

enum {
  EMBERS_COMPARE_PANE_SIGNAL_RANGE_CHOSEN,
  EMBERS_COMPARE_PANE_SIGNAL_SAMPLE_CHOSEN,
  EMBERS_COMPARE_PANE_SIGNAL_SAMPLES_LOADED,
  EMBERS_COMPARE_PANE_SIGNAL_SERIES_LOADED,
  EMBERS_COMPARE_PANE_SIGNAL_ERROR,
  EMBERS_COMPARE_PANE_N_SIGNALS
};

extern guint embers_compare_pane_signals[EMBERS_COMPARE_PANE_N_SIGNALS];

/* A request of the pane (a file's load, a series): a newer one cancels
 * it, and its answer counts only while it is the newest */
typedef struct
{
  EmbersComparePane *self;
  GCancellable      *cancellable;
} Request;

Request * embers_compare_pane_request_new (EmbersComparePane *self, GCancellable **slot);
void embers_compare_pane_request_free (Request *req);
gboolean embers_compare_pane_request_is_current (Request *req, GCancellable **slot);
void embers_compare_pane_say (EmbersComparePane *self, const char *message);
void embers_compare_pane_set_kind (EmbersComparePane *self, EmbersComparePaneKind kind);
EmbersComparePaneKind embers_compare_pane_file_kind (EmbersComparePane *self);
char * embers_compare_pane_describe_url (const char *url);
void embers_compare_pane_sample_changed (GtkDropDown *dropdown, GParamSpec *pspec, EmbersComparePane *self);
void embers_compare_pane_forget_source (EmbersComparePane *self);
void embers_compare_pane_choose_file_clicked (GtkButton *button, EmbersComparePane *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Request, embers_compare_pane_request_free)

G_END_DECLS
