/* embers-recording-rules.h: settings.v1.RecordingRulesService client
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-connect-client.h"
#include "embers-recording-rule.h"

G_BEGIN_DECLS

/*
 * List, Get, Upsert and Delete recording rules over Connect. A server
 * without the service (404: rules disabled, or an older Pyroscope) fails
 * with EMBERS_SOURCE_ERROR_UNIMPLEMENTED and a message naming the server
 * flag that enables them; a stale generation with ALREADY_EXISTS.
 */

/* Returns (transfer full) (element-type EmbersRecordingRule) */
void       embers_recording_rules_list_async    (EmbersConnectClient       *client,
                                                 GCancellable              *cancellable,
                                                 GAsyncReadyCallback        callback,
                                                 gpointer                   user_data);
GPtrArray *embers_recording_rules_list_finish   (GAsyncResult              *result,
                                                 GError                   **error);

void       embers_recording_rules_get_async     (EmbersConnectClient       *client,
                                                 const char                *id,
                                                 GCancellable              *cancellable,
                                                 GAsyncReadyCallback        callback,
                                                 gpointer                   user_data);
EmbersRecordingRule *embers_recording_rules_get_finish (GAsyncResult       *result,
                                                        GError            **error);

/* Creates (empty id) or updates (with the rule's current generation) */
void       embers_recording_rules_upsert_async  (EmbersConnectClient       *client,
                                                 const EmbersRecordingRule *rule,
                                                 GCancellable              *cancellable,
                                                 GAsyncReadyCallback        callback,
                                                 gpointer                   user_data);
EmbersRecordingRule *embers_recording_rules_upsert_finish (GAsyncResult    *result,
                                                           GError         **error);

void       embers_recording_rules_delete_async  (EmbersConnectClient       *client,
                                                 const char                *id,
                                                 GCancellable              *cancellable,
                                                 GAsyncReadyCallback        callback,
                                                 gpointer                   user_data);
gboolean   embers_recording_rules_delete_finish (GAsyncResult              *result,
                                                 GError                   **error);

G_END_DECLS
