/* embers-connect-client.c: Connect unary calls over libsoup 3
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Secrets (passwords, tokens) are only ever put into the Authorization
 * header; nothing here logs headers, bodies or credentials.
 */

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <zlib.h>

#include "embers-connect-client.h"
#include "embers-format.h"
#include "embers-protojson.h"
#include "embers-server-json.h"
#include "embers-text.h"

/* Where Pyroscope is reached through Grafana (kept out of the translatable
 * text: a URL is not translated) */
#define GRAFANA_PROXY_HINT "https://GRAFANA/api/datasources/proxy/uid/UID"

#define READ_CHUNK          (256 * 1024)
#define MAX_ERROR_BODY      (1024 * 1024)

struct _EmbersConnectClient
{
  GObject                parent_instance;

  SoupSession           *session;
  GUri                  *base_uri;
  char                  *base_url;
  EmbersConnectEncoding  encoding;
  char                  *tenant;
  char                  *basic_user;
  char                  *basic_password;
  char                  *bearer_token;
  guint                  timeout_ms;
  char                  *timeout_setting;   /* what raises the timeout, for messages */
  gsize                  max_response_size;
  /* Connections that have carried an answer: a failure on one of them
   * before any answer is the server closing an idle connection, and a
   * read-only call is sent once more on a new one */
  GHashTable            *answered_connections;
};

G_DEFINE_FINAL_TYPE (EmbersConnectClient, embers_connect_client, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BASE_URL,
  PROP_ENCODING,
  PROP_TENANT,
  PROP_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
free_secret (char **secret)
{
  if (*secret != NULL)
    {
      explicit_bzero (*secret, strlen (*secret));
      g_clear_pointer (secret, g_free);
    }
}

static void
embers_connect_client_finalize (GObject *object)
{
  EmbersConnectClient *self = (EmbersConnectClient *)object;

  g_clear_object (&self->session);
  g_clear_pointer (&self->answered_connections, g_hash_table_unref);
  g_clear_pointer (&self->base_uri, g_uri_unref);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->tenant, g_free);
  g_clear_pointer (&self->timeout_setting, g_free);
  free_secret (&self->basic_user);
  free_secret (&self->basic_password);
  free_secret (&self->bearer_token);

  G_OBJECT_CLASS (embers_connect_client_parent_class)->finalize (object);
}

static void
embers_connect_client_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  EmbersConnectClient *self = EMBERS_CONNECT_CLIENT (object);

  switch (prop_id)
    {
    case PROP_BASE_URL:
      g_value_set_string (value, self->base_url);
      break;
    case PROP_ENCODING:
      g_value_set_int (value, self->encoding);
      break;
    case PROP_TENANT:
      g_value_set_string (value, self->tenant);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, embers_connect_client_get_timeout (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_connect_client_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  EmbersConnectClient *self = EMBERS_CONNECT_CLIENT (object);

  switch (prop_id)
    {
    case PROP_ENCODING:
      embers_connect_client_set_encoding (self, g_value_get_int (value));
      break;
    case PROP_TENANT:
      embers_connect_client_set_tenant (self, g_value_get_string (value));
      break;
    case PROP_TIMEOUT:
      embers_connect_client_set_timeout (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_connect_client_class_init (EmbersConnectClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = embers_connect_client_finalize;
  object_class->get_property = embers_connect_client_get_property;
  object_class->set_property = embers_connect_client_set_property;

  properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ENCODING] =
    g_param_spec_int ("encoding", NULL, NULL,
                      EMBERS_CONNECT_ENCODING_PROTO, EMBERS_CONNECT_ENCODING_JSON,
                      EMBERS_CONNECT_ENCODING_PROTO,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TENANT] =
    g_param_spec_string ("tenant", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 0, G_MAXUINT / 1000, EMBERS_CONNECT_DEFAULT_TIMEOUT_S,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
embers_connect_client_init (EmbersConnectClient *self)
{
  self->encoding = EMBERS_CONNECT_ENCODING_PROTO;
  self->timeout_ms = EMBERS_CONNECT_DEFAULT_TIMEOUT_S * 1000;
  self->max_response_size = EMBERS_CONNECT_DEFAULT_MAX_RESPONSE_SIZE;
  self->answered_connections = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

static gboolean
parse_base_url (const char  *url,
                GUri       **out_uri,
                char       **out_user,
                char       **out_password,
                GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *host_lower = NULL;
  g_autofree char *shown = NULL;
  const char *scheme;
  const char *host;
  gsize len;
  int port;

  if (url == NULL || url[0] == '\0')
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   _("The server address is empty"));
      return FALSE;
    }

  /* Messages show the address, never its password */
  shown = embers_text_mask_credentials (url);
  uri = g_uri_parse (url, G_URI_FLAGS_HAS_PASSWORD | G_URI_FLAGS_ENCODED_PATH |
                          G_URI_FLAGS_ENCODED_QUERY | G_URI_FLAGS_ENCODED_FRAGMENT,
                     &local_error);
  if (uri == NULL)
    {
      g_autofree char *why = embers_text_mask_credentials (local_error->message);

      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a valid server address: %s"), shown, why);
      return FALSE;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a server address: it must start with http:// or https://"), shown);
      return FALSE;
    }

  host = g_uri_get_host (uri);
  if (host == NULL || host[0] == '\0')
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   _("“%s” has no host name"), shown);
      return FALSE;
    }

  /* The path is an opaque prefix: keep it as written, minus trailing slashes. */
  path = g_strdup (g_uri_get_path (uri));
  len = strlen (path);
  while (len > 0 && path[len - 1] == '/')
    path[--len] = '\0';

  if (out_user != NULL)
    *out_user = g_strdup (g_uri_get_user (uri));
  if (out_password != NULL)
    *out_password = g_strdup (g_uri_get_password (uri));

  /* Default ports and host case go, so equal servers get equal keys */
  port = g_uri_get_port (uri);
  if ((port == 80 && g_str_equal (scheme, "http")) || (port == 443 && g_str_equal (scheme, "https")))
    port = -1;
  host_lower = g_ascii_strdown (host, -1);
  *out_uri = g_uri_build (G_URI_FLAGS_ENCODED_PATH, scheme, NULL, host_lower, port,
                          path, NULL, NULL);
  return TRUE;
}

char *
embers_connect_normalize_base_url (const char  *url,
                                   GError     **error)
{
  g_autoptr(GUri) uri = NULL;

  if (!parse_base_url (url, &uri, NULL, NULL, error))
    return NULL;

  return g_uri_to_string (uri);
}

EmbersConnectClient *
embers_connect_client_new (const char  *base_url,
                           GError     **error)
{
  g_autoptr(EmbersConnectClient) self = NULL;
  g_autofree char *user = NULL;
  g_autofree char *password = NULL;
  GUri *uri = NULL;

  if (!parse_base_url (base_url, &uri, &user, &password, error))
    return NULL;

  self = g_object_new (EMBERS_TYPE_CONNECT_CLIENT, NULL);
  self->base_uri = uri;
  self->base_url = g_uri_to_string (uri);
  /* Six connections as browsers open (libsoup's default is two): a chart,
   * a flame graph and label counts are asked for at once over HTTP/1.1 */
  self->session = soup_session_new_with_options ("user-agent", "Embers/" PACKAGE_VERSION " ",
                                                 "timeout", EMBERS_CONNECT_DEFAULT_TIMEOUT_S,
                                                 "max-conns-per-host", 6,
                                                 "max-conns", 12,
                                                 NULL);
  /* libsoup's decoder hides a gzip stream or a body cut short by a dropped
   * connection: we inflate ourselves and check lengths (no silent short
   * answers) */
  soup_session_remove_feature_by_type (self->session, SOUP_TYPE_CONTENT_DECODER);

  /* TLS is verified against the system's trust store; EMBERS_CA_FILE adds
   * a PEM file of certificates to trust instead (a self-signed server) */
  {
    const char *ca_file = g_getenv ("EMBERS_CA_FILE");

    if (ca_file != NULL && ca_file[0] != '\0')
      {
        g_autoptr(GError) ca_error = NULL;
        g_autoptr(GTlsDatabase) database = g_tls_file_database_new (ca_file, &ca_error);

        if (database == NULL)
          {
            g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                         _("EMBERS_CA_FILE: cannot read the certificates in “%s”: %s"),
                         ca_file, ca_error->message);
            return NULL;
          }
        soup_session_set_tls_database (self->session, database);
      }
  }

  if (user != NULL && user[0] != '\0')
    embers_connect_client_set_basic_auth (self, user, password ? password : "");

  free_secret (&password);

  return g_steal_pointer (&self);
}

const char *
embers_connect_client_get_base_url (EmbersConnectClient *self)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_CLIENT (self), NULL);

  return self->base_url;
}

