/* embers-name-label.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-name-label.h"
#include "embers-text.h"

/* Characters of a name a table keeps room for at least */
#define MIN_CHARS 34

struct _EmbersNameLabel
{
  GtkWidget    parent_instance;

  char        *text;
  char        *shown;        /* what fits shown_width, or NULL */
  int          shown_width;
  PangoLayout *layout;
  int          min_chars;
};

enum {
  PROP_0,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (EmbersNameLabel, embers_name_label, GTK_TYPE_WIDGET)

static PangoLayout *
get_layout (EmbersNameLabel *self)
{
  if (self->layout == NULL)
    self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  return self->layout;
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

/* The text for @width px, cut by the core's rule, kept until the width or
 * the text changes */
static const char *
shown_for (EmbersNameLabel *self,
           int              width)
{
  if (self->shown == NULL || self->shown_width != width)
    {
      Fits fits = { get_layout (self), width };

      g_free (self->shown);
      self->shown = embers_text_shorten_name (self->text, fits_width, &fits);
      self->shown_width = width;
    }
  return self->shown;
}

static void
embers_name_label_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  EmbersNameLabel *self = EMBERS_NAME_LABEL (widget);
  PangoLayout *layout = get_layout (self);
  int w, h;

  pango_layout_set_text (layout, self->text != NULL ? self->text : "", -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      PangoFontMetrics *metrics = pango_context_get_metrics (pango_layout_get_context (layout),
                                                             pango_context_get_font_description (pango_layout_get_context (layout)),
                                                             NULL);
      int room = self->min_chars * pango_font_metrics_get_approximate_char_width (metrics) / PANGO_SCALE;

      pango_font_metrics_unref (metrics);
      /* A table may squeeze its name column down to a typical name's
       * width (a whole "regexp/syntax.(*compiler).compile"), not below:
       * the numbers' columns give way first */
      *minimum = MIN (w, room);
      *natural = w;
    }
  else
    {
      *minimum = *natural = h;
      *minimum_baseline = *natural_baseline = pango_layout_get_baseline (layout) / PANGO_SCALE;
    }
}

static void
embers_name_label_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  EmbersNameLabel *self = EMBERS_NAME_LABEL (widget);
  int width = gtk_widget_get_width (widget);
  PangoLayout *layout = get_layout (self);
  GdkRGBA color;
  int h;

  if (self->text == NULL || width <= 0)
    return;

  pango_layout_set_text (layout, shown_for (self, width), -1);
  pango_layout_get_pixel_size (layout, NULL, &h);
  gtk_widget_get_color (widget, &color);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, (gtk_widget_get_height (widget) - h) / 2));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

static void
embers_name_label_css_changed (GtkWidget         *widget,
                               GtkCssStyleChange *change)
{
  EmbersNameLabel *self = EMBERS_NAME_LABEL (widget);

  GTK_WIDGET_CLASS (embers_name_label_parent_class)->css_changed (widget, change);
  /* A new font measures differently */
  g_clear_object (&self->layout);
  g_clear_pointer (&self->shown, g_free);
  gtk_widget_queue_resize (widget);
}

static void
embers_name_label_finalize (GObject *object)
{
  EmbersNameLabel *self = EMBERS_NAME_LABEL (object);

  g_free (self->text);
  g_free (self->shown);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (embers_name_label_parent_class)->finalize (object);
}

static void
embers_name_label_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  EmbersNameLabel *self = EMBERS_NAME_LABEL (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_name_label_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  EmbersNameLabel *self = EMBERS_NAME_LABEL (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      embers_name_label_set_text (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_name_label_class_init (EmbersNameLabelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = embers_name_label_finalize;
  object_class->get_property = embers_name_label_get_property;
  object_class->set_property = embers_name_label_set_property;
  widget_class->measure = embers_name_label_measure;
  widget_class->snapshot = embers_name_label_snapshot;
  widget_class->css_changed = embers_name_label_css_changed;

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "namelabel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
embers_name_label_init (EmbersNameLabel *self)
{
  self->min_chars = MIN_CHARS;
}

void
embers_name_label_set_min_chars (EmbersNameLabel *self,
                                 int              min_chars)
{
  g_return_if_fail (EMBERS_IS_NAME_LABEL (self));

  self->min_chars = MAX (min_chars, 1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

GtkWidget *
embers_name_label_new (void)
{
  return g_object_new (EMBERS_TYPE_NAME_LABEL, NULL);
}

void
embers_name_label_set_text (EmbersNameLabel *self,
                            const char      *text)
{
  g_return_if_fail (EMBERS_IS_NAME_LABEL (self));

  if (g_strcmp0 (text, self->text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);
  g_clear_pointer (&self->shown, g_free);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, text != NULL ? text : "", -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

const char *
embers_name_label_get_text (EmbersNameLabel *self)
{
  g_return_val_if_fail (EMBERS_IS_NAME_LABEL (self), NULL);
  return self->text;
}

/* What is drawn at the current width (the whole text before the first
 * allocation) */
const char *
embers_name_label_get_shown_text (EmbersNameLabel *self)
{
  int width;

  g_return_val_if_fail (EMBERS_IS_NAME_LABEL (self), NULL);
  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (self->text == NULL || width <= 0)
    return self->text;
  return shown_for (self, width);
}
