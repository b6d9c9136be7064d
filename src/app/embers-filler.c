/* embers-filler.c: Load More, filling in a server answer's `other` frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "embers-accessible.h"
#include "embers-fill.h"
#include "embers-filler.h"
#include "embers-flame-graph.h"

/* The server's default budget and its largest (PYROSCOPE-API.md) */
#define DEFAULT_NODES 8192
#define MAX_NODES     1048576

struct _EmbersFiller
{
  GObject            parent_instance;

  EmbersSource      *source;
  EmbersProfilePage *page;     /* weak */
  EmbersStatus      *status;   /* weak */
  EmbersFlameGraph  *graph;    /* weak */
  GtkAdjustment     *hadjustment;

  EmbersQuery       *query;
  EmbersQuery       *comparison;  /* a diff's other side (query is its baseline) */
  gint64             max_nodes;
  GHashTable        *asked;    /* call site key -> times asked */

  /* The run */
  GCancellable      *cancellable;
  GPtrArray         *sites;    /* GStrv */
  guint              next;
  gboolean           manual;
  EmbersProfile     *working;  /* the page's profile with what came in so far */
  guint              added;

  /* The view, kept across the replacement */
  gboolean           restoring;
  GStrv              focus_path;
  GStrv              selected_path;
  double             x_start;
  double             x_end;

  /* After a zoom or a focus */
  guint              auto_id;
  guint32            seen_focus;
  double             seen_start;
  double             seen_end;

  gboolean           busy;
  char              *message;
  char              *announcement;  /* the last said to screen readers */
  gboolean           announced;     /* ... and whether the AT context took it */
  guint              n_filled;
};

G_DEFINE_FINAL_TYPE (EmbersFiller, embers_filler, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_BUSY,
  PROP_MESSAGE,
  PROP_N_FILLED,
  PROP_ANNOUNCEMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
site_key (const char * const *site)
{
  return g_strjoinv ("\x1f", (char **) site);
}

/* The frame shown for a call site: its last name, or the root's */
static const char *
site_name (const char * const *site)
{
  guint n = site != NULL ? g_strv_length ((char **) site) : 0;

  return n > 0 ? site[n - 1] : "total";
}

static void
set_busy (EmbersFiller *self,
          gboolean      busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
say (EmbersFiller *self,
     const char   *message,
     gboolean      toast)
{
  g_free (self->message);
  self->message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
  if (toast && self->page != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self->page), "win.show-toast", "s", message);
  else if (self->graph != NULL)
    {
      /* What came in, for a screen reader (a toast is read out already) */
      g_free (self->announcement);
      self->announcement = g_strdup (message);
      self->announced = embers_accessible_announce (GTK_WIDGET (self->graph), message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANNOUNCEMENT]);
    }
}

/* The view's path of names from the root to @node (root not included) */
static GStrv
view_path (EmbersProfile *view,
           guint32        node)
{
  if (view == NULL || node == EMBERS_NODE_NONE || node >= embers_profile_get_n_nodes (view))
    return NULL;
  return embers_fill_call_site (view, node);
}

/* The deepest node along @path that @profile has */
static guint32
walk_path (EmbersProfile      *profile,
           const char * const *path)
{
  guint32 node = 0;

  for (guint d = 0; path != NULL && path[d] != NULL; d++)
    {
      guint32 end = embers_profile_node_end (profile, node);
      guint32 child = node + 1;

      while (child < end && strcmp (embers_profile_node_name_str (profile, child), path[d]) != 0)
        child = embers_profile_node_end (profile, child);
      if (child >= end)
        break;
      node = child;
    }
  return node;
}

static gboolean
has_other_child (EmbersProfile *profile,
                 guint32        node)
{
  guint32 end = embers_profile_node_end (profile, node);

  for (guint32 c = node + 1; c < end; c = embers_profile_node_end (profile, c))
    if (embers_fill_is_other (profile, c))
      return TRUE;
  return FALSE;
}

/* The call site (in the page's own profile) whose `other` @view_node
 * stands for, or NULL and why */
