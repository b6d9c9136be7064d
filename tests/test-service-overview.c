/* test-service-overview.c: every service at a glance, from two answers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "embers-query-model.h"
#include "embers-search.h"
#include "embers-service-overview.h"

#define CPU   "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define ALLOC "memory:alloc_space:bytes:space:bytes"
#define WALL  "wall:wall:nanoseconds:wall:nanoseconds"

static EmbersSeries *
label_series (const char *service,
              const char *type)
{
  EmbersSeries *s = embers_series_new ();
  const char *names[] = { EMBERS_SERVICE_LABEL, EMBERS_PROFILE_TYPE_LABEL, NULL };
  const char *values[] = { service, type, NULL };

  /* A new series has empty label lists of its own */
  g_strfreev (s->label_names);
  g_strfreev (s->label_values);
  s->label_names = g_strdupv ((GStrv)names);
  s->label_values = g_strdupv ((GStrv)values);
  return s;
}

static EmbersSeries *
points (const char   *service,
        guint         n,
        const gint64 *t,
        const double *v)
{
  EmbersSeries *s = embers_series_new ();
  const char *names[] = { EMBERS_SERVICE_LABEL, NULL };
  const char *values[] = { service, NULL };

  /* A new series has empty label lists of its own */
  g_strfreev (s->label_names);
  g_strfreev (s->label_values);
  s->label_names = g_strdupv ((GStrv)names);
  s->label_values = g_strdupv ((GStrv)values);
  s->n_points = n;
  s->timestamps = g_memdup2 (t, sizeof (gint64) * n);
  s->values = g_memdup2 (v, sizeof (double) * n);
  return s;
}

/* api: cpu + alloc; web: cpu; batch: wall only; api-10 and api-2: cpu */
static GHashTable *
make_types (void)
{
  g_autoptr(GPtrArray) answer = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);

  g_ptr_array_add (answer, label_series ("api", CPU));
  g_ptr_array_add (answer, label_series ("api", ALLOC));
  g_ptr_array_add (answer, label_series ("web", CPU));
  g_ptr_array_add (answer, label_series ("batch", WALL));
  g_ptr_array_add (answer, label_series ("api-10", CPU));
  g_ptr_array_add (answer, label_series ("api-2", CPU));
  /* Series without a service name (another label set) are not services */
  g_ptr_array_add (answer, label_series ("", CPU));
  return embers_service_overview_types (answer);
}

static EmbersServiceRow *
row_named (GPtrArray  *rows,
           const char *name)
{
  for (guint i = 0; i < rows->len; i++)
    {
      EmbersServiceRow *row = g_ptr_array_index (rows, i);

      if (g_str_equal (row->name, name))
        return row;
    }
  return NULL;
}

static void
test_types (void)
{
  g_autoptr(GHashTable) types = make_types ();
  g_auto(GStrv) all = embers_service_overview_all_types (types);
  GStrv api;

  g_assert_cmpuint (g_hash_table_size (types), ==, 5);
  api = g_hash_table_lookup (types, "api");
  g_assert_cmpuint (g_strv_length (api), ==, 2);
  g_assert_cmpstr (api[0], ==, ALLOC);
  g_assert_cmpstr (api[1], ==, CPU);
  g_assert_cmpuint (g_strv_length (all), ==, 3);
  g_assert_cmpstr (all[0], ==, ALLOC);
  g_assert_cmpstr (all[1], ==, CPU);
  g_assert_cmpstr (all[2], ==, WALL);
}

