/* ets-store.h: the test server's profiles (generated demo data + ingested)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every stack of every profile is a node of one trie of frame names (node 0
 * is the root "total"; a parent's id is always smaller than its children's).
 * A series is one label set (with __profile_type__ and service_name) and its
 * samples: either generated from the data folder's manifest (a value per
 * stack per step, see tests/server/data/README.md) or ingested ones.
 */

#pragma once

#include <glib.h>

#include "ets-selector.h"

G_BEGIN_DECLS

typedef struct
{
  char *id;            /* name:sample_type:sample_unit:period_type:period_unit */
  char *name;
  char *sample_type;
  char *sample_unit;
  char *period_type;
  char *period_unit;
} EtsProfileType;

/* Pyroscope's rule: 5 colon-separated parts (a 6th tolerated), the period
 * parts may be empty. Error: invalid_argument with Pyroscope's message. */
EtsProfileType *ets_profile_type_parse (const char     *id,
                                        GError        **error);
void            ets_profile_type_free  (EtsProfileType *type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtsProfileType, ets_profile_type_free)

typedef struct
{
  char *name;
  char *value;
} EtsLabel;

typedef struct _EtsSeries EtsSeries;
typedef struct _EtsStore EtsStore;

/* fixed_now_ms: 0 = the clock */
EtsStore       *ets_store_new              (gint64       fixed_now_ms);
void            ets_store_free             (EtsStore    *self);
/* Loads DIR/manifest.json and the folded files it names */
gboolean        ets_store_load             (EtsStore    *self,
                                            const char  *dir,
                                            GError     **error);
gint64          ets_store_now_ms           (EtsStore    *self);

/* ---- trie ---- */
guint           ets_store_get_n_nodes      (EtsStore    *self);
guint32         ets_store_node_parent      (EtsStore    *self,
                                            guint32      node);
const char     *ets_store_node_name        (EtsStore    *self,
                                            guint32      node);
guint32         ets_store_node_name_id     (EtsStore    *self,
                                            guint32      node);
guint           ets_store_node_depth       (EtsStore    *self,
                                            guint32      node);
guint32         ets_store_child            (EtsStore    *self,
                                            guint32      parent,
                                            const char  *name);

/* ---- series ---- */
guint           ets_store_get_n_series     (EtsStore    *self);
EtsSeries      *ets_store_get_series       (EtsStore    *self,
                                            guint        index);
/* Finds or makes the series of tenant with these labels (name/value pairs,
 * must include __profile_type__ and service_name) */
EtsSeries      *ets_store_ensure_series    (EtsStore    *self,
                                            const char  *tenant,
                                            GPtrArray   *labels);
/* Adds one ingested sample: n stacks given as trie leaves and values */
void            ets_series_add_sample      (EtsSeries    *series,
                                            gint64        time_ms,
                                            const guint32 *nodes,
                                            const gint64  *values,
                                            guint         n);

/* The same, with each stack's span and trace ids, lowercase hex (pprof
 * sample labels span_id, profile_id and trace_id; NULL entries: none) */
void            ets_series_add_sample_ids  (EtsSeries          *series,
                                            gint64              time_ms,
                                            const guint32      *nodes,
                                            const gint64       *values,
                                            const char * const *spans,
                                            const char * const *traces,
                                            guint               n);

/* Labels sorted by name */
GPtrArray      *ets_series_get_labels      (EtsSeries   *series);
const char     *ets_series_get_label       (EtsSeries   *series,
                                            const char  *name);
const char     *ets_series_lookup          (gpointer     series,
                                            const char  *name);
/* Demo data is visible to every tenant; ingested data to its tenant.
 * tenant may be "a|b" (a multi-tenant read). */
gboolean        ets_series_visible         (EtsSeries   *series,
                                            const char  *tenant);
/* Has a sample in [start_ms, end_ms] (0, 0 = any time) */
gboolean        ets_series_has_data        (EtsStore    *self,
                                            EtsSeries   *series,
                                            gint64       start_ms,
                                            gint64       end_ms);

/* Adds the self values of the samples in [start_ms, end_ms] to self_values
 * (one per trie node, ets_store_get_n_nodes long). keep: per trie node,
 * whether its own self value counts, or NULL for all. Returns how many
 * samples (profiles) were added. */
guint64         ets_series_merge           (EtsStore    *self,
                                            EtsSeries   *series,
                                            gint64       start_ms,
                                            gint64       end_ms,
                                            const guint8 *keep,
                                            gint64      *self_values);

/* ets_series_merge() of the stacks whose span id is in @spans and whose
 * trace id is in @traces (sets of lowercase hex strings; NULL: any) */
guint64         ets_series_merge_ids       (EtsStore     *self,
                                            EtsSeries    *series,
                                            gint64        start_ms,
                                            gint64        end_ms,
                                            const guint8 *keep,
                                            GHashTable   *spans,
                                            GHashTable   *traces,
                                            gint64       *self_values);

/* ets_series_merge() of the individual profiles whose id is in @ids (a
 * set of lowercase UUIDs; Pyroscope's profile_id_selector) */
guint64         ets_series_merge_profiles  (EtsStore     *self,
                                            EtsSeries    *series,
                                            gint64        start_ms,
                                            gint64        end_ms,
                                            const guint8 *keep,
                                            GHashTable   *ids,
                                            gint64       *self_values);

/* A profile id: a UUID, 36 characters */
#define ETS_PROFILE_ID_LEN 36

typedef void (*EtsSampleFunc) (gint64      time_ms,
                               gint64      value,
                               const char *profile_id,
                               gpointer    user_data);
/* Calls func for each sample (an individual profile) in [start_ms,
 * end_ms] in time order with the sum of its (kept) stack values and its
 * id: ingested ones a random UUID each, generated steps a name-based UUID
 * of their series and step */
void            ets_series_foreach_sample  (EtsStore    *self,
                                            EtsSeries   *series,
                                            gint64       start_ms,
                                            gint64       end_ms,
                                            const guint8 *keep,
                                            EtsSampleFunc func,
                                            gpointer     user_data);

/* The profile types seen in the store, for checks */
gboolean        ets_store_has_profile_type (EtsStore    *self,
                                            const char  *id);

G_END_DECLS
