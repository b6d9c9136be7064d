/* test-function-details.c: a function's lines, callers and callees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The expected figures are go tool pprof's (go 1.24), on the committed
 * profiles of tests/fixtures/go written by tests/go/main.go:
 *   go tool pprof -top -lines -nodecount=100000 -nodefraction=0 -sample_index=N FILE
 * (flat and cum of each "function file:line" node, which is what
 * `go tool pprof -list` prints per line) and
 *   go tool pprof -peek '^FUNCTION$' -nodefraction=0 -edgefraction=0 -sample_index=N FILE
 * (the callers above and the callees below the function). A live check
 * against a fresh profile is tests/oracle/live-details-oracle.sh.
 */

#include "config.h"

#include "embers-function-details.h"
#include "embers-input.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"
#include "embers-transform-stack.h"
#include "profile.pb-c.h"

#define GO_FILE "/work/main/tests/go/main.go"

static GBytes *
fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  EmbersFormat format = EMBERS_FORMAT_UNKNOWN;
  GBytes *bytes;

  bytes = embers_input_read_file (file, NULL, &format, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (format, ==, EMBERS_FORMAT_PPROF);
  return bytes;
}

static EmbersFunctionDetails *
details (GBytes     *bytes,
         const char *name,
         guint       sample_type)
{
  g_autoptr(GError) error = NULL;
  EmbersFunctionDetails *d;

  d = embers_function_details_new_from_pprof (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                              name, sample_type, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (d);
  return d;
}

typedef struct
{
  gint64 line, self, total;
} Expected;

static void
assert_lines (EmbersFunctionDetails *d,
              const Expected        *expected,
              guint                  n)
{
  g_assert_cmpuint (d->lines->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      const EmbersLineCost *l = &g_array_index (d->lines, EmbersLineCost, i);

      g_assert_cmpint (l->line, ==, expected[i].line);
      g_assert_cmpint (l->self, ==, expected[i].self);
      g_assert_cmpint (l->total, ==, expected[i].total);
      g_assert_true (embers_function_details_get_line (d, expected[i].line) == l);
    }
  g_assert_null (embers_function_details_get_line (d, 1));
}

static void
assert_edge (GArray     *edges,
             guint       index,
             const char *name,
             gint64      value)
{
  const EmbersFunctionEdge *e;

  g_assert_cmpuint (index, <, edges->len);
  e = &g_array_index (edges, EmbersFunctionEdge, index);
  g_assert_cmpstr (e->name, ==, name);
  g_assert_cmpint (e->value, ==, value);
}

static void
test_recursion (void)
{
  g_autoptr(GBytes) bytes = fixture ("cpu-recursion.pb.gz");
  g_autoptr(EmbersFunctionDetails) fib = details (bytes, "main.fib", 0);
  g_autoptr(EmbersFunctionDetails) walk = NULL, even = NULL;
  /* main.fib main.go:241 38 38, :243 70 70, :245 42 150 */
  const Expected fib_lines[] = { { 241, 38, 38 }, { 243, 70, 70 }, { 245, 42, 150 } };
  /* samples are 10 ms of cpu nanoseconds */
  const gint64 ms = 10000000;
  const Expected walk_lines[] = {
    { 272, 3 * ms, 3 * ms }, { 273, 14 * ms, 14 * ms }, { 276, 0, 96 * ms }, { 278, 0, 113 * ms },
  };
  const Expected even_lines[] = { { 250, 9 * ms, 9 * ms }, { 251, 13 * ms, 13 * ms }, { 256, 0, 34 * ms } };

  g_assert_cmpstr (fib->name, ==, "main.fib");
  g_assert_cmpstr (fib->file, ==, GO_FILE);
  g_assert_true (fib->has_lines);
  g_assert_cmpint (fib->self, ==, 150);
  g_assert_cmpint (fib->total, ==, 150);
  g_assert_cmpint (fib->profile_total, ==, 300);
  assert_lines (fib, fib_lines, G_N_ELEMENTS (fib_lines));
  g_assert_cmpint (embers_function_details_get_hottest_line (fib)->line, ==, 245);
  /* A function calling itself is no edge, as in pprof */
  g_assert_cmpuint (fib->callers->len, ==, 1);
  assert_edge (fib->callers, 0, "main.writeCPURecursion.func1.1", 150);
  g_assert_cmpuint (fib->callees->len, ==, 0);
  /* go 1.19 wrote no start lines */
  g_assert_cmpint (fib->start_line, ==, 0);

  /* The second sample type, cpu nanoseconds */
  walk = details (bytes, "main.walkTree", 1);
  g_assert_cmpint (walk->self, ==, 17 * ms);
  g_assert_cmpint (walk->total, ==, 113 * ms);
  assert_lines (walk, walk_lines, G_N_ELEMENTS (walk_lines));
  g_assert_cmpuint (walk->callers->len, ==, 1);
  assert_edge (walk->callers, 0, "main.writeCPURecursion.func2", 113 * ms);
  g_assert_cmpuint (walk->callees->len, ==, 1);
  assert_edge (walk->callees, 0, "main.burn", 96 * ms);

  /* Mutual recursion: isEven and isOdd are edges both ways */
  even = details (bytes, "main.isEven", 1);
  g_assert_cmpint (even->self, ==, 22 * ms);
  g_assert_cmpint (even->total, ==, 37 * ms);
  assert_lines (even, even_lines, G_N_ELEMENTS (even_lines));
  g_assert_cmpuint (even->callers->len, ==, 2);
  assert_edge (even->callers, 0, "main.writeCPURecursion.func2", 37 * ms);
  assert_edge (even->callers, 1, "main.isOdd", 32 * ms);
  g_assert_cmpuint (even->callees->len, ==, 1);
  assert_edge (even->callees, 0, "main.isOdd", 34 * ms);
}

static void
test_inlined (void)
{
  g_autoptr(GBytes) bytes = fixture ("cpu-inlined.pb.gz");
  g_autoptr(EmbersFunctionDetails) fin = details (bytes, "main.finalize", 0);
  g_autoptr(EmbersFunctionDetails) mix = details (bytes, "main.mix", 0);
  /* Inlined frames keep their own lines */
  const Expected fin_lines[] = { { 184, 28, 28 }, { 185, 13, 14 }, { 186, 45, 45 }, { 187, 13, 50 } };
  const Expected mix_lines[] = { { 179, 13, 23 }, { 180, 77, 107 } };

  g_assert_cmpint (fin->self, ==, 99);
  g_assert_cmpint (fin->total, ==, 137);
  assert_lines (fin, fin_lines, G_N_ELEMENTS (fin_lines));
  g_assert_cmpint (embers_function_details_get_hottest_line (fin)->line, ==, 187);
  g_assert_cmpuint (fin->callers->len, ==, 1);
  assert_edge (fin->callers, 0, "main.hashStream", 137);
  g_assert_cmpuint (fin->callees->len, ==, 2);
  assert_edge (fin->callees, 0, "main.mix", 37);
  assert_edge (fin->callees, 1, "runtime.asyncPreempt", 1);

  g_assert_cmpstr (mix->file, ==, GO_FILE);
  assert_lines (mix, mix_lines, G_N_ELEMENTS (mix_lines));
}

static void
test_missing_function (void)
{
  g_autoptr(GBytes) bytes = fixture ("cpu-inlined.pb.gz");
  g_autoptr(EmbersFunctionDetails) d = details (bytes, "no.such.function", 0);

  g_assert_cmpint (d->self, ==, 0);
  g_assert_cmpint (d->total, ==, 0);
  g_assert_cmpint (d->profile_total, ==, 299);
  g_assert_cmpuint (d->lines->len, ==, 0);
  g_assert_null (embers_function_details_get_hottest_line (d));
  g_assert_cmpstr (d->file, ==, "");
}

/* The tree gives the same totals, callers and callees, without lines */
static void
test_from_profile_agrees (void)
{
  g_autoptr(GBytes) bytes = fixture ("cpu-recursion.pb.gz");
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  const char *names[] = { "main.fib", "main.walkTree", "main.isEven", "main.isOdd", "main.burn", "main.main" };

  profile = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  for (guint type = 0; type < 2; type++)
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autoptr(EmbersFunctionDetails) a = details (bytes, names[i], type);
        g_autoptr(EmbersFunctionDetails) b = embers_function_details_new_from_profile (profile, names[i], type);

        g_assert_false (b->has_lines);
        g_assert_cmpuint (b->lines->len, ==, 0);
        g_assert_cmpstr (b->file, ==, a->file);
        g_assert_cmpint (b->self, ==, a->self);
        g_assert_cmpint (b->total, ==, a->total);
        g_assert_cmpint (b->profile_total, ==, a->profile_total);
        g_assert_cmpuint (b->callers->len, ==, a->callers->len);
        for (guint k = 0; k < a->callers->len; k++)
          assert_edge (b->callers, k, g_array_index (a->callers, EmbersFunctionEdge, k).name,
                       g_array_index (a->callers, EmbersFunctionEdge, k).value);
        g_assert_cmpuint (b->callees->len, ==, a->callees->len);
        for (guint k = 0; k < a->callees->len; k++)
          assert_edge (b->callees, k, g_array_index (a->callees, EmbersFunctionEdge, k).name,
                       g_array_index (a->callees, EmbersFunctionEdge, k).value);
      }
}

