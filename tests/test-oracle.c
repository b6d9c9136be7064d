/* test-oracle.c: real Go profiles against `go tool pprof`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fixtures in fixtures/go/ were written by the Go runtime
 * (runtime/pprof, see tests/go/main.go), and next to each one is what
 * `go tool pprof` printed for it (tests/go/regen.sh):
 *
 *   <name>.top<N>.txt   -top -nodecount=100000 -nodefraction=0
 *                       -edgefraction=0 -symbolize=none -sample_index=N,
 *                       with -unit=ns / -unit=B for time / byte types so
 *                       that every value prints as a whole number
 *   <name>.tags<N>.txt  -tags -sample_index=N (CPU profiles)
 *   <name>.meta.txt     sample types, period, time and go's default type
 *
 * Every function go lists must have our self == its flat and our total ==
 * its cum, we must list no function go does not, and the totals must agree.
 */

#include "config.h"

#include <string.h>

#include "embers-format.h"
#include "embers-top.h"

typedef struct
{
  const char *name;
  guint       n_sample_types;
  gboolean    has_tags;      /* a tags<N>.txt oracle exists */
} Fixture;

static const Fixture fixtures[] = {
  { "cpu-labels", 2, TRUE },
  { "heap", 4, FALSE },
  { "cpu-inlined", 2, TRUE },
  { "cpu-recursion", 2, TRUE },
};

typedef struct
{
  const Fixture *fixture;
  guint          index;
} OracleCase;

typedef struct
{
  gint64   flat;
  gint64   cum;
  gboolean inline_marked;
} GoRow;

typedef struct
{
  char       *type;
  gint64      shown;
  gint64      total;
  GHashTable *rows;   /* function name -> GoRow */
} GoTop;

static void
go_top_free (GoTop *top)
{
  g_free (top->type);
  g_clear_pointer (&top->rows, g_hash_table_unref);
  g_free (top);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GoTop, go_top_free)

/* Fixture helpers */

static char *
fixture_path (const char *name,
              const char *suffix)
{
  g_autofree char *basename = g_strconcat (name, suffix, NULL);

  return g_test_build_filename (G_TEST_DIST, "fixtures", "go", basename, NULL);
}

