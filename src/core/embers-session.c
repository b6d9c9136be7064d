/* embers-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "embers-selector.h"
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
  session->labels_same_scale = TRUE;
  return session;
}

EmbersSessionSide *
embers_session_side_new (void)
{
  return g_new0 (EmbersSessionSide, 1);
}

void
embers_session_side_free (EmbersSessionSide *side)
{
  if (side == NULL)
    return;
  g_free (side->file);
  g_free (side->sample_type);
  g_free (side->profile_type);
  g_free (side->selector);
  g_free (side);
}

void
embers_session_free (EmbersSession *session)
{
  if (session == NULL)
    return;
  g_free (session->file);
  g_free (session->baseline_file);
  g_free (session->server);
  g_free (session->tenant);
  g_free (session->profile_type);
  g_free (session->selector);
  g_free (session->service);
  g_free (session->filters);
  g_free (session->workspace_view);
  g_free (session->profile_id);
  embers_session_side_free (session->compare_baseline);
  embers_session_side_free (session->compare_comparison);
  g_free (session->diff_mode);
  embers_session_free (session->diff);
  g_free (session->labels_label);
  g_free (session->labels_view);
  g_free (session->labels_baseline_label);
  g_free (session->labels_baseline_value);
  g_free (session->labels_comparison_label);
  g_free (session->labels_comparison_value);
  g_free (session->services_filter);
  g_free (session->services_sort);
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

/* Selectors */

gboolean
embers_session_split_selector (const char  *selector,
                               char       **service,
                               char       **filters,
                               GError     **error)
{
  g_autoptr(EmbersSelector) parsed = NULL;
  g_autoptr(EmbersSelector) rest = embers_selector_new ();
  g_autofree char *found = NULL;

  parsed = embers_selector_parse (selector != NULL ? selector : "{}", NULL, error);
  if (parsed == NULL)
    return FALSE;
  for (guint i = 0; i < embers_selector_get_n_matchers (parsed); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (parsed, i);

      if (found == NULL && m->op == EMBERS_MATCH_EQUAL && g_strcmp0 (m->name, "service_name") == 0 &&
          m->value != NULL && m->value[0] != '\0')
        found = g_strdup (m->value);
      else
        embers_selector_add_matcher (rest, m);
    }
  *service = g_steal_pointer (&found);
  *filters = embers_selector_to_string (rest);
  return TRUE;
}

char *
embers_session_join_selector (const char  *service,
                              const char  *filters,
                              GError     **error)
{
  g_autoptr(EmbersSelector) parsed = embers_selector_parse (filters != NULL ? filters : "{}", NULL, error);
  g_autoptr(EmbersSelector) all = NULL;

  if (parsed == NULL)
    return NULL;
  all = embers_selector_new ();
  /* The service first, as the query model writes it */
  if (service != NULL && !embers_selector_add (all, "service_name", EMBERS_MATCH_EQUAL, service, error))
    return NULL;
  for (guint i = 0; i < embers_selector_get_n_matchers (parsed); i++)
    embers_selector_add_matcher (all, embers_selector_get_matcher (parsed, i));
  return embers_selector_to_string (all);
}

/* Writing */

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

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* The members of a "view" object */
static void
write_view (JsonBuilder         *b,
            const EmbersSession *session)
{
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
}

static void
write_side (JsonBuilder             *b,
            const char              *name,
            const EmbersSessionSide *side)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  if (side->file != NULL)
    {
      add_string (b, "file", side->file);
      if (side->sample_type != NULL)
        add_string (b, "sample-type", side->sample_type);
    }
  else
    {
      add_string (b, "profile-type", side->profile_type);
      add_string (b, "selector", side->selector != NULL ? side->selector : "{}");
      add_int (b, "from", side->from_ms);
      add_int (b, "until", side->until_ms);
    }
  json_builder_end_object (b);
}

/* A value marked on the Labels view: its label and value */
static void
write_mark (JsonBuilder *b,
            const char  *name,
            const char  *label,
            const char  *value)
{
  if (label == NULL || value == NULL)
    return;
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  add_string (b, "label", label);
  add_string (b, "value", value);
  json_builder_end_object (b);
}

