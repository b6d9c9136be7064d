/* embers-compare-page.c: baseline vs comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-accessible.h"
#include "embers-compare-page.h"
#include "embers-comparison.h"
#include "embers-location.h"
#include "embers-query-model.h"
#include "embers-noise-controls.h"
#include "embers-window.h"
#include "embers-diff.h"
#include "embers-drop-down.h"
#include "embers-format.h"
#include "embers-query-url.h"
#include "embers-status.h"
#include "embers-text.h"
#include "embers-time.h"
#include "embers-units.h"

#define MINUTE_MS ((gint64) 60 * 1000)
#define HOUR_MS   ((gint64) 3600 * 1000)

typedef enum
{
  SIDE_NONE,
  SIDE_FILE,
  SIDE_URL,
  SIDE_QUERY,
} SideKind;

typedef struct
{
  EmbersComparePage *page;
  gboolean           comparison;
  SideKind           kind;

  /* A file: its profile once loaded (for its sample types) */
  GFile             *file;
  EmbersProfile     *profile;
  char              *sample_type;  /* chosen by name; NULL: the file's default */
  GCancellable      *load_cancellable;
  /* A Pyroscope query URL */
  char              *url;
  /* A query on the page's source */
  char              *profile_type;
  char              *selector;     /* as applied, canonical */
  gint64             start_ms;     /* the selected range */
  gint64             end_ms;
  gint64             win_start;    /* the chart's window */
  gint64             win_end;

  GtkWidget         *box;
  GtkWidget         *kind_switch;
  GtkWidget         *file_toggle;
  GtkWidget         *query_toggle;
  GtkWidget         *file_box;
  GtkWidget         *file_label;
  GtkWidget         *sample_box;
  GtkDropDown       *sample_dropdown;
  GtkStringList     *samples;
  GtkWidget         *query_box;
  GtkDropDown       *type_dropdown;
  GtkStringList     *types;
  GtkWidget         *selector_entry;
  EmbersFilterBar   *filter_bar;
  EmbersSeriesChart *chart;
  EmbersStatus      *chart_panel;  /* the chart, loading or a message */
  GtkWidget         *from_entry;
  GtkWidget         *to_entry;
  GCancellable      *series_cancellable;
  gboolean           updating;
} Side;

struct _EmbersComparePage
{
  AdwBreakpointBin   parent_instance;

  GtkWidget         *root;
  Side               sides[2];
  EmbersSource      *source;

  GtkWidget         *sync_check;
  GtkWidget         *preset_button;
  GtkWidget         *compare_button;
  GtkWidget         *cancel_button;
  GtkWidget         *spinner;
  GtkWidget         *status_label;
  GtkWidget         *result_stack;
  EmbersStatus      *result_panel;  /* the diff, loading or a message */
  GtkWidget         *sources;          /* the form: both sides, options */
  GtkWidget         *summary_button;   /* the form folded to one line */
  GtkWidget         *summary_label;
  gboolean           folded;

  EmbersProfilePage *profile_page;

  EmbersProfile     *diff;

  GCancellable      *cancellable;
  GCancellable      *types_cancellable;
  GCancellable      *cancellable_files;   /* the file dialogs, until disposed */
  gboolean           busy;
  char              *error;
};

G_DEFINE_FINAL_TYPE (EmbersComparePage, embers_compare_page, ADW_TYPE_BREAKPOINT_BIN)

enum {
  PROP_0,
  PROP_BUSY,
  PROP_FOLDED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_COMPARED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void side_fetch_series (Side *side);
static void side_show_range   (Side *side);

/* Helpers */

static char *
describe_type_item (GtkStringObject *item,
                    gpointer         user_data)
{
  return embers_profile_type_describe (gtk_string_object_get_string (item));
}

static Side *
other_side (Side *side)
{
  return &side->page->sides[side->comparison ? 0 : 1];
}

static gboolean
has_range (Side *side)
{
  return side->end_ms > side->start_ms;
}

static char *
format_time (gint64 ms)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_local (ms / 1000);

  return dt != NULL ? embers_time_format_date_time (dt, FALSE) : g_strdup ("?");
}

static gboolean
is_cancelled (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
         g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_CANCELED);
}

static void
set_error (EmbersComparePage *self,
           const char        *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (GTK_LABEL (self->status_label), message != NULL ? message : "");
  gtk_widget_set_visible (self->status_label, message != NULL);
}

static void
set_busy (EmbersComparePage *self,
          gboolean           busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  gtk_widget_set_visible (self->spinner, busy);
  gtk_widget_set_visible (self->cancel_button, busy);
  gtk_widget_set_sensitive (self->compare_button, !busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* What a panel loads: the time range asked for */
static char *
loading_text (gint64 start_ms,
              gint64 end_ms)
{
  g_autofree char *from = embers_query_url_format_local_time (start_ms);
  g_autofree char *to = embers_query_url_format_local_time (end_ms);

  /* Translators: over a chart or a flame graph while it loads: the time
   * range asked for, from and to */
  return g_strdup_printf (_("Loading %s – %s…"), from, to);
}

static gboolean
sync_on (EmbersComparePage *self)
{
  return gtk_check_button_get_active (GTK_CHECK_BUTTON (self->sync_check));
}

/* A request of one side (series, a file's load): a newer one cancels it,
 * and its answer counts only while it is the current one */
typedef struct
{
  EmbersComparePage *page;
  guint              side;
  GCancellable      *cancellable;
} SideRequest;

static SideRequest *
side_request_new (Side          *side,
                  GCancellable **slot)
{
  SideRequest *req = g_new0 (SideRequest, 1);

  g_cancellable_cancel (*slot);
  g_clear_object (slot);
  *slot = g_cancellable_new ();
  req->page = g_object_ref (side->page);
  req->side = side->comparison ? 1 : 0;
  req->cancellable = g_object_ref (*slot);
  return req;
}

static void
side_request_free (SideRequest *req)
{
  g_object_unref (req->page);
  g_object_unref (req->cancellable);
  g_free (req);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SideRequest, side_request_free)

/* The side when @req is its newest request of that kind (then it is done) */
static Side *
side_request_current (SideRequest *req,
                      gsize        slot_offset)
{
  Side *side = &req->page->sides[req->side];
  GCancellable **slot = (GCancellable **) G_STRUCT_MEMBER_P (side, slot_offset);

  if (*slot != req->cancellable || g_cancellable_is_cancelled (req->cancellable))
    return NULL;
  g_clear_object (slot);
  return side;
}

/* A Pyroscope query URL for people: "process_cpu:cpu {service_name="api"}
 * on host:port"; the URL itself when it does not parse */
static char *
describe_url (const char *url)
{
  g_autoptr(EmbersQueryUrl) parsed = embers_query_url_parse (url, g_get_real_time () / 1000, NULL);
  g_autoptr(EmbersProfileTypeInfo) info = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autofree char *host = NULL;

  if (parsed == NULL)
    return embers_text_mask_credentials (url);
  info = embers_profile_type_info_new (parsed->query->profile_type);
  uri = g_uri_parse (parsed->base_url, G_URI_FLAGS_NONE, NULL);
  if (uri != NULL && g_uri_get_port (uri) > 0)
    host = g_strdup_printf ("%s:%d", g_uri_get_host (uri), g_uri_get_port (uri));
  else
    host = g_strdup (uri != NULL ? g_uri_get_host (uri) : parsed->base_url);
  /* Translators: a query URL as one side of a comparison: profile type,
   * label selector, then the server, e.g. process_cpu:cpu {service_name="api"} on localhost:4040 */
  return g_strdup_printf (_("%s:%s %s on %s"),
                          info != NULL ? info->name : parsed->query->profile_type,
                          info != NULL ? info->sample_type : "",
                          parsed->query->label_selector, host);
}

/* The result: the diff in a profile page, so that it has everything a
 * flame graph has (focus, search, sandwich, keyboard, export, context
 * menu) plus the legend, the switches and the diff table */

static char *
side_describe (Side *side)
{
  if (side->kind == SIDE_FILE && side->file != NULL)
    return g_file_get_basename (side->file);
  if (side->kind == SIDE_URL && side->url != NULL)
    return describe_url (side->url);
  if (side->kind == SIDE_QUERY && has_range (side))
    {
      g_autofree char *from = format_time (side->start_ms);

      if (side->selector != NULL && side->selector[0] != '\0' && g_strcmp0 (side->selector, "{}") != 0)
        /* Translators: one side of a comparison: a label selector and its start,
         * a date and time such as 2026-11-24 07:43 */
        return g_strdup_printf (_("%s at %s"), side->selector, from);
      return g_steal_pointer (&from);
    }
  return NULL;
}

static void
show_diff (EmbersComparePage *self,
           EmbersProfile     *diff)
{
  g_set_object (&self->diff, diff);
  if (diff != NULL)
    {
      g_autofree char *base = side_describe (&self->sides[0]);
      g_autofree char *comp = side_describe (&self->sides[1]);
      g_autofree char *title = NULL;

      Side *b = &self->sides[0], *c = &self->sides[1];

      if (b->kind == SIDE_QUERY && c->kind == SIDE_QUERY &&
          g_strcmp0 (b->selector, c->selector) == 0 && g_strcmp0 (b->profile_type, c->profile_type) == 0)
        {
          /* One query at two times: say it once */
          g_autofree char *from_b = format_time (b->start_ms);
          g_autofree char *from_c = format_time (c->start_ms);

          if (b->selector != NULL && b->selector[0] != '\0' && g_strcmp0 (b->selector, "{}") != 0)
            /* Translators: the title of a comparison: a label selector, baseline time vs comparison time */
            title = g_strdup_printf (_("%s: %s vs %s"), b->selector, from_b, from_c);
          else
            title = g_strdup_printf (_("%s vs %s"), from_b, from_c);
        }
      else if (base != NULL && comp != NULL)
        /* Translators: the title of a comparison: baseline vs comparison */
        title = g_strdup_printf (_("%s vs %s"), base, comp);
      embers_profile_page_set_profile (self->profile_page, diff, title != NULL ? title : _("Comparison"));
      gtk_label_set_text (GTK_LABEL (self->summary_label), title != NULL ? title : _("Comparison"));
      gtk_widget_set_tooltip_text (self->summary_button, _("Change the baseline or the comparison"));
    }
  gtk_stack_set_visible_child_name (GTK_STACK (self->result_stack),
                                    diff != NULL ? "result" : "empty");
}

/* Sides: which kind */

static void
side_set_kind (Side     *side,
               SideKind  kind)
{
  side->kind = kind;
  side->updating = TRUE;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (side->file_toggle), kind != SIDE_QUERY);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (side->query_toggle), kind == SIDE_QUERY);
  side->updating = FALSE;
  gtk_widget_set_visible (side->file_box, kind != SIDE_QUERY);
  gtk_widget_set_visible (side->query_box, kind == SIDE_QUERY);
  gtk_widget_set_visible (side->sample_box, kind == SIDE_FILE && side->profile != NULL);
}

