/* gen-pprof.c: writes a large, realistic, deterministic pprof profile for the
 * load benchmark (and small ones for fuzzing seeds).
 *
 *   gen-pprof OUT.pb [--samples N] [--functions N] [--seed N] [--gzip]
 *                    [--shape zipf|random|big]
 *
 * Two families of shapes:
 *
 * zipf (the default, the "z" profiles: z500k, z2m): stacks as continuous
 * profilers emit them, many samples repeating a pool of stacks that share
 * long prefixes. Defaults: 500000 samples over 30000 functions with Go-, Java- and C++-like
 * names, deep stacks (mean depth about 40, some deeper than 200, recursion
 * included), Zipf-like popularity of functions, stacks and labels, two sample
 * types (samples/count, cpu/nanoseconds), two or three string labels per
 * sample and inlined frames: about 37 MB (35.6 MiB) uncompressed, about 750k
 * tree nodes. --gzip also writes OUT.gz; --stats prints these figures.
 *
 * random (the "s" profiles: s10k, s100k, s500k, s2m): random deep stacks,
 * as a profile made by drawing every frame at random (with a pprof library)
 * looks. Each sample has its own stack: a root out of five, then 1 to 43
 * frames (22 on average) drawn uniformly from the locations of n/10
 * functions (n the number of samples; at least 1000), no inlining, no
 * labels. Below the second level almost every frame is a new tree node:
 * about 21 nodes per sample. --functions is ignored.
 *
 * big (big100k): random deep stacks that are deeper (2 to 50 frames, 26 on
 * average) with one label per sample, so that every sample is also kept
 * with its label set.
 *
 * The same arguments always give the same bytes: it uses its own PRNG.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <zlib.h>

#include "profile.pb-c.h"

/* xoshiro256** seeded through splitmix64 (public-domain algorithms). */
typedef struct
{
  guint64 s[4];
} Rng;

