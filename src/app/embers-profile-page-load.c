/* embers-profile-page-load.c: loading a file (progress, errors),
 * showing a profile, and export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-adaptive.h"
#include "embers-export.h"
#include "embers-input.h"
#include "embers-location.h"
#include "embers-profile-page-private.h"
#include "embers-query-model.h"

/* Loading */

static void
show_profile (EmbersProfilePage *self,
              EmbersProfile     *profile)
{
  g_autoptr(EmbersProfile) hold = g_object_ref (profile);
  guint n_types = embers_profile_get_n_sample_types (profile);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  /* The sample types' list changes under the drop-down first, which
   * reports passing selections on the way: with no profile, the page
   * takes none of them (embers_profile_page_set_sample_type), and the
   * drop-down is put on the profile's type by its binding below */
  g_clear_object (&self->profile);
  for (guint i = 0; i < n_types; i++)
    {
      const char *type = embers_profile_get_sample_type (profile, i);
      const char *unit = embers_profile_get_sample_unit (profile, i);

      if (unit != NULL && unit[0] != '\0')
        g_ptr_array_add (names, g_strdup_printf ("%s (%s)", type, unit));
      else
        g_ptr_array_add (names, g_strdup (type));
    }
  g_ptr_array_add (names, NULL);
  gtk_string_list_splice (self->sample_types, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->sample_types)),
                          (const char * const *)names->pdata);
  /* A diff's two columns are baseline and comparison, both drawn at once */
  gtk_widget_set_visible (GTK_WIDGET (self->sample_type_dropdown),
                          n_types > 1 && !embers_profile_is_diff (profile));

  g_set_object (&self->profile, profile);
  /* The table shown is the old profile's */
  g_clear_pointer (&self->applied, embers_transform_stack_free);
  self->sample_type = embers_profile_get_default_sample_type (profile);
  embers_transform_stack_clear (self->transforms);
  embers_profile_page_update_chips (self);
  g_clear_pointer (&self->sandwich_function, g_free);
  if (self->view == EMBERS_VIEW_SANDWICH)
    self->view = self->last_tree_view;

  /* A diff: the legend and its switches, the diff table; frame colours
   * come from the change, not the colour scheme */
  gtk_widget_set_visible (self->diff_bar, embers_profile_is_diff (profile));
  gtk_widget_set_visible (self->colors_button, !embers_profile_is_diff (profile));
  gtk_stack_set_visible_child_name (self->table_stack,
                                    embers_profile_is_diff (profile) ? "diff" : "top");
  /* The diff table is wider: side by side only with room for the graph */
  {
    g_autoptr(AdwBreakpointCondition) condition =
      adw_breakpoint_condition_new_length (ADW_BREAKPOINT_CONDITION_MAX_WIDTH,
                                           embers_profile_is_diff (profile) ? 1060 : 880,
                                           ADW_LENGTH_UNIT_SP);

    adw_breakpoint_set_condition (self->split_breakpoint, condition);
  }
  if (embers_profile_is_diff (profile))
    {
      /* Beside the graph, the diff table shows all its columns: their
       * widths are known once the rows are laid out, a frame or two on */
      self->fit_diff_frames = 3;
      gtk_widget_add_tick_callback (GTK_WIDGET (self->paned), embers_profile_page_fit_diff_table, self, NULL);
    }
  if (!embers_profile_is_diff (profile))
    embers_diff_table_set_data (self->diff_table, NULL, NULL);
  embers_adaptive_update (self->toolbar_breakpoint);

  embers_profile_page_set_state (self, EMBERS_PAGE_STATE_READY);
  self->focus_graph = TRUE;
  if (self->pending_view != NULL)
    {
      g_autoptr(EmbersSession) view = g_steal_pointer (&self->pending_view);

      embers_profile_page_apply_saved_view (self, view);
    }
  embers_profile_page_recompute (self);
  embers_profile_page_update_actions (self);
  embers_profile_page_notify (self, PAGE_PROP_N_TRANSFORMS);
  embers_profile_page_notify (self, PAGE_PROP_COLLAPSE_RECURSION);

  embers_profile_page_notify (self, PAGE_PROP_VIEW);
  embers_profile_page_notify (self, PAGE_PROP_SAMPLE_TYPE);
}

