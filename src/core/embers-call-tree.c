/* embers-call-tree.c: the rows of an expandable call tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-call-tree.h"
#include "embers-diff.h"
#include "embers-profile-private.h"

/* The stacks an inverted row stands for: for each, the frame reached so
 * far walking up from the leaf, and the leaf's self value it carries */
typedef struct
{
  gatomicrefcount ref_count;
  guint           n;
  guint32        *nodes;
  gint64         *weights;
  gint64         *base_weights;   /* a diff's baseline, or NULL */
} Stacks;

static Stacks *
stacks_new (guint    n,
            gboolean diff)
{
  Stacks *s = g_new0 (Stacks, 1);

  g_atomic_ref_count_init (&s->ref_count);
  s->n = n;
  s->nodes = g_new (guint32, MAX (n, 1));
  s->weights = g_new (gint64, MAX (n, 1));
  if (diff)
    s->base_weights = g_new (gint64, MAX (n, 1));
  return s;
}

static Stacks *
stacks_ref (Stacks *s)
{
  g_atomic_ref_count_inc (&s->ref_count);
  return s;
}

static void
stacks_unref (Stacks *s)
{
  if (s != NULL && g_atomic_ref_count_dec (&s->ref_count))
    {
      g_free (s->nodes);
      g_free (s->weights);
      g_free (s->base_weights);
      g_free (s);
    }
}

struct _EmbersCallTree
{
  gatomicrefcount  ref_count;
  EmbersProfile   *profile;
  guint            sample_type;
  gboolean         inverted;
  gint64           total;
  gboolean         diff;
  gint64           base_total;
  EmbersCallTreeSort sort;
  gboolean         descending;
};

G_DEFINE_BOXED_TYPE (EmbersCallTree, embers_call_tree, embers_call_tree_ref, embers_call_tree_unref)

/* One row as a list keeps it, before it is asked for as an object */
typedef struct
{
  guint32  node;        /* top-down; EMBERS_NODE_NONE inverted */
  guint32  name_id;
  gboolean expandable;
  gint64   self;
  gint64   total;
  Stacks  *stacks;      /* inverted */
  gint64   base_self;   /* a diff's baseline */
  gint64   base_total;
} Entry;

struct _EmbersCallTreeRow
{
  GObject            parent_instance;

  EmbersCallTree    *tree;
  EmbersCallTreeRow *parent;
  guint              depth;
  Entry              entry;
};

G_DEFINE_FINAL_TYPE (EmbersCallTreeRow, embers_call_tree_row, G_TYPE_OBJECT)

struct _EmbersCallTreeList
{
  GObject            parent_instance;

  EmbersCallTree    *tree;
  EmbersCallTreeRow *parent;     /* NULL: the list of roots */
  Entry             *entries;
  guint              n_entries;
  guint              n_shown;    /* the rows announced so far (the first
                                  * ones; the rest follow in chunks) */
  guint              show_id;
  GPtrArray         *rows;       /* EmbersCallTreeRow or NULL, made when asked */
  gboolean           started;
  gboolean           ready;
};

enum {
  LIST_PROP_0,
  LIST_PROP_READY,
  LIST_PROP_N_SHOWN,
  LIST_N_PROPS
};

