/* embers-compare-pane.c: one side of a comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-compare-pane-private.h"

G_DEFINE_FINAL_TYPE (EmbersComparePane, embers_compare_pane, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_COMPARISON,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

guint embers_compare_pane_signals[EMBERS_COMPARE_PANE_N_SIGNALS];

static void fetch_series (EmbersComparePane *self);

Request *
embers_compare_pane_request_new (EmbersComparePane  *self,
             GCancellable      **slot)
{
  Request *req = g_new0 (Request, 1);

  g_cancellable_cancel (*slot);
  g_clear_object (slot);
  *slot = g_cancellable_new ();
  req->self = g_object_ref (self);
  req->cancellable = g_object_ref (*slot);
  return req;
}

void
embers_compare_pane_request_free (Request *req)
{
  g_object_unref (req->self);
  g_object_unref (req->cancellable);
  g_free (req);
}

/* TRUE when @req is the newest of its @slot (which it then empties) */
gboolean
embers_compare_pane_request_is_current (Request       *req,
                    GCancellable **slot)
{
  if (*slot != req->cancellable || g_cancellable_is_cancelled (req->cancellable))
    return FALSE;
  g_clear_object (slot);
  return TRUE;
}

/* Shared with the page */

char *
embers_compare_format_time (gint64 ms)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_local (ms / 1000);

  return dt != NULL ? embers_time_format_date_time (dt, FALSE) : g_strdup ("?");
}

gboolean
embers_compare_is_cancelled (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
         g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_CANCELED);
}

/* What a panel loads: the time range asked for */
char *
embers_compare_loading_text (gint64 start_ms,
                             gint64 end_ms)
{
  g_autofree char *from = embers_query_url_format_local_time (start_ms);
  g_autofree char *to = embers_query_url_format_local_time (end_ms);

  /* Translators: over a chart or a flame graph while it loads: the time
   * range asked for, from and to */
  return g_strdup_printf (_("Loading %s – %s…"), from, to);
}

/* Helpers */

static char *
describe_type_item (GtkStringObject *item,
                    gpointer         user_data)
{
  return embers_profile_type_describe (gtk_string_object_get_string (item));
}

static gboolean
has_range (EmbersComparePane *self)
{
  return self->end_ms > self->start_ms;
}

void
embers_compare_pane_say (EmbersComparePane *self,
     const char        *message)
{
  g_signal_emit (self, embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_ERROR], 0, message);
}

char *
embers_compare_pane_describe (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);

  if (self->kind == EMBERS_COMPARE_PANE_FILE && self->file != NULL)
    return g_file_get_basename (self->file);
  if (self->kind == EMBERS_COMPARE_PANE_URL && self->url != NULL)
    return embers_compare_pane_describe_url (self->url);
  if (self->kind == EMBERS_COMPARE_PANE_QUERY && has_range (self))
    {
      g_autofree char *from = embers_compare_format_time (self->start_ms);

      if (self->selector != NULL && self->selector[0] != '\0' && g_strcmp0 (self->selector, "{}") != 0)
        /* Translators: one side of a comparison: a label selector and its start,
         * a date and time such as 2026-11-24 07:43 */
        return g_strdup_printf (_("%s at %s"), self->selector, from);
      return g_steal_pointer (&from);
    }
  return NULL;
}

/* Which kind: the toggles follow it; a toggle the user presses changes it
 * (the kind it says is already the pane's when the code set it) */

void
embers_compare_pane_set_kind (EmbersComparePane     *self,
          EmbersComparePaneKind  kind)
{
  self->kind = kind;
  gtk_toggle_button_set_active (self->file_toggle, kind != EMBERS_COMPARE_PANE_QUERY);
  gtk_toggle_button_set_active (self->query_toggle, kind == EMBERS_COMPARE_PANE_QUERY);
  gtk_widget_set_visible (self->file_box, kind != EMBERS_COMPARE_PANE_QUERY);
  gtk_widget_set_visible (self->query_box, kind == EMBERS_COMPARE_PANE_QUERY);
  gtk_widget_set_visible (self->sample_box, kind == EMBERS_COMPARE_PANE_FILE && self->profile != NULL);
}

