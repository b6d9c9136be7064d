/* embers-profile-page-view.c: the view pipeline, the search, and the
 * links between the graphs, the tables and the call tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-layout.h"
#include "embers-profile-page-private.h"
#include "embers-top.h"
#include "embers-transforms.h"

/* Chips: the transforms in effect, each removable */

void
embers_profile_page_update_chips (EmbersProfilePage *self)
{
  embers_transform_bar_set_stack (self->transform_bar, self->transforms);
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

/* The shown view's widgets for the profiles shown: the graph's direction,
 * the view stack's page, the call tree or the sandwich's headings */
void
embers_profile_page_show_view (EmbersProfilePage *self)
{
  embers_flame_graph_set_direction (self->graph, self->view == EMBERS_VIEW_FLAME
                                                 ? EMBERS_LAYOUT_FLAME : EMBERS_LAYOUT_ICICLE);

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
}

static void
apply_compute (EmbersProfilePage    *self,
               EmbersPipelineResult *c)
{
  g_set_object (&self->table_profile, c->table_profile);
  g_set_object (&self->view_profile, c->view_profile);
  g_set_object (&self->callers_profile, c->callers);
  g_set_object (&self->callees_profile, c->callees);
  /* A long load's coarse profile gives the graph to the whole one */
  embers_profile_page_end_partial (self);
  g_free (self->hottest_function);
  self->hottest_function = g_strdup (c->hottest_function);

  /* The old searches belong to the old profiles */
  g_clear_pointer (&self->table_search, embers_search_unref);
  embers_flame_graph_set_search (self->graph, NULL);
  embers_flame_graph_set_search (self->callers_graph, NULL);
  embers_flame_graph_set_search (self->callees_graph, NULL);

  embers_flame_graph_set_profile (self->graph, self->view_profile);
  embers_flame_graph_set_sample_type (self->graph, self->sample_type);

  embers_flame_graph_set_profile (self->callers_graph, self->callers_profile);
  embers_flame_graph_set_sample_type (self->callers_graph, self->sample_type);
  embers_flame_graph_set_profile (self->callees_graph, self->callees_profile);
  embers_flame_graph_set_sample_type (self->callees_graph, self->sample_type);

  embers_profile_page_show_view (self);

  if (c->diff_rows != NULL)
    embers_diff_table_set_data (self->diff_table, self->table_profile, c->diff_rows);
  else
    embers_top_table_set_data (self->top_table, self->table_profile, self->sample_type, c->rows);
  embers_profile_page_update_chips (self);
  embers_profile_page_refresh_search (self);
  embers_profile_page_update_actions (self);

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
        gtk_widget_grab_focus (GTK_WIDGET (embers_profile_page_active_graph (self)));
    }
}

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
          /* No view of the whole profile to replace a coarse one with */
          embers_profile_page_end_partial (self);
          stop_busy (self);
          embers_profile_page_notify (self, PAGE_PROP_BUSY);
        }
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          serial == self->compute_serial)
        embers_profile_page_toast (self, error->message);
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
  embers_profile_page_update_details (self);
  embers_profile_page_notify (self, PAGE_PROP_BUSY);
}

static gboolean
pulse_cb (gpointer data)
{
  EmbersProfilePage *self = data;

  gtk_widget_set_visible (GTK_WIDGET (self->busy_bar), TRUE);
  gtk_progress_bar_pulse (self->busy_bar);
  return G_SOURCE_CONTINUE;
}

void
embers_profile_page_recompute (EmbersProfilePage *self)
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
  embers_profile_page_notify (self, PAGE_PROP_BUSY);
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
  embers_profile_page_notify (self, PAGE_PROP_SEARCH_SUMMARY);
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
  embers_profile_page_update_actions (self);
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

void
embers_profile_page_refresh_search (EmbersProfilePage *self)
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
  if (self->search_regex)
    job->flags |= EMBERS_SEARCH_REGEX;
  if (self->search_case_sensitive)
    job->flags |= EMBERS_SEARCH_CASE_SENSITIVE;
  job->sample_type = self->sample_type;
  job->serial = ++self->search_serial;
  g_set_object (&job->profiles[SEARCH_TABLE], self->table_profile);
  g_set_object (&job->profiles[SEARCH_VIEW], self->view_profile);
  g_set_object (&job->profiles[SEARCH_CALLERS], self->callers_profile);
  g_set_object (&job->profiles[SEARCH_CALLEES], self->callees_profile);

  self->search_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->search_cancellable, search_done, NULL);
  g_task_set_source_tag (task, embers_profile_page_refresh_search);
  g_task_set_task_data (task, job, search_job_free);
  g_task_run_in_thread (task, search_thread);
}

static void
on_search_changed (EmbersProfilePage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (g_strcmp0 (text, self->search_text != NULL ? self->search_text : "") == 0)
    return;
  g_free (self->search_text);
  self->search_text = g_strdup (text);
  embers_profile_page_refresh_search (self);
}

/* The search's state is the page's: the entry's text as last taken, and
 * the two switches, bound both ways to the page's search-regex and
 * search-case-sensitive in the template. Each setter searches again only
 * when something changed. */
