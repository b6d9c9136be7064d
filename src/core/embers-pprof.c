/* embers-pprof.c: pprof (google.v1.Profile / perftools.profiles) reader and writer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n.h>

#include "profile.pb-c.h"

#include "embers-input.h"
#include "embers-pprof-samples.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"

/* protobuf-c allocates every message separately; a bump arena makes the
 * unpack of a large profile several times faster and frees in one go. */
typedef struct
{
  GPtrArray    *chunks;
  guint8       *cur;
  gsize         left;
  GCancellable *cancellable;  /* a new chunk is refused once it is cancelled */
} Arena;

#define ARENA_CHUNK (4u * 1024u * 1024u)

static void *
arena_alloc (void   *data,
             size_t  size)
{
  Arena *arena = data;
  void *ret;

  size = (size + 15) & ~(size_t)15;
  if (size > arena->left)
    {
      gsize chunk = MAX ((gsize)ARENA_CHUNK, size);

      /* A cancelled load stops its unpack within a chunk's worth: the
       * unpack fails as for memory it could not have (protobuf-c checks
       * every allocation), and the arena is freed whole */
      if (arena->cancellable != NULL && g_cancellable_is_cancelled (arena->cancellable))
        return NULL;
      arena->cur = g_malloc (chunk);
      arena->left = chunk;
      g_ptr_array_add (arena->chunks, arena->cur);
    }

  ret = arena->cur;
  arena->cur += size;
  arena->left -= size;

  return ret;
}

static void
arena_free (void *data,
            void *pointer)
{
}

/* The top level of a profile, as it streams in: samples are by far the
 * bulk of a profile, so each is decoded and merged as it arrives
 * (embers-pprof-samples.c) and only the rest, the tables, is kept and
 * unpacked by protobuf-c at the end. A field that a block's end cuts off
 * waits in a carry buffer for the next block. */

typedef enum
{
  FIELD_OK,
  FIELD_CUT,       /* needs more bytes; *total tells how many when known */
  FIELD_CORRUPT,
} FieldResult;

/* The extent of the top-level field at p: its total length with tag */
static FieldResult
field_extent (const guint8 *p,
              const guint8 *end,
              guint64       max_len,
              guint        *field,
              guint        *wire,
              gsize        *header,
              guint64      *total)
{
  const guint8 *q = p;
  guint64 tag, value;

  *total = 0;
  if (!embers_pprof_varint (&q, end, &tag))
    return end - p >= 10 ? FIELD_CORRUPT : FIELD_CUT;
  *field = (guint)MIN (tag >> 3, G_MAXUINT);
  *wire = (guint)(tag & 7);
  if (*field == 0 || (*field == 2 && *wire != 2))
    return FIELD_CORRUPT;

  switch (*wire)
    {
    case 0:
      if (!embers_pprof_varint (&q, end, &value))
        return end - q >= 10 ? FIELD_CORRUPT : FIELD_CUT;
      *header = q - p;
      *total = q - p;
      return FIELD_OK;
    case 1:
    case 5:
      *header = q - p;
      *total = (q - p) + (*wire == 1 ? 8 : 4);
      return (guint64)(end - p) >= *total ? FIELD_OK : FIELD_CUT;
    case 2:
      if (!embers_pprof_varint (&q, end, &value))
        return end - q >= 10 ? FIELD_CORRUPT : FIELD_CUT;
      if (value > max_len)
        return FIELD_CORRUPT;
      *header = q - p;
      *total = (q - p) + value;
      return (guint64)(end - p) >= *total ? FIELD_OK : FIELD_CUT;
    default:
      return FIELD_CORRUPT;
    }
}

/* The streaming reader: blocks in, a profile out. Threaded, the caller
 * (which reads and inflates the blocks) frames each block and hands its
 * samples to a decoding thread; when that thread is behind, the caller
 * decodes a block's samples itself, into a second set merged at the end:
 * both cores decode, in the share the inflating leaves. Without a thread,
 * blocks are read where they are. */

#define BLOCK_SIZE   ((gsize)1024 * 1024)
#define N_BLOCKS     8

typedef struct
{
  guint32 offset;   /* in the block */
  guint32 len;
  gsize   index;    /* the sample's number in the file */
  gsize   n_types;  /* sample types met before it (a thread decodes it
                     * later, while the framing goes on) */
} SampleRef;

typedef struct
{
  guint8 *data;
  gsize   len;
  gsize   cap;
  GArray *batch;    /* SampleRef: the samples wholly in the block */
} Block;

struct _EmbersPprofReader
{
  EmbersInputOptions  options;

  /* Framing, by the caller */
  guint64             offset;        /* bytes framed so far */
  GByteArray         *carry;         /* a field cut by a block's end */
  guint64             carry_total;   /* its length, when known (else 0) */
  GByteArray         *rest;          /* every top-level field but samples */
  gsize               n_sample_fields;
  gsize               n_sample_types;
  Block              *framing;       /* the block being framed, or NULL */

  /* Samples decoded by the decoding thread (all of them without one),
   * and by the caller */
  EmbersPprofSamples  samples;
  EmbersPprofSamples  caller_samples;
  gsize               caller_blocks;
  gsize               thread_blocks;
  guint               caller_share;   /* tests: every n-th block here */
  gsize               n_blocks;

  /* The decoding thread */
  GThread            *thread;
  GAsyncQueue        *work;          /* Block * (the end: a block of len 0) */
  GAsyncQueue        *free;          /* Block * */
  Block               blocks[N_BLOCKS];
  GMutex              lock;
  GError             *error;         /* the first error, sticky */
  gint                failed;        /* atomic */

  gint64              started;       /* monotonic, when made */
};

static void
reader_fail (EmbersPprofReader *r,
             GError            *error)
{
  g_mutex_lock (&r->lock);
  if (r->error == NULL)
    r->error = error;
  else
    g_error_free (error);
  g_mutex_unlock (&r->lock);
  g_atomic_int_set (&r->failed, 1);
}

static void
reader_corrupt (EmbersPprofReader *r,
                guint64            at,
                gboolean           truncated)
{
  if (truncated)
    reader_fail (r, g_error_new (EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                                 _("pprof: not a valid profile protobuf (the data is truncated or corrupt at byte %zu)"),
                                 (gsize)at));
  else
    reader_fail (r, g_error_new (EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                                 _("pprof: not a valid profile protobuf (the data is corrupt at byte %zu)"),
                                 (gsize)at));
}

/* One sample into @s, unless a sample before it could not be read there */
static void
decode_sample (EmbersPprofSamples *s,
               const guint8       *body,
               gsize               len,
               gsize               index,
               gsize               n_sample_types)
{
  if (s->error != EMBERS_PPROF_SAMPLE_OK)
    return;   /* that error names the first: the rest are only framed */
  /* Not once samples are stored: those of no values left no room */
  if (s->n_types == 0 && n_sample_types > 0 && s->first_sample->len == 0 && s->entry_stacks->len == 0)
    s->n_types = MIN (n_sample_types, G_N_ELEMENTS (s->sample_values));
  embers_pprof_samples_add (s, body, len, index);
}

/* One whole top-level field: @in_block when it lies in the block being
 * framed (not in the carry buffer) */
static void
reader_field (EmbersPprofReader *r,
              const guint8      *p,
              gsize              total,
              guint              field,
              gsize              header,
              gboolean           in_block)
{
  if (field == 2)
    {
      gsize index = r->n_sample_fields++;

      if (in_block && r->framing != NULL)
        {
          SampleRef ref = { (guint32)(p + header - r->framing->data), (guint32)(total - header), index,
                            r->n_sample_types };

          g_array_append_val (r->framing->batch, ref);
        }
      else
        /* Without a thread, or one cut by a block's end: here */
        decode_sample (r->framing != NULL ? &r->caller_samples : &r->samples,
                       p + header, total - header, index, r->n_sample_types);
      return;
    }

  if (field == 1)
    r->n_sample_types++;
  g_byte_array_append (r->rest, p, total);
}

/* Frames a block: whole fields are read where they are, a cut one goes
 * to the carry buffer */
