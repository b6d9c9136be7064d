/* embers-profile-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-accessible.h"
#include "embers-adaptive.h"
#include "embers-call-tree-view.h"
#include "embers-export.h"
#include "embers-drop-down.h"
#include "embers-profile-page.h"
#include "embers-location.h"
#include "embers-query-model.h"
#include "embers-query-url.h"
#include "embers-diff.h"
#include "embers-diff-legend.h"
#include "embers-diff-table.h"
#include "embers-format.h"
#include "embers-input.h"
#include "embers-layout.h"
#include "embers-top.h"
#include "embers-palette.h"
#include "embers-session.h"
#include "embers-transform-bar.h"
#include "embers-transforms.h"

struct _EmbersProfilePage
{
  AdwBreakpointBin   parent_instance;

  /* Template */
  GtkStack          *stack;
  AdwStatusPage     *loading_page;
  AdwStatusPage     *error_page;
  GtkProgressBar    *load_progress;
  EmbersTransformBar *transform_bar;
  GtkDropDown       *sample_type_dropdown;
  GtkLabel          *view_menu_label;
  GtkStringList     *sample_types;
  GtkSearchBar      *search_bar;
  GtkSearchEntry    *search_entry;
  GtkToggleButton   *regex_button;
  GtkToggleButton   *case_button;
  GtkLabel          *search_summary;
  GtkPaned          *paned;
  GtkStack          *table_stack;
  EmbersTopTable    *top_table;
  EmbersDiffTable   *diff_table;
  GtkWidget         *diff_bar;
  EmbersDiffLegend  *diff_legend;
  GtkDropDown       *diff_palette_dropdown;
  GtkDropDown       *diff_mode_dropdown;
  GtkDropDown       *diff_width_dropdown;
  GtkWidget         *colors_button;
  GtkMenuButton     *view_menu_button;
  AdwBreakpoint     *split_breakpoint;
  AdwBreakpoint     *narrow_breakpoint;
  AdwBreakpoint     *toolbar_breakpoint;
  GtkWidget         *toolbar;
  GtkStack          *view_switch;
  GtkStack          *view_stack;
  EmbersFlameGraph  *graph;
  EmbersFlameGraph  *callers_graph;
  EmbersFlameGraph  *callees_graph;
  GtkLabel          *callers_label;
  GtkLabel          *callees_label;
  EmbersCallTreeView *call_tree;
  GtkProgressBar    *busy_bar;

  /* The function details beside the views (embers-details-panel.c) */
  AdwOverlaySplitView *details_split;
  EmbersDetailsPanel  *details;
  gpointer             details_profile;   /* what the panel shows, compared only */

  GSettings         *settings;

  GFile             *file;
  char              *title;
  char              *error;
  EmbersPageState    state;
  GCancellable      *load_cancellable;
  GCancellable      *compute_cancellable;
  guint              compute_serial;
  guint              pulse_id;
  struct _LoadProgress *progress;    /* of the running load */
  guint              progress_id;

  /* The loaded profile and what the user did to it */
  EmbersProfile     *profile;
  EmbersView         view;
  EmbersView         last_tree_view;
  EmbersColorScheme  colors;
  EmbersDiffPalette  diff_palette;
  EmbersDiffMode     diff_mode;
  EmbersDiffWidth    diff_width;
  guint              sample_type;
  /* The frame actions, in order (embers-transform-stack.h) */
  EmbersTransformStack *transforms;
  /* The steps table_profile is the result of: a step pushed on them
   * applies to it alone */
  EmbersTransformStack *applied;
  /* A saved view to restore when the next profile is shown, and the
   * focus path to find once the graph has that profile */
  EmbersSession     *pending_view;
  GStrv              pending_focus;
  int                wide_position;
  int                export_width;   /* images, 0 = as on screen */
  gboolean           stacked;
  int                fit_diff_frames;
  char              *sandwich_function;
  /* The function with the most self time (the first top table row) */
  char              *hottest_function;

  /* Results of the transforms */
  EmbersProfile     *table_profile;
  EmbersProfile     *view_profile;
  EmbersProfile     *callers_profile;
  EmbersProfile     *callees_profile;

  /* Search */
  char              *search_text;
  GCancellable      *search_cancellable;
  guint              search_serial;
  guint              search_serial_done;
  EmbersSearch      *table_search;
  char              *summary;

  guint              syncing : 1;
  guint              focus_graph : 1;
};

enum {
  PROP_0,
  PROP_TITLE,
  PROP_STATE,
  PROP_BUSY,
  PROP_VIEW,
  PROP_COLLAPSE_RECURSION,
  PROP_COLORS,
  PROP_SAMPLE_TYPE,
  PROP_SEARCH_SUMMARY,
  PROP_N_TRANSFORMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (EmbersProfilePage, embers_profile_page, ADW_TYPE_BREAKPOINT_BIN)

static const char * const view_names[] = { "icicle", "flame", "bottom-up", "sandwich", "call-tree" };
static const char * const color_names[] = { "package", "value", "plain" };

static void recompute (EmbersProfilePage *self);
static void refresh_search (EmbersProfilePage *self);

static int
find_name (const char * const *names,
           guint               n_names,
           const char         *name)
{
  for (guint i = 0; i < n_names; i++)
    if (g_strcmp0 (names[i], name) == 0)
      return i;
  return -1;
}

static void
toast (EmbersProfilePage *self,
       const char        *message)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-toast", "s", message);
}

