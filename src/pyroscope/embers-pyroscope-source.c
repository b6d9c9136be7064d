/* embers-pyroscope-source.c: a Grafana Pyroscope server as an EmbersSource
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each call is one Connect request. The answer is unpacked and turned into
 * Embers types off the main thread; the GTask carries the caller's
 * cancellable, so a cancelled call always completes with
 * G_IO_ERROR_CANCELLED and never with data.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-diff.h"
#include "embers-format.h"
#include "embers-pyroscope-source.h"
#include "embers-readers.h"
#include "embers-recording-rules.h"

#include "profile.pb-c.h"
#include "querier.pb-c.h"
#include "settings.pb-c.h"
#include "types.pb-c.h"

#define QUERY_CAPABILITIES (EMBERS_SOURCE_CAN_PROFILE_TYPES | \
                            EMBERS_SOURCE_CAN_LABELS |        \
                            EMBERS_SOURCE_CAN_SERIES |        \
                            EMBERS_SOURCE_CAN_TIME_SERIES |   \
                            EMBERS_SOURCE_CAN_MERGE |         \
                            EMBERS_SOURCE_CAN_DIFF |          \
                            EMBERS_SOURCE_CAN_PROFILE_IDS)

struct _EmbersPyroscopeSource
{
  GObject               parent_instance;

  EmbersConnectClient  *client;
  gint64                max_nodes;
  GHashTable           *unavailable;      /* capability bit -> reason */
  gboolean              rules_available;
};

static void embers_pyroscope_source_iface_init (EmbersSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (EmbersPyroscopeSource, embers_pyroscope_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (EMBERS_TYPE_SOURCE, embers_pyroscope_source_iface_init))

enum {
  PROP_0,
  PROP_CLIENT,
  PROP_MAX_NODES,
  PROP_CAPABILITIES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
embers_pyroscope_source_dispose (GObject *object)
{
  EmbersPyroscopeSource *self = (EmbersPyroscopeSource *)object;

  g_clear_object (&self->client);

  G_OBJECT_CLASS (embers_pyroscope_source_parent_class)->dispose (object);
}

static void
embers_pyroscope_source_finalize (GObject *object)
{
  EmbersPyroscopeSource *self = (EmbersPyroscopeSource *)object;

  g_clear_pointer (&self->unavailable, g_hash_table_unref);

  G_OBJECT_CLASS (embers_pyroscope_source_parent_class)->finalize (object);
}

static void
embers_pyroscope_source_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;
    case PROP_MAX_NODES:
      g_value_set_int64 (value, self->max_nodes);
      break;
    case PROP_CAPABILITIES:
      g_value_set_uint (value, embers_source_get_capabilities (EMBERS_SOURCE (self)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_pyroscope_source_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      self->client = g_value_dup_object (value);
      break;
    case PROP_MAX_NODES:
      embers_pyroscope_source_set_max_nodes (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_pyroscope_source_class_init (EmbersPyroscopeSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = embers_pyroscope_source_dispose;
  object_class->finalize = embers_pyroscope_source_finalize;
  object_class->get_property = embers_pyroscope_source_get_property;
  object_class->set_property = embers_pyroscope_source_set_property;

  properties[PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, EMBERS_TYPE_CONNECT_CLIENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MAX_NODES] =
    g_param_spec_int64 ("max-nodes", NULL, NULL,
                        1, EMBERS_PYROSCOPE_MAX_MAX_NODES, EMBERS_PYROSCOPE_DEFAULT_MAX_NODES,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* EmbersSourceCapabilities flags */
  properties[PROP_CAPABILITIES] =
    g_param_spec_uint ("capabilities", NULL, NULL, 0, G_MAXUINT, QUERY_CAPABILITIES,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
embers_pyroscope_source_init (EmbersPyroscopeSource *self)
{
  self->max_nodes = EMBERS_PYROSCOPE_DEFAULT_MAX_NODES;
  self->unavailable = g_hash_table_new_full (NULL, NULL, NULL, g_free);
}

EmbersPyroscopeSource *
embers_pyroscope_source_new (EmbersConnectClient *client)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_CLIENT (client), NULL);

  return g_object_new (EMBERS_TYPE_PYROSCOPE_SOURCE, "client", client, NULL);
}

EmbersConnectClient *
embers_pyroscope_source_get_client (EmbersPyroscopeSource *self)
{
  g_return_val_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self), NULL);

  return self->client;
}

void
embers_pyroscope_source_set_max_nodes (EmbersPyroscopeSource *self,
                                       gint64                 max_nodes)
{
  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self));

  if (max_nodes <= 0)
    max_nodes = EMBERS_PYROSCOPE_DEFAULT_MAX_NODES;
  max_nodes = MIN (max_nodes, EMBERS_PYROSCOPE_MAX_MAX_NODES);

  if (self->max_nodes == max_nodes)
    return;

  self->max_nodes = max_nodes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_NODES]);
}

gint64
embers_pyroscope_source_get_max_nodes (EmbersPyroscopeSource *self)
{
  g_return_val_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self), 0);

  return self->max_nodes;
}

const char *
embers_pyroscope_source_get_unavailable_reason (EmbersPyroscopeSource    *self,
                                                EmbersSourceCapabilities  capability)
{
  g_return_val_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self), NULL);

  return g_hash_table_lookup (self->unavailable, GUINT_TO_POINTER (capability));
}

void
embers_pyroscope_source_mark_unavailable (EmbersPyroscopeSource    *self,
                                          EmbersSourceCapabilities  capability,
                                          const char               *reason)
{
  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self));
  g_return_if_fail (capability != 0);

  if (reason == NULL)
    reason = _("The server does not offer this");

  g_debug ("%s: capability 0x%x unavailable: %s",
           embers_connect_client_get_base_url (self->client), capability, reason);

  g_hash_table_replace (self->unavailable, GUINT_TO_POINTER (capability), g_strdup (reason));
  if (capability == EMBERS_SOURCE_CAN_RECORDING_RULES)
    self->rules_available = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAPABILITIES]);
}

static void
mark_available (EmbersPyroscopeSource    *self,
                EmbersSourceCapabilities  capability)
{
  gboolean changed = g_hash_table_remove (self->unavailable, GUINT_TO_POINTER (capability));

  if (capability == EMBERS_SOURCE_CAN_RECORDING_RULES && !self->rules_available)
    {
      self->rules_available = TRUE;
      changed = TRUE;
    }

  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAPABILITIES]);
}

/* ---- one RPC: request, then decode off the main thread ------------------- */

typedef struct _RpcData RpcData;
typedef gpointer (*DecodeFunc) (RpcData *rpc, const ProtobufCMessage *message, GError **error);

struct _RpcData
{
  EmbersSourceCapabilities          capability;
  const char                       *service;
  const char                       *method;
  const ProtobufCMessageDescriptor *response_type;
  DecodeFunc                        decode;
  GDestroyNotify                    result_free;
  gboolean                          raw;          /* decode gets no message, reads bytes */
  GBytes                           *bytes;
  char                             *sample_type;
  char                             *sample_unit;
};

static void
rpc_data_free (RpcData *rpc)
{
  g_clear_pointer (&rpc->bytes, g_bytes_unref);
  g_free (rpc->sample_type);
  g_free (rpc->sample_unit);
  g_free (rpc);
}

static RpcData *
rpc_data_new (EmbersSourceCapabilities          capability,
              const char                       *service,
              const char                       *method,
              const ProtobufCMessageDescriptor *response_type,
              DecodeFunc                        decode,
              GDestroyNotify                    result_free)
{
  RpcData *rpc = g_new0 (RpcData, 1);

  rpc->capability = capability;
  rpc->service = service;
  rpc->method = method;
  rpc->response_type = response_type;
  rpc->decode = decode;
  rpc->result_free = result_free;

  return rpc;
}