/* Files and their sample types */

static char *
sample_type_text (EmbersProfile *profile,
                  guint          index)
{
  const char *unit = embers_profile_get_sample_unit (profile, index);

  if (unit == NULL || unit[0] == '\0')
    return g_strdup (embers_profile_get_sample_type (profile, index));
  /* Translators: a sample type and its unit, e.g. cpu (nanoseconds) */
  return g_strdup_printf (_("%s (%s)"), embers_profile_get_sample_type (profile, index), unit);
}

/* The sample type index a file side compares: the chosen one, else the
 * file's default */
static guint
side_sample_index (Side          *side,
                   EmbersProfile *profile)
{
  int index = side->sample_type != NULL ? embers_profile_find_sample_type (profile, side->sample_type) : -1;

  return index >= 0 ? (guint) index : embers_profile_get_default_sample_type (profile);
}

static void
side_fill_samples (Side *side)
{
  guint n = side->profile != NULL ? embers_profile_get_n_sample_types (side->profile) : 0;
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (shown, sample_type_text (side->profile, i));
  g_ptr_array_add (shown, NULL);

  side->updating = TRUE;
  gtk_string_list_splice (side->samples, 0, g_list_model_get_n_items (G_LIST_MODEL (side->samples)),
                          (const char * const *) shown->pdata);
  if (n > 0)
    gtk_drop_down_set_selected (side->sample_dropdown, side_sample_index (side, side->profile));
  side->updating = FALSE;
  gtk_widget_set_visible (side->sample_box, side->kind == SIDE_FILE && n > 0);
}

/* Both files loaded: are the chosen types comparable? Says so at once */
static void
check_samples (EmbersComparePage *self)
{
  Side *b = &self->sides[0], *c = &self->sides[1];
  g_autoptr(GError) error = NULL;
  guint bi, ci;

  if (b->kind != SIDE_FILE || c->kind != SIDE_FILE || b->profile == NULL || c->profile == NULL)
    return;
  bi = side_sample_index (b, b->profile);
  ci = side_sample_index (c, c->profile);
  if (!embers_diff_check_units (embers_profile_get_sample_type (b->profile, bi),
                                embers_profile_get_sample_unit (b->profile, bi),
                                embers_profile_get_sample_type (c->profile, ci),
                                embers_profile_get_sample_unit (c->profile, ci), &error))
    set_error (self, error->message);
  else if (!self->busy)
    set_error (self, NULL);
}

static gboolean
side_choose_sample (Side       *side,
                    const char *name)
{
  if (side->profile != NULL && embers_profile_find_sample_type (side->profile, name) < 0)
    return FALSE;
  g_free (side->sample_type);
  side->sample_type = g_strdup (name);
  if (side->profile != NULL)
    {
      side->updating = TRUE;
      gtk_drop_down_set_selected (side->sample_dropdown, side_sample_index (side, side->profile));
      side->updating = FALSE;
    }
  return TRUE;
}

static void
sample_changed (GtkDropDown *dropdown,
                GParamSpec  *pspec,
                Side        *side)
{
  EmbersComparePage *self = side->page;
  guint selected = gtk_drop_down_get_selected (dropdown);
  const char *name;
  Side *other = other_side (side);

  if (side->updating || side->profile == NULL || selected == GTK_INVALID_LIST_POSITION ||
      selected >= embers_profile_get_n_sample_types (side->profile))
    return;
  name = embers_profile_get_sample_type (side->profile, selected);
  g_free (side->sample_type);
  side->sample_type = g_strdup (name);

  /* The other file follows when it has that type: cpu with cpu */
  if (other->kind == SIDE_FILE && other->profile != NULL &&
      embers_profile_find_sample_type (other->profile, name) >= 0)
    side_choose_sample (other, name);
  check_samples (self);

  /* Two files already compared: the new type at once (local work) */
  if (self->diff != NULL && self->error == NULL && !self->busy &&
      other->kind == SIDE_FILE && other->profile != NULL)
    embers_compare_page_compare (self);
}

static void
load_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SideRequest) req = user_data;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  Side *side;

  profile = embers_profile_load_file_finish (result, &error);
  side = side_request_current (req, G_STRUCT_OFFSET (Side, load_cancellable));
  if (side == NULL)
    return;
  if (profile == NULL)
    {
      g_autofree char *name = g_file_get_basename (side->file);
      g_autofree char *message = g_strdup_printf ("%s: %s", name, error->message);

      if (!is_cancelled (error))
        set_error (side->page, message);
      return;
    }
  g_set_object (&side->profile, profile);
  side_fill_samples (side);
  check_samples (side->page);
}

static void
side_set_file (Side     *side,
               GFile    *file,
               gboolean  preload)
{
  g_autofree char *name = NULL;

  g_cancellable_cancel (side->load_cancellable);
  g_clear_object (&side->load_cancellable);
  g_clear_object (&side->profile);
  g_clear_pointer (&side->url, g_free);
  /* Another file starts from its own default type */
  if (file == NULL || side->file == NULL || !g_file_equal (file, side->file))
    g_clear_pointer (&side->sample_type, g_free);
  g_set_object (&side->file, file);
  if (file != NULL)
    name = g_file_get_basename (file);
  gtk_label_set_text (GTK_LABEL (side->file_label), name != NULL ? name : _("No file chosen"));
  gtk_widget_set_tooltip_text (side->file_label, file != NULL ? g_file_peek_path (file) : NULL);
  side_set_kind (side, file != NULL ? SIDE_FILE : SIDE_NONE);
  side_fill_samples (side);

  /* Its sample types, before anything is compared */
  if (file != NULL && preload)
    {
      SideRequest *req = side_request_new (side, &side->load_cancellable);

      embers_profile_load_file_async (file, req->cancellable, load_done, req);
    }
}

static void
side_set_url (Side       *side,
              const char *url)
{
  g_autofree char *text = describe_url (url);

  g_cancellable_cancel (side->load_cancellable);
  g_clear_object (&side->load_cancellable);
  g_clear_object (&side->profile);
  g_clear_object (&side->file);
  g_free (side->url);
  side->url = g_strdup (url);
  gtk_label_set_text (GTK_LABEL (side->file_label), text);
  {
    g_autofree char *shown = embers_text_mask_credentials (url);

    gtk_widget_set_tooltip_text (side->file_label, shown);
  }
  side_set_kind (side, SIDE_URL);
}

