/* ets-store.c: the test server's profiles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Generated data costs nothing per step: a generated stack's value at step
 * k is c * M[phase][k mod P], where M is a periodic integer "wave" table of
 * the service; sums over a range of steps come from prefix sums of M, so a
 * merge is O(stacks) whatever the time range, and every number is an exact
 * integer (SelectSeries points add up to the flame graph total).
 */

#include "ets-store.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "ets-connect.h"

#define N_PHASES 16

typedef struct
{
  guint32 node;
  guint32 phase;
  gint64  c;
} GenStack;

typedef struct
{
  gint64   time_ms;
  guint    n;
  guint32 *nodes;
  gint64  *values;
  /* The stacks' span and trace ids (pprof sample labels), lowercase hex,
   * NULL entries for none; NULL arrays when the sample has no ids */
  char   **spans;
  char   **traces;
  /* The profile's id: a random UUID, as Pyroscope's distributor gives
   * each ingested profile (pkg/distributor/distributor.go, uuid.NewString) */
  char    *id;
} Sample;

typedef struct
{
  guint   period;      /* steps */
  gint64 *m;           /* N_PHASES * period */
  gint64 *pre;         /* N_PHASES * (period + 1) */
} Wave;

struct _EtsSeries
{
  char      *tenant;   /* NULL: demo data, every tenant sees it */
  GPtrArray *labels;   /* EtsLabel*, sorted by name */
  /* generated */
  GArray    *gen;      /* GenStack */
  Wave      *wave;
  gint64     every_ms;
  gint64     first_k;
  gint64     wave_origin;  /* the step where the wave's index 0 falls (shapes: first_k) */
  /* ingested */
  GPtrArray *samples;  /* Sample*, by time */
};

struct _EtsStore
{
  gint64      fixed_now_ms;
  gint64      loaded_ms;

  GPtrArray  *names;        /* char* */
  GHashTable *name_ids;     /* char* -> id + 1 */
  GArray     *node_parent;  /* guint32 */
  GArray     *node_name;    /* guint32 */
  GArray     *node_depth;   /* guint32 */
  GHashTable *children;     /* gint64* (parent << 32 | name) -> node */

  GPtrArray  *series;
  GHashTable *series_by_key;
  GPtrArray  *waves;
  GHashTable *types;        /* profile type ids seen */
};

/* ---- profile types ----------------------------------------------------- */

void
ets_profile_type_free (EtsProfileType *type)
{
  if (type == NULL)
    return;
  g_free (type->id);
  g_free (type->name);
  g_free (type->sample_type);
  g_free (type->sample_unit);
  g_free (type->period_type);
  g_free (type->period_unit);
  g_free (type);
}

EtsProfileType *
ets_profile_type_parse (const char *id,
                        GError    **error)
{
  g_auto(GStrv) parts = NULL;
  guint n;
  EtsProfileType *type;

  parts = g_strsplit (id != NULL ? id : "", ":", -1);
  n = g_strv_length (parts);
  if ((n != 5 && n != 6) || parts[0][0] == '\0' || parts[1][0] == '\0' || parts[2][0] == '\0')
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT,
                   "profile-type selection must be of the form <name>:<sample-type>:<sample-unit>:<period_type>:<period_unit>(:delta), got(%u): \"%s\"",
                   n, id != NULL ? id : "");
      return NULL;
    }

  type = g_new0 (EtsProfileType, 1);
  type->id = g_strjoin (":", parts[0], parts[1], parts[2], parts[3], parts[4], NULL);
  type->name = g_strdup (parts[0]);
  type->sample_type = g_strdup (parts[1]);
  type->sample_unit = g_strdup (parts[2]);
  type->period_type = g_strdup (parts[3]);
  type->period_unit = g_strdup (parts[4]);
  return type;
}

/* ---- helpers ------------------------------------------------------------- */

static void
label_free (gpointer data)
{
  EtsLabel *label = data;

  g_free (label->name);
  g_free (label->value);
  g_free (label);
}

static int
label_compare (gconstpointer a,
               gconstpointer b)
{
  const EtsLabel *la = *(EtsLabel * const *) a;
  const EtsLabel *lb = *(EtsLabel * const *) b;

  return strcmp (la->name, lb->name);
}

static void
sample_free (gpointer data)
{
  Sample *s = data;

  g_free (s->nodes);
  g_free (s->values);
  for (guint i = 0; s->spans != NULL && i < s->n; i++)
    g_free (s->spans[i]);
  for (guint i = 0; s->traces != NULL && i < s->n; i++)
    g_free (s->traces[i]);
  g_free (s->spans);
  g_free (s->traces);
  g_free (s);
}

static void
series_free (gpointer data)
{
  EtsSeries *series = data;

  g_free (series->tenant);
  g_ptr_array_unref (series->labels);
  g_clear_pointer (&series->gen, g_array_unref);
  g_ptr_array_unref (series->samples);
  g_free (series);
}

static void
wave_free (gpointer data)
{
  Wave *wave = data;

  g_free (wave->m);
  g_free (wave->pre);
  g_free (wave);
}

