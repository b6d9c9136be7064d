/* test-local-source.c: files as an EmbersSource
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sys/stat.h>
#include <unistd.h>

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "embers-local-source.h"
#include "embers-over-time.h"
#include "embers-profile-builder.h"
#include "embers-test-wait.h"

#define CPU_ID "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

/* A CPU profile whose samples carry a region label */
static EmbersProfile *
make_profile (gint64 time_ms,
              gint64 eu_value,
              gint64 us_value)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 frames[3];
  EmbersLabel eu, us;
  guint32 set_eu, set_us;
  EmbersProfile *p;

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_set_period (b, "cpu", "nanoseconds", 10000000);
  embers_profile_builder_set_time (b, time_ms * 1000000, 10000000000);
  frames[0] = embers_profile_builder_intern (b, "main", -1);
  frames[1] = embers_profile_builder_intern (b, "serve", -1);
  frames[2] = embers_profile_builder_intern (b, "gc", -1);
  eu = (EmbersLabel) { embers_profile_builder_intern (b, "region", -1), embers_profile_builder_intern (b, "eu", -1), 0, 0 };
  us = (EmbersLabel) { eu.key, embers_profile_builder_intern (b, "us", -1), 0, 0 };
  set_eu = embers_profile_builder_add_label_set (b, &eu, 1);
  set_us = embers_profile_builder_add_label_set (b, &us, 1);
  embers_profile_builder_add_stack (b, frames, 2, &eu_value, set_eu);
  embers_profile_builder_add_stack (b, frames, 2, &us_value, set_us);
  embers_profile_builder_add_stack (b, (guint32[]) { frames[0], frames[2] }, 2, &eu_value, set_eu);

  p = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  return p;
}

static EmbersLocalSource *
make_source (void)
{
  EmbersLocalSource *source = embers_local_source_new ();
  const char *api[] = { "service_name", "api", "version", "1.2", NULL };
  const char *web[] = { "service_name", "web", NULL };
  g_autoptr(EmbersProfile) p1 = make_profile (1000000, 10, 20);
  g_autoptr(EmbersProfile) p2 = make_profile (1060000, 30, 40);
  g_autoptr(EmbersProfile) p3 = make_profile (1000000, 1, 1);

  embers_local_source_add_profile (source, "api-1.pb.gz", p1, 0, api);
  embers_local_source_add_profile (source, "api-2.pb.gz", p2, 0, api);
  embers_local_source_add_profile (source, "web.pb.gz", p3, 0, web);

  return source;
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  embers_test_wait_while (*slot == NULL);
  return *slot;
}

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

static void
test_local_profile_types (void)
{
  g_autoptr(EmbersLocalSource) source = make_source ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) types = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start, end;

  g_assert_cmpuint (embers_source_get_capabilities (EMBERS_SOURCE (source)) & EMBERS_SOURCE_CAN_MERGE, !=, 0);
  g_assert_cmpuint (embers_local_source_get_n_profiles (source), ==, 3);
  embers_local_source_get_time_range (source, &start, &end);
  g_assert_cmpint (start, ==, 1000000);
  g_assert_cmpint (end, ==, 1060000 + 10000);

  embers_source_list_profile_types (EMBERS_SOURCE (source), 0, 0, NULL, store_result, &result);
  types = embers_source_list_profile_types_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (types->len, ==, 1);
  g_assert_cmpstr (((EmbersProfileTypeInfo *)g_ptr_array_index (types, 0))->id, ==, CPU_ID);
  g_assert_cmpstr (((EmbersProfileTypeInfo *)g_ptr_array_index (types, 0))->sample_unit, ==, "nanoseconds");
}