static void
decode_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  RpcData *rpc = task_data;
  GError *error = NULL;
  gpointer result;

  if (rpc->raw)
    result = rpc->decode (rpc, NULL, &error);
  else
    {
      ProtobufCMessage *message = embers_connect_unpack (rpc->response_type, rpc->bytes,
                                                         rpc->method, &error);
      if (message == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      result = rpc->decode (rpc, message, &error);
      protobuf_c_message_free_unpacked (message, NULL);
    }

  if (result == NULL)
    {
      if (error == NULL)
        error = g_error_new (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                             _("The server's answer to %s is empty"), rpc->method);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, result, rpc->result_free);
}

static void
on_rpc_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  EmbersPyroscopeSource *self = g_task_get_source_object (task);
  RpcData *rpc = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  rpc->bytes = embers_connect_client_call_finish (EMBERS_CONNECT_CLIENT (object), result, &error);
  if (rpc->bytes == NULL)
    {
      if (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED))
        embers_pyroscope_source_mark_unavailable (self, rpc->capability, error->message);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, decode_thread);
}

/* Takes task; rpc becomes its task data. */
static void
start_rpc (EmbersPyroscopeSource  *self,
           GTask                  *task,
           RpcData                *rpc,
           const ProtobufCMessage *request,
           EmbersConnectCallFlags  flags)
{
  const char *reason;

  g_task_set_task_data (task, rpc, (GDestroyNotify) rpc_data_free);

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  reason = embers_pyroscope_source_get_unavailable_reason (self, rpc->capability);
  if (reason != NULL)
    {
      g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED,
                               "%s", reason);
      g_object_unref (task);
      return;
    }

  embers_connect_client_call_async (self->client, rpc->service, rpc->method, request,
                                    rpc->response_type, flags,
                                    g_task_get_cancellable (task), on_rpc_done, task);
}

static GTask *
new_task (EmbersPyroscopeSource *self,
          gpointer               source_tag,
          GCancellable          *cancellable,
          GAsyncReadyCallback    callback,
          gpointer               user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  return task;
}

static gpointer
propagate (EmbersSource  *source,
           GAsyncResult  *result,
           gpointer       source_tag,
           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);
  g_return_val_if_fail (g_async_result_is_tagged (result, source_tag), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- decoders (worker thread) ------------------------------------------- */

static GStrv
strv_from (char   **strings,
           size_t   n)
{
  GStrv strv = g_new0 (char *, n + 1);

  for (size_t i = 0; i < n; i++)
    strv[i] = g_strdup (strings[i] ? strings[i] : "");

  return strv;
}

static gpointer
decode_names (RpcData                *rpc,
              const ProtobufCMessage *message,
              GError                **error)
{
  /* LabelNamesResponse and LabelValuesResponse share their shape */
  if (message->descriptor == &types__v1__label_names_response__descriptor)
    {
      const Types__V1__LabelNamesResponse *r = (const Types__V1__LabelNamesResponse *) message;
      return strv_from (r->names, r->n_names);
    }
  else
    {
      const Types__V1__LabelValuesResponse *r = (const Types__V1__LabelValuesResponse *) message;
      return strv_from (r->names, r->n_names);
    }
}

static EmbersProfileTypeInfo *
type_info_from_message (const Types__V1__ProfileType *pt)
{
  EmbersProfileTypeInfo *info = NULL;

  if (pt->id != NULL && pt->id[0] != '\0')
    info = embers_profile_type_info_new (pt->id);

  if (info == NULL)
    {
      if (pt->name == NULL || pt->name[0] == '\0' || pt->sample_type == NULL || pt->sample_type[0] == '\0')
        return NULL;

      info = g_new0 (EmbersProfileTypeInfo, 1);
      info->id = g_strdup_printf ("%s:%s:%s:%s:%s", pt->name,
                                  pt->sample_type,
                                  pt->sample_unit ? pt->sample_unit : "",
                                  pt->period_type ? pt->period_type : "",
                                  pt->period_unit ? pt->period_unit : "");
      info->name = g_strdup (pt->name);
      info->sample_type = g_strdup (pt->sample_type);
      info->sample_unit = g_strdup (pt->sample_unit ? pt->sample_unit : "");
      info->period_type = g_strdup (pt->period_type ? pt->period_type : "");
      info->period_unit = g_strdup (pt->period_unit ? pt->period_unit : "");
    }

  return info;
}

static gpointer
decode_profile_types (RpcData                *rpc,
                      const ProtobufCMessage *message,
                      GError                **error)
{
  const Types__V1__ProfileTypesResponse *r = (const Types__V1__ProfileTypesResponse *) message;
  GPtrArray *types = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_profile_type_info_free);

  for (size_t i = 0; i < r->n_profile_types; i++)
    {
      EmbersProfileTypeInfo *info = type_info_from_message (r->profile_types[i]);

      if (info != NULL)
        g_ptr_array_add (types, info);
    }

  return types;
}

static EmbersSeries *
series_from_labels (Types__V1__LabelPair **labels,
                    size_t                 n_labels)
{
  EmbersSeries *series = embers_series_new ();

  g_strfreev (series->label_names);
  g_strfreev (series->label_values);
  series->label_names = g_new0 (char *, n_labels + 1);
  series->label_values = g_new0 (char *, n_labels + 1);

  for (size_t i = 0; i < n_labels; i++)
    {
      series->label_names[i] = g_strdup (labels[i]->name ? labels[i]->name : "");
      series->label_values[i] = g_strdup (labels[i]->value ? labels[i]->value : "");
    }

  return series;
}

static gpointer
decode_label_sets (RpcData                *rpc,
                   const ProtobufCMessage *message,
                   GError                **error)
{
  const Querier__V1__SeriesResponse *r = (const Querier__V1__SeriesResponse *) message;
  GPtrArray *sets = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_series_free);

  for (size_t i = 0; i < r->n_labels_set; i++)
    g_ptr_array_add (sets, series_from_labels (r->labels_set[i]->labels, r->labels_set[i]->n_labels));

  return sets;
}

static gpointer
decode_time_series (RpcData                *rpc,
                    const ProtobufCMessage *message,
                    GError                **error)
{
  const Querier__V1__SelectSeriesResponse *r = (const Querier__V1__SelectSeriesResponse *) message;
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_series_free);

  for (size_t i = 0; i < r->n_series; i++)
    {
      const Types__V1__Series *s = r->series[i];
      EmbersSeries *series = series_from_labels (s->labels, s->n_labels);

      series->n_points = s->n_points;
      series->timestamps = g_new0 (gint64, MAX (1, s->n_points));
      series->values = g_new0 (double, MAX (1, s->n_points));
      for (size_t j = 0; j < s->n_points; j++)
        {
          series->timestamps[j] = s->points[j]->timestamp;
          series->values[j] = s->points[j]->value;
          /* Individual profiles (exemplar_type INDIVIDUAL): upstream's
           * pkg/model/timeseries keeps each point's heaviest */
          for (size_t x = 0; x < s->points[j]->n_exemplars; x++)
            {
              const Types__V1__Exemplar *e = s->points[j]->exemplars[x];
              EmbersExemplar *exemplar;

              if (e->profile_id == NULL || e->profile_id[0] == '\0')
                continue;
              exemplar = embers_exemplar_new (j, e->timestamp, e->profile_id, e->value);
              g_strfreev (exemplar->label_names);
              g_strfreev (exemplar->label_values);
              exemplar->label_names = g_new0 (char *, e->n_labels + 1);
              exemplar->label_values = g_new0 (char *, e->n_labels + 1);
              for (size_t l = 0; l < e->n_labels; l++)
                {
                  exemplar->label_names[l] = g_strdup (e->labels[l]->name ? e->labels[l]->name : "");
                  exemplar->label_values[l] = g_strdup (e->labels[l]->value ? e->labels[l]->value : "");
                }
              if (series->exemplars == NULL)
                series->exemplars = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_exemplar_free);
              g_ptr_array_add (series->exemplars, exemplar);
            }
          if (j > 0 && series->timestamps[j] < series->timestamps[j - 1])
            {
              embers_series_free (series);
              g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                           _("The server's time series %zu is not in time order (point %zu)"), i, j);
              return NULL;
            }
        }
      g_ptr_array_add (all, series);
    }

  return g_steal_pointer (&all);
}

