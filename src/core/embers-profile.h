/* embers-profile.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define EMBERS_PROFILE_ERROR (embers_profile_error_quark ())

/**
 * EmbersProfileError:
 * @EMBERS_PROFILE_ERROR_INVALID: the data is corrupt or inconsistent
 * @EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT: the data is in no format we read
 * @EMBERS_PROFILE_ERROR_TOO_LARGE: a size limit was hit (decompressed size, node count)
 * @EMBERS_PROFILE_ERROR_EMPTY: there is nothing in the data
 * @EMBERS_PROFILE_ERROR_UNSUPPORTED: valid input we cannot represent or write
 */
typedef enum
{
  EMBERS_PROFILE_ERROR_INVALID,
  EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT,
  EMBERS_PROFILE_ERROR_TOO_LARGE,
  EMBERS_PROFILE_ERROR_EMPTY,
  EMBERS_PROFILE_ERROR_UNSUPPORTED,
} EmbersProfileError;

GQuark embers_profile_error_quark (void);

/* Returned by embers_profile_node_parent() for the root. */
#define EMBERS_NODE_NONE G_MAXUINT32

/**
 * EmbersLabel:
 * @key: string id of the label name
 * @str: string id of the value, or 0 for a numeric label
 * @num: numeric value (when @str is 0)
 * @num_unit: string id of the numeric unit, or 0
 *
 * One label of a sample. String ids index the profile's string pool;
 * id 0 is always the empty string.
 */
typedef struct
{
  guint32 key;
  guint32 str;
  gint64  num;
  guint32 num_unit;
} EmbersLabel;

#define EMBERS_TYPE_PROFILE (embers_profile_get_type ())

G_DECLARE_FINAL_TYPE (EmbersProfile, embers_profile, EMBERS, PROFILE, GObject)

/* Strings (frame names, file names, label keys and values, units) */
guint          embers_profile_get_n_strings           (EmbersProfile *self);
const char    *embers_profile_get_string              (EmbersProfile *self,
                                                       guint32        string_id);

/* Sample types: one value column each, sharing one tree */
guint          embers_profile_get_n_sample_types      (EmbersProfile *self);
const char    *embers_profile_get_sample_type         (EmbersProfile *self,
                                                       guint          index);
const char    *embers_profile_get_sample_unit         (EmbersProfile *self,
                                                       guint          index);
guint          embers_profile_get_default_sample_type (EmbersProfile *self);
int            embers_profile_find_sample_type        (EmbersProfile *self,
                                                       const char    *type);
const char    *embers_profile_get_period_type         (EmbersProfile *self);
const char    *embers_profile_get_period_unit         (EmbersProfile *self);
gint64         embers_profile_get_period              (EmbersProfile *self);
gint64         embers_profile_get_time_nanos          (EmbersProfile *self);
gint64         embers_profile_get_duration_nanos      (EmbersProfile *self);
gboolean       embers_profile_is_diff                 (EmbersProfile *self);

/* The call tree, flat, in DFS pre-order. Node 0 is the root (name "total").
 * The subtree of node i is [i, end(i)). Children are sorted by name. */
guint          embers_profile_get_n_nodes             (EmbersProfile *self);
guint          embers_profile_get_max_depth           (EmbersProfile *self);
guint32        embers_profile_node_name               (EmbersProfile *self,
                                                       guint32        node);
const char    *embers_profile_node_name_str           (EmbersProfile *self,
                                                       guint32        node);
guint32        embers_profile_node_parent             (EmbersProfile *self,
                                                       guint32        node);
guint32        embers_profile_node_end                (EmbersProfile *self,
                                                       guint32        node);
guint          embers_profile_node_depth              (EmbersProfile *self,
                                                       guint32        node);
gint64         embers_profile_node_self               (EmbersProfile *self,
                                                       guint          sample_type,
                                                       guint32        node);
gint64         embers_profile_node_total              (EmbersProfile *self,
                                                       guint          sample_type,
                                                       guint32        node);
gint64         embers_profile_get_total               (EmbersProfile *self,
                                                       guint          sample_type);

/* Direct column access for hot loops; arrays have n_nodes entries. */
const guint32 *embers_profile_get_name_column         (EmbersProfile *self);
const guint32 *embers_profile_get_parent_column       (EmbersProfile *self);
const guint32 *embers_profile_get_end_column          (EmbersProfile *self);
const guint16 *embers_profile_get_depth_column        (EmbersProfile *self);
const gint64  *embers_profile_get_self_column         (EmbersProfile *self,
                                                       guint          sample_type);
const gint64  *embers_profile_get_total_column        (EmbersProfile *self,
                                                       guint          sample_type);

/* Function metadata, keyed by name string id (0 when unknown) */
guint32        embers_profile_get_name_file           (EmbersProfile *self,
                                                       guint32        name_id);
gint64         embers_profile_get_name_line           (EmbersProfile *self,
                                                       guint32        name_id);

/* Samples with labels. Only kept when some sample carries labels; samples
 * with equal leaf and label set are merged. Label set 0 is the empty set. */
guint          embers_profile_get_n_samples           (EmbersProfile *self);
guint32        embers_profile_sample_node             (EmbersProfile *self,
                                                       guint          sample);
guint32        embers_profile_sample_label_set        (EmbersProfile *self,
                                                       guint          sample);
gint64         embers_profile_sample_value            (EmbersProfile *self,
                                                       guint          sample,
                                                       guint          sample_type);
guint          embers_profile_get_n_label_sets        (EmbersProfile *self);
const EmbersLabel *embers_profile_get_label_set       (EmbersProfile *self,
                                                       guint32        label_set,
                                                       guint         *n_labels);

/* Helpers */
char          *embers_profile_node_stack              (EmbersProfile *self,
                                                       guint32        node,
                                                       const char    *separator);
gsize          embers_profile_get_memory_size         (EmbersProfile *self);

G_END_DECLS
