/* embers-jfr.c: Java Flight Recorder recordings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-profile-builder.h"
#include "embers-readers.h"

/*
 * A JFR recording (format 2, written by JDK 11 and later and by
 * async-profiler, the engine of Pyroscope's Java agent) is a row of
 * chunks. Each chunk has a 68-byte big-endian header:
 *
 *   "FLR\0", major u16 (2), minor u16, chunk size i64, constant pool
 *   offset i64, metadata offset i64, start ns i64, duration ns i64,
 *   start ticks i64, ticks per second i64, features i32 (bit 0: integers
 *   are compressed)
 *
 * and then events, each "size, type id, fields…". With compressed
 * integers, every short, char, int and long (sizes and ids too) is a
 * LEB128 varint of at most 9 bytes, the 9th holding 8 bits. Event type 0
 * is the metadata: a string table and a tree of elements whose "class"
 * elements (attributes name, id, superType, simpleType) hold "field"
 * elements (name, class = a type id, constantPool = true, dimension = 1).
 * Event type 1 is a checkpoint: start, duration, delta, a type byte, and
 * constant pools: [type id, count, [key, value]…]… Values are read by
 * their class: boolean and byte are one byte, float and double 4 and 8
 * bytes, java.lang.String has an encoding byte (0 null, 1 "", 2 a string
 * pool key, 3 UTF-8, 4 UTF-16 chars, 5 Latin-1) and a length; a field
 * with constantPool holds a pool key, an array field a count and the
 * elements, any other class its fields in order.
 *
 * The reader takes the metadata and every checkpoint of a chunk first
 * (events may refer to constants written later), then its events, and
 * keeps the ones that make profiles:
 *
 *   jdk.ExecutionSample        cpu_samples (count), cpu (nanoseconds)
 *   jdk.NativeMethodSample     native_samples (count)
 *   profiler.WallClockSample   wall_samples (its "samples")
 *   jdk.ObjectAllocationInNewTLAB   alloc_in_new_tlab_objects, _bytes (tlabSize)
 *   jdk.ObjectAllocationOutsideTLAB alloc_outside_tlab_objects, _bytes (allocationSize)
 *   jdk.ObjectAllocationSample      alloc_sample_objects, _bytes (weight)
 *   jdk.JavaMonitorEnter       lock_contentions, lock_delay (duration, ns)
 *   jdk.ThreadPark             park_contentions, park_delay (duration, ns)
 *
 * as Pyroscope's JFR converter names them (the _objects columns count
 * events). A frame is "class.method", the class in the JVM's internal
 * form ("java/lang/Thread.run"), as Pyroscope shows Java frames; native
 * frames from async-profiler are the bare symbol, kernel frames end in
 * "_[k]". Only what profiles need is read; other events are skipped by
 * their size, and their values are never decoded.
 *
 * CPU time: an execution sample (of a thread not sleeping) stands for one
 * sampling period of CPU, as
 * in Pyroscope, whose JFR converter (github.com/grafana/jfr-parser,
 * pprof/pprof.go, addStacktrace) multiplies each cpu sample by its period
 * 1e9 / sampleRate ns, the rate the agent pushed with (100 Hz by default,
 * pyroscope pkg/og/agent/types/types.go). A file carries no push URL, but
 * the JVM records the period it sampled at: the jdk.ActiveSetting event
 * "period" of the jdk.ExecutionSample type ("10 ms" with the profile
 * settings, "20 ms" with the default ones). Each chunk's samples are
 * weighed by that chunk's period (the shortest, when recordings running
 * at once asked for several: the JVM samples at the fastest); a chunk
 * that states none (async-profiler writes no ActiveSetting for it) takes
 * Pyroscope's default, 10 ms.
 */

#define DEFAULT_PERIOD_NS 10000000  /* 100 Hz, Pyroscope's DefaultSampleRate */

#define HEADER_SIZE     68
#define MAX_NESTING     32
#define T_EVENT_METADATA 0
#define T_EVENT_CHECKPOINT 1

typedef enum
{
  PRIM_NONE,
  PRIM_BOOLEAN,
  PRIM_BYTE,
  PRIM_CHAR,
  PRIM_SHORT,
  PRIM_INT,
  PRIM_LONG,
  PRIM_FLOAT,
  PRIM_DOUBLE,
  PRIM_STRING,
} Prim;

typedef struct
{
  char    *name;
  guint64  type;
  gboolean cp;
  guint    dims;
} Field;

typedef struct
{
  guint64  id;
  char    *name;
  Prim     prim;
  GArray  *fields;   /* Field */
  gboolean resolved; /* fields' classes checked */
} Class;

static void
field_clear (Field *f)
{
  g_free (f->name);
}

static void
class_free (Class *c)
{
  g_free (c->name);
  g_array_unref (c->fields);
  g_free (c);
}

typedef struct
{
  const guint8 *start;    /* the chunk */
  const guint8 *p;
  const guint8 *end;
  gboolean      compressed;
  gboolean      failed;
} Cursor;

/* Per chunk */
typedef struct
{
  GHashTable *classes;       /* guint64 id -> Class */
  GHashTable *by_name;       /* name -> Class (not owned) */
  GHashTable *pools;         /* guint64 type id -> GHashTable (gint64 key -> offset + 1) */
  const guint8 *chunk;
  gsize         at;           /* its offset in the recording */
  gsize         chunk_size;
  gboolean      compressed;
  gint64        ticks_per_second;
  /* memos, per chunk */
  GHashTable *stacks;        /* key -> GArray of guint32 (root first) */
  GHashTable *methods;       /* key -> name id + 1 */
  GHashTable *strings;       /* "type/key" -> char * (class names, symbols, frame types) */
  GString    *scratch;
} Chunk;

