/* test-readers.c: perf script, V8/Chrome, speedscope and JFR readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Recognition by content (whole and block by block), the shapes each
 * reader takes, and the errors it gives for what it refuses. What the
 * readers make of real recordings is checked against other tools in
 * test-oracle-formats.c.
 */

#include "config.h"

#include <string.h>

#include "embers-format.h"
#include "embers-input.h"
#include "embers-readers.h"
#include "embers-top.h"

static EmbersProfile *
load_text (const char  *text,
           GError     **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

  return embers_profile_load_bytes (bytes, NULL, error);
}

static EmbersProfile *
load_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile = load_text (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

static void
load_fails (const char *text,
            gint        code,
            const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = load_text (text, &error);

  g_assert_null (profile);
  g_assert_error (error, EMBERS_PROFILE_ERROR, code);
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("“%s” does not say “%s”", error->message, fragment);
}

static EmbersProfile *
load_fixture (const char *dir,
              const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", dir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  EmbersProfile *profile = embers_profile_load_file (file, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

/* "self/total" of a function in sample type @type, or "-" */
static char *
top_of (EmbersProfile *profile,
        guint          type,
        const char    *name)
{
  g_autoptr(GArray) rows = embers_top_compute (profile, type);

  for (guint i = 0; i < rows->len; i++)
    {
      EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, i);

      if (g_str_equal (embers_profile_get_string (profile, row->name), name))
        return g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, row->self, row->total);
    }
  return g_strdup ("-");
}

#define assert_top(profile, type, name, expected) \
  G_STMT_START { \
    g_autofree char *_got = top_of ((profile), (type), (name)); \
    g_assert_cmpstr (_got, ==, (expected)); \
  } G_STMT_END

static gboolean
has_stack (EmbersProfile *profile,
           const char    *stack)
{
  for (guint32 n = 1; n < embers_profile_get_n_nodes (profile); n++)
    {
      g_autofree char *s = embers_profile_node_stack (profile, n, ";");

      if (g_str_equal (s, stack))
        return TRUE;
    }
  return FALSE;
}

/* Recognition */

static const struct
{
  const char  *text;
  EmbersFormat format;
} sniff_cases[] = {
  { "perf 1234 [000] 12.345678:     250000 cpu-clock:ppp: \n\tffff81 f+0x1 ([kernel.kallsyms])\n", EMBERS_FORMAT_PERF_SCRIPT },
  { "        workload 32016  4687.574279:          1 page-faults:  ffffffff81752b6a elf_load+0x28a ([kernel.kallsyms])\n", EMBERS_FORMAT_PERF_SCRIPT },
  { "# ========\n# captured on    : Wed\n# ========\n#\nwork 9 1.5: 1 task-clock: \n", EMBERS_FORMAT_PERF_SCRIPT },
  { "Web Content 77/78 [3] 5.000001: sched:sched_switch: prev_comm=a\n", EMBERS_FORMAT_PERF_SCRIPT },
  { "# a comment\nmain;a 1\n", EMBERS_FORMAT_UNKNOWN },        /* folded has no comments */
  { "main;perf 1234 5.6: 1 cycles: 7\n", EMBERS_FORMAT_FOLDED },
  { "{\"nodes\":[{\"id\":1}],\"startTime\":0}", EMBERS_FORMAT_CPUPROFILE },
  { "{\"startTime\": 1, \"endTime\": 2, \"timeDeltas\": []}", EMBERS_FORMAT_CPUPROFILE },
  { "{\"traceEvents\":[]}", EMBERS_FORMAT_CHROME_TRACE },
  { "{\"metadata\": {\"traceEvents\": 1, \"x\": \"}\"}, \"traceEvents\": []}", EMBERS_FORMAT_CHROME_TRACE },
  { "[{\"name\":\"Profile\"}", EMBERS_FORMAT_CHROME_TRACE },
  { "{\"exporter\":\"x\",\"profiles\":[]}", EMBERS_FORMAT_SPEEDSCOPE },
  { "{\"name\":\"a \\\"nodes\\\"\",\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"}", EMBERS_FORMAT_SPEEDSCOPE },
  { "{\"version\":1,\"flamebearer\":{}}", EMBERS_FORMAT_FLAMEBEARER },
  { "{\"names\":[\"total\"],\"levels\":[]}", EMBERS_FORMAT_FLAMEBEARER },
  { "{\"version\":1}", EMBERS_FORMAT_FLAMEBEARER },
  { "{}", EMBERS_FORMAT_FLAMEBEARER },
};