static GParamSpec *list_properties[LIST_N_PROPS];

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (EmbersCallTreeList, embers_call_tree_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

/* The tree */

EmbersCallTree *
embers_call_tree_new (EmbersProfile *profile,
                      guint          sample_type,
                      gboolean       inverted)
{
  EmbersCallTree *self;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (sample_type < MAX (embers_profile_get_n_sample_types (profile), 1), NULL);

  self = g_new0 (EmbersCallTree, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->profile = g_object_ref (profile);
  self->sample_type = sample_type;
  self->inverted = !!inverted;
  self->diff = embers_profile_is_diff (profile) && embers_profile_get_n_sample_types (profile) >= 2;
  if (self->diff)
    self->sample_type = EMBERS_DIFF_COMPARISON;
  self->total = embers_profile_get_n_nodes (profile) > 0
                ? embers_profile_node_total (profile, self->sample_type, 0) : 0;
  if (self->diff && embers_profile_get_n_nodes (profile) > 0)
    self->base_total = embers_profile_node_total (profile, EMBERS_DIFF_BASELINE, 0);
  self->sort = EMBERS_CALL_TREE_SORT_HEAVIEST;
  self->descending = TRUE;
  return self;
}

EmbersCallTree *
embers_call_tree_ref (EmbersCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
embers_call_tree_unref (EmbersCallTree *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_object_unref (self->profile);
      g_free (self);
    }
}

EmbersProfile *
embers_call_tree_get_profile (EmbersCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->profile;
}

guint
embers_call_tree_get_sample_type (EmbersCallTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->sample_type;
}

gboolean
embers_call_tree_get_inverted (EmbersCallTree *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->inverted;
}

gint64
embers_call_tree_get_total (EmbersCallTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->total;
}

gboolean
embers_call_tree_is_diff (EmbersCallTree *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->diff;
}

gint64
embers_call_tree_get_baseline_total (EmbersCallTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->base_total;
}

void
embers_call_tree_set_sort (EmbersCallTree     *self,
                           EmbersCallTreeSort  sort,
                           gboolean            descending)
{
  g_return_if_fail (self != NULL);
  self->sort = sort;
  self->descending = !!descending;
}

EmbersCallTreeSort
embers_call_tree_get_sort (EmbersCallTree *self,
                           gboolean       *descending)
{
  g_return_val_if_fail (self != NULL, EMBERS_CALL_TREE_SORT_HEAVIEST);
  if (descending != NULL)
    *descending = self->descending;
  return self->sort;
}

static EmbersCallTreeList *
list_new (EmbersCallTree    *tree,
          EmbersCallTreeRow *parent)
{
  EmbersCallTreeList *list = g_object_new (EMBERS_TYPE_CALL_TREE_LIST, NULL);

  list->tree = embers_call_tree_ref (tree);
  list->parent = parent != NULL ? g_object_ref (parent) : NULL;
  return list;
}

GListModel *
embers_call_tree_create_roots (EmbersCallTree *self)
{
  EmbersCallTreeList *list;
  EmbersProfile *p;

  g_return_val_if_fail (self != NULL, NULL);

  p = self->profile;
  list = list_new (self, NULL);
  list->started = TRUE;
  list->ready = TRUE;
  if (embers_profile_get_n_nodes (p) > 0)
    {
      Entry *e;

      list->entries = e = g_new0 (Entry, 1);
      list->n_entries = 1;
      list->n_shown = 1;
      e->node = 0;
      e->name_id = embers_profile_node_name (p, 0);
      e->total = self->total;
      e->self = embers_profile_node_self (p, self->sample_type, 0);
      if (self->diff)
        {
          e->base_total = self->base_total;
          e->base_self = embers_profile_node_self (p, EMBERS_DIFF_BASELINE, 0);
        }
      e->expandable = embers_profile_get_n_nodes (p) > 1;
      g_ptr_array_set_size (list->rows, 1);
    }
  return G_LIST_MODEL (list);
}

/* Top-down helpers */

guint32
embers_call_tree_heaviest_child (EmbersProfile *profile,
                                 guint          sample_type,
                                 guint32        node)
{
  const gint64 *totals;
  const guint32 *ends;
  const guint32 *kids;
  guint32 best = EMBERS_NODE_NONE;
  gint64 best_total = 0;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), EMBERS_NODE_NONE);
  if (node >= embers_profile_get_n_nodes (profile))
    return EMBERS_NODE_NONE;

  totals = embers_profile_get_total_column (profile, sample_type);
  ends = embers_profile_get_end_column (profile);
  kids = _embers_profile_get_kids (profile, node);
  if (kids != NULL)
    {
      for (guint32 i = 1; i <= kids[0]; i++)
        if (totals[kids[i]] > best_total)
          {
            best_total = totals[kids[i]];
            best = kids[i];
          }
      return best;
    }
  for (guint32 c = node + 1; c < ends[node]; c = ends[c])
    if (totals[c] > best_total)
      {
        best_total = totals[c];
        best = c;
      }
  return best;
}

guint
embers_call_tree_heaviest_path (EmbersProfile *profile,
                                guint          sample_type,
                                guint32        node,
                                guint32       *path,
                                guint          max_len)
{
  guint n = 0;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), 0);

  while (n < max_len)
    {
      node = embers_call_tree_heaviest_child (profile, sample_type, node);
      if (node == EMBERS_NODE_NONE)
        break;
      path[n++] = node;
    }
  return n;
}