static void
test_default_type (void)
{
  g_autoptr(GHashTable) types = make_types ();
  g_autoptr(GHashTable) no_cpu = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_strfreev);
  g_autoptr(GHashTable) none = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *a = embers_service_overview_default_type (types, ALLOC);
  g_autofree char *b = embers_service_overview_default_type (types, "gone:type:x:y:z");
  g_autofree char *c = embers_service_overview_default_type (types, NULL);
  g_autofree char *d = NULL;
  g_autofree char *e = NULL;
  const char *one[] = { ALLOC, NULL };
  const char *two[] = { ALLOC, WALL, NULL };
  const char *three[] = { WALL, NULL };

  /* The tab's own type when a service has it; else CPU */
  g_assert_cmpstr (a, ==, ALLOC);
  g_assert_cmpstr (b, ==, CPU);
  g_assert_cmpstr (c, ==, CPU);

  /* Without CPU: the type most services have */
  g_hash_table_insert (no_cpu, g_strdup ("a"), g_strdupv ((GStrv)one));
  g_hash_table_insert (no_cpu, g_strdup ("b"), g_strdupv ((GStrv)two));
  g_hash_table_insert (no_cpu, g_strdup ("c"), g_strdupv ((GStrv)three));
  g_hash_table_insert (no_cpu, g_strdup ("d"), g_strdupv ((GStrv)three));
  d = embers_service_overview_default_type (no_cpu, NULL);
  g_assert_cmpstr (d, ==, WALL);

  e = embers_service_overview_default_type (none, NULL);
  g_assert_null (e);
}

static void
test_rows (void)
{
  g_autoptr(GHashTable) types = make_types ();
  g_autoptr(GPtrArray) answer = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) rows = NULL;
  const gint64 first = 1000000, step = 60000;
  const gint64 t_api[] = { first, first + step, first + 3 * step };
  const double v_api[] = { 10, 20, 30 };
  /* Off the grid, before it, after it, NaN: none counts */
  const gint64 t_web[] = { first + 1, first - step, first + 9 * step, first + 2 * step, first + step };
  const double v_web[] = { 1000, 1000, 1000, NAN, 7 };
  const gint64 t_new[] = { first };
  const double v_new[] = { 5 };
  EmbersServiceRow *api, *web, *batch;

  g_ptr_array_add (answer, points ("api", 3, t_api, v_api));
  g_ptr_array_add (answer, points ("web", 5, t_web, v_web));
  g_ptr_array_add (answer, points ("newcomer", 1, t_new, v_new));

  rows = embers_service_overview_rows (types, CPU, answer, first, step, 4);
  /* Every service ListSeries named, none other */
  g_assert_cmpuint (rows->len, ==, 5);
  g_assert_null (row_named (rows, "newcomer"));

  api = row_named (rows, "api");
  g_assert_true (api->has_type);
  g_assert_cmpuint (api->n_values, ==, 4);
  g_assert_cmpfloat (api->values[0], ==, 10);
  g_assert_cmpfloat (api->values[1], ==, 20);
  /* A step without profiles is a gap, not a zero */
  g_assert_true (isnan (api->values[2]));
  g_assert_cmpfloat (api->values[3], ==, 30);
  g_assert_cmpfloat (api->total, ==, 60);
  g_assert_cmpfloat (api->max, ==, 30);

  web = row_named (rows, "web");
  g_assert_cmpfloat (web->total, ==, 7);
  g_assert_cmpfloat (web->values[1], ==, 7);
  g_assert_true (isnan (web->values[0]));
  g_assert_true (isnan (web->values[2]));

  /* batch has no CPU: a row that says so, never dropped */
  batch = row_named (rows, "batch");
  g_assert_nonnull (batch);
  g_assert_false (batch->has_type);
  g_assert_cmpfloat (batch->total, ==, 0);
  for (guint i = 0; i < batch->n_values; i++)
    g_assert_true (isnan (batch->values[i]));
}

static GPtrArray *
sorted_names (GPtrArray         *rows,
              EmbersServiceSort  sort)
{
  GPtrArray *names = g_ptr_array_new ();

  embers_service_overview_sort (rows, sort);
  for (guint i = 0; i < rows->len; i++)
    g_ptr_array_add (names, ((EmbersServiceRow *)g_ptr_array_index (rows, i))->name);
  g_ptr_array_add (names, NULL);
  return names;
}

static void
assert_order (GPtrArray   *names,
              const char **expected)
{
  g_autofree char *got = g_strjoinv (" ", (GStrv)names->pdata);
  g_autofree char *want = g_strjoinv (" ", (GStrv)expected);

  g_assert_cmpstr (got, ==, want);
}

