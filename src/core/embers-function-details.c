/* embers-function-details.c: one function's file, lines, callers and callees
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-function-details.h"
#include "embers-input.h"
#include "embers-palette.h"
#include "embers-pprof-samples.h"

G_DEFINE_BOXED_TYPE (EmbersFunctionDetails, embers_function_details,
                     embers_function_details_ref, embers_function_details_unref)

static void
edge_clear (gpointer data)
{
  EmbersFunctionEdge *edge = data;

  g_free (edge->name);
}

static void
details_clear (gpointer data)
{
  EmbersFunctionDetails *d = data;

  g_free (d->name);
  g_free (d->file);
  g_array_unref (d->lines);
  g_array_unref (d->callers);
  g_array_unref (d->callees);
}

static EmbersFunctionDetails *
details_new (const char *name)
{
  EmbersFunctionDetails *d = g_atomic_rc_box_new0 (EmbersFunctionDetails);

  d->name = g_strdup (name);
  d->file = g_strdup ("");
  d->lines = g_array_new (FALSE, FALSE, sizeof (EmbersLineCost));
  d->callers = g_array_new (FALSE, FALSE, sizeof (EmbersFunctionEdge));
  d->callees = g_array_new (FALSE, FALSE, sizeof (EmbersFunctionEdge));
  g_array_set_clear_func (d->callers, edge_clear);
  g_array_set_clear_func (d->callees, edge_clear);
  return d;
}

EmbersFunctionDetails *
embers_function_details_ref (EmbersFunctionDetails *details)
{
  g_return_val_if_fail (details != NULL, NULL);
  return g_atomic_rc_box_acquire (details);
}

void
embers_function_details_unref (EmbersFunctionDetails *details)
{
  if (details != NULL)
    g_atomic_rc_box_release_full (details, details_clear);
}

const EmbersLineCost *
embers_function_details_get_hottest_line (EmbersFunctionDetails *details)
{
  const EmbersLineCost *best = NULL;

  g_return_val_if_fail (details != NULL, NULL);

  for (guint i = 0; i < details->lines->len; i++)
    {
      const EmbersLineCost *l = &g_array_index (details->lines, EmbersLineCost, i);

      if (l->line <= 0)
        continue;
      if (best == NULL || l->total > best->total || (l->total == best->total && l->self > best->self))
        best = l;
    }
  return best;
}

const EmbersLineCost *
embers_function_details_get_line (EmbersFunctionDetails *details,
                                  gint64                 line)
{
  guint lo = 0, hi;

  g_return_val_if_fail (details != NULL, NULL);

  hi = details->lines->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const EmbersLineCost *l = &g_array_index (details->lines, EmbersLineCost, mid);

      if (l->line == line)
        return l;
      if (l->line < line)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

/* Edges, merged by name; a stamp counts each sample once */

typedef struct
{
  GHashTable *index;   /* name -> position + 1 in edges */
  GArray     *edges;   /* Edge */
} EdgeSet;

typedef struct
{
  const char *name;    /* owned by the caller (a string pool) */
  gint64      value;
  gsize       stamp;
} Edge;

static void
edge_set_init (EdgeSet *set)
{
  set->index = g_hash_table_new (g_str_hash, g_str_equal);
  set->edges = g_array_new (FALSE, FALSE, sizeof (Edge));
}

static void
edge_set_clear (EdgeSet *set)
{
  g_clear_pointer (&set->index, g_hash_table_unref);
  g_clear_pointer (&set->edges, g_array_unref);
}

static void
edge_set_add (EdgeSet    *set,
              const char *name,
              gint64      value,
              gsize       stamp)
{
  guint pos = GPOINTER_TO_UINT (g_hash_table_lookup (set->index, name));
  Edge *e;

  if (pos == 0)
    {
      Edge fresh = { name, 0, G_MAXSIZE };

      g_array_append_val (set->edges, fresh);
      pos = set->edges->len;
      g_hash_table_insert (set->index, (gpointer)name, GUINT_TO_POINTER (pos));
    }
  e = &g_array_index (set->edges, Edge, pos - 1);
  if (e->stamp != stamp)
    {
      e->stamp = stamp;
      e->value += value;
    }
}

static int
cmp_edge (gconstpointer a,
          gconstpointer b)
{
  const EmbersFunctionEdge *x = a, *y = b;

  if (x->value != y->value)
    return x->value > y->value ? -1 : 1;
  return strcmp (x->name, y->name);
}

static void
edge_set_emit (EdgeSet *set,
               GArray  *out)
{
  for (guint i = 0; i < set->edges->len; i++)
    {
      const Edge *e = &g_array_index (set->edges, Edge, i);
      EmbersFunctionEdge edge = { g_strdup (e->name), e->value };

      if (e->value != 0)
        g_array_append_val (out, edge);
      else
        g_free (edge.name);
    }
  g_array_sort (out, cmp_edge);
}

/* pprof, read straight from the wire: the tables first, then the samples
 * (profile.proto: Profile 1 sample_type, 2 sample, 4 location, 5 function,
 * 6 string_table; Sample 1 location_id, 2 value; Location 1 id, 3 address,
 * 4 line; Line 1 function_id, 2 line; Function 1 id, 2 name, 3
 * system_name, 4 filename, 5 start_line). */

typedef struct
{
  const guint8 *data;
  gsize         len;
} Span;

typedef struct
{
  guint64     id;
  guint64     name;
  guint64     system_name;
  guint64     filename;
  gint64      start_line;
  const char *resolved;   /* pooled name, or NULL */
  const char *file;       /* pooled file, "" when none */
  gboolean    target;
} Function;

typedef struct
{
  guint64     id;
  guint64     mapping_id;
  guint64     address;
  guint       first_line;
  guint       n_lines;
  gboolean    has_target;   /* one of its frames is the function */
  const char *bare_name;    /* the frame of a location without lines */
} Location;

typedef struct
{
  guint64     id;
  guint64     memory_start;
  guint64     file_offset;
  guint64     filename;
} Mapping;

typedef struct
{
  guint64     function_id;
  gint64      line;
  const char *name;         /* pooled: the frame's name */
  const char *file;         /* pooled, "" when none */
} Line;

