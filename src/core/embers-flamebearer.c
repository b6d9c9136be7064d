/* embers-flamebearer.c: Pyroscope flame graph JSON and levels decoding
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <inttypes.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-profile-builder.h"
#include "embers-json-reader.h"
#include "embers-readers.h"

/*
 * Levels (PYROSCOPE-API.md §2): levels[d] holds the nodes at depth d sorted
 * by x, 4 integers each ([x_delta, total, self, name]) or 7 for a diff
 * ([xL_delta, totalL, selfL, xR_delta, totalR, selfR, name]). x is decoded
 * per level and per side: x = prev_end + x_delta, prev_end = x + total. A
 * node's self sits on its left: its children start at x + self.
 *
 * The reader checks all of it, and attaches a node to the parent whose
 * [x, x + total) holds it in one merge pass over two adjacent levels.
 */

#define OTHER_NAME "other"

/* One decoded node of a level */
typedef struct
{
  gint64  x[2];       /* per side (single profiles use side 0) */
  gint64  total[2];
  gint64  self[2];
  gint64  child_sum[2];
  guint32 node;       /* builder node */
  guint32 index;      /* position in its level, for messages */
} LevelNode;

/* Children that do not fill their parent's width (a gap between the
 * parent's self and its total) were cut off by whoever wrote the levels;
 * Pyroscope calls them "other", and so do we, so that totals stay right. */
static void
add_gaps (EmbersProfileBuilder *b,
          GArray               *parents,
          guint                 sides,
          guint32              *other_id)
{
  for (guint p = 0; p < parents->len; p++)
    {
      const LevelNode *pn = &g_array_index (parents, LevelNode, p);

      for (guint s = 0; s < sides; s++)
        {
          gint64 gap = pn->total[s] - pn->self[s] - pn->child_sum[s];

          if (gap > 0)
            {
              if (*other_id == 0)
                *other_id = embers_profile_builder_intern (b, OTHER_NAME, -1);
              embers_profile_builder_add_self (b, embers_profile_builder_get_child (b, pn->node, *other_id),
                                               s, gap);
            }
        }
    }
}