static void
test_sort (void)
{
  g_autoptr(GHashTable) types = make_types ();
  g_autoptr(GPtrArray) answer = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) by_name = NULL;
  g_autoptr(GPtrArray) by_total = NULL;
  g_autoptr(GPtrArray) favourites = NULL;
  const gint64 t[] = { 0 };
  const double api[] = { 5 }, web[] = { 50 }, api2[] = { 50 }, api10[] = { 1 };
  const char *name_order[] = { "api", "api-2", "api-10", "batch", "web", NULL };
  /* Largest first, ties by name, the service without the type last */
  const char *total_order[] = { "api-2", "web", "api", "api-10", "batch", NULL };
  const char *favourite_order[] = { "web", "batch", "api-2", "api", "api-10", NULL };

  g_ptr_array_add (answer, points ("api", 1, t, api));
  g_ptr_array_add (answer, points ("web", 1, t, web));
  g_ptr_array_add (answer, points ("api-2", 1, t, api2));
  g_ptr_array_add (answer, points ("api-10", 1, t, api10));
  rows = embers_service_overview_rows (types, CPU, answer, 0, 15000, 1);

  by_name = sorted_names (rows, EMBERS_SERVICE_SORT_NAME);
  assert_order (by_name, name_order);
  by_total = sorted_names (rows, EMBERS_SERVICE_SORT_TOTAL);
  assert_order (by_total, total_order);

  /* Favourites first, whatever the order, each part in it */
  row_named (rows, "batch")->favourite = TRUE;
  row_named (rows, "web")->favourite = TRUE;
  favourites = sorted_names (rows, EMBERS_SERVICE_SORT_TOTAL);
  assert_order (favourites, favourite_order);
}

static void
test_filter (void)
{
  g_autoptr(EmbersNameMatcher) all = embers_name_matcher_new ("", EMBERS_SEARCH_DEFAULT, NULL);
  g_autoptr(EmbersNameMatcher) plain = embers_name_matcher_new ("API", EMBERS_SEARCH_DEFAULT, NULL);
  g_autoptr(EmbersNameMatcher) dots = embers_name_matcher_new ("a.i", EMBERS_SEARCH_DEFAULT, NULL);
  g_autoptr(EmbersNameMatcher) regex = embers_name_matcher_new ("^API-[0-9]+$", EMBERS_SEARCH_REGEX, NULL);
  g_autoptr(EmbersNameMatcher) umlaut = embers_name_matcher_new ("ÜBER", EMBERS_SEARCH_DEFAULT, NULL);
  g_autoptr(EmbersNameMatcher) bad = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (embers_name_matcher_matches (all, "anything"));
  g_assert_true (embers_name_matcher_matches (plain, "checkout-api"));
  g_assert_false (embers_name_matcher_matches (plain, "web"));
  /* Plain text is not a pattern */
  g_assert_false (embers_name_matcher_matches (dots, "api"));
  g_assert_true (embers_name_matcher_matches (dots, "data.io"));
  g_assert_true (embers_name_matcher_matches (regex, "api-10"));
  g_assert_false (embers_name_matcher_matches (regex, "api-10-canary"));
  g_assert_true (embers_name_matcher_matches (umlaut, "über-service"));
  /* Names that are not UTF-8 are read, not trusted */
  g_assert_false (embers_name_matcher_matches (plain, "\xff\xfe"));

  bad = embers_name_matcher_new ("api(", EMBERS_SEARCH_REGEX, &error);
  g_assert_null (bad);
  g_assert_error (error, G_REGEX_ERROR, G_REGEX_ERROR_UNMATCHED_PARENTHESIS);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/service-overview/types", test_types);
  g_test_add_func ("/embers/service-overview/default-type", test_default_type);
  g_test_add_func ("/embers/service-overview/rows", test_rows);
  g_test_add_func ("/embers/service-overview/sort", test_sort);
  g_test_add_func ("/embers/service-overview/filter", test_filter);

  return g_test_run ();
}
