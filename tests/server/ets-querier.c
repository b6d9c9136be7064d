/* ets-querier.c: querier.v1.QuerierService for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ets-server.h"

#include <math.h>
#include <string.h>

#include "ets-flamegraph.h"

#include "profile.pb-c.h"

#include "querier.pb-c.h"
#include "types.pb-c.h"

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* protobuf-c's repeated strings are counted, not NULL-terminated */
static gboolean
array_contains (char       **strings,
                gsize        n,
                const char  *str)
{
  for (gsize i = 0; i < n; i++)
    if (g_strcmp0 (strings[i], str) == 0)
      return TRUE;
  return FALSE;
}

/* ---- ProfileTypes -------------------------------------------------------- */

static ProtobufCMessage *
profile_types (EtsCall                *call,
               const ProtobufCMessage *message,
               GError                **error)
{
  const Types__V1__ProfileTypesRequest *req = (const Types__V1__ProfileTypesRequest *) message;
  EtsStore *store = call->server->store;
  Types__V1__ProfileTypesResponse *res = ets_call_new (call, Types__V1__ProfileTypesResponse, 1);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();

  types__v1__profile_types_response__init (res);
  for (guint i = 0; i < ets_store_get_n_series (store); i++)
    {
      EtsSeries *series = ets_store_get_series (store, i);
      const char *id = ets_series_get_label (series, "__profile_type__");

      if (!ets_series_visible (series, call->tenant) || g_hash_table_contains (seen, id) ||
          !ets_series_has_data (store, series, req->start, req->end))
        continue;
      g_hash_table_add (seen, (gpointer) id);
      g_ptr_array_add (ids, (gpointer) id);
    }
  g_ptr_array_sort (ids, compare_strings);

  res->n_profile_types = ids->len;
  res->profile_types = ets_call_new (call, Types__V1__ProfileType *, ids->len);
  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr(EtsProfileType) type = ets_profile_type_parse (g_ptr_array_index (ids, i), NULL);
      Types__V1__ProfileType *pt = ets_call_new (call, Types__V1__ProfileType, 1);

      types__v1__profile_type__init (pt);
      pt->id = ets_call_strdup (call, type->id);
      pt->name = ets_call_strdup (call, type->name);
      pt->sample_type = ets_call_strdup (call, type->sample_type);
      pt->sample_unit = ets_call_strdup (call, type->sample_unit);
      pt->period_type = ets_call_strdup (call, type->period_type);
      pt->period_unit = ets_call_strdup (call, type->period_unit);
      res->profile_types[i] = pt;
    }
  return &res->base;
}

/* ---- shared -------------------------------------------------------------- */

static gboolean
check_range (gint64   start,
             gint64   end,
             GError **error)
{
  if (start == 0 || end == 0)
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "missing time range");
      return FALSE;
    }
  if (end < start)
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                   "invalid time range: start %" G_GINT64_FORMAT " is after end %" G_GINT64_FORMAT,
                   start, end);
      return FALSE;
    }
  return TRUE;
}

/* A selector for profile type + label selector (with __profile_type__
 * added), or an invalid_argument error */
static EtsSelector *
parse_query (const char      *profile_type,
             const char      *label_selector,
             EtsProfileType **type_out,
             GError         **error)
{
  g_autoptr(EtsProfileType) type = NULL;
  g_autoptr(EtsSelector) selector = NULL;
  g_autoptr(GError) local = NULL;

  type = ets_profile_type_parse (profile_type, error);
  if (type == NULL)
    return NULL;
  selector = ets_selector_parse (label_selector, &local);
  if (selector == NULL)
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "%s", local->message);
      return NULL;
    }
  ets_selector_add (selector, "__profile_type__", ETS_MATCH_EQ, type->id);
  if (type_out != NULL)
    *type_out = g_steal_pointer (&type);
  return g_steal_pointer (&selector);
}

/* Selectors from a repeated string of matchers; none = everything */
static GPtrArray *
parse_matchers (char   **matchers,
                gsize    n,
                GError **error)
{
  g_autoptr(GPtrArray) selectors = g_ptr_array_new_with_free_func ((GDestroyNotify) ets_selector_free);

  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GError) local = NULL;
      EtsSelector *selector = ets_selector_parse (matchers[i], &local);

      if (selector == NULL)
        {
          g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "%s", local->message);
          return NULL;
        }
      g_ptr_array_add (selectors, selector);
    }
  return g_steal_pointer (&selectors);
}

static gboolean
matches_any (GPtrArray *selectors,
             EtsSeries *series)
{
  if (selectors->len == 0)
    return TRUE;
  for (guint i = 0; i < selectors->len; i++)
    if (ets_selector_matches (g_ptr_array_index (selectors, i), ets_series_lookup, series))
      return TRUE;
  return FALSE;
}

/* Per trie node: does its self value count under the call-site filter
 * (root-first prefix)? NULL when there is no filter. As Pyroscope: only
 * stacks with the call site as their prefix are selected
 * (api/types/v1/types.proto, StackTraceSelector), and a SelectSeries
 * point is the call site's total, its node and all below
 * (pkg/phlaredb/head_queriers.go adds symdb.CallSiteValues.Total per
 * profile; pkg/phlaredb/symdb/stacktrace_selection.go) */