static EmbersProfile *
profile_from_levels (char               **names,
                     size_t               n_names,
                     Querier__V1__Level **levels,
                     size_t               n_levels,
                     gboolean             is_diff,
                     const char          *sample_type,
                     const char          *sample_unit,
                     GError             **error)
{
  static const gint64 zeros[7] = { 0 };
  static const char *root_names[] = { "total", NULL };
  g_autofree const gint64 **values = NULL;
  g_autofree gsize *n_values = NULL;
  g_autoptr(GError) local_error = NULL;
  EmbersProfile *profile;

  if (n_levels == 0)
    {
      /* No data in the range: the server may leave the flame graph out. */
      const gint64 *root_level = zeros;
      gsize root_n = is_diff ? 7 : 4;

      if (n_names > 0)
        {
          g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                       g_dngettext (GETTEXT_PACKAGE, "The server's flame graph has %zu name but no levels",
                                    "The server's flame graph has %zu names but no levels", n_names), n_names);
          return NULL;
        }

      profile = embers_levels_to_profile (root_names, 1, &root_level, &root_n, 1, is_diff,
                                          sample_type, sample_unit, &local_error);
    }
  else
    {
      values = g_new (const gint64 *, n_levels);
      n_values = g_new (gsize, n_levels);
      for (size_t i = 0; i < n_levels; i++)
        {
          values[i] = levels[i]->values;
          n_values[i] = levels[i]->n_values;
        }

      profile = embers_levels_to_profile ((const char * const *) names, n_names, values, n_values,
                                          n_levels, is_diff, sample_type, sample_unit, &local_error);
    }

  if (profile == NULL)
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                   _("The server's flame graph is inconsistent: %s"),
                   local_error ? local_error->message : _("unknown error"));
      return NULL;
    }

  return profile;
}

/* Pyroscope always sends a flame graph, the root alone when nothing
 * matches: an answer to @rpc without one is someone else's, or cut short */
static gpointer
no_flame_graph (const char  *rpc,
                GError     **error)
{
  g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
               _("This is not a Pyroscope answer: the answer to %s has no flame graph"), rpc);
  return NULL;
}

static gpointer
decode_merge (RpcData                *rpc,
              const ProtobufCMessage *message,
              GError                **error)
{
  const Querier__V1__SelectMergeStacktracesResponse *r =
    (const Querier__V1__SelectMergeStacktracesResponse *) message;

  if (r->flamegraph == NULL)
    return no_flame_graph ("SelectMergeStacktraces", error);

  return profile_from_levels (r->flamegraph->names, r->flamegraph->n_names,
                              r->flamegraph->levels, r->flamegraph->n_levels,
                              FALSE, rpc->sample_type, rpc->sample_unit, error);
}

static gpointer
decode_diff (RpcData                *rpc,
             const ProtobufCMessage *message,
             GError                **error)
{
  const Querier__V1__DiffResponse *r = (const Querier__V1__DiffResponse *) message;

  if (r->flamegraph == NULL)
    return no_flame_graph ("Diff", error);

  return profile_from_levels (r->flamegraph->names, r->flamegraph->n_names,
                              r->flamegraph->levels, r->flamegraph->n_levels,
                              TRUE, rpc->sample_type, rpc->sample_unit, error);
}

static GBytes *
pprof_bytes (RpcData  *rpc,
             GError  **error)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (rpc->bytes, &len);

  if (embers_is_gzip (data, len))
    {
      g_autoptr(GError) local_error = NULL;
      GBytes *plain = embers_gunzip (data, len, EMBERS_MAX_DECOMPRESSED_SIZE, &local_error);

      if (plain == NULL)
        g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                     _("The server's pprof answer could not be unpacked: %s"), local_error->message);
      return plain;
    }

  return g_bytes_ref (rpc->bytes);
}

static gpointer
decode_pprof_bytes (RpcData                *rpc,
                    const ProtobufCMessage *message,
                    GError                **error)
{
  return pprof_bytes (rpc, error);
}

static gpointer
decode_pprof_profile (RpcData                *rpc,
                      const ProtobufCMessage *message,
                      GError                **error)
{
  g_autoptr(GBytes) bytes = pprof_bytes (rpc, error);
  g_autoptr(GError) local_error = NULL;
  EmbersProfile *profile;
  gsize len = 0;
  const guint8 *data;

  if (bytes == NULL)
    return NULL;

  data = g_bytes_get_data (bytes, &len);
  profile = embers_pprof_parse (data, len, &local_error);
  if (profile == NULL)
    g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                 _("The server's pprof answer could not be read: %s"), local_error->message);

  return profile;
}

/* ---- EmbersSource -------------------------------------------------------- */

static EmbersSourceCapabilities
pyroscope_get_capabilities (EmbersSource *source)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  EmbersSourceCapabilities caps = QUERY_CAPABILITIES;
  GHashTableIter iter;
  gpointer key;

  if (self->rules_available)
    caps |= EMBERS_SOURCE_CAN_RECORDING_RULES;

  g_hash_table_iter_init (&iter, self->unavailable);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    caps &= ~GPOINTER_TO_UINT (key);

  return caps;
}

static char *
pyroscope_dup_display_name (EmbersSource *source)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  g_autofree char *host = embers_connect_client_dup_display_name (self->client);
  const char *tenant = embers_connect_client_get_tenant (self->client);

  if (tenant != NULL)
    return g_strdup_printf ("%s (%s)", host, tenant);

  return g_steal_pointer (&host);
}

static void
pyroscope_list_profile_types (EmbersSource        *source,
                              gint64               start_ms,
                              gint64               end_ms,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  Types__V1__ProfileTypesRequest req = TYPES__V1__PROFILE_TYPES_REQUEST__INIT;
  GTask *task = new_task (self, pyroscope_list_profile_types, cancellable, callback, user_data);

  req.has_start = req.has_end = TRUE;
  req.start = start_ms;
  req.end = end_ms;

  start_rpc (self, task,
             rpc_data_new (EMBERS_SOURCE_CAN_PROFILE_TYPES, EMBERS_PYROSCOPE_QUERIER_SERVICE,
                           "ProfileTypes", &types__v1__profile_types_response__descriptor,
                           decode_profile_types, (GDestroyNotify) g_ptr_array_unref),
             &req.base, EMBERS_CONNECT_CALL_NONE);
}

static GPtrArray *
pyroscope_list_profile_types_finish (EmbersSource  *source,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  return propagate (source, result, pyroscope_list_profile_types, error);
}

static gsize
strv_len (const char * const *strv)
{
  return strv ? g_strv_length ((GStrv) strv) : 0;
}

