/* embers-services-page.c: every service of a source, each with a small chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "embers-drop-down.h"

#include "embers-query-url.h"
#include "embers-request.h"
#include "embers-search.h"
#include "embers-services-page.h"
#include "embers-sparkline.h"
#include "embers-status.h"
#include "embers-units.h"

#define FAVOURITES_KEY "favourite-services"
#define SORT_KEY       "services-sort"

/* The ranges the page offers, as the explore page's buttons */
static const gint64 presets[] = { 15 * 60, 60 * 60, 6 * 60 * 60, 24 * 60 * 60, 7 * 24 * 60 * 60 };

struct _EmbersServicesPage
{
  GtkWidget          parent_instance;

  EmbersQueryModel  *model;
  GSettings         *settings;
  char              *place;          /* favourites' key: the server, "" for local sources */

  /* Template */
  GtkWidget         *toolbar;
  GtkSearchEntry    *filter_entry;
  GtkToggleButton   *regex_button;
  GtkDropDown       *type_dropdown;
  GtkStringList     *type_names;
  GtkDropDown       *sort_dropdown;
  GtkDropDown       *range_dropdown;
  GtkLabel          *summary_label;
  EmbersStatus      *status;
  GtkGridView       *grid;
  GtkStringList     *shown;

  GHashTable        *types;          /* service -> GStrv of type ids */
  GPtrArray         *type_ids;       /* in the drop-down's order */
  char              *profile_type;   /* charted */
  GPtrArray         *rows;           /* EmbersServiceRow, every service */
  GPtrArray         *shown_rows;     /* borrowed from rows, in order */
  EmbersNameMatcher *matcher;
  EmbersServiceSort  sort;
  char              *unit;           /* of the charted type's values */

  GCancellable      *labels_request;
  GCancellable      *series_request;
  gint64             start_ms;       /* the range asked for */
  gint64             end_ms;
  gboolean           loaded;         /* an answer (or an error) for that range */
  gboolean           loading;
  char              *filter_text;    /* what the filter shows and the cards pass */
  gboolean           filter_regex;
};

