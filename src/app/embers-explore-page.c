/* embers-explore-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-accessible.h"
#include "embers-chart.h"
#include "embers-drop-down.h"
#include "embers-explore-page.h"
#include "embers-explore-profiles.h"
#include "embers-over-time-dialog.h"
#include "embers-theme.h"
#include "embers-filter-bar.h"
#include "embers-pyroscope-source.h"
#include "embers-rule-dialog.h"
#include "embers-filler.h"
#include "embers-flame-graph.h"
#include "embers-query-url.h"
#include "embers-status.h"
#include "embers-request.h"

#define DEFAULT_PRESET_S (60 * 60)
#define SERVICE_LABEL    "service_name"
#define TYPE_LABEL       "__profile_type__"

typedef enum
{
  REQ_SERVICES,
  REQ_CHART,
  REQ_PROFILE,
  N_REQ
} RequestKind;

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

struct _EmbersExplorePage
{
  AdwBreakpointBin   parent_instance;

  /* Template */
  AdwOverlaySplitView *split_view;
  GtkStack          *services_stack;
  GtkListView       *services_view;
  AdwStatusPage     *services_status;
  GtkButton         *services_retry;
  GtkBox            *toolbar_start;
  GtkBox            *toolbar;
  EmbersFilterBar   *filter_bar;
  EmbersStatus      *chart_stack;     /* the chart, loading or a message */
  EmbersStatus      *profile_stack;   /* the flame graph and table, likewise */
  GtkWidget         *spinner;
  GtkButton         *compare_button;
  GtkBox            *actions_box;     /* wide: Nodes, refresh, Compare…, Labels, Rules */
  GtkMenuButton     *more_button;     /* narrow: refresh and this menu instead */

  /* Built in code */
  GtkDropDown       *type_dropdown;
  GtkStringList     *type_names;      /* shown */
  GPtrArray         *type_ids;        /* char *, parallel to type_names */
  GtkToggleButton   *preset_buttons[G_N_ELEMENTS (presets)];
  GtkEntry          *from_entry;
  GtkEntry          *to_entry;
  GtkLabel          *zone_label;
  GtkAdjustment     *max_nodes;
  GtkBox            *chips;
  GtkBox            *time_box;
  GtkDrawingArea    *chart_area;
  EmbersProfilePage *profile_page;
  EmbersFiller      *filler;          /* Load More: `other` filled in */

  EmbersSource      *source;
  EmbersQueryModel  *model;           /* the workspace's query, or NULL */
  char              *source_name;
  char              *title;
  GtkStringList     *services;
  GtkSingleSelection *selection;
  GHashTable        *service_types;   /* service -> GStrv of type ids */
  char              *service;
  char              *profile_type;
  gint64             preset_s;        /* 0: absolute */
  gint64             start_ms;
  gint64             end_ms;

  GCancellable      *cancellables[N_REQ];
  char              *errors[N_REQ];

  EmbersChart       *chart;
  GPtrArray         *series;
  EmbersProfilesBar *profiles_bar;    /* the heaviest profiles, one picked */
  char              *picked_scope;    /* the query the pick was made in */
  double             drag_x;
  double             drag_y;
  gboolean           dragging;

  /* Refresh keeps the focused frame: its name path from the root */
  GPtrArray         *restore_path;

  gboolean           syncing;
};

G_DEFINE_FINAL_TYPE (EmbersExplorePage, embers_explore_page, ADW_TYPE_BREAKPOINT_BIN)

enum
{
  PROP_0,
  PROP_TITLE,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_COMPARE_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void reload_queries (EmbersExplorePage *self);
static void filters_changed   (EmbersExplorePage *self);
static void load_label_names  (EmbersExplorePage *self);
static void show_loading   (EmbersExplorePage *self,
                            EmbersStatus      *panel);
static void chart_show_status   (EmbersExplorePage *self,
                                 const char        *title,
                                 const char        *description,
                                 gboolean           retry);
static void profile_show_status (EmbersExplorePage *self,
                                 const char        *icon,
                                 const char        *title,
                                 const char        *description,
                                 gboolean           retry);
static void load_services  (EmbersExplorePage *self);
static void load_chart     (EmbersExplorePage *self);
static void load_profile   (EmbersExplorePage *self);

/* Requests: one cancellable per kind; a newer request cancels the older */

static void
update_loading (EmbersExplorePage *self)
{
  gboolean loading = embers_explore_page_get_loading (self);

  gtk_widget_set_visible (self->spinner, loading);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static EmbersRequest *
request_start (EmbersExplorePage *self,
               RequestKind        kind)
{
  EmbersRequest *req = embers_request_start (self, &self->cancellables[kind], kind);

  g_clear_pointer (&self->errors[kind], g_free);
  update_loading (self);
  return req;
}

static void
request_cancel (EmbersExplorePage *self,
                RequestKind        kind)
{
  embers_request_cancel (&self->cancellables[kind]);
  g_clear_pointer (&self->errors[kind], g_free);
}

/* TRUE when the answer is the newest of its kind (then it is done) */
static gboolean
request_finish (EmbersRequest *req)
{
  if (!embers_request_finish (req))
    return FALSE;
  update_loading (req->owner);
  return TRUE;
}

static void
set_error (EmbersExplorePage *self,
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

  self->syncing = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->from_entry), from);
  gtk_editable_set_text (GTK_EDITABLE (self->to_entry), to);
  gtk_label_set_text (self->zone_label, zone);
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    gtk_toggle_button_set_active (self->preset_buttons[i], presets[i].seconds == self->preset_s);
  self->syncing = FALSE;
}

/* Services */

static void
set_title (EmbersExplorePage *self)
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
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static char *
describe_type (const char *id)
{
  return embers_profile_type_describe (id);
}

