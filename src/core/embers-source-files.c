/* embers-source-files.c: finding a profile's source file in local folders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-source-files.h"

/* Bounds on a walk: entries looked at per root, and folder depth */
#define MAX_ENTRIES     200000
#define MAX_DEPTH       32
#define MAX_COMPONENTS  128

void
embers_source_candidate_free (EmbersSourceCandidate *candidate)
{
  if (candidate == NULL)
    return;
  g_free (candidate->path);
  g_free (candidate->root);
  g_free (candidate);
}

char **
embers_source_path_components (const char *path)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) parts = NULL;
  g_autofree char *copy = NULL;

  if (path == NULL)
    path = "";
  copy = g_strdup (path);
  g_strdelimit (copy, "\\", '/');
  parts = g_strsplit (copy, "/", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *part = parts[i];
      char *at;

      if (part[0] == '\0' || g_str_equal (part, "."))
        continue;
      if (g_str_equal (part, ".."))
        {
          if (out->len > 0)
            g_ptr_array_remove_index (out, out->len - 1);
          continue;
        }
      /* A drive letter ("C:") */
      if (out->len == 0 && strlen (part) == 2 && g_ascii_isalpha (part[0]) && part[1] == ':')
        continue;
      /* A Go module version: "lib@v1.4.0" is "lib" in a checkout */
      at = strchr (part, '@');
      if (at != NULL && at != part && at[1] == 'v')
        *at = '\0';
      /* Nothing that could not be one file name */
      if (strlen (part) > 255 || !g_utf8_validate (part, -1, NULL))
        continue;
      g_ptr_array_add (out, g_strdup (part));
    }

  while (out->len > MAX_COMPONENTS)
    g_ptr_array_remove_index (out, 0);
  g_ptr_array_add (out, NULL);
  return (char **)g_ptr_array_free (g_steal_pointer (&out), FALSE);
}

static gboolean
is_identifier (const char *s)
{
  if (s[0] == '\0' || g_ascii_isdigit (s[0]))
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && *s != '$')
      return FALSE;
  return TRUE;
}

char *
embers_source_java_path (const char *function_name,
                         const char *file)
{
  g_autofree char *name = NULL;
  g_auto(GStrv) parts = NULL;
  g_autoptr(GString) path = NULL;
  g_autofree char *class_name = NULL;
  guint n;
  char *cut;

  if (function_name == NULL)
    return NULL;
  name = g_strdup (function_name);
  if ((cut = strchr (name, '(')) != NULL)
    *cut = '\0';
  g_strdelimit (name, "/", '.');
  parts = g_strsplit (name, ".", -1);
  n = g_strv_length (parts);
  if (n < 3)
    return NULL;
  for (guint i = 0; i < n; i++)
    if (!is_identifier (parts[i]))
      return NULL;

  path = g_string_new (NULL);
  for (guint i = 0; i + 2 < n; i++)
    {
      if (parts[i][0] == '$' || strchr (parts[i], '$') != NULL)
        return NULL;
      g_string_append (path, parts[i]);
      g_string_append_c (path, '/');
    }

  class_name = g_strdup (parts[n - 2]);
  if ((cut = strchr (class_name, '$')) != NULL)
    *cut = '\0';
  if (class_name[0] == '\0')
    return NULL;

  if (file != NULL && file[0] != '\0' && strchr (file, '/') == NULL && strchr (file, '\\') == NULL
      && (g_str_has_suffix (file, ".java") || g_str_has_suffix (file, ".kt") || g_str_has_suffix (file, ".scala")))
    g_string_append (path, file);
  else
    g_string_append_printf (path, "%s.java", class_name);

  return g_string_free (g_steal_pointer (&path), FALSE);
}

/* Finding */

typedef struct
{
  char       **want;      /* components sought */
  guint        n_want;
  char        *root;      /* canonical */
  char       **root_parts;
  guint        root_index;
  GHashTable  *seen;      /* canonical paths */
  GPtrArray   *found;     /* Found */
} Search;

typedef struct
{
  EmbersSourceCandidate *candidate;
  guint                  root_index;
  guint                  depth;
} Found;

static void
found_free (gpointer data)
{
  Found *f = data;

  embers_source_candidate_free (f->candidate);
  g_free (f);
}