G_DEFINE_FINAL_TYPE (EmbersServicesPage, embers_services_page, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SERVICE_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum
{
  REQ_LABELS,
  REQ_SERIES,
};

static void     load_series  (EmbersServicesPage *self);
static gboolean focus_filter (GtkWidget          *widget,
                              GVariant           *args,
                              gpointer            user_data);

static void
set_loading (EmbersServicesPage *self,
             gboolean            loading)
{
  if (self->loading == loading)
    return;
  self->loading = loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

/* Favourites, per server */

static GStrv
dup_favourites (EmbersServicesPage *self)
{
  g_autoptr(GVariant) all = NULL;
  const char **names = NULL;

  if (self->settings == NULL)
    return g_new0 (char *, 1);
  all = g_settings_get_value (self->settings, FAVOURITES_KEY);
  if (!g_variant_lookup (all, self->place, "^as", &names))
    return g_new0 (char *, 1);
  return (GStrv)names;
}

static void
mark_favourites (EmbersServicesPage *self)
{
  g_auto(GStrv) favourites = dup_favourites (self);

  for (guint i = 0; self->rows != NULL && i < self->rows->len; i++)
    {
      EmbersServiceRow *row = g_ptr_array_index (self->rows, i);

      row->favourite = g_strv_contains ((const char * const *)favourites, row->name);
    }
}

/* What is shown: the rows in order, through the filter */

static void
update_summary (EmbersServicesPage *self)
{
  g_autofree char *from = embers_query_url_format_local_time (self->start_ms);
  g_autofree char *to = embers_query_url_format_local_time (self->end_ms);
  g_autofree char *count = NULL;
  g_autofree char *text = NULL;
  guint total = self->rows != NULL ? self->rows->len : 0;

  if (self->rows == NULL)
    {
      gtk_label_set_text (self->summary_label, "");
      return;
    }
  if (self->shown_rows->len == total)
    /* Translators: how many services the overview shows */
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u service", "%u services", total), total);
  else
    /* Translators: how many services pass the filter, of how many */
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u service", "%u of %u services", total),
                             self->shown_rows->len, total);
  /* Translators: the overview's summary: "12 services, from 10:00 to 11:00" */
  text = g_strdup_printf (_("%s, from %s to %s"), count, from, to);
  gtk_label_set_text (self->summary_label, text);
}

static void
refill (EmbersServicesPage *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  g_ptr_array_set_size (self->shown_rows, 0);
  if (self->rows != NULL)
    {
      embers_service_overview_sort (self->rows, self->sort);
      for (guint i = 0; i < self->rows->len; i++)
        {
          EmbersServiceRow *row = g_ptr_array_index (self->rows, i);

          if (self->matcher != NULL && !embers_name_matcher_matches (self->matcher, row->name))
            continue;
          g_ptr_array_add (self->shown_rows, row);
          g_ptr_array_add (names, row->name);
        }
    }
  g_ptr_array_add (names, NULL);
  gtk_string_list_splice (self->shown, 0, g_list_model_get_n_items (G_LIST_MODEL (self->shown)),
                          (const char * const *)names->pdata);
  update_summary (self);
}

static EmbersServiceRow *
shown_row (EmbersServicesPage *self,
           const char         *name)
{
  for (guint i = 0; i < self->shown_rows->len; i++)
    {
      EmbersServiceRow *row = g_ptr_array_index (self->shown_rows, i);

      if (g_str_equal (row->name, name))
        return row;
    }
  return NULL;
}

/* Cards */

typedef struct
{
  GtkLabel        *name;
  GtkLabel        *total;
  GtkToggleButton *star;
  EmbersSparkline *chart;
} Card;

static void
on_star_toggled (GtkToggleButton    *star,
                 EmbersServicesPage *self)
{
  const char *name = g_object_get_data (G_OBJECT (star), "service");

  /* Binding a card sets the star to what is saved: no change then */
  if (name == NULL)
    return;
  embers_services_page_set_favourite (self, name, gtk_toggle_button_get_active (star));
}

static gboolean
star_icon (GBinding     *binding,
           const GValue *from,
           GValue       *to,
           gpointer      user_data)
{
  g_value_set_string (to, g_value_get_boolean (from) ? "starred-symbolic" : "non-starred-symbolic");
  return TRUE;
}

static void
setup_card (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            EmbersServicesPage       *self)
{
  Card *card = g_new0 (Card, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_widget_add_css_class (box, "card");
  gtk_widget_add_css_class (box, "service-card");

  card->name = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (card->name, 0);
  gtk_label_set_ellipsize (card->name, PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_width_chars (card->name, 14);
  gtk_label_set_max_width_chars (card->name, 28);
  gtk_widget_set_hexpand (GTK_WIDGET (card->name), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (card->name), "heading");
  gtk_box_append (GTK_BOX (head), GTK_WIDGET (card->name));

  card->star = GTK_TOGGLE_BUTTON (gtk_toggle_button_new ());
  gtk_button_set_icon_name (GTK_BUTTON (card->star), "non-starred-symbolic");
  gtk_widget_add_css_class (GTK_WIDGET (card->star), "flat");
  gtk_widget_add_css_class (GTK_WIDGET (card->star), "circular");
  gtk_widget_set_valign (GTK_WIDGET (card->star), GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (GTK_WIDGET (card->star), _("Favourite: Show First"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (card->star),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Favourite"), -1);
  g_object_bind_property_full (card->star, "active", card->star, "icon-name", G_BINDING_SYNC_CREATE,
                               star_icon, NULL, NULL, NULL);
  g_signal_connect_object (card->star, "toggled", G_CALLBACK (on_star_toggled), self, 0);
  gtk_box_append (GTK_BOX (head), GTK_WIDGET (card->star));
  gtk_box_append (GTK_BOX (box), head);

  card->total = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (card->total, 0);
  gtk_label_set_ellipsize (card->total, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (card->total), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (card->total), "numeric");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (card->total));

  card->chart = EMBERS_SPARKLINE (embers_sparkline_new ());
  embers_sparkline_set_area (card->chart, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (card->chart), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (card->chart));

  g_object_set_data_full (G_OBJECT (item), "card", card, g_free);
  gtk_list_item_set_child (item, box);
}

static void
bind_card (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           EmbersServicesPage       *self)
{
  Card *card = g_object_get_data (G_OBJECT (item), "card");
  const char *name = gtk_string_object_get_string (gtk_list_item_get_item (item));
  EmbersServiceRow *row = shown_row (self, name);
  g_autofree char *total = NULL;
  g_autofree char *described = NULL;
  g_autofree char *accessible = NULL;

  if (row == NULL)
    return;

  gtk_label_set_text (card->name, row->name);
  gtk_widget_set_tooltip_text (GTK_WIDGET (card->name), row->name);
  if (row->has_type && row->total > 0)
    {
      g_autofree char *value = embers_format_value ((gint64)llround (row->total), self->unit);

      /* Translators: a service's card: its total over the range */
      total = g_strdup_printf (_("%s in the range"), value);
    }
  else if (row->has_type)
    total = g_strdup (_("No profiles in the range"));
  else
    {
      described = embers_profile_type_describe (self->profile_type);
      /* Translators: a service's card when it has no profiles of the
       * charted type: "No memory · alloc_space profiles" */
      total = g_strdup_printf (_("No %s profiles"), described);
    }
  gtk_label_set_text (card->total, total);
  embers_sparkline_set_values (card->chart, row->values, row->n_values);
  gtk_widget_set_visible (GTK_WIDGET (card->chart), row->has_type);

  g_object_set_data_full (G_OBJECT (card->star), "service", g_strdup (row->name), g_free);
  gtk_toggle_button_set_active (card->star, row->favourite);

  accessible = row->favourite
    /* Translators: what a screen reader says of a service's card */
    ? g_strdup_printf (_("%s, favourite: %s"), row->name, total)
    : g_strdup_printf (_("%s: %s"), row->name, total);
  gtk_list_item_set_accessible_label (item, accessible);
  gtk_accessible_update_property (GTK_ACCESSIBLE (card->chart), GTK_ACCESSIBLE_PROPERTY_LABEL, total, -1);
}

/* Loading */

static void
show_loading (EmbersServicesPage *self)
{
  g_autofree char *from = embers_query_url_format_local_time (self->start_ms);
  g_autofree char *to = embers_query_url_format_local_time (self->end_ms);
  /* Translators: over the services while they load: the time range asked
   * for, from and to */
  g_autofree char *text = g_strdup_printf (_("Loading %s – %s…"), from, to);

  embers_status_show_loading (self->status, text);
  set_loading (self, TRUE);
}

static void
show_error (EmbersServicesPage *self,
            const GError       *error)
{
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  refill (self);
  embers_status_show_message (self->status, "network-error-symbolic", _("Could Not Load Services"),
                              error->message, TRUE);
  self->loaded = TRUE;
  set_loading (self, FALSE);
}

static void
fill_types (EmbersServicesPage *self)
{
  g_auto(GStrv) ids = embers_service_overview_all_types (self->types);
  g_autofree char *pick = embers_service_overview_default_type (
    self->types, self->profile_type != NULL ? self->profile_type : embers_query_model_get_profile_type (self->model));
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func (g_free);
  guint position = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; ids[i] != NULL; i++)
    {
      g_ptr_array_add (shown, embers_profile_type_describe (ids[i]));
      if (g_strcmp0 (ids[i], pick) == 0)
        position = i;
    }
  g_ptr_array_add (shown, NULL);

  /* While the drop-down's list changes, its selection moves through
   * positions that map to no type (type_ids is empty): on_type_selected
   * takes none of them as a choice */
  g_ptr_array_set_size (self->type_ids, 0);
  gtk_string_list_splice (self->type_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->type_names)),
                          (const char * const *)shown->pdata);
  for (guint i = 0; ids[i] != NULL; i++)
    g_ptr_array_add (self->type_ids, g_strdup (ids[i]));

  /* The type first, then the drop-down: selecting it is no change */
  g_free (self->profile_type);
  self->profile_type = g_steal_pointer (&pick);
  gtk_drop_down_set_selected (self->type_dropdown, position);
  gtk_widget_set_sensitive (GTK_WIDGET (self->type_dropdown), self->type_ids->len > 0);
}

static void
labels_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersServicesPage *self = req->owner;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GError) error = NULL;

  series = embers_source_list_series_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_request_finish (req))
    return;
  if (series == NULL)
    {
      show_error (self, error);
      return;
    }

  g_clear_pointer (&self->types, g_hash_table_unref);
  self->types = embers_service_overview_types (series);
  fill_types (self);
  if (g_hash_table_size (self->types) == 0)
    {
      g_clear_pointer (&self->rows, g_ptr_array_unref);
      refill (self);
      embers_status_show_message (self->status, "folder-open-symbolic", _("No Services"),
                                  _("The source has no profiles in this time range. Pick a longer range."),
                                  FALSE);
      self->loaded = TRUE;
      set_loading (self, FALSE);
      return;
    }
  load_series (self);
}

