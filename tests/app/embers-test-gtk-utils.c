/* embers-test-gtk-utils.c: shared helpers for the window tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "embers-test-gtk-utils.h"

/* GTK 4.24 on an X server without a compositor (Xvfb) warns
 * "gdk_frame_timings_submitted() called on submitted frame" whenever a
 * popover is shown: a bug of GTK's X11 frame timings, seen with a 20-line
 * program and not with GTK 4.18. That one message, from GDK, is not a
 * failure of ours and is passed over (said once as a test message); every
 * other message goes to GLib's writer, which makes warnings fatal in
 * tests. */
static GLogWriterOutput
write_log (GLogLevelFlags   log_level,
           const GLogField *fields,
           gsize            n_fields,
           gpointer         user_data)
{
  static gboolean said;
  const char *domain = NULL, *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
      domain = fields[i].value;
    else if (g_str_equal (fields[i].key, "MESSAGE"))
      message = fields[i].value;

  if ((log_level & G_LOG_LEVEL_WARNING) && g_strcmp0 (domain, "Gdk") == 0 && message != NULL &&
      g_str_has_prefix (message, "gdk_frame_timings_submitted() called on submitted frame"))
    {
      if (!said)
        g_test_message ("GTK's X11 frame timings warned (a GTK bug on Xvfb): %s", message);
      said = TRUE;
      return G_LOG_WRITER_HANDLED;
    }
  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

void
embers_test_gtk_init (int    *argc,
                      char ***argv)
{
  g_log_set_writer_func (write_log, NULL, NULL);
  gtk_test_init (argc, argv, NULL);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

static gboolean
keep_awake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

void
embers_test_wait_until (EmbersTestCondition  condition,
                        gpointer             data,
                        const char          *what)
{
  gint64 end = g_get_monotonic_time () + (gint64)(embers_test_wait_limit () * G_USEC_PER_SEC);
  /* Wakes the loop now and then, so that the safety limit is checked even
   * when nothing else happens; it does not pace the wait */
  guint awake = g_timeout_add (250, keep_awake, NULL);

  while (!condition (data))
    {
      if (g_get_monotonic_time () > end)
        g_error ("gave up waiting for %s after %.0f s", what, embers_test_wait_limit ());
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (awake);
}

static gboolean
flag_is_set (gpointer data)
{
  return *(const gboolean *)data;
}

void
embers_test_wait_flag (const gboolean *flag,
                       const char     *what)
{
  embers_test_wait_until (flag_is_set, (gpointer)flag, what);
}

typedef struct
{
  GObject    *object;
  const char *property;
  gint64      value;
} PropertyWait;

static gint64
property_value (GObject    *object,
                const char *property)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (object), property);
  g_auto(GValue) value = G_VALUE_INIT;

  g_assert_nonnull (pspec);
  g_value_init (&value, pspec->value_type);
  g_object_get_property (object, property, &value);
  if (G_VALUE_HOLDS_BOOLEAN (&value))
    return g_value_get_boolean (&value);
  if (G_VALUE_HOLDS_ENUM (&value))
    return g_value_get_enum (&value);
  if (G_VALUE_HOLDS_INT (&value))
    return g_value_get_int (&value);
  if (G_VALUE_HOLDS_UINT (&value))
    return g_value_get_uint (&value);
  if (G_VALUE_HOLDS_INT64 (&value))
    return g_value_get_int64 (&value);
  if (G_VALUE_HOLDS_UINT64 (&value))
    return (gint64)g_value_get_uint64 (&value);
  g_error ("property %s of %s is not a number", property, G_OBJECT_TYPE_NAME (object));
}

static gboolean
property_equals (gpointer data)
{
  PropertyWait *wait = data;

  return property_value (wait->object, wait->property) == wait->value;
}

void
embers_test_wait_property (gpointer    object,
                           const char *property,
                           gint64      value)
{
  PropertyWait wait = { object, property, value };
  g_autofree char *what = g_strdup_printf ("%s:%s to be %" G_GINT64_FORMAT,
                                           G_OBJECT_TYPE_NAME (object), property, value);

  embers_test_wait_until (property_equals, &wait, what);
}

typedef struct
{
  gint64         counter;
  gboolean       painted;
  GtkWidget     *capture;   /* nullable: a widget to take a picture of */
  GskRenderNode *node;      /* ... as that frame drew it */
  graphene_rect_t bounds;
} FrameWait;

static GskRenderNode *snapshot_widget (GtkWidget       *widget,
                                       graphene_rect_t *bounds);

static void
on_after_paint (GdkFrameClock *clock,
                FrameWait     *wait)
{
  /* The counter grows when a frame begins: a larger one began after the
   * wait did (no frame is in progress while a test runs its code) */
  if (wait->painted || gdk_frame_clock_get_frame_counter (clock) <= wait->counter)
    return;
  wait->painted = TRUE;
  /* Right after the frame is painted, before anything else runs: the
   * widgets are laid out as the frame showed them */
  if (wait->capture != NULL)
    wait->node = snapshot_widget (wait->capture, &wait->bounds);
}

static void
wait_frame (GtkWidget *widget,
            FrameWait *wait)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GdkFrameClock *clock;
  gulong id;

  g_assert_nonnull (native);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (native)));
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (native));
  g_assert_nonnull (clock);

  /* Changes made before this call were seen by any frame that starts now */
  embers_test_drain ();
  wait->counter = gdk_frame_clock_get_frame_counter (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), wait);
  gtk_widget_queue_draw (GTK_WIDGET (native));
  embers_test_wait_flag (&wait->painted, "a frame to be painted");
  g_signal_handler_disconnect (clock, id);
}

