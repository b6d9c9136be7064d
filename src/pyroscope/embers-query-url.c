/* embers-query-url.c: Pyroscope query URLs, and loading one headless
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "embers-connect-client.h"
#include "embers-credentials.h"
#include "embers-diff.h"
#include "embers-pyroscope-source.h"
#include "embers-query-url.h"
#include "embers-selector.h"
#include "embers-text.h"

/* Keyring lookups from the command line give up after this long. */
#define KEYRING_TIMEOUT_MS 10000

void
embers_query_url_free (EmbersQueryUrl *self)
{
  if (self == NULL)
    return;

  g_free (self->base_url);
  g_free (self->user);
  if (self->password != NULL)
    explicit_bzero (self->password, strlen (self->password));
  g_free (self->password);
  embers_query_free (self->query);
  g_strfreev (self->span_ids);
  g_strfreev (self->trace_ids);
  g_free (self);
}

gboolean
embers_query_url_is_url (const char *text)
{
  return text != NULL &&
         (g_ascii_strncasecmp (text, "http://", 7) == 0 ||
          g_ascii_strncasecmp (text, "https://", 8) == 0);
}

G_GNUC_PRINTF (2, 3)
static gboolean
invalid (GError     **error,
         const char  *format,
         ...)
{
  g_autofree char *msg = NULL;
  g_autofree char *masked = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);

  /* Messages quote the URL: never its password */
  masked = embers_text_mask_credentials (msg);
  g_set_error_literal (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT, masked);
  return FALSE;
}

static gboolean
time_error (const char  *text,
            GError     **error)
{
  return invalid (error,
                  _("“%s” is not a time: use Unix seconds or milliseconds, RFC 3339 "
                    "(2024-05-01T12:00:00Z), now, or now-1h (units ms, s, m, h, d, w)"),
                  text);
}

static gboolean
parse_relative (const char *p,
                gint64     *out_ms)
{
  gint64 total = 0;

  if (*p == '\0')
    return FALSE;

  while (*p != '\0')
    {
      guint64 n = 0;
      gint64 unit;
      const char *digits = p;

      while (g_ascii_isdigit (*p))
        {
          n = n * 10 + (guint64) (*p - '0');
          if (n > G_MAXINT32)
            return FALSE;
          p++;
        }
      if (p == digits)
        return FALSE;

      if (g_str_has_prefix (p, "ms"))
        unit = 1, p += 2;
      else if (*p == 's')
        unit = 1000, p++;
      else if (*p == 'm')
        unit = 60 * 1000, p++;
      else if (*p == 'h')
        unit = 3600 * 1000, p++;
      else if (*p == 'd')
        unit = 24 * 3600 * 1000, p++;
      else if (*p == 'w')
        unit = (gint64) 7 * 24 * 3600 * 1000, p++;
      else
        return FALSE;

      total += (gint64) n * unit;
      if (total > (gint64) 1000 * 365 * 24 * 3600 * 1000)  /* a thousand years is plenty */
        return FALSE;
    }

  *out_ms = total;
  return TRUE;
}

gboolean
embers_query_url_parse_time (const char  *text,
                             gint64       now_ms,
                             gint64      *out_ms,
                             GError     **error)
{
  g_autofree char *t = NULL;
  gboolean digits = TRUE;

  g_return_val_if_fail (out_ms != NULL, FALSE);

  if (text == NULL)
    return time_error ("", error);

  t = g_strstrip (g_strdup (text));
  if (t[0] == '\0')
    return time_error (text, error);

  if (g_ascii_strncasecmp (t, "now", 3) == 0)
    {
      const char *rest = t + 3;
      gint64 delta = 0;

      if (*rest == '\0')
        {
          *out_ms = now_ms;
          return TRUE;
        }
      if ((*rest != '-' && *rest != '+') || !parse_relative (rest + 1, &delta))
        return time_error (text, error);

      *out_ms = *rest == '-' ? now_ms - delta : now_ms + delta;
      return TRUE;
    }

  for (const char *p = t; *p; p++)
    if (!g_ascii_isdigit (*p))
      digits = FALSE;

  if (digits)
    {
      guint64 v;

      if (strlen (t) > 19 || !g_ascii_string_to_unsigned (t, 10, 0, G_MAXINT64, &v, NULL))
        return time_error (text, error);

      /* Seconds until the year 5138, then ms, µs and ns. */
      if (v < G_GUINT64_CONSTANT (100000000000))
        *out_ms = (gint64) v * 1000;
      else if (v < G_GUINT64_CONSTANT (100000000000000))
        *out_ms = (gint64) v;
      else if (v < G_GUINT64_CONSTANT (100000000000000000))
        *out_ms = (gint64) (v / 1000);
      else
        *out_ms = (gint64) (v / 1000000);
      return TRUE;
    }

  {
    g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
    g_autoptr(GDateTime) dt = NULL;
    g_autofree char *full = NULL;

    /* A date alone is midnight UTC */
    if (strlen (t) == 10 && t[4] == '-' && t[7] == '-')
      full = g_strconcat (t, "T00:00:00Z", NULL);

    dt = g_date_time_new_from_iso8601 (full ? full : t, utc);
    if (dt == NULL)
      return time_error (text, error);

    *out_ms = g_date_time_to_unix (dt) * 1000 + g_date_time_get_microsecond (dt) / 1000;
    return TRUE;
  }
}