static void
series_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersServicesPage *self = req->owner;
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfileTypeInfo) info = NULL;
  double step_s;

  series = embers_source_select_series_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_request_finish (req))
    return;
  if (series == NULL)
    {
      show_error (self, error);
      return;
    }

  step_s = embers_source_step_for_range (self->start_ms, self->end_ms);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  self->rows = embers_service_overview_rows (self->types, self->profile_type, series,
                                             embers_source_series_first_point (self->start_ms, self->end_ms, step_s),
                                             (gint64)llround (step_s * 1000),
                                             embers_source_series_n_points (self->start_ms, self->end_ms, step_s));
  info = embers_profile_type_info_new (self->profile_type);
  g_free (self->unit);
  self->unit = g_strdup (info != NULL ? info->sample_unit : NULL);
  mark_favourites (self);
  refill (self);
  embers_status_show_content (self->status);
  self->loaded = TRUE;
  set_loading (self, FALSE);
}

static void
load_series (EmbersServicesPage *self)
{
  static const char * const group_by[] = { EMBERS_SERVICE_LABEL, NULL };
  EmbersRequest *req;
  g_autoptr(EmbersQuery) query = NULL;

  if (self->profile_type == NULL)
    return;
  show_loading (self);
  req = embers_request_start (self, &self->series_request, REQ_SERIES);
  query = embers_query_new (self->profile_type, "{}", self->start_ms, self->end_ms);
  embers_source_select_chart_series (embers_query_model_get_source (self->model), query, group_by,
                                     EMBERS_AGGREGATION_SUM, 0, req->cancellable, series_done, req);
}

