/* test-flamebearer.c: Pyroscope flame graph JSON and levels decoding
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "embers-diff.h"
#include "embers-format.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"

static EmbersProfile *
parse (const char *text,
       GError    **error)
{
  return embers_flamebearer_parse (text, strlen (text), error);
}

static guint32
find (EmbersProfile *p,
      const char    *stack)
{
  for (guint i = 0; i < embers_profile_get_n_nodes (p); i++)
    {
      g_autofree char *s = embers_profile_node_stack (p, i, ";");

      if (g_str_equal (s, stack))
        return i;
    }
  g_error ("no node “%s”", stack);
  return 0;
}

static void
assert_node (EmbersProfile *p,
             guint          sample_type,
             const char    *stack,
             gint64         self,
             gint64         total)
{
  guint32 node = find (p, stack);

  g_assert_cmpint (embers_profile_node_self (p, sample_type, node), ==, self);
  g_assert_cmpint (embers_profile_node_total (p, sample_type, node), ==, total);
}

static char *
fixture_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "json", name, NULL);
}

static char *
read_fixture (const char *name,
              gsize      *len)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, len, &error);
  g_assert_no_error (error);
  return contents;
}

/* Through the loader: format sniffing picks this reader */
static EmbersProfile *
load_fixture (const char *name)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  EmbersProfile *p = embers_profile_load_file (file, NULL, &error);

  g_assert_no_error (error);
  return p;
}

static char *
write_json (EmbersProfile *p,
            guint          sample_type)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = embers_flamebearer_write (p, sample_type, &error);
  gsize len;
  const char *data;

  g_assert_no_error (error);
  data = g_bytes_get_data (out, &len);
  return g_strndup (data, len);
}

/*
 * An independent reading (json-glib) of two render API documents: the
 * same levels node for node, with the same name behind each name index
 * (dictionaries may differ in order).
 */
static JsonObject *
oracle_flamebearer (JsonParser *parser,
                    const char *text,
                    guint      *stride)
{
  g_autoptr(GError) error = NULL;
  JsonObject *root, *meta;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  meta = json_object_get_object_member (root, "metadata");
  *stride = g_strcmp0 (json_object_get_string_member (meta, "format"), "double") == 0 ? 7 : 4;
  return json_object_get_object_member (root, "flamebearer");
}

static void
assert_same_levels (const char *a,
                    const char *b)
{
  g_autoptr(JsonParser) pa = json_parser_new ();
  g_autoptr(JsonParser) pb = json_parser_new ();
  guint sa, sb;
  JsonObject *fa = oracle_flamebearer (pa, a, &sa);
  JsonObject *fb = oracle_flamebearer (pb, b, &sb);
  JsonArray *na = json_object_get_array_member (fa, "names");
  JsonArray *nb = json_object_get_array_member (fb, "names");
  JsonArray *la = json_object_get_array_member (fa, "levels");
  JsonArray *lb = json_object_get_array_member (fb, "levels");

  g_assert_cmpuint (sa, ==, sb);
  g_assert_cmpint (json_object_get_int_member (fa, "numTicks"), ==, json_object_get_int_member (fb, "numTicks"));
  g_assert_cmpint (json_object_get_int_member (fa, "maxSelf"), ==, json_object_get_int_member (fb, "maxSelf"));
  g_assert_cmpuint (json_array_get_length (la), ==, json_array_get_length (lb));
  for (guint d = 0; d < json_array_get_length (la); d++)
    {
      JsonArray *va = json_array_get_array_element (la, d);
      JsonArray *vb = json_array_get_array_element (lb, d);

      g_assert_cmpuint (json_array_get_length (va), ==, json_array_get_length (vb));
      for (guint k = 0; k < json_array_get_length (va); k++)
        {
          gint64 x = json_array_get_int_element (va, k);
          gint64 y = json_array_get_int_element (vb, k);

          if (k % sa == sa - 1)
            g_assert_cmpstr (json_array_get_string_element (na, (guint)x), ==,
                             json_array_get_string_element (nb, (guint)y));
          else
            g_assert_cmpint (x, ==, y);
        }
    }
}

/* PYROSCOPE-API.md §2: main;a 3, main;b;c 2, main 1 */
static const char single_render[] =
  "{\"version\":1,\"flamebearer\":{\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],"
  "\"levels\":[[0,6,0,0],[0,6,1,1],[1,3,3,4,0,2,0,2],[4,2,2,3]],\"numTicks\":6,\"maxSelf\":3},"
  "\"metadata\":{\"format\":\"single\",\"spyName\":\"\",\"sampleRate\":100,\"units\":\"samples\",\"name\":\"cpu\"}}";

static void
check_single (EmbersProfile *p)
{
  g_assert_false (embers_profile_is_diff (p));
  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 1);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 6);
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 5);
  g_assert_cmpstr (embers_profile_node_name_str (p, 0), ==, "total");
  assert_node (p, 0, "main", 1, 6);
  assert_node (p, 0, "main;a", 3, 3);
  assert_node (p, 0, "main;b", 0, 2);
  assert_node (p, 0, "main;b;c", 2, 2);
}

static void
test_single_vector (void)
{
  static const char *docs[] = {
    single_render,
    /* Connect JSON FlameGraph: int64 as strings */
    "{\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],\"levels\":[{\"values\":[\"0\",\"6\",\"0\",\"0\"]},"
    "{\"values\":[\"0\",\"6\",\"1\",\"1\"]},{\"values\":[\"1\",\"3\",\"3\",\"4\",\"0\",\"2\",\"0\",\"2\"]},"
    "{\"values\":[\"4\",\"2\",\"2\",\"3\"]}],\"total\":\"6\",\"maxSelf\":\"3\"}",
    /* SelectMergeStacktracesResponse wrapper, int64 as numbers */
    "{\"flamegraph\":{\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],\"levels\":[{\"values\":[0,6,0,0]},"
    "{\"values\":[0,6,1,1]},{\"values\":[1,3,3,4,0,2,0,2]},{\"values\":[4,2,2,3]}],\"total\":6}}",
    /* Missing fields are zero: no total, no maxSelf */
    "{\"flamegraph\":{\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],\"levels\":[{\"values\":[0,6,0,0]},"
    "{\"values\":[0,6,1,1]},{\"values\":[1,3,3,4,0,2,0,2]},{\"values\":[4,2,2,3]}]}}",
    /* protobuf's JSON may spell field names as in the .proto */
    "{\"flamegraph\":{\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],\"levels\":[{\"values\":[0,6,0,0]},"
    "{\"values\":[0,6,1,1]},{\"values\":[1,3,3,4,0,2,0,2]},{\"values\":[4,2,2,3]}],\"max_self\":\"3\"}}",
  };
  static const char *fixtures[] = { "render-single.json", "connect-single.json" };

  for (guint i = 0; i < G_N_ELEMENTS (docs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = parse (docs[i], &error);

      g_assert_no_error (error);
      check_single (p);
    }

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autoptr(EmbersProfile) p = load_fixture (fixtures[i]);

      check_single (p);
    }
}