/* Computing a list */

typedef struct
{
  EmbersCallTree *tree;
  guint32         node;      /* top-down: whose children */
  Stacks         *stacks;    /* inverted: whose callers; NULL = the roots */
  Entry          *entries;
  guint           n_entries;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  for (guint i = 0; i < job->n_entries; i++)
    stacks_unref (job->entries[i].stacks);
  g_free (job->entries);
  g_clear_pointer (&job->stacks, stacks_unref);
  embers_call_tree_unref (job->tree);
  g_free (job);
}

/* How heavy a row is: its total, in a diff both sides' */
static inline gint64
entry_weight (const Entry *e)
{
  return e->total + e->base_total;
}

static int
cmp_gint64 (gint64 a,
            gint64 b)
{
  return a < b ? -1 : a > b;
}

static int
cmp_double (double a,
            double b)
{
  return a < b ? -1 : a > b;
}

static double
entry_change (EmbersCallTree *tree,
              const Entry    *e)
{
  EmbersDiffKind kind;
  double change = embers_diff_share_change (e->base_total, tree->base_total, e->total, tree->total, &kind);

  /* New above everything, removed below */
  if (kind == EMBERS_DIFF_KIND_NEW)
    return G_MAXDOUBLE;
  if (kind == EMBERS_DIFF_KIND_REMOVED)
    return -G_MAXDOUBLE;
  return change;
}

static int
compare_names (EmbersProfile *profile,
               const Entry   *x,
               const Entry   *y)
{
  int c = strcmp (embers_profile_get_string (profile, x->name_id),
                  embers_profile_get_string (profile, y->name_id));

  if (c != 0)
    return c;
  return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

/* By the tree's sort key, then heaviest first, then in the profile's
 * order (top-down) or by name (inverted) */
static int
compare_entries (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const Entry *x = a;
  const Entry *y = b;
  EmbersCallTree *tree = user_data;
  EmbersProfile *profile = tree->profile;
  int c = 0;

  switch (tree->sort)
    {
    case EMBERS_CALL_TREE_SORT_HEAVIEST:
      break;
    case EMBERS_CALL_TREE_SORT_NAME:
      /* Ascending is A to Z */
      c = compare_names (profile, x, y);
      break;
    case EMBERS_CALL_TREE_SORT_SELF:
      c = cmp_gint64 (x->self, y->self);
      break;
    case EMBERS_CALL_TREE_SORT_TOTAL:
      c = cmp_gint64 (x->total, y->total);
      break;
    case EMBERS_CALL_TREE_SORT_BASELINE:
      c = cmp_gint64 (x->base_total, y->base_total);
      break;
    case EMBERS_CALL_TREE_SORT_CHANGE:
      c = cmp_gint64 (x->total - x->base_total, y->total - y->base_total);
      break;
    case EMBERS_CALL_TREE_SORT_CHANGE_PERCENT:
      c = cmp_double (entry_change (tree, x), entry_change (tree, y));
      break;
    default:
      break;
    }
  if (c != 0)
    return tree->descending ? -c : c;

  if (entry_weight (x) != entry_weight (y))
    return entry_weight (x) > entry_weight (y) ? -1 : 1;
  if (x->node != y->node)
    return x->node < y->node ? -1 : 1;
  /* Inverted rows: by name */
  return compare_names (profile, x, y);
}

static void
compute_top_down (Job *job)
{
  EmbersProfile *p = job->tree->profile;
  guint type = job->tree->sample_type;
  const gint64 *totals = embers_profile_get_total_column (p, type);
  const gint64 *selfs = embers_profile_get_self_column (p, type);
  const gint64 *base_totals = job->tree->diff ? embers_profile_get_total_column (p, EMBERS_DIFF_BASELINE) : NULL;
  const gint64 *base_selfs = job->tree->diff ? embers_profile_get_self_column (p, EMBERS_DIFF_BASELINE) : NULL;
  const guint32 *ends = embers_profile_get_end_column (p);
  const guint32 *names = embers_profile_get_name_column (p);
  const guint32 *kids = _embers_profile_get_kids (p, job->node);
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  guint32 node = job->node;

#define ADD_CHILD(c) G_STMT_START { \
    if (totals[c] > 0 || (base_totals != NULL && base_totals[c] > 0)) \
      { \
        Entry e = { (c), names[c], ends[c] > (c) + 1, selfs[c], totals[c], NULL, \
                    base_selfs != NULL ? base_selfs[c] : 0, base_totals != NULL ? base_totals[c] : 0 }; \
        g_array_append_val (entries, e); \
      } \
  } G_STMT_END

  if (kids != NULL)
    {
      for (guint32 i = 1; i <= kids[0]; i++)
        ADD_CHILD (kids[i]);
    }
  else
    {
      for (guint32 c = node + 1; c < ends[node]; c = ends[c])
        ADD_CHILD (c);
    }
#undef ADD_CHILD

  g_array_sort_with_data (entries, compare_entries, job->tree);
  job->n_entries = entries->len;
  job->entries = (Entry *) g_array_free (entries, FALSE);
}

