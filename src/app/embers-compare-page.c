/* embers-compare-page.c: baseline vs comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page (ui/embers-compare-page.ui) holds two EmbersComparePanes, the
 * options, the error line and the result; what touches both sides is
 * here: sync, presets, the shared chart scale, the comparison job and
 * the folded summary.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-compare-page.h"
#include "embers-compare-pane.h"
#include "embers-comparison.h"
#include "embers-diff.h"
#include "embers-filler.h"
#include "embers-noise-controls.h"
#include "embers-pyroscope-source.h"
#include "embers-query-url.h"
#include "embers-status.h"

#define HOUR_MS   ((gint64) 3600 * 1000)

struct _EmbersComparePage
{
  AdwBreakpointBin   parent_instance;

  EmbersSource      *source;
  EmbersProfile     *diff;
  GCancellable      *cancellable;
  GCancellable      *types_cancellable;
  gboolean           busy;
  gboolean           folded;
  char              *error;       /* the last error, of the form or the job */
  char              *form_error;  /* what the form's error line says */

  /* Template */
  EmbersComparePane *panes[2];
  EmbersComparePane *baseline;
  EmbersComparePane *comparison;
  GtkWidget         *sources;          /* the form: both sides, options */
  GtkBox            *sources_box;
  GtkCheckButton    *sync_check;
  GtkWidget         *summary_button;   /* the form folded to one line */
  GtkLabel          *summary_label;
  GtkStack          *result_stack;
  EmbersStatus      *result_panel;     /* the diff, loading or a message */
  EmbersProfilePage *profile_page;
  EmbersFiller      *filler;           /* fill-ins of the diff's `other` */
};

G_DEFINE_FINAL_TYPE (EmbersComparePage, embers_compare_page, ADW_TYPE_BREAKPOINT_BIN)

enum {
  PROP_0,
  PROP_BUSY,
  PROP_FOLDED,
  PROP_SOURCE,
  PROP_FORM_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_COMPARED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static EmbersComparePane *
pane (EmbersComparePage *self,
      gboolean           comparison)
{
  return self->panes[comparison ? 1 : 0];
}

static gboolean
is_query (EmbersComparePane *p)
{
  return embers_compare_pane_get_kind (p) == EMBERS_COMPARE_PANE_QUERY;
}

/* An error of the form (a typed time, a missing file) on its line under
 * the form; NULL clears it */
static void
set_error (EmbersComparePage *self,
           const char        *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  if (g_strcmp0 (self->form_error, message) == 0)
    return;
  g_free (self->form_error);
  self->form_error = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FORM_ERROR]);
}

/* An error of the job: said once, in place of the diff (with Retry), not
 * also on the form's line */
static void
set_result_error (EmbersComparePage *self,
                  const char        *title,
                  const char        *message,
                  const char        *icon_name)
{
  set_error (self, NULL);
  g_free (self->error);
  self->error = g_strdup (message);
  embers_status_show_message (self->result_panel, icon_name, title, message, TRUE);
}