char *
embers_connect_client_dup_display_name (EmbersConnectClient *self)
{
  const char *url;

  g_return_val_if_fail (EMBERS_IS_CONNECT_CLIENT (self), NULL);

  url = strstr (self->base_url, "://");
  return g_strdup (url ? url + 3 : self->base_url);
}

void
embers_connect_client_set_encoding (EmbersConnectClient   *self,
                                    EmbersConnectEncoding  encoding)
{
  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (self));

  if (self->encoding == encoding)
    return;

  self->encoding = encoding;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENCODING]);
}

EmbersConnectEncoding
embers_connect_client_get_encoding (EmbersConnectClient *self)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_CLIENT (self), EMBERS_CONNECT_ENCODING_PROTO);

  return self->encoding;
}

void
embers_connect_client_set_tenant (EmbersConnectClient *self,
                                  const char          *tenant)
{
  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (self));

  if (tenant != NULL && tenant[0] == '\0')
    tenant = NULL;

  if (g_strcmp0 (self->tenant, tenant) == 0)
    return;

  g_free (self->tenant);
  self->tenant = g_strdup (tenant);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TENANT]);
}

const char *
embers_connect_client_get_tenant (EmbersConnectClient *self)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_CLIENT (self), NULL);

  return self->tenant;
}

void
embers_connect_client_set_basic_auth (EmbersConnectClient *self,
                                      const char          *user,
                                      const char          *password)
{
  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (self));

  free_secret (&self->basic_user);
  free_secret (&self->basic_password);

  if (user != NULL && user[0] != '\0')
    {
      self->basic_user = g_strdup (user);
      self->basic_password = g_strdup (password ? password : "");
    }
}

void
embers_connect_client_set_bearer_token (EmbersConnectClient *self,
                                        const char          *token)
{
  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (self));

  free_secret (&self->bearer_token);

  if (token != NULL && token[0] != '\0')
    self->bearer_token = g_strdup (token);
}

gboolean
embers_connect_client_has_auth (EmbersConnectClient *self)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_CLIENT (self), FALSE);

  return self->basic_user != NULL || self->bearer_token != NULL;
}

void
embers_connect_client_set_timeout_ms (EmbersConnectClient *self,
                                      guint                ms)
{
  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (self));

  if (self->timeout_ms == ms)
    return;

  self->timeout_ms = ms;
  /* The socket timeout is whole seconds; our own timer keeps the exact deadline. */
  soup_session_set_timeout (self->session, ms == 0 ? 0 : MAX (1, (ms + 999) / 1000));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT]);
}

void
embers_connect_client_set_timeout (EmbersConnectClient *self,
                                   guint                seconds)
{
  embers_connect_client_set_timeout_ms (self, MIN (seconds, G_MAXUINT / 1000) * 1000);
}

void
embers_connect_client_set_timeout_setting (EmbersConnectClient *self,
                                           const char          *setting)
{
  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (self));

  g_free (self->timeout_setting);
  self->timeout_setting = g_strdup (setting);
}

guint
embers_connect_client_get_timeout (EmbersConnectClient *self)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_CLIENT (self), 0);

  return (self->timeout_ms + 999) / 1000;
}

void
embers_connect_client_set_max_response_size (EmbersConnectClient *self,
                                             gsize                max_size)
{
  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (self));

  self->max_response_size = max_size > 0 ? max_size : EMBERS_CONNECT_DEFAULT_MAX_RESPONSE_SIZE;
}

/* ---- error mapping ------------------------------------------------------ */

static const struct {
  const char        *name;
  EmbersSourceError  code;
} connect_codes[] = {
  { "canceled", EMBERS_SOURCE_ERROR_CANCELED },
  { "unknown", EMBERS_SOURCE_ERROR_UNKNOWN },
  { "invalid_argument", EMBERS_SOURCE_ERROR_INVALID_ARGUMENT },
  { "deadline_exceeded", EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED },
  { "not_found", EMBERS_SOURCE_ERROR_NOT_FOUND },
  { "already_exists", EMBERS_SOURCE_ERROR_ALREADY_EXISTS },
  { "permission_denied", EMBERS_SOURCE_ERROR_PERMISSION_DENIED },
  { "resource_exhausted", EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED },
  { "failed_precondition", EMBERS_SOURCE_ERROR_FAILED_PRECONDITION },
  { "aborted", EMBERS_SOURCE_ERROR_ABORTED },
  { "out_of_range", EMBERS_SOURCE_ERROR_OUT_OF_RANGE },
  { "unimplemented", EMBERS_SOURCE_ERROR_UNIMPLEMENTED },
  { "internal", EMBERS_SOURCE_ERROR_INTERNAL },
  { "unavailable", EMBERS_SOURCE_ERROR_UNAVAILABLE },
  { "data_loss", EMBERS_SOURCE_ERROR_DATA_LOSS },
  { "unauthenticated", EMBERS_SOURCE_ERROR_UNAUTHENTICATED },
};

EmbersSourceError
embers_connect_code_from_string (const char *code)
{
  if (code == NULL)
    return EMBERS_SOURCE_ERROR_UNKNOWN;

  for (guint i = 0; i < G_N_ELEMENTS (connect_codes); i++)
    {
      if (g_ascii_strcasecmp (code, connect_codes[i].name) == 0)
        return connect_codes[i].code;
    }

  /* "cancelled" is how gRPC spells it */
  if (g_ascii_strcasecmp (code, "cancelled") == 0)
    return EMBERS_SOURCE_ERROR_CANCELED;

  return EMBERS_SOURCE_ERROR_UNKNOWN;
}

const char *
embers_connect_code_to_string (EmbersSourceError code)
{
  for (guint i = 0; i < G_N_ELEMENTS (connect_codes); i++)
    {
      if (connect_codes[i].code == code)
        return connect_codes[i].name;
    }

  return "unknown";
}

/* A short single line of text a person can read, from what a server said. */
static char *
sanitize_text (const char *text,
               gssize      len,
               guint       max_chars)
{
  g_autofree char *valid = g_utf8_make_valid (text, len);
  g_autoptr(GString) s = g_string_new (NULL);
  const char *p = valid;
  gboolean space = FALSE;
  guint n = 0;

  while (*p != '\0' && n < max_chars)
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c) || g_unichar_iscntrl (c))
        space = s->len > 0;
      else
        {
          if (space)
            g_string_append_c (s, ' ');
          space = FALSE;
          g_string_append_unichar (s, c);
          n++;
        }
      p = g_utf8_next_char (p);
    }

  if (*p != '\0')
    g_string_append (s, "…");

  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The same, line by line (at most max_lines), for answers that list one
 * problem per line */
