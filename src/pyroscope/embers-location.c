/* embers-location.c: is this a file or a query URL, in one place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-format.h"
#include "embers-location.h"
#include "embers-query-url.h"

EmbersLocationKind
embers_location_classify (const char *text)
{
  g_return_val_if_fail (text != NULL, EMBERS_LOCATION_FILE);

  return embers_query_url_is_url (text) ? EMBERS_LOCATION_QUERY_URL : EMBERS_LOCATION_FILE;
}

char *
embers_location_dup_query_url (GFile *file)
{
  g_autofree char *uri = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  if (g_file_is_native (file))
    return NULL;
  uri = g_file_get_uri (file);
  if (uri == NULL || embers_location_classify (uri) != EMBERS_LOCATION_QUERY_URL)
    return NULL;
  return g_steal_pointer (&uri);
}

EmbersLocationKind
embers_location_classify_file (GFile *file)
{
  g_autofree char *url = embers_location_dup_query_url (file);

  return url != NULL ? EMBERS_LOCATION_QUERY_URL : EMBERS_LOCATION_FILE;
}

GFile *
embers_location_new_for_arg (const char *text)
{
  g_return_val_if_fail (text != NULL, NULL);

  if (embers_location_classify (text) == EMBERS_LOCATION_QUERY_URL)
    return g_file_new_for_uri (text);
  return g_file_new_for_commandline_arg (text);
}

EmbersProfile *
embers_location_load (GFile         *file,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autofree char *url = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  url = embers_location_dup_query_url (file);
  if (url != NULL)
    return embers_pyroscope_load_query_url (url, cancellable, error);
  return embers_profile_load_file (file, cancellable, error);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  EmbersProfile *profile = embers_location_load (task_data, cancellable, &error);

  if (profile == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, profile, g_object_unref);
}

void
embers_location_load_async (GFile               *file,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_location_load_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

EmbersProfile *
embers_location_load_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_async_result_is_tagged (result, embers_location_load_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