void
embers_profile_page_set_search (EmbersProfilePage *self,
                                const char        *text,
                                gboolean           regex,
                                gboolean           case_sensitive)
{
  gboolean changed;

  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));

  regex = !!regex;
  case_sensitive = !!case_sensitive;
  changed = g_strcmp0 (text, self->search_text) != 0 || regex != self->search_regex ||
            case_sensitive != self->search_case_sensitive;

  g_free (self->search_text);
  self->search_text = g_strdup (text);
  self->search_regex = regex;
  self->search_case_sensitive = case_sensitive;
  /* The switches follow through their bindings, the entry here; what
   * they report back is no change. Setting an entry's text deletes the
   * old text first, which a search entry reports at once: that passing
   * empty text is not the person's */
  embers_profile_page_notify (self, PAGE_PROP_SEARCH_REGEX);
  embers_profile_page_notify (self, PAGE_PROP_SEARCH_CASE_SENSITIVE);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), text != NULL ? text : "") != 0)
    {
      g_signal_handlers_block_by_func (self->search_entry, on_search_changed, self);
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");
      g_signal_handlers_unblock_by_func (self->search_entry, on_search_changed, self);
    }
  if (text != NULL && text[0] != '\0')
    gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  if (changed)
    embers_profile_page_refresh_search (self);
}

/* The search-regex and search-case-sensitive properties */
void
embers_profile_page_set_search_flag (EmbersProfilePage *self,
                                     guint              prop,
                                     gboolean           value)
{
  gboolean *field = prop == PAGE_PROP_SEARCH_REGEX ? &self->search_regex : &self->search_case_sensitive;

  value = !!value;
  if (value == *field)
    return;
  *field = value;
  embers_profile_page_notify (self, prop);
  embers_profile_page_refresh_search (self);
}

void
embers_profile_page_search_step (EmbersProfilePage *self,
                                 gboolean           forward)
{
  EmbersFlameGraph *graph = embers_profile_page_active_graph (self);
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
  embers_profile_page_search_step (self, TRUE);
}

static void
on_search_next (EmbersProfilePage *self)
{
  embers_profile_page_search_step (self, TRUE);
}

static void
on_search_previous (EmbersProfilePage *self)
{
  embers_profile_page_search_step (self, FALSE);
}

static void
on_search_stop (EmbersProfilePage *self)
{
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (embers_profile_page_active_graph (self)));
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

static void
table_select_name (EmbersProfilePage *self,
                   const char        *name)
{
  if (embers_profile_page_is_diff (self))
    embers_diff_table_select_name (self->diff_table, name);
  else
    embers_top_table_select_name (self->top_table, name);
}

static const char *
table_selected_name (EmbersProfilePage *self)
{
  if (embers_profile_page_is_diff (self))
    return embers_diff_table_get_selected_name (self->diff_table);
  return embers_top_table_get_selected_name (self->top_table);
}

static void
on_graph_hover (EmbersProfilePage *self,
                GParamSpec        *pspec,
                EmbersFlameGraph  *graph)
{
  const char *name = embers_profile_page_node_name (graph, embers_flame_graph_get_hover_node (graph));

  /* Hovering marks the row but never scrolls the table: it would jump
   * under the pointer's path; a click or the keyboard scrolls to it */
  if (name == NULL)
    return;
  if (embers_profile_page_is_diff (self))
    embers_diff_table_mark_name (self->diff_table, name, FALSE);
  else
    embers_top_table_mark_name (self->top_table, name, FALSE);
}

static void
on_graph_selected (EmbersProfilePage *self,
                   GParamSpec        *pspec,
                   EmbersFlameGraph  *graph)
{
  const char *name = embers_profile_page_node_name (graph, embers_flame_graph_get_selected_node (graph));

  if (name != NULL)
    table_select_name (self, name);
  embers_profile_page_update_details (self);
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

/* A row chosen in the table (by a click or the keyboard) replaces the
 * graph's selection, so Sandwich and the other actions act on it; a row
 * the graph marked (its selection, or the hovered frame) leaves it */
static void
table_chose_name (EmbersProfilePage *self,
                  const char        *name)
{
  set_highlight_name (self, name);
  if (name == NULL
      || g_strcmp0 (name, embers_profile_page_node_name (self->graph, embers_flame_graph_get_selected_node (self->graph))) == 0
      || g_strcmp0 (name, embers_profile_page_node_name (self->graph, embers_flame_graph_get_hover_node (self->graph))) == 0)
    return;
  embers_flame_graph_set_selected_node (self->graph, EMBERS_NODE_NONE);
}

static void
on_table_selected_name (EmbersProfilePage *self)
{
  if (!embers_profile_page_is_diff (self))
    table_chose_name (self, embers_top_table_get_selected_name (self->top_table));
  embers_profile_page_update_details (self);
}

static void
on_diff_table_selected_name (EmbersProfilePage *self)
{
  if (embers_profile_page_is_diff (self))
    table_chose_name (self, embers_diff_table_get_selected_name (self->diff_table));
}

/* A diff table row activated (Enter, double click): select the
 * function's first frame in the graph, in depth-first order (the
 * hottest path), and focus on it */
static void
on_diff_table_row_activated (EmbersProfilePage *self,
                             const char        *name)
{
  EmbersFlameGraph *graph = embers_profile_page_active_graph (self);
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

  /* (a long load's coarse profile in the graph has nodes of its own) */
  profile = self->view_profile;
  if (profile == NULL || self->partial_profile != NULL ||
      self->view == EMBERS_VIEW_BOTTOM_UP || self->view == EMBERS_VIEW_SANDWICH ||
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

const char *
embers_profile_page_default_function (EmbersProfilePage *self)
{
  const char *name;

  name = embers_profile_page_node_name (self->graph, embers_flame_graph_get_selected_node (self->graph));
  if (name == NULL)
    name = table_selected_name (self);
  if (name == NULL)
    name = self->hottest_function;
  return name;
}

void
embers_profile_page_class_init_view (GtkWidgetClass *widget_class)
{
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
}
