/* ets-ingest.c: /ingest and push.v1.PusherService for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * /ingest (PYROSCOPE-API.md section 4): name=app.suffix{k=v,...}, from,
 * until, sampleRate, spyName, format; folded (default) and "lines" bodies,
 * and pprof (format=pprof, or multipart/form-data with a "profile" part),
 * raw or gzipped. The name's last dotted suffix picks the profile type of a
 * text body; cpu (or no suffix) values become nanoseconds (x 1e9 /
 * sampleRate). A sample is stored at "from". Errors: 400 for bad
 * parameters, 422 when the body cannot be read, as {code, message}.
 *
 * push.v1.PusherService/Push: each series' labels must have a valid
 * __name__ and a service_name; each raw pprof sample is stored once per
 * sample type with __profile_type__ = __name__:type:unit:period_type:
 * period_unit, at the profile's time_nanos (or now).
 */

#include "ets-server.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "embers-readers.h"
#include "ets-selector.h"
#include "push.pb-c.h"
#include "types.pb-c.h"

#define MAX_PROFILE (64u * 1024u * 1024u)

typedef struct
{
  const char *suffix;     /* exact, or a prefix when it ends with '_' */
  const char *type_id;
  gboolean    cpu_scaled; /* values are samples at sampleRate Hz */
} SuffixType;

static const SuffixType suffix_types[] = {
  { "cpu", "process_cpu:cpu:nanoseconds:cpu:nanoseconds", TRUE },
  { "itimer", "process_cpu:cpu:nanoseconds:cpu:nanoseconds", TRUE },
  { "wall", "wall:wall:nanoseconds:wall:nanoseconds", TRUE },
  { "inuse_objects", "memory:inuse_objects:count:space:bytes", FALSE },
  { "inuse_space", "memory:inuse_space:bytes:space:bytes", FALSE },
  { "alloc_objects", "memory:alloc_objects:count:space:bytes", FALSE },
  { "alloc_space", "memory:alloc_space:bytes:space:bytes", FALSE },
  { "alloc_in_new_tlab_objects", "memory:alloc_in_new_tlab_objects:count::", FALSE },
  { "alloc_in_new_tlab_bytes", "memory:alloc_in_new_tlab_bytes:bytes::", FALSE },
  { "alloc_outside_tlab_objects", "memory:alloc_outside_tlab_objects:count::", FALSE },
  { "alloc_outside_tlab_bytes", "memory:alloc_outside_tlab_bytes:bytes::", FALSE },
  { "goroutines", "goroutines:goroutine:count:goroutine:count", FALSE },
  { "mutex_count", "mutex:contentions:count:contentions:count", FALSE },
  { "mutex_duration", "mutex:delay:nanoseconds:contentions:count", FALSE },
  { "block_count", "block:contentions:count:contentions:count", FALSE },
  { "block_duration", "block:delay:nanoseconds:contentions:count", FALSE },
  { "lock_count", "mutex:contentions:count:mutex:count", FALSE },
  { "lock_duration", "mutex:delay:nanoseconds:mutex:count", FALSE },
  { "live", "memory:live:count::", FALSE },
  { "exceptions", "exceptions:exceptions:count::", FALSE },
  { "bytes", "memory:bytes:bytes::", FALSE },
  { "seconds", "process_cpu:seconds:seconds::", FALSE },
};

static void
respond_status (SoupServerMessage *msg,
                guint              status,
                EtsCode            code,
                const char        *message)
{
  ets_respond_error (msg, code, message);
  soup_server_message_set_status (msg, status, NULL);
}

static void
label_free (gpointer data)
{
  EtsLabel *l = data;

  g_free (l->name);
  g_free (l->value);
  g_free (l);
}

