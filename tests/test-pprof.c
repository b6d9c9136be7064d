/* test-pprof.c: pprof reader and writer on hand-built messages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "profile.pb-c.h"

#include "embers-format.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"
#include "embers-top.h"

/* A small profile builder over the protobuf-c structs */
typedef struct
{
  Google__V1__Profile   msg;
  GPtrArray            *strings;
  GPtrArray            *keep;     /* everything allocated, freed at the end */
  GPtrArray            *samples;
  GPtrArray            *locations;
  GPtrArray            *functions;
  GPtrArray            *mappings;
  GPtrArray            *types;
} PB;

static gpointer
keep (PB      *pb,
      gpointer p)
{
  g_ptr_array_add (pb->keep, p);
  return p;
}

static gint64
str (PB         *pb,
     const char *s)
{
  for (guint i = 0; i < pb->strings->len; i++)
    if (g_str_equal (g_ptr_array_index (pb->strings, i), s))
      return i;
  g_ptr_array_add (pb->strings, keep (pb, g_strdup (s)));
  return pb->strings->len - 1;
}

static PB *
pb_new (void)
{
  PB *pb = g_new0 (PB, 1);

  google__v1__profile__init (&pb->msg);
  pb->strings = g_ptr_array_new ();
  pb->keep = g_ptr_array_new_with_free_func (g_free);
  pb->samples = g_ptr_array_new ();
  pb->locations = g_ptr_array_new ();
  pb->functions = g_ptr_array_new ();
  pb->mappings = g_ptr_array_new ();
  pb->types = g_ptr_array_new ();
  str (pb, "");
  return pb;
}

static void
pb_free (PB *pb)
{
  g_ptr_array_unref (pb->strings);
  g_ptr_array_unref (pb->samples);
  g_ptr_array_unref (pb->locations);
  g_ptr_array_unref (pb->functions);
  g_ptr_array_unref (pb->mappings);
  g_ptr_array_unref (pb->types);
  g_ptr_array_unref (pb->keep);
  g_free (pb);
}

static void
pb_type (PB         *pb,
         const char *type,
         const char *unit)
{
  Google__V1__ValueType *vt = keep (pb, g_new0 (Google__V1__ValueType, 1));

  google__v1__value_type__init (vt);
  vt->type = str (pb, type);
  vt->unit = str (pb, unit);
  g_ptr_array_add (pb->types, vt);
}

static void
pb_function (PB         *pb,
             guint64     id,
             const char *name,
             const char *file)
{
  Google__V1__Function *f = keep (pb, g_new0 (Google__V1__Function, 1));

  google__v1__function__init (f);
  f->id = id;
  f->name = name ? str (pb, name) : 0;
  f->filename = file ? str (pb, file) : 0;
  f->start_line = 10;
  g_ptr_array_add (pb->functions, f);
}

/* A location with inlined lines given outermost LAST, as pprof stores them */
static void
pb_location (PB            *pb,
             guint64        id,
             guint64        address,
             guint64        mapping_id,
             const guint64 *function_ids,
             guint          n)
{
  Google__V1__Location *loc = keep (pb, g_new0 (Google__V1__Location, 1));
  Google__V1__Line **lines = keep (pb, g_new0 (Google__V1__Line *, MAX (n, 1u)));

  google__v1__location__init (loc);
  loc->id = id;
  loc->address = address;
  loc->mapping_id = mapping_id;
  for (guint i = 0; i < n; i++)
    {
      lines[i] = keep (pb, g_new0 (Google__V1__Line, 1));
      google__v1__line__init (lines[i]);
      lines[i]->function_id = function_ids[i];
      lines[i]->line = 100 + i;
    }
  loc->n_line = n;
  loc->line = lines;
  g_ptr_array_add (pb->locations, loc);
}

static void
pb_mapping (PB         *pb,
            guint64     id,
            const char *file)
{
  Google__V1__Mapping *m = keep (pb, g_new0 (Google__V1__Mapping, 1));

  google__v1__mapping__init (m);
  m->id = id;
  m->memory_start = 0x400000;
  m->memory_limit = 0x500000;
  m->filename = str (pb, file);
  g_ptr_array_add (pb->mappings, m);
}

/* Locations leaf first; labels as "key=value" or "key=#num" strings */
static void
pb_sample (PB                 *pb,
           const guint64      *locations,
           guint               n_locations,
           const gint64       *values,
           guint               n_values,
           const char * const *labels)
{
  Google__V1__Sample *s = keep (pb, g_new0 (Google__V1__Sample, 1));
  guint n_labels = labels ? g_strv_length ((char **)labels) : 0;

  google__v1__sample__init (s);
  s->n_location_id = n_locations;
  s->location_id = keep (pb, g_memdup2 (locations, sizeof (guint64) * MAX (n_locations, 1u)));
  s->n_value = n_values;
  s->value = keep (pb, g_memdup2 (values, sizeof (gint64) * MAX (n_values, 1u)));
  s->n_label = n_labels;
  s->label = keep (pb, g_new0 (Google__V1__Label *, MAX (n_labels, 1u)));
  for (guint i = 0; i < n_labels; i++)
    {
      g_auto(GStrv) kv = g_strsplit (labels[i], "=", 2);
      Google__V1__Label *l = keep (pb, g_new0 (Google__V1__Label, 1));

      google__v1__label__init (l);
      l->key = str (pb, kv[0]);
      if (kv[1][0] == '#')
        {
          l->num = g_ascii_strtoll (kv[1] + 1, NULL, 10);
          l->num_unit = str (pb, "bytes");
        }
      else
        l->str = str (pb, kv[1]);
      s->label[i] = l;
    }
  g_ptr_array_add (pb->samples, s);
}