/* Queries: type, selector, range */

static void
side_update_scope (Side *side)
{
  g_autofree char *quoted = NULL;
  g_autofree char *scope = NULL;

  if (side->profile_type == NULL || side->win_end <= side->win_start)
    return;
  /* The labels of this type's series, in what the chart shows */
  quoted = embers_selector_quote (side->profile_type);
  scope = g_strdup_printf ("{__profile_type__=%s}", quoted);
  embers_filter_bar_set_scope (side->filter_bar, scope, side->win_start, side->win_end);
}

/* The selector as applied, into the typed entry and (@chips) the filter
 * chips */
static void
side_show_selector (Side     *side,
                    gboolean  chips)
{
  g_autoptr(EmbersSelector) parsed = NULL;

  side->updating = TRUE;
  if (chips)
    parsed = embers_selector_parse (side->selector != NULL ? side->selector : "", NULL, NULL);
  if (parsed != NULL)
    embers_filter_bar_set_filters (side->filter_bar, parsed);
  gtk_editable_set_text (GTK_EDITABLE (side->selector_entry), side->selector != NULL ? side->selector : "");
  gtk_widget_remove_css_class (side->selector_entry, "error");
  gtk_widget_set_tooltip_text (side->selector_entry, NULL);
  side->updating = FALSE;
}

static void
filters_changed (EmbersFilterBar *bar,
                 Side            *side)
{
  g_free (side->selector);
  side->selector = embers_selector_to_string (embers_filter_bar_get_filters (bar));
  side_show_selector (side, FALSE);
  side_fetch_series (side);
}

/* The typed selector, when it differs from the applied one: parsed and
 * applied; FALSE with @error when it is not valid */
static gboolean
side_commit_selector (Side    *side,
                      GError **error)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (side->selector_entry));
  g_autoptr(EmbersSelector) parsed = NULL;
  g_autoptr(GError) local_error = NULL;

  if (g_strcmp0 (text, side->selector != NULL ? side->selector : "") == 0)
    return TRUE;
  parsed = embers_selector_parse (text, NULL, &local_error);
  if (parsed == NULL)
    {
      gtk_widget_add_css_class (side->selector_entry, "error");
      gtk_widget_set_tooltip_text (side->selector_entry, local_error->message);
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   side->comparison ? _("The comparison’s label selector is not valid: %s")
                                    : _("The baseline’s label selector is not valid: %s"),
                   local_error->message);
      return FALSE;
    }
  g_free (side->selector);
  side->selector = embers_selector_to_string (parsed);
  side_show_selector (side, TRUE);
  side_fetch_series (side);
  return TRUE;
}

static void
selector_activate (GtkEntry *entry,
                   Side     *side)
{
  g_autoptr(GError) error = NULL;

  if (!side_commit_selector (side, &error))
    set_error (side->page, error->message);
  else
    set_error (side->page, NULL);
}

/* The chart window around a selected range: half its length either side,
 * so that the selection is always half the chart, however far apart the
 * two sides are */
static void
side_window_for_range (Side *side)
{
  gint64 len = MAX (side->end_ms - side->start_ms, MINUTE_MS);

  side->win_start = side->start_ms - len / 2;
  side->win_end = side->end_ms + len / 2;
}

static void
side_show_range (Side *side)
{
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;

  if (has_range (side))
    {
      side_window_for_range (side);
      embers_series_chart_set_time_range (side->chart, side->win_start, side->win_end);
      embers_series_chart_set_selection (side->chart, side->start_ms, side->end_ms);
      from = embers_query_url_format_local_time (side->start_ms);
      to = embers_query_url_format_local_time (side->end_ms);
    }
  side->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (side->from_entry), from != NULL ? from : "");
  gtk_editable_set_text (GTK_EDITABLE (side->to_entry), to != NULL ? to : "");
  gtk_widget_remove_css_class (side->from_entry, "error");
  gtk_widget_remove_css_class (side->to_entry, "error");
  side->updating = FALSE;
  side_update_scope (side);
  side_fetch_series (side);
}

/* Sets a side's range; with sync, the other query side moves by as much
 * as this one's start moved and takes its length */
static void
side_set_range (Side     *side,
                gint64    start_ms,
                gint64    end_ms,
                gboolean  propagate)
{
  Side *other = other_side (side);
  gboolean move_other = propagate && sync_on (side->page) && other->kind == SIDE_QUERY &&
                        has_range (other) && has_range (side);
  gint64 gap = other->start_ms - side->start_ms;

  side->start_ms = start_ms;
  side->end_ms = end_ms;
  side_show_range (side);
  if (move_other)
    {
      other->start_ms = start_ms + gap;
      other->end_ms = end_ms + gap;
      side_show_range (other);
    }
}

static void
range_selected (EmbersSeriesChart *chart,
                gint64             from_ms,
                gint64             to_ms,
                Side              *side)
{
  side_set_range (side, from_ms, to_ms, TRUE);
}

/* The typed From and To: TRUE and the range in @start, @end when they
 * parse; @changed says whether they differ from the applied range */
static gboolean
side_read_range (Side     *side,
                 gint64   *start_ms,
                 gint64   *end_ms,
                 gboolean *changed,
                 GError  **error)
{
  gint64 now = g_get_real_time () / 1000;
  const char *from = gtk_editable_get_text (GTK_EDITABLE (side->from_entry));
  const char *to = gtk_editable_get_text (GTK_EDITABLE (side->to_entry));
  g_autoptr(GError) from_error = NULL;
  g_autoptr(GError) to_error = NULL;
  gboolean ok_from, ok_to;

  *changed = FALSE;
  /* Nothing typed and nothing selected: Compare says what is missing */
  if (!has_range (side) && from[0] == '\0' && to[0] == '\0')
    return TRUE;
  ok_from = embers_query_url_parse_local_time (from, now, start_ms, &from_error);
  ok_to = embers_query_url_parse_local_time (to, now, end_ms, &to_error);

  if (ok_from)
    gtk_widget_remove_css_class (side->from_entry, "error");
  else
    gtk_widget_add_css_class (side->from_entry, "error");
  if (ok_to)
    gtk_widget_remove_css_class (side->to_entry, "error");
  else
    gtk_widget_add_css_class (side->to_entry, "error");
  if (!ok_from || !ok_to)
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   side->comparison ? _("The comparison’s time range: %s") : _("The baseline’s time range: %s"),
                   (ok_from ? to_error : from_error)->message);
      return FALSE;
    }
  if (*start_ms >= *end_ms)
    {
      gtk_widget_add_css_class (side->to_entry, "error");
      g_set_error_literal (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                           side->comparison ? _("The comparison’s time range ends before it starts")
                                            : _("The baseline’s time range ends before it starts"));
      return FALSE;
    }
  /* The entries show whole seconds */
  *changed = !has_range (side) || *start_ms / 1000 != side->start_ms / 1000 ||
             *end_ms / 1000 != side->end_ms / 1000;
  return TRUE;
}

static void
range_entry_activate (GtkEntry *entry,
                      Side     *side)
{
  g_autoptr(GError) error = NULL;
  gint64 start, end;
  gboolean changed = FALSE;

  if (side->updating)
    return;
  if (!side_read_range (side, &start, &end, &changed, &error))
    {
      set_error (side->page, error->message);
      return;
    }
  set_error (side->page, NULL);
  if (changed)
    side_set_range (side, start, end, TRUE);
}

/* Both sides' charts on one value scale, so that their heights compare;
 * each on its own when their units differ */
static void
share_scale (EmbersComparePage *self)
{
  EmbersChart *charts[2];
  double max = 0;
  gboolean same = g_strcmp0 (self->sides[0].profile_type, self->sides[1].profile_type) == 0 &&
                  self->sides[0].kind == SIDE_QUERY && self->sides[1].kind == SIDE_QUERY;

  for (guint i = 0; i < 2; i++)
    {
      charts[i] = embers_series_chart_get_chart (self->sides[i].chart);
      max = MAX (max, embers_chart_get_data_max (charts[i]));
    }
  for (guint i = 0; i < 2; i++)
    {
      embers_chart_set_value_max (charts[i], same ? max : 0);
      gtk_widget_queue_draw (GTK_WIDGET (self->sides[i].chart));
    }
}

static void
series_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SideRequest) req = user_data;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GError) error = NULL;
  Side *side;

  series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  side = side_request_current (req, G_STRUCT_OFFSET (Side, series_cancellable));
  if (side == NULL)
    return;
  g_clear_object (&side->series_cancellable);
  if (series != NULL)
    {
      g_autoptr(EmbersProfileTypeInfo) info = embers_profile_type_info_new (side->profile_type);

      embers_series_chart_set_series (side->chart, series, NULL,
                                      info != NULL ? info->sample_unit : NULL);
      embers_status_show_content (side->chart_panel);
      share_scale (side->page);
    }
  else
    /* In place of the old line, never under the new query */
    embers_status_show_message (side->chart_panel, "dialog-error-symbolic",
                                _("Could Not Load the Time Series"), error->message, TRUE);
}