void
embers_services_page_reload (EmbersServicesPage *self)
{
  static const char * const label_names[] = { EMBERS_SERVICE_LABEL, EMBERS_PROFILE_TYPE_LABEL, NULL };
  EmbersRequest *req;

  g_return_if_fail (EMBERS_IS_SERVICES_PAGE (self));

  self->start_ms = embers_query_model_get_start_ms (self->model);
  self->end_ms = embers_query_model_get_end_ms (self->model);
  self->loaded = FALSE;
  embers_request_cancel (&self->series_request);
  show_loading (self);
  req = embers_request_start (self, &self->labels_request, REQ_LABELS);
  embers_source_list_series (embers_query_model_get_source (self->model), NULL, label_names,
                             self->start_ms, self->end_ms, req->cancellable, labels_done, req);
}

/* The model's range changed: asked again when shown (a hidden page waits) */
static void
on_model_changed (EmbersServicesPage *self)
{
  gint64 preset = embers_query_model_get_preset (self->model);
  guint position = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (presets[i] == preset)
      position = i;
  /* on_range_selected finds the model at that preset already */
  gtk_drop_down_set_selected (self->range_dropdown, position);

  if (embers_query_model_get_start_ms (self->model) == self->start_ms &&
      embers_query_model_get_end_ms (self->model) == self->end_ms && self->loaded)
    return;
  self->loaded = FALSE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    embers_services_page_reload (self);
}

static void
on_map (EmbersServicesPage *self)
{
  /* A preset range moves to now when the overview is shown again */
  if (!self->loaded && !self->loading)
    embers_services_page_reload (self);
}

/* Template callbacks */

/* Each control changes its own half of the filter: a setter that shows
 * a filter in both finds each half already there */
static void
on_filter_text_changed (EmbersServicesPage *self)
{
  embers_services_page_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (self->filter_entry)),
                                   self->filter_regex);
}

static void
on_regex_toggled (EmbersServicesPage *self)
{
  embers_services_page_set_filter (self, self->filter_text,
                                   gtk_toggle_button_get_active (self->regex_button));
}

static void
on_type_selected (EmbersServicesPage *self)
{
  guint position = gtk_drop_down_get_selected (self->type_dropdown);

  if (position >= self->type_ids->len)
    return;
  embers_services_page_set_profile_type (self, g_ptr_array_index (self->type_ids, position));
}

