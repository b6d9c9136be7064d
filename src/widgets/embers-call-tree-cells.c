/* embers-call-tree-cells.c
 *
 * A call tree row is built whenever it scrolls into sight, so its cells
 * are as light as a cell can be: one widget each, which keeps its layout,
 * measures once per text, and asks for a new size only when the text's
 * width changed. The text, a name's cut and its tooltip (answered on
 * demand) are the name label's (EmbersNameText).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-call-tree-cells.h"
#include "embers-name-label.h"

/* Characters of a name its cell keeps room for at least (deep rows are
 * indented) */
#define NAME_MIN_CHARS 6

struct _EmbersCallTreeText
{
  GtkWidget       parent_instance;

  EmbersNameText  name;         /* the text, and a name's cut and tooltip */
  char           *second;       /* a number's share, drawn at the end */
  PangoLayout    *second_layout;
};

G_DEFINE_FINAL_TYPE (EmbersCallTreeText, embers_call_tree_text, GTK_TYPE_WIDGET)

/* Room for the share at the end: the width of "100.00%" and a gap */
static int
text_second_room (EmbersCallTreeText *self)
{
  if (self->second == NULL)
    return 0;
  if (self->second_layout == NULL)
    {
      self->second_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
      pango_layout_set_text (self->second_layout, self->second, -1);
    }
  return embers_font_sizes (GTK_WIDGET (self))->share_room;
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
  const EmbersFontSizes *fs = embers_font_sizes (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* Estimated from the characters: the columns have fixed widths,
       * and a name is cut to its width when drawn, so nothing is shaped
       * to be measured */
      const char *text = self->name.text;
      int chars = text != NULL ? (int) MIN (g_utf8_strlen (text, -1), 4096) : 0;

      *natural = chars * fs->char_width + text_second_room (self);
      *minimum = self->name.is_name ? MIN (chars, NAME_MIN_CHARS) * fs->char_width : *natural;
    }
  else
    {
      *minimum = *natural = fs->height;
      *minimum_baseline = *natural_baseline = fs->baseline;
    }
}

static void
embers_call_tree_text_snapshot (GtkWidget   *widget,
                                GtkSnapshot *snapshot)
{
  EmbersCallTreeText *self = EMBERS_CALL_TREE_TEXT (widget);
  int width = gtk_widget_get_width (widget);
  PangoLayout *layout;
  GdkRGBA color;
  int w, h;

  if (self->name.text == NULL || self->name.text[0] == '\0' || width <= 0)
    return;

  layout = embers_name_text_get_layout (&self->name, width);
  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_widget_get_color (widget, &color);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (self->name.is_name ? 0 : width - text_second_room (self) - w,
                                                (gtk_widget_get_height (widget) - h) / 2));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);

  if (self->second != NULL)
    {
      /* The share, right-aligned at the end, a little dimmer */
      int sw, sh;

      pango_layout_get_pixel_size (self->second_layout, &sw, &sh);
      color.alpha *= 0.75f;
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (width - sw, (gtk_widget_get_height (widget) - sh) / 2));
      gtk_snapshot_append_layout (snapshot, self->second_layout, &color);
      gtk_snapshot_restore (snapshot);
    }
}

static gboolean
embers_call_tree_text_query_tooltip (GtkWidget  *widget,
                                     int         x,
                                     int         y,
                                     gboolean    keyboard_mode,
                                     GtkTooltip *tooltip)
{
  return embers_name_text_query_tooltip (&EMBERS_CALL_TREE_TEXT (widget)->name, tooltip);
}

static void
embers_call_tree_text_css_changed (GtkWidget         *widget,
                                   GtkCssStyleChange *change)
{
  EmbersCallTreeText *self = EMBERS_CALL_TREE_TEXT (widget);

  GTK_WIDGET_CLASS (embers_call_tree_text_parent_class)->css_changed (widget, change);
  if (embers_name_text_css_changed (&self->name))
    g_clear_object (&self->second_layout);
}

static void
embers_call_tree_text_finalize (GObject *object)
{
  EmbersCallTreeText *self = EMBERS_CALL_TREE_TEXT (object);

  embers_name_text_clear (&self->name);
  g_clear_object (&self->second_layout);
  g_free (self->second);

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
}