/* Groups stacks by the name of a frame: at the roots, the leaf frame of
 * every node with self time; below, the caller of each stack's frame */
static void
compute_inverted (Job *job)
{
  EmbersProfile *p = job->tree->profile;
  guint type = job->tree->sample_type;
  const guint32 *parents = embers_profile_get_parent_column (p);
  const guint32 *names = embers_profile_get_name_column (p);
  guint n_in = job->stacks != NULL ? job->stacks->n : embers_profile_get_n_nodes (p);
  gboolean diff = job->tree->diff;
  const gint64 *selfs = job->stacks == NULL ? embers_profile_get_self_column (p, type) : NULL;
  const gint64 *base_selfs = job->stacks == NULL && diff ? embers_profile_get_self_column (p, EMBERS_DIFF_BASELINE) : NULL;
  g_autoptr(GHashTable) groups = g_hash_table_new (NULL, NULL);
  g_autofree guint32 *group_of = g_new (guint32, MAX (n_in, 1));
  g_autofree guint32 *frame_of = g_new (guint32, MAX (n_in, 1));
  g_autofree guint *fill = NULL;
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (Entry));

  for (guint i = 0; i < n_in; i++)
    {
      guint32 frame;
      gint64 w, bw = 0;
      gpointer slot;
      Entry *e;

      group_of[i] = G_MAXUINT32;
      if (job->stacks == NULL)
        {
          /* The root node's own value has no frame to stand under */
          if (i == 0 || (selfs[i] <= 0 && (base_selfs == NULL || base_selfs[i] <= 0)))
            continue;
          frame = i;
          w = selfs[i];
          if (base_selfs != NULL)
            bw = base_selfs[i];
        }
      else
        {
          frame = parents[job->stacks->nodes[i]];
          w = job->stacks->weights[i];
          if (diff)
            bw = job->stacks->base_weights[i];
          if (frame == 0 || frame == EMBERS_NODE_NONE)
            continue;
        }
      frame_of[i] = frame;

      if (g_hash_table_lookup_extended (groups, GUINT_TO_POINTER (names[frame]), NULL, &slot))
        {
          group_of[i] = GPOINTER_TO_UINT (slot);
        }
      else
        {
          Entry fresh = { EMBERS_NODE_NONE, names[frame], FALSE, 0, 0, NULL, 0, 0 };

          group_of[i] = entries->len;
          g_array_append_val (entries, fresh);
          g_hash_table_insert (groups, GUINT_TO_POINTER (names[frame]), GUINT_TO_POINTER (group_of[i]));
        }
      e = &g_array_index (entries, Entry, group_of[i]);
      e->total += w;
      e->base_total += bw;
      if (parents[frame] == 0)
        {
          e->self += w;
          e->base_self += bw;
        }
      else
        e->expandable = TRUE;
      /* The count of stacks, kept in stacks until they are made */
      e->stacks = GUINT_TO_POINTER (GPOINTER_TO_UINT (e->stacks) + 1);
    }

  fill = g_new0 (guint, MAX (entries->len, 1));
  for (guint g = 0; g < entries->len; g++)
    {
      Entry *e = &g_array_index (entries, Entry, g);

      e->stacks = stacks_new (GPOINTER_TO_UINT (e->stacks), diff);
    }
  for (guint i = 0; i < n_in; i++)
    {
      Entry *e;
      guint at;

      if (group_of[i] == G_MAXUINT32)
        continue;
      e = &g_array_index (entries, Entry, group_of[i]);
      at = fill[group_of[i]]++;
      e->stacks->nodes[at] = frame_of[i];
      e->stacks->weights[at] = job->stacks != NULL ? job->stacks->weights[i] : selfs[i];
      if (diff)
        e->stacks->base_weights[at] = job->stacks != NULL ? job->stacks->base_weights[i] : base_selfs[i];
    }

  /* Zero totals (negative or cancelling values) are left out, as top-down */
  for (guint g = entries->len; g > 0; g--)
    {
      Entry *e = &g_array_index (entries, Entry, g - 1);

      if (e->total <= 0 && (!diff || e->base_total <= 0))
        {
          stacks_unref (e->stacks);
          g_array_remove_index_fast (entries, g - 1);
        }
    }

  g_array_sort_with_data (entries, compare_entries, job->tree);
  job->n_entries = entries->len;
  job->entries = (Entry *) g_array_free (entries, FALSE);
}