static char *
sanitize_lines (const char *text,
                guint       max_chars,
                guint       max_lines)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GString) s = g_string_new (NULL);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *line = sanitize_text (lines[i], -1, max_chars);

      if (line[0] == '\0')
        continue;
      if (n == max_lines)
        {
          g_string_append (s, "\n…");
          break;
        }
      if (n++ > 0)
        g_string_append_c (s, '\n');
      g_string_append (s, line);
    }

  return g_string_free (g_steal_pointer (&s), FALSE);
}

static gboolean
looks_like_html (const char   *content_type,
                 const guint8 *body,
                 gsize         len)
{
  gsize i = 0;

  if (content_type != NULL && g_str_has_prefix (content_type, "text/html"))
    return TRUE;

  while (i < len && g_ascii_isspace (body[i]))
    i++;

  if (len - i >= 9 && g_ascii_strncasecmp ((const char *) body + i, "<!doctype", 9) == 0)
    return TRUE;
  if (len - i >= 5 && g_ascii_strncasecmp ((const char *) body + i, "<html", 5) == 0)
    return TRUE;

  return FALSE;
}

static char *
html_title (const guint8 *body,
            gsize         len)
{
  g_autofree char *text = g_strndup ((const char *) body, MIN (len, 64 * 1024));
  g_autofree char *lower = g_ascii_strdown (text, -1);
  const char *start = strstr (lower, "<title");
  const char *end;

  if (start == NULL || (start = strchr (start, '>')) == NULL)
    return NULL;
  start++;
  end = strstr (start, "</title");
  if (end == NULL || end == start)
    return NULL;

  return sanitize_text (text + (start - lower), end - start, 80);
}

/* What a JSON error body says: a Connect error ({"code", "message",
 * "details"}), or another JSON error, from Grafana ({"message"}) or a proxy
 * ({"error"} or {"error": {"message"}}), which has no code */
typedef struct
{
  char *code;      /* Connect code, NULL for a body without one */
  char *message;   /* one line (or lines for rules), sanitized */
  char *details;   /* the details, one line, sanitized; NULL for none */
  char *unreadable; /* why a JSON body could not be read */
} ErrorBody;

static void
error_body_clear (ErrorBody *body)
{
  g_clear_pointer (&body->code, g_free);
  g_clear_pointer (&body->message, g_free);
  g_clear_pointer (&body->details, g_free);
  g_clear_pointer (&body->unreadable, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ErrorBody, error_body_clear)

static const char *
string_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* "reason=X domain=Y" from a detail's debug object (its string and number
 * leaves, one level down at most) */
static void
append_debug (GString  *out,
              JsonNode *node,
              guint     depth)
{
  if (out->len > 300 || depth > 2)
    return;
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GValue value = G_VALUE_INIT;
      g_autofree char *text = NULL;

      json_node_get_value (node, &value);
      if (G_VALUE_HOLDS_STRING (&value))
        text = g_value_dup_string (&value);
      else if (G_VALUE_HOLDS_INT64 (&value))
        text = g_strdup_printf ("%" G_GINT64_FORMAT, g_value_get_int64 (&value));
      else if (G_VALUE_HOLDS_DOUBLE (&value))
        text = g_strdup_printf ("%g", g_value_get_double (&value));
      else if (G_VALUE_HOLDS_BOOLEAN (&value))
        text = g_strdup (g_value_get_boolean (&value) ? "true" : "false");
      g_value_unset (&value);
      if (text != NULL)
        g_string_append (out, text);
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *member;
      gboolean first = TRUE;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &key, &member))
        {
          if (!first)
            g_string_append (out, ", ");
          first = FALSE;
          g_string_append_printf (out, "%s=", key);
          append_debug (out, member, depth + 1);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array) && i < 8; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_debug (out, json_array_get_element (array, i), depth + 1);
        }
    }
}

/* Connect's details: [{"type": "google.rpc.ErrorInfo", "value": base64,
 * "debug": {…}}, …] as "ErrorInfo: reason=…, domain=…; …" */
static char *
details_text (JsonNode *node)
{
  g_autoptr(GString) out = g_string_new (NULL);
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array) && i < 8; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *detail;
      const char *type;
      JsonNode *debug;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      detail = json_node_get_object (element);
      type = string_member (detail, "type");
      debug = json_object_get_member (detail, "debug");
      if (out->len > 0)
        g_string_append (out, "; ");
      if (type != NULL)
        {
          const char *dot = strrchr (type, '.');
          g_string_append (out, dot != NULL ? dot + 1 : type);
        }
      if (debug != NULL)
        {
          if (type != NULL)
            g_string_append (out, ": ");
          append_debug (out, debug, 0);
        }
    }
  if (out->len == 0)
    return NULL;
  return sanitize_text (out->str, -1, 300);
}

static gboolean
parse_error_body (const guint8 *body,
                  gsize         len,
                  gboolean      keep_lines,
                  ErrorBody    *out)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  const char *code;
  const char *message;

  if (body == NULL || !embers_server_json_is_object ((const char *) body, len))
    return FALSE;
  /* The one parser of server JSON: capped, and never deeper than it can
   * recurse (an 80,000-level error body overflowed the stack) */
  root = embers_server_json_parse ((const char *) body, len, MAX_ERROR_BODY, &error);
  if (root == NULL)
    {
      /* Said as such, not shown as raw JSON */
      out->unreadable = g_strdup (error->message);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    return FALSE;
  object = json_node_get_object (root);

  code = string_member (object, "code");
  message = string_member (object, "message");
  if (message == NULL)
    message = string_member (object, "error");
  if (message == NULL && json_object_has_member (object, "error") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "error")))
    message = string_member (json_object_get_object_member (object, "error"), "message");
  if (code == NULL && message == NULL)
    return FALSE;

  out->code = g_strdup (code);
  if (message != NULL)
    out->message = keep_lines ? sanitize_lines (message, 400, 20) : sanitize_text (message, -1, 400);
  out->details = details_text (json_object_get_member (object, "details"));
  return TRUE;
}

/* A code by what the message says as well: servers and proxies answer
 * "unknown" or "internal" for what has a code of its own */
static EmbersSourceError
refine_code (EmbersSourceError  code,
             const char        *message)
{
  g_autofree char *lower = NULL;

  if (message == NULL || (code != EMBERS_SOURCE_ERROR_UNKNOWN && code != EMBERS_SOURCE_ERROR_INTERNAL))
    return code;
  lower = g_ascii_strdown (message, -1);
  if (strstr (lower, "deadline exceeded") != NULL || strstr (lower, "timeout") != NULL)
    return EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED;
  if (strstr (lower, "context canceled") != NULL)
    return EMBERS_SOURCE_ERROR_CANCELED;
  if (strstr (lower, "too many outstanding requests") != NULL ||
      strstr (lower, "too many concurrent") != NULL ||
      strstr (lower, "rate limit") != NULL)
    return EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED;
  if (strstr (lower, "no org id") != NULL)
    return EMBERS_SOURCE_ERROR_UNAUTHENTICATED;
  return code;
}