static guint64 *
u64_dup (guint64 v)
{
  return g_memdup2 (&v, sizeof v);
}

static gboolean
u64_equal (gconstpointer a,
           gconstpointer b)
{
  return *(const guint64 *)a == *(const guint64 *)b;
}

static guint
u64_hash (gconstpointer a)
{
  guint64 v = *(const guint64 *)a;

  return (guint)(v ^ (v >> 32)) * 2654435761u;
}

/* Reading */

static inline guint8
read_u8 (Cursor *c)
{
  if (c->p >= c->end)
    {
      c->failed = TRUE;
      return 0;
    }
  return *c->p++;
}

static guint64
read_varint (Cursor *c)
{
  guint64 v = 0;

  for (guint i = 0; i < 9; i++)
    {
      guint8 byte = read_u8 (c);

      if (c->failed)
        return 0;
      if (i == 8)
        return v | (guint64)byte << 56;
      v |= (guint64)(byte & 0x7f) << (7 * i);
      if (!(byte & 0x80))
        return v;
    }
  return v;
}

static guint64
read_fixed (Cursor *c,
            guint   bytes)
{
  guint64 v = 0;

  if ((gsize)(c->end - c->p) < bytes)
    {
      c->failed = TRUE;
      c->p = c->end;
      return 0;
    }
  for (guint i = 0; i < bytes; i++)
    v = v << 8 | *c->p++;
  return v;
}

static gint64
read_long (Cursor *c)
{
  return (gint64)(c->compressed ? read_varint (c) : read_fixed (c, 8));
}

static gint32
read_int (Cursor *c)
{
  return (gint32)(c->compressed ? read_varint (c) : read_fixed (c, 4));
}

static gint32
read_short (Cursor *c)
{
  return (gint16)(c->compressed ? read_varint (c) : read_fixed (c, 2));
}

/* A count (of array elements, bytes, entries) that must fit what is left */
static gboolean
read_count (Cursor *c,
            gsize   min_size,
            guint64 *out)
{
  gint64 n = read_int (c);

  if (c->failed || n < 0 || (guint64)n > (guint64)(c->end - c->p) / MAX (min_size, 1))
    {
      c->failed = TRUE;
      return FALSE;
    }
  *out = (guint64)n;
  return TRUE;
}

/* A string: into @out (NULL to skip); the string pool through @chunk */
static gboolean read_string (Cursor *c, Chunk *chunk, GString *out, guint depth);

static gboolean
pool_cursor (Chunk   *chunk,
             guint64  type,
             gint64   key,
             Cursor  *c)
{
  GHashTable *pool = g_hash_table_lookup (chunk->pools, &type);
  gpointer offset;

  if (pool == NULL)
    return FALSE;
  offset = g_hash_table_lookup (pool, &key);
  if (offset == NULL)
    return FALSE;
  c->start = chunk->chunk;
  c->p = chunk->chunk + GPOINTER_TO_SIZE (offset) - 1;
  c->end = chunk->chunk + chunk->chunk_size;
  c->compressed = chunk->compressed;
  c->failed = FALSE;
  return TRUE;
}

static Class *
class_by_name (Chunk      *chunk,
               const char *name)
{
  return g_hash_table_lookup (chunk->by_name, name);
}