EmbersProfile *
embers_levels_to_profile (const char * const  *names,
                          gsize                n_names,
                          const gint64 * const *levels,
                          const gsize         *n_values,
                          gsize                n_levels,
                          gboolean             is_diff,
                          const char          *sample_type,
                          const char          *sample_unit,
                          GError             **error)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GArray) parents = g_array_new (FALSE, TRUE, sizeof (LevelNode));
  g_autoptr(GArray) current = g_array_new (FALSE, TRUE, sizeof (LevelNode));
  g_autofree guint32 *name_ids = NULL;
  guint32 other_id = 0;
  guint stride = is_diff ? 7 : 4;
  guint sides = is_diff ? 2 : 1;

  if (sample_unit == NULL || sample_unit[0] == '\0')
    sample_unit = "count";
  if (is_diff)
    {
      embers_profile_builder_add_sample_type (b, "baseline", sample_unit);
      embers_profile_builder_add_sample_type (b, "comparison", sample_unit);
      embers_profile_builder_set_diff (b, TRUE);
    }
  else
    embers_profile_builder_add_sample_type (b, sample_type && *sample_type ? sample_type : "samples",
                                            sample_unit);

  if (n_levels == 0)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                   _("the flame graph has no levels"));
      return NULL;
    }
  if (n_levels > EMBERS_PROFILE_MAX_DEPTH)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                   g_dngettext (GETTEXT_PACKAGE,
                                "the flame graph is %zu level deep; the limit is %u",
                                "the flame graph is %zu levels deep; the limit is %u",
                                n_levels),
                   n_levels, EMBERS_PROFILE_MAX_DEPTH);
      return NULL;
    }

  name_ids = g_new (guint32, MAX (n_names, 1));
  for (gsize i = 0; i < n_names; i++)
    name_ids[i] = embers_profile_builder_intern (b, names[i] ? names[i] : "", -1);

  for (gsize d = 0; d < n_levels; d++)
    {
      gsize count;
      gint64 prev_end[2] = { 0, 0 };
      guint pi = 0;

      if (n_values[d] % stride != 0)
        {
          embers_json_set_invalid (error, _("level %zu has %zu values, which is not a multiple of %u"),
                       d, n_values[d], stride);
          return NULL;
        }
      count = n_values[d] / stride;
      if (d == 0 && count != 1)
        {
          embers_json_set_invalid (error, _("level 0 must hold exactly one node (the root), not %zu"), count);
          return NULL;
        }

      g_array_set_size (current, 0);
      for (gsize k = 0; k < count; k++)
        {
          const gint64 *v = levels[d] + k * stride;
          gint64 name_index = v[stride - 1];
          LevelNode node = { { 0, }, };
          gboolean empty = TRUE;

          for (guint s = 0; s < sides; s++)
            {
              const gint64 *sv = v + s * 3;

              if (sv[0] < 0 || sv[1] < 0 || sv[2] < 0)
                {
                  embers_json_set_invalid (error, _("level %zu, node %zu has a negative value"), d, k);
                  return NULL;
                }
              if (sv[2] > sv[1])
                {
                  embers_json_set_invalid (error, _("level %zu, node %zu: self (%" PRId64 ") exceeds total (%" PRId64 ")"),
                               d, k, sv[2], sv[1]);
                  return NULL;
                }
              if (__builtin_add_overflow (prev_end[s], sv[0], &node.x[s]) ||
                  __builtin_add_overflow (node.x[s], sv[1], &prev_end[s]))
                {
                  embers_json_set_invalid (error, _("level %zu, node %zu: offsets overflow"), d, k);
                  return NULL;
                }
              node.total[s] = sv[1];
              node.self[s] = sv[2];
              if (sv[1] != 0)
                empty = FALSE;
            }

          if (name_index < 0 || (guint64)name_index >= n_names)
            {
              embers_json_set_invalid (error, _("level %zu, node %zu refers to name %" PRId64 ", but there are %zu names"),
                           d, k, name_index, n_names);
              return NULL;
            }
          node.index = (guint32)k;

          if (d == 0)
            node.node = 0;
          else if (empty)
            continue;   /* zero-width nodes carry nothing */
          else
            {
              LevelNode *parent = NULL;

              /* Parents are sorted by x: advance to the one containing x */
              while (pi < parents->len)
                {
                  LevelNode *p = &g_array_index (parents, LevelNode, pi);
                  gboolean inside = TRUE;

                  for (guint s = 0; s < sides; s++)
                    if (node.total[s] > 0 && node.x[s] >= p->x[s] + p->total[s])
                      inside = FALSE;
                  if (inside)
                    {
                      parent = p;
                      break;
                    }
                  pi++;
                }

              if (parent == NULL)
                {
                  embers_json_set_invalid (error, _("level %zu, node %zu (x %" PRId64 ") lies outside every node of level %zu"),
                               d, k, node.total[0] > 0 ? node.x[0] : node.x[1], d - 1);
                  return NULL;
                }

              for (guint s = 0; s < sides; s++)
                {
                  if (node.total[s] == 0)
                    continue;
                  /* Pyroscope puts a node's self on the left of its children */
                  if (node.x[s] < parent->x[s] + parent->self[s] ||
                      node.x[s] + node.total[s] > parent->x[s] + parent->total[s])
                    {
                      embers_json_set_invalid (error, _("level %zu, node %zu ([%" PRId64 ", %" PRId64 ")) "
                                            "does not fit inside its parent, level %zu node %u "
                                            "(children from %" PRId64 " to %" PRId64 ")"),
                                   d, k, node.x[s], node.x[s] + node.total[s], d - 1, parent->index,
                                   parent->x[s] + parent->self[s], parent->x[s] + parent->total[s]);
                      return NULL;
                    }
                  /* Siblings never overlap (deltas are >= 0) and fit
                   * inside the parent, so this cannot pass its total */
                  parent->child_sum[s] += node.total[s];
                }

              node.node = embers_profile_builder_get_child (b, parent->node, name_ids[name_index]);
            }

          for (guint s = 0; s < sides; s++)
            if (node.self[s] > 0)
              embers_profile_builder_add_self (b, node.node, s, node.self[s]);

          g_array_append_val (current, node);
        }

      add_gaps (b, parents, sides, &other_id);

      {
        GArray *tmp = parents;
        parents = current;
        current = tmp;
      }
    }

  /* The deepest level has no children: anything past self was cut off */
  add_gaps (b, parents, sides, &other_id);

  return embers_profile_builder_finish (b, error);
}