/* A load's progress: written by the loading thread, read by the page
 * every 100 ms (the thread may outlive the page: both hold a reference).
 * A long load's coarse profile waits here for the page to take it. */
typedef struct _LoadProgress
{
  GMutex         lock;
  guint          stage;   /* 0: reading the file (bytes), 1: building (stacks) */
  guint64        done;
  guint64        total;
  EmbersProfile *interim;           /* the newest coarse profile, not yet shown */
  double         interim_fraction;  /* of the samples */
  /* Tests (interim_every): the loading thread waits until the page has
   * shown each coarse profile, or the load is cancelled */
  gboolean       lockstep;
  GCond          taken;
  GCancellable  *cancellable;
} LoadProgress;

static void
load_progress_clear (gpointer data)
{
  LoadProgress *progress = data;

  g_clear_object (&progress->interim);
  g_clear_object (&progress->cancellable);
  g_cond_clear (&progress->taken);
  g_mutex_clear (&progress->lock);
}

static void
load_progress_unref (gpointer data)
{
  g_atomic_rc_box_release_full (data, load_progress_clear);
}

static void
load_progress_set (LoadProgress *progress,
                   guint         stage,
                   guint64       done,
                   guint64       total)
{
  g_mutex_lock (&progress->lock);
  progress->stage = stage;
  progress->done = done;
  progress->total = total;
  g_mutex_unlock (&progress->lock);
}

static void
on_read_progress (guint64  n_read,
                  guint64  size,
                  gpointer data)
{
  load_progress_set (data, 0, n_read, size);
}

static void
on_build_progress (guint64  done,
                   guint64  total,
                   gpointer data)
{
  load_progress_set (data, 1, done, total);
}

/* On the loading thread: a coarse profile of the samples so far */
static void
on_interim (EmbersProfile *profile,
            double         fraction,
            gpointer       data)
{
  LoadProgress *progress = data;

  g_mutex_lock (&progress->lock);
  g_set_object (&progress->interim, profile);
  progress->interim_fraction = fraction;
  while (progress->lockstep && progress->interim != NULL &&
         !g_cancellable_is_cancelled (progress->cancellable))
    g_cond_wait_until (&progress->taken, &progress->lock,
                       g_get_monotonic_time () + 10 * G_TIME_SPAN_MILLISECOND);
  g_mutex_unlock (&progress->lock);
}

/* The coarse profile in the graph, dimmed under the banner that says how
 * much of the profile it holds; nothing acts on it (the page's actions
 * wait for the state to be ready, and the page has no profile yet) */
static void
show_partial (EmbersProfilePage *self,
              EmbersProfile     *profile,
              double             fraction)
{
  g_autofree char *title = NULL;

  if (fraction >= 1.0)
    /* Translators: a long load shows a coarse flame graph before the whole one */
    title = g_strdup (_("Partial: every sample read, coarse. The whole flame graph follows…"));
  else
    /* Translators: a long load shows a coarse flame graph before the whole
     * one; %d is the share of the profile's samples it holds */
    title = g_strdup_printf (_("Partial: %d %% of the samples read, coarse"), (int)(fraction * 100));
  adw_banner_set_title (self->partial_banner, title);
  adw_banner_set_revealed (self->partial_banner, TRUE);

  g_set_object (&self->partial_profile, profile);
  embers_flame_graph_set_search (self->graph, NULL);
  embers_flame_graph_set_profile (self->graph, profile);
  embers_flame_graph_set_sample_type (self->graph, embers_profile_get_default_sample_type (profile));
  embers_flame_graph_set_direction (self->graph, self->view == EMBERS_VIEW_FLAME
                                                 ? EMBERS_LAYOUT_FLAME : EMBERS_LAYOUT_ICICLE);
  gtk_stack_set_visible_child_name (self->view_stack, "graph");
  gtk_widget_add_css_class (GTK_WIDGET (self->view_stack), "dimmed");
  /* The tables are of a whole profile only: empty until it is there
   * (hidden, a paned would give their room away for good) */
  embers_top_table_set_data (self->top_table, NULL, 0, NULL);
  embers_top_table_set_placeholder (self->top_table,
                                    _("The table of functions fills in once the whole profile is read"));
  embers_diff_table_set_data (self->diff_table, NULL, NULL);
  gtk_stack_set_visible_child_name (self->stack, "content");
  embers_profile_page_notify (self, PAGE_PROP_PARTIAL);
}

