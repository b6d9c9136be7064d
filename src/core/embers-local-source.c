/* embers-local-source.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-diff.h"
#include "embers-diff-stats.h"
#include "embers-format.h"
#include "embers-input.h"
#include "embers-local-source.h"
#include "embers-profile-builder.h"
#include "embers-selector.h"

/* A .labels file next to a profile holds one name{labels}: a few KiB */
#define SIDECAR_MAX_SIZE ((gsize)64 * 1024)

typedef struct
{
  gatomicrefcount  ref_count;
  char            *name;
  EmbersProfile   *profile;
  gint64           time_ms;
  GStrv            label_names;   /* entry labels, service_name included */
  GStrv            label_values;
} Entry;

static Entry *
entry_ref (Entry *entry)
{
  g_atomic_ref_count_inc (&entry->ref_count);
  return entry;
}

static void
entry_unref (Entry *entry)
{
  if (entry != NULL && g_atomic_ref_count_dec (&entry->ref_count))
    {
      g_free (entry->name);
      g_clear_object (&entry->profile);
      g_strfreev (entry->label_names);
      g_strfreev (entry->label_values);
      g_free (entry);
    }
}

struct _EmbersLocalSource
{
  GObject    parent_instance;

  GMutex     mutex;
  GPtrArray *entries;   /* Entry, only appended to */
  guint      n_skipped;
  int        n_loading; /* files and folders being added (atomic) */
  int        n_loaded;  /* files and folders read (atomic) */
};

static void source_iface_init (EmbersSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (EmbersLocalSource, embers_local_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (EMBERS_TYPE_SOURCE, source_iface_init))

static void
embers_local_source_finalize (GObject *object)
{
  EmbersLocalSource *self = (EmbersLocalSource *)object;

  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (embers_local_source_parent_class)->finalize (object);
}

static void
embers_local_source_class_init (EmbersLocalSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = embers_local_source_finalize;
}

static void
embers_local_source_init (EmbersLocalSource *self)
{
  g_mutex_init (&self->mutex);
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify)entry_unref);
}

EmbersLocalSource *
embers_local_source_new (void)
{
  return g_object_new (EMBERS_TYPE_LOCAL_SOURCE, NULL);
}

/* A copy of the entry list for a worker thread */
static GPtrArray *
snapshot_entries (EmbersLocalSource *self)
{
  GPtrArray *copy = g_ptr_array_new_with_free_func ((GDestroyNotify)entry_unref);

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->entries->len; i++)
    g_ptr_array_add (copy, entry_ref (g_ptr_array_index (self->entries, i)));
  g_mutex_unlock (&self->mutex);

  return copy;
}

guint
embers_local_source_get_n_profiles (EmbersLocalSource *self)
{
  guint n;

  g_return_val_if_fail (EMBERS_IS_LOCAL_SOURCE (self), 0);

  g_mutex_lock (&self->mutex);
  n = self->entries->len;
  g_mutex_unlock (&self->mutex);

  return n;
}

gboolean
embers_local_source_get_loading (EmbersLocalSource *self)
{
  g_return_val_if_fail (EMBERS_IS_LOCAL_SOURCE (self), FALSE);

  return g_atomic_int_get (&self->n_loading) > 0;
}

guint
embers_local_source_get_n_skipped (EmbersLocalSource *self)
{
  g_return_val_if_fail (EMBERS_IS_LOCAL_SOURCE (self), 0);

  return g_atomic_int_get (&self->n_skipped);
}

void
embers_local_source_get_time_range (EmbersLocalSource *self,
                                    gint64            *start_ms,
                                    gint64            *end_ms)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  g_return_if_fail (EMBERS_IS_LOCAL_SOURCE (self));

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *e = g_ptr_array_index (self->entries, i);
      gint64 duration = embers_profile_get_duration_nanos (e->profile) / 1000000;

      lo = MIN (lo, e->time_ms);
      hi = MAX (hi, e->time_ms + MAX (duration, 1));
    }
  g_mutex_unlock (&self->mutex);

  if (lo > hi)
    lo = hi = 0;
  if (start_ms)
    *start_ms = lo;
  if (end_ms)
    *end_ms = hi;
}

/* Profile type ids */

static const char *
guess_type_name (EmbersProfile *profile,
                 guint          sample_type)
{
  const char *type = embers_profile_get_sample_type (profile, sample_type);
  const char *period = embers_profile_get_period_type (profile);

  if (g_str_equal (type, "cpu") || g_str_equal (period, "cpu"))
    return "process_cpu";
  if (g_str_has_suffix (type, "_space") || g_str_has_suffix (type, "_objects") ||
      g_str_equal (period, "space"))
    return "memory";
  if (g_str_equal (type, "goroutine") || g_str_equal (type, "goroutines"))
    return "goroutines";
  if (g_str_equal (type, "contentions") || g_str_equal (type, "delay"))
    return g_str_equal (period, "contentions") ? "block" : "mutex";
  if (g_str_equal (type, "wall"))
    return "wall";

  return "profile";
}

char *
embers_local_source_profile_type_id (EmbersProfile *profile,
                                     guint          sample_type)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (profile), NULL);

  return g_strdup_printf ("%s:%s:%s:%s:%s",
                          guess_type_name (profile, sample_type),
                          embers_profile_get_sample_type (profile, sample_type),
                          embers_profile_get_sample_unit (profile, sample_type),
                          embers_profile_get_period_type (profile),
                          embers_profile_get_period_unit (profile));
}

/* Names like "api{region=eu,pod=\"a-1\"}" */
gboolean
embers_local_source_parse_name (const char  *text,
                                char       **service,
                                GStrv       *labels)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *copy = NULL;
  char *brace, *end, *p;

  g_return_val_if_fail (text != NULL, FALSE);

  copy = g_strstrip (g_strdup (text));
  brace = strchr (copy, '{');
  end = strrchr (copy, '}');
  if (brace == NULL || end == NULL || end < brace || end[1] != '\0' || brace == copy)
    return FALSE;

  *brace = '\0';
  *end = '\0';
  p = brace + 1;

  while (*p)
    {
      char *eq, *comma, *key, *value;

      while (g_ascii_isspace (*p) || *p == ',')
        p++;
      if (*p == '\0')
        break;
      eq = strchr (p, '=');
      if (eq == NULL)
        return FALSE;
      *eq = '\0';
      key = g_strstrip (p);
      value = eq + 1;
      if (*value == '"')
        {
          char *close = strchr (value + 1, '"');

          if (close == NULL)
            return FALSE;
          *close = '\0';
          value++;
          p = close + 1;
        }
      else
        {
          comma = strchr (value, ',');
          if (comma)
            {
              *comma = '\0';
              p = comma + 1;
            }
          else
            p = value + strlen (value);
          value = g_strstrip (value);
        }

      if (!embers_label_name_is_valid (key))
        return FALSE;
      g_strv_builder_add (builder, key);
      g_strv_builder_add (builder, value);
    }

  if (service)
    *service = g_strdup (copy);
  if (labels)
    *labels = g_strv_builder_end (builder);

  return TRUE;
}