static void
set_state (EmbersProfilePage *self,
           EmbersPageState    state)
{
  if (state == self->state)
    return;

  self->state = state;
  switch (state)
    {
    case EMBERS_PAGE_STATE_LOADING:
      gtk_stack_set_visible_child_name (self->stack, "loading");
      break;
    case EMBERS_PAGE_STATE_FAILED:
      gtk_stack_set_visible_child_name (self->stack, "error");
      break;
    case EMBERS_PAGE_STATE_READY:
      gtk_stack_set_visible_child_name (self->stack, "content");
      break;
    case EMBERS_PAGE_STATE_EMPTY:
    case EMBERS_PAGE_STATE_CANCELLED:
    default:
      break;
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
set_title (EmbersProfilePage *self,
           const char        *title)
{
  if (g_strcmp0 (title, self->title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static EmbersFlameGraph *
active_graph (EmbersProfilePage *self)
{
  if (self->view == EMBERS_VIEW_SANDWICH)
    {
      if (gtk_widget_has_focus (GTK_WIDGET (self->callers_graph)))
        return self->callers_graph;
      return self->callees_graph;
    }
  return self->graph;
}

/* Actions */

static void
update_history_actions (EmbersProfilePage *self)
{
  EmbersFlameGraph *graph = active_graph (self);
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean ready = self->state == EMBERS_PAGE_STATE_READY;
  double x0, x1;

  embers_flame_graph_get_visible_range (graph, &x0, &x1);
  gtk_widget_action_set_enabled (widget, "page.back",
                                 ready && embers_flame_graph_get_can_go_back (graph));
  gtk_widget_action_set_enabled (widget, "page.forward",
                                 ready && embers_flame_graph_get_can_go_forward (graph));
  gtk_widget_action_set_enabled (widget, "page.reset",
                                 ready && (embers_flame_graph_get_focus_node (graph) != 0 ||
                                           x0 > 0 || x1 < 1));
}

static void
update_actions (EmbersProfilePage *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean ready = self->state == EMBERS_PAGE_STATE_READY;
  gboolean searching = self->table_search != NULL && embers_search_is_active (self->table_search);

  gtk_widget_action_set_enabled (widget, "page.cancel", self->state == EMBERS_PAGE_STATE_LOADING);
  gtk_widget_action_set_enabled (widget, "page.reload", self->file != NULL &&
                                 self->state != EMBERS_PAGE_STATE_LOADING);
  gtk_widget_action_set_enabled (widget, "page.view", ready);
  gtk_widget_action_set_enabled (widget, "page.collapse-recursion", ready);
  gtk_widget_action_set_enabled (widget, "page.colors", ready);
  gtk_widget_action_set_enabled (widget, "page.sandwich", ready);
  gtk_widget_action_set_enabled (widget, "page.hide-frame", ready);
  gtk_widget_action_set_enabled (widget, "page.focus-function", ready);
  gtk_widget_action_set_enabled (widget, "page.merge-function", ready);
  gtk_widget_action_set_enabled (widget, "page.drop-function", ready);
  gtk_widget_action_set_enabled (widget, "page.collapse-package", ready);
  gtk_widget_action_set_enabled (widget, "page.collapse-function-recursion", ready);
  gtk_widget_action_set_enabled (widget, "page.transform", ready);
  gtk_widget_action_set_enabled (widget, "page.invert", ready);
  gtk_widget_action_set_enabled (widget, "page.search", ready);
  gtk_widget_action_set_enabled (widget, "page.search-next", ready && searching);
  gtk_widget_action_set_enabled (widget, "page.search-previous", ready && searching);
  update_history_actions (self);
}

/* Chips: the transforms in effect, each removable */

static void
update_chips (EmbersProfilePage *self)
{
  embers_transform_bar_set_stack (self->transform_bar, self->transforms);
}

static gboolean
collapses_recursion (EmbersProfilePage *self)
{
  return embers_transform_stack_find (self->transforms, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL) >= 0;
}

/* Transforms, computed off the main thread */

/* The node at @path (names from the root's child down), or NONE */
static guint32
find_path (EmbersProfile      *profile,
           const char * const *path)
{
  guint32 node = 0;

  if (profile == NULL)
    return EMBERS_NODE_NONE;
  for (guint i = 0; path[i] != NULL; i++)
    {
      guint32 end = embers_profile_node_end (profile, node);
      guint32 found = EMBERS_NODE_NONE;

      for (guint32 c = node + 1; c < end; c = embers_profile_node_end (profile, c))
        if (g_strcmp0 (embers_profile_node_name_str (profile, c), path[i]) == 0)
          {
            found = c;
            break;
          }
      if (found == EMBERS_NODE_NONE)
        return EMBERS_NODE_NONE;
      node = found;
    }
  return node;
}

/* One run of the view pipeline (embers-pipeline.h) for this page */
typedef struct
{
  EmbersProfilePage *self;
  guint              serial;
  EmbersTransformStack *stack;     /* what it applies */
} Compute;

static void
stop_busy (EmbersProfilePage *self)
{
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_widget_set_visible (GTK_WIDGET (self->busy_bar), FALSE);
}

static void
apply_compute (EmbersProfilePage    *self,
               EmbersPipelineResult *c)
{
  g_set_object (&self->table_profile, c->table_profile);
  g_set_object (&self->view_profile, c->view_profile);
  g_set_object (&self->callers_profile, c->callers);
  g_set_object (&self->callees_profile, c->callees);
  g_free (self->hottest_function);
  self->hottest_function = g_strdup (c->hottest_function);

  /* The old searches belong to the old profiles */
  g_clear_pointer (&self->table_search, embers_search_unref);
  embers_flame_graph_set_search (self->graph, NULL);
  embers_flame_graph_set_search (self->callers_graph, NULL);
  embers_flame_graph_set_search (self->callees_graph, NULL);

  embers_flame_graph_set_profile (self->graph, self->view_profile);
  embers_flame_graph_set_sample_type (self->graph, self->sample_type);
  embers_flame_graph_set_direction (self->graph, self->view == EMBERS_VIEW_FLAME
                                                 ? EMBERS_LAYOUT_FLAME : EMBERS_LAYOUT_ICICLE);

  embers_flame_graph_set_profile (self->callers_graph, self->callers_profile);
  embers_flame_graph_set_sample_type (self->callers_graph, self->sample_type);
  embers_flame_graph_set_profile (self->callees_graph, self->callees_profile);
  embers_flame_graph_set_sample_type (self->callees_graph, self->sample_type);

  if (self->view == EMBERS_VIEW_SANDWICH)
    {
      g_autofree char *callers = NULL;
      g_autofree char *callees = NULL;

      /* Translators: heading of the upper half of the sandwich view */
      callers = g_strdup_printf (_("Callers of %s"), self->sandwich_function);
      /* Translators: heading of the lower half of the sandwich view */
      callees = g_strdup_printf (_("Callees of %s"), self->sandwich_function);
      gtk_label_set_text (self->callers_label, callers);
      gtk_label_set_text (self->callees_label, callees);
      gtk_stack_set_visible_child_name (self->view_stack, "sandwich");
    }
  else if (self->view == EMBERS_VIEW_CALL_TREE)
    {
      guint32 selected = embers_flame_graph_get_selected_node (self->graph);

      /* The table profile is the view profile here: one node space for
       * the tree and the (hidden) graph, whose selection it opens */
      embers_call_tree_view_set_profile (self->call_tree, self->table_profile, self->sample_type);
      gtk_stack_set_visible_child_name (self->view_stack, "call-tree");
      if (selected != EMBERS_NODE_NONE && selected != 0)
        embers_call_tree_view_reveal_node (self->call_tree, selected);
    }
  else
    {
      gtk_stack_set_visible_child_name (self->view_stack, "graph");
    }

  if (c->diff_rows != NULL)
    embers_diff_table_set_data (self->diff_table, self->table_profile, c->diff_rows);
  else
    embers_top_table_set_data (self->top_table, self->table_profile, self->sample_type, c->rows);
  update_chips (self);
  refresh_search (self);
  update_actions (self);

  /* A saved view's zoomed frame, by its path */
  if (self->pending_focus != NULL)
    {
      g_auto(GStrv) focus = g_steal_pointer (&self->pending_focus);
      guint32 node = find_path (self->view_profile, (const char * const *)focus);

      if (node != EMBERS_NODE_NONE && node != 0)
        embers_flame_graph_set_focus_node (self->graph, node);
    }

  /* After loading, the keyboard goes to the graph (or the tree) */
  if (self->focus_graph)
    {
      self->focus_graph = FALSE;
      if (self->view == EMBERS_VIEW_CALL_TREE)
        gtk_widget_grab_focus (GTK_WIDGET (self->call_tree));
      else
        gtk_widget_grab_focus (GTK_WIDGET (active_graph (self)));
    }
}

static void update_details (EmbersProfilePage *self);

static void
compute_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Compute *c = user_data;
  g_autoptr(EmbersProfilePage) self = c->self;
  guint serial = c->serial;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersPipelineResult) answer = embers_pipeline_run_finish (result, &error);
  g_autoptr(EmbersTransformStack) stack = c->stack;

  g_free (c);
  if (answer == NULL)
    {
      if (serial == self->compute_serial)
        {
          stop_busy (self);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
        }
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          serial == self->compute_serial)
        toast (self, error->message);
      return;
    }

  /* A newer request replaced this one: never show a stale result */
  if (serial != self->compute_serial)
    return;

  stop_busy (self);
  embers_transform_stack_free (self->applied);
  self->applied = g_steal_pointer (&stack);
  apply_compute (self, answer);
  /* The details follow the view (a transform changes its figures) */
  update_details (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static gboolean
pulse_cb (gpointer data)
{
  EmbersProfilePage *self = data;

  gtk_widget_set_visible (GTK_WIDGET (self->busy_bar), TRUE);
  gtk_progress_bar_pulse (self->busy_bar);
  return G_SOURCE_CONTINUE;
}

static void
recompute (EmbersProfilePage *self)
{
  g_autoptr(EmbersPipelineParams) params = NULL;
  Compute *c;

  if (self->profile == NULL)
    return;

  g_cancellable_cancel (self->compute_cancellable);
  g_clear_object (&self->compute_cancellable);
  self->compute_cancellable = g_cancellable_new ();

  params = embers_pipeline_params_new ();
  embers_transform_stack_free (params->stack);
  params->stack = embers_transform_stack_copy (self->transforms);
  params->sandwich_function = g_strdup (self->sandwich_function);
  params->view = self->view;
  params->sample_type = self->sample_type;
  /* The steps already applied to the shown table are not done again */
  if (self->applied != NULL && self->table_profile != NULL &&
      embers_transform_stack_is_prefix (self->applied, self->transforms))
    {
      params->base = g_object_ref (self->table_profile);
      params->base_steps = embers_transform_stack_get_length (self->applied);
    }

  c = g_new0 (Compute, 1);
  c->self = g_object_ref (self);
  c->stack = embers_transform_stack_copy (self->transforms);
  c->serial = ++self->compute_serial;
  embers_pipeline_run_async (self->profile, params, self->compute_cancellable, compute_done, c);

  /* Show progress only when it takes a moment */
  if (self->pulse_id == 0)
    self->pulse_id = g_timeout_add (150, pulse_cb, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* Search: matching runs off the main thread (it visits every node) */

enum {
  SEARCH_TABLE,
  SEARCH_VIEW,
  SEARCH_CALLERS,
  SEARCH_CALLEES,
  N_SEARCHES
};

typedef struct
{
  char              *text;
  EmbersSearchFlags  flags;
  guint              sample_type;
  guint              serial;
  EmbersProfile     *profiles[N_SEARCHES];

  EmbersSearch      *searches[N_SEARCHES];
  char              *summary;
} SearchJob;

static void
search_job_free (gpointer data)
{
  SearchJob *job = data;

  for (guint i = 0; i < N_SEARCHES; i++)
    {
      g_clear_object (&job->profiles[i]);
      g_clear_pointer (&job->searches[i], embers_search_unref);
    }
  g_free (job->text);
  g_free (job->summary);
  g_free (job);
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchJob *job = task_data;
  GError *error = NULL;

  job->searches[SEARCH_TABLE] = embers_search_new (job->profiles[SEARCH_TABLE], job->text,
                                                   job->flags, &error);
  if (job->searches[SEARCH_TABLE] == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  job->summary = embers_search_summary (job->searches[SEARCH_TABLE], job->sample_type);

  for (guint i = SEARCH_VIEW; i < N_SEARCHES; i++)
    {
      if (g_task_return_error_if_cancelled (task))
        return;
      if (job->profiles[i] == NULL)
        continue;
      if (job->profiles[i] == job->profiles[SEARCH_TABLE])
        job->searches[i] = embers_search_ref (job->searches[SEARCH_TABLE]);
      else
        job->searches[i] = embers_search_new (job->profiles[i], job->text, job->flags, NULL);
    }

  g_task_return_boolean (task, TRUE);
}

static void
set_summary (EmbersProfilePage *self,
             const char        *summary)
{
  if (g_strcmp0 (summary, self->summary) == 0)
    return;

  g_free (self->summary);
  self->summary = g_strdup (summary);
  gtk_label_set_text (self->search_summary, summary != NULL ? summary : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_summary), summary);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_SUMMARY]);
}

static void
apply_search (EmbersProfilePage *self,
              SearchJob         *job)
{
  g_clear_pointer (&self->table_search, embers_search_unref);
  if (job != NULL && job->searches[SEARCH_TABLE] != NULL)
    self->table_search = embers_search_ref (job->searches[SEARCH_TABLE]);

  set_summary (self, job != NULL ? job->summary : NULL);
  embers_flame_graph_set_search (self->graph, job != NULL ? job->searches[SEARCH_VIEW] : NULL);
  embers_flame_graph_set_search (self->callers_graph, job != NULL ? job->searches[SEARCH_CALLERS] : NULL);
  embers_flame_graph_set_search (self->callees_graph, job != NULL ? job->searches[SEARCH_CALLEES] : NULL);
  embers_top_table_set_search (self->top_table, self->table_search);
  embers_call_tree_view_set_search (self->call_tree, self->table_search);
  update_actions (self);
}

static void
search_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (source);
  SearchJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (job->serial != self->search_serial)
    return;
  self->search_serial_done = job->serial;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      GtkWidget *entry = GTK_WIDGET (self->search_entry);

      apply_search (self, NULL);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          gtk_widget_add_css_class (entry, "error");
          gtk_widget_set_tooltip_text (entry, error->message);
          set_summary (self, _("Invalid regular expression"));
        }
    }
  else
    {
      apply_search (self, job);
    }
}

static void
refresh_search (EmbersProfilePage *self)
{
  GtkWidget *entry = GTK_WIDGET (self->search_entry);
  g_autoptr(GTask) task = NULL;
  SearchJob *job;

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  gtk_widget_remove_css_class (entry, "error");
  gtk_widget_set_tooltip_text (entry, NULL);

  if (self->table_profile == NULL || self->search_text == NULL || self->search_text[0] == '\0')
    {
      self->search_serial_done = ++self->search_serial;
      apply_search (self, NULL);
      return;
    }

  job = g_new0 (SearchJob, 1);
  job->text = g_strdup (self->search_text);
  if (gtk_toggle_button_get_active (self->regex_button))
    job->flags |= EMBERS_SEARCH_REGEX;
  if (gtk_toggle_button_get_active (self->case_button))
    job->flags |= EMBERS_SEARCH_CASE_SENSITIVE;
  job->sample_type = self->sample_type;
  job->serial = ++self->search_serial;
  g_set_object (&job->profiles[SEARCH_TABLE], self->table_profile);
  g_set_object (&job->profiles[SEARCH_VIEW], self->view_profile);
  g_set_object (&job->profiles[SEARCH_CALLERS], self->callers_profile);
  g_set_object (&job->profiles[SEARCH_CALLEES], self->callees_profile);

  self->search_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->search_cancellable, search_done, NULL);
  g_task_set_source_tag (task, refresh_search);
  g_task_set_task_data (task, job, search_job_free);
  g_task_run_in_thread (task, search_thread);
}

