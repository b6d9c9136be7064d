/* test-oracle-formats.c: the new readers against a second tool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every fixture here was made by the real tool, and the answer we check
 * against comes from another tool reading the same data:
 *
 *  - perf script output (fixtures/perf, regen.sh) against what `perf
 *    report` said of the same perf.data: --no-children self periods and
 *    sample counts per (dso, symbol), and --children totals as percentages;
 *  - JFR recordings (fixtures/jfr, regen.sh) against the JDK's own `jfr
 *    print --json`, reduced to self and total per function by
 *    jfr-oracle.py, for every sample type;
 *  - the V8 CPU profile of `node --cpu-prof` against its own nodes'
 *    hitCount fields (which V8 counts apart from the samples array we
 *    read), through json-glib;
 *  - the Chrome trace's profile chunks against a json-glib reading of the
 *    same events.
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "embers-format.h"
#include "embers-input.h"
#include "embers-top.h"

typedef struct
{
  gint64   self;
  gint64   total;
  gboolean has_total;
  double   total_percent;   /* perf --children: the total as a share */
  gboolean has_percent;
} Expected;

static char *
fixture_path (const char *dir,
              const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", dir, name, NULL);
}

static EmbersProfile *
load (const char *dir,
      const char *name)
{
  g_autofree char *path = fixture_path (dir, name);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile = embers_profile_load_file (file, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

static char *
read_text (const char *dir,
           const char *name)
{
  g_autofree char *path = fixture_path (dir, name);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static Expected *
expected_row (GHashTable *table,
              const char *name)
{
  Expected *e = g_hash_table_lookup (table, name);

  if (e == NULL)
    {
      e = g_new0 (Expected, 1);
      g_hash_table_insert (table, g_strdup (name), e);
    }
  return e;
}

/* Our top table for @sample_type against @expected: every function the
 * other tool names has our self (and total, where it gives one), and we
 * name none with a value that it does not. @skip_extra: names we add
 * that the other tool has no row for (perf's command frames). */
static void
compare_top (EmbersProfile  *profile,
             guint           sample_type,
             GHashTable     *expected,
             GHashTable     *skip_extra,
             gint64          event_total,
             const char     *what)
{
  g_autoptr(GArray) rows = embers_top_compute (profile, sample_type);
  g_autoptr(GHashTable) ours = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GString) problems = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key, value;
  guint compared = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);

      g_hash_table_insert (ours, (gpointer)embers_profile_get_string (profile, row->name), row);
    }

  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const Expected *e = value;
      const EmbersTopRow *row = g_hash_table_lookup (ours, key);

      if (e->self == 0 && !e->has_total && (!e->has_percent || e->total_percent == 0))
        continue;
      if (row == NULL)
        {
          g_string_append_printf (problems, "\n  missing %s (self %" G_GINT64_FORMAT ")",
                                  (const char *)key, e->self);
          continue;
        }
      if (row->self != e->self)
        g_string_append_printf (problems, "\n  %s: self %" G_GINT64_FORMAT ", ours %" G_GINT64_FORMAT,
                                (const char *)key, e->self, row->self);
      else if (e->has_total && row->total != e->total)
        g_string_append_printf (problems, "\n  %s: total %" G_GINT64_FORMAT ", ours %" G_GINT64_FORMAT,
                                (const char *)key, e->total, row->total);
      else if (e->has_percent &&
               fabs (100.0 * (double)row->total / (double)event_total - e->total_percent) > 0.0051)
        g_string_append_printf (problems, "\n  %s: total %.2f%%, ours %.4f%%", (const char *)key,
                                e->total_percent, 100.0 * (double)row->total / (double)event_total);
      else
        compared++;
    }

  g_hash_table_iter_init (&iter, ours);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const EmbersTopRow *row = value;

      if (row->self != 0 && !g_hash_table_contains (expected, key) &&
          (skip_extra == NULL || !g_hash_table_contains (skip_extra, key)))
        g_string_append_printf (problems, "\n  extra %s: self %" G_GINT64_FORMAT,
                                (const char *)key, row->self);
    }

  if (problems->len > 0)
    g_error ("%s disagrees:%s", what, problems->str);
  g_test_message ("%s: %u functions agree", what, compared);
  g_assert_cmpuint (compared, >, 0);
}