/* FNV-1a: stable across GLib versions, so the demo data never changes */
static guint32
hash_str (const char *s,
          guint32     seed)
{
  guint32 h = 2166136261u ^ seed;

  for (; *s != '\0'; s++)
    {
      h ^= (guint8) *s;
      h *= 16777619u;
    }
  return h;
}

static gboolean
parse_duration_ms (const char *text,
                   gint64     *out)
{
  char *end = NULL;
  double v;

  if (text == NULL)
    return FALSE;
  v = g_ascii_strtod (text, &end);
  if (end == text || v < 0)
    return FALSE;
  if (g_str_equal (end, "ms"))
    *out = (gint64) v;
  else if (g_str_equal (end, "s") || *end == '\0')
    *out = (gint64) (v * 1000);
  else if (g_str_equal (end, "m"))
    *out = (gint64) (v * 60 * 1000);
  else if (g_str_equal (end, "h"))
    *out = (gint64) (v * 3600 * 1000);
  else if (g_str_equal (end, "d"))
    *out = (gint64) (v * 86400 * 1000);
  else
    return FALSE;
  return TRUE;
}

/* ---- store and trie ------------------------------------------------------ */

static guint32
intern_name (EtsStore   *self,
             const char *name)
{
  gpointer v = g_hash_table_lookup (self->name_ids, name);
  char *copy;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  copy = g_strdup (name);
  g_ptr_array_add (self->names, copy);
  g_hash_table_insert (self->name_ids, copy, GUINT_TO_POINTER (self->names->len));
  return self->names->len - 1;
}

guint32
ets_store_child (EtsStore   *self,
                 guint32     parent,
                 const char *name)
{
  guint32 name_id = intern_name (self, name);
  gint64 key = ((gint64) parent << 32) | name_id;
  gpointer v;
  gint64 *stored;
  guint32 node, depth;

  if (g_hash_table_lookup_extended (self->children, &key, NULL, &v))
    return GPOINTER_TO_UINT (v);

  node = self->node_parent->len;
  depth = g_array_index (self->node_depth, guint32, parent) + 1;
  g_array_append_val (self->node_parent, parent);
  g_array_append_val (self->node_name, name_id);
  g_array_append_val (self->node_depth, depth);
  stored = g_new (gint64, 1);
  *stored = key;
  g_hash_table_insert (self->children, stored, GUINT_TO_POINTER (node));
  return node;
}

EtsStore *
ets_store_new (gint64 fixed_now_ms)
{
  EtsStore *self = g_new0 (EtsStore, 1);
  guint32 zero = 0;

  self->fixed_now_ms = fixed_now_ms;
  self->loaded_ms = fixed_now_ms != 0 ? fixed_now_ms : g_get_real_time () / 1000;
  self->names = g_ptr_array_new_with_free_func (g_free);
  self->name_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->node_parent = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->node_name = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->node_depth = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->children = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->series = g_ptr_array_new_with_free_func (series_free);
  self->series_by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->waves = g_ptr_array_new_with_free_func (wave_free);
  self->types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* Node 0: the root, named "total" */
  intern_name (self, "total");
  g_array_append_val (self->node_parent, zero);
  g_array_append_val (self->node_name, zero);
  g_array_append_val (self->node_depth, zero);
  return self;
}

void
ets_store_free (EtsStore *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->series);
  g_hash_table_unref (self->series_by_key);
  g_hash_table_unref (self->children);
  g_hash_table_unref (self->name_ids);
  g_ptr_array_unref (self->names);
  g_array_unref (self->node_parent);
  g_array_unref (self->node_name);
  g_array_unref (self->node_depth);
  g_ptr_array_unref (self->waves);
  g_hash_table_unref (self->types);
  g_free (self);
}

gint64
ets_store_now_ms (EtsStore *self)
{
  return self->fixed_now_ms != 0 ? self->fixed_now_ms : g_get_real_time () / 1000;
}

guint
ets_store_get_n_nodes (EtsStore *self)
{
  return self->node_parent->len;
}

guint32
ets_store_node_parent (EtsStore *self,
                       guint32   node)
{
  return g_array_index (self->node_parent, guint32, node);
}

guint32
ets_store_node_name_id (EtsStore *self,
                        guint32   node)
{
  return g_array_index (self->node_name, guint32, node);
}

const char *
ets_store_node_name (EtsStore *self,
                     guint32   node)
{
  return g_ptr_array_index (self->names, ets_store_node_name_id (self, node));
}

guint
ets_store_node_depth (EtsStore *self,
                      guint32   node)
{
  return g_array_index (self->node_depth, guint32, node);
}

/* ---- series -------------------------------------------------------------- */

static char *
series_key (const char *tenant,
            GPtrArray  *labels)
{
  GString *key = g_string_new (tenant != NULL ? tenant : "");

  for (guint i = 0; i < labels->len; i++)
    {
      EtsLabel *l = g_ptr_array_index (labels, i);
      g_string_append_printf (key, "\x01%s\x02%s", l->name, l->value);
    }
  return g_string_free (key, FALSE);
}

guint
ets_store_get_n_series (EtsStore *self)
{
  return self->series->len;
}

EtsSeries *
ets_store_get_series (EtsStore *self,
                      guint     index)
{
  return g_ptr_array_index (self->series, index);
}

