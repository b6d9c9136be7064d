/* embers-credentials.c: server credentials from the keyring or environment
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libsecret/secret.h>

#include "embers-credentials.h"

G_DEFINE_BOXED_TYPE (EmbersCredentials, embers_credentials,
                     embers_credentials_copy, embers_credentials_free)

static const SecretSchema server_schema = {
  EMBERS_CREDENTIALS_SCHEMA_NAME,
  SECRET_SCHEMA_NONE,
  {
    { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { "user", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { "tenant", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  },
};

const void *
embers_credentials_get_schema (void)
{
  return &server_schema;
}

static char *
dup_or_null (const char *s)
{
  return s != NULL && s[0] != '\0' ? g_strdup (s) : NULL;
}

EmbersCredentials *
embers_credentials_new (EmbersAuthKind  kind,
                        const char     *user,
                        const char     *secret,
                        const char     *tenant)
{
  EmbersCredentials *self = g_new0 (EmbersCredentials, 1);

  self->kind = kind;
  if (kind == EMBERS_AUTH_BASIC)
    self->user = g_strdup (user ? user : "");
  if (kind != EMBERS_AUTH_NONE)
    self->secret = g_strdup (secret ? secret : "");
  self->tenant = dup_or_null (tenant);

  return self;
}

EmbersCredentials *
embers_credentials_copy (const EmbersCredentials *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return embers_credentials_new (self->kind, self->user, self->secret, self->tenant);
}

void
embers_credentials_free (EmbersCredentials *self)
{
  if (self == NULL)
    return;

  if (self->secret != NULL)
    explicit_bzero (self->secret, strlen (self->secret));
  g_free (self->secret);
  g_free (self->user);
  g_free (self->tenant);
  g_free (self);
}

EmbersCredentials *
embers_credentials_from_environment (void)
{
  const char *user = g_getenv ("EMBERS_USER");
  const char *password = g_getenv ("EMBERS_PASSWORD");
  const char *token = g_getenv ("EMBERS_TOKEN");
  const char *tenant = g_getenv ("EMBERS_TENANT");

  if (user != NULL && user[0] != '\0')
    return embers_credentials_new (EMBERS_AUTH_BASIC, user, password, tenant);
  if (token != NULL && token[0] != '\0')
    return embers_credentials_new (EMBERS_AUTH_BEARER, NULL, token, tenant);
  if (tenant != NULL && tenant[0] != '\0')
    return embers_credentials_new (EMBERS_AUTH_NONE, NULL, NULL, tenant);

  return NULL;
}

void
embers_credentials_apply (const EmbersCredentials *self,
                          EmbersConnectClient     *client)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (client));

  embers_connect_client_set_basic_auth (client, NULL, NULL);
  embers_connect_client_set_bearer_token (client, NULL);

  switch (self->kind)
    {
    case EMBERS_AUTH_BASIC:
      embers_connect_client_set_basic_auth (client, self->user, self->secret);
      break;
    case EMBERS_AUTH_BEARER:
      embers_connect_client_set_bearer_token (client, self->secret);
      break;
    case EMBERS_AUTH_NONE:
    default:
      break;
    }

  embers_connect_client_set_tenant (client, self->tenant);
}

char *
embers_credentials_server_key (const char *server_url)
{
  return embers_connect_normalize_base_url (server_url, NULL);
}

static const char *
kind_to_string (EmbersAuthKind kind)
{
  switch (kind)
    {
    case EMBERS_AUTH_BASIC: return "basic";
    case EMBERS_AUTH_BEARER: return "bearer";
    case EMBERS_AUTH_NONE:
    default: return "none";
    }
}

static EmbersAuthKind
kind_from_string (const char *kind)
{
  if (g_strcmp0 (kind, "basic") == 0)
    return EMBERS_AUTH_BASIC;
  if (g_strcmp0 (kind, "bearer") == 0)
    return EMBERS_AUTH_BEARER;
  return EMBERS_AUTH_NONE;
}

static GHashTable *
server_attributes (const char *key)
{
  GHashTable *attributes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  g_hash_table_insert (attributes, (gpointer) "server", g_strdup (key));
  return attributes;
}

static gboolean
report_bad_url (const char          *server_url,
                gpointer             source_tag,
                GAsyncReadyCallback  callback,
                gpointer             user_data,
                char               **key)
{
  GError *error = NULL;

  *key = embers_connect_normalize_base_url (server_url, &error);
  if (*key == NULL)
    {
      g_task_report_error (NULL, callback, user_data, source_tag, error);
      return TRUE;
    }

  return FALSE;
}

/* ---- store --------------------------------------------------------------- */

typedef struct
{
  char              *key;
  EmbersCredentials *credentials;
} StoreData;

static void
store_data_free (StoreData *data)
{
  g_free (data->key);
  embers_credentials_free (data->credentials);
  g_free (data);
}

static GError *
keyring_error (const GError *error,
               const char   *what)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (error);

  /* libsecret's messages name the service, never the secret */
  return g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                      "%s: %s", what, error->message);
}