static void
pyroscope_list_label_names (EmbersSource        *source,
                            const char * const  *matchers,
                            gint64               start_ms,
                            gint64               end_ms,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  Types__V1__LabelNamesRequest req = TYPES__V1__LABEL_NAMES_REQUEST__INIT;
  GTask *task = new_task (self, pyroscope_list_label_names, cancellable, callback, user_data);

  req.n_matchers = strv_len (matchers);
  req.matchers = (char **) matchers;
  req.has_start = req.has_end = TRUE;
  req.start = start_ms;
  req.end = end_ms;

  start_rpc (self, task,
             rpc_data_new (EMBERS_SOURCE_CAN_LABELS, EMBERS_PYROSCOPE_QUERIER_SERVICE,
                           "LabelNames", &types__v1__label_names_response__descriptor,
                           decode_names, (GDestroyNotify) g_strfreev),
             &req.base, EMBERS_CONNECT_CALL_UTF8_LABEL_NAMES);
}

static GStrv
pyroscope_list_label_names_finish (EmbersSource  *source,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  return propagate (source, result, pyroscope_list_label_names, error);
}

static void
pyroscope_list_label_values (EmbersSource        *source,
                             const char          *name,
                             const char * const  *matchers,
                             gint64               start_ms,
                             gint64               end_ms,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  Types__V1__LabelValuesRequest req = TYPES__V1__LABEL_VALUES_REQUEST__INIT;
  GTask *task = new_task (self, pyroscope_list_label_values, cancellable, callback, user_data);

  req.name = (char *) name;
  req.n_matchers = strv_len (matchers);
  req.matchers = (char **) matchers;
  req.has_start = req.has_end = TRUE;
  req.start = start_ms;
  req.end = end_ms;

  start_rpc (self, task,
             rpc_data_new (EMBERS_SOURCE_CAN_LABELS, EMBERS_PYROSCOPE_QUERIER_SERVICE,
                           "LabelValues", &types__v1__label_values_response__descriptor,
                           decode_names, (GDestroyNotify) g_strfreev),
             &req.base, EMBERS_CONNECT_CALL_UTF8_LABEL_NAMES);
}

static GStrv
pyroscope_list_label_values_finish (EmbersSource  *source,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  return propagate (source, result, pyroscope_list_label_values, error);
}

static void
pyroscope_list_series (EmbersSource        *source,
                       const char * const  *matchers,
                       const char * const  *label_names,
                       gint64               start_ms,
                       gint64               end_ms,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  Querier__V1__SeriesRequest req = QUERIER__V1__SERIES_REQUEST__INIT;
  GTask *task = new_task (self, pyroscope_list_series, cancellable, callback, user_data);

  req.n_matchers = strv_len (matchers);
  req.matchers = (char **) matchers;
  req.n_label_names = strv_len (label_names);
  req.label_names = (char **) label_names;
  req.has_start = req.has_end = TRUE;
  req.start = start_ms;
  req.end = end_ms;

  start_rpc (self, task,
             rpc_data_new (EMBERS_SOURCE_CAN_SERIES, EMBERS_PYROSCOPE_QUERIER_SERVICE,
                           "Series", &querier__v1__series_response__descriptor,
                           decode_label_sets, (GDestroyNotify) g_ptr_array_unref),
             &req.base, EMBERS_CONNECT_CALL_UTF8_LABEL_NAMES);
}

static GPtrArray *
pyroscope_list_series_finish (EmbersSource  *source,
                              GAsyncResult  *result,
                              GError       **error)
{
  return propagate (source, result, pyroscope_list_series, error);
}

/* Validates the query's profile type; fills rpc's sample type and unit. */
static gboolean
check_query (const EmbersQuery  *query,
             RpcData            *rpc,
             GError            **error)
{
  g_autoptr(EmbersProfileTypeInfo) info = NULL;

  if (query == NULL || query->profile_type == NULL || query->profile_type[0] == '\0')
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   _("The query has no profile type"));
      return FALSE;
    }

  info = embers_profile_type_info_new (query->profile_type);
  if (info == NULL)
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a profile type (expected name:sample_type:sample_unit:period_type:period_unit)"),
                   query->profile_type);
      return FALSE;
    }

  if (rpc != NULL)
    {
      g_free (rpc->sample_type);
      g_free (rpc->sample_unit);
      rpc->sample_type = g_strdup (info->sample_type);
      rpc->sample_unit = g_strdup (info->sample_unit);
    }

  return TRUE;
}

static const char *
selector_of (const EmbersQuery *query)
{
  return query->label_selector != NULL && query->label_selector[0] != '\0'
    ? query->label_selector : "{}";
}

static void
fill_merge_request (EmbersPyroscopeSource                     *self,
                    const EmbersQuery                         *query,
                    Querier__V1__SelectMergeStacktracesRequest *req)
{
  req->profile_typeid = query->profile_type;
  req->label_selector = (char *) selector_of (query);
  req->has_start = req->has_end = TRUE;
  req->start = query->start_ms;
  req->end = query->end_ms;
  req->has_max_nodes = TRUE;
  req->max_nodes = query->max_nodes > 0 ? query->max_nodes : self->max_nodes;
  /* Only these individual profiles (field 8; the v2 query backend) */
  req->n_profile_id_selector = query->profile_ids != NULL ? g_strv_length (query->profile_ids) : 0;
  req->profile_id_selector = query->profile_ids;
}

/* A stack-trace selector for a call site (frame names, root first; the
 * stacks through it, api/types/v1/types.proto), as SelectSeries,
 * SelectMergeStacktraces and SelectMergeProfile take it */
typedef struct
{
  Types__V1__StackTraceSelector   selector;
  Types__V1__Location            *locations;
  Types__V1__Location           **pointers;
} CallSiteSelector;

/* NULL without a call site */
static Types__V1__StackTraceSelector *
call_site_selector_init (CallSiteSelector   *site,
                         const char * const *call_site)
{
  guint n = call_site != NULL ? g_strv_length ((char **) call_site) : 0;

  types__v1__stack_trace_selector__init (&site->selector);
  if (n == 0)
    return NULL;
  site->locations = g_new (Types__V1__Location, n);
  site->pointers = g_new (Types__V1__Location *, n);
  for (guint i = 0; i < n; i++)
    {
      types__v1__location__init (&site->locations[i]);
      site->locations[i].name = (char *) call_site[i];
      site->pointers[i] = &site->locations[i];
    }
  site->selector.n_call_site = n;
  site->selector.call_site = site->pointers;
  return &site->selector;
}