static void
test_sniff_whole (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (sniff_cases); i++)
    {
      EmbersFormat got = embers_format_sniff ((const guint8 *)sniff_cases[i].text, strlen (sniff_cases[i].text));

      if (got != sniff_cases[i].format)
        g_error ("case %u (%s): %s, expected %s", i, sniff_cases[i].text, embers_format_get_name (got),
                 embers_format_get_name (sniff_cases[i].format));
    }
}

/* Byte by byte, the same answers, never earlier than the bytes allow */
static void
test_sniff_stream (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (sniff_cases); i++)
    {
      const char *text = sniff_cases[i].text;
      gsize len = strlen (text);
      EmbersFormatSniffer sniffer;
      gboolean decided = FALSE;

      embers_format_sniffer_init (&sniffer);
      for (gsize n = 1; n <= len && !decided; n++)
        decided = embers_format_sniffer_feed (&sniffer, (const guint8 *)text, n, FALSE);
      if (!decided)
        embers_format_sniffer_feed (&sniffer, (const guint8 *)text, len, TRUE);
      g_assert_true (sniffer.decided);
      g_assert_cmpint (sniffer.format, ==, sniff_cases[i].format);
    }
}

static void
test_sniff_jfr (void)
{
  static const guint8 jfr[] = { 'F', 'L', 'R', 0, 0, 2, 0, 1 };
  EmbersFormatSniffer sniffer;

  g_assert_cmpint (embers_format_sniff (jfr, sizeof jfr), ==, EMBERS_FORMAT_JFR);
  /* "FLR" alone decides nothing yet */
  embers_format_sniffer_init (&sniffer);
  g_assert_false (embers_format_sniffer_feed (&sniffer, jfr, 3, FALSE));
  g_assert_true (embers_format_sniffer_feed (&sniffer, jfr, 4, FALSE));
  g_assert_cmpint (sniffer.format, ==, EMBERS_FORMAT_JFR);
}

/* A JSON object whose telling member is far away is decided as it comes,
 * and a NUL refuses it at once */
static void
test_sniff_json_late_key (void)
{
  g_autoptr(GString) text = g_string_new ("{\"metadata\": {\"notes\": \"");
  EmbersFormatSniffer sniffer;

  for (guint i = 0; i < 20000; i++)
    g_string_append (text, "{[,\\\"");
  g_string_append (text, "\"}, \"traceEvents\": []}");
  g_assert_cmpint (embers_format_sniff ((const guint8 *)text->str, text->len), ==, EMBERS_FORMAT_CHROME_TRACE);

  embers_format_sniffer_init (&sniffer);
  g_string_truncate (text, 10000);
  g_string_append_c (text, '\0');
  g_assert_true (embers_format_sniffer_feed (&sniffer, (const guint8 *)text->str, text->len, FALSE));
  g_assert_cmpint (sniffer.format, ==, EMBERS_FORMAT_UNKNOWN);
}

/* perf script */

static void
test_perf_shapes (void)
{
  g_autoptr(EmbersProfile) p = load_ok (
    "# comment\n"
    "Web Content  77/78 [001] 10.000001:    1000 cpu-clock:u: \n"
    "\t    7f0000001000 leaf+0x10 (/usr/lib/libfoo.so)\n"
    "\t    7f0000002000 [unknown] (/usr/lib/libbar.so.1)\n"
    "\t    7f0000003000 main+0x5 (/usr/bin/app)\n"
    "\n"
    "Web Content  77/78 [001] 10.000002:    3000 cpu-clock:u: \n"
    "\tffffffff81000000 do_syscall_64+0x10 ([kernel.kallsyms])\n"
    "\t    7f0000003000 main+0x5 (/usr/bin/app)\n"
    "\n"
    "node 9 10.5: 500 cpu-clock:u: \n"
    "\t    3a0001 LazyCompile:~f /x.js:1+0x20 (/tmp/perf-9.map)\n"
    "\t    3a0002 std::vector<int, std::allocator<int> >::push_back(int const&)+0x2 (/usr/bin/node)\n"
    "\n");

  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 2);
  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "cpu-clock:u");
  g_assert_cmpstr (embers_profile_get_sample_unit (p, 0), ==, "nanoseconds");
  g_assert_cmpstr (embers_profile_get_sample_type (p, 1), ==, "cpu-clock:u samples");
  g_assert_cmpint (embers_profile_get_total (p, 0), ==, 4500);
  g_assert_cmpint (embers_profile_get_total (p, 1), ==, 3);
  /* Root first: the command, then the outermost frame; [dso] when perf
   * had no symbol; _[k] for the kernel, _[j] for JIT maps */
  g_assert_true (has_stack (p, "Web Content;main;[libbar.so.1];leaf"));
  g_assert_true (has_stack (p, "Web Content;main;do_syscall_64_[k]"));
  g_assert_true (has_stack (p, "node;std::vector<int, std::allocator<int> >::push_back(int const&);"
                               "LazyCompile:~f /x.js:1_[j]"));
  assert_top (p, 0, "main", "0/4000");
  assert_top (p, 0, "do_syscall_64_[k]", "3000/3000");
}

