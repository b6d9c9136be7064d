/* embers-query-model.h: the query a workspace's views share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "embers-selector.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_SERVICE_LABEL "service_name"
#define EMBERS_PROFILE_TYPE_LABEL "__profile_type__"

/* A snapshot of a query model, for history and for telling whether an
 * answer still belongs to the query on screen */
typedef struct
{
  char   *service;       /* or NULL */
  char   *profile_type;  /* or NULL */
  char   *filters;       /* canonical selector of the label filters ("{}") */
  gint64  preset_s;      /* 0: an absolute range */
  gint64  start_ms;
  gint64  end_ms;
} EmbersQueryState;

#define EMBERS_TYPE_QUERY_STATE (embers_query_state_get_type ())
GType             embers_query_state_get_type (void) G_GNUC_CONST;
EmbersQueryState *embers_query_state_copy     (const EmbersQueryState *state);
void              embers_query_state_free     (EmbersQueryState       *state);
/* Same service, type, filters and range kind; a preset range equals
 * whatever its start and end (it follows now) */
gboolean          embers_query_state_equal    (const EmbersQueryState *a,
                                               const EmbersQueryState *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersQueryState, embers_query_state_free)

#define EMBERS_TYPE_QUERY_MODEL (embers_query_model_get_type ())

G_DECLARE_FINAL_TYPE (EmbersQueryModel, embers_query_model, EMBERS, QUERY_MODEL, GObject)

/*
 * EmbersQueryModel: one query on one source, shared by the views of a
 * workspace (flame graph, labels, compare, recording rules): a service, a
 * profile type, label filters (service_name is the service's, never a
 * filter) and a time range, either a preset (the last N seconds, moved to
 * now by embers_query_model_refresh()) or absolute.
 *
 * Each property notifies when it changes. The "changed" signal follows
 * once per change of the query as a whole (a setter, or a batch between
 * embers_query_model_begin_update() and _end_update()), and every change
 * raises the "generation": an answer asked for at one generation belongs
 * to the query on screen only while the generation is the same.
 *
 * Properties: source (construct-only), service, profile-type, filters
 * (EmbersSelector), selector (read-only: filters and service),
 * preset (seconds, 0 for absolute), start-ms, end-ms, complete (read-only:
 * a service and a type are set), generation (read-only).
 */

EmbersQueryModel *embers_query_model_new             (EmbersSource     *source);

EmbersSource     *embers_query_model_get_source      (EmbersQueryModel *self);

const char       *embers_query_model_get_service     (EmbersQueryModel *self);
void              embers_query_model_set_service     (EmbersQueryModel *self,
                                                      const char       *service);
const char       *embers_query_model_get_profile_type (EmbersQueryModel *self);
void              embers_query_model_set_profile_type (EmbersQueryModel *self,
                                                       const char       *profile_type);

/* The label filters, without service_name (never NULL; do not change it) */
EmbersSelector   *embers_query_model_get_filters     (EmbersQueryModel *self);
/* Replaces the filters with a copy of @filters (NULL: none); a
 * service_name matcher in them is dropped (the service is its own
 * property) */
void              embers_query_model_set_filters     (EmbersQueryModel *self,
                                                      EmbersSelector   *filters);
/* Replaces the filter on @name (one per name); FALSE with @error when
 * @value does not fit @op, or @name is service_name */
gboolean          embers_query_model_add_filter      (EmbersQueryModel *self,
                                                      const char       *name,
                                                      EmbersMatchOp     op,
                                                      const char       *value,
                                                      GError          **error);
/* FALSE when there was no filter on @name */
gboolean          embers_query_model_remove_filter   (EmbersQueryModel *self,
                                                      const char       *name);

/* The whole selector: {service_name="api",region="eu"} */
char             *embers_query_model_dup_selector    (EmbersQueryModel *self);
/* The query, or NULL until a service and a type are set */
EmbersQuery      *embers_query_model_dup_query       (EmbersQueryModel *self);
gboolean          embers_query_model_get_complete    (EmbersQueryModel *self);

/* Time range. A preset (seconds back from now) follows now on refresh;
 * an absolute range stays. */
void              embers_query_model_set_preset      (EmbersQueryModel *self,
                                                      gint64            seconds);
gint64            embers_query_model_get_preset      (EmbersQueryModel *self);
/* A preset whose range ends at @end_ms (what a view asked for at that
 * time), rather than now */
void              embers_query_model_set_preset_at   (EmbersQueryModel *self,
                                                      gint64            seconds,
                                                      gint64            end_ms);
void              embers_query_model_set_time_range  (EmbersQueryModel *self,
                                                      gint64            start_ms,
                                                      gint64            end_ms);
gint64            embers_query_model_get_start_ms    (EmbersQueryModel *self);
gint64            embers_query_model_get_end_ms      (EmbersQueryModel *self);
/* Asks everything again: a preset range moves to now; "changed" is
 * emitted (and the generation raised) even when nothing else changed */
void              embers_query_model_refresh         (EmbersQueryModel *self);
/* The clock presets follow (ms since the epoch); for tests. NULL: the
 * real time. */
typedef gint64 (*EmbersClockFunc) (gpointer user_data);
void              embers_query_model_set_clock       (EmbersQueryModel *self,
                                                      EmbersClockFunc   clock,
                                                      gpointer          user_data);

/* Several changes as one: "changed" once at the end (nested calls fine) */
void              embers_query_model_begin_update    (EmbersQueryModel *self);
void              embers_query_model_end_update      (EmbersQueryModel *self);

guint             embers_query_model_get_generation  (EmbersQueryModel *self);

EmbersQueryState *embers_query_model_dup_state       (EmbersQueryModel *self);
/* Applies a snapshot as one change (a preset moves to now) */
void              embers_query_model_set_state       (EmbersQueryModel *self,
                                                      const EmbersQueryState *state);

/* A short name for the query's tab and title: "checkout · cpu" (the
 * service and the profile type's sample type), the service alone before a
 * type is set, or NULL before a service is */
char             *embers_query_model_dup_short_name  (EmbersQueryModel *self);
/* A file name for an export of the query, without extension, safe on
 * every file system: service, sample type and the range's end in local
 * time, "checkout_cpu_2026-11-26_0126" (NULL before a service is set) */
char             *embers_query_model_dup_file_stem   (EmbersQueryModel *self);
/* @text with every character a file name should not hold (path
 * separators, quotes, braces, colons, control characters…) as "_", runs
 * of them as one, and no leading dot or trailing space; "profile" when
 * nothing is left */
char             *embers_file_name_make_safe         (const char       *text);
/* The profile type for people: "process_cpu · cpu (nanoseconds)" */
char             *embers_profile_type_describe       (const char       *id);

G_END_DECLS
