/* embers-noise-controls.c: a comparison's noise test: Hide noise, Per second
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "embers-accessible.h"
#include "embers-diff.h"
#include "embers-diff-table.h"
#include "embers-flame-graph.h"
#include "embers-local-source.h"
#include "embers-noise-controls.h"
#include "embers-profile-page.h"
#include "embers-pyroscope-noise.h"

struct _EmbersNoiseControls
{
  GtkBox             parent_instance;

  /* Template */
  GtkCheckButton    *hide_check;
  GtkCheckButton    *per_second_check;
  GtkLabel          *status_label;

  GWeakRef           page;
  EmbersDiffStats   *stats;
  GCancellable      *cancellable;
  gboolean           busy;
  gboolean           applying;
};

G_DEFINE_FINAL_TYPE (EmbersNoiseControls, embers_noise_controls, GTK_TYPE_BOX)

enum
{
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_busy (EmbersNoiseControls *self,
          gboolean             busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* The test (or none) to the page's diff flame graph and table */
static void
apply (EmbersNoiseControls *self)
{
  g_autoptr(EmbersComparePage) page = g_weak_ref_get (&self->page);
  EmbersProfilePage *profile_page;
  gboolean hide;

  if (page == NULL)
    return;
  profile_page = embers_compare_page_get_profile_page (page);
  hide = self->stats != NULL && embers_diff_stats_has_enough_steps (self->stats) &&
         gtk_check_button_get_active (self->hide_check);
  embers_flame_graph_set_noise (embers_profile_page_get_flame_graph (profile_page), self->stats, hide);
  embers_diff_table_set_noise (embers_profile_page_get_diff_table (profile_page), self->stats, hide);
}

/* @why (may be NULL): the status to show instead of the counts */
static void
show_stats_why (EmbersNoiseControls *self,
                EmbersDiffStats     *stats,
                const char          *why)
{
  g_autofree char *status = NULL;
  guint nb, nc;

  g_set_object (&self->stats, stats);
  if (stats == NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->hide_check), FALSE);
      apply (self);
      return;
    }

  nb = embers_diff_stats_get_n_steps (stats, EMBERS_DIFF_SIDE_BASELINE);
  nc = embers_diff_stats_get_n_steps (stats, EMBERS_DIFF_SIDE_COMPARISON);
  self->applying = TRUE;
  if (embers_diff_stats_has_enough_steps (stats))
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->hide_check), TRUE);
      gtk_check_button_set_active (self->hide_check, TRUE);
      /* Translators: the steps of each side, then how many functions changed
       * beyond the noise of how many */
      status = g_strdup_printf (_("%u and %u steps: %u of %u functions changed beyond the noise"),
                                nb, nc, embers_diff_stats_get_n_changed (stats),
                                embers_diff_stats_get_n_functions (stats));
    }
  else
    {
      gtk_check_button_set_active (self->hide_check, FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->hide_check), FALSE);
      /* Translators: the steps of each side, then the steps the test needs */
      status = g_strdup_printf (_("%u and %u steps: too few to tell a change from noise (%u needed on each side)"),
                                nb, nc, EMBERS_DIFF_STATS_MIN_STEPS);
    }
  self->applying = FALSE;
  if (why != NULL)
    g_set_str (&status, why);
  gtk_label_set_text (self->status_label, status);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), status);
  apply (self);
}

static void
show_stats (EmbersNoiseControls *self,
            EmbersDiffStats     *stats)
{
  show_stats_why (self, stats, NULL);
}

static void
stats_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(EmbersNoiseControls) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersDiffStats) stats = EMBERS_IS_LOCAL_SOURCE (object)
    ? embers_local_source_diff_stats_finish (EMBERS_LOCAL_SOURCE (object), result, &error)
    : embers_pyroscope_diff_stats_finish (EMBERS_PYROSCOPE_SOURCE (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_CANCELED))
    return;
  set_busy (self, FALSE);
  if (stats == NULL)
    {
      gtk_label_set_text (self->status_label, error->message);
      show_stats (self, NULL);
      return;
    }
  show_stats (self, stats);
}