static void
side_fetch_series (Side *side)
{
  EmbersComparePage *self = side->page;
  g_autoptr(EmbersQuery) query = NULL;
  SideRequest *req;

  g_cancellable_cancel (side->series_cancellable);
  g_clear_object (&side->series_cancellable);
  if (self->source == NULL || side->kind != SIDE_QUERY || side->profile_type == NULL ||
      side->win_end <= side->win_start ||
      !(embers_source_get_capabilities (self->source) & EMBERS_SOURCE_CAN_TIME_SERIES))
    return;

  req = side_request_new (side, &side->series_cancellable);
  query = embers_query_new (side->profile_type, side->selector, side->win_start, side->win_end);
  {
    g_autofree char *text = loading_text (side->win_start, side->win_end);

    embers_status_show_loading (side->chart_panel, text);
  }
  embers_source_select_chart_series (self->source, query, NULL, EMBERS_AGGREGATION_SUM, 0,
                                     req->cancellable, series_done, req);
}

static void
side_type_changed (GtkDropDown *dropdown,
                   GParamSpec  *pspec,
                   Side        *side)
{
  guint selected = gtk_drop_down_get_selected (dropdown);
  const char *id;

  if (side->updating || selected == GTK_INVALID_LIST_POSITION)
    return;
  id = gtk_string_list_get_string (side->types, selected);
  if (g_strcmp0 (id, side->profile_type) == 0)
    return;
  g_free (side->profile_type);
  side->profile_type = g_strdup (id);
  side_update_scope (side);
  side_fetch_series (side);
}

static void
side_select_type (Side *side)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (side->types));

  if (side->profile_type == NULL)
    return;
  side->updating = TRUE;
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (side->types, i), side->profile_type) == 0)
      {
        gtk_drop_down_set_selected (side->type_dropdown, i);
        side->updating = FALSE;
        return;
      }
  gtk_string_list_append (side->types, side->profile_type);
  gtk_drop_down_set_selected (side->type_dropdown, n);
  side->updating = FALSE;
}

/* A side turned into a query: a type and a range to start from */
static void
side_become_query (Side *side)
{
  Side *other = other_side (side);
  gint64 now = g_get_real_time () / 1000;

  if (side->profile_type == NULL && other->profile_type != NULL)
    side->profile_type = g_strdup (other->profile_type);
  side_set_kind (side, SIDE_QUERY);
  side_select_type (side);
  if (!has_range (side))
    {
      gint64 len = has_range (other) && other->kind == SIDE_QUERY ? other->end_ms - other->start_ms : HOUR_MS;

      if (!side->comparison)
        {
          /* The period before the comparison's, or the hour before the last */
          gint64 end = has_range (other) && other->kind == SIDE_QUERY ? other->start_ms : now - HOUR_MS;

          side->start_ms = end - len;
          side->end_ms = end;
        }
      else
        {
          /* The last period of the baseline's length */
          side->start_ms = now - len;
          side->end_ms = now;
        }
    }
  side_show_selector (side, TRUE);
  side_show_range (side);
}

static void
side_kind_toggled (GtkToggleButton *button,
                   Side            *side)
{
  if (side->updating || !gtk_toggle_button_get_active (button))
    return;
  if (GTK_WIDGET (button) == side->query_toggle)
    side_become_query (side);
  else
    side_set_kind (side, side->url != NULL ? SIDE_URL : side->file != NULL ? SIDE_FILE : SIDE_NONE);
}

static void
file_chosen (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Side *side = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, &error);

  /* Dismissed: nothing to do (a failure the portal already showed) */
  if (file != NULL && side->page != NULL)
    side_set_file (side, file, TRUE);
}

static void
choose_file_clicked (GtkButton *button,
                     Side      *side)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (button));
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, side->comparison ? _("Choose the Comparison Profile")
                                                      : _("Choose the Baseline Profile"));
  gtk_file_dialog_set_accept_label (dialog, _("_Choose"));
  gtk_file_dialog_set_filters (dialog, embers_window_profile_filters ());
  gtk_file_dialog_open (dialog, GTK_IS_WINDOW (native) ? GTK_WINDOW (native) : NULL,
                        side->page->cancellable_files, file_chosen, side);
}

static GtkWidget *
time_entry (const char *tooltip,
            const char *a11y_name,
            Side       *side)
{
  GtkWidget *entry = gtk_entry_new ();

  /* Room for "YYYY-MM-DD HH:MM:SS"; less when the pane is narrow */
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), 12);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (entry), 19);
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_widget_set_tooltip_text (entry, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y_name, -1);
  g_signal_connect (entry, "activate", G_CALLBACK (range_entry_activate), side);
  return entry;
}