static void
write_labels (JsonBuilder         *b,
              const EmbersSession *session)
{
  json_builder_set_member_name (b, "labels");
  json_builder_begin_object (b);
  add_string (b, "label", session->labels_label);
  add_string (b, "view", session->labels_view);
  json_builder_set_member_name (b, "same-scale");
  json_builder_add_boolean_value (b, session->labels_same_scale);
  write_mark (b, "baseline", session->labels_baseline_label, session->labels_baseline_value);
  write_mark (b, "comparison", session->labels_comparison_label, session->labels_comparison_value);
  json_builder_end_object (b);
}

static void
write_services (JsonBuilder         *b,
                const EmbersSession *session)
{
  json_builder_set_member_name (b, "services");
  json_builder_begin_object (b);
  add_string (b, "filter", session->services_filter);
  json_builder_set_member_name (b, "filter-regex");
  json_builder_add_boolean_value (b, session->services_filter_regex);
  add_string (b, "sort", session->services_sort);
  json_builder_end_object (b);
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
  g_autofree char *service = NULL;
  g_autofree char *filters = NULL;

  g_return_val_if_fail (session != NULL, NULL);

  json_builder_begin_object (b);
  add_string (b, "format", FORMAT_NAME);
  add_int (b, "version", EMBERS_SESSION_VERSION);

  json_builder_set_member_name (b, "source");
  json_builder_begin_object (b);
  /* Never a credential: only scheme, host, port and path go in */
  server = embers_session_clean_url (session->server);
  if (server != NULL)
    {
      add_string (b, "server", server);
      add_string (b, "tenant", session->tenant);
    }
  else
    {
      add_string (b, "file", session->file);
      add_string (b, "baseline-file", session->baseline_file);
    }
  json_builder_end_object (b);

  if (server != NULL)
    {
      /* The service and the filters as given, else from the selector */
      if (session->service != NULL || session->filters != NULL)
        {
          service = g_strdup (session->service);
          filters = g_strdup (session->filters != NULL ? session->filters : "{}");
        }
      else if (!embers_session_split_selector (session->selector, &service, &filters, NULL))
        filters = g_strdup ("{}");

      if (session->until_ms > session->from_ms)
        {
          json_builder_set_member_name (b, "query");
          json_builder_begin_object (b);
          add_string (b, "service", service);
          add_string (b, "profile-type", session->profile_type);
          add_string (b, "filters", filters);
          add_int (b, "from", session->from_ms);
          add_int (b, "until", session->until_ms);
          json_builder_end_object (b);
        }

      json_builder_set_member_name (b, "workspace");
      json_builder_begin_object (b);
      add_string (b, "view", session->workspace_view != NULL ? session->workspace_view : "flame-graph");
      if (session->profile_id != NULL)
        {
          json_builder_set_member_name (b, "profile");
          json_builder_begin_object (b);
          add_string (b, "id", session->profile_id);
          add_int (b, "time", session->profile_time_ms);
          add_int (b, "value", session->profile_value);
          json_builder_end_object (b);
        }
      if (session->compare_baseline != NULL && session->compare_comparison != NULL)
        {
          json_builder_set_member_name (b, "compare");
          json_builder_begin_object (b);
          write_side (b, "baseline", session->compare_baseline);
          write_side (b, "comparison", session->compare_comparison);
          add_string (b, "diff-mode", session->diff_mode);
          if (session->diff != NULL)
            {
              json_builder_set_member_name (b, "view");
              write_view (b, session->diff);
            }
          json_builder_end_object (b);
        }
      if (session->has_labels)
        write_labels (b, session);
      if (session->has_services)
        write_services (b, session);
      json_builder_end_object (b);
    }

  json_builder_set_member_name (b, "view");
  write_view (b, session);
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

/* Reading */

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
  if (!g_utf8_validate (value, -1, NULL))
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is a field's name in a view file, e.g. "filter" */
                   _("The view file’s “%s” is not valid UTF-8 text"), name);
      return FALSE;
    }
  if (strlen (value) > MAX_STRING)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   _("The view file’s “%s” is too long"), name);
      return FALSE;
    }
  g_free (*out);
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
  JsonNode *node = parent != NULL ? json_object_get_member (parent, name) : NULL;

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