static GStrv
site_for (EmbersFiller  *self,
          guint32        view_node,
          char         **why)
{
  EmbersProfile *view = self->graph != NULL ? embers_flame_graph_get_profile (self->graph) : NULL;
  EmbersProfile *profile = self->page != NULL ? embers_profile_page_get_profile (self->page) : NULL;
  EmbersView kind = self->page != NULL ? embers_profile_page_get_view (self->page) : EMBERS_VIEW_ICICLE;
  g_auto(GStrv) site = NULL;
  guint32 frame, node;

  if (self->query == NULL || view == NULL || profile == NULL)
    {
      if (why != NULL)
        *why = g_strdup (_("There is no server answer to load more of"));
      return NULL;
    }
  if (kind != EMBERS_VIEW_ICICLE && kind != EMBERS_VIEW_FLAME)
    {
      if (why != NULL)
        *why = g_strdup (_("Load More works in the icicle and flame graph views"));
      return NULL;
    }
  if (view_node == EMBERS_NODE_NONE || view_node >= embers_profile_get_n_nodes (view))
    {
      if (why != NULL)
        *why = g_strdup (_("Select an “other” frame to load what it holds"));
      return NULL;
    }

  frame = embers_fill_is_other (view, view_node) ? embers_profile_node_parent (view, view_node) : view_node;
  site = embers_fill_call_site (view, frame);
  node = embers_fill_find (profile, (const char * const *) site);
  if (node == EMBERS_NODE_NONE)
    {
      if (why != NULL)
        *why = g_strdup_printf (_("“%s” is not where the server's answer has it: remove the view's "
                                  "transforms to load more there"),
                                embers_profile_node_name_str (view, frame));
      return NULL;
    }
  if (!has_other_child (profile, node))
    {
      if (why != NULL)
        *why = g_strdup_printf (_("Nothing was cut under “%s”"), site_name ((const char * const *) site));
      return NULL;
    }
  return g_steal_pointer (&site);
}

/* ---- keeping the view ---------------------------------------------------- */

static void
note_seen (EmbersFiller *self)
{
  if (self->graph == NULL)
    return;
  self->seen_focus = embers_flame_graph_get_focus_node (self->graph);
  embers_flame_graph_get_visible_range (self->graph, &self->seen_start, &self->seen_end);
}

static void
save_view (EmbersFiller *self)
{
  EmbersProfile *view = embers_flame_graph_get_profile (self->graph);

  g_clear_pointer (&self->focus_path, g_strfreev);
  g_clear_pointer (&self->selected_path, g_strfreev);
  self->focus_path = view_path (view, embers_flame_graph_get_focus_node (self->graph));
  self->selected_path = view_path (view, embers_flame_graph_get_selected_node (self->graph));
  embers_flame_graph_get_visible_range (self->graph, &self->x_start, &self->x_end);
}

static void
restore_view (EmbersFiller *self)
{
  EmbersProfile *view = self->graph != NULL ? embers_flame_graph_get_profile (self->graph) : NULL;
  double range = self->x_end - self->x_start;

  self->restoring = FALSE;
  if (view != NULL)
    {
      guint32 focus = walk_path (view, (const char * const *) self->focus_path);

      if (focus != 0)
        embers_flame_graph_set_focus_node (self->graph, focus);
      if (self->selected_path != NULL)
        embers_flame_graph_set_selected_node (self->graph,
                                              walk_path (view, (const char * const *) self->selected_path));
      if (range > 0 && range < 1)
        embers_flame_graph_zoom (self->graph, 1 / range, self->x_start / (1 - range));
    }
  note_seen (self);
  if (self->status != NULL)
    embers_status_show_content (self->status);
  set_busy (self, FALSE);
}

static void
page_busy_changed (EmbersFiller *self)
{
  if (self->restoring && self->page != NULL && !embers_profile_page_get_busy (self->page))
    restore_view (self);
}

/* ---- a run --------------------------------------------------------------- */

typedef struct
{
  EmbersFiller *self;
  GCancellable *cancellable;
} Step;

static void
step_free (Step *step)
{
  g_object_unref (step->self);
  g_object_unref (step->cancellable);
  g_free (step);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Step, step_free)

static gboolean
step_is_current (Step *step)
{
  return step->cancellable == step->self->cancellable && !g_cancellable_is_cancelled (step->cancellable);
}

static void run_step (EmbersFiller *self);

static void
end_run (EmbersFiller *self)
{
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->sites, g_ptr_array_unref);
  g_clear_object (&self->working);
}

static void
fail_run (EmbersFiller *self,
          const char   *message)
{
  g_autofree char *text = g_strdup_printf (_("Could not load more: %s"), message);

  end_run (self);
  say (self, text, TRUE);
  if (self->status != NULL)
    embers_status_show_content (self->status);
  set_busy (self, FALSE);
}