static void
call_site_selector_clear (CallSiteSelector *site)
{
  g_clear_pointer (&site->locations, g_free);
  g_clear_pointer (&site->pointers, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CallSiteSelector, call_site_selector_clear)

/* SelectSeries, with a stack_trace_selector when @call_site is given */
static void
select_series (EmbersPyroscopeSource *self,
               gpointer               tag,
               const EmbersQuery     *query,
               const char * const    *call_site,
               const char * const    *group_by,
               double                 step_s,
               EmbersAggregation      aggregation,
               gint64                 limit,
               gboolean               exemplars,
               GCancellable          *cancellable,
               GAsyncReadyCallback    callback,
               gpointer               user_data)
{
  Querier__V1__SelectSeriesRequest req = QUERIER__V1__SELECT_SERIES_REQUEST__INIT;
  g_auto(CallSiteSelector) site = { 0 };
  GTask *task = new_task (self, tag, cancellable, callback, user_data);
  /* A v1 querier answers exemplars with unimplemented (pkg/querier/
   * querier.go, SelectSeries): that turns off profile ids, not series */
  RpcData *rpc = rpc_data_new (exemplars ? EMBERS_SOURCE_CAN_PROFILE_IDS : EMBERS_SOURCE_CAN_TIME_SERIES,
                               EMBERS_PYROSCOPE_QUERIER_SERVICE,
                               "SelectSeries", &querier__v1__select_series_response__descriptor,
                               decode_time_series, (GDestroyNotify) g_ptr_array_unref);
  GError *error = NULL;

  if (!check_query (query, rpc, &error))
    {
      rpc_data_free (rpc);
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  req.profile_typeid = query->profile_type;
  req.label_selector = (char *) selector_of (query);
  req.has_start = req.has_end = TRUE;
  req.start = query->start_ms;
  req.end = query->end_ms;
  req.n_group_by = strv_len (group_by);
  req.group_by = (char **) group_by;
  req.has_step = TRUE;
  req.step = step_s > 0.001 ? step_s : embers_source_step_for_range (query->start_ms, query->end_ms);
  if (aggregation == EMBERS_AGGREGATION_AVERAGE)
    {
      req.has_aggregation = TRUE;
      req.aggregation = TYPES__V1__TIME_SERIES_AGGREGATION_TYPE__TIME_SERIES_AGGREGATION_TYPE_AVERAGE;
    }
  if (limit > 0)
    {
      req.has_limit = TRUE;
      req.limit = limit;
    }
  if (exemplars)
    {
      /* Each point's heaviest profiles, with their ids
       * (api/querier/v1/querier.proto, field 10) */
      req.has_exemplar_type = TRUE;
      req.exemplar_type = TYPES__V1__EXEMPLAR_TYPE__EXEMPLAR_TYPE_INDIVIDUAL;
    }
  req.stack_trace_selector = call_site_selector_init (&site, call_site);

  start_rpc (self, task, rpc, &req.base, EMBERS_CONNECT_CALL_NONE);
}

static void
pyroscope_select_series (EmbersSource        *source,
                         const EmbersQuery   *query,
                         const char * const  *group_by,
                         double               step_s,
                         EmbersAggregation    aggregation,
                         gint64               limit,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  select_series (EMBERS_PYROSCOPE_SOURCE (source), pyroscope_select_series, query, NULL, group_by,
                 step_s, aggregation, limit, FALSE, cancellable, callback, user_data);
}

static void
pyroscope_select_exemplars (EmbersSource        *source,
                            const EmbersQuery   *query,
                            const char * const  *group_by,
                            double               step_s,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  select_series (EMBERS_PYROSCOPE_SOURCE (source), pyroscope_select_exemplars, query, NULL, group_by,
                 step_s, EMBERS_AGGREGATION_SUM, 0, TRUE, cancellable, callback, user_data);
}

static GPtrArray *
pyroscope_select_exemplars_finish (EmbersSource  *source,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  return propagate (source, result, pyroscope_select_exemplars, error);
}

/**
 * embers_pyroscope_source_select_call_site_series_async:
 * @call_site: the frames of a call site, root first
 *
 * SelectSeries of the stacks under one call site (a stack_trace_selector):
 * each point is the call site's total in that step. Finish with
 * embers_source_select_series_finish().
 */
void
embers_pyroscope_source_select_call_site_series_async (EmbersPyroscopeSource *self,
                                                       const EmbersQuery     *query,
                                                       const char * const    *call_site,
                                                       const char * const    *group_by,
                                                       double                 step_s,
                                                       GCancellable          *cancellable,
                                                       GAsyncReadyCallback    callback,
                                                       gpointer               user_data)
{
  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self));
  g_return_if_fail (call_site != NULL && call_site[0] != NULL);

  select_series (self, pyroscope_select_series, query, call_site, group_by, step_s,
                 EMBERS_AGGREGATION_SUM, 0, FALSE, cancellable, callback, user_data);
}

/* The interface's call: the same request (and the same finish) */
static void
pyroscope_select_call_site_series (EmbersSource        *source,
                                   const EmbersQuery   *query,
                                   const char * const  *call_site,
                                   const char * const  *group_by,
                                   double               step_s,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  embers_pyroscope_source_select_call_site_series_async (EMBERS_PYROSCOPE_SOURCE (source), query, call_site,
                                                         group_by, step_s, cancellable, callback, user_data);
}

static GPtrArray *
pyroscope_select_series_finish (EmbersSource  *source,
                                GAsyncResult  *result,
                                GError       **error)
{
  return propagate (source, result, pyroscope_select_series, error);
}

/* SelectMergeStacktraces of @query, with @call_site (NULL: every stack)
 * the stacks under one call site: the stack_trace_selector's call_site
 * keeps the stacks with that root-first prefix of function names
 * (upstream pkg/phlaredb/symdb/resolver_tree.go, funcNamesMatchSelection),
 * and max_nodes cuts the answer as a whole (pkg/model/tree.go): the
 * prefix frames come back too, each with the call site's total. */
