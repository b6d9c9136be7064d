/* embers-protojson.c: protobuf-c messages <-> protojson (Connect's JSON)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "embers-source.h"
#include "embers-protojson.h"
#include "embers-server-json.h"

char *
embers_protojson_field_name (const char *proto_name)
{
  GString *s = g_string_new (NULL);
  gboolean upper_next = FALSE;

  for (const char *p = proto_name; *p; p++)
    {
      if (*p == '_')
        {
          upper_next = TRUE;
          continue;
        }
      g_string_append_c (s, upper_next ? g_ascii_toupper (*p) : *p);
      upper_next = FALSE;
    }

  return g_string_free (s, FALSE);
}

/* ---- message -> JSON ---------------------------------------------------- */

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
      return 4;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
      return 8;
    case PROTOBUF_C_TYPE_FLOAT:
      return sizeof (float);
    case PROTOBUF_C_TYPE_DOUBLE:
      return sizeof (double);
    case PROTOBUF_C_TYPE_BOOL:
      return sizeof (protobuf_c_boolean);
    case PROTOBUF_C_TYPE_ENUM:
      return sizeof (int);
    case PROTOBUF_C_TYPE_STRING:
      return sizeof (char *);
    case PROTOBUF_C_TYPE_BYTES:
      return sizeof (ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE:
      return sizeof (ProtobufCMessage *);
    default:
      g_return_val_if_reached (0);
    }
}

static gboolean
member_is_zero (const ProtobufCFieldDescriptor *field,
                const void                     *member)
{
  switch (field->type)
    {
    case PROTOBUF_C_TYPE_STRING:
      {
        const char *str = *(char * const *) member;
        return str == NULL || str[0] == '\0';
      }
    case PROTOBUF_C_TYPE_BYTES:
      return ((const ProtobufCBinaryData *) member)->len == 0;
    case PROTOBUF_C_TYPE_MESSAGE:
      return *(ProtobufCMessage * const *) member == NULL;
    default:
      {
        const guint8 *bytes = member;
        for (gsize i = 0; i < element_size (field->type); i++)
          if (bytes[i] != 0)
            return FALSE;
        return TRUE;
      }
    }
}

static gboolean
field_is_present (const ProtobufCMessage         *message,
                  const ProtobufCFieldDescriptor *field)
{
  const char *base = (const char *) message;
  const void *member = base + field->offset;

  if (field->label == PROTOBUF_C_LABEL_REPEATED)
    return *(const size_t *) (base + field->quantifier_offset) > 0;

  if (field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
    return *(const uint32_t *) (base + field->quantifier_offset) == field->id;

  switch (field->label)
    {
    case PROTOBUF_C_LABEL_REQUIRED:
      return TRUE;

    case PROTOBUF_C_LABEL_OPTIONAL:
      if (field->type == PROTOBUF_C_TYPE_STRING || field->type == PROTOBUF_C_TYPE_MESSAGE)
        {
          const void *ptr = *(const void * const *) member;
          return ptr != NULL && ptr != field->default_value;
        }
      return *(const protobuf_c_boolean *) (base + field->quantifier_offset);

    case PROTOBUF_C_LABEL_NONE:
    default:
      return !member_is_zero (field, member);
    }
}

static void encode_message (JsonBuilder *builder, const ProtobufCMessage *message);

static void
add_int64_string (JsonBuilder *builder,
                  gint64       value)
{
  char buf[32];

  g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, value);
  json_builder_add_string_value (builder, buf);
}

static void
add_uint64_string (JsonBuilder *builder,
                   guint64      value)
{
  char buf[32];

  g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, value);
  json_builder_add_string_value (builder, buf);
}

static void
add_double (JsonBuilder *builder,
            double       value)
{
  if (isnan (value))
    json_builder_add_string_value (builder, "NaN");
  else if (isinf (value))
    json_builder_add_string_value (builder, value > 0 ? "Infinity" : "-Infinity");
  else
    json_builder_add_double_value (builder, value);
}

