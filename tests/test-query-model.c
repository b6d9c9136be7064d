/* test-query-model.c: the query a workspace's views share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-local-source.h"
#include "embers-query-model.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define ALLOC "memory:alloc_space:bytes:space:bytes"

typedef struct
{
  EmbersQueryModel *model;
  gint64            now;
  guint             n_changed;
  GPtrArray        *notified;  /* property names, in order */
} Fixture;

static gint64
fake_clock (gpointer user_data)
{
  Fixture *f = user_data;

  return f->now;
}

static void
on_changed (EmbersQueryModel *model,
            Fixture          *f)
{
  f->n_changed++;
}

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           Fixture    *f)
{
  g_ptr_array_add (f->notified, g_strdup (pspec->name));
}

static gboolean
was_notified (Fixture    *f,
              const char *name)
{
  for (guint i = 0; i < f->notified->len; i++)
    if (g_str_equal (g_ptr_array_index (f->notified, i), name))
      return TRUE;
  return FALSE;
}

static void
reset (Fixture *f)
{
  f->n_changed = 0;
  g_ptr_array_set_size (f->notified, 0);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(EmbersLocalSource) source = embers_local_source_new ();

  f->now = 1700000000000;
  f->model = embers_query_model_new (EMBERS_SOURCE (source));
  embers_query_model_set_clock (f->model, fake_clock, f);
  f->notified = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (f->model, "changed", G_CALLBACK (on_changed), f);
  g_signal_connect (f->model, "notify", G_CALLBACK (on_notify), f);
  reset (f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_signal_handlers_disconnect_by_data (f->model, f);
  g_assert_finalize_object (f->model);
  g_ptr_array_unref (f->notified);
}

/* A new model: the last hour, no service, nothing to ask yet */
static void
test_defaults (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *selector = embers_query_model_dup_selector (f->model);

  g_assert_nonnull (embers_query_model_get_source (f->model));
  g_assert_null (embers_query_model_get_service (f->model));
  g_assert_null (embers_query_model_get_profile_type (f->model));
  g_assert_cmpuint (embers_selector_get_n_matchers (embers_query_model_get_filters (f->model)), ==, 0);
  g_assert_cmpstr (selector, ==, "{}");
  g_assert_cmpint (embers_query_model_get_preset (f->model), ==, 3600);
  g_assert_cmpint (embers_query_model_get_end_ms (f->model), ==, f->now);
  g_assert_cmpint (embers_query_model_get_start_ms (f->model), ==, f->now - 3600 * 1000);
  g_assert_false (embers_query_model_get_complete (f->model));
  g_assert_null (embers_query_model_dup_query (f->model));
  g_assert_null (embers_query_model_dup_short_name (f->model));
}

/* Each setter: its properties notify, "changed" once, the generation
 * rises; setting the same value again changes nothing */
static void
test_setters_notify (Fixture       *f,
                     gconstpointer  data)
{
  guint generation = embers_query_model_get_generation (f->model);
  g_autoptr(EmbersQuery) query = NULL;

  embers_query_model_set_service (f->model, "checkout");
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_true (was_notified (f, "service"));
  g_assert_true (was_notified (f, "selector"));
  g_assert_true (was_notified (f, "generation"));
  g_assert_false (was_notified (f, "profile-type"));
  g_assert_cmpuint (embers_query_model_get_generation (f->model), ==, generation + 1);

  reset (f);
  embers_query_model_set_service (f->model, "checkout");
  g_assert_cmpuint (f->n_changed, ==, 0);
  g_assert_cmpuint (f->notified->len, ==, 0);

  embers_query_model_set_profile_type (f->model, CPU);
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_true (was_notified (f, "profile-type"));
  g_assert_true (was_notified (f, "complete"));
  g_assert_true (embers_query_model_get_complete (f->model));

  query = embers_query_model_dup_query (f->model);
  g_assert_nonnull (query);
  g_assert_cmpstr (query->profile_type, ==, CPU);
  g_assert_cmpstr (query->label_selector, ==, "{service_name=\"checkout\"}");
  g_assert_cmpint (query->start_ms, ==, f->now - 3600 * 1000);
  g_assert_cmpint (query->end_ms, ==, f->now);

  /* g_object_set goes through the same setters */
  reset (f);
  g_object_set (f->model, "service", "cart", NULL);
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_cmpstr (embers_query_model_get_service (f->model), ==, "cart");
  /* "" is no service */
  embers_query_model_set_service (f->model, "");
  g_assert_null (embers_query_model_get_service (f->model));
  g_assert_false (embers_query_model_get_complete (f->model));
}

/* Filters: one per label name, service_name never one of them */
static void
test_filters (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersSelector) parsed = NULL;
  g_autofree char *selector = NULL;
  g_autofree char *after = NULL;

  embers_query_model_set_service (f->model, "checkout");
  reset (f);

  g_assert_true (embers_query_model_add_filter (f->model, "region", EMBERS_MATCH_EQUAL, "eu", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_true (was_notified (f, "filters"));
  g_assert_true (was_notified (f, "selector"));
  /* Replacing the filter on a name */
  g_assert_true (embers_query_model_add_filter (f->model, "region", EMBERS_MATCH_REGEX, "us-.*", &error));
  g_assert_true (embers_query_model_add_filter (f->model, "pod", EMBERS_MATCH_NOT_EQUAL, "a\"b", &error));
  selector = embers_query_model_dup_selector (f->model);
  g_assert_cmpstr (selector, ==, "{service_name=\"checkout\",region=~\"us-.*\",pod!=\"a\\\"b\"}");

  /* The service is not a filter */
  reset (f);
  g_assert_false (embers_query_model_add_filter (f->model, "service_name", EMBERS_MATCH_EQUAL, "x", &error));
  g_assert_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_NAME);
  g_clear_error (&error);
  /* A bad regex is refused and changes nothing */
  g_assert_false (embers_query_model_add_filter (f->model, "pod", EMBERS_MATCH_REGEX, "(", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_cmpuint (f->n_changed, ==, 0);

  /* set_filters copies and drops service_name */
  parsed = embers_selector_parse ("{service_name=\"other\",env=\"prod\"}", NULL, &error);
  g_assert_no_error (error);
  embers_query_model_set_filters (f->model, parsed);
  g_assert_true (embers_query_model_get_filters (f->model) != parsed);
  g_assert_cmpuint (embers_selector_get_n_matchers (parsed), ==, 2);
  after = embers_query_model_dup_selector (f->model);
  g_assert_cmpstr (after, ==, "{service_name=\"checkout\",env=\"prod\"}");
  g_assert_cmpuint (f->n_changed, ==, 1);

  /* The same filters again: no change */
  reset (f);
  embers_query_model_set_filters (f->model, parsed);
  g_assert_cmpuint (f->n_changed, ==, 0);

  g_assert_true (embers_query_model_remove_filter (f->model, "env"));
  g_assert_false (embers_query_model_remove_filter (f->model, "env"));
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_cmpuint (embers_selector_get_n_matchers (embers_query_model_get_filters (f->model)), ==, 0);
}

/* A preset follows now on refresh; an absolute range stays */
static void
test_time (Fixture       *f,
           gconstpointer  data)
{
  guint generation;

  embers_query_model_set_preset (f->model, 6 * 3600);
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_true (was_notified (f, "preset"));
  g_assert_true (was_notified (f, "start-ms"));
  g_assert_false (was_notified (f, "end-ms"));
  g_assert_cmpint (embers_query_model_get_start_ms (f->model), ==, f->now - 6 * 3600 * 1000);

  reset (f);
  f->now += 60000;
  generation = embers_query_model_get_generation (f->model);
  embers_query_model_refresh (f->model);
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_cmpuint (embers_query_model_get_generation (f->model), ==, generation + 1);
  g_assert_cmpint (embers_query_model_get_end_ms (f->model), ==, f->now);
  g_assert_cmpint (embers_query_model_get_start_ms (f->model), ==, f->now - 6 * 3600 * 1000);

  /* Refresh asks again even when nothing moved */
  reset (f);
  embers_query_model_refresh (f->model);
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_cmpuint (f->notified->len, ==, 1);  /* the generation */

  /* A preset as a view asked for it at some time */
  reset (f);
  embers_query_model_set_preset_at (f->model, 3600, 5000000);
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_cmpint (embers_query_model_get_preset (f->model), ==, 3600);
  g_assert_cmpint (embers_query_model_get_start_ms (f->model), ==, 5000000 - 3600000);
  g_assert_cmpint (embers_query_model_get_end_ms (f->model), ==, 5000000);

  /* Absolute */
  reset (f);
  embers_query_model_set_time_range (f->model, 1000, 2000);
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_cmpint (embers_query_model_get_preset (f->model), ==, 0);
  f->now += 60000;
  embers_query_model_refresh (f->model);
  g_assert_cmpint (embers_query_model_get_start_ms (f->model), ==, 1000);
  g_assert_cmpint (embers_query_model_get_end_ms (f->model), ==, 2000);
}

/* A batch is one change; nested batches too */
static void
test_batch (Fixture       *f,
            gconstpointer  data)
{
  guint generation = embers_query_model_get_generation (f->model);

  embers_query_model_begin_update (f->model);
  embers_query_model_set_service (f->model, "checkout");
  embers_query_model_begin_update (f->model);
  embers_query_model_set_profile_type (f->model, CPU);
  embers_query_model_end_update (f->model);
  g_assert_cmpuint (f->n_changed, ==, 0);
  /* notifications wait for the end of the batch */
  g_assert_cmpuint (f->notified->len, ==, 0);
  embers_query_model_add_filter (f->model, "region", EMBERS_MATCH_EQUAL, "eu", NULL);
  embers_query_model_end_update (f->model);

  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_cmpuint (embers_query_model_get_generation (f->model), ==, generation + 1);
  g_assert_true (was_notified (f, "service"));
  g_assert_true (was_notified (f, "profile-type"));
  g_assert_true (was_notified (f, "filters"));

  /* An empty batch is no change */
  reset (f);
  embers_query_model_begin_update (f->model);
  embers_query_model_end_update (f->model);
  g_assert_cmpuint (f->n_changed, ==, 0);
}

/* Snapshots: back and forward between queries */
static void
test_state (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(EmbersQueryState) first = NULL;
  g_autoptr(EmbersQueryState) second = NULL;
  g_autoptr(EmbersQueryState) copy = NULL;
  g_autoptr(EmbersQueryState) again = NULL;
  g_autofree char *selector = NULL;

  embers_query_model_set_service (f->model, "checkout");
  embers_query_model_set_profile_type (f->model, CPU);
  embers_query_model_add_filter (f->model, "region", EMBERS_MATCH_EQUAL, "eu", NULL);
  first = embers_query_model_dup_state (f->model);

  embers_query_model_set_service (f->model, "cart");
  embers_query_model_set_profile_type (f->model, ALLOC);
  embers_query_model_remove_filter (f->model, "region");
  embers_query_model_set_time_range (f->model, 5000, 9000);
  second = embers_query_model_dup_state (f->model);
  g_assert_false (embers_query_state_equal (first, second));

  copy = embers_query_state_copy (first);
  g_assert_true (embers_query_state_equal (first, copy));

  reset (f);
  f->now += 120000;
  embers_query_model_set_state (f->model, first);
  g_assert_cmpuint (f->n_changed, ==, 1);
  selector = embers_query_model_dup_selector (f->model);
  g_assert_cmpstr (selector, ==, "{service_name=\"checkout\",region=\"eu\"}");
  g_assert_cmpstr (embers_query_model_get_profile_type (f->model), ==, CPU);
  /* the preset moved to now */
  g_assert_cmpint (embers_query_model_get_end_ms (f->model), ==, f->now);
  again = embers_query_model_dup_state (f->model);
  /* a preset range is the same query whatever its end */
  g_assert_true (embers_query_state_equal (first, again));

  embers_query_model_set_state (f->model, second);
  g_assert_cmpint (embers_query_model_get_start_ms (f->model), ==, 5000);
  g_assert_cmpint (embers_query_model_get_end_ms (f->model), ==, 9000);
  g_assert_cmpint (embers_query_model_get_preset (f->model), ==, 0);
}

/* Names for tabs and for the type pickers */
static void
test_names (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *service_only = NULL;
  g_autofree char *both = NULL;
  g_autofree char *cpu = embers_profile_type_describe (CPU);
  g_autofree char *odd = embers_profile_type_describe ("not a type");

  embers_query_model_set_service (f->model, "checkout");
  service_only = embers_query_model_dup_short_name (f->model);
  g_assert_cmpstr (service_only, ==, "checkout");
  embers_query_model_set_profile_type (f->model, CPU);
  both = embers_query_model_dup_short_name (f->model);
  g_assert_cmpstr (both, ==, "checkout · cpu");

  g_assert_cmpstr (cpu, ==, "process_cpu · cpu (nanoseconds)");

  /* Export names: service, sample type, the range's end; safe */
  {
    g_autofree char *stem = NULL;
    g_autofree char *odd_service = NULL;
    g_autofree char *a = embers_file_name_make_safe ("{service_name=\"api\"}: 23:26 vs 00:26");
    g_autofree char *b = embers_file_name_make_safe ("../../etc/passwd");
    g_autofree char *c = embers_file_name_make_safe ("\"/:*?<>|");
    g_autofree char *d = embers_file_name_make_safe ("checkout · cpu");

    g_setenv ("TZ", "UTC", TRUE);
    stem = embers_query_model_dup_file_stem (f->model);
    g_assert_cmpstr (stem, ==, "checkout_cpu_2023-11-14_2213");
    embers_query_model_set_service (f->model, "a/b\\c");
    odd_service = embers_query_model_dup_file_stem (f->model);
    g_assert_null (strchr (odd_service, '/'));
    g_assert_null (strchr (odd_service, '\\'));
    g_assert_cmpstr (a, ==, "service_name_api_ 23_26 vs 00_26");
    g_assert_cmpstr (b, ==, "etc_passwd");
    g_assert_cmpstr (c, ==, "profile");
    g_assert_cmpstr (d, ==, "checkout · cpu");
  }
  g_assert_cmpstr (odd, ==, "not a type");
}

/* Bindings: a view binds to the model's properties */
static void
test_binding (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(EmbersQueryModel) other = embers_query_model_new (NULL);

  g_object_bind_property (f->model, "service", other, "service", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  embers_query_model_set_service (f->model, "checkout");
  g_assert_cmpstr (embers_query_model_get_service (other), ==, "checkout");
  embers_query_model_set_service (other, "cart");
  g_assert_cmpstr (embers_query_model_get_service (f->model), ==, "cart");
  g_assert_cmpuint (f->n_changed, ==, 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/embers/query-model/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("defaults", test_defaults);
  ADD ("setters-notify", test_setters_notify);
  ADD ("filters", test_filters);
  ADD ("time", test_time);
  ADD ("batch", test_batch);
  ADD ("state", test_state);
  ADD ("names", test_names);
  ADD ("binding", test_binding);
#undef ADD

  return g_test_run ();
}
