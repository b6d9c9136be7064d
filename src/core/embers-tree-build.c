/* embers-tree-build.c: call trees from stacks by sorting
 *
 * A profile's call tree is the trie of its stacks. Building it with one
 * (parent, name) -> child hash probe per frame costs a cache miss per frame
 * on deep profiles, where most frames are new nodes. Here the stacks are
 * deduplicated first (one hash per stack), and the trie is laid out by a
 * most-significant-digit radix sort of the unique stacks, frame by frame:
 * the stacks that share a prefix form a group, sorting a group by its next
 * frame yields the children in sibling order, and a group of one stack
 * emits the rest of that stack as a chain without looking at anything
 * else. Nodes come out in DFS pre-order, which is the profile's layout, so
 * nothing is re-laid afterwards.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "embers-profile.h"
#include "embers-tree-build.h"

/* Columns */

#define HUGE_PAGE ((gsize)2 * 1024 * 1024)

gpointer
embers_alloc_column (gsize    size,
                     gboolean zeroed)
{
#if defined (__linux__) && defined (MADV_HUGEPAGE)
  if (size >= 4 * HUGE_PAGE)
    {
      gpointer p = NULL;

      if (posix_memalign (&p, HUGE_PAGE, size) != 0)
        g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
      /* Fresh from mmap, hence zero: no memset (it would touch every page) */
      madvise (p, size & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
      if (zeroed)
        memset (p, 0, size);
      return p;
    }
#endif
  return zeroed ? g_malloc0 (size) : g_malloc (size);
}

void
embers_advise_huge (gpointer p,
                    gsize    size)
{
#if defined (__linux__) && defined (MADV_HUGEPAGE)
  if (p != NULL && size >= 4 * HUGE_PAGE)
    {
      guintptr start = ((guintptr)p + HUGE_PAGE - 1) & ~(guintptr)(HUGE_PAGE - 1);
      guintptr end = ((guintptr)p + size) & ~(guintptr)(HUGE_PAGE - 1);

      if (end > start)
        madvise ((gpointer)start, end - start, MADV_HUGEPAGE);
    }
#endif
}

/* 64-bit map */

void
embers_u64_map_init (EmbersU64Map *map,
                     gsize         capacity)
{
  gsize size = 64;

  while (size < capacity * 2)
    size <<= 1;

  map->slots = g_new0 (EmbersU64Slot, size);
  map->mask = size - 1;
  map->used = 0;
}

void
embers_u64_map_clear (EmbersU64Map *map)
{
  g_clear_pointer (&map->slots, g_free);
  map->used = 0;
}

void
embers_u64_map_grow (EmbersU64Map *map)
{
  EmbersU64Slot *old = map->slots;
  gsize old_size = map->mask + 1;
  gsize new_size = old_size * 2;

  map->slots = g_new0 (EmbersU64Slot, new_size);
  map->mask = new_size - 1;

  for (gsize j = 0; j < old_size; j++)
    {
      if (old[j].key != 0)
        {
          gsize i = embers_mix64 (old[j].key - 1) & map->mask;

          while (map->slots[i].key != 0)
            i = (i + 1) & map->mask;
          map->slots[i] = old[j];
        }
    }

  g_free (old);
}

/* Room for n keys without growing */
void
embers_u64_map_reserve (EmbersU64Map *map,
                        gsize         n)
{
  if (map->used == 0)
    {
      gsize size = map->mask + 1;

      while ((n + 1) * 4 > size * 3)
        size <<= 1;
      if (size != map->mask + 1)
        {
          g_free (map->slots);
          map->slots = g_new0 (EmbersU64Slot, size);
          map->mask = size - 1;
        }
      return;
    }

  while ((n + 1) * 4 > (map->mask + 1) * 3)
    embers_u64_map_grow (map);
}

/* Sequence table */

static inline guint32
hash_bytes (const guint8 *p,
            gsize         n)
{
  guint64 h = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ n;

  for (; n >= 8; p += 8, n -= 8)
    {
      guint64 v;

      memcpy (&v, p, 8);
      h = (h ^ v) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
      h ^= h >> 29;
    }
  if (n > 0)
    {
      guint64 v = 0;

      memcpy (&v, p, n);
      h = (h ^ v) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
      h ^= h >> 29;
    }
  h *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  return (guint32)(h >> 32);
}

void
embers_seq_table_init (EmbersSeqTable *t)
{
  memset (t, 0, sizeof *t);
  t->n_cap = 1024;
  t->offsets = g_new (guint32, t->n_cap + 1);
  t->offsets[0] = 0;
  t->mask = 2047;
  t->slots = g_new0 (guint64, t->mask + 1);
  t->cap = 65536;
  t->bytes = g_malloc (t->cap);
}

void
embers_seq_table_clear (EmbersSeqTable *t)
{
  g_clear_pointer (&t->bytes, g_free);
  g_clear_pointer (&t->offsets, g_free);
  g_clear_pointer (&t->slots, g_free);
  t->n = t->n_cap = 0;
  t->len = t->cap = 0;
}

void
embers_seq_table_freeze (EmbersSeqTable *t)
{
  g_clear_pointer (&t->slots, g_free);
  t->mask = 0;
}

static void
seq_table_rehash (EmbersSeqTable *t)
{
  guint64 *old = t->slots;
  gsize old_size = t->mask + 1;
  gsize size = old_size * 2;

  t->slots = g_new0 (guint64, size);
  t->mask = size - 1;
  for (gsize j = 0; j < old_size; j++)
    if (old[j] != 0)
      {
        gsize i = (old[j] >> 32) & t->mask;

        while (t->slots[i] != 0)
          i = (i + 1) & t->mask;
        t->slots[i] = old[j];
      }
  g_free (old);
}

static guint32
seq_table_push (EmbersSeqTable *t,
                const void     *key,
                gsize           n_bytes)
{
  guint32 id;

  if G_UNLIKELY (t->n >= G_MAXUINT32 - 1 || t->len + n_bytes > G_MAXUINT32)
    return G_MAXUINT32;

  if (t->len + n_bytes > t->cap)
    {
      t->cap = MAX (t->len + n_bytes, t->cap * 2);
      t->bytes = g_realloc (t->bytes, t->cap);
    }
  if (t->n == t->n_cap)
    {
      t->n_cap *= 2;
      t->offsets = g_renew (guint32, t->offsets, (gsize)t->n_cap + 1);
    }

  id = t->n++;
  if (n_bytes > 0)
    memcpy (t->bytes + t->len, key, n_bytes);
  t->len += n_bytes;
  t->offsets[t->n] = (guint32)t->len;
  return id;
}

guint32
embers_seq_table_append (EmbersSeqTable *t,
                         const void     *key,
                         gsize           n_bytes)
{
  embers_seq_table_freeze (t);
  return seq_table_push (t, key, n_bytes);
}

guint32
embers_seq_table_add_bytes (EmbersSeqTable *t,
                            const void     *key,
                            gsize           n_bytes,
                            gboolean       *added)
{
  guint32 h;
  gsize i;
  guint32 id;

  if (t->slots == NULL)
    {
      *added = TRUE;
      return seq_table_push (t, key, n_bytes);
    }

  h = hash_bytes (key, n_bytes);
  i = h & t->mask;
  *added = FALSE;
  for (;;)
    {
      guint64 slot = t->slots[i];

      if (slot == 0)
        break;
      if ((guint32)(slot >> 32) == h)
        {
          guint32 found = (guint32)slot - 1;

          if (embers_seq_table_n_bytes (t, found) == n_bytes &&
              (n_bytes == 0 || memcmp (embers_seq_table_get_bytes (t, found), key, n_bytes) == 0))
            return found;
        }
      i = (i + 1) & t->mask;
    }

  id = seq_table_push (t, key, n_bytes);
  if G_UNLIKELY (id == G_MAXUINT32)
    return G_MAXUINT32;
  t->slots[i] = ((guint64)h << 32) | (id + 1);
  *added = TRUE;

  if ((gsize)t->n * 4 > (t->mask + 1) * 3)
    seq_table_rehash (t);

  return id;
}

/* Strings in strcmp order: multikey quicksort (Bentley and Sedgewick),
 * byte by byte, three-way partitions; the largest part is looped on and
 * the others recursed into, so the recursion stays O(log n) deep however
 * long the strings are. */

typedef struct
{
  const guint8 *s;
  guint32       id;
} StrRef;

static inline void
str_swap (StrRef *a,
          StrRef *b)
{
  StrRef t = *a;

  *a = *b;
  *b = t;
}

static void
str_insertion (StrRef *a,
               gsize   n,
               gsize   d)
{
  for (gsize i = 1; i < n; i++)
    for (gsize j = i; j > 0 && strcmp ((const char *)a[j - 1].s + d, (const char *)a[j].s + d) > 0; j--)
      str_swap (&a[j - 1], &a[j]);
}

static void
str_mkqs (StrRef *a,
          gsize   n,
          gsize   d)
{
  while (n > 1)
    {
      gsize lt = 0, gt = n, i = 0;
      gsize sizes[3];
      int v, c0, c1, c2;

      if (n < 12)
        {
          str_insertion (a, n, d);
          return;
        }

      /* Median of three as the pivot */
      c0 = a[0].s[d];
      c1 = a[n / 2].s[d];
      c2 = a[n - 1].s[d];
      if ((c0 <= c1 && c1 <= c2) || (c2 <= c1 && c1 <= c0))
        v = c1;
      else if ((c1 <= c0 && c0 <= c2) || (c2 <= c0 && c0 <= c1))
        v = c0;
      else
        v = c2;

      while (i < gt)
        {
          int c = a[i].s[d];

          if (c < v)
            str_swap (&a[lt++], &a[i++]);
          else if (c > v)
            str_swap (&a[i], &a[--gt]);
          else
            i++;
        }

      sizes[0] = lt;
      sizes[1] = v == 0 ? 0 : gt - lt;   /* equal up to their end: done */
      sizes[2] = n - gt;

      if (sizes[1] >= sizes[0] && sizes[1] >= sizes[2])
        {
          str_mkqs (a, sizes[0], d);
          str_mkqs (a + gt, sizes[2], d);
          a += lt;
          n = sizes[1];
          d++;
        }
      else if (sizes[0] >= sizes[2])
        {
          if (sizes[1] > 0)
            str_mkqs (a + lt, sizes[1], d + 1);
          str_mkqs (a + gt, sizes[2], d);
          n = sizes[0];
        }
      else
        {
          str_mkqs (a, sizes[0], d);
          if (sizes[1] > 0)
            str_mkqs (a + lt, sizes[1], d + 1);
          a += gt;
          n = sizes[2];
        }
    }
}

void
embers_sort_string_ids (guint32       *ids,
                        guint          n,
                        const char    *data,
                        const guint32 *offsets)
{
  g_autofree StrRef *refs = g_new (StrRef, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      refs[i].s = (const guint8 *)data + offsets[ids[i]];
      refs[i].id = ids[i];
    }
  str_mkqs (refs, n, 0);
  for (guint i = 0; i < n; i++)
    ids[i] = refs[i].id;
}

/* Sorting (key << 32 | stack) pairs by key; the order of equal keys does
 * not matter. */

static void
u64_insertion (guint64 *a,
               gsize    n)
{
  for (gsize i = 1; i < n; i++)
    {
      guint64 x = a[i];
      gsize j = i;

      while (j > 0 && a[j - 1] > x)
        {
          a[j] = a[j - 1];
          j--;
        }
      a[j] = x;
    }
}

static void
u64_quicksort (guint64 *a,
               gsize    n)
{
  while (n > 16)
    {
      guint64 x = a[0], y = a[n / 2], z = a[n - 1];
      guint64 pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
      gsize i = 0, j = n - 1;

      for (;;)
        {
          while (a[i] < pivot)
            i++;
          while (a[j] > pivot)
            j--;
          if (i >= j)
            break;
          {
            guint64 t = a[i];

            a[i] = a[j];
            a[j] = t;
          }
          i++;
          j--;
        }

      /* [0, j] <= pivot <= [j + 1, n) */
      if (j + 1 < n - j - 1)
        {
          u64_quicksort (a, j + 1);
          a += j + 1;
          n -= j + 1;
        }
      else
        {
          u64_quicksort (a + j + 1, n - j - 1);
          n = j + 1;
        }
    }
  u64_insertion (a, n);
}

static void
sort_keys (guint64 *a,
           gsize    n,
           guint64 *tmp)
{
  guint32 lo = G_MAXUINT32, hi = 0;
  gsize counts[4][256];
  guint passes;
  guint64 *src = a, *dst = tmp;

  if (n < 2)
    return;
  if (n <= 16)
    {
      u64_insertion (a, n);
      return;
    }

  for (gsize i = 0; i < n; i++)
    {
      guint32 k = (guint32)(a[i] >> 32);

      lo = MIN (lo, k);
      hi = MAX (hi, k);
    }
  if (lo == hi)
    return;   /* one key: nothing to order */
  if (n < 512)
    {
      u64_quicksort (a, n);
      return;
    }

  /* LSD radix over the bits that differ, a byte per pass */
  passes = (g_bit_storage (hi - lo) + 7) / 8;
  memset (counts, 0, sizeof counts);
  for (gsize i = 0; i < n; i++)
    {
      guint32 k = (guint32)(a[i] >> 32) - lo;

      for (guint p = 0; p < passes; p++)
        counts[p][(k >> (8 * p)) & 0xff]++;
    }

  for (guint p = 0; p < passes; p++)
    {
      gsize sum = 0;

      if (counts[p][(((guint32)(src[0] >> 32) - lo) >> (8 * p)) & 0xff] == n)
        continue;   /* every key has the same byte here */
      for (guint b = 0; b < 256; b++)
        {
          gsize c = counts[p][b];

          counts[p][b] = sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        {
          guint32 k = (guint32)(src[i] >> 32) - lo;

          dst[counts[p][(k >> (8 * p)) & 0xff]++] = src[i];
        }
      {
        guint64 *t = src;

        src = dst;
        dst = t;
      }
    }

  if (src != a)
    memcpy (a, src, sizeof (guint64) * n);
}

/* The tree, in two phases.
 *
 * Phase 1 walks the groups: it sorts each by its next frame, writes the
 * nodes that several stacks share, sums their totals on the way back up,
 * and for a group of one stack only notes a chain: where its nodes go.
 * Every node's position is known at the end of it.
 *
 * Phase 2 writes the chains, split between two threads: on deep profiles
 * with many distinct stacks nearly every node is in one. A chain's nodes
 * all have its stack's value as their total, so no pass sums totals up the
 * tree afterwards.
 *
 * Nodes get a name, a depth and totals here; their parents and ends follow
 * from the depths (embers_tree_link), and are made once the stacks are
 * freed, so they never share the memory with them. */

typedef struct
{
  guint32 lo;      /* the group's stacks: keys[lo, hi) */
  guint32 hi;
  guint32 depth;   /* keys hold the frames at this index */
  guint32 node;    /* the last node the group's stacks share */
  guint32 pos;     /* the next run of keys to emit */
  guint32 first;   /* the first of the nodes they share: first..node */
} Frame;

typedef struct
{
  guint32 stack;
  guint32 depth;   /* the chain starts with this frame of the stack */
  guint32 pos;     /* its first node */
} Chain;

void
embers_tree_columns_clear (EmbersTreeColumns *c)
{
  g_clear_pointer (&c->names, g_free);
  g_clear_pointer (&c->depths, g_free);
  g_clear_pointer (&c->leaf_of_seq, g_free);
  for (guint t = 0; t < G_N_ELEMENTS (c->totals); t++)
    g_clear_pointer (&c->totals[t], g_free);
  c->n_nodes = 0;
  c->max_depth = 0;
}

static inline guint64
key_at (const guint32 *data,
        const guint32 *offsets,
        guint32        s,
        guint32        depth)
{
  guint32 start = offsets[s] / 4;
  guint32 len = offsets[s + 1] / 4 - start;
  guint64 k = depth < len ? (guint64)data[start + depth] + 1 : 0;

  return (k << 32) | s;
}

static gboolean
too_many_nodes (guint    max_nodes,
                GError **error)
{
  g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
               _("The profile has more than %u call tree nodes"), max_nodes);
  return FALSE;
}

static gboolean
overflow (GError **error)
{
  g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
               _("Sample values add up to more than a 64-bit integer can hold"));
  return FALSE;
}