static guint8 *
call_site_filter (EtsStore                          *store,
                  const Types__V1__StackTraceSelector *selector)
{
  guint n = ets_store_get_n_nodes (store);
  gsize len;
  g_autofree guint8 *on_path = NULL;
  guint8 *keep;

  if (selector == NULL || selector->go_pgo != NULL || selector->n_call_site == 0)
    return NULL;

  len = selector->n_call_site;
  on_path = g_new0 (guint8, n);
  keep = g_new0 (guint8, n);
  on_path[0] = TRUE;
  for (guint32 i = 1; i < n; i++)
    {
      guint depth = ets_store_node_depth (store, i);
      guint32 parent = ets_store_node_parent (store, i);

      if (!on_path[parent])
        continue;
      if (depth <= len)
        {
          const char *want = selector->call_site[depth - 1]->name;
          on_path[i] = g_strcmp0 (want != NULL ? want : "", ets_store_node_name (store, i)) == 0;
        }
      else
        on_path[i] = TRUE;
      keep[i] = on_path[i] && depth >= len;
    }
  return keep;
}

/* The merged self values of the visible series matching selector */
static gint64 *
merge_selected (EtsCall      *call,
                EtsSelector  *selector,
                gint64        start,
                gint64        end,
                const guint8 *keep)
{
  EtsStore *store = call->server->store;
  gint64 *self = g_new0 (gint64, ets_store_get_n_nodes (store));

  for (guint i = 0; i < ets_store_get_n_series (store); i++)
    {
      EtsSeries *series = ets_store_get_series (store, i);

      if (ets_series_visible (series, call->tenant) &&
          ets_selector_matches (selector, ets_series_lookup, series))
        ets_series_merge (store, series, start, end, keep, self);
    }
  return self;
}

static gboolean
check_max_nodes (gint64   max_nodes,
                 gint64  *out,
                 GError **error)
{
  if (max_nodes == 0)
    {
      *out = ETS_MAX_NODES_DEFAULT;
      return TRUE;
    }
  if (max_nodes > ETS_MAX_NODES_MAX)
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                   "max flamegraph nodes limit %" G_GINT64_FORMAT " is greater than allowed %d",
                   max_nodes, ETS_MAX_NODES_MAX);
      return FALSE;
    }
  if (max_nodes < 0)
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                   "max flamegraph nodes limit must be set (max allowed %d)", ETS_MAX_NODES_MAX);
      return FALSE;
    }
  *out = max_nodes;
  return TRUE;
}

static char **
strv_to_arena (EtsCall   *call,
               GPtrArray *strings)
{
  char **out = ets_call_new (call, char *, strings->len);

  for (guint i = 0; i < strings->len; i++)
    out[i] = ets_call_strdup (call, g_ptr_array_index (strings, i));
  return out;
}

/* ---- LabelNames, LabelValues, Series ------------------------------------ */

static ProtobufCMessage *
label_names (EtsCall                *call,
             const ProtobufCMessage *message,
             GError                **error)
{
  const Types__V1__LabelNamesRequest *req = (const Types__V1__LabelNamesRequest *) message;
  EtsStore *store = call->server->store;
  Types__V1__LabelNamesResponse *res = ets_call_new (call, Types__V1__LabelNamesResponse, 1);
  g_autoptr(GPtrArray) selectors = parse_matchers (req->matchers, req->n_matchers, error);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  if (selectors == NULL)
    return NULL;
  types__v1__label_names_response__init (res);
  for (guint i = 0; i < ets_store_get_n_series (store); i++)
    {
      EtsSeries *series = ets_store_get_series (store, i);
      GPtrArray *labels = ets_series_get_labels (series);

      if (!ets_series_visible (series, call->tenant) || !matches_any (selectors, series) ||
          !ets_series_has_data (store, series, req->start, req->end))
        continue;
      for (guint j = 0; j < labels->len; j++)
        {
          EtsLabel *l = g_ptr_array_index (labels, j);
          if (g_hash_table_add (seen, l->name))
            g_ptr_array_add (names, l->name);
        }
    }
  g_ptr_array_sort (names, compare_strings);
  res->n_names = names->len;
  res->names = strv_to_arena (call, names);
  return &res->base;
}

static ProtobufCMessage *
label_values (EtsCall                *call,
              const ProtobufCMessage *message,
              GError                **error)
{
  const Types__V1__LabelValuesRequest *req = (const Types__V1__LabelValuesRequest *) message;
  EtsStore *store = call->server->store;
  Types__V1__LabelValuesResponse *res = ets_call_new (call, Types__V1__LabelValuesResponse, 1);
  g_autoptr(GPtrArray) selectors = parse_matchers (req->matchers, req->n_matchers, error);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) values = g_ptr_array_new ();

  if (selectors == NULL)
    return NULL;
  if (req->name == NULL || req->name[0] == '\0')
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "name is required");
      return NULL;
    }
  types__v1__label_values_response__init (res);
  for (guint i = 0; i < ets_store_get_n_series (store); i++)
    {
      EtsSeries *series = ets_store_get_series (store, i);
      const char *value = ets_series_get_label (series, req->name);

      if (value == NULL || !ets_series_visible (series, call->tenant) ||
          !matches_any (selectors, series) ||
          !ets_series_has_data (store, series, req->start, req->end))
        continue;
      if (g_hash_table_add (seen, (gpointer) value))
        g_ptr_array_add (values, (gpointer) value);
    }
  g_ptr_array_sort (values, compare_strings);
  res->n_names = values->len;
  res->names = strv_to_arena (call, values);
  return &res->base;
}

