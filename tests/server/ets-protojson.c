/* ets-protojson.c: protojson for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ets-protojson.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#define MAX_DEPTH 64

char *
ets_protojson_json_name (const char *proto_name)
{
  GString *out = g_string_new (NULL);
  gboolean upper_next = FALSE;

  for (const char *p = proto_name; *p != '\0'; p++)
    {
      if (*p == '_')
        {
          upper_next = TRUE;
          continue;
        }
      g_string_append_c (out, upper_next ? g_ascii_toupper (*p) : *p);
      upper_next = FALSE;
    }
  return g_string_free (out, FALSE);
}

/* ---- output -------------------------------------------------------------- */

static void encode_message (JsonBuilder *builder, const ProtobufCMessage *message);

static gsize
element_size (ProtobufCType type)
{
  switch (type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_ENUM:
      return 4;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
      return 8;
    case PROTOBUF_C_TYPE_BOOL:
      return sizeof (protobuf_c_boolean);
    case PROTOBUF_C_TYPE_STRING:
      return sizeof (char *);
    case PROTOBUF_C_TYPE_BYTES:
      return sizeof (ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE:
      return sizeof (ProtobufCMessage *);
    default:
      g_assert_not_reached ();
    }
}

/* proto3 presence: zero, empty and unset are all "absent" */
static gboolean
value_is_zero (ProtobufCType  type,
               const void    *member)
{
  switch (type)
    {
    case PROTOBUF_C_TYPE_STRING:
      {
        const char *s = *(char * const *) member;
        return s == NULL || s[0] == '\0';
      }
    case PROTOBUF_C_TYPE_BYTES:
      return ((const ProtobufCBinaryData *) member)->len == 0;
    case PROTOBUF_C_TYPE_MESSAGE:
      return *(ProtobufCMessage * const *) member == NULL;
    case PROTOBUF_C_TYPE_FLOAT:
      return *(const float *) member == 0.0f && !signbit (*(const float *) member);
    case PROTOBUF_C_TYPE_DOUBLE:
      return *(const double *) member == 0.0 && !signbit (*(const double *) member);
    default:
      {
        const guint8 *bytes = member;
        for (gsize i = 0; i < element_size (type); i++)
          if (bytes[i] != 0)
            return FALSE;
        return TRUE;
      }
    }
}

static void
add_double (JsonBuilder *builder,
            double       d)
{
  if (isnan (d))
    json_builder_add_string_value (builder, "NaN");
  else if (isinf (d))
    json_builder_add_string_value (builder, d > 0 ? "Infinity" : "-Infinity");
  else
    json_builder_add_double_value (builder, d);
}

static void
encode_value (JsonBuilder                    *builder,
              const ProtobufCFieldDescriptor *field,
              const void                     *member)
{
  char buf[32];

  switch (field->type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
      json_builder_add_int_value (builder, *(const gint32 *) member);
      break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
      json_builder_add_int_value (builder, *(const guint32 *) member);
      break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
      g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, *(const gint64 *) member);
      json_builder_add_string_value (builder, buf);
      break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
      g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, *(const guint64 *) member);
      json_builder_add_string_value (builder, buf);
      break;
    case PROTOBUF_C_TYPE_FLOAT:
      add_double (builder, *(const float *) member);
      break;
    case PROTOBUF_C_TYPE_DOUBLE:
      add_double (builder, *(const double *) member);
      break;
    case PROTOBUF_C_TYPE_BOOL:
      json_builder_add_boolean_value (builder, *(const protobuf_c_boolean *) member);
      break;
    case PROTOBUF_C_TYPE_ENUM:
      {
        const ProtobufCEnumValue *value =
          protobuf_c_enum_descriptor_get_value (field->descriptor, *(const int *) member);
        if (value != NULL)
          json_builder_add_string_value (builder, value->name);
        else
          json_builder_add_int_value (builder, *(const int *) member);
      }
      break;
    case PROTOBUF_C_TYPE_STRING:
      {
        const char *s = *(char * const *) member;
        json_builder_add_string_value (builder, s != NULL ? s : "");
      }
      break;
    case PROTOBUF_C_TYPE_BYTES:
      {
        const ProtobufCBinaryData *data = member;
        g_autofree char *b64 = g_base64_encode (data->data, data->len);
        json_builder_add_string_value (builder, b64);
      }
      break;
    case PROTOBUF_C_TYPE_MESSAGE:
      {
        const ProtobufCMessage *sub = *(ProtobufCMessage * const *) member;
        if (sub != NULL)
          encode_message (builder, sub);
        else
          json_builder_add_null_value (builder);
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
encode_message (JsonBuilder            *builder,
                const ProtobufCMessage *message)
{
  const ProtobufCMessageDescriptor *desc = message->descriptor;
  const char *base = (const char *) message;

  json_builder_begin_object (builder);
  for (guint i = 0; i < desc->n_fields; i++)
    {
      const ProtobufCFieldDescriptor *field = &desc->fields[i];
      const char *member = base + field->offset;
      g_autofree char *key = NULL;

      if (field->label == PROTOBUF_C_LABEL_REPEATED)
        {
          size_t n = *(const size_t *) (base + field->quantifier_offset);
          const char *array = *(char * const *) member;

          if (n == 0)
            continue;
          key = ets_protojson_json_name (field->name);
          json_builder_set_member_name (builder, key);
          json_builder_begin_array (builder);
          for (size_t j = 0; j < n; j++)
            encode_value (builder, field, array + j * element_size (field->type));
          json_builder_end_array (builder);
          continue;
        }

      if ((field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
          *(const uint32_t *) (base + field->quantifier_offset) != field->id)
        continue;
      if (field->label == PROTOBUF_C_LABEL_OPTIONAL &&
          field->type != PROTOBUF_C_TYPE_STRING &&
          field->type != PROTOBUF_C_TYPE_MESSAGE &&
          field->quantifier_offset != 0 &&
          !(field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
          !*(const protobuf_c_boolean *) (base + field->quantifier_offset))
        continue;
      if (value_is_zero (field->type, member))
        continue;

      key = ets_protojson_json_name (field->name);
      json_builder_set_member_name (builder, key);
      encode_value (builder, field, member);
    }
  json_builder_end_object (builder);
}

GBytes *
ets_protojson_encode (const ProtobufCMessage *message)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  gsize len = 0;
  char *text;

  encode_message (builder, message);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, &len);
  return g_bytes_new_take (text, len);
}

/* ---- input --------------------------------------------------------------- */

enum
{
  WIRE_VARINT = 0,
  WIRE_64BIT = 1,
  WIRE_LEN = 2,
  WIRE_32BIT = 5,
};

static void
put_varint (GByteArray *out,
            guint64     v)
{
  guint8 buf[10];
  guint n = 0;

  do
    {
      buf[n] = v & 0x7f;
      v >>= 7;
      if (v != 0)
        buf[n] |= 0x80;
      n++;
    }
  while (v != 0);
  g_byte_array_append (out, buf, n);
}

static void
put_tag (GByteArray *out,
         guint32     id,
         guint       wire)
{
  put_varint (out, ((guint64) id << 3) | wire);
}

static void
put_le (GByteArray *out,
        guint64     v,
        guint       n_bytes)
{
  guint8 buf[8];

  for (guint i = 0; i < n_bytes; i++)
    buf[i] = (v >> (8 * i)) & 0xff;
  g_byte_array_append (out, buf, n_bytes);
}

static void
put_len (GByteArray   *out,
         guint32       id,
         const guint8 *data,
         gsize         len)
{
  put_tag (out, id, WIRE_LEN);
  put_varint (out, len);
  if (len > 0)
    g_byte_array_append (out, data, len);
}

typedef struct
{
  GError **error;
  GString *path;   /* "labelSelector" / "left.start" for messages */
} Ctx;

static gboolean
fail (Ctx        *ctx,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (Ctx        *ctx,
      const char *format,
      ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (ctx->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "proto: syntax error (field %s): %s",
               ctx->path->len > 0 ? ctx->path->str : "(message)", text);
  return FALSE;
}

static const char *
node_kind (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "object";
    case JSON_NODE_ARRAY:
      return "array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      {
        GType t = json_node_get_value_type (node);
        if (t == G_TYPE_STRING)
          return "string";
        if (t == G_TYPE_BOOLEAN)
          return "boolean";
        return "number";
      }
    }
}

static gboolean
is_value (JsonNode *node,
          GType     type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static gboolean
get_integer (Ctx      *ctx,
             JsonNode *node,
             gboolean  is_signed,
             guint     bits,
             guint64  *out)
{
  gint64 smin = bits == 32 ? G_MININT32 : G_MININT64;
  gint64 smax = bits == 32 ? G_MAXINT32 : G_MAXINT64;
  guint64 umax = bits == 32 ? G_MAXUINT32 : G_MAXUINT64;

  if (is_value (node, G_TYPE_INT64))
    {
      gint64 v = json_node_get_int (node);

      if (is_signed ? (v < smin || v > smax) : (v < 0 || (guint64) v > umax))
        return fail (ctx, "integer %" G_GINT64_FORMAT " out of range", v);
      *out = (guint64) v;
      return TRUE;
    }
  if (is_value (node, G_TYPE_DOUBLE))
    {
      double d = json_node_get_double (node);

      if (d != floor (d) || !isfinite (d))
        return fail (ctx, "invalid integer %g", d);
      if (is_signed ? (d < (double) smin || d > (double) smax) : (d < 0 || d > (double) umax))
        return fail (ctx, "integer %g out of range", d);
      if (is_signed)
        *out = (guint64) (gint64) d;
      else
        *out = (guint64) d;
      return TRUE;
    }
  if (is_value (node, G_TYPE_STRING))
    {
      const char *s = json_node_get_string (node);
      g_autoptr(GError) local = NULL;

      if (is_signed)
        {
          gint64 v;
          if (!g_ascii_string_to_signed (s, 10, smin, smax, &v, &local))
            return fail (ctx, "invalid integer \"%s\"", s);
          *out = (guint64) v;
        }
      else
        {
          guint64 v;
          if (!g_ascii_string_to_unsigned (s, 10, 0, umax, &v, &local))
            return fail (ctx, "invalid integer \"%s\"", s);
          *out = v;
        }
      return TRUE;
    }
  return fail (ctx, "expected an integer (number or string), got %s", node_kind (node));
}

static gboolean
get_double (Ctx      *ctx,
            JsonNode *node,
            double   *out)
{
  if (is_value (node, G_TYPE_INT64))
    {
      *out = (double) json_node_get_int (node);
      return TRUE;
    }
  if (is_value (node, G_TYPE_DOUBLE))
    {
      *out = json_node_get_double (node);
      return TRUE;
    }
  if (is_value (node, G_TYPE_STRING))
    {
      const char *s = json_node_get_string (node);
      char *end = NULL;

      if (g_str_equal (s, "NaN"))
        *out = NAN;
      else if (g_str_equal (s, "Infinity"))
        *out = INFINITY;
      else if (g_str_equal (s, "-Infinity"))
        *out = -INFINITY;
      else
        {
          *out = g_ascii_strtod (s, &end);
          if (s[0] == '\0' || *end != '\0')
            return fail (ctx, "invalid number \"%s\"", s);
        }
      return TRUE;
    }
  return fail (ctx, "expected a number, got %s", node_kind (node));
}

static gboolean
decode_base64 (const char  *text,
               GBytes     **out)
{
  gsize len = strlen (text);
  g_autofree char *std = g_malloc (len + 4);
  guchar *data;
  gsize n = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (c == '-')
        c = '+';
      else if (c == '_')
        c = '/';
      else if (!g_ascii_isalnum (c) && c != '+' && c != '/' && c != '=')
        return FALSE;
      std[n++] = c;
    }
  while (n % 4 != 0)
    std[n++] = '=';
  std[n] = '\0';
  data = g_base64_decode (std, &len);
  *out = g_bytes_new_take (data, len);
  return TRUE;
}

static gboolean encode_object (Ctx *ctx, const ProtobufCMessageDescriptor *desc,
                               JsonNode *node, GByteArray *out, guint depth);

/* One element of a field, with its tag */
static gboolean
encode_element (Ctx                            *ctx,
                const ProtobufCFieldDescriptor *field,
                JsonNode                       *node,
                GByteArray                     *out,
                guint                           depth)
{
  guint64 u = 0;
  double d = 0;

  switch (field->type)
    {
    case PROTOBUF_C_TYPE_INT32:
      if (!get_integer (ctx, node, TRUE, 32, &u))
        return FALSE;
      put_tag (out, field->id, WIRE_VARINT);
      put_varint (out, (guint64) (gint64) (gint32) u);
      return TRUE;
    case PROTOBUF_C_TYPE_INT64:
      if (!get_integer (ctx, node, TRUE, 64, &u))
        return FALSE;
      put_tag (out, field->id, WIRE_VARINT);
      put_varint (out, u);
      return TRUE;
    case PROTOBUF_C_TYPE_UINT32:
      if (!get_integer (ctx, node, FALSE, 32, &u))
        return FALSE;
      put_tag (out, field->id, WIRE_VARINT);
      put_varint (out, u);
      return TRUE;
    case PROTOBUF_C_TYPE_UINT64:
      if (!get_integer (ctx, node, FALSE, 64, &u))
        return FALSE;
      put_tag (out, field->id, WIRE_VARINT);
      put_varint (out, u);
      return TRUE;
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SINT64:
      {
        gint64 s;
        if (!get_integer (ctx, node, TRUE, field->type == PROTOBUF_C_TYPE_SINT32 ? 32 : 64, &u))
          return FALSE;
        s = (gint64) u;
        put_tag (out, field->id, WIRE_VARINT);
        put_varint (out, ((guint64) s << 1) ^ (guint64) (s >> 63));
        return TRUE;
      }
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_SFIXED32:
      if (!get_integer (ctx, node, field->type == PROTOBUF_C_TYPE_SFIXED32, 32, &u))
        return FALSE;
      put_tag (out, field->id, WIRE_32BIT);
      put_le (out, u, 4);
      return TRUE;
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_SFIXED64:
      if (!get_integer (ctx, node, field->type == PROTOBUF_C_TYPE_SFIXED64, 64, &u))
        return FALSE;
      put_tag (out, field->id, WIRE_64BIT);
      put_le (out, u, 8);
      return TRUE;
    case PROTOBUF_C_TYPE_FLOAT:
      {
        float f;
        guint32 bits;
        if (!get_double (ctx, node, &d))
          return FALSE;
        f = (float) d;
        memcpy (&bits, &f, 4);
        put_tag (out, field->id, WIRE_32BIT);
        put_le (out, bits, 4);
        return TRUE;
      }
    case PROTOBUF_C_TYPE_DOUBLE:
      {
        guint64 bits;
        if (!get_double (ctx, node, &d))
          return FALSE;
        memcpy (&bits, &d, 8);
        put_tag (out, field->id, WIRE_64BIT);
        put_le (out, bits, 8);
        return TRUE;
      }
    case PROTOBUF_C_TYPE_BOOL:
      if (!is_value (node, G_TYPE_BOOLEAN))
        return fail (ctx, "expected true or false, got %s", node_kind (node));
      put_tag (out, field->id, WIRE_VARINT);
      put_varint (out, json_node_get_boolean (node) ? 1 : 0);
      return TRUE;
    case PROTOBUF_C_TYPE_ENUM:
      {
        const ProtobufCEnumDescriptor *edesc = field->descriptor;
        gint64 v;

        if (is_value (node, G_TYPE_STRING))
          {
            const ProtobufCEnumValue *ev =
              protobuf_c_enum_descriptor_get_value_by_name (edesc, json_node_get_string (node));
            if (ev == NULL)
              return fail (ctx, "invalid value for enum type %s: \"%s\"",
                           edesc->name, json_node_get_string (node));
            v = ev->value;
          }
        else
          {
            if (!get_integer (ctx, node, TRUE, 32, &u))
              return FALSE;
            v = (gint32) u;
          }
        put_tag (out, field->id, WIRE_VARINT);
        put_varint (out, (guint64) v);
        return TRUE;
      }
    case PROTOBUF_C_TYPE_STRING:
      {
        const char *s;
        if (!is_value (node, G_TYPE_STRING))
          return fail (ctx, "expected a string, got %s", node_kind (node));
        s = json_node_get_string (node);
        put_len (out, field->id, (const guint8 *) s, strlen (s));
        return TRUE;
      }
    case PROTOBUF_C_TYPE_BYTES:
      {
        g_autoptr(GBytes) bytes = NULL;
        if (!is_value (node, G_TYPE_STRING))
          return fail (ctx, "expected a base64 string, got %s", node_kind (node));
        if (!decode_base64 (json_node_get_string (node), &bytes))
          return fail (ctx, "invalid base64");
        put_len (out, field->id, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
        return TRUE;
      }
    case PROTOBUF_C_TYPE_MESSAGE:
      {
        g_autoptr(GByteArray) sub = g_byte_array_new ();
        if (!encode_object (ctx, field->descriptor, node, sub, depth + 1))
          return FALSE;
        put_len (out, field->id, sub->data, sub->len);
        return TRUE;
      }
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

static const ProtobufCFieldDescriptor *
find_field (const ProtobufCMessageDescriptor *desc,
            const char                       *key)
{
  for (guint i = 0; i < desc->n_fields; i++)
    {
      g_autofree char *json_name = ets_protojson_json_name (desc->fields[i].name);

      if (g_str_equal (key, desc->fields[i].name) || g_str_equal (key, json_name))
        return &desc->fields[i];
    }
  return NULL;
}

static gboolean
encode_object (Ctx                              *ctx,
               const ProtobufCMessageDescriptor *desc,
               JsonNode                         *node,
               GByteArray                       *out,
               guint                             depth)
{
  JsonObject *object;
  g_autoptr(GList) members = NULL;

  if (depth > MAX_DEPTH)
    return fail (ctx, "nested too deeply");
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (ctx, "expected an object for %s, got %s", desc->name, node_kind (node));

  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      JsonNode *value = json_object_get_member (object, key);
      const ProtobufCFieldDescriptor *field = find_field (desc, key);
      gsize path_len = ctx->path->len;
      gboolean ok = TRUE;

      /* Unknown keys are dropped, like recent connect-go; null is "unset" */
      if (field == NULL || JSON_NODE_HOLDS_NULL (value))
        continue;

      if (path_len > 0)
        g_string_append_c (ctx->path, '.');
      g_string_append (ctx->path, key);

      if (field->label == PROTOBUF_C_LABEL_REPEATED)
        {
          JsonArray *array;

          if (!JSON_NODE_HOLDS_ARRAY (value))
            ok = fail (ctx, "expected an array, got %s", node_kind (value));
          else
            {
              array = json_node_get_array (value);
              for (guint i = 0; ok && i < json_array_get_length (array); i++)
                ok = encode_element (ctx, field, json_array_get_element (array, i), out, depth);
            }
        }
      else
        ok = encode_element (ctx, field, value, out, depth);

      g_string_truncate (ctx->path, path_len);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* json-glib has no depth limit of its own: refuse deep nesting before
 * parsing so a hostile body cannot overflow the stack. */
static gboolean
nesting_is_sane (const char *json,
                 gsize       len)
{
  guint depth = 0;
  gboolean in_string = FALSE;

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
      if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        {
          if (++depth > MAX_DEPTH)
            return FALSE;
        }
      else if ((c == '}' || c == ']') && depth > 0)
        depth--;
    }
  return TRUE;
}

GBytes *
ets_protojson_to_wire (const ProtobufCMessageDescriptor *descriptor,
                       const char                       *json,
                       gsize                             len,
                       GError                          **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GString) path = g_string_new (NULL);
  g_autoptr(GError) local = NULL;
  Ctx ctx = { error, path };

  if (!g_utf8_validate (json, len, NULL))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "proto: syntax error: invalid UTF-8 in JSON");
      return NULL;
    }
  if (!nesting_is_sane (json, len))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "proto: syntax error: JSON nested too deeply");
      return NULL;
    }
  if (!json_parser_load_from_data (parser, json, len, &local))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "proto: syntax error: %s", local->message);
      return NULL;
    }
  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "proto: syntax error: unexpected end of JSON input");
      return NULL;
    }
  if (!encode_object (&ctx, descriptor, json_parser_get_root (parser), out, 0))
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
