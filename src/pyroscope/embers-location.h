/* embers-location.h: is this a file or a query URL, in one place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a person hands Embers (a command-line argument, a file from the
 * Open dialog, GApplication::open, drag-and-drop, a compare side) is a
 * profile file or a Pyroscope query URL (embers-query-url.h). Everything
 * that takes one decides here and loads through here.
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile.h"

G_BEGIN_DECLS

typedef enum
{
  EMBERS_LOCATION_FILE,
  EMBERS_LOCATION_QUERY_URL,
} EmbersLocationKind;

/* A command-line argument or a URI: http:// and https:// are query URLs,
 * everything else (a path, file://, another scheme gio reads) a file */
EmbersLocationKind embers_location_classify       (const char    *text);
/* The query URL a GFile stands for (an http(s) URI that is no local
 * file), or NULL when it is a file */
char              *embers_location_dup_query_url  (GFile         *file);
/* The same for a GFile (what GApplication::open, the Open dialog and
 * drag-and-drop give) */
EmbersLocationKind embers_location_classify_file  (GFile         *file);
/* The GFile for a command-line argument (a query URL becomes a GFile of
 * its URI, which embers_location_dup_query_url() gives back) */
GFile             *embers_location_new_for_arg    (const char    *text);
/* The profile at @file: a query URL's merged flame graph (blocking: for
 * threads and the command line), or the file parsed */
EmbersProfile     *embers_location_load           (GFile         *file,
                                                   GCancellable  *cancellable,
                                                   GError       **error);
/* The same on a worker thread */
void               embers_location_load_async     (GFile               *file,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
EmbersProfile     *embers_location_load_finish    (GAsyncResult        *result,
                                                   GError             **error);

G_END_DECLS
