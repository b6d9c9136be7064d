/* embers-fold-bin.c: a bin that lays its child's parts side by side when
 * they fit and stacks them when they do not
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The child is a GtkBox or a GtkPaned, horizontal as built. The bin's
 * minimum width is that of the parts stacked, so a window can be made as
 * narrow as the widest part; when the width given is less than the parts
 * need side by side (or than the threshold), the child turns vertical.
 * The decision depends on the width alone, so one allocation settles it
 * (libadwaita 1.2 has no breakpoints; AdwLeaflet would show one part at a
 * time instead of both).
 */

#include "config.h"

#include "embers-fold-bin.h"

struct _EmbersFoldBin
{
  GtkWidget  parent_instance;

  GtkWidget *child;
  int        threshold;
  gboolean   folded;
  /* The parts' widths summed and the child's real minimum side by side,
   * when last measured unfolded: folded, the sum alone may say less (the
   * child's own padding), which would unfold and fold again */
  int        parts_width;
  int        wide_width;
};

G_DEFINE_FINAL_TYPE (EmbersFoldBin, embers_fold_bin, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CHILD,
  PROP_THRESHOLD,
  PROP_FOLDED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The parts of the child laid out along @along (summed, with the box's
 * spacing) or across it (the largest), in @orientation */
static void
measure_parts (EmbersFoldBin  *self,
               GtkOrientation  along,
               GtkOrientation  orientation,
               int            *minimum,
               int            *natural)
{
  int min = 0, nat = 0, n = 0;

  for (GtkWidget *part = gtk_widget_get_first_child (self->child);
       part != NULL;
       part = gtk_widget_get_next_sibling (part))
    {
      int part_min = 0, part_nat = 0;

      if (!gtk_widget_get_visible (part))
        continue;
      gtk_widget_measure (part, orientation, -1, &part_min, &part_nat, NULL, NULL);
      if (along == orientation)
        {
          min += part_min;
          nat += part_nat;
        }
      else
        {
          min = MAX (min, part_min);
          nat = MAX (nat, part_nat);
        }
      n++;
    }

  if (along == orientation && n > 1 && GTK_IS_BOX (self->child))
    {
      min += gtk_box_get_spacing (GTK_BOX (self->child)) * (n - 1);
      nat += gtk_box_get_spacing (GTK_BOX (self->child)) * (n - 1);
    }

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    n = gtk_widget_get_margin_start (self->child) + gtk_widget_get_margin_end (self->child);
  else
    n = gtk_widget_get_margin_top (self->child) + gtk_widget_get_margin_bottom (self->child);
  *minimum = min + n;
  *natural = nat + n;
}

/* The width the parts need side by side */
static int
wide_minimum (EmbersFoldBin *self)
{
  int sum = 0, nat = 0, min = 0;

  measure_parts (self, GTK_ORIENTATION_HORIZONTAL, GTK_ORIENTATION_HORIZONTAL, &sum, &nat);
  if (!self->folded)
    {
      gtk_widget_measure (self->child, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      self->parts_width = sum;
      self->wide_width = min;
      return min;
    }
  return sum == self->parts_width ? MAX (sum, self->wide_width) : sum;
}

static gboolean
should_fold (EmbersFoldBin *self,
             int            width)
{
  return width < MAX (self->threshold, wide_minimum (self));
}

static void
embers_fold_bin_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  EmbersFoldBin *self = EMBERS_FOLD_BIN (widget);
  int min = 0, nat = 0;

  if (self->child == NULL || !gtk_widget_get_visible (self->child))
    {
      *minimum = *natural = 0;
      return;
    }

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int child_min = 0, child_nat = 0;

      /* As narrow as the parts stacked, as wide as they like side by side */
      gtk_widget_measure (self->child, orientation, for_size, &child_min, &child_nat, NULL, NULL);
      if (self->folded)
        {
          int wide_min = 0, wide_nat = 0;

          measure_parts (self, GTK_ORIENTATION_HORIZONTAL, orientation, &wide_min, &wide_nat);
          min = child_min;
          nat = MAX (child_nat, wide_nat);
        }
      else
        {
          int folded_nat = 0;

          measure_parts (self, GTK_ORIENTATION_VERTICAL, orientation, &min, &folded_nat);
          min = MIN (min, child_min);
          nat = child_nat;
        }
    }
  else
    {
      /* Without a width, the height as laid out now */
      gboolean fold = for_size < 0 ? self->folded : should_fold (self, for_size);

      if (fold == self->folded)
        gtk_widget_measure (self->child, orientation, for_size, &min, &nat, NULL, NULL);
      else
        {
          /* Not the child as it is laid out now: @for_size may be less
           * than its minimum in that orientation */
          measure_parts (self, fold ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL,
                         orientation, &min, &nat);
        }
    }

  *minimum = min;
  *natural = MAX (min, nat);
}

