/* embers-explore-page.c: a service's profiles over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-explore-page-private.h"

static const struct
{
  const char *label;
  gint64      seconds;
} presets[] = {
  /* Translators: short time range buttons: 15 minutes, 1 hour, 6 hours, 24 hours, 7 days */
  { N_("15m"), 15 * 60 },
  /* Translators: a short time range button: the last hour */
  { N_("1h"), 60 * 60 },
  /* Translators: a short time range button: the last 6 hours */
  { N_("6h"), 6 * 60 * 60 },
  /* Translators: a short time range button: the last 24 hours */
  { N_("24h"), 24 * 60 * 60 },
  /* Translators: a short time range button: the last 7 days */
  { N_("7d"), 7 * 24 * 60 * 60 },
};

G_STATIC_ASSERT (G_N_ELEMENTS (presets) == EMBERS_EXPLORE_N_PRESETS);

static void load_label_names (EmbersExplorePage *self);

static void filters_changed (EmbersExplorePage *self);

G_DEFINE_FINAL_TYPE (EmbersExplorePage, embers_explore_page, ADW_TYPE_BREAKPOINT_BIN)

GParamSpec *embers_explore_page_properties[EMBERS_EXPLORE_PAGE_N_PROPS];
guint embers_explore_page_signals[EMBERS_EXPLORE_PAGE_N_SIGNALS];

/* Requests: one cancellable per kind; a newer request cancels the older */

void
embers_explore_update_loading (EmbersExplorePage *self)
{
  gboolean loading = embers_explore_page_get_loading (self);

  gtk_widget_set_visible (self->spinner, loading);
  g_object_notify_by_pspec (G_OBJECT (self), embers_explore_page_properties[EMBERS_EXPLORE_PAGE_PROP_LOADING]);
}

EmbersRequest *
embers_explore_request_start (EmbersExplorePage *self,
               RequestKind        kind)
{
  EmbersRequest *req = embers_request_start (self, &self->cancellables[kind], kind);

  g_clear_pointer (&self->errors[kind], g_free);
  embers_explore_update_loading (self);
  return req;
}

void
embers_explore_request_cancel (EmbersExplorePage *self,
                RequestKind        kind)
{
  embers_request_cancel (&self->cancellables[kind]);
  g_clear_pointer (&self->errors[kind], g_free);
}

/* TRUE when the answer is the newest of its kind (then it is done) */
gboolean
embers_explore_request_finish (EmbersRequest *req)
{
  if (!embers_request_finish (req))
    return FALSE;
  embers_explore_update_loading (req->owner);
  return TRUE;
}

void
embers_explore_set_error (EmbersExplorePage *self,
           RequestKind        kind,
           const GError      *error)
{
  g_free (self->errors[kind]);
  self->errors[kind] = g_strdup (error->message);
}

/* Queries */

static EmbersSelector *
build_selector (EmbersExplorePage *self)
{
  EmbersSelector *selector = embers_selector_copy (embers_filter_bar_get_filters (self->filter_bar));

  if (self->service != NULL)
    {
      embers_selector_remove (selector, SERVICE_LABEL);
      embers_selector_add (selector, SERVICE_LABEL, EMBERS_MATCH_EQUAL, self->service, NULL);
    }
  return selector;
}

static void
update_range (EmbersExplorePage *self)
{
  if (self->preset_s > 0)
    {
      self->end_ms = g_get_real_time () / 1000;
      self->start_ms = self->end_ms - self->preset_s * 1000;
    }
}

static void
show_range (EmbersExplorePage *self)
{
  g_autofree char *from = embers_query_url_format_local_time (self->start_ms);
  g_autofree char *to = embers_query_url_format_local_time (self->end_ms);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *zone = g_date_time_format (now, "%Z (UTC%:z)");

  /* The entries act on Enter only; the buttons' toggles find the preset
   * theirs already (preset_toggled) */
  gtk_editable_set_text (GTK_EDITABLE (self->from_entry), from);
  gtk_editable_set_text (GTK_EDITABLE (self->to_entry), to);
  gtk_label_set_text (self->zone_label, zone);
  {
    g_autoptr(GDateTime) a = g_date_time_new_from_unix_local (self->start_ms / 1000);
    g_autoptr(GDateTime) b = g_date_time_new_from_unix_local (self->end_ms / 1000);
    /* The time alone within today, else the day too */
    gboolean today = a != NULL && b != NULL &&
                     g_date_time_get_year (a) == g_date_time_get_year (now) &&
                     g_date_time_get_day_of_year (a) == g_date_time_get_day_of_year (now) &&
                     g_date_time_get_year (b) == g_date_time_get_year (now) &&
                     g_date_time_get_day_of_year (b) == g_date_time_get_day_of_year (now);
    const char *format = today ? "%H:%M" : "%m-%d %H:%M";
    g_autofree char *short_a = a != NULL ? g_date_time_format (a, format) : g_strdup ("?");
    g_autofree char *short_b = b != NULL ? g_date_time_format (b, format) : g_strdup ("?");
    g_autofree char *label = g_strdup_printf ("%s – %s", short_a, short_b);
    g_autofree char *tip = g_strdup_printf ("%s – %s %s", from, to, zone);

    gtk_label_set_text (self->range_label, label);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->range_button), tip);
  }
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    gtk_toggle_button_set_active (self->preset_buttons[i], presets[i].seconds == self->preset_s);
}