/* perf */

typedef struct
{
  char       *event;
  gint64      samples;
  gint64      period;
  GHashTable *self;      /* name -> Expected (self period, sample counts in total) */
  GHashTable *counts;    /* name -> Expected (self sample count) */
} PerfSection;

static void
perf_section_free (PerfSection *s)
{
  g_free (s->event);
  g_hash_table_unref (s->self);
  g_hash_table_unref (s->counts);
  g_free (s);
}

/* Our name for perf report's (dso, "[k] sym") */
static char *
perf_name (const char *dso,
           char        kind,
           const char *sym)
{
  g_autofree char *base = g_str_has_prefix (sym, "0x") ? g_strdup_printf ("[%s]", dso) : g_strdup (sym);

  return kind == 'k' ? g_strconcat (base, "_[k]", NULL) : g_steal_pointer (&base);
}

/* "# Samples: 239  of event 'cpu-clock:ppp'" sections of rows
 * "   25.45%   56   56056056  [kernel.kallsyms]  [k] do_syscall_64" (report)
 * "  51.88%  25.10%   60060060  [kernel.kallsyms]  [k] do_syscall_64" (children) */
static GPtrArray *
parse_perf_report (const char *text,
                   gboolean    children)
{
  g_autoptr(GPtrArray) sections = g_ptr_array_new_with_free_func ((GDestroyNotify)perf_section_free);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  PerfSection *cur = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      g_autofree char *dso = NULL;
      g_autofree char *sym = NULL;
      g_autofree char *name = NULL;
      double pct = 0, self_pct = 0;
      gint64 n = 0, period = 0;
      char kind = 0;
      int used = 0;

      if (g_str_has_prefix (line, "# Samples: "))
        {
          const char *q = strchr (line, '\'');

          cur = g_new0 (PerfSection, 1);
          cur->samples = g_ascii_strtoll (line + strlen ("# Samples: "), NULL, 10);
          cur->event = g_strndup (q + 1, strlen (q + 1) - 1);
          cur->self = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          cur->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          g_ptr_array_add (sections, cur);
          continue;
        }
      if (g_str_has_prefix (line, "# Event count (approx.): ") && cur != NULL)
        cur->period = g_ascii_strtoll (line + strlen ("# Event count (approx.): "), NULL, 10);
      if (cur == NULL || line[0] == '#' || line[strspn (line, " ")] == '\0')
        continue;

      dso = g_new0 (char, strlen (line) + 1);
      sym = g_new0 (char, strlen (line) + 1);
      if (children)
        {
          /* Without call chains perf has no children: "Overhead Period" */
          if (sscanf (line, " %lf%% %lf%% %" G_GINT64_FORMAT " %s [%c] %n", &pct, &self_pct, &period, dso, &kind, &used) < 5 &&
              sscanf (line, " %lf%% %" G_GINT64_FORMAT " %s [%c] %n", &pct, &period, dso, &kind, &used) < 4)
            g_error ("cannot read perf report's row “%s”", line);
        }
      else if (sscanf (line, " %lf%% %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s [%c] %n", &pct, &n, &period, dso, &kind, &used) < 5)
        g_error ("cannot read perf report's row “%s”", line);
      g_strlcpy (sym, line + used, strlen (line) + 1);
      g_strchomp (sym);
      name = perf_name (dso, kind, sym);

      if (children)
        {
          /* Rows of one dso's unknown addresses overlap: no total for them */
          Expected *e = expected_row (cur->self, name);

          e->self += period;
          if (!g_str_has_prefix (sym, "0x"))
            {
              e->total_percent = pct;
              e->has_percent = TRUE;
            }
        }
      else
        {
          expected_row (cur->self, name)->self += period;
          expected_row (cur->counts, name)->self += n;
        }
    }
  return g_steal_pointer (&sections);
}

