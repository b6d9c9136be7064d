/* fuzz-common.h: shared set-up and profile checks for the libFuzzer targets.
 *
 * Each target parses hostile bytes with one reader; when the reader accepts
 * them, the resulting profile is walked, its documented invariants are
 * checked, the top table is computed and printed, and the profile is written
 * back with every writer. A broken invariant aborts, so libFuzzer keeps the
 * input as a crash.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "embers-format.h"
#include "embers-profile.h"
#include "embers-readers.h"
#include "embers-svg.h"
#include "embers-top.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define fuzz_fail(...) \
  G_STMT_START { \
    fprintf (stderr, "fuzz invariant broken: " __VA_ARGS__); \
    fputc ('\n', stderr); \
    abort (); \
  } G_STMT_END

/* EMBERS_FUZZ_NO_ROUND_TRIP=1 skips reading the writers' output back, to
 * keep fuzzing for memory errors while a round-trip bug is being fixed;
 * a list such as "pprof,folded" skips only those writers. */
static const char *fuzz_skip_round_trips = NULL;

static void
fuzz_init (void)
{
  fuzz_skip_round_trips = g_getenv ("EMBERS_FUZZ_NO_ROUND_TRIP");

  /* A critical or warning from hostile input is a bug in the reader (a
   * g_return_if_fail() hit, or a message to stderr instead of a GError). */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
}

static void
fuzz_check_error (const char   *what,
                  const GError *error)
{
  if (error == NULL)
    fuzz_fail ("%s failed without setting a GError", what);
  if (error->domain != EMBERS_PROFILE_ERROR)
    fuzz_fail ("%s: error in domain %s, not embers-profile-error: %s",
               what, g_quark_to_string (error->domain), error->message);
  if (error->message == NULL || error->message[0] == '\0')
    fuzz_fail ("%s: error without a message", what);
  if (!g_utf8_validate (error->message, -1, NULL))
    fuzz_fail ("%s: error message is not valid UTF-8", what);
}

/* The tree: DFS pre-order, node 0 the root, subtree [i, end(i)), totals are
 * self plus the children's totals, depth one more than the parent's. */