void
embers_profile_page_set_search (EmbersProfilePage *self,
                                const char        *text,
                                gboolean           regex,
                                gboolean           case_sensitive)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));

  self->syncing = TRUE;
  gtk_toggle_button_set_active (self->regex_button, regex);
  gtk_toggle_button_set_active (self->case_button, case_sensitive);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
  self->syncing = FALSE;

  g_free (self->search_text);
  self->search_text = g_strdup (text);
  if (text != NULL && text[0] != '\0')
    gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  refresh_search (self);
}

static void
on_search_changed (EmbersProfilePage *self)
{
  if (self->syncing)
    return;

  g_free (self->search_text);
  self->search_text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  refresh_search (self);
}

static void
search_step (EmbersProfilePage *self,
             gboolean           forward)
{
  EmbersFlameGraph *graph = active_graph (self);
  EmbersSearch *search = embers_flame_graph_get_search (graph);
  guint32 node;

  if (self->view == EMBERS_VIEW_CALL_TREE)
    {
      /* The tree shows the table profile, which the table search is of */
      search = self->table_search;
      if (search == NULL || !embers_search_is_active (search))
        return;
      node = embers_call_tree_view_get_selected_node (self->call_tree);
      node = forward ? embers_search_next (search, self->sample_type, node)
                     : embers_search_previous (search, self->sample_type, node);
      if (node == EMBERS_NODE_NONE)
        gtk_widget_error_bell (GTK_WIDGET (self));
      else
        embers_call_tree_view_reveal_node (self->call_tree, node);
      return;
    }

  if (search == NULL || !embers_search_is_active (search))
    return;

  node = embers_flame_graph_get_selected_node (graph);
  if (forward)
    node = embers_search_next (search, self->sample_type, node);
  else
    node = embers_search_previous (search, self->sample_type, node);

  if (node == EMBERS_NODE_NONE)
    gtk_widget_error_bell (GTK_WIDGET (self));
  else
    embers_flame_graph_reveal_node (graph, node);
}

static void
on_search_activate (EmbersProfilePage *self)
{
  search_step (self, TRUE);
}

static void
on_search_next (EmbersProfilePage *self)
{
  search_step (self, TRUE);
}

static void
on_search_previous (EmbersProfilePage *self)
{
  search_step (self, FALSE);
}

static void
on_search_stop (EmbersProfilePage *self)
{
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (active_graph (self)));
}

void
embers_profile_page_begin_search (EmbersProfilePage *self)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));

  if (self->state != EMBERS_PAGE_STATE_READY)
    return;
  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

const char *
embers_profile_page_get_search_summary (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->summary != NULL ? self->summary : "";
}

/* Linking the graphs and the table */

static const char *
node_name (EmbersFlameGraph *graph,
           guint32           node)
{
  EmbersProfile *profile = embers_flame_graph_get_profile (graph);

  if (profile == NULL || node == EMBERS_NODE_NONE || node == 0)
    return NULL;
  return embers_profile_node_name_str (profile, node);
}

static gboolean
is_diff (EmbersProfilePage *self)
{
  return self->profile != NULL && embers_profile_is_diff (self->profile);
}

static void
table_select_name (EmbersProfilePage *self,
                   const char        *name)
{
  if (is_diff (self))
    embers_diff_table_select_name (self->diff_table, name);
  else
    embers_top_table_select_name (self->top_table, name);
}

static const char *
table_selected_name (EmbersProfilePage *self)
{
  if (is_diff (self))
    return embers_diff_table_get_selected_name (self->diff_table);
  return embers_top_table_get_selected_name (self->top_table);
}

static void
on_graph_hover (EmbersProfilePage *self,
                GParamSpec        *pspec,
                EmbersFlameGraph  *graph)
{
  const char *name = node_name (graph, embers_flame_graph_get_hover_node (graph));

  /* Hovering marks the row but never scrolls the table: it would jump
   * under the pointer's path; a click or the keyboard scrolls to it */
  if (name == NULL)
    return;
  if (is_diff (self))
    embers_diff_table_mark_name (self->diff_table, name, FALSE);
  else
    embers_top_table_mark_name (self->top_table, name, FALSE);
}

static void update_details (EmbersProfilePage *self);
static void setup_details  (EmbersProfilePage *self);

static void
on_graph_selected (EmbersProfilePage *self,
                   GParamSpec        *pspec,
                   EmbersFlameGraph  *graph)
{
  const char *name = node_name (graph, embers_flame_graph_get_selected_node (graph));

  if (name != NULL)
    table_select_name (self, name);
  update_details (self);
}

static void set_highlight_name (EmbersProfilePage *self,
                                const char        *name);

/* A row picked in the call tree is the graph's selection too (one node
 * space, see apply_compute), and the table's row. An inverted row is a
 * function, not a node: its frames are highlighted, as a table's row's. */
static void
on_call_tree_selected (EmbersProfilePage *self)
{
  guint32 node = embers_call_tree_view_get_selected_node (self->call_tree);
  const char *name = embers_call_tree_view_get_selected_name (self->call_tree);

  if (self->view != EMBERS_VIEW_CALL_TREE)
    return;
  if (node != EMBERS_NODE_NONE && embers_flame_graph_get_profile (self->graph) == self->table_profile)
    embers_flame_graph_set_selected_node (self->graph, node);
  if (node == EMBERS_NODE_NONE && name != NULL)
    {
      embers_flame_graph_set_selected_node (self->graph, EMBERS_NODE_NONE);
      set_highlight_name (self, name);
    }
  if (name != NULL)
    table_select_name (self, name);
}

static void
set_highlight_name (EmbersProfilePage *self,
                    const char        *name)
{
  embers_flame_graph_set_highlight_name (self->graph, name);
  embers_flame_graph_set_highlight_name (self->callers_graph, name);
  embers_flame_graph_set_highlight_name (self->callees_graph, name);
}

/* The tables' column widths are kept as they are, an a{si} (GSettings
 * maps no GVariant property by itself) */
static gboolean
widths_from_setting (GValue   *value,
                     GVariant *variant,
                     gpointer  user_data)
{
  g_value_set_variant (value, variant);
  return TRUE;
}

static GVariant *
widths_to_setting (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  GVariant *widths = g_value_get_variant (value);

  if (widths == NULL || !g_variant_is_of_type (widths, expected_type))
    return NULL;
  return g_variant_ref (widths);
}

/* A row chosen in the table (by a click or the keyboard) replaces the
 * graph's selection, so Sandwich and the other actions act on it; a row
 * the graph marked (its selection, or the hovered frame) leaves it */
static void
table_chose_name (EmbersProfilePage *self,
                  const char        *name)
{
  set_highlight_name (self, name);
  if (name == NULL
      || g_strcmp0 (name, node_name (self->graph, embers_flame_graph_get_selected_node (self->graph))) == 0
      || g_strcmp0 (name, node_name (self->graph, embers_flame_graph_get_hover_node (self->graph))) == 0)
    return;
  embers_flame_graph_set_selected_node (self->graph, EMBERS_NODE_NONE);
}

static void
on_table_selected_name (EmbersProfilePage *self)
{
  if (!is_diff (self))
    table_chose_name (self, embers_top_table_get_selected_name (self->top_table));
  update_details (self);
}

static void
on_diff_table_selected_name (EmbersProfilePage *self)
{
  if (is_diff (self))
    table_chose_name (self, embers_diff_table_get_selected_name (self->diff_table));
}