static void
set_busy (EmbersComparePage *self,
          gboolean           busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static gboolean
sync_on (EmbersComparePage *self)
{
  return gtk_check_button_get_active (self->sync_check);
}

/* Template closures */

static gboolean
invert (gpointer this,
        gboolean value)
{
  return !value;
}

static gboolean
is_set (gpointer  this,
        gpointer  value)
{
  return value != NULL;
}

/* The result: the diff in a profile page, so that it has everything a
 * flame graph has (focus, search, sandwich, keyboard, export, context
 * menu) plus the legend, the switches and the diff table */

static char *
diff_title (EmbersComparePage *self)
{
  EmbersComparePane *b = self->panes[0], *c = self->panes[1];
  g_autofree char *base = embers_compare_pane_describe (b);
  g_autofree char *comp = embers_compare_pane_describe (c);

  if (is_query (b) && is_query (c) &&
      g_strcmp0 (embers_compare_pane_get_selector (b), embers_compare_pane_get_selector (c)) == 0 &&
      g_strcmp0 (embers_compare_pane_get_profile_type (b), embers_compare_pane_get_profile_type (c)) == 0)
    {
      /* One query at two times: say it once */
      const char *selector = embers_compare_pane_get_selector (b);
      gint64 b_start, c_start;
      g_autofree char *from_b = NULL;
      g_autofree char *from_c = NULL;

      embers_compare_pane_get_range (b, &b_start, NULL);
      embers_compare_pane_get_range (c, &c_start, NULL);
      from_b = embers_compare_format_time (b_start);
      from_c = embers_compare_format_time (c_start);
      if (selector != NULL && selector[0] != '\0' && g_strcmp0 (selector, "{}") != 0)
        /* Translators: the title of a comparison: a label selector, baseline time vs comparison time */
        return g_strdup_printf (_("%s: %s vs %s"), selector, from_b, from_c);
      return g_strdup_printf (_("%s vs %s"), from_b, from_c);
    }
  if (base != NULL && comp != NULL)
    /* Translators: the title of a comparison: baseline vs comparison */
    return g_strdup_printf (_("%s vs %s"), base, comp);
  return NULL;
}

static void
show_diff (EmbersComparePage *self,
           EmbersProfile     *diff)
{
  g_set_object (&self->diff, diff);
  if (diff != NULL)
    {
      g_autofree char *title = diff_title (self);

      embers_profile_page_set_profile (self->profile_page, diff, title != NULL ? title : _("Comparison"));
      gtk_label_set_text (self->summary_label, title != NULL ? title : _("Comparison"));
    }
  gtk_stack_set_visible_child_name (self->result_stack, diff != NULL ? "result" : "empty");
}

/* Both files loaded: are the chosen types comparable? Says so at once */
static void
check_samples (EmbersComparePage *self)
{
  EmbersProfile *bp = embers_compare_pane_get_profile (self->panes[0]);
  EmbersProfile *cp = embers_compare_pane_get_profile (self->panes[1]);
  g_autoptr(GError) error = NULL;
  guint bi, ci;

  if (embers_compare_pane_get_kind (self->panes[0]) != EMBERS_COMPARE_PANE_FILE ||
      embers_compare_pane_get_kind (self->panes[1]) != EMBERS_COMPARE_PANE_FILE ||
      bp == NULL || cp == NULL)
    return;
  bi = embers_compare_pane_get_sample_index (self->panes[0], bp);
  ci = embers_compare_pane_get_sample_index (self->panes[1], cp);
  if (!embers_diff_check_units (embers_profile_get_sample_type (bp, bi), embers_profile_get_sample_unit (bp, bi),
                                embers_profile_get_sample_type (cp, ci), embers_profile_get_sample_unit (cp, ci),
                                &error))
    set_error (self, error->message);
  else if (!self->busy)
    set_error (self, NULL);
}

/* Pane signals */

static void
pane_samples_loaded (EmbersComparePane *p,
                     EmbersComparePage *self)
{
  check_samples (self);
}

static void
pane_sample_chosen (EmbersComparePane *p,
                    EmbersComparePage *self)
{
  EmbersComparePane *other = pane (self, !embers_compare_pane_get_comparison (p));

  check_samples (self);
  /* Two files already compared: the new type at once (local work) */
  if (self->diff != NULL && self->error == NULL && !self->busy &&
      embers_compare_pane_get_kind (other) == EMBERS_COMPARE_PANE_FILE &&
      embers_compare_pane_get_profile (other) != NULL)
    embers_compare_page_compare (self);
}

static void
pane_error (EmbersComparePane *p,
            const char        *message,
            EmbersComparePage *self)
{
  set_error (self, message);
}

/* Both sides' charts on one value scale, so that their heights compare;
 * each on its own when their units differ */
static void
share_scale (EmbersComparePage *self)
{
  EmbersChart *charts[2];
  double max = 0;
  gboolean same = is_query (self->panes[0]) && is_query (self->panes[1]) &&
                  g_strcmp0 (embers_compare_pane_get_profile_type (self->panes[0]),
                             embers_compare_pane_get_profile_type (self->panes[1])) == 0;

  for (guint i = 0; i < 2; i++)
    {
      charts[i] = embers_series_chart_get_chart (embers_compare_pane_get_chart (self->panes[i]));
      max = MAX (max, embers_chart_get_data_max (charts[i]));
    }
  for (guint i = 0; i < 2; i++)
    {
      embers_chart_set_value_max (charts[i], same ? max : 0);
      gtk_widget_queue_draw (GTK_WIDGET (embers_compare_pane_get_chart (self->panes[i])));
    }
}

static void
pane_series_loaded (EmbersComparePane *p,
                    EmbersComparePage *self)
{
  share_scale (self);
}

/* Sets a side's range; with sync, the other query side moves by as much
 * as this one's start moved and takes its length */
static void
set_range (EmbersComparePage *self,
           EmbersComparePane *p,
           gint64             start_ms,
           gint64             end_ms,
           gboolean           propagate)
{
  EmbersComparePane *other = pane (self, !embers_compare_pane_get_comparison (p));
  gint64 old_start, other_start, other_end;
  gboolean move_other = embers_compare_pane_get_range (p, &old_start, NULL) &&
                        embers_compare_pane_get_range (other, &other_start, &other_end) &&
                        propagate && sync_on (self) && is_query (other);

  embers_compare_pane_set_range (p, start_ms, end_ms);
  if (move_other)
    embers_compare_pane_set_range (other, start_ms + (other_start - old_start),
                                   end_ms + (other_start - old_start));
}

static void
pane_range_chosen (EmbersComparePane *p,
                   gint64             start_ms,
                   gint64             end_ms,
                   EmbersComparePage *self)
{
  set_range (self, p, start_ms, end_ms, TRUE);
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
    if (!embers_compare_pane_commit (self->panes[i], &starts[i], &ends[i], &changed[i], error))
      return FALSE;
  for (guint i = 0; i < 2; i++)
    if (changed[i])
      set_range (self, self->panes[i], starts[i], ends[i], !changed[1 - i]);
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

static void setup_filler (EmbersComparePage *self);

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
      embers_compare_pane_take_loaded (self->panes[i], job->files[i], loaded[i]);
      g_clear_object (&loaded[i]);
    }

  if (job->cancellable == self->cancellable)
    {
      g_clear_object (&self->cancellable);
      set_busy (self, FALSE);
      if (diff != NULL)
        {
          set_error (self, NULL);
          /* The new answer's cut, before the page shows it */
          setup_filler (self);
          show_diff (self, diff);
          embers_status_show_content (self->result_panel);
          /* Room for the answer: the form folds to one line */
          embers_compare_page_set_folded (self, TRUE);
        }
      else if (embers_compare_is_cancelled (error))
        set_result_error (self, _("Comparison Cancelled"), _("Comparison cancelled"), NULL);
      else
        /* In place of the old diff, never under the new sides */
        set_result_error (self, _("Could Not Compare"),
                          error != NULL ? error->message : _("The comparison failed"),
                          "dialog-error-symbolic");
      g_signal_emit (self, signals[SIGNAL_COMPARED], 0);
    }
  job_free (job);
}