/* Services */

void
embers_explore_set_title (EmbersExplorePage *self)
{
  /* The source's name changes as it loads ("Loading local profiles…",
   * then "6 local profiles") */
  g_free (self->source_name);
  self->source_name = embers_source_dup_display_name (self->source);
  if (self->source_name == NULL)
    self->source_name = g_strdup (_("Profiles"));
  g_free (self->title);
  if (self->service != NULL)
    self->title = g_strdup_printf ("%s — %s", self->service, self->source_name);
  else
    self->title = g_strdup (self->source_name);
  g_object_notify_by_pspec (G_OBJECT (self), embers_explore_page_properties[EMBERS_EXPLORE_PAGE_PROP_TITLE]);
}

/* The workspace's query model follows what the page asks for, and the
 * page follows the model when another view changes it. Each side only
 * writes what differs, so neither loops back. */
void
embers_explore_push_model (EmbersExplorePage *self)
{
  EmbersQueryModel *model = self->model;

  if (model == NULL)
    return;
  embers_query_model_begin_update (model);
  embers_query_model_set_service (model, self->service);
  embers_query_model_set_profile_type (model, self->profile_type);
  embers_query_model_set_filters (model, embers_filter_bar_get_filters (self->filter_bar));
  if (self->preset_s > 0)
    embers_query_model_set_preset_at (model, self->preset_s, self->end_ms);
  else if (self->start_ms < self->end_ms)
    embers_query_model_set_time_range (model, self->start_ms, self->end_ms);
  embers_query_model_end_update (model);
}

static void
apply_model (EmbersExplorePage *self)
{
  EmbersQueryModel *model = self->model;
  const char *service = embers_query_model_get_service (model);
  const char *type = embers_query_model_get_profile_type (model);
  gint64 preset = embers_query_model_get_preset (model);
  g_autofree char *filters = embers_selector_to_string (embers_query_model_get_filters (model));
  g_autofree char *shown = embers_selector_to_string (embers_filter_bar_get_filters (self->filter_bar));
  gboolean range_changed, service_changed, type_changed, filters_changed_here;

  range_changed = preset != self->preset_s ||
                  embers_query_model_get_start_ms (model) != self->start_ms ||
                  embers_query_model_get_end_ms (model) != self->end_ms;
  service_changed = service != NULL && g_strcmp0 (service, self->service) != 0;
  type_changed = type != NULL && g_strcmp0 (type, self->profile_type) != 0;

  if (service_changed)
    {
      g_free (self->service);
      self->service = g_strdup (service);
      g_clear_pointer (&self->restore_path, g_ptr_array_unref);
      embers_explore_set_title (self);
    }
  if (type_changed)
    {
      g_free (self->profile_type);
      self->profile_type = g_strdup (type);
    }
  if (range_changed)
    {
      self->preset_s = preset;
      self->start_ms = embers_query_model_get_start_ms (model);
      self->end_ms = embers_query_model_get_end_ms (model);
      show_range (self);
    }
  /* The bar shows the filters (setting them emits nothing: the page asks
   * again below, with everything above in place) */
  filters_changed_here = g_strcmp0 (filters, shown) != 0;
  if (filters_changed_here)
    embers_filter_bar_set_filters (self->filter_bar, embers_query_model_get_filters (model));

  if (range_changed)
    embers_explore_load_services (self);
  else if (service_changed || type_changed)
    {
      /* The list shows the service picked elsewhere */
      for (guint i = 0; service_changed && i < g_list_model_get_n_items (G_LIST_MODEL (self->services)); i++)
        if (g_str_equal (gtk_string_list_get_string (self->services, i), self->service))
          gtk_single_selection_set_selected (self->selection, i);
      embers_explore_fill_types (self);
      embers_explore_reload_queries (self);
    }
  else if (filters_changed_here)
    filters_changed (self);
}