/* PYROSCOPE-API.md §2, from flamegraph_diff_test.go: left {a;b 1, a;c 2},
 * right {a;b 4, a;c 8}. xL and xR decode separately (offsets 0 and 3). */
static const char diff_render[] =
  "{\"version\":1,\"flamebearer\":{\"names\":[\"total\",\"a\",\"c\",\"b\"],"
  "\"levels\":[[0,3,0,0,12,0,0],[0,3,0,0,12,0,1],[0,1,1,0,4,4,3,0,2,2,0,8,8,2]],\"numTicks\":15,\"maxSelf\":8},"
  "\"metadata\":{\"format\":\"double\",\"spyName\":\"\",\"sampleRate\":100,\"units\":\"samples\",\"name\":\"cpu\"},"
  "\"leftTicks\":3,\"rightTicks\":12}";

static void
check_diff (EmbersProfile *p)
{
  g_assert_true (embers_profile_is_diff (p));
  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 2);
  g_assert_cmpstr (embers_profile_get_sample_type (p, EMBERS_DIFF_BASELINE), ==, "baseline");
  g_assert_cmpstr (embers_profile_get_sample_type (p, EMBERS_DIFF_COMPARISON), ==, "comparison");
  g_assert_cmpstr (embers_profile_get_sample_unit (p, 0), ==, embers_profile_get_sample_unit (p, 1));
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 4);
  g_assert_cmpint (embers_profile_get_total (p, EMBERS_DIFF_BASELINE), ==, 3);
  g_assert_cmpint (embers_profile_get_total (p, EMBERS_DIFF_COMPARISON), ==, 12);
  assert_node (p, EMBERS_DIFF_BASELINE, "a", 0, 3);
  assert_node (p, EMBERS_DIFF_COMPARISON, "a", 0, 12);
  assert_node (p, EMBERS_DIFF_BASELINE, "a;b", 1, 1);
  assert_node (p, EMBERS_DIFF_COMPARISON, "a;b", 4, 4);
  assert_node (p, EMBERS_DIFF_BASELINE, "a;c", 2, 2);
  assert_node (p, EMBERS_DIFF_COMPARISON, "a;c", 8, 8);
}

static void
test_diff_vector (void)
{
  static const char *docs[] = {
    diff_render,
    /* DiffResponse wrapper, strings */
    "{\"flamegraph\":{\"names\":[\"total\",\"a\",\"c\",\"b\"],\"levels\":["
    "{\"values\":[\"0\",\"3\",\"0\",\"0\",\"12\",\"0\",\"0\"]},{\"values\":[\"0\",\"3\",\"0\",\"0\",\"12\",\"0\",\"1\"]},"
    "{\"values\":[\"0\",\"1\",\"1\",\"0\",\"4\",\"4\",\"3\",\"0\",\"2\",\"2\",\"0\",\"8\",\"8\",\"2\"]}],"
    "\"total\":\"15\",\"maxSelf\":\"8\",\"leftTicks\":\"3\",\"rightTicks\":\"12\"}}",
    /* bare FlameGraphDiff, numbers, proto field names */
    "{\"names\":[\"total\",\"a\",\"c\",\"b\"],\"levels\":[{\"values\":[0,3,0,0,12,0,0]},{\"values\":[0,3,0,0,12,0,1]},"
    "{\"values\":[0,1,1,0,4,4,3,0,2,2,0,8,8,2]}],\"total\":15,\"left_ticks\":3,\"right_ticks\":12}",
    /* no ticks, no format: 7 values in level 0 say it is a diff */
    "{\"flamegraph\":{\"names\":[\"total\",\"a\",\"c\",\"b\"],\"levels\":[{\"values\":[0,3,0,0,12,0,0]},"
    "{\"values\":[0,3,0,0,12,0,1]},{\"values\":[0,1,1,0,4,4,3,0,2,2,0,8,8,2]}]}}",
  };
  static const char *fixtures[] = { "render-diff.json", "connect-diff.json" };

  for (guint i = 0; i < G_N_ELEMENTS (docs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = parse (docs[i], &error);

      g_assert_no_error (error);
      check_diff (p);
    }

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autoptr(EmbersProfile) p = load_fixture (fixtures[i]);

      check_diff (p);
      /* render-diff.json says cpu: nanoseconds on both sides */
      if (i == 0)
        g_assert_cmpstr (embers_profile_get_sample_unit (p, 1), ==, "nanoseconds");
    }

  /* One side empty: protobuf's JSON leaves the zero out */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = parse ("{\"flamegraph\":{\"names\":[\"total\",\"a\"],\"levels\":["
                                        "{\"values\":[\"0\",\"0\",\"0\",\"0\",\"5\",\"0\",\"0\"]},"
                                        "{\"values\":[\"0\",\"0\",\"0\",\"0\",\"5\",\"5\",\"1\"]}],"
                                        "\"total\":\"5\",\"rightTicks\":\"5\"}}", &error);

    g_assert_no_error (error);
    g_assert_true (embers_profile_is_diff (p));
    g_assert_cmpint (embers_profile_get_total (p, EMBERS_DIFF_BASELINE), ==, 0);
    assert_node (p, EMBERS_DIFF_COMPARISON, "a", 5, 5);
  }

  /* Both sides empty, nothing but the root */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = parse ("{\"flamegraph\":{\"names\":[\"total\"],\"levels\":"
                                        "[{\"values\":[\"0\",\"0\",\"0\",\"0\",\"0\",\"0\",\"0\"]}]}}", &error);

    g_assert_no_error (error);
    g_assert_true (embers_profile_is_diff (p));
    g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 1);
  }
}