static void
finish_run (EmbersFiller *self)
{
  g_autoptr(EmbersProfile) merged = g_object_ref (self->working);
  g_autofree char *where = g_strdup (site_name (g_ptr_array_index (self->sites, 0)));
  guint added = self->added;
  gboolean manual = self->manual;

  end_run (self);
  if (added == 0 || self->page == NULL || self->graph == NULL)
    {
      if (manual)
        {
          g_autofree char *text = g_strdup_printf (_("Nothing more to load under “%s”"), where);
          say (self, text, TRUE);
        }
      if (self->status != NULL)
        embers_status_show_content (self->status);
      set_busy (self, FALSE);
      return;
    }

  self->n_filled += added;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_FILLED]);
  {
    g_autofree char *text = manual
      ? g_strdup_printf (g_dngettext (NULL, "%u more frame under “%s”",
                                      "%u more frames under “%s”", added), added, where)
      : g_strdup_printf (g_dngettext (NULL, "%u more frame on screen",
                                      "%u more frames on screen", added), added);
    say (self, text, FALSE);
  }

  save_view (self);
  self->restoring = TRUE;
  embers_profile_page_replace_profile (self->page, merged);
  page_busy_changed (self);
}

static void
merged_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(Step) step = user_data;
  EmbersFiller *self = step->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) merged = NULL;
  guint added = 0;

  merged = embers_fill_merge_finish (result, &added, &error);
  if (!step_is_current (step))
    return;
  if (merged == NULL)
    {
      fail_run (self, error->message);
      return;
    }
  g_set_object (&self->working, merged);
  self->added += added;
  self->next++;
  run_step (self);
}

static void
site_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Step) step = user_data;
  EmbersFiller *self = step->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) sub = NULL;
  GCancellable *cancellable;

  sub = embers_source_merge_call_site_finish (EMBERS_SOURCE (object), result, &error);
  if (!step_is_current (step))
    return;
  if (sub == NULL)
    {
      fail_run (self, error->message);
      return;
    }
  cancellable = step->cancellable;
  embers_fill_merge_async (self->working, sub, cancellable, merged_done, g_steal_pointer (&step));
}

/* A comparison's step: both sides' answers, then one merge */
typedef struct
{
  EmbersFiller  *self;
  GCancellable  *cancellable;
  EmbersProfile *subs[2];
  GError        *error;
  guint          waiting;
} Pair;

static void
pair_done (GObject      *object,
           GAsyncResult *result,
           Pair         *pair,
           guint         side)
{
  EmbersFiller *self = pair->self;
  GError *error = NULL;

  pair->subs[side] = embers_source_merge_call_site_finish (EMBERS_SOURCE (object), result, &error);
  if (pair->subs[side] == NULL && pair->error == NULL)
    pair->error = error;
  else
    g_clear_error (&error);
  if (--pair->waiting > 0)
    return;

  if (pair->cancellable == self->cancellable && !g_cancellable_is_cancelled (pair->cancellable))
    {
      if (pair->error != NULL)
        fail_run (self, pair->error->message);
      else
        {
          Step *step = g_new0 (Step, 1);

          step->self = g_object_ref (self);
          step->cancellable = g_object_ref (pair->cancellable);
          embers_fill_merge_diff_async (self->working, pair->subs[0], pair->subs[1], pair->cancellable,
                                        merged_done, step);
        }
    }
  g_clear_error (&pair->error);
  g_clear_object (&pair->subs[0]);
  g_clear_object (&pair->subs[1]);
  g_object_unref (pair->cancellable);
  g_object_unref (pair->self);
  g_free (pair);
}

static void
pair_baseline_done (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  pair_done (object, result, user_data, 0);
}

static void
pair_comparison_done (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  pair_done (object, result, user_data, 1);
}

static gint64
budget_for (EmbersFiller       *self,
            const char * const *site,
            guint               times)
{
  gint64 budget = self->max_nodes > 0 ? self->max_nodes : DEFAULT_NODES;

  /* The call site's own frames count against the budget */
  budget += g_strv_length ((char **) site);
  for (guint i = 0; i < times && budget < MAX_NODES; i++)
    budget *= 2;
  return MIN (budget, MAX_NODES);
}

