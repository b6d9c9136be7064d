/* fuzz-server-body.c: libFuzzer target for what Embers reads of a server's
 * answer body: the one parser of server JSON, protojson answers converted
 * to protobuf, Connect / Grafana / proxy error bodies for any status, and
 * the inflating of gzip answers with its first-bytes check.
 *
 * Invariants: no crash, hang or sanitizer report; every failure is a
 * GError in EMBERS_SOURCE_ERROR with a non-empty UTF-8 message of bounded
 * length; what protojson converts decodes as protobuf; an error for a
 * non-2xx answer is always made.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "embers-connect-client.h"
#include "embers-protojson.h"
#include "embers-server-json.h"
#include "querier.pb-c.h"
#include "settings.pb-c.h"
#include "types.pb-c.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define fuzz_fail(...) \
  G_STMT_START { \
    fprintf (stderr, "fuzz invariant broken: " __VA_ARGS__); \
    fputc ('\n', stderr); \
    abort (); \
  } G_STMT_END

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  return 0;
}

static void
check_error (const char   *what,
             const GError *error)
{
  if (error == NULL)
    fuzz_fail ("%s failed without setting a GError", what);
  if (error->domain != EMBERS_SOURCE_ERROR)
    fuzz_fail ("%s: error in domain %s: %s", what, g_quark_to_string (error->domain), error->message);
  if (error->message == NULL || error->message[0] == '\0')
    fuzz_fail ("%s: an error without a message", what);
  if (!g_utf8_validate (error->message, -1, NULL))
    fuzz_fail ("%s: the error message is not UTF-8", what);
  if (strlen (error->message) > 8192)
    fuzz_fail ("%s: an error message of %zu bytes", what, strlen (error->message));
}

static void
check_protojson (const ProtobufCMessageDescriptor *descriptor,
                 const char                       *json,
                 gsize                             len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) wire = embers_protojson_to_wire (descriptor, json, len, &error);
  ProtobufCMessage *message;

  if (wire == NULL)
    {
      check_error (descriptor->name, error);
      return;
    }
  message = protobuf_c_message_unpack (descriptor, NULL, g_bytes_get_size (wire), g_bytes_get_data (wire, NULL));
  if (message == NULL)
    fuzz_fail ("%s: protojson gave wire bytes that do not decode", descriptor->name);
  protobuf_c_message_free_unpacked (message, NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const ProtobufCMessageDescriptor *answers[] = {
    &querier__v1__select_merge_stacktraces_response__descriptor,
    &querier__v1__series_response__descriptor,
    &querier__v1__select_series_response__descriptor,
    &querier__v1__diff_response__descriptor,
    &types__v1__profile_types_response__descriptor,
    &types__v1__label_names_response__descriptor,
    &settings__v1__list_recording_rules_response__descriptor,
  };
  static const char *content_types[] = { "application/json", "text/html", NULL, "text/plain" };
  static const char *services[] = { "querier.v1.QuerierService", "settings.v1.RecordingRulesService" };
  const char *json = (const char *) data;

  /* The one JSON parser */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) root = embers_server_json_parse (json, size, 1024 * 1024, &error);

    if (root == NULL)
      check_error ("embers_server_json_parse", error);
  }

  /* Answers in protojson */
  for (guint i = 0; i < G_N_ELEMENTS (answers); i++)
    check_protojson (answers[i], json, size);

  /* Error bodies, for a status and content type picked by the input */
  {
    guint statuses[] = { 400, 401, 403, 404, 405, 408, 413, 429, 500, 502, 503, 504, 302, 200, 418 };
    guint pick = size > 0 ? data[0] : 0;
    g_autoptr(GError) error = embers_connect_error_from_response (statuses[pick % G_N_ELEMENTS (statuses)], "Reason",
                                                                  content_types[(pick / 16) % G_N_ELEMENTS (content_types)],
                                                                  data, size, services[(pick / 64) % 2], "SelectSeries",
                                                                  pick & 1, pick & 2);
    check_error ("embers_connect_error_from_response", error);
  }

  /* A gzip answer: inflated with a cap, refused at implausible first bytes */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) inflated = embers_connect_inflate_answer (data, size, 16 * 1024 * 1024,
                                                                size > 0 && (data[size - 1] & 1), TRUE,
                                                                "fuzz", &error);

    if (inflated == NULL)
      check_error ("embers_connect_inflate_answer", error);
    else if (g_bytes_get_size (inflated) > 16 * 1024 * 1024)
      fuzz_fail ("inflated past the cap");
  }

  return 0;
}