typedef struct
{
  char      *key;       /* "name\x01value\x02..." */
  GPtrArray *labels;    /* EtsLabel*, borrowed */
} LabelSet;

static void
label_set_free (gpointer data)
{
  LabelSet *set = data;

  g_free (set->key);
  g_ptr_array_unref (set->labels);
  g_free (set);
}

static int
compare_label_sets (gconstpointer a,
                    gconstpointer b)
{
  return strcmp ((*(LabelSet * const *) a)->key, (*(LabelSet * const *) b)->key);
}

static ProtobufCMessage *
series (EtsCall                *call,
        const ProtobufCMessage *message,
        GError                **error)
{
  const Querier__V1__SeriesRequest *req = (const Querier__V1__SeriesRequest *) message;
  EtsStore *store = call->server->store;
  Querier__V1__SeriesResponse *res = ets_call_new (call, Querier__V1__SeriesResponse, 1);
  g_autoptr(GPtrArray) selectors = parse_matchers (req->matchers, req->n_matchers, error);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func (label_set_free);

  if (selectors == NULL)
    return NULL;
  querier__v1__series_response__init (res);
  for (guint i = 0; i < ets_store_get_n_series (store); i++)
    {
      EtsSeries *s = ets_store_get_series (store, i);
      GPtrArray *labels = ets_series_get_labels (s);
      g_autoptr(GPtrArray) kept = NULL;
      g_autoptr(GString) key = NULL;
      LabelSet *set;

      if (!ets_series_visible (s, call->tenant) || !matches_any (selectors, s) ||
          !ets_series_has_data (store, s, req->start, req->end))
        continue;
      kept = g_ptr_array_new ();
      key = g_string_new (NULL);
      for (guint j = 0; j < labels->len; j++)
        {
          EtsLabel *l = g_ptr_array_index (labels, j);

          if (req->n_label_names > 0 &&
              !array_contains (req->label_names, req->n_label_names, l->name))
            continue;
          g_ptr_array_add (kept, l);
          g_string_append_printf (key, "%s\x01%s\x02", l->name, l->value);
        }
      if (kept->len == 0 || g_hash_table_contains (seen, key->str))
        continue;
      set = g_new0 (LabelSet, 1);
      set->key = g_string_free (g_steal_pointer (&key), FALSE);
      set->labels = g_steal_pointer (&kept);
      g_hash_table_add (seen, set->key);
      g_ptr_array_add (sets, set);
    }
  g_ptr_array_sort (sets, compare_label_sets);

  res->n_labels_set = sets->len;
  res->labels_set = ets_call_new (call, Types__V1__Labels *, sets->len);
  for (guint i = 0; i < sets->len; i++)
    {
      LabelSet *set = g_ptr_array_index (sets, i);
      Types__V1__Labels *out = ets_call_new (call, Types__V1__Labels, 1);

      types__v1__labels__init (out);
      out->n_labels = set->labels->len;
      out->labels = ets_call_new (call, Types__V1__LabelPair *, set->labels->len);
      for (guint j = 0; j < set->labels->len; j++)
        {
          EtsLabel *l = g_ptr_array_index (set->labels, j);
          Types__V1__LabelPair *pair = ets_call_new (call, Types__V1__LabelPair, 1);

          types__v1__label_pair__init (pair);
          pair->name = ets_call_strdup (call, l->name);
          pair->value = ets_call_strdup (call, l->value);
          out->labels[j] = pair;
        }
      res->labels_set[i] = out;
    }
  return &res->base;
}

/* ---- SelectMergeStacktraces, Diff, SelectMergeProfile -------------------- */

/* Span and trace selectors as upstream reads them (pkg/model/profile.go:
 * NewSpanSelector, DecodeTraceID): a set of lowercase hex ids, or NULL
 * with an invalid_argument error */
static GHashTable *
parse_ids (char   **ids,
           gsize    n,
           gsize    len,
           GError **error)
{
  g_autoptr(GHashTable) set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (gsize i = 0; i < n; i++)
    {
      const char *id = ids[i] != NULL ? ids[i] : "";

      if (strlen (id) != len)
        {
          g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "invalid %s id length: \"%s\"",
                       len == 16 ? "span" : "trace", id);
          return NULL;
        }
      for (gsize k = 0; k < len; k++)
        if (!g_ascii_isxdigit (id[k]))
          {
            g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                         "encoding/hex: invalid byte: U+%04X '%c'", (guchar) id[k], id[k]);
            return NULL;
          }
      g_hash_table_add (set, g_ascii_strdown (id, -1));
    }
  return g_steal_pointer (&set);
}

/* A profile_id_selector as the v2 query backend reads it
 * (pkg/querybackend/query_profile_entry.go, withProfileIDSelector:
 * uuid.Parse of each, which takes the 36-character form, or 32 hex
 * digits, braces or "urn:uuid:" around it): a set of lowercase
 * 36-character UUIDs, or NULL with google/uuid's error */