static void
reader_frame (EmbersPprofReader *r,
              const guint8      *data,
              gsize              len)
{
  const guint8 *p = data;
  const guint8 *end = data + len;
  guint64 max_len = r->options.max_inflated;

  /* First the field the last block cut */
  while (r->carry->len > 0 && p < end)
    {
      gsize take;
      guint field, wire;
      gsize header;
      guint64 total;
      FieldResult result;

      if (r->carry_total > 0)
        take = MIN ((gsize)(r->carry_total - r->carry->len), (gsize)(end - p));
      else
        take = MIN ((gsize)20 - MIN (r->carry->len, 20), (gsize)(end - p));
      g_byte_array_append (r->carry, p, take);
      p += take;

      result = field_extent (r->carry->data, r->carry->data + r->carry->len, max_len,
                             &field, &wire, &header, &total);
      if (result == FIELD_CORRUPT)
        {
          reader_corrupt (r, r->offset, FALSE);
          return;
        }
      if (result == FIELD_CUT)
        {
          r->carry_total = total;
          continue;
        }
      g_assert (total == r->carry->len || r->carry_total == 0);
      if (total < r->carry->len)
        {
          /* The header guess took bytes of the next field: give them back */
          p -= r->carry->len - total;
          g_byte_array_set_size (r->carry, total);
        }
      reader_field (r, r->carry->data, total, field, header, FALSE);
      r->offset += total;
      g_byte_array_set_size (r->carry, 0);
      r->carry_total = 0;
    }

  while (p < end)
    {
      guint field, wire;
      gsize header;
      guint64 total;
      FieldResult result = field_extent (p, end, max_len, &field, &wire, &header, &total);

      if (result == FIELD_CORRUPT)
        {
          reader_corrupt (r, r->offset, FALSE);
          return;
        }
      if (result == FIELD_CUT)
        {
          g_byte_array_append (r->carry, p, end - p);
          r->carry_total = total;
          return;
        }
      reader_field (r, p, total, field, header, TRUE);
      r->offset += total;
      p += total;
    }
}

static gpointer
reader_thread (gpointer data)
{
  EmbersPprofReader *r = data;
  gint64 busy = 0, waited = 0;

  for (;;)
    {
      gint64 t0 = g_get_monotonic_time (), t1;
      Block *block = g_async_queue_pop (r->work);
      gboolean end = block->len == 0;

      t1 = g_get_monotonic_time ();
      waited += t1 - t0;
      if (!end)
        r->thread_blocks++;
      if (!end && !g_atomic_int_get (&r->failed))
        for (guint i = 0; i < block->batch->len; i++)
          {
            const SampleRef *ref = &g_array_index (block->batch, SampleRef, i);

            decode_sample (&r->samples, block->data + ref->offset, ref->len, ref->index, ref->n_types);
          }
      busy += g_get_monotonic_time () - t1;
      g_async_queue_push (r->free, block);
      if (end)
        break;
    }

  g_debug ("pprof: decoding thread busy %.1f ms, waited %.1f ms, %zu blocks; the caller decoded %zu",
           busy / 1e3, waited / 1e3, r->thread_blocks, r->caller_blocks);
  return NULL;
}

EmbersPprofReader *
embers_pprof_reader_new (const EmbersInputOptions *options,
                         gboolean                  threaded)
{
  EmbersPprofReader *r = g_new0 (EmbersPprofReader, 1);

  if (options != NULL)
    r->options = *options;
  else
    embers_input_options_init (&r->options);
  if (r->options.max_inflated == 0)
    r->options.max_inflated = EMBERS_MAX_DECOMPRESSED_SIZE;
  r->started = g_get_monotonic_time ();
  r->carry = g_byte_array_new ();
  r->rest = g_byte_array_new ();
  embers_pprof_samples_init (&r->samples, 0);
  embers_pprof_samples_init (&r->caller_samples, 0);
  g_mutex_init (&r->lock);

  if (threaded)
    {
      r->work = g_async_queue_new ();
      r->free = g_async_queue_new ();
      for (guint i = 0; i < N_BLOCKS; i++)
        {
          r->blocks[i].batch = g_array_new (FALSE, FALSE, sizeof (SampleRef));
          g_async_queue_push (r->free, &r->blocks[i]);
        }
      r->thread = g_thread_new ("embers-pprof", reader_thread, r);
    }

  return r;
}

/* Waits for the decoding thread to be done with every block */
static void
reader_join (EmbersPprofReader *r)
{
  Block *block;

  if (r->thread == NULL)
    return;

  block = g_async_queue_pop (r->free);
  block->len = 0;
  g_async_queue_push (r->work, block);
  g_thread_join (g_steal_pointer (&r->thread));

  /* The blocks are read: their memory goes before the tree is made */
  for (guint i = 0; i < N_BLOCKS; i++)
    {
      g_clear_pointer (&r->blocks[i].data, g_free);
      r->blocks[i].cap = 0;
    }
}

void
embers_pprof_reader_free (EmbersPprofReader *r)
{
  if (r == NULL)
    return;

  reader_join (r);
  for (guint i = 0; i < N_BLOCKS; i++)
    {
      g_free (r->blocks[i].data);
      g_clear_pointer (&r->blocks[i].batch, g_array_unref);
    }
  g_clear_pointer (&r->work, g_async_queue_unref);
  g_clear_pointer (&r->free, g_async_queue_unref);
  g_byte_array_unref (r->carry);
  g_byte_array_unref (r->rest);
  embers_pprof_samples_clear (&r->samples);
  embers_pprof_samples_clear (&r->caller_samples);
  g_clear_error (&r->error);
  g_mutex_clear (&r->lock);
  g_free (r);
}

void
embers_pprof_reader_set_caller_share (EmbersPprofReader *r,
                                      guint              every)
{
  r->caller_share = every;
}

static gboolean
reader_check (EmbersPprofReader  *r,
              GError            **error)
{
  if (!g_atomic_int_get (&r->failed))
    return TRUE;

  g_mutex_lock (&r->lock);
  if (error != NULL)
    *error = g_error_copy (r->error);
  g_mutex_unlock (&r->lock);
  return FALSE;
}

gboolean
embers_pprof_reader_push (EmbersPprofReader  *r,
                          const guint8       *data,
                          gsize               len,
                          GError            **error)
{
  if (!reader_check (r, error))
    return FALSE;

  if (r->thread == NULL)
    {
      reader_frame (r, data, len);
      return reader_check (r, error);
    }

  while (len > 0)
    {
      Block *block = g_async_queue_pop (r->free);
      gsize n = MIN (len, BLOCK_SIZE);

      if (block->cap < n)
        {
          g_free (block->data);
          block->cap = MAX (n, BLOCK_SIZE);
          block->data = g_malloc (block->cap);
        }
      memcpy (block->data, data, n);
      block->len = n;
      data += n;
      len -= n;

      g_array_set_size (block->batch, 0);
      r->framing = block;
      reader_frame (r, block->data, block->len);
      r->framing = NULL;
      if (!reader_check (r, error))
        {
          g_async_queue_push (r->free, block);
          return FALSE;
        }

      /* The decoding thread has two blocks to do already: this one is
       * decoded here */
      r->n_blocks++;
      if (r->caller_share > 0 ? r->n_blocks % r->caller_share == 0
                              : g_async_queue_length (r->work) >= 2)
        {
          r->caller_blocks++;
          for (guint i = 0; i < block->batch->len; i++)
            {
              const SampleRef *ref = &g_array_index (block->batch, SampleRef, i);

              decode_sample (&r->caller_samples, block->data + ref->offset, ref->len, ref->index, ref->n_types);
            }
          g_async_queue_push (r->free, block);
        }
      else
        g_async_queue_push (r->work, block);
    }

  return TRUE;
}

/* The caller's samples go into the decoding thread's: stacks and label
 * sets by their bytes, values summed, the earliest first sample and error */