/* One frame of a stack: names are pooled, so equal names are one pointer */
typedef struct
{
  const char *name;
  const char *file;
  gint64      line;
} Frame;

typedef struct
{
  const char *file;
  gint64      line;
  gint64      self;
  gint64      total;
  gsize       stamp;
} LineAcc;

typedef struct
{
  const char *file;
  gint64      total;
  gsize       stamp;
} FileAcc;

typedef struct
{
  GArray      *strings;     /* Span */
  GArray      *functions;   /* Function */
  GArray      *locations;   /* Location */
  GArray      *lines;       /* Line */
  GArray      *mappings;    /* Mapping */
  const char  *target;      /* pooled */
  GHashTable  *function_ids;  /* guint64 id -> index + 1 */
  GHashTable  *location_ids;  /* guint64 id -> index + 1 */
  guint32     *dense_locations;  /* id -> index + 1, when ids are small */
  gsize        n_dense;
  GStringChunk *pool;
  GHashTable  *pooled;      /* interned strings */
  guint        n_types;
  gsize        bad_at;      /* offset of corrupt data, or G_MAXSIZE */
} Tables;

static gboolean table_varint (const guint8 **p,
                              const guint8  *end,
                              guint64       *out);

static gboolean
skip_field (const guint8 **p,
            const guint8  *end,
            guint          wire)
{
  guint64 v;

  switch (wire)
    {
    case 0:
      return table_varint (p, end, &v);
    case 1:
      if (end - *p < 8)
        return FALSE;
      *p += 8;
      return TRUE;
    case 5:
      if (end - *p < 4)
        return FALSE;
      *p += 4;
      return TRUE;
    case 2:
      if (!table_varint (p, end, &v) || v > (guint64)(end - *p))
        return FALSE;
      *p += v;
      return TRUE;
    default:
      return FALSE;
    }
}

/* The next field at *p: its number, wire type, and for wire type 2 its
 * body; for wire type 0 its value */
/* A varint of the tables (mappings, locations, functions, strings) as
 * the main reader reads them, through protobuf-c: up to ten bytes, the
 * bits past 64 dropped (embers_pprof_varint() refuses them, as the
 * samples' reader does) */