/* A whole number of at least 0 (times: Unix milliseconds) */
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
                   /* Translators: %s is "from", "until" or "time" */
                   _("The view file has no time “%s” in milliseconds"), name);
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

static gboolean
is_view_mode (const char *mode)
{
  static const char * const modes[] = { "icicle", "flame", "bottom-up", "sandwich", "call-tree" };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    if (g_str_equal (mode, modes[i]))
      return TRUE;
  return FALSE;
}

static gboolean
is_workspace_view (const char *view)
{
  static const char * const views[] = { "services", "flame-graph", "labels", "compare", "rules" };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (g_str_equal (view, views[i]))
      return TRUE;
  return FALSE;
}

static gboolean
is_labels_view (const char *view)
{
  static const char * const views[] = { "series", "total", "maximum", "histogram", "table" };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    if (g_str_equal (view, views[i]))
      return TRUE;
  return FALSE;
}

/* A value marked on the Labels view: a label (not empty) and a value */
static gboolean
parse_mark (JsonObject  *labels,
            const char  *name,
            char       **label,
            char       **value,
            GError     **error)
{
  JsonObject *mark;

  if (!get_object (labels, name, &mark, error))
    return FALSE;
  if (mark == NULL)
    return TRUE;
  if (!get_string (mark, "label", label, error) || !get_string (mark, "value", value, error))
    return FALSE;
  if (*label == NULL || (*label)[0] == '\0' || *value == NULL)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is "baseline" or "comparison" */
                   _("The view file’s labels “%s” lacks its label or value"), name);
      return FALSE;
    }
  return TRUE;
}

/* The Labels and Services views' state (optional) */
static gboolean
parse_labels_services (JsonObject     *workspace,
                       EmbersSession  *session,
                       GError        **error)
{
  JsonObject *labels, *services;

  if (!get_object (workspace, "labels", &labels, error) ||
      !get_object (workspace, "services", &services, error))
    return FALSE;
  if (labels != NULL)
    {
      session->has_labels = TRUE;
      if (!get_string (labels, "label", &session->labels_label, error) ||
          !get_string (labels, "view", &session->labels_view, error) ||
          !get_boolean (labels, "same-scale", &session->labels_same_scale, error) ||
          !parse_mark (labels, "baseline", &session->labels_baseline_label, &session->labels_baseline_value, error) ||
          !parse_mark (labels, "comparison", &session->labels_comparison_label, &session->labels_comparison_value,
                       error))
        return FALSE;
      if (session->labels_label != NULL && session->labels_label[0] == '\0')
        g_clear_pointer (&session->labels_label, g_free);
      if (session->labels_view != NULL && !is_labels_view (session->labels_view))
        return fail (error, _("The view file’s labels view is none of series, total, maximum, histogram or table"));
    }
  if (services != NULL)
    {
      session->has_services = TRUE;
      if (!get_string (services, "filter", &session->services_filter, error) ||
          !get_boolean (services, "filter-regex", &session->services_filter_regex, error) ||
          !get_string (services, "sort", &session->services_sort, error))
        return FALSE;
      if (session->services_sort != NULL && !g_str_equal (session->services_sort, "name") &&
          !g_str_equal (session->services_sort, "total"))
        return fail (error, _("The view file’s services order is neither name nor total"));
    }
  return TRUE;
}

/* A selector the query can use: parsed and written back canonical */
static gboolean
get_selector (JsonObject  *object,
              const char  *name,
              char       **out,
              GError     **error)
{
  g_autoptr(EmbersSelector) parsed = NULL;
  g_autofree char *text = NULL;

  if (!get_string (object, name, &text, error))
    return FALSE;
  parsed = embers_selector_parse (text != NULL ? text : "{}", NULL, NULL);
  if (parsed == NULL)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is a field's name in a view file, e.g. "filters" */
                   _("The view file’s “%s” is not a label selector"), name);
      return FALSE;
    }
  g_free (*out);
  *out = embers_selector_to_string (parsed);
  return TRUE;
}

