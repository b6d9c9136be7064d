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

/* The current version of the format */
#define EMBERS_SESSION_VERSION 1
/* Larger files are refused unread */
#define EMBERS_SESSION_MAX_SIZE (1024 * 1024)

typedef struct
{
  /* The source: one profile file, or a server query */
  char                 *file;           /* absolute path, or NULL */
  char                 *baseline_file;  /* a comparison: the baseline (file is the comparison) */
  char                 *server;         /* base URL, never with credentials */
  char                 *profile_type;   /* the query, with a server */
  char                 *selector;
  gint64                from_ms;
  gint64                until_ms;

  /* The view */
  char                 *view;           /* "icicle", "flame", "bottom-up", "sandwich" */
  char                 *sample_type;    /* its name, or NULL */
  char                 *sandwich;       /* the sandwich's function, or NULL */
  EmbersTransformStack *transforms;     /* never NULL */
  GStrv                 focus;          /* the zoomed frame's path, or NULL */
  char                 *search;         /* or NULL */
  gboolean              search_regex;
  gboolean              search_case_sensitive;
} EmbersSession;

EmbersSession *embers_session_new   (void);
void           embers_session_free  (EmbersSession *session);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersSession, embers_session_free)

/* A server URL as a view file keeps it: scheme, host, port and path only
 * (no user, password, query or fragment); NULL when not http(s) */
char          *embers_session_clean_url (const char *url);

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