/* A diff table row activated (Enter, double click): select the
 * function's first frame in the graph, in depth-first order (the
 * hottest path), and focus on it */
static void
on_diff_table_row_activated (EmbersProfilePage *self,
                             const char        *name)
{
  EmbersFlameGraph *graph = active_graph (self);
  EmbersProfile *profile = embers_flame_graph_get_profile (graph);
  guint n;

  if (profile == NULL || name == NULL)
    return;
  n = embers_profile_get_n_nodes (profile);
  for (guint32 i = 1; i < n; i++)
    if (g_strcmp0 (embers_profile_node_name_str (profile, i), name) == 0)
      {
        embers_flame_graph_reveal_node (graph, i);
        embers_flame_graph_set_focus_node (graph, i);
        gtk_widget_grab_focus (GTK_WIDGET (graph));
        return;
      }
  gtk_widget_error_bell (GTK_WIDGET (self));
}

static void
on_table_function_activated (EmbersProfilePage *self,
                             const char        *name)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "page.sandwich", "s", name);
}

static void
on_sample_type_selected (EmbersProfilePage *self)
{
  guint selected = gtk_drop_down_get_selected (self->sample_type_dropdown);

  if (!self->syncing && selected != GTK_INVALID_LIST_POSITION)
    embers_profile_page_set_sample_type (self, selected);
}

/* The selected frame's stack as recorded, root first (for a call-site
 * query): NULL where there is none, as in the inverted views, or where
 * the transforms rewrote the stacks (a server's stacks have no such
 * path) */
GStrv
embers_profile_page_dup_selected_call_site (EmbersProfilePage *self)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autoptr(GPtrArray) names = NULL;
  EmbersProfile *profile;
  guint32 node;

  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);

  profile = self->view_profile;
  if (profile == NULL || self->view == EMBERS_VIEW_BOTTOM_UP || self->view == EMBERS_VIEW_SANDWICH ||
      embers_transform_stack_get_length (self->transforms) > 0)
    return NULL;
  if (self->view == EMBERS_VIEW_CALL_TREE)
    node = embers_call_tree_view_get_selected_node (self->call_tree);
  else
    node = embers_flame_graph_get_selected_node (self->graph);
  if (node == EMBERS_NODE_NONE || node == 0 || node >= embers_profile_get_n_nodes (profile))
    return NULL;

  names = g_ptr_array_new ();
  for (guint32 n = node; n != 0 && n != EMBERS_NODE_NONE; n = embers_profile_node_parent (profile, n))
    g_ptr_array_insert (names, 0, (gpointer) embers_profile_node_name_str (profile, n));
  builder = g_strv_builder_new ();
  for (guint i = 0; i < names->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (names, i));
  return g_strv_builder_end (builder);
}

/* View state */

EmbersView
embers_profile_page_get_view (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), EMBERS_VIEW_ICICLE);
  return self->view;
}

static const char *
default_sandwich_function (EmbersProfilePage *self)
{
  const char *name;

  name = node_name (self->graph, embers_flame_graph_get_selected_node (self->graph));
  if (name == NULL)
    name = table_selected_name (self);
  if (name == NULL)
    name = self->hottest_function;
  return name;
}

void
embers_profile_page_set_view (EmbersProfilePage *self,
                              EmbersView         view)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (view <= EMBERS_VIEW_CALL_TREE);

  if (view == EMBERS_VIEW_SANDWICH && self->sandwich_function == NULL)
    {
      const char *name = default_sandwich_function (self);

      if (name == NULL)
        {
          gtk_widget_error_bell (GTK_WIDGET (self));
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
          return;
        }
      self->sandwich_function = g_strdup (name);
    }

  if (view == self->view)
    return;

  if (view == EMBERS_VIEW_ICICLE || view == EMBERS_VIEW_FLAME)
    self->last_tree_view = view;
  self->view = view;
  recompute (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

static void
set_collapse_recursion (EmbersProfilePage *self,
                        gboolean           collapse)
{
  int index = embers_transform_stack_find (self->transforms, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL);

  collapse = !!collapse;
  if (collapse == (index >= 0))
    return;

  if (collapse)
    embers_transform_stack_push (self->transforms, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL, NULL);
  else
    embers_transform_stack_remove (self->transforms, index);
  update_chips (self);
  recompute (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLAPSE_RECURSION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_TRANSFORMS]);
}

static void
set_colors (EmbersProfilePage *self,
            EmbersColorScheme  colors)
{
  if (colors == self->colors)
    return;

  self->colors = colors;
  embers_flame_graph_set_color_scheme (self->graph, colors);
  embers_flame_graph_set_color_scheme (self->callers_graph, colors);
  embers_flame_graph_set_color_scheme (self->callees_graph, colors);
  if (self->settings != NULL)
    g_settings_set_enum (self->settings, "flame-colors", colors);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLORS]);
}

/* Diff views */

EmbersDiffPalette
embers_profile_page_get_diff_palette (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), EMBERS_DIFF_PALETTE_RED_BLUE);
  return self->diff_palette;
}

/* Every diff view follows the palette setting; the switch changes it */
void
embers_profile_page_set_diff_palette (EmbersProfilePage *self,
                                      EmbersDiffPalette  palette)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (palette <= EMBERS_DIFF_PALETTE_RED_GREEN);

  if (gtk_drop_down_get_selected (self->diff_palette_dropdown) != (guint) palette)
    gtk_drop_down_set_selected (self->diff_palette_dropdown, palette);
  if (palette == self->diff_palette)
    return;

  self->diff_palette = palette;
  embers_flame_graph_set_diff_palette (self->graph, palette);
  embers_flame_graph_set_diff_palette (self->callers_graph, palette);
  embers_flame_graph_set_diff_palette (self->callees_graph, palette);
  embers_call_tree_view_set_diff_palette (self->call_tree, palette);
  embers_diff_legend_set_palette (self->diff_legend, palette);
  if (self->settings != NULL && g_settings_get_enum (self->settings, "diff-palette") != (int) palette)
    g_settings_set_enum (self->settings, "diff-palette", palette);
}

EmbersDiffMode
embers_profile_page_get_diff_mode (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), EMBERS_DIFF_MODE_SHARE);
  return self->diff_mode;
}

void
embers_profile_page_set_diff_mode (EmbersProfilePage *self,
                                   EmbersDiffMode     mode)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (mode <= EMBERS_DIFF_MODE_ABSOLUTE);

  if (gtk_drop_down_get_selected (self->diff_mode_dropdown) != (guint) mode)
    gtk_drop_down_set_selected (self->diff_mode_dropdown, mode);
  if (mode == self->diff_mode)
    return;

  self->diff_mode = mode;
  embers_diff_table_set_mode (self->diff_table, mode);
  embers_flame_graph_set_diff_mode (self->graph, mode);
  embers_flame_graph_set_diff_mode (self->callers_graph, mode);
  embers_flame_graph_set_diff_mode (self->callees_graph, mode);
  embers_diff_legend_set_mode (self->diff_legend, mode);
}

EmbersDiffWidth
embers_profile_page_get_diff_width (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), EMBERS_DIFF_WIDTH_SUM);
  return self->diff_width;
}

void
embers_profile_page_set_diff_width (EmbersProfilePage *self,
                                    EmbersDiffWidth    width)
{
  guint position = width == EMBERS_DIFF_WIDTH_COMPARISON ? 1 : 0;

  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));

  if (width == EMBERS_DIFF_WIDTH_SUM || width == EMBERS_DIFF_WIDTH_COMPARISON)
    if (gtk_drop_down_get_selected (self->diff_width_dropdown) != position)
      gtk_drop_down_set_selected (self->diff_width_dropdown, position);
  if (width == self->diff_width)
    return;

  self->diff_width = width;
  embers_flame_graph_set_diff_width (self->graph, width);
  embers_flame_graph_set_diff_width (self->callers_graph, width);
  embers_flame_graph_set_diff_width (self->callees_graph, width);
}

static void
on_diff_palette_selected (EmbersProfilePage *self)
{
  guint selected = gtk_drop_down_get_selected (self->diff_palette_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION)
    embers_profile_page_set_diff_palette (self, selected == 1 ? EMBERS_DIFF_PALETTE_RED_GREEN
                                                              : EMBERS_DIFF_PALETTE_RED_BLUE);
}

static void
on_diff_mode_selected (EmbersProfilePage *self)
{
  guint selected = gtk_drop_down_get_selected (self->diff_mode_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION)
    embers_profile_page_set_diff_mode (self, selected == 1 ? EMBERS_DIFF_MODE_ABSOLUTE
                                                           : EMBERS_DIFF_MODE_SHARE);
}

static void
on_diff_width_selected (EmbersProfilePage *self)
{
  guint selected = gtk_drop_down_get_selected (self->diff_width_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION)
    embers_profile_page_set_diff_width (self, selected == 1 ? EMBERS_DIFF_WIDTH_COMPARISON
                                                            : EMBERS_DIFF_WIDTH_SUM);
}

static void
on_diff_palette_setting (EmbersProfilePage *self)
{
  embers_profile_page_set_diff_palette (self, g_settings_get_enum (self->settings, "diff-palette")
                                              == EMBERS_DIFF_PALETTE_RED_GREEN
                                              ? EMBERS_DIFF_PALETTE_RED_GREEN
                                              : EMBERS_DIFF_PALETTE_RED_BLUE);
}

EmbersDiffTable *
embers_profile_page_get_diff_table (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->diff_table;
}

EmbersDiffLegend *
embers_profile_page_get_diff_legend (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->diff_legend;
}

guint
embers_profile_page_get_sample_type (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), 0);
  return self->sample_type;
}

