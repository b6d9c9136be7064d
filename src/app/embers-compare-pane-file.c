/* embers-compare-pane-file.c: a side that is a file or a query URL
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-compare-pane-private.h"
#include "embers-file-filters.h"
#include "embers-format.h"

/* A Pyroscope query URL for people: "process_cpu:cpu {service_name="api"}
 * on host:port"; the URL itself when it does not parse */
char *
embers_compare_pane_describe_url (const char *url)
{
  g_autoptr(EmbersQueryUrl) parsed = embers_query_url_parse (url, g_get_real_time () / 1000, NULL);
  g_autoptr(EmbersProfileTypeInfo) info = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autofree char *host = NULL;

  if (parsed == NULL)
    return embers_text_mask_credentials (url);
  info = embers_profile_type_info_new (parsed->query->profile_type);
  uri = g_uri_parse (parsed->base_url, G_URI_FLAGS_NONE, NULL);
  if (uri != NULL && g_uri_get_port (uri) > 0)
    host = g_strdup_printf ("%s:%d", g_uri_get_host (uri), g_uri_get_port (uri));
  else
    host = g_strdup (uri != NULL ? g_uri_get_host (uri) : parsed->base_url);
  /* Translators: a query URL as one side of a comparison: profile type,
   * label selector, then the server, e.g. process_cpu:cpu {service_name="api"} on localhost:4040 */
  return g_strdup_printf (_("%s:%s %s on %s"),
                          info != NULL ? info->name : parsed->query->profile_type,
                          info != NULL ? info->sample_type : "",
                          parsed->query->label_selector, host);
}

/* Files and their sample types */

static char *
sample_type_text (EmbersProfile *profile,
                  guint          index)
{
  const char *unit = embers_profile_get_sample_unit (profile, index);

  if (unit == NULL || unit[0] == '\0')
    return g_strdup (embers_profile_get_sample_type (profile, index));
  /* Translators: a sample type and its unit, e.g. cpu (nanoseconds) */
  return g_strdup_printf (_("%s (%s)"), embers_profile_get_sample_type (profile, index), unit);
}

guint
embers_compare_pane_get_sample_index (EmbersComparePane *self,
                                      EmbersProfile     *profile)
{
  int index;

  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), 0);

  index = self->sample_type != NULL ? embers_profile_find_sample_type (profile, self->sample_type) : -1;
  return index >= 0 ? (guint) index : embers_profile_get_default_sample_type (profile);
}

static void
fill_samples (EmbersComparePane *self)
{
  guint n = self->profile != NULL ? embers_profile_get_n_sample_types (self->profile) : 0;
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (shown, sample_type_text (self->profile, i));
  g_ptr_array_add (shown, NULL);

  self->filling = TRUE;
  gtk_string_list_splice (self->samples, 0, g_list_model_get_n_items (G_LIST_MODEL (self->samples)),
                          (const char * const *) shown->pdata);
  if (n > 0)
    gtk_drop_down_set_selected (self->sample_dropdown, embers_compare_pane_get_sample_index (self, self->profile));
  self->filling = FALSE;
  gtk_widget_set_visible (self->sample_box, self->kind == EMBERS_COMPARE_PANE_FILE && n > 0);
}

gboolean
embers_compare_pane_choose_sample (EmbersComparePane *self,
                                   const char        *name,
                                   gboolean           as_user)
{
  int index;

  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), FALSE);

  index = self->profile != NULL ? embers_profile_find_sample_type (self->profile, name) : -1;
  if (self->profile != NULL && index < 0)
    return FALSE;
  if (as_user && self->profile != NULL)
    {
      /* As the user would: the drop-down, and the partner follows */
      gtk_drop_down_set_selected (self->sample_dropdown, (guint) index);
      return TRUE;
    }
  g_free (self->sample_type);
  self->sample_type = g_strdup (name);
  if (self->profile != NULL)
    gtk_drop_down_set_selected (self->sample_dropdown, (guint) index);
  return TRUE;
}

void
embers_compare_pane_sample_changed (GtkDropDown       *dropdown,
                GParamSpec        *pspec,
                EmbersComparePane *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);
  EmbersComparePane *other = self->partner;
  const char *name;

  if (self->filling || self->profile == NULL || selected == GTK_INVALID_LIST_POSITION ||
      selected >= embers_profile_get_n_sample_types (self->profile))
    return;
  name = embers_profile_get_sample_type (self->profile, selected);
  if (g_strcmp0 (name, self->sample_type) == 0)
    return;
  g_free (self->sample_type);
  self->sample_type = g_strdup (name);

  /* The other file follows when it has that type: cpu with cpu */
  if (other != NULL && other->kind == EMBERS_COMPARE_PANE_FILE && other->profile != NULL &&
      embers_profile_find_sample_type (other->profile, name) >= 0)
    embers_compare_pane_choose_sample (other, name, FALSE);
  g_signal_emit (self, embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_SAMPLE_CHOSEN], 0);
}