/* The server is busy rather than the query too big */
static gboolean
says_busy (const char *message)
{
  g_autofree char *lower = message != NULL ? g_ascii_strdown (message, -1) : NULL;

  return lower != NULL &&
         (strstr (lower, "too many") != NULL || strstr (lower, "concurrent") != NULL ||
          strstr (lower, "outstanding") != NULL || strstr (lower, "rate limit") != NULL ||
          strstr (lower, "try again") != NULL);
}

static const char *
service_feature (const char *service)
{
  if (service == NULL)
    return NULL;
  if (g_str_equal (service, "settings.v1.RecordingRulesService"))
    /* Translators: a feature the server lacks, completes “the server does not support %s” */
    return _("recording rules");
  if (g_str_equal (service, "settings.v1.SettingsService"))
    /* Translators: a feature the server lacks, completes “the server does not support %s” */
    return _("settings");
  return NULL;
}

static char *
not_found_reason (const char *service,
                  const char *method)
{
  if (g_strcmp0 (service, "settings.v1.RecordingRulesService") == 0)
    return g_strdup (_("not found: the server does not serve recording rules "
                       "(start Pyroscope with -tenant-settings.recording-rules.enabled=true)"));
  if (service_feature (service) != NULL)
    return g_strdup_printf (_("not found: the server does not serve %s"), service_feature (service));

  return g_strdup_printf (_("not found: the server has no %s/%s — it may be an older Pyroscope, "
                            "or the address does not point at Pyroscope (through Grafana, use %s)"),
                          service ? service : "?", method ? method : "?", GRAFANA_PROXY_HINT);
}

static GError *
error_from_connect_code (EmbersSourceError  code,
                         const char        *server_message,
                         const char        *service,
                         const char        *method,
                         gboolean           have_auth,
                         gboolean           have_tenant)
{
  const char *said = server_message != NULL && server_message[0] != '\0' ? server_message : NULL;
  gboolean rules = g_strcmp0 (service, "settings.v1.RecordingRulesService") == 0;
  g_autofree char *lead = NULL;

  /* Recording rules: the server judged a rule, not a query. Its problems
   * come last, one per line, so that they can be shown by their fields. */
  if (rules && code == EMBERS_SOURCE_ERROR_INVALID_ARGUMENT)
    {
      if (said != NULL)
        return g_error_new (EMBERS_SOURCE_ERROR, code, _("the server rejected the rule: %s"), said);
      return g_error_new_literal (EMBERS_SOURCE_ERROR, code, _("the server rejected the rule"));
    }

  switch (code)
    {
    case EMBERS_SOURCE_ERROR_UNAUTHENTICATED:
      if (!have_tenant && said != NULL &&
          (strstr (said, "org") != NULL || strstr (said, "tenant") != NULL))
        lead = g_strdup (_("unauthenticated: the server is multi-tenant — set a tenant (X-Scope-OrgID)"));
      else if (!have_auth)
        lead = g_strdup (_("unauthenticated: the server needs credentials — add a user and password or a token"));
      else
        lead = g_strdup (_("unauthenticated: the server refused the credentials — check the user and password or the token"));
      break;
    case EMBERS_SOURCE_ERROR_PERMISSION_DENIED:
      lead = g_strdup (_("permission denied: these credentials may not read this data — check the token's scopes and the tenant"));
      break;
    case EMBERS_SOURCE_ERROR_INVALID_ARGUMENT:
      lead = g_strdup (_("invalid argument: the server rejected the query"));
      break;
    case EMBERS_SOURCE_ERROR_NOT_FOUND:
      if (said == NULL)
        lead = not_found_reason (service, method);
      else
        lead = g_strdup (_("not found"));
      break;
    case EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED:
      lead = g_strdup (_("deadline exceeded: the server gave up on the query — try a shorter time range"));
      break;
    case EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED:
      if (rules)
        lead = g_strdup (_("rule limit reached: the server takes no more recording rules for this tenant — "
                           "delete one you no longer need, or raise its recording-rules.max-rules-per-tenant limit"));
      else if (says_busy (said))
        lead = g_strdup (_("resource exhausted: the server is busy with too many queries — try again in a moment"));
      else
        lead = g_strdup (_("resource exhausted: the query is too large for the server — try a shorter time range or fewer nodes"));
      break;
    case EMBERS_SOURCE_ERROR_UNIMPLEMENTED:
      lead = g_strdup_printf (_("unimplemented: the server does not support %s — it may be an older Pyroscope"),
                              /* Translators: completes “the server does not support %s” when the method is unknown */
                              method ? method : _("this call"));
      break;
    case EMBERS_SOURCE_ERROR_UNAVAILABLE:
      lead = g_strdup (_("unavailable: the server is not ready — try again in a moment"));
      break;
    case EMBERS_SOURCE_ERROR_INTERNAL:
      lead = g_strdup (_("internal server error"));
      break;
    case EMBERS_SOURCE_ERROR_CANCELED:
      lead = g_strdup (_("canceled: the server canceled the request"));
      break;
    case EMBERS_SOURCE_ERROR_ALREADY_EXISTS:
      lead = g_strdup (_("already exists"));
      break;
    case EMBERS_SOURCE_ERROR_FAILED_PRECONDITION:
      lead = g_strdup (_("failed precondition"));
      break;
    case EMBERS_SOURCE_ERROR_ABORTED:
      /* Translators: the gRPC status ABORTED (the request was aborted), leads an error message */
      lead = g_strdup (_("aborted"));
      break;
    case EMBERS_SOURCE_ERROR_OUT_OF_RANGE:
      lead = g_strdup (_("out of range"));
      break;
    case EMBERS_SOURCE_ERROR_DATA_LOSS:
      lead = g_strdup (_("data loss: the server lost data"));
      break;
    case EMBERS_SOURCE_ERROR_UNKNOWN:
    default:
      lead = g_strdup (_("unknown server error"));
      break;
    }

  if (said != NULL)
    return g_error_new (EMBERS_SOURCE_ERROR, code, _("%s (the server said: “%s”)"), lead, said);

  return g_error_new_literal (EMBERS_SOURCE_ERROR, code, lead);
}