static char *
read_fixture (const char *name,
              const char *suffix)
{
  g_autofree char *path = fixture_path (name, suffix);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

static EmbersProfile *
load_fixture (const char *name)
{
  g_autofree char *path = fixture_path (name, ".pb.gz");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile;

  profile = embers_profile_load_file (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

/* The suffix go prints after a whole number in the sample type's own unit
 * (see the -unit flags in regen.sh), or NULL when we do not know it. */
static const char *
raw_suffix (const char *unit)
{
  if (g_str_equal (unit, "nanoseconds"))
    return "ns";
  if (g_str_equal (unit, "bytes"))
    return "B";
  if (g_str_equal (unit, "count"))
    return "";
  return NULL;
}

/* Reads "1360000000ns", "4456448B", "299", "0" (go prints zero bare) and,
 * with allow_fraction, "640000000.0ns" (-tags prints one decimal). */
static gboolean
parse_go_value (const char *text,
                const char *suffix,
                gboolean    allow_fraction,
                gint64     *value)
{
  const char *p = text;
  gboolean negative = FALSE;
  guint64 v = 0;

  if (g_str_equal (text, "0"))
    {
      *value = 0;
      return TRUE;
    }

  if (*p == '-')
    {
      negative = TRUE;
      p++;
    }
  if (!g_ascii_isdigit (*p))
    return FALSE;
  for (; g_ascii_isdigit (*p); p++)
    {
      if (v > (G_MAXINT64 - 9) / 10)
        return FALSE;
      v = v * 10 + (guint64) (*p - '0');
    }
  if (allow_fraction && p[0] == '.')
    {
      /* Only a zero fraction is a whole number. */
      for (p++; *p == '0'; p++)
        ;
    }
  if (!g_str_equal (p, suffix))
    return FALSE;

  *value = negative ? -(gint64) v : (gint64) v;
  return TRUE;
}

static char *
next_token (const char **cursor)
{
  const char *p = *cursor;
  const char *start;

  while (*p == ' ' || *p == '\t')
    p++;
  start = p;
  while (*p != '\0' && *p != ' ' && *p != '\t')
    p++;
  *cursor = p;
  return p > start ? g_strndup (start, p - start) : NULL;
}

static gint64
expect_value (const char *text,
              const char *suffix,
              gboolean    allow_fraction,
              const char *line)
{
  gint64 value = 0;

  if (text == NULL || !parse_go_value (text, suffix, allow_fraction, &value))
    g_error ("cannot read the value “%s” (unit suffix “%s”) in go's line “%s”",
             text ? text : "", suffix, line);
  return value;
}

/* Parses `go tool pprof -top` output:
 *
 *   File: fixtures
 *   Type: cpu
 *   Time: ...
 *   Duration: 1.62s, Total samples = 2980000000ns (183.95%)
 *   Showing nodes accounting for 2980000000ns, 100% of 2980000000ns total
 *         flat  flat%   sum%        cum   cum%
 *   1280000000ns 42.95% 42.95% 1280000000ns 42.95%  main.compress
 *            0     0%   100% 2980000000ns   100%  runtime/pprof.Do
 *         99 33.11% 33.11%        137 45.82%  main.finalize (inline)
 *
 * Function names are the rest of the row after the five numbers, minus a
 * trailing " (inline)" or " (partial-inline)" marker; they may hold spaces.
 */
static GoTop *
parse_go_top (const char *text,
              const char *suffix)
{
  g_autoptr(GoTop) top = g_new0 (GoTop, 1);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean in_table = FALSE;
  gboolean have_total = FALSE;

  top->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (in_table)
        {
          const char *cursor = line;
          g_autofree char *flat = NULL;
          g_autofree char *flat_pct = NULL;
          g_autofree char *sum_pct = NULL;
          g_autofree char *cum = NULL;
          g_autofree char *cum_pct = NULL;
          g_autofree char *name = NULL;
          GoRow *row;
          gsize len;

          if (line[strspn (line, " \t")] == '\0')
            continue;

          flat = next_token (&cursor);
          flat_pct = next_token (&cursor);
          sum_pct = next_token (&cursor);
          cum = next_token (&cursor);
          cum_pct = next_token (&cursor);
          while (*cursor == ' ' || *cursor == '\t')
            cursor++;
          if (cum_pct == NULL || *cursor == '\0'
              || !g_str_has_suffix (flat_pct, "%")
              || !g_str_has_suffix (sum_pct, "%")
              || !g_str_has_suffix (cum_pct, "%"))
            g_error ("go's row “%s” does not read as flat flat%% sum%% cum cum%% name", line);

          row = g_new0 (GoRow, 1);
          row->flat = expect_value (flat, suffix, FALSE, line);
          row->cum = expect_value (cum, suffix, FALSE, line);

          name = g_strdup (cursor);
          len = strlen (name);
          while (len > 0 && name[len - 1] == ' ')
            name[--len] = '\0';
          if (g_str_has_suffix (name, " (partial-inline)"))
            {
              name[len - strlen (" (partial-inline)")] = '\0';
              row->inline_marked = TRUE;
            }
          else if (g_str_has_suffix (name, " (inline)"))
            {
              name[len - strlen (" (inline)")] = '\0';
              row->inline_marked = TRUE;
            }

          if (g_hash_table_contains (top->rows, name))
            g_error ("go lists the function “%s” twice", name);
          g_hash_table_insert (top->rows, g_steal_pointer (&name), row);
        }
      else if (g_str_has_prefix (line, "Type: "))
        {
          g_free (top->type);
          top->type = g_strdup (line + strlen ("Type: "));
        }
      else if (g_str_has_prefix (line, "Showing nodes accounting for "))
        {
          /* "Showing nodes accounting for A, P% of T total" */
          const char *shown = line + strlen ("Showing nodes accounting for ");
          const char *comma = strchr (shown, ',');
          const char *of = strstr (shown, "% of ");
          g_autofree char *shown_text = NULL;
          g_autofree char *total_text = NULL;

          if (comma == NULL || of == NULL || !g_str_has_suffix (line, " total"))
            g_error ("cannot read go's line “%s”", line);
          shown_text = g_strndup (shown, comma - shown);
          of += strlen ("% of ");
          total_text = g_strndup (of, strlen (of) - strlen (" total"));
          top->shown = expect_value (shown_text, suffix, FALSE, line);
          top->total = expect_value (total_text, suffix, FALSE, line);
          have_total = TRUE;
        }
      else if (g_str_has_prefix (line, "Dropped ")
               || strstr (line, "nodes (cum <=") != NULL)
        {
          g_error ("go dropped nodes (“%s”): the oracle must be made "
                   "with -nodefraction=0 -edgefraction=0", line);
        }
      else
        {
          g_auto(GStrv) words = g_strsplit_set (line, " \t", -1);
          GString *joined = g_string_new (NULL);
          g_autofree char *header = NULL;

          for (guint w = 0; words[w] != NULL; w++)
            if (words[w][0] != '\0')
              g_string_append_printf (joined, "%s%s", joined->len ? " " : "", words[w]);
          header = g_string_free (joined, FALSE);
          if (g_str_equal (header, "flat flat% sum% cum cum%"))
            in_table = TRUE;
        }
    }

  g_assert_true (in_table);
  g_assert_true (have_total);
  g_assert_nonnull (top->type);
  return g_steal_pointer (&top);
}

/* /embers/oracle/<name>/top<N> */

static void
test_oracle_top (gconstpointer data)
{
  const OracleCase *c = data;
  g_autoptr(EmbersProfile) profile = load_fixture (c->fixture->name);
  g_autofree char *top_suffix = g_strdup_printf (".top%u.txt", c->index);
  g_autofree char *text = read_fixture (c->fixture->name, top_suffix);
  g_autoptr(GoTop) go = NULL;
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GHashTable) ours = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GString) problems = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key, value;
  const char *unit, *suffix;
  guint n_compared = 0;
  gint64 sum_self = 0;

  g_assert_cmpuint (c->index, <, embers_profile_get_n_sample_types (profile));
  unit = embers_profile_get_sample_unit (profile, c->index);
  suffix = raw_suffix (unit);
  if (suffix == NULL)
    g_error ("sample type %u of %s has the unit “%s”, for which the test "
             "knows no raw go unit", c->index, c->fixture->name, unit);

  go = parse_go_top (text, suffix);
  g_assert_cmpstr (go->type, ==, embers_profile_get_sample_type (profile, c->index));
  /* Nothing hidden: go's table adds up to its total. */
  g_assert_cmpint (go->shown, ==, go->total);
  g_assert_cmpuint (g_hash_table_size (go->rows), >, 5);

  rows = embers_top_compute (profile, c->index);
  g_assert_nonnull (rows);
  for (guint i = 0; i < rows->len; i++)
    {
      EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);
      const char *name = embers_profile_get_string (profile, row->name);

      g_assert_false (g_hash_table_contains (ours, name));
      g_hash_table_insert (ours, (gpointer) name, row);
      sum_self += row->self;
    }

  g_hash_table_iter_init (&iter, go->rows);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *name = key;
      const GoRow *go_row = value;
      const EmbersTopRow *row = g_hash_table_lookup (ours, name);

      if (row == NULL)
        g_string_append_printf (problems, "\n  missing %s: go flat %" G_GINT64_FORMAT
                                " cum %" G_GINT64_FORMAT, name, go_row->flat, go_row->cum);
      else if (row->self != go_row->flat || row->total != go_row->cum)
        g_string_append_printf (problems, "\n  %s: go flat %" G_GINT64_FORMAT
                                " cum %" G_GINT64_FORMAT ", ours self %" G_GINT64_FORMAT
                                " total %" G_GINT64_FORMAT,
                                name, go_row->flat, go_row->cum, row->self, row->total);
      else
        n_compared++;
    }

  g_hash_table_iter_init (&iter, ours);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const EmbersTopRow *row = value;

      if ((row->self != 0 || row->total != 0)
          && !g_hash_table_contains (go->rows, key))
        g_string_append_printf (problems, "\n  extra %s: ours self %" G_GINT64_FORMAT
                                " total %" G_GINT64_FORMAT ", go has no such row",
                                (const char *) key, row->self, row->total);
    }

  if (embers_profile_get_total (profile, c->index) != go->total)
    g_string_append_printf (problems, "\n  total: go %" G_GINT64_FORMAT ", ours %" G_GINT64_FORMAT,
                            go->total, embers_profile_get_total (profile, c->index));
  if (sum_self != go->total)
    g_string_append_printf (problems, "\n  sum of self: go total %" G_GINT64_FORMAT
                            ", our rows add up to %" G_GINT64_FORMAT, go->total, sum_self);

  if (problems->len > 0)
    g_test_message ("%s sample type %u (%s): %u of %u functions agree; differences:%s",
                    c->fixture->name, c->index, go->type, n_compared,
                    g_hash_table_size (go->rows), problems->str);
  g_assert_cmpstr (problems->str, ==, "");
  g_assert_cmpuint (n_compared, ==, g_hash_table_size (go->rows));
}