static gboolean
table_varint (const guint8 **p,
              const guint8  *end,
              guint64       *out)
{
  const guint8 *q = *p;
  guint64 v = 0;

  for (guint shift = 0; shift < 70; shift += 7)
    {
      guint8 byte;

      if (q >= end)
        return FALSE;
      byte = *q++;
      if (shift < 64)
        v |= (guint64)(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        {
          *out = v;
          *p = q;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
next_field (const guint8 **p,
            const guint8  *end,
            guint64       *field,
            guint         *wire,
            guint64       *value,
            Span          *body)
{
  guint64 tag;

  if (!table_varint (p, end, &tag))
    return FALSE;
  *field = tag >> 3;
  *wire = tag & 7;
  if (*wire == 0)
    return table_varint (p, end, value);
  if (*wire == 2)
    {
      guint64 n;

      if (!table_varint (p, end, &n) || n > (guint64)(end - *p))
        return FALSE;
      body->data = *p;
      body->len = n;
      *p += n;
      return TRUE;
    }
  return skip_field (p, end, *wire);
}

static const char *
pool_string (Tables     *t,
             const char *s,
             gssize      len)
{
  g_autofree char *copy = g_strndup (s, len < 0 ? strlen (s) : (gsize)len);
  const char *found;

  /* As the main reader: a NUL ends a string, and each invalid byte
   * becomes U+FFFD, so that names compare equal to the profile's */
  if G_UNLIKELY (!g_utf8_validate (copy, -1, NULL))
    {
      char *valid = g_utf8_make_valid (copy, -1);

      g_free (copy);
      copy = valid;
    }
  found = g_hash_table_lookup (t->pooled, copy);

  if (found == NULL)
    {
      found = g_string_chunk_insert (t->pool, copy);
      g_hash_table_add (t->pooled, (gpointer)found);
    }
  return found;
}

static Span
table_string (Tables  *t,
              guint64  index)
{
  Span empty = { (const guint8 *)"", 0 };

  if (index >= t->strings->len)
    return empty;
  return g_array_index (t->strings, Span, index);
}

static gboolean
read_function (Tables       *t,
               const guint8 *p,
               const guint8 *end)
{
  Function f = { 0 };
  guint64 field, value;
  guint wire;
  Span body;

  while (p < end)
    {
      if (!next_field (&p, end, &field, &wire, &value, &body))
        return FALSE;
      if (wire != 0)
        continue;
      switch (field)
        {
        case 1: f.id = value; break;
        case 2: f.name = value; break;
        case 3: f.system_name = value; break;
        case 4: f.filename = value; break;
        case 5: f.start_line = (gint64)value; break;
        default: break;
        }
    }
  g_array_append_val (t->functions, f);
  return TRUE;
}

static gboolean
read_line (Tables       *t,
           const guint8 *p,
           const guint8 *end)
{
  Line l = { 0 };
  guint64 field, value;
  guint wire;
  Span body;

  while (p < end)
    {
      if (!next_field (&p, end, &field, &wire, &value, &body))
        return FALSE;
      if (wire != 0)
        continue;
      if (field == 1)
        l.function_id = value;
      else if (field == 2)
        l.line = (gint64)value;
    }
  g_array_append_val (t->lines, l);
  return TRUE;
}

static gboolean
read_mapping (Tables       *t,
              const guint8 *p,
              const guint8 *end)
{
  Mapping m = { 0 };
  guint64 field, value;
  guint wire;
  Span body;

  while (p < end)
    {
      if (!next_field (&p, end, &field, &wire, &value, &body))
        return FALSE;
      if (wire != 0)
        continue;
      switch (field)
        {
        case 1: m.id = value; break;
        case 2: m.memory_start = value; break;
        case 4: m.file_offset = value; break;
        case 5: m.filename = value; break;
        default: break;
        }
    }
  g_array_append_val (t->mappings, m);
  return TRUE;
}

static gboolean
read_location (Tables       *t,
               const guint8 *p,
               const guint8 *end)
{
  Location loc = { 0 };
  guint64 field, value;
  guint wire;
  Span body;

  loc.first_line = t->lines->len;
  while (p < end)
    {
      if (!next_field (&p, end, &field, &wire, &value, &body))
        return FALSE;
      if (field == 1 && wire == 0)
        loc.id = value;
      else if (field == 2 && wire == 0)
        loc.mapping_id = value;
      else if (field == 3 && wire == 0)
        loc.address = value;
      else if (field == 4 && wire == 2)
        {
          if (!read_line (t, body.data, body.data + body.len))
            return FALSE;
          loc.n_lines++;
        }
    }
  g_array_append_val (t->locations, loc);
  return TRUE;
}

/* A frame without a function name, named as the main reader names it
 * (embers-pprof.c, address_frame): the mapping's file and the offset in
 * it, else the address, else the ids */
static const char *
address_name (Tables         *t,
              const Location *loc,
              const Mapping  *m,
              guint64         function_id)
{
  char name[512];
  Span file = m != NULL ? table_string (t, m->filename) : (Span) { NULL, 0 };
  const char *path = m != NULL ? pool_string (t, (const char *)file.data, file.len) : "";

  if (m != NULL && path[0] != '\0')
    {
      g_autofree char *base = g_path_get_basename (path);
      guint64 offset = loc->address >= m->memory_start
                       ? loc->address - m->memory_start + m->file_offset : loc->address;

      g_snprintf (name, sizeof name, "%s+0x%" G_GINT64_MODIFIER "x", base, offset);
    }
  else if (loc->address != 0)
    g_snprintf (name, sizeof name, "0x%" G_GINT64_MODIFIER "x", loc->address);
  else if (function_id != 0)
    g_snprintf (name, sizeof name, "function %" G_GUINT64_FORMAT, function_id);
  else
    g_snprintf (name, sizeof name, "location %" G_GUINT64_FORMAT, loc->id);

  return pool_string (t, name, -1);
}

static gboolean
read_tables (Tables        *t,
             const guint8  *data,
             gsize          len,
             const char    *target)
{
  const guint8 *p = data, *end = data + len;

  while (p < end)
    {
      const guint8 *start = p;
      guint64 field, value;
      guint wire;
      Span body = { NULL, 0 };
      gboolean ok = TRUE;

      if (!next_field (&p, end, &field, &wire, &value, &body))
        {
          t->bad_at = start - data;
          return FALSE;
        }
      if (wire != 2)
        continue;
      switch (field)
        {
        case 1: t->n_types++; break;
        case 3: ok = read_mapping (t, body.data, body.data + body.len); break;
        case 4: ok = read_location (t, body.data, body.data + body.len); break;
        case 5: ok = read_function (t, body.data, body.data + body.len); break;
        case 6: g_array_append_val (t->strings, body); break;
        default: break;
        }
      if (!ok)
        {
          t->bad_at = start - data;
          return FALSE;
        }
    }

  for (guint i = 0; i < t->functions->len; i++)
    {
      Function *f = &g_array_index (t->functions, Function, i);
      Span name = table_string (t, f->name);
      Span system_name = table_string (t, f->system_name);
      Span file = table_string (t, f->filename);
      const char *resolved = pool_string (t, (const char *)name.data, name.len);

      /* As the main reader: the name, else the system name, else none */
      if (resolved[0] == '\0')
        resolved = pool_string (t, (const char *)system_name.data, system_name.len);
      f->resolved = resolved[0] != '\0' ? resolved : NULL;
      f->file = pool_string (t, (const char *)file.data, file.len);
      f->target = f->resolved != NULL && g_str_equal (f->resolved, target);
      g_hash_table_insert (t->function_ids, &f->id, GUINT_TO_POINTER (i + 1));
    }
  t->target = pool_string (t, target, -1);
  {
    g_autoptr(GHashTable) mapping_ids = g_hash_table_new (g_int64_hash, g_int64_equal);
    guint64 max_id = 0;

    for (guint i = 0; i < t->mappings->len; i++)
      {
        Mapping *m = &g_array_index (t->mappings, Mapping, i);

        g_hash_table_insert (mapping_ids, &m->id, m);
      }

    for (guint i = 0; i < t->locations->len; i++)
      {
        Location *loc = &g_array_index (t->locations, Location, i);
        const Mapping *m = loc->mapping_id != 0 ? g_hash_table_lookup (mapping_ids, &loc->mapping_id) : NULL;

        g_hash_table_insert (t->location_ids, &loc->id, GUINT_TO_POINTER (i + 1));
        max_id = MAX (max_id, loc->id);
        if (loc->n_lines == 0)
          {
            loc->bare_name = address_name (t, loc, m, 0);
            loc->has_target = loc->bare_name == t->target;
          }
        for (guint k = 0; k < loc->n_lines; k++)
          {
            Line *l = &g_array_index (t->lines, Line, loc->first_line + k);
            guint fi = GPOINTER_TO_UINT (g_hash_table_lookup (t->function_ids, &l->function_id));
            const Function *f = fi != 0 ? &g_array_index (t->functions, Function, fi - 1) : NULL;

            if (f != NULL && f->resolved != NULL)
              l->name = f->resolved;
            else
              l->name = address_name (t, loc, m, f != NULL ? f->id : 0);
            l->file = f != NULL ? f->file : "";
            if (l->name == t->target)
              loc->has_target = TRUE;
          }
      }
    /* Ids are usually 1..n: an array beats hashing each frame's */
    if (max_id <= (guint64)t->locations->len * 4 + 1024)
      {
        t->n_dense = max_id + 1;
        t->dense_locations = g_new0 (guint32, t->n_dense);
        for (guint i = 0; i < t->locations->len; i++)
          {
            guint64 id = g_array_index (t->locations, Location, i).id;

            /* a location defined twice: the one the hash table keeps */
            if (t->dense_locations[id] == 0)
              t->dense_locations[id] = GPOINTER_TO_UINT (g_hash_table_lookup (t->location_ids, &id));
          }
      }
  }
  return TRUE;
}

typedef struct
{
  Tables      *t;
  guint        sample_type;
  EdgeSet      callers;
  EdgeSet      callees;
  GHashTable  *line_index;  /* (file, line) key -> position + 1 */
  GArray      *line_acc;    /* LineAcc */
  GHashTable  *file_index;  /* file -> position + 1 */
  GArray      *file_acc;    /* FileAcc */
  GArray      *frames;      /* Frame, scratch */
  GArray      *ids;         /* guint64, scratch */
  gint64       self;
  gint64       total;
  gint64       all;
  guint64      magnitude;   /* sum of |value|: no partial sum overflows below G_MAXINT64 */
  gboolean     overflow;
  GArray      *view;        /* ViewStep: the transform stack, or NULL */
  gboolean     inexact;     /* a step merged frames of the function */
} Acc;

/* A step of the view's transform stack, its names pooled (NULL: a name
 * the data lacks, which matches no frame) */
typedef struct
{
  EmbersTransformKind kind;
  const char        **names;
  guint               n_names;
  gboolean            missing;   /* some name is not in the data */
  const char         *package;   /* collapse-package: its pooled frame name */
  GHashTable         *in_package; /* name -> 1 in it, 2 not */
} ViewStep;

typedef struct
{
  const char *file;
  gint64      line;
} LineKey;

static guint
line_key_hash (gconstpointer p)
{
  const LineKey *k = p;

  return g_direct_hash (k->file) * 31u + (guint)k->line;
}

static gboolean
line_key_equal (gconstpointer a,
                gconstpointer b)
{
  const LineKey *x = a, *y = b;

  return x->file == y->file && x->line == y->line;
}

static void
count_line (Acc        *acc,
            const char *file,
            gint64      line,
            gint64      value,
            gboolean    self,
            gsize       stamp)
{
  LineKey key = { file, line };
  guint pos = GPOINTER_TO_UINT (g_hash_table_lookup (acc->line_index, &key));
  LineAcc *l;
  FileAcc *f;

  if (pos == 0)
    {
      LineAcc fresh = { file, line, 0, 0, G_MAXSIZE };
      LineKey *k = g_new (LineKey, 1);

      *k = key;
      g_array_append_val (acc->line_acc, fresh);
      pos = acc->line_acc->len;
      g_hash_table_insert (acc->line_index, k, GUINT_TO_POINTER (pos));
    }
  l = &g_array_index (acc->line_acc, LineAcc, pos - 1);
  if (self)
    l->self += value;
  if (l->stamp != stamp)
    {
      l->stamp = stamp;
      l->total += value;
    }

  pos = GPOINTER_TO_UINT (g_hash_table_lookup (acc->file_index, file));
  if (pos == 0)
    {
      FileAcc fresh = { file, 0, G_MAXSIZE };

      g_array_append_val (acc->file_acc, fresh);
      pos = acc->file_acc->len;
      g_hash_table_insert (acc->file_index, (gpointer)file, GUINT_TO_POINTER (pos));
    }
  f = &g_array_index (acc->file_acc, FileAcc, pos - 1);
  if (f->stamp != stamp)
    {
      f->stamp = stamp;
      f->total += value;
    }
}

/* ---- The view: a transform stack applied to one sample's frames ----
 *
 * The frames are leaf first; a path (focus-subtree, hide) is root first.
 * Each step does to the sample what embers-transforms.h says it does to
 * the tree, so the lines are counted over the stacks the view shows. */

static gboolean
path_matches (GArray         *frames,
              const ViewStep *step)
{
  guint len = frames->len;

  if (step->missing || step->n_names == 0 || step->n_names > len)
    return FALSE;
  for (guint j = 0; j < step->n_names; j++)
    if (g_array_index (frames, Frame, len - 1 - j).name != step->names[j])
      return FALSE;
  return TRUE;
}

static gboolean
in_package (Tables     *t,
            ViewStep   *step,
            const char *name)
{
  gpointer mark = g_hash_table_lookup (step->in_package, name);

  if (mark == NULL)
    {
      gsize len = 0;
      const char *package = embers_palette_package (name, &len);
      const char *wanted = step->names[0];

      mark = GINT_TO_POINTER (package != NULL && wanted != NULL && len == strlen (wanted) &&
                              memcmp (package, wanted, len) == 0 ? 1 : 2);
      g_hash_table_insert (step->in_package, (gpointer)name, mark);
    }
  (void)t;
  return GPOINTER_TO_INT (mark) == 1;
}

/* Removes frames [from, to) */
static void
remove_frames (Acc   *acc,
               guint  from,
               guint  to)
{
  for (guint i = from; i < to; i++)
    if (g_array_index (acc->frames, Frame, i).name == acc->t->target)
      acc->inexact = TRUE;
  g_array_remove_range (acc->frames, from, to - from);
}

/* FALSE: the view drops the sample */
static gboolean
view_apply (Acc *acc)
{
  GArray *frames = acc->frames;
  const char *target = acc->t->target;

  for (guint s = 0; s < acc->view->len; s++)
    {
      ViewStep *step = &g_array_index (acc->view, ViewStep, s);
      const char *name = step->n_names > 0 ? step->names[0] : NULL;

      switch (step->kind)
        {
        case EMBERS_TRANSFORM_DROP_FUNCTION:
          for (guint i = 0; name != NULL && i < frames->len; i++)
            if (g_array_index (frames, Frame, i).name == name)
              return FALSE;
          break;

        case EMBERS_TRANSFORM_FOCUS_FUNCTION:
          {
            /* Re-rooted at the outermost occurrence */
            guint i = frames->len;

            if (name == NULL)
              return FALSE;
            while (i > 0 && g_array_index (frames, Frame, i - 1).name != name)
              i--;
            if (i == 0)
              return FALSE;
            g_array_set_size (frames, i);
          }
          break;

        case EMBERS_TRANSFORM_FOCUS_SUBTREE:
          if (!path_matches (frames, step))
            return FALSE;
          g_array_set_size (frames, frames->len - step->n_names + 1);
          break;

        case EMBERS_TRANSFORM_MERGE_FUNCTION:
          {
            guint out = 0;

            for (guint i = 0; i < frames->len; i++)
              if (g_array_index (frames, Frame, i).name != name || name == NULL)
                g_array_index (frames, Frame, out++) = g_array_index (frames, Frame, i);
            g_array_set_size (frames, out);
          }
          break;

        case EMBERS_TRANSFORM_HIDE:
          if (path_matches (frames, step))
            g_array_remove_index (frames, frames->len - step->n_names);
          break;

        case EMBERS_TRANSFORM_COLLAPSE_PACKAGE:
          {
            /* Each run of the package's frames becomes one frame named
             * by the package, with no line of its own */
            guint out = 0;
            gboolean run = FALSE;

            for (guint i = 0; i < frames->len; i++)
              {
                Frame f = g_array_index (frames, Frame, i);

                if (step->missing || !in_package (acc->t, step, f.name))
                  {
                    g_array_index (frames, Frame, out++) = f;
                    run = FALSE;
                    continue;
                  }
                if (f.name == target || step->package == target)
                  acc->inexact = TRUE;
                if (run)
                  continue;
                run = TRUE;
                {
                  Frame collapsed = { step->package, "", 0 };

                  g_array_index (frames, Frame, out++) = collapsed;
                }
              }
            g_array_set_size (frames, out);
          }
          break;

        case EMBERS_TRANSFORM_COLLAPSE_RECURSION:
          if (step->n_names == 0)
            {
              /* Direct recursion: a run of one name is one frame (the
               * outermost's kept) */
              for (guint i = 0; i + 1 < frames->len;)
                {
                  if (g_array_index (frames, Frame, i).name == g_array_index (frames, Frame, i + 1).name)
                    remove_frames (acc, i, i + 1);
                  else
                    i++;
                }
            }
          else if (name != NULL)
            {
              /* f;g;f;h -> f;h: the innermost occurrence merges into the
               * outermost, the frames between go */
              guint inner = G_MAXUINT, outer = G_MAXUINT;

              for (guint i = 0; i < frames->len; i++)
                if (g_array_index (frames, Frame, i).name == name)
                  {
                    if (inner == G_MAXUINT)
                      inner = i;
                    outer = i;
                  }
              if (inner != G_MAXUINT && inner < outer)
                {
                  /* The outer frame stands for the inner one's line: for
                   * the function itself that is approximate */
                  if (name == target)
                    acc->inexact = TRUE;
                  remove_frames (acc, inner, outer);
                }
            }
          break;

        case EMBERS_TRANSFORM_N_KINDS:
        default:
          break;
        }
    }
  return TRUE;
}

static GArray *
view_new (Tables                     *t,
          const EmbersTransformStack *stack)
{
  GArray *view = g_array_new (FALSE, TRUE, sizeof (ViewStep));
  guint n = embers_transform_stack_get_length (stack);

  for (guint s = 0; s < n; s++)
    {
      const char * const *args = embers_transform_stack_get_args (stack, s);
      ViewStep step = { 0 };

      step.kind = embers_transform_stack_get_kind (stack, s);
      step.n_names = args != NULL ? g_strv_length ((char **)args) : 0;
      step.names = g_new0 (const char *, step.n_names + 1);
      for (guint i = 0; i < step.n_names; i++)
        {
          step.names[i] = g_hash_table_lookup (t->pooled, args[i]);
          if (step.names[i] == NULL)
            step.missing = TRUE;
        }
      if (step.kind == EMBERS_TRANSFORM_COLLAPSE_PACKAGE && step.n_names > 0)
        {
          /* The package need not be a frame's name: it becomes one */
          step.package = pool_string (t, args[0], -1);
          step.names[0] = step.package;
          step.missing = FALSE;
          step.in_package = g_hash_table_new (g_direct_hash, g_direct_equal);
        }
      g_array_append_val (view, step);
    }
  return view;
}

static void
view_free (GArray *view)
{
  if (view == NULL)
    return;
  for (guint s = 0; s < view->len; s++)
    {
      ViewStep *step = &g_array_index (view, ViewStep, s);

      g_free (step->names);
      g_clear_pointer (&step->in_package, g_hash_table_unref);
    }
  g_array_unref (view);
}

/* One Sample message */
static gboolean
read_sample (Acc          *acc,
             const guint8 *p,
             const guint8 *end,
             gsize         stamp)
{
  Tables *t = acc->t;
  guint64 field, value;
  guint wire;
  Span body;
  gint64 v = 0;
  guint n_values = 0;
  gboolean seen = FALSE;

  g_array_set_size (acc->ids, 0);
  while (p < end)
    {
      if (!next_field (&p, end, &field, &wire, &value, &body))
        return FALSE;
      if (field != 1 && field != 2)
        continue;
      if (wire == 0)
        {
          if (field == 1)
            g_array_append_val (acc->ids, value);
          else if (n_values++ == acc->sample_type)
            v = (gint64)value;
        }
      else if (wire == 2)
        {
          const guint8 *q = body.data, *qend = body.data + body.len;

          while (q < qend)
            {
              if (!embers_pprof_varint (&q, qend, &value))
                return FALSE;
              if (field == 1)
                g_array_append_val (acc->ids, value);
              else if (n_values++ == acc->sample_type)
                v = (gint64)value;
            }
        }
    }

  /* Every sum here is bounded by the sum of magnitudes */
  acc->magnitude += v < 0 ? (guint64)0 - (guint64)v : (guint64)v;
  if (acc->magnitude > (guint64)G_MAXINT64 || v == G_MININT64)
    {
      acc->overflow = TRUE;
      return FALSE;
    }
  if (acc->view == NULL)
    acc->all += v;

  /* Each location once, by index; most stacks do not hold the function */
  for (guint i = 0; i < acc->ids->len; i++)
    {
      guint64 *id = &g_array_index (acc->ids, guint64, i);
      guint li;

      if (*id < t->n_dense)
        li = t->dense_locations[*id];
      else
        li = GPOINTER_TO_UINT (g_hash_table_lookup (t->location_ids, id));
      if (li == 0)
        return FALSE;
      *id = li;
      seen |= g_array_index (t->locations, Location, li - 1).has_target;
    }
  /* A view may drop the sample or make the function appear (a collapsed
   * package): every stack is looked at */
  if (v == 0 || (!seen && acc->view == NULL))
    return TRUE;
  seen = FALSE;

  /* The frames, leaf first: each location's lines are leaf first too */
  g_array_set_size (acc->frames, 0);
  for (guint i = 0; i < acc->ids->len; i++)
    {
      guint li = (guint)g_array_index (acc->ids, guint64, i);
      const Location *loc = &g_array_index (t->locations, Location, li - 1);
      if (loc->n_lines == 0)
        {
          Frame f = { loc->bare_name, "", 0 };

          g_array_append_val (acc->frames, f);
        }
      for (guint k = 0; k < loc->n_lines; k++)
        {
          const Line *l = &g_array_index (t->lines, Line, loc->first_line + k);
          Frame f = { l->name, l->file, l->line };

          g_array_append_val (acc->frames, f);
        }
    }

  if (acc->view != NULL)
    {
      if (!view_apply (acc))
        return TRUE;
      acc->all += v;
    }

  for (guint i = 0; i < acc->frames->len; i++)
    {
      const Frame *f = &g_array_index (acc->frames, Frame, i);

      if (f->name != t->target)
        continue;

      if (!seen)
        {
          seen = TRUE;
          acc->total += v;
          if (i == 0)
            acc->self += v;
        }
      count_line (acc, f->file, f->line, v, i == 0, stamp);
      /* As pprof's graph: no edge from the function to itself */
      if (i + 1 < acc->frames->len && f[1].name != t->target)
        edge_set_add (&acc->callers, f[1].name, v, stamp);
      if (i > 0 && f[-1].name != t->target)
        edge_set_add (&acc->callees, f[-1].name, v, stamp);
    }

  return TRUE;
}

static int
cmp_line (gconstpointer a,
          gconstpointer b)
{
  const EmbersLineCost *x = a, *y = b;

  return x->line < y->line ? -1 : x->line > y->line;
}

EmbersFunctionDetails *
embers_function_details_new_from_pprof (const guint8  *data,
                                        gsize          len,
                                        const char    *name,
                                        guint          sample_type,
                                        GCancellable  *cancellable,
                                        GError       **error)
{
  return embers_function_details_new_from_pprof_view (data, len, name, sample_type, NULL, cancellable, error);
}

EmbersFunctionDetails *
embers_function_details_new_from_pprof_view (const guint8               *data,
                                             gsize                       len,
                                             const char                 *name,
                                             guint                       sample_type,
                                             const EmbersTransformStack *view,
                                             GCancellable               *cancellable,
                                             GError                    **error)
{
  g_autoptr(EmbersFunctionDetails) d = NULL;
  Tables t = { 0 };
  Acc acc = { 0 };
  const guint8 *p = data, *end = data + len;
  gsize stamp = 0;
  gboolean ok = FALSE;
  const FileAcc *best_file = NULL;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  t.strings = g_array_new (FALSE, FALSE, sizeof (Span));
  t.functions = g_array_new (FALSE, FALSE, sizeof (Function));
  t.locations = g_array_new (FALSE, FALSE, sizeof (Location));
  t.lines = g_array_new (FALSE, FALSE, sizeof (Line));
  t.mappings = g_array_new (FALSE, FALSE, sizeof (Mapping));
  t.function_ids = g_hash_table_new (g_int64_hash, g_int64_equal);
  t.location_ids = g_hash_table_new (g_int64_hash, g_int64_equal);
  t.pool = g_string_chunk_new (4096);
  t.pooled = g_hash_table_new (g_str_hash, g_str_equal);
  t.bad_at = G_MAXSIZE;

  acc.t = &t;
  acc.sample_type = sample_type;
  edge_set_init (&acc.callers);
  edge_set_init (&acc.callees);
  acc.line_index = g_hash_table_new_full (line_key_hash, line_key_equal, g_free, NULL);
  acc.line_acc = g_array_new (FALSE, FALSE, sizeof (LineAcc));
  acc.file_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  acc.file_acc = g_array_new (FALSE, FALSE, sizeof (FileAcc));
  acc.frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  acc.ids = g_array_new (FALSE, FALSE, sizeof (guint64));

  if (!read_tables (&t, data, len, name))
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("pprof: the data is corrupt at byte %zu"), t.bad_at);
      goto out;
    }
  if (t.n_types == 0)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                   _("pprof: the profile declares no sample types"));
      goto out;
    }
  if (sample_type >= t.n_types)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("pprof: there is no sample type %u"), sample_type);
      goto out;
    }

  if (view != NULL && embers_transform_stack_get_length (view) > 0)
    acc.view = view_new (&t, view);

  while (p < end)
    {
      const guint8 *start = p;
      guint64 field, value;
      guint wire;
      Span body = { NULL, 0 };

      if (!next_field (&p, end, &field, &wire, &value, &body))
        break;
      if (field != 2 || wire != 2)
        continue;
      if (!read_sample (&acc, body.data, body.data + body.len, stamp++))
        {
          if (acc.overflow)
            g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                         _("pprof: the values add up past 64 bits"));
          else
            g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                         _("pprof: sample %zu is corrupt (at byte %zu)"), stamp - 1,
                         (gsize)(start - data));
          goto out;
        }
      if ((stamp & 4095) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;

  d = details_new (name);
  d->self = acc.self;
  d->total = acc.total;
  d->profile_total = acc.all;

  /* The file: the one most samples pass through (a name defined in two
   * files keeps the heavier) */
  for (guint i = 0; i < acc.file_acc->len; i++)
    {
      const FileAcc *f = &g_array_index (acc.file_acc, FileAcc, i);

      if (best_file == NULL || f->total > best_file->total)
        best_file = f;
    }
  if (best_file != NULL)
    {
      g_free (d->file);
      d->file = g_strdup (best_file->file);
    }
  else
    {
      /* No samples: the file from the function table */
      for (guint i = 0; i < t.functions->len; i++)
        {
          const Function *fn = &g_array_index (t.functions, Function, i);

          if (fn->target && fn->file[0] != '\0')
            {
              g_free (d->file);
              d->file = g_strdup (fn->file);
              break;
            }
        }
    }
  for (guint i = 0; i < t.functions->len; i++)
    {
      const Function *fn = &g_array_index (t.functions, Function, i);

      if (fn->target && g_str_equal (fn->file, d->file) && fn->start_line > 0
          && (d->start_line == 0 || fn->start_line < d->start_line))
        d->start_line = fn->start_line;
    }

  for (guint i = 0; i < acc.line_acc->len; i++)
    {
      const LineAcc *l = &g_array_index (acc.line_acc, LineAcc, i);
      EmbersLineCost cost = { l->line, l->self, l->total };

      /* Line 0 is no line: pprof from a server that kept none */
      if (best_file != NULL && l->file == best_file->file && l->line > 0)
        g_array_append_val (d->lines, cost);
    }
  g_array_sort (d->lines, cmp_line);
  d->has_lines = d->lines->len > 0;
  d->lines_inexact = acc.inexact;
  edge_set_emit (&acc.callers, d->callers);
  edge_set_emit (&acc.callees, d->callees);
  ok = TRUE;

out:
  g_array_unref (t.strings);
  g_array_unref (t.functions);
  g_array_unref (t.locations);
  g_array_unref (t.lines);
  g_array_unref (t.mappings);
  g_hash_table_unref (t.function_ids);
  g_hash_table_unref (t.location_ids);
  g_free (t.dense_locations);
  g_hash_table_unref (t.pooled);
  edge_set_clear (&acc.callers);
  edge_set_clear (&acc.callees);
  g_hash_table_unref (acc.line_index);
  g_array_unref (acc.line_acc);
  g_hash_table_unref (acc.file_index);
  g_array_unref (acc.file_acc);
  g_array_unref (acc.frames);
  g_array_unref (acc.ids);
  view_free (acc.view);
  /* the pool goes last: edges' names are in it until emitted */
  g_string_chunk_free (t.pool);

  return ok ? g_steal_pointer (&d) : NULL;
}