static gboolean
read_string (Cursor  *c,
             Chunk   *chunk,
             GString *out,
             guint    depth)
{
  guint8 encoding = read_u8 (c);
  guint64 n;

  if (out != NULL)
    g_string_truncate (out, 0);
  switch (encoding)
    {
    case 0:
    case 1:
      return !c->failed;

    case 2:
      {
        gint64 key = read_long (c);
        Class *string = chunk != NULL ? class_by_name (chunk, "java.lang.String") : NULL;
        Cursor pc;

        if (c->failed)
          return FALSE;
        if (out == NULL)
          return TRUE;
        if (string == NULL || depth > 2 || !pool_cursor (chunk, string->id, key, &pc))
          return TRUE;   /* an unknown constant reads as "" */
        return read_string (&pc, chunk, out, depth + 1);
      }

    case 3:
    case 5:
      if (!read_count (c, 1, &n))
        return FALSE;
      if (out != NULL)
        {
          if (encoding == 3)
            g_string_append_len (out, (const char *)c->p, (gssize)n);
          else
            for (guint64 i = 0; i < n; i++)
              g_string_append_unichar (out, c->p[i]);
        }
      c->p += n;
      break;

    case 4:
      if (!read_count (c, 1, &n))
        return FALSE;
      for (guint64 i = 0; i < n; i++)
        {
          gunichar ch = (gunichar)(guint16)read_short (c);

          if (c->failed)
            return FALSE;
          if (out != NULL)
            g_string_append_unichar (out, ch >= 0xd800 && ch <= 0xdfff ? 0xfffd : (ch == 0 ? 0xfffd : ch));
        }
      break;

    default:
      c->failed = TRUE;
      return FALSE;
    }

  if (out != NULL && !g_utf8_validate_len (out->str, out->len, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (out->str, (gssize)out->len);

      g_string_assign (out, valid);
    }
  if (out != NULL)
    for (gsize i = 0; i < out->len; i++)
      if (out->str[i] == '\0')
        out->str[i] = '?';
  return !c->failed;
}

static gboolean skip_value (Cursor *c, Chunk *chunk, Class *cls, guint dims, gboolean cp, guint depth);

static gboolean
skip_plain (Cursor *c,
            Chunk  *chunk,
            Class  *cls,
            guint   depth)
{
  switch (cls->prim)
    {
    case PRIM_BOOLEAN:
    case PRIM_BYTE:
      read_u8 (c);
      break;
    case PRIM_CHAR:
    case PRIM_SHORT:
      read_short (c);
      break;
    case PRIM_INT:
      read_int (c);
      break;
    case PRIM_LONG:
      read_long (c);
      break;
    case PRIM_FLOAT:
      read_fixed (c, 4);
      break;
    case PRIM_DOUBLE:
      read_fixed (c, 8);
      break;
    case PRIM_STRING:
      return read_string (c, chunk, NULL, 0);
    case PRIM_NONE:
    default:
      if (depth > MAX_NESTING)
        {
          c->failed = TRUE;
          return FALSE;
        }
      for (guint i = 0; i < cls->fields->len && !c->failed; i++)
        {
          Field *f = &g_array_index (cls->fields, Field, i);
          Class *fc = g_hash_table_lookup (chunk->classes, &f->type);

          if (fc == NULL || !skip_value (c, chunk, fc, f->dims, f->cp, depth + 1))
            {
              c->failed = TRUE;
              return FALSE;
            }
        }
      break;
    }
  return !c->failed;
}

static gboolean
skip_value (Cursor   *c,
            Chunk    *chunk,
            Class    *cls,
            guint     dims,
            gboolean  cp,
            guint     depth)
{
  if (dims > 0)
    {
      guint64 n;

      if (!read_count (c, 1, &n))
        return FALSE;
      for (guint64 i = 0; i < n; i++)
        if (!skip_value (c, chunk, cls, 0, cp, depth + 1))
          return FALSE;
      return TRUE;
    }
  if (cp)
    {
      read_long (c);
      return !c->failed;
    }
  return skip_plain (c, chunk, cls, depth);
}

/* Metadata */

typedef struct
{
  GPtrArray *strings;
  Chunk     *chunk;
  guint      n_elements;
} Meta;

static Prim
prim_for_name (const char *name)
{
  static const struct
  {
    const char *name;
    Prim        prim;
  } prims[] = {
    { "boolean", PRIM_BOOLEAN }, { "byte", PRIM_BYTE }, { "char", PRIM_CHAR },
    { "short", PRIM_SHORT }, { "int", PRIM_INT }, { "long", PRIM_LONG },
    { "float", PRIM_FLOAT }, { "double", PRIM_DOUBLE }, { "java.lang.String", PRIM_STRING },
  };

  for (guint i = 0; i < G_N_ELEMENTS (prims); i++)
    if (strcmp (name, prims[i].name) == 0)
      return prims[i].prim;
  return PRIM_NONE;
}

static const char *
meta_string (Meta   *meta,
             Cursor *c)
{
  gint64 index = read_int (c);

  if (c->failed || index < 0 || (guint64)index >= meta->strings->len)
    {
      c->failed = TRUE;
      return NULL;
    }
  return g_ptr_array_index (meta->strings, (guint)index);
}

/* One element and its children. @parent_class: the class a "field"
 * element belongs to; @in_metadata: a "class" here defines a type */
static gboolean
read_element (Cursor   *c,
              Meta     *meta,
              Class    *parent_class,
              gboolean  in_metadata,
              guint     depth)
{
  const char *name = meta_string (meta, c);
  g_autoptr(GHashTable) attrs = g_hash_table_new (g_str_hash, g_str_equal);
  Class *cls = NULL;
  gint64 n_attrs, n_children;

  if (name == NULL || depth > MAX_NESTING || ++meta->n_elements > 10 * 1000 * 1000)
    {
      c->failed = TRUE;
      return FALSE;
    }
  n_attrs = read_int (c);
  if (c->failed || n_attrs < 0 || n_attrs > c->end - c->p)
    {
      c->failed = TRUE;
      return FALSE;
    }
  for (gint64 i = 0; i < n_attrs; i++)
    {
      const char *key = meta_string (meta, c);
      const char *value = meta_string (meta, c);

      if (key == NULL || value == NULL)
        return FALSE;
      g_hash_table_insert (attrs, (gpointer)key, (gpointer)value);
    }

  if (in_metadata && strcmp (name, "class") == 0)
    {
      const char *cname = g_hash_table_lookup (attrs, "name");
      const char *id = g_hash_table_lookup (attrs, "id");
      guint64 v;

      if (cname == NULL || id == NULL || !g_ascii_string_to_unsigned (id, 10, 0, G_MAXUINT64, &v, NULL) ||
          g_hash_table_contains (meta->chunk->classes, &v) || g_hash_table_contains (meta->chunk->by_name, cname))
        {
          /* (a class defined twice) */
          c->failed = TRUE;
          return FALSE;
        }
      cls = g_new0 (Class, 1);
      cls->id = v;
      cls->name = g_strdup (cname);
      cls->prim = prim_for_name (cname);
      cls->fields = g_array_new (FALSE, TRUE, sizeof (Field));
      g_array_set_clear_func (cls->fields, (GDestroyNotify)field_clear);
      g_hash_table_insert (meta->chunk->classes, u64_dup (v), cls);
      g_hash_table_insert (meta->chunk->by_name, cls->name, cls);
    }
  else if (parent_class != NULL && strcmp (name, "field") == 0)
    {
      const char *fname = g_hash_table_lookup (attrs, "name");
      const char *ftype = g_hash_table_lookup (attrs, "class");
      const char *cp = g_hash_table_lookup (attrs, "constantPool");
      const char *dims = g_hash_table_lookup (attrs, "dimension");
      Field f = { 0 };
      guint64 v, d = 0;

      if (fname == NULL || ftype == NULL || !g_ascii_string_to_unsigned (ftype, 10, 0, G_MAXUINT64, &v, NULL) ||
          (dims != NULL && !g_ascii_string_to_unsigned (dims, 10, 0, 1, &d, NULL)))
        {
          c->failed = TRUE;
          return FALSE;
        }
      f.name = g_strdup (fname);
      f.type = v;
      f.cp = g_strcmp0 (cp, "true") == 0;
      f.dims = (guint)d;
      g_array_append_val (parent_class->fields, f);
    }

  n_children = read_int (c);
  if (c->failed || n_children < 0 || n_children > c->end - c->p)
    {
      c->failed = TRUE;
      return FALSE;
    }
  for (gint64 i = 0; i < n_children; i++)
    if (!read_element (c, meta, cls, in_metadata || strcmp (name, "metadata") == 0, depth + 1))
      return FALSE;
  return TRUE;
}

static gboolean
read_metadata (Chunk   *chunk,
               gsize    offset,
               GError **error)
{
  g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) s = g_string_new (NULL);
  Cursor c = { chunk->chunk, chunk->chunk + offset, chunk->chunk + chunk->chunk_size, chunk->compressed, FALSE };
  Meta meta = { strings, chunk, 0 };
  gint64 size, type;
  guint64 n;

  size = read_int (&c);
  type = read_long (&c);
  if (c.failed || type != T_EVENT_METADATA || size <= 0 || (guint64)size > chunk->chunk_size - offset)
    goto bad;
  c.end = chunk->chunk + offset + size;
  read_long (&c);   /* start */
  read_long (&c);   /* duration */
  read_long (&c);   /* metadata id */
  if (!read_count (&c, 1, &n))
    goto bad;
  for (guint64 i = 0; i < n; i++)
    {
      if (!read_string (&c, NULL, s, 0))
        goto bad;
      g_ptr_array_add (strings, g_strndup (s->str, s->len));
    }
  if (!read_element (&c, &meta, NULL, FALSE, 0))
    goto bad;
  return TRUE;

bad:
  g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
               _("the metadata at byte %zu is corrupt"), offset);
  return FALSE;
}