static GBytes *
pb_pack (PB *pb)
{
  gsize size;
  guint8 *buf;

  pb->msg.n_string_table = pb->strings->len;
  pb->msg.string_table = (char **)pb->strings->pdata;
  pb->msg.n_sample_type = pb->types->len;
  pb->msg.sample_type = (Google__V1__ValueType **)pb->types->pdata;
  pb->msg.n_sample = pb->samples->len;
  pb->msg.sample = (Google__V1__Sample **)pb->samples->pdata;
  pb->msg.n_location = pb->locations->len;
  pb->msg.location = (Google__V1__Location **)pb->locations->pdata;
  pb->msg.n_function = pb->functions->len;
  pb->msg.function = (Google__V1__Function **)pb->functions->pdata;
  pb->msg.n_mapping = pb->mappings->len;
  pb->msg.mapping = (Google__V1__Mapping **)pb->mappings->pdata;

  size = google__v1__profile__get_packed_size (&pb->msg);
  buf = g_malloc (MAX (size, 1));
  google__v1__profile__pack (&pb->msg, buf);
  return g_bytes_new_take (buf, size);
}

/* main -> work -> {parse (inlined into work), hash}; two sample types */
static PB *
example (void)
{
  PB *pb = pb_new ();

  pb_type (pb, "samples", "count");
  pb_type (pb, "cpu", "nanoseconds");
  pb->msg.period_type = keep (pb, g_new0 (Google__V1__ValueType, 1));
  google__v1__value_type__init (pb->msg.period_type);
  pb->msg.period_type->type = str (pb, "cpu");
  pb->msg.period_type->unit = str (pb, "nanoseconds");
  pb->msg.period = 10000000;
  pb->msg.time_nanos = 1700000000000000000;
  pb->msg.duration_nanos = 2000000000;
  pb->msg.default_sample_type = str (pb, "samples");

  pb_function (pb, 1, "main.main", "main.go");
  pb_function (pb, 2, "main.work", "work.go");
  pb_function (pb, 3, "main.parse", "parse.go");
  pb_function (pb, 4, "crypto.hash", "hash.go");
  pb_function (pb, 5, NULL, NULL);          /* no name at all */
  pb_mapping (pb, 1, "/usr/lib/libfoo.so");

  pb_location (pb, 10, 0x401000, 0, (guint64[]) { 1 }, 1);
  /* parse inlined into work: lines [parse, work] (outermost last) */
  pb_location (pb, 11, 0x402000, 0, (guint64[]) { 3, 2 }, 2);
  pb_location (pb, 12, 0x403000, 0, (guint64[]) { 4 }, 1);
  pb_location (pb, 13, 0x401234, 1, NULL, 0);   /* no lines: mapping + offset */
  pb_location (pb, 14, 0x405000, 0, (guint64[]) { 5 }, 1);

  /* leaf first */
  pb_sample (pb, (guint64[]) { 11, 10 }, 2, (gint64[]) { 3, 30000000 }, 2,
             (const char *[]) { "region=eu", "bytes=#512", NULL });
  pb_sample (pb, (guint64[]) { 12, 11, 10 }, 3, (gint64[]) { 2, 20000000 }, 2,
             (const char *[]) { "region=us", NULL });
  pb_sample (pb, (guint64[]) { 13, 10 }, 2, (gint64[]) { 1, 10000000 }, 2, NULL);
  pb_sample (pb, (guint64[]) { 14 }, 1, (gint64[]) { 4, 40000000 }, 2, NULL);
  pb_sample (pb, (guint64[]) { 11, 10 }, 2, (gint64[]) { 1, 10000000 }, 2,
             (const char *[]) { "region=eu", "bytes=#512", NULL });

  return pb;
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
  return G_MAXUINT32;
}