static void
side_build (EmbersComparePage *self,
            Side              *side,
            gboolean           comparison)
{
  GtkWidget *title, *button, *row, *label;

  side->page = self;
  side->comparison = comparison;
  side->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_hexpand (side->box, TRUE);
  gtk_widget_add_css_class (side->box, "card");
  gtk_widget_set_margin_start (side->box, 0);

  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_top (row, 6);
  gtk_widget_set_margin_start (row, 8);
  gtk_widget_set_margin_end (row, 8);
  title = gtk_label_new (comparison ? _("Comparison") : _("Baseline"));
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_box_append (GTK_BOX (row), title);

  side->kind_switch = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (side->kind_switch, "linked");
  side->file_toggle = gtk_toggle_button_new_with_label (_("File"));
  side->query_toggle = gtk_toggle_button_new_with_label (_("Query"));
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (side->query_toggle), GTK_TOGGLE_BUTTON (side->file_toggle));
  g_signal_connect (side->file_toggle, "toggled", G_CALLBACK (side_kind_toggled), side);
  g_signal_connect (side->query_toggle, "toggled", G_CALLBACK (side_kind_toggled), side);
  gtk_box_append (GTK_BOX (side->kind_switch), side->file_toggle);
  gtk_box_append (GTK_BOX (side->kind_switch), side->query_toggle);
  gtk_widget_set_visible (side->kind_switch, FALSE);
  gtk_box_append (GTK_BOX (row), side->kind_switch);
  gtk_box_append (GTK_BOX (side->box), row);

  /* File (or a query URL) and its sample type */
  side->file_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (side->file_box, 8);
  gtk_widget_set_margin_end (side->file_box, 8);
  gtk_widget_set_margin_bottom (side->file_box, 8);
  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  /* Two buttons on one page: each its own access key */
  button = gtk_button_new_with_mnemonic (comparison ? _("Choose Compa_rison…") : _("Choose Base_line…"));
  gtk_widget_set_tooltip_text (button, comparison ? _("Choose the comparison profile file")
                                                  : _("Choose the baseline profile file"));
  g_signal_connect (button, "clicked", G_CALLBACK (choose_file_clicked), side);
  gtk_box_append (GTK_BOX (row), button);
  side->file_label = gtk_label_new (_("No file chosen"));
  gtk_label_set_ellipsize (GTK_LABEL (side->file_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (side->file_label), 0);
  gtk_widget_set_hexpand (side->file_label, TRUE);
  gtk_box_append (GTK_BOX (row), side->file_label);
  gtk_box_append (GTK_BOX (side->file_box), row);

  side->sample_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  label = gtk_label_new_with_mnemonic (comparison ? _("Sample _type") : _("Sample t_ype"));
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (side->sample_box), label);
  side->samples = gtk_string_list_new (NULL);
  side->sample_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (side->samples)), NULL));
  embers_drop_down_shorten_on_button (side->sample_dropdown);
  gtk_widget_set_hexpand (GTK_WIDGET (side->sample_dropdown), TRUE);
  gtk_widget_set_halign (GTK_WIDGET (side->sample_dropdown), GTK_ALIGN_START);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (side->sample_dropdown));
  gtk_widget_set_tooltip_text (GTK_WIDGET (side->sample_dropdown),
                               _("Which values of the file to compare; the other file follows when it has the same type"));
  embers_accessible_set_label (GTK_WIDGET (side->sample_dropdown), _("Sample Type"));
  g_signal_connect (side->sample_dropdown, "notify::selected", G_CALLBACK (sample_changed), side);
  gtk_box_append (GTK_BOX (side->sample_box), GTK_WIDGET (side->sample_dropdown));
  gtk_widget_set_visible (side->sample_box, FALSE);
  gtk_box_append (GTK_BOX (side->file_box), side->sample_box);
  gtk_box_append (GTK_BOX (side->box), side->file_box);

  /* Query: type and typed selector, label filters, chart, time range */
  side->query_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (side->query_box, 8);
  gtk_widget_set_margin_end (side->query_box, 8);
  gtk_widget_set_margin_bottom (side->query_box, 8);
  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  side->types = gtk_string_list_new (NULL);
  /* The ids, shown as the explore page shows them: process_cpu · cpu
   * (nanoseconds) */
  side->type_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (side->types)),
                                                          gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                                                                       G_CALLBACK (describe_type_item),
                                                                                       NULL, NULL)));
  /* Long type ids shorten on the button (not in its list) */
  embers_drop_down_shorten_on_button (side->type_dropdown);
  gtk_widget_set_tooltip_text (GTK_WIDGET (side->type_dropdown), _("Profile type"));
  embers_accessible_set_label (GTK_WIDGET (side->type_dropdown), _("Profile Type"));
  g_signal_connect (side->type_dropdown, "notify::selected", G_CALLBACK (side_type_changed), side);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (side->type_dropdown));
  side->selector_entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (side->selector_entry), "{service_name=\"api\"}");
  gtk_widget_set_hexpand (side->selector_entry, TRUE);
  gtk_editable_set_width_chars (GTK_EDITABLE (side->selector_entry), 10);
  gtk_widget_set_tooltip_text (side->selector_entry,
                               _("Label selector: the filters below as text; type one such as {service_name=\"api\",region=~\"eu.*\"}"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (side->selector_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Label selector"), -1);
  g_signal_connect (side->selector_entry, "activate", G_CALLBACK (selector_activate), side);
  gtk_box_append (GTK_BOX (row), side->selector_entry);
  gtk_box_append (GTK_BOX (side->query_box), row);

  /* The controls, then the filters below them (a side is half the page) */
  side->filter_bar = EMBERS_FILTER_BAR (embers_filter_bar_new ());
  gtk_orientable_set_orientation (GTK_ORIENTABLE (side->filter_bar), GTK_ORIENTATION_VERTICAL);
  g_signal_connect (side->filter_bar, "changed", G_CALLBACK (filters_changed), side);
  gtk_box_append (GTK_BOX (side->query_box), GTK_WIDGET (side->filter_bar));

  side->chart = EMBERS_SERIES_CHART (embers_series_chart_new ());
  g_signal_connect (side->chart, "range-selected", G_CALLBACK (range_selected), side);
  side->chart_panel = EMBERS_STATUS (embers_status_new ());
  embers_status_set_content (side->chart_panel, GTK_WIDGET (side->chart));
  g_signal_connect_swapped (side->chart_panel, "retry", G_CALLBACK (side_fetch_series), side);
  gtk_box_append (GTK_BOX (side->query_box), GTK_WIDGET (side->chart_panel));

  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  side->from_entry = time_entry (_("From: YYYY-MM-DD HH:MM:SS local time, RFC 3339, or now-2h"),
                                 /* Translators: the accessible name of the start of a time range */
                                 C_("time range", "From"), side);
  side->to_entry = time_entry (_("To: YYYY-MM-DD HH:MM:SS local time, RFC 3339, or now"),
                               /* Translators: the accessible name of the end of a time range */
                               C_("time range", "To"), side);
  gtk_box_append (GTK_BOX (row), side->from_entry);
  gtk_box_append (GTK_BOX (row), gtk_label_new ("–"));
  gtk_box_append (GTK_BOX (row), side->to_entry);
  gtk_box_append (GTK_BOX (side->query_box), row);
  gtk_box_append (GTK_BOX (side->box), side->query_box);

  side_set_kind (side, SIDE_NONE);
}

static void
side_clear (Side *side)
{
  g_cancellable_cancel (side->series_cancellable);
  g_clear_object (&side->series_cancellable);
  g_cancellable_cancel (side->load_cancellable);
  g_clear_object (&side->load_cancellable);
  g_clear_object (&side->file);
  g_clear_object (&side->profile);
  g_clear_object (&side->samples);
  g_clear_object (&side->types);
  g_clear_pointer (&side->url, g_free);
  g_clear_pointer (&side->sample_type, g_free);
  g_clear_pointer (&side->profile_type, g_free);
  g_clear_pointer (&side->selector, g_free);
}

static EmbersQuery *
side_dup_query (Side *side)
{
  if (side->kind != SIDE_QUERY || side->profile_type == NULL || !has_range (side))
    return NULL;
  return embers_query_new (side->profile_type, side->selector, side->start_ms, side->end_ms);
}

/* What is on screen but not applied yet (a typed selector, filter value or
 * time): applied now, as Enter would. Typed times on both sides both
 * count; on one side they move the other with sync, as a drag does. */
static gboolean
commit_on_screen (EmbersComparePage  *self,
                  GError            **error)
{
  gint64 starts[2], ends[2];
  gboolean changed[2] = { FALSE, FALSE };

  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];

      if (side->kind != SIDE_QUERY)
        continue;
      if (!embers_filter_bar_commit_pending (side->filter_bar, error))
        {
          g_prefix_error (error, "%s", i == 0 ? _("A baseline filter: ") : _("A comparison filter: "));
          return FALSE;
        }
      if (!side_commit_selector (side, error))
        return FALSE;
      if (!side_read_range (side, &starts[i], &ends[i], &changed[i], error))
        return FALSE;
    }
  for (guint i = 0; i < 2; i++)
    if (changed[i])
      side_set_range (&self->sides[i], starts[i], ends[i], !changed[1 - i]);
  return TRUE;
}

/* Comparing: the job is embers_comparison_run_async(); the page hands it
 * its sides and shows the answer if it is still the one asked for */

typedef struct
{
  EmbersComparePage *self;
  GCancellable      *cancellable;
  GFile             *files[2];   /* file sides, to take back what was loaded */
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->self);
  g_clear_object (&job->cancellable);
  g_clear_object (&job->files[0]);
  g_clear_object (&job->files[1]);
  g_free (job);
}

static void
comparison_done (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Job *job = user_data;
  EmbersComparePage *self = job->self;
  g_autoptr(GError) error = NULL;
  EmbersProfile *loaded[2] = { NULL, NULL };
  g_autoptr(EmbersProfile) diff = embers_comparison_run_finish (result, &loaded[0], &loaded[1], &error);

  /* Files loaded on the way: their sides offer their sample types */
  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];

      if (loaded[i] != NULL && side->kind == SIDE_FILE && side->profile == NULL &&
          side->file != NULL && job->files[i] != NULL && g_file_equal (side->file, job->files[i]))
        {
          g_set_object (&side->profile, loaded[i]);
          side_fill_samples (side);
        }
      g_clear_object (&loaded[i]);
    }

  if (job->cancellable == self->cancellable)
    {
      g_clear_object (&self->cancellable);
      set_busy (self, FALSE);
      if (diff != NULL)
        {
          set_error (self, NULL);
          show_diff (self, diff);
          embers_status_show_content (self->result_panel);
          /* Room for the answer: the form folds to one line */
          embers_compare_page_set_folded (self, TRUE);
        }
      else if (is_cancelled (error))
        set_error (self, _("Comparison cancelled"));
      else
        {
          const char *message = error != NULL ? error->message : _("The comparison failed");

          set_error (self, message);
          /* In place of the old diff, never under the new sides */
          embers_status_show_message (self->result_panel, "dialog-error-symbolic",
                                      _("Could Not Compare"), message, TRUE);
        }
      g_signal_emit (self, signals[SIGNAL_COMPARED], 0);
    }
  job_free (job);
}

/* The diff asking for the sides on screen: the old one dimmed under what
 * loads */
static void
show_result_loading (EmbersComparePage *self)
{
  Side *b = &self->sides[0], *c = &self->sides[1];
  g_autofree char *text = NULL;

  if (b->kind == SIDE_QUERY && c->kind == SIDE_QUERY)
    {
      g_autofree char *b_from = embers_query_url_format_local_time (b->start_ms);
      g_autofree char *b_to = embers_query_url_format_local_time (b->end_ms);
      g_autofree char *c_from = embers_query_url_format_local_time (c->start_ms);
      g_autofree char *c_to = embers_query_url_format_local_time (c->end_ms);

      /* Translators: over the diff while it loads: the baseline's time
       * range (from, to), then the comparison's */
      text = g_strdup_printf (_("Loading %s – %s against %s – %s…"), b_from, b_to, c_from, c_to);
    }
  else
    text = g_strdup (_("Comparing…"));
  gtk_stack_set_visible_child_name (GTK_STACK (self->result_stack), "result");
  embers_status_show_loading (self->result_panel, text);
}