static inline gboolean
add_values (gint64       *sums,
            const gint64 *values,
            guint         n_types)
{
  gboolean over = FALSE;

  for (guint t = 0; t < n_types; t++)
    over |= __builtin_add_overflow (sums[t], values[t], &sums[t]);
  return !over;
}

typedef struct
{
  const EmbersSeqTable *t;
  const guint32        *names_by_rank;
  const gint64         *values;
  guint                 n_types;
  EmbersTreeColumns    *out;
  const Chain          *chains;
  gsize                 first;
  gsize                 last;
} ChainWork;

static gpointer
write_chains (gpointer data)
{
  const ChainWork *w = data;
  const guint32 *words = embers_seq_table_words (w->t);
  const guint32 *offsets = w->t->offsets;
  EmbersTreeColumns *out = w->out;
  guint32 *names = out->names;
  guint16 *depths = out->depths;

  for (gsize c = w->first; c < w->last; c++)
    {
      const Chain *chain = &w->chains[c];
      const guint32 *seq = words + offsets[chain->stack] / 4;
      guint32 len = (offsets[chain->stack + 1] - offsets[chain->stack]) / 4;
      guint32 end = chain->pos + (len - chain->depth);
      guint32 p = chain->pos;

      for (guint32 j = chain->depth; j < len; j++, p++)
        {
          names[p] = w->names_by_rank[seq[j]];
          depths[p] = (guint16)(j + 1);
        }
      for (guint t = 0; t < w->n_types; t++)
        {
          gint64 v = w->values[(gsize)chain->stack * w->n_types + t];
          gint64 *total = out->totals[t];

          for (p = chain->pos; p < end; p++)
            total[p] = v;
        }
    }

  return NULL;
}