static void
fuzz_check_tree (EmbersProfile *profile)
{
  guint n_nodes = embers_profile_get_n_nodes (profile);
  guint n_types = embers_profile_get_n_sample_types (profile);
  guint n_strings = embers_profile_get_n_strings (profile);
  guint max_depth = embers_profile_get_max_depth (profile);
  const guint32 *names = embers_profile_get_name_column (profile);
  const guint32 *parents = embers_profile_get_parent_column (profile);
  const guint32 *ends = embers_profile_get_end_column (profile);
  const guint16 *depths = embers_profile_get_depth_column (profile);
  guint seen_max_depth = 0;

  if (n_nodes == 0)
    fuzz_fail ("a profile without a root node");
  if (n_strings == 0)
    fuzz_fail ("a profile without the empty string");
  if (embers_profile_get_string (profile, 0) == NULL
      || embers_profile_get_string (profile, 0)[0] != '\0')
    fuzz_fail ("string 0 is not the empty string");
  if (parents[0] != EMBERS_NODE_NONE)
    fuzz_fail ("the root has parent %u", parents[0]);
  if (ends[0] != n_nodes)
    fuzz_fail ("the root's subtree ends at %u, not %u", ends[0], n_nodes);
  if (depths[0] != 0)
    fuzz_fail ("the root has depth %u", depths[0]);
  if (embers_profile_get_default_sample_type (profile) >= MAX (n_types, 1))
    fuzz_fail ("default sample type %u out of %u",
               embers_profile_get_default_sample_type (profile), n_types);

  for (guint t = 0; t < n_types; t++)
    {
      if (embers_profile_get_sample_type (profile, t) == NULL
          || embers_profile_get_sample_unit (profile, t) == NULL)
        fuzz_fail ("sample type %u has no name or unit", t);
    }

  for (guint i = 0; i < n_nodes; i++)
    {
      const char *name;

      if (names[i] >= n_strings)
        fuzz_fail ("node %u has name %u of %u strings", i, names[i], n_strings);
      name = embers_profile_node_name_str (profile, i);
      if (name == NULL)
        fuzz_fail ("node %u has a NULL name", i);
      if (ends[i] <= i || ends[i] > n_nodes)
        fuzz_fail ("node %u has subtree end %u of %u nodes", i, ends[i], n_nodes);
      if (depths[i] > seen_max_depth)
        seen_max_depth = depths[i];

      if (i > 0)
        {
          guint32 p = parents[i];

          if (p >= i)
            fuzz_fail ("node %u has parent %u, not before it", i, p);
          if (ends[i] > ends[p])
            fuzz_fail ("node %u's subtree [%u, %u) leaves its parent's [%u, %u)",
                       i, i, ends[i], p, ends[p]);
          if (depths[i] != depths[p] + 1)
            fuzz_fail ("node %u has depth %u under a parent of depth %u",
                       i, depths[i], depths[p]);
        }

      /* Pre-order: the children's subtrees tile [i + 1, end(i)). */
      for (guint32 c = i + 1; c < ends[i]; )
        {
          if (parents[c] != i)
            fuzz_fail ("node %u inside node %u's subtree has parent %u", c, i, parents[c]);
          if (ends[c] <= c)
            fuzz_fail ("node %u has subtree end %u", c, ends[c]);
          c = ends[c];
          if (c > ends[i])
            fuzz_fail ("a child's subtree ends at %u, after its parent %u's end %u",
                       c, i, ends[i]);
        }
    }

  if (seen_max_depth != max_depth)
    fuzz_fail ("max depth is %u, the deepest node has depth %u", max_depth, seen_max_depth);

  for (guint t = 0; t < n_types; t++)
    {
      const gint64 *self = embers_profile_get_self_column (profile, t);
      const gint64 *total = embers_profile_get_total_column (profile, t);
      g_autofree guint64 *sum = g_new (guint64, n_nodes);

      /* Wrapping sums: the check must not itself overflow. */
      for (guint i = 0; i < n_nodes; i++)
        sum[i] = (guint64) self[i];
      for (guint i = n_nodes; i-- > 1; )
        sum[parents[i]] += (guint64) total[i];
      for (guint i = 0; i < n_nodes; i++)
        if (sum[i] != (guint64) total[i])
          fuzz_fail ("node %u, type %u: total %" G_GINT64_FORMAT
                     " is not self %" G_GINT64_FORMAT " plus the children's",
                     i, t, total[i], self[i]);
      if (embers_profile_get_total (profile, t) != total[0])
        fuzz_fail ("type %u: profile total %" G_GINT64_FORMAT " is not the root's %"
                   G_GINT64_FORMAT, t, embers_profile_get_total (profile, t), total[0]);
    }
}

static void
fuzz_check_samples (EmbersProfile *profile)
{
  guint n_nodes = embers_profile_get_n_nodes (profile);
  guint n_types = embers_profile_get_n_sample_types (profile);
  guint n_strings = embers_profile_get_n_strings (profile);
  guint n_samples = embers_profile_get_n_samples (profile);
  guint n_sets = embers_profile_get_n_label_sets (profile);

  for (guint s = 0; s < n_samples; s++)
    {
      guint32 node = embers_profile_sample_node (profile, s);
      guint32 set = embers_profile_sample_label_set (profile, s);

      if (node >= n_nodes)
        fuzz_fail ("sample %u is at node %u of %u", s, node, n_nodes);
      if (n_sets > 0 && set >= n_sets)
        fuzz_fail ("sample %u has label set %u of %u", s, set, n_sets);
      for (guint t = 0; t < n_types; t++)
        (void) embers_profile_sample_value (profile, s, t);
    }

  for (guint32 set = 0; set < n_sets; set++)
    {
      guint n_labels = 0;
      const EmbersLabel *labels = embers_profile_get_label_set (profile, set, &n_labels);

      if (n_labels > 0 && labels == NULL)
        fuzz_fail ("label set %u has %u labels and no array", set, n_labels);
      for (guint l = 0; l < n_labels; l++)
        {
          if (labels[l].key >= n_strings || labels[l].str >= n_strings
              || labels[l].num_unit >= n_strings)
            fuzz_fail ("label set %u, label %u refers to a string out of %u",
                       set, l, n_strings);
          (void) strlen (embers_profile_get_string (profile, labels[l].key));
          (void) strlen (embers_profile_get_string (profile, labels[l].str));
        }
    }
}