static GHashTable *
parse_profile_ids (char   **ids,
                   gsize    n,
                   GError **error)
{
  g_autoptr(GHashTable) set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (gsize i = 0; i < n; i++)
    {
      const char *id = ids[i] != NULL ? ids[i] : "";
      gsize len = strlen (id);
      char hex[33];
      gsize h = 0;

      if (len == 45 && g_ascii_strncasecmp (id, "urn:uuid:", 9) == 0)
        id += 9, len = 36;
      else if (len == 38 && id[0] == '{' && id[37] == '}')
        id += 1, len = 36;
      if (len != 36 && len != 32)
        {
          g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "invalid UUID length: %zu", strlen (ids[i] ? ids[i] : ""));
          return NULL;
        }
      for (gsize k = 0; k < len; k++)
        {
          if (len == 36 && (k == 8 || k == 13 || k == 18 || k == 23))
            {
              if (id[k] != '-')
                {
                  g_set_error_literal (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "invalid UUID format");
                  return NULL;
                }
              continue;
            }
          if (!g_ascii_isxdigit (id[k]))
            {
              g_set_error_literal (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "invalid UUID format");
              return NULL;
            }
          hex[h++] = g_ascii_tolower (id[k]);
        }
      hex[32] = '\0';
      g_hash_table_add (set, g_strdup_printf ("%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20));
    }
  return g_steal_pointer (&set);
}

/* merge_selected() of some individual profiles */
static gint64 *
merge_selected_profiles (EtsCall      *call,
                         EtsSelector  *selector,
                         gint64        start,
                         gint64        end,
                         const guint8 *keep,
                         GHashTable   *ids)
{
  EtsStore *store = call->server->store;
  gint64 *self = g_new0 (gint64, ets_store_get_n_nodes (store));

  for (guint i = 0; i < ets_store_get_n_series (store); i++)
    {
      EtsSeries *series = ets_store_get_series (store, i);

      if (ets_series_visible (series, call->tenant) &&
          ets_selector_matches (selector, ets_series_lookup, series))
        ets_series_merge_profiles (store, series, start, end, keep, ids, self);
    }
  return self;
}

/* merge_selected() of the samples of some spans or traces */
static gint64 *
merge_selected_ids (EtsCall      *call,
                    EtsSelector  *selector,
                    gint64        start,
                    gint64        end,
                    const guint8 *keep,
                    GHashTable   *spans,
                    GHashTable   *traces)
{
  EtsStore *store = call->server->store;
  gint64 *self = g_new0 (gint64, ets_store_get_n_nodes (store));

  for (guint i = 0; i < ets_store_get_n_series (store); i++)
    {
      EtsSeries *series = ets_store_get_series (store, i);

      if (ets_series_visible (series, call->tenant) &&
          ets_selector_matches (selector, ets_series_lookup, series))
        ets_series_merge_ids (store, series, start, end, keep, spans, traces, self);
    }
  return self;
}

/* Validates one request and merges its stacks; max_nodes validated too */
static gint64 *
select_merge (EtsCall                                    *call,
              const Querier__V1__SelectMergeStacktracesRequest *req,
              gint64                                     *max_nodes,
              GError                                    **error)
{
  g_autoptr(EtsSelector) selector = NULL;
  g_autofree guint8 *keep = NULL;
  g_autoptr(GHashTable) spans = NULL;
  g_autoptr(GHashTable) traces = NULL;
  g_autoptr(GHashTable) ids = NULL;

  if (!check_range (req->start, req->end, error))
    return NULL;
  selector = parse_query (req->profile_typeid, req->label_selector, NULL, error);
  if (selector == NULL)
    return NULL;
  if (!check_max_nodes (req->max_nodes, max_nodes, error))
    return NULL;
  /* Individual profiles (field 8; the v2 query backend; 1.x's querier
   * refuses them: pkg/querier/querier.go) */
  if (req->n_profile_id_selector > 0 && call->server->v1_querier)
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_UNIMPLEMENTED,
                           "profile_id_selector is only supported with the v2 query backend");
      return NULL;
    }
  if (req->n_profile_id_selector > 0)
    {
      if (req->n_span_selector > 0 || req->n_trace_id_selector > 0)
        {
          g_set_error_literal (error, ETS_ERROR, ETS_CODE_UNIMPLEMENTED,
                               "embers-test-server does not combine profile_id_selector with span or trace selectors");
          return NULL;
        }
      ids = parse_profile_ids (req->profile_id_selector, req->n_profile_id_selector, error);
      if (ids == NULL)
        return NULL;
      keep = call_site_filter (call->server->store, req->stack_trace_selector);
      return merge_selected_profiles (call, selector, req->start, req->end, keep, ids);
    }
  /* Trace and span selectors (Pyroscope main, v2 query backend:
   * pkg/frontend/readpath/queryfrontend/query_select_merge_stacktraces.go) */
  if (req->n_span_selector > 0 && req->n_trace_id_selector > 0)
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                           "span_selector and trace_id_selector cannot be combined");
      return NULL;
    }
  if (req->n_span_selector > 0 &&
      !(spans = parse_ids (req->span_selector, req->n_span_selector, 16, error)))
    return NULL;
  if (req->n_trace_id_selector > 0 &&
      !(traces = parse_ids (req->trace_id_selector, req->n_trace_id_selector, 32, error)))
    return NULL;
  keep = call_site_filter (call->server->store, req->stack_trace_selector);
  if (spans != NULL || traces != NULL)
    return merge_selected_ids (call, selector, req->start, req->end, keep, spans, traces);
  return merge_selected (call, selector, req->start, req->end, keep);
}