/* Our writer: Pyroscope's encoding, our (DFS first-seen) dictionary */
static void
test_write_vectors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) single = parse (single_render, &error);
  g_autoptr(EmbersProfile) diff = parse (diff_render, &error);
  g_autoptr(EmbersProfile) folded = embers_folded_parse ("main;a 3\nmain;b;c 2\nmain 1\n", 27, &error);
  g_autofree char *single_json = NULL;
  g_autofree char *diff_json = NULL;
  g_autofree char *folded_json = NULL;

  g_assert_no_error (error);

  single_json = write_json (single, 0);
  g_assert_cmpstr (single_json, ==,
                   "{\"version\":1,\"flamebearer\":{\"names\":[\"total\",\"main\",\"a\",\"b\",\"c\"],"
                   "\"levels\":[[0,6,0,0],[0,6,1,1],[1,3,3,2,0,2,0,3],[4,2,2,4]],\"numTicks\":6,\"maxSelf\":3},"
                   "\"metadata\":{\"format\":\"single\",\"spyName\":\"\",\"sampleRate\":100,\"units\":\"samples\",\"name\":\"cpu\"}}\n");
  assert_same_levels (single_json, single_render);

  /* b before c: children sorted by name, xL and xR deltas per side */
  diff_json = write_json (diff, 0);
  g_assert_cmpstr (diff_json, ==,
                   "{\"version\":1,\"flamebearer\":{\"names\":[\"total\",\"a\",\"b\",\"c\"],"
                   "\"levels\":[[0,3,0,0,12,0,0],[0,3,0,0,12,0,1],[0,1,1,0,4,4,2,0,2,2,0,8,8,3]],\"numTicks\":15,\"maxSelf\":8},"
                   "\"metadata\":{\"format\":\"double\",\"spyName\":\"\",\"sampleRate\":100,\"units\":\"samples\"},"
                   "\"leftTicks\":3,\"rightTicks\":12}\n");
  assert_same_levels (diff_json, diff_render);

  /* Folded samples: counts, which Pyroscope calls objects */
  folded_json = write_json (folded, 0);
  g_assert_cmpstr (folded_json, ==,
                   "{\"version\":1,\"flamebearer\":{\"names\":[\"total\",\"main\",\"a\",\"b\",\"c\"],"
                   "\"levels\":[[0,6,0,0],[0,6,1,1],[1,3,3,2,0,2,0,3],[4,2,2,4]],\"numTicks\":6,\"maxSelf\":3},"
                   "\"metadata\":{\"format\":\"single\",\"spyName\":\"\",\"sampleRate\":100,\"units\":\"objects\",\"name\":\"samples\"}}\n");
}

/* JSON -> profile -> JSON gives the same levels; our own output is a fixed
 * point, byte for byte */
static void
test_round_trip (void)
{
  static const char *fixtures[] = {
    "render-single.json", "connect-single.json", "render-diff.json", "connect-diff.json", "render-alloc.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autoptr(EmbersProfile) p = load_fixture (fixtures[i]);
      g_autofree char *json = write_json (p, 0);
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) again = parse (json, &error);
      g_autofree char *json2 = NULL;

      g_assert_no_error (error);
      json2 = write_json (again, 0);
      g_assert_cmpstr (json, ==, json2);
      g_assert_cmpuint (embers_profile_get_n_nodes (again), ==, embers_profile_get_n_nodes (p));
      g_assert_cmpstr (embers_profile_get_sample_type (again, 0), ==, embers_profile_get_sample_type (p, 0));
      g_assert_cmpstr (embers_profile_get_sample_unit (again, 0), ==, embers_profile_get_sample_unit (p, 0));

      /* The render API fixtures are in Pyroscope's own encoding */
      if (g_str_has_prefix (fixtures[i], "render-"))
        {
          g_autofree char *original = read_fixture (fixtures[i], NULL);

          assert_same_levels (json, original);
        }
    }

  /* folded -> JSON -> folded */
  {
    const char *folded = "a;b 1\na;c;d 2\nx y;z (inlined) 5\n";
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = embers_folded_parse (folded, strlen (folded), &error);
    g_autofree char *json = write_json (p, 0);
    g_autoptr(EmbersProfile) again = parse (json, &error);
    g_autoptr(GBytes) out = NULL;

    g_assert_no_error (error);
    out = embers_folded_write (again, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), folded, strlen (folded));
  }

  /* A diff made here writes the double format and reads back the same */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) l = embers_folded_parse ("a;b 1\na;c 2\n", 12, &error);
    g_autoptr(EmbersProfile) r = embers_folded_parse ("a;b 4\na;c 8\n", 12, &error);
    g_autoptr(EmbersProfile) d = embers_diff_profiles (l, 0, r, 0, &error);
    g_autofree char *json = NULL;
    g_autoptr(EmbersProfile) d2 = NULL;

    g_assert_no_error (error);
    json = write_json (d, 0);
    assert_same_levels (json, diff_render);
    d2 = parse (json, &error);
    g_assert_no_error (error);
    check_diff (d2);
  }
}

/* A real-looking render API answer: bytes, "other" nodes, escapes, a
 * timeline to skip */
static void
test_alloc_fixture (void)
{
  g_autoptr(EmbersProfile) p = load_fixture ("render-alloc.json");
  const char *serve = "runtime.main;main.main;net/http.(*Server).Serve;net/http.(*conn).serve";
  g_autofree char *handler = g_strconcat (serve, ";main.handler.func1", NULL);
  g_autofree char *marshal = g_strconcat (handler, ";encoding/json.Marshal", NULL);
  g_autofree char *other = g_strconcat (serve, ";other", NULL);

  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "inuse_space");
  g_assert_cmpstr (embers_profile_get_sample_unit (p, 0), ==, "bytes");
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 6168576);
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 17);
  assert_node (p, 0, "other", 4096, 4096);
  assert_node (p, 0, other, 12288, 12288);
  assert_node (p, 0, serve, 0, 5844992);
  assert_node (p, 0, handler, 524288, 5767168);
  assert_node (p, 0, marshal, 4194304, 4194304);
  assert_node (p, 0, "runtime.main;main.main;main.\"quoted\"\\name", 8192, 8192);
  assert_node (p, 0, "runtime.main;main.main;main.loadConfig;gopkg.in/yaml\u2024v3.Unmarshal", 262144, 262144);
  assert_node (p, 0, "runtime.gcBgMarkWorker;runtime.gcDrain", 16384, 16384);
}