void
embers_profile_page_end_partial (EmbersProfilePage *self)
{
  if (self->partial_profile == NULL)
    return;

  if (embers_flame_graph_get_profile (self->graph) == self->partial_profile)
    embers_flame_graph_set_profile (self->graph, self->view_profile);
  g_clear_object (&self->partial_profile);
  adw_banner_set_revealed (self->partial_banner, FALSE);
  embers_top_table_set_placeholder (self->top_table, NULL);
  gtk_widget_remove_css_class (GTK_WIDGET (self->view_stack), "dimmed");
  if (self->state == EMBERS_PAGE_STATE_LOADING)
    gtk_stack_set_visible_child_name (self->stack, "loading");
  embers_profile_page_notify (self, PAGE_PROP_PARTIAL);
}

gboolean
embers_profile_page_get_partial (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), FALSE);
  return self->partial_profile != NULL;
}

void
embers_profile_page_set_interim_every (EmbersProfilePage *self,
                                       guint              n_stacks)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  self->interim_every = n_stacks;
}

static gboolean
show_load_progress (gpointer data)
{
  EmbersProfilePage *self = data;
  LoadProgress *progress = self->progress;
  g_autofree char *text = NULL;
  g_autoptr(EmbersProfile) interim = NULL;
  double fraction;
  guint stage;
  guint64 done, total;

  if (progress == NULL)
    return G_SOURCE_CONTINUE;

  g_mutex_lock (&progress->lock);
  stage = progress->stage;
  done = progress->done;
  total = progress->total;
  interim = g_steal_pointer (&progress->interim);
  fraction = progress->interim_fraction;
  g_cond_broadcast (&progress->taken);
  g_mutex_unlock (&progress->lock);

  if (interim != NULL)
    show_partial (self, interim, fraction);

  if (stage == 0 && done == 0)
    return G_SOURCE_CONTINUE;   /* nothing read yet: the spinner above says enough */

  if (stage == 0)
    {
      g_autofree char *read = g_format_size (done);

      if (total > 0)
        {
          g_autofree char *size = g_format_size (total);

          /* Translators: loading a profile: "12.3 MB of 40.1 MB read" */
          text = g_strdup_printf (_("%s of %s read"), read, size);
        }
      else
        /* Translators: loading a profile from a pipe, size unknown */
        text = g_strdup_printf (_("%s read"), read);
    }
  else
    /* Translators: the second stage of loading a profile */
    text = g_strdup (_("Building the call tree…"));

  gtk_progress_bar_set_text (self->load_progress, text);
  if (total > 0)
    gtk_progress_bar_set_fraction (self->load_progress, MIN ((double)done / total, 1.0));
  else
    gtk_progress_bar_pulse (self->load_progress);
  gtk_widget_set_visible (GTK_WIDGET (self->load_progress), TRUE);
  return G_SOURCE_CONTINUE;
}

void
embers_profile_page_stop_load (EmbersProfilePage *self)
{
  g_clear_handle_id (&self->progress_id, g_source_remove);
  g_clear_pointer (&self->progress, load_progress_unref);
  gtk_widget_set_visible (GTK_WIDGET (self->load_progress), FALSE);
}

typedef struct
{
  EmbersProfilePage *self;
  GCancellable      *cancellable;
} Load;

static void
load_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Load *load = user_data;
  EmbersProfilePage *self = load->self;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  gboolean current = load->cancellable == self->load_cancellable;

  if (g_async_result_is_tagged (result, embers_location_load_async))
    profile = embers_location_load_finish (result, &error);
  else
    profile = embers_profile_load_file_finish (result, &error);

  if (current)
    {
      g_clear_object (&self->load_cancellable);
      embers_profile_page_stop_load (self);

      /* The whole profile replaces the coarse one in the graph when its
       * view is computed (apply_compute); else it goes now */
      if (profile == NULL)
        embers_profile_page_end_partial (self);
      if (profile != NULL)
        {
          show_profile (self, profile);
          if (g_file_is_native (self->file))
            {
              g_autofree char *uri = g_file_get_uri (self->file);

              gtk_widget_activate_action (GTK_WIDGET (self), "win.add-recent", "s", uri);
            }
        }
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          embers_profile_page_set_state (self, EMBERS_PAGE_STATE_CANCELLED);
        }
      else
        {
          /* The page says why, with Reload: no toast to repeat it */
          g_free (self->error);
          self->error = g_strdup (error->message);
          adw_status_page_set_description (self->error_page, error->message);
          embers_profile_page_set_state (self, EMBERS_PAGE_STATE_FAILED);
        }
      embers_profile_page_update_actions (self);
    }

  g_object_unref (load->cancellable);
  g_object_unref (load->self);
  g_free (load);
}

