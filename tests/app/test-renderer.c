/* test-renderer.c: the renderer Embers picks (embers-renderer.c): cairo
 * where GL is drawn in software, GTK's choice with a GPU, and the user's
 * GSK_RENDERER before either
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "embers-layout.h"
#include "embers-renderer.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

static void
test_names (void)
{
  /* Mesa's software rasterizers, as glGetString (GL_RENDERER) gives them */
  g_assert_true (embers_renderer_is_software ("llvmpipe (LLVM 19.1.7, 256 bits)"));
  g_assert_true (embers_renderer_is_software ("softpipe"));
  g_assert_true (embers_renderer_is_software ("Software Rasterizer"));
  g_assert_true (embers_renderer_is_software ("Mesa X11 swrast"));
  /* GPUs: radeonsi names LLVM too, and is not software */
  g_assert_false (embers_renderer_is_software ("AMD Radeon RX 6600 (radeonsi, navi23, LLVM 19.1.7, DRM 3.57, 6.12.0)"));
  g_assert_false (embers_renderer_is_software ("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
  g_assert_false (embers_renderer_is_software ("NVIDIA GeForce RTX 3060/PCIe/SSE2"));
  g_assert_false (embers_renderer_is_software (NULL));
}

/* A window showing a profile: the renderer it got, and whether the flame
 * graph is drawn (its root row in colour, the empty rows below not) */
static const char *
open_and_draw (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", "cpu-recursion.pb.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  EmbersWindow *window = embers_window_new (NULL);
  EmbersProfilePage *page;
  EmbersFlameGraph *graph;
  EmbersTestPixels *pixels;
  EmbersLayout *layout;
  const EmbersRect *root;
  graphene_rect_t row, empty;
  const char *renderer;
  int height;

  embers_test_present_window (GTK_WINDOW (window), 1000, 700);
  page = embers_window_open_file (window, file);
  embers_test_wait_while (embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING ||
                          embers_profile_page_get_busy (page));
  embers_test_settle ();
  graph = embers_profile_page_get_flame_graph (page);
  layout = embers_flame_graph_get_layout (graph);
  root = embers_layout_get_rect (layout, embers_layout_find_node (layout, 0));
  height = gtk_widget_get_height (GTK_WIDGET (graph));
  row = GRAPHENE_RECT_INIT (root->x + 2, embers_layout_rect_y (layout, root) + 2, MIN (root->width - 4, 400), 10);
  empty = GRAPHENE_RECT_INIT (root->x + 2, height - 40, MIN (root->width - 4, 400), 30);
  g_assert_cmpfloat (embers_layout_rect_y (layout, root) + 60, <, height - 40);

  pixels = embers_test_render_frame (GTK_WIDGET (graph));
  g_assert_cmpuint (embers_test_pixels_dominant (pixels, &row), !=, embers_test_pixels_dominant (pixels, &empty));
  g_assert_cmpuint (embers_test_pixels_count_colors (pixels, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (GTK_WIDGET (graph)), height), 16), >=, 8);
  embers_test_pixels_free (pixels);

  renderer = G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window)));
  embers_test_destroy_window (GTK_WINDOW (window));
  return renderer;
}

static void
test_choice_child (void)
{
  g_autofree char *gl = NULL;
  EmbersRendererChoice choice = embers_renderer_choose (gdk_display_get_default (), &gl);
  const char *renderer;

  g_test_message ("GL renderer: %s", gl != NULL ? gl : "(none)");
  renderer = open_and_draw ();
  g_print ("GSK renderer: %s\n", renderer);
  if (choice == EMBERS_RENDERER_CAIRO)
    {
      /* Software GL: cairo, and only this display was told */
      g_assert_true (embers_renderer_is_software (gl));
      g_assert_cmpstr (renderer, ==, "GskCairoRenderer");
      g_assert_null (g_getenv ("GSK_RENDERER"));
    }
  else
    {
      /* A GPU, or no GL: what GTK picks by itself */
      g_assert_cmpint (choice, ==, EMBERS_RENDERER_DEFAULT);
      g_assert_false (embers_renderer_is_software (gl));
      g_assert_null (g_object_get_data (G_OBJECT (gdk_display_get_default ()), "gsk-renderer"));
    }
}

static void
test_user_child (void)
{
  g_autofree char *gl = NULL;

  g_assert_cmpint (embers_renderer_choose (gdk_display_get_default (), &gl), ==, EMBERS_RENDERER_USER);
  g_assert_null (gl);
  g_assert_null (g_object_get_data (G_OBJECT (gdk_display_get_default ()), "gsk-renderer"));
  g_assert_cmpstr (open_and_draw (), ==, "GskGLRenderer");
}

/* Each in a process of its own: GSK reads GSK_RENDERER once per process,
 * and a display's choice holds for its later windows */
static void
test_choice (void)
{
  g_auto(GStrv) env = NULL;

  if (g_test_subprocess ())
    {
      test_choice_child ();
      return;
    }
  env = g_environ_unsetenv (g_get_environ (), "GSK_RENDERER");
  g_test_trap_subprocess_with_envp (NULL, (const char * const *)env, 0,
                                    G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  /* The child got as far as a drawn window (Xvfb's GL is Mesa's
   * software one: cairo there) */
  g_test_trap_assert_stdout ("*GSK renderer: Gsk*");
}

/* The user's GSK_RENDERER decides, whatever GL is */
static void
test_user (void)
{
  g_auto(GStrv) env = NULL;

  if (g_test_subprocess ())
    {
      test_user_child ();
      return;
    }
  /* "opengl": GTK 4.18 warns on "gl" and 4.24 on "ngl", neither on it */
  env = g_environ_setenv (g_get_environ (), "GSK_RENDERER", "opengl", TRUE);
  g_test_trap_subprocess_with_envp (NULL, (const char * const *)env, 0,
                                    G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/renderer/names", test_names);
  g_test_add_func ("/embers/renderer/choice", test_choice);
  g_test_add_func ("/embers/renderer/user", test_user);
  return g_test_run ();
}