gboolean
embers_query_url_parse_local_time (const char  *text,
                                   gint64       now_ms,
                                   gint64      *out_ms,
                                   GError     **error)
{
  int y, mo, d, h = 0, mi = 0;
  double s = 0;

  g_return_val_if_fail (out_ms != NULL, FALSE);

  if (text != NULL &&
      (sscanf (text, "%d-%d-%d %d:%d:%lf", &y, &mo, &d, &h, &mi, &s) >= 5 ||
       sscanf (text, "%d-%d-%d %d:%d", &y, &mo, &d, &h, &mi) == 5))
    {
      g_autoptr(GDateTime) dt = g_date_time_new_local (y, mo, d, h, mi, s);

      if (dt != NULL)
        {
          *out_ms = g_date_time_to_unix (dt) * 1000;
          return TRUE;
        }
    }
  return embers_query_url_parse_time (text, now_ms, out_ms, error);
}

char *
embers_query_url_format_local_time (gint64 ms)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_local (ms / 1000);

  return dt != NULL ? g_date_time_format (dt, "%Y-%m-%d %H:%M:%S") : g_strdup ("");
}

static const char * const ui_pages[] = {
  "explore", "comparison", "comparison-diff", "tag-explorer", "single",
};

/* Drops a trailing Pyroscope UI page name from a path ("/explore") */
static void
strip_ui_page (GString *base)
{
  const char *scheme_end = strstr (base->str, "://");
  const char *path = scheme_end ? strchr (scheme_end + 3, '/') : NULL;
  const char *last;

  while (base->len > 0 && base->str[base->len - 1] == '/')
    g_string_truncate (base, base->len - 1);

  if (path == NULL || (gsize) (path - base->str) >= base->len)
    return;

  last = strrchr (base->str, '/');
  if (last == NULL || last < path)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (ui_pages); i++)
    {
      if (g_str_equal (last + 1, ui_pages[i]))
        {
          g_string_truncate (base, last - base->str);
          return;
        }
    }
}

/* The Pyroscope API's base below a legacy render URL: "…/pyroscope/render"
 * (Pyroscope) or "…/render" (Pyroscope before 1.0) */
static void
strip_render (GString *base)
{
  const char *scheme_end = strstr (base->str, "://");
  const char *path = scheme_end ? strchr (scheme_end + 3, '/') : NULL;

  if (path == NULL)
    return;
  if (g_str_has_suffix (path, "/pyroscope/render"))
    g_string_truncate (base, base->len - strlen ("/pyroscope/render"));
  else if (g_str_has_suffix (path, "/render"))
    g_string_truncate (base, base->len - strlen ("/render"));
}

/* Grafana Profiles Drilldown (the grafana-pyroscope-app plugin):
 * GRAFANA[/subpath]/a/grafana-pyroscope-app/PAGE?var-dataSource=UID&…
 * reads through Grafana's data source proxy,
 * GRAFANA[/subpath]/api/datasources/proxy/uid/UID. NULL when the URL is
 * not one; FALSE with an error when it is but names no data source. */
#define DRILLDOWN_APP "/a/grafana-pyroscope-app"