static void
fill_types (EmbersExplorePage *self)
{
  const char * const *ids = NULL;
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func (g_free);
  guint pick = GTK_INVALID_LIST_POSITION;

  if (self->service != NULL)
    ids = g_hash_table_lookup (self->service_types, self->service);

  g_ptr_array_set_size (self->type_ids, 0);
  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    {
      g_ptr_array_add (self->type_ids, g_strdup (ids[i]));
      g_ptr_array_add (shown, describe_type (ids[i]));
      if (g_strcmp0 (ids[i], self->profile_type) == 0)
        pick = i;
    }
  if (pick == GTK_INVALID_LIST_POSITION)
    for (guint i = 0; i < self->type_ids->len; i++)
      if (strstr (g_ptr_array_index (self->type_ids, i), ":cpu:") != NULL)
        {
          pick = i;
          break;
        }
  if (pick == GTK_INVALID_LIST_POSITION && self->type_ids->len > 0)
    pick = 0;
  g_ptr_array_add (shown, NULL);

  self->syncing = TRUE;
  gtk_string_list_splice (self->type_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->type_names)),
                          (const char * const *)shown->pdata);
  gtk_drop_down_set_selected (self->type_dropdown, pick);
  self->syncing = FALSE;

  g_free (self->profile_type);
  self->profile_type = pick != GTK_INVALID_LIST_POSITION
                       ? g_strdup (g_ptr_array_index (self->type_ids, pick)) : NULL;
  gtk_widget_set_sensitive (GTK_WIDGET (self->type_dropdown), self->type_ids->len > 0);
}

static void
show_services_message (EmbersExplorePage *self,
                       const char        *title,
                       const char        *description,
                       gboolean           retry)
{
  adw_status_page_set_title (self->services_status, title);
  adw_status_page_set_description (self->services_status, description);
  adw_status_page_set_icon_name (self->services_status,
                                 retry ? "network-error-symbolic" : "folder-open-symbolic");
  gtk_widget_set_visible (GTK_WIDGET (self->services_retry), retry);
  gtk_stack_set_visible_child_name (self->services_stack, "message");
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *)a, *(const char * const *)b);
}

static void
services_done (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersExplorePage *self = req->owner;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) sets = NULL;
  g_autoptr(GPtrArray) names = NULL;
  GHashTableIter iter;
  gpointer key, value;
  guint position = GTK_INVALID_LIST_POSITION;

  series = embers_source_list_series_finish (EMBERS_SOURCE (object), result, &error);
  if (!request_finish (req))
    return;
  set_title (self);

  if (series == NULL)
    {
      set_error (self, REQ_SERVICES, error);
      show_services_message (self, _("Could Not Load Services"), error->message, TRUE);
      /* The chart and the flame graph were for the range before: they say
       * why there is nothing for this one, never show the old answer */
      if (self->service != NULL && self->profile_type != NULL)
        {
          request_cancel (self, REQ_CHART);
          request_cancel (self, REQ_PROFILE);
          chart_show_status (self, _("Could Not Load the Time Series"), error->message, TRUE);
          profile_show_status (self, "dialog-error-symbolic", _("Could Not Load the Flame Graph"),
                               error->message, TRUE);
          update_loading (self);
        }
      return;
    }

  sets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_hash_table_unref);
  for (guint i = 0; i < series->len; i++)
    {
      EmbersSeries *s = g_ptr_array_index (series, i);
      const char *service = embers_series_get_label (s, SERVICE_LABEL);
      const char *type = embers_series_get_label (s, TYPE_LABEL);
      GHashTable *types;

      if (service == NULL)
        continue;
      types = g_hash_table_lookup (sets, service);
      if (types == NULL)
        {
          types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          g_hash_table_insert (sets, g_strdup (service), types);
        }
      if (type != NULL)
        g_hash_table_add (types, g_strdup (type));
    }

  g_hash_table_remove_all (self->service_types);
  names = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, sets);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint n = 0;
      g_autofree gpointer *ids = g_hash_table_get_keys_as_array (value, &n);
      GStrv copy = g_new0 (char *, n + 1);

      qsort (ids, n, sizeof (gpointer), compare_strings);
      for (guint i = 0; i < n; i++)
        copy[i] = g_strdup (ids[i]);
      g_hash_table_insert (self->service_types, g_strdup (key), copy);
      g_ptr_array_add (names, key);
    }
  g_ptr_array_sort (names, compare_strings);

  for (guint i = 0; i < names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (names, i), self->service) == 0)
      position = i;
  g_ptr_array_add (names, NULL);

  self->syncing = TRUE;
  gtk_string_list_splice (self->services, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->services)),
                          (const char * const *)names->pdata);
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;

  if (names->len == 1)
    {
      show_services_message (self, _("No Services"),
                             _("The source has no profiles in this time range. Pick a longer range."),
                             FALSE);
      return;
    }
  gtk_stack_set_visible_child_name (self->services_stack, "list");

  if (position == GTK_INVALID_LIST_POSITION && self->service != NULL)
    {
      /* The service is gone from this range: keep showing it empty */
      fill_types (self);
    }
  else
    fill_types (self);
  reload_queries (self);
}

/* The workspace's query model follows what the page asks for, and the
 * page follows the model when another view changes it. Each side only
 * writes what differs, so neither loops back. */
static void
push_model (EmbersExplorePage *self)
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
      set_title (self);
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
    load_services (self);
  else if (service_changed || type_changed)
    {
      /* The list shows the service picked elsewhere */
      for (guint i = 0; service_changed && i < g_list_model_get_n_items (G_LIST_MODEL (self->services)); i++)
        if (g_str_equal (gtk_string_list_get_string (self->services, i), self->service))
          {
            self->syncing = TRUE;
            gtk_single_selection_set_selected (self->selection, i);
            self->syncing = FALSE;
          }
      fill_types (self);
      reload_queries (self);
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
      push_model (self);
    }
}

EmbersQueryModel *
embers_explore_page_get_query_model (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  return self->model;
}

