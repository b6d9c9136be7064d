/* embers-compare-page.c: baseline vs comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-compare-page.h"
#include "embers-fold-bin.h"
#include "embers-diff.h"
#include "embers-format.h"

#define HOUR_MS ((gint64) 3600 * 1000)

typedef enum
{
  SIDE_NONE,
  SIDE_FILE,
  SIDE_QUERY,
} SideKind;

typedef struct
{
  EmbersComparePage *page;
  gboolean           comparison;
  SideKind           kind;
  GFile             *file;
  char              *profile_type;
  char              *selector;
  gint64             start_ms;    /* the selected range */
  gint64             end_ms;
  gint64             win_start;   /* the chart's window */
  gint64             win_end;

  GtkWidget         *box;
  GtkWidget         *kind_switch;
  GtkWidget         *file_toggle;
  GtkWidget         *query_toggle;
  GtkWidget         *file_box;
  GtkWidget         *file_label;
  GtkWidget         *query_box;
  GtkDropDown       *type_dropdown;
  GtkStringList     *types;
  GtkWidget         *selector_entry;
  EmbersSeriesChart *chart;
  GtkWidget         *range_label;
  GCancellable      *series_cancellable;
  gboolean           updating;
} Side;

struct _EmbersComparePage
{
  GtkWidget          parent_instance;

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

  EmbersProfilePage *profile_page;

  EmbersProfile     *diff;

  GCancellable      *cancellable;
  GCancellable      *types_cancellable;
  gboolean           busy;
  char              *error;
};

G_DEFINE_FINAL_TYPE (EmbersComparePage, embers_compare_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_COMPARED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void side_fetch_series (Side *side);

/* Helpers */

static char *
format_time (gint64 ms)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_local (ms / 1000);

  return dt != NULL ? g_date_time_format (dt, "%F %H:%M") : g_strdup ("?");
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
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), busy);
  gtk_widget_set_visible (self->cancel_button, busy);
  gtk_widget_set_sensitive (self->compare_button, !busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* The result: the diff in a profile page, so that it has everything a
 * flame graph has (focus, search, sandwich, keyboard, export, context
 * menu) plus the legend, the switches and the diff table */

static char *
side_describe (Side *side)
{
  if (side->kind == SIDE_FILE && side->file != NULL)
    return g_file_get_basename (side->file);
  if (side->kind == SIDE_QUERY && side->end_ms > side->start_ms)
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
    }
  gtk_stack_set_visible_child_name (GTK_STACK (self->result_stack),
                                    diff != NULL ? "result" : "empty");
}

/* Sides */

static void
side_update_range_label (Side *side)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *text = NULL;

  if (side->end_ms <= side->start_ms)
    {
      gtk_label_set_text (GTK_LABEL (side->range_label), _("Drag across the chart to select a time range"));
      return;
    }
  a = format_time (side->start_ms);
  b = format_time (side->end_ms);
  /* Translators: a time range */
  text = g_strdup_printf (_("%s to %s"), a, b);
  gtk_label_set_text (GTK_LABEL (side->range_label), text);
}

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
}

static void
side_set_file (Side  *side,
               GFile *file)
{
  g_autofree char *name = NULL;

  g_set_object (&side->file, file);
  if (file != NULL)
    name = g_file_get_basename (file);
  gtk_label_set_text (GTK_LABEL (side->file_label), name != NULL ? name : _("No file chosen"));
  gtk_widget_set_tooltip_text (side->file_label, file != NULL ? g_file_peek_path (file) : NULL);
  side_set_kind (side, file != NULL ? SIDE_FILE : SIDE_NONE);
}

/* The chart window around a selected range: half its length either side */
static void
side_window_for_range (Side *side)
{
  gint64 len = MAX (side->end_ms - side->start_ms, 60 * 1000);

  side->win_start = side->start_ms - len / 2;
  side->win_end = side->end_ms + len / 2;
}

static void
sync_windows (EmbersComparePage *self)
{
  gboolean sync = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->sync_check));

  for (guint i = 0; i < 2; i++)
    side_window_for_range (&self->sides[i]);
  if (sync && self->sides[0].kind == SIDE_QUERY && self->sides[1].kind == SIDE_QUERY)
    {
      gint64 a = MIN (self->sides[0].win_start, self->sides[1].win_start);
      gint64 b = MAX (self->sides[0].win_end, self->sides[1].win_end);

      for (guint i = 0; i < 2; i++)
        {
          self->sides[i].win_start = a;
          self->sides[i].win_end = b;
        }
    }
  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];

      embers_series_chart_set_time_range (side->chart, side->win_start, side->win_end);
      if (side->end_ms > side->start_ms)
        embers_series_chart_set_selection (side->chart, side->start_ms, side->end_ms);
      side_update_range_label (side);
      side_fetch_series (side);
    }
}