static void
test_local_labels (void)
{
  g_autoptr(EmbersLocalSource) source = make_source ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_auto(GStrv) values = NULL;
  g_autoptr(GPtrArray) series = NULL;
  const char *web_only[] = { "service_name=\"web\"", NULL };
  const char *api_only[] = { "service_name=\"api\"", NULL };
  const char *want[] = { "service_name", "region", NULL };
  g_autofree char *joined = NULL;

  embers_source_list_label_names (EMBERS_SOURCE (source), NULL, 0, 0, NULL, store_result, &result);
  names = embers_source_list_label_names_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  joined = g_strjoinv (",", names);
  g_assert_cmpstr (joined, ==, "__name__,__profile_type__,region,service_name,version");
  g_clear_object (&result);
  g_clear_pointer (&names, g_strfreev);

  /* web has no version label */
  embers_source_list_label_names (EMBERS_SOURCE (source), web_only, 0, 0, NULL, store_result, &result);
  names = embers_source_list_label_names_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_false (g_strv_contains ((const char * const *)names, "version"));
  g_clear_object (&result);

  embers_source_list_label_values (EMBERS_SOURCE (source), "region", api_only, 0, 0, NULL, store_result, &result);
  values = embers_source_list_label_values_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (values), ==, 2);
  g_assert_cmpstr (values[0], ==, "eu");
  g_assert_cmpstr (values[1], ==, "us");
  g_clear_object (&result);

  embers_source_list_series (EMBERS_SOURCE (source), NULL, want, 0, 0, NULL, store_result, &result);
  series = embers_source_list_series_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  /* (api, eu), (api, us), (web, eu), (web, us) */
  g_assert_cmpuint (series->len, ==, 4);
  for (guint i = 0; i < series->len; i++)
    {
      EmbersSeries *s = g_ptr_array_index (series, i);

      g_assert_cmpuint (g_strv_length (s->label_names), ==, 2);
      g_assert_nonnull (embers_series_get_label (s, "region"));
      g_assert_null (embers_series_get_label (s, "version"));
    }
  g_clear_object (&result);

  /* A bad matcher is an invalid argument */
  {
    const char *bad[] = { "region=", NULL };
    g_auto(GStrv) none = NULL;

    embers_source_list_label_names (EMBERS_SOURCE (source), bad, 0, 0, NULL, store_result, &result);
    none = embers_source_list_label_names_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
    g_assert_null (none);
    g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
  }
}

static EmbersProfile *
merge (EmbersLocalSource *source,
       const char        *selector,
       gint64             start,
       gint64             end,
       GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(EmbersQuery) query = embers_query_new (CPU_ID, selector, start, end);

  embers_source_merge_profile (EMBERS_SOURCE (source), query, NULL, store_result, &result);
  return embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait_for (&result), error);
}

static void
test_local_merge (void)
{
  g_autoptr(EmbersLocalSource) source = make_source ();
  g_autoptr(GError) error = NULL;
  EmbersProfile *p;

  /* everything: api-1 10+20+10, api-2 30+40+30, web 1+1+1 */
  p = merge (source, "{}", 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 143);
  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "cpu");
  g_object_unref (p);

  p = merge (source, "{service_name=\"api\",region=\"eu\"}", 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 80);
  g_object_unref (p);

  p = merge (source, "{region!~\"e.*\"}", 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 61);
  g_object_unref (p);

  /* time range: only the first minute */
  p = merge (source, "{service_name=\"api\"}", 999000, 1001000, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 40);
  g_object_unref (p);

  /* nothing matches: an empty profile, not an error */
  p = merge (source, "{service_name=\"nope\"}", 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 0);
  g_object_unref (p);

  p = merge (source, "{service_name=", 0, 0, &error);
  g_assert_null (p);
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
}

static void
test_local_diff (void)
{
  g_autoptr(EmbersLocalSource) source = make_source ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersQuery) left = embers_query_new (CPU_ID, "{region=\"eu\"}", 0, 0);
  g_autoptr(EmbersQuery) right = embers_query_new (CPU_ID, "{region=\"us\"}", 0, 0);
  g_autoptr(EmbersProfile) d = NULL;

  embers_source_diff (EMBERS_SOURCE (source), left, right, NULL, store_result, &result);
  d = embers_source_diff_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_true (embers_profile_is_diff (d));
  g_assert_cmpint (embers_profile_get_total (d, 0), ==, 82);
  g_assert_cmpint (embers_profile_get_total (d, 1), ==, 61);
}