static void
fuzz_check_top (EmbersProfile *profile,
                guint          sample_type)
{
  g_autoptr(GArray) rows = embers_top_compute (profile, sample_type);
  g_autoptr(GString) out = g_string_new (NULL);

  if (rows == NULL)
    fuzz_fail ("no top table for sample type %u", sample_type);
  embers_top_print (rows, profile, 50, out);

  /* Safe text out: one row per line, three columns, no control
   * characters but the separators, valid UTF-8 (names are escaped) */
  if (!g_utf8_validate (out->str, out->len, NULL))
    fuzz_fail ("--top output is not valid UTF-8");
  {
    guint tabs = 0, rows_seen = 0;

    for (gsize i = 0; i < out->len; i++)
      {
        guchar c = (guchar) out->str[i];

        if (c == '\t')
          tabs++;
        else if (c == '\n')
          {
            if (tabs != 2)
              fuzz_fail ("--top row %u has %u tabs, not 2", rows_seen, tabs);
            tabs = 0;
            rows_seen++;
          }
        else if (c < 0x20 || c == 0x7f)
          fuzz_fail ("--top output holds control byte 0x%02x", c);
      }
    if (rows_seen != MIN (rows->len, 50))
      fuzz_fail ("--top printed %u rows of %u", rows_seen, MIN (rows->len, 50));
  }
  embers_top_sort (rows, profile, EMBERS_TOP_SORT_TOTAL, TRUE);
  embers_top_sort (rows, profile, EMBERS_TOP_SORT_NAME, FALSE);
  for (guint r = 0; r < rows->len; r++)
    {
      EmbersTopRow *row = &g_array_index (rows, EmbersTopRow, r);

      if (row->name >= embers_profile_get_n_strings (profile))
        fuzz_fail ("top row %u names string %u", r, row->name);
      if (row->self > row->total)
        fuzz_fail ("top row %u has self %" G_GINT64_FORMAT " above total %" G_GINT64_FORMAT,
                   r, row->self, row->total);
    }
}

typedef EmbersProfile *(*FuzzReader) (const guint8 *data, gsize len, GError **error);

static EmbersProfile *
fuzz_read_pprof (const guint8 *data, gsize len, GError **error)
{
  return embers_pprof_parse (data, len, error);
}

static EmbersProfile *
fuzz_read_folded (const guint8 *data, gsize len, GError **error)
{
  return embers_folded_parse ((const char *) data, len, error);
}

static EmbersProfile *
fuzz_read_flamebearer (const guint8 *data, gsize len, GError **error)
{
  return embers_flamebearer_parse ((const char *) data, len, error);
}

G_GNUC_UNUSED static EmbersProfile *
fuzz_read_perf_script (const guint8 *data, gsize len, GError **error)
{
  return embers_perf_script_parse ((const char *) data, len, error);
}

G_GNUC_UNUSED static EmbersProfile *
fuzz_read_cpuprofile (const guint8 *data, gsize len, GError **error)
{
  return embers_cpuprofile_parse ((const char *) data, len, error);
}

G_GNUC_UNUSED static EmbersProfile *
fuzz_read_chrome_trace (const guint8 *data, gsize len, GError **error)
{
  return embers_chrome_trace_parse ((const char *) data, len, error);
}

G_GNUC_UNUSED static EmbersProfile *
fuzz_read_speedscope (const guint8 *data, gsize len, GError **error)
{
  return embers_speedscope_parse ((const char *) data, len, error);
}

G_GNUC_UNUSED static EmbersProfile *
fuzz_read_jfr (const guint8 *data, gsize len, GError **error)
{
  return embers_jfr_parse (data, len, error);
}

/* What a user's open does: gzip check, sniffing, then the reader. A
 * writer's output must come back this way, not only through its own
 * reader (a folded file the sniffer called binary was issue 15's 9th) */
static EmbersProfile *
fuzz_read_sniffed (const guint8 *data, gsize len, GError **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, len);

  return embers_profile_load_bytes (bytes, NULL, error);
}

/* Writes the profile with a writer, and reads the output back: a writer's
 * output must be readable by its own reader, with the same total. An empty
 * profile may be refused with EMBERS_PROFILE_ERROR_EMPTY. */