static void
series_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Side *side = user_data;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GError) error = NULL;

  series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_CANCELED))
    return;
  /* The page is alive: dispose cancels this call before the side goes */
  if (series != NULL)
    {
      g_autoptr(EmbersProfileTypeInfo) info = embers_profile_type_info_new (side->profile_type);

      embers_series_chart_set_series (side->chart, series, NULL,
                                      info != NULL ? info->sample_unit : NULL);
    }
  else
    embers_series_chart_set_series (side->chart, NULL, NULL, NULL);
}

static void
side_fetch_series (Side *side)
{
  EmbersComparePage *self = side->page;
  g_autoptr(EmbersQuery) query = NULL;

  g_cancellable_cancel (side->series_cancellable);
  g_clear_object (&side->series_cancellable);
  if (self->source == NULL || side->kind != SIDE_QUERY || side->profile_type == NULL ||
      side->win_end <= side->win_start ||
      !(embers_source_get_capabilities (self->source) & EMBERS_SOURCE_CAN_TIME_SERIES))
    return;

  side->series_cancellable = g_cancellable_new ();
  query = embers_query_new (side->profile_type, side->selector, side->win_start, side->win_end);
  embers_source_select_series (self->source, query, NULL,
                               embers_source_step_for_range (side->win_start, side->win_end),
                               EMBERS_AGGREGATION_SUM, 0,
                               side->series_cancellable, series_done, side);
}

static void
side_range_selected (EmbersSeriesChart *chart,
                     gint64             from_ms,
                     gint64             to_ms,
                     Side              *side)
{
  side->start_ms = from_ms;
  side->end_ms = to_ms;
  side_update_range_label (side);
}

static void
side_selector_activate (GtkEntry *entry,
                        Side     *side)
{
  g_free (side->selector);
  side->selector = g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry)));
  side_fetch_series (side);
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

static void
side_kind_toggled (GtkToggleButton *button,
                   Side            *side)
{
  if (side->updating || !gtk_toggle_button_get_active (button))
    return;
  if (GTK_WIDGET (button) == side->query_toggle)
    {
      side_set_kind (side, SIDE_QUERY);
      if (side->end_ms <= side->start_ms)
        embers_compare_page_apply_preset (side->page, EMBERS_COMPARE_PRESET_HOUR_BEFORE, 0);
      else
        side_fetch_series (side);
    }
  else
    side_set_kind (side, side->file != NULL ? SIDE_FILE : SIDE_NONE);
}

static void
file_chosen (GtkNativeDialog *dialog,
             int              response,
             Side            *side)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      side_set_file (side, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
choose_file_clicked (GtkButton *button,
                     Side      *side)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (button));
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (side->comparison ? _("Choose the Comparison Profile")
                                                          : _("Choose the Baseline Profile"),
                                         GTK_IS_WINDOW (native) ? GTK_WINDOW (native) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Choose"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (file_chosen), side);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
side_build (EmbersComparePage *self,
            Side              *side,
            gboolean           comparison)
{
  GtkWidget *title, *button, *row;

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

  /* File */
  side->file_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (side->file_box, 8);
  gtk_widget_set_margin_end (side->file_box, 8);
  gtk_widget_set_margin_bottom (side->file_box, 8);
  button = gtk_button_new_with_mnemonic (_("Choose _File…"));
  g_signal_connect (button, "clicked", G_CALLBACK (choose_file_clicked), side);
  gtk_box_append (GTK_BOX (side->file_box), button);
  side->file_label = gtk_label_new (_("No file chosen"));
  gtk_label_set_ellipsize (GTK_LABEL (side->file_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (side->file_label), 0);
  gtk_widget_set_hexpand (side->file_label, TRUE);
  gtk_box_append (GTK_BOX (side->file_box), side->file_label);
  gtk_box_append (GTK_BOX (side->box), side->file_box);

  /* Query */
  side->query_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (side->query_box, 8);
  gtk_widget_set_margin_end (side->query_box, 8);
  gtk_widget_set_margin_bottom (side->query_box, 8);
  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  side->types = gtk_string_list_new (NULL);
  side->type_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (side->types), NULL));
  gtk_accessible_update_property (GTK_ACCESSIBLE (side->type_dropdown),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Profile type"), -1);
  g_signal_connect (side->type_dropdown, "notify::selected", G_CALLBACK (side_type_changed), side);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (side->type_dropdown));
  side->selector_entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (side->selector_entry), "{service_name=\"api\"}");
  gtk_widget_set_hexpand (side->selector_entry, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (side->selector_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Label selector"), -1);
  g_signal_connect (side->selector_entry, "activate", G_CALLBACK (side_selector_activate), side);
  gtk_box_append (GTK_BOX (row), side->selector_entry);
  gtk_box_append (GTK_BOX (side->query_box), row);
  side->chart = EMBERS_SERIES_CHART (embers_series_chart_new ());
  g_signal_connect (side->chart, "range-selected", G_CALLBACK (side_range_selected), side);
  gtk_box_append (GTK_BOX (side->query_box), GTK_WIDGET (side->chart));
  side->range_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (side->range_label), 0);
  gtk_widget_add_css_class (side->range_label, "dim-label");
  gtk_box_append (GTK_BOX (side->query_box), side->range_label);
  gtk_box_append (GTK_BOX (side->box), side->query_box);

  side_update_range_label (side);
  side_set_kind (side, SIDE_NONE);
}