static void
encode_value (JsonBuilder                    *builder,
              const ProtobufCFieldDescriptor *field,
              const void                     *member)
{
  switch (field->type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
      json_builder_add_int_value (builder, *(const int32_t *) member);
      break;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
      json_builder_add_int_value (builder, *(const uint32_t *) member);
      break;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
      add_int64_string (builder, *(const int64_t *) member);
      break;
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
      add_uint64_string (builder, *(const uint64_t *) member);
      break;
    case PROTOBUF_C_TYPE_FLOAT:
      add_double (builder, *(const float *) member);
      break;
    case PROTOBUF_C_TYPE_DOUBLE:
      add_double (builder, *(const double *) member);
      break;
    case PROTOBUF_C_TYPE_BOOL:
      json_builder_add_boolean_value (builder, *(const protobuf_c_boolean *) member != 0);
      break;
    case PROTOBUF_C_TYPE_ENUM:
      {
        int value = *(const int *) member;
        const ProtobufCEnumValue *ev =
          protobuf_c_enum_descriptor_get_value (field->descriptor, value);
        if (ev != NULL)
          json_builder_add_string_value (builder, ev->name);
        else
          json_builder_add_int_value (builder, value);
      }
      break;
    case PROTOBUF_C_TYPE_STRING:
      {
        const char *str = *(char * const *) member;
        json_builder_add_string_value (builder, str ? str : "");
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
      json_builder_add_null_value (builder);
      break;
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
      g_autofree char *key = NULL;

      if (!field_is_present (message, field))
        continue;

      key = embers_protojson_field_name (field->name);
      json_builder_set_member_name (builder, key);

      if (field->label == PROTOBUF_C_LABEL_REPEATED)
        {
          size_t n = *(const size_t *) (base + field->quantifier_offset);
          const char *array = *(char * const *) (base + field->offset);
          gsize size = element_size (field->type);

          json_builder_begin_array (builder);
          for (size_t j = 0; j < n; j++)
            encode_value (builder, field, array + j * size);
          json_builder_end_array (builder);
        }
      else
        encode_value (builder, field, base + field->offset);
    }

  json_builder_end_object (builder);
}

GBytes *
embers_protojson_encode (const ProtobufCMessage *message)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  gsize len = 0;
  char *text;

  g_return_val_if_fail (message != NULL, NULL);

  encode_message (builder, message);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, &len);

  return g_bytes_new_take (text, len);
}

/* ---- JSON -> wire ------------------------------------------------------- */

enum
{
  WIRE_VARINT = 0,
  WIRE_FIXED64 = 1,
  WIRE_LENGTH = 2,
  WIRE_FIXED32 = 5,
};

static void
put_varint (GByteArray *out,
            guint64     value)
{
  guint8 buf[10];
  guint n = 0;

  do
    {
      buf[n] = value & 0x7f;
      value >>= 7;
      if (value != 0)
        buf[n] |= 0x80;
      n++;
    }
  while (value != 0);

  g_byte_array_append (out, buf, n);
}

static void
put_tag (GByteArray *out,
         guint32     field_number,
         guint       wire_type)
{
  put_varint (out, ((guint64) field_number << 3) | wire_type);
}

static void
put_fixed32 (GByteArray *out,
             guint32     value)
{
  guint8 buf[4];

  for (guint i = 0; i < 4; i++)
    buf[i] = (value >> (8 * i)) & 0xff;
  g_byte_array_append (out, buf, 4);
}

static void
put_fixed64 (GByteArray *out,
             guint64     value)
{
  guint8 buf[8];

  for (guint i = 0; i < 8; i++)
    buf[i] = (value >> (8 * i)) & 0xff;
  g_byte_array_append (out, buf, 8);
}

static void
put_length_delimited (GByteArray   *out,
                      const guint8 *data,
                      gsize         len)
{
  put_varint (out, len);
  if (len > 0)
    g_byte_array_append (out, data, len);
}

