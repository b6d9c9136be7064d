/* embers-sparkline.c: a small line of a function's share, snapshot by snapshot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "embers-snapshots.h"
#include "embers-sparkline.h"

#define PAD 3.0
#define WIDTH 96
#define HEIGHT 22
#define AREA_HEIGHT 40

struct _EmbersSparkline
{
  GtkWidget            parent_instance;

  double              *values;
  guint                n_values;
  int                  jump;
  EmbersChangeVerdict  verdict;
  EmbersDiffPalette    palette;
  gboolean             area;
};

G_DEFINE_FINAL_TYPE (EmbersSparkline, embers_sparkline, GTK_TYPE_WIDGET)

static void
embers_sparkline_finalize (GObject *object)
{
  EmbersSparkline *self = EMBERS_SPARKLINE (object);

  g_free (self->values);

  G_OBJECT_CLASS (embers_sparkline_parent_class)->finalize (object);
}

static void
embers_sparkline_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  EmbersSparkline *self = EMBERS_SPARKLINE (widget);

  *minimum = *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? WIDTH
                                                                  : self->area ? AREA_HEIGHT : HEIGHT;
}

static void
jump_color (EmbersSparkline *self,
            GdkRGBA         *rgba)
{
  EmbersColor color;

  /* Stop 2 is "bad" (grew), stop 0 "good" (shrank) */
  embers_palette_diff_stop (self->palette, self->verdict == EMBERS_CHANGE_GREW ? 2 : 0, &color);
  *rgba = *(GdkRGBA *)&color;
}

/* Area mode: a bar per point, from the bottom to its value, so that a
 * point alone between gaps shows as well as a run; a gap (NAN) is no bar,
 * never a zero */
static void
snapshot_area (EmbersSparkline *self,
               GtkSnapshot     *snapshot,
               const double    *x,
               const double    *y,
               int              width,
               int              height,
               const GdkRGBA   *fg)
{
  double slot = self->n_values > 1 ? (width - 2 * PAD) / (self->n_values - 1) : width - 2 * PAD;
  double bar = CLAMP (slot * 0.7, 1, 12);
  double bottom = height - PAD;
  GdkRGBA tint = *fg;

  tint.alpha = 0.55;
  for (guint i = 0; i < self->n_values; i++)
    {
      double top;

      if (isnan (x[i]))
        continue;
      /* Zero is a sliver, so that "profiles, all zero" is not a gap */
      top = MIN (y[i], bottom - 1);
      gtk_snapshot_append_color (snapshot, &tint,
                                 &GRAPHENE_RECT_INIT (x[i] - bar / 2, top, bar, bottom - top));
    }
}