GError *
embers_connect_error_from_response (guint         status,
                                    const char   *reason,
                                    const char   *content_type,
                                    const guint8 *body,
                                    gsize         len,
                                    const char   *service,
                                    const char   *method,
                                    gboolean      have_auth,
                                    gboolean      have_tenant)
{
  g_auto(ErrorBody) parsed = { NULL, NULL, NULL, NULL };
  g_autofree char *what = NULL;
  g_autofree char *status_text = NULL;
  EmbersSourceError code;
  const char *lead;

  if (body == NULL)
    len = 0;

  /* A Connect error body: trust its code, whatever the status, and read
   * its message as well (Recording rules: the server lists a rule's
   * problems one per line) */
  if (parse_error_body (body, len, g_strcmp0 (service, "settings.v1.RecordingRulesService") == 0, &parsed) &&
      parsed.code != NULL)
    {
      g_autofree char *said = NULL;

      if (parsed.details != NULL)
        said = parsed.message != NULL
               ? g_strdup_printf ("%s; %s", parsed.message, parsed.details)
               : g_strdup (parsed.details);
      else
        said = g_strdup (parsed.message);
      code = refine_code (embers_connect_code_from_string (parsed.code), parsed.message);
      return error_from_connect_code (code, said, service, method, have_auth, have_tenant);
    }

  status_text = reason != NULL && reason[0] != '\0'
    ? g_strdup_printf ("HTTP %u %s", status, reason)
    : g_strdup_printf ("HTTP %u", status);

  if (parsed.message != NULL)
    /* Grafana's or a proxy's JSON error: its words, not its JSON */
    what = g_strdup_printf (_("%s: the server said “%s”"), status_text, parsed.message);
  else if (parsed.unreadable != NULL)
    /* Translators: %s: the HTTP status, then why the JSON could not be read */
    what = g_strdup_printf (_("%s, with an error body that cannot be read: %s"), status_text, parsed.unreadable);
  else if (looks_like_html (content_type, body, len))
    {
      g_autofree char *title = html_title (body, len);
      if (title != NULL)
        what = g_strdup_printf (_("the answer was a web page (“%s”, %s), probably from a proxy or a login page, not from Pyroscope"),
                                title, status_text);
      else
        what = g_strdup_printf (_("the answer was a web page (%s), probably from a proxy or a login page, not from Pyroscope"),
                                status_text);
    }
  else if (len > 0)
    {
      g_autofree char *text = sanitize_text ((const char *) body, MIN (len, 4096), 160);
      if (text[0] != '\0')
        what = g_strdup_printf (_("%s: “%s”"), status_text, text);
    }
  if (what == NULL)
    what = g_strdup (status_text);

  switch (status)
    {
    case 401:
      code = EMBERS_SOURCE_ERROR_UNAUTHENTICATED;
      lead = have_auth
        ? _("unauthenticated: the server refused the credentials — check the user and password or the token")
        : _("unauthenticated: the server needs credentials — add a user and password or a token");
      break;
    case 403:
      code = EMBERS_SOURCE_ERROR_PERMISSION_DENIED;
      lead = _("permission denied: these credentials may not read this data");
      break;
    case 404:
      {
        g_autofree char *reason_text = not_found_reason (service, method);
        return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED,
                            "%s (%s)", reason_text, what);
      }
    case 405:
    case 415:
      code = EMBERS_SOURCE_ERROR_PROTOCOL;
      lead = _("the server does not speak the Pyroscope API at this address — check the URL");
      break;
    case 408:
    case 504:
      code = EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED;
      lead = _("deadline exceeded: the server or a proxy gave up waiting — try a shorter time range");
      break;
    case 413:
    case 429:
      code = EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED;
      lead = status == 429
        ? _("resource exhausted: too many requests — try again in a moment")
        : _("resource exhausted: the request is too large for the server");
      break;
    case 502:
    case 503:
      code = EMBERS_SOURCE_ERROR_UNAVAILABLE;
      lead = _("unavailable: the server cannot be reached right now — try again in a moment");
      break;
    default:
      if (status >= 500)
        {
          code = EMBERS_SOURCE_ERROR_UNAVAILABLE;
          lead = _("the server failed to answer");
        }
      else
        {
          code = EMBERS_SOURCE_ERROR_PROTOCOL;
          lead = _("the server answered something Embers does not understand");
        }
      break;
    }

  return g_error_new (EMBERS_SOURCE_ERROR, code, "%s (%s)", lead, what);
}

GError *
embers_connect_error_from_transport (const GError *error,
                                     const char   *host)
{
  g_return_val_if_fail (error != NULL, NULL);

  if (host == NULL)
    host = "?";

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED,
                        _("deadline exceeded: %s did not answer in time — try a shorter time range, or check the network"),
                        host);

  if (error->domain == G_RESOLVER_ERROR)
    return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE,
                        _("unavailable: cannot find the server “%s” — check the address (%s)"),
                        host, error->message);

  if (g_error_matches (error, G_TLS_ERROR, G_TLS_ERROR_BAD_CERTIFICATE))
    return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE,
                        _("unavailable: %s's certificate is not trusted (%s) — if you trust it, add its "
                          "certificate authority to the system's trust store, or name its PEM file in EMBERS_CA_FILE"),
                        host, error->message);
  if (error->domain == G_TLS_ERROR)
    return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE,
                        _("unavailable: no secure connection to %s — its certificate is not trusted or TLS failed (%s)"),
                        host, error->message);
  if (g_error_matches (error, SOUP_SESSION_ERROR, SOUP_SESSION_ERROR_TOO_MANY_REDIRECTS) ||
      g_error_matches (error, SOUP_SESSION_ERROR, SOUP_SESSION_ERROR_REDIRECT_BAD_URI))
    return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                        _("%s redirects in a loop (%s) — check the address"), host, error->message);

  if (error->domain == G_IO_ERROR)
    {
      switch (error->code)
        {
        case G_IO_ERROR_CONNECTION_REFUSED:
          return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE,
                              _("unavailable: %s refused the connection — is the server running, and is the port right?"),
                              host);
        case G_IO_ERROR_HOST_UNREACHABLE:
        case G_IO_ERROR_NETWORK_UNREACHABLE:
        case G_IO_ERROR_HOST_NOT_FOUND:
          return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE,
                              _("unavailable: cannot reach %s — check the network (%s)"),
                              host, error->message);
        case G_IO_ERROR_PARTIAL_INPUT:
        case G_IO_ERROR_CONNECTION_CLOSED:  /* = BROKEN_PIPE */
        case G_IO_ERROR_NOT_CONNECTED:
        case G_IO_ERROR_CLOSED:
          return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE,
                              _("unavailable: the connection to %s closed before the whole answer arrived — try again (%s)"),
                              host, error->message);
        default:
          break;
        }
    }

  if (error->domain == SOUP_SESSION_ERROR)
    return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                        _("%s sent an answer that is not valid HTTP (%s)"),
                        host, error->message);

  return g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNAVAILABLE,
                      _("unavailable: the request to %s failed (%s)"), host, error->message);
}

/* ---- calls -------------------------------------------------------------- */

typedef struct
{
  SoupMessage                      *msg;
  GCancellable                     *call_cancellable;  /* user's + our deadline */
  GCancellable                     *user_cancellable;
  gulong                            cancel_id;
  GSource                          *timer;
  gboolean                          timed_out;
  GInputStream                     *stream;
  GByteArray                       *body;
  guint8                           *chunk;
  gsize                             limit;
  guint                             timeout_ms;
  char                             *timeout_setting;
  const ProtobufCMessageDescriptor *response_type;
  char                             *service;
  char                             *method;
  char                             *host;
  gboolean                          have_auth;
  gboolean                          have_tenant;
  gboolean                          json;
  gboolean                          idempotent;  /* read-only: safe to send twice */
  gboolean                          retried;
} CallData;

static void
call_data_free (CallData *data)
{
  if (data->user_cancellable != NULL && data->cancel_id != 0)
    g_cancellable_disconnect (data->user_cancellable, data->cancel_id);
  if (data->timer != NULL)
    {
      g_source_destroy (data->timer);
      g_source_unref (data->timer);
    }
  g_clear_object (&data->user_cancellable);
  g_clear_object (&data->call_cancellable);
  g_clear_object (&data->stream);
  g_clear_object (&data->msg);
  g_clear_pointer (&data->body, g_byte_array_unref);
  g_clear_pointer (&data->chunk, g_free);
  g_free (data->service);
  g_free (data->method);
  g_free (data->host);
  g_free (data->timeout_setting);
  g_free (data);
}