static guint
wire_type_for (ProtobufCType type)
{
  switch (type)
    {
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
      return WIRE_FIXED32;
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
      return WIRE_FIXED64;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_BYTES:
    case PROTOBUF_C_TYPE_MESSAGE:
      return WIRE_LENGTH;
    default:
      return WIRE_VARINT;
    }
}

typedef struct
{
  GError **error;
  GString *path;
} Ctx;

G_GNUC_PRINTF (2, 3)
static gboolean
fail (Ctx        *ctx,
      const char *format,
      ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (ctx->error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
               _("The server's JSON answer could not be read: %s: %s"),
               ctx->path->len ? ctx->path->str : "(top)", msg);
  return FALSE;
}

static const char *
node_kind (JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT: return "an object";
    case JSON_NODE_ARRAY: return "an array";
    case JSON_NODE_NULL: return "null";
    case JSON_NODE_VALUE:
    default:
      {
        GType t = json_node_get_value_type (node);
        if (t == G_TYPE_STRING) return "a string";
        if (t == G_TYPE_BOOLEAN) return "a boolean";
        return "a number";
      }
    }
}

static gboolean
node_is_value_of (JsonNode *node,
                  GType     type)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

static gboolean
get_signed (Ctx      *ctx,
            JsonNode *node,
            gint64    min,
            gint64    max,
            gint64   *out)
{
  if (node_is_value_of (node, G_TYPE_INT64))
    *out = json_node_get_int (node);
  else if (node_is_value_of (node, G_TYPE_DOUBLE))
    {
      double d = json_node_get_double (node);
      if (d != floor (d) || d < -9.2233720368547758e18 || d >= 9.2233720368547758e18)
        return fail (ctx, "expected an integer, found %g", d);
      *out = (gint64) d;
    }
  else if (node_is_value_of (node, G_TYPE_STRING))
    {
      const char *s = json_node_get_string (node);
      g_autoptr(GError) local = NULL;
      if (!g_ascii_string_to_signed (s, 10, G_MININT64, G_MAXINT64, out, &local))
        return fail (ctx, "expected an integer, found “%s”", s);
    }
  else
    return fail (ctx, "expected an integer, found %s", node_kind (node));

  if (*out < min || *out > max)
    return fail (ctx, "%" G_GINT64_FORMAT " is out of range", *out);

  return TRUE;
}

static gboolean
get_unsigned (Ctx      *ctx,
              JsonNode *node,
              guint64   max,
              guint64  *out)
{
  if (node_is_value_of (node, G_TYPE_INT64))
    {
      gint64 v = json_node_get_int (node);
      if (v < 0)
        return fail (ctx, "expected an unsigned integer, found %" G_GINT64_FORMAT, v);
      *out = (guint64) v;
    }
  else if (node_is_value_of (node, G_TYPE_DOUBLE))
    {
      double d = json_node_get_double (node);
      if (d != floor (d) || d < 0 || d >= 1.8446744073709552e19)
        return fail (ctx, "expected an unsigned integer, found %g", d);
      *out = (guint64) d;
    }
  else if (node_is_value_of (node, G_TYPE_STRING))
    {
      const char *s = json_node_get_string (node);
      g_autoptr(GError) local = NULL;
      if (!g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT64, out, &local))
        return fail (ctx, "expected an unsigned integer, found “%s”", s);
    }
  else
    return fail (ctx, "expected an unsigned integer, found %s", node_kind (node));

  if (*out > max)
    return fail (ctx, "%" G_GUINT64_FORMAT " is out of range", *out);

  return TRUE;
}

static gboolean
get_double (Ctx      *ctx,
            JsonNode *node,
            double   *out)
{
  if (node_is_value_of (node, G_TYPE_DOUBLE))
    *out = json_node_get_double (node);
  else if (node_is_value_of (node, G_TYPE_INT64))
    *out = (double) json_node_get_int (node);
  else if (node_is_value_of (node, G_TYPE_STRING))
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
          if (s[0] == '\0' || end == NULL || *end != '\0')
            return fail (ctx, "expected a number, found “%s”", s);
        }
    }
  else
    return fail (ctx, "expected a number, found %s", node_kind (node));

  return TRUE;
}