static Entry *
entry_new (const char         *name,
           EmbersProfile      *profile,
           gint64              time_ms,
           const char * const *labels)
{
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) values = g_strv_builder_new ();
  gboolean have_service = FALSE;
  Entry *entry;

  entry = g_new0 (Entry, 1);
  g_atomic_ref_count_init (&entry->ref_count);
  entry->name = g_strdup (name);
  entry->profile = g_object_ref (profile);

  if (time_ms <= 0)
    time_ms = embers_profile_get_time_nanos (profile) / 1000000;
  if (time_ms <= 0)
    time_ms = g_get_real_time () / 1000;
  entry->time_ms = time_ms;

  for (guint i = 0; labels && labels[i] && labels[i + 1]; i += 2)
    {
      g_strv_builder_add (names, labels[i]);
      g_strv_builder_add (values, labels[i + 1]);
      if (g_str_equal (labels[i], "service_name"))
        have_service = TRUE;
    }

  if (!have_service)
    {
      g_autofree char *base = g_path_get_basename (name ? name : "profile");
      char *dot = strchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      g_strv_builder_add (names, "service_name");
      g_strv_builder_add (values, base);
    }

  entry->label_names = g_strv_builder_end (names);
  entry->label_values = g_strv_builder_end (values);

  return entry;
}

void
embers_local_source_add_profile (EmbersLocalSource  *self,
                                 const char         *name,
                                 EmbersProfile      *profile,
                                 gint64              time_ms,
                                 const char * const *labels)
{
  Entry *entry;

  g_return_if_fail (EMBERS_IS_LOCAL_SOURCE (self));
  g_return_if_fail (EMBERS_IS_PROFILE (profile));

  entry = entry_new (name, profile, time_ms, labels);

  g_mutex_lock (&self->mutex);
  g_ptr_array_add (self->entries, entry);
  g_mutex_unlock (&self->mutex);
}

static gboolean
add_one_file (EmbersLocalSource  *self,
              GFile              *file,
              GFileInfo          *info,
              GCancellable       *cancellable,
              GError            **error)
{
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GFile) sidecar = NULL;
  g_autoptr(GFile) parent = NULL;
  g_autofree char *basename = g_file_get_basename (file);
  g_autofree char *sidecar_name = g_strconcat (basename, ".labels", NULL);
  g_autofree char *service = NULL;
  g_auto(GStrv) labels = NULL;
  g_autoptr(GBytes) sidecar_bytes = NULL;
  gint64 time_ms = 0;

  profile = embers_profile_load_file (file, cancellable, error);
  if (profile == NULL)
    return FALSE;

  /* Labels from a sidecar, else from the file name */
  parent = g_file_get_parent (file);
  sidecar = g_file_get_child (parent != NULL ? parent : file, sidecar_name);
  /* A regular file of a few KiB at most: a FIFO or /dev/zero named like a
   * sidecar must not hang or fill the scan */
  sidecar_bytes = embers_input_read_small_file (sidecar, SIDECAR_MAX_SIZE, cancellable, NULL);
  if (sidecar_bytes != NULL)
    {
      g_autofree char *contents = g_strndup (g_bytes_get_data (sidecar_bytes, NULL),
                                             g_bytes_get_size (sidecar_bytes));

      embers_local_source_parse_name (g_strstrip (contents), &service, &labels);
    }
  if (service == NULL)
    {
      g_autofree char *stem = g_strdup (basename);
      char *ext = strrchr (stem, '}');

      if (ext != NULL)
        ext[1] = '\0';
      embers_local_source_parse_name (stem, &service, &labels);
    }

  if (embers_profile_get_time_nanos (profile) <= 0 && info != NULL)
    {
      g_autoptr(GDateTime) mtime = g_file_info_get_modification_date_time (info);

      if (mtime != NULL)
        time_ms = g_date_time_to_unix (mtime) * 1000 + g_date_time_get_microsecond (mtime) / 1000;
    }

  if (service != NULL)
    {
      g_autoptr(GStrvBuilder) all = g_strv_builder_new ();
      g_auto(GStrv) merged = NULL;

      g_strv_builder_add (all, "service_name");
      g_strv_builder_add (all, service);
      g_strv_builder_addv (all, (const char **)labels);
      merged = g_strv_builder_end (all);
      embers_local_source_add_profile (self, basename, profile, time_ms, (const char * const *)merged);
    }
  else
    embers_local_source_add_profile (self, basename, profile, time_ms, NULL);

  return TRUE;
}

/* The number of profiles added, or -1 with @error set */
static gssize
add_file_run (EmbersLocalSource  *self,
              GFile              *file,
              GCancellable       *cancellable,
              GError            **out_error)
{
  g_autoptr(GFileInfo) info = NULL;
  GError *error = NULL;
  gssize added = 0;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                            G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                            G_FILE_QUERY_INFO_NONE, cancellable, &error);
  if (info == NULL)
    {
      g_propagate_error (out_error, error);
      return -1;
    }

  if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    {
      g_autoptr(GFileEnumerator) children = NULL;
      GFileInfo *child_info;

      children = g_file_enumerate_children (file,
                                            G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                            G_FILE_ATTRIBUTE_TIME_MODIFIED "," G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                                            G_FILE_QUERY_INFO_NONE, cancellable, &error);
      if (children == NULL)
        {
          g_propagate_error (out_error, error);
          return -1;
        }

      while ((child_info = g_file_enumerator_next_file (children, cancellable, &error)))
        {
          g_autoptr(GFileInfo) entry = child_info;
          g_autoptr(GFile) child = NULL;
          g_autoptr(GError) child_error = NULL;
          const char *name = g_file_info_get_name (entry);

          if (g_file_info_get_file_type (entry) != G_FILE_TYPE_REGULAR ||
              g_str_has_suffix (name, ".labels") || name[0] == '.')
            continue;

          child = g_file_get_child (file, name);
          if (add_one_file (self, child, entry, cancellable, &child_error))
            added++;
          else if (g_error_matches (child_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (out_error, g_steal_pointer (&child_error));
              return -1;
            }
          else
            {
              g_debug ("Skipping %s: %s", name, child_error->message);
              g_atomic_int_inc (&self->n_skipped);
            }
        }

      if (error != NULL)
        {
          g_propagate_error (out_error, error);
          return -1;
        }
    }
  else
    {
      if (!add_one_file (self, file, info, cancellable, &error))
        {
          g_propagate_error (out_error, error);
          return -1;
        }
      added = 1;
    }

  return added;
}

static void
add_file_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  EmbersLocalSource *self = source_object;
  GError *error = NULL;
  gssize added = add_file_run (self, task_data, cancellable, &error);

  /* Done before the answer, which may be read at once on the main thread */
  g_atomic_int_inc (&self->n_loaded);
  g_atomic_int_dec_and_test (&self->n_loading);
  if (added < 0)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, added);
}

