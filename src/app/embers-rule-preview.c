/* embers-rule-preview.c: what a recording rule would record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-chart.h"
#include "embers-rule-preview.h"
#include "embers-selector.h"
#include "embers-theme.h"

/* The pause after an edit before the preview asks */
#define PREVIEW_DELAY_MS 400

struct _EmbersRulePreview
{
  GtkWidget            parent_instance;

  GtkLabel            *label;
  GtkDrawingArea      *area;
  EmbersChart         *chart;

  EmbersSource        *source;
  EmbersRecordingRule *rule;              /* the query shown or asked for, or NULL */
  GCancellable        *cancellable;       /* the request under way */
  guint                timeout;
  gint64               start_ms;          /* the tab's time range (0, 0: the last hour) */
  gint64               end_ms;
  gint64               shown_start;       /* what the preview asked for */
  gint64               shown_end;
  GStrv                call_site;         /* root first, or NULL */

  guint                n_requests;
  guint                n_series;
  gboolean             shows_call_site;   /* the chart shown is of the call site */
  double               sum;
};

G_DEFINE_FINAL_TYPE (EmbersRulePreview, embers_rule_preview, GTK_TYPE_WIDGET)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
set_text (EmbersRulePreview *self,
          const char        *text)
{
  if (g_strcmp0 (gtk_label_get_text (self->label), text ? text : "") == 0)
    return;
  gtk_label_set_text (self->label, text ? text : "");
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* While a request is scheduled or under way, the chart shown is of the
 * query before: dimmed, under "Previewing…" */
static void
show_pending (EmbersRulePreview *self)
{
  gtk_widget_set_opacity (GTK_WIDGET (self->area), embers_rule_preview_get_pending (self) ? 0.5 : 1.0);
}

static void
cancel (EmbersRulePreview *self)
{
  g_clear_handle_id (&self->timeout, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  show_pending (self);
}

/* No chart of a rule that is not the one in the fields */
static void
clear (EmbersRulePreview *self,
       const char        *text)
{
  cancel (self);
  g_clear_pointer (&self->rule, embers_recording_rule_free);
  self->n_series = 0;
  self->shows_call_site = FALSE;
  self->sum = 0;
  embers_chart_set_series (self->chart, NULL, NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
  set_text (self, self->source != NULL ? text : NULL);
}

static void
draw (GtkDrawingArea *area,
      cairo_t        *cr,
      int             width,
      int             height,
      gpointer        user_data)
{
  EmbersRulePreview *self = user_data;
  EmbersChartStyle style;

  /* Text, axes and accent from the chart's CSS */
  embers_theme_chart_style (GTK_WIDGET (area), &style);
  embers_chart_set_size (self->chart, width, height);
  embers_chart_paint (self->chart, cr, &style);
}

/* Whether the rule's function is the call site's last frame */
static gboolean
wants_call_site (EmbersRulePreview *self)
{
  guint n = self->call_site != NULL ? g_strv_length (self->call_site) : 0;

  return n > 0 && self->rule != NULL && self->rule->function_name != NULL &&
         g_str_equal (self->rule->function_name, self->call_site[n - 1]);
}

typedef struct
{
  EmbersRulePreview *self;
  gboolean           call_site;
} Request;

static void
preview_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Request *request = user_data;
  g_autoptr(EmbersRulePreview) self = request->self;
  gboolean call_site = request->call_site;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) series = NULL;
  g_autofree char *text = NULL;

  g_free (request);
  series = call_site ? embers_source_select_call_site_series_finish (EMBERS_SOURCE (object), result, &error)
                     : embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->rule == NULL)
    return;
  g_clear_object (&self->cancellable);
  show_pending (self);
  self->shows_call_site = call_site && series != NULL;
  self->sum = 0;
  for (guint i = 0; series != NULL && i < series->len; i++)
    {
      EmbersSeries *one = g_ptr_array_index (series, i);

      for (guint k = 0; k < one->n_points; k++)
        self->sum += one->values[k];
    }

  if (series == NULL)
    {
      self->n_series = 0;
      text = g_strdup_printf (_("No preview: %s"), error->message);
      embers_chart_set_series (self->chart, NULL, NULL);
    }
  else
    {
      const char *function = self->rule->function_name;
      g_autofree char *count = NULL;

      self->n_series = series->len;
      count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "Over the last hour this rule would record %u series",
                                            "Over the last hour this rule would record %u series",
                                            series->len),
                               series->len);
      if (function != NULL && call_site)
        {
          /* Translators: the separator of a stack's frames, root first */
          g_autofree char *path = g_strjoinv (_(" › "), self->call_site);

          /* The chart is of the frame's call site (a stack-trace
           * selector); the rule counts the function under any caller */
          text = g_strdup_printf (_("%s. The chart shows the stacks through this frame (%s); "
                                    "when it records, the server counts only stacks through "
                                    "“%s”, from any caller."),
                                  count, path, function);
        }
      else if (function != NULL)
        /* SelectSeries cannot filter by a function anywhere in the stack,
         * so the chart shows whole profiles: say so rather than pretend */
        text = g_strdup_printf (_("%s. The chart shows all stacks of the matched profiles; "
                                  "the server counts only stacks through “%s” when it records."),
                                count, function);
      else
        text = g_steal_pointer (&count);
      embers_chart_set_series (self->chart, series, NULL);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
  gtk_label_set_text (self->label, text);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* SelectSeries with the rule's matchers and group-by over the range.
 * (The function filter is applied by the server when it records; the
 * preview shows the whole stacks of the matched profiles, or the call
 * site's.) */
static gboolean
run (gpointer user_data)
{
  EmbersRulePreview *self = user_data;
  EmbersRecordingRule *rule = self->rule;
  g_autoptr(EmbersSelector) all = NULL;
  g_autoptr(EmbersSelector) rest = embers_selector_new ();
  g_autoptr(EmbersQuery) query = NULL;
  g_autoptr(EmbersProfileTypeInfo) info = NULL;
  g_autofree char *selector = NULL;
  g_autofree char *type = NULL;
  gint64 end = g_get_real_time () / 1000;
  gint64 start = end - 3600 * 1000;
  Request *request;

  self->timeout = 0;
  if (self->source == NULL || rule == NULL)
    return G_SOURCE_REMOVE;

  /* The range the tab shows, when it gave one */
  if (self->end_ms > self->start_ms)
    {
      start = self->start_ms;
      end = self->end_ms;
    }

  all = embers_selector_parse_matchers ((const char * const *)rule->matchers, NULL);
  type = embers_recording_rule_derive_profile_type (rule);
  for (guint i = 0; all && i < embers_selector_get_n_matchers (all); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (all, i);

      if (!g_str_equal (m->name, "__profile_type__"))
        embers_selector_add_matcher (rest, m);
    }
  selector = embers_selector_to_string (rest);
  query = embers_query_new (type, selector, start, end);
  info = embers_profile_type_info_new (type);
  embers_chart_set_unit (self->chart, info ? info->sample_unit : NULL);
  embers_chart_set_time_range (self->chart, start, end);
  self->shown_start = start;
  self->shown_end = end;

  self->cancellable = g_cancellable_new ();
  self->n_requests++;
  set_text (self, _("Previewing…"));
  request = g_new0 (Request, 1);
  request->self = g_object_ref (self);
  /* The function is the frame's: chart that frame's call site */
  request->call_site = wants_call_site (self);
  if (request->call_site)
    embers_source_select_call_site_series (self->source, query, (const char * const *)self->call_site,
                                           (const char * const *)rule->group_by,
                                           self->cancellable, preview_done, request);
  else
    embers_source_select_chart_series (self->source, query, (const char * const *)rule->group_by,
                                       EMBERS_AGGREGATION_SUM, 0,
                                       self->cancellable, preview_done, request);
  return G_SOURCE_REMOVE;
}

/* Asks again after a pause: typing sends one request, not one per key */
static void
schedule (EmbersRulePreview *self)
{
  cancel (self);
  if (self->source == NULL || self->rule == NULL)
    return;
  self->timeout = g_timeout_add (PREVIEW_DELAY_MS, run, self);
  set_text (self, _("Previewing…"));
  show_pending (self);
}

static gboolean
strv_same (char **a,
           char **b)
{
  if (a == NULL || b == NULL)
    return (a == NULL || a[0] == NULL) && (b == NULL || b[0] == NULL);
  return g_strv_equal ((const char * const *)a, (const char * const *)b);
}

/* Whether two rules ask the same preview: the metric name and the
 * external labels change what is recorded under, not what */
static gboolean
same_query (const EmbersRecordingRule *a,
            const EmbersRecordingRule *b)
{
  return a != NULL && b != NULL &&
         strv_same (a->matchers, b->matchers) &&
         strv_same (a->group_by, b->group_by) &&
         g_strcmp0 (a->function_name, b->function_name) == 0;
}

void
embers_rule_preview_set_rule (EmbersRulePreview         *self,
                              const EmbersRecordingRule *rule)
{
  g_return_if_fail (EMBERS_IS_RULE_PREVIEW (self));

  if (rule == NULL)
    {
      clear (self, _("The preview follows once the rule is valid"));
      return;
    }
  if (same_query (self->rule, rule))
    return;
  g_clear_pointer (&self->rule, embers_recording_rule_free);
  self->rule = embers_recording_rule_copy (rule);
  schedule (self);
}

void
embers_rule_preview_set_source (EmbersRulePreview *self,
                                EmbersSource      *source)
{
  g_return_if_fail (EMBERS_IS_RULE_PREVIEW (self));

  if (!g_set_object (&self->source, source))
    return;
  gtk_widget_set_visible (GTK_WIDGET (self), source != NULL);
  schedule (self);
}

EmbersSource *
embers_rule_preview_get_source (EmbersRulePreview *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_PREVIEW (self), NULL);
  return self->source;
}