static void
add_label (GPtrArray  *labels,
           const char *name,
           const char *value)
{
  EtsLabel *l;

  for (guint i = 0; i < labels->len; i++)
    {
      l = g_ptr_array_index (labels, i);
      if (g_str_equal (l->name, name))
        {
          g_free (l->value);
          l->value = g_strdup (value);
          return;
        }
    }
  l = g_new0 (EtsLabel, 1);
  l->name = g_strdup (name);
  l->value = g_strdup (value);
  g_ptr_array_add (labels, l);
}

/* The labels Pyroscope derives from the profile type */
static void
add_type_labels (GPtrArray            *labels,
                 const EtsProfileType *type)
{
  add_label (labels, "__name__", type->name);
  add_label (labels, "__profile_type__", type->id);
  add_label (labels, "__type__", type->sample_type);
  add_label (labels, "__unit__", type->sample_unit);
  add_label (labels, "__period_type__", type->period_type);
  add_label (labels, "__period_unit__", type->period_unit);
  add_label (labels, "__delta__", "false");
}

static EtsSeries *
series_new (EtsStore   *self,
            const char *tenant,
            GPtrArray  *labels)
{
  EtsSeries *series = g_new0 (EtsSeries, 1);
  char *key;

  series->tenant = g_strdup (tenant);
  series->labels = g_ptr_array_new_with_free_func (label_free);
  for (guint i = 0; i < labels->len; i++)
    {
      EtsLabel *l = g_ptr_array_index (labels, i);
      add_label (series->labels, l->name, l->value);
    }
  g_ptr_array_sort (series->labels, label_compare);
  series->samples = g_ptr_array_new_with_free_func (sample_free);

  key = series_key (tenant, series->labels);
  g_hash_table_insert (self->series_by_key, key, series);
  g_ptr_array_add (self->series, series);
  g_hash_table_add (self->types, g_strdup (ets_series_get_label (series, "__profile_type__")));
  return series;
}

EtsSeries *
ets_store_ensure_series (EtsStore   *self,
                         const char *tenant,
                         GPtrArray  *labels)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  g_autofree char *key = NULL;
  EtsSeries *series;
  const char *type_id = NULL;

  for (guint i = 0; i < labels->len; i++)
    {
      EtsLabel *l = g_ptr_array_index (labels, i);
      if (g_str_equal (l->name, "__profile_type__"))
        type_id = l->value;
    }
  g_return_val_if_fail (type_id != NULL, NULL);

  for (guint i = 0; i < labels->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (labels, i));
  g_ptr_array_sort (sorted, label_compare);
  key = series_key (tenant, sorted);
  series = g_hash_table_lookup (self->series_by_key, key);
  if (series != NULL)
    return series;

  series = series_new (self, tenant, labels);
  /* Make sure the derived labels are there and consistent */
  {
    g_autoptr(EtsProfileType) type = ets_profile_type_parse (type_id, NULL);
    if (type != NULL)
      {
        g_autoptr(GPtrArray) derived = g_ptr_array_new_with_free_func (label_free);
        add_type_labels (derived, type);
        for (guint i = 0; i < derived->len; i++)
          {
            EtsLabel *l = g_ptr_array_index (derived, i);
            if (ets_series_get_label (series, l->name) == NULL)
              add_label (series->labels, l->name, l->value);
          }
        g_ptr_array_sort (series->labels, label_compare);
      }
  }
  return series;
}

static int
sample_compare (gconstpointer a,
                gconstpointer b)
{
  const Sample *sa = *(Sample * const *) a;
  const Sample *sb = *(Sample * const *) b;

  return sa->time_ms < sb->time_ms ? -1 : sa->time_ms > sb->time_ms;
}

void
ets_series_add_sample (EtsSeries     *series,
                       gint64         time_ms,
                       const guint32 *nodes,
                       const gint64  *values,
                       guint          n)
{
  Sample *s = g_new0 (Sample, 1);

  s->time_ms = time_ms;
  s->id = g_uuid_string_random ();
  s->n = n;
  s->nodes = g_memdup2 (nodes, sizeof (guint32) * n);
  s->values = g_memdup2 (values, sizeof (gint64) * n);
  g_ptr_array_add (series->samples, s);
  if (series->samples->len > 1 &&
      ((Sample *) g_ptr_array_index (series->samples, series->samples->len - 2))->time_ms > time_ms)
    g_ptr_array_sort (series->samples, sample_compare);
}

/* The same, with each stack's span and trace ids (NULL: none) */
void
ets_series_add_sample_ids (EtsSeries          *series,
                           gint64              time_ms,
                           const guint32      *nodes,
                           const gint64       *values,
                           const char * const *spans,
                           const char * const *traces,
                           guint               n)
{
  Sample *s = g_new0 (Sample, 1);

  s->time_ms = time_ms;
  s->id = g_uuid_string_random ();
  s->n = n;
  s->nodes = g_memdup2 (nodes, sizeof (guint32) * n);
  s->values = g_memdup2 (values, sizeof (gint64) * n);
  s->spans = g_new0 (char *, MAX (n, 1u));
  s->traces = g_new0 (char *, MAX (n, 1u));
  for (guint j = 0; j < n; j++)
    {
      s->spans[j] = spans != NULL && spans[j] != NULL ? g_ascii_strdown (spans[j], -1) : NULL;
      s->traces[j] = traces != NULL && traces[j] != NULL ? g_ascii_strdown (traces[j], -1) : NULL;
    }
  g_ptr_array_add (series->samples, s);
  if (series->samples->len > 1 &&
      ((Sample *) g_ptr_array_index (series->samples, series->samples->len - 2))->time_ms > time_ms)
    g_ptr_array_sort (series->samples, sample_compare);
}