static void
merge_samples (EmbersPprofSamples *into,
               EmbersPprofSamples *from)
{
  guint n_types;
  g_autofree guint32 *stack_map = NULL;
  g_autofree guint32 *set_map = NULL;

  if (from->n_samples == 0 && from->error == EMBERS_PPROF_SAMPLE_OK)
    return;

  if (from->error != EMBERS_PPROF_SAMPLE_OK &&
      (into->error == EMBERS_PPROF_SAMPLE_OK || from->error_sample < into->error_sample))
    {
      into->error = from->error;
      into->error_sample = from->error_sample;
      into->error_detail = from->error_detail;
      into->error_value = from->error_value;
    }
  if (from->n_samples == 0)
    return;
  if (into->n_samples > 0 && into->n_types != from->n_types)
    {
      /* Both adopted a count from their first sample (before the sample
       * types were known): the one that does not match tells */
      if (into->error == EMBERS_PPROF_SAMPLE_OK)
        {
          into->error = EMBERS_PPROF_SAMPLE_VALUE_COUNT;
          into->error_sample = 0;
          into->error_detail = from->n_types;
        }
      return;
    }
  /* @into has no sample yet (its count, if any, came from the sample
   * types it saw, and none of its values are kept), or the same count:
   * @from's values are read with their own stride */
  n_types = from->n_types;
  into->n_types = n_types;

  stack_map = g_new (guint32, MAX (from->stacks.n, 1));
  for (guint32 st = 0; st < from->stacks.n; st++)
    {
      gboolean added;
      guint32 id = embers_seq_table_add_bytes (&into->stacks, embers_seq_table_get_bytes (&from->stacks, st),
                                               embers_seq_table_n_bytes (&from->stacks, st), &added);
      const gint64 *v = &g_array_index (from->values, gint64, (gsize)st * n_types);
      guint32 first = g_array_index (from->first_sample, guint32, st);
      gint64 *dest;

      stack_map[st] = id;
      if (id == G_MAXUINT32)
        continue;
      if (added)
        {
          g_array_append_val (into->first_sample, first);
          g_array_set_size (into->values, into->values->len + n_types);
        }
      else
        g_array_index (into->first_sample, guint32, id) = MIN (g_array_index (into->first_sample, guint32, id), first);
      dest = &g_array_index (into->values, gint64, (gsize)id * n_types);
      for (guint t = 0; t < n_types; t++)
        if G_UNLIKELY (__builtin_add_overflow (dest[t], v[t], &dest[t]) &&
                       into->error == EMBERS_PPROF_SAMPLE_OK)
          {
            into->error = EMBERS_PPROF_SAMPLE_OVERFLOW;
            into->error_sample = first;
          }
    }

  set_map = g_new (guint32, from->label_sets.n + 1);
  set_map[0] = 0;
  for (guint32 k = 0; k < from->label_sets.n; k++)
    {
      gboolean added;
      guint32 id = embers_seq_table_add_bytes (&into->label_sets, embers_seq_table_get_bytes (&from->label_sets, k),
                                               embers_seq_table_n_bytes (&from->label_sets, k), &added);

      set_map[k + 1] = id + 1;
    }

  for (guint e = 0; e < from->entry_stacks->len; e++)
    {
      guint32 st = stack_map[g_array_index (from->entry_stacks, guint32, e)];
      guint32 set = set_map[g_array_index (from->entry_sets, guint32, e)];

      if (st == G_MAXUINT32)
        continue;
      g_array_append_val (into->entry_stacks, st);
      g_array_append_val (into->entry_sets, set);
      g_array_append_vals (into->entry_values, &g_array_index (from->entry_values, gint64, (gsize)e * n_types),
                           n_types);
    }

  into->n_samples += from->n_samples;
}

typedef struct
{
  guint32 name;     /* interned; 0 when the function has no name */
  guint32 file;     /* interned */
  gint64  start_line;
  guint64 id;
} FunctionInfo;

typedef struct
{
  guint32  offset;  /* into the frames pool: root-first frame names */
  guint32  n;
} LocationInfo;

typedef struct
{
  Google__V1__Profile  *msg;
  EmbersProfileBuilder *b;
  guint32              *string_ids;   /* string table index -> interned id, G_MAXUINT32 = not yet */
  GHashTable           *functions;    /* id -> FunctionInfo index + 1 */
  GArray               *function_info;
  GHashTable           *locations;    /* id -> LocationInfo index + 1 */
  guint32              *dense_locations; /* the same as an array when ids are small */
  guint64               n_dense_locations;
  GArray               *location_info;
  GArray               *frames;       /* guint32 pool */
  GHashTable           *mappings;     /* id -> Mapping * */
  gsize                 n_samples;    /* in the file (they are read apart) */
  EmbersInputProgressFunc progress;   /* stacks resolved, of all */
  gpointer              user_data;
  EmbersInputInterimFunc interim;
  guint                 interim_every;
  gint64                started;      /* the load's start, monotonic */
  guint                 default_type;
  GCancellable         *cancellable;
} Reader;

static const char *raw_string (Reader *r,
                               gint64  index);

/*
 * Interim profiles of a long load (embers-input.h): while the stacks are
 * resolved, each also goes into a small tree of at most COARSE_MAX_NODES
 * nodes and COARSE_MAX_DEPTH levels (a probe per frame into a map that
 * stays in cache, down to where the tree has no room left: there the rest
 * of the stack's value stays, so every total is whole). When the tree is
 * full it keeps its frames that hold a visible share of the samples so far
 * (coarse_prune: the light ones go into their parents), so that what room
 * the first stacks took is given back to the heavy paths, however wide the
 * top levels of a profile are. Now and then that tree becomes a profile.
 */

#define COARSE_MAX_NODES    16384u
#define COARSE_MAX_DEPTH    24u      /* the budget goes to breadth first */
#define COARSE_KEEP_SHARE   4096u    /* a frame under 1/this of the samples is not kept */
#define INTERIM_FIRST       (G_USEC_PER_SEC / 4)   /* after the tables */
#define INTERIM_INTERVAL    G_USEC_PER_SEC
#define INTERIM_MIN_STACKS  200000u
#define INTERIM_MIN_LOAD    G_USEC_PER_SEC

typedef struct
{
  EmbersU64Map map;        /* parent << 32 | name -> node */
  GArray      *parents;    /* guint32; node 0 is the root */
  GArray      *names;      /* guint32, the builder's string ids */
  GArray      *values;     /* gint64, n_types per node: what stops there */
  guint        n_types;
  guint        default_type;
  gint64       total;      /* of the default type, of every stack */
  gint64       added;      /* of the default type, of the stacks added */
  gint64       last;       /* when the last one went (monotonic) */
  guint        since;      /* stacks added since */
} Coarse;

static void
coarse_init (Coarse *c,
             guint   n_types,
             guint   default_type)
{
  guint32 none = G_MAXUINT32, root = 0;

  embers_u64_map_init (&c->map, COARSE_MAX_NODES * 2);
  c->parents = g_array_new (FALSE, FALSE, sizeof (guint32));
  c->names = g_array_new (FALSE, FALSE, sizeof (guint32));
  c->values = g_array_new (FALSE, TRUE, sizeof (gint64));
  c->n_types = n_types;
  c->default_type = default_type;
  g_array_append_val (c->parents, none);
  g_array_append_val (c->names, root);
  g_array_set_size (c->values, n_types);
}

static void
coarse_clear (Coarse *c)
{
  if (c->parents == NULL)
    return;
  embers_u64_map_clear (&c->map);
  g_clear_pointer (&c->parents, g_array_unref);
  g_clear_pointer (&c->names, g_array_unref);
  g_clear_pointer (&c->values, g_array_unref);
}

/* The child of @node named @name, or G_MAXUINT32 when the tree is full
 * and has none */
static guint32
coarse_child (Coarse  *c,
              guint32  node,
              guint32  name)
{
  guint64 key = ((guint64)node << 32) | name;
  gboolean found;
  guint32 *slot;

  if (c->parents->len >= COARSE_MAX_NODES)
    {
      guint64 stored = key + 1;

      for (gsize i = embers_mix64 (key) & c->map.mask;; i = (i + 1) & c->map.mask)
        {
          if (c->map.slots[i].key == stored)
            return c->map.slots[i].value;
          if (c->map.slots[i].key == 0)
            return G_MAXUINT32;
        }
    }

  slot = embers_u64_map_lookup_or_insert (&c->map, key, &found);
  if (!found)
    {
      *slot = c->parents->len;
      g_array_append_val (c->parents, node);
      g_array_append_val (c->names, name);
      g_array_set_size (c->values, c->values->len + c->n_types);
    }
  return *slot;
}

/* The tree is full: keep the frames that hold at least 1/COARSE_KEEP_SHARE
 * of the samples so far (a frame's parent holds at least as much, so what
 * is kept is a tree), the bar doubled until at most half the room is
 * taken; a frame not kept gives what stopped in it, and in its subtree, to
 * its nearest kept ancestor: every total stays whole. Nodes are numbered
 * after their parents, so one pass up and one down do it. */