gboolean
embers_tree_build (const EmbersSeqTable *t,
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
                   GError              **error)
{
  const guint32 *data = embers_seq_table_words (t);
  const guint32 *offsets = t->offsets;   /* in bytes */
  guint n = t->n;
  g_autofree guint64 *keys = NULL;
  g_autofree guint64 *tmp = NULL;
  g_autofree Frame *frames = NULL;
  g_autofree gint64 *sums = NULL;
  g_autofree Chain *chains = NULL;
  gsize n_frames = 0, frames_cap = 256;
  gsize n_chains = 0, chains_cap = 1024, chain_nodes = 0;
  guint32 *names, *leaf;
  guint16 *depths;
  gsize cap, pos = 1, limit;
  guint max_depth = 0;
  guint check = 0;

  g_return_val_if_fail (n_types >= 1 && n_types <= EMBERS_PROFILE_MAX_SAMPLE_TYPES, FALSE);

  memset (out, 0, sizeof *out);

  /* Every node but the root is a frame of some stack: the pool's length
   * bounds the node count. Untouched capacity costs no memory. */
  limit = MIN ((gsize)max_nodes, t->len / 4 + 1);
  cap = limit + 1;
  names = out->names = embers_alloc_column (sizeof (guint32) * cap, FALSE);
  depths = out->depths = embers_alloc_column (sizeof (guint16) * cap, FALSE);
  for (guint ty = 0; ty < n_types; ty++)
    out->totals[ty] = embers_alloc_column (sizeof (gint64) * cap, FALSE);
  leaf = out->leaf_of_seq = g_new (guint32, MAX (n, 1));

  names[0] = root_name;
  depths[0] = 0;

  keys = g_new (guint64, MAX (n, 1));
  tmp = g_new (guint64, MAX (n, 1));
  frames = g_new (Frame, frames_cap);
  sums = g_new0 (gint64, frames_cap * n_types);
  chains = g_new (Chain, chains_cap);

  for (guint32 s = 0; s < n; s++)
    {
      guint32 len = (offsets[s + 1] - offsets[s]) / 4;

      /* Depths are 16 bits, and the parents and ends are found from them
       * (embers_tree_link): the builder's limit keeps stacks well below */
      if G_UNLIKELY (len > EMBERS_PROFILE_MAX_DEPTH)
        {
          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "a stack is %u frame deep; the limit is %u",
                                    "a stack is %u frames deep; the limit is %u",
                                    len),
                       len, EMBERS_PROFILE_MAX_DEPTH);
          goto fail;
        }
      keys[s] = key_at (data, offsets, s, 0);
    }
  sort_keys (keys, n, tmp);
  frames[n_frames++] = (Frame) { 0, n, 0, 0, 0, 0 };

  /* Phase 1 */
  while (n_frames > 0)
    {
      Frame *f = &frames[n_frames - 1];
      gint64 *f_sums = sums + (n_frames - 1) * n_types;
      guint32 lo = f->pos, hi;
      guint32 key, d;

      if (lo >= f->hi)
        {
          /* The group is done: the totals of its nodes, added to its
           * parent's */
          for (guint32 x = f->first; x <= f->node; x++)
            for (guint ty = 0; ty < n_types; ty++)
              out->totals[ty][x] = f_sums[ty];
          n_frames--;
          if (n_frames > 0 && !add_values (f_sums - n_types, f_sums, n_types))
            {
              overflow (error);
              goto fail;
            }
          continue;
        }

      if G_UNLIKELY (++check % 4096 == 0)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            goto fail;
          /* Stacks laid out so far: those left of the top frame's cursor */
          if (progress != NULL)
            progress ((guint64)n + f->pos, (guint64)n * 2, progress_data);
        }

      key = (guint32)(keys[lo] >> 32);
      if (key == 0)
        {
          /* Stacks that end at the group's node */
          while (lo < f->hi && (keys[lo] >> 32) == 0)
            {
              guint32 s = (guint32)keys[lo++];

              leaf[s] = f->node;
              if (!add_values (f_sums, values + (gsize)s * n_types, n_types))
                {
                  overflow (error);
                  goto fail;
                }
            }
          f->pos = lo;
          continue;
        }

      hi = lo + 1;
      while (hi < f->hi && (guint32)(keys[hi] >> 32) == key)
        hi++;
      f->pos = hi;
      d = f->depth;

      if (hi - lo == 1)
        {
          /* One stack: the rest of it is a chain, written in phase 2 */
          guint32 s = (guint32)keys[lo];
          guint32 len = (offsets[s + 1] - offsets[s]) / 4;

          if G_UNLIKELY (pos + (len - d) > limit)
            {
              too_many_nodes (max_nodes, error);
              goto fail;
            }
          if (n_chains == chains_cap)
            {
              chains_cap *= 2;
              chains = g_renew (Chain, chains, chains_cap);
            }
          chains[n_chains++] = (Chain) { s, d, (guint32)pos };
          chain_nodes += len - d;
          pos += len - d;
          leaf[s] = (guint32)pos - 1;
          max_depth = MAX (max_depth, len);
          if (!add_values (f_sums, values + (gsize)s * n_types, n_types))
            {
              overflow (error);
              goto fail;
            }
          continue;
        }

      /* Several stacks share this frame, and maybe the next ones: the
       * frames all of them have in common become a chain of nodes, found
       * by reading each stack once (sequentially) rather than by sorting
       * the group again at every frame */
      {
        guint32 ref = (guint32)keys[lo];
        const guint32 *ref_seq = data + offsets[ref] / 4;
        guint32 ext = (offsets[ref + 1] - offsets[ref]) / 4 - (d + 1);
        guint32 first = (guint32)pos;

        for (guint32 i = lo + 1; i < hi && ext > 0; i++)
          {
            guint32 s = (guint32)keys[i];
            const guint32 *seq = data + offsets[s] / 4 + d + 1;
            guint32 lim = MIN (ext, (offsets[s + 1] - offsets[s]) / 4 - (d + 1));
            guint32 e = 0;

            while (e < lim && seq[e] == ref_seq[d + 1 + e])
              e++;
            ext = e;
          }

        if G_UNLIKELY (pos + ext + 1 > limit)
          {
            too_many_nodes (max_nodes, error);
            goto fail;
          }
        for (guint32 j = 0; j <= ext; j++)
          {
            names[pos] = names_by_rank[ref_seq[d + j]];
            depths[pos] = (guint16)(d + j + 1);
            pos++;
          }
        d += ext + 1;
        max_depth = MAX (max_depth, d);

        for (guint32 i = lo; i < hi; i++)
          keys[i] = key_at (data, offsets, (guint32)keys[i], d);
        sort_keys (keys + lo, hi - lo, tmp);

        if (n_frames == frames_cap)
          {
            frames_cap *= 2;
            frames = g_renew (Frame, frames, frames_cap);
            sums = g_renew (gint64, sums, frames_cap * n_types);
          }
        frames[n_frames] = (Frame) { lo, hi, d, (guint32)pos - 1, lo, first };
        memset (sums + n_frames * n_types, 0, sizeof (gint64) * n_types);
        n_frames++;
      }
    }

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto fail;

  /* Every position is known: the columns shrink to the tree (the part a
   * huge page would have held past its end is never made) */
  g_clear_pointer (&keys, g_free);
  g_clear_pointer (&tmp, g_free);
  out->names = names = g_renew (guint32, out->names, pos);
  out->depths = depths = g_renew (guint16, out->depths, pos);
  for (guint ty = 0; ty < n_types; ty++)
    out->totals[ty] = g_renew (gint64, out->totals[ty], pos);

  /* Phase 2: the chains, half of their nodes on a second thread */
  {
    ChainWork work[2];
    GThread *thread = NULL;
    gsize split = 0, acc = 0;

    if (chain_nodes > 65536)
      for (split = 0; split < n_chains && acc * 2 < chain_nodes; split++)
        {
          const Chain *c = &chains[split];

          acc += (offsets[c->stack + 1] - offsets[c->stack]) / 4 - c->depth;
        }
    for (guint i = 0; i < 2; i++)
      work[i] = (ChainWork) { t, names_by_rank, values, n_types, out, chains,
                              i == 0 ? split : 0, i == 0 ? n_chains : split };
    if (split > 0)
      thread = g_thread_new ("embers-tree", write_chains, &work[1]);
    write_chains (&work[0]);
    if (thread != NULL)
      g_thread_join (thread);
  }

  out->n_nodes = (guint)pos;
  out->max_depth = max_depth;
  if (progress != NULL)
    progress ((guint64)n * 2, (guint64)n * 2, progress_data);
  return TRUE;

fail:
  embers_tree_columns_clear (out);
  return FALSE;
}

/* Parents and ends from the depths of a pre-order: a node's parent is the
 * last node before it one level up, and its subtree ends at the first node
 * after it at its level or above. One sequential pass, with the path from
 * the root to the current node. */
void
embers_tree_link (const guint16 *depths,
                  guint          n_nodes,
                  guint          max_depth,
                  guint32       *parents,
                  guint32       *ends)
{
  g_autofree guint32 *path = NULL;
  guint top = 0;   /* path[0..top]: the current node and its ancestors */

  g_return_if_fail (max_depth < G_MAXUINT16);

  if (n_nodes == 0)
    return;

  path = g_new (guint32, (gsize)max_depth + 1);
  path[0] = 0;
  parents[0] = EMBERS_NODE_NONE;
  for (guint32 i = 1; i < n_nodes; i++)
    {
      guint d = depths[i];

      g_assert (d >= 1 && d <= top + 1 && d <= max_depth);
      while (top >= d)
        ends[path[top--]] = i;
      parents[i] = path[d - 1];
      path[d] = i;
      top = d;
    }
  for (;;)
    {
      ends[path[top]] = n_nodes;
      if (top == 0)
        break;
      top--;
    }
}