static void
check_example (EmbersProfile *p)
{
  guint32 n;

  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 2);
  g_assert_cmpstr (embers_profile_get_sample_type (p, 1), ==, "cpu");
  g_assert_cmpstr (embers_profile_get_sample_unit (p, 1), ==, "nanoseconds");
  g_assert_cmpuint (embers_profile_get_default_sample_type (p), ==, 0);
  g_assert_cmpstr (embers_profile_get_period_type (p), ==, "cpu");
  g_assert_cmpint (embers_profile_get_period (p), ==, 10000000);
  g_assert_cmpint (embers_profile_get_time_nanos (p), ==, 1700000000000000000);
  g_assert_cmpint (embers_profile_get_duration_nanos (p), ==, 2000000000);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 11);
  g_assert_cmpint (embers_profile_get_total (p, 1), ==, 110000000);

  /* Inlined: parse below work, both below main */
  n = find (p, "main.main;main.work;main.parse");
  g_assert_cmpuint (n, !=, G_MAXUINT32);
  g_assert_cmpint (embers_profile_node_self (p, 0, n), ==, 4);
  g_assert_cmpint (embers_profile_node_total (p, 0, n), ==, 6);
  g_assert_cmpuint (find (p, "main.main;main.parse"), ==, G_MAXUINT32);

  n = find (p, "main.main;main.work;main.parse;crypto.hash");
  g_assert_cmpint (embers_profile_node_self (p, 1, n), ==, 20000000);

  /* No lines: the mapping's file name and offset */
  g_assert_cmpuint (find (p, "main.main;libfoo.so+0x1234"), !=, G_MAXUINT32);
  /* No function name: the location's address */
  g_assert_cmpuint (find (p, "0x405000"), !=, G_MAXUINT32);

  /* File and line of a function */
  {
    guint32 node = find (p, "main.main;main.work");
    guint32 name = embers_profile_node_name (p, node);

    g_assert_cmpstr (embers_profile_get_string (p, embers_profile_get_name_file (p, name)), ==, "work.go");
    g_assert_cmpint (embers_profile_get_name_line (p, name), >, 0);
  }

  /* Labels: (parse, {region=eu, bytes=512}) twice merged, (hash, {us}) */
  g_assert_cmpuint (embers_profile_get_n_samples (p), ==, 4);
  {
    gboolean saw_eu = FALSE, saw_num = FALSE;

    for (guint s = 0; s < embers_profile_get_n_samples (p); s++)
      {
        guint n_labels;
        const EmbersLabel *labels = embers_profile_get_label_set (p, embers_profile_sample_label_set (p, s), &n_labels);

        for (guint l = 0; l < n_labels; l++)
          {
            const char *key = embers_profile_get_string (p, labels[l].key);

            if (g_str_equal (key, "region") && g_str_equal (embers_profile_get_string (p, labels[l].str), "eu"))
              {
                saw_eu = TRUE;
                g_assert_cmpint (embers_profile_sample_value (p, s, 0), ==, 4);
              }
            if (g_str_equal (key, "bytes"))
              {
                saw_num = TRUE;
                g_assert_cmpint (labels[l].num, ==, 512);
                g_assert_cmpstr (embers_profile_get_string (p, labels[l].num_unit), ==, "bytes");
              }
          }
      }
    g_assert_true (saw_eu);
    g_assert_true (saw_num);
  }
}

static void
test_pprof_read (void)
{
  PB *pb = example ();
  g_autoptr(GBytes) bytes = pb_pack (pb);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;

  p = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  check_example (p);

  /* Through the sniffing loader, gzipped */
  {
    g_autoptr(GBytes) gz = embers_gzip (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
    g_autoptr(EmbersProfile) p2 = embers_profile_load_bytes (gz, NULL, &error);

    g_assert_no_error (error);
    check_example (p2);
  }

  pb_free (pb);
}

static void
test_pprof_default_type (void)
{
  PB *pb = example ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;

  /* Unset: the last sample type, as go tool pprof does */
  pb->msg.default_sample_type = 0;
  bytes = pb_pack (pb);
  p = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embers_profile_get_default_sample_type (p), ==, 1);
  pb_free (pb);
}

/* Names for frames without a function name, most useful first */
static void
test_pprof_fallback_names (void)
{
  PB *pb = pb_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;
  Google__V1__Function *f;

  pb_type (pb, "samples", "count");
  pb_function (pb, 1, "main", NULL);
  pb_function (pb, 2, NULL, NULL);
  pb_function (pb, 3, NULL, NULL);
  f = pb->functions->pdata[2];
  f->system_name = str (pb, "_ZN3foo3barEv");   /* the system name is next best */
  pb_mapping (pb, 1, "/opt/app/libfoo.so");

  pb_location (pb, 1, 0, 0, (guint64[]) { 1 }, 1);
  pb_location (pb, 2, 0x401a2b, 1, (guint64[]) { 2 }, 1);   /* mapping + offset */
  pb_location (pb, 3, 0x7000, 0, (guint64[]) { 2 }, 1);     /* address */
  pb_location (pb, 4, 0, 0, (guint64[]) { 2 }, 1);          /* nothing but the function id */
  pb_location (pb, 5, 0, 0, NULL, 0);                       /* nothing but the location id */
  pb_location (pb, 6, 0x8000, 0, (guint64[]) { 3 }, 1);

  for (guint64 leaf = 2; leaf <= 6; leaf++)
    pb_sample (pb, (guint64[]) { leaf, 1 }, 2, (gint64[]) { leaf }, 1, NULL);

  bytes = pb_pack (pb);
  p = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  g_assert_cmpint (embers_profile_node_self (p, 0, find (p, "main;libfoo.so+0x1a2b")), ==, 2);
  g_assert_cmpint (embers_profile_node_self (p, 0, find (p, "main;0x7000")), ==, 3);
  g_assert_cmpint (embers_profile_node_self (p, 0, find (p, "main;function 2")), ==, 4);
  g_assert_cmpint (embers_profile_node_self (p, 0, find (p, "main;location 5")), ==, 5);
  g_assert_cmpint (embers_profile_node_self (p, 0, find (p, "main;_ZN3foo3barEv")), ==, 6);
  g_assert_cmpuint (embers_profile_get_n_nodes (p), ==, 7);
  pb_free (pb);
}