static void
coarse_prune (Coarse *c)
{
  const guint n = c->parents->len;
  const guint nt = c->n_types;
  const guint32 *parents = (const guint32 *)(gpointer)c->parents->data;
  const guint32 *names = (const guint32 *)(gpointer)c->names->data;
  const gint64 *values = (const gint64 *)(gpointer)c->values->data;
  g_autofree gint64 *totals = g_new0 (gint64, n);
  g_autofree guint32 *to = g_new (guint32, n);  /* the node (new numbers) it goes to */
  g_autoptr(GArray) new_parents = NULL;
  g_autoptr(GArray) new_names = NULL;
  g_autoptr(GArray) new_values = NULL;
  gint64 bar = MAX (c->added / COARSE_KEEP_SHARE, 1);
  guint kept;

  for (guint i = n; i-- > 0;)
    {
      totals[i] += values[(gsize)i * nt + c->default_type];
      if (i > 0)
        totals[parents[i]] += totals[i];
    }
  for (;; bar *= 2)
    {
      kept = 1;
      for (guint i = 1; i < n; i++)
        kept += totals[i] >= bar;
      if (kept <= COARSE_MAX_NODES / 2)
        break;
    }

  new_parents = g_array_sized_new (FALSE, FALSE, sizeof (guint32), COARSE_MAX_NODES);
  new_names = g_array_sized_new (FALSE, FALSE, sizeof (guint32), COARSE_MAX_NODES);
  new_values = g_array_new (FALSE, TRUE, sizeof (gint64));
  g_array_set_size (new_values, (gsize)kept * nt);
  embers_u64_map_clear (&c->map);
  embers_u64_map_init (&c->map, COARSE_MAX_NODES * 2);
  to[0] = 0;
  g_array_append_val (new_parents, parents[0]);
  g_array_append_val (new_names, names[0]);
  for (guint i = 0; i < n; i++)
    {
      gint64 *at;

      if (i > 0 && totals[i] >= bar)
        {
          guint32 parent = to[parents[i]];
          gboolean found;

          to[i] = new_parents->len;
          *embers_u64_map_lookup_or_insert (&c->map, ((guint64)parent << 32) | names[i], &found) = to[i];
          g_array_append_val (new_parents, parent);
          g_array_append_val (new_names, names[i]);
        }
      else if (i > 0)
        to[i] = to[parents[i]];
      at = &g_array_index (new_values, gint64, (gsize)to[i] * nt);
      for (guint t = 0; t < nt; t++)
        at[t] += values[(gsize)i * nt + t];
    }
  g_debug ("pprof: the coarse tree kept %u of %u nodes (%" G_GINT64_FORMAT " and more of %" G_GINT64_FORMAT ")",
           kept, n, bar, c->added);
  g_array_unref (c->parents);
  g_array_unref (c->names);
  g_array_unref (c->values);
  c->parents = g_steal_pointer (&new_parents);
  c->names = g_steal_pointer (&new_names);
  c->values = g_steal_pointer (&new_values);
}

static void
coarse_add (Coarse        *c,
            const guint32 *names,
            gsize          n_names,
            const gint64  *values)
{
  guint32 node = 0;
  gint64 *at;

  /* Room for the whole stack, or the light frames make way */
  if (c->parents->len + MIN (n_names, COARSE_MAX_DEPTH) > COARSE_MAX_NODES && c->added > 0)
    coarse_prune (c);
  for (gsize i = 0; i < MIN (n_names, COARSE_MAX_DEPTH); i++)
    {
      guint32 child = coarse_child (c, node, names[i]);

      if (child == G_MAXUINT32)
        break;
      node = child;
    }
  at = &g_array_index (c->values, gint64, (gsize)node * c->n_types);
  for (guint t = 0; t < c->n_types; t++)
    at[t] += values[t];
  c->added += values[c->default_type];
  c->since++;
}

/* The tree so far as a profile, to the interim callback (none once the
 * load is cancelled: it stops within milliseconds) */
static void
coarse_offer (Reader       *r,
              Coarse       *c,
              GCancellable *cancellable)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autofree guint32 *ids = g_new (guint32, c->parents->len);
  const guint32 *parents = (const guint32 *)(gpointer)c->parents->data;
  const guint32 *names = (const guint32 *)(gpointer)c->names->data;
  const gint64 *values = (const gint64 *)(gpointer)c->values->data;
  g_autoptr(EmbersProfile) profile = NULL;
  gint64 t0 = g_get_monotonic_time ();

  for (gsize i = 0; i < r->msg->n_sample_type; i++)
    embers_profile_builder_add_sample_type (b, raw_string (r, r->msg->sample_type[i]->type),
                                            raw_string (r, r->msg->sample_type[i]->unit));
  embers_profile_builder_set_default_sample_type (b, c->default_type);

  ids[0] = 0;
  for (guint i = 0; i < c->parents->len; i++)
    {
      if G_UNLIKELY (i % 4096 == 4095 && g_cancellable_is_cancelled (cancellable))
        return;
      if (i > 0)
        ids[i] = embers_profile_builder_get_child (b, ids[parents[i]],
                                                   embers_profile_builder_intern (b, embers_profile_builder_get_string (r->b, names[i]), -1));
      for (guint t = 0; t < c->n_types; t++)
        if (values[(gsize)i * c->n_types + t] != 0)
          embers_profile_builder_add_self (b, ids[i], t, values[(gsize)i * c->n_types + t]);
    }

  profile = embers_profile_builder_finish_cancellable (b, cancellable, NULL);
  if (profile != NULL && !g_cancellable_is_cancelled (cancellable))
    r->interim (profile, c->total > 0 ? CLAMP ((double)c->added / c->total, 0.0, 1.0) : 1.0,
                r->user_data);
  g_debug ("pprof: an interim profile of %u nodes, %.0f%% of the samples, in %.1f ms",
           c->parents->len, c->total > 0 ? 100.0 * c->added / c->total : 100.0,
           (g_get_monotonic_time () - t0) / 1e3);
  c->last = g_get_monotonic_time ();
  c->since = 0;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Coarse, coarse_clear)

static gboolean
string_index_ok (Reader      *r,
                 gint64       index,
                 const char  *what,
                 GError     **error)
{
  if (index < 0 || (guint64)index >= r->msg->n_string_table)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   g_dngettext (GETTEXT_PACKAGE,
                                "pprof: %s refers to string %" PRId64 ", but the string table has %zu entry",
                                "pprof: %s refers to string %" PRId64 ", but the string table has %zu entries",
                                r->msg->n_string_table),
                   what, index, r->msg->n_string_table);
      return FALSE;
    }

  return TRUE;
}

/* Interns string table entry index (checked by the caller) */
static guint32
intern_string (Reader *r,
               gint64  index)
{
  if (r->string_ids[index] == G_MAXUINT32)
    {
      r->string_ids[index] = embers_profile_builder_intern (r->b, r->msg->string_table[index], -1);
    }

  return r->string_ids[index];
}

static gboolean
get_string (Reader      *r,
            gint64       index,
            const char  *what,
            guint32     *out,
            GError     **error)
{
  if (!string_index_ok (r, index, what, error))
    return FALSE;
  *out = intern_string (r, index);
  return TRUE;
}

static const char *
raw_string (Reader *r,
            gint64  index)
{
  if (index < 0 || (guint64)index >= r->msg->n_string_table)
    return "";
  return r->msg->string_table[index];
}

static gboolean
read_functions (Reader  *r,
                GError **error)
{
  for (gsize i = 0; i < r->msg->n_function; i++)
    {
      const Google__V1__Function *f = r->msg->function[i];
      FunctionInfo info;
      char what[64];

      if G_UNLIKELY (i % 4096 == 4095 && g_cancellable_set_error_if_cancelled (r->cancellable, error))
        return FALSE;

      g_snprintf (what, sizeof what, "function %" G_GUINT64_FORMAT, f->id);
      if (f->id == 0)
        {
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                       _("pprof: a function has id 0, which is reserved"));
          return FALSE;
        }
      if (g_hash_table_contains (r->functions, &f->id))
        {
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                       _("pprof: function %" PRIu64 " is defined twice"), f->id);
          return FALSE;
        }
      if (!string_index_ok (r, f->name, what, error) ||
          !string_index_ok (r, f->system_name, what, error) ||
          !string_index_ok (r, f->filename, what, error))
        return FALSE;

      /* A function without a name falls back to its system name, then to
       * the address of each location that uses it (see address_frame) */
      if (raw_string (r, f->name)[0] != '\0')
        info.name = intern_string (r, f->name);
      else if (raw_string (r, f->system_name)[0] != '\0')
        info.name = intern_string (r, f->system_name);
      else
        info.name = 0;
      info.id = f->id;
      info.file = intern_string (r, f->filename);
      info.start_line = f->start_line;
      g_array_append_val (r->function_info, info);
      g_hash_table_insert (r->functions, (gpointer)&f->id, GUINT_TO_POINTER (r->function_info->len));
    }

  return TRUE;
}

/* A name for a frame without a function name: the mapping's file and the
 * offset in it ("libfoo.so+0x1a2b"), else the address ("0x401000"), else
 * what ids there are. */