static void
labels_set (GPtrArray  *labels,
            const char *name,
            const char *value)
{
  EtsLabel *l;

  for (guint i = 0; i < labels->len; i++)
    {
      l = g_ptr_array_index (labels, i);
      if (g_str_equal (l->name, name))
        {
          g_free (l->value);
          l->value = g_strdup (value);
          return;
        }
    }
  l = g_new0 (EtsLabel, 1);
  l->name = g_strdup (name);
  l->value = g_strdup (value);
  g_ptr_array_add (labels, l);
}

/* Pyroscope 1.x's distributor validates every series' labels
 * (pkg/distributor/distributor.go → pkg/validation/validate.go,
 * ValidateLabels and SanitizeLegacyLabelName): a name of [a-zA-Z0-9_.]
 * that does not start with a digit is accepted, with its dots turned into
 * underscores ("process.runtime.name" → "process_runtime_name", as the
 * official Node SDK's tags need); any other name is invalid. Pyroscope 2
 * (main) keeps dotted names by default (-validation.disable-label-
 * sanitization=true); the test server follows the 1.x releases. Rewrites
 * name in place; FALSE when it is not a valid name. */
static gboolean
sanitize_label_name (char *name)
{
  if (name == NULL || name[0] == '\0')
    return FALSE;
  for (char *p = name; *p != '\0'; p++)
    {
      if (g_ascii_isalpha (*p) || *p == '_' || (g_ascii_isdigit (*p) && p != name))
        continue;
      if (*p != '.')
        return FALSE;
    }
  g_strdelimit (name, ".", '_');
  return TRUE;
}

/* "app.cpu{env=prod, region=eu}" -> "app.cpu" and labels */
static char *
parse_name (const char *text,
            GPtrArray  *labels,
            GError    **error)
{
  const char *brace = strchr (text, '{');
  g_autofree char *app = NULL;

  if (brace == NULL)
    app = g_strstrip (g_strdup (text));
  else
    {
      const char *close = strrchr (brace, '}');
      g_autofree char *inner = NULL;
      g_auto(GStrv) pairs = NULL;

      if (close == NULL || close[1] != '\0')
        {
          g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                       "invalid name \"%s\": expected app.suffix{key=value,...}", text);
          return NULL;
        }
      app = g_strstrip (g_strndup (text, brace - text));
      inner = g_strndup (brace + 1, close - brace - 1);
      pairs = g_strsplit (inner, ",", -1);
      for (guint i = 0; pairs[i] != NULL; i++)
        {
          char *pair = g_strstrip (pairs[i]);
          char *eq = strchr (pair, '=');
          g_autofree char *key = NULL;
          g_autofree char *value = NULL;

          if (pair[0] == '\0')
            continue;
          if (eq == NULL)
            {
              g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                           "invalid name \"%s\": tag \"%s\" has no value", text, pair);
              return NULL;
            }
          key = g_strstrip (g_strndup (pair, eq - pair));
          value = g_strstrip (g_strdup (eq + 1));
          if (!sanitize_label_name (key) || g_str_has_prefix (key, "__"))
            {
              g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                           "invalid name \"%s\": invalid tag key \"%s\"", text, key);
              return NULL;
            }
          labels_set (labels, key, value);
        }
    }
  if (app[0] == '\0')
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "invalid name \"%s\": no application name", text);
      return NULL;
    }
  return g_steal_pointer (&app);
}

/* "app.alloc_space" -> service "app", suffix "alloc_space"; no dot -> cpu */
static const SuffixType *
type_for_app (const char  *app,
              char       **service,
              GError     **error)
{
  const char *dot = strrchr (app, '.');
  const char *suffix = dot != NULL ? dot + 1 : "cpu";

  for (guint i = 0; i < G_N_ELEMENTS (suffix_types); i++)
    if (g_str_equal (suffix, suffix_types[i].suffix))
      {
        *service = dot != NULL ? g_strndup (app, dot - app) : g_strdup (app);
        return &suffix_types[i];
      }
  g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
               "unsupported profile type suffix \"%s\" in name \"%s\"", suffix, app);
  return NULL;
}