EmbersComparePaneKind
embers_compare_pane_file_kind (EmbersComparePane *self)
{
  return self->url != NULL ? EMBERS_COMPARE_PANE_URL
       : self->file != NULL ? EMBERS_COMPARE_PANE_FILE
       : EMBERS_COMPARE_PANE_NONE;
}

/* Queries: type, selector, range */

static void
update_scope (EmbersComparePane *self)
{
  g_autofree char *quoted = NULL;
  g_autofree char *scope = NULL;

  if (self->profile_type == NULL || self->win_end <= self->win_start)
    return;
  /* The labels of this type's series, in what the chart shows */
  quoted = embers_selector_quote (self->profile_type);
  scope = g_strdup_printf ("{__profile_type__=%s}", quoted);
  embers_filter_bar_set_scope (self->filter_bar, scope, self->win_start, self->win_end);
}

/* The selector as applied, into the typed entry and (@chips) the filter
 * chips (which change nothing when they already show it) */
static void
show_selector (EmbersComparePane *self,
               gboolean           chips)
{
  g_autoptr(EmbersSelector) parsed = NULL;

  if (chips)
    parsed = embers_selector_parse (self->selector != NULL ? self->selector : "", NULL, NULL);
  if (parsed != NULL)
    embers_filter_bar_set_filters (self->filter_bar, parsed);
  gtk_editable_set_text (GTK_EDITABLE (self->selector_entry), self->selector != NULL ? self->selector : "");
  gtk_widget_remove_css_class (GTK_WIDGET (self->selector_entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->selector_entry), NULL);
}

static void
filters_changed (EmbersFilterBar   *bar,
                 EmbersComparePane *self)
{
  g_autofree char *selector = embers_selector_to_string (embers_filter_bar_get_filters (bar));

  /* The chips showing what is applied already */
  if (g_strcmp0 (selector, self->selector) == 0)
    return;
  g_free (self->selector);
  self->selector = g_steal_pointer (&selector);
  show_selector (self, FALSE);
  fetch_series (self);
}

/* The typed selector, when it differs from the applied one: parsed and
 * applied; FALSE with @error when it is not valid */
static gboolean
commit_selector (EmbersComparePane  *self,
                 GError            **error)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->selector_entry));
  g_autoptr(EmbersSelector) parsed = NULL;
  g_autoptr(GError) local_error = NULL;

  if (g_strcmp0 (text, self->selector != NULL ? self->selector : "") == 0)
    return TRUE;
  parsed = embers_selector_parse (text, NULL, &local_error);
  if (parsed == NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->selector_entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->selector_entry), local_error->message);
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   self->comparison ? _("The comparison’s label selector is not valid: %s")
                                    : _("The baseline’s label selector is not valid: %s"),
                   local_error->message);
      return FALSE;
    }
  g_free (self->selector);
  self->selector = embers_selector_to_string (parsed);
  show_selector (self, TRUE);
  fetch_series (self);
  return TRUE;
}

static void
selector_activate (GtkEntry          *entry,
                   EmbersComparePane *self)
{
  g_autoptr(GError) error = NULL;

  embers_compare_pane_say (self, commit_selector (self, &error) ? NULL : error->message);
}

/* Both entries show the applied range, without error marks */
static void
show_range_text (EmbersComparePane *self)
{
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;

  if (has_range (self))
    {
      from = embers_query_url_format_local_time (self->start_ms);
      to = embers_query_url_format_local_time (self->end_ms);
    }
  gtk_editable_set_text (GTK_EDITABLE (self->from_entry), from != NULL ? from : "");
  gtk_editable_set_text (GTK_EDITABLE (self->to_entry), to != NULL ? to : "");
  gtk_widget_remove_css_class (GTK_WIDGET (self->from_entry), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->to_entry), "error");
}

/* The chart window around a selected range: half its length either side,
 * so that the selection is always half the chart, however far apart the
 * two sides are */