static void
test_perf (gconstpointer data)
{
  const char *name = data;
  g_autofree char *script = g_strconcat (name, ".perf.txt", NULL);
  g_autofree char *report_name = g_strconcat (name, ".report.txt", NULL);
  g_autofree char *children_name = g_strconcat (name, ".children.txt", NULL);
  g_autofree char *report = read_text ("perf", report_name);
  g_autofree char *children = read_text ("perf", children_name);
  g_autoptr(EmbersProfile) profile = load ("perf", script);
  g_autoptr(GPtrArray) sections = parse_perf_report (report, FALSE);
  g_autoptr(GPtrArray) totals = parse_perf_report (children, TRUE);
  g_autoptr(GHashTable) comms = g_hash_table_new (g_str_hash, g_str_equal);

  /* The root's children are the commands */
  for (guint32 n = 1; n < embers_profile_get_n_nodes (profile); n++)
    if (embers_profile_node_parent (profile, n) == 0)
      g_hash_table_add (comms, (gpointer)embers_profile_node_name_str (profile, n));

  g_assert_cmpuint (sections->len, >, 0);
  g_assert_cmpuint (sections->len, ==, totals->len);
  for (guint s = 0; s < sections->len; s++)
    {
      PerfSection *sec = g_ptr_array_index (sections, s);
      PerfSection *tot = g_ptr_array_index (totals, s);
      g_autofree char *count_type = g_strconcat (sec->event, " samples", NULL);
      g_autofree char *what = g_strdup_printf ("%s, %s periods", name, sec->event);
      g_autofree char *what_n = g_strdup_printf ("%s, %s sample counts", name, sec->event);
      g_autofree char *what_t = g_strdup_printf ("%s, %s totals", name, sec->event);
      int period_type = embers_profile_find_sample_type (profile, sec->event);
      int samples_type = embers_profile_find_sample_type (profile, count_type);

      g_assert_cmpint (period_type, >=, 0);
      g_assert_cmpint (samples_type, >=, 0);
      g_assert_cmpstr (tot->event, ==, sec->event);
      g_assert_cmpint (embers_profile_get_total (profile, period_type), ==, sec->period);
      g_assert_cmpint (embers_profile_get_total (profile, samples_type), ==, sec->samples);
      compare_top (profile, (guint)period_type, sec->self, comms, sec->period, what);
      compare_top (profile, (guint)samples_type, sec->counts, comms, sec->samples, what_n);
      compare_top (profile, (guint)period_type, tot->self, comms, sec->period, what_t);
    }
}

/* JFR: rows "self\ttotal\tname" per sample type, from jfr-oracle.py */

static void
test_jfr (gconstpointer data)
{
  const char *name = data;
  g_autofree char *jfr = g_strconcat (name, ".jfr", NULL);
  g_autoptr(EmbersProfile) profile = load ("jfr", jfr);
  g_autofree char *dir = fixture_path ("jfr", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree char *prefix = g_strconcat (name, ".", NULL);
  const char *entry;
  guint n_types = 0;

  g_assert_nonnull (d);
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *type = NULL;
      g_autofree char *text = NULL;
      g_autofree char *what = NULL;
      g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_auto(GStrv) lines = NULL;
      int index;

      if (!g_str_has_prefix (entry, prefix) || !g_str_has_suffix (entry, ".tsv"))
        continue;
      type = g_strndup (entry + strlen (prefix), strlen (entry) - strlen (prefix) - 4);
      text = read_text ("jfr", entry);
      lines = g_strsplit (text, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_auto(GStrv) cols = g_strsplit (lines[i], "\t", 3);
          Expected *e;

          if (lines[i][0] == '\0')
            continue;
          g_assert_cmpuint (g_strv_length (cols), ==, 3);
          e = expected_row (expected, cols[2]);
          e->self = g_ascii_strtoll (cols[0], NULL, 10);
          e->total = g_ascii_strtoll (cols[1], NULL, 10);
          e->has_total = TRUE;
        }

      index = embers_profile_find_sample_type (profile, type);
      if (index < 0)
        g_error ("%s: jfr has %s, we have no such sample type", name, type);
      what = g_strdup_printf ("%s, %s", name, type);
      compare_top (profile, (guint)index, expected, NULL, 0, what);
      n_types++;
    }
  /* Every type we make was checked */
  g_assert_cmpuint (n_types, ==, embers_profile_get_n_sample_types (profile));
}