static void
same_tree (EmbersProfile *a,
           EmbersProfile *b)
{
  g_assert_cmpuint (embers_profile_get_n_nodes (a), ==, embers_profile_get_n_nodes (b));
  for (guint i = 0; i < embers_profile_get_n_nodes (a); i++)
    {
      g_assert_cmpstr (embers_profile_node_name_str (a, i), ==, embers_profile_node_name_str (b, i));
      g_assert_cmpuint (embers_profile_node_parent (a, i), ==, embers_profile_node_parent (b, i));
      for (guint t = 0; t < embers_profile_get_n_sample_types (a); t++)
        {
          g_assert_cmpint (embers_profile_node_self (a, t, i), ==, embers_profile_node_self (b, t, i));
          g_assert_cmpint (embers_profile_node_total (a, t, i), ==, embers_profile_node_total (b, t, i));
        }
    }
}

static void
test_pprof_round_trip (void)
{
  PB *pb = example ();
  g_autoptr(GBytes) bytes = pb_pack (pb);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_autoptr(GBytes) written = NULL;
  g_autoptr(EmbersProfile) again = NULL;

  g_assert_no_error (error);
  written = embers_pprof_write (p, &error);
  g_assert_no_error (error);
  again = embers_pprof_parse (g_bytes_get_data (written, NULL), g_bytes_get_size (written), &error);
  g_assert_no_error (error);
  check_example (again);
  same_tree (p, again);

  /* pprof -> folded -> profile: same tree and totals for one sample type */
  {
    g_autoptr(GBytes) folded = embers_folded_write (p, 1, &error);
    g_autoptr(EmbersProfile) f = NULL;
    g_autoptr(GArray) top_a = embers_top_compute (p, 1);
    g_autoptr(GArray) top_b = NULL;

    g_assert_no_error (error);
    f = embers_folded_parse (g_bytes_get_data (folded, NULL), g_bytes_get_size (folded), &error);
    g_assert_no_error (error);
    g_assert_cmpint (embers_profile_get_total (f, 0), ==, embers_profile_get_total (p, 1));
    g_assert_cmpuint (embers_profile_get_n_nodes (f), ==, embers_profile_get_n_nodes (p));
    for (guint i = 0; i < embers_profile_get_n_nodes (p); i++)
      {
        g_assert_cmpstr (embers_profile_node_name_str (f, i), ==, embers_profile_node_name_str (p, i));
        g_assert_cmpint (embers_profile_node_total (f, 0, i), ==, embers_profile_node_total (p, 1, i));
      }
    top_b = embers_top_compute (f, 0);
    g_assert_cmpuint (top_a->len, ==, top_b->len);
  }

  /* Save through the dispatcher, gzipped, and load through the sniffer */
  {
    g_autoptr(GBytes) gz = embers_profile_save_bytes (p, EMBERS_FORMAT_PPROF, 0, TRUE, &error);
    g_autoptr(EmbersProfile) loaded = NULL;

    g_assert_no_error (error);
    g_assert_true (embers_is_gzip (g_bytes_get_data (gz, NULL), g_bytes_get_size (gz)));
    loaded = embers_profile_load_bytes (gz, NULL, &error);
    g_assert_no_error (error);
    same_tree (p, loaded);
  }

  pb_free (pb);
}

static void
test_pprof_go_fixtures_round_trip (void)
{
  const char *names[] = { "cpu-labels.pb.gz", "heap.pb.gz", "cpu-inlined.pb.gz", "cpu-recursion.pb.gz" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", names[i], NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = embers_profile_load_file (file, NULL, &error);
      g_autoptr(GBytes) written = NULL;
      g_autoptr(EmbersProfile) again = NULL;

      g_assert_no_error (error);
      written = embers_pprof_write (p, &error);
      g_assert_no_error (error);
      again = embers_pprof_parse (g_bytes_get_data (written, NULL), g_bytes_get_size (written), &error);
      g_assert_no_error (error);
      same_tree (p, again);
      g_assert_cmpuint (embers_profile_get_default_sample_type (again), ==,
                        embers_profile_get_default_sample_type (p));
      g_assert_cmpuint (embers_profile_get_n_samples (again), ==, embers_profile_get_n_samples (p));
    }
}

typedef void (*Breaker) (PB *pb);

static void break_string_index (PB *pb) { ((Google__V1__Function *)pb->functions->pdata[0])->name = 9999; }
static void break_location_ref (PB *pb) { ((Google__V1__Sample *)pb->samples->pdata[0])->location_id[0] = 77; }
static void break_function_ref (PB *pb) { ((Google__V1__Location *)pb->locations->pdata[0])->line[0]->function_id = 42; }
static void break_mapping_ref (PB *pb) { ((Google__V1__Location *)pb->locations->pdata[0])->mapping_id = 9; }
static void break_negative (PB *pb) { ((Google__V1__Sample *)pb->samples->pdata[1])->value[1] = -5; }
static void break_value_count (PB *pb) { ((Google__V1__Sample *)pb->samples->pdata[0])->n_value = 1; }
static void break_no_types (PB *pb) { g_ptr_array_set_size (pb->types, 0); }
static void break_dup_location (PB *pb) { ((Google__V1__Location *)pb->locations->pdata[1])->id = 10; }
static void break_dup_function (PB *pb) { ((Google__V1__Function *)pb->functions->pdata[1])->id = 1; }
static void break_string_zero (PB *pb) { pb->strings->pdata[0] = (gpointer)"oops"; }
static void break_label_string (PB *pb) { ((Google__V1__Sample *)pb->samples->pdata[0])->label[0]->key = -3; }
static void break_type_string (PB *pb) { ((Google__V1__ValueType *)pb->types->pdata[0])->unit = 123456; }
static void break_zero_id (PB *pb) { ((Google__V1__Location *)pb->locations->pdata[2])->id = 0; }