/* Recursion through other functions in a tree: each stack counts once */
static void
test_from_profile_recursion (void)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersFunctionDetails) d = NULL;
  g_autoptr(GError) error = NULL;
  const char *stacks[] = { "main;a;f;a;f;g", "main;f;h", "main;a;f" };
  const gint64 values[] = { 5, 3, 2 };

  embers_profile_builder_add_sample_type (b, "samples", "count");
  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    {
      g_auto(GStrv) frames = g_strsplit (stacks[i], ";", -1);
      guint depth = g_strv_length (frames);
      g_autofree guint32 *ids = g_new (guint32, depth);

      for (guint k = 0; k < depth; k++)
        ids[k] = embers_profile_builder_intern (b, frames[k], -1);
      embers_profile_builder_add_stack (b, ids, depth, &values[i], 0);
    }
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);

  /* The same through pprof without lines (as a server without symbols
   * answers): the figures, and no line */
  {
    g_autoptr(GBytes) pprof = embers_pprof_write (p, &error);
    g_autoptr(EmbersFunctionDetails) w = NULL;

    g_assert_no_error (error);
    w = details (pprof, "f", 0);
    g_assert_false (w->has_lines);
    g_assert_cmpuint (w->lines->len, ==, 0);
    g_assert_cmpint (w->self, ==, 2);
    g_assert_cmpint (w->total, ==, 10);
    g_assert_cmpuint (w->callers->len, ==, 2);
    assert_edge (w->callers, 0, "a", 7);
    g_assert_cmpuint (w->callees->len, ==, 3);
    assert_edge (w->callees, 2, "h", 3);
  }

  d = embers_function_details_new_from_profile (p, "f", 0);
  g_assert_cmpint (d->self, ==, 2);
  g_assert_cmpint (d->total, ==, 10);
  g_assert_cmpuint (d->callers->len, ==, 2);
  assert_edge (d->callers, 0, "a", 7);
  assert_edge (d->callers, 1, "main", 3);
  g_assert_cmpuint (d->callees->len, ==, 3);
  assert_edge (d->callees, 0, "a", 5);
  assert_edge (d->callees, 1, "g", 5);
  assert_edge (d->callees, 2, "h", 3);
}