static void
compute (Job *job)
{
  if (job->tree->inverted)
    compute_inverted (job);
  else
    compute_top_down (job);
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  compute (task_data);
  g_task_return_boolean (task, TRUE);
}

/* Roughly how much work the list is: rows (top-down) or stacks (inverted),
 * counted up to just over the limit */
static guint
estimate_work (EmbersCallTreeList *self)
{
  EmbersProfile *p = self->tree->profile;
  guint32 node = self->parent->entry.node;
  const guint32 *ends;
  const guint32 *kids;
  guint n = 0;

  if (self->tree->inverted)
    return self->parent->entry.stacks != NULL ? self->parent->entry.stacks->n
                                              : embers_profile_get_n_nodes (p);

  kids = _embers_profile_get_kids (p, node);
  if (kids != NULL)
    return kids[0];
  ends = embers_profile_get_end_column (p);
  for (guint32 c = node + 1; c < ends[node] && n <= EMBERS_CALL_TREE_SYNC_LIMIT; c = ends[c])
    n++;
  return n;
}

static Job *
job_new (EmbersCallTreeList *self)
{
  Job *job = g_new0 (Job, 1);

  job->tree = embers_call_tree_ref (self->tree);
  job->node = self->parent->entry.node;
  if (self->parent->entry.stacks != NULL)
    job->stacks = stacks_ref (self->parent->entry.stacks);
  return job;
}

static void
take_entries (EmbersCallTreeList *self,
              Job                *job)
{
  self->entries = g_steal_pointer (&job->entries);
  self->n_entries = job->n_entries;
  job->n_entries = 0;
  g_ptr_array_set_size (self->rows, self->n_entries);
  self->n_shown = MIN (self->n_entries, EMBERS_CALL_TREE_CHUNK);
  self->ready = TRUE;
}

/* Announces rows up to @n (items-changed at the end) */
static void
show_upto (EmbersCallTreeList *self,
           guint               n)
{
  guint before = self->n_shown;

  n = MIN (n, self->n_entries);
  if (n <= before)
    return;
  self->n_shown = n;
  g_list_model_items_changed (G_LIST_MODEL (self), before, 0, n - before);
  g_object_notify_by_pspec (G_OBJECT (self), list_properties[LIST_PROP_N_SHOWN]);
}

/* The rest of a long list, a chunk per idle: a list model's consumer
 * (GtkTreeListModel and the list view behind it) handles each added row,
 * and a few thousand at once would hold a frame back */
static gboolean
show_more (gpointer data)
{
  EmbersCallTreeList *self = data;

  show_upto (self, self->n_shown + EMBERS_CALL_TREE_CHUNK);
  if (self->n_shown < self->n_entries)
    return G_SOURCE_CONTINUE;
  self->show_id = 0;
  return G_SOURCE_REMOVE;
}

static void
schedule_rest (EmbersCallTreeList *self)
{
  if (self->n_shown < self->n_entries && self->show_id == 0)
    self->show_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, show_more, self, NULL);
}

static void
compute_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  EmbersCallTreeList *self = EMBERS_CALL_TREE_LIST (object);
  Job *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL) || self->ready)
    return;

  take_entries (self, job);
  if (self->n_shown > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, self->n_shown);
  g_object_notify_by_pspec (object, list_properties[LIST_PROP_READY]);
  schedule_rest (self);
}