static gboolean
drilldown_base (GString     *base,
                const char  *data_source,
                gboolean    *is_drilldown,
                GError     **error)
{
  const char *scheme_end = strstr (base->str, "://");
  const char *path = scheme_end ? strchr (scheme_end + 3, '/') : NULL;
  const char *app = path != NULL ? strstr (path, DRILLDOWN_APP) : NULL;
  g_autofree char *escaped = NULL;

  *is_drilldown = app != NULL &&
                  (app[strlen (DRILLDOWN_APP)] == '\0' || app[strlen (DRILLDOWN_APP)] == '/');
  if (!*is_drilldown)
    return TRUE;
  if (data_source == NULL || data_source[0] == '\0')
    {
      invalid (error, _("This Grafana Profiles Drilldown URL names no data source: it needs var-dataSource=UID"));
      return FALSE;
    }
  escaped = g_uri_escape_string (data_source, NULL, FALSE);
  g_string_truncate (base, app - base->str);
  g_string_append_printf (base, "/api/datasources/proxy/uid/%s", escaped);
  return TRUE;
}

/* Grafana's ad hoc filter in a URL: "key|op|value", with "__gfp__" for a
 * "|" and "__gfc__" for a "," inside the key or the value */
static char *
unescape_filter_part (const char *text)
{
  g_autoptr(GString) out = g_string_new (text);

  g_string_replace (out, "__gfp__", "|", 0);
  g_string_replace (out, "__gfc__", ",", 0);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* {service_name="…", key op "value", …} from Drilldown's variables */
static char *
drilldown_selector (const char  *service,
                    GPtrArray   *filters,
                    GError     **error)
{
  g_autoptr(EmbersSelector) selector = embers_selector_new ();

  g_autoptr(GError) local_error = NULL;

  if (service != NULL && service[0] != '\0' &&
      !embers_selector_add (selector, "service_name", EMBERS_MATCH_EQUAL, service, &local_error))
    {
      invalid (error, _("The service “%s” is not valid: %s"), service, local_error->message);
      return NULL;
    }
  for (guint i = 0; i < filters->len; i++)
    {
      const char *filter = g_ptr_array_index (filters, i);
      g_auto(GStrv) parts = NULL;
      g_autofree char *key = NULL;
      g_autofree char *value = NULL;
      EmbersMatchOp op;

      if (filter[0] == '\0')
        continue;
      parts = g_strsplit (filter, "|", 3);
      if (g_strv_length (parts) != 3)
        {
          invalid (error, _("The filter “%s” is not key|operator|value"), filter);
          return NULL;
        }
      if (g_str_equal (parts[1], "="))
        op = EMBERS_MATCH_EQUAL;
      else if (g_str_equal (parts[1], "!="))
        op = EMBERS_MATCH_NOT_EQUAL;
      else if (g_str_equal (parts[1], "=~"))
        op = EMBERS_MATCH_REGEX;
      else if (g_str_equal (parts[1], "!~"))
        op = EMBERS_MATCH_NOT_REGEX;
      else
        {
          invalid (error, _("The filter “%s” has an operator Embers does not know (=, !=, =~, !~)"), filter);
          return NULL;
        }
      key = unescape_filter_part (parts[0]);
      value = unescape_filter_part (parts[2]);
      if (!embers_selector_add (selector, key, op, value, &local_error))
        {
          invalid (error, _("The filter “%s” is not valid: %s"), filter, local_error->message);
          return NULL;
        }
    }
  return embers_selector_to_string (selector);
}

static gboolean
parse_query_param (const char   *text,
                   char        **profile_type,
                   char        **selector,
                   GError      **error)
{
  g_autofree char *t = g_strstrip (g_strdup (text));
  g_autofree char *type = NULL;
  g_autoptr(EmbersProfileTypeInfo) info = NULL;
  g_autoptr(EmbersSelector) parsed = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *brace = strchr (t, '{');

  if (brace != NULL)
    type = g_strstrip (g_strndup (t, brace - t));
  else
    type = g_strdup (t);

  if (type[0] == '\0')
    return invalid (error, _("The query “%s” has no profile type; it should look like "
                             "process_cpu:cpu:nanoseconds:cpu:nanoseconds{service_name=\"api\"}"),
                    text);

  info = embers_profile_type_info_new (type);
  if (info == NULL)
    return invalid (error, _("“%s” is not a profile type: it should have five parts, "
                             "name:sample_type:sample_unit:period_type:period_unit"),
                    type);

  if (brace != NULL)
    {
      parsed = embers_selector_parse (brace, NULL, &local_error);
      if (parsed == NULL)
        return invalid (error, _("The label selector “%s” is not valid: %s"), brace, local_error->message);
    }
  else
    parsed = embers_selector_new ();

  *profile_type = g_steal_pointer (&type);
  *selector = embers_selector_to_string (parsed);
  return TRUE;
}

/* Span and trace id parameters, by the names Grafana and people use */
static gboolean
is_span_param (const char *name)
{
  return g_str_equal (name, "span-id") || g_str_equal (name, "span_id") ||
         g_str_equal (name, "spanId") || g_str_equal (name, "spanSelector");
}

static gboolean
is_trace_param (const char *name)
{
  return g_str_equal (name, "trace-id") || g_str_equal (name, "trace_id") ||
         g_str_equal (name, "traceId");
}

/* "a,b" or "a": each id, lower case, without white space */
static void
add_ids (GPtrArray  *ids,
         const char *value)
{
  g_auto(GStrv) parts = g_strsplit (value, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *id = g_ascii_strdown (g_strstrip (parts[i]), -1);

      if (id[0] != '\0' && !g_ptr_array_find_with_equal_func (ids, id, g_str_equal, NULL))
        g_ptr_array_add (ids, id);
      else
        g_free (id);
    }
}

EmbersQueryUrl *
embers_query_url_parse (const char  *url,
                        gint64       now_ms,
                        GError     **error)
{
  g_autoptr(EmbersQueryUrl) self = NULL;
  g_autoptr(GHashTable) params = NULL;
  g_autoptr(GString) base = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autofree char *query_string = NULL;
  g_autofree char *profile_type = NULL;
  g_autofree char *selector = NULL;
  g_autoptr(GPtrArray) filters = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) span_ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) trace_ids = g_ptr_array_new_with_free_func (g_free);
  const char *question;
  const char *hash;
  const char *value;
  const char *until_text;
  gboolean is_drilldown = FALSE;
  gint64 from_ms, until_ms;

  if (url == NULL || !embers_query_url_is_url (url))
    {
      invalid (error, _("“%s” is not a query URL: it must start with http:// or https://"), url ? url : "");
      return NULL;
    }

  question = strchr (url, '?');
  if (question == NULL)
    {
      invalid (error, _("The URL “%s” has no query: add ?query=<profile type>{<labels>}&from=now-1h&until=now"), url);
      return NULL;
    }

  hash = strchr (question, '#');
  query_string = hash ? g_strndup (question + 1, hash - question - 1) : g_strdup (question + 1);
  /* Every parameter (the last of a name wins), and Drilldown's filters,
   * which repeat */
  params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  {
    GUriParamsIter iter;
    char *name, *param;

    g_uri_params_iter_init (&iter, query_string, -1, "&", G_URI_PARAMS_WWW_FORM);
    while (g_uri_params_iter_next (&iter, &name, &param, &local_error))
      {
        if (g_str_equal (name, "var-filters"))
          g_ptr_array_add (filters, g_strdup (param));
        if (is_span_param (name))
          add_ids (span_ids, param);
        else if (is_trace_param (name))
          add_ids (trace_ids, param);
        g_hash_table_replace (params, name, param);
      }
    if (local_error != NULL)
      {
        invalid (error, _("The URL's parameters cannot be read: %s"), local_error->message);
        return NULL;
      }
  }

  value = g_hash_table_lookup (params, "query");
  if (value != NULL && value[0] != '\0')
    {
      if (!parse_query_param (value, &profile_type, &selector, error))
        return NULL;
    }
  else if ((value = g_hash_table_lookup (params, "var-profileMetricId")) != NULL && value[0] != '\0')
    {
      /* Grafana Profiles Drilldown: the profile type, the service and the
       * filters as variables */
      g_autofree char *drilldown = drilldown_selector (g_hash_table_lookup (params, "var-serviceName"),
                                                      filters, error);
      g_autofree char *text = NULL;

      if (drilldown == NULL)
        return NULL;
      text = g_strconcat (value, drilldown, NULL);
      if (!parse_query_param (text, &profile_type, &selector, error))
        return NULL;
    }
  else
    {
      invalid (error, _("The URL has no query parameter: add ?query=<profile type>{<labels>} "
                        "(or, from Grafana Profiles Drilldown, var-profileMetricId)"));
      return NULL;
    }

  /* "to" is Grafana's name for "until" */
  until_text = g_hash_table_lookup (params, "until");
  if (until_text == NULL)
    until_text = g_hash_table_lookup (params, "to");
  value = g_hash_table_lookup (params, "from");
  if (!embers_query_url_parse_time (value ? value : "now-1h", now_ms, &from_ms, error))
    return NULL;
  if (!embers_query_url_parse_time (until_text ? until_text : "now", now_ms, &until_ms, error))
    return NULL;
  if (from_ms >= until_ms)
    {
      invalid (error, _("The time range is empty: from (%s) is not before until (%s)"),
               (const char *) g_hash_table_lookup (params, "from") ?: "now-1h",
               until_text ?: "now");
      return NULL;
    }

  self = g_new0 (EmbersQueryUrl, 1);
  self->query = embers_query_new (profile_type, selector, from_ms, until_ms);

  value = g_hash_table_lookup (params, "max-nodes");
  if (value == NULL)
    value = g_hash_table_lookup (params, "maxNodes");
  if (value != NULL)
    {
      guint64 n;

      if (!g_ascii_string_to_unsigned (value, 10, 1, EMBERS_PYROSCOPE_MAX_MAX_NODES, &n, NULL))
        {
          invalid (error, _("max-nodes must be a whole number from 1 to %d, not “%s”"),
                   EMBERS_PYROSCOPE_MAX_MAX_NODES, value);
          return NULL;
        }
      self->query->max_nodes = (gint64) n;
    }

  /* Spans or traces */
  if (span_ids->len > 0 && trace_ids->len > 0)
    {
      invalid (error, _("The URL names both span ids and trace ids: give one or the other"));
      return NULL;
    }
  for (guint i = 0; i < span_ids->len; i++)
    if (!embers_pyroscope_check_span_id (g_ptr_array_index (span_ids, i), FALSE, error))
      return NULL;
  for (guint i = 0; i < trace_ids->len; i++)
    if (!embers_pyroscope_check_span_id (g_ptr_array_index (trace_ids, i), TRUE, error))
      return NULL;
  if (span_ids->len > 0)
    {
      g_ptr_array_add (span_ids, NULL);
      self->span_ids = (GStrv) g_ptr_array_steal (span_ids, NULL);
    }
  if (trace_ids->len > 0)
    {
      g_ptr_array_add (trace_ids, NULL);
      self->trace_ids = (GStrv) g_ptr_array_steal (trace_ids, NULL);
    }

  /* The server part: scheme://[user:password@]host[:port][/prefix], below
   * a UI page or /pyroscope/render, or Grafana's proxy for Drilldown */
  base = g_string_new_len (url, question - url);
  while (base->len > 0 && base->str[base->len - 1] == '/')
    g_string_truncate (base, base->len - 1);
  if (!drilldown_base (base, g_hash_table_lookup (params, "var-dataSource"), &is_drilldown, error))
    return NULL;
  if (!is_drilldown)
    {
      strip_render (base);
      strip_ui_page (base);
    }

  uri = g_uri_parse (base->str, G_URI_FLAGS_HAS_PASSWORD | G_URI_FLAGS_ENCODED_PATH, &local_error);
  if (uri == NULL)
    {
      invalid (error, _("“%s” is not a valid server address: %s"), base->str, local_error->message);
      return NULL;
    }
  self->user = g_strdup (g_uri_get_user (uri));
  self->password = g_strdup (g_uri_get_password (uri));

  self->base_url = embers_connect_normalize_base_url (base->str, error);
  if (self->base_url == NULL)
    return NULL;

  return g_steal_pointer (&self);
}