static guint32
address_frame (Reader                     *r,
               const Google__V1__Location *loc,
               guint64                     function_id)
{
  const Google__V1__Mapping *m = NULL;
  char name[512];

  if (loc->mapping_id != 0)
    m = g_hash_table_lookup (r->mappings, &loc->mapping_id);

  if (m != NULL && raw_string (r, m->filename)[0] != '\0')
    {
      g_autofree char *base = g_path_get_basename (raw_string (r, m->filename));
      guint64 offset = loc->address >= m->memory_start
                       ? loc->address - m->memory_start + m->file_offset : loc->address;

      g_snprintf (name, sizeof name, "%s+0x%" G_GINT64_MODIFIER "x", base, offset);
    }
  else if (loc->address != 0)
    g_snprintf (name, sizeof name, "0x%" G_GINT64_MODIFIER "x", loc->address);
  else if (function_id != 0)
    g_snprintf (name, sizeof name, "function %" G_GUINT64_FORMAT, function_id);
  else
    g_snprintf (name, sizeof name, "location %" G_GUINT64_FORMAT, loc->id);

  return embers_profile_builder_intern (r->b, name, -1);
}

static gboolean
read_locations (Reader  *r,
                GError **error)
{
  for (gsize i = 0; i < r->msg->n_mapping; i++)
    {
      const Google__V1__Mapping *m = r->msg->mapping[i];

      if (!string_index_ok (r, m->filename, "a mapping", error) ||
          !string_index_ok (r, m->build_id, "a mapping", error))
        return FALSE;
      g_hash_table_insert (r->mappings, (gpointer)&m->id, (gpointer)m);
    }

  for (gsize i = 0; i < r->msg->n_location; i++)
    {
      const Google__V1__Location *loc = r->msg->location[i];

      if G_UNLIKELY (i % 4096 == 4095 && g_cancellable_set_error_if_cancelled (r->cancellable, error))
        return FALSE;
      LocationInfo info;

      if (loc->id == 0)
        {
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                       _("pprof: a location has id 0, which is reserved"));
          return FALSE;
        }
      if (g_hash_table_contains (r->locations, &loc->id))
        {
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                       _("pprof: location %" PRIu64 " is defined twice"), loc->id);
          return FALSE;
        }
      /* A mapping id that is not defined is read as no mapping, as go's
       * profile package does (it fails only for a missing function) */

      info.offset = r->frames->len;
      info.n = 0;

      if (loc->n_line == 0)
        {
          guint32 frame = address_frame (r, loc, 0);

          g_array_append_val (r->frames, frame);
          info.n = 1;
        }

      /* Inlined frames: the last line is the outermost caller, so walking
       * the lines backwards gives them root first. */
      for (gsize k = loc->n_line; k > 0; k--)
        {
          const Google__V1__Line *line = loc->line[k - 1];
          gpointer fvalue = g_hash_table_lookup (r->functions, &line->function_id);
          const FunctionInfo *f;
          guint32 frame;

          if (fvalue == NULL)
            {
              if (line->function_id == 0)
                {
                  frame = address_frame (r, loc, 0);
                  g_array_append_val (r->frames, frame);
                  info.n++;
                  continue;
                }
              g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                           _("pprof: location %" PRIu64 " refers to function %" PRIu64
                             ", which does not exist"), loc->id, line->function_id);
              return FALSE;
            }

          f = &g_array_index (r->function_info, FunctionInfo, GPOINTER_TO_UINT (fvalue) - 1);
          frame = f->name != 0 ? f->name : address_frame (r, loc, f->id);
          g_array_append_val (r->frames, frame);
          info.n++;
          if (f->file != 0)
            embers_profile_builder_set_name_location (r->b, frame, f->file,
                                                      line->line > 0 ? line->line : f->start_line);
        }

      g_array_append_val (r->location_info, info);
      g_hash_table_insert (r->locations, (gpointer)&loc->id, GUINT_TO_POINTER (r->location_info->len));
    }

  /* Ids are usually 1..n: an array beats hashing for every sample frame */
  {
    guint64 max_id = 0;

    for (gsize i = 0; i < r->msg->n_location; i++)
      max_id = MAX (max_id, r->msg->location[i]->id);
    if (max_id <= (guint64)r->msg->n_location * 4 + 1024)
      {
        r->n_dense_locations = max_id + 1;
        r->dense_locations = g_new0 (guint32, r->n_dense_locations);
        for (gsize i = 0; i < r->msg->n_location; i++)
          r->dense_locations[r->msg->location[i]->id] = i + 1;
      }
  }

  return TRUE;
}

static gboolean
read_header (Reader  *r,
             GError **error)
{
  const Google__V1__Profile *msg = r->msg;
  int default_type = -1;

  if (msg->n_sample_type == 0)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR,
                   r->n_samples == 0 ? EMBERS_PROFILE_ERROR_EMPTY : EMBERS_PROFILE_ERROR_INVALID,
                   _("pprof: the profile declares no sample types"));
      return FALSE;
    }

  if (msg->n_sample_type > EMBERS_PROFILE_MAX_SAMPLE_TYPES)
    {
      g_autofree char *declared = NULL;

      /* Translators: the start of the next message */
      declared = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "the profile declares %zu sample type",
                                               "the profile declares %zu sample types",
                                               msg->n_sample_type),
                                  msg->n_sample_type);
      /* Translators: %s is the previous message ("the profile declares 20
       * sample types"), %u the most sample types Embers reads */
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                   g_dngettext (GETTEXT_PACKAGE,
                                "pprof: %s; at most %u is supported",
                                "pprof: %s; at most %u are supported",
                                EMBERS_PROFILE_MAX_SAMPLE_TYPES),
                   declared, EMBERS_PROFILE_MAX_SAMPLE_TYPES);
      return FALSE;
    }

  for (gsize i = 0; i < msg->n_sample_type; i++)
    {
      const Google__V1__ValueType *vt = msg->sample_type[i];

      if (!string_index_ok (r, vt->type, "a sample type", error) ||
          !string_index_ok (r, vt->unit, "a sample type", error))
        return FALSE;
      embers_profile_builder_add_sample_type (r->b, raw_string (r, vt->type), raw_string (r, vt->unit));
    }

  /* As go tool pprof: the named default, else the last sample type */
  if (!string_index_ok (r, msg->default_sample_type, "default_sample_type", error))
    return FALSE;
  if (msg->default_sample_type != 0)
    for (gsize i = 0; i < msg->n_sample_type; i++)
      if (g_str_equal (raw_string (r, msg->sample_type[i]->type), raw_string (r, msg->default_sample_type)))
        default_type = (int)i;
  if (default_type < 0)
    default_type = (int)msg->n_sample_type - 1;
  embers_profile_builder_set_default_sample_type (r->b, default_type);
  r->default_type = default_type;

  if (msg->period_type != NULL)
    {
      if (!string_index_ok (r, msg->period_type->type, "period_type", error) ||
          !string_index_ok (r, msg->period_type->unit, "period_type", error))
        return FALSE;
      embers_profile_builder_set_period (r->b, raw_string (r, msg->period_type->type),
                                         raw_string (r, msg->period_type->unit), msg->period);
    }
  else
    embers_profile_builder_set_period (r->b, "", "", msg->period);

  embers_profile_builder_set_time (r->b, msg->time_nanos, msg->duration_nanos);

  return TRUE;
}

/* The error for the first sample that could not be read */
static void
sample_error (Reader                   *r,
              const EmbersPprofSamples *s,
              GError                  **error)
{
  const Google__V1__Profile *msg = r->msg;
  gsize i = s->error_sample;

  switch (s->error)
    {
    case EMBERS_PPROF_SAMPLE_NOT_PROTOBUF:
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("pprof: sample %zu is not a valid protobuf message"), i);
      break;
    case EMBERS_PPROF_SAMPLE_VALUE_COUNT:
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   ngettext ("pprof: sample %zu has %zu values, but the profile declares %zu sample type",
                             "pprof: sample %zu has %zu values, but the profile declares %zu sample types",
                             msg->n_sample_type),
                   i, (gsize)s->error_detail, msg->n_sample_type);
      break;
    case EMBERS_PPROF_SAMPLE_NEGATIVE:
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("pprof: sample %zu has a negative %s value (%" PRId64 ")"),
                   i, raw_string (r, msg->sample_type[s->error_detail]->type), s->error_value);
      break;
    case EMBERS_PPROF_SAMPLE_OVERFLOW:
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                   _("Sample values add up to more than a 64-bit integer can hold"));
      break;
    case EMBERS_PPROF_SAMPLE_TOO_DEEP:
      /* Translators: the plural follows the second number, the limit */
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                   g_dngettext (GETTEXT_PACKAGE,
                                "pprof: sample %zu is more than %u frame deep",
                                "pprof: sample %zu is more than %u frames deep",
                                EMBERS_PROFILE_MAX_DEPTH),
                   i, EMBERS_PROFILE_MAX_DEPTH);
      break;
    case EMBERS_PPROF_SAMPLE_OK:
    default:
      g_assert_not_reached ();
    }
}