/*
 * JSON reader.
 *
 * A strict RFC 8259 reader made for this one document shape: it walks the
 * text once, keeps what a flame graph needs (names, levels, totals,
 * metadata) and checks the syntax of everything else while skipping it.
 * json-glib 1.6 needs about a second to build its tree of a 1M-node levels
 * array (4M JsonNodes), and it lets through "01", ".5", single quotes and
 * integers that overflow 64 bits; this reader does neither.
 */

typedef struct
{
  GString   *name_pool;      /* NUL-separated */
  GArray    *name_offsets;   /* gsize */
  GPtrArray *levels;         /* GArray of gint64, or NULL */
  gboolean   has_names;
  gboolean   has_levels;
  gint64     total;          /* numTicks (render API) or total (Connect) */
  gint64     ticks[2];       /* leftTicks, rightTicks */
  gboolean   has_ticks[2];
} Graph;

typedef struct
{
  Graph      top;            /* bare Connect FlameGraph(Diff) */
  Graph      flamebearer;    /* render API */
  Graph      flamegraph;     /* SelectMergeStacktracesResponse / DiffResponse */
  gboolean   has_flamebearer;
  gboolean   has_flamegraph;
  char      *format;
  char      *units;
  char      *name;
  gint64     sample_rate;
} Doc;

static void
graph_clear (Graph *g)
{
  if (g->name_pool)
    g_string_free (g->name_pool, TRUE);
  g_clear_pointer (&g->name_offsets, g_array_unref);
  g_clear_pointer (&g->levels, g_ptr_array_unref);
}

static void
doc_clear (Doc *doc)
{
  graph_clear (&doc->top);
  graph_clear (&doc->flamebearer);
  graph_clear (&doc->flamegraph);
  g_clear_pointer (&doc->format, g_free);
  g_clear_pointer (&doc->units, g_free);
  g_clear_pointer (&doc->name, g_free);
}

static gboolean
read_names (EmbersJson    *j,
            Graph   *g,
            GError **error)
{
  gboolean first = TRUE, more = TRUE;
  guint i = 0;

  if (g->name_pool)
    g_string_truncate (g->name_pool, 0);
  else
    g->name_pool = g_string_new (NULL);
  g_clear_pointer (&g->name_offsets, g_array_unref);
  g->name_offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  g->has_names = TRUE;

  if (embers_json_is_null (j))
    {
      j->p += 4;
      return TRUE;
    }
  if (*j->p != '[')
    return embers_json_wrong_type (j, error, _("“names” must be an array of strings"));
  j->p++;

  while (embers_json_next_element (j, ']', &first, &more, error) && more)
    {
      gsize offset = g->name_pool->len;

      if (*j->p != '"')
        return embers_json_wrong_type (j, error, _("name %u is not a string"), i);
      if (!embers_json_read_string (j, j->scratch, error))
        return FALSE;
      g_string_append_len (g->name_pool, j->scratch->str, j->scratch->len + 1);   /* with its NUL */
      g_array_append_val (g->name_offsets, offset);
      i++;
    }
  return !more;
}