/* Sample type and unit: render API metadata, Pyroscope's unit names */
static void
test_units (void)
{
  static const struct {
    const char *metadata;
    const char *type;
    const char *unit;
    const char *written;
  } cases[] = {
    { "{\"units\":\"samples\",\"sampleRate\":1000000000,\"name\":\"cpu\"}", "cpu", "nanoseconds",
      "\"sampleRate\":1000000000,\"units\":\"samples\",\"name\":\"cpu\"" },
    { "{\"units\":\"objects\",\"sampleRate\":100,\"name\":\"alloc_objects\"}", "alloc_objects", "count",
      "\"sampleRate\":100,\"units\":\"objects\",\"name\":\"alloc_objects\"" },
    { "{\"units\":\"bytes\",\"name\":\"alloc_space\"}", "alloc_space", "bytes",
      "\"sampleRate\":100,\"units\":\"bytes\",\"name\":\"alloc_space\"" },
    { "{\"units\":\"lock_nanoseconds\",\"name\":\"contentions\"}", "contentions", "lock_nanoseconds",
      "\"units\":\"lock_nanoseconds\",\"name\":\"contentions\"" },
    { "{\"name\":\"\",\"units\":null,\"format\":null,\"spyName\":\"gospy\"}", "samples", "count",
      "\"units\":\"objects\",\"name\":\"samples\"" },
    { "null", "samples", "count", "\"units\":\"objects\",\"name\":\"samples\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *doc = g_strdup_printf ("{\"flamebearer\":{\"names\":[\"total\",\"a\"],\"levels\":[[0,5,0,0],[0,5,5,1]],"
                                              "\"numTicks\":5},\"metadata\":%s}", cases[i].metadata);
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = parse (doc, &error);
      g_autofree char *json = NULL;

      g_assert_no_error (error);
      g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, cases[i].type);
      g_assert_cmpstr (embers_profile_get_sample_unit (p, 0), ==, cases[i].unit);
      json = write_json (p, 0);
      if (strstr (json, cases[i].written) == NULL)
        g_error ("case %u: %s lacks %s", i, json, cases[i].written);
    }

  /* Connect JSON carries no unit */
  {
    g_autoptr(EmbersProfile) p = load_fixture ("connect-single.json");

    g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "samples");
    g_assert_cmpstr (embers_profile_get_sample_unit (p, 0), ==, "count");
  }
}

/* Children that leave part of their parent uncovered were cut off: the
 * rest becomes "other", as Pyroscope names what max_nodes cut */
static void
test_gaps_and_odd_nodes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;

  /* main: 10 wide, self 2, one child of 5: 3 cut off */
  p = parse ("{\"names\":[\"total\",\"main\",\"a\"],\"levels\":[[0,10,0,0],[0,10,2,1],[2,5,5,2]],\"total\":10}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 10);
  assert_node (p, 0, "main", 2, 10);
  assert_node (p, 0, "main;a", 5, 5);
  assert_node (p, 0, "main;other", 3, 3);
  g_clear_object (&p);

  /* On the deepest level too, and next to a real "other" */
  p = parse ("{\"names\":[\"total\",\"other\",\"b\"],\"levels\":[[0,9,0,0],[0,4,0,1,0,5,1,2]]}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 9);
  assert_node (p, 0, "other", 0, 4);
  assert_node (p, 0, "other;other", 4, 4);
  assert_node (p, 0, "b", 1, 5);
  assert_node (p, 0, "b;other", 4, 4);
  g_clear_object (&p);

  /* Per side in a diff */
  p = parse ("{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0,6,0,0],[0,3,3,0,6,6,1]],\"leftTicks\":4,\"rightTicks\":6}", &error);
  g_assert_no_error (error);
  assert_node (p, EMBERS_DIFF_BASELINE, "other", 1, 1);
  assert_node (p, EMBERS_DIFF_COMPARISON, "other", 0, 0);
  assert_node (p, EMBERS_DIFF_COMPARISON, "a", 6, 6);
  g_clear_object (&p);

  /* Zero-width nodes carry nothing and are left out, with their children */
  p = parse ("{\"names\":[\"total\",\"zero\",\"a\",\"z2\"],\"levels\":[[0,3,0,0],[0,0,0,1,0,3,3,2],[0,0,0,3]]}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 2);
  assert_node (p, 0, "a", 3, 3);
  g_clear_object (&p);

  /* Siblings of one name (one dictionary entry or two) merge */
  p = parse ("{\"names\":[\"total\",\"a\",\"a\"],\"levels\":[[0,6,0,0],[0,2,2,1,0,3,3,2,0,1,1,1]]}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 2);
  assert_node (p, 0, "a", 6, 6);
  g_clear_object (&p);

  /* A parent's self region, then a gap between children: still fine */
  p = parse ("{\"names\":[\"total\",\"m\",\"a\",\"b\"],\"levels\":[[0,10,0,0],[0,10,1,1],[2,3,3,2,1,3,3,3]]}", &error);
  g_assert_no_error (error);
  assert_node (p, 0, "m;a", 3, 3);
  assert_node (p, 0, "m;b", 3, 3);
  assert_node (p, 0, "m;other", 3, 3);
}

/* JSON the way people and servers really write it */
static void
test_json_syntax_accepted (void)
{
  static const char *docs[] = {
    /* byte order mark, white space everywhere, unknown members of every type */
    "\xef\xbb\xbf \r\n\t{ \"x\" : [ true , false , null , -1.5e+3 , { \"y\" : [ ] } , { } , \"\\\"\" ] ,\n"
    "  \"names\" : [ \"total\" , \"main\" , \"b\" , \"c\" , \"a\" ] , \"extra\" : { \"names\" : 5 } ,\n"
    "  \"levels\" : [ { \"values\" : [ 0 , 6 , 0 , 0 ] , \"more\" : 1 } , [ 0 , 6 , 1 , 1 ] ,"
    "  [ 1 , 3 , 3 , 4 , 0 , 2 , 0 , 2 ] , { \"values\" : [ \"4\" , \"2\" , \"2\" , \"3\" ] } ] } \n",
    /* integral numbers in any JSON spelling; -0 */
    "{\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],\"levels\":[[-0,6.0,0e5,0],[0,60E-1,1,1],"
    "[1,3,3,4,0,2,0,2],[4,0.2e1,2,3]],\"numTicks\":6.0,\"maxSelf\":null}",
    /* a duplicate member: the last one counts */
    "{\"names\":[\"x\"],\"names\":[\"total\",\"main\",\"b\",\"c\",\"a\"],\"levels\":[[0,6,0,0],[0,6,1,1],"
    "[1,3,3,4,0,2,0,2],[4,2,2,3]]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (docs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = parse (docs[i], &error);

      if (error != NULL)
        g_error ("doc %u: %s", i, error->message);
      check_single (p);
    }

  /* Escapes in names; what is not a character becomes U+FFFD */
  {
    const char *doc = "{\"names\":[\"total\",\"caf\\u00e9 \\ud83d\\udd25\",\"tab\\there\\/\\\\\\\"\","
                      "\"lone \\ud800 \\udc00 \\ud800\\u0041\",\"nul \\u0000\",\"raw \xff\xfe bytes\"],"
                      "\"levels\":[[0,5,0,0],[0,1,1,1,0,1,1,2,0,1,1,3,0,1,1,4,0,1,1,5]]}";
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = parse (doc, &error);

    g_assert_no_error (error);
    g_assert_cmpint (embers_profile_get_total (p, 0), ==, 5);
    assert_node (p, 0, "café 🔥", 1, 1);
    assert_node (p, 0, "tab\there/\\\"", 1, 1);
    assert_node (p, 0, "lone \xef\xbf\xbd \xef\xbf\xbd \xef\xbf\xbd" "A", 1, 1);
    assert_node (p, 0, "nul \xef\xbf\xbd", 1, 1);
    assert_node (p, 0, "raw \xef\xbf\xbd\xef\xbf\xbd bytes", 1, 1);

    /* and the writer escapes what JSON needs escaped */
    {
      g_autofree char *json = write_json (p, 0);
      g_autoptr(EmbersProfile) again = parse (json, &error);

      g_assert_no_error (error);
      g_assert_nonnull (strstr (json, "\"tab\\there/\\\\\\\"\""));
      assert_node (again, 0, "café 🔥", 1, 1);
      assert_node (again, 0, "tab\there/\\\"", 1, 1);
    }
  }

  /* Lengths are honoured: no NUL needed */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = embers_flamebearer_parse (single_render, strlen (single_render), &error);
    g_autoptr(EmbersProfile) cut = embers_flamebearer_parse (single_render, strlen (single_render) - 1, &error);

    g_assert_nonnull (p);
    g_assert_null (cut);
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "ends too early"));
  }
}