/* The members of a "view" object into @session */
static gboolean
parse_view (JsonObject     *view,
            EmbersSession  *session,
            GError        **error)
{
  JsonNode *node, *focus;

  if (!get_string (view, "mode", &session->view, error) ||
      !get_string (view, "sample-type", &session->sample_type, error) ||
      !get_string (view, "sandwich", &session->sandwich, error) ||
      !get_string (view, "search", &session->search, error))
    return FALSE;
  if (session->view != NULL && !is_view_mode (session->view))
    return fail (error, _("The view file’s view is none of icicle, flame, bottom-up, sandwich or call tree"));

  if (!get_boolean (view, "search-regex", &session->search_regex, error) ||
      !get_boolean (view, "search-case-sensitive", &session->search_case_sensitive, error))
    return FALSE;

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
          return FALSE;
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
        return fail (error, _("The view file’s focus is not a list of frames"));
      g_strfreev (session->focus);
      session->focus = g_new0 (char *, n + 1);
      for (guint i = 0; i < n; i++)
        {
          JsonNode *e = json_array_get_element (array, i);

          if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_STRING ||
              strlen (json_node_get_string (e)) > MAX_STRING ||
              !g_utf8_validate (json_node_get_string (e), -1, NULL))
            return fail (error, _("The view file’s focus is not a list of frames"));
          session->focus[i] = g_strdup (json_node_get_string (e));
        }
    }
  return TRUE;
}

/* One side of the Compare view: a file (with its sample type), or a
 * query on the workspace's server; a side that is both or neither is
 * refused, naming the side */
static EmbersSessionSide *
parse_side (JsonObject  *compare,
            const char  *name,
            GFile       *dir,
            GError     **error)
{
  g_autoptr(EmbersSessionSide) side = embers_session_side_new ();
  /* Translators: names a side of a comparison in a view file's error */
  const char *which = g_str_equal (name, "baseline") ? _("baseline") : _("comparison");
  JsonObject *object;

  if (!get_object (compare, name, &object, error))
    return NULL;
  if (object == NULL)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is "baseline" or "comparison" */
                   _("The view file’s comparison lacks its %s"), which);
      return NULL;
    }
  if (!get_string (object, "file", &side->file, error) ||
      !get_string (object, "sample-type", &side->sample_type, error))
    return NULL;
  if (side->file != NULL)
    {
      if (side->file[0] == '\0')
        return fail (error, _("The view file names an empty file name")), NULL;
      if (json_object_has_member (object, "profile-type") || json_object_has_member (object, "selector"))
        {
          g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                       /* Translators: %s is "baseline" or "comparison" */
                       _("The view file’s %s is both a profile file and a query"), which);
          return NULL;
        }
      if (side->sample_type != NULL && side->sample_type[0] == '\0')
        g_clear_pointer (&side->sample_type, g_free);
      side->file = resolve_path (side->file, dir);
      return g_steal_pointer (&side);
    }
  if (side->sample_type != NULL)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is "baseline" or "comparison" */
                   _("The view file’s %s has a sample type but no profile file"), which);
      return NULL;
    }
  if (!get_string (object, "profile-type", &side->profile_type, error) ||
      !get_selector (object, "selector", &side->selector, error))
    return NULL;
  if (side->profile_type == NULL || side->profile_type[0] == '\0')
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is "baseline" or "comparison" */
                   _("The view file’s %s is neither a profile file nor a query with a profile type"), which);
      return NULL;
    }
  if (!get_time (object, "from", &side->from_ms, error) ||
      !get_time (object, "until", &side->until_ms, error))
    return NULL;
  if (side->from_ms >= side->until_ms)
    {
      g_set_error (error, EMBERS_SESSION_ERROR, EMBERS_SESSION_ERROR_INVALID,
                   /* Translators: %s is "baseline" or "comparison" */
                   _("The view file’s %s query ends before it starts"), which);
      return NULL;
    }
  return g_steal_pointer (&side);
}

