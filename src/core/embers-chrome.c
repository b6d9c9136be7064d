/* embers-chrome.c: V8 CPU profiles and Chrome traces with profile chunks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-json-reader.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"

/*
 * A V8 CPU profile (the Chrome DevTools protocol's Profiler.Profile, as
 * `node --cpu-prof` and DevTools' "Save profile" write it):
 *
 *   {"nodes": [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": "0",
 *               "url": "", "lineNumber": -1, "columnNumber": -1},
 *               "hitCount": 0, "children": [2, 3]}, …],
 *    "startTime": µs, "endTime": µs, "samples": [node ids], "timeDeltas": [µs]}
 *
 * Sample i was taken at startTime + timeDeltas[0] + … + timeDeltas[i]; as
 * in DevTools, it lasts until the next sample (the last one until
 * endTime). A profile without samples falls back to the nodes' hitCount.
 *
 * A Chrome trace (the trace event format, as an object with "traceEvents"
 * or a bare array) carries the same profiles in pieces: a "Profile" event
 * (ph "P") opens profile `id` of process `pid` with its startTime, and
 * "ProfileChunk" events add {"cpuProfile": {"nodes": [{"id", "parent",
 * "callFrame"}], "samples": […]}, "timeDeltas": […]}; older traces hold
 * whole profiles in "CpuProfile" events. Each profile goes under a root
 * frame named after its thread ("CrRendererMain (pid 8453)"), from the
 * trace's thread_name metadata.
 *
 * Frames are "function file:line" (the url's last path segment, the line
 * counted from 1), "(anonymous) file:line" for functions without a name,
 * and the bare name for V8's own nodes ("(program)", "(idle)",
 * "(garbage collector)"). The root node "(root)" is the profile's root.
 *
 * Sample types: "cpu" (the samples' durations, nanoseconds) and "samples".
 */

#define COL_CPU     0
#define COL_SAMPLES 1

typedef struct
{
  gint64   id;
  gint64   parent;        /* -1: none known */
  gint64   hit_count;
  guint32  name;
  guint32  built;         /* builder node + 1, 0 until resolved */
} Node;

typedef struct
{
  GArray     *nodes;       /* Node */
  GHashTable *index;       /* id (gint64 *) -> position + 1 */
  GHashTable *children;    /* child id -> parent id, from "children" lists */
  GArray     *samples;     /* gint64 node ids */
  GArray     *deltas;      /* gint64 µs */
  gint64      start_time;
  gint64      end_time;
  gboolean    has_end_time;
  gboolean    has_samples;
  /* traces */
  gint64      pid;
  gint64      tid;
  char       *id;
} Profile;

static Profile *
profile_new (void)
{
  Profile *p = g_new0 (Profile, 1);

  p->nodes = g_array_new (FALSE, TRUE, sizeof (Node));
  p->index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  p->children = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  p->samples = g_array_new (FALSE, FALSE, sizeof (gint64));
  p->deltas = g_array_new (FALSE, FALSE, sizeof (gint64));
  return p;
}

static void
profile_free (Profile *p)
{
  if (p == NULL)
    return;
  g_array_unref (p->nodes);
  g_hash_table_unref (p->index);
  g_hash_table_unref (p->children);
  g_array_unref (p->samples);
  g_array_unref (p->deltas);
  g_free (p->id);
  g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Profile, profile_free)

static gint64 *
int64_dup (gint64 v)
{
  return g_memdup2 (&v, sizeof v);
}

/* The last path segment of a URL ("file:///a/b.js?v=1" -> "b.js") */
static const char *
url_basename (const char *url,
              gsize      *len)
{
  const char *end = url + strlen (url);
  const char *q = strpbrk (url, "?#");
  const char *start = url;

  if (q != NULL)
    end = q;
  for (const char *p = url; p + 1 < end; p++)
    if (*p == '/')
      start = p + 1;
  *len = (gsize)(end - start);
  return start;
}

typedef struct
{
  EmbersProfileBuilder *b;
  GString              *name;
} Ctx;

