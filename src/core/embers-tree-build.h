/* embers-tree-build.h: call trees from stacks by sorting (internal to libembers-core)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile-builder.h"

G_BEGIN_DECLS

/* Memory for big columns: on Linux, backed by transparent huge pages where
 * the system allows them on request, so that filling a column of millions
 * of nodes costs a page fault per 2 MiB, not per 4 KiB. Free with g_free. */
gpointer embers_alloc_column    (gsize         size,
                                 gboolean      zeroed);
/* The same request for memory already allocated (a GArray's, after it
 * grew): the 2 MiB pages wholly inside it, if it is big */
void     embers_advise_huge     (gpointer      p,
                                 gsize         size);

/*
 * EmbersU64Map: open addressing from a 64-bit key to a 32-bit value. Keys
 * are stored + 1 so that 0 marks an empty slot; key and value share a slot
 * so that a probe touches one cache line.
 */
typedef struct
{
  guint64 key;
  guint32 value;
} EmbersU64Slot;

typedef struct
{
  EmbersU64Slot *slots;
  gsize          mask;
  gsize          used;
} EmbersU64Map;

void     embers_u64_map_init     (EmbersU64Map *map,
                                  gsize         capacity);
void     embers_u64_map_clear    (EmbersU64Map *map);
void     embers_u64_map_grow     (EmbersU64Map *map);
void     embers_u64_map_reserve  (EmbersU64Map *map,
                                  gsize         n);

static inline guint64
embers_mix64 (guint64 k)
{
  k ^= k >> 33;
  k *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  k ^= k >> 33;
  k *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  k ^= k >> 33;
  return k;
}

/* Returns a pointer to the value slot; *found tells whether it existed.
 * The key must not be G_MAXUINT64. */
static inline guint32 *
embers_u64_map_lookup_or_insert (EmbersU64Map *map,
                                 guint64       key,
                                 gboolean     *found)
{
  guint64 stored = key + 1;
  gsize i;

  if G_UNLIKELY ((map->used + 1) * 4 > (map->mask + 1) * 3)
    embers_u64_map_grow (map);

  i = embers_mix64 (key) & map->mask;
  for (;;)
    {
      EmbersU64Slot *slot = &map->slots[i];

      if (slot->key == stored)
        {
          *found = TRUE;
          return &slot->value;
        }
      if (slot->key == 0)
        {
          slot->key = stored;
          map->used++;
          *found = FALSE;
          return &slot->value;
        }
      i = (i + 1) & map->mask;
    }
}

/*
 * EmbersSeqTable: unique byte strings, one hash each: stacks of 32-bit ids
 * (location ids or frame names) or raw protobuf bytes. Ids count from 0 in
 * the order strings were first added; string i is bytes[offsets[i],
 * offsets[i + 1]). Tables of 32-bit sequences hold only whole words.
 */
typedef struct
{
  guint8  *bytes;
  gsize    len;
  gsize    cap;
  guint32 *offsets;      /* n + 1, in bytes */
  guint    n;
  guint    n_cap;
  guint64 *slots;        /* hash << 32 | id + 1; 0 is empty */
  gsize    mask;
} EmbersSeqTable;

void     embers_seq_table_init      (EmbersSeqTable *t);
void     embers_seq_table_clear     (EmbersSeqTable *t);

/* Returns the string's id (*added tells whether it is new), or
 * G_MAXUINT32 when the table cannot hold it (4 GiB in all). */
guint32  embers_seq_table_add_bytes (EmbersSeqTable *t,
                                     const void     *key,
                                     gsize           n_bytes,
                                     gboolean       *added);

static inline guint32
embers_seq_table_add (EmbersSeqTable *t,
                      const guint32  *seq,
                      guint           len,
                      gboolean       *added)
{
  return embers_seq_table_add_bytes (t, seq, (gsize)len * 4, added);
}

/* Appends a string without looking for it: the table is not a set any
 * more (adds append from then on). For sequences known to be unique, or
 * where a duplicate does no harm. */
guint32  embers_seq_table_append    (EmbersSeqTable *t,
                                     const void     *key,
                                     gsize           n_bytes);

/* Frees the hash index (no more adds); the strings stay. */
void     embers_seq_table_freeze    (EmbersSeqTable *t);

static inline gsize
embers_seq_table_n_bytes (const EmbersSeqTable *t,
                          guint32               id)
{
  return t->offsets[id + 1] - t->offsets[id];
}

static inline const guint8 *
embers_seq_table_get_bytes (const EmbersSeqTable *t,
                            guint32               id)
{
  return t->bytes + t->offsets[id];
}

static inline guint
embers_seq_table_length (const EmbersSeqTable *t,
                         guint32               id)
{
  return (t->offsets[id + 1] - t->offsets[id]) / 4;
}

static inline const guint32 *
embers_seq_table_get (const EmbersSeqTable *t,
                      guint32               id)
{
  return (const guint32 *)(gpointer)(t->bytes + t->offsets[id]);
}

/* The whole pool as 32-bit words, and its length in words */
static inline guint32 *
embers_seq_table_words (const EmbersSeqTable *t)
{
  return (guint32 *)(gpointer)t->bytes;
}

/* Sorts string ids by strcmp of their strings (data + offsets[id]). */
void     embers_sort_string_ids  (guint32        *ids,
                                  guint           n,
                                  const char     *data,
                                  const guint32  *offsets);

/*
 * The call tree of a set of stacks, in DFS pre-order with siblings in rank
 * order: the columns of an EmbersProfile but its parents and ends, which
 * embers_tree_link() finds from the depths once the stacks are gone (so the
 * build's peak holds 8 bytes per node less). Node 0 is the root.
 * leaf_of_seq[s] is the node where stack s ends.
 */
typedef struct
{
  guint    n_nodes;
  guint    max_depth;
  guint32 *names;
  guint16 *depths;
  gint64  *totals[EMBERS_PROFILE_MAX_SAMPLE_TYPES];
  guint32 *leaf_of_seq;
} EmbersTreeColumns;

void     embers_tree_columns_clear (EmbersTreeColumns *c);

/* Builds the tree of the stacks in t, whose ids must be ranks (their order
 * is the siblings' order) below n_ranks; names_by_rank gives each node's
 * name, root_name node 0's. values: n_types per stack (row-major), each
 * stack's value at its leaf; the totals are their sums up the tree. Stops
 * with EMBERS_PROFILE_ERROR_TOO_LARGE past max_nodes nodes or when a sum
 * overflows, and when cancellable is cancelled. Uses two threads.
 * progress: (n + stacks laid out, 2 n) now and then, n the stacks. */
gboolean embers_tree_build       (const EmbersSeqTable *t,
                                  guint                 n_ranks,
                                  const guint32        *names_by_rank,
                                  guint32               root_name,
                                  const gint64         *values,
                                  guint                 n_types,
                                  guint                 max_nodes,
                                  void                (*progress) (guint64  done,
                                                                   guint64  total,
                                                                   gpointer user_data),
                                  gpointer              progress_data,
                                  GCancellable         *cancellable,
                                  EmbersTreeColumns    *out,
                                  GError              **error);

/* Fills parents and ends (n_nodes each) of a pre-order tree from its
 * depths (the root's 0, every other node's at most its predecessor's + 1);
 * max_depth: the largest depth, below G_MAXUINT16. */
void     embers_tree_link        (const guint16 *depths,
                                  guint          n_nodes,
                                  guint          max_depth,
                                  guint32       *parents,
                                  guint32       *ends);

G_END_DECLS
