/* embers-call-tree.h: the rows of an expandable call tree (top-down or
 * inverted), as list models made lazily, one per expanded row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-diff.h"
#include "embers-profile.h"

G_BEGIN_DECLS

/*
 * EmbersCallTree: one profile, one sample type, top-down or inverted. Its
 * root list holds one row, "total"; the children of a row are a
 * GListModel (EmbersCallTreeList) of EmbersCallTreeRow, heaviest first
 * (total descending; ties in the profile's name order). Rows with a zero
 * total are left out.
 *
 * Top-down, a row is a node of the profile: its self and total are the
 * node's. Inverted (bottom-up), the children of "total" are the functions
 * that have self time, each with that self time as its total; the children
 * of a row are the callers of its stacks' frames, each with the part of the
 * row's total that went through them; the self of an inverted row is the
 * part of its total whose stacks start there (no caller above). The sum of
 * a row's children's totals and its self is its total, in both modes.
 *
 * Nothing is computed until asked for: making a row's child list is O(1),
 * and the list computes its rows on first use. A list of many rows (or,
 * inverted, of many stacks to group) is computed on a worker thread: it is
 * empty and not ready until then, and then emits items-changed once and
 * notifies "ready". A list of more than EMBERS_CALL_TREE_CHUNK rows
 * announces them a chunk at a time, in idle callbacks after the first
 * (heaviest) chunk: its n-items grows to embers_call_tree_list_get_n_rows()
 * (notify::n-shown), so that whoever shows it never takes thousands of
 * new rows in one frame. A GtkTreeListModel can use
 * embers_call_tree_row_create_children() as its create function.
 */
typedef struct _EmbersCallTree EmbersCallTree;

#define EMBERS_TYPE_CALL_TREE (embers_call_tree_get_type ())
GType           embers_call_tree_get_type        (void) G_GNUC_CONST;

EmbersCallTree *embers_call_tree_new             (EmbersProfile  *profile,
                                                  guint           sample_type,
                                                  gboolean        inverted);
EmbersCallTree *embers_call_tree_ref             (EmbersCallTree *self);
void            embers_call_tree_unref           (EmbersCallTree *self);
EmbersProfile  *embers_call_tree_get_profile     (EmbersCallTree *self);
guint           embers_call_tree_get_sample_type (EmbersCallTree *self);
gboolean        embers_call_tree_get_inverted    (EmbersCallTree *self);
/* The root's total (100%) */
gint64          embers_call_tree_get_total       (EmbersCallTree *self);

/*
 * A diff profile (embers_profile_is_diff()) makes a diff tree: its sample
 * type is the comparison (EMBERS_DIFF_COMPARISON) whatever was asked, and
 * its rows carry the baseline's self and total too. A row is kept when
 * either side has a total above zero; "heaviest" weighs both sides'
 * totals together. Inverted, the baseline's stacks are grouped alike.
 */
gboolean        embers_call_tree_is_diff         (EmbersCallTree *self);
/* The baseline root's total (0 unless a diff) */
gint64          embers_call_tree_get_baseline_total (EmbersCallTree *self);

/* The order of every child list: by a column, then heaviest first, then
 * in the profile's order (inverted: by name). Set it before the first
 * list is made. The change is embers_diff_share_change() of the totals,
 * new above everything and removed below. */
typedef enum
{
  EMBERS_CALL_TREE_SORT_HEAVIEST,
  EMBERS_CALL_TREE_SORT_NAME,
  EMBERS_CALL_TREE_SORT_SELF,
  EMBERS_CALL_TREE_SORT_TOTAL,          /* a diff's comparison */
  EMBERS_CALL_TREE_SORT_BASELINE,       /* a diff's baseline total */
  EMBERS_CALL_TREE_SORT_CHANGE,         /* comparison - baseline */
  EMBERS_CALL_TREE_SORT_CHANGE_PERCENT, /* the change of share */
} EmbersCallTreeSort;

void               embers_call_tree_set_sort     (EmbersCallTree     *self,
                                                  EmbersCallTreeSort  sort,
                                                  gboolean            descending);
EmbersCallTreeSort embers_call_tree_get_sort     (EmbersCallTree     *self,
                                                  gboolean           *descending);
/* A new list holding the one root row, "total" (ready at once) */
GListModel     *embers_call_tree_create_roots    (EmbersCallTree *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersCallTree, embers_call_tree_unref)

/* The child lists' threshold: lists with more rows than this (or inverted
 * groupings of more stacks) are computed on a worker thread */
