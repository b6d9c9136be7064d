/* embers-window-warm.c: the renderer's shader programs made before a
 * profile needs them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * GTK's GPU renderers (GL, Vulkan) compile a shader program the first time
 * a frame needs it. With software GL each costs 10-15 ms of the main
 * thread, and the first frame of a profile page needs several the empty
 * window did not (a texture drawn through a scale node, glyphs coloured,
 * masks, borders, cross-fades): 40-80 ms in one pause, just when a profile
 * is shown. After the window's first frame, one small node of each kind is
 * rendered off screen with the window's own renderer, one per idle, so
 * each program is compiled in a pause of its own while nothing else waits
 * (a file named on the command line is still being read on its worker).
 * The cairo renderer compiles nothing and is left alone.
 *
 * Then a profile page is made ahead, the spare: its template, CSS and
 * tooltips cost the main loop 15-35 ms, which a tab's opening then need
 * not pay (the first load's longest pause was that: 40-57 ms on the quiet
 * machine). A taken spare is replaced once no page loads or computes.
 */

#include "config.h"

#include "embers-window-private.h"

typedef struct
{
  GtkWidget *window;  /* weak */
  guint      step;
} Warm;

/* Larger than the renderer's atlas takes, as the flame graph's paint is,
 * so that it is drawn from a texture of its own (and converted) */
#define WARM_SIZE 320

static GdkTexture *
warm_texture (GdkMemoryFormat format)
{
  g_autoptr(GBytes) bytes = NULL;
  guint8 *pixels = g_malloc (WARM_SIZE * WARM_SIZE * 4);

  for (gsize i = 0; i < WARM_SIZE * WARM_SIZE; i++)
    {
      pixels[4 * i] = (guint8) i;
      pixels[4 * i + 1] = 0x40;
      pixels[4 * i + 2] = 0x80;
      pixels[4 * i + 3] = 0xff;
    }
  bytes = g_bytes_new_take (pixels, WARM_SIZE * WARM_SIZE * 4);
  return gdk_memory_texture_new (WARM_SIZE, WARM_SIZE, format, bytes, WARM_SIZE * 4);
}

/* The node of step @step, or NULL after the last */
static GskRenderNode *
warm_node (GtkWidget *widget,
           guint      step)
{
  const graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, WARM_SIZE, WARM_SIZE);
  const GdkRGBA ink = { 0.2f, 0.4f, 0.8f, 1.0f };
  const GdkRGBA half = { 0.8f, 0.4f, 0.2f, 0.5f };
  g_autoptr(GdkTexture) opaque = NULL;
  g_autoptr(GdkTexture) alpha = NULL;
  g_autoptr(GskRenderNode) a = NULL;
  g_autoptr(GskRenderNode) b = NULL;
  GskRoundedRect rounded;

  switch (step)
    {
    case 0:
      /* the flame graph's paint: an opaque texture, as it is and scaled
       * one texel to a pixel through the nearest filter */
      opaque = warm_texture (GDK_MEMORY_B8G8R8X8);
      a = gsk_texture_node_new (opaque, &bounds);
      b = gsk_texture_scale_node_new (opaque, &bounds, GSK_SCALING_FILTER_NEAREST);
      return gsk_container_node_new ((GskRenderNode *[]) { a, b }, 2);

    case 1:
      /* a premultiplied texture (icons, the tables' bars) */
      alpha = warm_texture (GDK_MEMORY_B8G8R8A8_PREMULTIPLIED);
      return gsk_texture_node_new (alpha, &bounds);

    case 2:
      a = gsk_color_node_new (&half, &bounds);
      gsk_rounded_rect_init_from_rect (&rounded, &bounds, 4);
      b = gsk_color_node_new (&ink, &GRAPHENE_RECT_INIT (2, 2, WARM_SIZE - 4, WARM_SIZE - 4));
      {
        g_autoptr(GskRenderNode) clipped = gsk_rounded_clip_node_new (b, &rounded);
        g_autoptr(GskRenderNode) nested = NULL;
        GskRoundedRect outer;

        g_autoptr(GskRenderNode) inner = NULL;
        g_autoptr(GskRenderNode) inner_clipped = NULL;
        GskRoundedRect corner;

        /* a rounded corner inside another's clip (buttons in a card, a
         * popover's rows) */
        inner = gsk_color_node_new (&ink, &GRAPHENE_RECT_INIT (20, 20, WARM_SIZE - 40, WARM_SIZE - 40));
        gsk_rounded_rect_init_from_rect (&corner, &GRAPHENE_RECT_INIT (20, 20, WARM_SIZE - 40, WARM_SIZE - 40), 6);
        inner_clipped = gsk_rounded_clip_node_new (inner, &corner);
        gsk_rounded_rect_init_from_rect (&outer, &GRAPHENE_RECT_INIT (6, 6, WARM_SIZE - 12, WARM_SIZE - 12), 60);
        nested = gsk_rounded_clip_node_new (inner_clipped, &outer);
        return gsk_container_node_new ((GskRenderNode *[]) { a, clipped, nested }, 3);
      }

    case 3:
      /* outlines (hover, selection) */
      gsk_rounded_rect_init_from_rect (&rounded, &bounds, 0);
      return gsk_border_node_new (&rounded, (float[4]) { 1, 1, 1, 1 },
                                  (GdkRGBA[4]) { ink, ink, ink, ink });

    case 4:
      {
        /* glyphs, coloured */
        g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
        g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, "main.Aa 0%");

        gtk_snapshot_append_layout (snapshot, layout, &ink);
        return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
      }

    case 5:
      /* a mask of a texture (symbolic icons drawn through a mask) */
      opaque = warm_texture (GDK_MEMORY_B8G8R8X8);
      alpha = warm_texture (GDK_MEMORY_B8G8R8A8_PREMULTIPLIED);
      a = gsk_texture_node_new (opaque, &bounds);
      b = gsk_texture_node_new (alpha, &bounds);
      {
        g_autoptr(GskRenderNode) by_alpha = gsk_mask_node_new (a, b, GSK_MASK_MODE_ALPHA);
        g_autoptr(GskRenderNode) by_luminance = gsk_mask_node_new (a, b, GSK_MASK_MODE_LUMINANCE);

        return gsk_container_node_new ((GskRenderNode *[]) { by_alpha, by_luminance }, 2);
      }

    case 6:
      a = gsk_color_node_new (&ink, &bounds);
      b = gsk_color_node_new (&half, &bounds);
      return gsk_cross_fade_node_new (a, b, 0.5f);

    case 7:
      a = gsk_color_node_new (&half, &bounds);
      return gsk_opacity_node_new (a, 0.5f);

    case 8:
    case 9:
    case 10:
    case 11:
    case 12:
      /* the same under an opacity: a page dimmed while it loads */
      a = warm_node (widget, step - 8);
      return gsk_opacity_node_new (a, 0.55f);

    default:
      return NULL;
    }
}

