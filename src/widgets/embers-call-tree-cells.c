/* embers-call-tree-cells.c
 *
 * A call tree row is built whenever it scrolls into sight, so its cells
 * are as light as a cell can be: one widget each, which keeps its layout,
 * measures once per text, and asks for a new size only when the text's
 * width changed. The name's tooltip is answered on demand
 * (GtkWidget::query-tooltip): setting a tooltip's text at every bind asks
 * the display server where the pointer is, a round trip per row.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-call-tree-cells.h"
#include "embers-text.h"

/* Characters of a name its cell keeps room for at least (deep rows are
 * indented) */
#define NAME_MIN_CHARS 6

struct _EmbersCallTreeText
{
  GtkWidget    parent_instance;

  gboolean     is_name;
  char        *text;
  char        *shown;        /* a name cut to shown_width, or NULL */
  int          shown_width;
  PangoLayout *layout;
  int          text_width;   /* of the whole text, -1 unknown */
  int          text_height;
  int          baseline;
  int          char_width;   /* approximate, -1 unknown */
};

G_DEFINE_FINAL_TYPE (EmbersCallTreeText, embers_call_tree_text, GTK_TYPE_WIDGET)

static PangoLayout *
text_layout (EmbersCallTreeText *self)
{
  if (self->layout == NULL)
    self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  return self->layout;
}

/* The whole text's size, measured once per text */
static void
text_ensure_size (EmbersCallTreeText *self)
{
  PangoLayout *layout;

  if (self->text_width >= 0)
    return;
  layout = text_layout (self);
  pango_layout_set_text (layout, self->text != NULL ? self->text : "", -1);
  pango_layout_get_pixel_size (layout, &self->text_width, &self->text_height);
  self->baseline = pango_layout_get_baseline (layout) / PANGO_SCALE;
}

typedef struct
{
  PangoLayout *layout;
  int          width;
} Fits;

static gboolean
fits_width (const char *text,
            gpointer    user_data)
{
  Fits *fits = user_data;
  int w;

  pango_layout_set_text (fits->layout, text, -1);
  pango_layout_get_pixel_size (fits->layout, &w, NULL);
  return w <= fits->width;
}

/* The text drawn at @width: a name that does not fit is cut by the core's
 * rule (the package path first); kept until the width or text changes */
static const char *
text_shown_for (EmbersCallTreeText *self,
                int                 width)
{
  text_ensure_size (self);
  if (!self->is_name || self->text == NULL || self->text_width <= width)
    return self->text;
  if (self->shown == NULL || self->shown_width != width)
    {
      Fits fits = { text_layout (self), width };

      g_free (self->shown);
      self->shown = embers_text_shorten_name (self->text, fits_width, &fits);
      self->shown_width = width;
    }
  return self->shown;
}

static void
embers_call_tree_text_measure (GtkWidget      *widget,
                               GtkOrientation  orientation,
                               int             for_size,
                               int            *minimum,
                               int            *natural,
                               int            *minimum_baseline,
                               int            *natural_baseline)
{
  EmbersCallTreeText *self = EMBERS_CALL_TREE_TEXT (widget);

  text_ensure_size (self);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *natural = self->text_width;
      *minimum = self->text_width;
      if (self->is_name)
        {
          if (self->char_width < 0)
            {
              PangoContext *context = pango_layout_get_context (text_layout (self));
              PangoFontMetrics *metrics = pango_context_get_metrics (context,
                                                                     pango_context_get_font_description (context),
                                                                     NULL);

              self->char_width = pango_font_metrics_get_approximate_char_width (metrics) / PANGO_SCALE;
              pango_font_metrics_unref (metrics);
            }
          *minimum = MIN (self->text_width, NAME_MIN_CHARS * self->char_width);
        }
    }
  else
    {
      *minimum = *natural = self->text_height;
      *minimum_baseline = *natural_baseline = self->baseline;
    }
}