#define EMBERS_CALL_TREE_SYNC_LIMIT 4096
/* Rows announced at a time */
#define EMBERS_CALL_TREE_CHUNK 256

#define EMBERS_TYPE_CALL_TREE_ROW (embers_call_tree_row_get_type ())
G_DECLARE_FINAL_TYPE (EmbersCallTreeRow, embers_call_tree_row, EMBERS, CALL_TREE_ROW, GObject)

EmbersCallTree *embers_call_tree_row_get_tree     (EmbersCallTreeRow *self);
/* The profile node (top-down; the root row is node 0). Inverted rows are
 * not one node: EMBERS_NODE_NONE, except for the root row (0). */
guint32         embers_call_tree_row_get_node     (EmbersCallTreeRow *self);
/* The name's string id in the profile, and the name */
guint32         embers_call_tree_row_get_name_id  (EmbersCallTreeRow *self);
const char     *embers_call_tree_row_get_name     (EmbersCallTreeRow *self);
/* 0 for the root row */
guint           embers_call_tree_row_get_depth    (EmbersCallTreeRow *self);
gint64          embers_call_tree_row_get_self     (EmbersCallTreeRow *self);
gint64          embers_call_tree_row_get_total    (EmbersCallTreeRow *self);
/* A diff tree's baseline values (0 otherwise) */
gint64          embers_call_tree_row_get_baseline_self  (EmbersCallTreeRow *self);
gint64          embers_call_tree_row_get_baseline_total (EmbersCallTreeRow *self);
/* The change of the row's share (embers_diff_share_change()), in % */
double          embers_call_tree_row_get_change   (EmbersCallTreeRow *self,
                                                   EmbersDiffKind    *kind);
/* The row's parent row (NULL for the root) */
EmbersCallTreeRow *embers_call_tree_row_get_parent (EmbersCallTreeRow *self);
gboolean        embers_call_tree_row_has_children (EmbersCallTreeRow *self);
/* (transfer full) (nullable): a new, not yet computed list of the row's
 * children, or NULL for a leaf. Cheap. */
GListModel     *embers_call_tree_row_create_children (EmbersCallTreeRow *self);

#define EMBERS_TYPE_CALL_TREE_LIST (embers_call_tree_list_get_type ())
G_DECLARE_FINAL_TYPE (EmbersCallTreeList, embers_call_tree_list, EMBERS, CALL_TREE_LIST, GObject)

/* Starts computing the rows, if not yet started (the first
 * g_list_model_get_n_items() or get_item() does too) */
void               embers_call_tree_list_load      (EmbersCallTreeList *self);
/* Computes the rows now on this thread, if they are not there yet, and
 * announces them all (for tests and tools; a window waits for "ready"
 * instead) */
void               embers_call_tree_list_load_sync (EmbersCallTreeList *self);
gboolean           embers_call_tree_list_is_ready  (EmbersCallTreeList *self);
/* All its rows, announced or not (once ready) */
guint              embers_call_tree_list_get_n_rows (EmbersCallTreeList *self);
/* Announces the rows up to @position now (to reach a row found by
 * embers_call_tree_list_find_node() further down) */
void               embers_call_tree_list_show_upto (EmbersCallTreeList *self,
                                                    guint               position);
EmbersCallTreeRow *embers_call_tree_list_get_row   (EmbersCallTreeList *self,
                                                    guint               position);
/* The position of the row of profile node @node (top-down), or G_MAXUINT */
guint              embers_call_tree_list_find_node (EmbersCallTreeList *self,
                                                    guint32             node);
/* The position of the heaviest row (the first unless sorted by another
 * column), or G_MAXUINT when empty */
guint              embers_call_tree_list_find_heaviest (EmbersCallTreeList *self);
/* The position of the row named @name_id, or G_MAXUINT */
guint              embers_call_tree_list_find_name (EmbersCallTreeList *self,
                                                    guint32             name_id);

/* Top-down helpers on a profile */

/* The child of @node with the largest total in @sample_type (the first in
 * name order among equals), or EMBERS_NODE_NONE when it has no child with
 * a total above zero: the one a call tree lists first */
guint32  embers_call_tree_heaviest_child (EmbersProfile *profile,
                                          guint          sample_type,
                                          guint32        node);
/* The heaviest path below @node: its heaviest child, that one's, and so
 * on down to a leaf (at most @max_len nodes); returns the number written
 * to @path */
guint    embers_call_tree_heaviest_path  (EmbersProfile *profile,
                                          guint          sample_type,
                                          guint32        node,
                                          guint32       *path,
                                          guint          max_len);

G_END_DECLS