static void
show_range (EmbersComparePane *self)
{
  if (has_range (self))
    {
      gint64 len = MAX (self->end_ms - self->start_ms, MINUTE_MS);

      self->win_start = self->start_ms - len / 2;
      self->win_end = self->end_ms + len / 2;
      embers_series_chart_set_time_range (self->chart, self->win_start, self->win_end);
      embers_series_chart_set_selection (self->chart, self->start_ms, self->end_ms);
    }
  show_range_text (self);
  update_scope (self);
  fetch_series (self);
}

void
embers_compare_pane_set_range (EmbersComparePane *self,
                               gint64             start_ms,
                               gint64             end_ms)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PANE (self));

  self->start_ms = start_ms;
  self->end_ms = end_ms;
  show_range (self);
}

gboolean
embers_compare_pane_get_range (EmbersComparePane *self,
                               gint64            *start_ms,
                               gint64            *end_ms)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), FALSE);

  if (start_ms != NULL)
    *start_ms = has_range (self) ? self->start_ms : 0;
  if (end_ms != NULL)
    *end_ms = has_range (self) ? self->end_ms : 0;
  return has_range (self);
}

static void
range_selected (EmbersSeriesChart *chart,
                gint64             from_ms,
                gint64             to_ms,
                EmbersComparePane *self)
{
  g_signal_emit (self, embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_RANGE_CHOSEN], 0, from_ms, to_ms);
}

/* The typed From and To: TRUE and the range in @start, @end when they
 * parse; @changed says whether they differ from the applied range */
static gboolean
read_range (EmbersComparePane  *self,
            gint64             *start_ms,
            gint64             *end_ms,
            gboolean           *changed,
            GError            **error)
{
  gint64 now = g_get_real_time () / 1000;
  const char *from = gtk_editable_get_text (GTK_EDITABLE (self->from_entry));
  const char *to = gtk_editable_get_text (GTK_EDITABLE (self->to_entry));
  g_autoptr(GError) from_error = NULL;
  g_autoptr(GError) to_error = NULL;
  gboolean ok_from, ok_to;

  *changed = FALSE;
  /* Nothing typed and nothing selected: Compare says what is missing */
  if (!has_range (self) && from[0] == '\0' && to[0] == '\0')
    return TRUE;
  ok_from = embers_query_url_parse_local_time (from, now, start_ms, &from_error);
  ok_to = embers_query_url_parse_local_time (to, now, end_ms, &to_error);

  if (ok_from)
    gtk_widget_remove_css_class (GTK_WIDGET (self->from_entry), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->from_entry), "error");
  if (ok_to)
    gtk_widget_remove_css_class (GTK_WIDGET (self->to_entry), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->to_entry), "error");
  if (!ok_from || !ok_to)
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   self->comparison ? _("The comparison’s time range: %s") : _("The baseline’s time range: %s"),
                   (ok_from ? to_error : from_error)->message);
      return FALSE;
    }
  if (*start_ms >= *end_ms)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->to_entry), "error");
      g_set_error_literal (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                           self->comparison ? _("The comparison’s time range ends before it starts")
                                            : _("The baseline’s time range ends before it starts"));
      return FALSE;
    }
  /* The entries show whole seconds */
  *changed = !has_range (self) || *start_ms / 1000 != self->start_ms / 1000 ||
             *end_ms / 1000 != self->end_ms / 1000;
  return TRUE;
}

static void
range_entry_activate (GtkEntry          *entry,
                      EmbersComparePane *self)
{
  g_autoptr(GError) error = NULL;
  gint64 start, end;
  gboolean changed = FALSE;

  if (!read_range (self, &start, &end, &changed, &error))
    {
      embers_compare_pane_say (self, error->message);
      return;
    }
  embers_compare_pane_say (self, NULL);
  if (changed)
    g_signal_emit (self, embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_RANGE_CHOSEN], 0, start, end);
}