static void
embers_sparkline_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  EmbersSparkline *self = EMBERS_SPARKLINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autofree double *x = NULL;
  g_autofree double *y = NULL;
  g_autoptr(GskPathBuilder) builder = NULL;
  g_autoptr(GskPath) path = NULL;
  g_autoptr(GskStroke) stroke = NULL;
  gboolean pen_down = FALSE;
  GdkRGBA fg;

  if (self->n_values == 0 || width <= 0 || height <= 0)
    return;

  gtk_widget_get_color (widget, &fg);
  x = g_new (double, self->n_values);
  y = g_new (double, self->n_values);
  embers_snapshots_sparkline (self->values, self->n_values, width, height, PAD, x, y);

  if (self->area)
    {
      snapshot_area (self, snapshot, x, y, width, height, &fg);
      return;
    }

  builder = gsk_path_builder_new ();
  for (guint i = 0; i < self->n_values; i++)
    {
      if (isnan (x[i]))
        {
          pen_down = FALSE;
          continue;
        }
      if (pen_down)
        gsk_path_builder_line_to (builder, x[i], y[i]);
      else
        gsk_path_builder_move_to (builder, x[i], y[i]);
      pen_down = TRUE;
    }
  path = gsk_path_builder_free_to_path (g_steal_pointer (&builder));
  stroke = gsk_stroke_new (1.5);
  gsk_stroke_set_line_join (stroke, GSK_LINE_JOIN_ROUND);
  fg.alpha *= 0.75;
  gtk_snapshot_append_stroke (snapshot, path, stroke, &fg);

  /* The baseline's point */
  if (!isnan (x[0]))
    {
      g_autoptr(GskPathBuilder) dot = gsk_path_builder_new ();
      g_autoptr(GskPath) dot_path = NULL;

      gsk_path_builder_add_circle (dot, &GRAPHENE_POINT_INIT (x[0], y[0]), 2.5);
      dot_path = gsk_path_builder_free_to_path (g_steal_pointer (&dot));
      fg.alpha = 1;
      gtk_snapshot_append_fill (snapshot, dot_path, GSK_FILL_RULE_WINDING, &fg);
    }

  /* The flagged jump */
  if (self->jump >= 0 && (guint)self->jump + 1 < self->n_values &&
      !isnan (x[self->jump]) && !isnan (x[self->jump + 1]))
    {
      g_autoptr(GskPathBuilder) seg = gsk_path_builder_new ();
      g_autoptr(GskPath) seg_path = NULL;
      g_autoptr(GskStroke) thick = gsk_stroke_new (3.5);
      GdkRGBA color;

      gsk_stroke_set_line_cap (thick, GSK_LINE_CAP_ROUND);
      gsk_path_builder_move_to (seg, x[self->jump], y[self->jump]);
      gsk_path_builder_line_to (seg, x[self->jump + 1], y[self->jump + 1]);
      seg_path = gsk_path_builder_free_to_path (g_steal_pointer (&seg));
      jump_color (self, &color);
      gtk_snapshot_append_stroke (snapshot, seg_path, thick, &color);
    }
}

static void
embers_sparkline_class_init (EmbersSparklineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = embers_sparkline_finalize;
  widget_class->measure = embers_sparkline_measure;
  widget_class->snapshot = embers_sparkline_snapshot;
  gtk_widget_class_set_css_name (widget_class, "sparkline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
embers_sparkline_init (EmbersSparkline *self)
{
  self->jump = -1;
}

GtkWidget *
embers_sparkline_new (void)
{
  return g_object_new (EMBERS_TYPE_SPARKLINE, NULL);
}

void
embers_sparkline_set_values (EmbersSparkline *self,
                             const double    *values,
                             guint            n)
{
  g_return_if_fail (EMBERS_IS_SPARKLINE (self));

  g_free (self->values);
  self->values = n > 0 ? g_memdup2 (values, sizeof (double) * n) : NULL;
  self->n_values = n;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
embers_sparkline_get_n_values (EmbersSparkline *self)
{
  g_return_val_if_fail (EMBERS_IS_SPARKLINE (self), 0);

  return self->n_values;
}

void
embers_sparkline_set_jump (EmbersSparkline     *self,
                           int                  jump,
                           EmbersChangeVerdict  verdict)
{
  g_return_if_fail (EMBERS_IS_SPARKLINE (self));

  self->jump = jump;
  self->verdict = verdict;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
embers_sparkline_get_jump (EmbersSparkline *self)
{
  g_return_val_if_fail (EMBERS_IS_SPARKLINE (self), -1);

  return self->jump;
}

void
embers_sparkline_set_palette (EmbersSparkline   *self,
                              EmbersDiffPalette  palette)
{
  g_return_if_fail (EMBERS_IS_SPARKLINE (self));

  self->palette = palette;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Area mode: a small chart of a series over a range, a bar per point,
 * without the baseline's dot, taller, and as wide as it is given */
void
embers_sparkline_set_area (EmbersSparkline *self,
                           gboolean         area)
{
  g_return_if_fail (EMBERS_IS_SPARKLINE (self));

  area = !!area;
  if (self->area == area)
    return;
  self->area = area;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

gboolean
embers_sparkline_get_area (EmbersSparkline *self)
{
  g_return_val_if_fail (EMBERS_IS_SPARKLINE (self), FALSE);

  return self->area;
}
