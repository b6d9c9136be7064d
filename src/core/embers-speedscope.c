/* embers-speedscope.c: speedscope's file format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-json-reader.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"

/*
 * speedscope's file format (its file-format-schema.json):
 *
 *   {"$schema": "https://www.speedscope.app/file-format-schema.json",
 *    "shared": {"frames": [{"name": "main", "file": "a.c", "line": 3, "col": 1}, …]},
 *    "profiles": [
 *      {"type": "evented", "name": "…", "unit": "milliseconds",
 *       "startValue": 0, "endValue": 10,
 *       "events": [{"type": "O", "frame": 0, "at": 0}, {"type": "C", "frame": 0, "at": 10}]},
 *      {"type": "sampled", "name": "…", "unit": "bytes", "startValue": 0, "endValue": 4,
 *       "samples": [[0, 1], [0]], "weights": [3, 1]}],
 *    "name": "…", "activeProfileIndex": 0, "exporter": "…"}
 *
 * An evented profile's time between two events belongs to the frames open
 * then (the innermost one's self); a frame must close in the order it
 * opened, and frames still open at the end close at endValue. A sampled
 * profile's stacks are root first, one weight each.
 *
 * Units: the times (nanoseconds … seconds) become sample type "time" in
 * nanoseconds, "bytes" type "bytes", "none" type "weight" (a count);
 * fractions are rounded. With more than one profile, each goes under a
 * root frame with its name. Members may come in any order: the reader
 * remembers where the arrays are and reads them once it knows the frames
 * and units.
 */

typedef enum
{
  KIND_TIME,
  KIND_BYTES,
  KIND_NONE,
  N_KINDS
} Kind;

typedef struct
{
  char       *name;
  gboolean    evented;
  gboolean    has_type;
  Kind        kind;
  double      scale;        /* to nanoseconds for times */
  double      start_value;
  double      end_value;
  gboolean    has_end_value;
  const char *events;       /* where the arrays start */
  const char *samples;
  const char *weights;
} Info;

static void
info_clear (Info *info)
{
  g_clear_pointer (&info->name, g_free);
}

typedef struct
{
  EmbersProfileBuilder *b;
  GArray               *frames;     /* guint32 name ids */
  GArray               *infos;      /* Info */
  const char           *profiles;   /* where "profiles" starts */
  gint                  columns[N_KINDS];
} Doc;

static gboolean
read_frame (EmbersJson  *j,
            Doc         *doc,
            GError     **error)
{
  g_autofree char *name = NULL;
  g_autofree char *file = NULL;
  double line = 0;
  gboolean first = TRUE, more = TRUE;
  guint32 id;

  if (!embers_json_enter (j, '{', "frames", error))
    return FALSE;
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;
      gboolean ok;

      if (strcmp (key, "name") == 0)
        ok = embers_json_read_string_member (j, "name", &name, error);
      else if (strcmp (key, "file") == 0)
        ok = embers_json_read_string_member (j, "file", &file, error);
      else if (strcmp (key, "line") == 0)
        ok = embers_json_read_double_member (j, "line", &line, error);
      else
        ok = embers_json_skip_value (j, 4, error);
      if (!ok)
        return FALSE;
    }
  if (more)
    return FALSE;
  if (name == NULL)
    {
      embers_json_set_invalid (error, _("frame %u has no name"), doc->frames->len);
      return FALSE;
    }

  id = embers_profile_builder_intern (doc->b, name, -1);
  if (file != NULL && file[0] != '\0')
    embers_profile_builder_set_name_location (doc->b, id, embers_profile_builder_intern (doc->b, file, -1),
                                              isfinite (line) && line > 0 && line < 1e15 ? (gint64)line : 0);
  g_array_append_val (doc->frames, id);
  return TRUE;
}

static gboolean
read_shared (EmbersJson  *j,
             Doc         *doc,
             GError     **error)
{
  gboolean first = TRUE, more = TRUE;

  if (!embers_json_enter (j, '{', "shared", error))
    return FALSE;
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      if (strcmp (j->scratch->str, "frames") == 0)
        {
          gboolean ffirst = TRUE, fmore = TRUE;

          if (!embers_json_enter (j, '[', "frames", error))
            return FALSE;
          while (embers_json_next_element (j, ']', &ffirst, &fmore, error) && fmore)
            if (!read_frame (j, doc, error))
              return FALSE;
          if (fmore)
            return FALSE;
        }
      else if (!embers_json_skip_value (j, 3, error))
        return FALSE;
    }
  return !more;
}