GPtrArray *
ets_series_get_labels (EtsSeries *series)
{
  return series->labels;
}

const char *
ets_series_get_label (EtsSeries  *series,
                      const char *name)
{
  for (guint i = 0; i < series->labels->len; i++)
    {
      EtsLabel *l = g_ptr_array_index (series->labels, i);
      if (g_str_equal (l->name, name))
        return l->value;
    }
  return NULL;
}

const char *
ets_series_lookup (gpointer    series,
                   const char *name)
{
  return ets_series_get_label (series, name);
}

gboolean
ets_series_visible (EtsSeries  *series,
                    const char *tenant)
{
  g_auto(GStrv) tenants = NULL;

  if (series->tenant == NULL)
    return TRUE;
  tenants = g_strsplit (tenant, "|", -1);
  return g_strv_contains ((const char * const *) tenants, series->tenant);
}

gboolean
ets_store_has_profile_type (EtsStore   *self,
                            const char *id)
{
  return g_hash_table_contains (self->types, id);
}

/* ---- time ---------------------------------------------------------------- */

static gint64
floor_div (gint64 a,
           gint64 b)
{
  gint64 q = a / b;

  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}

/* Generated steps k in [*a, *b] within [start_ms, end_ms]; FALSE if none */
static gboolean
gen_range (EtsStore  *self,
           EtsSeries *series,
           gint64     start_ms,
           gint64     end_ms,
           gint64    *a,
           gint64    *b)
{
  gint64 last_k;

  if (series->gen == NULL || series->gen->len == 0)
    return FALSE;
  last_k = floor_div (ets_store_now_ms (self), series->every_ms);
  *a = series->first_k;
  *b = last_k;
  if (start_ms != 0 || end_ms != 0)
    {
      *a = MAX (*a, -floor_div (-start_ms, series->every_ms));
      *b = MIN (*b, floor_div (end_ms, series->every_ms));
    }
  return *a <= *b;
}

/* Sum of M[phase][k] for k in [0, k) */
static gint64
wave_prefix (Wave   *wave,
             guint   phase,
             gint64  k)
{
  gint64 full = floor_div (k, wave->period);
  gint64 rest = k - full * wave->period;
  const gint64 *pre = wave->pre + (gsize) phase * (wave->period + 1);

  return full * pre[wave->period] + pre[rest];
}

static gint64
wave_at (Wave   *wave,
         guint   phase,
         gint64  k)
{
  gint64 i = k - floor_div (k, wave->period) * wave->period;

  return wave->m[(gsize) phase * wave->period + i];
}

static gboolean
in_range (gint64 t,
          gint64 start_ms,
          gint64 end_ms)
{
  if (start_ms == 0 && end_ms == 0)
    return TRUE;
  return t >= start_ms && t <= end_ms;
}

gboolean
ets_series_has_data (EtsStore  *self,
                     EtsSeries *series,
                     gint64     start_ms,
                     gint64     end_ms)
{
  gint64 a, b;

  if (gen_range (self, series, start_ms, end_ms, &a, &b))
    return TRUE;
  for (guint i = 0; i < series->samples->len; i++)
    {
      Sample *s = g_ptr_array_index (series->samples, i);
      if (in_range (s->time_ms, start_ms, end_ms))
        return TRUE;
    }
  return FALSE;
}

guint64
ets_series_merge (EtsStore     *self,
                  EtsSeries    *series,
                  gint64        start_ms,
                  gint64        end_ms,
                  const guint8 *keep,
                  gint64       *self_values)
{
  guint64 n_samples = 0;
  gint64 a, b;

  if (gen_range (self, series, start_ms, end_ms, &a, &b))
    {
      gint64 sums[N_PHASES];

      for (guint p = 0; p < N_PHASES; p++)
        sums[p] = wave_prefix (series->wave, p, b + 1 - series->wave_origin) -
                  wave_prefix (series->wave, p, a - series->wave_origin);
      for (guint i = 0; i < series->gen->len; i++)
        {
          GenStack *g = &g_array_index (series->gen, GenStack, i);
          if (keep == NULL || keep[g->node])
            self_values[g->node] += g->c * sums[g->phase];
        }
      n_samples += b - a + 1;
    }

  for (guint i = 0; i < series->samples->len; i++)
    {
      Sample *s = g_ptr_array_index (series->samples, i);

      if (!in_range (s->time_ms, start_ms, end_ms))
        continue;
      for (guint j = 0; j < s->n; j++)
        if (keep == NULL || keep[s->nodes[j]])
          self_values[s->nodes[j]] += s->values[j];
      n_samples++;
    }
  return n_samples;
}