/* Checkpoints: remember where each constant's value starts */
static gboolean
read_checkpoint (Chunk        *chunk,
                 const guint8 *at,
                 gsize         size)
{
  Cursor c = { chunk->chunk, at, at + size, chunk->compressed, FALSE };
  guint64 n_pools;

  read_int (&c);    /* size */
  read_long (&c);   /* type */
  read_long (&c);   /* start */
  read_long (&c);   /* duration */
  read_long (&c);   /* delta to the previous checkpoint */
  read_u8 (&c);     /* checkpoint type (flush, header…) */
  if (c.failed || !read_count (&c, 1, &n_pools))
    return FALSE;

  for (guint64 i = 0; i < n_pools; i++)
    {
      guint64 type = (guint64)read_long (&c);
      Class *cls = g_hash_table_lookup (chunk->classes, &type);
      GHashTable *pool;
      guint64 count;

      if (c.failed || cls == NULL || !read_count (&c, 1, &count))
        return FALSE;
      pool = g_hash_table_lookup (chunk->pools, &type);
      if (pool == NULL)
        {
          pool = g_hash_table_new_full (u64_hash, u64_equal, g_free, NULL);
          g_hash_table_insert (chunk->pools, u64_dup (type), pool);
        }
      for (guint64 k = 0; k < count; k++)
        {
          gint64 key = read_long (&c);
          gsize offset = (gsize)(c.p - chunk->chunk);

          if (c.failed || !skip_plain (&c, chunk, cls, 0))
            return FALSE;
          g_hash_table_replace (pool, u64_dup ((guint64)key), GSIZE_TO_POINTER (offset + 1));
        }
    }
  return TRUE;
}

/* Struct values: the fields of a constant, by name */

typedef struct
{
  gint64        i;          /* integers, pool keys */
  const guint8 *at;         /* where the value starts (arrays, strings) */
  gboolean      set;
} Value;

/* Reads the top-level fields of a struct of @cls at @c; @names lists the
 * wanted fields, @values gets them (integers and pool keys as i; every
 * field's start as at) */
static gboolean
read_fields (Cursor      *c,
             Chunk       *chunk,
             Class       *cls,
             const char **names,
             Value       *values,
             guint        n_names)
{
  memset (values, 0, n_names * sizeof *values);
  if (cls->prim != PRIM_NONE)
    return FALSE;
  for (guint i = 0; i < cls->fields->len; i++)
    {
      Field *f = &g_array_index (cls->fields, Field, i);
      Class *fc = g_hash_table_lookup (chunk->classes, &f->type);
      gint want = -1;

      if (fc == NULL)
        return FALSE;
      for (guint k = 0; k < n_names; k++)
        if (strcmp (f->name, names[k]) == 0)
          want = (gint)k;

      if (want >= 0)
        {
          values[want].at = c->p;
          values[want].set = TRUE;
          if (f->dims == 0 && (f->cp || fc->prim == PRIM_LONG || fc->prim == PRIM_INT ||
                               fc->prim == PRIM_SHORT || fc->prim == PRIM_CHAR ||
                               fc->prim == PRIM_BYTE || fc->prim == PRIM_BOOLEAN))
            {
              if (f->cp || fc->prim == PRIM_LONG)
                values[want].i = read_long (c);
              else if (fc->prim == PRIM_INT)
                values[want].i = read_int (c);
              else if (fc->prim == PRIM_SHORT || fc->prim == PRIM_CHAR)
                values[want].i = read_short (c);
              else
                values[want].i = read_u8 (c);
              if (c->failed)
                return FALSE;
              continue;
            }
        }
      if (!skip_value (c, chunk, fc, f->dims, f->cp, 1))
        return FALSE;
    }
  return !c->failed;
}

/* A constant's string field ("string" of a Symbol, "description" of a
 * FrameType), or a String constant itself */