static gboolean encode_object (Ctx *ctx, const ProtobufCMessageDescriptor *desc,
                               JsonNode *node, GByteArray *out, guint depth);

/* Writes one value without its tag (packed) or with it (unpacked). */
static gboolean
encode_scalar (Ctx                            *ctx,
               const ProtobufCFieldDescriptor *field,
               JsonNode                       *node,
               GByteArray                     *out)
{
  gint64 s = 0;
  guint64 u = 0;
  double d = 0;

  switch (field->type)
    {
    case PROTOBUF_C_TYPE_INT32:
      if (!get_signed (ctx, node, G_MININT32, G_MAXINT32, &s))
        return FALSE;
      put_varint (out, (guint64) s);  /* negative int32 are sign-extended to 10 bytes */
      return TRUE;
    case PROTOBUF_C_TYPE_INT64:
      if (!get_signed (ctx, node, G_MININT64, G_MAXINT64, &s))
        return FALSE;
      put_varint (out, (guint64) s);
      return TRUE;
    case PROTOBUF_C_TYPE_SINT32:
      if (!get_signed (ctx, node, G_MININT32, G_MAXINT32, &s))
        return FALSE;
      put_varint (out, ((guint32) s << 1) ^ (guint32) ((gint32) s >> 31));
      return TRUE;
    case PROTOBUF_C_TYPE_SINT64:
      if (!get_signed (ctx, node, G_MININT64, G_MAXINT64, &s))
        return FALSE;
      put_varint (out, ((guint64) s << 1) ^ (guint64) (s >> 63));
      return TRUE;
    case PROTOBUF_C_TYPE_SFIXED32:
      if (!get_signed (ctx, node, G_MININT32, G_MAXINT32, &s))
        return FALSE;
      put_fixed32 (out, (guint32) (gint32) s);
      return TRUE;
    case PROTOBUF_C_TYPE_SFIXED64:
      if (!get_signed (ctx, node, G_MININT64, G_MAXINT64, &s))
        return FALSE;
      put_fixed64 (out, (guint64) s);
      return TRUE;
    case PROTOBUF_C_TYPE_UINT32:
      if (!get_unsigned (ctx, node, G_MAXUINT32, &u))
        return FALSE;
      put_varint (out, u);
      return TRUE;
    case PROTOBUF_C_TYPE_UINT64:
      if (!get_unsigned (ctx, node, G_MAXUINT64, &u))
        return FALSE;
      put_varint (out, u);
      return TRUE;
    case PROTOBUF_C_TYPE_FIXED32:
      if (!get_unsigned (ctx, node, G_MAXUINT32, &u))
        return FALSE;
      put_fixed32 (out, (guint32) u);
      return TRUE;
    case PROTOBUF_C_TYPE_FIXED64:
      if (!get_unsigned (ctx, node, G_MAXUINT64, &u))
        return FALSE;
      put_fixed64 (out, u);
      return TRUE;
    case PROTOBUF_C_TYPE_FLOAT:
      {
        union { float f; guint32 u; } v;
        if (!get_double (ctx, node, &d))
          return FALSE;
        v.f = (float) d;
        put_fixed32 (out, v.u);
      }
      return TRUE;
    case PROTOBUF_C_TYPE_DOUBLE:
      {
        union { double f; guint64 u; } v;
        if (!get_double (ctx, node, &d))
          return FALSE;
        v.f = d;
        put_fixed64 (out, v.u);
      }
      return TRUE;
    case PROTOBUF_C_TYPE_BOOL:
      if (!node_is_value_of (node, G_TYPE_BOOLEAN))
        return fail (ctx, "expected true or false, found %s", node_kind (node));
      put_varint (out, json_node_get_boolean (node) ? 1 : 0);
      return TRUE;
    case PROTOBUF_C_TYPE_ENUM:
      if (node_is_value_of (node, G_TYPE_STRING))
        {
          const char *name = json_node_get_string (node);
          const ProtobufCEnumValue *ev =
            protobuf_c_enum_descriptor_get_value_by_name (field->descriptor, name);
          if (ev == NULL)
            return fail (ctx, "“%s” is not a value of %s", name,
                         ((const ProtobufCEnumDescriptor *) field->descriptor)->name);
          put_varint (out, (guint64) (gint64) ev->value);
          return TRUE;
        }
      if (!get_signed (ctx, node, G_MININT32, G_MAXINT32, &s))
        return FALSE;
      put_varint (out, (guint64) s);
      return TRUE;
    default:
      return fail (ctx, "unsupported field type");
    }
}