/* {"functionName", "url", "lineNumber", "columnNumber", …} -> a name id */
static gboolean
read_call_frame (EmbersJson  *j,
                 Ctx         *ctx,
                 guint32     *name_id,
                 GError     **error)
{
  g_autofree char *function = NULL;
  g_autofree char *url = NULL;
  gint64 line = -1;
  gboolean first = TRUE, more = TRUE;

  if (!embers_json_enter (j, '{', "callFrame", error))
    return FALSE;
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;
      gboolean ok;

      if (strcmp (key, "functionName") == 0)
        ok = embers_json_read_string_member (j, "functionName", &function, error);
      else if (strcmp (key, "url") == 0)
        ok = embers_json_read_string_member (j, "url", &url, error);
      else if (strcmp (key, "lineNumber") == 0)
        ok = embers_json_read_int_member (j, "lineNumber", &line, error);
      else
        ok = embers_json_skip_value (j, 3, error);
      if (!ok)
        return FALSE;
    }
  if (more)
    return FALSE;

  g_string_truncate (ctx->name, 0);
  g_string_append (ctx->name, function != NULL && function[0] != '\0' ? function : "(anonymous)");
  if (url != NULL && url[0] != '\0')
    {
      gsize base_len;
      const char *base = url_basename (url, &base_len);

      g_string_append_c (ctx->name, ' ');
      g_string_append_len (ctx->name, base, (gssize)base_len);
      if (line >= 0 && line < G_MAXINT64)
        g_string_append_printf (ctx->name, ":%" G_GINT64_FORMAT, line + 1);
    }
  *name_id = embers_profile_builder_intern (ctx->b, ctx->name->str, ctx->name->len);
  if (url != NULL && url[0] != '\0')
    embers_profile_builder_set_name_location (ctx->b, *name_id,
                                              embers_profile_builder_intern (ctx->b, url, -1),
                                              line >= 0 && line < G_MAXINT64 ? line + 1 : 0);
  return TRUE;
}

static gboolean
read_int_array (EmbersJson  *j,
                const char  *what,
                GArray      *out,
                GError     **error)
{
  gboolean first = TRUE, more = TRUE;

  if (embers_json_is_null (j))
    {
      j->p += 4;
      return TRUE;
    }
  if (!embers_json_enter (j, '[', what, error))
    return FALSE;
  while (embers_json_next_element (j, ']', &first, &more, error) && more)
    {
      gint64 v;

      switch (embers_json_read_int (j, &v, error))
        {
        case EMBERS_JSON_INT:
          g_array_append_val (out, v);
          break;
        case EMBERS_JSON_FAILED:
          return FALSE;
        case EMBERS_JSON_NULL:
        case EMBERS_JSON_OTHER:
        default:
          embers_json_set_invalid (error, _("“%s” must hold integers only"), what);
          return FALSE;
        }
    }
  return !more;
}

static gboolean
read_node (EmbersJson  *j,
           Ctx         *ctx,
           Profile     *p,
           GError     **error)
{
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (gint64));
  gboolean first = TRUE, more = TRUE;
  gboolean has_id = FALSE, has_frame = FALSE;
  Node node = { 0, -1, 0, 0, 0 };

  if (!embers_json_enter (j, '{', "nodes", error))
    return FALSE;
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;
      gboolean ok;

      if (strcmp (key, "id") == 0)
        {
          ok = embers_json_read_int_member (j, "id", &node.id, error);
          has_id = TRUE;
        }
      else if (strcmp (key, "parent") == 0)
        ok = embers_json_read_int_member (j, "parent", &node.parent, error);
      else if (strcmp (key, "hitCount") == 0)
        ok = embers_json_read_int_member (j, "hitCount", &node.hit_count, error);
      else if (strcmp (key, "callFrame") == 0)
        {
          ok = read_call_frame (j, ctx, &node.name, error);
          has_frame = TRUE;
        }
      else if (strcmp (key, "children") == 0)
        ok = read_int_array (j, "children", children, error);
      else
        ok = embers_json_skip_value (j, 3, error);
      if (!ok)
        return FALSE;
    }
  if (more)
    return FALSE;

  if (!has_id || !has_frame)
    {
      embers_json_set_invalid (error, _("a profile node has no “id” or no “callFrame”"));
      return FALSE;
    }
  if (node.hit_count < 0)
    {
      embers_json_set_invalid (error, _("node %" PRId64 " has a negative hitCount"), node.id);
      return FALSE;
    }
  if (g_hash_table_contains (p->index, &node.id))
    {
      embers_json_set_invalid (error, _("the node id %" PRId64 " appears twice"), node.id);
      return FALSE;
    }
  g_hash_table_insert (p->index, int64_dup (node.id), GUINT_TO_POINTER (p->nodes->len + 1));
  g_array_append_val (p->nodes, node);
  for (guint k = 0; k < children->len; k++)
    {
      gint64 child = g_array_index (children, gint64, k);

      if (g_hash_table_contains (p->children, &child))
        {
          embers_json_set_invalid (error, _("node %" PRId64 " has two parents"), child);
          return FALSE;
        }
      g_hash_table_insert (p->children, int64_dup (child), int64_dup (node.id));
    }
  return TRUE;
}

