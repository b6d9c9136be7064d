/* embers-renderer.c: cairo where GL is drawn in software
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK picks its GL renderer wherever GL works, Mesa's software rasterizers
 * included. A flame graph repaints a texture the size of the graph after
 * every zoom or pan step: llvmpipe samples it pixel by pixel on the CPU,
 * and then the window is copied to the X server. On this project's 2-core
 * machine under Xvfb (bench-window, big100k, 1369x978 px graph) a zoom
 * step's frame took 13-18 ms with software GL and 4-7 ms with GTK's cairo
 * renderer, which draws the same picture straight into the window's
 * buffer. With a real GPU the GL renderer stays.
 *
 * GSK asks a display for a renderer name (its "gsk-renderer" data) before
 * it looks at GSK_RENDERER; that is how the choice is made for the windows
 * of one display without touching the environment inherited by the
 * programs Embers starts (an editor, a browser).
 */

#include "config.h"

#include <string.h>
#include <epoxy/gl.h>

#include "embers-renderer.h"

gboolean
embers_renderer_is_software (const char *gl_renderer)
{
  static const char * const names[] = { "llvmpipe", "softpipe", "swrast", "Software Rasterizer" };

  if (gl_renderer == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strstr (gl_renderer, names[i]) != NULL)
      return TRUE;
  return FALSE;
}

EmbersRendererChoice
embers_renderer_choose (GdkDisplay *display,
                        char      **gl_renderer)
{
  g_autoptr(GdkGLContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  gboolean software;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), EMBERS_RENDERER_DEFAULT);

  if (gl_renderer != NULL)
    *gl_renderer = NULL;
  if (g_getenv ("GSK_RENDERER") != NULL)
    return EMBERS_RENDERER_USER;
  /* No GL: GTK falls back to cairo itself */
  if (!gdk_display_prepare_gl (display, &error))
    {
      g_debug ("No GL (%s): GTK's own renderer", error->message);
      return EMBERS_RENDERER_DEFAULT;
    }
  context = gdk_display_create_gl_context (display, &error);
  if (context == NULL || !gdk_gl_context_realize (context, &error))
    {
      g_debug ("No GL context (%s): GTK's own renderer", error ? error->message : "?");
      return EMBERS_RENDERER_DEFAULT;
    }
  gdk_gl_context_make_current (context);
  name = (const char *) glGetString (GL_RENDERER);
  software = embers_renderer_is_software (name);
  if (gl_renderer != NULL)
    *gl_renderer = g_strdup (name);
  g_debug ("GL renderer: %s", name != NULL ? name : "(none)");
  gdk_gl_context_clear_current ();
  if (!software)
    return EMBERS_RENDERER_DEFAULT;
  g_object_set_data_full (G_OBJECT (display), "gsk-renderer", g_strdup ("cairo"), g_free);
  return EMBERS_RENDERER_CAIRO;
}