static gboolean
decode_base64 (const char *text,
               guint8    **data,
               gsize      *len)
{
  g_autoptr(GString) s = g_string_new (text);
  gsize padded;

  for (gsize i = 0; i < s->len; i++)
    {
      char c = s->str[i];
      if (c == '-')
        s->str[i] = '+';
      else if (c == '_')
        s->str[i] = '/';
      else if (!(g_ascii_isalnum (c) || c == '+' || c == '/' || c == '='))
        return FALSE;
    }
  padded = (s->len + 3) / 4 * 4;
  while (s->len < padded)
    g_string_append_c (s, '=');

  *data = g_base64_decode (s->str, len);
  return TRUE;
}

/* Writes one tagged element of a non-packed field. */
static gboolean
encode_element (Ctx                            *ctx,
                const ProtobufCFieldDescriptor *field,
                JsonNode                       *node,
                GByteArray                     *out,
                guint                           depth)
{
  switch (field->type)
    {
    case PROTOBUF_C_TYPE_STRING:
      {
        const char *str;
        if (!node_is_value_of (node, G_TYPE_STRING))
          return fail (ctx, "expected a string, found %s", node_kind (node));
        str = json_node_get_string (node);
        put_tag (out, field->id, WIRE_LENGTH);
        put_length_delimited (out, (const guint8 *) str, strlen (str));
        return TRUE;
      }
    case PROTOBUF_C_TYPE_BYTES:
      {
        g_autofree guint8 *data = NULL;
        gsize len = 0;
        if (!node_is_value_of (node, G_TYPE_STRING))
          return fail (ctx, "expected base64 text, found %s", node_kind (node));
        if (!decode_base64 (json_node_get_string (node), &data, &len))
          return fail (ctx, "not valid base64");
        put_tag (out, field->id, WIRE_LENGTH);
        put_length_delimited (out, data, len);
        return TRUE;
      }
    case PROTOBUF_C_TYPE_MESSAGE:
      {
        g_autoptr(GByteArray) sub = g_byte_array_new ();
        if (!encode_object (ctx, field->descriptor, node, sub, depth + 1))
          return FALSE;
        put_tag (out, field->id, WIRE_LENGTH);
        put_length_delimited (out, sub->data, sub->len);
        return TRUE;
      }
    default:
      put_tag (out, field->id, wire_type_for (field->type));
      return encode_scalar (ctx, field, node, out);
    }
}

static gboolean
is_packable (ProtobufCType type)
{
  return type != PROTOBUF_C_TYPE_STRING &&
         type != PROTOBUF_C_TYPE_BYTES &&
         type != PROTOBUF_C_TYPE_MESSAGE;
}

