/* ets-connect.h: Connect unary framing for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <libsoup/soup.h>
#include <protobuf-c/protobuf-c.h>

G_BEGIN_DECLS

#define ETS_ERROR (ets_error_quark ())
GQuark ets_error_quark (void);

/* Connect's codes, numbered as gRPC's */
typedef enum
{
  ETS_CODE_CANCELED = 1,
  ETS_CODE_UNKNOWN = 2,
  ETS_CODE_INVALID_ARGUMENT = 3,
  ETS_CODE_DEADLINE_EXCEEDED = 4,
  ETS_CODE_NOT_FOUND = 5,
  ETS_CODE_ALREADY_EXISTS = 6,
  ETS_CODE_PERMISSION_DENIED = 7,
  ETS_CODE_RESOURCE_EXHAUSTED = 8,
  ETS_CODE_FAILED_PRECONDITION = 9,
  ETS_CODE_ABORTED = 10,
  ETS_CODE_OUT_OF_RANGE = 11,
  ETS_CODE_UNIMPLEMENTED = 12,
  ETS_CODE_INTERNAL = 13,
  ETS_CODE_UNAVAILABLE = 14,
  ETS_CODE_DATA_LOSS = 15,
  ETS_CODE_UNAUTHENTICATED = 16,
} EtsCode;

const char *ets_code_to_string   (EtsCode     code);
gboolean    ets_code_from_string (const char *name,
                                  EtsCode    *code);
/* connect-go's current mapping (canceled 499, unimplemented 501, ...) */
guint       ets_code_http_status (EtsCode     code);

/* One RPC in progress. Handlers allocate their response (and everything it
 * points to) with ets_call_alloc/ets_call_strdup: it is all freed after the
 * response is written. */
typedef struct _EtsServer EtsServer;

typedef struct
{
  EtsServer         *server;
  SoupServerMessage *msg;
  char              *tenant;       /* "anonymous" without multi-tenancy */
  gboolean           json;
  GPtrArray         *arena;
  GPtrArray         *messages;     /* unpacked messages freed after the call */
  /* A handler may answer with raw protobuf bytes of raw_descriptor
   * instead of a message (SelectMergeProfile's bare pprof) */
  GBytes            *raw_response;
  const ProtobufCMessageDescriptor *raw_descriptor;
} EtsCall;

gpointer ets_call_alloc   (EtsCall    *call,
                           gsize       size);
char    *ets_call_strdup  (EtsCall    *call,
                           const char *str);
/* message (from protobuf_c_message_unpack) is freed after the call */
gpointer ets_call_take_message (EtsCall          *call,
                                ProtobufCMessage *message);
/* An array of n pointers/elements, zeroed */
#define ets_call_new(call, Type, n) ((Type *) ets_call_alloc ((call), sizeof (Type) * MAX ((gsize) (n), 1)))

typedef ProtobufCMessage *(*EtsHandler) (EtsCall                *call,
                                         const ProtobufCMessage *request,
                                         GError                **error);

typedef struct
{
  const char                       *service;   /* "querier.v1.QuerierService" */
  const char                       *method;    /* "ProfileTypes" */
  const ProtobufCMessageDescriptor *input;
  EtsHandler                        handler;
} EtsMethod;

/* Error body {"code":..., "message":...} with the mapped status */
void     ets_respond_error   (SoupServerMessage *msg,
                              EtsCode            code,
                              const char        *message);
void     ets_respond_gerror  (SoupServerMessage *msg,
                              const GError      *error);
/* Plain text body */
void     ets_respond_text    (SoupServerMessage *msg,
                              guint              status,
                              const char        *text);

/* Request body, gunzipped if Content-Encoding says gzip; NULL with an
 * ETS_ERROR when the body cannot be read */
GBytes  *ets_read_body       (SoupServerMessage *msg,
                              GError           **error);
/* gzip / gunzip with a size limit */
GBytes  *ets_gzip            (GBytes            *data);
GBytes  *ets_gunzip          (const guint8      *data,
                              gsize              len,
                              gsize              limit,
                              GError           **error);
gboolean ets_is_gzip         (const guint8      *data,
                              gsize              len);

/* Runs a Connect unary call: checks the content type (415), decodes the
 * body (proto or JSON, gzip), calls the handler, encodes the answer
 * (gzip when accepted) or the error. The tenant has been checked. */
void     ets_connect_dispatch (EtsServer         *server,
                               const EtsMethod   *method,
                               SoupServerMessage *msg,
                               const char        *tenant);

G_END_DECLS