static void
series_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(Request) req = user_data;
  EmbersComparePane *self = req->self;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GError) error = NULL;

  series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_compare_pane_request_is_current (req, &self->series_cancellable))
    return;
  if (series != NULL)
    {
      g_autoptr(EmbersProfileTypeInfo) info = embers_profile_type_info_new (self->profile_type);

      embers_series_chart_set_series (self->chart, series, NULL,
                                      info != NULL ? info->sample_unit : NULL);
      embers_status_show_content (self->chart_panel);
      g_signal_emit (self, embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_SERIES_LOADED], 0);
    }
  else
    /* In place of the old line, never under the new query */
    embers_status_show_message (self->chart_panel, "dialog-error-symbolic",
                                _("Could Not Load the Time Series"), error->message, TRUE);
}

static void
fetch_series (EmbersComparePane *self)
{
  g_autoptr(EmbersQuery) query = NULL;
  g_autofree char *text = NULL;
  Request *req;

  g_cancellable_cancel (self->series_cancellable);
  g_clear_object (&self->series_cancellable);
  if (self->source == NULL || self->kind != EMBERS_COMPARE_PANE_QUERY || self->profile_type == NULL ||
      self->win_end <= self->win_start ||
      !(embers_source_get_capabilities (self->source) & EMBERS_SOURCE_CAN_TIME_SERIES))
    return;

  req = embers_compare_pane_request_new (self, &self->series_cancellable);
  query = embers_query_new (self->profile_type, self->selector, self->win_start, self->win_end);
  text = embers_compare_loading_text (self->win_start, self->win_end);
  embers_status_show_loading (self->chart_panel, text);
  embers_source_select_chart_series (self->source, query, NULL, EMBERS_AGGREGATION_SUM, 0,
                                     req->cancellable, series_done, req);
}

static void
type_changed (GtkDropDown       *dropdown,
              GParamSpec        *pspec,
              EmbersComparePane *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);
  const char *id;

  if (self->filling || selected == GTK_INVALID_LIST_POSITION)
    return;
  id = gtk_string_list_get_string (self->types, selected);
  if (g_strcmp0 (id, self->profile_type) == 0)
    return;
  g_free (self->profile_type);
  self->profile_type = g_strdup (id);
  update_scope (self);
  fetch_series (self);
}

/* The drop-down on the pane's type (added to the list when missing) */
static void
select_type (EmbersComparePane *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->types));
  guint found = n;

  if (self->profile_type == NULL)
    return;
  for (guint i = 0; i < n && found == n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->types, i), self->profile_type) == 0)
      found = i;
  self->filling = TRUE;
  if (found == n)
    gtk_string_list_append (self->types, self->profile_type);
  gtk_drop_down_set_selected (self->type_dropdown, found);
  self->filling = FALSE;
}

void
embers_compare_pane_add_types (EmbersComparePane *self,
                               GPtrArray         *types)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PANE (self));
  g_return_if_fail (types != NULL);

  self->filling = TRUE;
  for (guint i = 0; i < types->len; i++)
    {
      EmbersProfileTypeInfo *info = g_ptr_array_index (types, i);

      if (g_strcmp0 (info->id, self->profile_type) != 0)
        gtk_string_list_append (self->types, info->id);
    }
  self->filling = FALSE;
  if (self->profile_type == NULL && types->len > 0)
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
      self->profile_type = g_strdup (pick->id);
    }
  select_type (self);
  update_scope (self);
  fetch_series (self);
}

void
embers_compare_pane_make_query (EmbersComparePane *self,
                                const char        *fallback_type)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PANE (self));

  if (self->kind == EMBERS_COMPARE_PANE_QUERY || self->source == NULL)
    return;
  if (self->profile_type == NULL && fallback_type != NULL)
    self->profile_type = g_strdup (fallback_type);
  embers_compare_pane_set_kind (self, EMBERS_COMPARE_PANE_QUERY);
  select_type (self);
  show_selector (self, TRUE);
}

