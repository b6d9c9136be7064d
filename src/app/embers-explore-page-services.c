/* embers-explore-page-services.c: the services and their profile types
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-explore-page-private.h"

static char *
describe_type (const char *id)
{
  return embers_profile_type_describe (id);
}

/* The service's profile types in the drop-down, the page's own picked
 * (else a CPU one, else the first). While the list changes, type_ids is
 * empty, so that embers_explore_type_selected() passes over the
 * selection's moves; the one picked is the page's already. */
void
embers_explore_fill_types (EmbersExplorePage *self)
{
  const char * const *ids = NULL;
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) new_ids = g_ptr_array_new_with_free_func (g_free);
  guint pick = GTK_INVALID_LIST_POSITION;

  if (self->service != NULL)
    ids = g_hash_table_lookup (self->service_types, self->service);

  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    {
      g_ptr_array_add (new_ids, g_strdup (ids[i]));
      g_ptr_array_add (shown, describe_type (ids[i]));
      if (g_strcmp0 (ids[i], self->profile_type) == 0)
        pick = i;
    }
  if (pick == GTK_INVALID_LIST_POSITION)
    for (guint i = 0; i < new_ids->len; i++)
      if (strstr (g_ptr_array_index (new_ids, i), ":cpu:") != NULL)
        {
          pick = i;
          break;
        }
  if (pick == GTK_INVALID_LIST_POSITION && new_ids->len > 0)
    pick = 0;
  g_ptr_array_add (shown, NULL);

  g_free (self->profile_type);
  self->profile_type = pick != GTK_INVALID_LIST_POSITION
                       ? g_strdup (g_ptr_array_index (new_ids, pick)) : NULL;
  g_ptr_array_set_size (self->type_ids, 0);
  embers_drop_down_replace_strings (self->type_dropdown, self->type_names,
                                    (const char * const *)shown->pdata, pick);
  for (guint i = 0; i < new_ids->len; i++)
    g_ptr_array_add (self->type_ids, g_strdup (g_ptr_array_index (new_ids, i)));
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
  if (!embers_explore_request_finish (req))
    return;
  embers_explore_set_title (self);

  if (series == NULL)
    {
      embers_explore_set_error (self, REQ_SERVICES, error);
      show_services_message (self, _("Could Not Load Services"), error->message, TRUE);
      /* The chart and the flame graph were for the range before: they say
       * why there is nothing for this one, never show the old answer */
      if (self->service != NULL && self->profile_type != NULL)
        {
          embers_explore_request_cancel (self, REQ_CHART);
          embers_explore_request_cancel (self, REQ_PROFILE);
          embers_explore_chart_show_status (self, _("Could Not Load the Time Series"), error->message, TRUE);
          embers_explore_profile_show_status (self, "dialog-error-symbolic", _("Could Not Load the Flame Graph"),
                               error->message, TRUE);
          embers_explore_update_loading (self);
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

  /* The list lets go of its selection (nothing selected: the page keeps
   * its service) and selects the page's service again, if it is there */
  gtk_string_list_splice (self->services, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->services)),
                          (const char * const *)names->pdata);
  gtk_single_selection_set_selected (self->selection, position);

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
      embers_explore_fill_types (self);
    }
  else
    embers_explore_fill_types (self);
  embers_explore_reload_queries (self);
}

void
embers_explore_load_services (EmbersExplorePage *self)
{
  static const char * const label_names[] = { SERVICE_LABEL, TYPE_LABEL, NULL };
  EmbersRequest *req = embers_explore_request_start (self, REQ_SERVICES);

  embers_explore_push_model (self);
  /* A new range: the chart and the flame graph are stale until it answers */
  if (self->service != NULL && self->profile_type != NULL)
    {
      embers_explore_show_loading (self, self->chart_stack);
      embers_explore_show_loading (self, self->profile_stack);
    }

  if (g_list_model_get_n_items (G_LIST_MODEL (self->services)) == 0)
    {
      gtk_stack_set_visible_child_name (self->services_stack, "loading");
    }
  embers_source_list_series (self->source, NULL, label_names, self->start_ms, self->end_ms,
                             req->cancellable, services_done, req);
}

void
embers_explore_service_selected (EmbersExplorePage *self)
{
  GtkStringObject *item = gtk_single_selection_get_selected_item (self->selection);

  /* Nothing selected (the list is refilled), or the page's service
   * (selected to show it): nothing changes */
  if (item == NULL || g_strcmp0 (self->service, gtk_string_object_get_string (item)) == 0)
    return;
  /* A narrow page shows the services over the content: picking one shows
   * its data */
  if (adw_overlay_split_view_get_collapsed (self->split_view))
    adw_overlay_split_view_set_show_sidebar (self->split_view, FALSE);

  g_free (self->service);
  self->service = g_strdup (gtk_string_object_get_string (item));
  g_clear_pointer (&self->restore_path, g_ptr_array_unref);
  embers_explore_set_title (self);
  embers_explore_fill_types (self);
  embers_explore_reload_queries (self);
}

void
embers_explore_type_selected (EmbersExplorePage *self)
{
  guint pick = gtk_drop_down_get_selected (self->type_dropdown);

  /* The list being refilled (no ids yet), or the page's type: nothing
   * changes */
  if (pick >= self->type_ids->len ||
      g_strcmp0 (g_ptr_array_index (self->type_ids, pick), self->profile_type) == 0)
    return;
  g_free (self->profile_type);
  self->profile_type = g_strdup (g_ptr_array_index (self->type_ids, pick));
  g_clear_pointer (&self->restore_path, g_ptr_array_unref);
  embers_explore_load_chart (self);
  embers_explore_load_profile (self);
}

void
embers_explore_setup_service_row (GtkSignalListItemFactory *factory,
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

void
embers_explore_bind_service_row (GtkSignalListItemFactory *factory,
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