static void
side_clear (Side *side)
{
  g_cancellable_cancel (side->series_cancellable);
  g_clear_object (&side->series_cancellable);
  g_clear_object (&side->file);
  g_clear_pointer (&side->profile_type, g_free);
  g_clear_pointer (&side->selector, g_free);
}

static EmbersQuery *
side_dup_query (Side *side)
{
  EmbersQuery *query;

  if (side->kind != SIDE_QUERY || side->profile_type == NULL || side->end_ms <= side->start_ms)
    return NULL;
  query = embers_query_new (side->profile_type, side->selector, side->start_ms, side->end_ms);
  return query;
}

/* Comparing */

typedef struct
{
  EmbersComparePage *self;
  GCancellable      *cancellable;
  GFile             *files[2];
  EmbersProfile     *profiles[2];
  guint              pending;
  GError            *error;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->self);
  g_clear_object (&job->cancellable);
  for (guint i = 0; i < 2; i++)
    {
      g_clear_object (&job->files[i]);
      g_clear_object (&job->profiles[i]);
    }
  g_clear_error (&job->error);
  g_free (job);
}

static void
job_finish (Job           *job,
            EmbersProfile *diff,
            const GError  *error)
{
  EmbersComparePage *self = job->self;

  if (job->cancellable == self->cancellable)
    {
      g_clear_object (&self->cancellable);
      set_busy (self, FALSE);
      if (diff != NULL)
        {
          set_error (self, NULL);
          show_diff (self, diff);
        }
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
               g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_CANCELED))
        set_error (self, _("Comparison cancelled"));
      else
        set_error (self, error != NULL ? error->message : _("The comparison failed"));
      g_signal_emit (self, signals[SIGNAL_COMPARED], 0);
    }
  job_free (job);
}

static void
diff_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(EmbersProfile) loaded0 = NULL;
  g_autoptr(EmbersProfile) loaded1 = NULL;
  EmbersProfile **loaded[2] = { &loaded0, &loaded1 };
  EmbersProfile *profiles[2];
  GError *error = NULL;
  EmbersProfile *diff;
  guint base_type;
  int comp_type;

  for (guint i = 0; i < 2; i++)
    {
      profiles[i] = job->profiles[i];
      if (profiles[i] == NULL)
        {
          *loaded[i] = embers_profile_load_file (job->files[i], cancellable, &error);
          if (*loaded[i] == NULL)
            {
              g_autofree char *name = g_file_get_basename (job->files[i]);

              g_prefix_error (&error, "%s: ", name);
              g_task_return_error (task, error);
              return;
            }
          profiles[i] = *loaded[i];
        }
    }

  base_type = embers_profile_get_default_sample_type (profiles[0]);
  comp_type = embers_profile_find_sample_type (profiles[1],
                                               embers_profile_get_sample_type (profiles[0], base_type));
  if (comp_type < 0)
    comp_type = embers_profile_get_default_sample_type (profiles[1]);

  diff = embers_diff_profiles (profiles[0], base_type, profiles[1], comp_type, &error);
  if (diff == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, diff, g_object_unref);
}

static void
diff_thread_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Job *job = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) diff = g_task_propagate_pointer (G_TASK (result), &error);

  job_finish (job, diff, error);
}