static const char *
constant_string (Chunk      *chunk,
                 const char *class_name,
                 gint64      key,
                 const char *field)
{
  g_autofree char *memo_key = g_strdup_printf ("%s/%" G_GINT64_FORMAT, class_name, key);
  const char *memo = g_hash_table_lookup (chunk->strings, memo_key);
  Class *cls = class_by_name (chunk, class_name);
  Cursor c;

  if (memo != NULL)
    return memo;
  if (cls == NULL || !pool_cursor (chunk, cls->id, key, &c))
    return NULL;

  if (field == NULL)
    {
      if (!read_string (&c, chunk, chunk->scratch, 0))
        return NULL;
    }
  else
    {
      const char *names[] = { field };
      Value v;
      Cursor sc;

      if (!read_fields (&c, chunk, cls, names, &v, 1) || !v.set)
        return NULL;
      sc = c;
      sc.p = v.at;
      sc.failed = FALSE;
      if (!read_string (&sc, chunk, chunk->scratch, 0))
        return NULL;
    }
  memo = g_strndup (chunk->scratch->str, chunk->scratch->len);
  g_hash_table_insert (chunk->strings, g_steal_pointer (&memo_key), (gpointer)memo);
  return memo;
}

/* A class's name: a Symbol ("java/lang/Thread"); "" when unknown */
static const char *
class_name_get (Chunk  *chunk,
                gint64  key)
{
  g_autofree char *memo_key = g_strdup_printf ("class/%" G_GINT64_FORMAT, key);
  const char *memo = g_hash_table_lookup (chunk->strings, memo_key);
  Class *cls = class_by_name (chunk, "java.lang.Class");
  const char *names[] = { "name" };
  const char *name = NULL;
  char *value;
  Value v;
  Cursor c;

  if (memo != NULL)
    return memo;
  if (cls != NULL && pool_cursor (chunk, cls->id, key, &c) && read_fields (&c, chunk, cls, names, &v, 1) && v.set)
    name = constant_string (chunk, "jdk.types.Symbol", v.i, "string");
  value = g_strdup (name != NULL ? name : "");
  g_hash_table_insert (chunk->strings, g_steal_pointer (&memo_key), value);
  return value;
}

/* A method's frame name id: "java/lang/Thread.run", or the bare symbol */
static gboolean
method_name (Chunk                 *chunk,
             EmbersProfileBuilder  *b,
             gint64                 key,
             gboolean               kernel,
             guint32               *out)
{
  gpointer memo = g_hash_table_lookup (chunk->methods, &key);
  Class *cls = class_by_name (chunk, "jdk.types.Method");
  const char *names[] = { "type", "name" };
  const char *cname = NULL, *mname = NULL;
  Value v[2];
  Cursor c;

  if (memo != NULL && !kernel)
    {
      *out = GPOINTER_TO_UINT (memo) - 1;
      return TRUE;
    }
  if (cls == NULL || !pool_cursor (chunk, cls->id, key, &c) || !read_fields (&c, chunk, cls, names, v, 2))
    return FALSE;
  if (v[0].set)
    cname = class_name_get (chunk, v[0].i);
  if (v[1].set)
    mname = constant_string (chunk, "jdk.types.Symbol", v[1].i, "string");

  g_string_truncate (chunk->scratch, 0);
  if (cname != NULL && cname[0] != '\0')
    {
      g_string_append (chunk->scratch, cname);
      g_string_append_c (chunk->scratch, '.');
    }
  g_string_append (chunk->scratch, mname != NULL && mname[0] != '\0' ? mname : "[unknown]");
  if (kernel)
    g_string_append (chunk->scratch, "_[k]");
  *out = embers_profile_builder_intern (b, chunk->scratch->str, chunk->scratch->len);
  if (!kernel)
    g_hash_table_insert (chunk->methods, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (*out + 1));
  return TRUE;
}

/* A stack trace's frames, root first */
static GArray *
stack_trace (Chunk                 *chunk,
             EmbersProfileBuilder  *b,
             gint64                 key,
             GError               **error)
{
  GArray *frames = g_hash_table_lookup (chunk->stacks, &key);
  Class *st = class_by_name (chunk, "jdk.types.StackTrace");
  Class *sf = class_by_name (chunk, "jdk.types.StackFrame");
  const char *st_names[] = { "frames" };
  const char *sf_names[] = { "method", "type" };
  Value v;
  Cursor c;
  guint64 n;

  if (frames != NULL)
    return frames;
  if (st == NULL || sf == NULL || !pool_cursor (chunk, st->id, key, &c))
    {
      /* An unknown stack (key 0: none recorded): no frames */
      frames = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_hash_table_insert (chunk->stacks, g_memdup2 (&key, sizeof key), frames);
      return frames;
    }
  if (!read_fields (&c, chunk, st, st_names, &v, 1) || !v.set)
    goto bad;
  c.p = v.at;
  if (!read_count (&c, 1, &n) || n > EMBERS_PROFILE_MAX_DEPTH)
    goto bad;
  frames = g_array_sized_new (FALSE, FALSE, sizeof (guint32), (guint)n);
  g_array_set_size (frames, (guint)n);
  for (guint64 i = 0; i < n; i++)
    {
      Value fv[2];
      gboolean kernel = FALSE;
      guint32 name;

      if (!read_fields (&c, chunk, sf, sf_names, fv, 2) || !fv[0].set)
        {
          g_array_unref (frames);
          goto bad;
        }
      if (fv[1].set)
        {
          const char *type = constant_string (chunk, "jdk.types.FrameType", fv[1].i, "description");

          kernel = type != NULL && strcmp (type, "Kernel") == 0;
        }
      if (!method_name (chunk, b, fv[0].i, kernel, &name))
        {
          g_array_unref (frames);
          goto bad;
        }
      /* Leaf first in the recording, root first here */
      g_array_index (frames, guint32, (guint)(n - 1 - i)) = name;
    }
  g_hash_table_insert (chunk->stacks, g_memdup2 (&key, sizeof key), frames);
  return frames;

bad:
  g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
               _("the stack trace %" PRId64 " is corrupt"), key);
  return NULL;
}

