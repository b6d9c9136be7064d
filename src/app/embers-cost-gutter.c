/* embers-cost-gutter.c: a source view gutter showing each line's cost
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-cost-gutter.h"
#include "embers-units.h"

struct _EmbersCostGutter
{
  GtkSourceGutterRendererText parent_instance;

  EmbersFunctionDetails *details;
  char                  *unit;
  gint64                 max;
};

G_DEFINE_FINAL_TYPE (EmbersCostGutter, embers_cost_gutter, GTK_SOURCE_TYPE_GUTTER_RENDERER_TEXT)

/* Adwaita's orange 3 (#ff7800): the heat of the flame graph's palette */
static const GdkRGBA heat = { 1.0, 0.47, 0.0, 0.32 };

static void
embers_cost_gutter_query_data (GtkSourceGutterRenderer *renderer,
                               GtkSourceGutterLines    *lines,
                               guint                    line)
{
  EmbersCostGutter *self = EMBERS_COST_GUTTER (renderer);
  const EmbersLineCost *cost = NULL;
  g_autofree char *text = NULL;

  if (self->details != NULL)
    cost = embers_function_details_get_line (self->details, (gint64)line + 1);
  if (cost != NULL && cost->total > 0)
    {
      g_autofree char *value = embers_format_value (cost->total, self->unit);
      GdkRGBA fg;

      /* In the text's own colour, not the dimmed one of line numbers:
       * it is read over the bar */
      gtk_widget_get_color (GTK_WIDGET (gtk_source_gutter_renderer_get_view (renderer)), &fg);
      text = g_markup_printf_escaped ("<span foreground=\"#%02x%02x%02x\">%s</span>",
                                      (guint)(fg.red * 255), (guint)(fg.green * 255),
                                      (guint)(fg.blue * 255), value);
    }
  gtk_source_gutter_renderer_text_set_markup (GTK_SOURCE_GUTTER_RENDERER_TEXT (renderer),
                                              text != NULL ? text : "", -1);
}

static void
embers_cost_gutter_snapshot_line (GtkSourceGutterRenderer *renderer,
                                  GtkSnapshot             *snapshot,
                                  GtkSourceGutterLines    *lines,
                                  guint                    line)
{
  EmbersCostGutter *self = EMBERS_COST_GUTTER (renderer);
  const EmbersLineCost *cost = NULL;

  if (self->details != NULL && self->max > 0)
    cost = embers_function_details_get_line (self->details, (gint64)line + 1);
  if (cost != NULL && cost->total > 0)
    {
      double y = 0, height = 0;
      double width = gtk_widget_get_width (GTK_WIDGET (renderer));
      double share = (double)cost->total / (double)self->max;

      gtk_source_gutter_lines_get_line_extent (lines, line, GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_CELL,
                                               &y, &height);
      /* At least a few pixels, so that every line with samples shows */
      gtk_snapshot_append_color (snapshot, &heat,
                                 &GRAPHENE_RECT_INIT (0, y, MAX (3.0, width * share), height));
    }

  GTK_SOURCE_GUTTER_RENDERER_CLASS (embers_cost_gutter_parent_class)->snapshot_line (renderer, snapshot, lines, line);
}

static void
embers_cost_gutter_finalize (GObject *object)
{
  EmbersCostGutter *self = EMBERS_COST_GUTTER (object);

  g_clear_pointer (&self->details, embers_function_details_unref);
  g_clear_pointer (&self->unit, g_free);

  G_OBJECT_CLASS (embers_cost_gutter_parent_class)->finalize (object);
}

static void
embers_cost_gutter_class_init (EmbersCostGutterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkSourceGutterRendererClass *renderer_class = GTK_SOURCE_GUTTER_RENDERER_CLASS (klass);

  object_class->finalize = embers_cost_gutter_finalize;
  renderer_class->query_data = embers_cost_gutter_query_data;
  renderer_class->snapshot_line = embers_cost_gutter_snapshot_line;
}

static void
embers_cost_gutter_init (EmbersCostGutter *self)
{
  gtk_source_gutter_renderer_set_xpad (GTK_SOURCE_GUTTER_RENDERER (self), 6);
  gtk_source_gutter_renderer_set_xalign (GTK_SOURCE_GUTTER_RENDERER (self), 1.0);
  gtk_widget_add_css_class (GTK_WIDGET (self), "numeric");
}

EmbersCostGutter *
embers_cost_gutter_new (void)
{
  return g_object_new (EMBERS_TYPE_COST_GUTTER, NULL);
}

void
embers_cost_gutter_set_costs (EmbersCostGutter      *self,
                              EmbersFunctionDetails *details,
                              const char            *unit)
{
  int widest = 0;

  g_return_if_fail (EMBERS_IS_COST_GUTTER (self));

  g_clear_pointer (&self->details, embers_function_details_unref);
  if (details != NULL)
    self->details = embers_function_details_ref (details);
  g_free (self->unit);
  self->unit = g_strdup (unit);
  self->max = 0;

  if (details != NULL)
    for (guint i = 0; i < details->lines->len; i++)
      {
        const EmbersLineCost *l = &g_array_index (details->lines, EmbersLineCost, i);
        g_autofree char *text = embers_format_value (l->total, unit);
        int width = 0, height = 0;

        self->max = MAX (self->max, l->total);
        gtk_source_gutter_renderer_text_measure (GTK_SOURCE_GUTTER_RENDERER_TEXT (self), text, &width, &height);
        widest = MAX (widest, width);
      }

  gtk_widget_set_size_request (GTK_WIDGET (self), widest > 0 ? widest + 12 : 0, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
embers_cost_gutter_get_color (EmbersCostGutter *self,
                              GdkRGBA          *color)
{
  g_return_if_fail (EMBERS_IS_COST_GUTTER (self));
  *color = heat;
}