void
embers_explore_page_set_query_model (EmbersExplorePage *self,
                                     EmbersQueryModel  *model)
{
  g_return_if_fail (EMBERS_IS_EXPLORE_PAGE (self));
  g_return_if_fail (model == NULL || EMBERS_IS_QUERY_MODEL (model));

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, apply_model, self);
  g_set_object (&self->model, model);
  if (model != NULL)
    {
      g_signal_connect_object (model, "changed", G_CALLBACK (apply_model), self, G_CONNECT_SWAPPED);
      embers_explore_push_model (self);
    }
}

EmbersQueryModel *
embers_explore_page_get_query_model (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  return self->model;
}

/* Label filters: the filter bar offers this service's labels */

static void
load_label_names (EmbersExplorePage *self)
{
  g_autofree char *quoted = NULL;
  g_autofree char *scope = NULL;

  if (self->service == NULL)
    return;
  quoted = embers_selector_quote (self->service);
  scope = g_strdup_printf ("{" SERVICE_LABEL "=%s}", quoted);
  embers_filter_bar_set_scope (self->filter_bar, scope, self->start_ms, self->end_ms);
}

static void
filters_changed (EmbersExplorePage *self)
{
  g_clear_pointer (&self->restore_path, g_ptr_array_unref);
  embers_explore_load_chart (self);
  embers_explore_load_profile (self);
}

/* Chart */

/* A panel asking for the query on screen: its old answer dimmed under the
 * range being loaded */
void
embers_explore_show_loading (EmbersExplorePage *self,
              EmbersStatus      *panel)
{
  g_autofree char *from = embers_query_url_format_local_time (self->start_ms);
  g_autofree char *to = embers_query_url_format_local_time (self->end_ms);
  /* Translators: over a chart or a flame graph while it loads: the time
   * range asked for, from and to */
  g_autofree char *text = g_strdup_printf (_("Loading %s – %s…"), from, to);

  embers_status_show_loading (panel, text);
}

/* Flame graph */

static GPtrArray *
focus_path (EmbersProfilePage *page)
{
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (page);
  EmbersProfile *profile = graph != NULL ? embers_flame_graph_get_profile (graph) : NULL;
  GPtrArray *path;
  guint32 node;

  if (profile == NULL)
    return NULL;
  node = embers_flame_graph_get_focus_node (graph);
  if (node == 0 || node == EMBERS_NODE_NONE)
    return NULL;
  path = g_ptr_array_new_with_free_func (g_free);
  for (; node != 0 && node != EMBERS_NODE_NONE; node = embers_profile_node_parent (profile, node))
    g_ptr_array_insert (path, 0, g_strdup (embers_profile_node_name_str (profile, node)));
  return path;
}

static void
restore_focus (EmbersExplorePage *self)
{
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (self->profile_page);
  EmbersProfile *profile;
  guint32 node = 0;
  guint depth = 0;

  if (self->restore_path == NULL || embers_profile_page_get_busy (self->profile_page) || graph == NULL)
    return;
  profile = embers_flame_graph_get_profile (graph);
  if (profile == NULL)
    return;

  /* Walk down: the child of node named path[depth] */
  while (depth < self->restore_path->len)
    {
      const char *want = g_ptr_array_index (self->restore_path, depth);
      guint32 end = embers_profile_node_end (profile, node);
      guint32 child = node + 1;
      gboolean found = FALSE;

      while (child < end)
        {
          if (g_str_equal (embers_profile_node_name_str (profile, child), want))
            {
              found = TRUE;
              break;
            }
          child = embers_profile_node_end (profile, child);
        }
      if (!found)
        break;
      node = child;
      depth++;
    }
  g_clear_pointer (&self->restore_path, g_ptr_array_unref);
  if (node != 0)
    {
      embers_flame_graph_set_focus_node (graph, node);
      embers_flame_graph_set_selected_node (graph, node);
    }
}

void
embers_explore_profile_show_status (EmbersExplorePage *self,
                     const char        *icon,
                     const char        *title,
                     const char        *description,
                     gboolean           retry)
{
  embers_status_show_message (self->profile_stack, icon, title, description, retry);
}

