/* ets-protojson.h: protojson for the test server (independent of the client's)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The server side of Connect's JSON codec, written separately from
 * src/pyroscope/embers-protojson.c on purpose, so that the client is
 * checked against a second reading of the rules rather than against
 * itself:
 * - output: lowerCamelCase keys (protoc's json_name), zero/empty fields
 *   omitted (proto3 semantics, although our .proto files are proto2),
 *   64-bit integers as strings, enums by name, bytes as base64;
 * - input: json names or proto names, numbers or strings for integers,
 *   enum names or numbers, null as "not set", unknown keys ignored.
 */

#pragma once

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

G_BEGIN_DECLS

char   *ets_protojson_json_name (const char                       *proto_name);
/* JSON text (UTF-8) of a message */
GBytes *ets_protojson_encode    (const ProtobufCMessage           *message);
/* JSON text -> protobuf wire bytes for descriptor's message; the error
 * message says what is wrong (G_IO_ERROR_INVALID_DATA). */
GBytes *ets_protojson_to_wire   (const ProtobufCMessageDescriptor *descriptor,
                                 const char                       *json,
                                 gsize                             len,
                                 GError                          **error);

G_END_DECLS