static void
fuzz_round_trip (EmbersProfile *profile,
                 const char    *what,
                 GBytes        *written,
                 GError        *write_error,
                 FuzzReader     reader,
                 guint          sample_type,
                 gboolean       all_types)
{
  g_autoptr(EmbersProfile) again = NULL;
  g_autoptr(GError) error = NULL;
  const guint8 *data;
  gsize len;

  if (written == NULL)
    {
      /* Writers may refuse what they cannot represent, with a GError. */
      fuzz_check_error (what, write_error);
      return;
    }

  if (fuzz_skip_round_trips != NULL)
    {
      g_auto(GStrv) skip = g_strsplit (fuzz_skip_round_trips, ",", -1);

      for (guint i = 0; skip[i] != NULL; i++)
        if (g_str_equal (skip[i], "1") || (skip[i][0] != '\0' && g_str_has_prefix (what, skip[i])))
          return;
    }

  data = g_bytes_get_data (written, &len);
  again = reader (data, len, &error);
  if (again == NULL)
    {
      fuzz_check_error (what, error);
      if (g_error_matches (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY))
        return;
      fuzz_fail ("%s wrote %" G_GSIZE_FORMAT " bytes its reader refuses: %s",
                 what, len, error->message);
    }

  fuzz_check_tree (again);

  if (all_types)
    {
      if (embers_profile_get_n_sample_types (again) != embers_profile_get_n_sample_types (profile))
        fuzz_fail ("%s: %u sample types became %u", what,
                   embers_profile_get_n_sample_types (profile),
                   embers_profile_get_n_sample_types (again));
      for (guint t = 0; t < embers_profile_get_n_sample_types (profile); t++)
        if (embers_profile_get_total (again, t) != embers_profile_get_total (profile, t))
          fuzz_fail ("%s: type %u total %" G_GINT64_FORMAT " became %" G_GINT64_FORMAT,
                     what, t, embers_profile_get_total (profile, t),
                     embers_profile_get_total (again, t));
    }
  else if (embers_profile_get_n_sample_types (again) > 0
           && embers_profile_get_total (again, 0) != embers_profile_get_total (profile, sample_type))
    {
      fuzz_fail ("%s: total %" G_GINT64_FORMAT " became %" G_GINT64_FORMAT, what,
                 embers_profile_get_total (profile, sample_type),
                 embers_profile_get_total (again, 0));
    }
}
static void
fuzz_count_frames (GMarkupParseContext  *context,
                   const char           *element,
                   const char          **names,
                   const char          **values,
                   gpointer              user_data,
                   GError              **error)
{
  guint *counts = user_data;

  if (g_str_equal (element, "g"))
    for (guint i = 0; names[i] != NULL; i++)
      if (g_str_equal (names[i], "class") && g_str_has_prefix (values[i], "f"))
        counts[0]++;
  if (g_str_equal (element, "script"))
    counts[1]++;
}

/* The SVG export of the profile: well-formed XML whatever the names, one
 * <g class="f…"> per rect, our one script */
static void
fuzz_check_svg (EmbersProfile *profile,
                guint          sample_type)
{
  EmbersViewport vp;
  g_autoptr(EmbersLayout) layout = NULL;
  g_autoptr(EmbersRender) render = NULL;
  g_autoptr(GBytes) svg = NULL;
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) error = NULL;
  GMarkupParser parser = { .start_element = fuzz_count_frames };
  guint counts[2] = { 0, 0 };

  embers_viewport_init (&vp, 1200);
  layout = embers_layout_new (profile, sample_type, 0, &vp);
  render = embers_render_new (layout, NULL, NULL);
  svg = embers_svg_write (&render, 1, 1200, 0, EMBERS_DIFF_WIDTH_SUM);
  context = g_markup_parse_context_new (&parser, 0, counts, NULL);
  if (!g_markup_parse_context_parse (context, g_bytes_get_data (svg, NULL), g_bytes_get_size (svg), &error) ||
      !g_markup_parse_context_end_parse (context, &error))
    fuzz_fail ("the SVG export is not well-formed: %s", error->message);
  if (counts[0] != embers_layout_get_n_rects (layout))
    fuzz_fail ("the SVG export has %u frames for %u rects", counts[0], embers_layout_get_n_rects (layout));
  if (counts[1] != 1)
    fuzz_fail ("the SVG export has %u scripts", counts[1]);
}


