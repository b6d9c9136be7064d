/* embers-connect-client.h: Connect unary calls over libsoup 3
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * POST <base>/<pkg>.<Service>/<Method> with application/proto (or
 * application/json for debugging), gzip both ways, an opaque base URL
 * prefix, X-Scope-OrgID, Basic or Bearer auth, a request deadline and a
 * response size cap. Errors land in EMBERS_SOURCE_ERROR by Connect code,
 * worded for people; cancellation is G_IO_ERROR_CANCELLED.
 *
 * A client belongs to the thread (main context) it was created in.
 */

#pragma once

#include <gio/gio.h>
#include <protobuf-c/protobuf-c.h>

#include "embers-source.h"

G_BEGIN_DECLS

typedef enum
{
  EMBERS_CONNECT_ENCODING_PROTO,  /* application/proto */
  EMBERS_CONNECT_ENCODING_JSON,   /* application/json (protojson) */
} EmbersConnectEncoding;

typedef enum
{
  EMBERS_CONNECT_CALL_NONE             = 0,
  /* Sends Accept: *\/\*;allow-utf8-labelnames=true (label RPCs only) */
  EMBERS_CONNECT_CALL_UTF8_LABEL_NAMES = 1 << 0,
} EmbersConnectCallFlags;

#define EMBERS_CONNECT_DEFAULT_TIMEOUT_S          60
#define EMBERS_CONNECT_DEFAULT_MAX_RESPONSE_SIZE  ((gsize) 512 * 1024 * 1024)
#define EMBERS_CONNECT_GZIP_THRESHOLD             1024

#define EMBERS_TYPE_CONNECT_CLIENT (embers_connect_client_get_type ())

G_DECLARE_FINAL_TYPE (EmbersConnectClient, embers_connect_client, EMBERS, CONNECT_CLIENT, GObject)

/* http(s)://host[:port][/prefix]. A user:password in the URL becomes Basic
 * auth and is removed from the base URL. Fails with INVALID_ARGUMENT. */
EmbersConnectClient  *embers_connect_client_new              (const char             *base_url,
                                                              GError                **error);

/* scheme://host[:port][/prefix] without trailing slash, credentials,
 * query or fragment; NULL with INVALID_ARGUMENT if it is not http(s). */
char                 *embers_connect_normalize_base_url      (const char             *url,
                                                              GError                **error);

/* Normalised: scheme://host[:port][/prefix], no trailing slash, no
 * credentials, query or fragment. */
const char           *embers_connect_client_get_base_url     (EmbersConnectClient    *self);
/* host[:port][/prefix], for titles */
char                 *embers_connect_client_dup_display_name (EmbersConnectClient    *self);

void                  embers_connect_client_set_encoding     (EmbersConnectClient    *self,
                                                              EmbersConnectEncoding   encoding);
EmbersConnectEncoding embers_connect_client_get_encoding     (EmbersConnectClient    *self);
/* X-Scope-OrgID; NULL or "" for none */
void                  embers_connect_client_set_tenant       (EmbersConnectClient    *self,
                                                              const char             *tenant);
const char           *embers_connect_client_get_tenant       (EmbersConnectClient    *self);
/* Basic wins over Bearer when both are set. NULL clears. */
void                  embers_connect_client_set_basic_auth   (EmbersConnectClient    *self,
                                                              const char             *user,
                                                              const char             *password);
void                  embers_connect_client_set_bearer_token (EmbersConnectClient    *self,
                                                              const char             *token);
gboolean              embers_connect_client_has_auth         (EmbersConnectClient    *self);
/* Whole-request deadline in seconds (0 = none); also the socket timeout */
void                  embers_connect_client_set_timeout      (EmbersConnectClient    *self,
                                                              guint                   seconds);
guint                 embers_connect_client_get_timeout      (EmbersConnectClient    *self);
/* What raises the timeout, named in the deadline error ("the server's
 * Timeout in Connect to Server", "--timeout=SECONDS or EMBERS_TIMEOUT") */
void                  embers_connect_client_set_timeout_setting (EmbersConnectClient *self,
                                                              const char             *setting);
/* Same as set_timeout, in ms, for tests */
void                  embers_connect_client_set_timeout_ms   (EmbersConnectClient    *self,
                                                              guint                   ms);
void                  embers_connect_client_set_max_response_size (EmbersConnectClient *self,
                                                              gsize                   max_size);

/* Calls service/method ("querier.v1.QuerierService", "LabelNames").
 * The result is the response in protobuf wire format (converted from JSON
 * in JSON mode), to unpack with response_type. */
void                  embers_connect_client_call_async       (EmbersConnectClient              *self,
                                                              const char                       *service,
                                                              const char                       *method,
                                                              const ProtobufCMessage           *request,
                                                              const ProtobufCMessageDescriptor *response_type,
                                                              EmbersConnectCallFlags            flags,
                                                              GCancellable                     *cancellable,
                                                              GAsyncReadyCallback               callback,
                                                              gpointer                          user_data);
GBytes               *embers_connect_client_call_finish      (EmbersConnectClient    *self,
                                                              GAsyncResult           *result,
                                                              GError                **error);

/* protobuf_c_message_unpack with a PROTOCOL error naming what was read.
 * Free with protobuf_c_message_free_unpacked (msg, NULL). */
ProtobufCMessage     *embers_connect_unpack                  (const ProtobufCMessageDescriptor *descriptor,
                                                              GBytes                           *bytes,
                                                              const char                       *what,
                                                              GError                          **error);

/* Exposed for tests. */
EmbersSourceError     embers_connect_code_from_string        (const char             *code);
const char           *embers_connect_code_to_string          (EmbersSourceError       code);
/* The error for a non-2xx answer. */
GError               *embers_connect_error_from_response     (guint                   status,
                                                              const char             *reason,
                                                              const char             *content_type,
                                                              const guint8           *body,
                                                              gsize                   len,
                                                              const char             *service,
                                                              const char             *method,
                                                              gboolean                have_auth,
                                                              gboolean                have_tenant);
/* Inflates a gzip answer, at most limit bytes; with check, refuses it as
 * soon as its first bytes cannot begin an answer (JSON: an object; proto:
 * a valid key), so a bomb of zeros stops at once; an unfinished stream (a
 * cut) is an error too. host names the server in messages. */
GBytes               *embers_connect_inflate_answer          (const guint8           *data,
                                                              gsize                   len,
                                                              gsize                   limit,
                                                              gboolean                json,
                                                              gboolean                check,
                                                              const char             *host,
                                                              GError                **error);
/* The error for a transport failure (DNS, refused, reset, TLS, timeout). */
GError               *embers_connect_error_from_transport    (const GError           *error,
                                                              const char             *host);

G_END_DECLS