char *
embers_query_url_build (const char        *base_url,
                        const EmbersQuery *query)
{
  g_autofree char *text = NULL;
  g_autofree char *escaped = NULL;
  g_autoptr(GString) url = NULL;
  gsize len;

  g_return_val_if_fail (base_url != NULL, NULL);
  g_return_val_if_fail (query != NULL, NULL);

  url = g_string_new (base_url);
  len = url->len;
  while (len > 0 && url->str[len - 1] == '/')
    g_string_truncate (url, --len);

  text = g_strconcat (query->profile_type ? query->profile_type : "",
                      query->label_selector && query->label_selector[0] ? query->label_selector : "{}",
                      NULL);
  escaped = g_uri_escape_string (text, NULL, FALSE);
  g_string_append_printf (url, "/?query=%s", escaped);

  for (guint i = 0; i < 2; i++)
    {
      gint64 ms = i == 0 ? query->start_ms : query->end_ms;
      const char *name = i == 0 ? "from" : "until";

      /* Small numbers would read back as seconds: write those as RFC 3339. */
      if (ms >= G_GINT64_CONSTANT (100000000000) && ms < G_GINT64_CONSTANT (100000000000000))
        g_string_append_printf (url, "&%s=%" G_GINT64_FORMAT, name, ms);
      else
        {
          g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (ms / 1000);
          g_autoptr(GDateTime) exact = dt ? g_date_time_add (dt, (ms % 1000) * 1000) : NULL;
          g_autofree char *iso = exact ? g_date_time_format_iso8601 (exact) : g_strdup ("now");
          g_autofree char *iso_escaped = g_uri_escape_string (iso, NULL, FALSE);
          g_string_append_printf (url, "&%s=%s", name, iso_escaped);
        }
    }

  if (query->max_nodes > 0)
    g_string_append_printf (url, "&max-nodes=%" G_GINT64_FORMAT, query->max_nodes);

  return g_string_free (g_steal_pointer (&url), FALSE);
}