/* SelectMergeSpanProfile (pkg/querier/querier.go): the samples of the
 * spans in span_selector, as a flame graph */
static ProtobufCMessage *
select_merge_span_profile (EtsCall                *call,
                           const ProtobufCMessage *message,
                           GError                **error)
{
  const Querier__V1__SelectMergeSpanProfileRequest *req =
    (const Querier__V1__SelectMergeSpanProfileRequest *) message;
  Querier__V1__SelectMergeSpanProfileResponse *res;
  g_autoptr(EtsSelector) selector = NULL;
  g_autoptr(GHashTable) spans = NULL;
  g_autofree gint64 *self = NULL;
  gint64 max_nodes = 0;

  if (req->format != QUERIER__V1__PROFILE_FORMAT__PROFILE_FORMAT_UNSPECIFIED &&
      req->format != QUERIER__V1__PROFILE_FORMAT__PROFILE_FORMAT_FLAMEGRAPH)
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_UNIMPLEMENTED,
                   "embers-test-server only answers format FLAMEGRAPH (got %d)", req->format);
      return NULL;
    }
  if (!check_range (req->start, req->end, error))
    return NULL;
  selector = parse_query (req->profile_typeid, req->label_selector, NULL, error);
  if (selector == NULL)
    return NULL;
  if (!check_max_nodes (req->max_nodes, &max_nodes, error))
    return NULL;
  spans = parse_ids (req->span_selector, req->n_span_selector, 16, error);
  if (spans == NULL)
    return NULL;
  self = merge_selected_ids (call, selector, req->start, req->end, NULL, spans, NULL);

  res = ets_call_new (call, Querier__V1__SelectMergeSpanProfileResponse, 1);
  querier__v1__select_merge_span_profile_response__init (res);
  res->flamegraph = ets_flamegraph_build (call, call->server->store, self, max_nodes);
  return &res->base;
}

static ProtobufCMessage *
select_merge_stacktraces (EtsCall                *call,
                          const ProtobufCMessage *message,
                          GError                **error)
{
  const Querier__V1__SelectMergeStacktracesRequest *req =
    (const Querier__V1__SelectMergeStacktracesRequest *) message;
  Querier__V1__SelectMergeStacktracesResponse *res;
  g_autofree gint64 *self = NULL;
  gint64 max_nodes = 0;

  if (req->format != QUERIER__V1__PROFILE_FORMAT__PROFILE_FORMAT_UNSPECIFIED &&
      req->format != QUERIER__V1__PROFILE_FORMAT__PROFILE_FORMAT_FLAMEGRAPH)
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_UNIMPLEMENTED,
                   "embers-test-server only answers format FLAMEGRAPH (got %d)", req->format);
      return NULL;
    }
  self = select_merge (call, req, &max_nodes, error);
  if (self == NULL)
    return NULL;

  res = ets_call_new (call, Querier__V1__SelectMergeStacktracesResponse, 1);
  querier__v1__select_merge_stacktraces_response__init (res);
  res->flamegraph = ets_flamegraph_build (call, call->server->store, self, max_nodes);
  return &res->base;
}

static ProtobufCMessage *
diff (EtsCall                *call,
      const ProtobufCMessage *message,
      GError                **error)
{
  const Querier__V1__DiffRequest *req = (const Querier__V1__DiffRequest *) message;
  Querier__V1__SelectMergeStacktracesRequest empty = QUERIER__V1__SELECT_MERGE_STACKTRACES_REQUEST__INIT;
  Querier__V1__DiffResponse *res;
  g_autofree gint64 *left = NULL;
  g_autofree gint64 *right = NULL;
  gint64 left_max = 0, right_max = 0;

  left = select_merge (call, req->left != NULL ? req->left : &empty, &left_max, error);
  if (left == NULL)
    {
      g_prefix_error (error, "left: ");
      return NULL;
    }
  right = select_merge (call, req->right != NULL ? req->right : &empty, &right_max, error);
  if (right == NULL)
    {
      g_prefix_error (error, "right: ");
      return NULL;
    }

  res = ets_call_new (call, Querier__V1__DiffResponse, 1);
  querier__v1__diff_response__init (res);
  res->flamegraph = ets_flamegraph_build_diff (call, call->server->store, left, right,
                                               MAX (left_max, right_max));
  return &res->base;
}

static ProtobufCMessage *
select_merge_profile (EtsCall                *call,
                      const ProtobufCMessage *message,
                      GError                **error)
{
  const Querier__V1__SelectMergeProfileRequest *req =
    (const Querier__V1__SelectMergeProfileRequest *) message;
  g_autoptr(EtsSelector) selector = NULL;
  g_autoptr(EtsProfileType) type = NULL;
  g_autofree guint8 *keep = NULL;
  g_autofree gint64 *self = NULL;
  g_autoptr(GHashTable) ids = NULL;
  GBytes *pprof;

  if (!check_range (req->start, req->end, error))
    return NULL;
  selector = parse_query (req->profile_typeid, req->label_selector, &type, error);
  if (selector == NULL)
    return NULL;
  /* Individual profiles (field 7; pkg/querybackend/query_pprof.go) */
  if (req->n_profile_id_selector > 0 &&
      !(ids = parse_profile_ids (req->profile_id_selector, req->n_profile_id_selector, error)))
    return NULL;
  keep = call_site_filter (call->server->store, req->stack_trace_selector);
  if (ids != NULL)
    self = merge_selected_profiles (call, selector, req->start, req->end, keep, ids);
  else
    self = merge_selected (call, selector, req->start, req->end, keep);

  pprof = ets_flamegraph_pprof (call->server->store, self, type, req->start, req->end, error);
  if (pprof == NULL)
    {
      g_prefix_error (error, "pprof: ");
      return NULL;
    }
  call->raw_response = pprof;
  call->raw_descriptor = &google__v1__profile__descriptor;
  return NULL;
}