static void
load_services (EmbersExplorePage *self)
{
  static const char * const label_names[] = { SERVICE_LABEL, TYPE_LABEL, NULL };
  EmbersRequest *req = request_start (self, REQ_SERVICES);

  push_model (self);
  /* A new range: the chart and the flame graph are stale until it answers */
  if (self->service != NULL && self->profile_type != NULL)
    {
      show_loading (self, self->chart_stack);
      show_loading (self, self->profile_stack);
    }

  if (g_list_model_get_n_items (G_LIST_MODEL (self->services)) == 0)
    {
      gtk_stack_set_visible_child_name (self->services_stack, "loading");
    }
  embers_source_list_series (self->source, NULL, label_names, self->start_ms, self->end_ms,
                             req->cancellable, services_done, req);
}

static void
service_selected (EmbersExplorePage *self)
{
  GtkStringObject *item;

  if (self->syncing)
    return;
  item = gtk_single_selection_get_selected_item (self->selection);
  if (item == NULL)
    return;
  /* A narrow page shows the services over the content: picking one shows
   * its data */
  if (adw_overlay_split_view_get_collapsed (self->split_view))
    adw_overlay_split_view_set_show_sidebar (self->split_view, FALSE);
  if (g_strcmp0 (self->service, gtk_string_object_get_string (item)) == 0)
    return;

  g_free (self->service);
  self->service = g_strdup (gtk_string_object_get_string (item));
  g_clear_pointer (&self->restore_path, g_ptr_array_unref);
  set_title (self);
  fill_types (self);
  reload_queries (self);
}

static void
type_selected (EmbersExplorePage *self)
{
  guint pick;

  if (self->syncing)
    return;
  pick = gtk_drop_down_get_selected (self->type_dropdown);
  if (pick >= self->type_ids->len)
    return;
  g_free (self->profile_type);
  self->profile_type = g_strdup (g_ptr_array_index (self->type_ids, pick));
  g_clear_pointer (&self->restore_path, g_ptr_array_unref);
  load_chart (self);
  load_profile (self);
}

static void
setup_service_row (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *types = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (types), 0);
  gtk_label_set_ellipsize (GTK_LABEL (types), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (types, "dim-label");
  gtk_widget_add_css_class (types, "caption");
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), types);
  gtk_list_item_set_child (item, box);
}

static void
bind_service_row (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  user_data)
{
  EmbersExplorePage *self = user_data;
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *name = gtk_widget_get_first_child (box);
  GtkWidget *types = gtk_widget_get_next_sibling (name);
  const char *service = gtk_string_object_get_string (gtk_list_item_get_item (item));
  const char * const *ids = g_hash_table_lookup (self->service_types, service);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    {
      g_autoptr(EmbersProfileTypeInfo) info = embers_profile_type_info_new (ids[i]);
      const char *part = info != NULL && info->name != NULL ? info->name : ids[i];

      if (strstr (text->str, part) != NULL)
        continue;
      if (text->len > 0)
        g_string_append (text, ", ");
      g_string_append (text, part);
    }
  gtk_label_set_text (GTK_LABEL (name), service);
  gtk_label_set_text (GTK_LABEL (types), text->str);
  gtk_widget_set_tooltip_text (box, text->str);
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
  load_chart (self);
  load_profile (self);
}

/* Chart */

/* A panel asking for the query on screen: its old answer dimmed under the
 * range being loaded */
static void
show_loading (EmbersExplorePage *self,
              EmbersStatus      *panel)
{
  g_autofree char *from = embers_query_url_format_local_time (self->start_ms);
  g_autofree char *to = embers_query_url_format_local_time (self->end_ms);
  /* Translators: over a chart or a flame graph while it loads: the time
   * range asked for, from and to */
  g_autofree char *text = g_strdup_printf (_("Loading %s – %s…"), from, to);

  embers_status_show_loading (panel, text);
}

static void
chart_draw (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  EmbersExplorePage *self = user_data;
  EmbersChartStyle style;

  /* Text, axes and accent from the chart's CSS */
  embers_theme_chart_style (GTK_WIDGET (area), &style);
  embers_chart_set_size (self->chart, width, height);
  embers_chart_paint (self->chart, cr, &style);
}

static void
chart_resize (EmbersExplorePage *self,
              int                width,
              int                height)
{
  embers_chart_set_size (self->chart, width, height);
}

static void
drag_begin (GtkGestureDrag    *gesture,
            double             x,
            double             y,
            EmbersExplorePage *self)
{
  self->drag_x = x;
  self->drag_y = y;
  self->dragging = TRUE;
}

static void
drag_update (GtkGestureDrag    *gesture,
             double             dx,
             double             dy,
             EmbersExplorePage *self)
{
  gint64 a = embers_chart_time_for_x (self->chart, self->drag_x);
  gint64 b = embers_chart_time_for_x (self->chart, self->drag_x + dx);

  /* Whole steps: what is shaded is what the flame graph will hold */
  embers_chart_snap_to_steps (self->chart, &a, &b);
  embers_chart_set_selection (self->chart, MIN (a, b), MAX (a, b));
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
}

static void
drag_end (GtkGestureDrag    *gesture,
          double             dx,
          double             dy,
          EmbersExplorePage *self)
{
  self->dragging = FALSE;
  embers_chart_clear_selection (self->chart);
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
  if (ABS (dx) >= 4)
    embers_explore_page_drag_chart (self, self->drag_x, self->drag_x + dx);
  else
    /* A click: on a profile's marker, that profile alone */
    embers_profiles_bar_click (self->profiles_bar, self->drag_x, self->drag_y);
}

static void
chart_show_status (EmbersExplorePage *self,
                   const char        *title,
                   const char        *description,
                   gboolean           retry)
{
  embers_status_show_message (self->chart_stack, retry ? "dialog-error-symbolic" : NULL, title, description, retry);
}