char *
embers_query_url_build_spans (const char         *base_url,
                              const EmbersQuery  *query,
                              const char * const *span_ids,
                              const char * const *trace_ids)
{
  g_autoptr(GString) url = NULL;
  g_autofree char *plain = NULL;

  g_return_val_if_fail (base_url != NULL, NULL);
  g_return_val_if_fail (query != NULL, NULL);

  plain = embers_query_url_build (base_url, query);
  url = g_string_new (plain);
  for (guint i = 0; span_ids != NULL && span_ids[i] != NULL; i++)
    {
      g_autofree char *escaped = g_uri_escape_string (span_ids[i], NULL, FALSE);

      g_string_append_printf (url, "&span-id=%s", escaped);
    }
  for (guint i = 0; trace_ids != NULL && trace_ids[i] != NULL; i++)
    {
      g_autofree char *escaped = g_uri_escape_string (trace_ids[i], NULL, FALSE);

      g_string_append_printf (url, "&trace-id=%s", escaped);
    }
  return g_string_free (g_steal_pointer (&url), FALSE);
}

/* ---- headless loading ---------------------------------------------------- */

typedef struct
{
  GAsyncResult *result;
} Waiter;

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Waiter *waiter = user_data;

  waiter->result = g_object_ref (result);
  g_main_context_wakeup (g_main_context_get_thread_default ());
}