static void
merge_stacks (EmbersPyroscopeSource *self,
              const EmbersQuery     *query,
              const char * const    *call_site,
              gpointer               source_tag,
              GCancellable          *cancellable,
              GAsyncReadyCallback    callback,
              gpointer               user_data)
{
  Querier__V1__SelectMergeStacktracesRequest req = QUERIER__V1__SELECT_MERGE_STACKTRACES_REQUEST__INIT;
  g_auto(CallSiteSelector) site = { 0 };
  GTask *task = new_task (self, source_tag, cancellable, callback, user_data);
  RpcData *rpc = rpc_data_new (EMBERS_SOURCE_CAN_MERGE, EMBERS_PYROSCOPE_QUERIER_SERVICE,
                               "SelectMergeStacktraces",
                               &querier__v1__select_merge_stacktraces_response__descriptor,
                               decode_merge, g_object_unref);
  GError *error = NULL;

  if (!check_query (query, rpc, &error))
    {
      rpc_data_free (rpc);
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  fill_merge_request (self, query, &req);
  req.stack_trace_selector = call_site_selector_init (&site, call_site);
  start_rpc (self, task, rpc, &req.base, EMBERS_CONNECT_CALL_NONE);
}

static void
pyroscope_merge_profile (EmbersSource        *source,
                         const EmbersQuery   *query,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  merge_stacks (EMBERS_PYROSCOPE_SOURCE (source), query, NULL, pyroscope_merge_profile,
                cancellable, callback, user_data);
}

static EmbersProfile *
pyroscope_merge_profile_finish (EmbersSource  *source,
                                GAsyncResult  *result,
                                GError       **error)
{
  return propagate (source, result, pyroscope_merge_profile, error);
}

static void
pyroscope_merge_call_site (EmbersSource        *source,
                           const EmbersQuery   *query,
                           const char * const  *call_site,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  merge_stacks (EMBERS_PYROSCOPE_SOURCE (source), query, call_site, pyroscope_merge_call_site,
                cancellable, callback, user_data);
}

static EmbersProfile *
pyroscope_merge_call_site_finish (EmbersSource  *source,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  return propagate (source, result, pyroscope_merge_call_site, error);
}

/* The server would diff a duration against bytes without a word: refuse
 * as embers_diff_profiles() does. Both types are valid (check_query). */
static gboolean
check_diff_units (const EmbersQuery  *left,
                  const EmbersQuery  *right,
                  GError            **error)
{
  g_autoptr(EmbersProfileTypeInfo) l = embers_profile_type_info_new (left->profile_type);
  g_autoptr(EmbersProfileTypeInfo) r = embers_profile_type_info_new (right->profile_type);

  return embers_diff_check_units (l->sample_type, l->sample_unit, r->sample_type, r->sample_unit, error);
}

static void
pyroscope_diff (EmbersSource        *source,
                const EmbersQuery   *left,
                const EmbersQuery   *right,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  Querier__V1__DiffRequest req = QUERIER__V1__DIFF_REQUEST__INIT;
  Querier__V1__SelectMergeStacktracesRequest lreq = QUERIER__V1__SELECT_MERGE_STACKTRACES_REQUEST__INIT;
  Querier__V1__SelectMergeStacktracesRequest rreq = QUERIER__V1__SELECT_MERGE_STACKTRACES_REQUEST__INIT;
  GTask *task = new_task (self, pyroscope_diff, cancellable, callback, user_data);
  RpcData *rpc = rpc_data_new (EMBERS_SOURCE_CAN_DIFF, EMBERS_PYROSCOPE_QUERIER_SERVICE,
                               "Diff", &querier__v1__diff_response__descriptor,
                               decode_diff, g_object_unref);
  GError *error = NULL;

  if (!check_query (left, rpc, &error) || !check_query (right, NULL, &error) ||
      !check_diff_units (left, right, &error))
    {
      rpc_data_free (rpc);
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  fill_merge_request (self, left, &lreq);
  fill_merge_request (self, right, &rreq);
  req.left = &lreq;
  req.right = &rreq;

  start_rpc (self, task, rpc, &req.base, EMBERS_CONNECT_CALL_NONE);
}

static EmbersProfile *
pyroscope_diff_finish (EmbersSource  *source,
                       GAsyncResult  *result,
                       GError       **error)
{
  return propagate (source, result, pyroscope_diff, error);
}

/* Recording rules: the client's calls, and what they tell of the server
 * (a server that does not serve them has them off from then on) */

typedef enum
{
  RULES_LIST,
  RULES_GET,
  RULES_UPSERT,
  RULES_DELETE,
} RulesCall;

static void
rules_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  EmbersPyroscopeSource *self = g_task_get_source_object (task);
  RulesCall kind = GPOINTER_TO_UINT (g_task_get_task_data (task));
  g_autoptr(GError) error = NULL;
  gpointer answer = NULL;
  gboolean deleted = FALSE;

  switch (kind)
    {
    case RULES_LIST:
      answer = embers_recording_rules_list_finish (result, &error);
      break;
    case RULES_GET:
      answer = embers_recording_rules_get_finish (result, &error);
      break;
    case RULES_UPSERT:
      answer = embers_recording_rules_upsert_finish (result, &error);
      break;
    case RULES_DELETE:
      deleted = embers_recording_rules_delete_finish (result, &error);
      break;
    default:
      g_assert_not_reached ();
    }

  if (error == NULL)
    {
      mark_available (self, EMBERS_SOURCE_CAN_RECORDING_RULES);
      if (kind == RULES_DELETE)
        g_task_return_boolean (task, deleted);
      else
        g_task_return_pointer (task, answer,
                               kind == RULES_LIST ? (GDestroyNotify) g_ptr_array_unref
                                                  : (GDestroyNotify) embers_recording_rule_free);
      return;
    }
  /* Not served (404, unimplemented): the rules API is off */
  if (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED))
    embers_pyroscope_source_mark_unavailable (self, EMBERS_SOURCE_CAN_RECORDING_RULES, error->message);
  g_task_return_error (task, g_steal_pointer (&error));
}

static GTask *
rules_task (EmbersSource        *source,
            RulesCall            kind,
            gpointer             tag,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data)
{
  GTask *task = g_task_new (source, cancellable, callback, user_data);

  g_task_set_source_tag (task, tag);
  g_task_set_task_data (task, GUINT_TO_POINTER (kind), NULL);
  return task;
}

static void
pyroscope_list_recording_rules (EmbersSource        *source,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  GTask *task = rules_task (source, RULES_LIST, pyroscope_list_recording_rules, cancellable, callback, user_data);

  embers_recording_rules_list_async (self->client, cancellable, rules_done, task);
}

