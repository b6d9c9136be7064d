/* embers-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-application.h"
#include "embers-profile-page.h"

#include "embers-connect-client.h"
#include "embers-connect-dialog.h"
#include "embers-pyroscope-source.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_WINDOW (embers_window_get_type ())

G_DECLARE_FINAL_TYPE (EmbersWindow, embers_window, EMBERS, WINDOW, AdwApplicationWindow)

EmbersWindow      *embers_window_new              (EmbersApplication *application);
/* Opens @file in a new tab and starts loading it */
EmbersProfilePage *embers_window_open_file        (EmbersWindow      *self,
                                                   GFile             *file);
/* The sample profile installed with the application (or the bundled copy) */
EmbersProfilePage *embers_window_open_sample      (EmbersWindow      *self);
EmbersProfilePage *embers_window_get_current_page (EmbersWindow      *self);
guint              embers_window_get_n_pages      (EmbersWindow      *self);
/* Whether the warm-up after the window's first frame is over: the GPU
 * renderer's shader programs made (none with the cairo renderer) and a
 * profile page made ahead for the next file (embers-window-warm.c) */
gboolean           embers_window_get_renderer_warm (EmbersWindow     *self);
void               embers_window_add_toast        (EmbersWindow      *self,
                                                   const char        *message);
/* Baseline and comparison files in a compare tab (an EmbersComparePage),
 * compared at once */
GtkWidget         *embers_window_open_comparison  (EmbersWindow      *self,
                                                   GFile             *baseline,
                                                   GFile             *comparison);
/* An empty compare tab (New Comparison…) */
GtkWidget         *embers_window_open_compare     (EmbersWindow      *self);
/* Explores a source (a Pyroscope server) in a new tab: a workspace
 * (embers-workspace.h) of four views on one query; returns its flame
 * graph view */
GtkWidget         *embers_window_open_explore     (EmbersWindow      *self,
                                                   EmbersSource      *source,
                                                   const char        *url);
/* A folder of profiles as a local source in an explore tab (services,
 * types, labels and times from the files) */
GtkWidget         *embers_window_open_folder      (EmbersWindow      *self,
                                                   GFile             *folder);
/* A server's recording rules: its open tab (reloaded) if there is one for
 * the same server and tenant, else a new tab */
GtkWidget         *embers_window_open_rules       (EmbersWindow      *self,
                                                   EmbersConnectClient *client);
/* The same with the source whose dialogs and probe the rules tab shares */
GtkWidget         *embers_window_show_rules       (EmbersWindow      *self,
                                                   EmbersSource      *source);
/* After a rule changed elsewhere: the server's rules tab, if open, reloads */
void               embers_window_reload_rules     (EmbersWindow      *self,
                                                   EmbersSource      *source);
/* Shows the connect dialog; with a URL it connects at once */
EmbersConnectDialog *embers_window_connect        (EmbersWindow      *self,
                                                   const char        *url);
/* A compare tab on @source with both sides prefilled as queries (either
 * may be NULL); runs Compare when @start */
GtkWidget         *embers_window_open_compare_queries (EmbersWindow      *self,
                                                       EmbersSource      *source,
                                                       const EmbersQuery *baseline,
                                                       const EmbersQuery *comparison,
                                                       gboolean           start);
/* The file behind "Open Sample Profile" */
GFile             *embers_window_get_sample_file  (void);

/* The Labels view of the explore page's workspace, shown (NULL, with a
 * toast, before a service and a type are picked) */
struct _EmbersExplorePage;
GtkWidget         *embers_window_open_labels      (EmbersWindow      *self,
                                                   struct _EmbersExplorePage *from);

/* A regressions tab (embers-window-regressions.c): Open Diff in it opens
 * a compare tab */
struct _EmbersRegressionsPage;
GtkWidget         *embers_window_open_regressions (EmbersWindow      *self,
                                                   struct _EmbersRegressionsPage *page);

/* The CPU profile of a span (16 hexadecimal digits) or trace (32) on
 * @source over the last hour, in a new tab (embers-window-spans.c) */
EmbersProfilePage *embers_window_open_span        (EmbersWindow      *self,
                                                   EmbersPyroscopeSource *source,
                                                   const char        *id);

/* Writes the current tab's view to @file (a view file, .embers added
 * when missing), off the main thread; a toast says how it went. What
 * Save View… does once a file is chosen. */
void               embers_window_save_view_to     (EmbersWindow      *self,
                                                   GFile             *file);

G_END_DECLS