GtkWidget *
embers_call_tree_text_new (gboolean is_name)
{
  EmbersCallTreeText *self = g_object_new (EMBERS_TYPE_CALL_TREE_TEXT, NULL);

  /* The row's label tells a screen reader the values; the name is said
   * by the tree's expander cell too */
  embers_name_text_init (&self->name, GTK_WIDGET (self), is_name);
  if (!is_name)
    gtk_widget_add_css_class (GTK_WIDGET (self), "numeric");
  return GTK_WIDGET (self);
}

void
embers_call_tree_text_set_text (EmbersCallTreeText *self,
                                const char         *text)
{
  g_return_if_fail (EMBERS_IS_CALL_TREE_TEXT (self));

  embers_name_text_set_text (&self->name, text);
}

const char *
embers_call_tree_text_get_text (EmbersCallTreeText *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_TEXT (self), NULL);
  return self->name.text;
}

const char *
embers_call_tree_text_get_shown_text (EmbersCallTreeText *self)
{
  int width;

  g_return_val_if_fail (EMBERS_IS_CALL_TREE_TEXT (self), NULL);
  width = gtk_widget_get_width (GTK_WIDGET (self));
  if (self->name.text == NULL || width <= 0)
    return self->name.text;
  return embers_name_text_get_shown (&self->name, width);
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

/* The expander */

#define ICON_SIZE 16
#define ICON_GAP  4
#define MARK_ROOM 6

struct _EmbersCallTreeExpander
{
  GtkWidget       parent_instance;

  GtkWidget      *child;
  GtkTreeListRow *row;
  guint           depth;
  PangoLayout    *level_layout;   /* the level of a row past the widest indent */
  gboolean        has_mark;
  GdkRGBA         mark;           /* a diff row's colour, a strip at the start */
};

G_DEFINE_FINAL_TYPE (EmbersCallTreeExpander, embers_call_tree_expander, GTK_TYPE_WIDGET)

static int indent_levels (EmbersCallTreeExpander *self,
                          int                     most);

/* The indent of a row at @depth in a cell @width wide: a level per
 * EMBERS_CALL_TREE_INDENT pixels, up to half the width (the name keeps
 * the rest); room for a diff's strip first */
static int
indent_for (EmbersCallTreeExpander *self,
            int                     width)
{
  int most = MAX (0, (width - ICON_SIZE - ICON_GAP) / 2);

  if (self->has_mark)
    return MARK_ROOM + indent_levels (self, most - MARK_ROOM);
  return indent_levels (self, most);
}

static int
indent_levels (EmbersCallTreeExpander *self,
               int                     most)
{
  int levels = (int) MIN (self->depth, 100000u);

  return MIN (levels * EMBERS_CALL_TREE_INDENT, MAX (0, most) / EMBERS_CALL_TREE_INDENT * EMBERS_CALL_TREE_INDENT);
}

static gboolean
expander_is_clamped (EmbersCallTreeExpander *self,
                     int                     width)
{
  int indent = indent_for (self, width) - (self->has_mark ? MARK_ROOM : 0);

  return self->depth > 0 && indent < (int) MIN (self->depth, 100000u) * EMBERS_CALL_TREE_INDENT;
}

static void
embers_call_tree_expander_measure (GtkWidget      *widget,
                                   GtkOrientation  orientation,
                                   int             for_size,
                                   int            *minimum,
                                   int            *natural,
                                   int            *minimum_baseline,
                                   int            *natural_baseline)
{
  EmbersCallTreeExpander *self = EMBERS_CALL_TREE_EXPANDER (widget);
  int child_min = 0, child_nat = 0, child_min_base = -1, child_nat_base = -1;

  if (self->child != NULL)
    gtk_widget_measure (self->child, orientation, -1, &child_min, &child_nat, &child_min_base, &child_nat_base);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int indent = (int) MIN (self->depth, 100000u) * EMBERS_CALL_TREE_INDENT;

      /* At least the name's minimum; naturally the whole indent too */
      *minimum = ICON_SIZE + ICON_GAP + child_min;
      *natural = indent + ICON_SIZE + ICON_GAP + child_nat;
      if (self->has_mark)
        {
          *minimum += MARK_ROOM;
          *natural += MARK_ROOM;
        }
    }
  else
    {
      *minimum = MAX (ICON_SIZE, child_min);
      *natural = MAX (ICON_SIZE, child_nat);
      if (child_min_base >= 0)
        {
          *minimum_baseline = child_min_base + (*minimum - child_min) / 2;
          *natural_baseline = child_nat_base + (*natural - child_nat) / 2;
        }
    }
}