static GPtrArray *
pyroscope_list_recording_rules_finish (EmbersSource  *source,
                                       GAsyncResult  *result,
                                       GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
pyroscope_get_recording_rule (EmbersSource        *source,
                              const char          *id,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  GTask *task = rules_task (source, RULES_GET, pyroscope_get_recording_rule, cancellable, callback, user_data);

  embers_recording_rules_get_async (self->client, id, cancellable, rules_done, task);
}

static EmbersRecordingRule *
pyroscope_rule_finish (EmbersSource  *source,
                       GAsyncResult  *result,
                       GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
pyroscope_upsert_recording_rule (EmbersSource              *source,
                                 const EmbersRecordingRule *rule,
                                 GCancellable              *cancellable,
                                 GAsyncReadyCallback        callback,
                                 gpointer                   user_data)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  GTask *task = rules_task (source, RULES_UPSERT, pyroscope_upsert_recording_rule, cancellable, callback, user_data);

  embers_recording_rules_upsert_async (self->client, rule, cancellable, rules_done, task);
}

static void
pyroscope_delete_recording_rule (EmbersSource        *source,
                                 const char          *id,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  EmbersPyroscopeSource *self = EMBERS_PYROSCOPE_SOURCE (source);
  GTask *task = rules_task (source, RULES_DELETE, pyroscope_delete_recording_rule, cancellable, callback, user_data);

  embers_recording_rules_delete_async (self->client, id, cancellable, rules_done, task);
}

static gboolean
pyroscope_delete_recording_rule_finish (EmbersSource  *source,
                                        GAsyncResult  *result,
                                        GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static char *
pyroscope_dup_unavailable_reason (EmbersSource             *source,
                                  EmbersSourceCapabilities  capability)
{
  return g_strdup (embers_pyroscope_source_get_unavailable_reason (EMBERS_PYROSCOPE_SOURCE (source), capability));
}

static char *
pyroscope_dup_tenant (EmbersSource *source)
{
  const char *tenant = embers_connect_client_get_tenant (EMBERS_PYROSCOPE_SOURCE (source)->client);

  return tenant != NULL && tenant[0] != '\0' ? g_strdup (tenant) : NULL;
}

static char *
pyroscope_dup_location (EmbersSource *source)
{
  EmbersConnectClient *client = EMBERS_PYROSCOPE_SOURCE (source)->client;
  const char *tenant = embers_connect_client_get_tenant (client);

  return g_strdup_printf ("%s\n%s", embers_connect_client_get_base_url (client), tenant != NULL ? tenant : "");
}

static void
embers_pyroscope_source_iface_init (EmbersSourceInterface *iface)
{
  iface->get_capabilities = pyroscope_get_capabilities;
  iface->dup_display_name = pyroscope_dup_display_name;
  iface->list_profile_types = pyroscope_list_profile_types;
  iface->list_profile_types_finish = pyroscope_list_profile_types_finish;
  iface->list_label_names = pyroscope_list_label_names;
  iface->list_label_names_finish = pyroscope_list_label_names_finish;
  iface->list_label_values = pyroscope_list_label_values;
  iface->list_label_values_finish = pyroscope_list_label_values_finish;
  iface->list_series = pyroscope_list_series;
  iface->list_series_finish = pyroscope_list_series_finish;
  iface->select_series = pyroscope_select_series;
  iface->select_series_finish = pyroscope_select_series_finish;
  iface->select_exemplars = pyroscope_select_exemplars;
  iface->select_exemplars_finish = pyroscope_select_exemplars_finish;
  iface->select_call_site_series = pyroscope_select_call_site_series;
  iface->select_call_site_series_finish = pyroscope_select_series_finish;
  iface->merge_profile = pyroscope_merge_profile;
  iface->merge_profile_finish = pyroscope_merge_profile_finish;
  iface->merge_call_site = pyroscope_merge_call_site;
  iface->merge_call_site_finish = pyroscope_merge_call_site_finish;
  iface->diff = pyroscope_diff;
  iface->diff_finish = pyroscope_diff_finish;
  iface->list_recording_rules = pyroscope_list_recording_rules;
  iface->list_recording_rules_finish = pyroscope_list_recording_rules_finish;
  iface->get_recording_rule = pyroscope_get_recording_rule;
  iface->get_recording_rule_finish = pyroscope_rule_finish;
  iface->upsert_recording_rule = pyroscope_upsert_recording_rule;
  iface->upsert_recording_rule_finish = pyroscope_rule_finish;
  iface->delete_recording_rule = pyroscope_delete_recording_rule;
  iface->delete_recording_rule_finish = pyroscope_delete_recording_rule_finish;
  iface->dup_unavailable_reason = pyroscope_dup_unavailable_reason;
  iface->dup_tenant = pyroscope_dup_tenant;
  iface->dup_location = pyroscope_dup_location;
}

/* ---- SelectMergeProfile (pprof) ----------------------------------------- */

static void
fetch_pprof (EmbersPyroscopeSource *self,
             const EmbersQuery     *query,
             const char * const    *call_site,
             gpointer               source_tag,
             DecodeFunc             decode,
             GDestroyNotify         result_free,
             GCancellable          *cancellable,
             GAsyncReadyCallback    callback,
             gpointer               user_data)
{
  Querier__V1__SelectMergeProfileRequest req = QUERIER__V1__SELECT_MERGE_PROFILE_REQUEST__INIT;
  g_auto(CallSiteSelector) site = { 0 };
  GTask *task = new_task (self, source_tag, cancellable, callback, user_data);
  RpcData *rpc = rpc_data_new (EMBERS_SOURCE_CAN_MERGE, EMBERS_PYROSCOPE_QUERIER_SERVICE,
                               "SelectMergeProfile", &google__v1__profile__descriptor,
                               decode, result_free);
  GError *error = NULL;

  rpc->raw = TRUE;

  if (!check_query (query, rpc, &error))
    {
      rpc_data_free (rpc);
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  req.profile_typeid = query->profile_type;
  req.label_selector = (char *) selector_of (query);
  req.has_start = req.has_end = TRUE;
  req.start = query->start_ms;
  req.end = query->end_ms;
  /* max_nodes is not applied to pprof unless asked for */
  if (query->max_nodes > 0)
    {
      req.has_max_nodes = TRUE;
      req.max_nodes = query->max_nodes;
    }
  /* Only these individual profiles (field 7) */
  req.n_profile_id_selector = query->profile_ids != NULL ? g_strv_length (query->profile_ids) : 0;
  req.profile_id_selector = query->profile_ids;
  /* Only the stacks through a call site (root first), as SelectSeries */
  req.stack_trace_selector = call_site_selector_init (&site, call_site);

  start_rpc (self, task, rpc, &req.base, EMBERS_CONNECT_CALL_NONE);
}

void
embers_pyroscope_source_fetch_pprof_async (EmbersPyroscopeSource *self,
                                           const EmbersQuery     *query,
                                           GCancellable          *cancellable,
                                           GAsyncReadyCallback    callback,
                                           gpointer               user_data)
{
  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self));

  fetch_pprof (self, query, NULL, embers_pyroscope_source_fetch_pprof_async,
               decode_pprof_bytes, (GDestroyNotify) g_bytes_unref,
               cancellable, callback, user_data);
}

GBytes *
embers_pyroscope_source_fetch_pprof_finish (EmbersPyroscopeSource  *self,
                                            GAsyncResult           *result,
                                            GError                **error)
{
  return propagate (EMBERS_SOURCE (self), result, embers_pyroscope_source_fetch_pprof_async, error);
}

void
embers_pyroscope_source_merge_pprof_async (EmbersPyroscopeSource *self,
                                           const EmbersQuery     *query,
                                           GCancellable          *cancellable,
                                           GAsyncReadyCallback    callback,
                                           gpointer               user_data)
{
  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self));

  fetch_pprof (self, query, NULL, embers_pyroscope_source_merge_pprof_async,
               decode_pprof_profile, g_object_unref,
               cancellable, callback, user_data);
}

/**
 * embers_pyroscope_source_fetch_call_site_pprof_async:
 * @call_site: the frames of a call site, root first
 *
 * SelectMergeProfile of the stacks through one call site (a
 * stack_trace_selector), as uncompressed pprof bytes: unlike a flame
 * graph, pprof keeps each frame's file and line. Finish with
 * embers_pyroscope_source_fetch_pprof_finish().
 */
void
embers_pyroscope_source_fetch_call_site_pprof_async (EmbersPyroscopeSource *self,
                                                     const EmbersQuery     *query,
                                                     const char * const    *call_site,
                                                     GCancellable          *cancellable,
                                                     GAsyncReadyCallback    callback,
                                                     gpointer               user_data)
{
  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self));
  g_return_if_fail (call_site != NULL && call_site[0] != NULL);

  fetch_pprof (self, query, call_site, embers_pyroscope_source_fetch_pprof_async,
               decode_pprof_bytes, (GDestroyNotify) g_bytes_unref,
               cancellable, callback, user_data);
}

EmbersProfile *
embers_pyroscope_source_merge_pprof_finish (EmbersPyroscopeSource  *self,
                                            GAsyncResult           *result,
                                            GError                **error)
{
  return propagate (EMBERS_SOURCE (self), result, embers_pyroscope_source_merge_pprof_async, error);
}

/* ---- span and trace profiles ----------------------------------------------- */

/*
 * Traces to profiles: Pyroscope keeps the span_id and trace_id pprof
 * sample labels (and profile_id, renamed span_id) with each sample rather
 * than as series labels (pkg/model/pprofsplit/pprof_split.go), and merges
 * the samples of given spans with SelectMergeSpanProfile (span ids: 16
 * hexadecimal characters, pkg/model/profile.go NewSpanSelector) or, on
 * the v2 query backend, of given traces with SelectMergeStacktraces'
 * trace_id_selector (32 hexadecimal characters, DecodeTraceID).
 */

gboolean
embers_pyroscope_check_span_id (const char  *id,
                                gboolean     trace,
                                GError     **error)
{
  gsize want = trace ? 32 : 16;
  gsize len = id != NULL ? strlen (id) : 0;
  gboolean hex = len == want;

  for (gsize i = 0; hex && i < len; i++)
    hex = g_ascii_isxdigit (id[i]);
  if (hex)
    return TRUE;

  if (trace)
    g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                 _("“%s” is not a trace id: a trace id is 32 hexadecimal characters"), id ? id : "");
  else
    g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                 _("“%s” is not a span id: a span id is 16 hexadecimal characters"), id ? id : "");
  return FALSE;
}

static gboolean
check_ids (const char * const  *ids,
           gboolean             trace,
           GError             **error)
{
  if (ids == NULL || ids[0] == NULL)
    {
      g_set_error_literal (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                           trace ? _("No trace id was given") : _("No span id was given"));
      return FALSE;
    }
  for (guint i = 0; ids[i] != NULL; i++)
    if (!embers_pyroscope_check_span_id (ids[i], trace, error))
      return FALSE;
  return TRUE;
}

static gpointer
decode_span_merge (RpcData                *rpc,
                   const ProtobufCMessage *message,
                   GError                **error)
{
  const Querier__V1__SelectMergeSpanProfileResponse *r =
    (const Querier__V1__SelectMergeSpanProfileResponse *) message;

  if (r->flamegraph == NULL)
    return no_flame_graph ("SelectMergeSpanProfile", error);

  return profile_from_levels (r->flamegraph->names, r->flamegraph->n_names,
                              r->flamegraph->levels, r->flamegraph->n_levels,
                              FALSE, rpc->sample_type, rpc->sample_unit, error);
}