void
embers_profile_page_set_sample_type (EmbersProfilePage *self,
                                     guint              sample_type)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));

  if (self->profile == NULL || sample_type >= embers_profile_get_n_sample_types (self->profile))
    return;
  if (sample_type == self->sample_type)
    return;

  self->sample_type = sample_type;
  self->syncing = TRUE;
  gtk_drop_down_set_selected (self->sample_type_dropdown, sample_type);
  self->syncing = FALSE;
  recompute (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAMPLE_TYPE]);
}

static void on_split_changed (EmbersProfilePage *self);

/* The table above the graph (a narrow page) */
static gboolean
is_stacked (EmbersProfilePage *self)
{
  return gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned)) == GTK_ORIENTATION_VERTICAL;
}

/* Loading */

static gboolean fit_diff_table (GtkWidget     *paned,
                                GdkFrameClock *clock,
                                gpointer       data);

/* A saved view on the profile just shown: its sample type, frame actions,
 * view and search now, its focus once the graph has the result */
static void
apply_saved_view (EmbersProfilePage   *self,
                  const EmbersSession *view)
{
  int type = view->sample_type != NULL ? embers_profile_find_sample_type (self->profile, view->sample_type) : -1;
  int mode = view->view != NULL ? find_name (view_names, G_N_ELEMENTS (view_names), view->view) : -1;

  if (type >= 0)
    {
      self->sample_type = type;
      self->syncing = TRUE;
      gtk_drop_down_set_selected (self->sample_type_dropdown, self->sample_type);
      self->syncing = FALSE;
    }
  embers_transform_stack_free (self->transforms);
  self->transforms = embers_transform_stack_copy (view->transforms);
  update_chips (self);
  g_free (self->sandwich_function);
  self->sandwich_function = g_strdup (view->sandwich);
  if (mode == EMBERS_VIEW_SANDWICH && self->sandwich_function == NULL)
    mode = -1;
  if (mode >= 0)
    {
      self->view = mode;
      if (mode == EMBERS_VIEW_ICICLE || mode == EMBERS_VIEW_FLAME)
        self->last_tree_view = mode;
    }
  g_strfreev (self->pending_focus);
  self->pending_focus = g_strdupv (view->focus);
  if (view->search != NULL)
    embers_profile_page_set_search (self, view->search, view->search_regex, view->search_case_sensitive);
}

static void
show_profile (EmbersProfilePage *self,
              EmbersProfile     *profile)
{
  guint n_types = embers_profile_get_n_sample_types (profile);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  g_set_object (&self->profile, profile);
  /* The table shown is the old profile's */
  g_clear_pointer (&self->applied, embers_transform_stack_free);
  self->sample_type = embers_profile_get_default_sample_type (profile);
  embers_transform_stack_clear (self->transforms);
  update_chips (self);
  g_clear_pointer (&self->sandwich_function, g_free);
  if (self->view == EMBERS_VIEW_SANDWICH)
    self->view = self->last_tree_view;

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

  self->syncing = TRUE;
  gtk_string_list_splice (self->sample_types, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->sample_types)),
                          (const char * const *)names->pdata);
  gtk_drop_down_set_selected (self->sample_type_dropdown, self->sample_type);
  /* A diff's two columns are baseline and comparison, both drawn at once */
  gtk_widget_set_visible (GTK_WIDGET (self->sample_type_dropdown),
                          n_types > 1 && !embers_profile_is_diff (profile));
  self->syncing = FALSE;

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
      gtk_widget_add_tick_callback (GTK_WIDGET (self->paned), fit_diff_table, self, NULL);
    }
  if (!embers_profile_is_diff (profile))
    embers_diff_table_set_data (self->diff_table, NULL, NULL);
  embers_adaptive_update (self->toolbar_breakpoint);

  set_state (self, EMBERS_PAGE_STATE_READY);
  self->focus_graph = TRUE;
  if (self->pending_view != NULL)
    {
      g_autoptr(EmbersSession) view = g_steal_pointer (&self->pending_view);

      apply_saved_view (self, view);
    }
  recompute (self);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_TRANSFORMS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLAPSE_RECURSION]);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAMPLE_TYPE]);
}

/* A load's progress: written by the loading thread, read by the page
 * every 100 ms (the thread may outlive the page: both hold a reference) */
typedef struct _LoadProgress
{
  GMutex  lock;
  guint   stage;   /* 0: reading the file (bytes), 1: building (stacks) */
  guint64 done;
  guint64 total;
} LoadProgress;

static void
load_progress_clear (gpointer data)
{
  g_mutex_clear (&((LoadProgress *)data)->lock);
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

static gboolean
show_load_progress (gpointer data)
{
  EmbersProfilePage *self = data;
  LoadProgress *progress = self->progress;
  g_autofree char *text = NULL;
  guint stage;
  guint64 done, total;

  if (progress == NULL)
    return G_SOURCE_CONTINUE;

  g_mutex_lock (&progress->lock);
  stage = progress->stage;
  done = progress->done;
  total = progress->total;
  g_mutex_unlock (&progress->lock);

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

static void
stop_load_progress (EmbersProfilePage *self)
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
      stop_load_progress (self);

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
          set_state (self, EMBERS_PAGE_STATE_CANCELLED);
        }
      else
        {
          /* The page says why, with Reload: no toast to repeat it */
          g_free (self->error);
          self->error = g_strdup (error->message);
          adw_status_page_set_description (self->error_page, error->message);
          set_state (self, EMBERS_PAGE_STATE_FAILED);
        }
      update_actions (self);
    }

  g_object_unref (load->cancellable);
  g_object_unref (load->self);
  g_free (load);
}

void
embers_profile_page_load (EmbersProfilePage *self,
                          GFile             *file,
                          const char        *title)
{
  g_autofree char *basename = NULL;
  Load *load;

  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  g_set_object (&self->file, file);
  basename = g_file_get_basename (file);
  set_title (self, title != NULL ? title : basename);
  adw_status_page_set_description (self->loading_page, self->title);
  g_clear_pointer (&self->error, g_free);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();

  set_state (self, EMBERS_PAGE_STATE_LOADING);
  update_actions (self);

  load = g_new0 (Load, 1);
  load->self = g_object_ref (self);
  load->cancellable = g_object_ref (self->load_cancellable);

  /* A Pyroscope query URL: the server's merged flame graph, fetched on a
   * thread (the client runs its own main context there) */
  if (embers_location_classify_file (file) == EMBERS_LOCATION_QUERY_URL)
    {
      if (title == NULL)
        set_title (self, _("Pyroscope Query"));
      embers_location_load_async (file, self->load_cancellable, load_done, load);
      return;
    }

  /* Bytes read, then stacks laid out: the page shows how far it got */
  {
    EmbersInputOptions options;

    stop_load_progress (self);
    self->progress = g_atomic_rc_box_new0 (LoadProgress);
    g_mutex_init (&self->progress->lock);
    gtk_progress_bar_set_fraction (self->load_progress, 0);
    self->progress_id = g_timeout_add (100, show_load_progress, self);

    embers_input_options_init (&options);
    options.progress = on_read_progress;
    options.building = on_build_progress;
    options.user_data = g_atomic_rc_box_acquire (self->progress);
    embers_profile_load_file_full_async (file, &options, load_progress_unref,
                                         self->load_cancellable, load_done, load);
  }
}

void
embers_profile_page_set_profile (EmbersProfilePage *self,
                                 EmbersProfile     *profile,
                                 const char        *title)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (EMBERS_IS_PROFILE (profile));

  set_title (self, title);
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
  recompute (self);
  update_actions (self);
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

/* Getters */

GFile *
embers_profile_page_get_file (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->file;
}

const char *
embers_profile_page_get_title (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->title;
}

EmbersPageState
embers_profile_page_get_state (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), EMBERS_PAGE_STATE_EMPTY);
  return self->state;
}

const char *
embers_profile_page_get_error (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->error;
}

EmbersProfile *
embers_profile_page_get_profile (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->profile;
}

gboolean
embers_profile_page_get_busy (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), FALSE);
  return self->state == EMBERS_PAGE_STATE_LOADING || self->pulse_id != 0;
}

gboolean
embers_profile_page_get_search_pending (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), FALSE);
  return self->search_serial != self->search_serial_done;
}

EmbersFlameGraph *
embers_profile_page_get_flame_graph (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return active_graph (self);
}

EmbersTopTable *
embers_profile_page_get_top_table (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->top_table;
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

  if (self->view_profile == NULL)
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

/* Actions */

/* The stack changed: the chips, the collapse-recursion switch, the view */
static void
transforms_changed (EmbersProfilePage *self)
{
  update_chips (self);
  recompute (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLAPSE_RECURSION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_TRANSFORMS]);
}

