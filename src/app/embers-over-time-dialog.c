/* embers-over-time-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "embers-over-time-dialog.h"
#include "embers-series-chart.h"
#include "embers-time.h"

struct _EmbersOverTimeDialog
{
  AdwDialog          parent_instance;

  /* Template */
  GtkLabel          *name_label;
  GtkLabel          *path_label;
  GtkWidget         *spinner;
  GtkLabel          *summary_label;
  GtkWidget         *retry_button;
  EmbersSeriesChart *value_chart;
  EmbersSeriesChart *share_chart;

  EmbersSource      *source;
  EmbersQuery       *query;
  GStrv              call_site;
  char              *unit;
  GCancellable      *cancellable;
  EmbersOverTime    *result;
  char              *summary;
};

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

enum {
  RANGE_SELECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (EmbersOverTimeDialog, embers_over_time_dialog, ADW_TYPE_DIALOG)

static void
set_summary (EmbersOverTimeDialog *self,
             const char           *text)
{
  g_free (self->summary);
  self->summary = g_strdup (text);
  gtk_label_set_text (self->summary_label, text != NULL ? text : "");
}

static char *
describe (EmbersOverTimeDialog *self,
          const EmbersOverTime *over)
{
  g_autofree char *mean = NULL;
  g_autofree char *peak = NULL;
  g_autofree char *when = NULL;
  g_autoptr(GDateTime) dt = NULL;

  if (isnan (over->mean_share))
    return g_strdup (_("No profiles in this range"));

  mean = g_strdup_printf ("%.1f%%", over->mean_share);
  peak = g_strdup_printf ("%.1f%%", over->peak_share);
  dt = g_date_time_new_from_unix_local (over->peak_ms / 1000);
  when = dt != NULL ? embers_time_format_time (dt, FALSE) : g_strdup ("");
  /* Translators: the summary of Show Over Time: the function's share of
   * the whole range's total, then its largest share in one step and the
   * step's time, e.g. "12.3% of the total over the range; at most 20.1%,
   * at 14:05" */
  return g_strdup_printf (_("%s of the total over the range; at most %s, at %s"), mean, peak, when);
}

static void
fetch_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(EmbersOverTimeDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersOverTime) over = embers_over_time_fetch_finish (EMBERS_SOURCE (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->cancellable);
  gtk_widget_set_visible (self->spinner, FALSE);

  if (over == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Could not load the series: %s"), error->message);

      /* An error in place of the old charts: never an old answer under
       * the new range */
      embers_series_chart_set_series (self->value_chart, NULL, NULL, NULL);
      embers_series_chart_set_series (self->share_chart, NULL, NULL, EMBERS_CHART_UNIT_PERCENT);
      set_summary (self, text);
      gtk_widget_set_visible (self->retry_button, TRUE);
    }
  else
    {
      g_autofree char *text = describe (self, over);

      embers_series_chart_set_series (self->value_chart, over->value, NULL, self->unit);
      /* The share is a percentage: its axis and hover say so */
      embers_series_chart_set_series (self->share_chart, over->share, NULL, EMBERS_CHART_UNIT_PERCENT);
      set_summary (self, text);
      g_clear_pointer (&self->result, embers_over_time_free);
      self->result = g_steal_pointer (&over);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

void
embers_over_time_dialog_reload (EmbersOverTimeDialog *self)
{
  g_return_if_fail (EMBERS_IS_OVER_TIME_DIALOG (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  g_clear_pointer (&self->result, embers_over_time_free);
  embers_series_chart_set_time_range (self->value_chart, self->query->start_ms, self->query->end_ms);
  embers_series_chart_set_time_range (self->share_chart, self->query->start_ms, self->query->end_ms);
  embers_series_chart_clear_selection (self->value_chart);
  embers_series_chart_clear_selection (self->share_chart);
  gtk_widget_set_visible (self->spinner, TRUE);
  gtk_widget_set_visible (self->retry_button, FALSE);
  set_summary (self, _("Loading…"));
  embers_over_time_fetch_async (self->source, self->query, (const char * const *) self->call_site,
                                self->cancellable, fetch_done, g_object_ref (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

void
embers_over_time_dialog_set_time_range (EmbersOverTimeDialog *self,
                                        gint64                start_ms,
                                        gint64                end_ms)
{
  g_return_if_fail (EMBERS_IS_OVER_TIME_DIALOG (self));

  if (end_ms <= start_ms)
    return;
  self->query->start_ms = start_ms;
  self->query->end_ms = end_ms;
  embers_over_time_dialog_reload (self);
}

static void
on_range_selected (EmbersOverTimeDialog *self,
                   gint64                from_ms,
                   gint64                to_ms)
{
  embers_over_time_dialog_set_time_range (self, from_ms, to_ms);
  g_signal_emit (self, signals[RANGE_SELECTED], 0, from_ms, to_ms);
}

EmbersOverTimeDialog *
embers_over_time_dialog_new (EmbersSource       *source,
                             const EmbersQuery  *query,
                             const char * const *call_site)
{
  EmbersOverTimeDialog *self;
  g_autoptr(EmbersProfileTypeInfo) info = NULL;
  g_autofree char *path = NULL;
  g_autofree char *title = NULL;
  guint n;

  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (call_site != NULL && call_site[0] != NULL, NULL);

  self = g_object_new (EMBERS_TYPE_OVER_TIME_DIALOG, NULL);
  self->source = g_object_ref (source);
  self->query = embers_query_copy (query);
  self->call_site = g_strdupv ((char **) call_site);
  info = embers_profile_type_info_new (query->profile_type);
  self->unit = g_strdup (info != NULL ? info->sample_unit : NULL);

  n = g_strv_length (self->call_site);
  gtk_label_set_text (self->name_label, self->call_site[n - 1]);
  /* Translators: the separator of a stack's frames, root first */
  path = g_strjoinv (_(" › "), self->call_site);
  gtk_label_set_text (self->path_label, path);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->path_label), path);
  /* Translators: the title of Show Over Time; %s is a function */
  title = g_strdup_printf (_("%s Over Time"), self->call_site[n - 1]);
  adw_dialog_set_title (ADW_DIALOG (self), title);

  embers_over_time_dialog_reload (self);
  return self;
}

gboolean
embers_over_time_dialog_get_loading (EmbersOverTimeDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_OVER_TIME_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

const EmbersOverTime *
embers_over_time_dialog_get_result (EmbersOverTimeDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_OVER_TIME_DIALOG (self), NULL);
  return self->result;
}

const char *
embers_over_time_dialog_get_summary (EmbersOverTimeDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_OVER_TIME_DIALOG (self), NULL);
  return self->summary;
}

const EmbersQuery *
embers_over_time_dialog_get_query (EmbersOverTimeDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_OVER_TIME_DIALOG (self), NULL);
  return self->query;
}

static void
embers_over_time_dialog_dispose (GObject *object)
{
  EmbersOverTimeDialog *self = EMBERS_OVER_TIME_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_OVER_TIME_DIALOG);
  g_clear_object (&self->source);

  G_OBJECT_CLASS (embers_over_time_dialog_parent_class)->dispose (object);
}

static void
embers_over_time_dialog_finalize (GObject *object)
{
  EmbersOverTimeDialog *self = EMBERS_OVER_TIME_DIALOG (object);

  g_clear_pointer (&self->query, embers_query_free);
  g_clear_pointer (&self->result, embers_over_time_free);
  g_strfreev (self->call_site);
  g_free (self->unit);
  g_free (self->summary);

  G_OBJECT_CLASS (embers_over_time_dialog_parent_class)->finalize (object);
}

static void
embers_over_time_dialog_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  EmbersOverTimeDialog *self = EMBERS_OVER_TIME_DIALOG (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, embers_over_time_dialog_get_loading (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_over_time_dialog_class_init (EmbersOverTimeDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_over_time_dialog_dispose;
  object_class->finalize = embers_over_time_dialog_finalize;
  object_class->get_property = embers_over_time_dialog_get_property;

  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EmbersOverTimeDialog::range-selected:
   * @start_ms: the range's start
   * @end_ms: its end
   *
   * A range was chosen on a chart (the dialog shows it already).
   */
  signals[RANGE_SELECTED] =
    g_signal_new ("range-selected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);

  g_type_ensure (EMBERS_TYPE_SERIES_CHART);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-over-time-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersOverTimeDialog, name_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersOverTimeDialog, path_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersOverTimeDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, EmbersOverTimeDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersOverTimeDialog, retry_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersOverTimeDialog, value_chart);
  gtk_widget_class_bind_template_child (widget_class, EmbersOverTimeDialog, share_chart);
  gtk_widget_class_bind_template_callback (widget_class, on_range_selected);
  gtk_widget_class_bind_template_callback (widget_class, embers_over_time_dialog_reload);
}

static void
embers_over_time_dialog_init (EmbersOverTimeDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* One time axis: a time is at the same x in both charts */
  embers_series_chart_align_with (self->value_chart, self->share_chart);
}