static void
fail_task (GTask   *task,
           RpcData *rpc,
           GError  *error)
{
  rpc_data_free (rpc);
  g_task_return_error (task, error);
  g_object_unref (task);
}

/**
 * embers_pyroscope_source_merge_span_profile_async:
 * @query: profile type, label selector, time range and max nodes
 * @span_ids: the spans, 16 hexadecimal characters each
 *
 * The merged profile of the samples recorded in these spans
 * (SelectMergeSpanProfile), as a flame graph.
 */
void
embers_pyroscope_source_merge_span_profile_async (EmbersPyroscopeSource *self,
                                                  const EmbersQuery     *query,
                                                  const char * const    *span_ids,
                                                  GCancellable          *cancellable,
                                                  GAsyncReadyCallback    callback,
                                                  gpointer               user_data)
{
  Querier__V1__SelectMergeSpanProfileRequest req = QUERIER__V1__SELECT_MERGE_SPAN_PROFILE_REQUEST__INIT;
  GTask *task;
  RpcData *rpc;
  GError *error = NULL;

  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self));

  task = new_task (self, embers_pyroscope_source_merge_span_profile_async, cancellable, callback, user_data);
  rpc = rpc_data_new (EMBERS_SOURCE_CAN_MERGE, EMBERS_PYROSCOPE_QUERIER_SERVICE, "SelectMergeSpanProfile",
                      &querier__v1__select_merge_span_profile_response__descriptor,
                      decode_span_merge, g_object_unref);
  if (!check_query (query, rpc, &error) || !check_ids (span_ids, FALSE, &error))
    {
      fail_task (task, rpc, error);
      return;
    }

  req.profile_typeid = query->profile_type;
  req.label_selector = (char *) selector_of (query);
  req.n_span_selector = g_strv_length ((char **) span_ids);
  req.span_selector = (char **) span_ids;
  req.has_start = req.has_end = TRUE;
  req.start = query->start_ms;
  req.end = query->end_ms;
  req.has_max_nodes = TRUE;
  req.max_nodes = query->max_nodes > 0 ? query->max_nodes : self->max_nodes;
  start_rpc (self, task, rpc, &req.base, EMBERS_CONNECT_CALL_NONE);
}

EmbersProfile *
embers_pyroscope_source_merge_span_profile_finish (EmbersPyroscopeSource  *self,
                                                   GAsyncResult           *result,
                                                   GError                **error)
{
  return propagate (EMBERS_SOURCE (self), result, embers_pyroscope_source_merge_span_profile_async, error);
}

/**
 * embers_pyroscope_source_merge_trace_profile_async:
 * @trace_ids: the traces, 32 hexadecimal characters each
 *
 * The merged profile of the samples recorded in these traces
 * (SelectMergeStacktraces with trace_id_selector, Pyroscope's v2 query
 * backend; older servers ignore the selector or refuse it).
 */
void
embers_pyroscope_source_merge_trace_profile_async (EmbersPyroscopeSource *self,
                                                   const EmbersQuery     *query,
                                                   const char * const    *trace_ids,
                                                   GCancellable          *cancellable,
                                                   GAsyncReadyCallback    callback,
                                                   gpointer               user_data)
{
  Querier__V1__SelectMergeStacktracesRequest req = QUERIER__V1__SELECT_MERGE_STACKTRACES_REQUEST__INIT;
  GTask *task;
  RpcData *rpc;
  GError *error = NULL;

  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self));

  task = new_task (self, embers_pyroscope_source_merge_trace_profile_async, cancellable, callback, user_data);
  rpc = rpc_data_new (EMBERS_SOURCE_CAN_MERGE, EMBERS_PYROSCOPE_QUERIER_SERVICE, "SelectMergeStacktraces",
                      &querier__v1__select_merge_stacktraces_response__descriptor,
                      decode_merge, g_object_unref);
  if (!check_query (query, rpc, &error) || !check_ids (trace_ids, TRUE, &error))
    {
      fail_task (task, rpc, error);
      return;
    }

  fill_merge_request (self, query, &req);
  req.n_trace_id_selector = g_strv_length ((char **) trace_ids);
  req.trace_id_selector = (char **) trace_ids;
  start_rpc (self, task, rpc, &req.base, EMBERS_CONNECT_CALL_NONE);
}

EmbersProfile *
embers_pyroscope_source_merge_trace_profile_finish (EmbersPyroscopeSource  *self,
                                                    GAsyncResult           *result,
                                                    GError                **error)
{
  return propagate (EMBERS_SOURCE (self), result, embers_pyroscope_source_merge_trace_profile_async, error);
}

/* ---- probe --------------------------------------------------------------- */

static void
on_probe_rules (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  EmbersPyroscopeSource *self = g_task_get_source_object (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = embers_connect_client_call_finish (EMBERS_CONNECT_CLIENT (object), result, &error);
  if (bytes != NULL)
    mark_available (self, EMBERS_SOURCE_CAN_RECORDING_RULES);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  else
    embers_pyroscope_source_mark_unavailable (self, EMBERS_SOURCE_CAN_RECORDING_RULES, error->message);

  g_task_return_boolean (task, TRUE);
}

static void
on_probe_labels (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  EmbersPyroscopeSource *self = g_task_get_source_object (task);
  Settings__V1__ListRecordingRulesRequest req = SETTINGS__V1__LIST_RECORDING_RULES_REQUEST__INIT;
  g_autoptr(GBytes) bytes = NULL;
  GError *error = NULL;

  bytes = embers_connect_client_call_finish (EMBERS_CONNECT_CLIENT (object), result, &error);
  if (bytes == NULL)
    {
      if (g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_UNIMPLEMENTED))
        embers_pyroscope_source_mark_unavailable (self, EMBERS_SOURCE_CAN_LABELS, error->message);
      g_task_return_error (task, error);
      return;
    }

  embers_connect_client_call_async (self->client, EMBERS_PYROSCOPE_RULES_SERVICE, "ListRecordingRules",
                                    &req.base, &settings__v1__list_recording_rules_response__descriptor,
                                    EMBERS_CONNECT_CALL_NONE, g_task_get_cancellable (task),
                                    on_probe_rules, g_object_ref (task));
}

void
embers_pyroscope_source_probe_async (EmbersPyroscopeSource *self,
                                     GCancellable          *cancellable,
                                     GAsyncReadyCallback    callback,
                                     gpointer               user_data)
{
  Types__V1__LabelNamesRequest req = TYPES__V1__LABEL_NAMES_REQUEST__INIT;
  g_autoptr(GTask) task = NULL;
  gint64 now_ms = g_get_real_time () / 1000;

  g_return_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self));

  task = new_task (self, embers_pyroscope_source_probe_async, cancellable, callback, user_data);

  req.has_start = req.has_end = TRUE;
  req.start = now_ms - 3600 * 1000;
  req.end = now_ms;

  embers_connect_client_call_async (self->client, EMBERS_PYROSCOPE_QUERIER_SERVICE, "LabelNames",
                                    &req.base, &types__v1__label_names_response__descriptor,
                                    EMBERS_CONNECT_CALL_UTF8_LABEL_NAMES, cancellable,
                                    on_probe_labels, g_steal_pointer (&task));
}

gboolean
embers_pyroscope_source_probe_finish (EmbersPyroscopeSource  *self,
                                      GAsyncResult           *result,
                                      GError                **error)
{
  g_return_val_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