/* V8: the nodes' own hitCount, through json-glib */

static char *
v8_name (JsonObject *call_frame)
{
  const char *function = json_object_get_string_member_with_default (call_frame, "functionName", "");
  const char *url = json_object_get_string_member_with_default (call_frame, "url", "");
  gint64 line = json_object_get_int_member_with_default (call_frame, "lineNumber", -1);
  const char *base = strrchr (url, '/');

  if (function[0] == '\0')
    function = "(anonymous)";
  if (url[0] == '\0')
    return g_strdup (function);
  base = base != NULL && base[1] != '\0' ? base + 1 : url;
  if (line >= 0)
    return g_strdup_printf ("%s %s:%" G_GINT64_FORMAT, function, base, line + 1);
  return g_strdup_printf ("%s %s", function, base);
}

typedef struct
{
  char   *name;
  gint64  parent;
  gint64  hits;
  gint64  hit_count;     /* V8's own hitCount */
} V8Node;

static void
v8_node_free (V8Node *n)
{
  g_free (n->name);
  g_free (n);
}

/* Self and total (each name once per stack) for a set of nodes with
 * parents and per-node hit counts */
static void
v8_expected (GHashTable *nodes,
             GHashTable *expected)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, nodes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      V8Node *n = value;
      g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

      if (n->hits == 0)
        continue;
      expected_row (expected, n->name)->self += n->hits;
      for (V8Node *up = n; up != NULL; up = up->parent >= 0 ? g_hash_table_lookup (nodes, &up->parent) : NULL)
        {
          /* "(root)" stands for the profile's root */
          if (up->parent < 0)
            break;
          if (g_hash_table_add (seen, up->name))
            {
              Expected *e = expected_row (expected, up->name);

              e->total += n->hits;
              e->has_total = TRUE;
            }
        }
    }
}