/* A generated step's profile id: a name-based UUID (version 5 layout) of
 * its series' labels and step, the same on every run */
static void
gen_profile_id (EtsSeries *series,
                gint64     k,
                char       out[ETS_PROFILE_ID_LEN + 1])
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA1);
  guint8 digest[20];
  gsize len = sizeof digest;
  char step[32];

  for (guint i = 0; i < series->labels->len; i++)
    {
      EtsLabel *l = g_ptr_array_index (series->labels, i);

      g_checksum_update (sum, (const guchar *) l->name, strlen (l->name) + 1);
      g_checksum_update (sum, (const guchar *) l->value, strlen (l->value) + 1);
    }
  g_snprintf (step, sizeof step, "%" G_GINT64_FORMAT, k);
  g_checksum_update (sum, (const guchar *) step, -1);
  g_checksum_get_digest (sum, digest, &len);
  digest[6] = (digest[6] & 0x0f) | 0x50;
  digest[8] = (digest[8] & 0x3f) | 0x80;
  g_snprintf (out, ETS_PROFILE_ID_LEN + 1,
              "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
              digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
              digest[8], digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]);
}

/* ets_series_merge() of the profiles whose id is in @ids (lowercase
 * UUIDs): generated steps one by one, ingested samples by their id */
guint64
ets_series_merge_profiles (EtsStore     *self,
                           EtsSeries    *series,
                           gint64        start_ms,
                           gint64        end_ms,
                           const guint8 *keep,
                           GHashTable   *ids,
                           gint64       *self_values)
{
  guint64 n_samples = 0;
  gint64 a, b;

  if (gen_range (self, series, start_ms, end_ms, &a, &b))
    for (gint64 k = a; k <= b; k++)
      {
        char id[ETS_PROFILE_ID_LEN + 1];

        gen_profile_id (series, k, id);
        if (!g_hash_table_contains (ids, id))
          continue;
        for (guint i = 0; i < series->gen->len; i++)
          {
            GenStack *g = &g_array_index (series->gen, GenStack, i);
            if (keep == NULL || keep[g->node])
              self_values[g->node] += g->c * wave_at (series->wave, g->phase, k - series->wave_origin);
          }
        n_samples++;
      }

  for (guint i = 0; i < series->samples->len; i++)
    {
      Sample *s = g_ptr_array_index (series->samples, i);

      if (!in_range (s->time_ms, start_ms, end_ms) || !g_hash_table_contains (ids, s->id))
        continue;
      for (guint j = 0; j < s->n; j++)
        if (keep == NULL || keep[s->nodes[j]])
          self_values[s->nodes[j]] += s->values[j];
      n_samples++;
    }
  return n_samples;
}

/* Upstream keeps span and trace ids per sample, not as series labels, and
 * merges only the samples of the spans or traces asked for
 * (SelectMergeSpanProfile; SelectMergeStacktraces' trace_id_selector).
 * Generated demo data has no ids, so it never matches. */
guint64
ets_series_merge_ids (EtsStore     *self,
                      EtsSeries    *series,
                      gint64        start_ms,
                      gint64        end_ms,
                      const guint8 *keep,
                      GHashTable   *spans,
                      GHashTable   *traces,
                      gint64       *self_values)
{
  guint64 n_samples = 0;

  for (guint i = 0; i < series->samples->len; i++)
    {
      Sample *s = g_ptr_array_index (series->samples, i);
      gboolean any = FALSE;

      if (!in_range (s->time_ms, start_ms, end_ms) || (s->spans == NULL && s->traces == NULL))
        continue;
      for (guint j = 0; j < s->n; j++)
        {
          if (spans != NULL && (s->spans[j] == NULL || !g_hash_table_contains (spans, s->spans[j])))
            continue;
          if (traces != NULL && (s->traces[j] == NULL || !g_hash_table_contains (traces, s->traces[j])))
            continue;
          any = TRUE;
          if (keep == NULL || keep[s->nodes[j]])
            self_values[s->nodes[j]] += s->values[j];
        }
      if (any)
        n_samples++;
    }
  return n_samples;
}

void
ets_series_foreach_sample (EtsStore     *self,
                           EtsSeries    *series,
                           gint64        start_ms,
                           gint64        end_ms,
                           const guint8 *keep,
                           EtsSampleFunc func,
                           gpointer      user_data)
{
  gint64 a = 0, b = -1;
  gint64 per_phase[N_PHASES] = { 0 };
  guint next = 0;
  gboolean have_gen = gen_range (self, series, start_ms, end_ms, &a, &b);

  if (have_gen)
    for (guint i = 0; i < series->gen->len; i++)
      {
        GenStack *g = &g_array_index (series->gen, GenStack, i);
        if (keep == NULL || keep[g->node])
          per_phase[g->phase] += g->c;
      }

  /* Merge generated steps and ingested samples in time order */
  for (gint64 k = a; ; k++)
    {
      gint64 t = have_gen && k <= b ? k * series->every_ms : G_MAXINT64;

      while (next < series->samples->len)
        {
          Sample *s = g_ptr_array_index (series->samples, next);
          gint64 v = 0;

          if (s->time_ms > t)
            break;
          next++;
          if (!in_range (s->time_ms, start_ms, end_ms))
            continue;
          for (guint j = 0; j < s->n; j++)
            if (keep == NULL || keep[s->nodes[j]])
              v += s->values[j];
          func (s->time_ms, v, s->id, user_data);
        }
      if (t == G_MAXINT64)
        break;

      {
        gint64 v = 0;
        char id[ETS_PROFILE_ID_LEN + 1];

        for (guint p = 0; p < N_PHASES; p++)
          if (per_phase[p] != 0)
            v += per_phase[p] * wave_at (series->wave, p, k - series->wave_origin);
        gen_profile_id (series, k, id);
        func (t, v, id, user_data);
      }
    }
}