static void
profile_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersExplorePage *self = req->owner;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  profile = embers_source_merge_profile_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_explore_request_finish (req))
    return;
  if (profile == NULL)
    {
      embers_explore_set_error (self, REQ_PROFILE, error);
      embers_explore_profile_show_status (self, "dialog-error-symbolic", _("Could Not Load the Flame Graph"),
                           error->message, TRUE);
      return;
    }
  if (embers_profile_get_n_nodes (profile) <= 1)
    {
      embers_explore_profile_show_status (self, "folder-open-symbolic", _("No Samples"),
                           _("No profile matches this selection in this time range."), FALSE);
      return;
    }
  /* Source roots are the service's, on this server */
  {
    g_autofree char *location = embers_source_dup_location (self->source);
    g_autofree char *key = g_strdup_printf ("%s %s", location != NULL ? location : "",
                                            self->service != NULL ? self->service : "");

    embers_details_panel_set_source_key (embers_profile_page_get_details_panel (self->profile_page), key);
  }
  embers_profile_page_set_profile (self->profile_page, profile, self->title);
  embers_status_show_content (self->profile_stack);
  restore_focus (self);
}

/* The budget the answer was cut at (0: the server's default) */
static gint64
filler_max_nodes (EmbersExplorePage *self)
{
  if (EMBERS_IS_PYROSCOPE_SOURCE (self->source))
    return embers_pyroscope_source_get_max_nodes (EMBERS_PYROSCOPE_SOURCE (self->source));
  return 0;
}

void
embers_explore_load_profile (EmbersExplorePage *self)
{
  g_autoptr(EmbersQuery) query = embers_explore_page_dup_query (self);
  EmbersRequest *req;

  if (query == NULL)
    {
      if (self->filler != NULL)
        embers_filler_reset (self->filler, NULL, 0);
      embers_explore_request_cancel (self, REQ_PROFILE);
      embers_explore_update_loading (self);
      embers_explore_profile_show_status (self, "view-list-symbolic", _("Pick a Service"),
                           _("Choose a service on the left to see its flame graph."), FALSE);
      return;
    }
  /* One profile picked on the chart: that profile alone */
  if (embers_profiles_bar_get_picked_id (self->profiles_bar) != NULL)
    {
      const char *ids[] = { embers_profiles_bar_get_picked_id (self->profiles_bar), NULL };

      query->profile_ids = g_strdupv ((char **) ids);
    }
  req = embers_explore_request_start (self, REQ_PROFILE);
  if (self->filler != NULL)
    embers_filler_reset (self->filler, query, filler_max_nodes (self));
  embers_explore_show_loading (self, self->profile_stack);
  embers_source_merge_profile (self->source, query, req->cancellable, profile_done, req);
}

void
embers_explore_reload_queries (EmbersExplorePage *self)
{
  load_label_names (self);
  embers_explore_load_chart (self);
  embers_explore_load_profile (self);
}

/* Time range widgets */

static void
preset_toggled (GtkToggleButton   *button,
                EmbersExplorePage *self)
{
  gint64 seconds = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "seconds"));

  /* A button let go (GTK keeps a grouped button on when clicked again:
   * only another one's turning on, or the range's, lets it go), or the
   * page's preset already (show_range): nothing changes */
  if (!gtk_toggle_button_get_active (button) || self->preset_s == seconds)
    return;
  embers_explore_page_set_preset (self, seconds);
}

static gboolean
parse_entry_time (GtkEntry *entry,
                  gint64   *out_ms)
{
  return embers_query_url_parse_local_time (gtk_editable_get_text (GTK_EDITABLE (entry)),
                                            g_get_real_time () / 1000, out_ms, NULL);
}

static void
range_entry_activated (EmbersExplorePage *self)
{
  gint64 from, to;
  gboolean ok_from = parse_entry_time (self->from_entry, &from);
  gboolean ok_to = parse_entry_time (self->to_entry, &to);

  if (ok_from)
    gtk_widget_remove_css_class (GTK_WIDGET (self->from_entry), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->from_entry), "error");
  if (ok_to)
    gtk_widget_remove_css_class (GTK_WIDGET (self->to_entry), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->to_entry), "error");
  if (!ok_from || !ok_to || from >= to)
    return;
  gtk_menu_button_popdown (self->range_button);
  embers_explore_page_set_time_range (self, from, to);
}

/* Building the widgets */

/* What the template leaves to code: the presets' tooltips and seconds,
 * the type drop-down's shortened button, and names for the drop-down's
 * button and the range button's label where the page is small */
