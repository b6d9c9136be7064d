/* ets-connect.c: Connect unary framing for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ets-connect.h"

#include <string.h>

#include <json-glib/json-glib.h>
#include <zlib.h>

#include "ets-protojson.h"

#define MAX_BODY (64u * 1024u * 1024u)

G_DEFINE_QUARK (ets-error-quark, ets_error)

static const char * const code_names[] = {
  [ETS_CODE_CANCELED] = "canceled",
  [ETS_CODE_UNKNOWN] = "unknown",
  [ETS_CODE_INVALID_ARGUMENT] = "invalid_argument",
  [ETS_CODE_DEADLINE_EXCEEDED] = "deadline_exceeded",
  [ETS_CODE_NOT_FOUND] = "not_found",
  [ETS_CODE_ALREADY_EXISTS] = "already_exists",
  [ETS_CODE_PERMISSION_DENIED] = "permission_denied",
  [ETS_CODE_RESOURCE_EXHAUSTED] = "resource_exhausted",
  [ETS_CODE_FAILED_PRECONDITION] = "failed_precondition",
  [ETS_CODE_ABORTED] = "aborted",
  [ETS_CODE_OUT_OF_RANGE] = "out_of_range",
  [ETS_CODE_UNIMPLEMENTED] = "unimplemented",
  [ETS_CODE_INTERNAL] = "internal",
  [ETS_CODE_UNAVAILABLE] = "unavailable",
  [ETS_CODE_DATA_LOSS] = "data_loss",
  [ETS_CODE_UNAUTHENTICATED] = "unauthenticated",
};

const char *
ets_code_to_string (EtsCode code)
{
  if (code >= ETS_CODE_CANCELED && code <= ETS_CODE_UNAUTHENTICATED)
    return code_names[code];
  return "unknown";
}

gboolean
ets_code_from_string (const char *name,
                      EtsCode    *code)
{
  for (guint i = ETS_CODE_CANCELED; i <= ETS_CODE_UNAUTHENTICATED; i++)
    if (g_ascii_strcasecmp (name, code_names[i]) == 0)
      {
        *code = i;
        return TRUE;
      }
  return FALSE;
}

guint
ets_code_http_status (EtsCode code)
{
  switch (code)
    {
    case ETS_CODE_CANCELED:
      return 499;
    case ETS_CODE_INVALID_ARGUMENT:
    case ETS_CODE_FAILED_PRECONDITION:
    case ETS_CODE_OUT_OF_RANGE:
      return 400;
    case ETS_CODE_DEADLINE_EXCEEDED:
      return 504;
    case ETS_CODE_NOT_FOUND:
      return 404;
    case ETS_CODE_ALREADY_EXISTS:
    case ETS_CODE_ABORTED:
      return 409;
    case ETS_CODE_PERMISSION_DENIED:
      return 403;
    case ETS_CODE_RESOURCE_EXHAUSTED:
      return 429;
    case ETS_CODE_UNIMPLEMENTED:
      return 501;
    case ETS_CODE_UNAVAILABLE:
      return 503;
    case ETS_CODE_UNAUTHENTICATED:
      return 401;
    case ETS_CODE_UNKNOWN:
    case ETS_CODE_INTERNAL:
    case ETS_CODE_DATA_LOSS:
    default:
      return 500;
    }
}

gpointer
ets_call_alloc (EtsCall *call,
                gsize    size)
{
  gpointer p = g_malloc0 (size);

  g_ptr_array_add (call->arena, p);
  return p;
}

gpointer
ets_call_take_message (EtsCall          *call,
                       ProtobufCMessage *message)
{
  g_ptr_array_add (call->messages, message);
  return message;
}

static void
free_unpacked (gpointer message)
{
  protobuf_c_message_free_unpacked (message, NULL);
}

char *
ets_call_strdup (EtsCall    *call,
                 const char *str)
{
  char *p = g_strdup (str);

  g_ptr_array_add (call->arena, p);
  return p;
}

void
ets_respond_error (SoupServerMessage *msg,
                   EtsCode            code,
                   const char        *message)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *valid = message != NULL ? g_utf8_make_valid (message, -1) : NULL;
  gsize len = 0;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_string_value (builder, ets_code_to_string (code));
  if (valid != NULL && valid[0] != '\0')
    {
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, valid);
    }
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, &len);

  soup_server_message_set_status (msg, ets_code_http_status (code), NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, text, len);
}

void
ets_respond_gerror (SoupServerMessage *msg,
                    const GError      *error)
{
  EtsCode code = ETS_CODE_INTERNAL;

  if (error->domain == ETS_ERROR)
    code = error->code;
  else if (error->domain == G_IO_ERROR && error->code == G_IO_ERROR_INVALID_DATA)
    code = ETS_CODE_INVALID_ARGUMENT;
  ets_respond_error (msg, code, error->message);
}

void
ets_respond_text (SoupServerMessage *msg,
                  guint              status,
                  const char        *text)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "text/plain; charset=utf-8", SOUP_MEMORY_COPY,
                                    text, strlen (text));
}

gboolean
ets_is_gzip (const guint8 *data,
             gsize         len)
{
  return len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

GBytes *
ets_gunzip (const guint8 *data,
            gsize         len,
            gsize         limit,
            GError      **error)
{
  z_stream z = { 0 };
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint8 buf[64 * 1024];
  int rc;

  if (inflateInit2 (&z, 16 + MAX_WBITS) != Z_OK)
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_INTERNAL, "zlib: cannot initialize");
      return NULL;
    }
  z.next_in = (Bytef *) data;
  z.avail_in = len;
  do
    {
      z.next_out = buf;
      z.avail_out = sizeof buf;
      rc = inflate (&z, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END)
        {
          inflateEnd (&z);
          g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                       "gzip: invalid compressed data (%s)", z.msg != NULL ? z.msg : "truncated");
          return NULL;
        }
      g_byte_array_append (out, buf, sizeof buf - z.avail_out);
      if (out->len > limit)
        {
          inflateEnd (&z);
          g_set_error (error, ETS_ERROR, ETS_CODE_RESOURCE_EXHAUSTED,
                       "gzip: body larger than %" G_GSIZE_FORMAT " bytes once decompressed", limit);
          return NULL;
        }
      if (rc != Z_STREAM_END && z.avail_in == 0 && z.avail_out != 0)
        {
          inflateEnd (&z);
          g_set_error_literal (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                               "gzip: unexpected end of compressed data");
          return NULL;
        }
    }
  while (rc != Z_STREAM_END);
  inflateEnd (&z);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

GBytes *
ets_gzip (GBytes *data)
{
  z_stream z = { 0 };
  gsize len = 0;
  const guint8 *in = g_bytes_get_data (data, &len);
  gsize cap = compressBound (len) + 32;
  guint8 *out = g_malloc (cap);

  if (deflateInit2 (&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                    Z_DEFAULT_STRATEGY) != Z_OK)
    g_error ("zlib: cannot initialize");
  z.next_in = (Bytef *) in;
  z.avail_in = len;
  z.next_out = out;
  z.avail_out = cap;
  if (deflate (&z, Z_FINISH) != Z_STREAM_END)
    g_error ("zlib: deflate did not finish");
  deflateEnd (&z);
  return g_bytes_new_take (out, z.total_out);
}

GBytes *
ets_read_body (SoupServerMessage *msg,
               GError           **error)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *encoding = soup_message_headers_get_one (headers, "Content-Encoding");
  g_autoptr(GBytes) raw = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (raw, &len);

  if (encoding == NULL || encoding[0] == '\0' || g_ascii_strcasecmp (encoding, "identity") == 0)
    return g_steal_pointer (&raw);
  if (g_ascii_strcasecmp (encoding, "gzip") == 0)
    return ets_gunzip (data, len, MAX_BODY, error);

  g_set_error (error, ETS_ERROR, ETS_CODE_UNIMPLEMENTED,
               "unknown compression \"%s\": supported encodings are gzip", encoding);
  return NULL;
}

static gboolean
accepts_gzip (SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *accept = soup_message_headers_get_list (headers, "Accept-Encoding");
  g_auto(GStrv) parts = NULL;

  if (accept == NULL)
    return FALSE;
  parts = g_strsplit (accept, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *token = g_strstrip (g_strdup (parts[i]));
      char *semi = strchr (token, ';');

      if (semi != NULL)
        {
          if (strstr (semi, "q=0") != NULL && strstr (semi, "q=0.") == NULL)
            continue;
          *semi = '\0';
          g_strstrip (token);
        }
      if (g_ascii_strcasecmp (token, "gzip") == 0)
        return TRUE;
    }
  return FALSE;
}

/* "application/json", "application/json; charset=utf-8" -> json;
 * "application/proto" -> proto; else 415 */