static gboolean
unit_kind (const char *unit,
           Kind       *kind,
           double     *scale)
{
  static const struct
  {
    const char *unit;
    Kind        kind;
    double      scale;
  } units[] = {
    { "nanoseconds", KIND_TIME, 1 },
    { "microseconds", KIND_TIME, 1e3 },
    { "milliseconds", KIND_TIME, 1e6 },
    { "seconds", KIND_TIME, 1e9 },
    { "bytes", KIND_BYTES, 1 },
    { "none", KIND_NONE, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_strcmp0 (unit, units[i].unit) == 0)
      {
        *kind = units[i].kind;
        *scale = units[i].scale;
        return TRUE;
      }
  return FALSE;
}

/* A profile's scalar members; the arrays' places */
static gboolean
read_info (EmbersJson  *j,
           Doc         *doc,
           GError     **error)
{
  g_autofree char *type = NULL;
  g_autofree char *unit = NULL;
  gboolean first = TRUE, more = TRUE;
  Info info = { 0 };
  guint index = doc->infos->len;

  if (!embers_json_enter (j, '{', "profiles", error))
    return FALSE;
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;
      gboolean ok;

      if (strcmp (key, "type") == 0)
        ok = embers_json_read_string_member (j, "type", &type, error);
      else if (strcmp (key, "unit") == 0)
        ok = embers_json_read_string_member (j, "unit", &unit, error);
      else if (strcmp (key, "name") == 0)
        ok = embers_json_read_string_member (j, "name", &info.name, error);
      else if (strcmp (key, "startValue") == 0)
        ok = embers_json_read_double_member (j, "startValue", &info.start_value, error);
      else if (strcmp (key, "endValue") == 0)
        {
          ok = embers_json_read_double_member (j, "endValue", &info.end_value, error);
          info.has_end_value = TRUE;
        }
      else if (strcmp (key, "events") == 0 || strcmp (key, "samples") == 0 ||
               strcmp (key, "weights") == 0)
        {
          const char **where = key[0] == 'e' ? &info.events : key[0] == 's' ? &info.samples : &info.weights;

          *where = j->p;
          ok = embers_json_skip_value (j, 3, error);
        }
      else
        ok = embers_json_skip_value (j, 3, error);
      if (!ok)
        {
          info_clear (&info);
          return FALSE;
        }
    }
  if (more)
    {
      info_clear (&info);
      return FALSE;
    }

  if (g_strcmp0 (type, "evented") == 0)
    info.evented = TRUE;
  else if (g_strcmp0 (type, "sampled") != 0)
    {
      info_clear (&info);
      embers_json_set_invalid (error, _("profile %u: the type must be “evented” or “sampled”"), index);
      return FALSE;
    }
  if (!unit_kind (unit, &info.kind, &info.scale))
    {
      info_clear (&info);
      embers_json_set_invalid (error, _("profile %u: unknown unit “%s”"), index, unit ? unit : "");
      return FALSE;
    }
  if (info.evented ? info.events == NULL : info.samples == NULL)
    {
      info_clear (&info);
      embers_json_set_invalid (error, info.evented ? _("profile %u has no “events”")
                                                   : _("profile %u has no “samples”"), index);
      return FALSE;
    }
  g_array_append_val (doc->infos, info);
  return TRUE;
}

/* A value in the profile's unit, in the sample type's */
static gboolean
scaled (double   v,
        double   scale,
        gint64  *out)
{
  double s = v * scale;

  if (!isfinite (s) || s < 0 || s > 9.2e18)
    return FALSE;
  *out = (gint64)llround (s);
  return TRUE;
}

static gboolean
read_number (EmbersJson  *j,
             const char  *what,
             double      *out,
             GError     **error)
{
  switch (embers_json_read_double (j, out, error))
    {
    case EMBERS_JSON_INT:
      return TRUE;
    case EMBERS_JSON_FAILED:
      return FALSE;
    case EMBERS_JSON_NULL:
    case EMBERS_JSON_OTHER:
    default:
      embers_json_set_invalid (error, _("“%s” must be a number"), what);
      return FALSE;
    }
}

static gboolean
frame_name (Doc      *doc,
            double    index,
            guint32  *out,
            GError  **error)
{
  if (!(index >= 0 && index < doc->frames->len && index == floor (index)))
    {
      embers_json_set_invalid (error, _("the frame %g is not in “shared.frames” (%u frames)"),
                               index, doc->frames->len);
      return FALSE;
    }
  *out = g_array_index (doc->frames, guint32, (guint)index);
  return TRUE;
}