static gboolean
read_level_values (EmbersJson    *j,
                   guint    d,
                   GArray  *values,
                   GError **error)
{
  gboolean first = TRUE, more = TRUE;

  j->p++;   /* [ */
  while (embers_json_next_element (j, ']', &first, &more, error) && more)
    {
      gint64 v;

      switch (embers_json_read_int (j, &v, error))
        {
        case EMBERS_JSON_INT:
          g_array_append_val (values, v);
          break;
        case EMBERS_JSON_NULL:
        case EMBERS_JSON_OTHER:
          embers_json_set_invalid (error, _("level %u, value %u is not a 64-bit integer"), d, values->len);
          return FALSE;
        case EMBERS_JSON_FAILED:
        default:
          return FALSE;
        }
    }
  return !more;
}

/* levels: [[ints...], ...] (render API) or [{"values": [ints...]}, ...]
 * (Connect JSON; "values" may be missing when the level is empty) */
static gboolean
read_levels (EmbersJson    *j,
             Graph   *g,
             GError **error)
{
  gboolean first = TRUE, more = TRUE;
  guint d = 0;

  g_clear_pointer (&g->levels, g_ptr_array_unref);
  g->levels = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g->has_levels = TRUE;

  if (embers_json_is_null (j))
    {
      j->p += 4;
      return TRUE;
    }
  if (*j->p != '[')
    return embers_json_wrong_type (j, error, _("“levels” must be an array"));
  j->p++;

  while (embers_json_next_element (j, ']', &first, &more, error) && more)
    {
      GArray *values = g_array_new (FALSE, FALSE, sizeof (gint64));

      g_ptr_array_add (g->levels, values);
      if (*j->p == '[')
        {
          if (!read_level_values (j, d, values, error))
            return FALSE;
        }
      else if (*j->p == '{')
        {
          gboolean mfirst = TRUE, mmore = TRUE;

          j->p++;
          while (embers_json_next_member (j, &mfirst, &mmore, error) && mmore)
            {
              if (strcmp (j->scratch->str, "values") == 0)
                {
                  g_array_set_size (values, 0);
                  if (embers_json_is_null (j))
                    j->p += 4;
                  else if (*j->p == '[')
                    {
                      if (!read_level_values (j, d, values, error))
                        return FALSE;
                    }
                  else
                    return embers_json_wrong_type (j, error, _("level %u: “values” must be an array of integers"), d);
                }
              else if (!embers_json_skip_value (j, 2, error))
                return FALSE;
            }
          if (mmore)
            return FALSE;
        }
      else
        return embers_json_wrong_type (j, error, _("level %u is not an array of integers"), d);
      d++;
    }
  return !more;
}

static gboolean
read_metadata (EmbersJson    *j,
               Doc     *doc,
               GError **error)
{
  gboolean first = TRUE, more = TRUE;

  if (embers_json_is_null (j))
    {
      j->p += 4;
      return TRUE;
    }
  if (*j->p != '{')
    return embers_json_wrong_type (j, error, _("“metadata” must be an object"));
  j->p++;

  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;
      gboolean ok;

      if (strcmp (key, "format") == 0)
        ok = embers_json_read_string_member (j, "metadata.format", &doc->format, error);
      else if (strcmp (key, "units") == 0)
        ok = embers_json_read_string_member (j, "metadata.units", &doc->units, error);
      else if (strcmp (key, "name") == 0)
        ok = embers_json_read_string_member (j, "metadata.name", &doc->name, error);
      else if (strcmp (key, "sampleRate") == 0)
        ok = embers_json_read_int_member (j, "metadata.sampleRate", &doc->sample_rate, error);
      else
        ok = embers_json_skip_value (j, 2, error);
      if (!ok)
        return FALSE;
    }
  return !more;
}

/* A FlameGraph-like object; at the top (doc != NULL) also the render API's
 * and the response wrappers' members */