/* A server's workspace (version 2) */
static gboolean
parse_workspace (JsonObject     *workspace,
                 EmbersSession  *session,
                 GFile          *dir,
                 GError        **error)
{
  JsonObject *profile, *compare, *view;

  if (!get_string (workspace, "view", &session->workspace_view, error))
    return FALSE;
  if (session->workspace_view == NULL)
    session->workspace_view = g_strdup ("flame-graph");
  if (!is_workspace_view (session->workspace_view))
    return fail (error, _("The view file’s workspace view is none of services, flame-graph, labels, compare or "
                          "rules"));

  if (!get_object (workspace, "profile", &profile, error))
    return FALSE;
  if (profile != NULL)
    {
      JsonNode *value = json_object_get_member (profile, "value");

      if (!get_string (profile, "id", &session->profile_id, error) ||
          !get_time (profile, "time", &session->profile_time_ms, error))
        return FALSE;
      if (session->profile_id == NULL || session->profile_id[0] == '\0')
        return fail (error, _("The view file’s individual profile has no id"));
      if (value == NULL || !JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_INT64)
        return fail (error, _("The view file’s individual profile has no value"));
      session->profile_value = json_node_get_int (value);
    }

  if (!get_object (workspace, "compare", &compare, error))
    return FALSE;
  if (compare != NULL)
    {
      session->compare_baseline = parse_side (compare, "baseline", dir, error);
      if (session->compare_baseline == NULL)
        return FALSE;
      session->compare_comparison = parse_side (compare, "comparison", dir, error);
      if (session->compare_comparison == NULL)
        return FALSE;
      if (!get_string (compare, "diff-mode", &session->diff_mode, error))
        return FALSE;
      if (session->diff_mode != NULL && !g_str_equal (session->diff_mode, "share") &&
          !g_str_equal (session->diff_mode, "absolute"))
        return fail (error, _("The view file’s diff mode is neither share nor absolute"));
      if (!get_object (compare, "view", &view, error))
        return FALSE;
      if (view != NULL)
        {
          session->diff = embers_session_new ();
          if (!parse_view (view, session->diff, error))
            return FALSE;
        }
    }
  return parse_labels_services (workspace, session, error);
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
  JsonObject *root, *source, *query, *view, *workspace;
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
      if (version >= 2 && !get_string (source, "tenant", &session->tenant, error))
        return NULL;
      if (session->tenant != NULL && session->tenant[0] == '\0')
        g_clear_pointer (&session->tenant, g_free);
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

  /* The query, with a server: version 1 needs one (a profile type and a
   * whole selector); version 2's workspace may have none yet (the
   * Services view), and names the service and the filters apart */
  if (!get_object (root, "query", &query, error))
    return NULL;
  if (session->server != NULL && query == NULL && version < 2)
    return fail (error, _("The view file names a server but no query")), NULL;
  if (session->server != NULL && query != NULL)
    {
      if (!get_string (query, "profile-type", &session->profile_type, error) ||
          !get_time (query, "from", &session->from_ms, error) ||
          !get_time (query, "until", &session->until_ms, error))
        return NULL;
      if (session->profile_type != NULL && session->profile_type[0] == '\0')
        g_clear_pointer (&session->profile_type, g_free);
      if (session->profile_type == NULL && version < 2)
        return fail (error, _("The view file’s query has no profile type")), NULL;
      if (session->from_ms >= session->until_ms)
        return fail (error, _("The view file’s query ends before it starts")), NULL;

      if (version < 2)
        {
          g_autofree char *selector = NULL;

          if (!get_selector (query, "selector", &selector, error))
            return NULL;
          embers_session_split_selector (selector, &session->service, &session->filters, NULL);
        }
      else
        {
          if (!get_string (query, "service", &session->service, error) ||
              !get_selector (query, "filters", &session->filters, error))
            return NULL;
          if (session->service != NULL && session->service[0] == '\0')
            g_clear_pointer (&session->service, g_free);
        }
      session->selector = embers_session_join_selector (session->service, session->filters, NULL);
      if (session->selector == NULL)
        return fail (error, _("The view file’s “filters” is not a label selector")), NULL;
    }

  /* A server's workspace */
  if (!get_object (root, "workspace", &workspace, error))
    return NULL;
  if (session->server != NULL && version >= 2)
    {
      if (workspace == NULL)
        return fail (error, _("The view file names a server but no workspace")), NULL;
      if (!parse_workspace (workspace, session, dir, error))
        return NULL;
    }

  /* The view */
  if (!get_object (root, "view", &view, error))
    return NULL;
  if (view != NULL && !parse_view (view, session, error))
    return NULL;

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
  const char *paths[4];

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
  paths[2] = session->compare_baseline != NULL ? session->compare_baseline->file : NULL;
  paths[3] = session->compare_comparison != NULL ? session->compare_comparison->file : NULL;
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