void
embers_compare_page_compare (EmbersComparePage *self)
{
  g_autoptr(GError) error = NULL;
  EmbersQuery *queries[2] = { NULL, NULL };
  EmbersCompareSide *sides[2] = { NULL, NULL };
  Job *job;

  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));

  if (!commit_on_screen (self, &error))
    {
      set_error (self, error->message);
      return;
    }

  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];

      if (side->kind == SIDE_QUERY)
        {
          queries[i] = side_dup_query (side);
          if (queries[i] == NULL || self->source == NULL)
            {
              g_clear_pointer (&queries[0], embers_query_free);
              g_clear_pointer (&queries[1], embers_query_free);
              set_error (self, i == 0 ? _("The baseline query needs a profile type and a time range")
                                      : _("The comparison query needs a profile type and a time range"));
              return;
            }
        }
      else if (side->kind == SIDE_NONE || (side->file == NULL && side->url == NULL))
        {
          g_clear_pointer (&queries[0], embers_query_free);
          set_error (self, i == 0 ? _("Choose a baseline profile") : _("Choose a comparison profile"));
          return;
        }
    }

  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];

      if (queries[i] != NULL)
        sides[i] = embers_compare_side_new_query (self->source, queries[i]);
      else if (side->kind == SIDE_FILE)
        {
          sides[i] = side->profile != NULL ? embers_compare_side_new_profile (side->profile, side->file)
                                           : embers_compare_side_new_location (side->file);
          embers_compare_side_set_sample_type (sides[i], side->sample_type);
        }
      else
        {
          g_autoptr(GFile) url = g_file_new_for_uri (side->url);

          sides[i] = embers_compare_side_new_location (url);
        }
      g_clear_pointer (&queries[i], embers_query_free);
    }

  /* Refused before any request (CPU time against bytes): said at once */
  if (!embers_comparison_check (sides[0], sides[1], &error))
    set_error (self, error->message);
  else
    {
      embers_compare_page_cancel (self);
      self->cancellable = g_cancellable_new ();
      set_error (self, NULL);
      set_busy (self, TRUE);
      show_result_loading (self);

      job = g_new0 (Job, 1);
      job->self = g_object_ref (self);
      job->cancellable = g_object_ref (self->cancellable);
      for (guint i = 0; i < 2; i++)
        if (self->sides[i].kind == SIDE_FILE)
          job->files[i] = g_object_ref (self->sides[i].file);
      embers_comparison_run_async (sides[0], sides[1], job->cancellable, comparison_done, job);
    }
  embers_compare_side_free (sides[0]);
  embers_compare_side_free (sides[1]);
}

void
embers_compare_page_cancel (EmbersComparePage *self)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));

  if (self->cancellable == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_busy (self, FALSE);
  set_error (self, _("Comparison cancelled"));
  /* The old diff does not answer the sides asked for */
  embers_status_show_message (self->result_panel, NULL, _("Comparison Cancelled"),
                              _("Compare again to see the difference."), TRUE);
}

/* Presets */

void
embers_compare_page_apply_preset (EmbersComparePage   *self,
                                  EmbersComparePreset  preset,
                                  gint64               now_ms)
{
  Side *base, *comp;
  gint64 len, shift;

  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));

  if (now_ms <= 0)
    now_ms = g_get_real_time () / 1000;
  base = &self->sides[0];
  comp = &self->sides[1];

  switch (preset)
    {
    case EMBERS_COMPARE_PRESET_PREVIOUS_PERIOD:
      if (comp->kind != SIDE_QUERY || !has_range (comp))
        {
          comp->start_ms = now_ms - HOUR_MS;
          comp->end_ms = now_ms;
        }
      len = comp->end_ms - comp->start_ms;
      base->start_ms = comp->start_ms - len;
      base->end_ms = comp->start_ms;
      break;
    case EMBERS_COMPARE_PRESET_HOUR_BEFORE:
    case EMBERS_COMPARE_PRESET_DAY_AGO:
    case EMBERS_COMPARE_PRESET_WEEK_AGO:
    default:
      shift = preset == EMBERS_COMPARE_PRESET_HOUR_BEFORE ? HOUR_MS
            : preset == EMBERS_COMPARE_PRESET_DAY_AGO ? 24 * HOUR_MS
            : 7 * 24 * HOUR_MS;
      comp->start_ms = now_ms - HOUR_MS;
      comp->end_ms = now_ms;
      base->start_ms = comp->start_ms - shift;
      base->end_ms = comp->end_ms - shift;
      break;
    }

  /* Presets are about queries: file sides become queries when they can */
  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];

      if (side->kind != SIDE_QUERY && self->source != NULL)
        {
          Side *other = other_side (side);

          if (side->profile_type == NULL && other->profile_type != NULL)
            side->profile_type = g_strdup (other->profile_type);
          side_set_kind (side, SIDE_QUERY);
          side_select_type (side);
          side_show_selector (side, TRUE);
        }
    }
  /* Each chart around its own selection: an hour a week ago is half its
   * chart, not a sliver of an eight-day one */
  side_show_range (base);
  side_show_range (comp);
}

static void
preset_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  embers_compare_page_apply_preset (EMBERS_COMPARE_PAGE (widget),
                                    (EmbersComparePreset) g_variant_get_int32 (parameter), 0);
}

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  embers_compare_page_compare (EMBERS_COMPARE_PAGE (widget));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  embers_compare_page_cancel (EMBERS_COMPARE_PAGE (widget));
}

/* Sync on: the baseline takes the comparison's length, keeping its end */
static void
sync_toggled (GtkCheckButton    *button,
              EmbersComparePage *self)
{
  Side *base = &self->sides[0], *comp = &self->sides[1];

  if (!sync_on (self) || base->kind != SIDE_QUERY || comp->kind != SIDE_QUERY ||
      !has_range (base) || !has_range (comp))
    return;
  if (base->end_ms - base->start_ms == comp->end_ms - comp->start_ms)
    return;
  base->start_ms = base->end_ms - (comp->end_ms - comp->start_ms);
  side_show_range (base);
}

/* GObject */

static void
embers_compare_page_dispose (GObject *object)
{
  EmbersComparePage *self = EMBERS_COMPARE_PAGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->types_cancellable);
  g_clear_object (&self->types_cancellable);
  g_cancellable_cancel (self->cancellable_files);
  g_clear_object (&self->cancellable_files);
  for (guint i = 0; i < 2; i++)
    side_clear (&self->sides[i]);
  adw_breakpoint_bin_set_child (ADW_BREAKPOINT_BIN (self), NULL);
  self->root = NULL;
  g_clear_object (&self->source);
  g_clear_object (&self->diff);

  G_OBJECT_CLASS (embers_compare_page_parent_class)->dispose (object);
}

static void
embers_compare_page_finalize (GObject *object)
{
  EmbersComparePage *self = EMBERS_COMPARE_PAGE (object);

  g_clear_pointer (&self->error, g_free);
  G_OBJECT_CLASS (embers_compare_page_parent_class)->finalize (object);
}

static void
embers_compare_page_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  EmbersComparePage *self = EMBERS_COMPARE_PAGE (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_FOLDED:
      g_value_set_boolean (value, self->folded);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_compare_page_class_init (EmbersComparePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_compare_page_dispose;
  object_class->finalize = embers_compare_page_finalize;
  object_class->get_property = embers_compare_page_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The form folded to one line (after a comparison) */
  properties[PROP_FOLDED] =
    g_param_spec_boolean ("folded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EmbersComparePage::compared:
   *
   * A comparison finished, with a diff or an error.
   */
  signals[SIGNAL_COMPARED] =
    g_signal_new ("compared",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "compare.run", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "compare.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "compare.preset", "i", preset_action);

  gtk_widget_class_set_css_name (widget_class, "embers-compare-page");
}

/* Folding: the form as one line of both sides, to give the diff room */

void
embers_compare_page_set_folded (EmbersComparePage *self,
                                gboolean           folded)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));

  folded = !!folded && self->diff != NULL;
  if (self->folded == folded)
    return;
  self->folded = folded;
  gtk_widget_set_visible (self->sources, !folded);
  gtk_widget_set_visible (self->summary_button, folded);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDED]);
}

gboolean
embers_compare_page_get_folded (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), FALSE);
  return self->folded;
}

static void
unfold (EmbersComparePage *self)
{
  gboolean had_focus = gtk_widget_has_focus (self->summary_button);

  embers_compare_page_set_folded (self, FALSE);
  if (had_focus)
    gtk_widget_child_focus (self->sources, GTK_DIR_TAB_FORWARD);
}