/* The events that make profiles */

typedef enum
{
  EV_EXECUTION,
  EV_NATIVE,
  EV_WALL,
  EV_ALLOC_IN_TLAB,
  EV_ALLOC_OUTSIDE_TLAB,
  EV_ALLOC_SAMPLE,
  EV_MONITOR,
  EV_PARK,
  N_EVENTS
} EventKind;

static const struct
{
  const char *event;
  const char *count_type;
  const char *value_type;     /* NULL: the count alone */
  const char *value_unit;
  const char *value_field;    /* "duration": ticks, made nanoseconds */
} event_kinds[N_EVENTS] = {
  { "jdk.ExecutionSample", "cpu_samples", "cpu", "nanoseconds", NULL },
  { "jdk.NativeMethodSample", "native_samples", NULL, NULL, NULL },
  { "profiler.WallClockSample", "wall_samples", NULL, NULL, "samples" },
  { "jdk.ObjectAllocationInNewTLAB", "alloc_in_new_tlab_objects", "alloc_in_new_tlab_bytes", "bytes", "tlabSize" },
  { "jdk.ObjectAllocationOutsideTLAB", "alloc_outside_tlab_objects", "alloc_outside_tlab_bytes", "bytes", "allocationSize" },
  { "jdk.ObjectAllocationSample", "alloc_sample_objects", "alloc_sample_bytes", "bytes", "weight" },
  { "jdk.JavaMonitorEnter", "lock_contentions", "lock_delay", "nanoseconds", "duration" },
  { "jdk.ThreadPark", "park_contentions", "park_delay", "nanoseconds", "duration" },
};

typedef struct
{
  EmbersProfileBuilder *b;
  guint64               counts[N_EVENTS];
  gint                  count_column[N_EVENTS];
  gint                  value_column[N_EVENTS];
  guint                 n_columns;
  gint64                start_ns;
  gint64                end_ns;
  GArray               *stack;
  GArray               *periods;    /* gint64 ns per chunk, 0: not stated */
  guint                 chunk_index;
} Reader;

static void
chunk_clear (Chunk *chunk)
{
  g_clear_pointer (&chunk->classes, g_hash_table_unref);
  g_clear_pointer (&chunk->by_name, g_hash_table_unref);
  g_clear_pointer (&chunk->pools, g_hash_table_unref);
  g_clear_pointer (&chunk->stacks, g_hash_table_unref);
  g_clear_pointer (&chunk->methods, g_hash_table_unref);
  g_clear_pointer (&chunk->strings, g_hash_table_unref);
  if (chunk->scratch != NULL)
    g_string_free (chunk->scratch, TRUE);
  chunk->scratch = NULL;
}

static gint64
be64 (const guint8 *p)
{
  guint64 v = 0;

  for (guint i = 0; i < 8; i++)
    v = v << 8 | p[i];
  return (gint64)v;
}

static void
set_chunk_error (GError     **error,
                 gsize        at,
                 const char  *what)
{
  g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
               _("JFR: the chunk at byte %zu: %s"), at, what);
}

/* Opens the chunk at @at: header, metadata, constant pools */
static gboolean
chunk_open (Chunk         *chunk,
            const guint8  *data,
            gsize          len,
            gsize          at,
            gsize         *size_out,
            GError       **error)
{
  const guint8 *h = data + at;
  gint64 size, cp_offset, meta_offset;
  g_autoptr(GError) local_error = NULL;

  memset (chunk, 0, sizeof *chunk);
  if (len - at < HEADER_SIZE || memcmp (h, "FLR\0", 4) != 0)
    {
      set_chunk_error (error, at, _("no chunk header"));
      return FALSE;
    }
  if (h[4] != 0 || h[5] != 2)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                   _("JFR: version %u of the format is not supported (Embers reads version 2, "
                     "written by JDK 11 and later and by async-profiler)"), (guint)(h[4] << 8 | h[5]));
      return FALSE;
    }
  size = be64 (h + 8);
  cp_offset = be64 (h + 16);
  meta_offset = be64 (h + 24);
  if (size < HEADER_SIZE || (guint64)size > len - at)
    {
      set_chunk_error (error, at, size == 0 ? _("the recording is not finished") : _("the chunk is cut off"));
      return FALSE;
    }
  if (meta_offset < HEADER_SIZE || meta_offset >= size || cp_offset < 0 || cp_offset >= size)
    {
      set_chunk_error (error, at, _("impossible offsets"));
      return FALSE;
    }

  chunk->chunk = h;
  chunk->at = at;
  chunk->chunk_size = (gsize)size;
  chunk->compressed = (h[67] & 1) != 0;
  chunk->ticks_per_second = be64 (h + 56);
  chunk->classes = g_hash_table_new_full (u64_hash, u64_equal, g_free, (GDestroyNotify)class_free);
  chunk->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  chunk->pools = g_hash_table_new_full (u64_hash, u64_equal, g_free, (GDestroyNotify)g_hash_table_unref);
  chunk->stacks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify)g_array_unref);
  chunk->methods = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  chunk->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  chunk->scratch = g_string_new (NULL);
  *size_out = (gsize)size;

  if (!read_metadata (chunk, (gsize)meta_offset, &local_error))
    {
      set_chunk_error (error, at, local_error->message);
      return FALSE;
    }

  /* Every checkpoint (type 1) of the chunk */
  {
    Cursor c = { h, h + HEADER_SIZE, h + size, chunk->compressed, FALSE };

    while (c.p < c.end)
      {
        const guint8 *ev = c.p;
        gint64 ev_size = read_int (&c);
        gint64 type = read_long (&c);

        if (c.failed || ev_size <= 0 || ev_size > c.end - ev)
          {
            set_chunk_error (error, at, _("an event’s size is impossible"));
            return FALSE;
          }
        if (type == T_EVENT_CHECKPOINT && !read_checkpoint (chunk, ev, (gsize)ev_size))
          {
            set_chunk_error (error, at, _("a constant pool is corrupt"));
            return FALSE;
          }
        c.p = ev + ev_size;
      }
  }
  return TRUE;
}