/* ---- Fill-ins of the diff's `other` ----
 *
 * Two queries on one server whose answers were cut: Load More (the frame
 * menu, L) and the fill-in after a zoom ask each side for the call site
 * and merge both into the diff (embers-filler.h). */

static void
setup_filler (EmbersComparePage *self)
{
  g_autoptr(EmbersQuery) baseline = NULL;
  g_autoptr(EmbersQuery) comparison = NULL;
  gint64 max_nodes = 0;

  if (self->filler != NULL)
    embers_filler_reset_diff (self->filler, NULL, NULL, 0);
  if (self->source == NULL || !is_query (self->panes[0]) || !is_query (self->panes[1]))
    return;
  baseline = embers_compare_page_dup_query (self, FALSE);
  comparison = embers_compare_page_dup_query (self, TRUE);
  if (baseline == NULL || comparison == NULL)
    return;
  if (EMBERS_IS_PYROSCOPE_SOURCE (self->source))
    max_nodes = embers_pyroscope_source_get_max_nodes (EMBERS_PYROSCOPE_SOURCE (self->source));
  if (self->filler == NULL)
    self->filler = embers_filler_new (self->source, self->profile_page, self->result_panel);
  embers_filler_reset_diff (self->filler, baseline, comparison, max_nodes);
}

static void
load_more_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  EmbersComparePage *self = EMBERS_COMPARE_PAGE (widget);
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (self->profile_page);

  if (self->filler != NULL && graph != NULL)
    embers_filler_load_more (self->filler, embers_flame_graph_get_selected_node (graph));
  else
    gtk_widget_activate_action (widget, "win.show-toast", "s",
                                _("Load More needs two queries on one server"));
}

EmbersFiller *
embers_compare_page_get_filler (EmbersComparePage *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return self->filler;
}

