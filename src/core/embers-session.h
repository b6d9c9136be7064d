/* embers-session.h: a saved view (.embers file): where the profile comes
 * from and what the person did to it. The format is documented in
 * docs/session-format.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-transform-stack.h"

G_BEGIN_DECLS

#define EMBERS_SESSION_ERROR (embers_session_error_quark ())

typedef enum
{
  EMBERS_SESSION_ERROR_INVALID,      /* not a view file, or a broken one */
  EMBERS_SESSION_ERROR_VERSION,      /* written by a newer Embers */
  EMBERS_SESSION_ERROR_MISSING_FILE, /* a profile it names is not there */
} EmbersSessionError;

GQuark embers_session_error_quark (void);

/* The current version of the format (1: a profile file, two files, or
 * one server query; 2: a server's whole workspace). Older ones are read. */
#define EMBERS_SESSION_VERSION 2
/* Larger files are refused unread */
#define EMBERS_SESSION_MAX_SIZE (1024 * 1024)

/* One side of a workspace's comparison: a profile file, or a query on
 * the workspace's server. The two sides may differ: a file compared with
 * a query (either way round). */
typedef struct
{
  char   *file;           /* absolute path, or NULL for a query */
  char   *sample_type;    /* a file's sample type by name (NULL: its default) */
  char   *profile_type;   /* the query (with file NULL) */
  char   *selector;       /* the whole selector, service_name included */
  gint64  from_ms;
  gint64  until_ms;
} EmbersSessionSide;

EmbersSessionSide *embers_session_side_new  (void);
void               embers_session_side_free (EmbersSessionSide *side);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersSessionSide, embers_session_side_free)

typedef struct _EmbersSession EmbersSession;

struct _EmbersSession
{
  /* The source: one profile file, or a server query */
  char                 *file;           /* absolute path, or NULL */
  char                 *baseline_file;  /* a comparison: the baseline (file is the comparison) */
  char                 *server;         /* base URL, never with credentials */
  char                 *tenant;         /* with a server: X-Scope-OrgID, or NULL */
  char                 *profile_type;   /* the query, with a server (NULL: none picked) */
  /* The query's service and label filters. Reading fills all three;
   * writing takes service and filters, or else splits the selector. */
  char                 *selector;       /* the whole selector, service_name included */
  char                 *service;        /* or NULL */
  char                 *filters;        /* the rest ("{}" for none) */
  gint64                from_ms;        /* 0, 0: no range (no query) */
  gint64                until_ms;

  /* A server's workspace (version 2): the view shown
   * (EMBERS_WORKSPACE_VIEW_*: "services", "flame-graph", "labels",
   * "compare", "rules"); NULL for a version 1 server view, shown as the
   * flame graph */
  char                 *workspace_view;
  /* The individual profile picked on the chart, or NULL */
  char                 *profile_id;
  gint64                profile_time_ms;
  gint64                profile_value;
  /* The Compare view: both sides, or NULL when nothing was compared */
  EmbersSessionSide    *compare_baseline;
  EmbersSessionSide    *compare_comparison;
  char                 *diff_mode;      /* "share", "absolute" or NULL */
  EmbersSession        *diff;           /* the diff's view (its view fields only), or NULL */
  /* The Labels view (optional, written when has_labels): the label
   * picked, the view ("series", "total", "maximum", "histogram",
   * "table" or NULL), Same Scale, and the values marked as baseline
   * and comparison (each a label and its value, or NULL) */
  gboolean              has_labels;
  char                 *labels_label;
  char                 *labels_view;
  gboolean              labels_same_scale;   /* TRUE when left out */
  char                 *labels_baseline_label;
  char                 *labels_baseline_value;
  char                 *labels_comparison_label;
  char                 *labels_comparison_value;
  /* The Services view (optional, written when has_services): the filter
   * text (or NULL), whether it is a regular expression, the order
   * ("name", "total" or NULL) */
  gboolean              has_services;
  char                 *services_filter;
  gboolean              services_filter_regex;
  char                 *services_sort;

  /* The view */
  char                 *view;           /* "icicle", "flame", "bottom-up", "sandwich" */
  char                 *sample_type;    /* its name, or NULL */
  char                 *sandwich;       /* the sandwich's function, or NULL */
  EmbersTransformStack *transforms;     /* never NULL */
  GStrv                 focus;          /* the zoomed frame's path, or NULL */
  char                 *search;         /* or NULL */
  gboolean              search_regex;
  gboolean              search_case_sensitive;
};

EmbersSession *embers_session_new   (void);
void           embers_session_free  (EmbersSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersSession, embers_session_free)

/* A server URL as a view file keeps it: scheme, host, port and path only
 * (no user, password, query or fragment); NULL when not http(s) */
char          *embers_session_clean_url (const char *url);

/* Splits a selector into its service (the first service_name="…"
 * matcher, or NULL) and the other matchers (canonical, "{}" for none);
 * FALSE with @error when it does not parse */
gboolean       embers_session_split_selector (const char  *selector,
                                              char       **service,
                                              char       **filters,
                                              GError     **error);
/* The whole selector of @service (nullable) and @filters (nullable) */
char          *embers_session_join_selector  (const char  *service,
                                              const char  *filters,
                                              GError     **error);

/* The file's text (UTF-8 JSON, ending in a newline). The server URL is
 * cleaned again on the way: no credential ever lands in the file. */
char          *embers_session_to_data   (const EmbersSession *session,
                                         gsize               *length);

/* Reads a view file's text. Relative paths are taken from @dir (the
 * file's folder; NULL: the current one). Does not look at the disk. */
EmbersSession *embers_session_parse     (const char          *data,
                                         gsize                length,
                                         GFile               *dir,
                                         GError             **error);

/* Reads and parses @file and checks that the profiles it names exist:
 * EMBERS_SESSION_ERROR_MISSING_FILE names each missing one. Blocking:
 * for a worker thread. */
EmbersSession *embers_session_load      (GFile               *file,
                                         GCancellable        *cancellable,
                                         GError             **error);
/* Writes @session to @file (replacing it atomically). Blocking. */
gboolean       embers_session_save      (const EmbersSession *session,
                                         GFile               *file,
                                         GCancellable        *cancellable,
                                         GError             **error);

/* Whether @file's name ends in ".embers" */
gboolean       embers_session_is_session_file (GFile *file);

G_END_DECLS
