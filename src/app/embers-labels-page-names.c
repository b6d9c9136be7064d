/* embers-labels-page-names.c: the label names and their counts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "embers-labels-page-private.h"

GtkListBoxRow *
embers_labels_find_name_row (EmbersLabelsPage *self,
               const char       *name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->names_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_BOX_ROW (child) &&
        g_strcmp0 (g_object_get_data (G_OBJECT (child), "name"), name) == 0)
      return GTK_LIST_BOX_ROW (child);
  return NULL;
}

/* The row of the label shown: highlighted as a selection is, and said to
 * be selected (the list itself selects nothing: moving through it with
 * the keyboard must not load every label on the way) */
static void
mark_current_name (EmbersLabelsPage *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->names_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      gboolean current;

      if (!GTK_IS_LIST_BOX_ROW (child))
        continue;
      current = g_strcmp0 (g_object_get_data (G_OBJECT (child), "name"), self->label) == 0;
      if (current)
        gtk_widget_add_css_class (child, "labels-current");
      else
        gtk_widget_remove_css_class (child, "labels-current");
      gtk_accessible_update_state (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_STATE_SELECTED, current, -1);
    }
}

static void
show_cardinality (EmbersLabelsPage *self,
                  const char       *name)
{
  GtkListBoxRow *row = embers_labels_find_name_row (self, name);
  GtkLabel *count;
  int n = embers_labels_page_get_cardinality (self, name);
  g_autofree char *text = NULL;
  g_autofree char *accessible = NULL;

  if (row == NULL)
    return;
  count = g_object_get_data (G_OBJECT (row), "count");
  text = n >= 0 ? g_strdup_printf ("%d", n) : g_strdup ("?");
  gtk_label_set_text (count, text);
  if (n >= 0)
    {
      /* Translators: label name, number of its values */
      accessible = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %d value", "%s, %d values", n), name, n);
      gtk_widget_set_tooltip_text (GTK_WIDGET (row), accessible);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
    }
}

static void count_done (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data);

/* Value counts go to the server a few at a time, not one request per
 * label at once (a service may have dozens of labels) */
#define MAX_COUNT_REQUESTS 4

static void
ask_next_count (EmbersLabelsPage *self,
                EmbersRequest    *req)
{
  const char *m[2];
  const char *name;

  if (self->count_names == NULL || self->count_names[self->count_next] == NULL)
    return;
  name = self->count_names[self->count_next++];
  embers_source_list_label_values (self->source, name, embers_labels_matchers (self, m),
                                   self->query->start_ms, self->query->end_ms,
                                   req->cancellable, count_done, embers_request_share (req, name));
}

static void
count_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersLabelsPage *self = req->owner;
  g_auto(GStrv) values = NULL;
  g_autoptr(GError) error = NULL;

  values = embers_source_list_label_values_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_request_is_current (req))
    return;
  if (values != NULL)
    g_hash_table_insert (self->cardinality, g_strdup (req->name),
                         GINT_TO_POINTER ((int)g_strv_length (values) + 1));
  show_cardinality (self, req->name);
  if (--self->pending_counts == 0)
    embers_labels_request_done (self, REQ_NAMES);
  else
    ask_next_count (self, req);
}

static gboolean
is_shown_name (const char *name)
{
  return !g_str_has_prefix (name, "__") && !g_str_equal (name, SERVICE_LABEL);
}

static GtkWidget *
name_row (const char *name)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = gtk_label_new (name);
  GtkWidget *count = gtk_label_new ("…");

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (count, "dim-label");
  gtk_widget_add_css_class (count, "numeric");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), count);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  g_object_set_data_full (G_OBJECT (row), "name", g_strdup (name), g_free);
  g_object_set_data (G_OBJECT (row), "count", count);
  return row;
}