static void
test_perf_no_period_two_events (void)
{
  g_autoptr(EmbersProfile) p = load_ok (
    "app 5 1.0: cycles:  401000 f+0x1 (/bin/app)\n"
    "app 5 1.1: instructions:  401000 f+0x1 (/bin/app)\n"
    "app 5 1.2: cycles:  402000 g (/bin/app)\n");

  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 2);
  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "cycles");
  g_assert_cmpstr (embers_profile_get_sample_type (p, 1), ==, "instructions");
  assert_top (p, 0, "f", "1/1");
  assert_top (p, 0, "g", "1/1");
  assert_top (p, 1, "f", "1/1");
  assert_top (p, 1, "g", "-");
}

static void
test_perf_errors (void)
{
  load_fails ("app 5 1.0: 10 cycles: \n\tnot a frame line\nthis is no header\n",
              EMBERS_PROFILE_ERROR_INVALID, "line 3");
  load_fails ("# only comments\n#\n", EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT, NULL);
  {
    static const char text[] = "a 1 2.0: 3 e: \n\tff f (x)\n\0";
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) p = embers_perf_script_parse (text, sizeof text - 1, &error);

    g_assert_null (p);
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
  }
}

/* V8 and Chrome */

static void
test_cpuprofile_shapes (void)
{
  /* Children lists, sample durations from timeDeltas (the last until
   * endTime), anonymous functions, file:line from 0-based lines */
  g_autoptr(EmbersProfile) p = load_ok (
    "{\"nodes\":["
    "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":0,\"children\":[2,3]},"
    "{\"id\":3,\"callFrame\":{\"functionName\":\"\",\"scriptId\":\"5\",\"url\":\"file:///srv/app/main.js\",\"lineNumber\":9,\"columnNumber\":2},\"hitCount\":2,\"children\":[4]},"
    "{\"id\":2,\"callFrame\":{\"functionName\":\"(program)\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":1},"
    "{\"id\":4,\"callFrame\":{\"functionName\":\"work\",\"scriptId\":\"5\",\"url\":\"file:///srv/app/lib/work.js?v=2\",\"lineNumber\":0,\"columnNumber\":0},\"hitCount\":1}],"
    "\"startTime\":1000,\"endTime\":1100,\"samples\":[3,4,3,2],\"timeDeltas\":[5,10,20,30]}");

  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "cpu");
  g_assert_cmpstr (embers_profile_get_sample_type (p, 1), ==, "samples");
  /* t = 1005, 1015, 1035, 1065; durations 10, 20, 30, 35 µs */
  assert_top (p, 0, "(anonymous) main.js:10", "40000/60000");
  assert_top (p, 0, "work work.js:1", "20000/20000");
  assert_top (p, 0, "(program)", "35000/35000");
  assert_top (p, 1, "(anonymous) main.js:10", "2/3");
  g_assert_true (has_stack (p, "(anonymous) main.js:10;work work.js:1"));
  g_assert_cmpint (embers_profile_get_duration_nanos (p), ==, 100000);
}

static void
test_cpuprofile_errors (void)
{
  load_fails ("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"a\"},\"children\":[1]}],\"samples\":[1]}",
              EMBERS_PROFILE_ERROR_INVALID, "own parent");
  load_fails ("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"a\"},\"children\":[2]},"
              "{\"id\":2,\"callFrame\":{\"functionName\":\"b\"},\"children\":[1]}],\"samples\":[2]}",
              EMBERS_PROFILE_ERROR_INVALID, "cycle");
  load_fails ("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"a\"}}],\"samples\":[7]}",
              EMBERS_PROFILE_ERROR_INVALID, "no node");
  load_fails ("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"a\"}}],\"samples\":[1,1],\"timeDeltas\":[1]}",
              EMBERS_PROFILE_ERROR_INVALID, "time deltas");
  load_fails ("{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"a\"}},{\"id\":1,\"callFrame\":{}}]}",
              EMBERS_PROFILE_ERROR_INVALID, "twice");
  load_fails ("{\"nodes\":[], \"samples\":[1,]}", EMBERS_PROFILE_ERROR_INVALID, "V8 CPU profile");
}

