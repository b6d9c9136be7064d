/* embers-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "embers-session.h"

/* Names in the file (docs/session-format.md) */
#define FORMAT_NAME "embers-view"
#define MAX_STRING  65536

G_DEFINE_QUARK (embers-session-error-quark, embers_session_error)

EmbersSession *
embers_session_new (void)
{
  EmbersSession *session = g_new0 (EmbersSession, 1);

  session->transforms = embers_transform_stack_new ();
  return session;
}

void
embers_session_free (EmbersSession *session)
{
  if (session == NULL)
    return;
  g_free (session->file);
  g_free (session->baseline_file);
  g_free (session->server);
  g_free (session->profile_type);
  g_free (session->selector);
  g_free (session->view);
  g_free (session->sample_type);
  g_free (session->sandwich);
  embers_transform_stack_free (session->transforms);
  g_strfreev (session->focus);
  g_free (session->search);
  g_free (session);
}

char *
embers_session_clean_url (const char *url)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *path;
  g_autofree char *joined = NULL;
  g_autoptr(GUri) back = NULL;

  if (url == NULL)
    return NULL;
  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL);
  if (uri == NULL)
    return NULL;
  scheme = g_uri_get_scheme (uri);
  if (scheme == NULL || (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) ||
      g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    return NULL;

  /* A path after a host starts with a slash (found by fuzz-session.c) */
  path = g_uri_get_path (uri);
  if (path[0] != '\0' && path[0] != '/')
    return NULL;

  joined = g_uri_join (G_URI_FLAGS_ENCODED, scheme, NULL, g_uri_get_host (uri),
                       g_uri_get_port (uri), path, NULL, NULL);
  /* What is kept must read back strictly (a lone % does not) as the same
   * parts: a host that held an @ must not turn into user information
   * (both found by fuzz-session.c) */
  back = g_uri_parse (joined, G_URI_FLAGS_ENCODED, NULL);
  if (back == NULL || g_uri_get_userinfo (back) != NULL || g_uri_get_query (back) != NULL ||
      g_uri_get_fragment (back) != NULL || g_uri_get_host (back) == NULL ||
      g_strcmp0 (g_uri_get_host (back), g_uri_get_host (uri)) != 0)
    return NULL;
  return g_steal_pointer (&joined);
}

static void
add_string (JsonBuilder *b,
            const char  *name,
            const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, value);
}

char *
embers_session_to_data (const EmbersSession *session,
                        gsize               *length)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *server = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (session != NULL, NULL);

  json_builder_begin_object (b);
  add_string (b, "format", FORMAT_NAME);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, EMBERS_SESSION_VERSION);

  json_builder_set_member_name (b, "source");
  json_builder_begin_object (b);
  add_string (b, "file", session->file);
  add_string (b, "baseline-file", session->baseline_file);
  /* Never a credential: only scheme, host, port and path go in */
  server = embers_session_clean_url (session->server);
  add_string (b, "server", server);
  json_builder_end_object (b);

  if (server != NULL && session->profile_type != NULL)
    {
      json_builder_set_member_name (b, "query");
      json_builder_begin_object (b);
      add_string (b, "profile-type", session->profile_type);
      add_string (b, "selector", session->selector != NULL ? session->selector : "{}");
      json_builder_set_member_name (b, "from");
      json_builder_add_int_value (b, session->from_ms);
      json_builder_set_member_name (b, "until");
      json_builder_add_int_value (b, session->until_ms);
      json_builder_end_object (b);
    }

  json_builder_set_member_name (b, "view");
  json_builder_begin_object (b);
  add_string (b, "mode", session->view);
  add_string (b, "sample-type", session->sample_type);
  add_string (b, "sandwich", session->sandwich);
  json_builder_set_member_name (b, "transforms");
  json_builder_add_value (b, embers_transform_stack_to_json (session->transforms));
  if (session->focus != NULL)
    {
      json_builder_set_member_name (b, "focus");
      json_builder_begin_array (b);
      for (guint i = 0; session->focus[i] != NULL; i++)
        json_builder_add_string_value (b, session->focus[i]);
      json_builder_end_array (b);
    }
  add_string (b, "search", session->search);
  if (session->search != NULL)
    {
      json_builder_set_member_name (b, "search-regex");
      json_builder_add_boolean_value (b, session->search_regex);
      json_builder_set_member_name (b, "search-case-sensitive");
      json_builder_add_boolean_value (b, session->search_case_sensitive);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  text = json_generator_to_data (gen, NULL);

  {
    char *out = g_strconcat (text, "\n", NULL);

    if (length != NULL)
      *length = strlen (out);
    return out;
  }
}

static gboolean
fail (GError    **error,
      const char *message)
{
  g_set_error_literal (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID, message);
  return FALSE;
}