static void
job_run_local (Job *job)
{
  g_autoptr(GTask) task = NULL;

  if (job->error != NULL)
    {
      job_finish (job, NULL, job->error);
      return;
    }
  task = g_task_new (NULL, job->cancellable, diff_thread_done, job);
  g_task_set_source_tag (task, job_run_local);
  g_task_set_task_data (task, job, NULL);
  g_task_run_in_thread (task, diff_thread);
}

typedef struct
{
  Job  *job;
  guint index;
} MergeCall;

static void
merge_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  MergeCall *call = user_data;
  Job *job = call->job;
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile = embers_source_merge_profile_finish (EMBERS_SOURCE (object), result, &error);

  if (profile != NULL)
    job->profiles[call->index] = profile;
  else if (job->error == NULL)
    job->error = g_steal_pointer (&error);
  g_free (call);

  if (--job->pending == 0)
    job_run_local (job);
}

static void
source_diff_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Job *job = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) diff = embers_source_diff_finish (EMBERS_SOURCE (object), result, &error);

  job_finish (job, diff, error);
}

void
embers_compare_page_compare (EmbersComparePage *self)
{
  g_autoptr(EmbersQuery) query0 = NULL;
  g_autoptr(EmbersQuery) query1 = NULL;
  EmbersQuery **slots[2] = { &query0, &query1 };
  EmbersQuery *queries[2] = { NULL, NULL };
  Job *job;

  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));

  for (guint i = 0; i < 2; i++)
    {
      Side *side = &self->sides[i];

      if (side->kind == SIDE_QUERY)
        {
          queries[i] = *slots[i] = side_dup_query (side);
          if (queries[i] == NULL || self->source == NULL)
            {
              set_error (self, i == 0 ? _("The baseline query needs a profile type and a time range")
                                      : _("The comparison query needs a profile type and a time range"));
              return;
            }
        }
      else if (side->file == NULL)
        {
          set_error (self, i == 0 ? _("Choose a baseline profile") : _("Choose a comparison profile"));
          return;
        }
    }

  embers_compare_page_cancel (self);
  self->cancellable = g_cancellable_new ();
  set_error (self, NULL);
  set_busy (self, TRUE);

  job = g_new0 (Job, 1);
  job->self = g_object_ref (self);
  job->cancellable = g_object_ref (self->cancellable);

  if (queries[0] != NULL && queries[1] != NULL &&
      (embers_source_get_capabilities (self->source) & EMBERS_SOURCE_CAN_DIFF))
    {
      embers_source_diff (self->source, queries[0], queries[1], job->cancellable, source_diff_done, job);
      return;
    }

  for (guint i = 0; i < 2; i++)
    {
      if (queries[i] == NULL)
        job->files[i] = g_object_ref (self->sides[i].file);
    }
  for (guint i = 0; i < 2; i++)
    if (queries[i] != NULL)
      job->pending++;
  if (job->pending == 0)
    {
      job_run_local (job);
      return;
    }
  for (guint i = 0; i < 2; i++)
    if (queries[i] != NULL)
      {
        MergeCall *call = g_new0 (MergeCall, 1);

        call->job = job;
        call->index = i;
        embers_source_merge_profile (self->source, queries[i], job->cancellable, merge_done, call);
      }
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
      if (comp->end_ms <= comp->start_ms)
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
          if (side->profile_type == NULL && i == 1 && base->profile_type != NULL)
            side->profile_type = g_strdup (base->profile_type);
          if (side->profile_type == NULL && i == 0 && comp->profile_type != NULL)
            side->profile_type = g_strdup (comp->profile_type);
          side_set_kind (side, SIDE_QUERY);
          side_select_type (side);
        }
    }
  sync_windows (self);
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

static void
sync_toggled (GtkCheckButton    *button,
              EmbersComparePage *self)
{
  sync_windows (self);
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
  for (guint i = 0; i < 2; i++)
    side_clear (&self->sides[i]);
  g_clear_pointer (&self->root, gtk_widget_unparent);
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

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "embers-compare-page");
}