static gboolean
is_type_suffix (const char *suffix)
{
  for (guint i = 0; i < G_N_ELEMENTS (suffix_types); i++)
    if (g_str_equal (suffix, suffix_types[i].suffix))
      return TRUE;
  return FALSE;
}

/* The metric (__name__) of a pprof sent to /ingest: one for the whole
 * profile, named as Pyroscope names it (pkg/og/convert/pprof/profile.go,
 * RawProfile.metricName): "wall" when any sample type is wall; else by the
 * first sample type that names a kind ("cpu" → process_cpu; alloc_,
 * inuse_, space, objects → memory; mutex_, block_, goroutines); else the
 * last sample type's own name. A Go CPU profile (samples, cpu) is
 * process_cpu, a Node heap profile (objects, space) memory, a Node wall
 * profile (samples, wall) wall. Each sample type then becomes a series
 * __profile_type__ = metric:type:unit:period_type:period_unit. */
static const char *
metric_for_profile (EmbersProfile *profile)
{
  guint n = embers_profile_get_n_sample_types (profile);
  const char *st = "";

  for (guint t = 0; t < n; t++)
    if (g_strcmp0 (embers_profile_get_sample_type (profile, t), "wall") == 0)
      return "wall";
  for (guint t = 0; t < n; t++)
    {
      st = embers_profile_get_sample_type (profile, t);
      if (st == NULL)
        st = "";
      if (strstr (st, "cpu") != NULL)
        return "process_cpu";
      if (strstr (st, "alloc_") != NULL || strstr (st, "inuse_") != NULL ||
          g_str_equal (st, "space") || g_str_equal (st, "objects"))
        return "memory";
      if (strstr (st, "mutex_") != NULL)
        return "mutex";
      if (strstr (st, "block_") != NULL)
        return "block";
      if (strstr (st, "goroutines") != NULL)
        return "goroutines";
    }
  return st;
}

/* Unix s/ms/us/ns, YYYYMMDD, "now", "now-1h" */
static gboolean
parse_time (const char *text,
            gint64      now_ms,
            gint64     *out)
{
  guint64 v;

  if (text == NULL || text[0] == '\0' || g_str_equal (text, "now"))
    {
      *out = now_ms;
      return TRUE;
    }
  if (g_str_has_prefix (text, "now-"))
    {
      char *end = NULL;
      double n = g_ascii_strtod (text + 4, &end);
      gint64 unit;

      if (end == text + 4 || n < 0)
        return FALSE;
      if (g_str_equal (end, "s"))
        unit = 1000;
      else if (g_str_equal (end, "m"))
        unit = 60 * 1000;
      else if (g_str_equal (end, "h"))
        unit = 3600 * 1000;
      else if (g_str_equal (end, "d"))
        unit = 86400 * 1000;
      else if (g_str_equal (end, "w"))
        unit = 7 * 86400 * 1000;
      else
        return FALSE;
      *out = now_ms - (gint64) (n * unit);
      return TRUE;
    }
  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64, &v, NULL))
    return FALSE;
  if (strlen (text) == 8 && (g_str_has_prefix (text, "19") || g_str_has_prefix (text, "20")))
    {
      g_autoptr(GDateTime) dt = g_date_time_new_utc (v / 10000, (v / 100) % 100, v % 100, 0, 0, 0);
      if (dt == NULL)
        return FALSE;
      *out = g_date_time_to_unix (dt) * 1000;
      return TRUE;
    }
  if (v < 100000000000ull)
    *out = v * 1000;
  else if (v < 100000000000000ull)
    *out = v;
  else if (v < 100000000000000000ull)
    *out = v / 1000;
  else
    *out = v / 1000000;
  return TRUE;
}