/* From the tree. A sample is counted once per function however often the
 * function recurs in it: a node whose ancestors already hold the function
 * adds nothing to its total, and an edge counts only where no ancestor
 * pair repeats it. */

static gboolean
name_is (EmbersProfile *profile,
         guint32        node,
         guint32        name_id)
{
  return embers_profile_node_name (profile, node) == name_id;
}

EmbersFunctionDetails *
embers_function_details_new_from_profile (EmbersProfile *profile,
                                          const char    *name,
                                          guint          sample_type)
{
  g_autoptr(EmbersFunctionDetails) d = NULL;
  guint n_nodes;
  guint32 target = EMBERS_NODE_NONE;
  EdgeSet callers, callees;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  d = details_new (name);
  d->profile_total = embers_profile_get_total (profile, sample_type);
  n_nodes = embers_profile_get_n_nodes (profile);

  for (guint i = 1; i < n_nodes; i++)
    if (g_strcmp0 (embers_profile_node_name_str (profile, i), name) == 0)
      {
        target = embers_profile_node_name (profile, i);
        break;
      }
  if (target == EMBERS_NODE_NONE)
    return g_steal_pointer (&d);

  {
    guint32 file = embers_profile_get_name_file (profile, target);

    if (file != 0)
      {
        g_free (d->file);
        d->file = g_strdup (embers_profile_get_string (profile, file));
      }
    d->start_line = MAX (0, embers_profile_get_name_line (profile, target));
  }

  edge_set_init (&callers);
  edge_set_init (&callees);
  for (guint32 n = 1; n < n_nodes; n++)
    {
      guint32 parent, end;
      gboolean nested = FALSE;
      const char *caller_name = NULL;

      if (!name_is (profile, n, target))
        continue;

      d->self += embers_profile_node_self (profile, sample_type, n);
      parent = embers_profile_node_parent (profile, n);
      for (guint32 a = parent; a != EMBERS_NODE_NONE && a != 0; a = embers_profile_node_parent (profile, a))
        if (name_is (profile, a, target))
          {
            nested = TRUE;
            break;
          }
      if (!nested)
        d->total += embers_profile_node_total (profile, sample_type, n);

      /* The caller: unless an outer frame of the function has a caller
       * of the same name */
      if (parent != 0 && parent != EMBERS_NODE_NONE && !name_is (profile, parent, target))
        {
          guint32 pname = embers_profile_node_name (profile, parent);
          gboolean repeat = FALSE;

          caller_name = embers_profile_node_name_str (profile, parent);
          for (guint32 a = parent; a != 0 && a != EMBERS_NODE_NONE; a = embers_profile_node_parent (profile, a))
            {
              guint32 ap = embers_profile_node_parent (profile, a);

              if (name_is (profile, a, target) && ap != 0 && ap != EMBERS_NODE_NONE
                  && name_is (profile, ap, pname))
                {
                  repeat = TRUE;
                  break;
                }
            }
          if (!repeat)
            edge_set_add (&callers, caller_name, embers_profile_node_total (profile, sample_type, n), n);
        }

      /* The callees: unless an outer frame of the function calls the
       * same name on this path */
      end = embers_profile_node_end (profile, n);
      for (guint32 c = n + 1; c < end; c = embers_profile_node_end (profile, c))
        {
          guint32 cname = embers_profile_node_name (profile, c);
          gboolean repeat = FALSE;
          guint32 below = n;

          for (guint32 a = parent; a != 0 && a != EMBERS_NODE_NONE; a = embers_profile_node_parent (profile, a))
            {
              if (name_is (profile, a, target) && name_is (profile, below, cname))
                {
                  repeat = TRUE;
                  break;
                }
              below = a;
            }
          if (!repeat && cname != target)
            edge_set_add (&callees, embers_profile_node_name_str (profile, c),
                          embers_profile_node_total (profile, sample_type, c), c);
        }
    }
  edge_set_emit (&callers, d->callers);
  edge_set_emit (&callees, d->callees);
  edge_set_clear (&callers);
  edge_set_clear (&callees);

  return g_steal_pointer (&d);
}

