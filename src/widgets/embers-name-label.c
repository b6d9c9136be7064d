/* embers-name-label.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-name-label.h"
#include "embers-text.h"

/* The text a name cell draws (EmbersNameText) */

const EmbersFontSizes *
embers_font_sizes (GtkWidget *widget)
{
  static GHashTable *sizes = NULL;
  const PangoFontDescription *font = pango_context_get_font_description (gtk_widget_get_pango_context (widget));
  EmbersFontSizes *fs;

  if (sizes == NULL)
    sizes = g_hash_table_new_full ((GHashFunc) pango_font_description_hash,
                                   (GEqualFunc) pango_font_description_equal,
                                   (GDestroyNotify) pango_font_description_free, g_free);
  fs = font != NULL ? g_hash_table_lookup (sizes, font) : NULL;
  if (fs == NULL)
    {
      PangoLayout *probe = gtk_widget_create_pango_layout (widget, "Xg");
      PangoFontMetrics *metrics;
      int w;

      fs = g_new0 (EmbersFontSizes, 1);
      pango_layout_get_pixel_size (probe, NULL, &fs->height);
      fs->baseline = pango_layout_get_baseline (probe) / PANGO_SCALE;
      metrics = pango_context_get_metrics (pango_layout_get_context (probe),
                                           pango_context_get_font_description (pango_layout_get_context (probe)),
                                           NULL);
      fs->char_units = MAX (PANGO_SCALE, pango_font_metrics_get_approximate_char_width (metrics));
      fs->char_width = fs->char_units / PANGO_SCALE;
      pango_font_metrics_unref (metrics);
      pango_layout_set_text (probe, "100.00%", -1);
      pango_layout_get_pixel_size (probe, &w, NULL);
      fs->share_room = w + 12;
      pango_layout_set_text (probe, "\xe2\x80\xa6", -1);
      pango_layout_get_size (probe, &fs->ellipsis, NULL);
      g_object_unref (probe);
      if (font != NULL)
        g_hash_table_insert (sizes, pango_font_description_copy (font), fs);
      else
        {
          /* No font to key it by (never in practice): kept for the
           * next call only */
          static EmbersFontSizes last;

          last = *fs;
          g_free (fs);
          fs = &last;
        }
    }
  return fs;
}

void
embers_name_text_init (EmbersNameText *nt,
                       GtkWidget      *widget,
                       gboolean        is_name)
{
  memset (nt, 0, sizeof *nt);
  nt->widget = widget;
  nt->is_name = !!is_name;
  nt->text_width = -1;
  if (is_name)
    gtk_widget_set_has_tooltip (widget, TRUE);
}

static void
drop_layouts (EmbersNameText *nt)
{
  g_clear_object (&nt->layout);
  g_clear_object (&nt->cut_layout);
  g_clear_pointer (&nt->shown, g_free);
  nt->text_width = -1;
}

void
embers_name_text_clear (EmbersNameText *nt)
{
  drop_layouts (nt);
  g_clear_pointer (&nt->text, g_free);
  g_clear_pointer (&nt->font, pango_font_description_free);
}

gboolean
embers_name_text_set_text (EmbersNameText *nt,
                           const char     *text)
{
  if (g_strcmp0 (text, nt->text) == 0)
    return FALSE;
  g_free (nt->text);
  nt->text = g_strdup (text);
  g_clear_pointer (&nt->shown, g_free);
  /* Shaped when drawn or measured: a row bound out of sight costs
   * nothing more. No tooltip is set here (see query_tooltip) */
  nt->text_width = -1;
  gtk_accessible_update_property (GTK_ACCESSIBLE (nt->widget), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  text != NULL ? text : "", -1);
  gtk_widget_queue_resize (nt->widget);
  return TRUE;
}

static PangoLayout *
whole_layout (EmbersNameText *nt)
{
  if (nt->layout == NULL)
    nt->layout = gtk_widget_create_pango_layout (nt->widget, NULL);
  return nt->layout;
}

/* The whole text's size, measured once per text and font */
static void
ensure_size (EmbersNameText *nt)
{
  PangoLayout *layout;

  if (nt->text_width >= 0)
    return;
  layout = whole_layout (nt);
  pango_layout_set_text (layout, nt->text != NULL ? nt->text : "", -1);
  pango_layout_get_pixel_size (layout, &nt->text_width, &nt->text_height);
  nt->baseline = pango_layout_get_baseline (layout) / PANGO_SCALE;
}