static void
run_step (EmbersFiller *self)
{
  const char * const *site;
  g_autoptr(EmbersQuery) query = NULL;
  g_autofree char *key = NULL;
  guint times;
  Step *step;

  if (self->next >= self->sites->len)
    {
      finish_run (self);
      return;
    }

  site = g_ptr_array_index (self->sites, self->next);
  key = site_key (site);
  times = GPOINTER_TO_UINT (g_hash_table_lookup (self->asked, key));
  query = embers_query_copy (self->query);
  query->max_nodes = budget_for (self, site, times);
  g_hash_table_replace (self->asked, g_steal_pointer (&key), GUINT_TO_POINTER (times + 1));

  if (self->comparison != NULL)
    {
      /* A comparison: the call site on both sides */
      g_autoptr(EmbersQuery) other = embers_query_copy (self->comparison);
      Pair *pair = g_new0 (Pair, 1);

      other->max_nodes = query->max_nodes;
      pair->self = g_object_ref (self);
      pair->cancellable = g_object_ref (self->cancellable);
      pair->waiting = 2;
      embers_source_merge_call_site (self->source, query, site, self->cancellable, pair_baseline_done, pair);
      embers_source_merge_call_site (self->source, other, site, self->cancellable, pair_comparison_done, pair);
      return;
    }

  step = g_new0 (Step, 1);
  step->self = g_object_ref (self);
  step->cancellable = g_object_ref (self->cancellable);
  embers_source_merge_call_site (self->source, query, site, self->cancellable, site_done, step);
}

static void
cancel_run (EmbersFiller *self,
            gboolean      show_content)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  end_run (self);
  self->restoring = FALSE;
  if (show_content && self->busy && self->status != NULL)
    embers_status_show_content (self->status);
  set_busy (self, FALSE);
}

/* Takes @sites (GStrv each) */
static void
start_run (EmbersFiller *self,
           GPtrArray    *sites,
           gboolean      manual)
{
  g_autofree char *text = NULL;

  cancel_run (self, FALSE);
  self->cancellable = g_cancellable_new ();
  self->sites = sites;
  self->next = 0;
  self->manual = manual;
  self->added = 0;
  self->working = g_object_ref (embers_profile_page_get_profile (self->page));
  set_busy (self, TRUE);

  if (manual)
    text = g_strdup_printf (_("Loading more under “%s”…"), site_name (g_ptr_array_index (sites, 0)));
  else
    text = g_strdup_printf (g_dngettext (NULL, "Loading more under %u frame on screen…",
                                         "Loading more under %u frames on screen…", sites->len), sites->len);
  say (self, text, FALSE);
  if (self->status != NULL)
    embers_status_show_loading (self->status, text);
  run_step (self);
}

/* ---- after a zoom or a focus ---------------------------------------------- */

static gboolean
auto_fill_cb (gpointer data)
{
  EmbersFiller *self = data;
  double start, end;

  self->auto_id = 0;
  /* A run of the same kind gives way to the newer view (newest wins); a
   * Load More asked for by hand is not dropped for a zoom */
  if (self->graph == NULL || self->restoring || self->query == NULL || (self->busy && self->manual))
    return G_SOURCE_REMOVE;
  embers_flame_graph_get_visible_range (self->graph, &start, &end);
  if (embers_flame_graph_get_focus_node (self->graph) == self->seen_focus &&
      start == self->seen_start && end == self->seen_end)
    return G_SOURCE_REMOVE;
  note_seen (self);
  embers_filler_fill_visible (self);
  return G_SOURCE_REMOVE;
}

/* Waits for the zoom or the pan to settle (a gesture moves it many times) */
static void
view_moved (EmbersFiller *self)
{
  if (self->restoring || self->query == NULL || (self->busy && self->manual))
    return;
  g_clear_handle_id (&self->auto_id, g_source_remove);
  self->auto_id = g_timeout_add (250, auto_fill_cb, self);
}

static void
hadjustment_changed (EmbersFiller *self)
{
  GtkAdjustment *adjustment = NULL;

  if (self->graph == NULL)
    return;
  g_object_get (self->graph, "hadjustment", &adjustment, NULL);
  if (adjustment == self->hadjustment)
    {
      g_clear_object (&adjustment);
      return;
    }
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  g_clear_object (&self->hadjustment);
  self->hadjustment = adjustment;
  if (adjustment != NULL)
    {
      g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (view_moved), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (adjustment, "changed", G_CALLBACK (view_moved), self, G_CONNECT_SWAPPED);
    }
}

