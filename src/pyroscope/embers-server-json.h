/* embers-server-json.h: the one way JSON from a server is parsed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every JSON body a server sends (answers and error bodies alike) goes
 * through embers_server_json_parse(): the body is capped in size before
 * anything is parsed, its nesting is checked by a scan that does not
 * recurse (json-glib's parser recurses once per level and overflows the
 * stack on a body nested some 80,000 levels deep), and it must be UTF-8.
 * Parsing is linear in the capped size, so its time is bounded too; the
 * read before it is bounded by the request's deadline.
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Objects and arrays nested deeper than this are refused */
#define EMBERS_SERVER_JSON_MAX_DEPTH 128

/* The root of the JSON text in data, or NULL with an
 * EMBERS_SOURCE_ERROR_PROTOCOL error (RESOURCE_EXHAUSTED when larger than
 * max_size) that says what was wrong. Free with json_node_unref(). */
JsonNode *embers_server_json_parse       (const char  *data,
                                          gsize        len,
                                          gsize        max_size,
                                          GError     **error);

/* Whether data (after whitespace) starts like a JSON object */
gboolean  embers_server_json_is_object   (const char  *data,
                                          gsize        len);

G_END_DECLS