/* The diff asking for the sides on screen: the old one dimmed under what
 * loads */
static void
show_result_loading (EmbersComparePage *self)
{
  gint64 b_start, b_end, c_start, c_end;
  g_autofree char *text = NULL;

  if (is_query (self->panes[0]) && is_query (self->panes[1]) &&
      embers_compare_pane_get_range (self->panes[0], &b_start, &b_end) &&
      embers_compare_pane_get_range (self->panes[1], &c_start, &c_end))
    {
      g_autofree char *b_from = embers_query_url_format_local_time (b_start);
      g_autofree char *b_to = embers_query_url_format_local_time (b_end);
      g_autofree char *c_from = embers_query_url_format_local_time (c_start);
      g_autofree char *c_to = embers_query_url_format_local_time (c_end);

      /* Translators: over the diff while it loads: the baseline's time
       * range (from, to), then the comparison's */
      text = g_strdup_printf (_("Loading %s – %s against %s – %s…"), b_from, b_to, c_from, c_to);
    }
  else
    text = g_strdup (_("Comparing…"));
  gtk_stack_set_visible_child_name (self->result_stack, "result");
  embers_status_show_loading (self->result_panel, text);
}

void
embers_compare_page_compare (EmbersComparePage *self)
{
  g_autoptr(GError) error = NULL;
  EmbersCompareSide *sides[2] = { NULL, NULL };
  Job *job;

  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));

  if (!commit_on_screen (self, &error))
    {
      set_error (self, error->message);
      return;
    }
  for (guint i = 0; i < 2 && error == NULL; i++)
    sides[i] = embers_compare_pane_dup_side (self->panes[i], &error);

  /* Incomplete, or refused before any request (CPU time against bytes):
   * said at once */
  if (error != NULL || !embers_comparison_check (sides[0], sides[1], &error))
    set_error (self, error->message);
  else
    {
      embers_compare_page_cancel (self);
      if (self->filler != NULL)
        embers_filler_reset_diff (self->filler, NULL, NULL, 0);
      self->cancellable = g_cancellable_new ();
      set_error (self, NULL);
      set_busy (self, TRUE);
      show_result_loading (self);

      job = g_new0 (Job, 1);
      job->self = g_object_ref (self);
      job->cancellable = g_object_ref (self->cancellable);
      for (guint i = 0; i < 2; i++)
        g_set_object (&job->files[i], embers_compare_pane_get_file (self->panes[i]));
      embers_comparison_run_async (sides[0], sides[1], job->cancellable, comparison_done, job);
    }
  g_clear_pointer (&sides[0], embers_compare_side_free);
  g_clear_pointer (&sides[1], embers_compare_side_free);
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
  /* The old diff does not answer the sides asked for */
  set_result_error (self, _("Comparison Cancelled"), _("Comparison cancelled"), NULL);
}

/* Presets */

void
embers_compare_page_apply_preset (EmbersComparePage   *self,
                                  EmbersComparePreset  preset,
                                  gint64               now_ms)
{
  gint64 b_start, b_end, c_start, c_end, len, shift;

  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));

  if (now_ms <= 0)
    now_ms = g_get_real_time () / 1000;

  switch (preset)
    {
    case EMBERS_COMPARE_PRESET_PREVIOUS_PERIOD:
      if (!is_query (self->panes[1]) || !embers_compare_pane_get_range (self->panes[1], &c_start, &c_end))
        {
          c_start = now_ms - HOUR_MS;
          c_end = now_ms;
        }
      len = c_end - c_start;
      b_start = c_start - len;
      b_end = c_start;
      break;
    case EMBERS_COMPARE_PRESET_HOUR_BEFORE:
    case EMBERS_COMPARE_PRESET_DAY_AGO:
    case EMBERS_COMPARE_PRESET_WEEK_AGO:
    default:
      shift = preset == EMBERS_COMPARE_PRESET_HOUR_BEFORE ? HOUR_MS
            : preset == EMBERS_COMPARE_PRESET_DAY_AGO ? 24 * HOUR_MS
            : 7 * 24 * HOUR_MS;
      c_start = now_ms - HOUR_MS;
      c_end = now_ms;
      b_start = c_start - shift;
      b_end = c_end - shift;
      break;
    }

  /* Presets are about queries: file sides become queries when they can */
  for (guint i = 0; i < 2; i++)
    embers_compare_pane_make_query (self->panes[i],
                                    embers_compare_pane_get_profile_type (self->panes[1 - i]));
  /* Each chart around its own selection: an hour a week ago is half its
   * chart, not a sliver of an eight-day one */
  embers_compare_pane_set_range (self->panes[0], b_start, b_end);
  embers_compare_pane_set_range (self->panes[1], c_start, c_end);
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
  gint64 b_start, b_end, c_start, c_end;

  if (!sync_on (self) || !is_query (self->panes[0]) || !is_query (self->panes[1]) ||
      !embers_compare_pane_get_range (self->panes[0], &b_start, &b_end) ||
      !embers_compare_pane_get_range (self->panes[1], &c_start, &c_end))
    return;
  if (b_end - b_start == c_end - c_start)
    return;
  embers_compare_pane_set_range (self->panes[0], b_end - (c_end - c_start), b_end);
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