/* ---- SelectSeries -------------------------------------------------------- */

typedef struct
{
  char       id[ETS_PROFILE_ID_LEN + 1];
  gint64     time_ms;
  gint64     value;
  EtsSeries *series;     /* NULL: no profile yet */
} Best;

typedef struct
{
  GPtrArray *labels;     /* EtsLabel*, borrowed, sorted by name */
  char      *key;
  gint64    *sums;       /* per step */
  gint64    *counts;     /* samples per step */
  gint64     total;
  /* exemplar_type INDIVIDUAL: each step's heaviest profile */
  Best      *best;       /* per step, or NULL */
} Group;

static void
group_free (gpointer data)
{
  Group *g = data;

  g_ptr_array_unref (g->labels);
  g_free (g->key);
  g_free (g->sums);
  g_free (g->counts);
  g_free (g->best);
  g_free (g);
}

typedef struct
{
  Group     *group;
  EtsSeries *series;
  gint64     start;
  gint64     step_ms;
  guint      n_steps;
} Bucketing;

/* Pyroscope's buckets (pkg/model/timeseries/range.go, RangeSeries): points
 * are stamped T = start + k·step for T from start to end inclusive, and the
 * point at T holds the profiles with start − step ≤ t ≤ end whose time is
 * in (T − step, T]: RangeSeries closes a step as soon as a profile is later
 * than it. The profiles read are those from start − step to end, both
 * included (1.x: pkg/querier/querier.go, selectSeries, "the first step
 * starts at start-step to start"; v2: pkg/frontend/readpath/queryfrontend/
 * query_select_time_series.go), so a profile exactly at start − step lands
 * in the first point too. */
static void
add_to_bucket (gint64      time_ms,
               gint64      value,
               const char *profile_id,
               gpointer    user_data)
{
  Bucketing *b = user_data;
  gint64 i;

  if (time_ms < b->start - b->step_ms)
    return;
  i = time_ms <= b->start ? 0 : (time_ms - b->start + b->step_ms - 1) / b->step_ms;
  if (i >= b->n_steps)
    return;
  b->group->sums[i] += value;
  b->group->counts[i]++;
  b->group->total += value;
  /* Exemplars (pkg/model/timeseries): every profile of a step is one, its
   * value the profile's in the series; the step keeps the top
   * DefaultMaxExemplarsPerPoint = 1 by value (aggregator.go,
   * selectTopNExemplarsProto on mergeExemplars' list, which is sorted by
   * profile id: of equal values the smaller id) */
  if (b->group->best != NULL &&
      (b->group->best[i].series == NULL || value > b->group->best[i].value ||
       (value == b->group->best[i].value && strcmp (profile_id, b->group->best[i].id) < 0)))
    {
      g_strlcpy (b->group->best[i].id, profile_id, sizeof b->group->best[i].id);
      b->group->best[i].time_ms = time_ms;
      b->group->best[i].value = value;
      b->group->best[i].series = b->series;
    }
}

/* The exemplar_type a query backend serves (pkg/querybackend/
 * query_time_series.go, validateExemplarType) */
static gboolean
exemplars_wanted (Types__V1__ExemplarType type,
                  gboolean               *wanted,
                  GError                **error)
{
  switch ((int) type)
    {
    case TYPES__V1__EXEMPLAR_TYPE__EXEMPLAR_TYPE_UNSPECIFIED:
    case TYPES__V1__EXEMPLAR_TYPE__EXEMPLAR_TYPE_NONE:
      *wanted = FALSE;
      return TRUE;
    case TYPES__V1__EXEMPLAR_TYPE__EXEMPLAR_TYPE_INDIVIDUAL:
      *wanted = TRUE;
      return TRUE;
    case TYPES__V1__EXEMPLAR_TYPE__EXEMPLAR_TYPE_SPAN:
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_UNIMPLEMENTED, "exemplar type span is not implemented");
      return FALSE;
    default:
      g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "unknown exemplar type: %d", (int) type);
      return FALSE;
    }
}

/* A step's exemplar: its profile, with the labels of its series but those
 * the series is grouped by (pkg/model/timeseries/timeseries.go, Add:
 * lbs.WithoutLabels(s.by...)) */