void
embers_compare_pane_set_query (EmbersComparePane *self,
                               const EmbersQuery *query)
{
  g_autoptr(EmbersSelector) parsed = NULL;

  g_return_if_fail (EMBERS_IS_COMPARE_PANE (self));
  g_return_if_fail (query != NULL);

  g_free (self->profile_type);
  self->profile_type = g_strdup (query->profile_type);
  /* Canonical, as the chips write it back */
  parsed = embers_selector_parse (query->label_selector != NULL ? query->label_selector : "", NULL, NULL);
  g_free (self->selector);
  self->selector = parsed != NULL ? embers_selector_to_string (parsed) : g_strdup (query->label_selector);
  self->start_ms = query->start_ms;
  self->end_ms = query->end_ms;
  embers_compare_pane_set_kind (self, EMBERS_COMPARE_PANE_QUERY);
  select_type (self);
  show_selector (self, TRUE);
  show_range (self);
}

/* The user turned this side into a query: a type and a range to start
 * from, the partner's when it has them */
static void
become_query (EmbersComparePane *self)
{
  EmbersComparePane *other = self->partner;
  gboolean other_query = other != NULL && other->kind == EMBERS_COMPARE_PANE_QUERY && has_range (other);
  gint64 now = g_get_real_time () / 1000;

  if (self->profile_type == NULL && other != NULL && other->profile_type != NULL)
    self->profile_type = g_strdup (other->profile_type);
  embers_compare_pane_set_kind (self, EMBERS_COMPARE_PANE_QUERY);
  select_type (self);
  if (!has_range (self))
    {
      gint64 len = other_query ? other->end_ms - other->start_ms : HOUR_MS;

      if (!self->comparison)
        {
          /* The period before the comparison's, or the hour before the last */
          gint64 end = other_query ? other->start_ms : now - HOUR_MS;

          self->start_ms = end - len;
          self->end_ms = end;
        }
      else
        {
          /* The last period of the baseline's length */
          self->start_ms = now - len;
          self->end_ms = now;
        }
    }
  show_selector (self, TRUE);
  show_range (self);
}

static void
kind_toggled (GtkToggleButton   *button,
              EmbersComparePane *self)
{
  gboolean query = button == self->query_toggle;

  /* Pressed by the user: the kind it says is not the pane's yet */
  if (!gtk_toggle_button_get_active (button) || query == (self->kind == EMBERS_COMPARE_PANE_QUERY))
    return;
  if (query)
    become_query (self);
  else
    embers_compare_pane_set_kind (self, embers_compare_pane_file_kind (self));
}

gboolean
embers_compare_pane_commit (EmbersComparePane  *self,
                            gint64             *start_ms,
                            gint64             *end_ms,
                            gboolean           *changed,
                            GError            **error)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), FALSE);

  *changed = FALSE;
  if (self->kind != EMBERS_COMPARE_PANE_QUERY)
    return TRUE;
  if (!embers_filter_bar_commit_pending (self->filter_bar, error))
    {
      g_prefix_error (error, "%s", self->comparison ? _("A comparison filter: ") : _("A baseline filter: "));
      return FALSE;
    }
  return commit_selector (self, error) && read_range (self, start_ms, end_ms, changed, error);
}

EmbersQuery *
embers_compare_pane_dup_query (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);

  if (self->kind != EMBERS_COMPARE_PANE_QUERY || self->profile_type == NULL || !has_range (self))
    return NULL;
  return embers_query_new (self->profile_type, self->selector, self->start_ms, self->end_ms);
}

EmbersCompareSide *
embers_compare_pane_dup_side (EmbersComparePane  *self,
                              GError            **error)
{
  EmbersCompareSide *side;

  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);

  switch (self->kind)
    {
    case EMBERS_COMPARE_PANE_QUERY:
      {
        g_autoptr(EmbersQuery) query = embers_compare_pane_dup_query (self);

        if (query == NULL || self->source == NULL)
          {
            g_set_error_literal (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                                 self->comparison ? _("The comparison query needs a profile type and a time range")
                                                  : _("The baseline query needs a profile type and a time range"));
            return NULL;
          }
        return embers_compare_side_new_query (self->source, query);
      }
    case EMBERS_COMPARE_PANE_FILE:
      if (self->file == NULL)
        break;
      side = self->profile != NULL ? embers_compare_side_new_profile (self->profile, self->file)
                                   : embers_compare_side_new_location (self->file);
      embers_compare_side_set_sample_type (side, self->sample_type);
      return side;
    case EMBERS_COMPARE_PANE_URL:
      {
        g_autoptr(GFile) url = g_file_new_for_uri (self->url);

        return embers_compare_side_new_location (url);
      }
    case EMBERS_COMPARE_PANE_NONE:
    default:
      break;
    }
  g_set_error_literal (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                       self->comparison ? _("Choose a comparison profile") : _("Choose a baseline profile"));
  return NULL;
}