/* GObject */

static void
embers_compare_page_dispose (GObject *object)
{
  EmbersComparePage *self = EMBERS_COMPARE_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->types_cancellable);
  g_clear_object (&self->types_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_COMPARE_PAGE);
  self->panes[0] = self->panes[1] = NULL;
  g_clear_object (&self->filler);
  g_clear_object (&self->source);
  g_clear_object (&self->diff);

  G_OBJECT_CLASS (embers_compare_page_parent_class)->dispose (object);
}

static void
embers_compare_page_finalize (GObject *object)
{
  EmbersComparePage *self = EMBERS_COMPARE_PAGE (object);

  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->form_error, g_free);
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
    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;
    case PROP_FORM_ERROR:
      g_value_set_string (value, self->form_error);
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
  /* What query sides ask (embers_compare_page_set_source()) */
  properties[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL, EMBERS_TYPE_SOURCE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The error line under the form (NULL: none); a comparison's own
   * failure shows in place of the diff instead */
  properties[PROP_FORM_ERROR] =
    g_param_spec_string ("form-error", NULL, NULL, NULL,
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

  g_type_ensure (EMBERS_TYPE_COMPARE_PANE);
  g_type_ensure (EMBERS_TYPE_STATUS);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-compare-page.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePage, baseline);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePage, comparison);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePage, sources);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePage, sources_box);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePage, sync_check);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePage, summary_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePage, result_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersComparePage, result_panel);
  gtk_widget_class_bind_template_callback (widget_class, invert);
  gtk_widget_class_bind_template_callback (widget_class, is_set);
  gtk_widget_class_bind_template_callback (widget_class, unfold);
  gtk_widget_class_bind_template_callback (widget_class, sync_toggled);
  gtk_widget_class_bind_template_callback (widget_class, embers_compare_page_compare);
  gtk_widget_class_bind_template_callback (widget_class, pane_range_chosen);
  gtk_widget_class_bind_template_callback (widget_class, pane_sample_chosen);
  gtk_widget_class_bind_template_callback (widget_class, pane_samples_loaded);
  gtk_widget_class_bind_template_callback (widget_class, pane_series_loaded);
  gtk_widget_class_bind_template_callback (widget_class, pane_error);

  /* The frame menu's Load More and its key, as in the explore page */
  gtk_widget_class_install_action (widget_class, "explore.load-more", NULL, load_more_action);

  gtk_widget_class_set_css_name (widget_class, "embers-compare-page");
}

static void
embers_compare_page_init (EmbersComparePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->panes[0] = self->baseline;
  self->panes[1] = self->comparison;
  embers_compare_pane_set_partner (self->baseline, self->comparison);
  embers_compare_pane_set_partner (self->comparison, self->baseline);
  /* The diff, with the legend and palette, mode and width switches over
   * the graph and the diff table beside it */
  self->profile_page = embers_profile_page_new ();
  embers_status_set_content (self->result_panel, GTK_WIDGET (self->profile_page));
  /* A diff that knows its noise: Hide noise, Per second (a row of its own) */
  gtk_box_append (self->sources_box, GTK_WIDGET (embers_noise_controls_new (self)));
}