static void
push_transform (EmbersProfilePage  *self,
                EmbersTransformKind kind,
                const char * const *args)
{
  if (args[0] == NULL ||
      !embers_transform_stack_push (self->transforms, kind, args, NULL))
    {
      /* Applied already, or nothing to apply it to */
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  transforms_changed (self);
}

static void
page_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (widget);
  const char *name = param != NULL && g_variant_is_of_type (param, G_VARIANT_TYPE_STRING)
                     ? g_variant_get_string (param, NULL) : NULL;

  if (g_str_equal (action_name, "page.cancel"))
    embers_profile_page_cancel (self);
  else if (g_str_equal (action_name, "page.reload"))
    {
      if (self->file != NULL)
        {
          g_autoptr(GFile) file = g_object_ref (self->file);

          embers_profile_page_load (self, file, self->title);
        }
    }
  else if (g_str_equal (action_name, "page.details"))
    adw_overlay_split_view_set_show_sidebar (self->details_split,
                                             !adw_overlay_split_view_get_show_sidebar (self->details_split));
  else if (g_str_equal (action_name, "page.sandwich"))
    {
      g_free (self->sandwich_function);
      self->sandwich_function = g_strdup (name);
      if (self->view == EMBERS_VIEW_SANDWICH)
        recompute (self);
      else
        embers_profile_page_set_view (self, EMBERS_VIEW_SANDWICH);
    }
  else if (g_str_equal (action_name, "page.hide-frame"))
    {
      /* A table row is a function: hiding it merges it everywhere (the
       * graph hides one call node, through page.transform) */
      push_transform (self, EMBERS_TRANSFORM_MERGE_FUNCTION, (const char *[]) { name, NULL });
    }
  else if (g_str_equal (action_name, "page.focus-function"))
    push_transform (self, EMBERS_TRANSFORM_FOCUS_FUNCTION, (const char *[]) { name, NULL });
  else if (g_str_equal (action_name, "page.merge-function"))
    push_transform (self, EMBERS_TRANSFORM_MERGE_FUNCTION, (const char *[]) { name, NULL });
  else if (g_str_equal (action_name, "page.drop-function"))
    push_transform (self, EMBERS_TRANSFORM_DROP_FUNCTION, (const char *[]) { name, NULL });
  else if (g_str_equal (action_name, "page.collapse-package"))
    {
      gsize len = 0;
      const char *package = embers_palette_package (name, &len);
      g_autofree char *copy = g_strndup (package, len);

      push_transform (self, EMBERS_TRANSFORM_COLLAPSE_PACKAGE, (const char *[]) { copy, NULL });
    }
  else if (g_str_equal (action_name, "page.collapse-function-recursion"))
    push_transform (self, EMBERS_TRANSFORM_COLLAPSE_RECURSION, (const char *[]) { name, NULL });
  else if (g_str_equal (action_name, "page.transform"))
    {
      g_autoptr(GError) error = NULL;

      const char *kind_name = NULL;
      EmbersTransformKind kind;

      g_variant_get_child (param, 0, "&s", &kind_name);
      /* A call path is one of the call tree's: the inverted trees' paths
       * are not */
      if (embers_transform_kind_from_string (kind_name, &kind) &&
          embers_transform_kind_takes_path (kind) &&
          (self->view == EMBERS_VIEW_BOTTOM_UP || self->view == EMBERS_VIEW_SANDWICH))
        toast (self, _("Hide and Focus on Subtree work on the call tree: switch to Icicle or Flame Graph"));
      else if (!embers_transform_stack_push_variant (self->transforms, param, &error))
        gtk_widget_error_bell (widget);
      else
        transforms_changed (self);
    }
  else if (g_str_equal (action_name, "page.remove-transform"))
    {
      guint index = g_variant_get_uint32 (param);

      if (index < embers_transform_stack_get_length (self->transforms))
        {
          embers_transform_stack_remove (self->transforms, index);
          transforms_changed (self);
        }
    }
  else if (g_str_equal (action_name, "page.clear-transforms"))
    {
      if (embers_transform_stack_get_length (self->transforms) > 0)
        {
          embers_transform_stack_clear (self->transforms);
          transforms_changed (self);
        }
    }
  else if (g_str_equal (action_name, "page.invert") && self->view == EMBERS_VIEW_CALL_TREE)
    {
      /* The call tree turns itself over: callers below the functions */
      embers_call_tree_view_set_inverted (self->call_tree,
                                          !embers_call_tree_view_get_inverted (self->call_tree));
    }
  else if (g_str_equal (action_name, "page.invert"))
    {
      embers_profile_page_set_view (self, self->view == EMBERS_VIEW_BOTTOM_UP
                                          ? self->last_tree_view : EMBERS_VIEW_BOTTOM_UP);
    }
  else if (g_str_equal (action_name, "page.search"))
    embers_profile_page_begin_search (self);
  else if (g_str_equal (action_name, "page.search-next"))
    search_step (self, TRUE);
  else if (g_str_equal (action_name, "page.search-previous"))
    search_step (self, FALSE);
  else if (g_str_equal (action_name, "page.back"))
    embers_flame_graph_go_back (active_graph (self));
  else if (g_str_equal (action_name, "page.forward"))
    embers_flame_graph_go_forward (active_graph (self));
  else if (g_str_equal (action_name, "page.reset"))
    embers_flame_graph_reset (active_graph (self));
}

/* GObject */

static void
embers_profile_page_dispose (GObject *object)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (object);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->compute_cancellable != NULL)
    g_cancellable_cancel (self->compute_cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->compute_cancellable);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  g_clear_handle_id (&self->progress_id, g_source_remove);
  g_clear_pointer (&self->progress, load_progress_unref);
  if (self->search_cancellable != NULL)
    g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  self->search_serial++;
  /* A transform still running finishes on a page without widgets: make
   * its result stale so that it is dropped */
  self->compute_serial++;

  /* The bin lets go of its child before the template does */
  adw_breakpoint_bin_set_child (ADW_BREAKPOINT_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_PROFILE_PAGE);

  g_clear_pointer (&self->table_search, embers_search_unref);
  g_clear_object (&self->profile);
  g_clear_object (&self->table_profile);
  g_clear_object (&self->view_profile);
  g_clear_object (&self->callers_profile);
  g_clear_object (&self->callees_profile);
  g_clear_object (&self->file);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (embers_profile_page_parent_class)->dispose (object);
}

static void
embers_profile_page_finalize (GObject *object)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (object);

  g_clear_pointer (&self->transforms, embers_transform_stack_free);
  g_clear_pointer (&self->applied, embers_transform_stack_free);
  g_clear_pointer (&self->pending_view, embers_session_free);
  g_clear_pointer (&self->pending_focus, g_strfreev);
  g_free (self->title);
  g_free (self->error);
  g_free (self->sandwich_function);
  g_free (self->hottest_function);
  g_free (self->search_text);
  g_free (self->summary);

  G_OBJECT_CLASS (embers_profile_page_parent_class)->finalize (object);
}

static void
embers_profile_page_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_STATE:
      g_value_set_uint (value, self->state);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, embers_profile_page_get_busy (self));
      break;
    case PROP_VIEW:
      g_value_set_string (value, view_names[self->view]);
      break;
    case PROP_COLLAPSE_RECURSION:
      g_value_set_boolean (value, collapses_recursion (self));
      break;
    case PROP_N_TRANSFORMS:
      g_value_set_uint (value, embers_transform_stack_get_length (self->transforms));
      break;
    case PROP_COLORS:
      g_value_set_string (value, color_names[self->colors]);
      break;
    case PROP_SAMPLE_TYPE:
      g_value_set_uint (value, self->sample_type);
      break;
    case PROP_SEARCH_SUMMARY:
      g_value_set_string (value, embers_profile_page_get_search_summary (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_profile_page_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (object);
  int index;

  switch (prop_id)
    {
    case PROP_VIEW:
      index = find_name (view_names, G_N_ELEMENTS (view_names), g_value_get_string (value));
      if (index >= 0)
        embers_profile_page_set_view (self, index);
      break;
    case PROP_COLLAPSE_RECURSION:
      set_collapse_recursion (self, g_value_get_boolean (value));
      break;
    case PROP_COLORS:
      index = find_name (color_names, G_N_ELEMENTS (color_names), g_value_get_string (value));
      if (index >= 0)
        set_colors (self, index);
      break;
    case PROP_SAMPLE_TYPE:
      embers_profile_page_set_sample_type (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_profile_page_class_init (EmbersProfilePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char * const plain_actions[] = {
    "page.cancel", "page.reload", "page.clear-transforms", "page.invert",
    "page.search", "page.search-next", "page.search-previous",
    "page.back", "page.forward", "page.reset", "page.details",
  };
  static const char * const name_actions[] = {
    "page.sandwich", "page.hide-frame", "page.focus-function", "page.merge-function",
    "page.drop-function", "page.collapse-package", "page.collapse-function-recursion",
  };

  object_class->dispose = embers_profile_page_dispose;
  object_class->finalize = embers_profile_page_finalize;
  object_class->get_property = embers_profile_page_get_property;
  object_class->set_property = embers_profile_page_set_property;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_STATE] =
    g_param_spec_uint ("state", NULL, NULL,
                       EMBERS_PAGE_STATE_EMPTY, EMBERS_PAGE_STATE_CANCELLED, EMBERS_PAGE_STATE_EMPTY,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_VIEW] =
    g_param_spec_string ("view", NULL, NULL,
                         "icicle",
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_COLLAPSE_RECURSION] =
    g_param_spec_boolean ("collapse-recursion", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_COLORS] =
    g_param_spec_string ("colors", NULL, NULL,
                         "package",
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SAMPLE_TYPE] =
    g_param_spec_uint ("sample-type", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_N_TRANSFORMS] =
    g_param_spec_uint ("n-transforms", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SEARCH_SUMMARY] =
    g_param_spec_string ("search-summary", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (EMBERS_TYPE_FLAME_GRAPH);
  g_type_ensure (EMBERS_TYPE_CALL_TREE_VIEW);
  g_type_ensure (EMBERS_TYPE_TRANSFORM_BAR);
  g_type_ensure (EMBERS_TYPE_TOP_TABLE);
  g_type_ensure (EMBERS_TYPE_DIFF_TABLE);
  g_type_ensure (EMBERS_TYPE_DIFF_LEGEND);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-profile-page.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, loading_page);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, error_page);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, load_progress);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, transform_bar);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, sample_type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, sample_types);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, search_bar);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, regex_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, case_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, search_summary);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, paned);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, top_table);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, table_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_table);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_bar);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_legend);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_palette_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_width_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, colors_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, view_menu_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, split_breakpoint);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, narrow_breakpoint);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, toolbar_breakpoint);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, view_switch);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, graph);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, call_tree);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, callers_graph);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, callees_graph);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, callers_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, callees_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, busy_bar);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_next);
  gtk_widget_class_bind_template_callback (widget_class, on_search_previous);
  gtk_widget_class_bind_template_callback (widget_class, on_search_stop);
  gtk_widget_class_bind_template_callback (widget_class, on_table_selected_name);
  gtk_widget_class_bind_template_callback (widget_class, on_table_function_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_diff_table_selected_name);
  gtk_widget_class_bind_template_callback (widget_class, on_diff_table_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_graph_hover);
  gtk_widget_class_bind_template_callback (widget_class, on_graph_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_call_tree_selected);
  gtk_widget_class_bind_template_callback (widget_class, update_history_actions);

  for (guint i = 0; i < G_N_ELEMENTS (plain_actions); i++)
    gtk_widget_class_install_action (widget_class, plain_actions[i], NULL, page_action);
  for (guint i = 0; i < G_N_ELEMENTS (name_actions); i++)
    gtk_widget_class_install_action (widget_class, name_actions[i], "s", page_action);
  /* The transform stack: push a step ("(sas)": kind, path or name), remove one */
  gtk_widget_class_install_action (widget_class, "page.transform", "(sas)", page_action);
  gtk_widget_class_install_action (widget_class, "page.remove-transform", "u", page_action);
  gtk_widget_class_install_property_action (widget_class, "page.view", "view");
  gtk_widget_class_install_property_action (widget_class, "page.collapse-recursion", "collapse-recursion");
  gtk_widget_class_install_property_action (widget_class, "page.colors", "colors");

  /* Keys anywhere on the page (the flame graph has its own, see
   * embers-flame-graph.c); each is listed in the shortcuts window */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_CONTROL_MASK, "page.view", "s", "icicle");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_CONTROL_MASK, "page.view", "s", "flame");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_CONTROL_MASK, "page.view", "s", "bottom-up");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_4, GDK_CONTROL_MASK, "page.view", "s", "sandwich");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_5, GDK_CONTROL_MASK, "page.view", "s", "call-tree");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "page.search-next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "page.search-previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "page.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "page.forward", NULL);
  /* Escape cancels a load, or resets the zoom: one of them is enabled */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "page.cancel", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "page.reset", NULL);
  /* A file's page reads the file again; a server's page has no file and
   * leaves these keys to the explore page's Refresh */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "page.reload", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "page.reload", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_i, GDK_CONTROL_MASK, "page.details", NULL);

  gtk_widget_class_set_css_name (widget_class, "profilepage");
}