static gboolean
inside (const char *path,
        const char *root)
{
  gsize n = strlen (root);

  if (g_str_equal (root, "/"))
    return path[0] == '/';
  return strncmp (path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static char *
canonical (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *clean = g_file_get_path (file);
  char *real;

  if (clean == NULL)
    return NULL;
  real = realpath (clean, NULL);
  if (real == NULL)
    return NULL;
  {
    char *out = g_strdup (real);

    free (real);
    return out;
  }
}

/* Considers the file at @rel_parts (relative to the root) */
static void
consider (Search      *s,
          char       **rel_parts,
          guint        n_rel)
{
  g_autofree char *joined = NULL;
  g_autofree char *path = NULL;
  g_autofree char *real = NULL;
  guint matched = 0;
  Found *f;

  /* Trailing components that match, then the root's own names */
  while (matched < n_rel && matched < s->n_want
         && g_str_equal (rel_parts[n_rel - 1 - matched], s->want[s->n_want - 1 - matched]))
    matched++;
  if (matched == 0)
    return;
  if (matched == n_rel)
    {
      guint n_root = g_strv_length (s->root_parts);

      for (guint k = 0; k < n_root && matched < s->n_want; k++)
        {
          if (!g_str_equal (s->root_parts[n_root - 1 - k], s->want[s->n_want - 1 - matched]))
            break;
          matched++;
        }
    }

  joined = g_strjoinv ("/", rel_parts);
  path = g_build_filename (s->root, joined, NULL);
  real = canonical (path);
  if (real == NULL || !inside (real, s->root) || !g_file_test (real, G_FILE_TEST_IS_REGULAR))
    return;
  if (g_hash_table_contains (s->seen, real))
    return;
  g_hash_table_add (s->seen, g_strdup (real));

  f = g_new0 (Found, 1);
  f->candidate = g_new0 (EmbersSourceCandidate, 1);
  f->candidate->path = g_steal_pointer (&path);
  f->candidate->root = g_strdup (s->root);
  f->candidate->matched = matched;
  f->root_index = s->root_index;
  f->depth = n_rel;
  g_ptr_array_add (s->found, f);
}

static gboolean
skipped_folder (const char *name)
{
  return name[0] == '.' || g_str_equal (name, "node_modules") || g_str_equal (name, "__pycache__");
}

/* Walks the root breadth-first for files named like the last component */
static gboolean
walk (Search       *s,
      GCancellable *cancellable,
      GError      **error)
{
  const char *basename = s->want[s->n_want - 1];
  g_autoptr(GQueue) queue = g_queue_new ();
  guint n_entries = 0;

  g_queue_push_tail (queue, g_new0 (char *, 1));   /* the root: no components */

  while (!g_queue_is_empty (queue))
    {
      g_auto(GStrv) dir_parts = g_queue_pop_head (queue);
      g_autofree char *rel = g_strjoinv ("/", dir_parts);
      g_autofree char *dir_path = g_build_filename (s->root, rel, NULL);
      g_autoptr(GFile) dir = g_file_new_for_path (dir_path);
      g_autoptr(GFileEnumerator) e = NULL;
      guint depth = g_strv_length (dir_parts);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          g_queue_free_full (g_steal_pointer (&queue), (GDestroyNotify)g_strfreev);
          return FALSE;
        }

      e = g_file_enumerate_children (dir, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                     G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, NULL);
      if (e == NULL)
        continue;   /* unreadable folders are passed over */

      for (;;)
        {
          GFileInfo *info = NULL;
          const char *name;
          GFileType type;

          if (!g_file_enumerator_iterate (e, &info, NULL, cancellable, NULL) || info == NULL)
            break;
          if (++n_entries > MAX_ENTRIES)
            {
              g_queue_free_full (g_steal_pointer (&queue), (GDestroyNotify)g_strfreev);
              return TRUE;
            }
          name = g_file_info_get_name (info);
          type = g_file_info_get_file_type (info);
          if (type == G_FILE_TYPE_DIRECTORY)
            {
              char **child;

              if (skipped_folder (name) || depth + 1 > MAX_DEPTH)
                continue;
              child = g_new0 (char *, depth + 2);
              for (guint k = 0; k < depth; k++)
                child[k] = g_strdup (dir_parts[k]);
              child[depth] = g_strdup (name);
              g_queue_push_tail (queue, child);
            }
          else if ((type == G_FILE_TYPE_REGULAR || type == G_FILE_TYPE_SYMBOLIC_LINK)
                   && g_str_equal (name, basename))
            {
              g_autofree char **child = g_new0 (char *, depth + 2);

              for (guint k = 0; k < depth; k++)
                child[k] = dir_parts[k];
              child[depth] = (char *)name;
              consider (s, child, depth + 1);
            }
        }
    }

  return TRUE;
}

static int
cmp_found (gconstpointer a,
           gconstpointer b)
{
  const Found *x = *(const Found * const *)a;
  const Found *y = *(const Found * const *)b;

  if (x->candidate->matched != y->candidate->matched)
    return x->candidate->matched > y->candidate->matched ? -1 : 1;
  if (x->depth != y->depth)
    return x->depth < y->depth ? -1 : 1;
  if (x->root_index != y->root_index)
    return x->root_index < y->root_index ? -1 : 1;
  return strcmp (x->candidate->path, y->candidate->path);
}

GPtrArray *
embers_source_find (const char         *file,
                    const char         *function_name,
                    const char * const *roots,
                    guint               max_results,
                    GCancellable       *cancellable,
                    GError            **error)
{
  g_auto(GStrv) want = embers_source_path_components (file);
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (found_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *out;
  guint n_want = g_strv_length (want);

  /* A bare file name (or none) and a Java-like function: its package path */
  if (n_want <= 1)
    {
      g_autofree char *java = embers_source_java_path (function_name, n_want == 1 ? want[0] : NULL);

      if (java != NULL && (n_want == 0 || g_str_has_suffix (java, want[0])))
        {
          g_strfreev (want);
          want = embers_source_path_components (java);
          n_want = g_strv_length (want);
        }
    }

  out = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_source_candidate_free);
  if (n_want == 0 || roots == NULL)
    return out;

  for (guint r = 0; roots[r] != NULL; r++)
    {
      g_autofree char *root = canonical (roots[r]);
      Search s = { 0 };

      if (root == NULL || !g_file_test (root, G_FILE_TEST_IS_DIR))
        continue;

      s.want = want;
      s.n_want = n_want;
      s.root = root;
      s.root_parts = embers_source_path_components (root);
      s.root_index = r;
      s.seen = seen;
      s.found = found;

      /* Straight probes of each suffix first: they find the file however
       * large the root, then the walk finds it anywhere else */
      for (guint k = 0; k < n_want; k++)
        consider (&s, want + k, n_want - k);
      if (!walk (&s, cancellable, error))
        {
          g_strfreev (s.root_parts);
          g_ptr_array_unref (out);
          return NULL;
        }
      g_strfreev (s.root_parts);
    }

  g_ptr_array_sort (found, cmp_found);
  for (guint i = 0; i < found->len && (max_results == 0 || out->len < max_results); i++)
    {
      Found *f = g_ptr_array_index (found, i);

      g_ptr_array_add (out, g_steal_pointer (&f->candidate));
    }
  return out;
}

typedef struct
{
  char  *file;
  char  *function_name;
  char **roots;
  guint  max_results;
} FindData;

static void
find_data_free (gpointer data)
{
  FindData *fd = data;

  g_free (fd->file);
  g_free (fd->function_name);
  g_strfreev (fd->roots);
  g_free (fd);
}

static void
find_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  FindData *fd = task_data;
  GError *error = NULL;
  GPtrArray *found;

  found = embers_source_find (fd->file, fd->function_name, (const char * const *)fd->roots,
                              fd->max_results, cancellable, &error);
  if (found == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, found, (GDestroyNotify)g_ptr_array_unref);
}