static void
build_toolbar (EmbersExplorePage *self)
{
  g_auto(GValue) no = G_VALUE_INIT;
  g_auto(GValue) yes = G_VALUE_INIT;

  embers_drop_down_shorten_on_button (self->type_dropdown);
  embers_accessible_set_label (GTK_WIDGET (self->type_dropdown), _("Profile Type"));
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      g_autofree char *tip = g_strdup_printf (_("The last %s"), _(presets[i].label));

      gtk_widget_set_tooltip_text (GTK_WIDGET (self->preset_buttons[i]), tip);
      g_object_set_data (G_OBJECT (self->preset_buttons[i]), "seconds", GINT_TO_POINTER ((int)presets[i].seconds));
    }
  /* 600 px and narrower: a calendar on the range button, not the range */
  g_value_init (&no, G_TYPE_BOOLEAN);
  g_value_init (&yes, G_TYPE_BOOLEAN);
  g_value_set_boolean (&yes, TRUE);
  adw_breakpoint_add_setter (self->narrow_breakpoint, G_OBJECT (self->range_label), "visible", &no);
  adw_breakpoint_add_setter (self->narrow_breakpoint, G_OBJECT (self->range_icon), "visible", &yes);
  adw_breakpoint_add_setter (self->small_breakpoint, G_OBJECT (self->range_label), "visible", &no);
  adw_breakpoint_add_setter (self->small_breakpoint, G_OBJECT (self->range_icon), "visible", &yes);
  /* 600 x 500, one row: the calendar alone, no arrow */
  adw_breakpoint_add_setter (self->small_breakpoint, G_OBJECT (self->range_button), "always-show-arrow", &no);
}

static void
build_filter_bar (EmbersExplorePage *self)
{
  g_signal_connect_object (self->filter_bar, "changed", G_CALLBACK (filters_changed), self, G_CONNECT_SWAPPED);
}

/* ---- Function details: lines from the server ---- */

static void
details_pprof_done (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersExplorePage *self = req->owner;
  EmbersDetailsPanel *panel = embers_profile_page_get_details_panel (self->profile_page);
  g_autoptr(GBytes) pprof = NULL;
  g_autoptr(GError) error = NULL;

  pprof = embers_pyroscope_source_fetch_pprof_finish (EMBERS_PYROSCOPE_SOURCE (object), result, &error);

  /* Without it the panel keeps what the flame graph knows; given it, the
   * panel is busy with it before it lets go of the fetch */
  if (embers_request_finish (req) && pprof != NULL)
    embers_details_panel_set_pprof (panel, req->name, pprof, 0);
  embers_details_panel_release (panel);
}

/* The panel shows a function, or another frame of it: the merged pprof
 * of the stacks through that call site (the selected frame's, else the
 * function's heaviest; the profile page chooses) has its lines */
static void
on_details_function (EmbersExplorePage *self)
{
  EmbersDetailsPanel *panel = embers_profile_page_get_details_panel (self->profile_page);
  const char * const *site = embers_details_panel_get_call_site (panel);
  const char *name = embers_details_panel_get_function (panel);
  g_autoptr(EmbersQuery) query = NULL;
  EmbersRequest *req;

  embers_request_cancel (&self->details_cancellable);
  if (!EMBERS_IS_PYROSCOPE_SOURCE (self->source) || site == NULL || site[0] == NULL || name == NULL)
    return;
  /* A transformed view's paths are not the server's call sites: the
   * panel says so rather than show another call site's lines */
  if (!embers_details_panel_can_query_call_site (panel))
    return;

  query = embers_explore_page_dup_query (self);
  req = embers_request_start (self, &self->details_cancellable, 0);
  req->name = g_strdup (name);
  embers_details_panel_hold (panel);
  embers_pyroscope_source_fetch_call_site_pprof_async (EMBERS_PYROSCOPE_SOURCE (self->source), query, site,
                                                       req->cancellable, details_pprof_done, req);
}