static gboolean
read_nodes (EmbersJson  *j,
            Ctx         *ctx,
            Profile     *p,
            GError     **error)
{
  gboolean first = TRUE, more = TRUE;

  if (embers_json_is_null (j))
    {
      j->p += 4;
      return TRUE;
    }
  if (!embers_json_enter (j, '[', "nodes", error))
    return FALSE;
  while (embers_json_next_element (j, ']', &first, &more, error) && more)
    if (!read_node (j, ctx, p, error))
      return FALSE;
  return !more;
}

/* The members of a Profiler.Profile object (or a chunk's cpuProfile) */
static gboolean
read_profile_member (EmbersJson  *j,
                     Ctx         *ctx,
                     Profile     *p,
                     const char  *key,
                     GError     **error)
{
  if (strcmp (key, "nodes") == 0)
    return read_nodes (j, ctx, p, error);
  if (strcmp (key, "samples") == 0)
    {
      p->has_samples = TRUE;
      return read_int_array (j, "samples", p->samples, error);
    }
  if (strcmp (key, "timeDeltas") == 0)
    return read_int_array (j, "timeDeltas", p->deltas, error);
  if (strcmp (key, "startTime") == 0)
    return embers_json_read_int_member (j, "startTime", &p->start_time, error);
  if (strcmp (key, "endTime") == 0)
    {
      p->has_end_time = TRUE;
      return embers_json_read_int_member (j, "endTime", &p->end_time, error);
    }
  return embers_json_skip_value (j, 3, error);
}

static gboolean
read_profile_object (EmbersJson  *j,
                     Ctx         *ctx,
                     Profile     *p,
                     const char  *what,
                     GError     **error)
{
  gboolean first = TRUE, more = TRUE;

  if (!embers_json_enter (j, '{', what, error))
    return FALSE;
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      g_autofree char *key = g_strdup (j->scratch->str);

      if (!read_profile_member (j, ctx, p, key, error))
        return FALSE;
    }
  return !more;
}

/* The builder node of a profile node: its parents first, iteratively */
static gboolean
resolve_node (Profile               *p,
              EmbersProfileBuilder  *b,
              guint32                root,
              guint                  index,
              guint32               *out,
              GError               **error)
{
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint));
  guint32 parent_built;
  guint at = index;

  /* Up to a resolved node or the root */
  for (;;)
    {
      Node *n = &g_array_index (p->nodes, Node, at);
      gpointer pos;

      if (n->built != 0)
        break;
      g_array_append_val (chain, at);
      if (chain->len > EMBERS_PROFILE_MAX_DEPTH)
        {
          embers_json_set_invalid (error, _("the profile’s nodes form a cycle or a stack deeper than %u"),
                                   EMBERS_PROFILE_MAX_DEPTH);
          return FALSE;
        }
      if (n->parent < 0)
        break;
      pos = g_hash_table_lookup (p->index, &n->parent);
      if (pos == NULL)
        {
          embers_json_set_invalid (error, _("node %" PRId64 " has the parent %" PRId64
                                            ", which is no node"), n->id, n->parent);
          return FALSE;
        }
      at = GPOINTER_TO_UINT (pos) - 1;
    }

  {
    Node *top = &g_array_index (p->nodes, Node, at);

    parent_built = top->built != 0 ? top->built - 1 : root;
  }

  /* Down again. The topmost node without a parent is the profile's own
   * root ("(root)"), which stands for the root frame itself. */
  for (guint k = chain->len; k > 0; k--)
    {
      Node *n = &g_array_index (p->nodes, Node, g_array_index (chain, guint, k - 1));

      if (n->parent < 0)
        n->built = parent_built + 1;
      else
        {
          parent_built = embers_profile_builder_get_child (b, parent_built, n->name);
          n->built = parent_built + 1;
        }
    }

  *out = g_array_index (p->nodes, Node, index).built - 1;
  return TRUE;
}