/* Stacks of a folded ("a;b;c 42") or lines ("a;b;c") body into trie leaves */
static gboolean
parse_text (EtsStore   *store,
            const char *text,
            gsize       len,
            gboolean    lines_format,
            double      scale,
            GArray     *nodes,
            GArray     *values,
            GError    **error)
{
  g_autofree char *copy = g_strndup (text, len);
  g_auto(GStrv) lines = NULL;
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);

  if (!g_utf8_validate (text, len, NULL))
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "the body is not valid UTF-8 text");
      return FALSE;
    }
  lines = g_strsplit (copy, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = lines[i];
      gsize n = strlen (line);
      g_auto(GStrv) frames = NULL;
      guint64 count = 1;
      guint32 node = 0;
      gpointer slot;
      gint64 value;

      if (n > 0 && line[n - 1] == '\r')
        line[--n] = '\0';
      if (n == 0)
        continue;
      if (!lines_format)
        {
          char *space = strrchr (line, ' ');

          if (space == NULL || !g_ascii_string_to_unsigned (space + 1, 10, 0, G_MAXINT64 / 1000000000, &count, NULL))
            {
              g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                           "line %u: expected \"frame;frame;... COUNT\"", i + 1);
              return FALSE;
            }
          *space = '\0';
        }
      frames = g_strsplit (line, ";", -1);
      for (guint j = 0; frames[j] != NULL; j++)
        node = ets_store_child (store, node, frames[j]);
      value = (gint64) (count * scale + 0.5);
      if (value == 0 || node == 0)
        continue;
      if (g_hash_table_lookup_extended (index, GUINT_TO_POINTER (node), NULL, &slot))
        g_array_index (values, gint64, GPOINTER_TO_UINT (slot)) += value;
      else
        {
          g_hash_table_insert (index, GUINT_TO_POINTER (node), GUINT_TO_POINTER (nodes->len));
          g_array_append_val (nodes, node);
          g_array_append_val (values, value);
        }
    }
  return TRUE;
}

static EmbersProfile *
parse_pprof (const guint8 *data,
             gsize         len,
             GError      **error)
{
  g_autoptr(GBytes) plain = NULL;
  g_autoptr(GError) local = NULL;
  EmbersProfile *profile;

  if (ets_is_gzip (data, len))
    {
      plain = ets_gunzip (data, len, MAX_PROFILE, error);
      if (plain == NULL)
        return NULL;
      data = g_bytes_get_data (plain, &len);
    }
  profile = embers_pprof_parse (data, len, &local);
  if (profile == NULL)
    g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "%s", local->message);
  return profile;
}

/* Traces to profiles: Pyroscope keeps a sample's span_id and trace_id
 * labels with the sample, not as series labels, and renames the older
 * profile_id to span_id (pkg/model/pprofsplit/pprof_split.go, VisitSample
 * Series: RenameLabel, GroupSamplesWithoutLabels). */
static const char *
sample_id_label (EmbersProfile *profile,
                 guint          sample,
                 const char    *name)
{
  guint n_labels = 0;
  const EmbersLabel *labels = embers_profile_get_label_set (profile, embers_profile_sample_label_set (profile, sample),
                                                            &n_labels);

  for (guint i = 0; i < n_labels; i++)
    {
      const char *key = embers_profile_get_string (profile, labels[i].key);

      if (labels[i].str != 0 &&
          (g_str_equal (key, name) || (g_str_equal (name, "span_id") && g_str_equal (key, "profile_id"))))
        return embers_profile_get_string (profile, labels[i].str);
    }
  return NULL;
}

static gboolean
has_span_labels (EmbersProfile *profile)
{
  for (guint s = 0; s < embers_profile_get_n_samples (profile); s++)
    if (sample_id_label (profile, s, "span_id") != NULL || sample_id_label (profile, s, "trace_id") != NULL)
      return TRUE;
  return FALSE;
}