void
embers_rule_preview_set_time_range (EmbersRulePreview *self,
                                    gint64             start_ms,
                                    gint64             end_ms)
{
  g_return_if_fail (EMBERS_IS_RULE_PREVIEW (self));

  if (self->start_ms == start_ms && self->end_ms == end_ms)
    return;
  self->start_ms = start_ms;
  self->end_ms = end_ms;
  schedule (self);
}

void
embers_rule_preview_set_call_site (EmbersRulePreview  *self,
                                   const char * const *call_site)
{
  g_return_if_fail (EMBERS_IS_RULE_PREVIEW (self));

  if (call_site != NULL && call_site[0] == NULL)
    call_site = NULL;
  if (strv_same (self->call_site, (char **)call_site))
    return;
  g_strfreev (self->call_site);
  self->call_site = g_strdupv ((char **)call_site);
  schedule (self);
}

guint
embers_rule_preview_get_n_requests (EmbersRulePreview *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_PREVIEW (self), 0);
  return self->n_requests;
}

gboolean
embers_rule_preview_get_pending (EmbersRulePreview *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_PREVIEW (self), FALSE);
  return self->timeout != 0 || self->cancellable != NULL;
}

guint
embers_rule_preview_get_n_series (EmbersRulePreview *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_PREVIEW (self), 0);
  return self->n_series;
}