static void
embers_compare_page_init (EmbersComparePage *self)
{
  g_autoptr(GMenu) presets = g_menu_new ();
  GtkWidget *panes, *options, *spacer, *empty, *fold, *sources, *scrolled;

  /* The sources over the result; they scroll when the window is short
   * (the result keeps its minimum, they get the rest up to their size) */
  self->root = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->root, GTK_WIDGET (self));
  sources = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), sources);
  gtk_box_append (GTK_BOX (self->root), scrolled);

  /* The two sides, side by side or (narrow) one above the other */
  panes = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  fold = embers_fold_bin_new ();
  embers_fold_bin_set_child (EMBERS_FOLD_BIN (fold), panes);
  gtk_box_set_homogeneous (GTK_BOX (panes), TRUE);
  gtk_widget_set_margin_top (panes, 12);
  gtk_widget_set_margin_start (panes, 12);
  gtk_widget_set_margin_end (panes, 12);
  for (guint i = 0; i < 2; i++)
    {
      side_build (self, &self->sides[i], i == 1);
      gtk_box_append (GTK_BOX (panes), self->sides[i].box);
    }
  gtk_box_append (GTK_BOX (sources), fold);

  /* Options and Compare */
  options = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (options, 12);
  gtk_widget_set_margin_end (options, 12);

  self->sync_check = gtk_check_button_new_with_mnemonic (_("_Sync time ranges"));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->sync_check), TRUE);
  g_signal_connect (self->sync_check, "toggled", G_CALLBACK (sync_toggled), self);
  gtk_box_append (GTK_BOX (options), self->sync_check);

  g_menu_append (presets, _("Previous Period of Equal Length"), "compare.preset(0)");
  g_menu_append (presets, _("Last Hour vs the Hour Before"), "compare.preset(1)");
  g_menu_append (presets, _("24 Hours Ago vs Now"), "compare.preset(2)");
  g_menu_append (presets, _("A Week Ago vs Now"), "compare.preset(3)");
  self->preset_button = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (self->preset_button), _("Presets"));
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->preset_button), G_MENU_MODEL (presets));
  gtk_widget_set_tooltip_text (self->preset_button, _("Set both time ranges"));
  gtk_widget_set_visible (self->preset_button, FALSE);
  gtk_widget_set_visible (self->sync_check, FALSE);
  gtk_box_append (GTK_BOX (options), self->preset_button);

  spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_box_append (GTK_BOX (options), spacer);

  self->spinner = gtk_spinner_new ();
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

  self->status_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (self->status_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->status_label), 0);
  gtk_widget_add_css_class (self->status_label, "error");
  gtk_widget_set_margin_start (self->status_label, 12);
  gtk_widget_set_visible (self->status_label, FALSE);
  gtk_box_append (GTK_BOX (sources), self->status_label);

  /* The result: legend, diff flame graph, diff table */
  self->result_stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->result_stack, TRUE);
  empty = gtk_label_new (_("Choose a baseline and a comparison, then Compare"));
  gtk_widget_add_css_class (empty, "dim-label");
  gtk_stack_add_named (GTK_STACK (self->result_stack), empty, "empty");

  /* The diff, with the legend and palette, mode and width switches over
   * the graph and the diff table beside it */
  self->profile_page = embers_profile_page_new ();
  gtk_stack_add_named (GTK_STACK (self->result_stack), GTK_WIDGET (self->profile_page), "result");
  gtk_stack_set_visible_child_name (GTK_STACK (self->result_stack), "empty");
  gtk_box_append (GTK_BOX (self->root), self->result_stack);
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

  side_set_file (&self->sides[0], baseline);
  side_set_file (&self->sides[1], comparison);
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
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_CANCELED))
    return;
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
          EmbersProfileTypeInfo *info = g_ptr_array_index (types, 0);

          side->profile_type = g_strdup (info->id);
        }
      side_select_type (side);
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
      gtk_widget_set_visible (self->sides[i].kind_switch, source != NULL);
      gtk_string_list_splice (self->sides[i].types, 0,
                              g_list_model_get_n_items (G_LIST_MODEL (self->sides[i].types)), NULL);
      if (source == NULL && self->sides[i].kind == SIDE_QUERY)
        side_set_kind (&self->sides[i], self->sides[i].file != NULL ? SIDE_FILE : SIDE_NONE);
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

      if (queries[i] == NULL)
        continue;
      g_free (side->profile_type);
      side->profile_type = g_strdup (queries[i]->profile_type);
      g_free (side->selector);
      side->selector = g_strdup (queries[i]->label_selector);
      gtk_editable_set_text (GTK_EDITABLE (side->selector_entry),
                             side->selector != NULL ? side->selector : "");
      side->start_ms = queries[i]->start_ms;
      side->end_ms = queries[i]->end_ms;
      side_set_kind (side, SIDE_QUERY);
      side_select_type (side);
    }
  sync_windows (self);
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
  return gtk_check_button_get_active (GTK_CHECK_BUTTON (self->sync_check));
}

void
embers_compare_page_set_sync_ranges (EmbersComparePage *self,
                                     gboolean           sync)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PAGE (self));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->sync_check), sync);
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