/* Adds a whole profile under @root */
static gboolean
profile_add (Profile               *p,
             EmbersProfileBuilder  *b,
             guint32                root,
             GError               **error)
{
  gint64 t, next;

  /* Parents from "children" lists */
  for (guint i = 0; i < p->nodes->len; i++)
    {
      Node *n = &g_array_index (p->nodes, Node, i);
      gint64 *parent = g_hash_table_lookup (p->children, &n->id);

      if (parent != NULL)
        {
          if (n->parent >= 0 && n->parent != *parent)
            {
              embers_json_set_invalid (error, _("node %" PRId64 " has two parents"), n->id);
              return FALSE;
            }
          n->parent = *parent;
        }
      if (n->parent == n->id)
        {
          embers_json_set_invalid (error, _("node %" PRId64 " is its own parent"), n->id);
          return FALSE;
        }
    }

  if (!p->has_samples)
    {
      /* hitCount only */
      for (guint i = 0; i < p->nodes->len; i++)
        {
          Node *n = &g_array_index (p->nodes, Node, i);
          guint32 built;

          if (n->hit_count == 0)
            continue;
          if (!resolve_node (p, b, root, i, &built, error))
            return FALSE;
          embers_profile_builder_add_self (b, built, COL_SAMPLES, n->hit_count);
        }
      return embers_profile_builder_check (b, error);
    }

  if (p->deltas->len != 0 && p->deltas->len != p->samples->len)
    {
      embers_json_set_invalid (error, _("there are %u samples but %u time deltas"),
                               p->samples->len, p->deltas->len);
      return FALSE;
    }

  t = p->start_time;
  if (p->deltas->len > 0)
    t = g_array_index (p->deltas, gint64, 0) + p->start_time;
  for (guint i = 0; i < p->samples->len; i++)
    {
      gint64 id = g_array_index (p->samples, gint64, i);
      gpointer pos = g_hash_table_lookup (p->index, &id);
      gint64 duration = 0;
      guint32 built;

      if (pos == NULL)
        {
          embers_json_set_invalid (error, _("sample %u names the node %" PRId64 ", which is no node"),
                                   i, id);
          return FALSE;
        }
      if (p->deltas->len > 0)
        {
          if (i + 1 < p->samples->len)
            {
              gint64 d = g_array_index (p->deltas, gint64, i + 1);

              next = t + d;
              duration = d;
            }
          else
            {
              next = t;
              duration = p->has_end_time ? p->end_time - t : 0;
            }
          t = next;
        }
      if (duration < 0 || duration > G_MAXINT64 / 1000)
        duration = 0;
      if (!resolve_node (p, b, root, GPOINTER_TO_UINT (pos) - 1, &built, error))
        return FALSE;
      embers_profile_builder_add_self (b, built, COL_CPU, duration * 1000);
      embers_profile_builder_add_self (b, built, COL_SAMPLES, 1);
    }

  return embers_profile_builder_check (b, error);
}

static EmbersProfileBuilder *
builder_new (void)
{
  EmbersProfileBuilder *b = embers_profile_builder_new ();

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  embers_profile_builder_add_sample_type (b, "samples", "count");
  embers_profile_builder_set_default_sample_type (b, COL_CPU);
  return b;
}

static void
prefix_error (GError     **error,
              const char  *format)
{
  if (error != NULL && *error != NULL)
    g_prefix_error_literal (error, format);
}