static void
embers_compare_page_init (EmbersComparePage *self)
{
  g_autoptr(GMenu) presets = g_menu_new ();
  GtkWidget *panes, *options, *spacer, *empty, *sources, *scrolled;

  /* The sources over the result; they scroll when the window is short
   * (the result keeps its minimum, they get the rest up to their size) */
  self->cancellable_files = g_cancellable_new ();
  self->root = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  adw_breakpoint_bin_set_child (ADW_BREAKPOINT_BIN (self), self->root);
  /* The least room the narrowest layout needs */
  gtk_widget_set_size_request (GTK_WIDGET (self), 360, 360);
  sources = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), sources);
  gtk_widget_set_margin_bottom (scrolled, 6);
  gtk_box_append (GTK_BOX (self->root), scrolled);
  self->sources = scrolled;

  /* Once compared, the form folds to this line; a click opens it again */
  {
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
    GtkWidget *icon = gtk_image_new_from_icon_name ("document-edit-symbolic");
    GtkWidget *edit = gtk_label_new_with_mnemonic (_("_Edit"));

    self->summary_label = gtk_label_new (NULL);
    gtk_label_set_ellipsize (GTK_LABEL (self->summary_label), PANGO_ELLIPSIZE_MIDDLE);
    gtk_label_set_xalign (GTK_LABEL (self->summary_label), 0);
    gtk_widget_set_hexpand (self->summary_label, TRUE);
    gtk_box_append (GTK_BOX (box), self->summary_label);
    gtk_widget_add_css_class (edit, "dim-label");
    gtk_box_append (GTK_BOX (box), edit);
    gtk_box_append (GTK_BOX (box), icon);
    self->summary_button = gtk_button_new ();
    gtk_button_set_child (GTK_BUTTON (self->summary_button), box);
    gtk_widget_add_css_class (self->summary_button, "compare-summary");
    gtk_widget_set_margin_start (self->summary_button, 12);
    gtk_widget_set_margin_end (self->summary_button, 12);
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->summary_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _("Change the baseline or the comparison"), -1);
    gtk_label_set_mnemonic_widget (GTK_LABEL (edit), self->summary_button);
    g_signal_connect_swapped (self->summary_button, "clicked", G_CALLBACK (unfold), self);
    gtk_widget_set_visible (self->summary_button, FALSE);
    gtk_box_append (GTK_BOX (self->root), self->summary_button);
  }

  /* The two sides, side by side or (narrow) one above the other */
  panes = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_set_homogeneous (GTK_BOX (panes), TRUE);
  gtk_widget_set_margin_top (panes, 12);
  gtk_widget_set_margin_start (panes, 12);
  gtk_widget_set_margin_end (panes, 12);
  for (guint i = 0; i < 2; i++)
    {
      side_build (self, &self->sides[i], i == 1);
      gtk_box_append (GTK_BOX (panes), self->sides[i].box);
    }
  gtk_box_append (GTK_BOX (sources), panes);
  {
    AdwBreakpoint *narrow = adw_breakpoint_new (adw_breakpoint_condition_parse ("max-width: 900sp"));
    g_auto(GValue) vertical = G_VALUE_INIT;

    g_value_init (&vertical, GTK_TYPE_ORIENTATION);
    g_value_set_enum (&vertical, GTK_ORIENTATION_VERTICAL);
    adw_breakpoint_add_setter (narrow, G_OBJECT (panes), "orientation", &vertical);
    adw_breakpoint_bin_add_breakpoint (ADW_BREAKPOINT_BIN (self), narrow);
  }

  /* Options and Compare */
  options = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (options, 12);
  gtk_widget_set_margin_end (options, 12);

  self->sync_check = gtk_check_button_new_with_mnemonic (_("Sy_nc time ranges"));
  gtk_widget_set_tooltip_text (self->sync_check,
                               _("Both time ranges have the same length; moving one moves the other by as much"));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->sync_check), TRUE);
  g_signal_connect (self->sync_check, "toggled", G_CALLBACK (sync_toggled), self);
  gtk_box_append (GTK_BOX (options), self->sync_check);

  g_menu_append (presets, _("Previous Period of Equal Length"), "compare.preset(0)");
  g_menu_append (presets, _("Last Hour vs the Hour Before"), "compare.preset(1)");
  g_menu_append (presets, _("24 Hours Ago vs Now"), "compare.preset(2)");
  g_menu_append (presets, _("A Week Ago vs Now"), "compare.preset(3)");
  self->preset_button = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (self->preset_button), _("_Presets"));
  gtk_menu_button_set_use_underline (GTK_MENU_BUTTON (self->preset_button), TRUE);
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->preset_button), G_MENU_MODEL (presets));
  gtk_widget_set_tooltip_text (self->preset_button, _("Set both time ranges"));
  gtk_widget_set_visible (self->preset_button, FALSE);
  gtk_widget_set_visible (self->sync_check, FALSE);
  gtk_box_append (GTK_BOX (options), self->preset_button);

  spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_box_append (GTK_BOX (options), spacer);

  self->spinner = adw_spinner_new ();
  gtk_widget_set_visible (self->spinner, FALSE);
  gtk_box_append (GTK_BOX (options), self->spinner);
  self->cancel_button = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->cancel_button), "compare.cancel");
  gtk_widget_set_visible (self->cancel_button, FALSE);
  gtk_box_append (GTK_BOX (options), self->cancel_button);
  self->compare_button = gtk_button_new_with_mnemonic (_("C_ompare"));
  gtk_widget_add_css_class (self->compare_button, "suggested-action");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->compare_button), "compare.run");
  gtk_box_append (GTK_BOX (options), self->compare_button);
  gtk_box_append (GTK_BOX (sources), options);
  /* A diff that knows its noise: Hide noise, Per second (a row of its own) */
  gtk_box_append (GTK_BOX (sources), GTK_WIDGET (embers_noise_controls_new (self)));

  /* Errors wrap (a long URL too) and can be copied */
  self->status_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->status_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->status_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (self->status_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->status_label), 0);
  gtk_widget_add_css_class (self->status_label, "error");
  gtk_widget_set_margin_start (self->status_label, 12);
  gtk_widget_set_margin_end (self->status_label, 12);
  gtk_widget_set_margin_bottom (self->status_label, 6);
  gtk_widget_set_visible (self->status_label, FALSE);
  /* Under the scrolled sources, so that all its lines show */
  gtk_box_append (GTK_BOX (self->root), self->status_label);

  /* The result: legend, diff flame graph, diff table */
  self->result_stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->result_stack, TRUE);
  /* Room for the diff's toolbar, legend and graph before the sources
   * take what they would like (they scroll) */
  gtk_widget_set_size_request (self->result_stack, -1, 280);
  empty = gtk_label_new (_("Choose a baseline and a comparison, then Compare"));
  gtk_label_set_wrap (GTK_LABEL (empty), TRUE);
  gtk_widget_add_css_class (empty, "dim-label");
  gtk_stack_add_named (GTK_STACK (self->result_stack), empty, "empty");

  /* The diff, with the legend and palette, mode and width switches over
   * the graph and the diff table beside it */
  self->profile_page = embers_profile_page_new ();
  self->result_panel = EMBERS_STATUS (embers_status_new ());
  embers_status_set_content (self->result_panel, GTK_WIDGET (self->profile_page));
  g_signal_connect_object (self->result_panel, "retry", G_CALLBACK (embers_compare_page_compare), self,
                           G_CONNECT_SWAPPED);
  gtk_stack_add_named (GTK_STACK (self->result_stack), GTK_WIDGET (self->result_panel), "result");
  gtk_stack_set_visible_child_name (GTK_STACK (self->result_stack), "empty");
  gtk_box_append (GTK_BOX (self->root), self->result_stack);
}

GtkWidget *
embers_compare_page_new (void)
{
  return g_object_new (EMBERS_TYPE_COMPARE_PAGE, NULL);
}

static void
side_set_file_or_url (Side  *side,
                      GFile *file)
{
  g_autofree char *url = embers_location_dup_query_url (file);

  if (url != NULL)
    side_set_url (side, url);
  else
    side_set_file (side, file, FALSE);
}

void
embers_compare_page_set_files (EmbersComparePage *self,
                               GFile             *baseline,
                               GFile             *comparison)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));
  g_return_if_fail (G_IS_FILE (baseline));
  g_return_if_fail (G_IS_FILE (comparison));

  /* The comparison loads them (once), then their sample types show, each
   * file's default first */
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&self->sides[i].sample_type, g_free);
  side_set_file_or_url (&self->sides[0], baseline);
  side_set_file_or_url (&self->sides[1], comparison);
  embers_compare_page_compare (self);
}