/* A file's load on its thread, before any page needs to exist: bytes read,
 * then stacks laid out, into @progress (the page shows how far it got) */
static void
start_file_load (GFile         *file,
                 guint          interim_every,
                 LoadProgress **progress,
                 Load          *load)
{
  EmbersInputOptions options;

  *progress = g_atomic_rc_box_new0 (LoadProgress);
  g_mutex_init (&(*progress)->lock);
  g_cond_init (&(*progress)->taken);
  (*progress)->cancellable = g_object_ref (load->cancellable);
  (*progress)->lockstep = interim_every > 0;

  embers_input_options_init (&options);
  options.progress = on_read_progress;
  options.building = on_build_progress;
  options.interim = on_interim;
  options.interim_every = interim_every;
  options.user_data = g_atomic_rc_box_acquire (*progress);
  embers_profile_load_file_full_async (file, &options, load_progress_unref,
                                       load->cancellable, load_done, load);
}

/* The page's side of a load: titles, the loading state, the progress bar */
static void
begin_load (EmbersProfilePage *self,
            GFile             *file,
            const char        *title)
{
  g_autofree char *basename = g_file_get_basename (file);

  g_set_object (&self->file, file);
  embers_profile_page_set_title (self, title != NULL ? title : basename);
  adw_status_page_set_description (self->loading_page, self->title);
  g_clear_pointer (&self->error, g_free);
  embers_profile_page_set_state (self, EMBERS_PAGE_STATE_LOADING);
  embers_profile_page_end_partial (self);
  embers_profile_page_update_actions (self);
}

void
embers_profile_page_load (EmbersProfilePage *self,
                          GFile             *file,
                          const char        *title)
{
  Load *load;

  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  begin_load (self, file, title);

  load = g_new0 (Load, 1);
  load->self = g_object_ref (self);
  load->cancellable = g_object_ref (self->load_cancellable);

  /* A Pyroscope query URL: the server's merged flame graph, fetched on a
   * thread (the client runs its own main context there) */
  if (embers_location_classify_file (file) == EMBERS_LOCATION_QUERY_URL)
    {
      if (title == NULL)
        embers_profile_page_set_title (self, _("Pyroscope Query"));
      embers_location_load_async (file, self->load_cancellable, load_done, load);
      return;
    }

  embers_profile_page_stop_load (self);
  start_file_load (file, self->interim_every, &self->progress, load);
  gtk_progress_bar_set_fraction (self->load_progress, 0);
  self->progress_id = g_timeout_add (100, show_load_progress, self);
}

/* A page for @file whose load starts before the page is built (when it is
 * not made ahead): the file is read on one core while the widgets are
 * made on the other (a page's template takes 20-30 ms, a tenth of a
 * 100,000-sample load) */
EmbersProfilePage *
embers_profile_page_new_for_file_in (GFile             *file,
                                     EmbersProfilePage *page)
{
  EmbersProfilePage *self;
  LoadProgress *progress = NULL;
  Load *load;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (page == NULL || (EMBERS_IS_PROFILE_PAGE (page) && page->profile == NULL &&
                                         page->state == EMBERS_PAGE_STATE_EMPTY), NULL);

  if (embers_location_classify_file (file) == EMBERS_LOCATION_QUERY_URL)
    {
      self = page != NULL ? page : embers_profile_page_new ();
      embers_profile_page_load (self, file, NULL);
      return self;
    }

  load = g_new0 (Load, 1);
  load->cancellable = g_cancellable_new ();
  /* load_done runs on this thread, after this returns: the page is set by then */
  start_file_load (file, 0, &progress, load);

  self = page != NULL ? page : embers_profile_page_new ();
  load->self = g_object_ref (self);
  self->load_cancellable = g_object_ref (load->cancellable);
  begin_load (self, file, NULL);
  embers_profile_page_stop_load (self);
  self->progress = progress;
  gtk_progress_bar_set_fraction (self->load_progress, 0);
  self->progress_id = g_timeout_add (100, show_load_progress, self);
  return self;
}