/* A JFR timespan setting ("10 ms", "1 s", "20000 us") in nanoseconds; 0
 * for anything else ("off", "everyChunk", garbage, overflow) */
static gint64
timespan_ns (const char *text)
{
  static const struct { const char *unit; gint64 ns; } units[] = {
    { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
    { "m", G_GINT64_CONSTANT (60000000000) }, { "h", G_GINT64_CONSTANT (3600000000000) },
    { "d", G_GINT64_CONSTANT (86400000000000) },
  };
  const char *p = text;
  gint64 n = 0;

  if (!g_ascii_isdigit (*p))
    return 0;
  for (; g_ascii_isdigit (*p); p++)
    {
      if (n > (G_MAXINT64 - 9) / 10)
        return 0;
      n = n * 10 + (*p - '0');
    }
  while (*p == ' ')
    p++;
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (p, units[i].unit) == 0)
      return n <= G_MAXINT64 / units[i].ns ? n * units[i].ns : 0;
  return 0;
}

/* A String field read by read_fields: inline or a pool key */
static gboolean
string_field (Chunk       *chunk,
              Class       *cls,
              const char  *name,
              const Value *v,
              GString     *out)
{
  g_string_truncate (out, 0);
  if (!v->set)
    return FALSE;
  for (guint i = 0; i < cls->fields->len; i++)
    {
      Field *f = &g_array_index (cls->fields, Field, i);
      Cursor c = { chunk->chunk, v->at, chunk->chunk + chunk->chunk_size, chunk->compressed, FALSE };
      const char *pooled;

      if (strcmp (f->name, name) != 0 || f->dims != 0)
        continue;
      if (!f->cp)
        return read_string (&c, chunk, out, 0);
      pooled = constant_string (chunk, "java.lang.String", v->i, NULL);
      if (pooled == NULL)
        return FALSE;
      g_string_assign (out, pooled);
      return TRUE;
    }
  return FALSE;
}

/* A jdk.ActiveSetting event: the sampling period of @sample_type, if it
 * states it, into *period_ns (the shortest stated in the chunk) */
static void
active_setting (Chunk        *chunk,
                Class        *setting,
                const guint8 *fields,
                const guint8 *end,
                guint64       sample_type,
                gint64       *period_ns)
{
  const char *names[] = { "id", "name", "value" };
  Cursor c = { chunk->chunk, fields, end, chunk->compressed, FALSE };
  g_autoptr(GString) text = g_string_new (NULL);
  Value v[3];
  gint64 ns;

  /* A setting that cannot be read is no setting: the samples keep the
   * default period, never fail the recording */
  if (!read_fields (&c, chunk, setting, names, v, 3) || !v[0].set || (guint64)v[0].i != sample_type)
    return;
  if (!string_field (chunk, setting, "name", &v[1], text) || strcmp (text->str, "period") != 0)
    return;
  if (!string_field (chunk, setting, "value", &v[2], text))
    return;
  ns = timespan_ns (text->str);
  if (ns > 0 && (*period_ns == 0 || ns < *period_ns))
    *period_ns = ns;
}

/* Whether an execution sample's thread was sleeping: async-profiler's
 * wall-clock mode writes those as execution samples too, and they are no
 * CPU time; Pyroscope leaves them out of cpu (jfr-parser pprof/parser.go:
 * ts.Name != "STATE_SLEEPING"). The JDK samples running threads only. */
static gboolean
sleeping (Chunk        *chunk,
          Class        *execution,
          const guint8 *fields,
          const guint8 *end)
{
  const char *names[] = { "state" };
  Cursor c = { chunk->chunk, fields, end, chunk->compressed, FALSE };
  const char *state;
  Value v;

  /* A sample whose state cannot be read counts (Pyroscope drops one
   * without a state: a writer that left states out would lose all CPU) */
  if (!read_fields (&c, chunk, execution, names, &v, 1) || !v.set)
    return FALSE;
  state = constant_string (chunk, "jdk.types.ThreadState", v.i, "name");
  return state != NULL && strcmp (state, "STATE_SLEEPING") == 0;
}

static gint
event_kind_of (Chunk   *chunk,
               guint64  type,
               Class  **classes)
{
  for (guint k = 0; k < N_EVENTS; k++)
    if (classes[k] != NULL && classes[k]->id == type)
      return (gint)k;
  return -1;
}