static void
names_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersLabelsPage *self = req->owner;
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) shown = g_strv_builder_new ();
  g_auto(GStrv) list = NULL;
  GtkWidget *child;
  guint n;

  names = embers_source_list_label_names_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_request_is_current (req))
    return;
  if (names == NULL)
    {
      embers_labels_request_done (self, REQ_NAMES);
      self->errors[REQ_NAMES] = g_strdup (error->message);
      adw_status_page_set_description (self->names_status, error->message);
      gtk_stack_set_visible_child_name (self->names_stack, "message");
      embers_labels_show_status (self, _("Could Not Load the Labels"), error->message, TRUE);
      return;
    }

  for (guint i = 0; names[i] != NULL; i++)
    if (is_shown_name (names[i]))
      g_strv_builder_add (shown, names[i]);
  list = g_strv_builder_end (shown);
  n = g_strv_length (list);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->names_list))) != NULL)
    gtk_list_box_remove (self->names_list, child);
  gtk_string_list_splice (self->names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->names)),
                          (const char * const *)list);
  g_hash_table_remove_all (self->cardinality);
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (self->names_list, name_row (list[i]));
  mark_current_name (self);

  if (n == 0)
    {
      embers_labels_request_done (self, REQ_NAMES);
      adw_status_page_set_description (self->names_status, _("The series carry no labels besides the service."));
      adw_status_page_set_title (self->names_status, _("No Labels"));
      gtk_widget_set_visible (adw_status_page_get_child (self->names_status), FALSE);
      gtk_stack_set_visible_child_name (self->names_stack, "message");
      embers_labels_show_status (self, _("No Labels"), _("Nothing to break down in this time range."), FALSE);
      return;
    }
  gtk_stack_set_visible_child_name (self->names_stack, "list");

  /* How many values each has */
  self->pending_counts = n;
  g_strfreev (self->count_names);
  self->count_names = g_strdupv (list);
  self->count_next = 0;
  for (guint i = 0; i < MIN (n, MAX_COUNT_REQUESTS); i++)
    ask_next_count (self, req);

  /* Keep the selected label when it is still there */
  if (self->label != NULL && g_strv_contains ((const char * const *)list, self->label))
    {
      g_autofree char *label = g_strdup (self->label);

      g_clear_pointer (&self->label, g_free);
      embers_labels_page_select_label (self, label);
    }
  else
    {
      g_clear_pointer (&self->label, g_free);
      embers_labels_load_values (self);
    }
}

void
embers_labels_load_names (EmbersLabelsPage *self)
{
  EmbersRequest *req = embers_labels_request_start (self, REQ_NAMES);
  const char *m[2];

  self->pending_counts = 0;
  if (self->values_panel != NULL && self->label != NULL)
    embers_labels_show_values_loading (self);
  gtk_stack_set_visible_child_name (self->names_stack, "loading");
  adw_status_page_set_title (self->names_status, _("Could Not Load the Labels"));
  gtk_widget_set_visible (adw_status_page_get_child (self->names_status), TRUE);
  embers_source_list_label_names (self->source, embers_labels_matchers (self, m),
                                  self->query->start_ms, self->query->end_ms,
                                  req->cancellable, names_done, req);
}

/* Signals from widgets */

/* A click or Enter on a name (rows come and go without it) */
void
embers_labels_name_activated (EmbersLabelsPage *self,
                              GtkListBoxRow    *row,
                              GtkListBox       *list)
{
  if (row == NULL)
    return;
  /* On a narrow page the names lie over the values: show the values */
  if (adw_overlay_split_view_get_collapsed (self->split_view))
    adw_overlay_split_view_set_show_sidebar (self->split_view, FALSE);
  embers_labels_page_select_label (self, g_object_get_data (G_OBJECT (row), "name"));
}

GListModel *
embers_labels_page_get_names (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return G_LIST_MODEL (self->names);
}

int
embers_labels_page_get_cardinality (EmbersLabelsPage *self,
                                    const char       *name)
{
  gpointer n;

  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), -1);
  n = g_hash_table_lookup (self->cardinality, name);
  return n != NULL ? GPOINTER_TO_INT (n) - 1 : -1;
}

gboolean
embers_labels_page_select_label (EmbersLabelsPage *self,
                                 const char       *name)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  row = embers_labels_find_name_row (self, name);
  if (row == NULL)
    return FALSE;
  if (g_strcmp0 (self->label, name) == 0 && self->stats != NULL)
    return TRUE;
  g_free (self->label);
  self->label = g_strdup (name);
  mark_current_name (self);
  embers_labels_load_values (self);
  return TRUE;
}

void
embers_labels_page_prefer_label (EmbersLabelsPage *self,
                                 const char       *name)
{
  g_return_if_fail (EMBERS_IS_LABELS_PAGE (self));
  g_return_if_fail (name != NULL);

  /* Picked when the names arrive, if it is among them */
  if (!embers_labels_page_select_label (self, name) && self->label == NULL &&
      g_list_model_get_n_items (G_LIST_MODEL (self->names)) == 0)
    self->label = g_strdup (name);
}

const char *
embers_labels_page_get_label (EmbersLabelsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_LABELS_PAGE (self), NULL);
  return self->label;
}