/* ---- loading the demo data --------------------------------------------- */

static Wave *
wave_new (guint  period,
          double amplitude,
          guint32 seed)
{
  Wave *wave = g_new0 (Wave, 1);

  wave->period = MAX (period, 1);
  wave->m = g_new0 (gint64, (gsize) N_PHASES * wave->period);
  wave->pre = g_new0 (gint64, (gsize) N_PHASES * (wave->period + 1));
  for (guint p = 0; p < N_PHASES; p++)
    {
      gint64 *m = wave->m + (gsize) p * wave->period;
      gint64 *pre = wave->pre + (gsize) p * (wave->period + 1);

      for (guint i = 0; i < wave->period; i++)
        {
          if (amplitude <= 0)
            m[i] = 1;
          else
            {
              double x = (double) i / wave->period;
              guint32 h = hash_str ("noise", seed ^ (p * 7919u) ^ (i * 104729u));
              double noise = ((h % 1000) / 1000.0 - 0.5) * 0.2;
              double v = 1.0 + amplitude * (0.7 * sin (2 * G_PI * (x + p / (double) N_PHASES)) +
                                            0.3 * sin (2 * G_PI * (3 * x + p / 5.0)) + noise);
              m[i] = (gint64) MAX (0.0, round (100 * v));
            }
          pre[i + 1] = pre[i] + m[i];
        }
    }
  return wave;
}

static const char *member_string (JsonObject *object,
                                  const char *name,
                                  const char *fallback);

/* A "shape": {"every": "5m", "values": [4, 4, 12, 4]}: whole multiples of
 * the stacks' values, each for "every", repeating; index 0 at the first
 * generated profile. The same for every phase, so numbers stay exact. */
static Wave *
shape_new (JsonObject *shape,
           gint64      every_ms,
           GError    **error)
{
  JsonArray *values = json_object_has_member (shape, "values")
                      ? json_object_get_array_member (shape, "values") : NULL;
  gint64 shape_every_ms = every_ms;
  guint n, repeat;
  Wave *wave;

  if (json_object_has_member (shape, "every") &&
      !parse_duration_ms (member_string (shape, "every", NULL), &shape_every_ms))
    shape_every_ms = 0;
  n = values != NULL ? json_array_get_length (values) : 0;
  if (n == 0 || shape_every_ms < every_ms || shape_every_ms % every_ms != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "manifest: a \"shape\" needs \"values\" and an \"every\" that is a multiple of the data's");
      return NULL;
    }
  repeat = (guint) (shape_every_ms / every_ms);

  wave = g_new0 (Wave, 1);
  wave->period = n * repeat;
  wave->m = g_new0 (gint64, (gsize) N_PHASES * wave->period);
  wave->pre = g_new0 (gint64, (gsize) N_PHASES * (wave->period + 1));
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (values, i);
      gint64 v = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64
                 ? json_node_get_int (node) : -1;

      if (v < 0)
        {
          g_free (wave->m);
          g_free (wave->pre);
          g_free (wave);
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               "manifest: a shape's values are whole numbers from 0");
          return NULL;
        }
      for (guint p = 0; p < N_PHASES; p++)
        for (guint r = 0; r < repeat; r++)
          wave->m[(gsize) p * wave->period + i * repeat + r] = v;
    }
  for (guint p = 0; p < N_PHASES; p++)
    for (guint i = 0; i < wave->period; i++)
      wave->pre[(gsize) p * (wave->period + 1) + i + 1] =
        wave->pre[(gsize) p * (wave->period + 1) + i] + wave->m[(gsize) p * wave->period + i];
  return wave;
}

typedef struct
{
  GArray *nodes;   /* guint32 */
  GArray *values;  /* gint64 */
} Stacks;

static void
stacks_clear (Stacks *stacks)
{
  g_clear_pointer (&stacks->nodes, g_array_unref);
  g_clear_pointer (&stacks->values, g_array_unref);
}