void
embers_test_wait_frame (GtkWidget *widget)
{
  FrameWait wait = { 0, };

  wait_frame (widget, &wait);
  embers_test_drain ();
}

typedef struct
{
  GtkWidget *widget;
  int        width;
  int        height;
} SizeWait;

static gboolean
size_reached (gpointer data)
{
  SizeWait *wait = data;

  return gtk_widget_get_mapped (wait->widget) &&
         gtk_widget_get_width (wait->widget) >= wait->width &&
         gtk_widget_get_height (wait->widget) >= wait->height;
}

void
embers_test_wait_size (GtkWidget *widget,
                       int        width,
                       int        height)
{
  SizeWait wait = { widget, width, height };
  g_autofree char *what = g_strdup_printf ("%s to be mapped at %d × %d or more",
                                           G_OBJECT_TYPE_NAME (widget), width, height);

  embers_test_wait_until (size_reached, &wait, what);
  embers_test_wait_frame (widget);
}

void
embers_test_drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

void
embers_test_settle (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  g_autoptr(GPtrArray) mapped = g_ptr_array_new_with_free_func (g_object_unref);

  embers_test_drain ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (gtk_widget_get_mapped (window))
        g_ptr_array_add (mapped, g_object_ref (window));
    }
  for (guint i = 0; i < mapped->len; i++)
    if (gtk_widget_get_mapped (g_ptr_array_index (mapped, i)))
      embers_test_wait_frame (g_ptr_array_index (mapped, i));
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

void
embers_test_wait_mapped (GtkWidget *widget)
{
  g_autofree char *what = g_strdup_printf ("%s to be on screen", G_OBJECT_TYPE_NAME (widget));

  embers_test_wait_until (is_mapped, widget, what);
  embers_test_wait_frame (widget);
}

static gboolean
pointer_cleared (gpointer data)
{
  return *(gpointer *)data == NULL;
}

void
embers_test_wait_gone (gpointer    object,
                       const char *what)
{
  g_autofree char *message = g_strdup_printf ("%s (%s) to be finalized", what, G_OBJECT_TYPE_NAME (object));
  gpointer weak = object;

  g_object_add_weak_pointer (G_OBJECT (object), &weak);
  embers_test_wait_until (pointer_cleared, &weak, message);
}