static gboolean
codec_for (SoupServerMessage *msg,
           gboolean          *json)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  g_autoptr(GHashTable) params = NULL;
  const char *type = soup_message_headers_get_content_type (headers, &params);
  const char *charset;

  if (type == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (type, "application/proto") == 0 && g_hash_table_size (params) == 0)
    {
      *json = FALSE;
      return TRUE;
    }
  if (g_ascii_strcasecmp (type, "application/json") != 0)
    return FALSE;
  charset = g_hash_table_lookup (params, "charset");
  if (g_hash_table_size (params) > (charset != NULL ? 1u : 0u))
    return FALSE;
  if (charset != NULL && g_ascii_strcasecmp (charset, "utf-8") != 0)
    return FALSE;
  *json = TRUE;
  return TRUE;
}

void
ets_connect_dispatch (EtsServer         *server,
                      const EtsMethod   *method,
                      SoupServerMessage *msg,
                      const char        *tenant)
{
  SoupMessageHeaders *response_headers = soup_server_message_get_response_headers (msg);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GBytes) wire = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GPtrArray) arena = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (free_unpacked);
  ProtobufCMessage *request = NULL;
  ProtobufCMessage *response = NULL;
  EtsCall call = { 0 };
  gboolean json = FALSE;
  gsize len = 0;
  const guint8 *data;

  if (!codec_for (msg, &json))
    {
      /* connect-go: 415 with the accepted types, no body */
      soup_message_headers_replace (response_headers, "Accept-Post",
                                    "application/json, application/proto");
      soup_server_message_set_status (msg, SOUP_STATUS_UNSUPPORTED_MEDIA_TYPE, NULL);
      return;
    }

  body = ets_read_body (msg, &error);
  if (body == NULL)
    {
      ets_respond_gerror (msg, error);
      return;
    }

  data = g_bytes_get_data (body, &len);
  if (json)
    {
      wire = ets_protojson_to_wire (method->input, (const char *) data, len, &error);
      if (wire == NULL)
        {
          g_autofree char *text = g_strdup_printf ("unmarshal into %s: %s",
                                                   method->input->name, error->message);
          ets_respond_error (msg, ETS_CODE_INVALID_ARGUMENT, text);
          return;
        }
      data = g_bytes_get_data (wire, &len);
    }
  request = protobuf_c_message_unpack (method->input, NULL, len, data);
  if (request == NULL)
    {
      g_autofree char *text = g_strdup_printf ("unmarshal into %s: proto: cannot parse invalid wire-format data",
                                               method->input->name);
      ets_respond_error (msg, ETS_CODE_INVALID_ARGUMENT, text);
      return;
    }

  call.server = server;
  call.msg = msg;
  call.tenant = (char *) tenant;
  call.json = json;
  call.arena = arena;
  call.messages = messages;
  response = method->handler (&call, request, &error);
  protobuf_c_message_free_unpacked (request, NULL);

  if (response == NULL && call.raw_response == NULL)
    {
      g_assert (error != NULL);
      ets_respond_gerror (msg, error);
      return;
    }

  if (call.raw_response != NULL)
    {
      if (json)
        {
          gsize raw_len = 0;
          const guint8 *raw = g_bytes_get_data (call.raw_response, &raw_len);
          ProtobufCMessage *m = protobuf_c_message_unpack (call.raw_descriptor, NULL, raw_len, raw);

          g_assert (m != NULL);
          out = ets_protojson_encode (m);
          protobuf_c_message_free_unpacked (m, NULL);
        }
      else
        out = g_bytes_ref (call.raw_response);
      g_bytes_unref (call.raw_response);
    }
  else if (json)
    out = ets_protojson_encode (response);
  else
    {
      gsize size = protobuf_c_message_get_packed_size (response);
      guint8 *packed = g_malloc (MAX (size, 1));

      protobuf_c_message_pack (response, packed);
      out = g_bytes_new_take (packed, size);
    }

  if (accepts_gzip (msg))
    {
      g_autoptr(GBytes) zipped = ets_gzip (out);

      g_bytes_unref (out);
      out = g_steal_pointer (&zipped);
      soup_message_headers_replace (response_headers, "Content-Encoding", "gzip");
    }

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  data = g_bytes_get_data (out, &len);
  soup_server_message_set_response (msg, json ? "application/json" : "application/proto",
                                    SOUP_MEMORY_COPY, (const char *) data, len);
}
