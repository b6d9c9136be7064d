/* embers-protojson.h: protobuf-c messages <-> protojson (Connect's JSON)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small, descriptor-driven converter so that every message our .proto
 * files describe can also travel as application/json, for debugging and
 * for tests. It follows the protojson rules the server uses: keys in
 * lowerCamelCase (proto names are accepted on input), 64-bit integers as
 * strings (numbers accepted on input), enums by name (numbers accepted),
 * bytes as base64, absent fields omitted, unknown keys ignored.
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <protobuf-c/protobuf-c.h>

G_BEGIN_DECLS

/* Refuse JSON nested deeper than this. */
#define EMBERS_PROTOJSON_MAX_DEPTH 64

/* The JSON text of a message (UTF-8, no trailing NUL counted). */
GBytes *embers_protojson_encode         (const ProtobufCMessage           *message);

/* Converts JSON text describing a message of type descriptor into the
 * protobuf wire encoding of that message, ready for
 * protobuf_c_message_unpack() or any other protobuf reader.
 * Errors are in EMBERS_SOURCE_ERROR_PROTOCOL. */
GBytes *embers_protojson_to_wire        (const ProtobufCMessageDescriptor *descriptor,
                                         const char                       *json,
                                         gsize                             len,
                                         GError                          **error);

/* Whether root can be a JSON answer of type descriptor: an object that is
 * empty or has at least one of its fields; else a PROTOCOL error saying
 * what arrived ("This is not a Pyroscope answer: …") */
gboolean embers_protojson_is_answer     (const ProtobufCMessageDescriptor  *descriptor,
                                         JsonNode                          *root,
                                         GError                           **error);

/* protoc's json_name rule: "profile_typeID" -> "profileTypeID" */
char   *embers_protojson_field_name     (const char                       *proto_name);

G_END_DECLS