static void
test_local_select_series (void)
{
  g_autoptr(EmbersLocalSource) source = make_source ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersQuery) query = embers_query_new (CPU_ID, "{service_name=\"api\"}", 0, 2000000);
  g_autoptr(GPtrArray) series = NULL;
  const char *by_region[] = { "region", NULL };

  embers_source_select_series (EMBERS_SOURCE (source), query, by_region, 60, EMBERS_AGGREGATION_SUM, 0,
                               NULL, store_result, &result);
  series = embers_source_select_series_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (series->len, ==, 2);
  for (guint i = 0; i < series->len; i++)
    {
      EmbersSeries *s = g_ptr_array_index (series, i);
      gboolean eu = g_str_equal (embers_series_get_label (s, "region"), "eu");

      g_assert_cmpuint (s->n_points, ==, 2);
      /* Points T = start + k·step hold (T - step, T], as Pyroscope's
       * (pkg/model/timeseries/range.go): the profile at 1000 s is in
       * (960, 1020], the one at 1060 s in (1020, 1080] */
      g_assert_cmpint (s->timestamps[0], ==, 1020000);
      g_assert_cmpint (s->timestamps[1], ==, 1080000);
      g_assert_cmpfloat (s->values[0], ==, eu ? 20 : 20);
      g_assert_cmpfloat (s->values[1], ==, eu ? 60 : 40);
    }
  g_clear_object (&result);
  g_clear_pointer (&series, g_ptr_array_unref);

  /* One big step, averaged over the two profiles; limit keeps the top one
   * (a point at 3600 s holds (0, 3600 s]; over (0, 2000 s] no point fits
   * before the end, so nothing is counted, as in Pyroscope) */
  embers_source_select_series (EMBERS_SOURCE (source), query, by_region, 3600, EMBERS_AGGREGATION_AVERAGE, 1,
                               NULL, store_result, &result);
  series = embers_source_select_series_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (series->len, ==, 0);
  g_clear_object (&result);
  g_clear_pointer (&series, g_ptr_array_unref);
  query->end_ms = 3600000;
  embers_source_select_series (EMBERS_SOURCE (source), query, by_region, 3600, EMBERS_AGGREGATION_AVERAGE, 1,
                               NULL, store_result, &result);
  series = embers_source_select_series_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (series->len, ==, 1);
  g_assert_cmpstr (embers_series_get_label (g_ptr_array_index (series, 0), "region"), ==, "eu");
  g_assert_cmpfloat (((EmbersSeries *)g_ptr_array_index (series, 0))->values[0], ==, 40.0);
  g_clear_object (&result);

  embers_source_select_series (EMBERS_SOURCE (source), query, NULL, 0, EMBERS_AGGREGATION_SUM, 0,
                               NULL, store_result, &result);
  g_assert_null (embers_source_select_series_finish (EMBERS_SOURCE (source), wait_for (&result), &error));
  g_assert_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT);
}

/* Each file is an individual profile: the chart's points carry the
 * heaviest file of their step (its name the id, its value its samples in
 * the series: the file's total without filters), as Pyroscope's
 * exemplars (pkg/model/timeseries/aggregator.go: one per point, the
 * heaviest; timeseries.go: labels minus the series' own); a merge narrowed
 * to ids merges only those files */