static void chart_loaded (EmbersRequest *req,
                          GPtrArray     *series,
                          GError        *error);

static void
chart_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GError *error = NULL;
  GPtrArray *series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);

  chart_loaded (user_data, series, error);
}

/* The chart's series with their heaviest profiles (exemplars) */
static void
chart_exemplars_done (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  EmbersRequest *req = user_data;
  EmbersExplorePage *self = req->owner;
  GError *error = NULL;
  GPtrArray *series = embers_source_select_exemplars_finish (EMBERS_SOURCE (object), result, &error);

  /* A server without them (a v1 querier: unimplemented; it turned them
   * off) or a source that cannot: the plain series instead */
  if (series == NULL &&
      (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED) ||
       g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_NOT_SUPPORTED)) &&
      !g_cancellable_is_cancelled (req->cancellable))
    {
      g_autoptr(EmbersQuery) query = embers_explore_page_dup_query (self);

      g_clear_error (&error);
      if (query != NULL)
        {
          embers_profiles_bar_set_available (self->profiles_bar, FALSE);
          embers_source_select_chart_series (EMBERS_SOURCE (object), query, NULL, EMBERS_AGGREGATION_SUM, 0,
                                             req->cancellable, chart_done, req);
          return;
        }
      error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "no query");
    }
  chart_loaded (req, series, error);
}