/* Truncated and corrupt data: an error, never a crash */
static void
test_corrupt (void)
{
  g_autoptr(GBytes) bytes = fixture ("cpu-inlined.pb.gz");
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  g_autofree guint8 *copy = g_memdup2 (data, len);
  guint n_errors = 0;

  for (gsize cut = 1; cut < len; cut += len / 97 + 1)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersFunctionDetails) d = NULL;

      d = embers_function_details_new_from_pprof (data, cut, "main.finalize", 0, NULL, &error);
      g_assert_true ((d == NULL) == (error != NULL));
      n_errors += error != NULL;
    }
  g_assert_cmpuint (n_errors, >, 0);

  /* Bytes flipped all over */
  for (gsize i = 0; i < len; i += 7)
    copy[i] ^= 0x5a;
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersFunctionDetails) d = NULL;

    d = embers_function_details_new_from_pprof (copy, len, "main.finalize", 0, NULL, &error);
    g_assert_true ((d == NULL) == (error != NULL));
  }
}

/* Values that add up past 64 bits: an error, not a wrapped sum */
static void
test_overflow (void)
{
  Google__V1__Profile profile = GOOGLE__V1__PROFILE__INIT;
  Google__V1__ValueType vt = GOOGLE__V1__VALUE_TYPE__INIT;
  Google__V1__ValueType *vts[] = { &vt };
  Google__V1__Function fn = GOOGLE__V1__FUNCTION__INIT;
  Google__V1__Function *fns[] = { &fn };
  Google__V1__Line line = GOOGLE__V1__LINE__INIT;
  Google__V1__Line *lines[] = { &line };
  Google__V1__Location loc = GOOGLE__V1__LOCATION__INIT;
  Google__V1__Location *locs[] = { &loc };
  Google__V1__Sample s1 = GOOGLE__V1__SAMPLE__INIT, s2 = GOOGLE__V1__SAMPLE__INIT;
  Google__V1__Sample *samples[] = { &s1, &s2 };
  uint64_t ids[] = { 1 };
  int64_t big[] = { G_MAXINT64 };
  char *strings[] = { (char *) "", (char *) "cpu", (char *) "count", (char *) "f", (char *) "f.go" };
  g_autofree guint8 *buf = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersFunctionDetails) d = NULL;
  gsize len;

  vt.type = 1;
  vt.unit = 2;
  fn.id = 1;
  fn.name = 3;
  fn.filename = 4;
  line.function_id = 1;
  line.line = 7;
  loc.id = 1;
  loc.n_line = 1;
  loc.line = lines;
  s1.n_location_id = s2.n_location_id = 1;
  s1.location_id = s2.location_id = ids;
  s1.n_value = s2.n_value = 1;
  s1.value = s2.value = big;
  profile.n_sample_type = 1;
  profile.sample_type = vts;
  profile.n_function = 1;
  profile.function = fns;
  profile.n_location = 1;
  profile.location = locs;
  profile.n_string_table = G_N_ELEMENTS (strings);
  profile.string_table = strings;

  /* One sample: fine */
  profile.n_sample = 1;
  profile.sample = samples;
  len = google__v1__profile__get_packed_size (&profile);
  buf = g_malloc (len);
  google__v1__profile__pack (&profile, buf);
  d = embers_function_details_new_from_pprof (buf, len, "f", 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (d->total, ==, G_MAXINT64);
  g_assert_cmpint (embers_function_details_get_line (d, 7)->self, ==, G_MAXINT64);
  g_clear_pointer (&d, embers_function_details_unref);
  g_clear_pointer (&buf, g_free);

  /* Two: past 64 bits */
  profile.n_sample = 2;
  len = google__v1__profile__get_packed_size (&profile);
  buf = g_malloc (len);
  google__v1__profile__pack (&profile, buf);
  d = embers_function_details_new_from_pprof (buf, len, "f", 0, NULL, &error);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
  g_assert_null (d);
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  EmbersFunctionDetails **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = embers_function_details_load_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_compute_async (void)
{
  g_autoptr(GBytes) bytes = fixture ("cpu-recursion.pb.gz");
  g_autoptr(EmbersFunctionDetails) d = NULL;

  embers_function_details_compute_async (bytes, "main.fib", 0, NULL, on_loaded, &d);
  while (d == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (d->total, ==, 150);
  g_assert_cmpuint (d->lines->len, ==, 3);
}

static void
test_load_async (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-inlined.pb.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(EmbersFunctionDetails) d = NULL;

  embers_function_details_load_async (file, "main.finalize", 0, NULL, on_loaded, &d);
  while (d == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (d->total, ==, 137);
}

/* ---- Over a view (a transform stack) ---- */

static gint64
edge_value (GArray     *edges,
            const char *name)
{
  for (guint i = 0; i < edges->len; i++)
    if (g_str_equal (g_array_index (edges, EmbersFunctionEdge, i).name, name))
      return g_array_index (edges, EmbersFunctionEdge, i).value;
  return -1;
}

static void
assert_same_edges (GArray *a,
                   GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const EmbersFunctionEdge *e = &g_array_index (a, EmbersFunctionEdge, i);

      g_assert_cmpint (edge_value (b, e->name), ==, e->value);
    }
}

static EmbersFunctionDetails *
view_details (GBytes                     *bytes,
              const char                 *name,
              guint                       type,
              const EmbersTransformStack *view)
{
  g_autoptr(GError) error = NULL;
  EmbersFunctionDetails *d;

  d = embers_function_details_new_from_pprof_view (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                                   name, type, view, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (d);
  return d;
}

/* The figures over a view are those of the tree the same stack makes
 * (embers_transform_stack_apply, tested in test-transforms against the
 * Firefox Profiler's semantics): self, total, the view's total, callers,
 * callees; and the lines add up to them */
static void
test_view_agrees (void)
{
  g_autoptr(GBytes) bytes = fixture ("cpu-recursion.pb.gz");
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  const char *names[] = { "main.fib", "main.walkTree", "main.isEven", "main.isOdd", "main.burn", "main.main", "main", NULL };
  const char *path[3] = { NULL, NULL, NULL };
  struct { EmbersTransformKind kind; const char *args[3]; gboolean path; gboolean exact; } steps[] = {
    { EMBERS_TRANSFORM_DROP_FUNCTION, { "main.isOdd" }, FALSE, TRUE },
    { EMBERS_TRANSFORM_DROP_FUNCTION, { "main.burn" }, FALSE, TRUE },
    { EMBERS_TRANSFORM_FOCUS_FUNCTION, { "main.isEven" }, FALSE, TRUE },
    { EMBERS_TRANSFORM_FOCUS_FUNCTION, { "main.walkTree" }, FALSE, TRUE },
    { EMBERS_TRANSFORM_MERGE_FUNCTION, { "main.isOdd" }, FALSE, TRUE },
    { EMBERS_TRANSFORM_FOCUS_SUBTREE, { NULL }, TRUE, TRUE },
    { EMBERS_TRANSFORM_HIDE, { NULL }, TRUE, TRUE },
    { EMBERS_TRANSFORM_COLLAPSE_RECURSION, { NULL }, FALSE, FALSE },
    { EMBERS_TRANSFORM_COLLAPSE_RECURSION, { "main.isEven" }, FALSE, FALSE },
    { EMBERS_TRANSFORM_COLLAPSE_PACKAGE, { "main" }, FALSE, FALSE },
    { EMBERS_TRANSFORM_FOCUS_FUNCTION, { "no.such.function" }, FALSE, TRUE },
  };

  profile = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  /* A real call node two deep: the heaviest path's first two frames */
  path[0] = embers_profile_node_name_str (profile, 1);
  path[1] = embers_profile_node_name_str (profile, 2);
  g_assert_cmpuint (embers_profile_node_parent (profile, 2), ==, 1);

  /* Each step alone, then two together */
  for (guint k = 0; k <= G_N_ELEMENTS (steps); k++)
    {
      g_autoptr(EmbersTransformStack) stack = embers_transform_stack_new ();
      g_autoptr(EmbersProfile) shown = NULL;
      gboolean exact = TRUE;

      if (k < G_N_ELEMENTS (steps))
        {
          g_assert_true (embers_transform_stack_push (stack, steps[k].kind,
                                                      steps[k].path ? path : (steps[k].args[0] != NULL ? steps[k].args : NULL),
                                                      NULL));
          exact = steps[k].exact;
        }
      else
        {
          g_assert_true (embers_transform_stack_push (stack, EMBERS_TRANSFORM_FOCUS_FUNCTION,
                                                      (const char *[]) { "main.writeCPURecursion.func2", NULL }, NULL));
          g_assert_true (embers_transform_stack_push (stack, EMBERS_TRANSFORM_DROP_FUNCTION,
                                                      (const char *[]) { "main.isOdd", NULL }, NULL));
        }
      shown = embers_transform_stack_apply (stack, profile, NULL, &error);
      g_assert_no_error (error);

      for (guint type = 0; type < 2; type++)
        for (guint i = 0; names[i] != NULL; i++)
          {
            g_autoptr(EmbersFunctionDetails) v = view_details (bytes, names[i], type, stack);
            g_autoptr(EmbersFunctionDetails) t = embers_function_details_new_from_profile (shown, names[i], type);
            gint64 self_sum = 0;

            g_test_message ("step %u, %s, type %u", k, names[i], type);
            g_assert_cmpint (v->profile_total, ==, embers_profile_get_total (shown, type));
            g_assert_cmpint (v->self, ==, t->self);
            g_assert_cmpint (v->total, ==, t->total);
            assert_same_edges (v->callers, t->callers);
            assert_same_edges (v->callees, t->callees);
            if (exact)
              g_assert_false (v->lines_inexact);

            for (guint l = 0; l < v->lines->len; l++)
              {
                const EmbersLineCost *line = &g_array_index (v->lines, EmbersLineCost, l);

                self_sum += line->self;
                g_assert_cmpint (line->total, <=, v->total);
                g_assert_cmpint (line->self, <=, line->total);
              }
            g_assert_cmpint (self_sum, <=, v->self);
            if (exact && v->has_lines)
              g_assert_cmpint (self_sum, ==, v->self);
          }
    }
}

/* Drop and focus: lines counted only over the samples the view keeps */
static void
test_view_lines (void)
{
  g_autoptr(GBytes) bytes = fixture ("cpu-recursion.pb.gz");
  g_autoptr(EmbersTransformStack) focus = embers_transform_stack_new ();
  g_autoptr(EmbersTransformStack) drop = embers_transform_stack_new ();
  g_autoptr(EmbersTransformStack) collapse = embers_transform_stack_new ();
  g_autoptr(EmbersFunctionDetails) even = details (bytes, "main.isEven", 1);
  g_autoptr(EmbersFunctionDetails) focused = NULL, dropped = NULL, outside = NULL, walk = NULL, collapsed = NULL;
  const gint64 ms = 10000000;

  /* Focus on a function keeps its own lines whole: every sample that has
   * it is kept, and all its frames are at or below the outermost */
  embers_transform_stack_push (focus, EMBERS_TRANSFORM_FOCUS_FUNCTION, (const char *[]) { "main.isEven", NULL }, NULL);
  focused = view_details (bytes, "main.isEven", 1, focus);
  g_assert_cmpuint (focused->lines->len, ==, even->lines->len);
  for (guint i = 0; i < even->lines->len; i++)
    {
      const EmbersLineCost *a = &g_array_index (even->lines, EmbersLineCost, i);
      const EmbersLineCost *b = &g_array_index (focused->lines, EmbersLineCost, i);

      g_assert_cmpint (a->line, ==, b->line);
      g_assert_cmpint (a->self, ==, b->self);
      g_assert_cmpint (a->total, ==, b->total);
    }
  /* ... and the view's total is the function's */
  g_assert_cmpint (focused->profile_total, ==, 37 * ms);
  /* A function outside it has no samples left */
  outside = view_details (bytes, "main.walkTree", 1, focus);
  g_assert_cmpint (outside->total, ==, 0);
  g_assert_cmpuint (outside->lines->len, ==, 0);

  /* Dropping what walkTree calls leaves only walkTree's own lines */
  embers_transform_stack_push (drop, EMBERS_TRANSFORM_DROP_FUNCTION, (const char *[]) { "main.burn", NULL }, NULL);
  walk = view_details (bytes, "main.walkTree", 1, drop);
  g_assert_cmpint (walk->self, ==, 17 * ms);
  g_assert_cmpint (walk->total, ==, 17 * ms);
  /* 272 and 273 whole, 276 (the call to burn) gone, 278 (its recursive
   * call) only over what is left: at most its self time */
  g_assert_cmpint (embers_function_details_get_line (walk, 272)->total, ==, 3 * ms);
  g_assert_cmpint (embers_function_details_get_line (walk, 273)->total, ==, 14 * ms);
  g_assert_null (embers_function_details_get_line (walk, 276));
  g_assert_cmpint (embers_function_details_get_line (walk, 278)->total, <=, 17 * ms);
  g_assert_cmpint (embers_function_details_get_line (walk, 278)->self, ==, 0);
  g_assert_false (walk->lines_inexact);
  dropped = view_details (bytes, "main.burn", 1, drop);
  g_assert_cmpint (dropped->total, ==, 0);

  /* Collapsing the function's own recursion: said to be approximate */
  embers_transform_stack_push (collapse, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL, NULL);
  collapsed = view_details (bytes, "main.fib", 0, collapse);
  g_assert_true (collapsed->lines_inexact);
  g_assert_cmpint (collapsed->total, ==, 150);

  /* Only dropping samples keeps a server's call sites */
  g_assert_true (embers_function_details_view_keeps_call_sites (NULL));
  g_assert_true (embers_function_details_view_keeps_call_sites (drop));
  g_assert_false (embers_function_details_view_keeps_call_sites (focus));
  g_assert_false (embers_function_details_view_keeps_call_sites (collapse));
}

/* A caller or callee chosen from a frame: its parent or child, else the
 * function's heaviest frame */
static void
test_pick_node (void)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(GError) error = NULL;
  const char *stacks[] = { "main;a;f;g", "main;b;f;h", "main;b;f;g", "main;g" };
  const gint64 values[] = { 1, 5, 2, 9 };
  guint32 f_under_a = EMBERS_NODE_NONE, f_under_b = EMBERS_NODE_NONE;

  embers_profile_builder_add_sample_type (b, "samples", "count");
  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    {
      g_auto(GStrv) frames = g_strsplit (stacks[i], ";", -1);
      guint depth = g_strv_length (frames);
      g_autofree guint32 *ids = g_new (guint32, depth);

      for (guint k = 0; k < depth; k++)
        ids[k] = embers_profile_builder_intern (b, frames[k], -1);
      embers_profile_builder_add_stack (b, ids, depth, &values[i], 0);
    }
  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);

  for (guint32 n = 1; n < embers_profile_get_n_nodes (p); n++)
    if (g_str_equal (embers_profile_node_name_str (p, n), "f"))
      {
        const char *parent = embers_profile_node_name_str (p, embers_profile_node_parent (p, n));

        if (g_str_equal (parent, "a"))
          f_under_a = n;
        else
          f_under_b = n;
      }
  g_assert_cmpuint (f_under_a, !=, EMBERS_NODE_NONE);

  /* From f under a: its caller a, its callee g (the one under a) */
  g_assert_cmpuint (embers_function_details_pick_node (p, f_under_a, "a", 0), ==, embers_profile_node_parent (p, f_under_a));
  g_assert_cmpuint (embers_profile_node_parent (p, embers_function_details_pick_node (p, f_under_a, "g", 0)), ==, f_under_a);
  /* A callee f under a lacks: the heaviest h anywhere */
  g_assert_cmpuint (embers_profile_node_parent (p, embers_function_details_pick_node (p, f_under_a, "h", 0)), ==, f_under_b);
  /* With no frame: the heaviest g (main;g, 9) */
  {
    guint32 g = embers_function_details_pick_node (p, EMBERS_NODE_NONE, "g", 0);

    g_assert_cmpstr (embers_profile_node_name_str (p, embers_profile_node_parent (p, g)), ==, "main");
  }
  g_assert_cmpuint (embers_function_details_pick_node (p, f_under_a, "nothing", 0), ==, EMBERS_NODE_NONE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/function-details/recursion", test_recursion);
  g_test_add_func ("/embers/function-details/inlined", test_inlined);
  g_test_add_func ("/embers/function-details/missing-function", test_missing_function);
  g_test_add_func ("/embers/function-details/from-profile-agrees", test_from_profile_agrees);
  g_test_add_func ("/embers/function-details/from-profile-recursion", test_from_profile_recursion);
  g_test_add_func ("/embers/function-details/corrupt", test_corrupt);
  g_test_add_func ("/embers/function-details/overflow", test_overflow);
  g_test_add_func ("/embers/function-details/load-async", test_load_async);
  g_test_add_func ("/embers/function-details/compute-async", test_compute_async);
  g_test_add_func ("/embers/function-details/view-agrees", test_view_agrees);
  g_test_add_func ("/embers/function-details/view-lines", test_view_lines);
  g_test_add_func ("/embers/function-details/pick-node", test_pick_node);

  return g_test_run ();
}