static void
test_local_exemplars (void)
{
  g_autoptr(EmbersLocalSource) source = make_source ();
  g_autoptr(EmbersProfile) p4 = make_profile (1010000, 100, 0);
  const char *api[] = { "service_name", "api", "version", "1.3", NULL };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersQuery) query = embers_query_new (CPU_ID, "{}", 960000, 1080000);
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(GPtrArray) top = NULL;
  const char *by_service[] = { "service_name", NULL };
  const char *only[] = { "api-2.pb.gz", "web.pb.gz", NULL };
  EmbersSeries *s;
  EmbersExemplar *e;
  EmbersProfile *p;

  /* api-1 (40) and web (3) at 1000 s, api-3 (200) at 1010 s, api-2 (100)
   * at 1060 s: steps (960, 1020] and (1020, 1080] */
  embers_local_source_add_profile (source, "api-3.pb.gz", p4, 0, api);
  embers_source_select_exemplars (EMBERS_SOURCE (source), query, NULL, 60, NULL, store_result, &result);
  series = embers_source_select_exemplars_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (series->len, ==, 1);
  s = g_ptr_array_index (series, 0);
  g_assert_cmpuint (s->n_points, ==, 2);
  g_assert_nonnull (s->exemplars);
  g_assert_cmpuint (s->exemplars->len, ==, 2);
  e = g_ptr_array_index (s->exemplars, 0);
  g_assert_cmpuint (e->point, ==, 0);
  g_assert_cmpstr (e->profile_id, ==, "api-3.pb.gz");
  g_assert_cmpint (e->value, ==, 200);
  g_assert_cmpint (e->timestamp_ms, ==, 1010000);
  g_assert_true (g_strv_contains ((const char * const *) e->label_names, "service_name"));
  g_assert_true (g_strv_contains ((const char * const *) e->label_values, "1.3"));
  e = g_ptr_array_index (s->exemplars, 1);
  g_assert_cmpuint (e->point, ==, 1);
  g_assert_cmpstr (e->profile_id, ==, "api-2.pb.gz");
  g_assert_cmpint (e->value, ==, 100);

  /* The heaviest across points, heaviest first */
  top = embers_source_top_exemplars (series, 1);
  g_assert_cmpuint (top->len, ==, 1);
  g_assert_cmpstr (((EmbersExemplar *) g_ptr_array_index (top, 0))->profile_id, ==, "api-3.pb.gz");
  g_clear_pointer (&top, g_ptr_array_unref);
  g_clear_object (&result);
  g_clear_pointer (&series, g_ptr_array_unref);

  /* A chart's steps (15 s here): one exemplar per point */
  embers_source_select_chart_exemplars (EMBERS_SOURCE (source), query, NULL, store_result, &result);
  series = embers_source_select_exemplars_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  s = g_ptr_array_index (series, 0);
  g_assert_cmpuint (s->n_points, ==, 3);
  g_assert_cmpuint (s->exemplars->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (((EmbersExemplar *) g_ptr_array_index (s->exemplars, i))->point, ==, i);
  /* api-1 (40) beats web (3) in their step */
  g_assert_cmpstr (((EmbersExemplar *) g_ptr_array_index (s->exemplars, 0))->profile_id, ==, "api-1.pb.gz");
  g_clear_object (&result);
  g_clear_pointer (&series, g_ptr_array_unref);

  /* Grouped: each series' own heaviest, without the grouped label; a
   * filter counts only the samples it keeps */
  g_free (query->label_selector);
  query->label_selector = g_strdup ("{region=\"eu\"}");
  embers_source_select_series (EMBERS_SOURCE (source), query, NULL, 60, EMBERS_AGGREGATION_SUM, 0,
                               NULL, store_result, &result);
  series = embers_source_select_series_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  /* Plain series carry none */
  g_assert_null (((EmbersSeries *) g_ptr_array_index (series, 0))->exemplars);
  g_clear_object (&result);
  g_clear_pointer (&series, g_ptr_array_unref);
  embers_source_select_exemplars (EMBERS_SOURCE (source), query, by_service, 60, NULL, store_result, &result);
  series = embers_source_select_exemplars_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (series->len, ==, 2);
  for (guint i = 0; i < series->len; i++)
    {
      s = g_ptr_array_index (series, i);
      e = g_ptr_array_index (s->exemplars, 0);
      g_assert_false (g_strv_contains ((const char * const *) e->label_names, "service_name"));
      if (g_str_equal (embers_series_get_label (s, "service_name"), "web"))
        {
          g_assert_cmpstr (e->profile_id, ==, "web.pb.gz");
          g_assert_cmpint (e->value, ==, 2);
        }
      else
        {
          g_assert_cmpstr (e->profile_id, ==, "api-3.pb.gz");
          g_assert_cmpint (e->value, ==, 200);
        }
    }
  g_clear_object (&result);

  /* Merges narrowed to files */
  query->profile_ids = g_strdupv ((char **) only);
  p = merge (source, "{}", 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 143 + 200);
  g_object_unref (p);
  embers_source_merge_profile (EMBERS_SOURCE (source), query, NULL, store_result, &result);
  p = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  /* api-2's eu samples (30 + 30) and web's (1 + 1) */
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 62);
  g_object_unref (p);
}