typedef struct
{
  const char *doc;
  int         code;
  const char *fragment;
} ErrorCase;

static void
check_errors (const ErrorCase *cases,
              guint            n_cases)
{
  for (guint i = 0; i < n_cases; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = parse (cases[i].doc, &error);

      g_assert_null (p);
      if (error == NULL || error->domain != EMBERS_PROFILE_ERROR || error->code != cases[i].code)
        g_error ("case %u (%s): expected code %d, got %s", i, cases[i].doc, cases[i].code,
                 error ? error->message : "no error");
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("case %u: “%s” lacks “%s”", i, error->message, cases[i].fragment);
      g_assert_true (g_str_has_prefix (error->message, "Pyroscope JSON: "));
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
    }
}

static void
test_json_syntax_errors (void)
{
  g_autoptr(GString) deep = g_string_new ("{\"x\":");
  static const ErrorCase cases[] = {
    { "", EMBERS_PROFILE_ERROR_INVALID, "not valid JSON (line 1, column 1: there is no data)" },
    { " \n ", EMBERS_PROFILE_ERROR_INVALID, "there is no data" },
    { "not json", EMBERS_PROFILE_ERROR_INVALID, "not valid JSON (line 1, column 1: unexpected character)" },
    { "{", EMBERS_PROFILE_ERROR_INVALID, "ends too early" },
    { "{\"a\":1,}", EMBERS_PROFILE_ERROR_INVALID, "a comma before a closing bracket" },
    { "{\"a\":[1,2,]}", EMBERS_PROFILE_ERROR_INVALID, "a comma before a closing bracket" },
    { "{\"a\":[1 2]}", EMBERS_PROFILE_ERROR_INVALID, "column 9: expected “,” or “]”" },
    { "{\"a\":1 \"b\":2}", EMBERS_PROFILE_ERROR_INVALID, "expected “,” or “}”" },
    { "{'a':1}", EMBERS_PROFILE_ERROR_INVALID, "expected a member name in quotes" },
    { "{a:1}", EMBERS_PROFILE_ERROR_INVALID, "expected a member name in quotes" },
    { "{\"a\" 1}", EMBERS_PROFILE_ERROR_INVALID, "expected “:”" },
    { "{\"a\":01}", EMBERS_PROFILE_ERROR_INVALID, "expected “,” or “}”" },
    { "{\"a\":.5}", EMBERS_PROFILE_ERROR_INVALID, "expected a value" },
    { "{\"a\":1.}", EMBERS_PROFILE_ERROR_INVALID, "a digit after the decimal point" },
    { "{\"a\":1e}", EMBERS_PROFILE_ERROR_INVALID, "a digit in its exponent" },
    { "{\"a\":-}", EMBERS_PROFILE_ERROR_INVALID, "a number needs a digit" },
    { "{\"a\":+1}", EMBERS_PROFILE_ERROR_INVALID, "expected a value" },
    { "{\"a\":NaN}", EMBERS_PROFILE_ERROR_INVALID, "expected a value" },
    { "{\"a\":tru}", EMBERS_PROFILE_ERROR_INVALID, "unexpected character" },
    { "{\"a\":\"x\ty\"}", EMBERS_PROFILE_ERROR_INVALID, "a control character inside a string must be escaped" },
    { "{\"a\":\"\\x\"}", EMBERS_PROFILE_ERROR_INVALID, "an unknown escape" },
    { "{\"a\":\"\\u12\"}", EMBERS_PROFILE_ERROR_INVALID, "four hexadecimal digits" },
    { "{\"a\":\"\\u12", EMBERS_PROFILE_ERROR_INVALID, "ends inside a \\u escape" },
    { "{\"a\":\"abc}", EMBERS_PROFILE_ERROR_INVALID, "a string is not closed" },
    { "{\"a\":1} x", EMBERS_PROFILE_ERROR_INVALID, "there is more after the JSON object" },
    { "{\"a\":1}{}", EMBERS_PROFILE_ERROR_INVALID, "there is more after the JSON object" },
    { "{\n  \"names\": [\"total\",],\n}", EMBERS_PROFILE_ERROR_INVALID, "line 2, column 21" },
    { "{\"names\":[\"ü\", x]}", EMBERS_PROFILE_ERROR_INVALID, "line 1, column 16: expected a value" },
  };

  check_errors (cases, G_N_ELEMENTS (cases));

  /* Deep nesting is refused, not recursed into */
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  {
    ErrorCase deep_case = { deep->str, EMBERS_PROFILE_ERROR_INVALID, "nested too deeply" };

    check_errors (&deep_case, 1);
  }
}