EmbersProfile *
embers_cpuprofile_parse (const char  *data,
                         gsize        len,
                         GError     **error)
{
  g_autoptr(EmbersProfileBuilder) b = builder_new ();
  g_autoptr(Profile) p = profile_new ();
  g_autoptr(GString) name = g_string_new (NULL);
  EmbersJson j;
  Ctx ctx = { b, name };
  gboolean ok;

  embers_json_init (&j, data, len);
  if (len >= 3 && (guchar)data[0] == 0xef && (guchar)data[1] == 0xbb && (guchar)data[2] == 0xbf)
    j.p += 3;
  ok = read_profile_object (&j, &ctx, p, "the profile", error);
  if (ok)
    {
      embers_json_skip_ws (&j);
      if (j.p != j.end)
        ok = embers_json_syntax_error (&j, error, _("text after the profile"));
    }
  embers_json_clear (&j);
  if (ok && p->nodes->len == 0)
    {
      g_set_error_literal (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                           _("V8 CPU profile: there are no nodes"));
      return NULL;
    }
  if (!ok || !profile_add (p, b, 0, error))
    {
      prefix_error (error, _("V8 CPU profile: "));
      return NULL;
    }

  if (p->has_end_time && p->end_time >= p->start_time)
    embers_profile_builder_set_time (b, 0, (p->end_time - p->start_time) * 1000);
  return embers_profile_builder_finish (b, error);
}

/* Traces */

typedef struct
{
  Ctx         ctx;
  GPtrArray  *profiles;       /* Profile, in the order they opened */
  GHashTable *by_key;         /* "pid/id" -> Profile */
  GHashTable *thread_names;   /* "pid/tid" -> name */
} Trace;

static Profile *
trace_profile (Trace      *t,
               gint64      pid,
               gint64      tid,
               const char *id,
               gboolean    create)
{
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/%s", pid, id ? id : "");
  Profile *p = g_hash_table_lookup (t->by_key, key);

  if (p == NULL && create)
    {
      p = profile_new ();
      p->pid = pid;
      p->tid = tid;
      p->id = g_strdup (id ? id : "");
      g_ptr_array_add (t->profiles, p);
      g_hash_table_insert (t->by_key, g_steal_pointer (&key), p);
    }
  return p;
}

/* An event's "args": {"data": {...}} or {"name": "..."} (metadata);
 * data_start is where "data"'s object starts, for a second pass */
typedef struct
{
  char       *name;
  char       *ph;
  char       *id;
  gint64      pid;
  gint64      tid;
  const char *args;       /* the "args" value, read after the event */
} Event;

static void
event_clear (Event *e)
{
  g_clear_pointer (&e->name, g_free);
  g_clear_pointer (&e->ph, g_free);
  g_clear_pointer (&e->id, g_free);
}

/* "id" is a string ("0x1") or a number */
static gboolean
read_id (EmbersJson  *j,
         char       **out,
         GError     **error)
{
  gint64 v;

  g_clear_pointer (out, g_free);
  if (*j->p == '"')
    return embers_json_read_string_member (j, "id", out, error);
  switch (embers_json_read_int (j, &v, error))
    {
    case EMBERS_JSON_INT:
      *out = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", v);
      return TRUE;
    case EMBERS_JSON_NULL:
    case EMBERS_JSON_OTHER:
      return TRUE;
    case EMBERS_JSON_FAILED:
    default:
      return FALSE;
    }
}

/* ProfileChunk's data: {"cpuProfile": {...}, "timeDeltas": [...]} */
static gboolean
read_chunk_data (EmbersJson  *j,
                 Trace       *t,
                 Profile     *p,
                 GError     **error)
{
  gboolean first = TRUE, more = TRUE;

  if (!embers_json_enter (j, '{', "data", error))
    return FALSE;
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;
      gboolean ok;

      if (strcmp (key, "cpuProfile") == 0)
        ok = read_profile_object (j, &t->ctx, p, "cpuProfile", error);
      else if (strcmp (key, "timeDeltas") == 0)
        ok = read_int_array (j, "timeDeltas", p->deltas, error);
      else
        ok = embers_json_skip_value (j, 4, error);
      if (!ok)
        return FALSE;
    }
  return !more;
}

/* Profile's data: {"startTime": µs} */
static gboolean
read_profile_data (EmbersJson  *j,
                   Profile     *p,
                   GError     **error)
{
  gboolean first = TRUE, more = TRUE;

  if (!embers_json_enter (j, '{', "data", error))
    return FALSE;
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      gboolean ok;

      if (strcmp (j->scratch->str, "startTime") == 0)
        ok = embers_json_read_int_member (j, "startTime", &p->start_time, error);
      else
        ok = embers_json_skip_value (j, 4, error);
      if (!ok)
        return FALSE;
    }
  return !more;
}