static gboolean
add_sampled (EmbersJson  *j,
             Doc         *doc,
             Info        *info,
             guint32      root,
             GError     **error)
{
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (double));
  gboolean first = TRUE, more = TRUE;
  gint column = doc->columns[info->kind];
  guint n = 0;

  if (info->weights != NULL)
    {
      j->p = info->weights;
      if (!embers_json_enter (j, '[', "weights", error))
        return FALSE;
      while (embers_json_next_element (j, ']', &first, &more, error) && more)
        {
          double w;

          if (!read_number (j, "weights", &w, error))
            return FALSE;
          g_array_append_val (weights, w);
        }
      if (more)
        return FALSE;
    }

  j->p = info->samples;
  first = TRUE;
  more = TRUE;
  if (!embers_json_enter (j, '[', "samples", error))
    return FALSE;
  while (embers_json_next_element (j, ']', &first, &more, error) && more)
    {
      gboolean sfirst = TRUE, smore = TRUE;
      guint32 node = root;
      guint depth = 0;
      double w = 1;
      gint64 value;

      if (info->weights != NULL)
        {
          if (n >= weights->len)
            {
              embers_json_set_invalid (error, _("there are more samples than weights"));
              return FALSE;
            }
          w = g_array_index (weights, double, n);
        }
      if (!scaled (w, info->scale, &value))
        {
          embers_json_set_invalid (error, _("sample %u has a negative or too large weight"), n);
          return FALSE;
        }

      if (!embers_json_enter (j, '[', "samples", error))
        return FALSE;
      while (embers_json_next_element (j, ']', &sfirst, &smore, error) && smore)
        {
          double index;
          guint32 name;

          if (!read_number (j, "samples", &index, error) || !frame_name (doc, index, &name, error))
            return FALSE;
          if (++depth > EMBERS_PROFILE_MAX_DEPTH)
            {
              embers_json_set_invalid (error, _("sample %u is deeper than %u frames"), n, EMBERS_PROFILE_MAX_DEPTH);
              return FALSE;
            }
          node = embers_profile_builder_get_child (doc->b, node, name);
        }
      if (smore)
        return FALSE;
      embers_profile_builder_add_self (doc->b, node, (guint)column, value);
      n++;
    }
  if (more)
    return FALSE;
  if (info->weights != NULL && n != weights->len)
    {
      embers_json_set_invalid (error, _("there are %u samples but %u weights"), n, weights->len);
      return FALSE;
    }
  return embers_profile_builder_check (doc->b, error);
}

typedef struct
{
  guint32 node;
  guint32 frame;
} Open;

static gboolean
add_time (Doc     *doc,
          Info    *info,
          GArray  *stack,
          double   from,
          double   to,
          guint32  root,
          GError **error)
{
  gint64 value;

  if (stack->len == 0 || to == from)
    return TRUE;
  if (!scaled (to - from, info->scale, &value))
    {
      embers_json_set_invalid (error, _("the events are not in the order of “at”"));
      return FALSE;
    }
  (void)root;
  embers_profile_builder_add_self (doc->b, g_array_index (stack, Open, stack->len - 1).node,
                                   (guint)doc->columns[info->kind], value);
  return TRUE;
}

static gboolean
add_evented (EmbersJson  *j,
             Doc         *doc,
             Info        *info,
             guint32      root,
             GError     **error)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Open));
  gboolean first = TRUE, more = TRUE;
  double last = info->start_value;
  guint n = 0;

  j->p = info->events;
  if (!embers_json_enter (j, '[', "events", error))
    return FALSE;
  while (embers_json_next_element (j, ']', &first, &more, error) && more)
    {
      g_autofree char *type = NULL;
      gboolean efirst = TRUE, emore = TRUE;
      gboolean has_at = FALSE, has_frame = FALSE;
      double at = 0, frame = 0;
      guint32 name;

      if (!embers_json_enter (j, '{', "events", error))
        return FALSE;
      while (embers_json_next_member (j, &efirst, &emore, error) && emore)
        {
          const char *key = j->scratch->str;
          gboolean ok;

          if (strcmp (key, "type") == 0)
            ok = embers_json_read_string_member (j, "type", &type, error);
          else if (strcmp (key, "at") == 0)
            ok = has_at = read_number (j, "at", &at, error);
          else if (strcmp (key, "frame") == 0)
            ok = has_frame = read_number (j, "frame", &frame, error);
          else
            ok = embers_json_skip_value (j, 4, error);
          if (!ok)
            return FALSE;
        }
      if (emore)
        return FALSE;
      if (!has_at || !has_frame || (g_strcmp0 (type, "O") != 0 && g_strcmp0 (type, "C") != 0))
        {
          embers_json_set_invalid (error, _("event %u needs “type” (“O” or “C”), “frame” and “at”"), n);
          return FALSE;
        }
      if (!frame_name (doc, frame, &name, error))
        return FALSE;
      if (at < last)
        {
          embers_json_set_invalid (error, _("event %u comes before the one before it (“at” %g < %g)"),
                                   n, at, last);
          return FALSE;
        }
      if (!add_time (doc, info, stack, last, at, root, error))
        return FALSE;
      last = at;

      if (type[0] == 'O')
        {
          Open open;

          if (stack->len >= EMBERS_PROFILE_MAX_DEPTH)
            {
              embers_json_set_invalid (error, _("event %u opens a frame deeper than %u"), n,
                                       EMBERS_PROFILE_MAX_DEPTH);
              return FALSE;
            }
          open.frame = (guint32)frame;
          open.node = embers_profile_builder_get_child (doc->b, stack->len > 0
                                                        ? g_array_index (stack, Open, stack->len - 1).node
                                                        : root, name);
          g_array_append_val (stack, open);
        }
      else
        {
          if (stack->len == 0 || g_array_index (stack, Open, stack->len - 1).frame != (guint32)frame)
            {
              embers_json_set_invalid (error, _("event %u closes frame %u, which is not the innermost open frame"),
                                       n, (guint32)frame);
              return FALSE;
            }
          g_array_set_size (stack, stack->len - 1);
        }
      n++;
    }
  if (more)
    return FALSE;

  /* Frames still open last until endValue */
  if (info->has_end_value && info->end_value > last &&
      !add_time (doc, info, stack, last, info->end_value, root, error))
    return FALSE;

  return embers_profile_builder_check (doc->b, error);
}