/* "a;b;c 42" lines into trie leaves; duplicates are summed */
static gboolean
load_folded (EtsStore   *self,
             const char *path,
             Stacks     *out,
             GError    **error)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);

  if (!g_file_get_contents (path, &text, NULL, error))
    return FALSE;

  out->nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  out->values = g_array_new (FALSE, FALSE, sizeof (gint64));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      char *space;
      g_auto(GStrv) frames = NULL;
      guint64 value;
      guint32 node = 0;
      gpointer slot;

      if (line[0] == '\0' || line[0] == '#')
        continue;
      space = strrchr (line, ' ');
      if (space == NULL || !g_ascii_string_to_unsigned (space + 1, 10, 0, G_MAXINT64 / 1000, &value, NULL))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s:%u: expected \"frame;frame;... COUNT\"", path, i + 1);
          return FALSE;
        }
      *space = '\0';
      frames = g_strsplit (line, ";", -1);
      for (guint j = 0; frames[j] != NULL; j++)
        node = ets_store_child (self, node, frames[j]);
      if (g_hash_table_lookup_extended (index, GUINT_TO_POINTER (node), NULL, &slot))
        g_array_index (out->values, gint64, GPOINTER_TO_UINT (slot)) += value;
      else
        {
          gint64 v = value;
          g_hash_table_insert (index, GUINT_TO_POINTER (node), GUINT_TO_POINTER (out->nodes->len));
          g_array_append_val (out->nodes, node);
          g_array_append_val (out->values, v);
        }
    }
  if (out->nodes->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: no stacks", path);
      return FALSE;
    }
  return TRUE;
}

static const char *
member_string (JsonObject *object,
               const char *name,
               const char *fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return fallback;
}

static double
member_double (JsonObject *object,
               const char *name,
               double      fallback)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) != G_TYPE_STRING)
    return json_node_get_double (node);
  return fallback;
}

/* The cross product of the dimensions: each dimension is an array of
 * label objects; each combination is one label set. */
static GPtrArray *
expand_dimensions (JsonArray *dimensions)
{
  GPtrArray *sets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  g_ptr_array_add (sets, g_ptr_array_new_with_free_func (label_free));
  for (guint d = 0; dimensions != NULL && d < json_array_get_length (dimensions); d++)
    {
      JsonArray *options = json_array_get_array_element (dimensions, d);
      GPtrArray *next = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

      for (guint s = 0; s < sets->len; s++)
        for (guint o = 0; o < json_array_get_length (options); o++)
          {
            GPtrArray *base = g_ptr_array_index (sets, s);
            JsonObject *option = json_array_get_object_element (options, o);
            GPtrArray *set = g_ptr_array_new_with_free_func (label_free);
            g_autoptr(GList) members = json_object_get_members (option);

            for (guint i = 0; i < base->len; i++)
              {
                EtsLabel *l = g_ptr_array_index (base, i);
                add_label (set, l->name, l->value);
              }
            for (GList *m = members; m != NULL; m = m->next)
              add_label (set, m->data, json_object_get_string_member (option, m->data));
            g_ptr_array_add (next, set);
          }
      g_ptr_array_unref (sets);
      sets = next;
    }
  return sets;
}

static gboolean
labels_match_object (GPtrArray  *labels,
                     JsonObject *match)
{
  g_autoptr(GList) members = json_object_get_members (match);

  for (GList *m = members; m != NULL; m = m->next)
    {
      const char *want = json_object_get_string_member (match, m->data);
      gboolean found = FALSE;

      for (guint i = 0; i < labels->len; i++)
        {
          EtsLabel *l = g_ptr_array_index (labels, i);
          if (g_str_equal (l->name, m->data) && g_str_equal (l->value, want))
            found = TRUE;
        }
      if (!found)
        return FALSE;
    }
  return TRUE;
}