static void
on_sort_selected (EmbersServicesPage *self)
{
  embers_services_page_set_sort (self, gtk_drop_down_get_selected (self->sort_dropdown) == 1
                                       ? EMBERS_SERVICE_SORT_TOTAL : EMBERS_SERVICE_SORT_NAME);
}

static void
on_range_selected (EmbersServicesPage *self)
{
  guint position = gtk_drop_down_get_selected (self->range_dropdown);

  /* Choosing the preset the model follows would only move it to now */
  if (position >= G_N_ELEMENTS (presets) || embers_query_model_get_preset (self->model) == presets[position])
    return;
  embers_query_model_set_preset (self->model, presets[position]);
}

static void
on_grid_activate (EmbersServicesPage *self,
                  guint               position)
{
  GtkStringObject *item = g_list_model_get_item (G_LIST_MODEL (self->shown), position);

  if (item == NULL)
    return;
  embers_services_page_activate (self, gtk_string_object_get_string (item));
  g_object_unref (item);
}

/* Public */

gboolean
embers_services_page_get_loading (EmbersServicesPage *self)
{
  g_return_val_if_fail (EMBERS_IS_SERVICES_PAGE (self), FALSE);

  return self->loading;
}

const char *
embers_services_page_get_profile_type (EmbersServicesPage *self)
{
  g_return_val_if_fail (EMBERS_IS_SERVICES_PAGE (self), NULL);

  return self->profile_type;
}

gboolean
embers_services_page_set_profile_type (EmbersServicesPage *self,
                                       const char         *profile_type)
{
  g_return_val_if_fail (EMBERS_IS_SERVICES_PAGE (self), FALSE);
  g_return_val_if_fail (profile_type != NULL, FALSE);

  for (guint i = 0; i < self->type_ids->len; i++)
    if (g_str_equal (g_ptr_array_index (self->type_ids, i), profile_type))
      {
        if (g_strcmp0 (self->profile_type, profile_type) != 0)
          {
            g_free (self->profile_type);
            self->profile_type = g_strdup (profile_type);
            /* on_type_selected finds this type charted already */
            gtk_drop_down_set_selected (self->type_dropdown, i);
            load_series (self);
          }
        return TRUE;
      }
  return FALSE;
}

guint
embers_services_page_get_n_shown (EmbersServicesPage *self)
{
  g_return_val_if_fail (EMBERS_IS_SERVICES_PAGE (self), 0);

  return self->shown_rows->len;
}

const EmbersServiceRow *
embers_services_page_get_shown (EmbersServicesPage *self,
                                guint               position)
{
  g_return_val_if_fail (EMBERS_IS_SERVICES_PAGE (self), NULL);
  g_return_val_if_fail (position < self->shown_rows->len, NULL);

  return g_ptr_array_index (self->shown_rows, position);
}

/* Sets an entry's text without passing through an empty one, as
 * gtk_editable_set_text does (delete, then insert): a search entry tells
 * an empty text at once, which would be taken for a person's */
static void
replace_text (GtkEditable *editable,
              const char  *text)
{
  int length = g_utf8_strlen (gtk_editable_get_text (editable), -1);
  int position = 0;

  if (g_strcmp0 (gtk_editable_get_text (editable), text) == 0)
    return;
  if (text[0] != '\0')
    {
      gtk_editable_insert_text (editable, text, -1, &position);
      gtk_editable_delete_text (editable, position, position + length);
    }
  else
    gtk_editable_delete_text (editable, 0, -1);
  gtk_editable_set_position (editable, -1);
}