static void
types_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  EmbersComparePage *self = user_data;
  g_autoptr(GPtrArray) types = NULL;
  g_autoptr(GError) error = NULL;

  types = embers_source_list_profile_types_finish (EMBERS_SOURCE (object), result, &error);
  if (is_cancelled (error))
    return;
  /* Not cancelled: the page is alive (dispose cancels) */
  g_clear_object (&self->types_cancellable);
  if (types == NULL)
    {
      set_error (self, error != NULL ? error->message : NULL);
      return;
    }
  for (guint s = 0; s < 2; s++)
    {
      Side *side = &self->sides[s];

      side->updating = TRUE;
      for (guint i = 0; i < types->len; i++)
        {
          EmbersProfileTypeInfo *info = g_ptr_array_index (types, i);

          if (g_strcmp0 (info->id, side->profile_type) != 0)
            gtk_string_list_append (side->types, info->id);
        }
      side->updating = FALSE;
      if (side->profile_type == NULL && types->len > 0)
        {
          EmbersProfileTypeInfo *pick = g_ptr_array_index (types, 0);

          /* CPU first, as the explore page picks */
          for (guint i = 0; i < types->len; i++)
            {
              EmbersProfileTypeInfo *info = g_ptr_array_index (types, i);

              if (strstr (info->id, ":cpu:") != NULL)
                {
                  pick = info;
                  break;
                }
            }
          side->profile_type = g_strdup (pick->id);
        }
      side_select_type (side);
      side_update_scope (side);
      side_fetch_series (side);
    }
}

void
embers_compare_page_set_source (EmbersComparePage *self,
                                EmbersSource      *source)
{
  gint64 now = g_get_real_time () / 1000;

  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));
  g_return_if_fail (source == NULL || EMBERS_IS_SOURCE (source));

  if (!g_set_object (&self->source, source))
    return;

  g_cancellable_cancel (self->types_cancellable);
  g_clear_object (&self->types_cancellable);
  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];

      gtk_widget_set_visible (side->kind_switch, source != NULL);
      gtk_string_list_splice (side->types, 0, g_list_model_get_n_items (G_LIST_MODEL (side->types)), NULL);
      embers_filter_bar_set_source (side->filter_bar, source);
      if (source == NULL && side->kind == SIDE_QUERY)
        side_set_kind (side, side->url != NULL ? SIDE_URL : side->file != NULL ? SIDE_FILE : SIDE_NONE);
    }
  /* Time ranges only mean something for queries */
  gtk_widget_set_visible (self->preset_button, source != NULL);
  gtk_widget_set_visible (self->sync_check, source != NULL);
  if (source == NULL)
    return;

  self->types_cancellable = g_cancellable_new ();
  embers_source_list_profile_types (source, now - 24 * HOUR_MS, now,
                                    self->types_cancellable, types_done, self);
}

EmbersSource *
embers_compare_page_get_source (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return self->source;
}

void
embers_compare_page_set_queries (EmbersComparePage *self,
                                 const EmbersQuery *baseline,
                                 const EmbersQuery *comparison)
{
  const EmbersQuery *queries[2] = { baseline, comparison };

  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));

  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];
      g_autoptr(EmbersSelector) parsed = NULL;

      if (queries[i] == NULL)
        continue;
      g_free (side->profile_type);
      side->profile_type = g_strdup (queries[i]->profile_type);
      /* Canonical, as the chips write it back */
      parsed = embers_selector_parse (queries[i]->label_selector != NULL ? queries[i]->label_selector : "",
                                      NULL, NULL);
      g_free (side->selector);
      side->selector = parsed != NULL ? embers_selector_to_string (parsed)
                                      : g_strdup (queries[i]->label_selector);
      side->start_ms = queries[i]->start_ms;
      side->end_ms = queries[i]->end_ms;
      side_set_kind (side, SIDE_QUERY);
      side_select_type (side);
      side_show_selector (side, TRUE);
    }
  for (guint i = 0; i < 2; i++)
    if (queries[i] != NULL)
      side_show_range (&self->sides[i]);
}

void
embers_compare_page_set_time_range (EmbersComparePage *self,
                                    gboolean           comparison,
                                    gint64             start_ms,
                                    gint64             end_ms)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));
  g_return_if_fail (start_ms < end_ms);

  side_set_range (&self->sides[comparison ? 1 : 0], start_ms, end_ms, TRUE);
}

EmbersQuery *
embers_compare_page_dup_query (EmbersComparePage *self,
                               gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return side_dup_query (&self->sides[comparison ? 1 : 0]);
}

gboolean
embers_compare_page_get_sync_ranges (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), FALSE);
  return sync_on (self);
}

void
embers_compare_page_set_sync_ranges (EmbersComparePage *self,
                                     gboolean           sync)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->sync_check), sync);
}

const char *
embers_compare_page_get_sample_type (EmbersComparePage *self,
                                     gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return self->sides[comparison ? 1 : 0].sample_type;
}

gboolean
embers_compare_page_set_sample_type (EmbersComparePage *self,
                                     gboolean           comparison,
                                     const char        *sample_type)
{
  Side *side;

  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), FALSE);

  side = &self->sides[comparison ? 1 : 0];
  if (side->profile == NULL)
    return side_choose_sample (side, sample_type);
  if (embers_profile_find_sample_type (side->profile, sample_type) < 0)
    return FALSE;
  /* As the user would: the drop-down, and the other file follows */
  gtk_drop_down_set_selected (side->sample_dropdown,
                              (guint) embers_profile_find_sample_type (side->profile, sample_type));
  return TRUE;
}

gboolean
embers_compare_page_get_busy (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), FALSE);
  return self->busy;
}

const char *
embers_compare_page_get_error (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return self->error;
}

EmbersProfile *
embers_compare_page_get_diff (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return self->diff;
}

EmbersDiffPalette
embers_compare_page_get_palette (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), EMBERS_DIFF_PALETTE_RED_BLUE);
  return embers_profile_page_get_diff_palette (self->profile_page);
}

void
embers_compare_page_set_palette (EmbersComparePage *self,
                                 EmbersDiffPalette  palette)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));
  embers_profile_page_set_diff_palette (self->profile_page, palette);
}

EmbersDiffMode
embers_compare_page_get_mode (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), EMBERS_DIFF_MODE_SHARE);
  return embers_profile_page_get_diff_mode (self->profile_page);
}

void
embers_compare_page_set_mode (EmbersComparePage *self,
                              EmbersDiffMode     mode)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));
  embers_profile_page_set_diff_mode (self->profile_page, mode);
}

EmbersDiffLegend *
embers_compare_page_get_legend (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_profile_page_get_diff_legend (self->profile_page);
}

EmbersDiffTable *
embers_compare_page_get_table (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_profile_page_get_diff_table (self->profile_page);
}

GtkWidget *
embers_compare_page_get_graph (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return GTK_WIDGET (embers_profile_page_get_flame_graph (self->profile_page));
}

EmbersProfilePage *
embers_compare_page_get_profile_page (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return self->profile_page;
}

EmbersSeriesChart *
embers_compare_page_get_chart (EmbersComparePage *self,
                               gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return self->sides[comparison ? 1 : 0].chart;
}

EmbersFilterBar *
embers_compare_page_get_filter_bar (EmbersComparePage *self,
                                    gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return self->sides[comparison ? 1 : 0].filter_bar;
}

GtkEditable *
embers_compare_page_get_selector_entry (EmbersComparePage *self,
                                        gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return GTK_EDITABLE (self->sides[comparison ? 1 : 0].selector_entry);
}

GtkEditable *
embers_compare_page_get_from_entry (EmbersComparePage *self,
                                    gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return GTK_EDITABLE (self->sides[comparison ? 1 : 0].from_entry);
}

GtkEditable *
embers_compare_page_get_to_entry (EmbersComparePage *self,
                                  gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return GTK_EDITABLE (self->sides[comparison ? 1 : 0].to_entry);
}

GtkDropDown *
embers_compare_page_get_type_dropdown (EmbersComparePage *self,
                                       gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return self->sides[comparison ? 1 : 0].type_dropdown;
}

GtkDropDown *
embers_compare_page_get_sample_type_dropdown (EmbersComparePage *self,
                                              gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return self->sides[comparison ? 1 : 0].sample_dropdown;
}

const char *
embers_compare_page_get_file_label (EmbersComparePage *self,
                                    gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->sides[comparison ? 1 : 0].file_label));
}

gboolean
embers_compare_page_get_files (EmbersComparePage  *self,
                               GFile             **baseline,
                               GFile             **comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), FALSE);

  for (guint i = 0; i < 2; i++)
    if (self->sides[i].kind != SIDE_FILE || self->sides[i].file == NULL)
      return FALSE;
  *baseline = self->sides[0].file;
  *comparison = self->sides[1].file;
  return TRUE;
}