/* Valid JSON of the wrong shape or type */
static void
test_wrong_types (void)
{
  static const ErrorCase cases[] = {
    { "[1,2]", EMBERS_PROFILE_ERROR_INVALID, "expected a JSON object" },
    { "\"levels\"", EMBERS_PROFILE_ERROR_INVALID, "expected a JSON object" },
    { "{}", EMBERS_PROFILE_ERROR_INVALID, "no “flamebearer”, “flamegraph” or “levels” found" },
    { "{\"hello\":1}", EMBERS_PROFILE_ERROR_INVALID, "no “flamebearer”" },
    { "{\"flamebearer\":5}", EMBERS_PROFILE_ERROR_INVALID, "“flamebearer” must be an object" },
    { "{\"flamebearer\":null}", EMBERS_PROFILE_ERROR_INVALID, "“flamebearer” must be an object" },
    { "{\"flamegraph\":3}", EMBERS_PROFILE_ERROR_INVALID, "“flamegraph” must be an object" },
    { "{\"flamebearer\":{\"names\":5,\"levels\":[]}}", EMBERS_PROFILE_ERROR_INVALID, "“names” must be an array of strings" },
    { "{\"flamebearer\":{\"names\":{},\"levels\":[]}}", EMBERS_PROFILE_ERROR_INVALID, "“names” must be an array of strings" },
    { "{\"flamebearer\":{\"names\":[\"total\",1],\"levels\":[[0,1,1,0]]}}", EMBERS_PROFILE_ERROR_INVALID, "name 1 is not a string" },
    { "{\"flamebearer\":{\"names\":[null],\"levels\":[[0,1,1,0]]}}", EMBERS_PROFILE_ERROR_INVALID, "name 0 is not a string" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":\"x\"}}", EMBERS_PROFILE_ERROR_INVALID, "“levels” must be an array" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[5]}}", EMBERS_PROFILE_ERROR_INVALID, "level 0 is not an array of integers" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,1,0],\"x\"]}", EMBERS_PROFILE_ERROR_INVALID, "level 1 is not an array of integers" },
    { "{\"names\":[\"total\"],\"levels\":[{\"values\":{}}]}", EMBERS_PROFILE_ERROR_INVALID, "level 0: “values” must be an array of integers" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,\"x\"]]}}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 3 is not a 64-bit integer" },
    { "{\"names\":[\"total\"],\"levels\":[{\"values\":[\"0\",\"12a\",\"1\",\"0\"]}]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not" },
    { "{\"names\":[\"total\"],\"levels\":[{\"values\":[\"0\",\" 1\",\"1\",\"0\"]}]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not" },
    { "{\"names\":[\"total\"],\"levels\":[{\"values\":[\"\",\"1\",\"1\",\"0\"]}]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 0 is not" },
    { "{\"names\":[\"total\"],\"levels\":[[0,true,1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not" },
    { "{\"names\":[\"total\"],\"levels\":[[0,null,1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1.5,1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not" },
    { "{\"names\":[\"total\"],\"levels\":[[0,[1],1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not" },
    { "{\"names\":[\"total\"],\"levels\":[[0,{},1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not" },
    /* huge numbers */
    { "{\"names\":[\"total\"],\"levels\":[[0,99999999999999999999,1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not a 64-bit integer" },
    { "{\"names\":[\"total\"],\"levels\":[[0,9223372036854775808,1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not a 64-bit integer" },
    { "{\"names\":[\"total\"],\"levels\":[[0,\"9223372036854775808\",1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not a 64-bit integer" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1e300,1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not a 64-bit integer" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1e16,1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, value 1 is not a 64-bit integer" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,1,0]],\"total\":\"x\"}", EMBERS_PROFILE_ERROR_INVALID, "“total” is not a 64-bit integer" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0]],\"numTicks\":[]}}", EMBERS_PROFILE_ERROR_INVALID, "“numTicks” is not a 64-bit integer" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,1,0]],\"maxSelf\":true}", EMBERS_PROFILE_ERROR_INVALID, "“maxSelf” is not a 64-bit integer" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,1,0]],\"leftTicks\":\"l\"}", EMBERS_PROFILE_ERROR_INVALID, "“leftTicks” is not a 64-bit integer" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0]]},\"metadata\":5}", EMBERS_PROFILE_ERROR_INVALID, "“metadata” must be an object" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0]]},\"metadata\":{\"format\":5}}", EMBERS_PROFILE_ERROR_INVALID, "“metadata.format” must be a string" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0]]},\"metadata\":{\"units\":[]}}", EMBERS_PROFILE_ERROR_INVALID, "“metadata.units” must be a string" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0]]},\"metadata\":{\"sampleRate\":\"fast\"}}", EMBERS_PROFILE_ERROR_INVALID, "“metadata.sampleRate” is not a 64-bit integer" },
  };

  check_errors (cases, G_N_ELEMENTS (cases));
}

