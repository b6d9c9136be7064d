/* embers-renderer.h: the GSK renderer Embers' windows draw with
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  EMBERS_RENDERER_DEFAULT,   /* GTK's own choice (a GPU, or no GL at all) */
  EMBERS_RENDERER_USER,      /* GSK_RENDERER was set: the user's choice */
  EMBERS_RENDERER_CAIRO,     /* software GL found: cairo chosen */
} EmbersRendererChoice;

/* Before @display's first window is realized: where GL is drawn in
 * software (Mesa's llvmpipe or softpipe: a VM, a remote desktop, Xvfb),
 * Embers' windows draw with GTK's cairo renderer, which repaints the flame
 * graph in a third to a half of the time (bench-window). GSK_RENDERER, when
 * set, is left to decide. @gl_renderer receives GL's renderer string when
 * GL was asked (may be NULL). Only @display's own setting is changed: the
 * environment, and so the programs Embers starts, are not. */
EmbersRendererChoice embers_renderer_choose       (GdkDisplay *display,
                                                   char      **gl_renderer);

/* Whether a GL renderer string names a software rasterizer */
gboolean             embers_renderer_is_software (const char *gl_renderer);

G_END_DECLS