static gboolean
last_reference (gpointer object)
{
  return g_atomic_int_get (&G_OBJECT (object)->ref_count) == 1;
}

void
embers_test_assert_finalize (gpointer object)
{
  g_autofree char *what = g_strdup_printf ("the last other reference to a %s to be dropped",
                                           G_OBJECT_TYPE_NAME (object));

  embers_test_wait_until (last_reference, object, what);
  g_assert_finalize_object (object);
}

struct _EmbersTestSignal
{
  GObject *object;    /* weak */
  char    *signal;
  gulong   id;
  guint    count;
};

static void
on_expected_signal (EmbersTestSignal *expected)
{
  expected->count++;
}

EmbersTestSignal *
embers_test_expect_signal (gpointer    object,
                           const char *detailed_signal)
{
  EmbersTestSignal *expected = g_new0 (EmbersTestSignal, 1);

  expected->object = object;
  expected->signal = g_strdup (detailed_signal);
  g_object_add_weak_pointer (object, (gpointer *)&expected->object);
  expected->id = g_signal_connect_swapped (object, detailed_signal, G_CALLBACK (on_expected_signal), expected);
  return expected;
}

static gboolean
signal_came_or_gone (gpointer data)
{
  EmbersTestSignal *expected = data;

  return expected->count > 0 || expected->object == NULL;
}

void
embers_test_wait_signal (EmbersTestSignal *expected)
{
  g_autofree char *what = g_strdup_printf ("the signal %s", expected->signal);

  embers_test_wait_until (signal_came_or_gone, expected, what);
  if (expected->count == 0)
    g_error ("the object that was to emit %s was finalized first", expected->signal);
  if (expected->object != NULL)
    {
      g_signal_handler_disconnect (expected->object, expected->id);
      g_object_remove_weak_pointer (expected->object, (gpointer *)&expected->object);
    }
  g_free (expected->signal);
  g_free (expected);
}

void
embers_test_press (GtkWidget *widget)
{
  g_autoptr(GtkWidget) keep = NULL;
  EmbersTestSignal *clicked = NULL;

  g_assert_nonnull (widget);
  keep = g_object_ref (widget);
  g_assert_true (gtk_widget_is_sensitive (widget));
  /* A person presses what is on screen (a dialog just presented shows on
   * the window's next frame) */
  embers_test_wait_until (is_mapped, widget, "the button to press on screen");
  if (g_signal_lookup ("clicked", G_OBJECT_TYPE (widget)) != 0)
    clicked = embers_test_expect_signal (widget, "clicked");
  g_assert_true (gtk_widget_activate (widget));
  if (clicked != NULL)
    embers_test_wait_signal (clicked);
  embers_test_drain ();
}

GtkWidget *
embers_test_find_widget (GtkWidget  *root,
                         GType       type,
                         const char *name)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type) &&
      (name == NULL ||
       g_strcmp0 (gtk_widget_get_name (root), name) == 0 ||
       g_strcmp0 (gtk_buildable_get_buildable_id (GTK_BUILDABLE (root)), name) == 0 ||
       g_strcmp0 (gtk_widget_get_css_name (root), name) == 0))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = embers_test_find_widget (child, type, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

void
embers_test_present_window (GtkWindow *window,
                            int        width,
                            int        height)
{
  gtk_window_set_default_size (window, width, height);
  gtk_window_present (window);
  embers_test_wait_mapped (GTK_WIDGET (window));
}

void
embers_test_destroy_window (GtkWindow *window)
{
  g_object_ref (window);
  gtk_window_destroy (window);
  embers_test_assert_finalize (window);
}

GtkWidget *
embers_test_find_actionable (GtkWidget  *root,
                             const char *action_name)
{
  if (GTK_IS_ACTIONABLE (root) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (root)), action_name) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = embers_test_find_actionable (child, action_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

guint
embers_test_count_shown_text (GtkWidget  *root,
                              const char *text)
{
  guint n = 0;

  if (!gtk_widget_get_mapped (root))
    return 0;
  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_text (GTK_LABEL (root)), text) != NULL)
    n++;
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += embers_test_count_shown_text (child, text);
  return n;
}