static void
build_profile (EmbersExplorePage *self)
{
  self->profile_page = embers_profile_page_new ();
  embers_status_set_content (self->profile_stack, GTK_WIDGET (self->profile_page));
  g_signal_connect_object (self->profile_stack, "retry", G_CALLBACK (embers_explore_page_retry), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->profile_page, "notify::busy", G_CALLBACK (restore_focus), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (embers_profile_page_get_details_panel (self->profile_page), "notify::call-site",
                           G_CALLBACK (on_details_function), self, G_CONNECT_SWAPPED);
}

/* GObject */

static void
embers_explore_page_dispose (GObject *object)
{
  EmbersExplorePage *self = EMBERS_EXPLORE_PAGE (object);

  for (guint i = 0; i < N_REQ; i++)
    {
      embers_request_cancel (&self->cancellables[i]);
      g_clear_pointer (&self->errors[i], g_free);
    }
  embers_request_cancel (&self->details_cancellable);
  /* The profile page may outlive this page for a moment (its transforms
   * hold it): it no longer talks to it */
  if (self->profile_page != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->profile_page, self);
      g_signal_handlers_disconnect_by_data (embers_profile_page_get_details_panel (self->profile_page), self);
    }
  self->profile_page = NULL;
  g_clear_object (&self->filler);
  /* The bin lets go of its child before the template does */
  adw_breakpoint_bin_set_child (ADW_BREAKPOINT_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_EXPLORE_PAGE);
  g_clear_object (&self->source);
  g_clear_object (&self->model);
  g_clear_object (&self->services);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->service_types, g_hash_table_unref);
  g_clear_pointer (&self->type_ids, g_ptr_array_unref);
  g_clear_pointer (&self->chart, embers_chart_unref);
  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_clear_pointer (&self->restore_path, g_ptr_array_unref);

  g_clear_object (&self->max_nodes);

  G_OBJECT_CLASS (embers_explore_page_parent_class)->dispose (object);
}

static void
embers_explore_page_finalize (GObject *object)
{
  EmbersExplorePage *self = EMBERS_EXPLORE_PAGE (object);

  g_free (self->source_name);
  g_free (self->title);
  g_free (self->service);
  g_free (self->profile_type);

  G_OBJECT_CLASS (embers_explore_page_parent_class)->finalize (object);
}

static void
embers_explore_page_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  EmbersExplorePage *self = EMBERS_EXPLORE_PAGE (object);

  switch (prop_id)
    {
    case EMBERS_EXPLORE_PAGE_PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case EMBERS_EXPLORE_PAGE_PROP_LOADING:
      g_value_set_boolean (value, embers_explore_page_get_loading (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The workspace's Recording Rules view (the page never calls up into the
 * window: the workspace around it has the views) */
/* Load More (the frame menu, L): what the selected `other` frame holds,
 * or the `other` under the selected frame */
static void
load_more_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  EmbersExplorePage *self = EMBERS_EXPLORE_PAGE (widget);
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (self->profile_page);

  if (graph != NULL && self->filler != NULL)
    embers_filler_load_more (self->filler, embers_flame_graph_get_selected_node (graph));
}

EmbersFiller *
embers_explore_page_get_filler (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  return self->filler;
}

/* Show Over Time: the selected frame's call site over the tab's range;
 * a range chosen on its charts becomes the tab's */
static void
on_over_time_range (EmbersOverTimeDialog *dialog,
                    gint64                start_ms,
                    gint64                end_ms,
                    EmbersExplorePage    *self)
{
  embers_explore_page_set_time_range (self, start_ms, end_ms);
}

EmbersOverTimeDialog *
embers_explore_page_show_over_time (EmbersExplorePage *self)
{
  g_auto(GStrv) call_site = NULL;
  g_autofree char *selector = NULL;
  g_autoptr(EmbersQuery) query = NULL;
  EmbersOverTimeDialog *dialog;

  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);

  call_site = embers_profile_page_dup_selected_call_site (self->profile_page);
  if (call_site == NULL || self->profile_type == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      gtk_widget_activate_action (GTK_WIDGET (self), "win.show-toast", "s",
                                  _("Select a frame of the top-down graph or call tree, without transforms, "
                                    "to show it over time"));
      return NULL;
    }
  selector = embers_explore_page_dup_selector (self);
  query = embers_query_new (self->profile_type, selector, self->start_ms, self->end_ms);
  dialog = embers_over_time_dialog_new (self->source, query, (const char * const *) call_site);
  g_signal_connect_object (dialog, "range-selected", G_CALLBACK (on_over_time_range), self, 0);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (self));
  return dialog;
}

static void
over_time_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  embers_explore_page_show_over_time (EMBERS_EXPLORE_PAGE (widget));
}