/* Raw label sets -> the builder's label sets (index: raw set id) */
static guint32 *
resolve_label_sets (Reader                   *r,
                    const EmbersPprofSamples *s,
                    GError                  **error)
{
  g_autofree guint32 *sets = g_new0 (guint32, s->label_sets.n + 1);
  g_autoptr(GArray) labels = g_array_new (FALSE, FALSE, sizeof (EmbersLabel));

  for (guint k = 0; k < s->label_sets.n; k++)
    {
      const guint8 *p = embers_seq_table_get_bytes (&s->label_sets, k);
      const guint8 *end = p + embers_seq_table_n_bytes (&s->label_sets, k);

      g_array_set_size (labels, 0);
      while (p < end)
        {
          guint64 len = 0, tag = 0;
          gint64 v[4] = { 0, 0, 0, 0 };
          const guint8 *le;
          EmbersLabel label = { 0, };

          /* Checked when the sample was read */
          embers_pprof_varint (&p, end, &len);
          le = p + len;
          while (p < le)
            {
              guint64 value = 0;

              embers_pprof_varint (&p, le, &tag);
              if ((tag & 7) == 0)
                {
                  embers_pprof_varint (&p, le, &value);
                  if (tag >> 3 >= 1 && tag >> 3 <= 4)
                    v[(tag >> 3) - 1] = (gint64)value;
                }
              else if ((tag & 7) == 1)
                p += 8;
              else if ((tag & 7) == 5)
                p += 4;
              else
                {
                  embers_pprof_varint (&p, le, &value);
                  p += value;
                }
            }
          p = le;

          if (!get_string (r, v[0], "a sample label", &label.key, error) ||
              !get_string (r, v[1], "a sample label", &label.str, error) ||
              !get_string (r, v[3], "a sample label", &label.num_unit, error))
            return NULL;
          label.num = v[2];
          g_array_append_val (labels, label);
        }
      sets[k + 1] = embers_profile_builder_add_label_set (r->b, (EmbersLabel *)(gpointer)labels->data,
                                                          labels->len);
    }

  return g_steal_pointer (&sets);
}

/* The unique stacks of location ids become stacks of frame names, root
 * first, each location's frames looked up once; each goes to the builder
 * with its labelled parts. Stacks are in the order of their first sample,
 * so the first error found is the earliest sample's, unless reading the
 * samples stopped earlier (stop_at). */
static gboolean
resolve_samples (Reader                   *r,
                 EmbersPprofSamples       *s,
                 const guint32            *sets,
                 gsize                     stop_at,
                 gsize                    *error_at,
                 GCancellable             *cancellable,
                 GError                  **error)
{
  guint n_stacks = s->stacks.n;
  guint n_types = s->n_types;
  guint n_entries = s->entry_stacks->len;
  const guint32 *first_sample = (const guint32 *)(gpointer)s->first_sample->data;
  const gint64 *values = (const gint64 *)(gpointer)s->values->data;
  const guint32 *pool = (const guint32 *)(gpointer)r->frames->data;
  const LocationInfo *infos = (const LocationInfo *)(gpointer)r->location_info->data;
  g_autofree guint32 *builder_stack = g_new (guint32, MAX (n_stacks, 1));
  g_autofree guint64 *ids = g_new (guint64, EMBERS_PROFILE_MAX_DEPTH + 1);
  g_autofree guint32 *names = NULL;
  gsize names_cap = 1024;
  g_autoptr(GError) found = NULL;
  g_auto(Coarse) coarse = { 0, };
  gboolean interim = r->interim != NULL && n_types > 0 && n_stacks > 0 &&
                     (r->interim_every > 0 || n_stacks >= INTERIM_MIN_STACKS ||
                      g_get_monotonic_time () - r->started >= INTERIM_MIN_LOAD);

  names = g_new (guint32, names_cap);

  /* A long load: coarse profiles now and then (embers-input.h) */
  if (interim)
    {
      coarse_init (&coarse, n_types, r->default_type);
      for (guint st = 0; st < n_stacks; st++)
        if (first_sample[st] < stop_at)
          coarse.total += values[(gsize)st * n_types + r->default_type];
      coarse.last = g_get_monotonic_time () - INTERIM_INTERVAL + INTERIM_FIRST;
    }

  for (guint st = 0; st < n_stacks; st++)
    {
      const guint8 *p = embers_seq_table_get_bytes (&s->stacks, st);
      const guint8 *end = p + embers_seq_table_n_bytes (&s->stacks, st);
      gsize n_ids = 0, n_names = 0;

      builder_stack[st] = G_MAXUINT32;
      if (first_sample[st] >= stop_at)
        continue;

      if G_UNLIKELY (st % 16384 == 16383)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
          if (r->progress != NULL)
            r->progress (st, (guint64)n_stacks * 2, r->user_data);
        }

      /* Checked when the sample was read: at most MAX_DEPTH good varints */
      while (p < end)
        embers_pprof_varint (&p, end, &ids[n_ids++]);

      /* Leaf first in the file; the builder wants root first */
      for (gsize k = n_ids; k > 0; k--)
        {
          guint64 id = ids[k - 1];
          guint32 index = 0;
          const LocationInfo *loc;

          if (r->dense_locations != NULL)
            index = id < r->n_dense_locations ? r->dense_locations[id] : 0;
          else
            index = GPOINTER_TO_UINT (g_hash_table_lookup (r->locations, &id));

          if G_UNLIKELY (index == 0)
            {
              g_clear_error (&found);
              g_set_error (&found, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                           _("pprof: sample %zu refers to location %" PRIu64 ", which does not exist"),
                           (gsize)first_sample[st], id);
              stop_at = first_sample[st];
              break;
            }
          loc = &infos[index - 1];
          if G_UNLIKELY (n_names + loc->n > EMBERS_PROFILE_MAX_DEPTH)
            {
              g_clear_error (&found);
              /* Translators: the plural follows the second number, the limit */
              g_set_error (&found, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "pprof: sample %zu is more than %u frame deep",
                                        "pprof: sample %zu is more than %u frames deep",
                                        EMBERS_PROFILE_MAX_DEPTH),
                           (gsize)first_sample[st], EMBERS_PROFILE_MAX_DEPTH);
              stop_at = first_sample[st];
              break;
            }
          if (n_names + loc->n > names_cap)
            {
              names_cap = MAX (names_cap * 2, n_names + loc->n);
              names = g_renew (guint32, names, names_cap);
            }
          if (loc->n == 1)
            names[n_names++] = pool[loc->offset];
          else
            {
              memcpy (names + n_names, pool + loc->offset, sizeof (guint32) * loc->n);
              n_names += loc->n;
            }
        }

      if G_UNLIKELY (first_sample[st] >= stop_at)
        continue;   /* it failed just now */

      /* No value: no stack (G_MAXUINT32), or a limit (the builder tells) */
      builder_stack[st] = embers_profile_builder_add_unique_stack (r->b, names, n_names,
                                                                   values + (gsize)st * n_types);

      if (interim && builder_stack[st] != G_MAXUINT32)
        {
          coarse_add (&coarse, names, n_names, values + (gsize)st * n_types);
          if (r->interim_every > 0 ? coarse.since >= r->interim_every
                                   : ((st & 4095) == 4095 &&
                                      g_get_monotonic_time () - coarse.last >= INTERIM_INTERVAL))
            coarse_offer (r, &coarse, cancellable);
        }
    }

  /* Stacks are in the order of their first sample, but for those the
   * caller's decoder merged in: the error kept is the earliest sample's */
  if (found != NULL)
    {
      if (stop_at < *error_at)
        {
          *error_at = stop_at;
          g_propagate_error (error, g_steal_pointer (&found));
          return FALSE;
        }
      g_clear_error (&found);
    }

  /* Every sample, coarse, while the whole tree is laid out */
  if (interim && s->error == EMBERS_PPROF_SAMPLE_OK)
    coarse_offer (r, &coarse, cancellable);

  /* The labelled parts, in the builder's ids, all at once */
  if (n_entries > 0)
    {
      guint32 *stacks = (guint32 *)(gpointer)g_array_free (s->entry_stacks, FALSE);
      guint32 *entry_sets = (guint32 *)(gpointer)g_array_free (s->entry_sets, FALSE);
      gint64 *entry_values = (gint64 *)(gpointer)g_array_free (s->entry_values, FALSE);
      guint n_kept = 0;

      s->entry_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
      s->entry_sets = g_array_new (FALSE, FALSE, sizeof (guint32));
      s->entry_values = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (guint e = 0; e < n_entries; e++)
        {
          guint32 st = builder_stack[stacks[e]];

          if (st == G_MAXUINT32)
            continue;   /* not kept (no value, or past the sample that stopped the read) */
          stacks[n_kept] = st;
          entry_sets[n_kept] = sets[entry_sets[e]];
          if (n_kept != e)
            memcpy (entry_values + (gsize)n_kept * n_types, entry_values + (gsize)e * n_types,
                    sizeof (gint64) * n_types);
          n_kept++;
        }
      embers_profile_builder_take_stack_labels (r->b, stacks, entry_sets, entry_values, n_kept);
    }

  return TRUE;
}

