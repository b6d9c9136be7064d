/* ets-querier.c: querier.v1.QuerierService for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ets-server.h"

#include <string.h>

#include "querier.pb-c.h"
#include "types.pb-c.h"

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
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

const EtsMethod ets_querier_methods[] = {
  { "querier.v1.QuerierService", "ProfileTypes", &types__v1__profile_types_request__descriptor, profile_types },
  { NULL }
};