static void
chart_loaded (EmbersRequest *req_owned,
              GPtrArray     *series_owned,
              GError        *error_owned)
{
  g_autoptr(EmbersRequest) req = req_owned;
  EmbersExplorePage *self = req->owner;
  g_autoptr(GPtrArray) series = series_owned;
  g_autoptr(GError) error = error_owned;
  g_autoptr(EmbersProfileTypeInfo) info = NULL;

  if (!request_finish (req))
    return;
  if (series == NULL)
    {
      set_error (self, REQ_CHART, error);
      /* No markers nor a menu of profiles from a range not shown */
      embers_profiles_bar_set_series (self->profiles_bar, NULL);
      chart_show_status (self, _("Could Not Load the Time Series"), error->message, TRUE);
      return;
    }

  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_clear_pointer (&self->picked_scope, g_free);
  self->series = g_ptr_array_ref (series);
  info = self->profile_type != NULL ? embers_profile_type_info_new (self->profile_type) : NULL;
  embers_chart_set_unit (self->chart, info != NULL ? info->sample_unit : NULL);
  embers_chart_set_series (self->chart, series, NULL);
  embers_chart_set_time_range (self->chart, self->start_ms, self->end_ms);
  embers_profiles_bar_set_series (self->profiles_bar, series);
  if (series->len == 0)
    {
      chart_show_status (self, _("No Data"), _("Nothing matches in this time range."), FALSE);
      return;
    }
  embers_status_show_content (self->chart_stack);
  {
    g_autofree char *text = embers_chart_accessible_text (self->chart);

    gtk_accessible_update_property (GTK_ACCESSIBLE (self->chart_area),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  }
  gtk_widget_queue_draw (GTK_WIDGET (self->chart_area));
}

static void
load_chart (EmbersExplorePage *self)
{
  g_autoptr(EmbersQuery) query = embers_explore_page_dup_query (self);
  EmbersRequest *req;

  push_model (self);
  if (query == NULL)
    {
      request_cancel (self, REQ_CHART);
      update_loading (self);
      return;
    }
  req = request_start (self, REQ_CHART);
  /* Nothing stale: the old chart dims under what is being loaded */
  show_loading (self, self->chart_stack);
  /* A profile picked in another query (service, type, filters, range)
   * is not one of this one's: back to the merged view */
  {
    g_autofree char *selector = embers_selector_to_string (embers_filter_bar_get_filters (self->filter_bar));
    g_autofree char *scope = g_strdup_printf ("%s\x1e%s\x1e%s\x1e%" G_GINT64_FORMAT "\x1e%" G_GINT64_FORMAT,
                                              query->profile_type ? query->profile_type : "",
                                              query->label_selector ? query->label_selector : "",
                                              selector ? selector : "",
                                              self->start_ms, self->end_ms);

    if (g_strcmp0 (scope, self->picked_scope) != 0)
      {
        g_free (self->picked_scope);
        self->picked_scope = g_steal_pointer (&scope);
        embers_profiles_bar_clear (self->profiles_bar);
      }
  }
  /* The old range's profiles are not offered while the new one loads */
  embers_profiles_bar_set_series (self->profiles_bar, NULL);
  if (embers_source_get_capabilities (self->source) & EMBERS_SOURCE_CAN_PROFILE_IDS)
    {
      embers_profiles_bar_set_available (self->profiles_bar, TRUE);
      embers_source_select_chart_exemplars (self->source, query, req->cancellable, chart_exemplars_done, req);
      return;
    }
  embers_profiles_bar_set_available (self->profiles_bar, FALSE);
  embers_source_select_chart_series (self->source, query, NULL, EMBERS_AGGREGATION_SUM, 0,
                                     req->cancellable, chart_done, req);
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

static void
profile_show_status (EmbersExplorePage *self,
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
  if (!request_finish (req))
    return;
  if (profile == NULL)
    {
      set_error (self, REQ_PROFILE, error);
      profile_show_status (self, "dialog-error-symbolic", _("Could Not Load the Flame Graph"),
                           error->message, TRUE);
      return;
    }
  if (embers_profile_get_n_nodes (profile) <= 1)
    {
      profile_show_status (self, "folder-open-symbolic", _("No Samples"),
                           _("No profile matches this selection in this time range."), FALSE);
      return;
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

static void
load_profile (EmbersExplorePage *self)
{
  g_autoptr(EmbersQuery) query = embers_explore_page_dup_query (self);
  EmbersRequest *req;

  if (query == NULL)
    {
      if (self->filler != NULL)
        embers_filler_reset (self->filler, NULL, 0);
      request_cancel (self, REQ_PROFILE);
      update_loading (self);
      profile_show_status (self, "view-list-symbolic", _("Pick a Service"),
                           _("Choose a service on the left to see its flame graph."), FALSE);
      return;
    }
  /* One profile picked on the chart: that profile alone */
  if (embers_profiles_bar_get_picked_id (self->profiles_bar) != NULL)
    {
      const char *ids[] = { embers_profiles_bar_get_picked_id (self->profiles_bar), NULL };

      query->profile_ids = g_strdupv ((char **) ids);
    }
  req = request_start (self, REQ_PROFILE);
  if (self->filler != NULL)
    embers_filler_reset (self->filler, query, filler_max_nodes (self));
  show_loading (self, self->profile_stack);
  embers_source_merge_profile (self->source, query, req->cancellable, profile_done, req);
}

static void
reload_queries (EmbersExplorePage *self)
{
  load_label_names (self);
  load_chart (self);
  load_profile (self);
}

/* Time range widgets */

static void
preset_toggled (GtkToggleButton   *button,
                EmbersExplorePage *self)
{
  gint64 seconds = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "seconds"));

  if (self->syncing)
    return;
  if (!gtk_toggle_button_get_active (button))
    {
      /* Clicking the active preset again keeps it */
      if (self->preset_s == seconds)
        {
          self->syncing = TRUE;
          gtk_toggle_button_set_active (button, TRUE);
          self->syncing = FALSE;
        }
      return;
    }
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
  embers_explore_page_set_time_range (self, from, to);
}

/* Building the widgets */

static void
build_toolbar (EmbersExplorePage *self)
{
  GtkWidget *presets_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *button;
  GtkToggleButton *group = NULL;

  self->type_names = gtk_string_list_new (NULL);
  self->type_dropdown = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->type_names)), NULL));
  /* Long type names shorten on the button (not in its list) on a narrow page */
  embers_drop_down_shorten_on_button (self->type_dropdown);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->type_dropdown), _("Profile type"));
  embers_accessible_set_label (GTK_WIDGET (self->type_dropdown), _("Profile Type"));
  g_signal_connect_swapped (self->type_dropdown, "notify::selected", G_CALLBACK (type_selected), self);
  gtk_box_append (self->toolbar_start, GTK_WIDGET (self->type_dropdown));

  gtk_widget_add_css_class (presets_box, "linked");
  gtk_widget_add_css_class (presets_box, "presets");
  gtk_widget_set_margin_start (presets_box, 6);
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      g_autofree char *tip = g_strdup_printf (_("The last %s"), _(presets[i].label));

      button = gtk_toggle_button_new_with_label (_(presets[i].label));
      gtk_widget_set_tooltip_text (button, tip);
      g_object_set_data (G_OBJECT (button), "seconds", GINT_TO_POINTER ((int)presets[i].seconds));
      if (group != NULL)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), group);
      else
        group = GTK_TOGGLE_BUTTON (button);
      g_signal_connect (button, "toggled", G_CALLBACK (preset_toggled), self);
      self->preset_buttons[i] = GTK_TOGGLE_BUTTON (button);
      gtk_box_append (GTK_BOX (presets_box), button);
    }
  gtk_box_append (self->toolbar_start, presets_box);

  self->from_entry = GTK_ENTRY (gtk_entry_new ());
  self->to_entry = GTK_ENTRY (gtk_entry_new ());
  /* Room for "YYYY-MM-DD HH:MM:SS"; less when the page is narrow */
  gtk_editable_set_width_chars (GTK_EDITABLE (self->from_entry), 12);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->to_entry), 12);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (self->from_entry), 19);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (self->to_entry), 19);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->from_entry),
                               _("From: YYYY-MM-DD HH:MM:SS local time, RFC 3339, or now-2h"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->to_entry),
                               _("To: YYYY-MM-DD HH:MM:SS local time, RFC 3339, or now"));
  /* Translators: accessible names of the start and end of the time range */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->from_entry), GTK_ACCESSIBLE_PROPERTY_LABEL, C_("time range", "From"), -1);
  /* Translators: the accessible name of the end of the time range */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->to_entry), GTK_ACCESSIBLE_PROPERTY_LABEL, C_("time range", "To"), -1);
  g_signal_connect_swapped (self->from_entry, "activate", G_CALLBACK (range_entry_activated), self);
  g_signal_connect_swapped (self->to_entry, "activate", G_CALLBACK (range_entry_activated), self);
  self->time_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6));
  gtk_widget_set_margin_start (GTK_WIDGET (self->time_box), 12);
  gtk_box_append (self->time_box, GTK_WIDGET (self->from_entry));
  gtk_box_append (self->time_box, gtk_label_new ("–"));
  gtk_box_append (self->time_box, GTK_WIDGET (self->to_entry));
  self->zone_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->zone_label), "dim-label");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->zone_label), _("Times are in this time zone"));
  gtk_box_append (self->time_box, GTK_WIDGET (self->zone_label));
}

static void
build_filter_bar (EmbersExplorePage *self)
{
  g_signal_connect_object (self->filter_bar, "changed", G_CALLBACK (filters_changed), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->filter_bar), GTK_WIDGET (self->time_box));
}