/* go's profile package reads a location's undefined mapping as none (it
 * fails only for an undefined function): so do we, with the same tree */
static void
test_pprof_undefined_mapping (void)
{
  PB *pb = example ();
  PB *broken = example ();
  g_autoptr(GBytes) bytes = pb_pack (pb);
  g_autoptr(GBytes) broken_bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_autoptr(EmbersProfile) q = NULL;

  g_assert_no_error (error);
  break_mapping_ref (broken);
  broken_bytes = pb_pack (broken);
  q = embers_pprof_parse (g_bytes_get_data (broken_bytes, NULL), g_bytes_get_size (broken_bytes), &error);
  g_assert_no_error (error);
  same_tree (p, q);
  pb_free (pb);
  pb_free (broken);
}

static void
test_pprof_invalid (void)
{
  static const struct {
    Breaker     breaker;
    int         code;
    const char *fragment;
  } cases[] = {
    { break_string_index, EMBERS_PROFILE_ERROR_INVALID, "string 9999" },
    { break_location_ref, EMBERS_PROFILE_ERROR_INVALID, "location 77, which does not exist" },
    { break_function_ref, EMBERS_PROFILE_ERROR_INVALID, "function 42, which does not exist" },
    { break_negative, EMBERS_PROFILE_ERROR_INVALID, "negative cpu value" },
    { break_value_count, EMBERS_PROFILE_ERROR_INVALID, "1 values" },
    { break_no_types, EMBERS_PROFILE_ERROR_INVALID, "no sample types" },
    { break_dup_location, EMBERS_PROFILE_ERROR_INVALID, "defined twice" },
    { break_dup_function, EMBERS_PROFILE_ERROR_INVALID, "defined twice" },
    { break_string_zero, EMBERS_PROFILE_ERROR_INVALID, "empty string" },
    { break_label_string, EMBERS_PROFILE_ERROR_INVALID, "sample label" },
    { break_type_string, EMBERS_PROFILE_ERROR_INVALID, "sample type" },
    { break_zero_id, EMBERS_PROFILE_ERROR_INVALID, "id 0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      PB *pb = example ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = NULL;

      cases[i].breaker (pb);
      bytes = pb_pack (pb);
      p = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
      g_assert_null (p);
      g_assert_error (error, EMBERS_PROFILE_ERROR, cases[i].code);
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("case %u: “%s” lacks “%s”", i, error->message, cases[i].fragment);
      g_assert_true (g_str_has_prefix (error->message, "pprof: "));
      pb_free (pb);
    }
}

static void
test_pprof_too_deep (void)
{
  PB *pb = example ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;
  guint n = EMBERS_PROFILE_MAX_DEPTH + 10;
  g_autofree guint64 *ids = g_new (guint64, n);

  for (guint i = 0; i < n; i++)
    ids[i] = 10 + i % 4;   /* a cycle of locations, repeated: recursion, not a loop */
  pb_sample (pb, ids, n, (gint64[]) { 1, 1 }, 2, NULL);
  bytes = pb_pack (pb);
  p = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_null (p);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "frames deep"));
  pb_free (pb);
}

static void
test_pprof_non_utf8 (void)
{
  PB *pb = example ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;

  ((Google__V1__Function *)pb->functions->pdata[3])->name = str (pb, "bad\xff\xfename");
  bytes = pb_pack (pb);
  p = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < embers_profile_get_n_strings (p); i++)
    g_assert_true (g_utf8_validate (embers_profile_get_string (p, i), -1, NULL));
  /* Each invalid byte becomes U+FFFD; the rest of the profile is kept */
  g_assert_cmpuint (find (p, "main.main;main.work;main.parse;bad\xef\xbf\xbd\xef\xbf\xbdname"), !=, G_MAXUINT32);
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 11);
  pb_free (pb);
}

/* The label samples, as text: node, labels and values, sorted (label set
 * ids depend on the order sets were met) */
static char *
samples_text (EmbersProfile *p)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  for (guint s = 0; s < embers_profile_get_n_samples (p); s++)
    {
      GString *line = g_string_new (NULL);
      guint n_labels;
      const EmbersLabel *labels = embers_profile_get_label_set (p, embers_profile_sample_label_set (p, s), &n_labels);

      g_string_append_printf (line, "%u", embers_profile_sample_node (p, s));
      for (guint l = 0; l < n_labels; l++)
        g_string_append_printf (line, " %s=%s/%" G_GINT64_FORMAT, embers_profile_get_string (p, labels[l].key),
                                embers_profile_get_string (p, labels[l].str), labels[l].num);
      for (guint t = 0; t < embers_profile_get_n_sample_types (p); t++)
        g_string_append_printf (line, " %" G_GINT64_FORMAT, embers_profile_sample_value (p, s, t));
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  g_ptr_array_sort_values (lines, (GCompareFunc)strcmp);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (out, "%s\n", (char *)g_ptr_array_index (lines, i));
  return g_string_free (out, FALSE);
}