/* ---- the object ---------------------------------------------------------- */

static void
embers_filler_dispose (GObject *object)
{
  EmbersFiller *self = EMBERS_FILLER (object);

  cancel_run (self, FALSE);
  g_clear_handle_id (&self->auto_id, g_source_remove);
  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  g_clear_object (&self->hadjustment);
  g_clear_weak_pointer (&self->page);
  g_clear_weak_pointer (&self->status);
  g_clear_weak_pointer (&self->graph);

  G_OBJECT_CLASS (embers_filler_parent_class)->dispose (object);
}

static void
embers_filler_finalize (GObject *object)
{
  EmbersFiller *self = EMBERS_FILLER (object);

  g_clear_object (&self->source);
  g_clear_pointer (&self->query, embers_query_free);
  g_clear_pointer (&self->comparison, embers_query_free);
  g_clear_pointer (&self->asked, g_hash_table_unref);
  g_clear_pointer (&self->focus_path, g_strfreev);
  g_clear_pointer (&self->selected_path, g_strfreev);
  g_free (self->message);
  g_free (self->announcement);

  G_OBJECT_CLASS (embers_filler_parent_class)->finalize (object);
}

static void
embers_filler_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  EmbersFiller *self = EMBERS_FILLER (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_N_FILLED:
      g_value_set_uint (value, self->n_filled);
      break;
    case PROP_ANNOUNCEMENT:
      g_value_set_string (value, self->announcement);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_filler_class_init (EmbersFillerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = embers_filler_dispose;
  object_class->finalize = embers_filler_finalize;
  object_class->get_property = embers_filler_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_FILLED] =
    g_param_spec_uint ("n-filled", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_ANNOUNCEMENT] =
    g_param_spec_string ("announcement", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
embers_filler_init (EmbersFiller *self)
{
  self->asked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->seen_end = 1;
  self->x_end = 1;
}

EmbersFiller *
embers_filler_new (EmbersSource      *source,
                   EmbersProfilePage *page,
                   EmbersStatus      *status)
{
  EmbersFiller *self;

  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (page), NULL);
  g_return_val_if_fail (status == NULL || EMBERS_IS_STATUS (status), NULL);

  self = g_object_new (EMBERS_TYPE_FILLER, NULL);
  self->source = g_object_ref (source);
  g_set_weak_pointer (&self->page, page);
  g_set_weak_pointer (&self->status, status);
  g_set_weak_pointer (&self->graph, embers_profile_page_get_flame_graph (page));
  g_signal_connect_object (page, "notify::busy", G_CALLBACK (page_busy_changed), self, G_CONNECT_SWAPPED);
  if (self->graph != NULL)
    {
      g_signal_connect_object (self->graph, "notify::focus-node", G_CALLBACK (view_moved), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->graph, "notify::zoomed", G_CALLBACK (view_moved), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->graph, "notify::hadjustment", G_CALLBACK (hadjustment_changed), self,
                               G_CONNECT_SWAPPED);
      hadjustment_changed (self);
    }
  return self;
}

void
embers_filler_reset (EmbersFiller      *self,
                     const EmbersQuery *query,
                     gint64             max_nodes)
{
  g_return_if_fail (EMBERS_IS_FILLER (self));

  cancel_run (self, FALSE);
  g_clear_handle_id (&self->auto_id, g_source_remove);
  g_clear_pointer (&self->query, embers_query_free);
  g_clear_pointer (&self->comparison, embers_query_free);
  self->query = query != NULL ? embers_query_copy (query) : NULL;
  self->max_nodes = max_nodes;
  g_hash_table_remove_all (self->asked);
  self->seen_focus = 0;
  self->seen_start = 0;
  self->seen_end = 1;
  if (self->n_filled != 0)
    {
      self->n_filled = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_FILLED]);
    }
}

void
embers_filler_reset_diff (EmbersFiller      *self,
                          const EmbersQuery *baseline,
                          const EmbersQuery *comparison,
                          gint64             max_nodes)
{
  g_return_if_fail (EMBERS_IS_FILLER (self));
  g_return_if_fail ((baseline == NULL) == (comparison == NULL));

  embers_filler_reset (self, baseline, max_nodes);
  self->comparison = comparison != NULL ? embers_query_copy (comparison) : NULL;
}