/* /embers/oracle/<name>/tags<N>: label values against `go tool pprof -tags`
 *
 *  endpoint: Total 2400000000.0ns
 *            1200000000.0ns (50.00%): /api
 *            1200000000.0ns (50.00%): /static
 */

static GHashTable *
parse_go_tags (const char *text,
               const char *suffix)
{
  g_autoptr(GHashTable) tags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GRegex) key_re = g_regex_new ("^ (\\S.*): Total (\\S+)$", 0, 0, NULL);
  g_autoptr(GRegex) value_re = g_regex_new ("^\\s+(\\S+) \\(\\s*[0-9.]+%\\): (.*)$", 0, 0, NULL);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *key = NULL;

  g_assert_nonnull (key_re);
  g_assert_nonnull (value_re);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) match = NULL;
      gint64 *v;

      if (lines[i][0] == '\0')
        continue;
      if (g_regex_match (key_re, lines[i], 0, &match))
        {
          g_autofree char *total = g_match_info_fetch (match, 2);

          g_free (key);
          key = g_match_info_fetch (match, 1);
          v = g_new (gint64, 1);
          *v = expect_value (total, suffix, TRUE, lines[i]);
          /* "key" alone holds the key's total. */
          g_hash_table_insert (tags, g_strdup (key), v);
          continue;
        }
      g_clear_pointer (&match, g_match_info_unref);
      if (key != NULL && g_regex_match (value_re, lines[i], 0, &match))
        {
          g_autofree char *amount = g_match_info_fetch (match, 1);
          g_autofree char *label_value = g_match_info_fetch (match, 2);

          v = g_new (gint64, 1);
          *v = expect_value (amount, suffix, TRUE, lines[i]);
          g_hash_table_insert (tags, g_strdup_printf ("%s=%s", key, label_value), v);
          continue;
        }
      g_error ("cannot read go's -tags line “%s”", lines[i]);
    }

  return g_steal_pointer (&tags);
}