static Types__V1__Exemplar **
point_exemplars (EtsCall                                *call,
                 const Querier__V1__SelectSeriesRequest *req,
                 Group                                  *group,
                 guint                                   k,
                 size_t                                 *n)
{
  Types__V1__Exemplar **out;
  Types__V1__Exemplar *e;
  GPtrArray *labels;

  *n = 0;
  if (group->best == NULL || group->best[k].series == NULL)
    return NULL;
  out = ets_call_new (call, Types__V1__Exemplar *, 1);
  e = ets_call_new (call, Types__V1__Exemplar, 1);
  types__v1__exemplar__init (e);
  e->timestamp = group->best[k].time_ms;
  e->has_timestamp = e->timestamp != 0;
  e->profile_id = ets_call_strdup (call, group->best[k].id);
  e->value = group->best[k].value;
  e->has_value = e->value != 0;
  labels = ets_series_get_labels (group->best[k].series);
  e->labels = ets_call_new (call, Types__V1__LabelPair *, MAX (1u, labels->len));
  for (guint j = 0; j < labels->len; j++)
    {
      EtsLabel *l = g_ptr_array_index (labels, j);
      Types__V1__LabelPair *pair;

      if (array_contains (req->group_by, req->n_group_by, l->name))
        continue;
      pair = ets_call_new (call, Types__V1__LabelPair, 1);
      types__v1__label_pair__init (pair);
      pair->name = ets_call_strdup (call, l->name);
      pair->value = ets_call_strdup (call, l->value);
      e->labels[e->n_labels++] = pair;
    }
  out[0] = e;
  *n = 1;
  return out;
}

static int
compare_groups_by_key (gconstpointer a,
                       gconstpointer b)
{
  return strcmp ((*(Group * const *) a)->key, (*(Group * const *) b)->key);
}

static int
compare_groups_by_total (gconstpointer a,
                         gconstpointer b)
{
  const Group *ga = *(Group * const *) a;
  const Group *gb = *(Group * const *) b;

  if (ga->total != gb->total)
    return ga->total > gb->total ? -1 : 1;
  return strcmp (ga->key, gb->key);
}

/* Prometheus' resolution limit */
#define MAX_POINTS 11000

static ProtobufCMessage *
select_series (EtsCall                *call,
               const ProtobufCMessage *message,
               GError                **error)
{
  const Querier__V1__SelectSeriesRequest *req = (const Querier__V1__SelectSeriesRequest *) message;
  EtsStore *store = call->server->store;
  Querier__V1__SelectSeriesResponse *res;
  g_autoptr(EtsSelector) selector = NULL;
  g_autoptr(GHashTable) groups = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autofree guint8 *keep = NULL;
  gboolean average = req->aggregation == TYPES__V1__TIME_SERIES_AGGREGATION_TYPE__TIME_SERIES_AGGREGATION_TYPE_AVERAGE;
  gint64 step_ms;
  guint n_steps;
  gboolean exemplars = FALSE;

  if (!check_range (req->start, req->end, error))
    return NULL;
  /* 1.x's querier (pkg/querier/querier.go, SelectSeries) */
  if (call->server->v1_querier &&
      (req->exemplar_type == TYPES__V1__EXEMPLAR_TYPE__EXEMPLAR_TYPE_INDIVIDUAL ||
       req->exemplar_type == TYPES__V1__EXEMPLAR_TYPE__EXEMPLAR_TYPE_SPAN))
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_UNIMPLEMENTED,
                           "exemplars are not supported in SelectSeries API, use the v2 query API instead");
      return NULL;
    }
  if (!exemplars_wanted (req->exemplar_type, &exemplars, error))
    return NULL;
  if (!(req->step >= 0.001) || !isfinite (req->step))
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                   "step must be at least 0.001 seconds (got %g)", req->step);
      return NULL;
    }
  step_ms = MAX (1, (gint64) llround (req->step * 1000));
  if ((req->end - req->start) / step_ms + 1 > MAX_POINTS)
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                   "exceeded maximum resolution of %d points per timeseries: try a larger step", MAX_POINTS);
      return NULL;
    }
  n_steps = (req->end - req->start) / step_ms + 1;
  if (req->has_limit && req->limit < 0)
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "limit must be positive");
      return NULL;
    }
  /* group_by is not checked: Pyroscope groups by whatever names it is
   * given (pkg/model/timeseries/timeseries.go, NewBuilder: a name no series has groups
   * nothing), dotted names from push included */
  selector = parse_query (req->profile_typeid, req->label_selector, NULL, error);
  if (selector == NULL)
    return NULL;
  keep = call_site_filter (store, req->stack_trace_selector);

  groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, group_free);
  for (guint i = 0; i < ets_store_get_n_series (store); i++)
    {
      EtsSeries *s = ets_store_get_series (store, i);
      GPtrArray *labels = ets_series_get_labels (s);
      g_autoptr(GPtrArray) picked = NULL;
      g_autoptr(GString) key = NULL;
      Bucketing bucketing;
      Group *group;

      if (!ets_series_visible (s, call->tenant) ||
          !ets_selector_matches (selector, ets_series_lookup, s))
        continue;

      picked = g_ptr_array_new ();
      key = g_string_new (NULL);
      for (guint j = 0; j < labels->len; j++)
        {
          EtsLabel *l = g_ptr_array_index (labels, j);

          if (array_contains (req->group_by, req->n_group_by, l->name))
            {
              g_ptr_array_add (picked, l);
              g_string_append_printf (key, "%s\x01%s\x02", l->name, l->value);
            }
        }
      group = g_hash_table_lookup (groups, key->str);
      if (group == NULL)
        {
          group = g_new0 (Group, 1);
          group->labels = g_steal_pointer (&picked);
          group->key = g_strdup (key->str);
          group->sums = g_new0 (gint64, n_steps);
          group->counts = g_new0 (gint64, n_steps);
          if (exemplars)
            group->best = g_new0 (Best, n_steps);
          g_hash_table_insert (groups, group->key, group);
        }
      bucketing.group = group;
      bucketing.series = s;
      bucketing.start = req->start;
      bucketing.step_ms = step_ms;
      bucketing.n_steps = n_steps;
      ets_series_foreach_sample (store, s, MAX (1, req->start - step_ms), req->end, keep,
                                 add_to_bucket, &bucketing);
    }

  list = g_ptr_array_new ();
  {
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init (&iter, groups);
    while (g_hash_table_iter_next (&iter, NULL, &value))
      g_ptr_array_add (list, value);
  }
  if (req->has_limit && req->limit > 0 && (guint64) req->limit < list->len)
    {
      g_ptr_array_sort (list, compare_groups_by_total);
      g_ptr_array_set_size (list, req->limit);
    }
  g_ptr_array_sort (list, compare_groups_by_key);

  res = ets_call_new (call, Querier__V1__SelectSeriesResponse, 1);
  querier__v1__select_series_response__init (res);
  res->series = ets_call_new (call, Types__V1__Series *, list->len);
  for (guint i = 0; i < list->len; i++)
    {
      Group *group = g_ptr_array_index (list, i);
      Types__V1__Series *out = ets_call_new (call, Types__V1__Series, 1);
      guint n_points = 0;

      for (guint k = 0; k < n_steps; k++)
        if (group->counts[k] > 0)
          n_points++;
      if (n_points == 0)
        continue;

      types__v1__series__init (out);
      out->n_labels = group->labels->len;
      out->labels = ets_call_new (call, Types__V1__LabelPair *, group->labels->len);
      for (guint j = 0; j < group->labels->len; j++)
        {
          EtsLabel *l = g_ptr_array_index (group->labels, j);
          Types__V1__LabelPair *pair = ets_call_new (call, Types__V1__LabelPair, 1);

          types__v1__label_pair__init (pair);
          pair->name = ets_call_strdup (call, l->name);
          pair->value = ets_call_strdup (call, l->value);
          out->labels[j] = pair;
        }
      out->points = ets_call_new (call, Types__V1__Point *, n_points);
      for (guint k = 0; k < n_steps; k++)
        {
          Types__V1__Point *point;

          if (group->counts[k] == 0)
            continue;
          point = ets_call_new (call, Types__V1__Point, 1);
          types__v1__point__init (point);
          point->value = average ? (double) group->sums[k] / group->counts[k] : (double) group->sums[k];
          point->has_value = point->value != 0;
          point->timestamp = req->start + (gint64) k * step_ms;
          point->has_timestamp = point->timestamp != 0;
          point->exemplars = point_exemplars (call, req, group, k, &point->n_exemplars);
          out->points[out->n_points++] = point;
        }
      res->series[res->n_series++] = out;
    }
  return &res->base;
}