static void
on_user_cancelled (GCancellable *cancellable,
                   gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static gboolean
on_deadline (gpointer user_data)
{
  CallData *data = user_data;

  data->timed_out = TRUE;
  g_cancellable_cancel (data->call_cancellable);

  return G_SOURCE_REMOVE;
}

static void
stop_timer (CallData *data)
{
  if (data->timer != NULL)
    {
      g_source_destroy (data->timer);
      g_clear_pointer (&data->timer, g_source_unref);
    }
}

/* Drops the HTTP side of a call on the thread that owns the session, before
 * the rest of the work (and maybe the task's last unref) moves to a thread. */
static void
release_io (CallData *data)
{
  stop_timer (data);
  if (data->user_cancellable != NULL && data->cancel_id != 0)
    g_cancellable_disconnect (data->user_cancellable, data->cancel_id);
  data->cancel_id = 0;
  g_clear_object (&data->stream);
  g_clear_object (&data->msg);
  g_clear_pointer (&data->chunk, g_free);
}

/* The call's own deadline passed: says which setting raises it */
static void
return_deadline_error (GTask *task)
{
  CallData *data = g_task_get_task_data (task);

  if (data->timeout_setting != NULL)
    g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED,
                             /* Translators: the last %s names the setting, e.g. “--timeout=SECONDS or EMBERS_TIMEOUT” */
                             _("deadline exceeded: %s did not answer within %.3g s — try a shorter time range, or raise the timeout (%s)"),
                             data->host, data->timeout_ms / 1000.0, data->timeout_setting);
  else
    g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_DEADLINE_EXCEEDED,
                             _("deadline exceeded: %s did not answer within %.3g s — try a shorter time range, or raise the timeout"),
                             data->host, data->timeout_ms / 1000.0);
}

static void
return_transport_error (GTask  *task,
                        GError *error)
{
  CallData *data = g_task_get_task_data (task);

  stop_timer (data);

  if (g_cancellable_is_cancelled (data->user_cancellable))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The request was cancelled"));
    }
  else if (data->timed_out)
    return_deadline_error (task);
  else
    g_task_return_error (task, embers_connect_error_from_transport (error, data->host));
}

static gboolean
content_type_is (const char *content_type,
                 const char *expected)
{
  gsize n = strlen (expected);

  return content_type != NULL &&
         g_ascii_strncasecmp (content_type, expected, n) == 0 &&
         (content_type[n] == '\0' || content_type[n] == ';' || content_type[n] == ' ');
}

static void
json_to_wire_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  CallData *data = task_data;
  GError *error = NULL;
  GBytes *wire;

  wire = embers_protojson_to_wire (data->response_type,
                                   (const char *) data->body->data, data->body->len, &error);
  if (wire == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, wire, (GDestroyNotify) g_bytes_unref);
}

/* Whether the first bytes of an answer can begin what was asked for: JSON
 * starts with an object, a protobuf message with a key whose field number
 * is at least 1 and whose wire type exists (0, 1, 2, 5). A stream of zeros
 * (a gzip bomb) fails at its first byte. */
static gboolean
plausible_start (const guint8 *data,
                 gsize         len,
                 gboolean      json)
{
  guint64 key = 0;
  guint shift = 0;

  if (len == 0)
    return TRUE;
  if (json)
    return embers_server_json_is_object ((const char *) data, len);
  for (gsize i = 0; i < len && i < 10; i++)
    {
      key |= (guint64) (data[i] & 0x7f) << shift;
      shift += 7;
      if ((data[i] & 0x80) == 0)
        {
          guint wire = key & 7;
          return (key >> 3) >= 1 && (wire == 0 || wire == 1 || wire == 2 || wire == 5);
        }
    }
  return len < 10;
}

GBytes *
embers_connect_inflate_answer (const guint8  *data,
                gsize          len,
                gsize          limit,
                gboolean       json,
                gboolean       check,
                const char    *host,
                GError       **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  z_stream z = { 0 };
  guint8 buf[64 * 1024];
  gboolean checked = FALSE;
  int ret;

  if (inflateInit2 (&z, 16 + MAX_WBITS) != Z_OK)
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                   _("the compressed answer from %s is unusable: %s"), host, "inflateInit2");
      return NULL;
    }
  z.next_in = (Bytef *) data;
  z.avail_in = (uInt) MIN (len, G_MAXUINT);
  do
    {
      gsize n;

      z.next_out = buf;
      z.avail_out = sizeof buf;
      ret = inflate (&z, Z_NO_FLUSH);
      if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
        {
          g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                       _("the compressed answer from %s is unusable: %s"), host,
                       z.msg != NULL ? z.msg : "inflate");
          inflateEnd (&z);
          return NULL;
        }
      n = sizeof buf - z.avail_out;
      if (out->len + n > limit)
        {
          g_autofree char *size = g_format_size (limit);

          g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED,
                       _("resource exhausted: the compressed answer from %s inflates to more than %s"),
                       host, size);
          inflateEnd (&z);
          return NULL;
        }
      g_byte_array_append (out, buf, (guint) n);
      if (check && !checked && (out->len >= 16 || ret == Z_STREAM_END))
        {
          checked = TRUE;
          if (!plausible_start (out->data, out->len, json))
            {
              g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                           _("the compressed answer from %s does not begin like a Pyroscope answer "
                             "(it starts with the bytes %02x %02x %02x %02x); refused before inflating the rest"),
                           host, out->len > 0 ? out->data[0] : 0, out->len > 1 ? out->data[1] : 0,
                           out->len > 2 ? out->data[2] : 0, out->len > 3 ? out->data[3] : 0);
              inflateEnd (&z);
              return NULL;
            }
        }
      if (ret == Z_BUF_ERROR && z.avail_in == 0)
        break;
    }
  while (ret != Z_STREAM_END);
  inflateEnd (&z);

  if (ret != Z_STREAM_END)
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                   _("the compressed answer from %s was cut short (the gzip stream does not end) — try again"),
                   host);
      return NULL;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static void