static void
add_to (GHashTable *table,
        char       *key,
        gint64      amount)
{
  gint64 *v = g_hash_table_lookup (table, key);

  if (v == NULL)
    {
      v = g_new0 (gint64, 1);
      g_hash_table_insert (table, key, v);
    }
  else
    g_free (key);
  *v += amount;
}

static void
test_oracle_tags (gconstpointer data)
{
  const OracleCase *c = data;
  g_autoptr(EmbersProfile) profile = load_fixture (c->fixture->name);
  g_autofree char *tags_suffix = g_strdup_printf (".tags%u.txt", c->index);
  g_autofree char *text = read_fixture (c->fixture->name, tags_suffix);
  const char *suffix = raw_suffix (embers_profile_get_sample_unit (profile, c->index));
  g_autoptr(GHashTable) go = NULL;
  g_autoptr(GHashTable) ours = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GString) problems = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key, value;

  g_assert_nonnull (suffix);
  go = parse_go_tags (text, suffix);

  for (guint s = 0; s < embers_profile_get_n_samples (profile); s++)
    {
      guint n_labels = 0;
      const EmbersLabel *labels =
        embers_profile_get_label_set (profile, embers_profile_sample_label_set (profile, s), &n_labels);
      gint64 amount = embers_profile_sample_value (profile, s, c->index);

      for (guint l = 0; l < n_labels; l++)
        {
          const char *k = embers_profile_get_string (profile, labels[l].key);

          /* go's CPU profiles carry string labels only. */
          g_assert_cmpuint (labels[l].str, !=, 0);
          add_to (ours, g_strdup (k), amount);
          add_to (ours, g_strdup_printf ("%s=%s", k,
                                         embers_profile_get_string (profile, labels[l].str)),
                  amount);
        }
    }

  g_hash_table_iter_init (&iter, go);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 *mine = g_hash_table_lookup (ours, key);
      gint64 theirs = *(gint64 *) value;

      if (mine == NULL || *mine != theirs)
        g_string_append_printf (problems, "\n  %s: go %" G_GINT64_FORMAT ", ours %s%" G_GINT64_FORMAT,
                                (const char *) key, theirs, mine ? "" : "none, ",
                                mine ? *mine : 0);
    }
  g_hash_table_iter_init (&iter, ours);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (*(gint64 *) value != 0 && !g_hash_table_contains (go, key))
        g_string_append_printf (problems, "\n  %s: ours %" G_GINT64_FORMAT ", go has none",
                                (const char *) key, *(gint64 *) value);
    }

  if (problems->len > 0)
    g_test_message ("%s sample type %u labels differ:%s",
                    c->fixture->name, c->index, problems->str);
  g_assert_cmpstr (problems->str, ==, "");
  if (g_str_equal (c->fixture->name, "cpu-labels"))
    g_assert_cmpuint (g_hash_table_size (go), >=, 3);
}