void
embers_call_tree_list_load (EmbersCallTreeList *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (EMBERS_IS_CALL_TREE_LIST (self));

  if (self->started)
    return;
  self->started = TRUE;

  job = job_new (self);
  if (estimate_work (self) <= EMBERS_CALL_TREE_SYNC_LIMIT)
    {
      /* Small: at once, so that an expanded row shows its children in the
       * same frame */
      compute (job);
      take_entries (self, job);
      job_free (job);
      schedule_rest (self);
      return;
    }

  task = g_task_new (self, NULL, compute_done, NULL);
  g_task_set_source_tag (task, embers_call_tree_list_load);
  g_task_set_task_data (task, job, job_free);
  g_task_run_in_thread (task, compute_thread);
}

void
embers_call_tree_list_load_sync (EmbersCallTreeList *self)
{
  g_return_if_fail (EMBERS_IS_CALL_TREE_LIST (self));

  if (!self->started)
    {
      Job *job = job_new (self);

      self->started = TRUE;
      compute (job);
      take_entries (self, job);
      job_free (job);
      /* All at once: nobody is waiting for frames */
      self->n_shown = self->n_entries;
      return;
    }
  while (!self->ready)
    g_main_context_iteration (NULL, TRUE);
  show_upto (self, self->n_entries);
}

guint
embers_call_tree_list_get_n_rows (EmbersCallTreeList *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_LIST (self), 0);
  return self->n_entries;
}

void
embers_call_tree_list_show_upto (EmbersCallTreeList *self,
                                 guint               position)
{
  g_return_if_fail (EMBERS_IS_CALL_TREE_LIST (self));
  show_upto (self, position + 1);
}

gboolean
embers_call_tree_list_is_ready (EmbersCallTreeList *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_LIST (self), FALSE);
  return self->ready;
}

static EmbersCallTreeRow *
make_row (EmbersCallTreeList *self,
          guint               position)
{
  EmbersCallTreeRow *row = g_object_new (EMBERS_TYPE_CALL_TREE_ROW, NULL);
  Entry *e = &self->entries[position];

  row->tree = embers_call_tree_ref (self->tree);
  row->parent = self->parent != NULL ? g_object_ref (self->parent) : NULL;
  row->depth = self->parent != NULL ? self->parent->depth + 1 : 0;
  row->entry = *e;
  if (e->stacks != NULL)
    row->entry.stacks = stacks_ref (e->stacks);
  return row;
}

EmbersCallTreeRow *
embers_call_tree_list_get_row (EmbersCallTreeList *self,
                               guint               position)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_LIST (self), NULL);

  embers_call_tree_list_load (self);
  if (position >= self->n_shown)
    return NULL;
  if (g_ptr_array_index (self->rows, position) == NULL)
    g_ptr_array_index (self->rows, position) = make_row (self, position);
  return g_ptr_array_index (self->rows, position);
}

guint
embers_call_tree_list_find_node (EmbersCallTreeList *self,
                                 guint32             node)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_LIST (self), G_MAXUINT);

  embers_call_tree_list_load (self);
  for (guint i = 0; i < self->n_entries; i++)
    if (self->entries[i].node == node)
      return i;
  return G_MAXUINT;
}

guint
embers_call_tree_list_find_heaviest (EmbersCallTreeList *self)
{
  guint best = G_MAXUINT;

  g_return_val_if_fail (EMBERS_IS_CALL_TREE_LIST (self), G_MAXUINT);

  embers_call_tree_list_load (self);
  /* Heaviest first unless sorted otherwise */
  if (self->tree->sort == EMBERS_CALL_TREE_SORT_HEAVIEST)
    return self->n_entries > 0 ? 0 : G_MAXUINT;
  for (guint i = 0; i < self->n_entries; i++)
    if (best == G_MAXUINT || entry_weight (&self->entries[i]) > entry_weight (&self->entries[best]))
      best = i;
  return best;
}

guint
embers_call_tree_list_find_name (EmbersCallTreeList *self,
                                 guint32             name_id)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_LIST (self), G_MAXUINT);

  embers_call_tree_list_load (self);
  for (guint i = 0; i < self->n_entries; i++)
    if (self->entries[i].name_id == name_id)
      return i;
  return G_MAXUINT;
}

static GType
list_get_item_type (GListModel *model)
{
  return EMBERS_TYPE_CALL_TREE_ROW;
}

static guint
list_get_n_items (GListModel *model)
{
  EmbersCallTreeList *self = EMBERS_CALL_TREE_LIST (model);

  embers_call_tree_list_load (self);
  return self->n_shown;
}