void
embers_local_source_add_file_async (EmbersLocalSource   *self,
                                    GFile               *file,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (EMBERS_IS_LOCAL_SOURCE (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, embers_local_source_add_file_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_atomic_int_inc (&self->n_loading);
  g_task_run_in_thread (task, add_file_thread);
}

guint
embers_local_source_add_file_finish (EmbersLocalSource  *self,
                                     GAsyncResult       *result,
                                     GError            **error)
{
  gssize n;

  g_return_val_if_fail (g_task_is_valid (result, self), 0);

  n = g_task_propagate_int (G_TASK (result), error);
  return n < 0 ? 0 : (guint)n;
}

/* Label lookup for one sample of one entry */

typedef struct
{
  Entry             *entry;
  const char        *type_id;
  const char        *type_name;
  const EmbersLabel *labels;
  guint              n_labels;
  char               num_buf[32];
} LabelContext;

static const char *
context_lookup (const char *name,
                gpointer    user_data)
{
  LabelContext *ctx = user_data;
  EmbersProfile *p = ctx->entry->profile;

  if (g_str_equal (name, "__profile_type__"))
    return ctx->type_id;
  if (g_str_equal (name, "__name__"))
    return ctx->type_name;

  for (guint i = 0; i < ctx->n_labels; i++)
    {
      if (g_str_equal (embers_profile_get_string (p, ctx->labels[i].key), name))
        {
          if (ctx->labels[i].str != 0)
            return embers_profile_get_string (p, ctx->labels[i].str);
          g_snprintf (ctx->num_buf, sizeof ctx->num_buf, "%" G_GINT64_FORMAT, ctx->labels[i].num);
          return ctx->num_buf;
        }
    }

  for (guint i = 0; ctx->entry->label_names[i]; i++)
    if (g_str_equal (ctx->entry->label_names[i], name))
      return ctx->entry->label_values[i];

  return NULL;
}

/* Finds the sample type of an entry for a profile type id, or -1 */
static int
entry_sample_type (Entry      *entry,
                   const char *type_id)
{
  for (guint t = 0; t < embers_profile_get_n_sample_types (entry->profile); t++)
    {
      g_autofree char *id = embers_local_source_profile_type_id (entry->profile, t);

      if (type_id == NULL || g_str_equal (id, type_id))
        return (int)t;
    }

  return -1;
}

static gboolean
entry_in_range (Entry  *entry,
                gint64  start_ms,
                gint64  end_ms)
{
  if (start_ms <= 0 && end_ms <= 0)
    return TRUE;
  return entry->time_ms >= start_ms && entry->time_ms <= end_ms;
}

/* Per-node self values of the samples that match, or NULL when every sample
 * matches (use the tree as is); *any is FALSE when nothing matched. */
static gint64 *
filter_entry (Entry          *entry,
              guint           sample_type,
              const char     *type_id,
              EmbersSelector *selector,
              gboolean       *any)
{
  EmbersProfile *p = entry->profile;
  g_autofree char *name = g_strdup (type_id);
  LabelContext ctx = { entry, type_id, NULL, NULL, 0 };
  guint n_samples = embers_profile_get_n_samples (p);
  gint64 *self_values;
  gboolean all = TRUE;
  char *colon = strchr (name, ':');

  if (colon)
    *colon = '\0';
  ctx.type_name = name;

  *any = FALSE;
  if (n_samples == 0)
    {
      *any = embers_selector_matches (selector, context_lookup, &ctx);
      return NULL;
    }

  self_values = g_new0 (gint64, embers_profile_get_n_nodes (p));
  for (guint s = 0; s < n_samples; s++)
    {
      ctx.labels = embers_profile_get_label_set (p, embers_profile_sample_label_set (p, s), &ctx.n_labels);
      if (embers_selector_matches (selector, context_lookup, &ctx))
        {
          self_values[embers_profile_sample_node (p, s)] += embers_profile_sample_value (p, s, sample_type);
          *any = TRUE;
        }
      else
        all = FALSE;
    }

  if (all)
    g_clear_pointer (&self_values, g_free);

  return self_values;
}

static EmbersSourceCapabilities
local_get_capabilities (EmbersSource *source)
{
  return EMBERS_SOURCE_CAN_PROFILE_TYPES | EMBERS_SOURCE_CAN_LABELS | EMBERS_SOURCE_CAN_SERIES |
         EMBERS_SOURCE_CAN_TIME_SERIES | EMBERS_SOURCE_CAN_MERGE | EMBERS_SOURCE_CAN_DIFF |
         EMBERS_SOURCE_CAN_PROFILE_IDS;
}

static char *
local_dup_display_name (EmbersSource *source)
{
  EmbersLocalSource *self = EMBERS_LOCAL_SOURCE (source);
  guint n = embers_local_source_get_n_profiles (self);

  /* Not "0 local profiles" while a folder is still being read, nor
   * before one is (the count is not known yet) */
  if (n == 0 && embers_local_source_get_loading (self))
    return g_strdup (_("Loading local profiles…"));
  if (n == 0 && g_atomic_int_get (&self->n_loaded) == 0)
    return g_strdup (_("Local profiles"));
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u local profile", "%u local profiles", n), n);
}

/* Every operation runs in a thread on a snapshot; Op holds the inputs. */
typedef struct
{
  GPtrArray     *entries;
  gint64         start_ms;
  gint64         end_ms;
  GStrv          matchers;
  GStrv          label_names;
  char          *name;
  EmbersQuery   *query;
  EmbersQuery   *right;
  double         step_s;
  EmbersAggregation aggregation;
  gint64         limit;
  gboolean       exemplars;
  EmbersDiffStatsMode stats_mode;
  EmbersSnapshots *snapshots;
  GStrv          call_site;     /* SelectSeries of one call site's stacks */
} Op;

static void
op_free (Op *op)
{
  g_clear_pointer (&op->entries, g_ptr_array_unref);
  g_strfreev (op->matchers);
  g_strfreev (op->label_names);
  g_free (op->name);
  g_clear_pointer (&op->query, embers_query_free);
  g_clear_pointer (&op->right, embers_query_free);
  g_clear_object (&op->snapshots);
  g_strfreev (op->call_site);
  g_free (op);
}

static GTask *
op_task (EmbersSource        *source,
         gpointer             tag,
         GCancellable        *cancellable,
         GAsyncReadyCallback  callback,
         gpointer             user_data,
         Op                 **out_op)
{
  GTask *task = g_task_new (source, cancellable, callback, user_data);
  Op *op = g_new0 (Op, 1);

  op->entries = snapshot_entries (EMBERS_LOCAL_SOURCE (source));
  g_task_set_source_tag (task, tag);
  g_task_set_task_data (task, op, (GDestroyNotify)op_free);
  g_task_set_return_on_cancel (task, TRUE);
  *out_op = op;

  return task;
}

static EmbersSelector *
parse_matchers_or_return (GTask              *task,
                          const char * const *matchers)
{
  GError *error = NULL;
  EmbersSelector *selector = embers_selector_parse_matchers (matchers, &error);

  if (selector == NULL)
    g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                             "%s", error->message);
  g_clear_error (&error);

  return selector;
}

static EmbersSelector *
parse_query_selector_or_return (GTask             *task,
                                const EmbersQuery *query)
{
  GError *error = NULL;
  EmbersSelector *selector = embers_selector_parse (query->label_selector, NULL, &error);

  if (selector == NULL)
    g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                             _("The label selector is not valid: %s"), error->message);
  g_clear_error (&error);

  return selector;
}

/* ProfileTypes */

static void
profile_types_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  Op *op = task_data;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *types = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_profile_type_info_free);

  for (guint i = 0; i < op->entries->len; i++)
    {
      Entry *e = g_ptr_array_index (op->entries, i);

      if (!entry_in_range (e, op->start_ms, op->end_ms))
        continue;

      for (guint t = 0; t < embers_profile_get_n_sample_types (e->profile); t++)
        {
          char *id = embers_local_source_profile_type_id (e->profile, t);

          if (g_hash_table_contains (seen, id))
            {
              g_free (id);
              continue;
            }
          g_hash_table_add (seen, id);
          g_ptr_array_add (types, embers_profile_type_info_new (id));
        }
    }

  g_task_return_pointer (task, types, (GDestroyNotify)g_ptr_array_unref);
}