/* Pixels */

/* The widget as GTK snapshots it for a frame: the widget and its
 * children, each only where GTK would draw it. The widget paintable draws
 * the widget's bounds (a window's include its decorations) at their own
 * size. */
static GskRenderNode *
snapshot_widget (GtkWidget       *widget,
                 graphene_rect_t *bounds)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  g_assert_true (gtk_widget_compute_bounds (widget, widget, bounds));
  g_assert_cmpint (gdk_paintable_get_intrinsic_width (paintable), ==, (int)ceilf (bounds->size.width));
  g_assert_cmpint (gdk_paintable_get_intrinsic_height (paintable), ==, (int)ceilf (bounds->size.height));
  gdk_paintable_snapshot (paintable, snapshot, ceilf (bounds->size.width), ceilf (bounds->size.height));
  return gtk_snapshot_free_to_node (snapshot);
}

static EmbersTestPixels *
rasterize (GtkWidget             *widget,
           GskRenderNode         *node,
           const graphene_rect_t *bounds)
{
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  EmbersTestPixels *pixels;
  int w = (int)ceilf (bounds->size.width);
  int h = (int)ceilf (bounds->size.height);

  g_assert_cmpint (w, >, 0);
  g_assert_cmpint (h, >, 0);
  g_assert_true (gsk_renderer_realize_for_display (renderer, gtk_widget_get_display (widget), &error));
  g_assert_no_error (error);

  pixels = g_new0 (EmbersTestPixels, 1);
  pixels->width = w;
  pixels->height = h;
  pixels->origin_x = (int)floorf (bounds->origin.x);
  pixels->origin_y = (int)floorf (bounds->origin.y);
  pixels->stride = (gsize)w * 4;
  pixels->data = g_malloc0 (pixels->stride * h);
  if (node != NULL)
    {
      texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
      gdk_texture_download (texture, pixels->data, pixels->stride);
    }
  gsk_renderer_unrealize (renderer);
  return pixels;
}

EmbersTestPixels *
embers_test_render (GtkWidget *widget)
{
  graphene_rect_t bounds;
  GskRenderNode *node = snapshot_widget (widget, &bounds);
  EmbersTestPixels *pixels = rasterize (widget, node, &bounds);

  g_clear_pointer (&node, gsk_render_node_unref);
  return pixels;
}

EmbersTestPixels *
embers_test_render_frame (GtkWidget *widget)
{
  FrameWait wait = { 0, };
  EmbersTestPixels *pixels;

  wait.capture = widget;
  wait_frame (widget, &wait);
  pixels = rasterize (widget, wait.node, &wait.bounds);
  g_clear_pointer (&wait.node, gsk_render_node_unref);
  embers_test_drain ();
  return pixels;
}

void
embers_test_pixels_free (EmbersTestPixels *pixels)
{
  if (pixels == NULL)
    return;
  g_free (pixels->data);
  g_free (pixels);
}

guint32
embers_test_pixels_get (const EmbersTestPixels *pixels,
                        int                     x,
                        int                     y)
{
  const guint8 *d;

  x = CLAMP (x - pixels->origin_x, 0, pixels->width - 1);
  y = CLAMP (y - pixels->origin_y, 0, pixels->height - 1);
  d = pixels->data + (gsize)y * pixels->stride + (gsize)x * 4;
  /* GDK_MEMORY_DEFAULT is B8G8R8A8_PREMULTIPLIED on little endian, read as
   * bytes: B, G, R, A */
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  return (guint32)d[2] << 16 | (guint32)d[1] << 8 | d[0];
#else
  return (guint32)d[1] << 16 | (guint32)d[2] << 8 | d[3];
#endif
}

