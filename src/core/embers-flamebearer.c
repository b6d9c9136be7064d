/* embers-flamebearer.c: Pyroscope flame graph JSON and levels decoding
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include <glib/gi18n.h>

#include "embers-profile-builder.h"
#include "embers-readers.h"

static void
set_invalid (GError     **error,
             const char  *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
set_invalid (GError     **error,
             const char  *format,
             ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
               "%s: %s", _("Pyroscope JSON"), message);
}

/* One decoded node of a level */
typedef struct
{
  gint64  x[2];       /* per side (single profiles use side 0) */
  gint64  total[2];
  gint64  self[2];
  gint64  child_sum[2];
  guint32 node;       /* builder node */
} LevelNode;

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
  guint stride = is_diff ? 7 : 4;
  guint sides = is_diff ? 2 : 1;

  if (is_diff)
    {
      embers_profile_builder_add_sample_type (b, "baseline", sample_unit ? sample_unit : "count");
      embers_profile_builder_add_sample_type (b, "comparison", sample_unit ? sample_unit : "count");
      embers_profile_builder_set_diff (b, TRUE);
    }
  else
    embers_profile_builder_add_sample_type (b, sample_type ? sample_type : "samples",
                                            sample_unit ? sample_unit : "count");

  if (n_levels == 0)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                   _("Pyroscope JSON: the flame graph has no levels"));
      return NULL;
    }
  if (n_levels > EMBERS_PROFILE_MAX_DEPTH)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                   _("Pyroscope JSON: the flame graph is %zu levels deep; the limit is %u"),
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
          set_invalid (error, _("level %zu has %zu values, not a multiple of %u"), d, n_values[d], stride);
          return NULL;
        }
      count = n_values[d] / stride;
      if (d == 0 && count != 1)
        {
          set_invalid (error, _("the first level must hold exactly one node (the root), not %zu"), count);
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
                  set_invalid (error, _("level %zu, node %zu has a negative value"), d, k);
                  return NULL;
                }
              if (sv[2] > sv[1])
                {
                  set_invalid (error, _("level %zu, node %zu: self (%" G_GINT64_FORMAT ") exceeds total (%" G_GINT64_FORMAT ")"),
                               d, k, sv[2], sv[1]);
                  return NULL;
                }
              if (__builtin_add_overflow (prev_end[s], sv[0], &node.x[s]) ||
                  __builtin_add_overflow (node.x[s], sv[1], &prev_end[s]))
                {
                  set_invalid (error, _("level %zu, node %zu: offsets overflow"), d, k);
                  return NULL;
                }
              node.total[s] = sv[1];
              node.self[s] = sv[2];
              if (sv[1] != 0)
                empty = FALSE;
            }

          if (name_index < 0 || (guint64)name_index >= n_names)
            {
              set_invalid (error, _("level %zu, node %zu refers to name %" G_GINT64_FORMAT ", but there are %zu names"),
                           d, k, name_index, n_names);
              return NULL;
            }

          if (d == 0)
            node.node = 0;
          else if (empty)
            continue;   /* empty nodes carry nothing */
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
                  set_invalid (error, _("level %zu, node %zu lies outside every node of the level above"), d, k);
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
                      set_invalid (error, _("level %zu, node %zu does not fit inside its parent"), d, k);
                      return NULL;
                    }
                  parent->child_sum[s] += node.total[s];
                }

              node.node = embers_profile_builder_get_child (b, parent->node, name_ids[name_index]);
            }

          for (guint s = 0; s < sides; s++)
            if (node.self[s] > 0)
              embers_profile_builder_add_self (b, node.node, s, node.self[s]);

          g_array_append_val (current, node);
        }

      /* Every parent's total must be its self plus its children */
      for (guint p = 0; p < parents->len; p++)
        {
          const LevelNode *pn = &g_array_index (parents, LevelNode, p);

          for (guint s = 0; s < sides; s++)
            if (pn->self[s] + pn->child_sum[s] != pn->total[s])
              {
                set_invalid (error, _("level %zu, node %u: total %" G_GINT64_FORMAT " is not self %" G_GINT64_FORMAT
                                      " plus children %" G_GINT64_FORMAT),
                             d - 1, p, pn->total[s], pn->self[s], pn->child_sum[s]);
                return NULL;
              }
        }

      {
        GArray *tmp = parents;
        parents = current;
        current = tmp;
      }
    }

  /* The deepest level has no children: its totals must equal its self */
  for (guint p = 0; p < parents->len; p++)
    {
      const LevelNode *pn = &g_array_index (parents, LevelNode, p);

      for (guint s = 0; s < sides; s++)
        if (pn->self[s] != pn->total[s])
          {
            set_invalid (error, _("the last level's node %u has total %" G_GINT64_FORMAT " but self %" G_GINT64_FORMAT),
                         p, pn->total[s], pn->self[s]);
            return NULL;
          }
    }

  return embers_profile_builder_finish (b, error);
}