static void
embers_call_tree_expander_size_allocate (GtkWidget *widget,
                                         int        width,
                                         int        height,
                                         int        baseline)
{
  EmbersCallTreeExpander *self = EMBERS_CALL_TREE_EXPANDER (widget);
  int x = indent_for (self, width) + ICON_SIZE + ICON_GAP;

  if (self->child != NULL)
    gtk_widget_size_allocate (self->child,
                              &(GtkAllocation) { x, 0, MAX (0, width - x), height },
                              baseline);
}

static void
embers_call_tree_expander_snapshot (GtkWidget   *widget,
                                    GtkSnapshot *snapshot)
{
  EmbersCallTreeExpander *self = EMBERS_CALL_TREE_EXPANDER (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int x = indent_for (self, width);
  double cy = height / 2.0;
  GdkRGBA color;

  gtk_widget_get_color (widget, &color);

  if (self->has_mark)
    {
      GskRoundedRect strip;

      gsk_rounded_rect_init_from_rect (&strip, &GRAPHENE_RECT_INIT (0, 1, 4, MAX (0, height - 2)), 2);
      gtk_snapshot_push_rounded_clip (snapshot, &strip);
      gtk_snapshot_append_color (snapshot, &self->mark, &strip.bounds);
      gtk_snapshot_pop (snapshot);
    }

  if (expander_is_clamped (self, width))
    {
      /* Deeper than the indent shows: the level, dimmed, where the
       * indent stops */
      g_autofree char *level = g_strdup_printf ("%u", self->depth + 1);
      GdkRGBA dim = color;
      int w, h;

      if (self->level_layout == NULL)
        {
          self->level_layout = gtk_widget_create_pango_layout (widget, NULL);
          pango_layout_set_attributes (self->level_layout, NULL);
        }
      pango_layout_set_text (self->level_layout, level, -1);
      pango_layout_get_pixel_size (self->level_layout, &w, &h);
      dim.alpha *= 0.55f;
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (MAX (0, x - w - 2), (height - h) / 2));
      gtk_snapshot_append_layout (snapshot, self->level_layout, &dim);
      gtk_snapshot_restore (snapshot);
    }

  if (self->row != NULL && gtk_tree_list_row_is_expandable (self->row))
    {
      g_autoptr(GskPathBuilder) builder = gsk_path_builder_new ();
      g_autoptr(GskPath) path = NULL;
      double cx = x + ICON_SIZE / 2.0;
      double r = 4;

      if (gtk_tree_list_row_get_expanded (self->row))
        {
          /* Pointing down */
          gsk_path_builder_move_to (builder, cx - r, cy - r / 2);
          gsk_path_builder_line_to (builder, cx + r, cy - r / 2);
          gsk_path_builder_line_to (builder, cx, cy + r / 2 + 1);
        }
      else if (gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL)
        {
          gsk_path_builder_move_to (builder, cx + r / 2, cy - r);
          gsk_path_builder_line_to (builder, cx + r / 2, cy + r);
          gsk_path_builder_line_to (builder, cx - r / 2 - 1, cy);
        }
      else
        {
          /* Pointing to the end */
          gsk_path_builder_move_to (builder, cx - r / 2, cy - r);
          gsk_path_builder_line_to (builder, cx - r / 2, cy + r);
          gsk_path_builder_line_to (builder, cx + r / 2 + 1, cy);
        }
      gsk_path_builder_close (builder);
      path = gsk_path_builder_to_path (builder);
      color.alpha *= 0.8f;
      gtk_snapshot_append_fill (snapshot, path, GSK_FILL_RULE_WINDING, &color);
    }

  if (self->child != NULL)
    gtk_widget_snapshot_child (widget, self->child, snapshot);
}

static void
expander_update_state (EmbersCallTreeExpander *self)
{
  if (self->row != NULL && gtk_tree_list_row_is_expandable (self->row))
    gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_EXPANDED,
                                 gtk_tree_list_row_get_expanded (self->row), -1);
  else
    gtk_accessible_reset_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_EXPANDED);
}