static gboolean
load_service (EtsStore   *self,
              const char *dir,
              JsonObject *service,
              gint64      every_ms,
              gint64      first_k,
              GError    **error)
{
  const char *name = member_string (service, "name", NULL);
  const char *spy = member_string (service, "spy", NULL);
  double amplitude = member_double (service, "wave", 0.5);
  double jitter = member_double (service, "jitter", 0.3);
  gint64 period_ms = 3600 * 1000;
  JsonArray *profiles;
  g_autoptr(GPtrArray) sets = NULL;
  Wave *wave;
  Wave *service_shape = NULL;

  if (name == NULL || !json_object_has_member (service, "profiles"))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "manifest: every service needs a \"name\" and \"profiles\"");
      return FALSE;
    }
  if (json_object_has_member (service, "period") &&
      !parse_duration_ms (member_string (service, "period", NULL), &period_ms))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "manifest: service %s: bad \"period\"", name);
      return FALSE;
    }

  wave = wave_new (MAX (1, period_ms / every_ms), amplitude, hash_str (name, 0));
  g_ptr_array_add (self->waves, wave);
  /* A shape (the service's, or a variant's) replaces the wave */
  if (json_object_has_member (service, "shape"))
    {
      service_shape = shape_new (json_object_get_object_member (service, "shape"), every_ms, error);
      if (service_shape == NULL)
        return FALSE;
      g_ptr_array_add (self->waves, service_shape);
    }

  sets = expand_dimensions (json_object_has_member (service, "dimensions")
                            ? json_object_get_array_member (service, "dimensions") : NULL);
  profiles = json_object_get_array_member (service, "profiles");

  for (guint p = 0; p < json_array_get_length (profiles); p++)
    {
      JsonObject *profile = json_array_get_object_element (profiles, p);
      const char *type_id = member_string (profile, "type", NULL);
      const char *file = member_string (profile, "file", NULL);
      double scale = member_double (profile, "scale", 1.0);
      JsonArray *variants = json_object_has_member (profile, "variants")
                            ? json_object_get_array_member (profile, "variants") : NULL;
      g_autoptr(EtsProfileType) type = NULL;
      g_autoptr(GPtrArray) variant_shapes = g_ptr_array_new ();   /* Wave* or NULL, per variant */

      if (type_id == NULL || file == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "manifest: service %s: every profile needs \"type\" and \"file\"", name);
          return FALSE;
        }
      type = ets_profile_type_parse (type_id, error);
      if (type == NULL)
        return FALSE;
      for (guint v = 0; variants != NULL && v < json_array_get_length (variants); v++)
        {
          JsonObject *variant = json_array_get_object_element (variants, v);
          Wave *shape = NULL;

          if (json_object_has_member (variant, "shape"))
            {
              shape = shape_new (json_object_get_object_member (variant, "shape"), every_ms, error);
              if (shape == NULL)
                return FALSE;
              g_ptr_array_add (self->waves, shape);
            }
          g_ptr_array_add (variant_shapes, shape);
        }

      for (guint s = 0; s < sets->len; s++)
        {
          GPtrArray *set = g_ptr_array_index (sets, s);
          g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (label_free);
          g_autoptr(GString) id = g_string_new (NULL);
          const char *use_file = file;
          Wave *use_shape = service_shape;
          g_autofree char *path = NULL;
          Stacks stacks = { 0 };
          EtsSeries *series;
          double series_factor;

          for (guint i = 0; i < set->len; i++)
            {
              EtsLabel *l = g_ptr_array_index (set, i);
              add_label (labels, l->name, l->value);
            }
          add_label (labels, "service_name", name);
          if (spy != NULL)
            add_label (labels, "pyroscope_spy", spy);
          add_type_labels (labels, type);

          for (guint v = 0; variants != NULL && v < json_array_get_length (variants); v++)
            {
              JsonObject *variant = json_array_get_object_element (variants, v);
              if (labels_match_object (labels, json_object_get_object_member (variant, "match")))
                {
                  use_file = member_string (variant, "file", use_file);
                  if (g_ptr_array_index (variant_shapes, v) != NULL)
                    use_shape = g_ptr_array_index (variant_shapes, v);
                }
            }

          path = g_build_filename (dir, use_file, NULL);
          if (!load_folded (self, path, &stacks, error))
            return FALSE;

          series = series_new (self, NULL, labels);
          series->gen = g_array_new (FALSE, FALSE, sizeof (GenStack));
          series->wave = use_shape != NULL ? use_shape : wave;
          series->every_ms = every_ms;
          series->first_k = first_k;
          series->wave_origin = use_shape != NULL ? first_k : 0;

          for (guint i = 0; i < labels->len; i++)
            {
              EtsLabel *l = g_ptr_array_index (labels, i);
              g_string_append_printf (id, "%s=%s,", l->name, l->value);
            }
          series_factor = 1.0 + jitter * ((hash_str (id->str, 1) % 1000) / 1000.0 - 0.5) * 1.2;

          for (guint i = 0; i < stacks.nodes->len; i++)
            {
              guint32 node = g_array_index (stacks.nodes, guint32, i);
              gint64 base = g_array_index (stacks.values, gint64, i);
              g_autofree char *key = g_strdup_printf ("%s#%u", id->str, node);
              guint32 h = hash_str (key, 2);
              double w = series_factor * (1.0 + jitter * ((h % 1000) / 1000.0 - 0.5) * 2);
              GenStack g;

              g.node = node;
              g.phase = (h >> 16) % N_PHASES;
              if (amplitude <= 0 || use_shape != NULL)
                g.c = (gint64) round (base * scale * w);
              else
                g.c = MAX (1, (gint64) round (base * scale * w / 100.0));
              g_array_append_val (series->gen, g);
            }
          stacks_clear (&stacks);
        }
    }
  return TRUE;
}

gboolean
ets_store_load (EtsStore   *self,
                const char *dir,
                GError    **error)
{
  g_autofree char *path = g_build_filename (dir, "manifest.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *services;
  gint64 every_ms = 15000, span_ms = 6 * 3600 * 1000;
  gint64 first_k;

  if (!json_parser_load_from_file (parser, path, error))
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a JSON object", path);
      return FALSE;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  if ((json_object_has_member (root, "every") &&
       !parse_duration_ms (member_string (root, "every", NULL), &every_ms)) ||
      (json_object_has_member (root, "span") &&
       !parse_duration_ms (member_string (root, "span", NULL), &span_ms)) ||
      every_ms <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: \"every\" and \"span\" are durations such as \"15s\" or \"6h\"", path);
      return FALSE;
    }
  first_k = -floor_div (-(self->loaded_ms - span_ms), every_ms);

  services = json_object_has_member (root, "services") ? json_object_get_array_member (root, "services") : NULL;
  for (guint i = 0; services != NULL && i < json_array_get_length (services); i++)
    {
      JsonObject *service = json_array_get_object_element (services, i);

      if (service == NULL || !load_service (self, dir, service, every_ms, first_k, error))
        {
          g_prefix_error (error, "%s: ", path);
          return FALSE;
        }
    }
  return TRUE;
}