static void
same_samples (EmbersProfile *a,
              EmbersProfile *b)
{
  g_autofree char *ta = samples_text (a);
  g_autofree char *tb = samples_text (b);

  g_assert_cmpstr (ta, ==, tb);
}

/* The same bytes with every sample's location ids one per field instead
 * of packed (as some writers do): the same profile */
static GBytes *
unpack_location_ids (const guint8 *data,
                     gsize         len)
{
  GByteArray *out = g_byte_array_new ();
  const guint8 *p = data, *end = data + len;

  while (p < end)
    {
      const guint8 *start = p;
      guint64 tag = 0, v = 0;
      guint shift = 0;

      do
        tag |= (guint64)(*p & 0x7f) << shift, shift += 7;
      while (*p++ & 0x80);
      if ((tag & 7) == 0)
        {
          while (*p++ & 0x80)
            ;
          g_byte_array_append (out, start, p - start);
          continue;
        }
      g_assert_cmpuint (tag & 7, ==, 2);
      shift = 0;
      do
        v |= (guint64)(*p & 0x7f) << shift, shift += 7;
      while (*p++ & 0x80);
      if (tag >> 3 != 2)
        {
          g_byte_array_append (out, start, (p - start) + v);
          p += v;
          continue;
        }

      /* A sample: its field 1, packed, becomes one field per id */
      {
        GByteArray *sample = g_byte_array_new ();
        const guint8 *q = p, *qe = p + v;
        guint8 header[16];
        guint n = 0;
        guint64 slen;

        while (q < qe)
          {
            const guint8 *fs = q;
            guint8 ftag = *q++;
            guint64 flen = 0;

            shift = 0;
            if ((ftag & 7) != 2)
              {
                while (*q++ & 0x80)
                  ;
                g_byte_array_append (sample, fs, q - fs);
                continue;
              }
            do
              flen |= (guint64)(*q & 0x7f) << shift, shift += 7;
            while (*q++ & 0x80);
            if (ftag == 0x0a)
              {
                const guint8 *ids = q;

                while (ids < q + flen)
                  {
                    const guint8 *id = ids;

                    while (*ids++ & 0x80)
                      ;
                    g_byte_array_append (sample, (const guint8 *)"\x08", 1);
                    g_byte_array_append (sample, id, ids - id);
                  }
              }
            else
              g_byte_array_append (sample, fs, (q - fs) + flen);
            q += flen;
          }
        p = qe;

        header[n++] = 0x12;
        for (slen = sample->len; slen >= 0x80; slen >>= 7)
          header[n++] = (guint8)(slen | 0x80);
        header[n++] = (guint8)slen;
        g_byte_array_append (out, header, n);
        g_byte_array_append (out, sample->data, sample->len);
        g_byte_array_unref (sample);
      }
    }

  return g_byte_array_free_to_bytes (out);
}

static EmbersProfile *
read_in_pieces (GBytes   *bytes,
                gsize     piece,
                gboolean  threaded,
                guint     caller_share,
                GError  **error)
{
  EmbersPprofReader *r = embers_pprof_reader_new (NULL, threaded);
  const guint8 *data;
  gsize len;
  EmbersProfile *p = NULL;
  gboolean ok = TRUE;

  embers_pprof_reader_set_caller_share (r, caller_share);
  data = g_bytes_get_data (bytes, &len);
  for (gsize at = 0; at < len && ok; at += piece)
    ok = embers_pprof_reader_push (r, data + at, MIN (piece, len - at), error);
  if (ok)
    p = embers_pprof_reader_finish (r, NULL, error);
  embers_pprof_reader_free (r);
  return p;
}

/* The streaming reader gives what one buffer gives: whatever the blocks'
 * sizes (fields cut anywhere), on one thread or two, with the samples
 * decoded by the decoding thread, the caller, or both in turns */
static void
test_pprof_streaming (void)
{
  const char *names[] = { "cpu-labels.pb.gz", "heap.pb.gz", "cpu-inlined.pb.gz", "cpu-recursion.pb.gz" };
  const gsize pieces[] = { 1, 3, 7, 100, 4096, G_MAXSIZE };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", names[i], NULL);
      g_autofree char *contents = NULL;
      g_autoptr(GBytes) raw = NULL;
      g_autoptr(GBytes) unpacked = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) whole = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      raw = embers_gunzip ((const guint8 *)contents, len, 64 * 1024 * 1024, &error);
      g_assert_no_error (error);
      whole = embers_pprof_parse (g_bytes_get_data (raw, NULL), g_bytes_get_size (raw), &error);
      g_assert_no_error (error);

      for (guint k = 0; k < G_N_ELEMENTS (pieces); k++)
        for (guint mode = 0; mode < 4; mode++)
          {
            /* 0: no thread; 1: a thread; 2: the caller decodes every other
             * block; 3: the caller decodes them all */
            g_autoptr(EmbersProfile) p = read_in_pieces (raw, pieces[k], mode > 0,
                                                         mode == 2 ? 2 : mode == 3 ? 1 : 0, &error);

            g_assert_no_error (error);
            same_tree (whole, p);
            same_samples (whole, p);
          }

      /* Location ids one per field */
      unpacked = unpack_location_ids (g_bytes_get_data (raw, NULL), g_bytes_get_size (raw));
      g_assert_cmpuint (g_bytes_get_size (unpacked), >, g_bytes_get_size (raw));
      {
        g_autoptr(EmbersProfile) p = embers_pprof_parse (g_bytes_get_data (unpacked, NULL),
                                                         g_bytes_get_size (unpacked), &error);

        g_assert_no_error (error);
        same_tree (whole, p);
      }
    }
}