static void
on_expanded (EmbersCallTreeExpander *self)
{
  expander_update_state (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_click (GtkGestureClick        *gesture,
          int                     n_press,
          double                  x,
          double                  y,
          EmbersCallTreeExpander *self)
{
  int indent = indent_for (self, gtk_widget_get_width (GTK_WIDGET (self)));

  if (self->row == NULL || !gtk_tree_list_row_is_expandable (self->row) ||
      x < indent || x >= indent + ICON_SIZE + ICON_GAP)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_tree_list_row_set_expanded (self->row, !gtk_tree_list_row_get_expanded (self->row));
}

static void
embers_call_tree_expander_css_changed (GtkWidget         *widget,
                                       GtkCssStyleChange *change)
{
  EmbersCallTreeExpander *self = EMBERS_CALL_TREE_EXPANDER (widget);

  GTK_WIDGET_CLASS (embers_call_tree_expander_parent_class)->css_changed (widget, change);
  g_clear_object (&self->level_layout);
}

static void
embers_call_tree_expander_dispose (GObject *object)
{
  EmbersCallTreeExpander *self = EMBERS_CALL_TREE_EXPANDER (object);

  embers_call_tree_expander_set_list_row (self, NULL);
  g_clear_pointer (&self->child, gtk_widget_unparent);
  g_clear_object (&self->level_layout);

  G_OBJECT_CLASS (embers_call_tree_expander_parent_class)->dispose (object);
}

static void
embers_call_tree_expander_class_init (EmbersCallTreeExpanderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_call_tree_expander_dispose;
  widget_class->measure = embers_call_tree_expander_measure;
  widget_class->size_allocate = embers_call_tree_expander_size_allocate;
  widget_class->snapshot = embers_call_tree_expander_snapshot;
  widget_class->css_changed = embers_call_tree_expander_css_changed;

  gtk_widget_class_set_css_name (widget_class, "call-tree-expander");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
embers_call_tree_expander_init (EmbersCallTreeExpander *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
embers_call_tree_expander_new (GtkWidget *child)
{
  EmbersCallTreeExpander *self = g_object_new (EMBERS_TYPE_CALL_TREE_EXPANDER, NULL);

  self->child = child;
  gtk_widget_set_parent (child, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

GtkWidget *
embers_call_tree_expander_get_child (EmbersCallTreeExpander *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_EXPANDER (self), NULL);
  return self->child;
}

void
embers_call_tree_expander_set_list_row (EmbersCallTreeExpander *self,
                                        GtkTreeListRow         *row)
{
  guint depth;

  g_return_if_fail (EMBERS_IS_CALL_TREE_EXPANDER (self));

  if (row == self->row)
    return;
  if (self->row != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->row, on_expanded, self);
      g_clear_object (&self->row);
    }
  depth = row != NULL ? gtk_tree_list_row_get_depth (row) : 0;
  if (row != NULL)
    {
      self->row = g_object_ref (row);
      g_signal_connect_swapped (row, "notify::expanded", G_CALLBACK (on_expanded), self);
      /* A screen reader's level is 1-based */
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LEVEL,
                                      (int) depth + 1, -1);
    }
  expander_update_state (self);
  if (depth != self->depth)
    {
      self->depth = depth;
      gtk_widget_queue_allocate (GTK_WIDGET (self));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

GtkTreeListRow *
embers_call_tree_expander_get_list_row (EmbersCallTreeExpander *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_EXPANDER (self), NULL);
  return self->row;
}

int
embers_call_tree_expander_get_indent (EmbersCallTreeExpander *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_EXPANDER (self), 0);
  return indent_for (self, gtk_widget_get_width (GTK_WIDGET (self)));
}

void
embers_call_tree_expander_set_mark (EmbersCallTreeExpander *self,
                                    const GdkRGBA          *color)
{
  gboolean has_mark = color != NULL;

  g_return_if_fail (EMBERS_IS_CALL_TREE_EXPANDER (self));

  if (has_mark == self->has_mark && (!has_mark || gdk_rgba_equal (color, &self->mark)))
    return;
  if (has_mark != self->has_mark)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  self->has_mark = has_mark;
  if (has_mark)
    self->mark = *color;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
embers_call_tree_text_set_second (EmbersCallTreeText *self,
                                  const char         *second)
{
  g_return_if_fail (EMBERS_IS_CALL_TREE_TEXT (self));

  if (g_strcmp0 (second, self->second) == 0)
    return;
  if ((second == NULL) != (self->second == NULL))
    gtk_widget_queue_resize (GTK_WIDGET (self));
  g_free (self->second);
  self->second = g_strdup (second);
  if (self->second_layout != NULL && second != NULL)
    pango_layout_set_text (self->second_layout, second, -1);
  else
    g_clear_object (&self->second_layout);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
embers_call_tree_text_get_second (EmbersCallTreeText *self)
{
  g_return_val_if_fail (EMBERS_IS_CALL_TREE_TEXT (self), NULL);
  return self->second;
}