void
embers_profile_page_set_profile (EmbersProfilePage *self,
                                 EmbersProfile     *profile,
                                 const char        *title)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (EMBERS_IS_PROFILE (profile));

  embers_profile_page_set_title (self, title);
  show_profile (self, profile);
}

/* The same answer in more detail (a fill-in of its `other` frames): the
 * view keeps its choices (view, sample type, hidden frames, search) and
 * is computed again */
void
embers_profile_page_replace_profile (EmbersProfilePage *self,
                                     EmbersProfile     *profile)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (EMBERS_IS_PROFILE (profile));

  if (self->profile == NULL ||
      embers_profile_get_n_sample_types (self->profile) != embers_profile_get_n_sample_types (profile))
    {
      show_profile (self, profile);
      return;
    }
  g_set_object (&self->profile, profile);
  /* The shown table came from the old profile: every step again */
  g_clear_pointer (&self->applied, embers_transform_stack_free);
  embers_profile_page_recompute (self);
  embers_profile_page_update_actions (self);
}

void
embers_profile_page_cancel (EmbersProfilePage *self)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->compute_cancellable != NULL)
    g_cancellable_cancel (self->compute_cancellable);
}

/* Export */

char *
embers_profile_page_suggest_name (EmbersProfilePage *self,
                                  const char        *ext)
{
  static const char * const suffixes[] = {
    ".pb.gz", ".pprof.gz", ".gz", ".pb", ".pprof", ".prof", ".folded", ".txt", ".json",
  };
  g_autofree char *base = NULL;

  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);

  /* Translators: the file name offered for an export of a profile
   * without a name of its own (an extension follows) */
  base = g_strdup (self->title != NULL ? self->title : _("profile"));
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      if (g_str_has_suffix (base, suffixes[i]) && strlen (base) > strlen (suffixes[i]))
        {
          base[strlen (base) - strlen (suffixes[i])] = '\0';
          break;
        }
    }

  /* Safe as a file name: a diff's title has braces, quotes and colons */
  {
    g_autofree char *safe = embers_file_name_make_safe (base);

    return g_strdup_printf ("%s.%s", safe, ext);
  }
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GError *error = NULL;

  if (embers_export_run (task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
embers_profile_page_set_export_width (EmbersProfilePage *self,
                                      int                width)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  self->export_width = MAX (width, 0);
}

int
embers_profile_page_get_export_width (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), 0);
  return self->export_width;
}

void
embers_profile_page_export_async (EmbersProfilePage   *self,
                                  GFile               *file,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  EmbersExport *export;

  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_profile_page_export_async);

  if (self->view_profile == NULL || self->state != EMBERS_PAGE_STATE_READY)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                               _("There is no profile to export yet"));
      return;
    }

  export = embers_export_new (file, self->sample_type, &error);
  if (export == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* What is on screen: the shown graphs with their focus, search and
   * colours, at the width asked for; the data formats get the shown
   * (transformed) profile */
  embers_export_set_width (export, self->export_width);
  if (self->view == EMBERS_VIEW_SANDWICH)
    {
      embers_export_add_graph (export, self->callers_graph);
      embers_export_add_graph (export, self->callees_graph);
      embers_export_set_profile (export, self->table_profile);
    }
  else
    {
      embers_export_add_graph (export, self->graph);
      embers_export_set_profile (export, self->view_profile);
    }

  g_task_set_task_data (task, export, (GDestroyNotify)embers_export_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
embers_profile_page_export_finish (EmbersProfilePage  *self,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
embers_profile_page_show_error (EmbersProfilePage *self,
                                const char        *title,
                                const char        *message)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));

  g_free (self->error);
  self->error = g_strdup (message);
  adw_status_page_set_description (self->error_page, message);
  embers_profile_page_set_title (self, title);
  embers_profile_page_set_state (self, EMBERS_PAGE_STATE_FAILED);
  embers_profile_page_update_actions (self);
}