finish_body (GTask *task)
{
  CallData *data = g_task_get_task_data (task);
  guint status = soup_message_get_status (data->msg);
  SoupMessageHeaders *headers = soup_message_get_response_headers (data->msg);
  const char *content_type = soup_message_headers_get_content_type (headers, NULL);

  stop_timer (data);

  /* A body shorter than announced was cut short on the way */
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      (goffset)data->body->len != soup_message_headers_get_content_length (headers))
    {
      g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                               _("the answer from %s was cut short (%u of %" PRId64 " bytes) — try again"),
                               data->host, data->body->len, soup_message_headers_get_content_length (headers));
      return;
    }

  /* Inflate a gzip answer ourselves: a truncated stream is an error */
  {
    const char *encoding = soup_message_headers_get_one (headers, "Content-Encoding");

    if (encoding != NULL && g_ascii_strcasecmp (encoding, "gzip") == 0)
      {
        GError *gz_error = NULL;
        gboolean json = content_type_is (content_type, "application/json") || (content_type == NULL && data->json);
        g_autoptr(GBytes) inflated = NULL;

        /* An error page is read as text: no check of its first bytes, and
         * what inflates of a broken one is still the server's words */
        inflated = embers_connect_inflate_answer (data->body->data, data->body->len, data->limit, json,
                                   SOUP_STATUS_IS_SUCCESSFUL (status), data->host,
                                   SOUP_STATUS_IS_SUCCESSFUL (status) ? &gz_error : NULL);
        if (inflated == NULL && !SOUP_STATUS_IS_SUCCESSFUL (status))
          inflated = g_bytes_new (NULL, 0);
        if (inflated == NULL)
          {
            g_task_return_error (task, gz_error);
            return;
          }
        g_byte_array_set_size (data->body, 0);
        g_byte_array_append (data->body, g_bytes_get_data (inflated, NULL), g_bytes_get_size (inflated));
      }
    else if (encoding != NULL && g_ascii_strcasecmp (encoding, "identity") != 0)
      {
        g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                                 _("%s answered with an encoding Embers does not read (%s)"), data->host, encoding);
        return;
      }
  }

  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      const char *location = soup_message_headers_get_one (headers, "Location");
      g_autofree char *where = location != NULL ? sanitize_text (location, -1, 200) : g_strdup ("?");

      g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                               _("%s redirects the request (HTTP %u) to “%s”; Embers does not follow "
                                 "redirects with credentials — if that is the server, connect to that address"),
                               data->host, status, where);
      return;
    }

  if (status == SOUP_STATUS_NO_CONTENT ||
      (SOUP_STATUS_IS_SUCCESSFUL (status) && data->body->len == 0 && content_type == NULL))
    {
      /* A Connect server sends an empty message as an empty body, but
       * always with its content type: this is something else */
      g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                               _("this is not a Pyroscope answer: %s answered %u with no body and no content type — "
                                 "check the address"),
                               data->host, status);
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      EmbersConnectClient *self = g_task_get_source_object (task);
      GError *error = embers_connect_error_from_response (status,
                                                          soup_message_get_reason_phrase (data->msg),
                                                          content_type,
                                                          data->body->data, data->body->len,
                                                          data->service, data->method,
                                                          data->have_auth, data->have_tenant);
      g_debug ("%s: %s/%s failed: HTTP %u", self->base_url, data->service, data->method, status);
      g_task_return_error (task, error);
      return;
    }

  if (looks_like_html (content_type, data->body->data, data->body->len))
    {
      g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                               _("%s answered with a web page instead of the Pyroscope API — check the address "
                                 "(through Grafana, use %s)"),
                               data->host, GRAFANA_PROXY_HINT);
      return;
    }

  /* Decode by what the server says it sent; fall back to what we asked for. */
  if (content_type_is (content_type, "application/json") ||
      (content_type == NULL && data->json))
    {
      release_io (data);
      g_task_run_in_thread (task, json_to_wire_thread);
      return;
    }

  if (content_type != NULL &&
      !content_type_is (content_type, "application/proto") &&
      !content_type_is (content_type, "application/protobuf") &&
      !content_type_is (content_type, "application/x-protobuf") &&
      !content_type_is (content_type, "application/octet-stream"))
    {
      g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                               _("%s answered with “%s” instead of the Pyroscope API — check the address"),
                               data->host, content_type);
      return;
    }

  g_task_return_pointer (task,
                         g_byte_array_free_to_bytes (g_steal_pointer (&data->body)),
                         (GDestroyNotify) g_bytes_unref);
}

static void on_read (GObject *object, GAsyncResult *result, gpointer user_data);

static void
read_more (GTask *task)
{
  CallData *data = g_task_get_task_data (task);

  g_input_stream_read_async (data->stream, data->chunk, READ_CHUNK, G_PRIORITY_DEFAULT,
                             data->call_cancellable, on_read, task);
}

static void
on_read (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CallData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);
  if (n < 0)
    {
      return_transport_error (task, error);
      return;
    }

  if (n == 0)
    {
      finish_body (task);
      return;
    }

  if (data->body->len + (gsize) n > data->limit)
    {
      stop_timer (data);
      if (SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (data->msg)))
        {
          g_autofree char *limit = g_format_size (data->limit);
          g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED,
                                   _("resource exhausted: the answer from %s is larger than %s — ask for fewer nodes or a shorter time range"),
                                   data->host, limit);
        }
      else
        finish_body (task);   /* an error page: what we have is enough */
      return;
    }

  g_byte_array_append (data->body, data->chunk, (guint) n);
  read_more (g_steal_pointer (&task));
}

static void on_sent (GObject *object, GAsyncResult *result, gpointer user_data);

static void
copy_header (const char *name,
             const char *value,
             gpointer    user_data)
{
  soup_message_headers_append (user_data, name, value);
}

/* The same request once more, on a new connection */
static void
resend (GTask *task)
{
  CallData *data = g_task_get_task_data (task);
  EmbersConnectClient *self = g_task_get_source_object (task);
  SoupMessage *old = data->msg;
  SoupMessageHeaders *headers;
  GBytes *body = g_object_get_data (G_OBJECT (old), "embers-request-body");

  data->retried = TRUE;
  data->msg = soup_message_new_from_uri (SOUP_METHOD_POST, soup_message_get_uri (old));
  headers = soup_message_get_request_headers (data->msg);
  soup_message_headers_foreach (soup_message_get_request_headers (old), copy_header, headers);
  soup_message_set_request_body_from_bytes (data->msg, NULL, body);
  g_object_set_data_full (G_OBJECT (data->msg), "embers-request-body", g_bytes_ref (body),
                          (GDestroyNotify) g_bytes_unref);
  soup_message_add_flags (data->msg, SOUP_MESSAGE_IDEMPOTENT | SOUP_MESSAGE_NEW_CONNECTION | SOUP_MESSAGE_NO_REDIRECT);
  g_object_unref (old);

  g_debug ("%s: %s/%s: the reused connection closed before an answer, sending again",
           self->base_url, data->service, data->method);
  soup_session_send_async (self->session, data->msg, G_PRIORITY_DEFAULT,
                           data->call_cancellable, on_sent, task);
}

static void
on_sent (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CallData *data = g_task_get_task_data (task);
  EmbersConnectClient *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  goffset length;
  guint64 connection;

  data->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  connection = soup_message_get_connection_id (data->msg);
  if (data->stream == NULL)
    {
      /* A kept-alive connection the server closed meanwhile fails before
       * any answer: a read-only call goes once more on a new connection */
      if (data->idempotent && !data->retried && !data->timed_out &&
          !g_cancellable_is_cancelled (data->call_cancellable) &&
          connection != 0 && g_hash_table_contains (self->answered_connections, &connection) &&
          (error->domain == G_IO_ERROR || error->domain == SOUP_SESSION_ERROR))
        {
          resend (g_steal_pointer (&task));
          return;
        }
      return_transport_error (task, error);
      return;
    }
  if (connection != 0 && !g_hash_table_contains (self->answered_connections, &connection))
    {
      g_hash_table_add (self->answered_connections, g_memdup2 (&connection, sizeof connection));
      /* Ids only grow; keep the set small */
      if (g_hash_table_size (self->answered_connections) > 256)
        g_hash_table_remove_all (self->answered_connections);
    }

  headers = soup_message_get_response_headers (data->msg);
  data->limit = SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (data->msg))
    ? self->max_response_size
    : MAX_ERROR_BODY;

  length = soup_message_headers_get_content_length (headers);
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (data->msg)) &&
      length > 0 && (guint64) length > data->limit)
    {
      g_autofree char *size = g_format_size (length);
      g_autofree char *limit = g_format_size (data->limit);

      stop_timer (data);
      g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED,
                               _("resource exhausted: the answer from %s is %s, more than the limit of %s — ask for fewer nodes or a shorter time range"),
                               data->host, size, limit);
      return;
    }

  data->body = g_byte_array_sized_new (length > 0 && length < READ_CHUNK * 64 ? (guint) length : READ_CHUNK);
  data->chunk = g_malloc (READ_CHUNK);
  read_more (g_steal_pointer (&task));
}

static GBytes *
encode_request (EmbersConnectClient    *self,
                const ProtobufCMessage *request)
{
  if (self->encoding == EMBERS_CONNECT_ENCODING_JSON)
    return embers_protojson_encode (request);
  else
    {
      gsize len = protobuf_c_message_get_packed_size (request);
      guint8 *buf = g_malloc (MAX (len, 1));

      protobuf_c_message_pack (request, buf);
      return g_bytes_new_take (buf, len);
    }
}