/* Levels that do not make a tree */
static void
test_inconsistent_levels (void)
{
  g_autoptr(GString) deep = g_string_new ("{\"names\":[\"total\"],\"levels\":[");
  static const ErrorCase cases[] = {
    { "{\"names\":[\"total\"],\"levels\":[]}", EMBERS_PROFILE_ERROR_EMPTY, "the flame graph has no levels" },
    { "{\"flamegraph\":{\"names\":[],\"levels\":null}}", EMBERS_PROFILE_ERROR_EMPTY, "no levels" },
    { "{\"names\":[\"total\"],\"levels\":[[]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0 must hold exactly one node (the root), not 0" },
    { "{\"names\":[\"total\"],\"levels\":[{}]}", EMBERS_PROFILE_ERROR_INVALID, "level 0 must hold exactly one node" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,1,0,0,1,1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0 must hold exactly one node (the root), not 2" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,1]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0 has 3 values, which is not a multiple of 4" },
    { "{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0],[0,4,4,1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 1 has 5 values, which is not a multiple of 4" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0]]},\"metadata\":{\"format\":\"double\"}}", EMBERS_PROFILE_ERROR_INVALID, "level 0 has 4 values, which is not a multiple of 7" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,1,0,1,1,0],[0,1,1,0]],\"leftTicks\":1}", EMBERS_PROFILE_ERROR_INVALID, "level 1 has 4 values, which is not a multiple of 7" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0,1,1,0]]},\"metadata\":{\"format\":\"single\"}}", EMBERS_PROFILE_ERROR_INVALID, "not a multiple of 4" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,1,7]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, node 0 refers to name 7, but there are 1 names" },
    { "{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0],[0,1,1,1,0,3,3,2]]}", EMBERS_PROFILE_ERROR_INVALID, "level 1, node 1 refers to name 2, but there are 2 names" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,1,-1]]}", EMBERS_PROFILE_ERROR_INVALID, "refers to name -1" },
    { "{\"levels\":[[0,1,1,0]]}", EMBERS_PROFILE_ERROR_INVALID, "refers to name 0, but there are 0 names" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,2,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, node 0: self (2) exceeds total (1)" },
    { "{\"names\":[\"total\"],\"levels\":[[0,-1,0,0]]}", EMBERS_PROFILE_ERROR_INVALID, "level 0, node 0 has a negative value" },
    { "{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0],[0,2,2,1,-1,2,2,1]]}", EMBERS_PROFILE_ERROR_INVALID, "level 1, node 1 has a negative value" },
    { "{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0,4,0,0],[0,4,4,0,4,-4,1]]}", EMBERS_PROFILE_ERROR_INVALID, "level 1, node 0 has a negative value" },
    /* a child in its parent's self region (self is on the left) */
    { "{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,1,0],[0,3,3,1]]}", EMBERS_PROFILE_ERROR_INVALID,
      "level 1, node 0 ([0, 3)) does not fit inside its parent, level 0 node 0 (children from 1 to 4)" },
    /* a child past its parent's end */
    { "{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0],[1,4,4,1]]}", EMBERS_PROFILE_ERROR_INVALID,
      "level 1, node 0 ([1, 5)) does not fit inside its parent" },
    /* a parent narrower than its children (4 = 0 self + 2 + 3 does not hold) */
    { "{\"names\":[\"total\",\"a\",\"b\"],\"levels\":[[0,4,0,0],[0,2,2,1,0,3,3,2]]}", EMBERS_PROFILE_ERROR_INVALID,
      "level 1, node 1 ([2, 5)) does not fit inside its parent, level 0 node 0 (children from 0 to 4)" },
    /* a child outside every node of the level above */
    { "{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0],[5,2,2,1]]}", EMBERS_PROFILE_ERROR_INVALID,
      "level 1, node 0 (x 5) lies outside every node of level 0" },
    { "{\"names\":[\"total\",\"a\"],\"levels\":[[0,10,0,0],[0,4,0,1,2,4,4,1],[1,2,2,1,5,2,2,1]]}", EMBERS_PROFILE_ERROR_INVALID,
      "level 2, node 1 ([8, 10)) does not fit inside its parent, level 1 node 1 (children from 10 to 10)" },
    { "{\"names\":[\"total\",\"a\"],\"levels\":[[0,4,0,0],[0,4,0,1],[0,2,2,1,2,2,2,1]]}", EMBERS_PROFILE_ERROR_INVALID,
      "level 2, node 1 (x 4) lies outside every node of level 1" },
    /* a diff child inside its parent on one side only */
    { "{\"names\":[\"total\",\"a\"],\"levels\":[[0,2,0,0,2,0,0],[0,2,0,0,2,0,1],[0,2,2,1,2,2,1]]}", EMBERS_PROFILE_ERROR_INVALID,
      "level 2, node 0 ([1, 3)) does not fit inside its parent" },
    /* totals that disagree with the root */
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0]],\"numTicks\":9}}", EMBERS_PROFILE_ERROR_INVALID,
      "the total says 9 but the root of the levels is 1 wide" },
    { "{\"names\":[\"total\"],\"levels\":[{\"values\":[\"0\",\"1\",\"1\",\"0\"]}],\"total\":\"2\"}", EMBERS_PROFILE_ERROR_INVALID,
      "the total says 2" },
    { "{\"names\":[\"total\"],\"levels\":[[0,1,1,0,2,2,0]],\"total\":3,\"leftTicks\":1,\"rightTicks\":3}", EMBERS_PROFILE_ERROR_INVALID,
      "“rightTicks” says 3 but the root of the levels has 2 on that side" },
    { "{\"flamebearer\":{\"names\":[\"total\"],\"levels\":[[0,1,1,0,2,2,0]]},\"leftTicks\":5}", EMBERS_PROFILE_ERROR_INVALID,
      "“leftTicks” says 5" },
    /* offsets past 64 bits */
    { "{\"names\":[\"total\"],\"levels\":[[0,9223372036854775807,0,0],[9223372036854775807,5,5,0]]}", EMBERS_PROFILE_ERROR_INVALID,
      "level 1, node 0: offsets overflow" },
    { "{\"names\":[\"total\"],\"levels\":[[0,9223372036854775807,0,0],[0,9223372036854775807,0,0,1,1,1,0]]}", EMBERS_PROFILE_ERROR_INVALID,
      "level 1, node 1: offsets overflow" },
    /* each side fits, both together do not (found by fuzz-flamebearer) */
    { "{\"names\":[\"total\"],\"levels\":[[0,9223372036854775807,9223372036854775807,0,3,3,0]]}", EMBERS_PROFILE_ERROR_INVALID,
      "the two sides of the diff together are larger than 64 bits can hold" },
  };
  check_errors (cases, G_N_ELEMENTS (cases));

  /* Deeper than the profile can be */
  for (guint i = 0; i <= EMBERS_PROFILE_MAX_DEPTH; i++)
    g_string_append (deep, i ? ",[0,0,0,0]" : "[0,0,0,0]");
  g_string_append (deep, "]}");
  {
    ErrorCase deep_case = { deep->str, EMBERS_PROFILE_ERROR_TOO_LARGE, "levels deep; the limit is" };

    check_errors (&deep_case, 1);
  }
}