static const char *chunks =
  "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":7,\"tid\":8,\"args\":{\"name\":\"CrRendererMain\"}},"
  "{\"args\":{\"data\":{\"startTime\":100}},\"name\":\"Profile\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":7,\"tid\":8},"
  "{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":7,\"tid\":9,\"args\":{\"data\":{\"cpuProfile\":{"
  "\"nodes\":[{\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":0},\"id\":1},"
  "{\"callFrame\":{\"functionName\":\"f\",\"url\":\"https://x.test/a.js\",\"lineNumber\":4},\"id\":2,\"parent\":1}],"
  "\"samples\":[2,2]},\"timeDeltas\":[1,2]}}},"
  "{\"name\":\"ProfileChunk\",\"ph\":\"P\",\"id\":\"0x1\",\"pid\":7,\"tid\":9,\"args\":{\"data\":{\"cpuProfile\":{"
  "\"nodes\":[{\"callFrame\":{\"functionName\":\"g\",\"url\":\"https://x.test/a.js\",\"lineNumber\":9},\"id\":3,\"parent\":2}],"
  "\"samples\":[3]},\"timeDeltas\":[4]}}}";

static void
test_chrome_trace_shapes (void)
{
  g_autofree char *object = g_strdup_printf ("{\"traceEvents\":[%s],\"metadata\":{}}", chunks);
  /* The array form may lack its closing bracket, with or without a comma */
  g_autofree char *open_array = g_strdup_printf ("[%s,\n", chunks);
  const char *texts[] = { object, open_array };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(EmbersProfile) p = load_ok (texts[i]);

      g_assert_true (has_stack (p, "CrRendererMain (pid 7);f a.js:5;g a.js:10"));
      assert_top (p, 1, "f a.js:5", "2/3");
      /* samples at 101, 103, 107: 2 µs, 4 µs, and the last one 0 */
      assert_top (p, 0, "f a.js:5", "6000/6000");
    }
  /* Older traces: a whole profile in one CpuProfile event */
  {
    g_autoptr(EmbersProfile) p = load_ok (
      "{\"traceEvents\":[{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":3,\"tid\":4,\"args\":{\"name\":\"main\"}},"
      "{\"name\":\"CpuProfile\",\"ph\":\"I\",\"pid\":3,\"tid\":4,\"args\":{\"data\":{\"cpuProfile\":{"
      "\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\"},\"children\":[2]},"
      "{\"id\":2,\"callFrame\":{\"functionName\":\"tick\",\"url\":\"app.js\",\"lineNumber\":0}}],"
      "\"startTime\":0,\"endTime\":30,\"samples\":[2,2],\"timeDeltas\":[10,10]}}}}]}");

    g_assert_true (has_stack (p, "main (pid 3);tick app.js:1"));
    /* t = 10, 20; the last lasts until endTime 30 */
    assert_top (p, 0, "tick app.js:1", "20000/20000");
    assert_top (p, 1, "tick app.js:1", "2/2");
  }
  load_fails ("{\"traceEvents\":[{\"name\":\"X\",\"ph\":\"B\"}]}", EMBERS_PROFILE_ERROR_EMPTY, "cpu_profiler");
  load_fails ("[{\"name\":\"ProfileChunk\",\"id\":\"1\",\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[],\"samples\":[5]}}}}]",
              EMBERS_PROFILE_ERROR_INVALID, "no node");
}

/* speedscope */

static void
test_speedscope_evented (void)
{
  g_autoptr(EmbersProfile) p = load_fixture ("speedscope", "evented.speedscope.json");

  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 1);
  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "time");
  g_assert_cmpstr (embers_profile_get_sample_unit (p, 0), ==, "nanoseconds");
  assert_top (p, 0, "main", "3500000/12500000");
  assert_top (p, 0, "parse", "2500000/5500000");
  assert_top (p, 0, "lex", "3000000/3000000");
  assert_top (p, 0, "emit", "3500000/4000000");
  g_assert_true (has_stack (p, "main;emit;parse"));
}