static void
local_list_profile_types (EmbersSource        *source,
                          gint64               start_ms,
                          gint64               end_ms,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = op_task (source, local_list_profile_types, cancellable, callback, user_data, &op);

  op->start_ms = start_ms;
  op->end_ms = end_ms;
  g_task_run_in_thread (task, profile_types_thread);
}

static gpointer
local_finish_pointer (EmbersSource  *source,
                      GAsyncResult  *result,
                      GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Label names / values / series: walk every (entry, label set) pair */

typedef void (*LabelVisitor) (LabelContext *ctx,
                              gpointer      user_data);

static void
visit_label_sets (Op             *op,
                  EmbersSelector *selector,
                  LabelVisitor    visit,
                  gpointer        user_data)
{
  for (guint i = 0; i < op->entries->len; i++)
    {
      Entry *e = g_ptr_array_index (op->entries, i);
      EmbersProfile *p = e->profile;
      g_autoptr(GHashTable) sets = NULL;

      if (!entry_in_range (e, op->start_ms, op->end_ms))
        continue;

      for (guint t = 0; t < embers_profile_get_n_sample_types (p); t++)
        {
          g_autofree char *id = embers_local_source_profile_type_id (p, t);
          g_autofree char *name = g_strdup (id);
          LabelContext ctx = { e, id, name, NULL, 0 };
          guint n_samples = embers_profile_get_n_samples (p);

          *strchr (name, ':') = '\0';

          if (n_samples == 0)
            {
              if (embers_selector_matches (selector, context_lookup, &ctx))
                visit (&ctx, user_data);
              continue;
            }

          sets = g_hash_table_new (NULL, NULL);
          for (guint s = 0; s < n_samples; s++)
            {
              guint32 set = embers_profile_sample_label_set (p, s);

              if (!g_hash_table_add (sets, GUINT_TO_POINTER (set + 1)))
                continue;
              ctx.labels = embers_profile_get_label_set (p, set, &ctx.n_labels);
              if (embers_selector_matches (selector, context_lookup, &ctx))
                visit (&ctx, user_data);
            }
          g_clear_pointer (&sets, g_hash_table_unref);
        }
    }
}

static void
for_each_label (LabelContext *ctx,
                void        (*fn) (const char *name, const char *value, gpointer data),
                gpointer      data)
{
  EmbersProfile *p = ctx->entry->profile;

  fn ("__name__", ctx->type_name, data);
  fn ("__profile_type__", ctx->type_id, data);
  for (guint i = 0; ctx->entry->label_names[i]; i++)
    fn (ctx->entry->label_names[i], ctx->entry->label_values[i], data);
  for (guint i = 0; i < ctx->n_labels; i++)
    {
      char num[32];
      const char *value;

      if (ctx->labels[i].str != 0)
        value = embers_profile_get_string (p, ctx->labels[i].str);
      else
        {
          g_snprintf (num, sizeof num, "%" G_GINT64_FORMAT, ctx->labels[i].num);
          value = num;
        }
      fn (embers_profile_get_string (p, ctx->labels[i].key), value, data);
    }
}

static void
collect_name (const char *name,
              const char *value,
              gpointer    data)
{
  g_hash_table_add (data, g_strdup (name));
}

static void
visit_names (LabelContext *ctx,
             gpointer      user_data)
{
  for_each_label (ctx, collect_name, user_data);
}

typedef struct
{
  const char *wanted;
  GHashTable *values;
} ValueCollector;

static void
collect_value (const char *name,
               const char *value,
               gpointer    data)
{
  ValueCollector *c = data;

  if (g_str_equal (name, c->wanted))
    g_hash_table_add (c->values, g_strdup (value));
}

static void
visit_values (LabelContext *ctx,
              gpointer      user_data)
{
  for_each_label (ctx, collect_value, user_data);
}

static int
compare_strv_items (const void *a,
                    const void *b)
{
  return g_strcmp0 (*(char * const *)a, *(char * const *)b);
}

static GStrv
sorted_set (GHashTable *set)
{
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (set, NULL);
  GStrv out = g_strdupv ((char **)keys);

  qsort (out, g_strv_length (out), sizeof (char *), compare_strv_items);
  return out;
}

static void
label_names_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  Op *op = task_data;
  g_autoptr(EmbersSelector) selector = parse_matchers_or_return (task, (const char * const *)op->matchers);
  g_autoptr(GHashTable) names = NULL;

  if (selector == NULL)
    return;

  names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  visit_label_sets (op, selector, visit_names, names);
  g_task_return_pointer (task, sorted_set (names), (GDestroyNotify)g_strfreev);
}

static void
local_list_label_names (EmbersSource        *source,
                        const char * const  *matchers,
                        gint64               start_ms,
                        gint64               end_ms,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = op_task (source, local_list_label_names, cancellable, callback, user_data, &op);

  op->matchers = g_strdupv ((char **)matchers);
  op->start_ms = start_ms;
  op->end_ms = end_ms;
  g_task_run_in_thread (task, label_names_thread);
}

static void
label_values_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  Op *op = task_data;
  g_autoptr(EmbersSelector) selector = parse_matchers_or_return (task, (const char * const *)op->matchers);
  g_autoptr(GHashTable) values = NULL;
  ValueCollector collector;

  if (selector == NULL)
    return;

  values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  collector.wanted = op->name;
  collector.values = values;
  visit_label_sets (op, selector, visit_values, &collector);
  g_task_return_pointer (task, sorted_set (values), (GDestroyNotify)g_strfreev);
}

static void
local_list_label_values (EmbersSource        *source,
                         const char          *name,
                         const char * const  *matchers,
                         gint64               start_ms,
                         gint64               end_ms,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = op_task (source, local_list_label_values, cancellable, callback, user_data, &op);

  op->name = g_strdup (name);
  op->matchers = g_strdupv ((char **)matchers);
  op->start_ms = start_ms;
  op->end_ms = end_ms;
  g_task_run_in_thread (task, label_values_thread);
}

/* Series: distinct label sets restricted to label_names */

typedef struct
{
  GStrv       wanted;
  GHashTable *seen;     /* canonical string -> EmbersSeries (owned by list) */
  GPtrArray  *list;
  GPtrArray  *names;    /* scratch */
  GPtrArray  *values;   /* scratch */
} SeriesCollector;

static void
collect_pair (const char *name,
              const char *value,
              gpointer    data)
{
  SeriesCollector *c = data;

  if (c->wanted != NULL && c->wanted[0] != NULL && !g_strv_contains ((const char * const *)c->wanted, name))
    return;
  for (guint i = 0; i < c->names->len; i++)
    if (g_str_equal (g_ptr_array_index (c->names, i), name))
      return;

  g_ptr_array_add (c->names, g_strdup (name));
  g_ptr_array_add (c->values, g_strdup (value));
}

static void
visit_series (LabelContext *ctx,
              gpointer      user_data)
{
  SeriesCollector *c = user_data;
  g_autoptr(GString) key = g_string_new (NULL);
  EmbersSeries *series;

  g_ptr_array_set_size (c->names, 0);
  g_ptr_array_set_size (c->values, 0);
  for_each_label (ctx, collect_pair, c);

  for (guint i = 0; i < c->names->len; i++)
    g_string_append_printf (key, "%s\x1f%s\x1e", (char *)g_ptr_array_index (c->names, i),
                            (char *)g_ptr_array_index (c->values, i));
  if (g_hash_table_contains (c->seen, key->str))
    return;

  series = g_new0 (EmbersSeries, 1);
  g_ptr_array_add (c->names, NULL);
  g_ptr_array_add (c->values, NULL);
  series->label_names = g_strdupv ((char **)c->names->pdata);
  series->label_values = g_strdupv ((char **)c->values->pdata);
  g_hash_table_insert (c->seen, g_strdup (key->str), series);
  g_ptr_array_add (c->list, series);
}