void
embers_services_page_set_filter (EmbersServicesPage *self,
                                 const char         *text,
                                 gboolean            regex)
{
  g_autoptr(GError) error = NULL;
  EmbersNameMatcher *matcher;

  g_return_if_fail (EMBERS_IS_SERVICES_PAGE (self));

  if (text == NULL)
    text = "";
  if (g_strcmp0 (self->filter_text, text) == 0 && self->filter_regex == !!regex)
    return;
  /* (text may be filter_text itself: on_regex_toggled passes it) */
  text = g_strdup (text);
  g_free (self->filter_text);
  self->filter_text = (char *)text;
  self->filter_regex = !!regex;

  /* The entry and the button show it; their handlers find it set */
  replace_text (GTK_EDITABLE (self->filter_entry), text);
  if (gtk_toggle_button_get_active (self->regex_button) != self->filter_regex)
    gtk_toggle_button_set_active (self->regex_button, self->filter_regex);

  matcher = embers_name_matcher_new (text, regex ? EMBERS_SEARCH_REGEX : EMBERS_SEARCH_DEFAULT, &error);
  if (matcher == NULL)
    {
      /* The services shown stay; the entry says what is wrong */
      gtk_widget_add_css_class (GTK_WIDGET (self->filter_entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->filter_entry), error->message);
      gtk_accessible_update_state (GTK_ACCESSIBLE (self->filter_entry), GTK_ACCESSIBLE_STATE_INVALID,
                                   GTK_ACCESSIBLE_INVALID_TRUE, -1);
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->filter_entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->filter_entry), NULL);
  gtk_accessible_reset_state (GTK_ACCESSIBLE (self->filter_entry), GTK_ACCESSIBLE_STATE_INVALID);
  g_clear_pointer (&self->matcher, embers_name_matcher_free);
  self->matcher = matcher;
  refill (self);
}

void
embers_services_page_set_sort (EmbersServicesPage *self,
                               EmbersServiceSort   sort)
{
  g_return_if_fail (EMBERS_IS_SERVICES_PAGE (self));

  if (self->sort == sort)
    return;
  self->sort = sort;
  /* on_sort_selected finds this order set */
  gtk_drop_down_set_selected (self->sort_dropdown, sort == EMBERS_SERVICE_SORT_TOTAL ? 1 : 0);
  if (self->settings != NULL)
    g_settings_set_string (self->settings, SORT_KEY, sort == EMBERS_SERVICE_SORT_TOTAL ? "total" : "name");
  refill (self);
}

const char *
embers_services_page_get_filter (EmbersServicesPage *self,
                                 gboolean           *regex)
{
  g_return_val_if_fail (EMBERS_IS_SERVICES_PAGE (self), NULL);

  if (regex != NULL)
    *regex = self->filter_regex;
  return self->filter_text;
}

EmbersServiceSort
embers_services_page_get_sort (EmbersServicesPage *self)
{
  g_return_val_if_fail (EMBERS_IS_SERVICES_PAGE (self), EMBERS_SERVICE_SORT_NAME);
  return self->sort;
}

void
embers_services_page_set_favourite (EmbersServicesPage *self,
                                    const char         *service,
                                    gboolean            favourite)
{
  g_autoptr(GVariant) all = NULL;
  g_auto(GStrv) before = NULL;
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_auto(GStrv) after = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *place;
  GVariant *value;

  g_return_if_fail (EMBERS_IS_SERVICES_PAGE (self));
  g_return_if_fail (service != NULL);

  before = dup_favourites (self);
  /* A star set to what is saved (a card bound) changes nothing */
  if (self->settings == NULL || g_strv_contains ((const char * const *)before, service) == !!favourite)
    return;
  for (GStrv n = before; *n != NULL; n++)
    if (!g_str_equal (*n, service))
      g_strv_builder_add (names, *n);
  if (favourite)
    g_strv_builder_add (names, service);
  after = g_strv_builder_end (names);

  if (self->settings != NULL)
    {
      all = g_settings_get_value (self->settings, FAVOURITES_KEY);
      g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sas}"));
      g_variant_iter_init (&iter, all);
      while (g_variant_iter_next (&iter, "{&s@as}", &place, &value))
        {
          if (!g_str_equal (place, self->place))
            g_variant_builder_add (&builder, "{s@as}", place, value);
          g_variant_unref (value);
        }
      if (after[0] != NULL)
        g_variant_builder_add (&builder, "{s^as}", self->place, after);
      g_settings_set_value (self->settings, FAVOURITES_KEY, g_variant_builder_end (&builder));
    }
  mark_favourites (self);
  refill (self);
}

void
embers_services_page_activate (EmbersServicesPage *self,
                               const char         *service)
{
  g_return_if_fail (EMBERS_IS_SERVICES_PAGE (self));
  g_return_if_fail (service != NULL);

  g_signal_emit (self, signals[SERVICE_ACTIVATED], 0, service);
}

/* GObject */