static void
on_stored (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!secret_password_store_finish (result, &error))
    {
      g_debug ("keyring: storing the secret failed: %s", error->message);
      g_task_return_error (task, keyring_error (error, _("Could not save the secret in the keyring")));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
on_cleared_before_store (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StoreData *data = g_task_get_task_data (task);
  g_autoptr(GHashTable) attributes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *label = NULL;

  secret_password_clear_finish (result, &error);
  if (error != NULL)
    {
      g_debug ("keyring: removing the old secret failed: %s", error->message);
      g_task_return_error (task, keyring_error (error, _("Could not save the secret in the keyring")));
      return;
    }

  if (data->credentials->kind == EMBERS_AUTH_NONE)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  attributes = server_attributes (data->key);
  g_hash_table_insert (attributes, (gpointer) "user",
                       g_strdup (data->credentials->user ? data->credentials->user : ""));
  g_hash_table_insert (attributes, (gpointer) "kind",
                       g_strdup (kind_to_string (data->credentials->kind)));
  g_hash_table_insert (attributes, (gpointer) "tenant",
                       g_strdup (data->credentials->tenant ? data->credentials->tenant : ""));

  /* TRANSLATORS: the keyring item's label; %s is a server address */
  label = g_strdup_printf (_("Embers: Pyroscope server %s"), data->key);

  secret_password_storev (&server_schema, attributes, SECRET_COLLECTION_DEFAULT, label,
                          data->credentials->secret, g_task_get_cancellable (task),
                          on_stored, g_object_ref (task));
}

void
embers_credentials_store_async (const char              *server_url,
                                const EmbersCredentials *credentials,
                                GCancellable            *cancellable,
                                GAsyncReadyCallback      callback,
                                gpointer                 user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  StoreData *data;
  char *key = NULL;

  g_return_if_fail (credentials != NULL);

  if (report_bad_url (server_url, embers_credentials_store_async, callback, user_data, &key))
    return;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_credentials_store_async);

  data = g_new0 (StoreData, 1);
  data->key = key;
  data->credentials = embers_credentials_copy (credentials);
  g_task_set_task_data (task, data, (GDestroyNotify) store_data_free);

  /* One entry per server: drop what was there (another user, another kind). */
  attributes = server_attributes (data->key);
  secret_password_clearv (&server_schema, attributes, cancellable,
                          on_cleared_before_store, g_steal_pointer (&task));
}

gboolean
embers_credentials_store_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- lookup -------------------------------------------------------------- */

typedef struct
{
  EmbersAuthKind  kind;
  char           *user;
  char           *tenant;
} LookupData;

static void
lookup_data_free (LookupData *data)
{
  g_free (data->user);
  g_free (data->tenant);
  g_free (data);
}

static void
on_secret_retrieved (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LookupData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  SecretValue *value;

  value = secret_retrievable_retrieve_secret_finish (SECRET_RETRIEVABLE (object), result, &error);
  if (value == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_debug ("keyring: reading the stored secret failed: %s",
               error ? error->message : "no value");
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  g_task_return_pointer (task,
                         embers_credentials_new (data->kind, data->user,
                                                 secret_value_get_text (value), data->tenant),
                         (GDestroyNotify) embers_credentials_free);
  secret_value_unref (value);
}

static void
on_searched (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  GList *items;
  SecretRetrievable *best = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  GCancellable *cancellable;
  LookupData *data;

  items = secret_password_search_finish (result, &error);
  if (error != NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      /* No session bus, no Secret Service, locked and dismissed... */
      g_debug ("keyring: not reachable, so no stored secret: %s", error->message);
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  for (GList *l = items; l != NULL; l = l->next)
    {
      SecretRetrievable *item = l->data;

      if (best == NULL || secret_retrievable_get_modified (item) > secret_retrievable_get_modified (best))
        best = item;
    }

  if (best == NULL)
    {
      g_debug ("keyring: nothing stored for this server");
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  attributes = secret_retrievable_get_attributes (best);
  data = g_new0 (LookupData, 1);
  data->kind = kind_from_string (g_hash_table_lookup (attributes, "kind"));
  data->user = g_strdup (g_hash_table_lookup (attributes, "user"));
  data->tenant = dup_or_null (g_hash_table_lookup (attributes, "tenant"));
  g_task_set_task_data (task, data, (GDestroyNotify) lookup_data_free);

  cancellable = g_task_get_cancellable (task);
  secret_retrievable_retrieve_secret (best, cancellable, on_secret_retrieved, g_steal_pointer (&task));

  g_list_free_full (items, g_object_unref);
}

void
embers_credentials_lookup_async (const char          *server_url,
                                 const char          *user,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  g_autofree char *key = NULL;

  if (report_bad_url (server_url, embers_credentials_lookup_async, callback, user_data, &key))
    return;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_credentials_lookup_async);

  attributes = server_attributes (key);
  if (user != NULL)
    g_hash_table_insert (attributes, (gpointer) "user", g_strdup (user));

  secret_password_searchv (&server_schema, attributes,
                           SECRET_SEARCH_ALL | SECRET_SEARCH_UNLOCK,
                           cancellable, on_searched, g_steal_pointer (&task));
}

EmbersCredentials *
embers_credentials_lookup_finish (GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- clear --------------------------------------------------------------- */

static void
on_cleared (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  secret_password_clear_finish (result, &error);
  if (error != NULL)
    {
      g_debug ("keyring: removing the secret failed: %s", error->message);
      g_task_return_error (task, keyring_error (error, _("Could not remove the secret from the keyring")));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

void
embers_credentials_clear_async (const char          *server_url,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  g_autofree char *key = NULL;

  if (report_bad_url (server_url, embers_credentials_clear_async, callback, user_data, &key))
    return;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_credentials_clear_async);

  attributes = server_attributes (key);
  secret_password_clearv (&server_schema, attributes, cancellable,
                          on_cleared, g_steal_pointer (&task));
}

gboolean
embers_credentials_clear_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
