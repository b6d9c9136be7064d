/* embers-diff-legend.c: the colour key of a diff flame graph
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-diff-legend.h"
#include "embers-theme.h"

struct _EmbersDiffLegend
{
  GtkWidget          parent_instance;

  EmbersRender      *render;
  EmbersDiffPalette  palette;
  EmbersDiffMode     mode;
  char              *font;
};

G_DEFINE_FINAL_TYPE (EmbersDiffLegend, embers_diff_legend, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PALETTE,
  PROP_MODE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

char *
embers_diff_legend_describe (EmbersDiffPalette palette,
                             EmbersDiffMode    mode)
{
  const char *colours = palette == EMBERS_DIFF_PALETTE_RED_GREEN
    ? _("red = grew, green = shrank, gray = unchanged")
    : _("red = grew, blue = shrank, gray = unchanged");
  const char *what = mode == EMBERS_DIFF_MODE_ABSOLUTE
    ? _("absolute change")
    : _("change of share of total");

  /* Translators: "Diff colors: red = grew, blue = shrank, gray = unchanged; change of share of total" */
  return g_strdup_printf (_("Diff colors: %s; %s"), colours, what);
}

/* A colour of the theme, from CSS (embers-theme.h) */
static void
theme_color (GtkWidget        *widget,
             EmbersThemeColor  which,
             EmbersColor      *color)
{
  GdkRGBA rgba;

  embers_theme_get_color (widget, which, &rgba);
  color->red = rgba.red;
  color->green = rgba.green;
  color->blue = rgba.blue;
  color->alpha = rgba.alpha;
}

static void
update_style (EmbersDiffLegend *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  EmbersRenderStyle style;
  EmbersColor background;
  gboolean dark = FALSE;
  PangoFontDescription *desc;
  g_autofree char *label = NULL;

  theme_color (widget, EMBERS_THEME_VIEW_BACKGROUND, &background);
  dark = embers_color_luminance (&background) < 0.4;

  embers_render_style_init (&style, dark);
  theme_color (widget, EMBERS_THEME_VIEW_FOREGROUND, &style.foreground);
  style.diff_palette = self->palette;
  style.diff_mode = self->mode;

  desc = pango_context_get_font_description (gtk_widget_get_pango_context (widget));
  g_free (self->font);
  self->font = g_strdup (desc != NULL && pango_font_description_get_family (desc) != NULL
                         ? pango_font_description_get_family (desc)
                         : "Sans");
  style.font = self->font;
  style.font_size = 12.0;
  embers_render_set_style (self->render, &style);

  label = embers_diff_legend_describe (self->palette, self->mode);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  gtk_widget_set_tooltip_text (widget, label);
}

static void
embers_diff_legend_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  EmbersDiffLegend *self = EMBERS_DIFF_LEGEND (widget);
  double width = 0, height = 0;

  embers_render_measure_legend (self->render, NULL, &width, &height);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* It drops the words when narrow, so it can shrink */
      *minimum = MIN ((int) ceil (width), 160);
      *natural = (int) ceil (width);
    }
  else
    {
      *minimum = *natural = (int) ceil (MAX (height, EMBERS_RENDER_LEGEND_HEIGHT));
    }
}

static void
embers_diff_legend_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  EmbersDiffLegend *self = EMBERS_DIFF_LEGEND (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  embers_render_paint_legend (self->render, cr, 0, 0, width, height);
  cairo_destroy (cr);
}

static void
embers_diff_legend_css_changed (GtkWidget         *widget,
                                GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (embers_diff_legend_parent_class)->css_changed (widget, change);
  update_style (EMBERS_DIFF_LEGEND (widget));
  gtk_widget_queue_resize (widget);
}

static void
embers_diff_legend_finalize (GObject *object)
{
  EmbersDiffLegend *self = EMBERS_DIFF_LEGEND (object);

  g_clear_pointer (&self->render, embers_render_unref);
  g_clear_pointer (&self->font, g_free);

  G_OBJECT_CLASS (embers_diff_legend_parent_class)->finalize (object);
}

static void
embers_diff_legend_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  EmbersDiffLegend *self = EMBERS_DIFF_LEGEND (object);

  switch (prop_id)
    {
    case PROP_PALETTE:
      g_value_set_uint (value, self->palette);
      break;
    case PROP_MODE:
      g_value_set_uint (value, self->mode);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_diff_legend_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  EmbersDiffLegend *self = EMBERS_DIFF_LEGEND (object);

  switch (prop_id)
    {
    case PROP_PALETTE:
      embers_diff_legend_set_palette (self, g_value_get_uint (value));
      break;
    case PROP_MODE:
      embers_diff_legend_set_mode (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_diff_legend_class_init (EmbersDiffLegendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = embers_diff_legend_finalize;
  object_class->get_property = embers_diff_legend_get_property;
  object_class->set_property = embers_diff_legend_set_property;

  widget_class->measure = embers_diff_legend_measure;
  widget_class->snapshot = embers_diff_legend_snapshot;
  widget_class->css_changed = embers_diff_legend_css_changed;

  properties[PROP_PALETTE] =
    g_param_spec_uint ("palette", NULL, NULL,
                       EMBERS_DIFF_PALETTE_RED_BLUE, EMBERS_DIFF_PALETTE_RED_GREEN,
                       EMBERS_DIFF_PALETTE_RED_BLUE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODE] =
    g_param_spec_uint ("mode", NULL, NULL,
                       EMBERS_DIFF_MODE_SHARE, EMBERS_DIFF_MODE_ABSOLUTE,
                       EMBERS_DIFF_MODE_SHARE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "embers-diff-legend");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
embers_diff_legend_init (EmbersDiffLegend *self)
{
  self->palette = EMBERS_DIFF_PALETTE_RED_BLUE;
  self->mode = EMBERS_DIFF_MODE_SHARE;
  self->render = embers_render_new (NULL, NULL, NULL);
  update_style (self);
}

GtkWidget *
embers_diff_legend_new (void)
{
  return g_object_new (EMBERS_TYPE_DIFF_LEGEND, NULL);
}

EmbersDiffPalette
embers_diff_legend_get_palette (EmbersDiffLegend *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_LEGEND (self), EMBERS_DIFF_PALETTE_RED_BLUE);
  return self->palette;
}

void
embers_diff_legend_set_palette (EmbersDiffLegend  *self,
                                EmbersDiffPalette  palette)
{
  g_return_if_fail (EMBERS_IS_DIFF_LEGEND (self));
  g_return_if_fail (palette <= EMBERS_DIFF_PALETTE_RED_GREEN);

  if (self->palette == palette)
    return;
  self->palette = palette;
  update_style (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PALETTE]);
}

EmbersDiffMode
embers_diff_legend_get_mode (EmbersDiffLegend *self)
{
  g_return_val_if_fail (EMBERS_IS_DIFF_LEGEND (self), EMBERS_DIFF_MODE_SHARE);
  return self->mode;
}

void
embers_diff_legend_set_mode (EmbersDiffLegend *self,
                             EmbersDiffMode    mode)
{
  g_return_if_fail (EMBERS_IS_DIFF_LEGEND (self));
  g_return_if_fail (mode <= EMBERS_DIFF_MODE_ABSOLUTE);

  if (self->mode == mode)
    return;
  self->mode = mode;
  update_style (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}