/* One stack per pprof sample, with its span and trace ids */
static void
store_samples_with_ids (EtsSeries      *series,
                        EmbersProfile  *profile,
                        guint           sample_type,
                        const guint32  *trie,
                        gint64          time_ms)
{
  guint n = embers_profile_get_n_samples (profile);
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GPtrArray) spans = g_ptr_array_new ();
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();

  for (guint s = 0; s < n; s++)
    {
      gint64 value = embers_profile_sample_value (profile, s, sample_type);
      guint32 node = embers_profile_sample_node (profile, s);

      if (value <= 0 || node == 0)
        continue;
      g_array_append_val (nodes, trie[node]);
      g_array_append_val (values, value);
      g_ptr_array_add (spans, (gpointer) sample_id_label (profile, s, "span_id"));
      g_ptr_array_add (traces, (gpointer) sample_id_label (profile, s, "trace_id"));
    }
  ets_series_add_sample_ids (series, time_ms, (guint32 *) nodes->data, (gint64 *) values->data,
                             (const char * const *) spans->pdata, (const char * const *) traces->pdata,
                             nodes->len);
}

/* Stores one sample per sample type of profile, labels + __name__ given */
static void
store_pprof (EtsServer     *server,
             const char    *tenant,
             EmbersProfile *profile,
             GPtrArray     *labels,
             const char    *metric_override,
             gint64         time_ms)
{
  EtsStore *store = server->store;
  guint n = embers_profile_get_n_nodes (profile);
  const guint32 *parents = embers_profile_get_parent_column (profile);
  g_autofree guint32 *trie = g_new0 (guint32, MAX (n, 1));

  for (guint32 i = 1; i < n; i++)
    trie[i] = ets_store_child (store, trie[parents[i]], embers_profile_node_name_str (profile, i));

  for (guint t = 0; t < embers_profile_get_n_sample_types (profile); t++)
    {
      const gint64 *self = embers_profile_get_self_column (profile, t);
      const char *type = embers_profile_get_sample_type (profile, t);
      const char *unit = embers_profile_get_sample_unit (profile, t);
      const char *period_type = embers_profile_get_period_type (profile);
      const char *period_unit = embers_profile_get_period_unit (profile);
      const char *metric = metric_override != NULL ? metric_override : metric_for_profile (profile);
      g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GPtrArray) series_labels = g_ptr_array_new_with_free_func (label_free);
      g_autofree char *type_id = g_strdup_printf ("%s:%s:%s:%s:%s", metric,
                                                  type != NULL ? type : "",
                                                  unit != NULL ? unit : "",
                                                  period_type != NULL ? period_type : "",
                                                  period_unit != NULL ? period_unit : "");
      EtsSeries *series;

      for (guint i = 0; i < labels->len; i++)
        {
          EtsLabel *l = g_ptr_array_index (labels, i);
          labels_set (series_labels, l->name, l->value);
        }
      labels_set (series_labels, "__name__", metric);
      labels_set (series_labels, "__profile_type__", type_id);

      series = ets_store_ensure_series (store, tenant, series_labels);
      if (has_span_labels (profile))
        {
          store_samples_with_ids (series, profile, t, trie, time_ms);
          continue;
        }
      for (guint32 i = 1; i < n; i++)
        if (self[i] > 0)
          {
            g_array_append_val (nodes, trie[i]);
            g_array_append_val (values, self[i]);
          }
      ets_series_add_sample (series, time_ms, (guint32 *) nodes->data, (gint64 *) values->data, nodes->len);
    }
}

/* An /ingest of a pprof, read on a worker thread */
typedef struct
{
  EtsServer         *server;
  SoupServerMessage *msg;
  gulong             finished_id;
  gboolean           gone;        /* the client went away meanwhile */
  char              *tenant;
  char              *name;
  GPtrArray         *labels;
  GBytes            *data;
  gint64             time_ms;
} IngestJob;

static void
ingest_job_free (IngestJob *job)
{
  if (job->finished_id != 0)
    g_signal_handler_disconnect (job->msg, job->finished_id);
  g_object_unref (job->msg);
  g_free (job->tenant);
  g_free (job->name);
  g_ptr_array_unref (job->labels);
  g_bytes_unref (job->data);
  g_free (job);
}

static void
on_ingest_msg_finished (SoupServerMessage *msg,
                        gpointer           user_data)
{
  IngestJob *job = user_data;

  job->gone = TRUE;
}