/* Loading */

typedef struct
{
  GFile  *file;     /* or */
  GBytes *bytes;
  char   *name;
  guint   sample_type;
  EmbersTransformStack *view;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *ld = data;

  g_clear_object (&ld->file);
  g_clear_pointer (&ld->bytes, g_bytes_unref);
  g_free (ld->name);
  g_clear_pointer (&ld->view, embers_transform_stack_free);
  g_free (ld);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *ld = task_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  EmbersFormat format = EMBERS_FORMAT_UNKNOWN;
  EmbersFunctionDetails *d;
  gsize len;
  const guint8 *data;

  if (ld->bytes != NULL)
    {
      bytes = g_bytes_ref (ld->bytes);
      format = EMBERS_FORMAT_PPROF;
    }
  else
    bytes = embers_input_read_file (ld->file, NULL, &format, cancellable, &error);
  if (bytes == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (format != EMBERS_FORMAT_PPROF)
    {
      g_task_return_new_error (task, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                               _("This file has no source lines (only pprof profiles do)"));
      return;
    }
  data = g_bytes_get_data (bytes, &len);
  d = embers_function_details_new_from_pprof_view (data, len, ld->name, ld->sample_type, ld->view,
                                                   cancellable, &error);
  if (d == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, d, (GDestroyNotify)embers_function_details_unref);
}

void
embers_function_details_load_async (GFile               *file,
                                    const char          *name,
                                    guint                sample_type,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  embers_function_details_load_view_async (file, name, sample_type, NULL, cancellable, callback, user_data);
}

void
embers_function_details_load_view_async (GFile                      *file,
                                         const char                 *name,
                                         guint                       sample_type,
                                         const EmbersTransformStack *view,
                                         GCancellable               *cancellable,
                                         GAsyncReadyCallback         callback,
                                         gpointer                    user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *ld;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (name != NULL);

  ld = g_new0 (LoadData, 1);
  ld->file = g_object_ref (file);
  ld->name = g_strdup (name);
  ld->sample_type = sample_type;
  ld->view = view != NULL ? embers_transform_stack_copy (view) : NULL;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_function_details_load_async);
  g_task_set_task_data (task, ld, load_data_free);
  g_task_run_in_thread (task, load_thread);
}