/* ---- Narrow windows ---- */

/* The toolbar's view menu (shown instead of the view buttons when they do
 * not fit) names the current view */
static void
update_view_menu_button (EmbersProfilePage *self)
{
  static const char * const labels[] = {
    [EMBERS_VIEW_ICICLE] = NC_("view", "_Icicle"),
    [EMBERS_VIEW_FLAME] = NC_("view", "_Flame Graph"),
    [EMBERS_VIEW_BOTTOM_UP] = NC_("view", "_Bottom-Up"),
    [EMBERS_VIEW_SANDWICH] = NC_("view", "_Sandwich"),
    [EMBERS_VIEW_CALL_TREE] = NC_("view", "Call _Tree"),
  };

  gtk_label_set_text_with_mnemonic (self->view_menu_label,
                                    g_dpgettext2 (GETTEXT_PACKAGE, "view", labels[self->view]));
}

/* The split beside a diff leaves room for every column of the diff table
 * (measured once its rows exist), as long as the graph keeps half of the
 * page: the diff is the answer; the table scrolls sideways for the rest */
static gboolean
fit_diff_table (GtkWidget     *paned,
                GdkFrameClock *clock,
                gpointer       data)
{
  EmbersProfilePage *self = data;
  int min = 0;
  int limit;

  gtk_widget_measure (GTK_WIDGET (embers_diff_table_get_column_view (self->diff_table)),
                      GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  limit = gtk_widget_get_width (paned) / 2;
  if (limit > 0)
    min = MIN (min, limit);
  if (is_stacked (self))
    self->wide_position = limit > 0 ? CLAMP (self->wide_position, min, limit) : MAX (self->wide_position, min);
  else if (gtk_paned_get_position (self->paned) < min ||
           (limit > 0 && gtk_paned_get_position (self->paned) > limit))
    gtk_paned_set_position (self->paned, min);

  return --self->fit_diff_frames > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* Stacked (a narrow page), the table is above the graph and the graph gets
 * most of the height; side by side again, the split is where it was. Set
 * on the frame after the fold: GtkPaned scales its position by the change
 * of its size, which across an orientation change means nothing. */
static gboolean
place_split (GtkWidget     *paned,
             GdkFrameClock *clock,
             gpointer       data)
{
  EmbersProfilePage *self = data;
  int height = gtk_widget_get_height (paned);

  /* Stacked, the graph keeps most of the height: a diff's table (its
   * rows are the same functions as the graph's) a fifth but at least its
   * least height (its header and rows, not cut), a profile's a quarter;
   * the handle drags either */
  if (is_stacked (self) && is_diff (self))
    {
      int least = embers_diff_table_get_least_height (self->diff_table, 2);

      gtk_paned_set_position (self->paned, height <= 0 ? 100 : MAX (height / 5, least));
    }
  else if (is_stacked (self))
    gtk_paned_set_position (self->paned, height <= 0 ? 100 : height / 4);
  else if (self->wide_position > 0)
    gtk_paned_set_position (self->paned, self->wide_position);
  return G_SOURCE_REMOVE;
}

static void
on_split_changed (EmbersProfilePage *self)
{
  gboolean stacked = is_stacked (self);

  if (stacked == self->stacked)
    return;
  self->stacked = stacked;
  if (stacked)
    self->wide_position = gtk_paned_get_position (self->paned);
  gtk_widget_add_tick_callback (GTK_WIDGET (self->paned), place_split, self, NULL);
}

/* GtkSearchBar's close button is an icon without a name or tooltip (GTK 4.18) */
static void
name_search_close_button (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_BUTTON (child) &&
          g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (child)), "window-close-symbolic") == 0)
        gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        _("Close Search"), -1);
      else if (!GTK_IS_SEARCH_ENTRY (child))
        name_search_close_button (child);
    }
}

static void
embers_profile_page_init (EmbersProfilePage *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  self->transforms = embers_transform_stack_new ();
  self->view = EMBERS_VIEW_ICICLE;
  self->last_tree_view = EMBERS_VIEW_ICICLE;

  gtk_widget_init_template (GTK_WIDGET (self));
  setup_details (self);
  /* A sandwich's halves have the function at their root: their shares
   * are of the function, not of the profile's total */
  embers_flame_graph_set_share_of (self->callers_graph, _("of the function"));
  embers_flame_graph_set_share_of (self->callees_graph, _("of the function"));

  /* The drop-downs' names, for their buttons too; the search bar's close
   * button */
  embers_accessible_set_label (GTK_WIDGET (self->sample_type_dropdown), _("Sample Type"));
  embers_accessible_set_label (GTK_WIDGET (self->diff_width_dropdown), _("Frame Widths"));
  embers_accessible_set_label (GTK_WIDGET (self->diff_mode_dropdown), _("Color Frames By"));
  embers_accessible_set_label (GTK_WIDGET (self->diff_palette_dropdown), _("Diff Colors"));
  name_search_close_button (GTK_WIDGET (self->search_bar));

  /* The diff table's columns scroll sideways rather than hold the page
   * wide (it gets its width beside the graph, see show_profile) */
  {
    GtkWidget *diff_scroller = gtk_widget_get_parent (GTK_WIDGET (embers_diff_table_get_column_view (self->diff_table)));

    if (GTK_IS_SCROLLED_WINDOW (diff_scroller))
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (diff_scroller),
                                      GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  }

  /* The view menu's button: the view's name, shortened when the toolbar
   * is narrow, and the arrow */
  {
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *label = gtk_label_new (NULL);

    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
    gtk_label_set_width_chars (GTK_LABEL (label), 6);
    gtk_label_set_xalign (GTK_LABEL (label), 0);
    gtk_box_append (GTK_BOX (box), label);
    gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("pan-down-symbolic"));
    gtk_menu_button_set_child (self->view_menu_button, box);
    gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->view_menu_button));
    self->view_menu_label = GTK_LABEL (label);
  }
  update_view_menu_button (self);
  g_signal_connect (self, "notify::view", G_CALLBACK (update_view_menu_button), NULL);
  /* The view buttons where the toolbar fits with them, else the menu */
  embers_adaptive_follow_width (self->toolbar_breakpoint, self->toolbar, self->view_switch, "buttons");
  /* The breakpoints turn the split: the table above the graph or beside */
  g_signal_connect_object (self->paned, "notify::orientation",
                           G_CALLBACK (on_split_changed), self, G_CONNECT_SWAPPED);
  /* A long sample type shortens on its button in a narrow toolbar */
  embers_drop_down_shorten_on_button (self->sample_type_dropdown);

  g_signal_connect_object (self->sample_type_dropdown, "notify::selected",
                           G_CALLBACK (on_sample_type_selected), self, G_CONNECT_SWAPPED);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  g_signal_connect_object (self->diff_palette_dropdown, "notify::selected",
                           G_CALLBACK (on_diff_palette_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->diff_mode_dropdown, "notify::selected",
                           G_CALLBACK (on_diff_mode_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->diff_width_dropdown, "notify::selected",
                           G_CALLBACK (on_diff_width_selected), self, G_CONNECT_SWAPPED);

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema != NULL)
    {
      self->settings = g_settings_new (APP_ID);
      set_colors (self, g_settings_get_enum (self->settings, "flame-colors"));
      on_diff_palette_setting (self);
      g_signal_connect_object (self->settings, "changed::diff-palette",
                               G_CALLBACK (on_diff_palette_setting), self, G_CONNECT_SWAPPED);
      /* Widths the user dragged the columns to, kept across tabs and runs */
      g_settings_bind_with_mapping (self->settings, "top-table-columns", self->top_table, "column-widths",
                                    G_SETTINGS_BIND_DEFAULT, widths_from_setting, widths_to_setting, NULL, NULL);
      g_settings_bind_with_mapping (self->settings, "diff-table-columns", self->diff_table, "column-widths",
                                    G_SETTINGS_BIND_DEFAULT, widths_from_setting, widths_to_setting, NULL, NULL);
    }

  update_actions (self);
}