static gboolean
read_samples (Reader                   *r,
              EmbersPprofSamples       *s,
              GCancellable             *cancellable,
              GError                  **error)
{
  g_autofree guint32 *sets = NULL;
  gsize stop_at = s->error != EMBERS_PPROF_SAMPLE_OK ? s->error_sample : G_MAXSIZE;
  gsize error_at = stop_at;

  g_debug ("pprof: %zu samples, %u unique stacks, %u label sets, %u labelled parts",
           s->n_samples, s->stacks.n, s->label_sets.n, s->entry_stacks->len);

  /* Samples before the sample types: their value count is checked here,
   * before their values go to the builder, which has a value per type */
  if (s->n_samples > 0 && s->n_types != r->msg->n_sample_type &&
      (s->error == EMBERS_PPROF_SAMPLE_OK || s->error_sample > 0))
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   ngettext ("pprof: sample %zu has %zu values, but the profile declares %zu sample type",
                             "pprof: sample %zu has %zu values, but the profile declares %zu sample types",
                             r->msg->n_sample_type),
                   (gsize)0, (gsize)s->n_types, r->msg->n_sample_type);
      return FALSE;
    }

  if (!(sets = resolve_label_sets (r, s, error)) ||
      !resolve_samples (r, s, sets, stop_at, &error_at, cancellable, error))
    return FALSE;

  if (s->error != EMBERS_PPROF_SAMPLE_OK)
    {
      sample_error (r, s, error);
      return FALSE;
    }

  return embers_profile_builder_check (r->b, error);
}

static void
reader_tables_clear (Reader *r)
{
  g_clear_pointer (&r->string_ids, g_free);
  g_clear_pointer (&r->functions, g_hash_table_unref);
  g_clear_pointer (&r->function_info, g_array_unref);
  g_clear_pointer (&r->locations, g_hash_table_unref);
  g_clear_pointer (&r->dense_locations, g_free);
  g_clear_pointer (&r->location_info, g_array_unref);
  g_clear_pointer (&r->frames, g_array_unref);
  g_clear_pointer (&r->mappings, g_hash_table_unref);
}

EmbersProfile *
embers_pprof_reader_finish (EmbersPprofReader  *pr,
                            GCancellable       *cancellable,
                            GError            **error)
{
  g_autoptr(EmbersProfileBuilder) b = NULL;
  Arena arena = { g_ptr_array_new_with_free_func (g_free), NULL, 0, cancellable };
  ProtobufCAllocator allocator = { arena_alloc, arena_free, &arena };
  EmbersProfile *profile = NULL;
  Reader r = { 0, };
  gint64 t0 = g_get_monotonic_time ();

  reader_join (pr);
  if (!reader_check (pr, error))
    goto out;
  merge_samples (&pr->samples, &pr->caller_samples);
  embers_pprof_samples_clear (&pr->caller_samples);
  embers_pprof_samples_init (&pr->caller_samples, 0);
  if (pr->carry->len > 0)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("pprof: not a valid profile protobuf (the data is truncated or corrupt at byte %zu)"),
                   (gsize)pr->offset);
      goto out;
    }
  if (pr->offset == 0)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                   _("pprof: the data is empty"));
      goto out;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;

  r.n_samples = pr->n_sample_fields;
  /* The building stage begins with the tables' unpack */
  if (pr->options.building != NULL)
    pr->options.building (0, MAX (r.n_samples, 1), pr->options.user_data);
  r.msg = google__v1__profile__unpack (&allocator, pr->rest->len, pr->rest->data);
  if (r.msg == NULL && g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;
  if (r.msg == NULL)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("pprof: not a valid profile protobuf (the data is truncated or corrupt)"));
      goto out;
    }
  /* Unpacked (its strings copied into the arena): the bytes go */
  g_byte_array_unref (pr->rest);
  pr->rest = g_byte_array_new ();

  if (r.msg->n_string_table == 0 || r.msg->string_table[0][0] != '\0')
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("pprof: the string table must start with an empty string"));
      goto out;
    }

  /* Strings must be UTF-8 for everything downstream (JSON, GTK, Pango).
   * Invalid bytes are not an error: pprof files from native profilers can
   * carry raw symbol bytes, and the rest of the profile is still good. Each
   * invalid byte becomes U+FFFD, as g_utf8_make_valid() does elsewhere (search,
   * rendering), so a name reads the same everywhere. Rare: valid strings are
   * only checked, not copied. */
  for (gsize i = 0; i < r.msg->n_string_table; i++)
    {
      if G_UNLIKELY (!g_utf8_validate (r.msg->string_table[i], -1, NULL))
        {
          g_autofree char *valid = g_utf8_make_valid (r.msg->string_table[i], -1);
          gsize size = strlen (valid) + 1;

          r.msg->string_table[i] = memcpy (arena_alloc (&arena, size), valid, size);
        }
    }

  b = embers_profile_builder_new ();
  embers_profile_builder_set_progress (b, pr->options.building, pr->options.user_data);
  r.b = b;
  r.progress = pr->options.building;
  r.user_data = pr->options.user_data;
  r.interim = pr->options.interim;
  r.interim_every = pr->options.interim_every;
  r.started = pr->started;
  r.cancellable = cancellable;
  r.string_ids = g_new (guint32, r.msg->n_string_table);
  memset (r.string_ids, 0xff, sizeof (guint32) * r.msg->n_string_table);
  r.string_ids[0] = 0;
  r.functions = g_hash_table_new (g_int64_hash, g_int64_equal);
  r.function_info = g_array_new (FALSE, FALSE, sizeof (FunctionInfo));
  r.locations = g_hash_table_new (g_int64_hash, g_int64_equal);
  r.location_info = g_array_new (FALSE, FALSE, sizeof (LocationInfo));
  r.frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  r.mappings = g_hash_table_new (g_int64_hash, g_int64_equal);

  g_debug ("pprof: tables unpacked in %.1f ms", (g_get_monotonic_time () - t0) / 1e3);
  if (read_header (&r, error) &&
      read_functions (&r, error) &&
      read_locations (&r, error) &&
      (g_debug ("pprof: tables read at %.1f ms", (g_get_monotonic_time () - t0) / 1e3), TRUE) &&
      read_samples (&r, &pr->samples, cancellable, error))
    {
      g_debug ("pprof: samples resolved at %.1f ms", (g_get_monotonic_time () - t0) / 1e3);
      /* The unique stacks are the builder's now, and the tables are read:
       * their memory goes before the tree is made */
      embers_pprof_samples_clear (&pr->samples);
      embers_pprof_samples_init (&pr->samples, 0);
      r.msg = NULL;
      g_ptr_array_set_size (arena.chunks, 0);
      arena.cur = NULL;
      arena.left = 0;
      reader_tables_clear (&r);
      profile = embers_profile_builder_finish_cancellable (b, cancellable, error);
      g_debug ("pprof: tree made at %.1f ms", (g_get_monotonic_time () - t0) / 1e3);
    }

  reader_tables_clear (&r);

out:
  g_ptr_array_unref (arena.chunks);
  return profile;
}

EmbersProfile *
embers_pprof_parse (const guint8  *data,
                    gsize          len,
                    GError       **error)
{
  EmbersPprofReader *r = embers_pprof_reader_new (NULL, FALSE);
  EmbersProfile *profile = NULL;

  if (embers_pprof_reader_push (r, data, len, error))
    profile = embers_pprof_reader_finish (r, NULL, error);
  embers_pprof_reader_free (r);

  return profile;
}