/* /embers/oracle/<name>/meta: sample types, period, time, default type */

static void
test_oracle_meta (gconstpointer data)
{
  const Fixture *fixture = data;
  g_autoptr(EmbersProfile) profile = load_fixture (fixture->name);
  g_autofree char *text = read_fixture (fixture->name, ".meta.txt");
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n_checked = 0;

  g_assert_cmpuint (embers_profile_get_n_sample_types (profile), ==, fixture->n_sample_types);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *colon = strstr (line, ": ");
      g_autofree char *field = NULL;
      const char *v;

      if (line[0] == '\0')
        continue;
      g_assert_nonnull (colon);
      field = g_strndup (line, colon - line);
      v = colon + 2;

      if (g_str_equal (field, "sample_types"))
        {
          /* "alloc_objects/count alloc_space/bytes ..." */
          g_auto(GStrv) types = g_strsplit (v, " ", -1);

          g_assert_cmpuint (g_strv_length (types), ==, embers_profile_get_n_sample_types (profile));
          for (guint t = 0; types[t] != NULL; t++)
            {
              g_autofree char *ours = g_strdup_printf ("%s/%s",
                                                       embers_profile_get_sample_type (profile, t),
                                                       embers_profile_get_sample_unit (profile, t));

              g_assert_cmpstr (ours, ==, types[t]);
            }
        }
      else if (g_str_equal (field, "period_type"))
        {
          /* "cpu nanoseconds" */
          g_autofree char *ours = g_strdup_printf ("%s %s",
                                                   embers_profile_get_period_type (profile),
                                                   embers_profile_get_period_unit (profile));

          g_assert_cmpstr (ours, ==, v);
        }
      else if (g_str_equal (field, "period"))
        g_assert_cmpint (embers_profile_get_period (profile), ==, g_ascii_strtoll (v, NULL, 10));
      else if (g_str_equal (field, "time_nanos"))
        g_assert_cmpint (embers_profile_get_time_nanos (profile), ==, g_ascii_strtoll (v, NULL, 10));
      else if (g_str_equal (field, "default"))
        {
          /* These files carry no default_sample_type, so go (and
           * profile.proto) take the last sample type. */
          guint def = embers_profile_get_default_sample_type (profile);

          g_assert_cmpuint (def, <, embers_profile_get_n_sample_types (profile));
          g_assert_cmpstr (embers_profile_get_sample_type (profile, def), ==, v);
          g_assert_cmpint (embers_profile_find_sample_type (profile, v), ==, (int) def);
        }
      else
        g_error ("unknown field “%s” in %s.meta.txt", field, fixture->name);

      n_checked++;
    }

  g_assert_cmpuint (n_checked, ==, 5);

  /* The heap profile is a snapshot; CPU profiles cover a time span. */
  if (g_str_has_prefix (fixture->name, "cpu-"))
    g_assert_cmpint (embers_profile_get_duration_nanos (profile), >, 0);
  else
    g_assert_cmpint (embers_profile_get_duration_nanos (profile), ==, 0);
  g_assert_false (embers_profile_is_diff (profile));
}

/* What each fixture is there for, read off our own tree. */