static gboolean
read_graph_object (EmbersJson    *j,
                   Graph   *g,
                   Doc     *doc,
                   GError **error)
{
  gboolean first = TRUE, more = TRUE;
  guint depth = doc ? 1 : 2;

  j->p++;   /* { */
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;
      gint64 ignored;
      gboolean ok;

      if (strcmp (key, "names") == 0)
        ok = read_names (j, g, error);
      else if (strcmp (key, "levels") == 0)
        ok = read_levels (j, g, error);
      else if (strcmp (key, "numTicks") == 0)
        ok = embers_json_read_int_member (j, "numTicks", &g->total, error);
      else if (strcmp (key, "total") == 0)
        ok = embers_json_read_int_member (j, "total", &g->total, error);
      else if (strcmp (key, "leftTicks") == 0 || strcmp (key, "left_ticks") == 0 ||
               strcmp (key, "rightTicks") == 0 || strcmp (key, "right_ticks") == 0)
        {
          guint side = key[0] == 'l' ? 0 : 1;

          /* (the key's buffer is reused while reading the value) */
          ok = embers_json_read_int_member (j, side == 0 ? "leftTicks" : "rightTicks", &g->ticks[side], error);
          g->has_ticks[side] = TRUE;
        }
      else if (strcmp (key, "maxSelf") == 0 || strcmp (key, "max_self") == 0)
        ok = embers_json_read_int_member (j, "maxSelf", &ignored, error);
      else if (doc != NULL && (strcmp (key, "flamebearer") == 0 || strcmp (key, "flamegraph") == 0))
        {
          gboolean fb = key[5] == 'b';
          Graph *inner = fb ? &doc->flamebearer : &doc->flamegraph;

          if (*j->p != '{')
            return embers_json_wrong_type (j, error, "%s", fb ? _("“flamebearer” must be an object")
                                                  : _("“flamegraph” must be an object"));
          graph_clear (inner);
          memset (inner, 0, sizeof *inner);
          if (fb)
            doc->has_flamebearer = TRUE;
          else
            doc->has_flamegraph = TRUE;
          ok = read_graph_object (j, inner, NULL, error);
        }
      else if (doc != NULL && strcmp (key, "metadata") == 0)
        ok = read_metadata (j, doc, error);
      else
        ok = embers_json_skip_value (j, depth, error);

      if (!ok)
        return FALSE;
    }
  return !more;
}

/* Levels are 7 integers per node in a diff; level 0 holds the root alone */
static gboolean
graph_is_diff (Graph      *g,
               const char *format)
{
  if (format != NULL && strcmp (format, "double") == 0)
    return TRUE;
  if (format != NULL && strcmp (format, "single") == 0)
    return FALSE;
  if (g->has_ticks[0] || g->has_ticks[1])
    return TRUE;
  return g->levels != NULL && g->levels->len > 0 &&
         ((GArray *)g_ptr_array_index (g->levels, 0))->len == 7;
}