static void
test_cpuprofile (void)
{
  g_autoptr(EmbersProfile) profile = load ("chrome", "node-workload.cpuprofile");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *path = fixture_path ("chrome", "node-workload.cpuprofile");
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) nodes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify)v8_node_free);
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  JsonArray *array;
  gint64 hits = 0;
  int samples_type = embers_profile_find_sample_type (profile, "samples");

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  array = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "nodes");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *o = json_array_get_object_element (array, i);
      V8Node *n = g_new0 (V8Node, 1);
      gint64 id = json_object_get_int_member (o, "id");

      n->name = v8_name (json_object_get_object_member (o, "callFrame"));
      n->hits = json_object_get_int_member_with_default (o, "hitCount", 0);
      n->parent = -1;
      hits += n->hits;
      g_hash_table_insert (nodes, g_memdup2 (&id, sizeof id), n);
    }
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *o = json_array_get_object_element (array, i);
      gint64 id = json_object_get_int_member (o, "id");

      if (json_object_has_member (o, "children"))
        {
          JsonArray *children = json_object_get_array_member (o, "children");

          for (guint k = 0; k < json_array_get_length (children); k++)
            {
              gint64 child = json_array_get_int_element (children, k);
              V8Node *c = g_hash_table_lookup (nodes, &child);

              g_assert_nonnull (c);
              c->parent = id;
            }
        }
    }
  /* The samples array, counted per node here apart from our reader; V8's
   * own hitCount agrees but for the one "(program)" sample it takes
   * when the profile stops, which is in the array and not in the count */
  {
    JsonArray *samples = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                                       "samples");
    GHashTableIter it;
    gpointer k, v;
    gint64 off = 0;

    g_hash_table_iter_init (&it, nodes);
    while (g_hash_table_iter_next (&it, &k, &v))
      {
        V8Node *n = v;

        n->hit_count = n->hits;
        n->hits = 0;
      }
    for (guint i = 0; i < json_array_get_length (samples); i++)
      {
        gint64 id = json_array_get_int_element (samples, i);
        V8Node *n = g_hash_table_lookup (nodes, &id);

        g_assert_nonnull (n);
        n->hits++;
      }
    g_hash_table_iter_init (&it, nodes);
    while (g_hash_table_iter_next (&it, &k, &v))
      {
        V8Node *n = v;

        if (n->hits != n->hit_count)
          {
            g_assert_cmpstr (n->name, ==, "(program)");
            off += n->hits - n->hit_count;
          }
      }
    g_assert_cmpint (off, <=, 1);
    g_assert_cmpint (json_array_get_length (samples), ==, hits + off);
    hits += off;
  }
  v8_expected (nodes, expected);

  g_assert_cmpint (samples_type, >=, 0);
  g_assert_cmpint (hits, >, 100);
  g_assert_cmpint (embers_profile_get_total (profile, (guint)samples_type), ==, hits);
  compare_top (profile, (guint)samples_type, expected, NULL, 0, "node --cpu-prof, samples (hitCount checked)");
}

/* Chrome: the trace's Profile and ProfileChunk events, through json-glib */