gboolean
embers_filler_can_load_more (EmbersFiller  *self,
                             guint32        view_node,
                             char         **why)
{
  g_auto(GStrv) site = NULL;

  g_return_val_if_fail (EMBERS_IS_FILLER (self), FALSE);

  site = site_for (self, view_node, why);
  return site != NULL;
}

gboolean
embers_filler_load_more (EmbersFiller *self,
                         guint32       view_node)
{
  g_autofree char *why = NULL;
  GPtrArray *sites;
  GStrv site;

  g_return_val_if_fail (EMBERS_IS_FILLER (self), FALSE);

  site = site_for (self, view_node, &why);
  if (site == NULL)
    {
      say (self, why, TRUE);
      return FALSE;
    }
  sites = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_ptr_array_add (sites, site);
  start_run (self, sites, TRUE);
  return TRUE;
}

typedef struct
{
  guint32 node;
  double  width;
} Wide;

static int
compare_wide (gconstpointer a,
              gconstpointer b)
{
  const Wide *wa = a, *wb = b;

  if (wa->width != wb->width)
    return wa->width > wb->width ? -1 : 1;
  return wa->node < wb->node ? -1 : wa->node > wb->node;
}

guint
embers_filler_fill_visible (EmbersFiller *self)
{
  EmbersLayout *layout;
  EmbersProfile *view;
  const EmbersViewport *viewport;
  g_autoptr(GArray) wide = NULL;
  g_autoptr(GHashTable) picked = NULL;
  GPtrArray *sites;
  guint n_rects;

  g_return_val_if_fail (EMBERS_IS_FILLER (self), 0);

  if (self->graph == NULL || self->query == NULL || self->restoring)
    return 0;
  layout = embers_flame_graph_get_layout (self->graph);
  if (layout == NULL)
    return 0;
  view = embers_layout_get_profile (layout);
  viewport = embers_layout_get_viewport (layout);
  n_rects = embers_layout_get_n_rects (layout);
  wide = g_array_new (FALSE, FALSE, sizeof (Wide));
  for (guint i = 0; i < n_rects; i++)
    {
      const EmbersRect *r = embers_layout_get_rect (layout, i);
      double left = MAX (r->x, 0), right = MIN (r->x + r->width, viewport->width);

      if ((r->flags & EMBERS_RECT_MERGED) || right - left < EMBERS_FILLER_MIN_WIDTH ||
          !embers_fill_is_other (view, r->node))
        continue;
      g_array_append_val (wide, ((Wide) { r->node, right - left }));
    }
  g_array_sort (wide, compare_wide);

  picked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  sites = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (guint i = 0; i < wide->len && sites->len < EMBERS_FILLER_MAX_AUTO; i++)
    {
      GStrv site = site_for (self, g_array_index (wide, Wide, i).node, NULL);
      char *key;

      if (site == NULL)
        continue;
      key = site_key ((const char * const *) site);
      if (g_hash_table_contains (self->asked, key) || g_hash_table_contains (picked, key))
        {
          g_free (key);
          g_strfreev (site);
          continue;
        }
      g_hash_table_add (picked, key);
      g_ptr_array_add (sites, site);
    }
  if (sites->len == 0)
    {
      g_ptr_array_unref (sites);
      return 0;
    }
  start_run (self, sites, FALSE);
  return self->sites != NULL ? self->sites->len : 0;
}

void
embers_filler_cancel (EmbersFiller *self)
{
  g_return_if_fail (EMBERS_IS_FILLER (self));

  cancel_run (self, TRUE);
}

gboolean
embers_filler_get_busy (EmbersFiller *self)
{
  g_return_val_if_fail (EMBERS_IS_FILLER (self), FALSE);
  return self->busy;
}

const char *
embers_filler_get_message (EmbersFiller *self)
{
  g_return_val_if_fail (EMBERS_IS_FILLER (self), NULL);
  return self->message;
}

guint
embers_filler_get_n_filled (EmbersFiller *self)
{
  g_return_val_if_fail (EMBERS_IS_FILLER (self), 0);
  return self->n_filled;
}

const char *
embers_filler_get_announcement (EmbersFiller *self,
                                gboolean     *delivered)
{
  g_return_val_if_fail (EMBERS_IS_FILLER (self), NULL);
  if (delivered != NULL)
    *delivered = self->announced;
  return self->announcement;
}