static const ProtobufCFieldDescriptor *
find_field (const ProtobufCMessageDescriptor *desc,
            const char                       *key)
{
  const ProtobufCFieldDescriptor *field;

  /* proto name first (cheap), then the lowerCamelCase JSON name */
  field = protobuf_c_message_descriptor_get_field_by_name (desc, key);
  if (field != NULL)
    return field;

  for (guint i = 0; i < desc->n_fields; i++)
    {
      g_autofree char *json_name = embers_protojson_field_name (desc->fields[i].name);
      if (g_str_equal (json_name, key))
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
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  if (depth > EMBERS_PROTOJSON_MAX_DEPTH)
    return fail (ctx, "nested too deeply");

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (ctx, "expected an object (%s), found %s", desc->name, node_kind (node));

  object = json_node_get_object (node);
  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &key, &value))
    {
      const ProtobufCFieldDescriptor *field = find_field (desc, key);
      gsize path_len = ctx->path->len;
      gboolean ok = TRUE;

      /* Unknown keys are ignored (newer servers add fields), and so is null. */
      if (field == NULL || JSON_NODE_HOLDS_NULL (value))
        continue;

      if (path_len > 0)
        g_string_append_c (ctx->path, '.');
      g_string_append (ctx->path, key);

      if (field->label == PROTOBUF_C_LABEL_REPEATED)
        {
          JsonArray *array;
          guint n;

          if (!JSON_NODE_HOLDS_ARRAY (value))
            return fail (ctx, "expected an array, found %s", node_kind (value));

          array = json_node_get_array (value);
          n = json_array_get_length (array);

          if (is_packable (field->type) && n > 0)
            {
              g_autoptr(GByteArray) packed = g_byte_array_new ();
              for (guint i = 0; ok && i < n; i++)
                ok = encode_scalar (ctx, field, json_array_get_element (array, i), packed);
              if (!ok)
                return FALSE;
              put_tag (out, field->id, WIRE_LENGTH);
              put_length_delimited (out, packed->data, packed->len);
            }
          else
            {
              for (guint i = 0; ok && i < n; i++)
                {
                  gsize elem_len = ctx->path->len;
                  g_string_append_printf (ctx->path, "[%u]", i);
                  ok = encode_element (ctx, field, json_array_get_element (array, i), out, depth);
                  if (ok)
                    g_string_truncate (ctx->path, elem_len);
                }
              if (!ok)
                return FALSE;
            }
        }
      else if (!encode_element (ctx, field, value, out, depth))
        return FALSE;

      g_string_truncate (ctx->path, path_len);
    }

  return TRUE;
}

gboolean
embers_protojson_is_answer (const ProtobufCMessageDescriptor  *descriptor,
                            JsonNode                          *root,
                            GError                           **error)
{
  g_autoptr(GString) keys = g_string_new (NULL);
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;
  guint n_keys = 0;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
                   _("This is not a Pyroscope answer: JSON with %s where an object (%s) belongs"),
                   node_kind (root), descriptor->name);
      return FALSE;
    }

  /* {} is an empty answer; an object whose keys are all foreign is another
   * API's (Prometheus' {"status", "data"}, a proxy's {"error"}) */
  json_object_iter_init (&iter, json_node_get_object (root));
  while (json_object_iter_next (&iter, &key, &value))
    {
      if (find_field (descriptor, key) != NULL)
        return TRUE;
      if (n_keys < 4)
        {
          g_autofree char *valid = g_utf8_make_valid (key, MIN (strlen (key), 40));

          g_string_append_printf (keys, "%s“%s”", n_keys > 0 ? ", " : "", valid);
        }
      n_keys++;
    }
  if (n_keys == 0)
    return TRUE;

  g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_PROTOCOL,
               g_dngettext (GETTEXT_PACKAGE,
                            "This is not a Pyroscope answer: a JSON object with the key %s%s, none of %s's",
                            "This is not a Pyroscope answer: a JSON object with the keys %s%s, none of %s's",
                            n_keys),
               keys->str, n_keys > 4 ? ", …" : "", descriptor->name);
  return FALSE;
}

GBytes *
embers_protojson_to_wire (const ProtobufCMessageDescriptor *descriptor,
                          const char                       *json,
                          gsize                             len,
                          GError                          **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GString) path = g_string_new (NULL);
  g_autoptr(GByteArray) out = NULL;
  Ctx ctx = { error, path };

  g_return_val_if_fail (descriptor != NULL, NULL);
  g_return_val_if_fail (json != NULL || len == 0, NULL);

  /* Size is capped by whoever read the body */
  root = embers_server_json_parse (json, len, 0, error);
  if (root == NULL)
    return NULL;

  if (!embers_protojson_is_answer (descriptor, root, error))
    return NULL;

  out = g_byte_array_new ();
  if (!encode_object (&ctx, descriptor, root, out, 0))
    return NULL;

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