static void
warm_free (gpointer data)
{
  Warm *warm = data;

  g_clear_weak_pointer (&warm->window);
  g_free (warm);
}

/* The spare page */

/* Whether a page of the window loads or computes: a spare made now would
 * pause it */
static gboolean
window_busy (EmbersWindow *self)
{
  guint n = adw_tab_view_get_n_pages (self->tab_view);

  for (guint i = 0; i < n; i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (self->tab_view, i));

      if (EMBERS_IS_PROFILE_PAGE (child) && embers_profile_page_get_busy (EMBERS_PROFILE_PAGE (child)))
        return TRUE;
    }
  return FALSE;
}

static void schedule_spare (EmbersWindow *self,
                            guint         delay_ms);

static gboolean
spare_due (gpointer data)
{
  EmbersWindow *self = data;

  self->spare_id = 0;
  if (self->spare_page != NULL)
    return G_SOURCE_REMOVE;
  if (window_busy (self))
    {
      schedule_spare (self, 1000);
      return G_SOURCE_REMOVE;
    }
  self->spare_page = g_object_ref_sink (embers_profile_page_new ());
  self->renderer_warm = TRUE;
  return G_SOURCE_REMOVE;
}

/* The source is removed when the window is disposed: @self is safe */
static void
schedule_spare (EmbersWindow *self,
                guint         delay_ms)
{
  if (self->spare_page != NULL || self->spare_id != 0)
    return;
  self->spare_id = delay_ms == 0 ? g_idle_add_full (G_PRIORITY_LOW, spare_due, self, NULL)
                                 : g_timeout_add_full (G_PRIORITY_LOW, delay_ms, spare_due, self, NULL);
}

EmbersProfilePage *
embers_window_take_spare_page (EmbersWindow *self)
{
  EmbersProfilePage *page;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);

  page = g_steal_pointer (&self->spare_page);
  /* The next once this one's load is over (and no other runs) */
  if (page != NULL)
    schedule_spare (self, 1000);
  return page;
}

void
embers_window_clear_spare_page (EmbersWindow *self)
{
  g_clear_handle_id (&self->spare_id, g_source_remove);
  g_clear_object (&self->spare_page);
}

static gboolean
warm_step (gpointer data)
{
  Warm *warm = data;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer;

  if (warm->window == NULL)
    return G_SOURCE_REMOVE;
  renderer = gtk_native_get_renderer (GTK_NATIVE (warm->window));
  if (renderer == NULL || GSK_IS_CAIRO_RENDERER (renderer) ||
      (node = warm_node (warm->window, warm->step++)) == NULL)
    {
      /* Warm once the spare page is made too */
      schedule_spare (EMBERS_WINDOW (warm->window), 0);
      return G_SOURCE_REMOVE;
    }
  texture = gsk_renderer_render_texture (renderer, node, NULL);
  return G_SOURCE_CONTINUE;
}

static void
warm_closure_free (gpointer  data,
                   GClosure *closure)
{
  warm_free (data);
}

static void
on_first_frame (GdkFrameClock *clock,
                gpointer       data)
{
  Warm *first = data;
  Warm *warm = g_new0 (Warm, 1);

  g_set_weak_pointer (&warm->window, first->window);
  g_signal_handlers_disconnect_by_func (clock, on_first_frame, data);  /* frees @first */
  /* One program a main-loop turn, after anything that waits */
  g_idle_add_full (G_PRIORITY_LOW, warm_step, warm, warm_free);
}

static void
on_map (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  Warm *warm;

  g_signal_handlers_disconnect_by_func (widget, on_map, NULL);
  if (clock == NULL || g_getenv ("EMBERS_NO_WARM_RENDERER") != NULL)
    {
      EMBERS_WINDOW (widget)->renderer_warm = TRUE;
      return;
    }
  warm = g_new0 (Warm, 1);
  g_set_weak_pointer (&warm->window, widget);
  g_signal_connect_data (clock, "after-paint", G_CALLBACK (on_first_frame), warm,
                         warm_closure_free, 0);
}

void
embers_window_warm_renderer (EmbersWindow *self)
{
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}

gboolean
embers_window_get_renderer_warm (EmbersWindow *self)
{
  g_return_val_if_fail (EMBERS_IS_WINDOW (self), FALSE);

  return self->renderer_warm;
}