/* ---- GetProfileStats ----------------------------------------------------- */

static void
widen_span (gint64      time_ms,
            gint64      value,
            const char *profile_id,
            gpointer    user_data)
{
  gint64 *span = user_data;

  span[0] = MIN (span[0], time_ms);
  span[1] = MAX (span[1], time_ms);
}

static ProtobufCMessage *
get_profile_stats (EtsCall                *call,
                   const ProtobufCMessage *message,
                   GError                **error)
{
  EtsStore *store = call->server->store;
  Querier__V1__GetProfileStatsResponse *res = ets_call_new (call, Querier__V1__GetProfileStatsResponse, 1);
  gint64 span[2] = { G_MAXINT64, G_MININT64 };

  querier__v1__get_profile_stats_response__init (res);
  for (guint i = 0; i < ets_store_get_n_series (store); i++)
    {
      EtsSeries *s = ets_store_get_series (store, i);

      if (ets_series_visible (s, call->tenant))
        ets_series_foreach_sample (store, s, 0, 0, NULL, widen_span, span);
    }
  if (span[0] <= span[1])
    {
      res->data_ingested = res->has_data_ingested = TRUE;
      res->oldest_profile_time = span[0];
      res->has_oldest_profile_time = TRUE;
      res->newest_profile_time = span[1];
      res->has_newest_profile_time = TRUE;
    }
  return &res->base;
}

const EtsMethod ets_querier_methods[] = {
  { "querier.v1.QuerierService", "ProfileTypes", &types__v1__profile_types_request__descriptor, profile_types },
  { "querier.v1.QuerierService", "LabelNames", &types__v1__label_names_request__descriptor, label_names },
  { "querier.v1.QuerierService", "LabelValues", &types__v1__label_values_request__descriptor, label_values },
  { "querier.v1.QuerierService", "Series", &querier__v1__series_request__descriptor, series },
  { "querier.v1.QuerierService", "SelectMergeStacktraces", &querier__v1__select_merge_stacktraces_request__descriptor, select_merge_stacktraces },
  { "querier.v1.QuerierService", "SelectMergeProfile", &querier__v1__select_merge_profile_request__descriptor, select_merge_profile },
  { "querier.v1.QuerierService", "SelectMergeSpanProfile", &querier__v1__select_merge_span_profile_request__descriptor, select_merge_span_profile },
  { "querier.v1.QuerierService", "SelectSeries", &querier__v1__select_series_request__descriptor, select_series },
  { "querier.v1.QuerierService", "Diff", &querier__v1__diff_request__descriptor, diff },
  { "querier.v1.QuerierService", "GetProfileStats", &querier__v1__get_profile_stats_request__descriptor, get_profile_stats },
  { NULL }
};