GtkWidget *
embers_compare_page_new (void)
{
  return g_object_new (EMBERS_TYPE_COMPARE_PAGE, NULL);
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
    embers_compare_pane_clear_sample_type (self->panes[i]);
  embers_compare_pane_set_file_or_url (self->panes[0], baseline);
  embers_compare_pane_set_file_or_url (self->panes[1], comparison);
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
  if (embers_compare_is_cancelled (error))
    return;
  /* Not cancelled: the page is alive (dispose cancels) */
  g_clear_object (&self->types_cancellable);
  if (types == NULL)
    {
      set_error (self, error != NULL ? error->message : NULL);
      return;
    }
  for (guint i = 0; i < 2; i++)
    embers_compare_pane_add_types (self->panes[i], types);
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
    embers_compare_pane_set_source (self->panes[i], source);
  /* Time ranges only mean something for queries (the template binds) */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE]);
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
  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));

  if (baseline != NULL)
    embers_compare_pane_set_query (self->panes[0], baseline);
  if (comparison != NULL)
    embers_compare_pane_set_query (self->panes[1], comparison);
}

void
embers_compare_page_set_time_range (EmbersComparePage *self,
                                    gboolean           comparison,
                                    gint64             start_ms,
                                    gint64             end_ms)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));
  g_return_if_fail (start_ms < end_ms);

  set_range (self, pane (self, comparison), start_ms, end_ms, TRUE);
}

EmbersQuery *
embers_compare_page_dup_query (EmbersComparePage *self,
                               gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_compare_pane_dup_query (pane (self, comparison));
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
  gtk_check_button_set_active (self->sync_check, sync);
}

const char *
embers_compare_page_get_sample_type (EmbersComparePage *self,
                                     gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_compare_pane_get_sample_type (pane (self, comparison));
}

gboolean
embers_compare_page_set_sample_type (EmbersComparePage *self,
                                     gboolean           comparison,
                                     const char        *sample_type)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), FALSE);
  /* As the user would: the drop-down, and the other file follows */
  return embers_compare_pane_choose_sample (pane (self, comparison), sample_type, TRUE);
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
  return embers_compare_pane_get_chart (pane (self, comparison));
}

EmbersFilterBar *
embers_compare_page_get_filter_bar (EmbersComparePage *self,
                                    gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_compare_pane_get_filter_bar (pane (self, comparison));
}

GtkEditable *
embers_compare_page_get_selector_entry (EmbersComparePage *self,
                                        gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_compare_pane_get_selector_entry (pane (self, comparison));
}

GtkEditable *
embers_compare_page_get_from_entry (EmbersComparePage *self,
                                    gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_compare_pane_get_from_entry (pane (self, comparison));
}

GtkEditable *
embers_compare_page_get_to_entry (EmbersComparePage *self,
                                  gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_compare_pane_get_to_entry (pane (self, comparison));
}

GtkDropDown *
embers_compare_page_get_type_dropdown (EmbersComparePage *self,
                                       gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_compare_pane_get_type_dropdown (pane (self, comparison));
}

GtkDropDown *
embers_compare_page_get_sample_type_dropdown (EmbersComparePage *self,
                                              gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_compare_pane_get_sample_dropdown (pane (self, comparison));
}

const char *
embers_compare_page_get_file_label (EmbersComparePage *self,
                                    gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_compare_pane_get_file_text (pane (self, comparison));
}

gboolean
embers_compare_page_get_files (EmbersComparePage  *self,
                               GFile             **baseline,
                               GFile             **comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), FALSE);

  for (guint i = 0; i < 2; i++)
    if (embers_compare_pane_get_file (self->panes[i]) == NULL)
      return FALSE;
  *baseline = embers_compare_pane_get_file (self->panes[0]);
  *comparison = embers_compare_pane_get_file (self->panes[1]);
  return TRUE;
}

GFile *
embers_compare_page_get_side_file (EmbersComparePage *self,
                                   gboolean           comparison)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (self), NULL);
  return embers_compare_pane_get_file (pane (self, comparison));
}

void
embers_compare_page_set_side_file (EmbersComparePage *self,
                                   gboolean           comparison,
                                   GFile             *file,
                                   const char        *sample_type)
{
  EmbersComparePane *p;

  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  p = pane (self, comparison);
  /* Loaded by the comparison, as embers_compare_page_set_files() does */
  embers_compare_pane_clear_sample_type (p);
  embers_compare_pane_set_file (p, file, FALSE);
  if (sample_type != NULL)
    embers_compare_pane_choose_sample (p, sample_type, FALSE);
}