/* Two bad samples: the error names the first, whichever of the two
 * decoders read each */
static void
test_pprof_first_error_split (void)
{
  for (guint share = 0; share < 3; share++)
    {
      PB *pb = example ();
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = NULL;

      break_location_ref (pb);   /* sample 0: location 77 */
      break_negative (pb);       /* sample 1: a negative value */
      bytes = pb_pack (pb);
      p = read_in_pieces (bytes, 16, TRUE, share, &error);
      g_assert_null (p);
      g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "location 77"));
      pb_free (pb);
    }
}

/* Interim profiles (embers-input.h): each holds the unique stacks read so
 * far, in the order of their first sample (a prefix of the samples here:
 * every stack is new), with every total whole; their totals grow; the
 * last holds every sample; the final profile is the one a load without
 * them gives */
typedef struct
{
  GPtrArray *profiles;
  GArray    *fractions;
} Interims;

static void
on_interim (EmbersProfile *profile,
            double         fraction,
            gpointer       user_data)
{
  Interims *in = user_data;

  g_ptr_array_add (in->profiles, g_object_ref (profile));
  g_array_append_val (in->fractions, fraction);
}

static PB *
many_stacks (guint n_samples)
{
  PB *pb = pb_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);

  pb_type (pb, "samples", "count");
  pb_type (pb, "cpu", "nanoseconds");
  for (guint f = 1; f <= 300; f++)
    {
      g_autofree char *name = g_strdup_printf ("pkg.f%u", f);

      pb_function (pb, f, name, "f.go");
      pb_location (pb, f, 0x1000 * f, 0, (guint64[]) { f }, 1);
    }
  for (guint i = 0; i < n_samples; i++)
    {
      guint64 locs[48];
      guint depth = 2 + (guint)g_rand_int_range (rand, 0, 40);

      /* Root first here, leaf first in the file; the first two frames
       * make every stack new */
      for (guint d = 0; d < depth; d++)
        locs[depth - 1 - d] = d == 0 ? 1 + i % 50 : d == 1 ? 51 + (i / 50) % 50
                                                       : 101 + (guint)g_rand_int_range (rand, 0, 200);
      pb_sample (pb, locs, depth, (gint64[]) { 1, i + 1 }, 2, NULL);
    }
  return pb;
}