EmbersProfile *
embers_speedscope_parse (const char  *data,
                         gsize        len,
                         GError     **error)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) infos = g_array_new (FALSE, TRUE, sizeof (Info));
  Doc doc = { b, frames, infos, NULL, { -1, -1, -1 } };
  gboolean first = TRUE, more = TRUE, ok = TRUE;
  EmbersJson j;

  g_array_set_clear_func (infos, (GDestroyNotify)info_clear);
  embers_json_init (&j, data, len);
  if (len >= 3 && (guchar)data[0] == 0xef && (guchar)data[1] == 0xbb && (guchar)data[2] == 0xbf)
    j.p += 3;

  ok = embers_json_enter (&j, '{', "the file", error);
  while (ok && embers_json_next_member (&j, &first, &more, error) && more)
    {
      if (strcmp (j.scratch->str, "shared") == 0)
        ok = read_shared (&j, &doc, error);
      else if (strcmp (j.scratch->str, "profiles") == 0)
        {
          doc.profiles = j.p;
          ok = embers_json_skip_value (&j, 1, error);
        }
      else
        ok = embers_json_skip_value (&j, 1, error);
    }
  ok = ok && !more;
  if (ok)
    {
      embers_json_skip_ws (&j);
      if (j.p != j.end)
        ok = embers_json_syntax_error (&j, error, _("text after the file"));
    }

  if (ok && doc.profiles == NULL)
    {
      embers_json_set_invalid (error, _("there is no “profiles” array"));
      ok = FALSE;
    }
  if (ok)
    {
      gboolean pfirst = TRUE, pmore = TRUE;

      j.p = doc.profiles;
      ok = embers_json_enter (&j, '[', "profiles", error);
      while (ok && embers_json_next_element (&j, ']', &pfirst, &pmore, error) && pmore)
        ok = read_info (&j, &doc, error);
      ok = ok && !pmore;
    }
  if (ok && infos->len == 0)
    {
      embers_json_clear (&j);
      g_set_error_literal (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                           _("speedscope: there are no profiles"));
      return NULL;
    }

  if (ok)
    {
      static const char *types[N_KINDS][2] = {
        { "time", "nanoseconds" }, { "bytes", "bytes" }, { "weight", "count" },
      };

      for (guint i = 0; i < infos->len; i++)
        doc.columns[g_array_index (infos, Info, i).kind] = 0;
      for (guint k = 0, c = 0; k < N_KINDS; k++)
        if (doc.columns[k] == 0)
          {
            embers_profile_builder_add_sample_type (b, types[k][0], types[k][1]);
            doc.columns[k] = (gint)c++;
          }
      embers_profile_builder_set_default_sample_type (b, 0);
    }

  for (guint i = 0; ok && i < infos->len; i++)
    {
      Info *info = &g_array_index (infos, Info, i);
      guint32 root = 0;

      if (infos->len > 1)
        {
          g_autofree char *name = info->name != NULL && info->name[0] != '\0'
                                  ? g_strdup (info->name) : g_strdup_printf ("Profile %u", i + 1);

          root = embers_profile_builder_get_child (b, 0, embers_profile_builder_intern (b, name, -1));
        }
      ok = info->evented ? add_evented (&j, &doc, info, root, error)
                         : add_sampled (&j, &doc, info, root, error);
      if (!ok && error != NULL && *error != NULL)
        g_prefix_error (error, _("profile %u: "), i);
    }
  embers_json_clear (&j);

  if (!ok)
    {
      if (error != NULL && *error != NULL)
        g_prefix_error_literal (error, _("speedscope: "));
      return NULL;
    }
  return embers_profile_builder_finish (b, error);
}