const char *
embers_rule_preview_get_text (EmbersRulePreview *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_PREVIEW (self), NULL);
  return gtk_label_get_text (self->label);
}

void
embers_rule_preview_get_range (EmbersRulePreview *self,
                               gint64            *start_ms,
                               gint64            *end_ms)
{
  g_return_if_fail (EMBERS_IS_RULE_PREVIEW (self));

  if (start_ms != NULL)
    *start_ms = self->shown_start;
  if (end_ms != NULL)
    *end_ms = self->shown_end;
}

gboolean
embers_rule_preview_get_call_site (EmbersRulePreview *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_PREVIEW (self), FALSE);
  return self->shows_call_site;
}

double
embers_rule_preview_get_sum (EmbersRulePreview *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_PREVIEW (self), 0);
  return self->sum;
}

static void
embers_rule_preview_dispose (GObject *object)
{
  EmbersRulePreview *self = EMBERS_RULE_PREVIEW (object);

  cancel (self);
  g_clear_pointer (&self->rule, embers_recording_rule_free);
  g_clear_object (&self->source);
  g_clear_pointer (&self->call_site, g_strfreev);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_RULE_PREVIEW);

  G_OBJECT_CLASS (embers_rule_preview_parent_class)->dispose (object);
}

static void
embers_rule_preview_finalize (GObject *object)
{
  EmbersRulePreview *self = EMBERS_RULE_PREVIEW (object);

  g_clear_pointer (&self->chart, embers_chart_unref);

  G_OBJECT_CLASS (embers_rule_preview_parent_class)->finalize (object);
}

static void
embers_rule_preview_class_init (EmbersRulePreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_rule_preview_dispose;
  object_class->finalize = embers_rule_preview_finalize;

  /**
   * EmbersRulePreview::changed:
   *
   * The text or the chart changed: an answer came, or it was cleared.
   */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-rule-preview.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersRulePreview, label);
  gtk_widget_class_bind_template_child (widget_class, EmbersRulePreview, area);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "rulepreview");
}

static void
embers_rule_preview_init (EmbersRulePreview *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 12);
  self->chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  gtk_drawing_area_set_draw_func (self->area, draw, self, NULL);
}

GtkWidget *
embers_rule_preview_new (void)
{
  return g_object_new (EMBERS_TYPE_RULE_PREVIEW, NULL);
}