/* A file against a query. The file is one step, and Welch's test needs
 * EMBERS_DIFF_STATS_MIN_STEPS on each side to estimate each side's noise:
 * a single profile has no spread of its own. Borrowing the query's spread
 * for the file would assume the file is a step like the query's, which it
 * rarely is (one process for its own length, against every matching
 * profile of a step summed), so nothing is tested and the status and
 * every tooltip say why, with both sides' real steps: the file's one, the
 * query's as the two-query test would count them (a server's SelectSeries
 * points at the chart step, a local source's files). */
typedef struct
{
  EmbersNoiseControls *self;
  EmbersDiffSide       file_side;
  double               file_total;
} OneSided;

static void
one_sided_done (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  OneSided *os = user_data;
  g_autoptr(EmbersNoiseControls) self = os->self;
  EmbersDiffSide file_side = os->file_side;
  EmbersDiffSide query_side = file_side == EMBERS_DIFF_SIDE_BASELINE ? EMBERS_DIFF_SIDE_COMPARISON
                                                                      : EMBERS_DIFF_SIDE_BASELINE;
  g_autoptr(EmbersDiffStats) stats = embers_diff_stats_new (EMBERS_DIFF_STATS_SHARE, 0);
  g_autoptr(EmbersDiffStats) local = NULL;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *why = NULL;
  guint n_query;

  embers_diff_stats_add_step (stats, file_side, os->file_total, 0);
  g_free (os);
  if (EMBERS_IS_LOCAL_SOURCE (object))
    local = embers_local_source_diff_stats_finish (EMBERS_LOCAL_SOURCE (object), result, &error);
  else
    series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_CANCELED))
    return;
  set_busy (self, FALSE);
  if (error != NULL)
    {
      gtk_label_set_text (self->status_label, error->message);
      show_stats (self, NULL);
      return;
    }

  /* The query's steps, their totals as the test would take them */
  if (local != NULL)
    for (guint i = 0; i < embers_diff_stats_get_n_steps (local, EMBERS_DIFF_SIDE_BASELINE); i++)
      embers_diff_stats_add_step (stats, query_side, embers_diff_stats_get_step_total (local, EMBERS_DIFF_SIDE_BASELINE, i), 0);
  else
    {
      g_autoptr(GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

      for (guint i = 0; i < series->len; i++)
        {
          const EmbersSeries *s = g_ptr_array_index (series, i);

          for (guint j = 0; j < s->n_points; j++)
            if (isfinite (s->values[j]) && !g_hash_table_contains (seen, &s->timestamps[j]))
              {
                g_hash_table_add (seen, g_memdup2 (&s->timestamps[j], sizeof (gint64)));
                embers_diff_stats_add_step (stats, query_side, s->values[j], 0);
              }
        }
    }
  embers_diff_stats_compute (stats);

  n_query = embers_diff_stats_get_n_used_steps (stats, query_side);
  if (file_side == EMBERS_DIFF_SIDE_BASELINE)
    /* Translators: %u: the query's steps, then the steps the test needs */
    why = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "The baseline is one file, a single step, against %u step of the query: "
                                        "a file has no noise of its own to test against (%u steps needed on each "
                                        "side). Compare two queries to test the changes.",
                                        "The baseline is one file, a single step, against %u steps of the query: "
                                        "a file has no noise of its own to test against (%u steps needed on each "
                                        "side). Compare two queries to test the changes.",
                                        n_query),
                           n_query, EMBERS_DIFF_STATS_MIN_STEPS);
  else
    /* Translators: %u: the query's steps, then the steps the test needs */
    why = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "The comparison is one file, a single step, against %u step of the query: "
                                        "a file has no noise of its own to test against (%u steps needed on each "
                                        "side). Compare two queries to test the changes.",
                                        "The comparison is one file, a single step, against %u steps of the query: "
                                        "a file has no noise of its own to test against (%u steps needed on each "
                                        "side). Compare two queries to test the changes.",
                                        n_query),
                           n_query, EMBERS_DIFF_STATS_MIN_STEPS);
  show_stats_why (self, stats, why);
}

