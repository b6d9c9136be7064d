/* bench-floor.c: the floor for loading a pprof profile.
 *
 *   bench-floor FILE.pb[.gz] [--top N]
 *
 * The least a loader can do and still print what `embers --top` prints:
 * inflate the file, walk its varints, decode every sample, dedupe identical
 * stacks with one hash per stack, turn locations into function names once,
 * sort the unique stacks by name (strcmp order, as Embers orders siblings),
 * and emit the call tree in pre-order from the sorted stacks (a new node
 * wherever a stack leaves the previous one's prefix: no per-frame hashing),
 * with parent, depth, subtree end and one total column per sample type.
 * Then the top table of the default sample type (recursion counted once),
 * sorted by self.
 *
 * One thread, plain C with zlib, no GLib; it trusts its input (it stops
 * at the first thing it does not expect) and reads no labels, mappings,
 * file names or lines. bench-load runs it beside `embers --top` and
 * `go tool pprof -top` and prints the ratios. It prints its own phase
 * times on standard error.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
die (const char *what)
{
  fprintf (stderr, "bench-floor: %s\n", what);
  exit (1);
}

static void *
xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);

  if (p == NULL)
    die ("out of memory");
  return p;
}

static void *
xcalloc (size_t n,
         size_t size)
{
  void *p = calloc (n ? n : 1, size);

  if (p == NULL)
    die ("out of memory");
  return p;
}

static void *
xrealloc (void   *p,
          size_t  n)
{
  p = realloc (p, n ? n : 1);
  if (p == NULL)
    die ("out of memory");
  return p;
}

static inline uint64_t
varint (const uint8_t **p,
        const uint8_t  *end)
{
  uint64_t v = 0;

  for (int shift = 0; shift < 64 && *p < end; shift += 7)
    {
      uint8_t b = *(*p)++;

      v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80))
        return v;
    }
  die ("bad varint");
  return 0;
}

/* Skips a field's payload; returns the body of a length-delimited one. */
static inline const uint8_t *
field (const uint8_t **p,
       const uint8_t  *end,
       unsigned       *num,
       unsigned       *wire,
       size_t         *len)
{
  uint64_t tag = varint (p, end);
  const uint8_t *body = *p;

  *num = (unsigned) (tag >> 3);
  *wire = (unsigned) (tag & 7);
  *len = 0;
  switch (*wire)
    {
    case 0: (void) varint (p, end); break;
    case 1: *p += 8; break;
    case 5: *p += 4; break;
    case 2:
      *len = varint (p, end);
      body = *p;
      if (*len > (size_t) (end - *p))
        die ("truncated");
      *p += *len;
      break;
    default: die ("bad wire type");
    }
  return body;
}

static uint8_t *
read_all (const char *path,
          size_t     *len)
{
  FILE *f = fopen (path, "rb");
  size_t cap = 1 << 20, n = 0;
  uint8_t *data = xmalloc (cap);

  if (f == NULL)
    die ("cannot open the file");
  for (;;)
    {
      size_t got = fread (data + n, 1, cap - n, f);

      n += got;
      if (n < cap)
        break;
      cap *= 2;
      data = xrealloc (data, cap);
    }
  fclose (f);
  *len = n;
  return data;
}

static uint8_t *
gunzip (const uint8_t *in,
        size_t         in_len,
        size_t        *out_len)
{
  z_stream zs;
  size_t cap = in_len * 4 + 4096;
  uint8_t *out = xmalloc (cap);
  int ret;

  memset (&zs, 0, sizeof zs);
  if (inflateInit2 (&zs, 15 + 16) != Z_OK)
    die ("inflateInit2");
  zs.next_in = (Bytef *) in;
  zs.avail_in = (uInt) in_len;
  do
    {
      if (zs.total_out == cap)
        {
          cap *= 2;
          out = xrealloc (out, cap);
        }
      zs.next_out = out + zs.total_out;
      zs.avail_out = (uInt) (cap - zs.total_out);
      ret = inflate (&zs, Z_NO_FLUSH);
    }
  while (ret == Z_OK || (ret == Z_BUF_ERROR && zs.avail_out == 0));
  if (ret != Z_STREAM_END)
    die ("bad gzip data");
  *out_len = zs.total_out;
  inflateEnd (&zs);
  return out;
}

/* Growing arrays of 32-bit values */
typedef struct
{
  uint32_t *v;
  size_t    n, cap;
} U32s;