/* Counts the events of each kind (first pass) or adds them (second) */
static gboolean
chunk_events (Chunk    *chunk,
              Reader   *r,
              gboolean  add,
              GError  **error)
{
  Class *classes[N_EVENTS];
  Cursor c = { chunk->chunk, chunk->chunk + HEADER_SIZE, chunk->chunk + chunk->chunk_size,
               chunk->compressed, FALSE };

  Class *setting = class_by_name (chunk, "jdk.ActiveSetting");
  gint64 period_ns = 0;

  for (guint k = 0; k < N_EVENTS; k++)
    classes[k] = class_by_name (chunk, event_kinds[k].event);
  if (add && r->chunk_index < r->periods->len)
    period_ns = g_array_index (r->periods, gint64, r->chunk_index);
  if (add && period_ns <= 0)
    period_ns = DEFAULT_PERIOD_NS;

  while (c.p < c.end)
    {
      const guint8 *ev = c.p;
      gint64 ev_size = read_int (&c);
      guint64 type = (guint64)read_long (&c);
      gint kind;

      if (c.failed || ev_size <= 0 || ev_size > c.end - ev)
        {
          set_chunk_error (error, chunk->at, _("an event’s size is impossible"));
          return FALSE;
        }
      kind = event_kind_of (chunk, type, classes);
      if (kind == EV_EXECUTION && sleeping (chunk, classes[EV_EXECUTION], c.p, ev + ev_size))
        kind = -1;
      if (!add && setting != NULL && type == setting->id && classes[EV_EXECUTION] != NULL)
        active_setting (chunk, setting, c.p, ev + ev_size, classes[EV_EXECUTION]->id, &period_ns);
      if (kind >= 0 && !add)
        r->counts[kind]++;
      else if (kind >= 0)
        {
          const char *names[] = { "stackTrace", event_kinds[kind].value_field ? event_kinds[kind].value_field : "" };
          Cursor ec = { chunk->chunk, c.p, ev + ev_size, chunk->compressed, FALSE };
          Value v[2];
          GArray *frames;
          gint64 value = 0;

          if (!read_fields (&ec, chunk, classes[kind], names, v, 2))
            {
              g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                           _("JFR: a %s event is corrupt"), event_kinds[kind].event);
              return FALSE;
            }
          frames = v[0].set ? stack_trace (chunk, r->b, v[0].i, error) : NULL;
          if (v[0].set && frames == NULL)
            return FALSE;
          if (event_kinds[kind].value_field != NULL && v[1].set)
            {
              value = v[1].i;
              if (strcmp (event_kinds[kind].value_field, "duration") == 0)
                {
                  /* ticks to nanoseconds */
                  if (chunk->ticks_per_second > 0 && chunk->ticks_per_second != 1000000000)
                    value = (gint64)((double)value * 1e9 / (double)chunk->ticks_per_second);
                }
              if (value < 0)
                value = 0;
            }

          {
            g_autofree gint64 *values = g_new0 (gint64, r->n_columns);

            if (kind == EV_EXECUTION)
              value = period_ns;
            if (kind == EV_WALL)
              values[r->count_column[kind]] = v[1].set ? MAX (value, 0) : 1;
            else
              values[r->count_column[kind]] = 1;
            if (r->value_column[kind] >= 0)
              values[r->value_column[kind]] = value;
            embers_profile_builder_add_stack (r->b, frames ? (const guint32 *)(gpointer)frames->data : NULL,
                                              frames ? frames->len : 0, values, 0);
          }
        }
      c.p = ev + ev_size;
    }
  if (!add)
    g_array_append_val (r->periods, period_ns);
  return embers_profile_builder_check (r->b, error);
}

EmbersProfile *
embers_jfr_parse (const guint8  *data,
                  gsize          len,
                  GError       **error)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GArray) periods = g_array_new (FALSE, FALSE, sizeof (gint64));
  Reader r = { b, { 0 }, { 0 }, { 0 }, 0, G_MAXINT64, G_MININT64, NULL, periods, 0 };
  guint64 total = 0;

  for (guint pass = 0; pass < 2; pass++)
    {
      gsize at = 0;

      r.chunk_index = 0;
      while (at < len)
        {
          Chunk chunk;
          gsize size = 0;
          gboolean ok;

          ok = chunk_open (&chunk, data, len, at, &size, error) &&
               chunk_events (&chunk, &r, pass == 1, error);
          if (ok && pass == 0)
            {
              gint64 start = be64 (data + at + 32);
              gint64 duration = be64 (data + at + 40);

              r.start_ns = MIN (r.start_ns, start);
              if (duration >= 0 && start <= G_MAXINT64 - duration)
                r.end_ns = MAX (r.end_ns, start + duration);
            }
          chunk_clear (&chunk);
          if (!ok)
            return NULL;
          at += size;
          r.chunk_index++;
        }

      if (pass == 0)
        {
          for (guint k = 0; k < N_EVENTS; k++)
            {
              r.count_column[k] = -1;
              r.value_column[k] = -1;
              if (r.counts[k] == 0)
                continue;
              total += r.counts[k];
              r.count_column[k] = (gint)embers_profile_builder_add_sample_type (b, event_kinds[k].count_type, "count");
              if (event_kinds[k].value_type != NULL)
                r.value_column[k] = (gint)embers_profile_builder_add_sample_type (b, event_kinds[k].value_type,
                                                                                  event_kinds[k].value_unit);
            }
          r.n_columns = embers_profile_builder_get_n_sample_types (b);
          if (total == 0)
            {
              g_set_error_literal (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                                   _("JFR: the recording has no execution samples, allocations or lock "
                                     "events (record with a profiling configuration, e.g. "
                                     "-XX:StartFlightRecording:settings=profile)"));
              return NULL;
            }
          /* CPU time first, as Pyroscope shows a Java service */
          embers_profile_builder_set_default_sample_type (b, r.value_column[EV_EXECUTION] >= 0
                                                             ? (guint)r.value_column[EV_EXECUTION] : 0);
        }
    }

  if (r.start_ns != G_MAXINT64 && r.end_ns >= r.start_ns)
    embers_profile_builder_set_time (b, r.start_ns, r.end_ns - r.start_ns);
  return embers_profile_builder_finish (b, error);
}