/* An optional string member: absent is fine (*out stays NULL) */
static gboolean
get_string (JsonObject  *object,
            const char  *name,
            char       **out,
            GError     **error)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;
  const char *value;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is a field's name in a view file, e.g. "search" */
                   _("The view file’s “%s” is not text"), name);
      return FALSE;
    }
  value = json_node_get_string (node);
  if (strlen (value) > MAX_STRING || !g_utf8_validate (value, -1, NULL))
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   _("The view file’s “%s” is too long"), name);
      return FALSE;
    }
  *out = g_strdup (value);
  return TRUE;
}

static gboolean
get_boolean (JsonObject  *object,
             const char  *name,
             gboolean    *out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is a field's name in a view file, e.g. "search-regex" */
                   _("The view file’s “%s” is neither true nor false"), name);
      return FALSE;
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
get_object (JsonObject  *parent,
            const char  *name,
            JsonObject **out,
            GError     **error)
{
  JsonNode *node = json_object_get_member (parent, name);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is a field's name in a view file, e.g. "source" */
                   _("The view file’s “%s” is not a group of fields"), name);
      return FALSE;
    }
  *out = json_node_get_object (node);
  return TRUE;
}

static gboolean
get_time (JsonObject  *object,
          const char  *name,
          gint64      *out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is "from" or "until" */
                   _("The view file’s query has no time “%s” in milliseconds"), name);
      return FALSE;
    }
  *out = json_node_get_int (node);
  return TRUE;
}

/* A path as given, made absolute against @dir */
static char *
resolve_path (char  *path,
              GFile *dir)
{
  g_autoptr(GFile) file = NULL;

  if (path == NULL || g_path_is_absolute (path))
    return path;
  if (dir != NULL)
    file = g_file_resolve_relative_path (dir, path);
  else
    file = g_file_new_for_path (path);
  g_free (path);
  return g_file_get_path (file);
}

EmbersSession *
embers_session_parse (const char  *data,
                      gsize        length,
                      GFile       *dir,
                      GError     **error)
{
  /* Not json_parser_new_immutable (): json-glib 1.10 aborts on "2{…}" with it
   * (found by tests/fuzz/fuzz-session.c) */
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(EmbersSession) session = embers_session_new ();
  g_autoptr(GError) local = NULL;
  g_autofree char *format = NULL;
  g_autofree char *server = NULL;
  JsonObject *root, *source, *query, *view;
  JsonNode *node;
  gint64 version;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length > EMBERS_SESSION_MAX_SIZE)
    return fail (error, _("This is too large to be a view file")), NULL;
  if (!g_utf8_validate_len (data, length, NULL) ||
      !json_parser_load_from_data (parser, data, length, &local) ||
      json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return fail (error, _("This is not an Embers view file")), NULL;

  root = json_node_get_object (json_parser_get_root (parser));
  if (!get_string (root, "format", &format, NULL) || g_strcmp0 (format, FORMAT_NAME) != 0)
    return fail (error, _("This is not an Embers view file")), NULL;
  node = json_object_get_member (root, "version");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      (version = json_node_get_int (node)) < 1)
    return fail (error, _("The view file has no version")), NULL;
  if (version > EMBERS_SESSION_VERSION)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_VERSION,
                   /* Translators: %d is the file format's version number */
                   _("The view file is of version %d, made by a newer Embers: update Embers to open it"),
                   (int)MIN (version, G_MAXINT));
      return NULL;
    }

  /* The source */
  if (!get_object (root, "source", &source, error) ||
      !get_string (source, "file", &session->file, error) ||
      !get_string (source, "baseline-file", &session->baseline_file, error) ||
      !get_string (source, "server", &server, error))
    return NULL;
  if (server != NULL)
    {
      session->server = embers_session_clean_url (server);
      if (session->server == NULL)
        return fail (error, _("The view file’s server is not an http or https address")), NULL;
    }
  if ((session->file == NULL) == (session->server == NULL))
    return fail (error, _("The view file names neither one profile file nor one server")), NULL;
  if (session->baseline_file != NULL && session->file == NULL)
    return fail (error, _("The view file compares a profile file with nothing")), NULL;
  if ((session->file != NULL && session->file[0] == '\0') ||
      (session->baseline_file != NULL && session->baseline_file[0] == '\0'))
    return fail (error, _("The view file names an empty file name")), NULL;
  session->file = resolve_path (session->file, dir);
  session->baseline_file = resolve_path (session->baseline_file, dir);

  /* The query, with a server */
  if (!get_object (root, "query", &query, error))
    return NULL;
  if (session->server != NULL)
    {
      if (query == NULL)
        return fail (error, _("The view file names a server but no query")), NULL;
      if (!get_string (query, "profile-type", &session->profile_type, error) ||
          !get_string (query, "selector", &session->selector, error) ||
          !get_time (query, "from", &session->from_ms, error) ||
          !get_time (query, "until", &session->until_ms, error))
        return NULL;
      if (session->profile_type == NULL || session->profile_type[0] == '\0')
        return fail (error, _("The view file’s query has no profile type")), NULL;
      if (session->from_ms >= session->until_ms)
        return fail (error, _("The view file’s query ends before it starts")), NULL;
    }

  /* The view */
  if (!get_object (root, "view", &view, error))
    return NULL;
  if (view != NULL)
    {
      JsonNode *focus;

      if (!get_string (view, "mode", &session->view, error) ||
          !get_string (view, "sample-type", &session->sample_type, error) ||
          !get_string (view, "sandwich", &session->sandwich, error) ||
          !get_string (view, "search", &session->search, error))
        return NULL;
      if (session->view != NULL &&
          !g_str_equal (session->view, "icicle") && !g_str_equal (session->view, "flame") &&
          !g_str_equal (session->view, "bottom-up") && !g_str_equal (session->view, "sandwich"))
        return fail (error, _("The view file’s view is none of icicle, flame, bottom-up or sandwich")), NULL;

      if (!get_boolean (view, "search-regex", &session->search_regex, error) ||
          !get_boolean (view, "search-case-sensitive", &session->search_case_sensitive, error))
        return NULL;

      node = json_object_get_member (view, "transforms");
      if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
        {
          g_autoptr(GError) why = NULL;
          EmbersTransformStack *stack = embers_transform_stack_from_json (node, &why);

          if (stack == NULL)
            {
              g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                           /* Translators: %s says what is wrong, e.g. "Unknown frame action" */
                           _("The view file’s frame actions cannot be used: %s"), why->message);
              return NULL;
            }
          embers_transform_stack_free (session->transforms);
          session->transforms = stack;
        }

      focus = json_object_get_member (view, "focus");
      if (focus != NULL && !JSON_NODE_HOLDS_NULL (focus))
        {
          JsonArray *array;
          guint n;

          if (!JSON_NODE_HOLDS_ARRAY (focus) ||
              (n = json_array_get_length (array = json_node_get_array (focus))) > EMBERS_TRANSFORM_STACK_MAX_PATH)
            return fail (error, _("The view file’s focus is not a list of frames")), NULL;
          session->focus = g_new0 (char *, n + 1);
          for (guint i = 0; i < n; i++)
            {
              JsonNode *e = json_array_get_element (array, i);

              if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_STRING ||
                  strlen (json_node_get_string (e)) > MAX_STRING ||
                  !g_utf8_validate (json_node_get_string (e), -1, NULL))
                return fail (error, _("The view file’s focus is not a list of frames")), NULL;
              session->focus[i] = g_strdup (json_node_get_string (e));
            }
        }
    }

  return g_steal_pointer (&session);
}