static void
ingest_parse_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  IngestJob *job = task_data;
  GError *error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (job->data, &len);
  EmbersProfile *profile = parse_pprof (data, len, &error);

  if (profile == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, profile, g_object_unref);
}

static void
on_ingest_parsed (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  IngestJob *job = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = g_task_propagate_pointer (G_TASK (result), &error);

  if (job->gone)
    {
      ingest_job_free (job);
      return;
    }
  if (profile == NULL)
    respond_status (job->msg, 422, ETS_CODE_INVALID_ARGUMENT, error->message);
  else
    {
      store_pprof (job->server, job->tenant, profile, job->labels, NULL, job->time_ms);
      if (job->server->verbose)
        g_printerr ("embers-test-server: ingested %s at %" G_GINT64_FORMAT " for tenant %s\n",
                    job->name, job->time_ms, job->tenant);
      soup_server_message_set_status (job->msg, 200, NULL);
    }
  soup_server_message_unpause (job->msg);
  ingest_job_free (job);
}

static GBytes *
multipart_profile (SoupServerMessage *msg,
                   GBytes            *body)
{
  g_autoptr(SoupMultipart) multipart = NULL;

  multipart = soup_multipart_new_from_message (soup_server_message_get_request_headers (msg), body);
  if (multipart == NULL)
    return NULL;
  for (int i = 0; i < soup_multipart_get_length (multipart); i++)
    {
      SoupMessageHeaders *headers;
      GBytes *part;
      g_autoptr(GHashTable) params = NULL;

      if (!soup_multipart_get_part (multipart, i, &headers, &part))
        continue;
      if (soup_message_headers_get_content_disposition (headers, NULL, &params) &&
          g_strcmp0 (g_hash_table_lookup (params, "name"), "profile") == 0)
        return g_bytes_ref (part);
    }
  return NULL;
}