void
embers_compare_pane_set_source (EmbersComparePane *self,
                                EmbersSource      *source)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PANE (self));
  g_return_if_fail (source == NULL || EMBERS_IS_SOURCE (source));

  if (!g_set_object (&self->source, source))
    return;
  g_cancellable_cancel (self->series_cancellable);
  g_clear_object (&self->series_cancellable);
  gtk_widget_set_visible (self->kind_switch, source != NULL);
  self->filling = TRUE;
  gtk_string_list_splice (self->types, 0, g_list_model_get_n_items (G_LIST_MODEL (self->types)), NULL);
  self->filling = FALSE;
  embers_filter_bar_set_source (self->filter_bar, source);
  if (source == NULL && self->kind == EMBERS_COMPARE_PANE_QUERY)
    embers_compare_pane_set_kind (self, embers_compare_pane_file_kind (self));
}

void
embers_compare_pane_set_partner (EmbersComparePane *self,
                                 EmbersComparePane *partner)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PANE (self));
  self->partner = partner;
}

/* Getters */

gboolean
embers_compare_pane_get_comparison (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), FALSE);
  return self->comparison;
}

EmbersComparePaneKind
embers_compare_pane_get_kind (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), EMBERS_COMPARE_PANE_NONE);
  return self->kind;
}

const char *
embers_compare_pane_get_profile_type (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return self->profile_type;
}

const char *
embers_compare_pane_get_selector (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return self->selector;
}

EmbersSeriesChart *
embers_compare_pane_get_chart (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return self->chart;
}

EmbersFilterBar *
embers_compare_pane_get_filter_bar (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return self->filter_bar;
}

GtkEditable *
embers_compare_pane_get_selector_entry (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return GTK_EDITABLE (self->selector_entry);
}

GtkEditable *
embers_compare_pane_get_from_entry (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return GTK_EDITABLE (self->from_entry);
}

GtkEditable *
embers_compare_pane_get_to_entry (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return GTK_EDITABLE (self->to_entry);
}

GtkDropDown *
embers_compare_pane_get_type_dropdown (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return self->type_dropdown;
}

GtkDropDown *
embers_compare_pane_get_sample_dropdown (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return self->sample_dropdown;
}

/* GObject */

static void
embers_compare_pane_constructed (GObject *object)
{
  EmbersComparePane *self = EMBERS_COMPARE_PANE (object);

  G_OBJECT_CLASS (embers_compare_pane_parent_class)->constructed (object);

  /* What differs between the two sides: titles, access keys, texts */
  gtk_label_set_text (self->title_label, self->comparison ? _("Comparison") : _("Baseline"));
  /* Two buttons on one page: each its own access key */
  gtk_button_set_label (self->choose_button, self->comparison ? _("Choose Compa_rison…") : _("Choose Base_line…"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->choose_button),
                               self->comparison ? _("Choose the comparison profile file")
                                                : _("Choose the baseline profile file"));
  gtk_label_set_text_with_mnemonic (self->sample_label, self->comparison ? _("Sample _type") : _("Sample t_ype"));
  embers_compare_pane_set_kind (self, EMBERS_COMPARE_PANE_NONE);
}

static void
embers_compare_pane_dispose (GObject *object)
{
  EmbersComparePane *self = EMBERS_COMPARE_PANE (object);

  g_cancellable_cancel (self->series_cancellable);
  g_clear_object (&self->series_cancellable);
  g_cancellable_cancel (self->dialog_cancellable);
  g_clear_object (&self->dialog_cancellable);
  embers_compare_pane_forget_source (self);
  g_clear_object (&self->file);
  g_clear_object (&self->source);
  self->partner = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_COMPARE_PANE);

  G_OBJECT_CLASS (embers_compare_pane_parent_class)->dispose (object);
}