static void
wait_for (GMainContext *context,
          Waiter       *waiter)
{
  while (waiter->result == NULL)
    g_main_context_iteration (context, TRUE);
}

static gboolean
on_keyring_timeout (gpointer user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
  return G_SOURCE_REMOVE;
}

static void
on_outer_cancelled (GCancellable *cancellable,
                    gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static EmbersCredentials *
lookup_keyring (GMainContext  *context,
                const char    *base_url,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(GCancellable) lookup_cancellable = g_cancellable_new ();
  g_autoptr(GSource) timeout = g_timeout_source_new (KEYRING_TIMEOUT_MS);
  g_autoptr(GError) local_error = NULL;
  Waiter waiter = { NULL };
  EmbersCredentials *credentials;
  gulong id = 0;

  if (cancellable != NULL)
    id = g_cancellable_connect (cancellable, G_CALLBACK (on_outer_cancelled),
                                g_object_ref (lookup_cancellable), g_object_unref);

  g_source_set_callback (timeout, on_keyring_timeout, lookup_cancellable, NULL);
  g_source_attach (timeout, context);

  embers_credentials_lookup_async (base_url, NULL, lookup_cancellable, on_done, &waiter);
  wait_for (context, &waiter);

  g_source_destroy (timeout);
  if (cancellable != NULL)
    g_cancellable_disconnect (cancellable, id);

  credentials = embers_credentials_lookup_finish (waiter.result, &local_error);
  g_object_unref (waiter.result);

  if (local_error != NULL)
    {
      if (g_cancellable_is_cancelled (cancellable))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      /* The keyring took too long (a prompt nobody answers): go without. */
      g_debug ("keyring: gave up: %s", local_error->message);
    }

  return credentials;
}

static guint query_url_timeout_s;   /* 0: EMBERS_TIMEOUT, else the default */

void
embers_query_url_set_timeout (guint seconds)
{
  query_url_timeout_s = seconds;
}

/* The timeout for query URLs: embers_query_url_set_timeout() (the command
 * line's --timeout), else EMBERS_TIMEOUT, else the client's 60 s */
static gboolean
query_url_timeout (guint   *seconds,
                   GError **error)
{
  const char *env = g_getenv ("EMBERS_TIMEOUT");
  guint64 value;

  *seconds = query_url_timeout_s;
  if (*seconds > 0 || env == NULL || env[0] == '\0')
    return TRUE;
  if (!g_ascii_string_to_unsigned (env, 10, 1, EMBERS_QUERY_URL_MAX_TIMEOUT_S, &value, NULL))
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   _("EMBERS_TIMEOUT must be a whole number of seconds from 1 to %u, not “%s”"),
                   EMBERS_QUERY_URL_MAX_TIMEOUT_S, env);
      return FALSE;
    }
  *seconds = (guint) value;
  return TRUE;
}