static guint64
splitmix64 (guint64 *x)
{
  guint64 z = (*x += 0x9e3779b97f4a7c15ull);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void
rng_init (Rng     *r,
          guint64  seed)
{
  for (guint i = 0; i < 4; i++)
    r->s[i] = splitmix64 (&seed);
}

static inline guint64
rotl (guint64 x,
      int     k)
{
  return (x << k) | (x >> (64 - k));
}

static guint64
rng_next (Rng *r)
{
  guint64 result = rotl (r->s[1] * 5, 7) * 9;
  guint64 t = r->s[1] << 17;

  r->s[2] ^= r->s[0];
  r->s[3] ^= r->s[1];
  r->s[1] ^= r->s[2];
  r->s[0] ^= r->s[3];
  r->s[2] ^= t;
  r->s[3] = rotl (r->s[3], 45);
  return result;
}

/* Uniform in [0, n). */
static guint
rng_below (Rng   *r,
           guint  n)
{
  return n <= 1 ? 0 : (guint) (((rng_next (r) >> 32) * (guint64) n) >> 32);
}

/* Uniform in [0, 1). */
static double
rng_double (Rng *r)
{
  return (double) (rng_next (r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Geometric with the given mean (>= 0). */
static guint
rng_geometric (Rng    *r,
               double  mean)
{
  double p = 1.0 / (mean + 1.0);

  return (guint) floor (log (1.0 - rng_double (r)) / log (1.0 - p));
}

/* Zipf-like distribution over [0, n) by inverse CDF. */
typedef struct
{
  double *cdf;
  guint   n;
} Zipf;

static void
zipf_init (Zipf   *z,
           guint   n,
           double  s)
{
  double sum = 0;

  z->n = MAX (n, 1);
  z->cdf = g_new (double, z->n);
  for (guint i = 0; i < z->n; i++)
    {
      sum += 1.0 / pow (i + 1.0, s);
      z->cdf[i] = sum;
    }
  for (guint i = 0; i < z->n; i++)
    z->cdf[i] /= sum;
}

static guint
zipf_pick (const Zipf *z,
           Rng        *r)
{
  double u = rng_double (r);
  guint lo = 0, hi = z->n - 1;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (z->cdf[mid] < u)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
zipf_clear (Zipf *z)
{
  g_clear_pointer (&z->cdf, g_free);
}

/* String table */
typedef struct
{
  GPtrArray  *strings;   /* owned */
  GHashTable *ids;       /* borrowed key -> index + 1 */
} Strings;

static void
strings_init (Strings *st)
{
  st->strings = g_ptr_array_new_with_free_func (g_free);
  st->ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_ptr_array_add (st->strings, g_strdup (""));
  g_hash_table_insert (st->ids, st->strings->pdata[0], GUINT_TO_POINTER (1));
}

static gint64
strings_intern (Strings    *st,
                const char *s)
{
  gpointer v = g_hash_table_lookup (st->ids, s);
  char *copy;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  copy = g_strdup (s);
  g_ptr_array_add (st->strings, copy);
  g_hash_table_insert (st->ids, copy, GUINT_TO_POINTER (st->strings->len));
  return st->strings->len - 1;
}

static gboolean
strings_contains (Strings    *st,
                  const char *s)
{
  return g_hash_table_contains (st->ids, s);
}

/* Words for names */
static const char * const org_words[] = {
  "acme", "initech", "globex", "umbrella", "hooli", "stark", "wayne", "tyrell",
  "cyberdyne", "aperture", "vandelay", "soylent", "oscorp", "wonka", "monarch",
};
static const char * const pkg_words[] = {
  "storage", "cache", "index", "query", "planner", "exec", "net", "http", "rpc",
  "codec", "json", "proto", "auth", "session", "metrics", "trace", "log", "pool",
  "sched", "queue", "stream", "batch", "shard", "raft", "wal", "btree", "lsm",
  "compress", "crypto", "tls", "dns", "config", "registry", "router", "billing",
  "ledger", "search", "ranking", "feed", "media", "image", "video", "render",
  "ingest", "export", "parser", "lexer", "compiler", "vm", "gc", "alloc", "sync",
  "atomic", "io", "fs", "block", "page", "buffer", "ring", "timer", "event",
};
static const char * const type_words[] = {
  "Server", "Client", "Handler", "Manager", "Reader", "Writer", "Encoder",
  "Decoder", "Builder", "Factory", "Store", "Table", "Iterator", "Cursor",
  "Worker", "Scheduler", "Pool", "Buffer", "Conn", "Stream", "Router", "Filter",
  "Merger", "Planner", "Executor", "Compactor", "Allocator", "Visitor", "Node",
  "Tree", "Map", "Set", "Queue", "Cache", "Index", "Segment", "Block", "Frame",
};
static const char * const verb_words[] = {
  "get", "put", "read", "write", "flush", "sync", "open", "close", "encode",
  "decode", "parse", "build", "merge", "split", "scan", "seek", "next", "find",
  "insert", "remove", "update", "apply", "handle", "serve", "dispatch", "visit",
  "compute", "hash", "compare", "copy", "grow", "alloc", "free", "lock",
  "unlock", "wait", "notify", "poll", "send", "recv", "retry", "resolve",
};
static const char * const noun_words[] = {
  "", "Batch", "Entry", "Key", "Value", "Row", "Page", "Chunk", "Request",
  "Response", "Header", "Body", "Range", "Token", "Node", "Slice", "Bytes",
  "Record", "Span", "Metric", "Label", "Block", "Frame", "All", "Once",
};
static const char * const cpp_args[] = {
  "", "int", "unsigned long", "std::string const&", "char const*, unsigned long",
  "void*", "std::vector<int, std::allocator<int> > const&", "bool", "double",
  "std::shared_ptr<Node> const&, int",
};

#define PICK(r, array) (array[rng_below ((r), G_N_ELEMENTS (array))])

typedef struct
{
  gint64  name;
  gint64  filename;
  gint64  start_line;
  guint   first_loc;    /* index into locations */
  guint   n_locs;
  guint   n_callees;
  guint  *callees;      /* function indexes, most likely first */
} Func;

typedef struct
{
  Rng      rng;
  Strings  strings;
  Func    *funcs;
  guint    n_funcs;
  guint    n_locs;
  guint   *loc_func;    /* location index -> function index */
  guint8  *loc_n_inline;/* inlined callees at the location (0-2) */
} Gen;

static void
make_function_name (Gen     *g,
                     guint    index,
                     GString *name,
                     GString *file)
{
  Rng *r = &g->rng;
  guint lang = index % 10;   /* 5 Go, 3 Java, 2 C++ out of 10 */
  const char *org = PICK (r, org_words);
  const char *pkg = PICK (r, pkg_words);
  const char *sub = PICK (r, pkg_words);
  const char *type = PICK (r, type_words);
  const char *verb = PICK (r, verb_words);
  const char *noun = PICK (r, noun_words);

  g_string_truncate (name, 0);
  g_string_truncate (file, 0);

  if (lang < 5)
    {
      if (rng_below (r, 3) == 0)
        g_string_printf (name, "github.com/%s/%s/%s.%c%s%s", org, pkg, sub,
                         g_ascii_toupper (verb[0]), verb + 1, noun);
      else
        g_string_printf (name, "github.com/%s/%s/%s.(*%s).%c%s%s", org, pkg, sub, type,
                         g_ascii_toupper (verb[0]), verb + 1, noun);
      g_string_printf (file, "/go/src/github.com/%s/%s/%s/%s.go", org, pkg, sub,
                       PICK (r, verb_words));
    }
  else if (lang < 8)
    {
      g_string_printf (name, "com.%s.%s.%s.%s%s.%s%s", org, pkg, sub,
                       PICK (r, type_words), type, verb, noun);
      g_string_printf (file, "%s%s.java", PICK (r, type_words), type);
    }
  else
    {
      g_string_printf (name, "%s::%s::%s::%s%s(%s)", org, pkg, type, verb, noun,
                       PICK (r, cpp_args));
      g_string_printf (file, "/src/%s/%s/%s.cc", org, pkg, sub);
    }
}

static const char * const root_names[] = {
  "runtime.goexit",
  "runtime.main",
  "java.lang.Thread.run",
  "start_thread",
  "runtime.mcall",
};

static void
gen_functions (Gen   *g,
               guint  n_funcs)
{
  g_autoptr(GString) name = g_string_new (NULL);
  g_autoptr(GString) file = g_string_new (NULL);
  Zipf pop;
  guint n_roots = MIN (G_N_ELEMENTS (root_names), n_funcs);
  guint loc = 0;

  g->n_funcs = n_funcs;
  g->funcs = g_new0 (Func, n_funcs);

  /* Function i has popularity rank i: callees are drawn from this Zipf. */
  zipf_init (&pop, n_funcs, 1.05);

  for (guint i = 0; i < n_funcs; i++)
    {
      Func *f = &g->funcs[i];

      if (i < n_roots)
        {
          g_string_assign (name, root_names[i]);
          g_string_assign (file, "/usr/lib/runtime/proc.go");
        }
      else
        {
          make_function_name (g, i, name, file);
          if (strings_contains (&g->strings, name->str))
            {
              g_autofree char *base = g_strdup (name->str);
              gboolean is_cpp = g_str_has_suffix (base, ")");
              gboolean is_go = g_str_has_prefix (base, "github.com/");

              /* Go closures "F.func2", Java lambdas "m$2", C++ "m2(int)". */
              for (guint k = 2; strings_contains (&g->strings, name->str); k++)
                {
                  g_string_assign (name, base);
                  if (is_cpp)
                    {
                      char *paren = strchr (name->str, '(');
                      g_autofree char *suffix = g_strdup_printf ("%u", k);

                      g_string_insert (name, paren - name->str, suffix);
                    }
                  else
                    g_string_append_printf (name, is_go ? ".func%u" : "$%u", k);
                }
            }
        }

      f->name = strings_intern (&g->strings, name->str);
      f->filename = strings_intern (&g->strings, file->str);
      f->start_line = 10 + rng_below (&g->rng, 2000);
      f->first_loc = loc;
      /* Popular functions have more call sites, hence more locations. */
      f->n_locs = 1 + rng_below (&g->rng, i < n_funcs / 10 ? 4 : 2);
      loc += f->n_locs;

      /* Callees: mostly popular functions, some from anywhere. */
      f->n_callees = 1 + rng_geometric (&g->rng, 3.0);
      f->callees = g_new (guint, f->n_callees);
      for (guint c = 0; c < f->n_callees; c++)
        {
          guint callee;

          do
            callee = rng_below (&g->rng, 4) == 0
                     ? rng_below (&g->rng, n_funcs)
                     : zipf_pick (&pop, &g->rng);
          while (callee < n_roots && n_funcs > n_roots);
          f->callees[c] = callee;
        }
    }

  g->n_locs = loc;
  g->loc_func = g_new (guint, loc);
  g->loc_n_inline = g_new (guint8, loc);
  for (guint i = 0; i < n_funcs; i++)
    for (guint k = 0; k < g->funcs[i].n_locs; k++)
      {
        guint r = rng_below (&g->rng, 100);

        g->loc_func[g->funcs[i].first_loc + k] = i;
        /* Four in ten call sites have inlined code: one or two callees. */
        g->loc_n_inline[g->funcs[i].first_loc + k] = r < 25 ? 1 : r < 40 ? 2 : 0;
      }

  zipf_clear (&pop);
}

static guint
func_location (Gen   *g,
               guint  func)
{
  const Func *f = &g->funcs[func];

  return f->first_loc + rng_below (&g->rng, f->n_locs);
}

static guint
next_callee (Gen   *g,
             guint  func)
{
  const Func *f = &g->funcs[func];
  /* Earlier callees are much more likely. */
  guint c = rng_geometric (&g->rng, 0.8);

  c = MIN (c, f->n_callees - 1);

  return f->callees[c];
}

/* A stack, root first, as location indexes. */
typedef struct
{
  guint   len;
  guint  *locs;
} Stack;

static guint
target_depth (Gen *g)
{
  Rng *r = &g->rng;

  if (rng_below (r, 100) < 3)
    return 50 + rng_below (r, 110);             /* deep: recursion, long chains */
  return 3 + rng_below (r, 14) + rng_below (r, 14) + rng_below (r, 14);
}

/* Appends frames after prefix[0, k) up to depth target. */
static void
extend_stack (Gen    *g,
              guint  *locs,
              guint   k,
              guint   target)
{
  guint func = k > 0 ? g->loc_func[locs[k - 1]] : rng_below (&g->rng, MIN (3u, g->n_funcs));
  guint i = k;

  if (k == 0)
    locs[i++] = func_location (g, func);

  /* Deep stacks recurse through a pair of functions for a while. */
  if (target >= 50 && target - i > 30)
    {
      guint a = next_callee (g, func);
      guint b = next_callee (g, a);
      guint run = target - i - 10 - rng_below (&g->rng, 20);
      guint la = func_location (g, a), lb = func_location (g, b);

      for (guint j = 0; j < run; j++)
        locs[i++] = (j % 2 == 0) ? la : lb;
      func = (run % 2 == 0) ? b : a;
    }

  while (i < target)
    {
      func = next_callee (g, func);
      locs[i++] = func_location (g, func);
    }
}

/* Stack pool: each new stack shares a prefix with an earlier one (Zipf-chosen)
 * and adds a few frames of its own, so the tree grows by about that many
 * nodes per stack while samples still have the target depths. */
static Stack *
gen_stack_pool (Gen    *g,
                guint   n_stacks,
                double  new_frames)
{
  Stack *pool = g_new0 (Stack, n_stacks);
  Zipf pick;
  guint scratch[1024];

  zipf_init (&pick, n_stacks, 0.9);

  for (guint s = 0; s < n_stacks; s++)
    {
      guint target = target_depth (g);
      guint k = 0;

      if (s > 0)
        {
          /* A parent among those already made: Zipf over their order. */
          const Stack *parent;
          guint ext = 1 + rng_geometric (&g->rng, new_frames);
          guint p;

          do
            p = zipf_pick (&pick, &g->rng);
          while (p >= s);
          parent = &pool[p];
          k = target > ext ? target - ext : 1;
          k = MIN (k, parent->len);
          memcpy (scratch, parent->locs, sizeof (guint) * k);
          if (target <= k)
            target = k + 1;
        }

      extend_stack (g, scratch, k, target);
      pool[s].len = target;
      pool[s].locs = g_memdup2 (scratch, sizeof (guint) * target);
    }

  zipf_clear (&pick);
  return pool;
}

static const char * const label_keys[] = { "span_name", "endpoint", "region" };
static const guint label_cardinality[] = { 60, 400, 12 };

typedef struct
{
  Google__V1__Profile       profile;
  Google__V1__ValueType     sample_types[2];
  Google__V1__ValueType    *sample_type_ptrs[2];
  Google__V1__ValueType     period_type;
  Google__V1__Mapping       mapping;
  Google__V1__Mapping      *mapping_ptrs[1];
  Google__V1__Function     *functions;
  Google__V1__Function    **function_ptrs;
  Google__V1__Location     *locations;
  Google__V1__Location    **location_ptrs;
  Google__V1__Line         *lines;
  Google__V1__Line        **line_ptrs;
  Google__V1__Sample       *samples;
  Google__V1__Sample      **sample_ptrs;
  Google__V1__Label        *labels;      /* one per (key, value) */
  Google__V1__Label       **label_sets;  /* n_label_sets * 3 */
  guint64                 **stack_ids;   /* per pool stack, leaf first */
  int64_t                  *value_sets;  /* count, ns */
  Stack                    *pool;
  guint                     n_pool;
} Out;

#define N_LABEL_SETS 4096
#define N_VALUE_SETS 16
#define PERIOD_NS    10000000

/* Tree nodes by function path, for --stats: (parent, function) -> node. */
typedef struct
{
  guint64 *keys;     /* parent << 32 | function + 1; 0 is empty */
  guint32 *values;
  gsize    mask;
  guint32  n;
} NodeMap;

static guint32
node_map_child (NodeMap *m,
                guint32  parent,
                guint32  func)
{
  guint64 key = ((guint64) parent << 32) | (func + 1u);
  gsize i;

  if ((gsize) m->n * 2 >= m->mask)
    {
      NodeMap bigger = { 0 };

      bigger.mask = m->mask ? m->mask * 2 + 1 : 1023;
      bigger.keys = g_new0 (guint64, bigger.mask + 1);
      bigger.values = g_new (guint32, bigger.mask + 1);
      for (gsize j = 0; m->keys != NULL && j <= m->mask; j++)
        if (m->keys[j] != 0)
          {
            gsize k = (m->keys[j] * 0x9e3779b97f4a7c15ull) >> 20 & bigger.mask;

            while (bigger.keys[k] != 0)
              k = (k + 1) & bigger.mask;
            bigger.keys[k] = m->keys[j];
            bigger.values[k] = m->values[j];
          }
      bigger.n = m->n;
      g_free (m->keys);
      g_free (m->values);
      *m = bigger;
    }

  for (i = (key * 0x9e3779b97f4a7c15ull) >> 20 & m->mask; m->keys[i] != 0; i = (i + 1) & m->mask)
    if (m->keys[i] == key)
      return m->values[i];
  m->keys[i] = key;
  m->values[i] = ++m->n;   /* node 0 is the root */
  return m->n;
}

static guint
location_frames (Gen     *g,
                 guint    loc,
                 guint   *funcs)
{
  guint f = g->loc_func[loc];
  guint n = 0;

  funcs[n++] = f;
  for (guint k = 0; k < g->loc_n_inline[loc]; k++)
    {
      f = g->funcs[f].callees[0];
      funcs[n++] = f;
    }
  return n;
}

static void
print_stats (Gen          *g,
             const Stack  *pool,
             guint         n_pool,
             const guint  *sample_stack,
             guint         n_samples,
             gsize         packed_size,
             gsize         samples_size)
{
  NodeMap map = { 0 };
  guint64 frames_total = 0;
  guint max_frames = 0, deep = 0;
  guint funcs[3];

  for (guint i = 0; i < n_samples; i++)
    {
      const Stack *st = &pool[sample_stack[i]];
      guint frames = 0;

      for (guint k = 0; k < st->len; k++)
        frames += 1 + g->loc_n_inline[st->locs[k]];
      frames_total += frames;
      max_frames = MAX (max_frames, frames);
      if (frames > 200)
        deep++;
    }

  for (guint i = 0; i < n_samples; i++)
    {
      const Stack *st = &pool[sample_stack[i]];
      guint32 node = 0;

      if (i > 0 && sample_stack[i] <= sample_stack[i - 1] && sample_stack[i] != i)
        continue;   /* pool stacks come first, in order: the rest repeat them */
      for (guint k = 0; k < st->len; k++)
        {
          guint n = location_frames (g, st->locs[k], funcs);

          for (guint j = 0; j < n; j++)
            node = node_map_child (&map, node, funcs[j]);
        }
    }

  g_printerr ("samples:          %u (%u distinct stacks)\n", n_samples, n_pool);
  g_printerr ("functions:        %u, locations: %u\n", g->n_funcs, g->n_locs);
  g_printerr ("frames/sample:    mean %.1f, max %u, %u samples deeper than 200\n",
             (double) frames_total / n_samples, max_frames, deep);
  g_printerr ("tree nodes:       %u (by function path, root included)\n", map.n + 1);
  g_printerr ("size:             %" G_GSIZE_FORMAT " bytes, samples %" G_GSIZE_FORMAT " (%.1f per sample)\n",
             packed_size, samples_size, (double) samples_size / n_samples);

  g_free (map.keys);
  g_free (map.values);
}

static const guint *sort_freq;

static int
compare_freq (const void *a,
              const void *b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  if (sort_freq[x] != sort_freq[y])
    return sort_freq[x] > sort_freq[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

typedef enum
{
  SHAPE_ZIPF,
  SHAPE_RANDOM,
  SHAPE_BIG,
} Shape;

/* Random deep stacks: one per sample, a root out of five, then frames drawn
 * uniformly from every location. */
static Stack *
gen_random_stacks (Gen   *g,
                   guint  n_stacks,
                   guint  min_frames,
                   guint  max_frames)
{
  Stack *pool = g_new0 (Stack, n_stacks);
  guint n_roots = MIN (G_N_ELEMENTS (root_names), g->n_funcs);

  for (guint s = 0; s < n_stacks; s++)
    {
      guint len = 1 + min_frames + rng_below (&g->rng, max_frames - min_frames + 1);

      pool[s].len = len;
      pool[s].locs = g_new (guint, len);
      pool[s].locs[0] = func_location (g, rng_below (&g->rng, n_roots));
      for (guint k = 1; k < len; k++)
        pool[s].locs[k] = rng_below (&g->rng, g->n_locs);
    }

  return pool;
}

static GBytes *
gen_profile (guint    n_samples,
             guint    n_funcs,
             guint64  seed,
             Shape    shape,
             gboolean stats)
{
  Gen g = { 0 };
  Out o = { 0 };
  Zipf stack_pick, label_pick[G_N_ELEMENTS (label_keys)], value_pick, set_pick;
  guint n_lines, n_label_values = 0;
  g_autofree guint *sample_stack = NULL, *sample_set = NULL, *sample_value = NULL;
  g_autofree guint *freq = NULL, *order = NULL, *loc_id = NULL, *usage = NULL;
  gsize size;
  guint8 *buf;

  rng_init (&g.rng, seed);
  strings_init (&g.strings);
  if (shape != SHAPE_ZIPF)
    n_funcs = MAX (n_samples / 10, 1000);
  gen_functions (&g, MAX (n_funcs, 1));

  if (shape == SHAPE_ZIPF)
    {
      /* Pool: about one stack per six samples; each adds a few new frames. */
      o.n_pool = MAX (n_samples / 6, 1);
      o.pool = gen_stack_pool (&g, o.n_pool, 5.0);
    }
  else
    {
      /* No inlining: one frame per location */
      memset (g.loc_n_inline, 0, g.n_locs);
      o.n_pool = n_samples;
      o.pool = shape == SHAPE_RANDOM ? gen_random_stacks (&g, n_samples, 1, 43)
                                     : gen_random_stacks (&g, n_samples, 2, 50);
    }

  /* Which stack, labels and values each sample has: every pool stack once,
   * the rest Zipf over the pool. */
  sample_stack = g_new (guint, n_samples);
  sample_set = g_new (guint, n_samples);
  sample_value = g_new (guint, n_samples);
  zipf_init (&stack_pick, o.n_pool, 1.0);
  zipf_init (&set_pick, N_LABEL_SETS, 1.2);
  zipf_init (&value_pick, N_VALUE_SETS, 2.5);
  for (guint i = 0; i < n_samples; i++)
    {
      sample_stack[i] = i < o.n_pool ? i : zipf_pick (&stack_pick, &g.rng);
      sample_set[i] = zipf_pick (&set_pick, &g.rng);
      sample_value[i] = zipf_pick (&value_pick, &g.rng);
    }
  zipf_clear (&stack_pick);
  zipf_clear (&set_pick);
  zipf_clear (&value_pick);

  /* Location ids by how often they occur, as a profiler numbering them in
   * order of first appearance would roughly do: frequent ones get short
   * varints. */
  usage = g_new0 (guint, o.n_pool);
  for (guint i = 0; i < n_samples; i++)
    usage[sample_stack[i]]++;
  freq = g_new0 (guint, g.n_locs);
  for (guint s = 0; s < o.n_pool; s++)
    for (guint k = 0; k < o.pool[s].len; k++)
      freq[o.pool[s].locs[k]] += usage[s];
  order = g_new (guint, g.n_locs);
  for (guint l = 0; l < g.n_locs; l++)
    order[l] = l;
  sort_freq = freq;
  qsort (order, g.n_locs, sizeof (guint), compare_freq);
  sort_freq = NULL;
  loc_id = g_new (guint, g.n_locs);
  for (guint r = 0; r < g.n_locs; r++)
    loc_id[order[r]] = r + 1;

  google__v1__profile__init (&o.profile);

  /* Header */
  for (guint t = 0; t < 2; t++)
    {
      google__v1__value_type__init (&o.sample_types[t]);
      o.sample_type_ptrs[t] = &o.sample_types[t];
    }
  o.sample_types[0].type = strings_intern (&g.strings, "samples");
  o.sample_types[0].unit = strings_intern (&g.strings, "count");
  o.sample_types[1].type = strings_intern (&g.strings, "cpu");
  o.sample_types[1].unit = strings_intern (&g.strings, "nanoseconds");
  o.profile.n_sample_type = 2;
  o.profile.sample_type = o.sample_type_ptrs;
  google__v1__value_type__init (&o.period_type);
  o.period_type.type = o.sample_types[1].type;
  o.period_type.unit = o.sample_types[1].unit;
  o.profile.period_type = &o.period_type;
  o.profile.period = PERIOD_NS;
  o.profile.time_nanos = G_GINT64_CONSTANT (1700000000) * 1000000000;
  o.profile.duration_nanos = G_GINT64_CONSTANT (600) * 1000000000;

  google__v1__mapping__init (&o.mapping);
  o.mapping.id = 1;
  o.mapping.memory_start = 0x400000;
  o.mapping.memory_limit = 0x400000 + (guint64) g.n_locs * 64 + 0x1000;
  o.mapping.filename = strings_intern (&g.strings, "/usr/local/bin/server");
  o.mapping.build_id = strings_intern (&g.strings, "4f2a9c1e7b3d5a60");
  o.mapping.has_functions = TRUE;
  o.mapping.has_filenames = TRUE;
  o.mapping.has_line_numbers = TRUE;
  o.mapping.has_inline_frames = TRUE;
  o.mapping_ptrs[0] = &o.mapping;
  o.profile.n_mapping = 1;
  o.profile.mapping = o.mapping_ptrs;

  /* Functions: ids 1..n */
  o.functions = g_new (Google__V1__Function, g.n_funcs);
  o.function_ptrs = g_new (Google__V1__Function *, g.n_funcs);
  for (guint i = 0; i < g.n_funcs; i++)
    {
      google__v1__function__init (&o.functions[i]);
      o.functions[i].id = i + 1;
      o.functions[i].name = g.funcs[i].name;
      o.functions[i].system_name = g.funcs[i].name;
      o.functions[i].filename = g.funcs[i].filename;
      o.functions[i].start_line = g.funcs[i].start_line;
      o.function_ptrs[i] = &o.functions[i];
    }
  o.profile.n_function = g.n_funcs;
  o.profile.function = o.function_ptrs;

  /* Locations in id order. Inlined callees come first in a location's
   * lines, the location's own function last (outermost). */
  o.locations = g_new (Google__V1__Location, g.n_locs);
  o.location_ptrs = g_new (Google__V1__Location *, g.n_locs);
  o.lines = g_new (Google__V1__Line, (gsize) g.n_locs * 3);
  o.line_ptrs = g_new (Google__V1__Line *, (gsize) g.n_locs * 3);
  n_lines = 0;
  for (guint r = 0; r < g.n_locs; r++)
    {
      guint l = order[r];
      Google__V1__Location *loc = &o.locations[r];
      guint funcs[3];
      guint n = location_frames (&g, l, funcs);

      google__v1__location__init (loc);
      loc->id = loc_id[l];
      loc->mapping_id = 1;
      loc->address = 0x401000 + (guint64) l * 64 + rng_below (&g.rng, 64);
      loc->n_line = n;
      loc->line = &o.line_ptrs[n_lines];
      for (guint k = n; k-- > 0; )
        {
          const Func *f = &g.funcs[funcs[k]];

          google__v1__line__init (&o.lines[n_lines]);
          o.lines[n_lines].function_id = funcs[k] + 1;
          o.lines[n_lines].line = f->start_line + 1 + rng_below (&g.rng, 200);
          o.line_ptrs[n_lines] = &o.lines[n_lines];
          n_lines++;
        }
      o.location_ptrs[r] = loc;
    }
  o.profile.n_location = g.n_locs;
  o.profile.location = o.location_ptrs;

  /* Pool stacks as leaf-first location ids, shared by the samples. */
  o.stack_ids = g_new (guint64 *, o.n_pool);
  for (guint s = 0; s < o.n_pool; s++)
    {
      const Stack *st = &o.pool[s];

      o.stack_ids[s] = g_new (guint64, st->len);
      for (guint k = 0; k < st->len; k++)
        o.stack_ids[s][k] = loc_id[st->locs[st->len - 1 - k]];
    }

  /* Labels: every (key, value) once, then label sets sharing them. */
  for (guint k = 0; k < G_N_ELEMENTS (label_keys); k++)
    n_label_values += label_cardinality[k];
  o.labels = g_new (Google__V1__Label, n_label_values);
  {
    guint n = 0;

    for (guint k = 0; k < G_N_ELEMENTS (label_keys); k++)
      {
        gint64 key = strings_intern (&g.strings, label_keys[k]);

        for (guint v = 0; v < label_cardinality[k]; v++)
          {
            g_autofree char *value = NULL;

            if (k == 0)
              value = g_strdup_printf ("%s.%s", PICK (&g.rng, pkg_words), PICK (&g.rng, verb_words));
            else if (k == 1)
              value = g_strdup_printf ("/api/v%u/%s/%s", 1 + v % 3, PICK (&g.rng, pkg_words), PICK (&g.rng, verb_words));
            else
              value = g_strdup_printf ("region-%u", v);
            google__v1__label__init (&o.labels[n]);
            o.labels[n].key = key;
            o.labels[n].str = strings_intern (&g.strings, value);
            n++;
          }
      }
  }
  o.label_sets = g_new (Google__V1__Label *, N_LABEL_SETS * G_N_ELEMENTS (label_keys));
  for (guint k = 0, base = 0; k < G_N_ELEMENTS (label_keys); base += label_cardinality[k], k++)
    {
      zipf_init (&label_pick[k], label_cardinality[k], 1.1);
      for (guint s = 0; s < N_LABEL_SETS; s++)
        o.label_sets[s * G_N_ELEMENTS (label_keys) + k] = &o.labels[base + zipf_pick (&label_pick[k], &g.rng)];
      zipf_clear (&label_pick[k]);
    }

  /* Values: mostly one sample of one period, sometimes a few. */
  o.value_sets = g_new (int64_t, N_VALUE_SETS * 2);
  for (guint v = 0; v < N_VALUE_SETS; v++)
    {
      o.value_sets[v * 2] = v + 1;
      o.value_sets[v * 2 + 1] = (int64_t) (v + 1) * PERIOD_NS;
    }

  o.samples = g_new (Google__V1__Sample, n_samples);
  o.sample_ptrs = g_new (Google__V1__Sample *, n_samples);
  for (guint i = 0; i < n_samples; i++)
    {
      Google__V1__Sample *sample = &o.samples[i];
      guint s = sample_stack[i];

      google__v1__sample__init (sample);
      sample->n_location_id = o.pool[s].len;
      sample->location_id = o.stack_ids[s];
      sample->n_value = 2;
      sample->value = &o.value_sets[sample_value[i] * 2];
      /* Half the label sets lack the last key (region). */
      sample->n_label = G_N_ELEMENTS (label_keys) - sample_set[i] % 2;
      if (shape == SHAPE_RANDOM)
        sample->n_label = 0;
      else if (shape == SHAPE_BIG)
        sample->n_label = 1;
      sample->label = &o.label_sets[sample_set[i] * G_N_ELEMENTS (label_keys)];
      o.sample_ptrs[i] = sample;
    }
  o.profile.n_sample = n_samples;
  o.profile.sample = o.sample_ptrs;

  o.profile.n_string_table = g.strings.strings->len;
  o.profile.string_table = (char **) g.strings.strings->pdata;

  size = google__v1__profile__get_packed_size (&o.profile);
  buf = g_malloc (MAX (size, 1));
  google__v1__profile__pack (&o.profile, buf);

  if (stats)
    {
      gsize samples_size = 0;

      for (guint i = 0; i < n_samples; i++)
        {
          gsize one = google__v1__sample__get_packed_size (&o.samples[i]);

          samples_size += one + 1 + (one >= 128);   /* tag and length */
        }
      print_stats (&g, o.pool, o.n_pool, sample_stack, n_samples, size, samples_size);
    }

  /* Clean up */
  for (guint s = 0; s < o.n_pool; s++)
    {
      g_free (o.stack_ids[s]);
      g_free (o.pool[s].locs);
    }
  g_free (o.stack_ids);
  g_free (o.pool);
  g_free (o.samples);
  g_free (o.sample_ptrs);
  g_free (o.value_sets);
  g_free (o.label_sets);
  g_free (o.labels);
  g_free (o.lines);
  g_free (o.line_ptrs);
  g_free (o.locations);
  g_free (o.location_ptrs);
  g_free (o.functions);
  g_free (o.function_ptrs);
  for (guint i = 0; i < g.n_funcs; i++)
    g_free (g.funcs[i].callees);
  g_free (g.funcs);
  g_free (g.loc_func);
  g_free (g.loc_n_inline);
  g_hash_table_unref (g.strings.ids);
  g_ptr_array_unref (g.strings.strings);

  return g_bytes_new_take (buf, size);
}

static gboolean
write_gzip (const char  *path,
            GBytes      *bytes,
            GError     **error)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  z_stream zs = { 0 };
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint8 chunk[1 << 16];
  int ret;

  /* windowBits 15 + 16: a gzip header, as Go's compress/gzip writes. */
  if (deflateInit2 (&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "deflateInit2 failed");
      return FALSE;
    }
  zs.next_in = (Bytef *) data;
  zs.avail_in = len;
  do
    {
      zs.next_out = chunk;
      zs.avail_out = sizeof chunk;
      ret = deflate (&zs, Z_FINISH);
      g_byte_array_append (out, chunk, sizeof chunk - zs.avail_out);
    }
  while (ret == Z_OK);
  deflateEnd (&zs);
  if (ret != Z_STREAM_END)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "deflate failed (%d)", ret);
      return FALSE;
    }

  return g_file_set_contents (path, (const char *) out->data, out->len, error);
}

int
main (int    argc,
      char **argv)
{
  gint64 n_samples = 500000, n_funcs = 30000, seed = 20261122;
  gboolean gzip = FALSE, stats = FALSE;
  g_autofree char *shape_name = NULL;
  Shape shape = SHAPE_ZIPF;
  GOptionEntry entries[] = {
    { "shape", 0, 0, G_OPTION_ARG_STRING, &shape_name, "zipf (default), random or big", "SHAPE" },
    { "samples", 0, 0, G_OPTION_ARG_INT64, &n_samples, "Number of samples (500000)", "N" },
    { "functions", 0, 0, G_OPTION_ARG_INT64, &n_funcs, "Number of functions (30000)", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "PRNG seed", "N" },
    { "gzip", 0, 0, G_OPTION_ARG_NONE, &gzip, "Also write OUT.gz", NULL },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats, "Print depth, tree size and byte figures", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("OUT.pb - write a large synthetic pprof profile");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *out;
  gsize len;
  const char *data;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      g_printerr ("gen-pprof: %s\n", error->message);
      return 2;
    }
  if (argc != 2 || n_samples < 1 || n_samples > 50000000 || n_funcs < 1 || n_funcs > 5000000)
    {
      g_printerr ("usage: gen-pprof OUT.pb [--samples N] [--functions N] [--seed N] [--gzip] [--stats]\n"
                  "                        [--shape zipf|random|big]\n");
      return 2;
    }
  if (g_strcmp0 (shape_name, "random") == 0)
    shape = SHAPE_RANDOM;
  else if (g_strcmp0 (shape_name, "big") == 0)
    shape = SHAPE_BIG;
  else if (shape_name != NULL && g_strcmp0 (shape_name, "zipf") != 0)
    {
      g_printerr ("gen-pprof: --shape is zipf, random or big\n");
      return 2;
    }
  out = argv[1];

  bytes = gen_profile ((guint) n_samples, (guint) n_funcs, (guint64) seed, shape, stats);
  data = g_bytes_get_data (bytes, &len);
  if (!g_file_set_contents (out, data, len, &error))
    {
      g_printerr ("gen-pprof: %s\n", error->message);
      return 1;
    }
  if (gzip)
    {
      g_autofree char *gz = g_strconcat (out, ".gz", NULL);

      if (!write_gzip (gz, bytes, &error))
        {
          g_printerr ("gen-pprof: %s: %s\n", gz, error->message);
          return 1;
        }
    }

  return 0;
}