static void
add_folder_done (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  *(guint *)user_data = embers_local_source_add_file_finish (EMBERS_LOCAL_SOURCE (object), result, &error);
  g_assert_no_error (error);
}

/* The Go profiles of tests/fixtures/go over the range the explore page
 * gives a folder (its span and a minute each side), and ranges that start
 * off any step boundary: every point of a chart of (start, end] lies there
 * at end - k·step, and the points add up to every profile's total (none is
 * cut off) */
/* One call site's series (a stack-trace selector, root first), and its
 * share of the total, computed from the files */
static void
test_local_call_site_series (void)
{
  g_autoptr(EmbersLocalSource) source = make_source ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersQuery) query = embers_query_new (CPU_ID, "{service_name=\"api\"}", 900000, 1100000);
  g_autoptr(GPtrArray) series = NULL;
  g_autoptr(EmbersOverTime) over = NULL;
  const char *serve[] = { "main", "serve", NULL };
  const char *main_only[] = { "main", NULL };
  const char *nowhere[] = { "gc", NULL };
  EmbersSeries *s, *total, *share;

  /* main;serve holds eu 10 + us 20 in the first file, 30 + 40 in the
   * second; main;gc 10 and 30 besides */
  embers_source_select_call_site_series (EMBERS_SOURCE (source), query, serve, NULL, NULL, store_result, &result);
  series = embers_source_select_call_site_series_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (series->len, ==, 1);
  s = g_ptr_array_index (series, 0);
  g_assert_cmpuint (s->n_points, ==, 2);
  g_assert_cmpfloat (s->values[0], ==, 30);
  g_assert_cmpfloat (s->values[1], ==, 70);
  /* The chart's steps: 15 s ones ending at the range's end */
  g_assert_cmpint ((1100000 - s->timestamps[0]) % 15000, ==, 0);
  g_assert_cmpint (s->timestamps[0], >=, 1000000);
  g_assert_cmpint (s->timestamps[0], <, 1015000);
  g_clear_object (&result);
  g_clear_pointer (&series, g_ptr_array_unref);

  embers_source_select_call_site_series (EMBERS_SOURCE (source), query, main_only, NULL, NULL, store_result, &result);
  series = embers_source_select_call_site_series_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  s = g_ptr_array_index (series, 0);
  g_assert_cmpfloat (s->values[0], ==, 40);
  g_assert_cmpfloat (s->values[1], ==, 100);
  g_clear_object (&result);
  g_clear_pointer (&series, g_ptr_array_unref);

  /* A prefix, not a function anywhere: gc is never a root */
  embers_source_select_call_site_series (EMBERS_SOURCE (source), query, nowhere, NULL, NULL, store_result, &result);
  series = embers_source_select_call_site_series_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < series->len; i++)
    for (guint k = 0; k < ((EmbersSeries *) g_ptr_array_index (series, i))->n_points; k++)
      g_assert_cmpfloat (((EmbersSeries *) g_ptr_array_index (series, i))->values[k], ==, 0);
  g_clear_object (&result);

  /* Over time: the value, the total and the share on the same steps */
  embers_over_time_fetch_async (EMBERS_SOURCE (source), query, serve, NULL, store_result, &result);
  over = embers_over_time_fetch_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  s = g_ptr_array_index (over->value, 0);
  total = g_ptr_array_index (over->total, 0);
  share = g_ptr_array_index (over->share, 0);
  g_assert_cmpuint (total->n_points, ==, 2);
  g_assert_cmpint (total->timestamps[0], ==, s->timestamps[0]);
  g_assert_cmpfloat (total->values[0], ==, 40);
  g_assert_cmpuint (share->n_points, ==, 2);
  g_assert_cmpfloat_with_epsilon (share->values[0], 75.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (share->values[1], 70.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (over->mean_share, 100.0 * 100 / 140, 1e-9);
  g_assert_cmpfloat_with_epsilon (over->peak_share, 75.0, 1e-9);
  g_assert_cmpint (over->peak_ms, ==, s->timestamps[0]);
}

static void
test_local_series_in_range (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "fixtures", "go", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  g_autofree char *name = NULL;
  gint64 start, end;
  guint n = 0;

  /* Nothing read yet: no count to give */
  name = embers_source_dup_display_name (EMBERS_SOURCE (source));
  g_assert_cmpstr (name, ==, "Local profiles");
  g_clear_pointer (&name, g_free);
  embers_local_source_add_file_async (source, folder, NULL, add_folder_done, &n);
  /* Not "0 local profiles" while the folder is read: "Loading…", or the
   * count so far once the thread has added some */
  name = embers_source_dup_display_name (EMBERS_SOURCE (source));
  g_assert_cmpstr (name, !=, "0 local profiles");
  g_assert_true (g_str_equal (name, "Loading local profiles…") || g_str_has_suffix (name, " local profiles"));
  embers_test_wait_while (n == 0);
  g_assert_false (embers_local_source_get_loading (source));
  g_assert_cmpuint (n, ==, 6);
  g_clear_pointer (&name, g_free);
  name = embers_source_dup_display_name (EMBERS_SOURCE (source));
  g_assert_cmpstr (name, ==, "6 local profiles");
  embers_local_source_get_time_range (source, &start, &end);

  for (guint r = 0; r < 4; r++)
    {
      /* The folder's range as the window sets it, then shifted by odd amounts */
      static const gint64 shifts[] = { 0, 7, 12345, 59999 };
      gint64 from = start - 60000 - shifts[r];
      gint64 to = end + 60000 + shifts[r];
      static const double steps[] = { 0, 1, 15, 60, 3600 };

      for (guint k = 0; k < G_N_ELEMENTS (steps); k++)
        {
          double step = steps[k] > 0 ? steps[k] : embers_source_step_for_range (from, to);
          gint64 step_ms = (gint64)(step * 1000);
          g_autoptr(EmbersQuery) query = embers_query_new ("process_cpu:cpu:nanoseconds:cpu:nanoseconds",
                                                           "{}", from, to);
          /* A chart's points: T = to - k·step back to the first whose step
           * reaches from */
          gint64 first = embers_source_series_first_point (from, to, step);
          g_autoptr(EmbersQuery) series_query = embers_query_new ("process_cpu:cpu:nanoseconds:cpu:nanoseconds",
                                                                  "{}", first, to);
          g_autoptr(GAsyncResult) result = NULL;
          g_autoptr(GPtrArray) series = NULL;
          g_autoptr(GError) error = NULL;
          const char *by_service[] = { "service_name", NULL };
          double sum = 0;
          guint n_series_with_points = 0;

          embers_source_select_series (EMBERS_SOURCE (source), series_query, by_service, step,
                                       EMBERS_AGGREGATION_SUM, 0, NULL, store_result, &result);
          series = embers_source_select_series_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
          g_assert_no_error (error);
          g_assert_cmpuint (series->len, >, 1);
          for (guint i = 0; i < series->len; i++)
            {
              EmbersSeries *s = g_ptr_array_index (series, i);

              if (s->n_points > 0)
                n_series_with_points++;
              for (guint p = 0; p < s->n_points; p++)
                {
                  g_assert_cmpint (s->timestamps[p], >, from);
                  g_assert_cmpint (s->timestamps[p], <=, to);
                  g_assert_cmpint ((to - s->timestamps[p]) % step_ms, ==, 0);
                  if (p > 0)
                    g_assert_cmpint (s->timestamps[p], >, s->timestamps[p - 1]);
                  sum += s->values[p];
                }
            }
          /* Every service has its chart */
          g_assert_cmpuint (n_series_with_points, ==, series->len);
          /* Nothing cut off: the points hold every profile's CPU time */
          {
            g_autoptr(EmbersProfile) merged = NULL;

            g_clear_object (&result);
            embers_source_merge_profile (EMBERS_SOURCE (source), query, NULL, store_result, &result);
            merged = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
            g_assert_no_error (error);
            g_assert_cmpfloat (sum, ==, (double)embers_profile_get_total (merged, 0));
          }
        }
    }
}

/* The step rule: about 100 steps, a whole number of 15 s scrapes, round */
static void
test_step_for_range (void)
{
  static const struct { gint64 range_s; double step_s; } cases[] = {
    { 0, 15 }, { 60, 15 }, { 600, 15 }, { 1500, 15 }, { 1501, 30 },
    { 3000, 30 }, { 3600, 60 },          /* an hour: 60 s, not 36 s */
    { 6000, 60 }, { 6001, 120 }, { 3 * 3600, 120 }, { 6 * 3600, 300 },
    { 12 * 3600, 600 }, { 86400, 900 }, { 2 * 86400, 1800 },
    { 7 * 86400, 7200 }, { 30 * 86400, 43200 }, { 90 * 86400, 86400 },
    { 365 * 86400, 4 * 86400 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double step = embers_source_step_for_range (1700000000000, 1700000000000 + cases[i].range_s * 1000);
      guint n_steps = (guint)(cases[i].range_s / step) + 1;

      g_test_message ("%" G_GINT64_FORMAT " s: step %g s, %u steps", cases[i].range_s, step, n_steps);
      g_assert_cmpfloat (step, ==, cases[i].step_s);
      /* A whole number of 15 s scrape intervals */
      g_assert_cmpfloat (fmod (step, 15.0), ==, 0);
      /* Never finer than Pyroscope's own rule, at most 101 points */
      g_assert_cmpfloat (step, >=, MAX (15.0, ceil (cases[i].range_s / 100.0)));
      g_assert_cmpuint (n_steps, <=, 101);
    }
  /* An empty or reversed range */
  g_assert_cmpfloat (embers_source_step_for_range (5000, 1000), ==, 15);
}

static void
test_local_parse_name (void)
{
  g_autofree char *service = NULL;
  g_auto(GStrv) labels = NULL;

  g_assert_true (embers_local_source_parse_name ("api{region=eu, pod=\"a-1,b\"}", &service, &labels));
  g_assert_cmpstr (service, ==, "api");
  g_assert_cmpuint (g_strv_length (labels), ==, 4);
  g_assert_cmpstr (labels[0], ==, "region");
  g_assert_cmpstr (labels[1], ==, "eu");
  g_assert_cmpstr (labels[2], ==, "pod");
  g_assert_cmpstr (labels[3], ==, "a-1,b");

  g_assert_false (embers_local_source_parse_name ("api", NULL, NULL));
  g_assert_false (embers_local_source_parse_name ("{a=b}", NULL, NULL));
  g_assert_false (embers_local_source_parse_name ("api{a}", NULL, NULL));
  g_assert_false (embers_local_source_parse_name ("api{1a=b}", NULL, NULL));
  g_assert_false (embers_local_source_parse_name ("api{a=\"b}", NULL, NULL));
}

static void
test_local_folder (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("embers-local-XXXXXX", &error);
  g_autofree char *a = g_build_filename (dir, "api{region=eu}.folded", NULL);
  g_autofree char *b = g_build_filename (dir, "plain.folded", NULL);
  g_autofree char *b_labels = g_build_filename (dir, "plain.folded.labels", NULL);
  g_autofree char *bad = g_build_filename (dir, "broken.pb", NULL);
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersQuery) query = NULL;
  guint added;

  g_assert_no_error (error);
  g_file_set_contents (a, "main;work 5\n", -1, &error);
  g_file_set_contents (b, "main;idle 7\n", -1, &error);
  g_file_set_contents (b_labels, "worker{region=\"us\"}\n", -1, &error);
  g_file_set_contents (bad, "\x0a\xff\xff\xff", 4, &error);
  g_assert_no_error (error);

  folder = g_file_new_for_path (dir);
  embers_local_source_add_file_async (source, folder, NULL, store_result, &result);
  added = embers_local_source_add_file_finish (source, wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (added, ==, 2);
  g_assert_cmpuint (embers_local_source_get_n_skipped (source), ==, 1);
  g_clear_object (&result);

  query = embers_query_new (NULL, "{service_name=\"worker\",region=\"us\"}", 0, 0);
  embers_source_merge_profile (EMBERS_SOURCE (source), query, NULL, store_result, &result);
  p = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 7);
  g_clear_object (&result);
  g_clear_object (&p);

  embers_query_free (query);
  query = embers_query_new (NULL, "{service_name=\"api\",region=\"eu\"}", 0, 0);
  embers_source_merge_profile (EMBERS_SOURCE (source), query, NULL, store_result, &result);
  p = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 5);

  g_unlink (a);
  g_unlink (b);
  g_unlink (b_labels);
  g_unlink (bad);
  g_rmdir (dir);
}