static void
embers_compare_pane_finalize (GObject *object)
{
  EmbersComparePane *self = EMBERS_COMPARE_PANE (object);

  g_free (self->url);
  g_free (self->sample_type);
  g_free (self->profile_type);
  g_free (self->selector);
  G_OBJECT_CLASS (embers_compare_pane_parent_class)->finalize (object);
}

static void
embers_compare_pane_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  EmbersComparePane *self = EMBERS_COMPARE_PANE (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      g_value_set_boolean (value, self->comparison);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_compare_pane_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  EmbersComparePane *self = EMBERS_COMPARE_PANE (object);

  switch (prop_id)
    {
    case PROP_COMPARISON:
      self->comparison = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_compare_pane_class_init (EmbersComparePaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = embers_compare_pane_constructed;
  object_class->dispose = embers_compare_pane_dispose;
  object_class->finalize = embers_compare_pane_finalize;
  object_class->get_property = embers_compare_pane_get_property;
  object_class->set_property = embers_compare_pane_set_property;

  properties[PROP_COMPARISON] =
    g_param_spec_boolean ("comparison", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_RANGE_CHOSEN] =
    g_signal_new ("range-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
  embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_SAMPLE_CHOSEN] =
    g_signal_new ("sample-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_SAMPLES_LOADED] =
    g_signal_new ("samples-loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_SERIES_LOADED] =
    g_signal_new ("series-loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_ERROR] =
    g_signal_new ("error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (EMBERS_TYPE_FILTER_BAR);
  g_type_ensure (EMBERS_TYPE_SERIES_CHART);
  g_type_ensure (EMBERS_TYPE_STATUS);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-compare-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, title_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, kind_switch);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, file_toggle);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, query_toggle);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, file_box);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, choose_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, file_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, sample_box);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, sample_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, sample_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, samples);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, query_box);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, types);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, selector_entry);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, chart_panel);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, from_entry);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePane, to_entry);
  gtk_widget_class_bind_template_callback (widget_class, kind_toggled);
  gtk_widget_class_bind_template_callback_full (widget_class, "choose_file_clicked",
                                                G_CALLBACK (embers_compare_pane_choose_file_clicked));
  gtk_widget_class_bind_template_callback_full (widget_class, "sample_changed",
                                                G_CALLBACK (embers_compare_pane_sample_changed));
  gtk_widget_class_bind_template_callback (widget_class, type_changed);
  gtk_widget_class_bind_template_callback (widget_class, selector_activate);
  gtk_widget_class_bind_template_callback (widget_class, filters_changed);
  gtk_widget_class_bind_template_callback (widget_class, range_entry_activate);
  gtk_widget_class_bind_template_callback (widget_class, fetch_series);
}

static void
embers_compare_pane_init (EmbersComparePane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->dialog_cancellable = g_cancellable_new ();

  /* The ids, shown as the explore page shows them: process_cpu · cpu
   * (nanoseconds); long ones shorten on the button (not in its list) */
  gtk_drop_down_set_expression (self->type_dropdown,
                                gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                                             G_CALLBACK (describe_type_item), NULL, NULL));
  embers_drop_down_shorten_on_button (self->type_dropdown);
  embers_accessible_set_label (GTK_WIDGET (self->type_dropdown), _("Profile Type"));
  embers_drop_down_shorten_on_button (self->sample_dropdown);
  embers_accessible_set_label (GTK_WIDGET (self->sample_dropdown), _("Sample Type"));
  /* The chart inside its status (content, loading, a message) */
  self->chart = EMBERS_SERIES_CHART (embers_series_chart_new ());
  g_signal_connect (self->chart, "range-selected", G_CALLBACK (range_selected), self);
  embers_status_set_content (self->chart_panel, GTK_WIDGET (self->chart));
}

GtkWidget *
embers_compare_pane_new (gboolean comparison)
{
  return g_object_new (EMBERS_TYPE_COMPARE_PANE, "comparison", comparison, NULL);
}
