/* embers-server-json.c: the one way JSON from a server is parsed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-server-json.h"
#include "embers-source.h"

/* The deepest nesting of objects and arrays, outside strings (stops
 * counting past limit), and whether anything but whitespace follows the
 * first object or array. Iterative: any depth is scanned in constant
 * stack. */
static guint
scan_json (const char *json,
           gsize       len,
           guint       limit,
           gboolean   *trailing)
{
  gboolean in_string = FALSE, closed = FALSE;
  guint depth = 0, deepest = 0;

  *trailing = FALSE;
  for (gsize i = 0; i < len; i++)
    {
      char c = json[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (closed)
        {
          if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            {
              *trailing = TRUE;
              return deepest;
            }
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        {
          if (++depth > deepest)
            deepest = depth;
          if (deepest > limit)
            return deepest;
        }
      else if ((c == '}' || c == ']') && depth > 0)
        {
          if (--depth == 0)
            closed = TRUE;
        }
    }
  return deepest;
}

gboolean
embers_server_json_is_object (const char *data,
                              gsize       len)
{
  gsize i = 0;

  if (data == NULL)
    return FALSE;
  /* A UTF-8 byte order mark, then JSON whitespace */
  if (len >= 3 && (guint8) data[0] == 0xef && (guint8) data[1] == 0xbb && (guint8) data[2] == 0xbf)
    i = 3;
  while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
    i++;
  return i < len && data[i] == '{';
}

JsonNode *
embers_server_json_parse (const char  *data,
                          gsize        len,
                          gsize        max_size,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  gboolean trailing = FALSE;
  JsonNode *root;

  if (data == NULL || len == 0)
    {
      g_set_error_literal (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                           _("The server sent an empty JSON answer"));
      return NULL;
    }
  if (max_size > 0 && len > max_size)
    {
      g_autofree char *size = g_format_size (len);
      g_autofree char *limit = g_format_size (max_size);

      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_RESOURCE_EXHAUSTED,
                   _("The server's JSON answer is %s, more than the limit of %s"), size, limit);
      return NULL;
    }
  if (scan_json (data, len, EMBERS_SERVER_JSON_MAX_DEPTH, &trailing) > EMBERS_SERVER_JSON_MAX_DEPTH)
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                   _("The server's JSON answer is nested more than %u levels deep"),
                   EMBERS_SERVER_JSON_MAX_DEPTH);
      return NULL;
    }
  /* One answer is one value (json-glib would take several, and asserts
   * on them) */
  if (trailing)
    {
      g_set_error_literal (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                           _("The server's JSON answer has more after its end"));
      return NULL;
    }
  if (!g_utf8_validate_len (data, len, NULL))
    {
      g_set_error_literal (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                           _("The server's JSON answer is not valid UTF-8"));
      return NULL;
    }

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, (gssize) len, &local_error))
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                   _("The server's answer is not valid JSON: %s"), local_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                           _("The server sent an empty JSON answer"));
      return NULL;
    }
  return json_node_ref (root);
}