/* CpuProfile's data: {"cpuProfile": {whole profile}} */
static gboolean
read_cpu_profile_data (EmbersJson  *j,
                       Trace       *t,
                       Profile     *p,
                       GError     **error)
{
  gboolean first = TRUE, more = TRUE;

  if (!embers_json_enter (j, '{', "data", error))
    return FALSE;
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      gboolean ok;

      if (strcmp (j->scratch->str, "cpuProfile") == 0)
        ok = read_profile_object (j, &t->ctx, p, "cpuProfile", error);
      else
        ok = embers_json_skip_value (j, 4, error);
      if (!ok)
        return FALSE;
    }
  return !more;
}

/* The event's "args", once its name, ph, pid, tid and id are known */
static gboolean
read_event_args (EmbersJson  *j,
                 Trace       *t,
                 Event       *e,
                 GError     **error)
{
  gboolean first = TRUE, more = TRUE;
  gboolean is_chunk = g_strcmp0 (e->name, "ProfileChunk") == 0;
  gboolean is_profile = g_strcmp0 (e->name, "Profile") == 0;
  gboolean is_cpu_profile = g_strcmp0 (e->name, "CpuProfile") == 0;
  gboolean is_thread_name = g_strcmp0 (e->ph, "M") == 0 && g_strcmp0 (e->name, "thread_name") == 0;

  if (!is_chunk && !is_profile && !is_cpu_profile && !is_thread_name)
    return embers_json_skip_value (j, 2, error);

  if (!embers_json_enter (j, '{', "args", error))
    return FALSE;
  while (embers_json_next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;
      gboolean ok;

      if (is_thread_name && strcmp (key, "name") == 0)
        {
          g_autofree char *name = NULL;

          ok = embers_json_read_string_member (j, "name", &name, error);
          if (ok && name != NULL)
            g_hash_table_insert (t->thread_names,
                                 g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, e->pid, e->tid),
                                 g_steal_pointer (&name));
        }
      else if (strcmp (key, "data") == 0 && !is_thread_name)
        {
          if (is_profile)
            ok = read_profile_data (j, trace_profile (t, e->pid, e->tid, e->id, TRUE), error);
          else if (is_chunk)
            {
              Profile *p = trace_profile (t, e->pid, e->tid, e->id, FALSE);

              if (p == NULL)
                /* A chunk before its Profile event: the profile opens here */
                p = trace_profile (t, e->pid, -1, e->id, TRUE);
              ok = read_chunk_data (j, t, p, error);
            }
          else
            {
              g_autofree char *id = g_strdup_printf ("cpu-profile-%u", t->profiles->len);

              ok = read_cpu_profile_data (j, t, trace_profile (t, e->pid, e->tid, id, TRUE), error);
            }
        }
      else
        ok = embers_json_skip_value (j, 3, error);
      if (!ok)
        return FALSE;
    }
  return !more;
}

static gboolean
read_event (EmbersJson  *j,
            Trace       *t,
            GError     **error)
{
  gboolean first = TRUE, more = TRUE;
  Event e = { NULL, NULL, NULL, 0, 0, NULL };
  gboolean ok = TRUE;

  if (!embers_json_enter (j, '{', "traceEvents", error))
    return FALSE;
  while (ok && embers_json_next_member (j, &first, &more, error) && more)
    {
      const char *key = j->scratch->str;

      if (strcmp (key, "name") == 0)
        ok = embers_json_read_string_member (j, "name", &e.name, error);
      else if (strcmp (key, "ph") == 0)
        ok = embers_json_read_string_member (j, "ph", &e.ph, error);
      else if (strcmp (key, "id") == 0)
        ok = read_id (j, &e.id, error);
      else if (strcmp (key, "pid") == 0)
        ok = embers_json_read_int_member (j, "pid", &e.pid, error);
      else if (strcmp (key, "tid") == 0)
        ok = embers_json_read_int_member (j, "tid", &e.tid, error);
      else if (strcmp (key, "args") == 0)
        {
          /* Keep its place: the members it needs may come after it */
          e.args = j->p;
          ok = embers_json_skip_value (j, 2, error);
        }
      else
        ok = embers_json_skip_value (j, 2, error);
    }
  if (ok && !more && e.args != NULL)
    {
      EmbersJson sub = *j;

      sub.p = e.args;
      ok = read_event_args (&sub, t, &e, error);
    }
  event_clear (&e);
  return ok && !more;
}

