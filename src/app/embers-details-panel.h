/* embers-details-panel.h: the selected function's lines, source and calls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <gtksourceview/gtksource.h>

#include "embers-cost-gutter.h"
#include "embers-function-details.h"
#include "embers-profile.h"
#include "embers-transform-stack.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_DETAILS_PANEL (embers_details_panel_get_type ())

G_DECLARE_FINAL_TYPE (EmbersDetailsPanel, embers_details_panel, EMBERS, DETAILS_PANEL, GtkWidget)

EmbersDetailsPanel    *embers_details_panel_new            (void);

/* Shows function @name of @profile. @file (nullable) is the profile's
 * file: when it is pprof, its lines are read from it off the main thread;
 * otherwise the panel shows what the tree knows (totals, callers,
 * callees). The source file is then looked for under the source roots. */
void                   embers_details_panel_show_function  (EmbersDetailsPanel *self,
                                                            EmbersProfile      *profile,
                                                            guint               sample_type,
                                                            const char         *name,
                                                            GFile              *file);
/* The same over the view @view (a transform stack, copied; NULL: none)
 * made of the data: @profile is the view's (transformed) profile, and the
 * lines read from @file, or given by set_pprof(), are counted over the
 * stacks as the view shows them. Where the view makes per-line figures
 * approximate, the panel says so (view-note). */
void                   embers_details_panel_show_view_function (EmbersDetailsPanel         *self,
                                                                EmbersProfile              *profile,
                                                                const EmbersTransformStack *view,
                                                                guint                       sample_type,
                                                                const char                 *name,
                                                                GFile                      *file);
const char            *embers_details_panel_get_function   (EmbersDetailsPanel *self);
/* Whether a server's call site taken from the shown view is one the
 * server has (the view only drops samples). When not, the panel says
 * that the server cannot give lines for it, and FALSE is returned. */
gboolean               embers_details_panel_can_query_call_site (EmbersDetailsPanel *self);
/* The selected frame whose figures a source can give (a server: the
 * stacks through that call site), root first; NULL: no frame. Set after
 * show_*function(); "call-site" is notified then, and whenever the frame
 * changes, never for the very frame shown. The figures stay the
 * function's, from every caller, until set_pprof() gives the call
 * site's; the panel says which (get_shown_call_site). */
/* The function shown next is a cut answer's `other` frames, in @n_places
 * places (0: a function): the panel says it is no function, and no call
 * site of it is asked for */
void                   embers_details_panel_set_cut_off   (EmbersDetailsPanel *self,
                                                           guint               n_places);
void                   embers_details_panel_set_call_site (EmbersDetailsPanel *self,
                                                           const char * const *call_site);
const char * const    *embers_details_panel_get_call_site (EmbersDetailsPanel *self);
/* The call site the figures are of, or NULL: every call of the function */
const char * const    *embers_details_panel_get_shown_call_site (EmbersDetailsPanel *self);
/* A source fetching the lines the panel will be given (set_pprof): the
 * panel is busy from hold to its matching release, whatever the answer */
void                   embers_details_panel_hold     (EmbersDetailsPanel *self);
void                   embers_details_panel_release  (EmbersDetailsPanel *self);
/* What the figures are of, when the view is transformed, or NULL */
const char            *embers_details_panel_get_view_note  (EmbersDetailsPanel *self);
/* The lines of function @name from pprof bytes that hold its stacks (a
 * server's merged profile through the panel's call site, as it is now);
 * ignored when the panel shows another function by now */
void                   embers_details_panel_set_pprof      (EmbersDetailsPanel *self,
                                                            const char         *name,
                                                            GBytes             *pprof,
                                                            guint               sample_type);

/* Source roots are saved per service: @key names it ("" for local files,
 * else the server and service) */
void                   embers_details_panel_set_source_key (EmbersDetailsPanel *self,
                                                            const char         *key);
void                   embers_details_panel_add_root       (EmbersDetailsPanel *self,
                                                            const char         *path);
void                   embers_details_panel_remove_root    (EmbersDetailsPanel *self,
                                                            const char         *path);

/* TRUE while lines, the source file or its git state are being read */
gboolean               embers_details_panel_get_busy       (EmbersDetailsPanel *self);
EmbersFunctionDetails *embers_details_panel_get_details    (EmbersDetailsPanel *self);
/* The source file shown, or NULL */
const char            *embers_details_panel_get_source_path (EmbersDetailsPanel *self);
/* The warning that the checkout is at another commit than the profile's, or NULL */
const char            *embers_details_panel_get_git_warning (EmbersDetailsPanel *self);
GtkSourceView         *embers_details_panel_get_source_view (EmbersDetailsPanel *self);
EmbersCostGutter      *embers_details_panel_get_gutter     (EmbersDetailsPanel *self);

G_END_DECLS