/* Hostile side files: a FIFO and /dev/zero named as .labels sidecars (and
 * a FIFO among the profiles) neither hang nor fill the scan; the profiles
 * take their labels from their names */
static void
test_local_folder_hostile (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("embers-local-XXXXXX", &error);
  g_autofree char *a = g_build_filename (dir, "api{region=eu}.folded", NULL);
  g_autofree char *a_labels = g_build_filename (dir, "api{region=eu}.folded.labels", NULL);
  g_autofree char *b = g_build_filename (dir, "db{region=us}.folded", NULL);
  g_autofree char *b_labels = g_build_filename (dir, "db{region=us}.folded.labels", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo.folded", NULL);
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(EmbersProfile) p = NULL;
  g_autoptr(EmbersQuery) query = NULL;
  guint added;

  g_assert_no_error (error);
  g_file_set_contents (a, "main;work 5\n", -1, &error);
  g_file_set_contents (b, "main;idle 7\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mkfifo (a_labels, 0600), ==, 0);
  g_assert_cmpint (symlink ("/dev/zero", b_labels), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  folder = g_file_new_for_path (dir);
  embers_local_source_add_file_async (source, folder, NULL, store_result, &result);
  added = embers_local_source_add_file_finish (source, wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (added, ==, 2);
  g_clear_object (&result);

  query = embers_query_new (NULL, "{service_name=\"db\",region=\"us\"}", 0, 0);
  embers_source_merge_profile (EMBERS_SOURCE (source), query, NULL, store_result, &result);
  p = embers_source_merge_profile_finish (EMBERS_SOURCE (source), wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 7);

  g_unlink (a);
  g_unlink (a_labels);
  g_unlink (b);
  g_unlink (b_labels);
  g_unlink (fifo);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/local-source/profile-types", test_local_profile_types);
  g_test_add_func ("/embers/local-source/labels", test_local_labels);
  g_test_add_func ("/embers/local-source/merge", test_local_merge);
  g_test_add_func ("/embers/local-source/diff", test_local_diff);
  g_test_add_func ("/embers/local-source/select-series", test_local_select_series);
  g_test_add_func ("/embers/local-source/exemplars", test_local_exemplars);
  g_test_add_func ("/embers/local-source/call-site-series", test_local_call_site_series);
  g_test_add_func ("/embers/local-source/series-in-range", test_local_series_in_range);
  g_test_add_func ("/embers/source/step-for-range", test_step_for_range);
  g_test_add_func ("/embers/local-source/parse-name", test_local_parse_name);
  g_test_add_func ("/embers/local-source/folder", test_local_folder);
  g_test_add_func ("/embers/local-source/folder-hostile", test_local_folder_hostile);

  return g_test_run ();
}