static void
fuzz_exercise (EmbersProfile *profile)
{
  guint n_types = embers_profile_get_n_sample_types (profile);
  guint n_nodes = embers_profile_get_n_nodes (profile);
  guint type = embers_profile_get_default_sample_type (profile);

  fuzz_check_tree (profile);
  fuzz_check_samples (profile);

  (void) embers_profile_get_memory_size (profile);
  (void) embers_profile_get_period_type (profile);
  (void) embers_profile_get_period_unit (profile);
  (void) embers_profile_is_diff (profile);

  /* A few stacks: the deepest-numbered node, and some in between. */
  for (guint32 i = 0; i < n_nodes; i += 1 + n_nodes / 8)
    g_free (embers_profile_node_stack (profile, i, ";"));
  g_free (embers_profile_node_stack (profile, n_nodes - 1, ";"));

  for (guint t = 0; t < n_types; t++)
    {
      if (embers_profile_find_sample_type (profile, embers_profile_get_sample_type (profile, t)) < 0)
        fuzz_fail ("sample type %u (%s) cannot be found by name",
                   t, embers_profile_get_sample_type (profile, t));
      fuzz_check_top (profile, t);
    }

  if (n_types == 0)
    return;

  fuzz_check_svg (profile, type);

  /* Writers, and their output read back. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) out = embers_pprof_write (profile, &error);

    fuzz_round_trip (profile, "pprof writer", out, error, fuzz_read_pprof, type,
                     !embers_profile_is_diff (profile));
    fuzz_round_trip (profile, "pprof writer (sniffed)", out, error, fuzz_read_sniffed, type,
                     !embers_profile_is_diff (profile));
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) out = embers_folded_write (profile, type, &error);

    fuzz_round_trip (profile, "folded writer", out, error, fuzz_read_folded, type, FALSE);
    fuzz_round_trip (profile, "folded writer (sniffed)", out, error, fuzz_read_sniffed, type, FALSE);

    /* Once read back, writing is a fixpoint: names made to fit map to
     * themselves (names that only differed in what was dropped, such as
     * white space around them, have merged on the first read) */
    if (out != NULL && (fuzz_skip_round_trips == NULL || !strstr (fuzz_skip_round_trips, "folded")))
      {
        g_autoptr(GError) again_error = NULL;
        g_autoptr(EmbersProfile) again = embers_folded_parse (g_bytes_get_data (out, NULL),
                                                              g_bytes_get_size (out), &again_error);
        g_autoptr(GBytes) out2 = again != NULL ? embers_folded_write (again, 0, &again_error) : NULL;
        g_autoptr(EmbersProfile) again2 = NULL;
        g_autoptr(GBytes) out3 = NULL;

        if (out2 != NULL)
          {
            again2 = embers_folded_parse (g_bytes_get_data (out2, NULL), g_bytes_get_size (out2),
                                          &again_error);
            if (again2 == NULL)
              fuzz_fail ("folded writer: its second output does not read: %s", again_error->message);
            out3 = embers_folded_write (again2, 0, &again_error);
            if (out3 == NULL || !g_bytes_equal (out2, out3))
              fuzz_fail ("folded writer: not a fixpoint after one read (%" G_GSIZE_FORMAT " bytes)",
                         g_bytes_get_size (out2));
          }
      }
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GBytes) out = embers_flamebearer_write (profile, type, &error);

    fuzz_round_trip (profile, "flamebearer writer", out, error, fuzz_read_flamebearer, type,
                     FALSE);
    fuzz_round_trip (profile, "flamebearer writer (sniffed)", out, error, fuzz_read_sniffed, type,
                     FALSE);
  }
}

/* Runs one reader on one input. */
static inline int
fuzz_one (const char   *what,
          FuzzReader    reader,
          const uint8_t *data,
          size_t        size)
{
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  profile = reader (data, size, &error);
  if (profile == NULL)
    {
      fuzz_check_error (what, error);
      return 0;
    }
  if (error != NULL)
    fuzz_fail ("%s returned a profile and set an error: %s", what, error->message);

  fuzz_exercise (profile);
  return 0;
}