static void
embers_services_page_dispose (GObject *object)
{
  EmbersServicesPage *self = EMBERS_SERVICES_PAGE (object);

  embers_request_cancel (&self->labels_request);
  embers_request_cancel (&self->series_request);
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_SERVICES_PAGE);
  g_clear_object (&self->model);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (embers_services_page_parent_class)->dispose (object);
}

static void
embers_services_page_finalize (GObject *object)
{
  EmbersServicesPage *self = EMBERS_SERVICES_PAGE (object);

  g_clear_pointer (&self->types, g_hash_table_unref);
  g_clear_pointer (&self->type_ids, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->shown_rows, g_ptr_array_unref);
  g_clear_pointer (&self->matcher, embers_name_matcher_free);
  g_free (self->profile_type);
  g_free (self->unit);
  g_free (self->place);
  g_free (self->filter_text);

  G_OBJECT_CLASS (embers_services_page_parent_class)->finalize (object);
}

static void
embers_services_page_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  EmbersServicesPage *self = EMBERS_SERVICES_PAGE (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_services_page_class_init (EmbersServicesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_services_page_dispose;
  object_class->finalize = embers_services_page_finalize;
  object_class->get_property = embers_services_page_get_property;

  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SERVICE_ACTIVATED] =
    g_signal_new ("service-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (EMBERS_TYPE_STATUS);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-services-page.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, regex_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, type_names);
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, sort_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, range_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, status);
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, grid);
  gtk_widget_class_bind_template_child (widget_class, EmbersServicesPage, shown);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_text_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_regex_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_type_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_sort_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_range_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_grid_activate);
  gtk_widget_class_bind_template_callback (widget_class, embers_services_page_reload);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, focus_filter, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_slash, 0, focus_filter, NULL);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "servicespage");
}

static void
embers_services_page_init (EmbersServicesPage *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  self->type_ids = g_ptr_array_new_with_free_func (g_free);
  self->shown_rows = g_ptr_array_new ();
  self->filter_text = g_strdup ("");
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  g_signal_connect_object (factory, "setup", G_CALLBACK (setup_card), self, 0);
  g_signal_connect_object (factory, "bind", G_CALLBACK (bind_card), self, 0);
  gtk_grid_view_set_factory (self->grid, factory);
  /* Long type names ellipsize on the buttons, so that a narrow window
   * keeps every control */
  embers_drop_down_shorten_on_button (self->type_dropdown);
  embers_drop_down_shorten_on_button (self->range_dropdown);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}

/* Ctrl+F and / go to the filter, as search does in the other views */
static gboolean
focus_filter (GtkWidget *widget,
              GVariant  *args,
              gpointer   user_data)
{
  EmbersServicesPage *self = EMBERS_SERVICES_PAGE (widget);

  return gtk_widget_grab_focus (GTK_WIDGET (self->filter_entry));
}

GtkWidget *
embers_services_page_new (EmbersQueryModel *model)
{
  EmbersServicesPage *self;
  g_autofree char *location = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  GSettingsSchemaSource *schemas = g_settings_schema_source_get_default ();

  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (model), NULL);

  self = g_object_new (EMBERS_TYPE_SERVICES_PAGE, NULL);
  self->model = g_object_ref (model);
  location = embers_source_dup_location (embers_query_model_get_source (model));
  self->place = g_strdup (location != NULL ? location : "");

  if (schemas != NULL)
    schema = g_settings_schema_source_lookup (schemas, APP_ID, TRUE);
  if (schema != NULL && g_settings_schema_has_key (schema, FAVOURITES_KEY))
    {
      g_autofree char *sort = NULL;

      self->settings = g_settings_new (APP_ID);
      sort = g_settings_get_string (self->settings, SORT_KEY);
      self->sort = g_str_equal (sort, "total") ? EMBERS_SERVICE_SORT_TOTAL : EMBERS_SERVICE_SORT_NAME;
      /* on_sort_selected finds this order set */
      gtk_drop_down_set_selected (self->sort_dropdown, self->sort == EMBERS_SERVICE_SORT_TOTAL ? 1 : 0);
    }

  g_signal_connect_object (model, "changed", G_CALLBACK (on_model_changed), self, G_CONNECT_SWAPPED);
  on_model_changed (self);
  return GTK_WIDGET (self);
}