static void
test_pprof_interim (void)
{
  const guint n = 2500, every = 400;
  PB *pb = many_stacks (n);
  g_autoptr(GBytes) bytes = pb_pack (pb);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) plain = embers_pprof_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_autoptr(EmbersProfile) p = NULL;
  Interims in = { g_ptr_array_new_with_free_func (g_object_unref), g_array_new (FALSE, FALSE, sizeof (double)) };
  EmbersInputOptions options;
  EmbersPprofReader *r;
  gint64 last = 0;

  g_assert_no_error (error);
  embers_input_options_init (&options);
  options.interim = on_interim;
  options.interim_every = every;
  options.user_data = &in;
  r = embers_pprof_reader_new (&options, FALSE);
  g_assert_true (embers_pprof_reader_push (r, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  p = embers_pprof_reader_finish (r, NULL, &error);
  embers_pprof_reader_free (r);
  g_assert_no_error (error);

  /* The final profile is the plain load's */
  same_tree (plain, p);

  /* One every 400 stacks, and the last with all of them */
  g_assert_cmpuint (in.profiles->len, ==, n / every + 1);
  for (guint k = 0; k < in.profiles->len; k++)
    {
      EmbersProfile *interim = g_ptr_array_index (in.profiles, k);
      guint64 m = k + 1 < in.profiles->len ? (guint64)(k + 1) * every : n;
      gint64 total = embers_profile_node_total (interim, 1, 0);
      double fraction = g_array_index (in.fractions, double, k);

      /* The first m samples, whole: counts and values */
      g_assert_cmpint (embers_profile_node_total (interim, 0, 0), ==, (gint64)m);
      g_assert_cmpint (total, ==, (gint64)(m * (m + 1) / 2));
      g_assert_cmpfloat_with_epsilon (fraction, (double)total / embers_profile_node_total (p, 1, 0), 1e-9);
      g_assert_cmpint (total, >=, last);
      last = total;
      /* Coarse: a bounded tree, each frame's total at most the whole's */
      g_assert_cmpuint (embers_profile_get_n_nodes (interim), <=, 16384);
      g_assert_cmpuint (embers_profile_get_n_nodes (interim), <=, embers_profile_get_n_nodes (p));
      g_assert_cmpuint (embers_profile_get_n_sample_types (interim), ==, 2);
      g_assert_cmpstr (embers_profile_get_sample_type (interim, 1), ==, "cpu");
      g_assert_cmpuint (embers_profile_get_default_sample_type (interim), ==, 1);
    }
  g_assert_cmpint (last, ==, embers_profile_node_total (p, 1, 0));
  g_assert_cmpfloat (g_array_index (in.fractions, double, in.profiles->len - 1), ==, 1.0);

  g_ptr_array_unref (in.profiles);
  g_array_unref (in.fractions);
  pb_free (pb);
}

/* A profile whose top level is wide: 17,000 light stacks, each through a
 * function of its own, come first and fill the coarse tree's room; then a
 * heavy path 20 frames deep holds half the samples. The coarse profiles
 * must show that path (the light frames make way), and stay whole */
static void
test_pprof_interim_wide (void)
{
  const guint n_light = 17000, n_heavy = 17000, depth = 20;
  PB *pb = pb_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;
  Interims in = { g_ptr_array_new_with_free_func (g_object_unref), g_array_new (FALSE, FALSE, sizeof (double)) };
  EmbersInputOptions options;
  EmbersPprofReader *r;
  EmbersProfile *last;
  guint64 path[20];
  guint32 node = 0;

  pb_type (pb, "cpu", "nanoseconds");
  for (guint f = 1; f <= n_light + depth; f++)
    {
      g_autofree char *name = g_strdup_printf ("pkg.f%u", f);

      pb_function (pb, f, name, "f.go");
      pb_location (pb, f, 0x1000 * f, 0, (guint64[]) { f }, 1);
    }
  for (guint i = 0; i < n_light; i++)
    pb_sample (pb, (guint64[]) { 1 + i }, 1, (gint64[]) { 1 }, 1, NULL);
  /* Leaf first in the file */
  for (guint d = 0; d < depth; d++)
    path[depth - 1 - d] = n_light + 1 + d;
  for (guint i = 0; i < n_heavy; i++)
    pb_sample (pb, path, depth, (gint64[]) { 1 }, 1, NULL);
  bytes = pb_pack (pb);

  embers_input_options_init (&options);
  options.interim = on_interim;
  options.interim_every = 5000;
  options.user_data = &in;
  r = embers_pprof_reader_new (&options, FALSE);
  g_assert_true (embers_pprof_reader_push (r, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  p = embers_pprof_reader_finish (r, NULL, &error);
  embers_pprof_reader_free (r);
  g_assert_no_error (error);
  g_assert_cmpuint (in.profiles->len, >=, 2);

  /* The last coarse profile: every sample, and the heavy path whole to
   * its leaf (the first-come tree had no room left for it) */
  last = g_ptr_array_index (in.profiles, in.profiles->len - 1);
  g_assert_cmpint (embers_profile_node_total (last, 0, 0), ==, (gint64)(n_light + n_heavy));
  g_assert_cmpuint (embers_profile_get_n_nodes (last), <=, 16384);
  for (guint d = 0; d < depth; d++)
    {
      g_autofree char *name = g_strdup_printf ("pkg.f%u", n_light + 1 + d);
      guint32 child = EMBERS_NODE_NONE;

      for (guint32 i = 1; i < embers_profile_get_n_nodes (last) && child == EMBERS_NODE_NONE; i++)
        if (embers_profile_node_parent (last, i) == node && g_str_equal (embers_profile_node_name_str (last, i), name))
          child = i;
      g_assert_cmpuint (child, !=, EMBERS_NODE_NONE);
      g_assert_cmpint (embers_profile_node_total (last, 0, child), ==, (gint64)n_heavy);
      node = child;
    }
  /* Every coarse profile whole: its root holds every sample read */
  for (guint k = 0; k < in.profiles->len; k++)
    {
      EmbersProfile *interim = g_ptr_array_index (in.profiles, k);
      double fraction = g_array_index (in.fractions, double, k);

      g_assert_cmpfloat_with_epsilon ((double)embers_profile_node_total (interim, 0, 0) / (n_light + n_heavy),
                                      fraction, 1e-9);
      g_assert_cmpuint (embers_profile_get_n_nodes (interim), <=, 16384);
    }
  g_assert_cmpint (embers_profile_node_total (p, 0, 0), ==, (gint64)(n_light + n_heavy));

  g_ptr_array_unref (in.profiles);
  g_array_unref (in.fractions);
  pb_free (pb);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/pprof/read", test_pprof_read);
  g_test_add_func ("/embers/pprof/default-type", test_pprof_default_type);
  g_test_add_func ("/embers/pprof/fallback-names", test_pprof_fallback_names);
  g_test_add_func ("/embers/pprof/round-trip", test_pprof_round_trip);
  g_test_add_func ("/embers/pprof/go-fixtures-round-trip", test_pprof_go_fixtures_round_trip);
  g_test_add_func ("/embers/pprof/invalid", test_pprof_invalid);
  g_test_add_func ("/embers/pprof/undefined-mapping", test_pprof_undefined_mapping);
  g_test_add_func ("/embers/pprof/too-deep", test_pprof_too_deep);
  g_test_add_func ("/embers/pprof/non-utf8", test_pprof_non_utf8);
  g_test_add_func ("/embers/pprof/streaming", test_pprof_streaming);
  g_test_add_func ("/embers/pprof/first-error-split", test_pprof_first_error_split);
  g_test_add_func ("/embers/pprof/interim", test_pprof_interim);
  g_test_add_func ("/embers/pprof/interim-wide", test_pprof_interim_wide);

  return g_test_run ();
}