static gpointer
list_get_item (GListModel *model,
               guint       position)
{
  EmbersCallTreeRow *row = embers_call_tree_list_get_row (EMBERS_CALL_TREE_LIST (model), position);

  return row != NULL ? g_object_ref (row) : NULL;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = list_get_item_type;
  iface->get_n_items = list_get_n_items;
  iface->get_item = list_get_item;
}

static void
embers_call_tree_list_finalize (GObject *object)
{
  EmbersCallTreeList *self = EMBERS_CALL_TREE_LIST (object);

  g_clear_handle_id (&self->show_id, g_source_remove);
  for (guint i = 0; i < self->n_entries; i++)
    stacks_unref (self->entries[i].stacks);
  g_free (self->entries);
  g_ptr_array_unref (self->rows);
  g_clear_object (&self->parent);
  g_clear_pointer (&self->tree, embers_call_tree_unref);

  G_OBJECT_CLASS (embers_call_tree_list_parent_class)->finalize (object);
}

static void
embers_call_tree_list_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  EmbersCallTreeList *self = EMBERS_CALL_TREE_LIST (object);

  switch (prop_id)
    {
    case LIST_PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    case LIST_PROP_N_SHOWN:
      g_value_set_uint (value, self->n_shown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_call_tree_list_class_init (EmbersCallTreeListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = embers_call_tree_list_finalize;
  object_class->get_property = embers_call_tree_list_get_property;

  /* TRUE once the rows are computed (items-changed came first) */
  list_properties[LIST_PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The rows announced (the list's n-items) */
  list_properties[LIST_PROP_N_SHOWN] =
    g_param_spec_uint ("n-shown", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, LIST_N_PROPS, list_properties);
}

static void
unref_row (gpointer row)
{
  if (row != NULL)
    g_object_unref (row);
}

static void
embers_call_tree_list_init (EmbersCallTreeList *self)
{
  self->rows = g_ptr_array_new_with_free_func (unref_row);
}

/* Rows */

EmbersCallTree *
embers_call_tree_row_get_tree (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), NULL);
  return self->tree;
}

guint32
embers_call_tree_row_get_node (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), EMBERS_NODE_NONE);
  return self->entry.node;
}

guint32
embers_call_tree_row_get_name_id (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), 0);
  return self->entry.name_id;
}

const char *
embers_call_tree_row_get_name (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), NULL);
  return embers_profile_get_string (self->tree->profile, self->entry.name_id);
}

guint
embers_call_tree_row_get_depth (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), 0);
  return self->depth;
}

gint64
embers_call_tree_row_get_self (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), 0);
  return self->entry.self;
}

gint64
embers_call_tree_row_get_total (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), 0);
  return self->entry.total;
}

gint64
embers_call_tree_row_get_baseline_self (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), 0);
  return self->entry.base_self;
}

gint64
embers_call_tree_row_get_baseline_total (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), 0);
  return self->entry.base_total;
}

double
embers_call_tree_row_get_change (EmbersCallTreeRow *self,
                                 EmbersDiffKind    *kind)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), 0);
  return embers_diff_share_change (self->entry.base_total, self->tree->base_total,
                                   self->entry.total, self->tree->total, kind);
}

EmbersCallTreeRow *
embers_call_tree_row_get_parent (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), NULL);
  return self->parent;
}

gboolean
embers_call_tree_row_has_children (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), FALSE);
  return self->entry.expandable;
}

GListModel *
embers_call_tree_row_create_children (EmbersCallTreeRow *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_ROW (self), NULL);

  if (!self->entry.expandable)
    return NULL;
  return G_LIST_MODEL (list_new (self->tree, self));
}

static void
embers_call_tree_row_finalize (GObject *object)
{
  EmbersCallTreeRow *self = EMBERS_CALL_TREE_ROW (object);

  g_clear_pointer (&self->entry.stacks, stacks_unref);
  g_clear_object (&self->parent);
  g_clear_pointer (&self->tree, embers_call_tree_unref);

  G_OBJECT_CLASS (embers_call_tree_row_parent_class)->finalize (object);
}

static void
embers_call_tree_row_class_init (EmbersCallTreeRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = embers_call_tree_row_finalize;
}

static void
embers_call_tree_row_init (EmbersCallTreeRow *self)
{
}