void
embers_name_text_get_size (EmbersNameText *nt,
                           int            *width,
                           int            *height,
                           int            *baseline)
{
  ensure_size (nt);
  if (width != NULL)
    *width = nt->text_width;
  if (height != NULL)
    *height = nt->text_height;
  if (baseline != NULL)
    *baseline = nt->baseline;
}

#define ELLIPSIS "\xe2\x80\xa6"   /* U+2026, as the core's cuts */

typedef struct
{
  PangoLayout *full;       /* the whole text, shaped */
  const char  *text;
  gsize        len;
  int          full_width; /* Pango units */
  int          ellipsis;   /* Pango units */
  PangoLayout *scratch;
  int          width;      /* pixels */
} Fits;

/* Where the glyph at byte @index starts in the whole text, Pango units */
static int
fits_x_at (Fits *fits,
           gsize index)
{
  PangoRectangle pos;

  if (index >= fits->len)
    return fits->full_width;
  pango_layout_index_to_pos (fits->full, (int) index, &pos);
  return pos.x;
}

/* A candidate's width from the whole text's glyphs when it is "…" and an
 * end of the text, or a start of it and "…" (the cuts the core makes):
 * no text is shaped per candidate. Others are shaped. */
static gboolean
fits_width (const char *candidate,
            gpointer    user_data)
{
  Fits *fits = user_data;
  gsize clen = strlen (candidate);
  gsize elen = strlen (ELLIPSIS);
  int w;

  if (clen == fits->len && memcmp (candidate, fits->text, clen) == 0)
    return PANGO_PIXELS_CEIL (fits->full_width) <= fits->width;
  if (clen >= elen && memcmp (candidate, ELLIPSIS, elen) == 0 && clen - elen <= fits->len &&
      memcmp (fits->text + fits->len - (clen - elen), candidate + elen, clen - elen) == 0 &&
      strstr (candidate + elen, ELLIPSIS) == NULL)
    {
      w = fits->ellipsis + fits->full_width - fits_x_at (fits, fits->len - (clen - elen));
      return PANGO_PIXELS_CEIL (w) + 1 <= fits->width;
    }
  if (clen >= elen && memcmp (candidate + clen - elen, ELLIPSIS, elen) == 0 && clen - elen <= fits->len &&
      memcmp (fits->text, candidate, clen - elen) == 0 &&
      g_strstr_len (candidate, clen - elen, ELLIPSIS) == NULL)
    {
      w = fits_x_at (fits, clen - elen) + fits->ellipsis;
      return PANGO_PIXELS_CEIL (w) + 1 <= fits->width;
    }
  pango_layout_set_text (fits->scratch, candidate, -1);
  pango_layout_get_pixel_size (fits->scratch, &w, NULL);
  return w <= fits->width;
}

/* The text drawn at @width: a name that does not fit is cut by the core's
 * rule (the package path first); kept until the width or text changes */
const char *
embers_name_text_get_shown (EmbersNameText *nt,
                            int             width)
{
  ensure_size (nt);
  if (!nt->is_name || nt->text == NULL || nt->text_width <= width)
    return nt->text;
  if (nt->shown == NULL || nt->shown_width != width)
    {
      Fits fits;

      if (nt->cut_layout == NULL)
        nt->cut_layout = gtk_widget_create_pango_layout (nt->widget, NULL);
      fits.full = whole_layout (nt);
      fits.text = nt->text;
      fits.len = strlen (nt->text);
      pango_layout_get_size (fits.full, &fits.full_width, NULL);
      fits.ellipsis = embers_font_sizes (nt->widget)->ellipsis;
      fits.scratch = nt->cut_layout;
      fits.width = width;
      g_free (nt->shown);
      nt->shown = embers_text_shorten_name (nt->text, fits_width, &fits);
      nt->shown_width = width;
      if (g_strcmp0 (pango_layout_get_text (nt->cut_layout), nt->shown) != 0)
        pango_layout_set_text (nt->cut_layout, nt->shown, -1);
    }
  return nt->shown;
}