/* ---- Function details ---- */

/* The details of the selected function (of the table's, or the hottest),
 * while the panel is shown */
static void
update_details (EmbersProfilePage *self)
{
  EmbersProfile *shown;
  const char *name;

  if (self->details_split == NULL || !adw_overlay_split_view_get_show_sidebar (self->details_split)
      || self->profile == NULL)
    return;
  name = default_sandwich_function (self);
  /* The shown view: the transformed profile, its lines counted over the
   * same stack (the file is read again through it) */
  shown = self->table_profile != NULL ? self->table_profile : self->profile;
  if (name == NULL || (self->details_profile == (gpointer)shown
                       && g_strcmp0 (name, embers_details_panel_get_function (self->details)) == 0))
    return;
  self->details_profile = shown;
  embers_details_panel_show_view_function (self->details, shown,
                                           shown == self->profile ? NULL : self->applied,
                                           self->sample_type, name,
                                           embers_profile_is_diff (self->profile) ? NULL : self->file);
}

/* A caller or callee chosen in the panel's Calls becomes the graph's
 * selection (which then selects its table row): the selected frame's
 * parent or child of that name, else its heaviest frame */
static void
on_details_function_activated (EmbersProfilePage *self,
                               const char        *name)
{
  EmbersProfile *profile = embers_flame_graph_get_profile (self->graph);
  guint32 node;

  if (profile == NULL || name == NULL)
    return;
  node = embers_function_details_pick_node (profile, embers_flame_graph_get_selected_node (self->graph),
                                            name, self->sample_type);
  /* Selected, and in view */
  if (node != EMBERS_NODE_NONE)
    embers_flame_graph_reveal_node (self->graph, node);
}

static void
on_details_close (EmbersProfilePage *self)
{
  adw_overlay_split_view_set_show_sidebar (self->details_split, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->graph));
}

/* The panel goes beside the table and views (the template's paned), and
 * over them where the page is narrow */
static void
setup_details (EmbersProfilePage *self)
{
  GtkWidget *paned = GTK_WIDGET (self->paned);
  GtkWidget *box = gtk_widget_get_parent (paned);
  GtkWidget *before = gtk_widget_get_prev_sibling (paned);
  GValue collapsed = G_VALUE_INIT;

  self->details = embers_details_panel_new ();
  self->details_split = ADW_OVERLAY_SPLIT_VIEW (adw_overlay_split_view_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->details_split), TRUE);
  adw_overlay_split_view_set_sidebar_position (self->details_split, GTK_PACK_END);
  adw_overlay_split_view_set_show_sidebar (self->details_split, FALSE);
  /* Shown only when asked for, whatever the width does */
  adw_overlay_split_view_set_pin_sidebar (self->details_split, TRUE);
  adw_overlay_split_view_set_enable_show_gesture (self->details_split, FALSE);
  adw_overlay_split_view_set_min_sidebar_width (self->details_split, 320);
  adw_overlay_split_view_set_max_sidebar_width (self->details_split, 640);
  adw_overlay_split_view_set_sidebar_width_fraction (self->details_split, 0.4);
  adw_overlay_split_view_set_sidebar (self->details_split, GTK_WIDGET (self->details));

  g_object_ref (paned);
  gtk_box_remove (GTK_BOX (box), paned);
  adw_overlay_split_view_set_content (self->details_split, paned);
  g_object_unref (paned);
  gtk_box_insert_child_after (GTK_BOX (box), GTK_WIDGET (self->details_split), before);

  /* Breakpoints exclude each other: the narrow ones lay the panel over */
  g_value_init (&collapsed, G_TYPE_BOOLEAN);
  g_value_set_boolean (&collapsed, TRUE);
  adw_breakpoint_add_setter (self->split_breakpoint, G_OBJECT (self->details_split), "collapsed", &collapsed);
  adw_breakpoint_add_setter (self->narrow_breakpoint, G_OBJECT (self->details_split), "collapsed", &collapsed);
  g_value_unset (&collapsed);

  g_signal_connect_object (self->details, "close", G_CALLBACK (on_details_close), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->details, "function-activated",
                           G_CALLBACK (on_details_function_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->details_split, "notify::show-sidebar",
                           G_CALLBACK (update_details), self, G_CONNECT_SWAPPED);

  /* Its button, last in the toolbar */
  {
    GtkWidget *button = gtk_toggle_button_new ();

    gtk_button_set_icon_name (GTK_BUTTON (button), "sidebar-show-right-symbolic");
    gtk_widget_set_tooltip_text (button, _("Function Details (Ctrl+I)"));
    embers_accessible_set_label (button, _("Function Details"));
    gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
    g_object_bind_property (self->details_split, "show-sidebar", button, "active",
                            G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
    gtk_box_append (GTK_BOX (self->toolbar), button);
  }
}

EmbersDetailsPanel *
embers_profile_page_get_details_panel (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->details;
}

gboolean
embers_profile_page_get_details_shown (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), FALSE);
  return adw_overlay_split_view_get_show_sidebar (self->details_split);
}

EmbersProfilePage *
embers_profile_page_new (void)
{
  return g_object_new (EMBERS_TYPE_PROFILE_PAGE, NULL);
}

/* The frame actions */

const EmbersTransformStack *
embers_profile_page_get_transforms (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->transforms;
}

void
embers_profile_page_set_transforms (EmbersProfilePage          *self,
                                    const EmbersTransformStack *stack)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (stack != NULL);

  if (embers_transform_stack_equal (stack, self->transforms))
    return;
  embers_transform_stack_free (self->transforms);
  self->transforms = embers_transform_stack_copy (stack);
  transforms_changed (self);
}

EmbersTransformBar *
embers_profile_page_get_transform_bar (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->transform_bar;
}

/* Saved views (embers-session.h) */

void
embers_profile_page_save_view (EmbersProfilePage *self,
                               EmbersSession     *session)
{
  guint32 focus;

  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (session != NULL);

  g_free (session->view);
  session->view = g_strdup (view_names[self->view]);
  g_free (session->sample_type);
  session->sample_type = self->profile != NULL && !embers_profile_is_diff (self->profile)
                         ? g_strdup (embers_profile_get_sample_type (self->profile, self->sample_type))
                         : NULL;
  g_free (session->sandwich);
  session->sandwich = self->view == EMBERS_VIEW_SANDWICH ? g_strdup (self->sandwich_function) : NULL;
  embers_transform_stack_free (session->transforms);
  session->transforms = embers_transform_stack_copy (self->transforms);

  /* The main graph's zoomed frame, by its path */
  g_clear_pointer (&session->focus, g_strfreev);
  focus = embers_flame_graph_get_focus_node (self->graph);
  if (self->view != EMBERS_VIEW_SANDWICH && self->view_profile != NULL && focus != 0 &&
      focus != EMBERS_NODE_NONE)
    {
      GPtrArray *path = g_ptr_array_new ();

      for (guint32 n = focus; n != 0 && n != EMBERS_NODE_NONE; n = embers_profile_node_parent (self->view_profile, n))
        g_ptr_array_insert (path, 0, g_strdup (embers_profile_node_name_str (self->view_profile, n)));
      g_ptr_array_add (path, NULL);
      session->focus = (GStrv)g_ptr_array_free (path, FALSE);
    }

  g_free (session->search);
  session->search = self->search_text != NULL && self->search_text[0] != '\0' ? g_strdup (self->search_text) : NULL;
  session->search_regex = gtk_toggle_button_get_active (self->regex_button);
  session->search_case_sensitive = gtk_toggle_button_get_active (self->case_button);
}

void
embers_profile_page_restore_view (EmbersProfilePage   *self,
                                  const EmbersSession *session)
{
  EmbersSession *copy;

  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (session != NULL);

  copy = embers_session_new ();
  copy->view = g_strdup (session->view);
  copy->sample_type = g_strdup (session->sample_type);
  copy->sandwich = g_strdup (session->sandwich);
  embers_transform_stack_free (copy->transforms);
  copy->transforms = embers_transform_stack_copy (session->transforms);
  copy->focus = g_strdupv (session->focus);
  copy->search = g_strdup (session->search);
  copy->search_regex = session->search_regex;
  copy->search_case_sensitive = session->search_case_sensitive;

  if (self->state == EMBERS_PAGE_STATE_READY && self->profile != NULL)
    {
      apply_saved_view (self, copy);
      embers_session_free (copy);
      recompute (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_TRANSFORMS]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLAPSE_RECURSION]);
      return;
    }
  g_clear_pointer (&self->pending_view, embers_session_free);
  self->pending_view = copy;
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
  set_title (self, title);
  set_state (self, EMBERS_PAGE_STATE_FAILED);
  update_actions (self);
}