static void
test_speedscope_sampled (void)
{
  g_autoptr(EmbersProfile) p = load_fixture ("speedscope", "sampled.speedscope.json");

  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, 2);
  g_assert_cmpstr (embers_profile_get_sample_type (p, 0), ==, "bytes");
  g_assert_cmpstr (embers_profile_get_sample_type (p, 1), ==, "weight");
  assert_top (p, 0, "run", "40/100");
  assert_top (p, 0, "alloc", "10/30");
  assert_top (p, 0, "worker 1", "0/100");
  assert_top (p, 1, "alloc", "3/3");
  g_assert_true (has_stack (p, "worker 1;run;alloc;grow"));
  g_assert_true (has_stack (p, "worker 2;run;alloc"));
}

static void
test_speedscope_errors (void)
{
  const char *frames = "\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"}]}";
  g_autofree char *bad_close = g_strdup_printf ("{%s,\"profiles\":[{\"type\":\"evented\",\"name\":\"x\",\"unit\":\"none\","
                                                "\"startValue\":0,\"endValue\":2,\"events\":[{\"type\":\"O\",\"frame\":0,\"at\":0},"
                                                "{\"type\":\"C\",\"frame\":1,\"at\":1}]}]}", frames);
  g_autofree char *backwards = g_strdup_printf ("{%s,\"profiles\":[{\"type\":\"evented\",\"name\":\"x\",\"unit\":\"none\","
                                                "\"startValue\":0,\"endValue\":2,\"events\":[{\"type\":\"O\",\"frame\":0,\"at\":5},"
                                                "{\"type\":\"C\",\"frame\":0,\"at\":1}]}]}", frames);
  g_autofree char *bad_frame = g_strdup_printf ("{%s,\"profiles\":[{\"type\":\"sampled\",\"name\":\"x\",\"unit\":\"none\","
                                                "\"startValue\":0,\"endValue\":2,\"samples\":[[0,2]],\"weights\":[1]}]}", frames);
  g_autofree char *weights = g_strdup_printf ("{%s,\"profiles\":[{\"type\":\"sampled\",\"name\":\"x\",\"unit\":\"none\","
                                              "\"startValue\":0,\"endValue\":2,\"samples\":[[0],[1]],\"weights\":[1]}]}", frames);
  g_autofree char *unit = g_strdup_printf ("{%s,\"profiles\":[{\"type\":\"sampled\",\"name\":\"x\",\"unit\":\"furlongs\","
                                           "\"samples\":[],\"weights\":[]}]}", frames);

  load_fails (bad_close, EMBERS_PROFILE_ERROR_INVALID, "innermost");
  load_fails (backwards, EMBERS_PROFILE_ERROR_INVALID, "comes before");
  load_fails (bad_frame, EMBERS_PROFILE_ERROR_INVALID, "shared.frames");
  load_fails (weights, EMBERS_PROFILE_ERROR_INVALID, "weights");
  load_fails (unit, EMBERS_PROFILE_ERROR_INVALID, "furlongs");
  load_fails ("{\"$schema\":\"x\"}", EMBERS_PROFILE_ERROR_INVALID, "profiles");
}

/* JFR */