PangoLayout *
embers_name_text_get_layout (EmbersNameText *nt,
                             int             width)
{
  /* The whole text's layout as measured, or the cut one: no text is
   * shaped again to be drawn */
  return embers_name_text_get_shown (nt, width) == nt->text ? whole_layout (nt) : nt->cut_layout;
}

gboolean
embers_name_text_css_changed (EmbersNameText *nt)
{
  const PangoFontDescription *font;

  /* Another font (a search match is bold) measures differently; a row's
   * hover or selection changes colours only */
  font = pango_context_get_font_description (gtk_widget_get_pango_context (nt->widget));
  if (nt->font != NULL && font != NULL && pango_font_description_equal (font, nt->font))
    return FALSE;
  g_clear_pointer (&nt->font, pango_font_description_free);
  if (font != NULL)
    nt->font = pango_font_description_copy (font);
  drop_layouts (nt);
  gtk_widget_queue_resize (nt->widget);
  return TRUE;
}

gboolean
embers_name_text_query_tooltip (EmbersNameText *nt,
                                GtkTooltip     *tooltip)
{
  if (!nt->is_name || nt->text == NULL || nt->text[0] == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, nt->text);
  return TRUE;
}

/* The label */

/* Characters of a name a table keeps room for at least */
#define MIN_CHARS 34

struct _EmbersNameLabel
{
  GtkWidget       parent_instance;

  EmbersNameText  name;
  int             min_chars;
};

enum {
  PROP_0,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (EmbersNameLabel, embers_name_label, GTK_TYPE_WIDGET)

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
  int w, h, baseline;

  /* Shaped once per text: a table measures its rows again and again */
  embers_name_text_get_size (&self->name, &w, &h, &baseline);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int room = self->min_chars * embers_font_sizes (widget)->char_units / PANGO_SCALE;

      /* A table may squeeze its name column down to a typical name's
       * width (a whole "regexp/syntax.(*compiler).compile"), not below:
       * the numbers' columns give way first */
      *minimum = MIN (w, room);
      *natural = w;
    }
  else
    {
      *minimum = *natural = h;
      *minimum_baseline = *natural_baseline = baseline;
    }
}

static void
embers_name_label_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  EmbersNameLabel *self = EMBERS_NAME_LABEL (widget);
  int width = gtk_widget_get_width (widget);
  PangoLayout *layout;
  GdkRGBA color;
  int h;

  if (self->name.text == NULL || width <= 0)
    return;

  layout = embers_name_text_get_layout (&self->name, width);
  pango_layout_get_pixel_size (layout, NULL, &h);
  gtk_widget_get_color (widget, &color);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, (gtk_widget_get_height (widget) - h) / 2));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

static gboolean
embers_name_label_query_tooltip (GtkWidget  *widget,
                                 int         x,
                                 int         y,
                                 gboolean    keyboard_mode,
                                 GtkTooltip *tooltip)
{
  return embers_name_text_query_tooltip (&EMBERS_NAME_LABEL (widget)->name, tooltip);
}

static void
embers_name_label_css_changed (GtkWidget         *widget,
                               GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (embers_name_label_parent_class)->css_changed (widget, change);
  embers_name_text_css_changed (&EMBERS_NAME_LABEL (widget)->name);
}

static void
embers_name_label_finalize (GObject *object)
{
  EmbersNameLabel *self = EMBERS_NAME_LABEL (object);

  embers_name_text_clear (&self->name);

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
      g_value_set_string (value, self->name.text);
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
  widget_class->query_tooltip = embers_name_label_query_tooltip;
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
  embers_name_text_init (&self->name, GTK_WIDGET (self), TRUE);
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

  if (embers_name_text_set_text (&self->name, text))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

const char *
embers_name_label_get_text (EmbersNameLabel *self)
{
  g_return_val_if_fail (EMBERS_IS_NAME_LABEL (self), NULL);
  return self->name.text;
}

/* What is drawn at the current width (the whole text before the first
 * allocation) */
const char *
embers_name_label_get_shown_text (EmbersNameLabel *self)
{
  int width;

  g_return_val_if_fail (EMBERS_IS_NAME_LABEL (self), NULL);
  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (self->name.text == NULL || width <= 0)
    return self->name.text;
  return embers_name_text_get_shown (&self->name, width);
}