static void
run_one_sided (EmbersNoiseControls *self,
               EmbersSource        *source,
               const EmbersQuery   *query,
               EmbersDiffSide       file_side,
               EmbersProfile       *diff)
{
  OneSided *os = g_new0 (OneSided, 1);

  os->self = g_object_ref (self);
  os->file_side = file_side;
  os->file_total = (double)embers_profile_get_total (diff, file_side == EMBERS_DIFF_SIDE_BASELINE
                                                           ? EMBERS_DIFF_BASELINE : EMBERS_DIFF_COMPARISON);
  self->cancellable = g_cancellable_new ();
  set_busy (self, TRUE);
  gtk_label_set_text (self->status_label, _("Counting the query’s steps…"));
  if (EMBERS_IS_LOCAL_SOURCE (source))
    embers_local_source_diff_stats_async (EMBERS_LOCAL_SOURCE (source), query, query, EMBERS_DIFF_STATS_SHARE,
                                          self->cancellable, one_sided_done, os);
  else
    embers_source_select_series (source, query, NULL, embers_source_step_for_range (query->start_ms, query->end_ms),
                                 EMBERS_AGGREGATION_SUM, 0, self->cancellable, one_sided_done, os);
}

/* One profile a side: one step each, which the test cannot use; the
 * tooltips say so rather than colouring noise as change */
static EmbersDiffStats *
single_steps (EmbersProfile *diff)
{
  EmbersDiffStats *stats = embers_diff_stats_new (EMBERS_DIFF_STATS_SHARE, 0);

  embers_diff_stats_add_step (stats, EMBERS_DIFF_SIDE_BASELINE,
                              (double)embers_profile_get_total (diff, EMBERS_DIFF_BASELINE), 0);
  embers_diff_stats_add_step (stats, EMBERS_DIFF_SIDE_COMPARISON,
                              (double)embers_profile_get_total (diff, EMBERS_DIFF_COMPARISON), 0);
  embers_diff_stats_compute (stats);
  return stats;
}

static void
run (EmbersNoiseControls *self)
{
  g_autoptr(EmbersComparePage) page = g_weak_ref_get (&self->page);
  g_autoptr(EmbersQuery) left = NULL;
  g_autoptr(EmbersQuery) right = NULL;
  EmbersProfile *diff;
  EmbersSource *source;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_busy (self, FALSE);
  if (page == NULL)
    return;

  diff = embers_compare_page_get_error (page) == NULL ? embers_compare_page_get_diff (page) : NULL;
  source = embers_compare_page_get_source (page);
  if (diff == NULL)
    {
      gtk_label_set_text (self->status_label, NULL);
      show_stats (self, NULL);
      return;
    }
  left = embers_compare_page_dup_query (page, FALSE);
  right = embers_compare_page_dup_query (page, TRUE);

  if (EMBERS_IS_LOCAL_SOURCE (source) && left != NULL && right != NULL)
    {
      self->cancellable = g_cancellable_new ();
      set_busy (self, TRUE);
      gtk_label_set_text (self->status_label, _("Testing the steps…"));
      embers_local_source_diff_stats_async (EMBERS_LOCAL_SOURCE (source), left, right,
                                            gtk_check_button_get_active (self->per_second_check)
                                            ? EMBERS_DIFF_STATS_PER_SECOND : EMBERS_DIFF_STATS_SHARE,
                                            self->cancellable, stats_done, g_object_ref (self));
      return;
    }
  if (left == NULL && right == NULL)
    {
      g_autoptr(EmbersDiffStats) stats = single_steps (diff);

      show_stats (self, stats);
      return;
    }
  if (EMBERS_IS_PYROSCOPE_SOURCE (source) && left != NULL && right != NULL)
    {
      /* The steps of each side and of the call sites that changed most */
      self->cancellable = g_cancellable_new ();
      set_busy (self, TRUE);
      gtk_label_set_text (self->status_label, _("Asking the server for the steps…"));
      embers_pyroscope_diff_stats_async (EMBERS_PYROSCOPE_SOURCE (source), left, right, diff,
                                         gtk_check_button_get_active (self->per_second_check)
                                         ? EMBERS_DIFF_STATS_PER_SECOND : EMBERS_DIFF_STATS_SHARE,
                                         0, self->cancellable, stats_done, g_object_ref (self));
      return;
    }
  if (source != NULL && (left != NULL) != (right != NULL))
    {
      run_one_sided (self, source, left != NULL ? left : right,
                     left != NULL ? EMBERS_DIFF_SIDE_COMPARISON : EMBERS_DIFF_SIDE_BASELINE, diff);
      return;
    }
  gtk_label_set_text (self->status_label, NULL);
  show_stats (self, NULL);
}