gboolean
ets_ingest_handle (EtsServer         *server,
                   SoupServerMessage *msg,
                   GHashTable        *query,
                   const char        *tenant)
{
  EtsStore *store = server->store;
  const char *name = query != NULL ? g_hash_table_lookup (query, "name") : NULL;
  const char *format = query != NULL ? g_hash_table_lookup (query, "format") : NULL;
  const char *from_text = query != NULL ? g_hash_table_lookup (query, "from") : NULL;
  const char *rate_text = query != NULL ? g_hash_table_lookup (query, "sampleRate") : NULL;
  const char *spy = query != NULL ? g_hash_table_lookup (query, "spyName") : NULL;
  const char *content_type = soup_message_headers_get_content_type (soup_server_message_get_request_headers (msg), NULL);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (label_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *app = NULL;
  g_autofree char *service = NULL;
  const SuffixType *suffix;
  guint64 sample_rate = 100;
  gint64 time_ms;
  gboolean is_pprof;

  if (name == NULL || name[0] == '\0')
    {
      respond_status (msg, 400, ETS_CODE_INVALID_ARGUMENT, "the name parameter is required");
      return FALSE;
    }
  app = parse_name (name, labels, &error);
  if (app == NULL)
    {
      respond_status (msg, 400, ETS_CODE_INVALID_ARGUMENT, error->message);
      return FALSE;
    }
  if (!parse_time (from_text, ets_store_now_ms (store), &time_ms))
    {
      respond_status (msg, 400, ETS_CODE_INVALID_ARGUMENT, "invalid from parameter");
      return FALSE;
    }
  if (rate_text != NULL && !g_ascii_string_to_unsigned (rate_text, 10, 0, G_MAXUINT32, &sample_rate, NULL))
    {
      respond_status (msg, 400, ETS_CODE_INVALID_ARGUMENT, "invalid sampleRate parameter");
      return FALSE;
    }

  body = ets_read_body (msg, &error);
  if (body == NULL)
    {
      respond_status (msg, 400, ETS_CODE_INVALID_ARGUMENT, error->message);
      return FALSE;
    }

  is_pprof = g_strcmp0 (format, "pprof") == 0 ||
             g_strcmp0 (content_type, "multipart/form-data") == 0;
  if (format != NULL && !is_pprof && !g_str_equal (format, "folded") && !g_str_equal (format, "lines"))
    {
      g_autofree char *text = g_strdup_printf ("format \"%s\" is not supported by embers-test-server "
                                               "(folded, lines and pprof are)", format);
      respond_status (msg, 400, ETS_CODE_INVALID_ARGUMENT, text);
      return FALSE;
    }

  if (spy != NULL && spy[0] != '\0')
    labels_set (labels, "pyroscope_spy", spy);

  if (is_pprof)
    {
      g_autoptr(GBytes) part = NULL;
      const char *dot = strrchr (app, '.');
      IngestJob *job;
      GTask *task;

      if (g_strcmp0 (content_type, "multipart/form-data") == 0)
        {
          part = multipart_profile (msg, body);
          if (part == NULL)
            {
              respond_status (msg, 400, ETS_CODE_INVALID_ARGUMENT,
                              "multipart body without a \"profile\" part");
              return FALSE;
            }
        }
      /* A known type suffix is not part of the service name; an unknown
       * one is ("my.service" stays "my.service") */
      if (dot != NULL && !is_type_suffix (dot + 1))
        dot = NULL;
      service = dot != NULL ? g_strndup (app, dot - app) : g_strdup (app);
      labels_set (labels, "service_name", service);

      /* Decompressing and reading a big profile takes a while: a worker
       * thread does it, the main loop serves other requests meanwhile, and
       * the profile is stored (fast) back on the main loop */
      job = g_new0 (IngestJob, 1);
      job->server = server;
      job->msg = g_object_ref (msg);
      job->tenant = g_strdup (tenant);
      job->name = g_strdup (name);
      job->labels = g_steal_pointer (&labels);
      job->data = part != NULL ? g_steal_pointer (&part) : g_bytes_ref (body);
      job->time_ms = time_ms;
      job->finished_id = g_signal_connect (msg, "finished", G_CALLBACK (on_ingest_msg_finished), job);
      soup_server_message_pause (msg);
      task = g_task_new (NULL, NULL, on_ingest_parsed, job);
      g_task_set_task_data (task, job, NULL);
      g_task_run_in_thread (task, ingest_parse_thread);
      g_object_unref (task);
      return TRUE;
    }
  else
    {
      g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(EtsProfileType) type = NULL;
      g_autoptr(GPtrArray) series_labels = g_ptr_array_new_with_free_func (label_free);
      double scale = 1.0;
      EtsSeries *series;
      gsize len;
      const char *data;

      suffix = type_for_app (app, &service, &error);
      if (suffix == NULL)
        {
          respond_status (msg, 400, ETS_CODE_INVALID_ARGUMENT, error->message);
          return FALSE;
        }
      if (suffix->cpu_scaled && sample_rate > 0)
        scale = 1e9 / sample_rate;

      data = g_bytes_get_data (body, &len);
      if (!parse_text (store, data, len, g_strcmp0 (format, "lines") == 0, scale, nodes, values, &error))
        {
          respond_status (msg, 422, ETS_CODE_INVALID_ARGUMENT, error->message);
          return FALSE;
        }

      type = ets_profile_type_parse (suffix->type_id, NULL);
      for (guint i = 0; i < labels->len; i++)
        {
          EtsLabel *l = g_ptr_array_index (labels, i);
          labels_set (series_labels, l->name, l->value);
        }
      labels_set (series_labels, "service_name", service);
      labels_set (series_labels, "__name__", type->name);
      labels_set (series_labels, "__profile_type__", type->id);
      series = ets_store_ensure_series (store, tenant, series_labels);
      ets_series_add_sample (series, time_ms, (guint32 *) nodes->data, (gint64 *) values->data, nodes->len);
    }

  if (server->verbose)
    g_printerr ("embers-test-server: ingested %s at %" G_GINT64_FORMAT " for tenant %s\n", name, time_ms, tenant);
  soup_server_message_set_status (msg, 200, NULL);
  return FALSE;
}

/* ---- push.v1.PusherService/Push -------------------------------------------- */

static ProtobufCMessage *
push (EtsCall                *call,
      const ProtobufCMessage *message,
      GError                **error)
{
  const Push__V1__PushRequest *req = (const Push__V1__PushRequest *) message;
  Push__V1__PushResponse *res;

  /* Validate everything first, then store */
  for (gsize i = 0; i < req->n_series; i++)
    {
      const Push__V1__RawProfileSeries *s = req->series[i];
      const char *metric = NULL, *service = NULL;

      for (gsize j = 0; j < s->n_labels; j++)
        {
          g_autofree char *name = g_strdup (s->labels[j]->name);

          if (g_strcmp0 (s->labels[j]->name, "__name__") == 0)
            metric = s->labels[j]->value;
          else if (g_strcmp0 (s->labels[j]->name, "service_name") == 0)
            service = s->labels[j]->value;
          if (!sanitize_label_name (name))
            {
              g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                           "series %" G_GSIZE_FORMAT ": invalid labels with error: invalid label name '%s'",
                           i, s->labels[j]->name != NULL ? s->labels[j]->name : "");
              return NULL;
            }
          for (gsize k = 0; k < j; k++)
            {
              g_autofree char *other = g_strdup (s->labels[k]->name);

              if (sanitize_label_name (other) && g_str_equal (other, name) &&
                  g_strcmp0 (s->labels[k]->value, s->labels[j]->value) != 0)
                {
                  g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                               "series %" G_GSIZE_FORMAT ": duplicate label name '%s' after label name sanitization from '%s'",
                               i, name, s->labels[j]->name);
                  return NULL;
                }
            }
        }
      if (metric == NULL || !ets_is_metric_name (metric))
        {
          g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                       "series %" G_GSIZE_FORMAT ": invalid labels with error: invalid metric name", i);
          return NULL;
        }
      if (service == NULL || service[0] == '\0')
        {
          g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                       "series %" G_GSIZE_FORMAT ": invalid labels with error: service name is not provided", i);
          return NULL;
        }
    }

  for (gsize i = 0; i < req->n_series; i++)
    {
      const Push__V1__RawProfileSeries *s = req->series[i];
      g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (label_free);
      const char *metric = NULL;

      for (gsize j = 0; j < s->n_labels; j++)
        {
          g_autofree char *name = g_strdup (s->labels[j]->name);

          sanitize_label_name (name);
          labels_set (labels, name, s->labels[j]->value != NULL ? s->labels[j]->value : "");
          if (g_strcmp0 (s->labels[j]->name, "__name__") == 0)
            metric = s->labels[j]->value;
        }
      for (gsize j = 0; j < s->n_samples; j++)
        {
          const Push__V1__RawSample *sample = s->samples[j];
          g_autoptr(EmbersProfile) profile = parse_pprof (sample->raw_profile.data, sample->raw_profile.len, error);
          gint64 time_ms;

          if (profile == NULL)
            {
              g_prefix_error (error, "series %" G_GSIZE_FORMAT " sample %" G_GSIZE_FORMAT ": ", i, j);
              return NULL;
            }
          time_ms = embers_profile_get_time_nanos (profile) > 0
                    ? embers_profile_get_time_nanos (profile) / 1000000
                    : ets_store_now_ms (call->server->store);
          store_pprof (call->server, call->tenant, profile, labels, metric, time_ms);
        }
    }

  res = ets_call_new (call, Push__V1__PushResponse, 1);
  push__v1__push_response__init (res);
  return &res->base;
}

const EtsMethod ets_push_methods[] = {
  { "push.v1.PusherService", "Push", &push__v1__push_request__descriptor, push },
  { NULL }
};