static GBytes *
fixture_bytes (const char *dir,
               const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static void
test_jfr_types (void)
{
  g_autoptr(EmbersProfile) p = load_fixture ("jfr", "jdk21-startup.jfr");
  static const char *types[] = {
    "cpu_samples", "cpu", "alloc_in_new_tlab_objects", "alloc_in_new_tlab_bytes",
    "alloc_outside_tlab_objects", "alloc_outside_tlab_bytes", "alloc_sample_objects",
    "alloc_sample_bytes", "lock_contentions", "lock_delay",
  };

  g_assert_cmpuint (embers_profile_get_n_sample_types (p), ==, G_N_ELEMENTS (types));
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    g_assert_cmpstr (embers_profile_get_sample_type (p, i), ==, types[i]);
  g_assert_cmpstr (embers_profile_get_sample_unit (p, 1), ==, "nanoseconds");
  g_assert_cmpstr (embers_profile_get_sample_unit (p, 9), ==, "nanoseconds");
  /* CPU time is what opens, as Pyroscope shows a Java service */
  g_assert_cmpuint (embers_profile_get_default_sample_type (p), ==, 1);
  g_assert_cmpint (embers_profile_get_time_nanos (p), >, 0);
  g_assert_cmpint (embers_profile_get_duration_nanos (p), >, 0);
  /* Java frames as Pyroscope names them */
  {
    g_autofree char *main_row = top_of (p, 0, "Workload.main");
    g_autofree char *spin_row = top_of (p, 0, "Workload.spin");

    g_assert_true (g_str_has_prefix (main_row, "0/"));
    g_assert_cmpstr (spin_row, !=, "-");
  }
}

static gint64
self_sum (EmbersProfile *profile,
          guint          type)
{
  g_autoptr(GArray) rows = embers_top_compute (profile, type);
  gint64 sum = 0;

  for (guint i = 0; i < rows->len; i++)
    sum += g_array_index (rows, EmbersTopRow, i).self;
  return sum;
}

/* @copy with every @from (same length as @to) replaced; how many */
static guint
replace_all (guint8     *copy,
             gsize       len,
             const char *from,
             const char *to)
{
  gsize n = strlen (from);
  guint count = 0;

  g_assert_cmpuint (strlen (to), ==, n);
  for (gsize i = 0; i + n <= len; i++)
    if (memcmp (copy + i, from, n) == 0)
      {
        memcpy (copy + i, to, n);
        count++;
      }
  return count;
}

/* CPU in nanoseconds: each execution sample weighs the period the JVM
 * sampled at (jdk.ActiveSetting "period" of jdk.ExecutionSample), as
 * Pyroscope weighs each by 1e9 / sampleRate (grafana/jfr-parser,
 * pprof/pprof.go, addStacktrace). jdk21-startup says "10 ms" (the profile
 * settings), jdk21-default "20 ms" (the JDK's default ones);
 * SamplePeriod.java reads the same with the JDK's own API, and `jfr
 * summary` counts 140 and 58 jdk.ExecutionSample events in them. */
static void
test_jfr_cpu_period (void)
{
  g_autoptr(EmbersProfile) p = load_fixture ("jfr", "jdk21-startup.jfr");
  g_autoptr(GBytes) bytes = fixture_bytes ("jfr", "jdk21-startup.jfr");
  gsize len;
  g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, &len), g_bytes_get_size (bytes));

  g_assert_cmpint (self_sum (p, 0), ==, 140);
  g_assert_cmpint (self_sum (p, 1), ==, 140 * G_GINT64_CONSTANT (10000000));

  /* A recording made with the default settings samples every 20 ms */
  {
    g_autoptr(EmbersProfile) slow = load_fixture ("jfr", "jdk21-default.jfr");

    g_assert_cmpstr (embers_profile_get_sample_type (slow, 1), ==, "cpu");
    g_assert_cmpint (self_sum (slow, 0), ==, 58);
    g_assert_cmpint (self_sum (slow, 1), ==, 58 * G_GINT64_CONSTANT (20000000));
  }

  /* A period that cannot be read is Pyroscope's default, 100 Hz */
  g_assert_cmpuint (replace_all (copy, len, "10 ms", "1q ms"), >, 0);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) unread = embers_jfr_parse (copy, len, &error);

    g_assert_no_error (error);
    g_assert_cmpint (self_sum (unread, 1), ==, 140 * G_GINT64_CONSTANT (10000000));
  }

  /* Sleeping threads' samples (async-profiler's wall-clock mode writes
   * them as execution samples) are no CPU time, as in Pyroscope: with the
   * thread states' names swapped, every sample sleeps and no CPU is left */
  {
    g_autofree guint8 *swapped = g_memdup2 (g_bytes_get_data (bytes, NULL), len);
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) asleep = NULL;

    g_assert_cmpuint (replace_all (swapped, len, "STATE_RUNNABLE", "STATE_XXXXXXXX"), ==, 1);
    g_assert_cmpuint (replace_all (swapped, len, "STATE_SLEEPING", "STATE_RUNNABLE"), ==, 1);
    g_assert_cmpuint (replace_all (swapped, len, "STATE_XXXXXXXX", "STATE_SLEEPING"), ==, 1);
    asleep = embers_jfr_parse (swapped, len, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (embers_profile_get_sample_type (asleep, 0), ==, "alloc_in_new_tlab_objects");
    for (guint t = 0; t < embers_profile_get_n_sample_types (asleep); t++)
      g_assert_false (g_str_has_prefix (embers_profile_get_sample_type (asleep, t), "cpu"));
  }

  /* Two chunks (jcmd, joined by jfr assemble), each stating its period */
  {
    g_autoptr(EmbersProfile) two = load_fixture ("jfr", "jdk17-jcmd.jfr");

    g_assert_cmpint (self_sum (two, 1), ==, self_sum (two, 0) * 10000000);
  }
}