static void
build_chart (EmbersExplorePage *self)
{
  GtkGesture *drag;

  self->chart = embers_chart_new (EMBERS_CHART_KIND_LINES);
  self->chart_area = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->chart_area), _("Drag to pick a time range"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->chart_area),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Time series"), -1);
  gtk_drawing_area_set_draw_func (self->chart_area, chart_draw, self, NULL);
  g_signal_connect_swapped (self->chart_area, "resize", G_CALLBACK (chart_resize), self);
  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self->chart_area), GTK_EVENT_CONTROLLER (drag));

  embers_status_set_content (self->chart_stack, GTK_WIDGET (self->chart_area));
  g_signal_connect_object (self->chart_stack, "retry", G_CALLBACK (embers_explore_page_retry), self,
                           G_CONNECT_SWAPPED);

  /* The heaviest profiles under the chart (embers-explore-profiles.c) */
  self->profiles_bar = embers_profiles_bar_new (self->chart, GTK_WIDGET (self->chart_area));
  gtk_widget_set_margin_start (GTK_WIDGET (self->profiles_bar), 8);
  gtk_widget_set_margin_end (GTK_WIDGET (self->profiles_bar), 8);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->profiles_bar), 4);
  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->chart_stack))),
                              GTK_WIDGET (self->profiles_bar), GTK_WIDGET (self->chart_stack));
  g_signal_connect_object (self->profiles_bar, "changed", G_CALLBACK (load_profile), self, G_CONNECT_SWAPPED);
  embers_status_show_message (self->chart_stack, NULL, NULL, NULL, FALSE);
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
  /* The profile page may outlive this page for a moment (its transforms
   * hold it): it no longer talks to it */
  if (self->profile_page != NULL)
    g_signal_handlers_disconnect_by_data (self->profile_page, self);
  self->profile_page = NULL;
  g_clear_object (&self->filler);
  /* The bin lets go of its child before the template does */
  adw_breakpoint_bin_set_child (ADW_BREAKPOINT_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_EXPLORE_PAGE);
  g_clear_object (&self->source);
  g_clear_object (&self->model);
  g_clear_object (&self->services);
  g_clear_object (&self->selection);
  g_clear_object (&self->type_names);
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
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, embers_explore_page_get_loading (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The selected frame's function, or NULL for the root */
static const char *
selected_function (EmbersExplorePage *self)
{
  EmbersFlameGraph *graph = embers_profile_page_get_flame_graph (self->profile_page);
  EmbersProfile *profile = graph ? embers_flame_graph_get_profile (graph) : NULL;
  guint32 node = graph ? embers_flame_graph_get_selected_node (graph) : EMBERS_NODE_NONE;

  if (profile == NULL || node == EMBERS_NODE_NONE || node == 0 || node >= embers_profile_get_n_nodes (profile))
    return NULL;
  return embers_profile_node_name_str (profile, node);
}

static void
on_rule_created (EmbersRuleDialog    *dialog,
                 EmbersRecordingRule *rule,
                 EmbersExplorePage   *self)
{
  g_autofree char *text = g_strdup_printf (_("Recording rule “%s” created"), rule->metric_name);

  /* Show: the tab's Recording Rules view, which lists it */
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-toast-action", "(sss)", text,
                              /* Translators: the button of "Recording rule … created" */
                              _("_Show"), "win.show-rules");
  gtk_widget_activate_action (GTK_WIDGET (self), "workspace.reload-rules", NULL);
  adw_dialog_close (ADW_DIALOG (dialog));
}

/* Right-click a frame → Create Recording Rule…, prefilled from the context */
EmbersRuleDialog *
embers_explore_page_create_rule (EmbersExplorePage *self)
{
  g_autofree char *selector = NULL;
  EmbersRuleDialog *dialog;

  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);

  selector = embers_explore_page_dup_selector (self);
  dialog = embers_rule_dialog_new (self->source,
                                   embers_explore_page_get_service (self),
                                   embers_explore_page_get_profile_type (self),
                                   selector, selected_function (self));
  g_signal_connect_object (dialog, "created", G_CALLBACK (on_rule_created), self, 0);
  /* The preview charts the frame's call site while the function is its */
  {
    g_auto(GStrv) call_site = embers_profile_page_dup_selected_call_site (self->profile_page);

    embers_rule_dialog_set_call_site (dialog, (const char * const *) call_site);
  }
  /* The preview over the tab's range, not a fixed last hour */
  embers_rule_dialog_set_time_range (dialog, self->start_ms, self->end_ms);
  embers_rule_dialog_set_source (dialog, self->source);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (self));
  return dialog;
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

static void
show_rules (EmbersExplorePage *self)
{
  if (embers_source_offers_recording_rules (self->source))
    gtk_widget_activate_action (GTK_WIDGET (self), "workspace.view", "s", "rules");
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
create_rule_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  embers_explore_page_create_rule (EMBERS_EXPLORE_PAGE (widget));
}

static void
show_rules_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  show_rules (EMBERS_EXPLORE_PAGE (widget));
}

static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  embers_explore_page_refresh (EMBERS_EXPLORE_PAGE (widget));
}

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  embers_explore_page_request_compare (EMBERS_EXPLORE_PAGE (widget));
}

/* F9: the services sidebar, over the content when the page is narrow */
static void
services_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  EmbersExplorePage *self = EMBERS_EXPLORE_PAGE (widget);

  adw_overlay_split_view_set_show_sidebar (self->split_view,
                                           !adw_overlay_split_view_get_show_sidebar (self->split_view));
  if (adw_overlay_split_view_get_show_sidebar (self->split_view))
    gtk_widget_child_focus (GTK_WIDGET (self->services_view), GTK_DIR_TAB_FORWARD);
}

/* The label explorer for this service, type, filters and range: the
 * workspace's Labels view */
static void
labels_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  EmbersExplorePage *self = EMBERS_EXPLORE_PAGE (widget);

  if (self->service == NULL || self->profile_type == NULL)
    {
      gtk_widget_activate_action (widget, "win.show-toast", "s",
                                  _("Pick a service and a profile type to see their labels"));
      return;
    }
  gtk_widget_activate_action (widget, "workspace.view", "s", "labels");
}