/* Calls that only read: every QuerierService method, and listing or
 * getting recording rules. Safe to send twice, so libsoup may send them on
 * a kept-alive connection. */
static gboolean
call_is_read_only (const char *service,
                   const char *method)
{
  if (g_str_equal (service, "querier.v1.QuerierService"))
    return TRUE;
  if (g_str_equal (service, "settings.v1.RecordingRulesService"))
    return g_str_equal (method, "ListRecordingRules") || g_str_equal (method, "GetRecordingRule");
  return FALSE;
}

static char *
build_url (EmbersConnectClient *self,
           const char          *service,
           const char          *method)
{
  /* base_url has no trailing slash; the prefix is kept as written */
  return g_strdup_printf ("%s/%s/%s", self->base_url, service, method);
}

void
embers_connect_client_call_async (EmbersConnectClient              *self,
                                  const char                       *service,
                                  const char                       *method,
                                  const ProtobufCMessage           *request,
                                  const ProtobufCMessageDescriptor *response_type,
                                  EmbersConnectCallFlags            flags,
                                  GCancellable                     *cancellable,
                                  GAsyncReadyCallback               callback,
                                  gpointer                          user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  SoupMessageHeaders *headers;
  CallData *data;
  const char *content_type;

  g_return_if_fail (EMBERS_IS_CONNECT_CLIENT (self));
  g_return_if_fail (service != NULL);
  g_return_if_fail (method != NULL);
  g_return_if_fail (request != NULL);
  g_return_if_fail (response_type != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_connect_client_call_async);
  g_task_set_name (task, method);

  if (g_task_return_error_if_cancelled (task))
    return;

  url = build_url (self, service, method);
  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, &error);
  if (uri == NULL)
    {
      g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                               _("Cannot make a request URL from “%s”: %s"), url, error->message);
      return;
    }

  data = g_new0 (CallData, 1);
  data->service = g_strdup (service);
  data->method = g_strdup (method);
  data->host = embers_connect_client_dup_display_name (self);
  data->response_type = response_type;
  data->have_auth = embers_connect_client_has_auth (self);
  data->have_tenant = self->tenant != NULL;
  data->json = self->encoding == EMBERS_CONNECT_ENCODING_JSON;
  data->timeout_ms = self->timeout_ms;
  data->timeout_setting = g_strdup (self->timeout_setting);
  data->call_cancellable = g_cancellable_new ();
  g_task_set_task_data (task, data, (GDestroyNotify) call_data_free);

  data->msg = soup_message_new_from_uri (SOUP_METHOD_POST, uri);
  headers = soup_message_get_request_headers (data->msg);
  /* libsoup opens a new connection for every POST it may not send twice;
   * queries only read, so they may share one (and its TLS handshake) */
  data->idempotent = call_is_read_only (service, method);
  if (data->idempotent)
    soup_message_add_flags (data->msg, SOUP_MESSAGE_IDEMPOTENT);
  /* A redirect would take the credentials elsewhere, and a loop of them
   * only ends at libsoup's count: reported instead (see finish_body) */
  soup_message_add_flags (data->msg, SOUP_MESSAGE_NO_REDIRECT);

  content_type = data->json ? "application/json" : "application/proto";
  body = encode_request (self, request);
  if (g_bytes_get_size (body) > EMBERS_CONNECT_GZIP_THRESHOLD)
    {
      g_autoptr(GBytes) gz = embers_gzip (g_bytes_get_data (body, NULL), g_bytes_get_size (body), NULL);
      if (gz != NULL)
        {
          g_bytes_unref (body);
          body = g_steal_pointer (&gz);
          soup_message_headers_replace (headers, "Content-Encoding", "gzip");
        }
    }
  soup_message_set_request_body_from_bytes (data->msg, content_type, body);
  g_object_set_data_full (G_OBJECT (data->msg), "embers-request-body", g_bytes_ref (body),
                          (GDestroyNotify) g_bytes_unref);

  soup_message_headers_replace (headers, "Connect-Protocol-Version", "1");
  soup_message_headers_replace (headers, "Accept-Encoding", "gzip");
  if (flags & EMBERS_CONNECT_CALL_UTF8_LABEL_NAMES)
    soup_message_headers_replace (headers, "Accept", "*/*;allow-utf8-labelnames=true");
  if (self->tenant != NULL)
    soup_message_headers_replace (headers, "X-Scope-OrgID", self->tenant);
  if (self->timeout_ms > 0)
    {
      char buf[32];
      g_snprintf (buf, sizeof buf, "%u", self->timeout_ms);
      soup_message_headers_replace (headers, "Connect-Timeout-Ms", buf);
    }

  if (self->basic_user != NULL)
    {
      g_autofree char *pair = g_strconcat (self->basic_user, ":", self->basic_password, NULL);
      g_autofree char *b64 = g_base64_encode ((const guint8 *) pair, strlen (pair));
      g_autofree char *value = g_strconcat ("Basic ", b64, NULL);

      soup_message_headers_replace (headers, "Authorization", value);
      explicit_bzero (pair, strlen (pair));
      explicit_bzero (b64, strlen (b64));
      explicit_bzero (value, strlen (value));
    }
  else if (self->bearer_token != NULL)
    {
      g_autofree char *value = g_strconcat ("Bearer ", self->bearer_token, NULL);

      soup_message_headers_replace (headers, "Authorization", value);
      explicit_bzero (value, strlen (value));
    }

  if (cancellable != NULL)
    {
      data->user_cancellable = g_object_ref (cancellable);
      data->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (on_user_cancelled),
                                               g_object_ref (data->call_cancellable),
                                               g_object_unref);
    }

  if (self->timeout_ms > 0)
    {
      data->timer = g_timeout_source_new (self->timeout_ms);
      g_source_set_callback (data->timer, on_deadline, data, NULL);
      g_source_set_static_name (data->timer, "[embers] connect deadline");
      g_source_attach (data->timer, g_main_context_get_thread_default ());
    }

  g_debug ("%s: calling %s/%s (%s, %" G_GSIZE_FORMAT " bytes)",
           self->base_url, service, method, content_type, g_bytes_get_size (body));

  soup_session_send_async (self->session, data->msg, G_PRIORITY_DEFAULT,
                           data->call_cancellable, on_sent, g_steal_pointer (&task));
}

GBytes *
embers_connect_client_call_finish (EmbersConnectClient  *self,
                                   GAsyncResult         *result,
                                   GError              **error)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_async_result_is_tagged (result, embers_connect_client_call_async), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

ProtobufCMessage *
embers_connect_unpack (const ProtobufCMessageDescriptor *descriptor,
                       GBytes                           *bytes,
                       const char                       *what,
                       GError                          **error)
{
  ProtobufCMessage *message;
  gsize len = 0;
  const guint8 *data;

  g_return_val_if_fail (descriptor != NULL, NULL);
  g_return_val_if_fail (bytes != NULL, NULL);

  data = g_bytes_get_data (bytes, &len);
  message = protobuf_c_message_unpack (descriptor, NULL, len, data);
  if (message == NULL)
    g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                 g_dngettext (GETTEXT_PACKAGE,
                              "The server's answer to %s could not be decoded (%zu byte of %s); "
                              "it may be cut short or come from an incompatible server",
                              "The server's answer to %s could not be decoded (%zu bytes of %s); "
                              "it may be cut short or come from an incompatible server", len),
                 what ? what : descriptor->name, len, descriptor->name);

  return message;
}