/* JSON helpers */

static gboolean
node_to_int (JsonNode  *node,
             gint64    *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      *out = json_node_get_int (node);
      return TRUE;

    case G_TYPE_DOUBLE:
      {
        double v = json_node_get_double (node);

        if (!isfinite (v) || v != floor (v) || fabs (v) > 9.007199254740992e15)
          return FALSE;
        *out = (gint64)v;
        return TRUE;
      }

    case G_TYPE_STRING:
      {
        const char *s = json_node_get_string (node);
        char *end = NULL;
        gint64 v;

        if (s == NULL || *s == '\0')
          return FALSE;
        errno = 0;
        v = g_ascii_strtoll (s, &end, 10);
        if (errno != 0 || end == NULL || *end != '\0')
          return FALSE;
        *out = v;
        return TRUE;
      }

    default:
      return FALSE;
    }
}

static gboolean
member_int (JsonObject *obj,
            const char *name,
            gint64     *out,
            GError    **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  *out = 0;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!node_to_int (node, out))
    {
      set_invalid (error, _("“%s” is not an integer"), name);
      return FALSE;
    }
  return TRUE;
}

static JsonObject *
member_object (JsonObject *obj,
               const char *name)
{
  JsonNode *node = obj ? json_object_get_member (obj, name) : NULL;

  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static const char *
member_string (JsonObject *obj,
               const char *name)
{
  JsonNode *node = obj ? json_object_get_member (obj, name) : NULL;

  if (node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return NULL;
}

/* names + levels from a FlameGraph-shaped object; levels are either arrays
 * of numbers (render API) or {"values": [...]} objects (Connect JSON) */
static EmbersProfile *
parse_graph (JsonObject  *graph,
             gboolean     is_diff,
             const char  *sample_type,
             const char  *sample_unit,
             gint64       expected_total,
             GError     **error)
{
  JsonNode *names_node = json_object_get_member (graph, "names");
  JsonNode *levels_node = json_object_get_member (graph, "levels");
  g_autofree const char **names = NULL;
  g_autofree gint64 **levels = NULL;
  g_autofree gsize *n_values = NULL;
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  JsonArray *names_array, *levels_array;
  EmbersProfile *profile;
  guint n_names, n_levels;

  if (names_node == NULL || !JSON_NODE_HOLDS_ARRAY (names_node))
    {
      set_invalid (error, _("“names” must be an array of strings"));
      return NULL;
    }
  if (levels_node == NULL || !JSON_NODE_HOLDS_ARRAY (levels_node))
    {
      set_invalid (error, _("“levels” must be an array"));
      return NULL;
    }

  names_array = json_node_get_array (names_node);
  n_names = json_array_get_length (names_array);
  names = g_new0 (const char *, MAX (n_names, 1u));
  for (guint i = 0; i < n_names; i++)
    {
      JsonNode *n = json_array_get_element (names_array, i);

      if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
        {
          set_invalid (error, _("name %u is not a string"), i);
          return NULL;
        }
      names[i] = json_node_get_string (n);
      /* json-glib lets some escapes through that are not UTF-8 */
      if (!g_utf8_validate (names[i], -1, NULL))
        {
          char *valid = g_utf8_make_valid (names[i], -1);

          g_ptr_array_add (owned, valid);
          names[i] = valid;
        }
    }

  levels_array = json_node_get_array (levels_node);
  n_levels = json_array_get_length (levels_array);
  levels = g_new0 (gint64 *, MAX (n_levels, 1u));
  n_values = g_new0 (gsize, MAX (n_levels, 1u));
  for (guint d = 0; d < n_levels; d++)
    {
      JsonNode *level = json_array_get_element (levels_array, d);
      JsonArray *values;
      gint64 *ints;
      guint n;

      if (JSON_NODE_HOLDS_OBJECT (level))
        {
          JsonNode *v = json_object_get_member (json_node_get_object (level), "values");

          if (v == NULL || JSON_NODE_HOLDS_NULL (v))
            {
              levels[d] = NULL;
              n_values[d] = 0;
              continue;
            }
          level = v;
        }
      if (!JSON_NODE_HOLDS_ARRAY (level))
        {
          set_invalid (error, _("level %u is not an array of integers"), d);
          return NULL;
        }

      values = json_node_get_array (level);
      n = json_array_get_length (values);
      ints = g_new (gint64, MAX (n, 1u));
      g_ptr_array_add (owned, ints);
      for (guint k = 0; k < n; k++)
        if (!node_to_int (json_array_get_element (values, k), &ints[k]))
          {
            set_invalid (error, _("level %u, value %u is not an integer"), d, k);
            return NULL;
          }
      levels[d] = ints;
      n_values[d] = n;
    }

  profile = embers_levels_to_profile (names, n_names, (const gint64 * const *)levels, n_values, n_levels,
                                      is_diff, sample_type, sample_unit, error);
  if (profile == NULL)
    return NULL;

  if (expected_total > 0)
    {
      gint64 total = embers_profile_get_total (profile, 0);

      if (is_diff)
        total += embers_profile_get_total (profile, 1);
      if (total != expected_total)
        {
          g_object_unref (profile);
          set_invalid (error, _("the total says %" G_GINT64_FORMAT " but the levels add up to %" G_GINT64_FORMAT),
                       expected_total, total);
          return NULL;
        }
    }

  return profile;
}

static gboolean
looks_like_diff (JsonObject *graph)
{
  return json_object_has_member (graph, "leftTicks") || json_object_has_member (graph, "rightTicks") ||
         json_object_has_member (graph, "left_ticks") || json_object_has_member (graph, "right_ticks");
}

EmbersProfile *
embers_flamebearer_parse (const char  *data,
                          gsize        len,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;
  JsonObject *obj, *fb, *meta, *graph;

  if (len > G_MAXSSIZE)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                   _("Pyroscope JSON: the data is too large"));
      return NULL;
    }

  if (!json_parser_load_from_data (parser, data, (gssize)len, &local_error))
    {
      /* json-glib quotes the input in its message, which may not be UTF-8 */
      g_autofree char *message = g_utf8_make_valid (local_error->message, -1);

      set_invalid (error, _("not valid JSON (%s)"), message);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      set_invalid (error, _("expected a JSON object"));
      return NULL;
    }
  obj = json_node_get_object (root);

  /* Render API: {"flamebearer": {...}, "metadata": {...}} */
  if ((fb = member_object (obj, "flamebearer")) != NULL ||
      json_object_has_member (obj, "flamebearer"))
    {
      const char *format, *units, *name;
      g_autofree char *unit = NULL;
      gint64 num_ticks = 0, sample_rate = 0;
      gboolean is_diff;

      if (fb == NULL)
        {
          set_invalid (error, _("“flamebearer” must be an object"));
          return NULL;
        }
      meta = member_object (obj, "metadata");
      format = member_string (meta, "format");
      is_diff = g_strcmp0 (format, "double") == 0 || looks_like_diff (obj);
      units = member_string (meta, "units");
      name = member_string (meta, "name");
      if (meta != NULL && !member_int (meta, "sampleRate", &sample_rate, error))
        return NULL;
      if (!member_int (fb, "numTicks", &num_ticks, error))
        return NULL;

      /* CPU comes as "samples" at a rate of 1e9 per second: nanoseconds */
      if (g_strcmp0 (units, "samples") == 0 && sample_rate == 1000000000)
        unit = g_strdup ("nanoseconds");
      else if (g_strcmp0 (units, "objects") == 0)
        unit = g_strdup ("count");
      else if (units == NULL || units[0] == '\0')
        unit = g_strdup ("count");
      else
        unit = g_strdup (units);

      return parse_graph (fb, is_diff, name && *name ? name : "samples", unit, num_ticks, error);
    }

  /* Connect: SelectMergeStacktracesResponse / DiffResponse */
  graph = member_object (obj, "flamegraph");
  if (graph == NULL && json_object_has_member (obj, "flamegraph"))
    {
      set_invalid (error, _("“flamegraph” must be an object"));
      return NULL;
    }
  if (graph == NULL)
    graph = obj;

  if (!json_object_has_member (graph, "names") && !json_object_has_member (graph, "levels"))
    {
      set_invalid (error, _("no “flamebearer”, “flamegraph” or “levels” found"));
      return NULL;
    }

  {
    gint64 total = 0;

    if (!member_int (graph, "total", &total, error))
      return NULL;
    return parse_graph (graph, looks_like_diff (graph), "samples", "count", total, error);
  }
}