static void
embers_explore_page_class_init (EmbersExplorePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_explore_page_dispose;
  object_class->finalize = embers_explore_page_finalize;
  object_class->get_property = embers_explore_page_get_property;

  gtk_widget_class_install_action (widget_class, "explore.create-rule", NULL, create_rule_action);
  gtk_widget_class_install_action (widget_class, "explore.show-over-time", NULL, over_time_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, 0, "explore.show-over-time", NULL);
  gtk_widget_class_install_action (widget_class, "explore.show-rules", NULL, show_rules_action);
  gtk_widget_class_install_action (widget_class, "explore.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "explore.load-more", NULL, load_more_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "explore.create-rule", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "explore.refresh", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "explore.refresh", NULL);
  gtk_widget_class_install_action (widget_class, "explore.labels", NULL, labels_action);
  gtk_widget_class_install_action (widget_class, "explore.services", NULL, services_action);
  gtk_widget_class_install_action (widget_class, "explore.compare", NULL, compare_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "explore.services", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_b, GDK_CONTROL_MASK, "explore.labels", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "explore.compare", NULL);

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_COMPARE_REQUESTED] =
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
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (service_selected), self);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_service_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_service_row), self);
  gtk_list_view_set_model (self->services_view, GTK_SELECTION_MODEL (g_object_ref (self->selection)));
  gtk_list_view_set_factory (self->services_view, factory);
  g_object_unref (factory);
  g_signal_connect_swapped (self->services_retry, "clicked", G_CALLBACK (load_services), self);

  build_toolbar (self);
  build_filter_bar (self);
  build_chart (self);
  build_profile (self);
}

/* API */

static void
max_nodes_changed (EmbersExplorePage *self,
                   GtkSpinButton     *spin)
{
  gint64 value = (gint64)gtk_spin_button_get_value (spin);
  GSettingsSchemaSource *schemas = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = schemas ? g_settings_schema_source_lookup (schemas, APP_ID, TRUE) : NULL;

  if (!EMBERS_IS_PYROSCOPE_SOURCE (self->source) ||
      embers_pyroscope_source_get_max_nodes (EMBERS_PYROSCOPE_SOURCE (self->source)) == value)
    return;

  embers_pyroscope_source_set_max_nodes (EMBERS_PYROSCOPE_SOURCE (self->source), value);
  if (schema != NULL && g_settings_schema_has_key (schema, "max-nodes"))
    {
      g_autoptr(GSettings) settings = g_settings_new (APP_ID);

      g_settings_set_int (settings, "max-nodes", (int)value);
    }
  embers_explore_page_refresh (self);
}

/* How many flame graph nodes the server sends (the rest it merges into a
 * frame named "other", which stays visible): a user setting */
static void
add_max_nodes (EmbersExplorePage *self)
{
  GSettingsSchemaSource *schemas = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = schemas ? g_settings_schema_source_lookup (schemas, APP_ID, TRUE) : NULL;
  GtkSpinButton *spin;
  GtkWidget *box, *label;
  double value = EMBERS_PYROSCOPE_DEFAULT_MAX_NODES;

  if (!EMBERS_IS_PYROSCOPE_SOURCE (self->source))
    return;

  if (schema != NULL && g_settings_schema_has_key (schema, "max-nodes"))
    {
      g_autoptr(GSettings) settings = g_settings_new (APP_ID);

      value = g_settings_get_int (settings, "max-nodes");
    }
  embers_pyroscope_source_set_max_nodes (EMBERS_PYROSCOPE_SOURCE (self->source), (gint64)value);

  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  /* Translators: the most flame graph nodes to ask the server for */
  label = gtk_label_new_with_mnemonic (_("_Nodes"));
  gtk_widget_add_css_class (label, "dim-label");
  spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (16, EMBERS_PYROSCOPE_MAX_MAX_NODES, 1024));
  gtk_spin_button_set_value (spin, value);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (spin));
  gtk_widget_set_tooltip_text (GTK_WIDGET (spin),
                               _("Flame graph nodes the server sends; it merges the rest into a frame named “other”"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Flame graph nodes"), -1);
  g_signal_connect_swapped (spin, "value-changed", G_CALLBACK (max_nodes_changed), self);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (spin));
  gtk_box_prepend (self->actions_box, box);
  self->max_nodes = g_object_ref (gtk_spin_button_get_adjustment (spin));
}

/* The toolbar's menu on a narrow page: what does not fit, the node limit
 * too (it shares the toolbar spin button's adjustment) */
static void
build_more_menu (EmbersExplorePage *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) actions = g_menu_new ();
  g_autoptr(GMenu) rules = g_menu_new ();
  GtkPopover *popover;

  /* Translators: a menu item (the button is hidden on a small page) */
  g_menu_append (actions, C_("menu", "_Refresh"), "explore.refresh");
  g_menu_append (actions, _("Com_pare…"), "explore.compare");
  g_menu_append (actions, _("_Labels"), "explore.labels");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (actions));
  if (embers_source_offers_recording_rules (self->source))
    {
      g_menu_append (rules, _("_Create Recording Rule…"), "explore.create-rule");
      g_menu_append (rules, _("_Show Recording Rules"), "explore.show-rules");
    }
  else
    g_menu_append (rules, _("New _Rule…"), "explore.create-rule");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (rules));
  if (self->max_nodes != NULL)
    {
      g_autoptr(GMenu) nodes = g_menu_new ();
      g_autoptr(GMenuItem) item = g_menu_item_new (NULL, NULL);

      g_menu_item_set_attribute (item, "custom", "s", "nodes");
      g_menu_append_item (nodes, item);
      g_menu_append_section (menu, NULL, G_MENU_MODEL (nodes));
    }
  gtk_menu_button_set_menu_model (self->more_button, G_MENU_MODEL (menu));

  popover = gtk_menu_button_get_popover (self->more_button);
  if (self->max_nodes != NULL && GTK_IS_POPOVER_MENU (popover))
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *label = gtk_label_new_with_mnemonic (_("_Nodes"));
      GtkWidget *spin = gtk_spin_button_new (self->max_nodes, 1024, 0);

      gtk_widget_set_margin_start (box, 12);
      gtk_widget_set_margin_end (box, 12);
      gtk_widget_set_margin_top (box, 6);
      gtk_widget_set_margin_bottom (box, 6);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), spin);
      gtk_widget_set_tooltip_text (spin,
                                   _("Flame graph nodes the server sends; it merges the rest into a frame named “other”"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Flame graph nodes"), -1);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), spin);
      gtk_popover_menu_add_child (GTK_POPOVER_MENU (popover), box, "nodes");
    }
}