static gboolean
read_events (EmbersJson  *j,
             Trace       *t,
             gboolean     bare,
             GError     **error)
{
  gboolean first = TRUE, more = TRUE;

  if (!embers_json_enter (j, '[', "traceEvents", error))
    return FALSE;
  for (;;)
    {
      /* The array form may end without its "]" (the format allows it) */
      if (bare && first)
        {
          embers_json_skip_ws (j);
          if (j->p == j->end)
            return TRUE;
        }
      if (bare && !first)
        {
          embers_json_skip_ws (j);
          if (j->p == j->end)
            return TRUE;
          if (*j->p == ',')
            {
              const char *save = j->p;

              j->p++;
              embers_json_skip_ws (j);
              if (j->p == j->end)
                return TRUE;
              j->p = save;
            }
        }
      if (!embers_json_next_element (j, ']', &first, &more, error))
        return FALSE;
      if (!more)
        return TRUE;
      if (!read_event (j, t, error))
        return FALSE;
    }
}

EmbersProfile *
embers_chrome_trace_parse (const char  *data,
                           gsize        len,
                           GError     **error)
{
  g_autoptr(EmbersProfileBuilder) b = builder_new ();
  g_autoptr(GString) name = g_string_new (NULL);
  g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func ((GDestroyNotify)profile_free);
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) thread_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  Trace t = { { b, name }, profiles, by_key, thread_names };
  EmbersJson j;
  gboolean ok = TRUE;
  guint n_samples = 0;

  embers_json_init (&j, data, len);
  if (len >= 3 && (guchar)data[0] == 0xef && (guchar)data[1] == 0xbb && (guchar)data[2] == 0xbf)
    j.p += 3;
  if (!embers_json_peek (&j, error))
    ok = FALSE;
  else if (*j.p == '[')
    ok = read_events (&j, &t, TRUE, error);
  else
    {
      gboolean first = TRUE, more = TRUE;

      ok = embers_json_enter (&j, '{', "the trace", error);
      while (ok && embers_json_next_member (&j, &first, &more, error) && more)
        {
          if (strcmp (j.scratch->str, "traceEvents") == 0)
            ok = read_events (&j, &t, FALSE, error);
          else
            ok = embers_json_skip_value (&j, 1, error);
        }
      ok = ok && !more;
    }
  if (ok)
    {
      embers_json_skip_ws (&j);
      if (j.p != j.end)
        ok = embers_json_syntax_error (&j, error, _("text after the trace"));
    }
  embers_json_clear (&j);
  if (!ok)
    {
      prefix_error (error, _("Chrome trace: "));
      return NULL;
    }

  for (guint i = 0; i < profiles->len; i++)
    n_samples += ((Profile *)g_ptr_array_index (profiles, i))->samples->len;
  if (profiles->len == 0 || n_samples == 0)
    {
      g_set_error_literal (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                           _("Chrome trace: there are no CPU profile samples in it (record the "
                             "“disabled-by-default-v8.cpu_profiler” category)"));
      return NULL;
    }

  for (guint i = 0; i < profiles->len; i++)
    {
      Profile *p = g_ptr_array_index (profiles, i);
      g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, p->pid, p->tid);
      const char *thread = p->tid >= 0 ? g_hash_table_lookup (thread_names, key) : NULL;
      g_autofree char *root_name = NULL;
      guint32 root;

      if (p->samples->len == 0)
        continue;
      if (thread != NULL)
        root_name = g_strdup_printf ("%s (pid %" G_GINT64_FORMAT ")", thread, p->pid);
      else
        root_name = g_strdup_printf ("Profile %s (pid %" G_GINT64_FORMAT ")", p->id, p->pid);
      root = embers_profile_builder_get_child (b, 0, embers_profile_builder_intern (b, root_name, -1));
      if (!profile_add (p, b, root, error))
        {
          prefix_error (error, _("Chrome trace: "));
          return NULL;
        }
    }

  return embers_profile_builder_finish (b, error);
}