static void
embers_explore_page_class_init (EmbersExplorePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_explore_page_dispose;
  object_class->finalize = embers_explore_page_finalize;
  object_class->get_property = embers_explore_page_get_property;

  gtk_widget_class_install_action (widget_class, "explore.create-rule", NULL, embers_explore_create_rule_action);
  gtk_widget_class_install_action (widget_class, "explore.show-over-time", NULL, over_time_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, 0, "explore.show-over-time", NULL);
  gtk_widget_class_install_action (widget_class, "explore.show-rules", NULL, embers_explore_show_rules_action);
  gtk_widget_class_install_action (widget_class, "explore.refresh", NULL, embers_explore_refresh_action);
  gtk_widget_class_install_action (widget_class, "explore.load-more", NULL, load_more_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "explore.create-rule", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "explore.refresh", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "explore.refresh", NULL);
  gtk_widget_class_install_action (widget_class, "explore.labels", NULL, embers_explore_labels_action);
  gtk_widget_class_install_action (widget_class, "explore.services", NULL, embers_explore_services_action);
  gtk_widget_class_install_action (widget_class, "explore.compare", NULL, embers_explore_compare_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "explore.services", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_b, GDK_CONTROL_MASK, "explore.labels", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "explore.compare", NULL);

  embers_explore_page_properties[EMBERS_EXPLORE_PAGE_PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  embers_explore_page_properties[EMBERS_EXPLORE_PAGE_PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, EMBERS_EXPLORE_PAGE_N_PROPS, embers_explore_page_properties);

  embers_explore_page_signals[EMBERS_EXPLORE_PAGE_SIGNAL_COMPARE_REQUESTED] =
    g_signal_new ("compare-requested",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, EMBERS_TYPE_QUERY, EMBERS_TYPE_QUERY);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/emberslab/Embers/embers-explore-page.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, split_view);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, toolbar_start);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, services_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, services_view);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, spinner);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, compare_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, actions_box);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, more_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, services_status);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, services_retry);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, small_breakpoint);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, narrow_breakpoint);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, type_names);
  gtk_widget_class_bind_template_child_full (widget_class, "preset_15m", FALSE,
                                             G_STRUCT_OFFSET (EmbersExplorePage, preset_buttons[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "preset_1h", FALSE,
                                             G_STRUCT_OFFSET (EmbersExplorePage, preset_buttons[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "preset_6h", FALSE,
                                             G_STRUCT_OFFSET (EmbersExplorePage, preset_buttons[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "preset_24h", FALSE,
                                             G_STRUCT_OFFSET (EmbersExplorePage, preset_buttons[3]));
  gtk_widget_class_bind_template_child_full (widget_class, "preset_7d", FALSE,
                                             G_STRUCT_OFFSET (EmbersExplorePage, preset_buttons[4]));
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, range_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, range_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, range_icon);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, time_box);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, from_entry);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, to_entry);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, zone_label);
  gtk_widget_class_bind_template_callback (widget_class, embers_explore_type_selected);
  gtk_widget_class_bind_template_callback (widget_class, preset_toggled);
  gtk_widget_class_bind_template_callback (widget_class, range_entry_activated);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, chart_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersExplorePage, profile_stack);
  gtk_widget_class_set_css_name (widget_class, "explorepage");
}

static void
embers_explore_page_init (EmbersExplorePage *self)
{
  GtkListItemFactory *factory;

  g_type_ensure (EMBERS_TYPE_PROFILE_PAGE);
  g_type_ensure (EMBERS_TYPE_FILTER_BAR);
  g_type_ensure (EMBERS_TYPE_STATUS);
  gtk_widget_init_template (GTK_WIDGET (self));

  self->service_types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_strfreev);
  self->type_ids = g_ptr_array_new_with_free_func (g_free);
  self->preset_s = DEFAULT_PRESET_S;

  self->services = gtk_string_list_new (NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->services)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (embers_explore_service_selected), self);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (embers_explore_setup_service_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (embers_explore_bind_service_row), self);
  gtk_list_view_set_model (self->services_view, GTK_SELECTION_MODEL (g_object_ref (self->selection)));
  gtk_list_view_set_factory (self->services_view, factory);
  g_object_unref (factory);
  g_signal_connect_swapped (self->services_retry, "clicked", G_CALLBACK (embers_explore_load_services), self);

  build_toolbar (self);
  build_filter_bar (self);
  embers_explore_build_chart (self);
  build_profile (self);
}

EmbersExplorePage *
embers_explore_page_new (EmbersSource *source)
{
  EmbersExplorePage *self;

  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);

  self = g_object_new (EMBERS_TYPE_EXPLORE_PAGE, NULL);
  self->source = g_object_ref (source);
  self->filler = embers_filler_new (source, self->profile_page, self->profile_stack);
  embers_filter_bar_set_source (self->filter_bar, source);
  self->source_name = embers_source_dup_display_name (source);
  if (self->source_name == NULL)
    self->source_name = g_strdup (_("Profiles"));
  embers_explore_set_title (self);
  embers_explore_add_max_nodes (self);
  embers_explore_add_rules_buttons (self);
  embers_explore_build_more_menu (self);
  update_range (self);
  show_range (self);
  embers_explore_load_profile (self);
  embers_explore_load_services (self);
  return self;
}