static void
clip_area (const EmbersTestPixels *pixels,
           const graphene_rect_t  *area,
           int                    *x0,
           int                    *y0,
           int                    *x1,
           int                    *y1)
{
  int ox = pixels->origin_x, oy = pixels->origin_y;

  *x0 = CLAMP ((int)floorf (area->origin.x), ox, ox + pixels->width);
  *y0 = CLAMP ((int)floorf (area->origin.y), oy, oy + pixels->height);
  *x1 = CLAMP ((int)ceilf (area->origin.x + area->size.width), ox, ox + pixels->width);
  *y1 = CLAMP ((int)ceilf (area->origin.y + area->size.height), oy, oy + pixels->height);
}

guint
embers_test_pixels_count_colors (const EmbersTestPixels *pixels,
                                 const graphene_rect_t  *area,
                                 guint                   cap)
{
  g_autoptr(GHashTable) colors = g_hash_table_new (NULL, NULL);
  int x0, y0, x1, y1;

  clip_area (pixels, area, &x0, &y0, &x1, &y1);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        g_hash_table_add (colors, GUINT_TO_POINTER (embers_test_pixels_get (pixels, x, y) + 1));
        if (g_hash_table_size (colors) >= cap)
          return cap;
      }
  return g_hash_table_size (colors);
}

double
embers_test_pixels_share (const EmbersTestPixels *pixels,
                          const graphene_rect_t  *area,
                          guint32                 color)
{
  int x0, y0, x1, y1;
  guint64 n = 0, total = 0;

  clip_area (pixels, area, &x0, &y0, &x1, &y1);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++, total++)
      n += embers_test_pixels_get (pixels, x, y) == color;
  return total > 0 ? (double)n / total : 0;
}

guint32
embers_test_pixels_dominant (const EmbersTestPixels *pixels,
                             const graphene_rect_t  *area)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key, value;
  guint32 best = 0;
  guint best_count = 0;
  int x0, y0, x1, y1;

  clip_area (pixels, area, &x0, &y0, &x1, &y1);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        gpointer k = GUINT_TO_POINTER (embers_test_pixels_get (pixels, x, y) + 1);

        g_hash_table_insert (counts, k, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, k)) + 1));
      }
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (GPOINTER_TO_UINT (value) > best_count)
      {
        best_count = GPOINTER_TO_UINT (value);
        best = GPOINTER_TO_UINT (key) - 1;
      }
  return best;
}

void
embers_test_pixels_save (const EmbersTestPixels *pixels,
                         const char             *path)
{
  g_autoptr(GBytes) bytes = g_bytes_new (pixels->data, pixels->stride * pixels->height);
  g_autoptr(GdkTexture) texture = gdk_memory_texture_new (pixels->width, pixels->height,
                                                          GDK_MEMORY_DEFAULT, bytes,
                                                          pixels->stride);

  gdk_texture_save_to_png (texture, path);
}

graphene_rect_t
embers_test_bounds (GtkWidget *widget,
                    GtkWidget *ancestor)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, ancestor, &bounds));
  return bounds;
}

void
embers_test_assert_not_blank_impl (const EmbersTestPixels *pixels,
                                   const graphene_rect_t  *area,
                                   guint                   min_colors,
                                   const char             *label,
                                   const char             *file,
                                   int                     line,
                                   const char             *func)
{
  guint n = embers_test_pixels_count_colors (pixels, area, min_colors);
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  g_autofree char *message = NULL;

  if (n >= min_colors)
    return;

  name = g_strdup_printf ("pixels-%s.png", label);
  path = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".", name, NULL);
  embers_test_pixels_save (pixels, path);
  message = g_strdup_printf ("%s: the area %g,%g %g×%g is blank (%u colour%s, want %u); picture in %s",
                             label, area->origin.x, area->origin.y, area->size.width,
                             area->size.height, n, n == 1 ? "" : "s", min_colors, path);
  g_assertion_message (G_LOG_DOMAIN, file, line, func, message);
}

/* Dialogs and keys */