static gboolean
find_stack (EmbersProfile *profile,
            const char    *wanted)
{
  for (guint32 node = 1; node < embers_profile_get_n_nodes (profile); node++)
    {
      g_autofree char *stack = embers_profile_node_stack (profile, node, ";");

      if (g_str_has_suffix (stack, wanted))
        return TRUE;
    }
  return FALSE;
}

static void
test_oracle_inlined_frames (void)
{
  g_autoptr(EmbersProfile) profile = load_fixture ("cpu-inlined");
  g_autofree char *text = read_fixture ("cpu-inlined", ".top0.txt");
  g_autoptr(GoTop) go = parse_go_top (text, "");
  GoRow *rotl = g_hash_table_lookup (go->rows, "main.rotl");

  /* finalize, mix and rotl were inlined: their frames come from the
   * line entries of hashStream's locations, outermost caller last. */
  g_assert_nonnull (rotl);
  g_assert_true (rotl->inline_marked);
  g_assert_cmpint (rotl->flat, >, 0);
  g_assert_true (find_stack (profile, "main.hashStream;main.finalize;main.mix;main.rotl"));
  g_assert_true (find_stack (profile, "main.hashBlock;main.mix;main.rotl"));
  g_assert_true (find_stack (profile, "main.checksum;main.rotl"));
  g_assert_false (find_stack (profile, "main.rotl;main.mix"));
}

static void
test_oracle_recursion_counted_once (void)
{
  g_autoptr(EmbersProfile) profile = load_fixture ("cpu-recursion");
  g_autoptr(GArray) rows = embers_top_compute (profile, 0);
  const char *names[] = { "main.fib", "main.isEven", "main.walkTree" };

  for (guint n = 0; n < G_N_ELEMENTS (names); n++)
    {
      gint64 sum_of_nodes = 0, row_total = -1;
      guint deepest = 0;

      for (guint32 node = 1; node < embers_profile_get_n_nodes (profile); node++)
        {
          guint32 up;
          guint repeats = 0;

          if (!g_str_equal (embers_profile_node_name_str (profile, node), names[n]))
            continue;
          sum_of_nodes += embers_profile_node_total (profile, 0, node);
          for (up = node; up != EMBERS_NODE_NONE; up = embers_profile_node_parent (profile, up))
            if (g_str_equal (embers_profile_node_name_str (profile, up), names[n]))
              repeats++;
          deepest = MAX (deepest, repeats);
        }
      for (guint i = 0; i < rows->len; i++)
        {
          EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);

          if (g_str_equal (embers_profile_get_string (profile, row->name), names[n]))
            row_total = row->total;
        }

      /* The function sits several times in one stack, and its total counts
       * such a stack once, not once per frame. */
      g_assert_cmpuint (deepest, >=, 3);
      g_assert_cmpint (row_total, >, 0);
      g_assert_cmpint (row_total, <, sum_of_nodes);
    }

  /* isEven and isOdd call each other. */
  g_assert_true (find_stack (profile, "main.isEven;main.isOdd;main.isEven;main.isOdd"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint f = 0; f < G_N_ELEMENTS (fixtures); f++)
    {
      const Fixture *fixture = &fixtures[f];
      g_autofree char *meta_path = g_strdup_printf ("/embers/oracle/%s/meta", fixture->name);

      g_test_add_data_func (meta_path, fixture, test_oracle_meta);

      for (guint i = 0; i < fixture->n_sample_types; i++)
        {
          OracleCase *c = g_new0 (OracleCase, 1);
          g_autofree char *top_path = NULL;

          c->fixture = fixture;
          c->index = i;
          top_path = g_strdup_printf ("/embers/oracle/%s/top%u", fixture->name, i);
          g_test_add_data_func_full (top_path, c, test_oracle_top, g_free);
          if (fixture->has_tags)
            {
              OracleCase *t = g_memdup2 (c, sizeof *c);
              g_autofree char *tags_path =
                g_strdup_printf ("/embers/oracle/%s/tags%u", fixture->name, i);

              g_test_add_data_func_full (tags_path, t, test_oracle_tags, g_free);
            }
        }
    }

  g_test_add_func ("/embers/oracle/cpu-inlined/inlined-frames", test_oracle_inlined_frames);
  g_test_add_func ("/embers/oracle/cpu-recursion/counted-once", test_oracle_recursion_counted_once);

  return g_test_run ();
}