EmbersSource *
embers_explore_page_get_source (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  return self->source;
}

const char *
embers_explore_page_get_title (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  return self->title;
}

EmbersProfilePage *
embers_explore_page_get_profile_page (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  return self->profile_page;
}

gboolean
embers_explore_page_add_filter (EmbersExplorePage *self,
                                const char        *name,
                                EmbersMatchOp      op,
                                const char        *value,
                                GError           **error)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), FALSE);
  return embers_filter_bar_add_filter (self->filter_bar, name, op, value, error);
}

void
embers_explore_page_remove_filter (EmbersExplorePage *self,
                                   const char        *name)
{
  g_return_if_fail (EMBERS_IS_EXPLORE_PAGE (self));
  embers_filter_bar_remove_filter (self->filter_bar, name);
}

char *
embers_explore_page_dup_selector (EmbersExplorePage *self)
{
  g_autoptr(EmbersSelector) selector = NULL;

  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  selector = build_selector (self);
  return embers_selector_to_string (selector);
}

EmbersQuery *
embers_explore_page_dup_query (EmbersExplorePage *self)
{
  g_autofree char *selector = NULL;

  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);

  if (self->service == NULL || self->profile_type == NULL)
    return NULL;
  selector = embers_explore_page_dup_selector (self);
  return embers_query_new (self->profile_type, selector, self->start_ms, self->end_ms);
}

void
embers_explore_page_set_preset (EmbersExplorePage *self,
                                gint64             seconds)
{
  g_return_if_fail (EMBERS_IS_EXPLORE_PAGE (self));
  g_return_if_fail (seconds > 0);

  self->preset_s = seconds;
  update_range (self);
  show_range (self);
  embers_explore_load_services (self);
}

gint64
embers_explore_page_get_preset (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), 0);

  return self->preset_s;
}

void
embers_explore_page_set_time_range (EmbersExplorePage *self,
                                    gint64             start_ms,
                                    gint64             end_ms)
{
  g_return_if_fail (EMBERS_IS_EXPLORE_PAGE (self));
  g_return_if_fail (start_ms < end_ms);

  self->preset_s = 0;
  self->start_ms = start_ms;
  self->end_ms = end_ms;
  show_range (self);
  embers_explore_load_services (self);
}

void
embers_explore_page_get_time_range (EmbersExplorePage *self,
                                    gint64            *start_ms,
                                    gint64            *end_ms)
{
  g_return_if_fail (EMBERS_IS_EXPLORE_PAGE (self));
  if (start_ms != NULL)
    *start_ms = self->start_ms;
  if (end_ms != NULL)
    *end_ms = self->end_ms;
}

void
embers_explore_page_refresh (EmbersExplorePage *self)
{
  g_return_if_fail (EMBERS_IS_EXPLORE_PAGE (self));

  g_clear_pointer (&self->restore_path, g_ptr_array_unref);
  self->restore_path = focus_path (self->profile_page);
  update_range (self);
  show_range (self);
  embers_explore_load_services (self);
}

void
embers_explore_page_retry (EmbersExplorePage *self)
{
  g_return_if_fail (EMBERS_IS_EXPLORE_PAGE (self));

  if (self->errors[REQ_SERVICES] != NULL)
    embers_explore_load_services (self);
  else
    {
      if (self->errors[REQ_CHART] != NULL)
        embers_explore_load_chart (self);
      if (self->errors[REQ_PROFILE] != NULL)
        embers_explore_load_profile (self);
    }
}

gboolean
embers_explore_page_get_loading (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), FALSE);

  for (guint i = 0; i < N_REQ; i++)
    if (self->cancellables[i] != NULL)
      return TRUE;
  return FALSE;
}

const char *
embers_explore_page_get_error (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);

  if (self->errors[REQ_SERVICES] != NULL)
    return self->errors[REQ_SERVICES];
  if (self->errors[REQ_PROFILE] != NULL)
    return self->errors[REQ_PROFILE];
  return self->errors[REQ_CHART];
}

/* The heaviest individual profiles and the one picked */
EmbersProfilesBar *
embers_explore_page_get_profiles_bar (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);

  return self->profiles_bar;
}