static void
hide_toggled (EmbersNoiseControls *self)
{
  if (!self->applying)
    apply (self);
}

static void
embers_noise_controls_dispose (GObject *object)
{
  EmbersNoiseControls *self = EMBERS_NOISE_CONTROLS (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_NOISE_CONTROLS);

  G_OBJECT_CLASS (embers_noise_controls_parent_class)->dispose (object);
}

static void
embers_noise_controls_finalize (GObject *object)
{
  EmbersNoiseControls *self = EMBERS_NOISE_CONTROLS (object);

  g_weak_ref_clear (&self->page);
  g_clear_object (&self->stats);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (embers_noise_controls_parent_class)->finalize (object);
}

static void
embers_noise_controls_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  EmbersNoiseControls *self = EMBERS_NOISE_CONTROLS (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_noise_controls_class_init (EmbersNoiseControlsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_noise_controls_dispose;
  object_class->finalize = embers_noise_controls_finalize;
  object_class->get_property = embers_noise_controls_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-noise-controls.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersNoiseControls, hide_check);
  gtk_widget_class_bind_template_child (widget_class, EmbersNoiseControls, per_second_check);
  gtk_widget_class_bind_template_child (widget_class, EmbersNoiseControls, status_label);
}

static void
embers_noise_controls_init (EmbersNoiseControls *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_weak_ref_init (&self->page, NULL);
  /* Their names without the mnemonic's underscore (a template's check
   * button keeps it in its accessible name) */
  embers_accessible_set_label (GTK_WIDGET (self->hide_check), _("Hide noise"));
  embers_accessible_set_label (GTK_WIDGET (self->per_second_check), _("Per second"));
  g_signal_connect_object (self->hide_check, "toggled", G_CALLBACK (hide_toggled), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->per_second_check, "toggled", G_CALLBACK (run), self, G_CONNECT_SWAPPED);
}

EmbersNoiseControls *
embers_noise_controls_new (EmbersComparePage *page)
{
  EmbersNoiseControls *self;

  g_return_val_if_fail (EMBERS_IS_COMPARE_PAGE (page), NULL);

  self = g_object_new (EMBERS_TYPE_NOISE_CONTROLS, NULL);
  g_weak_ref_set (&self->page, page);
  g_signal_connect_object (page, "compared", G_CALLBACK (run), self, G_CONNECT_SWAPPED);
  return self;
}

EmbersDiffStats *
embers_noise_controls_get_stats (EmbersNoiseControls *self)
{
  g_return_val_if_fail (EMBERS_IS_NOISE_CONTROLS (self), NULL);
  return self->stats;
}

gboolean
embers_noise_controls_get_busy (EmbersNoiseControls *self)
{
  g_return_val_if_fail (EMBERS_IS_NOISE_CONTROLS (self), FALSE);
  return self->busy;
}

void
embers_noise_controls_set_hide_noise (EmbersNoiseControls *self,
                                      gboolean             hide)
{
  g_return_if_fail (EMBERS_IS_NOISE_CONTROLS (self));
  gtk_check_button_set_active (self->hide_check, hide);
}

gboolean
embers_noise_controls_get_hide_noise (EmbersNoiseControls *self)
{
  g_return_val_if_fail (EMBERS_IS_NOISE_CONTROLS (self), FALSE);
  return gtk_check_button_get_active (self->hide_check);
}

void
embers_noise_controls_set_per_second (EmbersNoiseControls *self,
                                      gboolean             per_second)
{
  g_return_if_fail (EMBERS_IS_NOISE_CONTROLS (self));
  gtk_check_button_set_active (self->per_second_check, per_second);
}

const char *
embers_noise_controls_get_status (EmbersNoiseControls *self)
{
  g_return_val_if_fail (EMBERS_IS_NOISE_CONTROLS (self), NULL);
  return gtk_label_get_text (self->status_label);
}