/* Every prefix of a real recording is refused cleanly, never read half */
static void
test_jfr_truncated (void)
{
  g_autoptr(GBytes) bytes = fixture_bytes ("jfr", "jdk21-startup.jfr");
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  for (gsize cut = 0; cut < len; cut += cut < 200 ? 1 : 997)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersProfile) p = embers_jfr_parse (data, cut, &error);

      if (p != NULL)
        g_error ("a recording cut at %zu of %zu bytes was read", cut, len);
      g_assert_nonnull (error);
    }
}

static void
test_jfr_errors (void)
{
  g_autoptr(GBytes) bytes = fixture_bytes ("jfr", "jdk21-startup.jfr");
  gsize len;
  g_autofree guint8 *copy = g_memdup2 (g_bytes_get_data (bytes, &len), g_bytes_get_size (bytes));
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) p = NULL;

  /* Version 1 (JDK 9, 10) */
  copy[5] = 1;
  p = embers_jfr_parse (copy, len, &error);
  g_assert_null (p);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  copy[5] = 2;

  /* A recording still being written has no chunk size */
  memset (copy + 8, 0, 8);
  p = embers_jfr_parse (copy, len, &error);
  g_assert_null (p);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "not finished"));
}

/* The streaming input checks chunk headers as they arrive */
static void
test_jfr_input (void)
{
  g_autoptr(GBytes) bytes = fixture_bytes ("jfr", "jdk17-jcmd.jfr");
  g_autoptr(EmbersInput) input = embers_input_new (NULL);
  g_autoptr(EmbersInput) zeros = embers_input_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autofree guint8 *bad = g_malloc0 (4096);
  EmbersFormat format = EMBERS_FORMAT_UNKNOWN;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  for (gsize at = 0; at < len; at += 4096)
    g_assert_true (embers_input_push (input, data + at, MIN (4096, len - at), &error));
  out = embers_input_finish (input, &format, &error);
  g_assert_no_error (error);
  g_assert_cmpint (format, ==, EMBERS_FORMAT_JFR);

  /* One chunk, then zeros where the next chunk's header should be */
  {
    gsize first = (gsize)GUINT64_FROM_BE (*(const guint64 *)(gconstpointer)(data + 8));

    g_assert_cmpuint (first, <, len);
    g_assert_true (embers_input_push (zeros, data, first, &error));
    g_assert_false (embers_input_push (zeros, bad, 4096, &error));
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/embers/readers/sniff/whole", test_sniff_whole);
  g_test_add_func ("/embers/readers/sniff/stream", test_sniff_stream);
  g_test_add_func ("/embers/readers/sniff/jfr", test_sniff_jfr);
  g_test_add_func ("/embers/readers/sniff/json-late-key", test_sniff_json_late_key);
  g_test_add_func ("/embers/readers/perf/shapes", test_perf_shapes);
  g_test_add_func ("/embers/readers/perf/no-period-two-events", test_perf_no_period_two_events);
  g_test_add_func ("/embers/readers/perf/errors", test_perf_errors);
  g_test_add_func ("/embers/readers/v8/shapes", test_cpuprofile_shapes);
  g_test_add_func ("/embers/readers/v8/errors", test_cpuprofile_errors);
  g_test_add_func ("/embers/readers/chrome/trace", test_chrome_trace_shapes);
  g_test_add_func ("/embers/readers/speedscope/evented", test_speedscope_evented);
  g_test_add_func ("/embers/readers/speedscope/sampled", test_speedscope_sampled);
  g_test_add_func ("/embers/readers/speedscope/errors", test_speedscope_errors);
  g_test_add_func ("/embers/readers/jfr/types", test_jfr_types);
  g_test_add_func ("/embers/readers/jfr/cpu-period", test_jfr_cpu_period);
  g_test_add_func ("/embers/readers/jfr/truncated", test_jfr_truncated);
  g_test_add_func ("/embers/readers/jfr/errors", test_jfr_errors);
  g_test_add_func ("/embers/readers/jfr/input", test_jfr_input);

  return g_test_run ();
}