EmbersSession *
embers_session_load (GFile         *file,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GFile) dir = NULL;
  g_autoptr(EmbersSession) session = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GString) missing = NULL;
  guint n_missing = 0;
  gsize length = 0;
  const char *paths[2];

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, cancellable, error);
  if (info == NULL)
    return NULL;
  if (g_file_info_get_size (info) > EMBERS_SESSION_MAX_SIZE)
    return fail (error, _("This is too large to be a view file")), NULL;
  if (!g_file_load_contents (file, cancellable, &data, &length, NULL, error))
    return NULL;

  dir = g_file_get_parent (file);
  session = embers_session_parse (data, length, dir, error);
  if (session == NULL)
    return NULL;

  /* Every missing profile by name */
  paths[0] = session->file;
  paths[1] = session->baseline_file;
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      if (paths[i] == NULL || g_file_test (paths[i], G_FILE_TEST_IS_REGULAR))
        continue;
      if (missing == NULL)
        missing = g_string_new (NULL);
      else
        g_string_append (missing, ", ");
      g_string_append (missing, paths[i]);
      n_missing++;
    }
  if (missing != NULL)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_MISSING_FILE,
                   /* Translators: %s is one file name, or several separated by commas */
                   g_dngettext (GETTEXT_PACKAGE,
                                "The profile this view was saved from is missing: %s",
                                "The profiles this view was saved from are missing: %s", n_missing),
                   missing->str);
      return NULL;
    }

  return g_steal_pointer (&session);
}

gboolean
embers_session_save (const EmbersSession  *session,
                     GFile                *file,
                     GCancellable         *cancellable,
                     GError              **error)
{
  gsize length = 0;
  g_autofree char *data = embers_session_to_data (session, &length);

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  return g_file_replace_contents (file, data, length, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                  NULL, cancellable, error);
}

gboolean
embers_session_is_session_file (GFile *file)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  name = g_file_get_basename (file);
  return name != NULL && g_str_has_suffix (name, ".embers");
}