void
embers_source_find_async (const char          *file,
                          const char          *function_name,
                          const char * const  *roots,
                          guint                max_results,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  FindData *fd = g_new0 (FindData, 1);

  fd->file = g_strdup (file);
  fd->function_name = g_strdup (function_name);
  fd->roots = g_strdupv ((char **)roots);
  fd->max_results = max_results;
  g_task_set_source_tag (task, embers_source_find_async);
  g_task_set_task_data (task, fd, find_data_free);
  g_task_run_in_thread (task, find_thread);
}

GPtrArray *
embers_source_find_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Settings */

char **
embers_source_roots_lookup (GVariant   *map,
                            const char *service)
{
  const char **roots = NULL;
  char **out;

  if (map == NULL || !g_variant_is_of_type (map, G_VARIANT_TYPE ("a{sas}")))
    return g_new0 (char *, 1);
  if (!g_variant_lookup (map, service != NULL ? service : "", "^a&s", &roots))
    return g_new0 (char *, 1);
  out = g_strdupv ((char **)roots);
  g_free (roots);
  return out;
}

GVariant *
embers_source_roots_replace (GVariant           *map,
                             const char         *service,
                             const char * const *roots)
{
  GVariantBuilder b;
  GVariantIter iter;
  const char *key;
  GVariant *value;

  if (service == NULL)
    service = "";
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{sas}"));
  if (map != NULL && g_variant_is_of_type (map, G_VARIANT_TYPE ("a{sas}")))
    {
      g_variant_iter_init (&iter, map);
      while (g_variant_iter_next (&iter, "{&s@as}", &key, &value))
        {
          if (!g_str_equal (key, service))
            g_variant_builder_add (&b, "{s@as}", key, value);
          g_variant_unref (value);
        }
    }
  if (roots != NULL && roots[0] != NULL)
    g_variant_builder_add (&b, "{s^as}", service, roots);
  return g_variant_ref_sink (g_variant_builder_end (&b));
}
