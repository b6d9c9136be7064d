/* embers-profile-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-profile.h"
#include "embers-profile-builder.h"

G_BEGIN_DECLS

struct _EmbersProfile
{
  GObject      parent_instance;

  /* String pool: one buffer, offsets per id. Id 0 is "". */
  char        *string_data;
  guint32     *string_offsets;
  guint        n_strings;

  /* Sample types */
  guint        n_types;
  guint32     *type_names;   /* string ids */
  guint32     *type_units;   /* string ids */
  guint        default_type;
  guint32      period_type;
  guint32      period_unit;
  gint64       period;
  gint64       time_nanos;
  gint64       duration_nanos;
  gboolean     is_diff;

  /* Tree, DFS pre-order */
  guint        n_nodes;
  guint        max_depth;
  guint32     *names;
  guint32     *parents;
  guint32     *ends;
  guint16     *depths;
  gint64      *totals[EMBERS_PROFILE_MAX_SAMPLE_TYPES];   /* n_types columns */
  /* Self values: a column is made from the totals when first asked for
   * (most users need one sample type's, many none), unless the maker
   * handed them over (self_block: n_types columns) */
  gint64      *self_block;
  gint64      *self_columns[EMBERS_PROFILE_MAX_SAMPLE_TYPES];

  /* Per name string id; NULL when no locations are known */
  guint32     *name_files;
  gint64      *name_lines;

  /* Label samples */
  guint        n_samples;
  guint32     *sample_nodes;
  guint32     *sample_label_sets;
  gint64      *sample_values; /* n_samples rows of n_types */
  guint        n_label_sets;
  guint32     *label_set_offsets; /* n_label_sets + 1 */
  EmbersLabel *labels;

  /* The children of frames that have many, in order, noted by a layout
   * that walked them all (embers-layout.c): a later layout reads them in
   * one sequential sweep instead of hopping from sibling to sibling
   * through the ends column. node -> guint32 array (count first) */
  GMutex       kids_lock;
  GHashTable  *kids;
};

EmbersProfile *_embers_profile_new (void);

/* The children of @node noted before, or NULL; the array holds their
 * number, then the children. Any thread. */
const guint32 *_embers_profile_get_kids  (EmbersProfile *self,
                                          guint32        node);
/* Notes the @n children of @node (copied); the first note stays. */
void           _embers_profile_note_kids (EmbersProfile *self,
                                          guint32        node,
                                          const guint32 *kids,
                                          guint32        n);

/* Gives the profile self columns (n_types of n_nodes, column-major) that
 * its maker has at hand anyway, instead of computing them when asked. */
void           _embers_profile_take_self (EmbersProfile *self,
                                          gint64        *columns);

G_END_DECLS