static void
test_chrome_trace (void)
{
  g_autoptr(EmbersProfile) profile = load ("chrome", "chromium-trace.json.gz");
  g_autofree char *path = fixture_path ("chrome", "chromium-trace.json.gz");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = embers_input_read_file (file, NULL, NULL, NULL, &error);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GHashTable) profiles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                           (GDestroyNotify)g_hash_table_unref);
  g_autoptr(GHashTable) hits = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify)g_hash_table_unref);
  g_autoptr(GHashTable) threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) roots = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  int samples_type = embers_profile_find_sample_type (profile, "samples");
  JsonArray *events;
  GHashTableIter iter;
  gpointer key, value;
  gint64 n_samples = 0;

  g_assert_no_error (error);
  json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL), (gssize)g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *name = json_object_get_string_member_with_default (e, "name", "");
      gint64 pid = json_object_get_int_member_with_default (e, "pid", 0);
      gint64 tid = json_object_get_int_member_with_default (e, "tid", 0);
      const char *id = json_object_get_string_member_with_default (e, "id", "");
      g_autofree char *key_s = g_strdup_printf ("%" G_GINT64_FORMAT "/%s", pid, id);
      JsonObject *data;

      if (g_str_equal (name, "thread_name"))
        g_hash_table_insert (threads, g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, tid),
                             g_strdup (json_object_get_string_member (json_object_get_object_member (e, "args"), "name")));
      if (g_str_equal (name, "Profile"))
        g_hash_table_insert (roots, g_strdup (key_s),
                             g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, tid));
      if (!g_str_equal (name, "ProfileChunk"))
        continue;
      data = json_object_get_object_member (json_object_get_object_member (e, "args"), "data");
      if (!g_hash_table_contains (profiles, key_s))
        {
          g_hash_table_insert (profiles, g_strdup (key_s),
                               g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify)v8_node_free));
          g_hash_table_insert (hits, g_strdup (key_s), g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free));
        }
      if (json_object_has_member (data, "cpuProfile"))
        {
          JsonObject *cpu = json_object_get_object_member (data, "cpuProfile");
          GHashTable *nodes = g_hash_table_lookup (profiles, key_s);
          GHashTable *counts = g_hash_table_lookup (hits, key_s);

          if (json_object_has_member (cpu, "nodes"))
            {
              JsonArray *array = json_object_get_array_member (cpu, "nodes");

              for (guint k = 0; k < json_array_get_length (array); k++)
                {
                  JsonObject *o = json_array_get_object_element (array, k);
                  V8Node *n = g_new0 (V8Node, 1);
                  gint64 nid = json_object_get_int_member (o, "id");

                  n->name = v8_name (json_object_get_object_member (o, "callFrame"));
                  n->parent = json_object_get_int_member_with_default (o, "parent", -1);
                  g_hash_table_insert (nodes, g_memdup2 (&nid, sizeof nid), n);
                }
            }
          if (json_object_has_member (cpu, "samples"))
            {
              JsonArray *array = json_object_get_array_member (cpu, "samples");

              for (guint k = 0; k < json_array_get_length (array); k++)
                {
                  gint64 sid = json_array_get_int_element (array, k);
                  gint64 *count = g_hash_table_lookup (counts, &sid);

                  if (count == NULL)
                    {
                      count = g_new0 (gint64, 1);
                      g_hash_table_insert (counts, g_memdup2 (&sid, sizeof sid), count);
                    }
                  (*count)++;
                  n_samples++;
                }
            }
        }
    }

  /* Each profile's nodes with their hits, under its thread's root frame */
  g_hash_table_iter_init (&iter, profiles);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GHashTable *nodes = value;
      GHashTable *counts = g_hash_table_lookup (hits, key);
      const char *thread_key = g_hash_table_lookup (roots, key);
      const char *thread = thread_key ? g_hash_table_lookup (threads, thread_key) : NULL;
      const char *pid_end = strchr (key, '/');
      g_autofree char *pid = g_strndup (key, pid_end - (const char *)key);
      g_autofree char *root = NULL;
      GHashTableIter it;
      gpointer k, v;
      gint64 in_profile = 0;

      g_assert_nonnull (thread);
      root = g_strdup_printf ("%s (pid %s)", thread, pid);
      g_hash_table_iter_init (&it, counts);
      while (g_hash_table_iter_next (&it, &k, &v))
        {
          V8Node *n = g_hash_table_lookup (nodes, k);

          g_assert_nonnull (n);
          n->hits = *(gint64 *)v;
          in_profile += n->hits;
        }
      v8_expected (nodes, expected);
      if (in_profile > 0)
        {
          Expected *e = expected_row (expected, root);

          e->total += in_profile;
          e->has_total = TRUE;
        }
    }

  g_assert_cmpint (samples_type, >=, 0);
  g_assert_cmpint (n_samples, >, 1000);
  g_assert_cmpint (embers_profile_get_total (profile, (guint)samples_type), ==, n_samples);
  compare_top (profile, (guint)samples_type, expected, NULL, 0, "Chromium trace, profile chunks");
}

int
main (int   argc,
      char *argv[])
{
  static const char *perf_fixtures[] = { "callchain-kernel", "callchain-user", "flat-two-events" };
  static const char *jfr_fixtures[] = { "jdk21-startup", "jdk21-default", "jdk17-jcmd" };

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (perf_fixtures); i++)
    {
      g_autofree char *path = g_strdup_printf ("/embers/oracle-formats/perf/%s", perf_fixtures[i]);

      g_test_add_data_func (path, perf_fixtures[i], test_perf);
    }
  for (guint i = 0; i < G_N_ELEMENTS (jfr_fixtures); i++)
    {
      g_autofree char *path = g_strdup_printf ("/embers/oracle-formats/jfr/%s", jfr_fixtures[i]);

      g_test_add_data_func (path, jfr_fixtures[i], test_jfr);
    }
  g_test_add_func ("/embers/oracle-formats/v8/cpuprofile", test_cpuprofile);
  g_test_add_func ("/embers/oracle-formats/chrome/trace", test_chrome_trace);

  return g_test_run ();
}