static void
embers_fold_bin_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  EmbersFoldBin *self = EMBERS_FOLD_BIN (widget);
  gboolean fold;

  if (self->child == NULL || !gtk_widget_get_visible (self->child))
    return;

  fold = should_fold (self, width);
  if (fold != self->folded)
    {
      self->folded = fold;
      gtk_orientable_set_orientation (GTK_ORIENTABLE (self->child),
                                      fold ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLDED]);
    }
  gtk_widget_allocate (self->child, width, height, baseline, NULL);
}

static GtkSizeRequestMode
embers_fold_bin_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* Expands as its child does */
static void
embers_fold_bin_compute_expand (GtkWidget *widget,
                                gboolean  *hexpand,
                                gboolean  *vexpand)
{
  EmbersFoldBin *self = EMBERS_FOLD_BIN (widget);

  *hexpand = self->child != NULL && gtk_widget_compute_expand (self->child, GTK_ORIENTATION_HORIZONTAL);
  *vexpand = self->child != NULL && gtk_widget_compute_expand (self->child, GTK_ORIENTATION_VERTICAL);
}

static void
embers_fold_bin_dispose (GObject *object)
{
  EmbersFoldBin *self = EMBERS_FOLD_BIN (object);

  g_clear_pointer (&self->child, gtk_widget_unparent);

  G_OBJECT_CLASS (embers_fold_bin_parent_class)->dispose (object);
}

static void
embers_fold_bin_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  EmbersFoldBin *self = EMBERS_FOLD_BIN (object);

  switch (prop_id)
    {
    case PROP_CHILD:
      g_value_set_object (value, self->child);
      break;
    case PROP_THRESHOLD:
      g_value_set_int (value, self->threshold);
      break;
    case PROP_FOLDED:
      g_value_set_boolean (value, self->folded);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_fold_bin_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  EmbersFoldBin *self = EMBERS_FOLD_BIN (object);

  switch (prop_id)
    {
    case PROP_CHILD:
      embers_fold_bin_set_child (self, g_value_get_object (value));
      break;
    case PROP_THRESHOLD:
      embers_fold_bin_set_threshold (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_fold_bin_class_init (EmbersFoldBinClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_fold_bin_dispose;
  object_class->get_property = embers_fold_bin_get_property;
  object_class->set_property = embers_fold_bin_set_property;

  widget_class->measure = embers_fold_bin_measure;
  widget_class->size_allocate = embers_fold_bin_size_allocate;
  widget_class->get_request_mode = embers_fold_bin_get_request_mode;
  widget_class->compute_expand = embers_fold_bin_compute_expand;

  properties[PROP_CHILD] =
    g_param_spec_object ("child", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_THRESHOLD] =
    g_param_spec_int ("threshold", NULL, NULL, 0, G_MAXINT, 0,
                      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FOLDED] =
    g_param_spec_boolean ("folded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "foldbin");
}

static void
embers_fold_bin_init (EmbersFoldBin *self)
{
}

GtkWidget *
embers_fold_bin_new (void)
{
  return g_object_new (EMBERS_TYPE_FOLD_BIN, NULL);
}

GtkWidget *
embers_fold_bin_get_child (EmbersFoldBin *self)
{
  g_return_val_if_fail (EMBERS_IS_FOLD_BIN (self), NULL);
  return self->child;
}

void
embers_fold_bin_set_child (EmbersFoldBin *self,
                           GtkWidget     *child)
{
  g_return_if_fail (EMBERS_IS_FOLD_BIN (self));
  g_return_if_fail (child == NULL || GTK_IS_ORIENTABLE (child));

  if (self->child == child)
    return;
  g_clear_pointer (&self->child, gtk_widget_unparent);
  if (child != NULL)
    {
      self->child = child;
      gtk_widget_set_parent (child, GTK_WIDGET (self));
      gtk_orientable_set_orientation (GTK_ORIENTABLE (child),
                                      self->folded ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHILD]);
}

int
embers_fold_bin_get_threshold (EmbersFoldBin *self)
{
  g_return_val_if_fail (EMBERS_IS_FOLD_BIN (self), 0);
  return self->threshold;
}

void
embers_fold_bin_set_threshold (EmbersFoldBin *self,
                               int            threshold)
{
  g_return_if_fail (EMBERS_IS_FOLD_BIN (self));

  if (self->threshold == threshold)
    return;
  self->threshold = threshold;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THRESHOLD]);
}

gboolean
embers_fold_bin_get_folded (EmbersFoldBin *self)
{
  g_return_val_if_fail (EMBERS_IS_FOLD_BIN (self), FALSE);
  return self->folded;
}
