/* embers-export.h: writing what a page shows, off the main thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-flame-graph.h"
#include "embers-format.h"

G_BEGIN_DECLS

/*
 * EmbersExport captures, on the main thread, everything needed to write
 * one export (immutable profiles, options copied from the widgets), then
 * runs on any thread. Images (PNG, SVG, PDF) go through the core painter;
 * with two graphs (the sandwich view) they are stacked in one image. The
 * data formats (pprof, folded, JSON) write the given profile. Every format
 * is written whole or not at all (EmbersSave): a temporary file in the
 * target's folder, flushed, renamed over the target; errors say why.
 */
typedef struct _EmbersExport EmbersExport;

/* The format comes from the file name; an unknown one is an error */
EmbersExport *embers_export_new         (GFile             *file,
                                         guint              sample_type,
                                         GError           **error);
EmbersFormat  embers_export_get_format  (EmbersExport      *self);
/* Images (PNG, SVG, PDF) this many pixels wide, laid out for that width
 * (the height follows); 0: as wide as on screen */
void          embers_export_set_width   (EmbersExport      *self,
                                         int                width);
void          embers_export_add_graph   (EmbersExport      *self,
                                         EmbersFlameGraph  *graph);
/* An image of @profile drawn with @options (NULL: the defaults), without
 * a widget (the command line) */
void          embers_export_add_profile (EmbersExport              *self,
                                         EmbersProfile              *profile,
                                         guint                       sample_type,
                                         const EmbersExportOptions  *options);
void          embers_export_set_profile (EmbersExport      *self,
                                         EmbersProfile     *profile);
gboolean      embers_export_run         (EmbersExport      *self,
                                         GCancellable      *cancellable,
                                         GError           **error);
void          embers_export_free        (EmbersExport      *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersExport, embers_export_free)

G_END_DECLS