static void
load_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Request) req = user_data;
  EmbersComparePane *self = req->self;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  profile = embers_profile_load_file_finish (result, &error);
  if (!embers_compare_pane_request_is_current (req, &self->load_cancellable))
    return;
  if (profile == NULL)
    {
      g_autofree char *name = g_file_get_basename (self->file);
      g_autofree char *message = g_strdup_printf ("%s: %s", name, error->message);

      if (!embers_compare_is_cancelled (error))
        embers_compare_pane_say (self, message);
      return;
    }
  g_set_object (&self->profile, profile);
  fill_samples (self);
  g_signal_emit (self, embers_compare_pane_signals[EMBERS_COMPARE_PANE_SIGNAL_SAMPLES_LOADED], 0);
}

void
embers_compare_pane_take_loaded (EmbersComparePane *self,
                                 GFile             *file,
                                 EmbersProfile     *profile)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PANE (self));

  if (profile != NULL && self->kind == EMBERS_COMPARE_PANE_FILE && self->profile == NULL &&
      self->file != NULL && file != NULL && g_file_equal (self->file, file))
    {
      g_set_object (&self->profile, profile);
      fill_samples (self);
    }
}

void
embers_compare_pane_forget_source (EmbersComparePane *self)
{
  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->profile);
}

void
embers_compare_pane_set_file (EmbersComparePane *self,
                              GFile             *file,
                              gboolean           preload)
{
  g_autofree char *name = NULL;

  g_return_if_fail (EMBERS_IS_COMPARE_PANE (self));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  embers_compare_pane_forget_source (self);
  g_clear_pointer (&self->url, g_free);
  /* Another file starts from its own default type */
  if (file == NULL || self->file == NULL || !g_file_equal (file, self->file))
    g_clear_pointer (&self->sample_type, g_free);
  g_set_object (&self->file, file);
  if (file != NULL)
    name = g_file_get_basename (file);
  gtk_label_set_text (self->file_label, name != NULL ? name : _("No file chosen"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->file_label), file != NULL ? g_file_peek_path (file) : NULL);
  embers_compare_pane_set_kind (self, embers_compare_pane_file_kind (self));
  fill_samples (self);

  /* Its sample types, before anything is compared */
  if (file != NULL && preload)
    {
      Request *req = embers_compare_pane_request_new (self, &self->load_cancellable);

      embers_profile_load_file_async (file, req->cancellable, load_done, req);
    }
}

void
embers_compare_pane_set_url (EmbersComparePane *self,
                             const char        *url)
{
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;

  g_return_if_fail (EMBERS_IS_COMPARE_PANE (self));
  g_return_if_fail (url != NULL);

  text = embers_compare_pane_describe_url (url);
  shown = embers_text_mask_credentials (url);
  embers_compare_pane_forget_source (self);
  g_clear_object (&self->file);
  g_free (self->url);
  self->url = g_strdup (url);
  gtk_label_set_text (self->file_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->file_label), shown);
  embers_compare_pane_set_kind (self, EMBERS_COMPARE_PANE_URL);
}

void
embers_compare_pane_set_file_or_url (EmbersComparePane *self,
                                     GFile             *file)
{
  g_autofree char *url = embers_location_dup_query_url (file);

  if (url != NULL)
    embers_compare_pane_set_url (self, url);
  else
    embers_compare_pane_set_file (self, file, FALSE);
}

static void
file_chosen (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersComparePane) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, &error);

  /* Dismissed: nothing to do (a failure the portal already showed) */
  if (file != NULL && self->dialog_cancellable != NULL)
    embers_compare_pane_set_file (self, file, TRUE);
}

void
embers_compare_pane_choose_file_clicked (GtkButton         *button,
                     EmbersComparePane *self)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (button));
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, self->comparison ? _("Choose the Comparison Profile")
                                                      : _("Choose the Baseline Profile"));
  gtk_file_dialog_set_accept_label (dialog, _("_Choose"));
  gtk_file_dialog_set_filters (dialog, embers_file_filters_profiles ());
  gtk_file_dialog_open (dialog, GTK_IS_WINDOW (native) ? GTK_WINDOW (native) : NULL,
                        self->dialog_cancellable, file_chosen, g_object_ref (self));
}

GFile *
embers_compare_pane_get_file (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return self->kind == EMBERS_COMPARE_PANE_FILE ? self->file : NULL;
}

EmbersProfile *
embers_compare_pane_get_profile (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return self->profile;
}

const char *
embers_compare_pane_get_sample_type (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return self->sample_type;
}

void
embers_compare_pane_clear_sample_type (EmbersComparePane *self)
{
  g_return_if_fail (EMBERS_IS_COMPARE_PANE (self));
  g_clear_pointer (&self->sample_type, g_free);
}

const char *
embers_compare_pane_get_file_text (EmbersComparePane *self)
{
  g_return_val_if_fail (EMBERS_IS_COMPARE_PANE (self), NULL);
  return gtk_label_get_text (self->file_label);
}