static void
add_dialogs (GPtrArray *found,
             GListModel *dialogs,
             GType       type)
{
  for (guint i = 0; i < g_list_model_get_n_items (dialogs); i++)
    {
      g_autoptr(AdwDialog) dialog = g_list_model_get_item (dialogs, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (dialog, type))
        g_ptr_array_add (found, dialog);
    }
}

GPtrArray *
embers_test_dialogs (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);
      GtkWidget *child = gtk_window_get_child (window);

      if (ADW_IS_APPLICATION_WINDOW (window))
        add_dialogs (found, adw_application_window_get_dialogs (ADW_APPLICATION_WINDOW (window)), type);
      else if (ADW_IS_WINDOW (window))
        add_dialogs (found, adw_window_get_dialogs (ADW_WINDOW (window)), type);
      /* A dialog presented without an Adwaita window is a window's child */
      else if (child != NULL && G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        g_ptr_array_add (found, child);
    }
  return found;
}

gboolean
embers_test_dialog_is_open (gpointer dialog)
{
  g_autoptr(GPtrArray) all = embers_test_dialogs (ADW_TYPE_DIALOG);

  return g_ptr_array_find (all, dialog, NULL);
}

static gboolean
has_focus_inside (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

typedef struct
{
  GType      type;
  GPtrArray *before;
  AdwDialog *found;
} NewDialogWait;

static gboolean
new_dialog_open (gpointer data)
{
  NewDialogWait *wait = data;
  g_autoptr(GPtrArray) now = embers_test_dialogs (wait->type);

  wait->found = NULL;
  for (guint i = 0; i < now->len; i++)
    if (wait->before == NULL || !g_ptr_array_find (wait->before, g_ptr_array_index (now, i), NULL))
      {
        g_assert_null (wait->found);  /* one, not two */
        wait->found = g_ptr_array_index (now, i);
      }
  /* and open: on screen with the keyboard focus (libadwaita opens it and
   * moves the focus into it a frame or two after it maps) */
  return wait->found != NULL && gtk_widget_get_mapped (GTK_WIDGET (wait->found)) &&
         has_focus_inside (GTK_WIDGET (wait->found));
}

AdwDialog *
embers_test_wait_new_dialog (GType      type,
                             GPtrArray *before)
{
  NewDialogWait wait = { type, before, NULL };
  g_autofree char *what = g_strdup_printf ("a new %s", g_type_name (type));

  embers_test_wait_until (new_dialog_open, &wait, what);
  return wait.found;
}

static gboolean
dialog_closed (gpointer dialog)
{
  return !embers_test_dialog_is_open (dialog);
}

void
embers_test_wait_dialog_closed (gpointer dialog)
{
  embers_test_wait_until (dialog_closed, dialog, "the dialog to close");
}

gboolean
embers_test_blocks_input (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    if (!gtk_widget_get_can_target (w) && !gtk_widget_get_can_focus (w))
      return TRUE;
  return FALSE;
}

static gboolean
activate_in (GtkWidget       *widget,
             guint            keyval,
             GdkModifierType  modifiers)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers &&
              gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                            widget, gtk_shortcut_get_arguments (shortcut)))
            return TRUE;
        }
    }
  return FALSE;
}

gboolean
embers_test_press_key (GtkWidget       *widget,
                       guint            keyval,
                       GdkModifierType  modifiers)
{
  /* GTK keeps the widgets of an event alive while it is handled (closing a
   * dialog on Escape may finalize it, and its handlers still run after) */
  g_autoptr(GtkWidget) root = g_object_ref (GTK_WIDGET (gtk_widget_get_root (widget)));
  g_autoptr(GPtrArray) chain = g_ptr_array_new_with_free_func (g_object_unref);

  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    g_ptr_array_add (chain, g_object_ref (w));
  for (guint i = 0; i < chain->len; i++)
    if (activate_in (g_ptr_array_index (chain, i), keyval, modifiers))
      return TRUE;
  return FALSE;
}