static EmbersProfile *
graph_to_profile (Graph       *g,
                  gboolean     is_diff,
                  const char  *sample_type,
                  const char  *sample_unit,
                  gint64       expected_total,
                  gint64       ticks[2],
                  gboolean     has_ticks[2],
                  GError     **error)
{
  guint n_names = g->name_offsets ? g->name_offsets->len : 0;
  guint n_levels = g->levels ? g->levels->len : 0;
  g_autofree const char **names = g_new0 (const char *, MAX (n_names, 1u));
  g_autofree const gint64 **levels = g_new0 (const gint64 *, MAX (n_levels, 1u));
  g_autofree gsize *n_values = g_new0 (gsize, MAX (n_levels, 1u));
  g_autoptr(EmbersProfile) profile = NULL;
  gint64 total;

  for (guint i = 0; i < n_names; i++)
    names[i] = g->name_pool->str + g_array_index (g->name_offsets, gsize, i);
  for (guint d = 0; d < n_levels; d++)
    {
      GArray *values = g_ptr_array_index (g->levels, d);

      levels[d] = (const gint64 *)(gpointer)values->data;
      n_values[d] = values->len;
    }

  profile = embers_levels_to_profile (names, n_names, levels, n_values, n_levels,
                                      is_diff, sample_type, sample_unit, error);
  if (profile == NULL)
    return NULL;

  /* Zero is also what protobuf's JSON leaves out: only other values count.
   * Each side fits in 64 bits (the levels were checked); both together may
   * not, and the total of a diff is both together. */
  total = embers_profile_get_total (profile, 0);
  if (is_diff && __builtin_add_overflow (total, embers_profile_get_total (profile, 1), &total))
    {
      embers_json_set_invalid (error, _("the two sides of the diff together are larger than 64 bits can hold"));
      return NULL;
    }
  if (expected_total != 0 && total != expected_total)
    {
      embers_json_set_invalid (error, _("the total says %" PRId64 " but the root of the levels is %" PRId64 " wide"),
                   expected_total, total);
      return NULL;
    }
  for (guint s = 0; is_diff && s < 2; s++)
    if (has_ticks[s] && ticks[s] != embers_profile_get_total (profile, s))
      {
        embers_json_set_invalid (error, _("“%s” says %" PRId64 " but the root of the levels has %" PRId64 " on that side"),
                     s == 0 ? "leftTicks" : "rightTicks", ticks[s], embers_profile_get_total (profile, s));
        return NULL;
      }

  return g_steal_pointer (&profile);
}

/* The render API names units Pyroscope's way: CPU time in nanoseconds is
 * "samples" at a sample rate of 1e9, counts are "objects". */
static const char *
unit_from_render_api (const char *units,
                      gint64      sample_rate)
{
  if (units == NULL || units[0] == '\0' || strcmp (units, "objects") == 0)
    return "count";
  if (strcmp (units, "samples") == 0 && sample_rate == 1000000000)
    return "nanoseconds";
  return units;
}

EmbersProfile *
embers_flamebearer_parse (const char  *data,
                          gsize        len,
                          GError     **error)
{
  g_autoptr(GString) scratch = g_string_new (NULL);
  EmbersJson j = { data, data, data + len, scratch };
  Doc doc = { { 0, }, };
  EmbersProfile *profile = NULL;

  /* A UTF-8 byte order mark */
  if (len >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    j.p += 3;

  embers_json_skip_ws (&j);
  if (j.p >= j.end)
    {
      embers_json_syntax_error (&j, error, _("there is no data"));
      goto out;
    }
  if (*j.p != '{')
    {
      if (embers_json_skip_value (&j, 0, error))
        embers_json_set_invalid (error, _("expected a JSON object"));
      goto out;
    }
  if (!read_graph_object (&j, &doc.top, &doc, error))
    goto out;
  embers_json_skip_ws (&j);
  if (j.p < j.end)
    {
      embers_json_syntax_error (&j, error, _("there is more after the JSON object"));
      goto out;
    }

  if (doc.has_flamebearer)
    {
      /* Render API: units and sample type in metadata; ticks at the top */
      gboolean is_diff = graph_is_diff (&doc.flamebearer, doc.format) ||
                         (doc.format == NULL && (doc.top.has_ticks[0] || doc.top.has_ticks[1]));

      profile = graph_to_profile (&doc.flamebearer, is_diff, doc.name,
                                  unit_from_render_api (doc.units, doc.sample_rate),
                                  doc.flamebearer.total, doc.top.ticks, doc.top.has_ticks, error);
    }
  else if (doc.has_flamegraph)
    profile = graph_to_profile (&doc.flamegraph, graph_is_diff (&doc.flamegraph, NULL),
                                "samples", "count", doc.flamegraph.total,
                                doc.flamegraph.ticks, doc.flamegraph.has_ticks, error);
  else if (doc.top.has_names || doc.top.has_levels)
    profile = graph_to_profile (&doc.top, graph_is_diff (&doc.top, NULL),
                                "samples", "count", doc.top.total,
                                doc.top.ticks, doc.top.has_ticks, error);
  else
    embers_json_set_invalid (error, _("no “flamebearer”, “flamegraph” or “levels” found"));

out:
  if (profile == NULL)
    g_prefix_error (error, "%s: ", _("Pyroscope JSON"));
  doc_clear (&doc);
  return profile;
}

/* Writer: the render API's JSON */

static void
append_json_string (GString    *out,
                    const char *s)
{
  g_autofree char *valid = NULL;

  if (!g_utf8_validate (s, -1, NULL))
    s = valid = g_utf8_make_valid (s, -1);

  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      guchar c = (guchar)*p;

      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char)c);
          break;
        }
    }
  g_string_append_c (out, '"');
}