/* Writer */

typedef struct
{
  GPtrArray  *strings;   /* borrowed const char * */
  GHashTable *index;     /* string -> index + 1 */
} StringTable;

static gint64
table_add (StringTable *t,
           const char  *s)
{
  gpointer value = g_hash_table_lookup (t->index, s);

  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;

  g_ptr_array_add (t->strings, (gpointer)s);
  g_hash_table_insert (t->index, (gpointer)s, GUINT_TO_POINTER (t->strings->len));
  return t->strings->len - 1;
}

GBytes *
embers_pprof_write (EmbersProfile  *profile,
                    GError        **error)
{
  Google__V1__Profile msg = GOOGLE__V1__PROFILE__INIT;
  StringTable table = { g_ptr_array_new (), g_hash_table_new (g_str_hash, g_str_equal) };
  guint n_types, n_nodes, n_strings;
  const guint32 *names, *parents;
  g_autofree Google__V1__ValueType *types = NULL;
  g_autofree Google__V1__ValueType **type_ptrs = NULL;
  Google__V1__ValueType period_type = GOOGLE__V1__VALUE_TYPE__INIT;
  g_autofree Google__V1__Function *functions = NULL;
  g_autofree Google__V1__Function **function_ptrs = NULL;
  g_autofree Google__V1__Location *locations = NULL;
  g_autofree Google__V1__Location **location_ptrs = NULL;
  g_autofree Google__V1__Line *lines = NULL;
  g_autofree Google__V1__Line **line_ptrs = NULL;
  g_autofree guint64 *location_of_name = NULL;
  g_autoptr(GPtrArray) samples = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) sample_data = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) label_msgs = g_array_new (FALSE, TRUE, sizeof (Google__V1__Label));
  g_autoptr(GPtrArray) label_ptrs = g_ptr_array_new ();
  guint n_functions = 0;
  gsize size;
  guint8 *buffer;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);

  n_types = embers_profile_get_n_sample_types (profile);
  n_nodes = embers_profile_get_n_nodes (profile);
  n_strings = embers_profile_get_n_strings (profile);
  names = embers_profile_get_name_column (profile);
  parents = embers_profile_get_parent_column (profile);

  table_add (&table, "");

  /* Sample types */
  types = g_new0 (Google__V1__ValueType, n_types);
  type_ptrs = g_new0 (Google__V1__ValueType *, n_types);
  for (guint t = 0; t < n_types; t++)
    {
      google__v1__value_type__init (&types[t]);
      types[t].type = table_add (&table, embers_profile_get_sample_type (profile, t));
      types[t].unit = table_add (&table, embers_profile_get_sample_unit (profile, t));
      type_ptrs[t] = &types[t];
    }
  msg.n_sample_type = n_types;
  msg.sample_type = type_ptrs;
  msg.default_sample_type = table_add (&table, embers_profile_get_sample_type (profile,
                                         embers_profile_get_default_sample_type (profile)));
  period_type.type = table_add (&table, embers_profile_get_period_type (profile));
  period_type.unit = table_add (&table, embers_profile_get_period_unit (profile));
  msg.period_type = &period_type;
  msg.period = embers_profile_get_period (profile);
  msg.time_nanos = embers_profile_get_time_nanos (profile);
  msg.duration_nanos = embers_profile_get_duration_nanos (profile);

  /* One function and one location per distinct frame name (ids from 1) */
  location_of_name = g_new0 (guint64, n_strings);
  functions = g_new0 (Google__V1__Function, n_strings);
  function_ptrs = g_new0 (Google__V1__Function *, n_strings);
  locations = g_new0 (Google__V1__Location, n_strings);
  location_ptrs = g_new0 (Google__V1__Location *, n_strings);
  lines = g_new0 (Google__V1__Line, n_strings);
  line_ptrs = g_new0 (Google__V1__Line *, n_strings);
  for (guint i = 1; i < n_nodes; i++)
    {
      guint32 name = names[i];
      guint k;

      if (location_of_name[name] != 0)
        continue;

      k = n_functions++;
      google__v1__function__init (&functions[k]);
      functions[k].id = k + 1;
      functions[k].name = table_add (&table, embers_profile_get_string (profile, name));
      functions[k].system_name = functions[k].name;
      functions[k].filename = table_add (&table, embers_profile_get_string (profile,
                                           embers_profile_get_name_file (profile, name)));
      functions[k].start_line = embers_profile_get_name_line (profile, name);
      function_ptrs[k] = &functions[k];

      google__v1__line__init (&lines[k]);
      lines[k].function_id = k + 1;
      lines[k].line = functions[k].start_line;
      line_ptrs[k] = &lines[k];

      google__v1__location__init (&locations[k]);
      locations[k].id = k + 1;
      locations[k].n_line = 1;
      locations[k].line = &line_ptrs[k];
      location_ptrs[k] = &locations[k];

      location_of_name[name] = k + 1;
    }
  msg.n_function = n_functions;
  msg.function = function_ptrs;
  msg.n_location = n_functions;
  msg.location = location_ptrs;

  /* Samples: per label sample if any, else per node with a self value */
  {
    guint n_samples = embers_profile_get_n_samples (profile);
    gboolean by_labels = n_samples > 0;
    guint count = by_labels ? n_samples : n_nodes;
    guint label_total = 0;

    /* Label messages live in one array; pointers are taken after it is final */
    if (by_labels)
      for (guint s = 0; s < n_samples; s++)
        {
          guint n_labels;

          embers_profile_get_label_set (profile, embers_profile_sample_label_set (profile, s), &n_labels);
          label_total += n_labels;
        }
    g_array_set_size (label_msgs, label_total);
    g_ptr_array_set_size (label_ptrs, label_total);
    label_total = 0;

    for (guint s = 0; s < count; s++)
      {
        guint32 node = by_labels ? embers_profile_sample_node (profile, s) : s;
        Google__V1__Sample *sample;
        guint64 *ids;
        gint64 *values;
        gboolean any = FALSE;
        guint depth = 0;

        /* A sample at the root (an empty stack) has no locations */

        values = g_new0 (gint64, n_types);
        for (guint t = 0; t < n_types; t++)
          {
            values[t] = by_labels ? embers_profile_sample_value (profile, s, t)
                                  : embers_profile_node_self (profile, t, node);
            any |= values[t] != 0;
          }
        if (!any)
          {
            g_free (values);
            continue;
          }

        for (guint32 n = node; n != 0; n = parents[n])
          depth++;
        ids = g_new (guint64, depth);
        depth = 0;
        for (guint32 n = node; n != 0; n = parents[n])
          ids[depth++] = location_of_name[names[n]];

        sample = g_new0 (Google__V1__Sample, 1);
        google__v1__sample__init (sample);
        sample->n_location_id = depth;
        sample->location_id = ids;
        sample->n_value = n_types;
        sample->value = values;

        if (by_labels)
          {
            guint n_labels;
            const EmbersLabel *labels = embers_profile_get_label_set (profile,
                                                                      embers_profile_sample_label_set (profile, s),
                                                                      &n_labels);

            sample->n_label = n_labels;
            sample->label = (Google__V1__Label **)&label_ptrs->pdata[label_total];
            for (guint l = 0; l < n_labels; l++)
              {
                Google__V1__Label *lm = &g_array_index (label_msgs, Google__V1__Label, label_total);

                google__v1__label__init (lm);
                lm->key = table_add (&table, embers_profile_get_string (profile, labels[l].key));
                if (labels[l].str != 0)
                  lm->str = table_add (&table, embers_profile_get_string (profile, labels[l].str));
                else
                  {
                    lm->num = labels[l].num;
                    lm->num_unit = table_add (&table, embers_profile_get_string (profile, labels[l].num_unit));
                  }
                label_ptrs->pdata[label_total++] = lm;
              }
          }

        g_ptr_array_add (sample_data, ids);
        g_ptr_array_add (sample_data, values);
        g_ptr_array_add (samples, sample);
      }
  }
  msg.n_sample = samples->len;
  msg.sample = (Google__V1__Sample **)samples->pdata;

  msg.n_string_table = table.strings->len;
  msg.string_table = (char **)table.strings->pdata;

  size = google__v1__profile__get_packed_size (&msg);
  buffer = g_malloc (MAX (size, 1));
  google__v1__profile__pack (&msg, buffer);

  g_ptr_array_unref (table.strings);
  g_hash_table_unref (table.index);

  return g_bytes_new_take (buffer, size);
}