/* A diff whose sides each fit in 64 bits but not together cannot be written
 * as levels (widths are both sides): a clear error, not a wrapped total */
static void
test_write_diff_too_large (void)
{
  const char *huge = "main;a 9223372036854775800\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) left = embers_folded_parse (huge, strlen (huge), &error);
  g_autoptr(EmbersProfile) right = NULL;
  g_autoptr(EmbersProfile) diff = NULL;
  g_autoptr(GBytes) out = NULL;

  g_assert_no_error (error);
  right = embers_folded_parse (huge, strlen (huge), &error);
  g_assert_no_error (error);
  diff = embers_diff_profiles (left, 0, right, 0, &error);
  g_assert_no_error (error);

  out = embers_flamebearer_write (diff, 0, &error);
  g_assert_null (out);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "64 bits"));
}

/* The levels decoder on its own (the Pyroscope client's protobuf path):
 * errors name level and node, and do not say JSON */
static void
test_levels_api (void)
{
  const char *names[] = { "total", "main" };
  const gint64 l0[] = { 0, 6, 0, 0 };
  const gint64 l1[] = { 0, 6, 6, 7 };
  const gint64 *levels[] = { l0, l1 };
  const gsize n_values[] = { 4, 4 };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersProfile) ok = NULL;

  p = embers_levels_to_profile (names, 2, levels, n_values, 2, FALSE, "cpu", "nanoseconds", &error);
  g_assert_null (p);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "level 1, node 0 refers to name 7, but there are 2 names");
  g_clear_error (&error);

  ok = embers_levels_to_profile (names, 2, levels, n_values, 1, FALSE, "cpu", "nanoseconds", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (embers_profile_get_sample_type (ok, 0), ==, "cpu");
  g_assert_cmpstr (embers_profile_get_sample_unit (ok, 0), ==, "nanoseconds");
  /* the root's 6 went nowhere below it: "other" */
  assert_node (ok, 0, "other", 6, 6);
}

/* A levels array of a million nodes reads in linear time */
static void
test_large (void)
{
  g_autoptr(GString) s = g_string_new ("{\"names\":[\"total\"");
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;
  g_autofree char *json = NULL;
  gint64 start;
  double seconds;

  /* root, 1000 children of width 2000, 1000 leaves of width 2 under each */
  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (s, ",\"fn%04u\"", i);
  g_string_append (s, "],\"levels\":[{\"values\":[\"0\",\"2000000\",\"0\",\"0\"]},{\"values\":[");
  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (s, "%s\"0\",\"2000\",\"0\",\"%u\"", i ? "," : "", i + 1);
  g_string_append (s, "]},{\"values\":[");
  for (guint i = 0; i < 1000000; i++)
    g_string_append_printf (s, "%s\"0\",\"2\",\"2\",\"%u\"", i ? "," : "", i % 1000 + 1);
  g_string_append (s, "]}],\"total\":\"2000000\",\"maxSelf\":\"2\"}");

  start = g_get_monotonic_time ();
  p = embers_flamebearer_parse (s->str, s->len, &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_assert_no_error (error);
  g_test_message ("%zu bytes, %u nodes read in %.3f s", s->len, embers_profile_get_n_nodes (p), seconds);
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 1 + 1000 + 1000000);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 2000000);
  assert_node (p, 0, "fn0999;fn0999", 2, 2);
  /* Generous for a shared machine; a quadratic pass would take hours */
  g_assert_cmpfloat (seconds, <, 10.0);

  start = g_get_monotonic_time ();
  json = write_json (p, 0);
  g_test_message ("written in %.3f s (%zu bytes)", (g_get_monotonic_time () - start) / 1e6, strlen (json));
  g_assert_true (g_str_has_prefix (json, "{\"version\":1,\"flamebearer\":{\"names\":[\"total\",\"fn0000\","));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/flamebearer/single-vector", test_single_vector);
  g_test_add_func ("/embers/flamebearer/diff-vector", test_diff_vector);
  g_test_add_func ("/embers/flamebearer/write-vectors", test_write_vectors);
  g_test_add_func ("/embers/flamebearer/round-trip", test_round_trip);
  g_test_add_func ("/embers/flamebearer/alloc-fixture", test_alloc_fixture);
  g_test_add_func ("/embers/flamebearer/units", test_units);
  g_test_add_func ("/embers/flamebearer/gaps-and-odd-nodes", test_gaps_and_odd_nodes);
  g_test_add_func ("/embers/flamebearer/json-syntax-accepted", test_json_syntax_accepted);
  g_test_add_func ("/embers/flamebearer/json-syntax-errors", test_json_syntax_errors);
  g_test_add_func ("/embers/flamebearer/wrong-types", test_wrong_types);
  g_test_add_func ("/embers/flamebearer/inconsistent-levels", test_inconsistent_levels);
  g_test_add_func ("/embers/flamebearer/levels-api", test_levels_api);
  g_test_add_func ("/embers/flamebearer/write-diff-too-large", test_write_diff_too_large);
  g_test_add_func ("/embers/flamebearer/large", test_large);

  return g_test_run ();
}