void
embers_function_details_compute_async (GBytes              *pprof,
                                       const char          *name,
                                       guint                sample_type,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  embers_function_details_compute_view_async (pprof, name, sample_type, NULL, cancellable, callback, user_data);
}

void
embers_function_details_compute_view_async (GBytes                     *pprof,
                                            const char                 *name,
                                            guint                       sample_type,
                                            const EmbersTransformStack *view,
                                            GCancellable               *cancellable,
                                            GAsyncReadyCallback         callback,
                                            gpointer                    user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *ld;

  g_return_if_fail (pprof != NULL);
  g_return_if_fail (name != NULL);

  ld = g_new0 (LoadData, 1);
  ld->bytes = g_bytes_ref (pprof);
  ld->name = g_strdup (name);
  ld->sample_type = sample_type;
  ld->view = view != NULL ? embers_transform_stack_copy (view) : NULL;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_function_details_load_async);
  g_task_set_task_data (task, ld, load_data_free);
  g_task_run_in_thread (task, load_thread);
}

EmbersFunctionDetails *
embers_function_details_load_finish (GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
embers_function_details_view_keeps_call_sites (const EmbersTransformStack *view)
{
  guint n = view != NULL ? embers_transform_stack_get_length (view) : 0;

  /* Dropping samples keeps every other stack as recorded; every other
   * step rewrites the paths (re-roots, removes or renames frames) */
  for (guint i = 0; i < n; i++)
    if (embers_transform_stack_get_kind (view, i) != EMBERS_TRANSFORM_DROP_FUNCTION)
      return FALSE;
  return TRUE;
}

guint32
embers_function_details_pick_node (EmbersProfile *profile,
                                   guint32        from,
                                   const char    *name,
                                   guint          sample_type)
{
  guint32 n_nodes, best = EMBERS_NODE_NONE;
  gint64 best_total = G_MININT64;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), EMBERS_NODE_NONE);
  g_return_val_if_fail (name != NULL, EMBERS_NODE_NONE);

  n_nodes = embers_profile_get_n_nodes (profile);
  if (from != EMBERS_NODE_NONE && from < n_nodes)
    {
      guint32 parent = embers_profile_node_parent (profile, from);

      /* A caller: the frame's own parent */
      if (from != 0 && parent != EMBERS_NODE_NONE && parent != 0 &&
          g_strcmp0 (embers_profile_node_name_str (profile, parent), name) == 0)
        return parent;
      /* A callee: the frame's heaviest child of that name */
      guint32 end = embers_profile_node_end (profile, from);

      /* Pre-order: the first child follows, each next one at the end of
       * the one before */
      for (guint32 c = from + 1; c < end && c < n_nodes; c = embers_profile_node_end (profile, c))
        if (g_strcmp0 (embers_profile_node_name_str (profile, c), name) == 0 &&
            embers_profile_node_total (profile, sample_type, c) > best_total)
          {
            best = c;
            best_total = embers_profile_node_total (profile, sample_type, c);
          }
      if (best != EMBERS_NODE_NONE)
        return best;
    }

  /* Else the function's heaviest frame. Frames are matched by the
   * name's string id, not compared as strings: a profile of a million
   * frames then costs a millisecond (a string is interned once; any
   * copies are looked for all the same) */
  {
    g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));

    for (guint32 s = 0; s < embers_profile_get_n_strings (profile); s++)
      if (g_strcmp0 (embers_profile_get_string (profile, s), name) == 0)
        g_array_append_val (ids, s);
    for (guint32 i = 1; i < n_nodes && ids->len > 0; i++)
      {
        guint32 id = embers_profile_node_name (profile, i);
        gboolean named = FALSE;

        for (guint k = 0; k < ids->len && !named; k++)
          named = g_array_index (ids, guint32, k) == id;
        if (named && embers_profile_node_total (profile, sample_type, i) > best_total)
          {
            best = i;
            best_total = embers_profile_node_total (profile, sample_type, i);
          }
      }
  }
  return best;
}