static inline void
push (U32s     *a,
      uint32_t  x)
{
  if (a->n == a->cap)
    {
      a->cap = a->cap ? a->cap * 2 : 1024;
      a->v = xrealloc (a->v, a->cap * sizeof (uint32_t));
    }
  a->v[a->n++] = x;
}

/* The profile's tables */
static const uint8_t **str_ptr;
static uint32_t *str_len;
static size_t n_strings;

static int
compare_strings (const void *a,
                 const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  size_t n = str_len[x] < str_len[y] ? str_len[x] : str_len[y];
  int r = memcmp (str_ptr[x], str_ptr[y], n);

  if (r != 0)
    return r;
  return str_len[x] < str_len[y] ? -1 : str_len[x] > str_len[y];
}

/* Unique stacks in name rank space, for the sort */
static const uint32_t *rank_pool;
static const uint32_t *rank_off;

static int
compare_stacks (const void *a,
                const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  const uint32_t *p = rank_pool + rank_off[x], *pe = rank_pool + rank_off[x + 1];
  const uint32_t *q = rank_pool + rank_off[y], *qe = rank_pool + rank_off[y + 1];

  for (; p < pe && q < qe; p++, q++)
    if (*p != *q)
      return *p < *q ? -1 : 1;
  return (p < pe) - (q < qe);
}

static const int64_t *sort_self;
static const int64_t *sort_total;

static int
compare_top (const void *a,
             const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

  if (sort_self[x] != sort_self[y])
    return sort_self[x] > sort_self[y] ? -1 : 1;
  if (sort_total[x] != sort_total[y])
    return sort_total[x] > sort_total[y] ? -1 : 1;
  return compare_strings (&x, &y);
}

static inline uint64_t
hash_ids (const uint32_t *ids,
          size_t          n)
{
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;

  for (size_t i = 0; i < n; i++)
    {
      h ^= ids[i];
      h *= 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }
  return h;
}