/* A source for a parsed URL with its credentials: from the URL, else the
 * environment, else the keyring (EMBERS_TENANT always applies). */
static EmbersPyroscopeSource *
open_source (EmbersQueryUrl  *parsed,
             GMainContext    *context,
             GCancellable    *cancellable,
             GError         **error)
{
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersCredentials) credentials = NULL;
  g_autoptr(EmbersCredentials) env = NULL;
  guint timeout_s = 0;

  if (!query_url_timeout (&timeout_s, error))
    return NULL;
  client = embers_connect_client_new (parsed->base_url, error);
  if (client == NULL)
    return NULL;
  if (timeout_s > 0)
    embers_connect_client_set_timeout (client, timeout_s);
  embers_connect_client_set_timeout_setting (client, "--timeout=SECONDS or EMBERS_TIMEOUT");

  env = embers_credentials_from_environment ();

  if (parsed->user != NULL)
    credentials = embers_credentials_new (EMBERS_AUTH_BASIC, parsed->user, parsed->password,
                                          env ? env->tenant : NULL);
  else if (env != NULL && env->kind != EMBERS_AUTH_NONE)
    credentials = g_steal_pointer (&env);
  else
    {
      GError *local_error = NULL;

      credentials = lookup_keyring (context, parsed->base_url, cancellable, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, local_error);
          return NULL;
        }
      /* EMBERS_TENANT alone still applies, and wins over a stored tenant */
      if (env != NULL && env->tenant != NULL)
        {
          if (credentials == NULL)
            credentials = g_steal_pointer (&env);
          else
            {
              g_free (credentials->tenant);
              credentials->tenant = g_strdup (env->tenant);
            }
        }
    }

  if (credentials != NULL)
    embers_credentials_apply (credentials, client);

  return embers_pyroscope_source_new (client);
}

static void
settle (GMainContext *context)
{
  /* Let what the session still has queued settle before leaving the context. */
  while (g_main_context_iteration (context, FALSE))
    ;
  g_main_context_pop_thread_default (context);
}

static EmbersProfile *
load_query_url (const char    *url,
                gboolean       pprof,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(EmbersQueryUrl) parsed = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  GError *local_error = NULL;
  EmbersProfile *profile = NULL;
  Waiter waiter = { NULL };

  g_return_val_if_fail (url != NULL, NULL);

  parsed = embers_query_url_parse (url, g_get_real_time () / 1000, error);
  if (parsed == NULL)
    return NULL;

  g_main_context_push_thread_default (context);

  source = open_source (parsed, context, cancellable, &local_error);
  if (source == NULL)
    goto out;

  if (parsed->span_ids != NULL)
    {
      /* A span's profile comes as a flame graph, also for an export */
      embers_pyroscope_source_merge_span_profile_async (source, parsed->query,
                                                        (const char * const *) parsed->span_ids,
                                                        cancellable, on_done, &waiter);
      wait_for (context, &waiter);
      profile = embers_pyroscope_source_merge_span_profile_finish (source, waiter.result, &local_error);
    }
  else if (parsed->trace_ids != NULL)
    {
      embers_pyroscope_source_merge_trace_profile_async (source, parsed->query,
                                                         (const char * const *) parsed->trace_ids,
                                                         cancellable, on_done, &waiter);
      wait_for (context, &waiter);
      profile = embers_pyroscope_source_merge_trace_profile_finish (source, waiter.result, &local_error);
    }
  else if (pprof)
    {
      embers_pyroscope_source_merge_pprof_async (source, parsed->query, cancellable, on_done, &waiter);
      wait_for (context, &waiter);
      profile = embers_pyroscope_source_merge_pprof_finish (source, waiter.result, &local_error);
    }
  else
    {
      embers_source_merge_profile (EMBERS_SOURCE (source), parsed->query, cancellable, on_done, &waiter);
      wait_for (context, &waiter);
      profile = embers_source_merge_profile_finish (EMBERS_SOURCE (source), waiter.result, &local_error);
    }
  g_object_unref (waiter.result);

out:
  g_clear_object (&source);
  settle (context);

  if (local_error != NULL)
    g_propagate_error (error, local_error);

  return profile;
}