/* Writer: the render API's JSON */

GBytes *
embers_flamebearer_write (EmbersProfile  *profile,
                          guint           sample_type,
                          GError        **error)
{
  g_autoptr(JsonBuilder) jb = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree guint32 *name_index = NULL;
  g_autofree gint64 *next_x = NULL;
  g_autofree gint64 *x = NULL;
  g_autofree gint64 *prev_end = NULL;
  g_autoptr(GPtrArray) level_values = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  gboolean is_diff;
  guint sides, n_nodes, n_strings, max_depth;
  const guint32 *pnames, *parents;
  const guint16 *depths;
  const gint64 *self[2], *total[2];
  gint64 max_self = 0;
  char *text;
  gsize text_len;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);

  is_diff = embers_profile_is_diff (profile) && embers_profile_get_n_sample_types (profile) >= 2;
  sides = is_diff ? 2 : 1;
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

  /* Names: "total" first, then in first-seen order */
  name_index = g_new (guint32, n_strings);
  memset (name_index, 0xff, sizeof (guint32) * n_strings);
  g_ptr_array_add (names, (gpointer)"total");
  name_index[pnames[0]] = 0;

  for (guint d = 0; d <= max_depth; d++)
    g_ptr_array_add (level_values, g_array_new (FALSE, FALSE, sizeof (gint64)));

  x = g_new0 (gint64, (gsize)n_nodes * 2);
  next_x = g_new0 (gint64, (gsize)n_nodes * 2);
  prev_end = g_new0 (gint64, (gsize)(max_depth + 1) * 2);

  for (guint i = 0; i < n_nodes; i++)
    {
      GArray *level = g_ptr_array_index (level_values, depths[i]);
      gint64 width = 0;

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
      {
        gint64 idx = name_index[pnames[i]];
        g_array_append_val (level, idx);
      }
    }

  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "version");
  json_builder_add_int_value (jb, 1);
  json_builder_set_member_name (jb, "flamebearer");
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "names");
  json_builder_begin_array (jb);
  for (guint i = 0; i < names->len; i++)
    json_builder_add_string_value (jb, g_ptr_array_index (names, i));
  json_builder_end_array (jb);
  json_builder_set_member_name (jb, "levels");
  json_builder_begin_array (jb);
  for (guint d = 0; d < level_values->len; d++)
    {
      GArray *level = g_ptr_array_index (level_values, d);

      if (level->len == 0)
        break;
      json_builder_begin_array (jb);
      for (guint k = 0; k < level->len; k++)
        json_builder_add_int_value (jb, g_array_index (level, gint64, k));
      json_builder_end_array (jb);
    }
  json_builder_end_array (jb);
  json_builder_set_member_name (jb, "numTicks");
  json_builder_add_int_value (jb, total[0][0] + (is_diff ? total[1][0] : 0));
  json_builder_set_member_name (jb, "maxSelf");
  json_builder_add_int_value (jb, max_self);
  json_builder_end_object (jb);

  json_builder_set_member_name (jb, "metadata");
  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "format");
  json_builder_add_string_value (jb, is_diff ? "double" : "single");
  json_builder_set_member_name (jb, "units");
  json_builder_add_string_value (jb, embers_profile_get_sample_unit (profile, is_diff ? 0 : sample_type));
  json_builder_set_member_name (jb, "name");
  json_builder_add_string_value (jb, embers_profile_get_sample_type (profile, is_diff ? 0 : sample_type));
  json_builder_end_object (jb);

  if (is_diff)
    {
      json_builder_set_member_name (jb, "leftTicks");
      json_builder_add_int_value (jb, total[0][0]);
      json_builder_set_member_name (jb, "rightTicks");
      json_builder_add_int_value (jb, total[1][0]);
    }
  json_builder_end_object (jb);

  root = json_builder_get_root (jb);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, &text_len);

  return g_bytes_new_take (text, text_len);
}