static void
embers_call_tree_text_snapshot (GtkWidget   *widget,
                                GtkSnapshot *snapshot)
{
  EmbersCallTreeText *self = EMBERS_CALL_TREE_TEXT (widget);
  int width = gtk_widget_get_width (widget);
  PangoLayout *layout;
  const char *shown;
  GdkRGBA color;
  int w, h;

  if (self->text == NULL || self->text[0] == '\0' || width <= 0)
    return;

  shown = text_shown_for (self, width);
  layout = text_layout (self);
  pango_layout_set_text (layout, shown, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_widget_get_color (widget, &color);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (self->is_name ? 0 : width - w,
                                                (gtk_widget_get_height (widget) - h) / 2));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

static gboolean
embers_call_tree_text_query_tooltip (GtkWidget  *widget,
                                     int         x,
                                     int         y,
                                     gboolean    keyboard_mode,
                                     GtkTooltip *tooltip)
{
  EmbersCallTreeText *self = EMBERS_CALL_TREE_TEXT (widget);

  if (!self->is_name || self->text == NULL || self->text[0] == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, self->text);
  return TRUE;
}

static void
embers_call_tree_text_css_changed (GtkWidget         *widget,
                                   GtkCssStyleChange *change)
{
  EmbersCallTreeText *self = EMBERS_CALL_TREE_TEXT (widget);

  GTK_WIDGET_CLASS (embers_call_tree_text_parent_class)->css_changed (widget, change);
  /* Another font (a search match is bold) measures differently */
  g_clear_object (&self->layout);
  g_clear_pointer (&self->shown, g_free);
  self->text_width = -1;
  self->char_width = -1;
  gtk_widget_queue_resize (widget);
}

static void
embers_call_tree_text_finalize (GObject *object)
{
  EmbersCallTreeText *self = EMBERS_CALL_TREE_TEXT (object);

  g_free (self->text);
  g_free (self->shown);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (embers_call_tree_text_parent_class)->finalize (object);
}

static void
embers_call_tree_text_class_init (EmbersCallTreeTextClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = embers_call_tree_text_finalize;
  widget_class->measure = embers_call_tree_text_measure;
  widget_class->snapshot = embers_call_tree_text_snapshot;
  widget_class->query_tooltip = embers_call_tree_text_query_tooltip;
  widget_class->css_changed = embers_call_tree_text_css_changed;

  gtk_widget_class_set_css_name (widget_class, "call-tree-text");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
embers_call_tree_text_init (EmbersCallTreeText *self)
{
  self->text_width = -1;
  self->char_width = -1;
}

GtkWidget *
embers_call_tree_text_new (gboolean is_name)
{
  EmbersCallTreeText *self = g_object_new (EMBERS_TYPE_CALL_TREE_TEXT, NULL);

  self->is_name = !!is_name;
  if (is_name)
    gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  else
    gtk_widget_add_css_class (GTK_WIDGET (self), "numeric");
  return GTK_WIDGET (self);
}

void
embers_call_tree_text_set_text (EmbersCallTreeText *self,
                                const char         *text)
{
  int old_width;

  g_return_if_fail (EMBERS_IS_CALL_TREE_TEXT (self));

  if (g_strcmp0 (text, self->text) == 0)
    return;
  old_width = self->text_width;
  g_free (self->text);
  self->text = g_strdup (text);
  g_clear_pointer (&self->shown, g_free);
  self->text_width = -1;
  /* The row's label tells a screen reader the values; the name is said
   * by the tree's expander cell too */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  text != NULL ? text : "", -1);
  if (old_width < 0)
    {
      gtk_widget_queue_resize (GTK_WIDGET (self));
      return;
    }
  text_ensure_size (self);
  if (self->text_width != old_width)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  else
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
embers_call_tree_text_get_text (EmbersCallTreeText *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_TEXT (self), NULL);
  return self->text;
}

const char *
embers_call_tree_text_get_shown_text (EmbersCallTreeText *self)
{
  int width;

  g_return_val_if_fail (EMBERS_IS_CALL_TREE_TEXT (self), NULL);
  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (self->text == NULL || width <= 0)
    return self->text;
  return text_shown_for (self, width);
}

/* The bar */

struct _EmbersCallTreeBar
{
  GtkWidget parent_instance;
  double    total;
  double    self;
  gboolean  diff;
  GdkRGBA   diff_color;
};

G_DEFINE_FINAL_TYPE (EmbersCallTreeBar, embers_call_tree_bar, GTK_TYPE_WIDGET)

static void
embers_call_tree_bar_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  EmbersCallTreeBar *self = EMBERS_CALL_TREE_BAR (widget);
  double w = gtk_widget_get_width (widget);
  double h = gtk_widget_get_height (widget);
  double bar_h = MIN (h, 10);
  double y = floor ((h - bar_h) / 2);
  GdkRGBA color, faint;

  gtk_widget_get_color (widget, &color);
  faint = color;
  faint.alpha *= 0.12f;
  gtk_snapshot_append_color (snapshot, &faint, &GRAPHENE_RECT_INIT (0, y, w, bar_h));
  if (self->diff)
    {
      if (self->total > 0)
        gtk_snapshot_append_color (snapshot, &self->diff_color,
                                   &GRAPHENE_RECT_INIT (0, y, MAX (1, round (w * self->total)), bar_h));
      return;
    }
  if (self->total > 0)
    {
      GdkRGBA mid = color;

      mid.alpha *= 0.5f;
      gtk_snapshot_append_color (snapshot, &mid,
                                 &GRAPHENE_RECT_INIT (0, y, MAX (1, round (w * self->total)), bar_h));
    }
  if (self->self > 0)
    gtk_snapshot_append_color (snapshot, &color,
                               &GRAPHENE_RECT_INIT (0, y, MAX (1, round (w * self->self)), bar_h));
}

static void
embers_call_tree_bar_measure (GtkWidget      *widget,
                              GtkOrientation  orientation,
                              int             for_size,
                              int            *minimum,
                              int            *natural,
                              int            *minimum_baseline,
                              int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 24 : 12;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 120 : 12;
}

static void
embers_call_tree_bar_class_init (EmbersCallTreeBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = embers_call_tree_bar_snapshot;
  widget_class->measure = embers_call_tree_bar_measure;
  gtk_widget_class_set_css_name (widget_class, "call-tree-bar");
}

static void
embers_call_tree_bar_init (EmbersCallTreeBar *self)
{
  /* The row's label says the values */
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
}

void
embers_call_tree_bar_set (EmbersCallTreeBar *self,
                          double             total,
                          double             self_share)
{
  g_return_if_fail (EMBERS_IS_CALL_TREE_BAR (self));

  self->diff = FALSE;
  self->total = CLAMP (total, 0, 1);
  self->self = CLAMP (self_share, 0, 1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
embers_call_tree_bar_set_diff (EmbersCallTreeBar *self,
                               double             share,
                               const EmbersColor *color)
{
  g_return_if_fail (EMBERS_IS_CALL_TREE_BAR (self));

  self->diff = TRUE;
  self->total = CLAMP (share, 0, 1);
  self->self = 0;
  self->diff_color = *(const GdkRGBA *) color;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