/* Both queries merged at once on @source, then diffed here */
static EmbersProfile *
merge_and_diff (EmbersSource       *source,
                const EmbersQuery  *left,
                const EmbersQuery  *right,
                GMainContext       *context,
                GCancellable       *cancellable,
                GError            **error)
{
  Waiter waiters[2] = { { NULL }, { NULL } };
  g_autoptr(EmbersProfile) l = NULL;
  g_autoptr(EmbersProfile) r = NULL;
  g_autoptr(GError) r_error = NULL;

  embers_source_merge_profile (source, left, cancellable, on_done, &waiters[0]);
  embers_source_merge_profile (source, right, cancellable, on_done, &waiters[1]);
  wait_for (context, &waiters[0]);
  wait_for (context, &waiters[1]);
  l = embers_source_merge_profile_finish (source, waiters[0].result, error);
  r = embers_source_merge_profile_finish (source, waiters[1].result, l != NULL ? error : &r_error);
  g_object_unref (waiters[0].result);
  g_object_unref (waiters[1].result);
  if (l == NULL || r == NULL)
    return NULL;

  return embers_diff_profiles (l, 0, r, 0, error);
}

/**
 * embers_pyroscope_load_query_url_diff:
 *
 * Two query URLs on one server (same base URL and user) are compared by the
 * server's Diff RPC; otherwise returns %NULL with
 * %EMBERS_SOURCE_ERROR_NOT_SUPPORTED so that the caller merges both and
 * diffs them locally.
 */
EmbersProfile *
embers_pyroscope_load_query_url_diff (const char    *baseline_url,
                                      const char    *comparison_url,
                                      GCancellable  *cancellable,
                                      GError       **error)
{
  g_autoptr(GMainContext) context = NULL;
  g_autoptr(EmbersQueryUrl) left = NULL;
  g_autoptr(EmbersQueryUrl) right = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  GError *local_error = NULL;
  EmbersProfile *profile = NULL;
  Waiter waiter = { NULL };
  gint64 now = g_get_real_time () / 1000;

  g_return_val_if_fail (baseline_url != NULL, NULL);
  g_return_val_if_fail (comparison_url != NULL, NULL);

  left = embers_query_url_parse (baseline_url, now, error);
  if (left == NULL)
    return NULL;
  right = embers_query_url_parse (comparison_url, now, error);
  if (right == NULL)
    return NULL;

  /* A duration against bytes is refused before anything is asked */
  {
    g_autoptr(EmbersProfileTypeInfo) l = embers_profile_type_info_new (left->query->profile_type);
    g_autoptr(EmbersProfileTypeInfo) r = embers_profile_type_info_new (right->query->profile_type);

    if (!embers_diff_check_units (l->sample_type, l->sample_unit, r->sample_type, r->sample_unit, error))
      return NULL;
  }

  if (!g_str_equal (left->base_url, right->base_url) || g_strcmp0 (left->user, right->user) != 0)
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_NOT_SUPPORTED,
                   _("The two queries are on different servers"));
      return NULL;
    }

  context = g_main_context_new ();
  g_main_context_push_thread_default (context);

  source = open_source (left, context, cancellable, &local_error);
  if (source != NULL)
    {
      embers_source_diff (EMBERS_SOURCE (source), left->query, right->query, cancellable, on_done, &waiter);
      wait_for (context, &waiter);
      profile = embers_source_diff_finish (EMBERS_SOURCE (source), waiter.result, &local_error);
      g_object_unref (waiter.result);

      /* A server (or a proxy) without Diff: both merged flame graphs,
       * diffed here */
      if (g_error_matches (local_error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED))
        {
          g_debug ("Diff unavailable (%s): two merges and a local diff", local_error->message);
          g_clear_error (&local_error);
          profile = merge_and_diff (EMBERS_SOURCE (source), left->query, right->query,
                                    context, cancellable, &local_error);
        }
    }

  g_clear_object (&source);
  settle (context);

  if (local_error != NULL)
    g_propagate_error (error, local_error);

  return profile;
}

EmbersProfile *
embers_pyroscope_load_query_url (const char    *url,
                                 GCancellable  *cancellable,
                                 GError       **error)
{
  return load_query_url (url, FALSE, cancellable, error);
}

EmbersProfile *
embers_pyroscope_load_query_url_pprof (const char    *url,
                                       GCancellable  *cancellable,
                                       GError       **error)
{
  return load_query_url (url, TRUE, cancellable, error);
}