/* Recording rules: the server's list, and a new rule from what is on
 * screen (service, type, filters, the selected frame) */
static void
add_rules_buttons (EmbersExplorePage *self)
{
  if (embers_source_offers_recording_rules (self->source))
    {
      g_autoptr(GMenu) menu = g_menu_new ();
      GtkWidget *rules = adw_split_button_new ();

      g_menu_append (menu, _("_Create Recording Rule…"), "explore.create-rule");
      g_menu_append (menu, _("_Show Recording Rules"), "explore.show-rules");
      adw_split_button_set_label (ADW_SPLIT_BUTTON (rules), _("_Rules"));
      adw_split_button_set_use_underline (ADW_SPLIT_BUTTON (rules), TRUE);
      adw_split_button_set_menu_model (ADW_SPLIT_BUTTON (rules), G_MENU_MODEL (menu));
      gtk_widget_set_tooltip_text (rules, _("Recording rules: metrics the server records from profiles (Ctrl+Shift+R creates one)"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (rules), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Recording rules"), -1);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (rules), "explore.show-rules");
      gtk_box_append (self->actions_box, rules);
    }
  else
    {
      GtkWidget *create = gtk_button_new_with_mnemonic (_("New _Rule…"));

      gtk_widget_set_tooltip_text (create, _("Create a recording rule from this view, to copy as server configuration (Ctrl+Shift+R)"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (create), "explore.create-rule");
      gtk_box_append (self->actions_box, create);
    }
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
  set_title (self);
  add_max_nodes (self);
  add_rules_buttons (self);
  build_more_menu (self);
  update_range (self);
  show_range (self);
  load_profile (self);
  load_services (self);
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

GListModel *
embers_explore_page_get_services (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  return G_LIST_MODEL (self->services);
}

const char * const *
embers_explore_page_get_service_types (EmbersExplorePage *self,
                                       const char        *service)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  return g_hash_table_lookup (self->service_types, service);
}

gboolean
embers_explore_page_select_service (EmbersExplorePage *self,
                                    const char        *service)
{
  guint n;

  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->services));
  for (guint i = 0; i < n; i++)
    if (g_str_equal (gtk_string_list_get_string (self->services, i), service))
      {
        gtk_single_selection_set_selected (self->selection, i);
        return TRUE;
      }
  return FALSE;
}

const char *
embers_explore_page_get_service (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  return self->service;
}

gboolean
embers_explore_page_set_profile_type (EmbersExplorePage *self,
                                      const char        *profile_type)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), FALSE);

  for (guint i = 0; i < self->type_ids->len; i++)
    if (g_str_equal (g_ptr_array_index (self->type_ids, i), profile_type))
      {
        gtk_drop_down_set_selected (self->type_dropdown, i);
        return TRUE;
      }
  return FALSE;
}

const char *
embers_explore_page_get_profile_type (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);
  return self->profile_type;
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
  load_services (self);
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
  load_services (self);
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
  load_services (self);
}

void
embers_explore_page_retry (EmbersExplorePage *self)
{
  g_return_if_fail (EMBERS_IS_EXPLORE_PAGE (self));

  if (self->errors[REQ_SERVICES] != NULL)
    load_services (self);
  else
    {
      if (self->errors[REQ_CHART] != NULL)
        load_chart (self);
      if (self->errors[REQ_PROFILE] != NULL)
        load_profile (self);
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

guint
embers_explore_page_get_n_series (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), 0);
  return self->series != NULL ? self->series->len : 0;
}

gboolean
embers_explore_page_drag_chart (EmbersExplorePage *self,
                                double             x_from,
                                double             x_to)
{
  gint64 a, b;

  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), FALSE);

  if (gtk_widget_get_width (GTK_WIDGET (self->chart_area)) <= 0)
    return FALSE;
  a = embers_chart_time_for_x (self->chart, MIN (x_from, x_to));
  b = embers_chart_time_for_x (self->chart, MAX (x_from, x_to));
  if (b - a < 1000)
    return FALSE;
  /* The whole steps the drag touches: the flame graph of the new range
   * holds exactly the profiles the selected points count */
  embers_chart_snap_to_steps (self->chart, &a, &b);
  embers_explore_page_set_time_range (self, a, b);
  return TRUE;
}

/* The heaviest individual profiles and the one picked */
EmbersProfilesBar *
embers_explore_page_get_profiles_bar (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);

  return self->profiles_bar;
}

GPtrArray *
embers_explore_page_get_series (EmbersExplorePage *self)
{
  g_return_val_if_fail (EMBERS_IS_EXPLORE_PAGE (self), NULL);

  return self->series;
}

void
embers_explore_page_request_compare (EmbersExplorePage *self)
{
  g_autoptr(EmbersQuery) comparison = NULL;
  g_autoptr(EmbersQuery) baseline = NULL;
  gint64 length;

  g_return_if_fail (EMBERS_IS_EXPLORE_PAGE (self));

  comparison = embers_explore_page_dup_query (self);
  if (comparison == NULL)
    return;
  length = comparison->end_ms - comparison->start_ms;
  baseline = embers_query_copy (comparison);
  baseline->start_ms = comparison->start_ms - length;
  baseline->end_ms = comparison->start_ms;
  g_signal_emit (self, signals[SIGNAL_COMPARE_REQUESTED], 0, baseline, comparison);
}