static void
series_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Op *op = task_data;
  g_autoptr(EmbersSelector) selector = parse_matchers_or_return (task, (const char * const *)op->matchers);
  SeriesCollector c;

  if (selector == NULL)
    return;

  c.wanted = op->label_names;
  c.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c.list = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);
  c.names = g_ptr_array_new_with_free_func (g_free);
  c.values = g_ptr_array_new_with_free_func (g_free);
  visit_label_sets (op, selector, visit_series, &c);
  g_hash_table_unref (c.seen);
  g_ptr_array_unref (c.names);
  g_ptr_array_unref (c.values);

  g_task_return_pointer (task, c.list, (GDestroyNotify)g_ptr_array_unref);
}

static void
local_list_series (EmbersSource        *source,
                   const char * const  *matchers,
                   const char * const  *label_names,
                   gint64               start_ms,
                   gint64               end_ms,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = op_task (source, local_list_series, cancellable, callback, user_data, &op);

  op->matchers = g_strdupv ((char **)matchers);
  op->label_names = g_strdupv ((char **)label_names);
  op->start_ms = start_ms;
  op->end_ms = end_ms;
  g_task_run_in_thread (task, series_thread);
}

/* Merge */

static EmbersProfile *
merge_query (GPtrArray          *entries,
             const EmbersQuery  *query,
             EmbersSelector     *selector,
             GCancellable       *cancellable,
             GError            **error)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfileTypeInfo) info = NULL;
  gboolean have_type = FALSE;

  info = query->profile_type ? embers_profile_type_info_new (query->profile_type) : NULL;
  if (query->profile_type != NULL && info == NULL)
    {
      g_set_error (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a profile type id (name:sample_type:sample_unit:period_type:period_unit)"),
                   query->profile_type);
      return NULL;
    }

  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = g_ptr_array_index (entries, i);
      g_autofree gint64 *self_values = NULL;
      g_autofree char *id = NULL;
      gboolean any;
      int t;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;

      if (!entry_in_range (e, query->start_ms, query->end_ms))
        continue;
      /* Each file is an individual profile, its name the id */
      if (query->profile_ids != NULL && !g_strv_contains ((const char * const *) query->profile_ids, e->name))
        continue;
      t = entry_sample_type (e, query->profile_type);
      if (t < 0)
        continue;

      id = embers_local_source_profile_type_id (e->profile, t);
      if (!have_type)
        {
          embers_profile_builder_add_sample_type (b, embers_profile_get_sample_type (e->profile, t),
                                                  embers_profile_get_sample_unit (e->profile, t));
          embers_profile_builder_set_period (b, embers_profile_get_period_type (e->profile),
                                             embers_profile_get_period_unit (e->profile),
                                             embers_profile_get_period (e->profile));
          embers_profile_builder_set_time (b, e->time_ms * 1000000,
                                           embers_profile_get_duration_nanos (e->profile));
          have_type = TRUE;
        }

      self_values = filter_entry (e, t, id, selector, &any);
      if (!any)
        continue;
      embers_profile_builder_add_profile (b, e->profile, t, 0, self_values);
    }

  if (!have_type)
    {
      if (info != NULL)
        embers_profile_builder_add_sample_type (b, info->sample_type, info->sample_unit);
    }

  return embers_profile_builder_finish (b, error);
}

static void
merge_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Op *op = task_data;
  g_autoptr(EmbersSelector) selector = parse_query_selector_or_return (task, op->query);
  GError *error = NULL;
  EmbersProfile *profile;

  if (selector == NULL)
    return;

  profile = merge_query (op->entries, op->query, selector, cancellable, &error);
  if (profile == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, profile, g_object_unref);
}

static void
local_merge_profile (EmbersSource        *source,
                     const EmbersQuery   *query,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = op_task (source, local_merge_profile, cancellable, callback, user_data, &op);

  op->query = embers_query_copy (query);
  g_task_run_in_thread (task, merge_thread);
}

static void
diff_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Op *op = task_data;
  g_autoptr(EmbersSelector) left_sel = parse_query_selector_or_return (task, op->query);
  g_autoptr(EmbersSelector) right_sel = NULL;
  g_autoptr(EmbersProfile) left = NULL;
  g_autoptr(EmbersProfile) right = NULL;
  GError *error = NULL;
  EmbersProfile *diff;

  if (left_sel == NULL)
    return;
  right_sel = parse_query_selector_or_return (task, op->right);
  if (right_sel == NULL)
    return;

  if (!(left = merge_query (op->entries, op->query, left_sel, cancellable, &error)) ||
      !(right = merge_query (op->entries, op->right, right_sel, cancellable, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  diff = embers_diff_profiles (left, 0, right, 0, &error);
  if (diff == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, diff, g_object_unref);
}

static void
local_diff (EmbersSource        *source,
            const EmbersQuery   *left,
            const EmbersQuery   *right,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = op_task (source, local_diff, cancellable, callback, user_data, &op);

  op->query = embers_query_copy (left);
  op->right = embers_query_copy (right);
  g_task_run_in_thread (task, diff_thread);
}

/* The steps of a comparison: every file of a side is one step */

typedef void (*StepFunc) (EmbersProfile *step,
                          gpointer       user_data);

/* Calls @func with each profile that the query selects (its samples that
 * the selector keeps), one step each */
static gboolean
foreach_query_step (GPtrArray          *entries,
                    const EmbersQuery  *query,
                    EmbersSelector     *selector,
                    StepFunc            func,
                    gpointer            user_data,
                    GCancellable       *cancellable,
                    GError            **error)
{
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = g_ptr_array_index (entries, i);
      g_autoptr(EmbersProfileBuilder) b = NULL;
      g_autoptr(EmbersProfile) step = NULL;
      g_autofree gint64 *self_values = NULL;
      g_autofree char *id = NULL;
      gboolean any;
      int t;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!entry_in_range (e, query->start_ms, query->end_ms))
        continue;
      t = entry_sample_type (e, query->profile_type);
      if (t < 0)
        continue;
      id = embers_local_source_profile_type_id (e->profile, t);
      self_values = filter_entry (e, t, id, selector, &any);
      if (!any)
        continue;

      /* The file's samples that the selector keeps, as a profile of its own */
      b = embers_profile_builder_new ();
      embers_profile_builder_add_sample_type (b, embers_profile_get_sample_type (e->profile, t),
                                              embers_profile_get_sample_unit (e->profile, t));
      embers_profile_builder_set_time (b, e->time_ms * 1000000, embers_profile_get_duration_nanos (e->profile));
      embers_profile_builder_add_profile (b, e->profile, t, 0, self_values);
      step = embers_profile_builder_finish (b, error);
      if (step == NULL)
        return FALSE;
      func (step, user_data);
    }
  return TRUE;
}

typedef struct
{
  EmbersDiffStats *stats;
  EmbersDiffSide   side;
} SideStep;

static void
add_side_step (EmbersProfile *step,
               gpointer       user_data)
{
  SideStep *s = user_data;

  embers_diff_stats_add_profile (s->stats, s->side, step, 0);
}