static void
append_int (GString *out,
            gint64   v)
{
  char buf[24];
  char *p = buf + sizeof buf;
  guint64 u = v < 0 ? 0 - (guint64)v : (guint64)v;

  do
    {
      *--p = (char)('0' + u % 10);
      u /= 10;
    }
  while (u != 0);
  if (v < 0)
    *--p = '-';
  g_string_append_len (out, p, buf + sizeof buf - p);
}

/* Pyroscope's units for the render API (see unit_from_render_api) */
static void
render_api_units (const char  *unit,
                  const char **units,
                  gint64      *sample_rate)
{
  *sample_rate = 100;
  if (unit == NULL || unit[0] == '\0' || strcmp (unit, "count") == 0)
    *units = "objects";
  else if (strcmp (unit, "nanoseconds") == 0)
    {
      *units = "samples";
      *sample_rate = 1000000000;
    }
  else
    *units = unit;
}

GBytes *
embers_flamebearer_write (EmbersProfile  *profile,
                          guint           sample_type,
                          GError        **error)
{
  g_autofree guint32 *name_index = NULL;
  g_autofree gint64 *next_x = NULL;
  g_autofree gint64 *x = NULL;
  g_autofree gint64 *prev_end = NULL;
  g_autoptr(GPtrArray) level_values = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  gboolean is_diff;
  guint sides, n_nodes, n_strings, max_depth, unit_type;
  const guint32 *pnames, *parents;
  const guint16 *depths;
  const gint64 *self[2], *total[2];
  const char *units;
  gint64 max_self = 0, sample_rate, both;
  GString *out;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (profile), NULL);

  is_diff = embers_profile_is_diff (profile) && embers_profile_get_n_sample_types (profile) >= 2;
  sides = is_diff ? 2 : 1;
  unit_type = is_diff ? 0 : sample_type;
  n_nodes = embers_profile_get_n_nodes (profile);
  n_strings = embers_profile_get_n_strings (profile);
  max_depth = embers_profile_get_max_depth (profile);
  pnames = embers_profile_get_name_column (profile);
  parents = embers_profile_get_parent_column (profile);
  depths = embers_profile_get_depth_column (profile);
  for (guint s = 0; s < sides; s++)
    {
      guint t = is_diff ? s : sample_type;

      self[s] = embers_profile_get_self_column (profile, t);
      total[s] = embers_profile_get_total_column (profile, t);
    }
  /* Widths are both sides together; every node is within the root */
  if (is_diff && __builtin_add_overflow (total[0][0], total[1][0], &both))
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                   _("the two sides of the diff together are larger than 64 bits can hold"));
      return NULL;
    }

  /* Names: "total" first, then in first-seen (DFS) order */
  name_index = g_new (guint32, n_strings);
  memset (name_index, 0xff, sizeof (guint32) * n_strings);
  g_ptr_array_add (names, (gpointer)"total");
  name_index[pnames[0]] = 0;

  for (guint d = 0; d <= max_depth; d++)
    g_ptr_array_add (level_values, g_array_new (FALSE, FALSE, sizeof (gint64)));

  x = g_new0 (gint64, (gsize)n_nodes * 2);
  next_x = g_new0 (gint64, (gsize)n_nodes * 2);
  prev_end = g_new0 (gint64, (gsize)(max_depth + 1) * 2);

  /* DFS pre-order visits each level left to right; children are sorted by
   * name, as Pyroscope sorts them */
  for (guint i = 0; i < n_nodes; i++)
    {
      GArray *level = g_ptr_array_index (level_values, depths[i]);
      gint64 width = 0;
      gint64 idx;

      for (guint s = 0; s < sides; s++)
        width += total[s][i];
      if (i > 0 && width == 0)
        continue;

      if (name_index[pnames[i]] == G_MAXUINT32)
        {
          name_index[pnames[i]] = names->len;
          g_ptr_array_add (names, (gpointer)embers_profile_get_string (profile, pnames[i]));
        }

      for (guint s = 0; s < sides; s++)
        {
          gint64 *xs = x + (gsize)s * n_nodes;
          gint64 *nx = next_x + (gsize)s * n_nodes;
          gint64 *pe = prev_end + (gsize)s * (max_depth + 1);
          gint64 delta;

          if (i == 0)
            xs[i] = 0;
          else
            {
              xs[i] = nx[parents[i]];
              nx[parents[i]] += total[s][i];
            }
          /* Self on the left: children start after it */
          nx[i] = xs[i] + self[s][i];
          delta = xs[i] - pe[depths[i]];
          pe[depths[i]] = xs[i] + total[s][i];
          g_array_append_val (level, delta);
          g_array_append_val (level, total[s][i]);
          g_array_append_val (level, self[s][i]);
          max_self = MAX (max_self, self[s][i]);
        }
      idx = name_index[pnames[i]];
      g_array_append_val (level, idx);
    }

  out = g_string_sized_new (64 + (gsize)n_nodes * (is_diff ? 20 : 12));
  g_string_append (out, "{\"version\":1,\"flamebearer\":{\"names\":[");
  for (guint i = 0; i < names->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      append_json_string (out, g_ptr_array_index (names, i));
    }
  g_string_append (out, "],\"levels\":[");
  for (guint d = 0; d < level_values->len; d++)
    {
      GArray *level = g_ptr_array_index (level_values, d);

      if (level->len == 0)
        break;
      if (d > 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, '[');
      for (guint k = 0; k < level->len; k++)
        {
          if (k > 0)
            g_string_append_c (out, ',');
          append_int (out, g_array_index (level, gint64, k));
        }
      g_string_append_c (out, ']');
    }
  g_string_append (out, "],\"numTicks\":");
  append_int (out, total[0][0] + (is_diff ? total[1][0] : 0));
  g_string_append (out, ",\"maxSelf\":");
  append_int (out, max_self);

  render_api_units (embers_profile_get_sample_unit (profile, unit_type), &units, &sample_rate);
  g_string_append (out, "},\"metadata\":{\"format\":");
  g_string_append (out, is_diff ? "\"double\"" : "\"single\"");
  g_string_append (out, ",\"spyName\":\"\",\"sampleRate\":");
  append_int (out, sample_rate);
  g_string_append (out, ",\"units\":");
  append_json_string (out, units);
  if (!is_diff)
    {
      /* A diff's columns are "baseline" and "comparison", no sample type */
      g_string_append (out, ",\"name\":");
      append_json_string (out, embers_profile_get_sample_type (profile, sample_type));
    }
  g_string_append_c (out, '}');

  if (is_diff)
    {
      g_string_append (out, ",\"leftTicks\":");
      append_int (out, total[0][0]);
      g_string_append (out, ",\"rightTicks\":");
      append_int (out, total[1][0]);
    }
  g_string_append (out, "}\n");

  return g_string_free_to_bytes (out);
}