int
main (int    argc,
      char **argv)
{
  size_t file_len, len;
  uint8_t *file, *data;
  const uint8_t *p, *end;
  unsigned num, wire;
  size_t flen;
  double t0 = now (), t_inflate, t_tables, t_samples, t_sort, t_tree, t_top;
  size_t n_types = 0, n_samples_in_file = 0;
  int64_t default_type_str = 0;
  U32s type_names = { 0 };
  /* functions and locations by id (dense) */
  uint32_t *func_name = NULL; size_t func_cap = 0;
  uint32_t *loc_off = NULL, *loc_n = NULL; size_t loc_cap = 0;
  U32s loc_funcs = { 0 };   /* function ids, root first, per location */
  /* unique stacks of location ids (leaf first, as in the file) */
  U32s pool = { 0 }, pool_off = { 0 };
  int64_t *values = NULL;    /* n_unique * n_types */
  uint32_t *table;
  size_t mask, n_unique = 0;
  uint32_t *tmp_ids = xmalloc (sizeof (uint32_t) * 65536);
  int64_t tmp_values[64];
  unsigned top = 20;

  if (argc < 2)
    {
      fprintf (stderr, "usage: bench-floor FILE [--top N]\n");
      return 2;
    }
  if (argc >= 4 && strcmp (argv[2], "--top") == 0)
    top = (unsigned) atoi (argv[3]);

  file = read_all (argv[1], &file_len);
  if (file_len >= 2 && file[0] == 0x1f && file[1] == 0x8b)
    {
      data = gunzip (file, file_len, &len);
      free (file);
    }
  else
    {
      data = file;
      len = file_len;
    }
  t_inflate = now ();

  /* Pass 1: the tables (sample types, locations, functions, strings) */
  p = data;
  end = data + len;
  while (p < end)
    {
      const uint8_t *body = field (&p, end, &num, &wire, &flen);
      const uint8_t *q = body, *qe = body + flen;

      if (num == 1 && wire == 2)
        {
          while (q < qe)
            {
              const uint8_t *b = field (&q, qe, &num, &wire, &flen);

              if (num == 1 && wire == 0)
                {
                  const uint8_t *v = b;

                  push (&type_names, (uint32_t) varint (&v, qe));
                }
            }
          n_types++;
        }
      else if (num == 2)
        n_samples_in_file++;
      else if (num == 4 && wire == 2)
        {
          uint64_t id = 0;
          uint32_t first = (uint32_t) loc_funcs.n;

          while (q < qe)
            {
              const uint8_t *b = field (&q, qe, &num, &wire, &flen);

              if (num == 1 && wire == 0)
                {
                  const uint8_t *v = b;

                  id = varint (&v, qe);
                }
              else if (num == 4 && wire == 2)
                {
                  const uint8_t *l = b, *le = b + flen;

                  while (l < le)
                    {
                      const uint8_t *lb = field (&l, le, &num, &wire, &flen);

                      if (num == 1 && wire == 0)
                        {
                          const uint8_t *v = lb;

                          push (&loc_funcs, (uint32_t) varint (&v, le));
                        }
                    }
                }
            }
          if (id == 0 || id > 100000000)
            die ("location ids are not small");
          if (id >= loc_cap)
            {
              size_t cap = loc_cap ? loc_cap : 1024;

              while (cap <= id)
                cap *= 2;
              loc_off = xrealloc (loc_off, cap * sizeof (uint32_t));
              loc_n = xrealloc (loc_n, cap * sizeof (uint32_t));
              memset (loc_n + loc_cap, 0, (cap - loc_cap) * sizeof (uint32_t));
              loc_cap = cap;
            }
          /* lines are leaf (innermost) first: reverse to root first */
          for (size_t i = first, j = loc_funcs.n - 1; i < j; i++, j--)
            {
              uint32_t t = loc_funcs.v[i];

              loc_funcs.v[i] = loc_funcs.v[j];
              loc_funcs.v[j] = t;
            }
          loc_off[id] = first;
          loc_n[id] = (uint32_t) (loc_funcs.n - first);
        }
      else if (num == 5 && wire == 2)
        {
          uint64_t id = 0, name = 0;

          while (q < qe)
            {
              const uint8_t *b = field (&q, qe, &num, &wire, &flen);
              const uint8_t *v = b;

              if (num == 1 && wire == 0)
                id = varint (&v, qe);
              else if (num == 2 && wire == 0)
                name = varint (&v, qe);
            }
          if (id == 0 || id > 100000000)
            die ("function ids are not small");
          if (id >= func_cap)
            {
              size_t cap = func_cap ? func_cap : 1024;

              while (cap <= id)
                cap *= 2;
              func_name = xrealloc (func_name, cap * sizeof (uint32_t));
              memset (func_name + func_cap, 0, (cap - func_cap) * sizeof (uint32_t));
              func_cap = cap;
            }
          func_name[id] = (uint32_t) name;
        }
      else if (num == 6 && wire == 2)
        {
          if ((n_strings & (n_strings - 1)) == 0)
            {
              size_t cap = n_strings ? n_strings * 2 : 1024;

              str_ptr = xrealloc (str_ptr, cap * sizeof *str_ptr);
              str_len = xrealloc (str_len, cap * sizeof *str_len);
            }
          str_ptr[n_strings] = body;
          str_len[n_strings] = (uint32_t) flen;
          n_strings++;
        }
      else if (num == 14 && wire == 0)
        {
          const uint8_t *v = body;

          default_type_str = (int64_t) varint (&v, end);
        }
    }
  if (n_types == 0 || n_types > 64 || n_strings == 0)
    die ("no sample types or strings");
  t_tables = now ();

  /* Pass 2: the samples, deduplicated by their location ids */
  mask = 1024;
  while (mask < n_samples_in_file * 2)
    mask <<= 1;
  table = xcalloc (mask, sizeof (uint32_t));
  mask--;
  push (&pool_off, 0);
  values = xmalloc (sizeof (int64_t) * n_types * (n_samples_in_file + 1));
  p = data;
  while (p < end)
    {
      const uint8_t *body = field (&p, end, &num, &wire, &flen);
      const uint8_t *q = body, *qe = body + flen;
      size_t n_ids = 0, n_values = 0;
      uint64_t h;
      size_t slot;

      if (num != 2)
        continue;
      while (q < qe)
        {
          const uint8_t *b = field (&q, qe, &num, &wire, &flen);
          const uint8_t *v = b;

          if (num == 1 && wire == 2)
            while (v < b + flen && n_ids < 65536)
              tmp_ids[n_ids++] = (uint32_t) varint (&v, b + flen);
          else if (num == 1 && wire == 0 && n_ids < 65536)
            tmp_ids[n_ids++] = (uint32_t) varint (&v, qe);
          else if (num == 2 && wire == 2)
            while (v < b + flen && n_values < 64)
              tmp_values[n_values++] = (int64_t) varint (&v, b + flen);
          else if (num == 2 && wire == 0 && n_values < 64)
            tmp_values[n_values++] = (int64_t) varint (&v, qe);
        }
      if (n_values != n_types)
        die ("a sample has the wrong number of values");

      h = hash_ids (tmp_ids, n_ids);
      for (slot = h & mask; table[slot] != 0; slot = (slot + 1) & mask)
        {
          uint32_t u = table[slot] - 1;
          size_t ulen = pool_off.v[u + 1] - pool_off.v[u];

          if (ulen == n_ids && memcmp (pool.v + pool_off.v[u], tmp_ids, n_ids * 4) == 0)
            break;
        }
      if (table[slot] == 0)
        {
          table[slot] = (uint32_t) ++n_unique;
          for (size_t i = 0; i < n_ids; i++)
            push (&pool, tmp_ids[i]);
          push (&pool_off, (uint32_t) pool.n);
          memset (values + (n_unique - 1) * n_types, 0, n_types * sizeof (int64_t));
        }
      for (size_t t = 0; t < n_types; t++)
        values[(table[slot] - 1) * n_types + t] += tmp_values[t];
    }
  free (table);
  t_samples = now ();

  /* Name ranks in strcmp order, for the function names in use */
  {
    uint32_t *rank_of_string = xcalloc (n_strings, sizeof (uint32_t));
    uint32_t *used = xmalloc (sizeof (uint32_t) * (func_cap + 1));
    size_t n_used = 0;
    uint32_t *names_by_rank, *ranks, *off, *order, *lcp;
    size_t n_nodes, total_len = 0;
    uint32_t *names, *parents, *ends, *path;
    uint16_t *depths;
    int64_t *total;

    for (size_t f = 0; f < func_cap; f++)
      if (func_name[f] != 0 && func_name[f] < n_strings && rank_of_string[func_name[f]] == 0)
        {
          rank_of_string[func_name[f]] = 1;
          used[n_used++] = func_name[f];
        }
    qsort (used, n_used, sizeof (uint32_t), compare_strings);
    names_by_rank = xmalloc (sizeof (uint32_t) * (n_used + 1));
    names_by_rank[0] = 0;
    for (size_t r = 0; r < n_used; r++)
      {
        rank_of_string[used[r]] = (uint32_t) r + 1;
        names_by_rank[r + 1] = used[r];
      }

    /* Unique stacks as root-first rank sequences */
    for (size_t u = 0; u < n_unique; u++)
      for (size_t k = pool_off.v[u]; k < pool_off.v[u + 1]; k++)
        total_len += pool.v[k] < loc_cap ? loc_n[pool.v[k]] : 0;
    ranks = xmalloc (sizeof (uint32_t) * (total_len + 1));
    off = xmalloc (sizeof (uint32_t) * (n_unique + 1));
    total_len = 0;
    for (size_t u = 0; u < n_unique; u++)
      {
        off[u] = (uint32_t) total_len;
        for (size_t k = pool_off.v[u + 1]; k-- > pool_off.v[u]; )
          {
            uint32_t id = pool.v[k];

            if (id >= loc_cap)
              die ("unknown location");
            for (uint32_t j = 0; j < loc_n[id]; j++)
              {
                uint32_t fn = loc_funcs.v[loc_off[id] + j];

                ranks[total_len++] = fn < func_cap ? rank_of_string[func_name[fn]] : 0;
              }
          }
      }
    off[n_unique] = (uint32_t) total_len;
    free (pool.v);
    free (pool_off.v);

    order = xmalloc (sizeof (uint32_t) * (n_unique + 1));
    for (size_t u = 0; u < n_unique; u++)
      order[u] = (uint32_t) u;
    rank_pool = ranks;
    rank_off = off;
    qsort (order, n_unique, sizeof (uint32_t), compare_stacks);
    t_sort = now ();

    /* Count the nodes: each stack adds what lies past its common prefix
     * with the one before */
    lcp = xmalloc (sizeof (uint32_t) * (n_unique + 1));
    n_nodes = 1;
    for (size_t i = 0; i < n_unique; i++)
      {
        const uint32_t *a = ranks + off[order[i]];
        uint32_t alen = off[order[i] + 1] - off[order[i]];
        uint32_t l = 0;

        if (i > 0)
          {
            const uint32_t *b = ranks + off[order[i - 1]];
            uint32_t blen = off[order[i - 1] + 1] - off[order[i - 1]];

            while (l < alen && l < blen && a[l] == b[l])
              l++;
          }
        lcp[i] = l;
        n_nodes += alen - l;
      }

    names = xmalloc (sizeof (uint32_t) * n_nodes);
    parents = xmalloc (sizeof (uint32_t) * n_nodes);
    ends = xmalloc (sizeof (uint32_t) * n_nodes);
    depths = xmalloc (sizeof (uint16_t) * n_nodes);
    total = xcalloc (n_nodes * n_types, sizeof (int64_t));
    path = xmalloc (sizeof (uint32_t) * 65537);
    names[0] = 0;
    parents[0] = UINT32_MAX;
    depths[0] = 0;
    {
      size_t pos = 1;

      path[0] = 0;
      for (size_t i = 0; i < n_unique; i++)
        {
          const uint32_t *a = ranks + off[order[i]];
          uint32_t alen = off[order[i] + 1] - off[order[i]];
          uint32_t leaf;

          for (uint32_t k = lcp[i]; k < alen; k++)
            {
              names[pos] = names_by_rank[a[k]];
              parents[pos] = path[k];
              depths[pos] = (uint16_t) (k + 1);
              path[k + 1] = (uint32_t) pos++;
            }
          leaf = path[alen];
          for (size_t t = 0; t < n_types; t++)
            total[t * n_nodes + leaf] += values[order[i] * n_types + t];
        }
    }
    for (size_t i = 0; i < n_nodes; i++)
      ends[i] = (uint32_t) i + 1;
    {
      int64_t *self = xmalloc (sizeof (int64_t) * n_nodes);
      size_t t_def = n_types - 1;
      int64_t *self_by_name, *total_by_name;
      uint32_t *on_path, *rows;
      size_t depth = 0, n_rows = 0;

      for (size_t t = 0; t < n_types; t++)
        if ((int64_t) type_names.v[t] == default_type_str && default_type_str != 0)
          t_def = t;
      memcpy (self, total + t_def * n_nodes, sizeof (int64_t) * n_nodes);
      for (size_t i = n_nodes; i-- > 1; )
        {
          uint32_t par = parents[i];

          if (ends[i] > ends[par])
            ends[par] = ends[i];
          for (size_t t = 0; t < n_types; t++)
            total[t * n_nodes + par] += total[t * n_nodes + i];
        }
      t_tree = now ();

      /* The top table */
      self_by_name = xcalloc (n_strings, sizeof (int64_t));
      total_by_name = xcalloc (n_strings, sizeof (int64_t));
      on_path = xcalloc (n_strings, sizeof (uint32_t));
      for (size_t i = 1; i < n_nodes; i++)
        {
          uint32_t name = names[i];

          while (depth > 0 && ends[path[depth - 1]] <= i)
            on_path[names[path[--depth]]]--;
          self_by_name[name] += self[i];
          if (on_path[name] == 0)
            total_by_name[name] += total[t_def * n_nodes + i];
          on_path[name]++;
          path[depth++] = (uint32_t) i;
        }
      rows = xmalloc (sizeof (uint32_t) * n_used);
      for (size_t r = 0; r < n_used; r++)
        if (self_by_name[used[r]] != 0 || total_by_name[used[r]] != 0)
          rows[n_rows++] = used[r];
      sort_self = self_by_name;
      sort_total = total_by_name;
      qsort (rows, n_rows, sizeof (uint32_t), compare_top);
      for (size_t r = 0; r < n_rows && r < top; r++)
        printf ("%lld\t%lld\t%.*s\n", (long long) self_by_name[rows[r]],
                (long long) total_by_name[rows[r]], (int) str_len[rows[r]],
                (const char *) str_ptr[rows[r]]);
      t_top = now ();

      fprintf (stderr, "floor: %zu samples, %zu unique stacks, %zu nodes, %zu types\n",
               n_samples_in_file, n_unique, n_nodes, n_types);
      {
        struct rusage ru;

        getrusage (RUSAGE_SELF, &ru);
        fprintf (stderr, "floor: inflate %.3f, tables %.3f, samples %.3f, sort %.3f, "
                 "tree %.3f, top %.3f, all %.3f s, peak RSS %.1f MiB\n",
                 t_inflate - t0, t_tables - t_inflate, t_samples - t_tables,
                 t_sort - t_samples, t_tree - t_sort, t_top - t_tree, t_top - t0,
                 ru.ru_maxrss / 1024.0);
      }
    }
  }

  return 0;
}