/* Adds each profile that the query selects as one step of @side */
static gboolean
add_query_steps (GPtrArray          *entries,
                 const EmbersQuery  *query,
                 EmbersSelector     *selector,
                 EmbersDiffStats    *stats,
                 EmbersDiffSide      side,
                 GCancellable       *cancellable,
                 GError            **error)
{
  SideStep s = { stats, side };

  return foreach_query_step (entries, query, selector, add_side_step, &s, cancellable, error);
}

static void
diff_stats_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  Op *op = task_data;
  g_autoptr(EmbersSelector) left_sel = parse_query_selector_or_return (task, op->query);
  g_autoptr(EmbersSelector) right_sel = NULL;
  g_autoptr(EmbersDiffStats) stats = NULL;
  GError *error = NULL;

  if (left_sel == NULL)
    return;
  right_sel = parse_query_selector_or_return (task, op->right);
  if (right_sel == NULL)
    return;

  stats = embers_diff_stats_new (op->stats_mode, 0);
  if (!add_query_steps (op->entries, op->query, left_sel, stats, EMBERS_DIFF_SIDE_BASELINE, cancellable, &error) ||
      !add_query_steps (op->entries, op->right, right_sel, stats, EMBERS_DIFF_SIDE_COMPARISON, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  embers_diff_stats_compute (stats);
  g_task_return_pointer (task, g_steal_pointer (&stats), g_object_unref);
}

/**
 * embers_local_source_diff_stats_async:
 * @left: the baseline's query
 * @right: the comparison's query
 * @mode: shares of each file's total, or values per second of each file's
 *   duration
 *
 * The noise test of a comparison of local files: each file that a side's
 * query selects (its time range, profile type and labels, as the merge
 * takes them) is one step of that side. Runs in a thread.
 */
void
embers_local_source_diff_stats_async (EmbersLocalSource   *self,
                                      const EmbersQuery   *left,
                                      const EmbersQuery   *right,
                                      EmbersDiffStatsMode  mode,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (EMBERS_IS_LOCAL_SOURCE (self));
  g_return_if_fail (left != NULL && right != NULL);

  task = op_task (EMBERS_SOURCE (self), embers_local_source_diff_stats_async, cancellable, callback, user_data, &op);
  op->query = embers_query_copy (left);
  op->right = embers_query_copy (right);
  op->stats_mode = mode;
  g_task_run_in_thread (task, diff_stats_thread);
}

EmbersDiffStats *
embers_local_source_diff_stats_finish (EmbersLocalSource  *self,
                                       GAsyncResult       *result,
                                       GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == embers_local_source_diff_stats_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Snapshots: every file that a snapshot's query selects is one step */

typedef struct
{
  EmbersSnapshots *snapshots;
  guint            index;
  gboolean         typed;
} SnapshotStep;

static void
add_snapshot_step (EmbersProfile *step,
                   gpointer       user_data)
{
  SnapshotStep *s = user_data;

  if (!s->typed && embers_snapshots_get_sample_type (s->snapshots) == NULL)
    embers_snapshots_set_unit (s->snapshots, embers_profile_get_sample_type (step, 0),
                               embers_profile_get_sample_unit (step, 0));
  s->typed = TRUE;
  embers_snapshots_add_profile (s->snapshots, s->index, step, 0);
}

static void
snapshots_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  Op *op = task_data;
  EmbersSnapshots *snapshots = op->snapshots;
  GError *error = NULL;

  for (guint i = 0; i < embers_snapshots_get_n_snapshots (snapshots); i++)
    {
      const EmbersQuery *query = embers_snapshots_get_query (snapshots, i);
      g_autoptr(EmbersSelector) selector = parse_query_selector_or_return (task, query);
      SnapshotStep s = { snapshots, i, FALSE };

      if (selector == NULL)
        return;
      if (!foreach_query_step (op->entries, query, selector, add_snapshot_step, &s, cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }
  embers_snapshots_compute (snapshots);
  g_task_return_pointer (task, g_object_ref (snapshots), g_object_unref);
}

/**
 * embers_local_source_snapshots_async:
 * @snapshots: an empty table whose snapshots have been added, each with
 *   its query (a label's value, a time range)
 *
 * Fills and computes @snapshots off the main thread: each file that a
 * snapshot's query selects is one step of it. Resolves to @snapshots.
 */
void
embers_local_source_snapshots_async (EmbersLocalSource   *self,
                                     EmbersSnapshots     *snapshots,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (EMBERS_IS_LOCAL_SOURCE (self));
  g_return_if_fail (EMBERS_IS_SNAPSHOTS (snapshots));

  task = op_task (EMBERS_SOURCE (self), embers_local_source_snapshots_async, cancellable, callback, user_data, &op);
  op->snapshots = g_object_ref (snapshots);
  embers_snapshots_set_source (snapshots, EMBERS_SOURCE (self));
  for (guint i = 0; i < embers_snapshots_get_n_snapshots (snapshots); i++)
    if (embers_snapshots_get_query (snapshots, i) == NULL)
      {
        g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                                 _("Every snapshot needs a query"));
        return;
      }
  g_task_run_in_thread (task, snapshots_thread);
}

EmbersSnapshots *
embers_local_source_snapshots_finish (EmbersLocalSource  *self,
                                      GAsyncResult       *result,
                                      GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == embers_local_source_snapshots_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* SelectSeries: one point per step that has profiles, as Pyroscope makes
 * them (pkg/model/timeseries/range.go): points are stamped T = start + k·step
 * from start to end inclusive, and the point at T holds the profiles whose
 * time is in (T − step, T]; the profiles read are those in [start − step,
 * end] (the v2 query frontend reads from start − step, both ends included),
 * so the first point also holds a profile at exactly start − step, and
 * profiles after the last T ≤ end are in no point. */

typedef struct
{
  EmbersSeries *series;
  GArray       *counts;      /* guint per point: profiles in the step */
  GArray       *last_entry;  /* guint per point: last profile counted */
  /* Exemplars: each file is an individual profile; a point keeps its
   * heaviest (Pyroscope's DefaultMaxExemplarsPerPoint = 1,
   * pkg/model/timeseries/aggregator.go) */
  GArray       *cur_value;   /* gint64 per point: the last profile's value */
  GArray       *best_entry;  /* guint per point: heaviest profile + 1 */
  GArray       *best_value;  /* gint64 per point */
} Group;

static void
group_free (Group *group)
{
  g_array_unref (group->counts);
  g_array_unref (group->last_entry);
  g_array_unref (group->cur_value);
  g_array_unref (group->best_entry);
  g_array_unref (group->best_value);
  g_free (group);
}

/* The profile last added to point k is done: the heaviest so far? (Ties:
 * the first added.) */
static void
group_flush_point (Group *group,
                   guint  k)
{
  guint last = g_array_index (group->last_entry, guint, k);
  gint64 value = g_array_index (group->cur_value, gint64, k);

  if (last == 0)
    return;
  if (g_array_index (group->best_entry, guint, k) == 0 || value > g_array_index (group->best_value, gint64, k))
    {
      g_array_index (group->best_entry, guint, k) = last;
      g_array_index (group->best_value, gint64, k) = value;
    }
}

/* The exemplar of each of a group's points (before they are sorted: its
 * point is the unsorted index; see group_sort_exemplars) */
static void
group_add_exemplars (Group     *group,
                     GPtrArray *entries,
                     GStrv      group_by)
{
  EmbersSeries *series = group->series;

  series->exemplars = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_exemplar_free);
  for (guint k = 0; k < series->n_points; k++)
    {
      guint best;
      Entry *e;
      EmbersExemplar *exemplar;
      g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
      g_autoptr(GStrvBuilder) values = g_strv_builder_new ();

      group_flush_point (group, k);
      best = g_array_index (group->best_entry, guint, k);
      if (best == 0)
        continue;
      e = g_ptr_array_index (entries, best - 1);
      exemplar = embers_exemplar_new (k, e->time_ms, e->name, g_array_index (group->best_value, gint64, k));
      /* Its labels but the series' own (pkg/model/timeseries/timeseries.go:
       * lbs.WithoutLabels(by...)) */
      for (guint l = 0; e->label_names[l] != NULL; l++)
        if (group_by == NULL || !g_strv_contains ((const char * const *) group_by, e->label_names[l]))
          {
            g_strv_builder_add (names, e->label_names[l]);
            g_strv_builder_add (values, e->label_values[l]);
          }
      g_strfreev (exemplar->label_names);
      g_strfreev (exemplar->label_values);
      exemplar->label_names = g_strv_builder_end (names);
      exemplar->label_values = g_strv_builder_end (values);
      g_ptr_array_add (series->exemplars, exemplar);
    }
}

static int
compare_exemplar_points (gconstpointer a,
                         gconstpointer b)
{
  const EmbersExemplar *x = *(EmbersExemplar * const *) a;
  const EmbersExemplar *y = *(EmbersExemplar * const *) b;

  return x->point < y->point ? -1 : x->point > y->point;
}

/* After the points are sorted: each exemplar's point is where its stamp
 * (@unsorted[point]) is now */
static void
group_sort_exemplars (EmbersSeries *series,
                      const gint64 *unsorted)
{
  for (guint i = 0; series->exemplars != NULL && i < series->exemplars->len; i++)
    {
      EmbersExemplar *exemplar = g_ptr_array_index (series->exemplars, i);

      for (guint j = 0; j < series->n_points; j++)
        if (series->timestamps[j] == unsorted[exemplar->point])
          {
            exemplar->point = j;
            break;
          }
    }
  if (series->exemplars != NULL)
    g_ptr_array_sort (series->exemplars, compare_exemplar_points);
}

/* The node at the end of @call_site (frame names from the root's child
 * down), or EMBERS_NODE_NONE */
static guint32
find_call_site (EmbersProfile      *p,
                const char * const *call_site)
{
  guint32 node = 0;

  if (embers_profile_get_n_nodes (p) == 0)
    return EMBERS_NODE_NONE;
  for (guint d = 0; call_site[d] != NULL; d++)
    {
      guint32 end = embers_profile_node_end (p, node);
      guint32 found = EMBERS_NODE_NONE;

      for (guint32 c = node + 1; c < end; c = embers_profile_node_end (p, c))
        if (g_str_equal (embers_profile_node_name_str (p, c), call_site[d]))
          {
            found = c;
            break;
          }
      if (found == EMBERS_NODE_NONE)
        return EMBERS_NODE_NONE;
      node = found;
    }
  return node;
}

static void
select_series_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  Op *op = task_data;
  g_autoptr(EmbersSelector) selector = parse_query_selector_or_return (task, op->query);
  g_autoptr(GHashTable) groups = NULL;
  g_autoptr(GPtrArray) result = NULL;
  gint64 step_ms, origin;

  if (selector == NULL)
    return;

  if (!(op->step_s >= 0.001))
    {
      g_task_return_new_error (task, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_INVALID_ARGUMENT,
                               _("The step must be at least 1 ms"));
      return;
    }
  step_ms = MAX ((gint64)1, (gint64)llround (op->step_s * 1000.0));

  /* Steps are stamped from the range's start, as Pyroscope and the test
   * server stamp them (start + k·step). Without a range, from the earliest
   * profile (which then lands in the first point). */
  origin = op->query->start_ms;
  if (op->query->start_ms <= 0 && op->query->end_ms <= 0)
    {
      origin = G_MAXINT64;
      for (guint i = 0; i < op->entries->len; i++)
        origin = MIN (origin, ((Entry *)g_ptr_array_index (op->entries, i))->time_ms);
    }

  groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)group_free);
  result = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);

  for (guint i = 0; i < op->entries->len; i++)
    {
      Entry *e = g_ptr_array_index (op->entries, i);
      EmbersProfile *p = e->profile;
      g_autofree char *id = NULL;
      g_autofree char *type_name = NULL;
      guint n_samples = embers_profile_get_n_samples (p);
      gint64 bucket;
      guint32 cs_node = EMBERS_NODE_NONE, cs_end = 0;
      int t;

      if (op->query->start_ms > 0 || op->query->end_ms > 0)
        {
          if (e->time_ms < op->query->start_ms - step_ms || e->time_ms > op->query->end_ms)
            continue;
        }
      t = entry_sample_type (e, op->query->profile_type);
      if (t < 0)
        continue;

      /* The first T ≥ the profile's time */
      bucket = e->time_ms <= origin
               ? origin
               : origin + ((e->time_ms - origin + step_ms - 1) / step_ms) * step_ms;
      if (op->query->end_ms > 0 && bucket > op->query->end_ms)
        continue;

      id = embers_local_source_profile_type_id (p, t);
      type_name = g_strdup (id);
      *strchr (type_name, ':') = '\0';

      /* A call site (root first) keeps the stacks with that prefix: the
       * samples whose leaf is in its node's subtree, as Pyroscope's
       * stack-trace selector does (api/types/v1/types.proto); a file
       * without that path adds a zero */
      if (op->call_site != NULL)
        {
          cs_node = find_call_site (p, (const char * const *) op->call_site);
          cs_end = cs_node != EMBERS_NODE_NONE ? embers_profile_node_end (p, cs_node) : 0;
        }

      for (guint s = 0; s < MAX (n_samples, 1u); s++)
        {
          LabelContext ctx = { e, id, type_name, NULL, 0 };
          g_autoptr(GString) key = g_string_new (NULL);
          g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
          g_autoptr(GStrvBuilder) values = g_strv_builder_new ();
          EmbersSeries *series;
          Group *group;
          gint64 value;
          guint k;

          if (n_samples > 0)
            {
              ctx.labels = embers_profile_get_label_set (p, embers_profile_sample_label_set (p, s), &ctx.n_labels);
              value = embers_profile_sample_value (p, s, t);
              if (op->call_site != NULL)
                {
                  guint32 leaf = embers_profile_sample_node (p, s);

                  if (cs_node == EMBERS_NODE_NONE || leaf < cs_node || leaf >= cs_end)
                    value = 0;
                }
            }
          else if (op->call_site != NULL)
            value = cs_node != EMBERS_NODE_NONE ? embers_profile_node_total (p, t, cs_node) : 0;
          else
            value = embers_profile_get_total (p, t);

          if (!embers_selector_matches (selector, context_lookup, &ctx))
            continue;

          for (guint g = 0; op->label_names && op->label_names[g]; g++)
            {
              const char *v = context_lookup (op->label_names[g], &ctx);

              g_strv_builder_add (names, op->label_names[g]);
              g_strv_builder_add (values, v ? v : "");
              g_string_append_printf (key, "%s\x1e", v ? v : "");
            }

          group = g_hash_table_lookup (groups, key->str);
          if (group == NULL)
            {
              group = g_new0 (Group, 1);
              group->series = g_new0 (EmbersSeries, 1);
              group->series->label_names = g_strv_builder_end (names);
              group->series->label_values = g_strv_builder_end (values);
              group->counts = g_array_new (FALSE, TRUE, sizeof (guint));
              group->last_entry = g_array_new (FALSE, TRUE, sizeof (guint));
              group->cur_value = g_array_new (FALSE, TRUE, sizeof (gint64));
              group->best_entry = g_array_new (FALSE, TRUE, sizeof (guint));
              group->best_value = g_array_new (FALSE, TRUE, sizeof (gint64));
              g_hash_table_insert (groups, g_strdup (key->str), group);
              g_ptr_array_add (result, group->series);
            }
          series = group->series;

          for (k = 0; k < series->n_points; k++)
            if (series->timestamps[k] == bucket)
              break;
          if (k == series->n_points)
            {
              series->n_points++;
              series->timestamps = g_renew (gint64, series->timestamps, series->n_points);
              series->values = g_renew (double, series->values, series->n_points);
              series->timestamps[k] = bucket;
              series->values[k] = 0;
              g_array_set_size (group->counts, series->n_points);
              g_array_set_size (group->last_entry, series->n_points);
              g_array_set_size (group->cur_value, series->n_points);
              g_array_set_size (group->best_entry, series->n_points);
              g_array_set_size (group->best_value, series->n_points);
            }
          series->values[k] += (double)value;
          /* Count each profile once per step, for averages */
          if (g_array_index (group->counts, guint, k) == 0 ||
              g_array_index (group->last_entry, guint, k) != i + 1)
            {
              group_flush_point (group, k);
              g_array_index (group->counts, guint, k)++;
              g_array_index (group->last_entry, guint, k) = i + 1;
              g_array_index (group->cur_value, gint64, k) = 0;
            }
          g_array_index (group->cur_value, gint64, k) += value;
        }
    }

  if (op->aggregation == EMBERS_AGGREGATION_AVERAGE)
    {
      GHashTableIter iter;
      Group *group;

      g_hash_table_iter_init (&iter, groups);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&group))
        for (guint k = 0; k < group->series->n_points; k++)
          group->series->values[k] /= MAX (1u, g_array_index (group->counts, guint, k));
    }

  /* Sort points by time; keep the top "limit" series by their sum */
  for (guint i = 0; i < result->len; i++)
    {
      EmbersSeries *series = g_ptr_array_index (result, i);
      g_autofree gint64 *unsorted = g_memdup2 (series->timestamps, sizeof (gint64) * series->n_points);

      if (op->exemplars)
        {
          GHashTableIter iter;
          Group *group;

          g_hash_table_iter_init (&iter, groups);
          while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&group))
            if (group->series == series)
              group_add_exemplars (group, op->entries, op->label_names);
        }

      for (guint a = 1; a < series->n_points; a++)
        for (guint b2 = a; b2 > 0 && series->timestamps[b2 - 1] > series->timestamps[b2]; b2--)
          {
            gint64 ts = series->timestamps[b2];
            double v = series->values[b2];

            series->timestamps[b2] = series->timestamps[b2 - 1];
            series->values[b2] = series->values[b2 - 1];
            series->timestamps[b2 - 1] = ts;
            series->values[b2 - 1] = v;
          }
      group_sort_exemplars (series, unsorted);
    }

  if (op->limit > 0 && result->len > (guint)op->limit)
    {
      /* selection by sum, stable for equal sums */
      g_autofree double *sums = g_new0 (double, result->len);
      g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_series_free);

      for (guint i = 0; i < result->len; i++)
        {
          EmbersSeries *series = g_ptr_array_index (result, i);
          for (guint k = 0; k < series->n_points; k++)
            sums[i] += series->values[k];
        }
      for (gint64 n = 0; n < op->limit; n++)
        {
          guint best = G_MAXUINT;

          for (guint i = 0; i < result->len; i++)
            if (g_ptr_array_index (result, i) != NULL && (best == G_MAXUINT || sums[i] > sums[best]))
              best = i;
          g_ptr_array_add (kept, g_ptr_array_index (result, best));
          result->pdata[best] = NULL;
        }
      g_ptr_array_set_free_func (result, NULL);
      for (guint i = 0; i < result->len; i++)
        embers_series_free (g_ptr_array_index (result, i));
      g_task_return_pointer (task, g_steal_pointer (&kept), (GDestroyNotify)g_ptr_array_unref);
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify)g_ptr_array_unref);
}

static void
local_select_series (EmbersSource        *source,
                     const EmbersQuery   *query,
                     const char * const  *group_by,
                     double               step_s,
                     EmbersAggregation    aggregation,
                     gint64               limit,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = op_task (source, local_select_series, cancellable, callback, user_data, &op);

  op->query = embers_query_copy (query);
  op->label_names = g_strdupv ((char **)group_by);
  op->step_s = step_s;
  op->aggregation = aggregation;
  op->limit = limit;
  g_task_run_in_thread (task, select_series_thread);
}

/* Each file is an individual profile: its name the id, its value its
 * samples in the series (the file's total when nothing is filtered) */
static void
local_select_exemplars (EmbersSource        *source,
                        const EmbersQuery   *query,
                        const char * const  *group_by,
                        double               step_s,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = op_task (source, local_select_exemplars, cancellable, callback, user_data, &op);

  op->query = embers_query_copy (query);
  op->label_names = g_strdupv ((char **)group_by);
  op->step_s = step_s;
  op->aggregation = EMBERS_AGGREGATION_SUM;
  op->exemplars = TRUE;
  g_task_run_in_thread (task, select_series_thread);
}

static void
local_select_call_site_series (EmbersSource        *source,
                               const EmbersQuery   *query,
                               const char * const  *call_site,
                               const char * const  *group_by,
                               double               step_s,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  Op *op;
  g_autoptr(GTask) task = op_task (source, local_select_series, cancellable, callback, user_data, &op);

  op->query = embers_query_copy (query);
  op->label_names = g_strdupv ((char **)group_by);
  op->step_s = step_s;
  op->aggregation = EMBERS_AGGREGATION_SUM;
  op->call_site = g_strdupv ((char **)call_site);
  g_task_run_in_thread (task, select_series_thread);
}

static void
source_iface_init (EmbersSourceInterface *iface)
{
  iface->get_capabilities = local_get_capabilities;
  iface->dup_display_name = local_dup_display_name;
  iface->list_profile_types = local_list_profile_types;
  iface->list_profile_types_finish = (gpointer)local_finish_pointer;
  iface->list_label_names = local_list_label_names;
  iface->list_label_names_finish = (gpointer)local_finish_pointer;
  iface->list_label_values = local_list_label_values;
  iface->list_label_values_finish = (gpointer)local_finish_pointer;
  iface->list_series = local_list_series;
  iface->list_series_finish = (gpointer)local_finish_pointer;
  iface->select_series = local_select_series;
  iface->select_series_finish = (gpointer)local_finish_pointer;
  iface->select_exemplars = local_select_exemplars;
  iface->select_exemplars_finish = (gpointer)local_finish_pointer;
  iface->select_call_site_series = local_select_call_site_series;
  iface->select_call_site_series_finish = (gpointer)local_finish_pointer;
  iface->merge_profile = local_merge_profile;
  iface->merge_profile_finish = (gpointer)local_finish_pointer;
  iface->diff = local_diff;
  iface->diff_finish = (gpointer)local_finish_pointer;
}
