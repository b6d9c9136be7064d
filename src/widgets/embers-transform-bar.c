/* embers-transform-bar.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "embers-transform-bar.h"

struct _EmbersTransformBar
{
  GtkWidget  parent_instance;

  GtkWidget *heading;
  GtkWidget *wrap;
  GtkWidget *clear;
  GPtrArray *chips;        /* GtkButton, in order */
  char      *action_name;
};

G_DEFINE_FINAL_TYPE (EmbersTransformBar, embers_transform_bar, GTK_TYPE_WIDGET)

char *
embers_transform_describe (EmbersTransformKind  kind,
                           const char * const  *args)
{
  const char *last = NULL;

  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    last = args[i];

  /* Translators: the chips of the frame actions applied to a profile, in
   * order; %s is a function's name (or a package's) */
  switch (kind)
    {
    case EMBERS_TRANSFORM_FOCUS_SUBTREE:
      return g_strdup_printf (C_("transform", "Focus on the subtree of %s"), last);
    case EMBERS_TRANSFORM_FOCUS_FUNCTION:
      return g_strdup_printf (C_("transform", "Focus on %s"), last);
    case EMBERS_TRANSFORM_MERGE_FUNCTION:
      return g_strdup_printf (C_("transform", "Merge %s"), last);
    case EMBERS_TRANSFORM_HIDE:
      return g_strdup_printf (C_("transform", "Hide %s"), last);
    case EMBERS_TRANSFORM_DROP_FUNCTION:
      return g_strdup_printf (C_("transform", "Drop samples with %s"), last);
    case EMBERS_TRANSFORM_COLLAPSE_PACKAGE:
      return g_strdup_printf (C_("transform", "Collapse package %s"), last);
    case EMBERS_TRANSFORM_COLLAPSE_RECURSION:
      if (last == NULL)
        return g_strdup (C_("transform", "Collapse recursion"));
      return g_strdup_printf (C_("transform", "Collapse recursion of %s"), last);
    case EMBERS_TRANSFORM_N_KINDS:
    default:
      return g_strdup ("");
    }
}

static GtkWidget *
make_chip (EmbersTransformBar *self,
           guint               index,
           const char         *text,
           const char         *tooltip)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *number = gtk_label_new (NULL);
  GtkWidget *label = gtk_label_new (text);
  g_autofree char *n = g_strdup_printf ("%u", index + 1);
  g_autofree char *a11y = NULL;

  /* The step's place in the order */
  gtk_label_set_text (GTK_LABEL (number), n);
  gtk_widget_add_css_class (number, "chip-number");
  gtk_widget_add_css_class (number, "numeric");
  gtk_widget_add_css_class (number, "dim-label");
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_box_append (GTK_BOX (box), number);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("window-close-symbolic"));
  gtk_button_set_child (GTK_BUTTON (button), box);
  gtk_widget_add_css_class (button, "chip");
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", index);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), self->action_name);

  /* Translators: accessible name of a transform chip's button: %u is its
   * place in the order, %s what it does, e.g. "Merge runtime.mallocgc" */
  a11y = g_strdup_printf (_("Remove step %u: %s"), index + 1, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, a11y,
                                  -1);
  return button;
}

void
embers_transform_bar_set_stack (EmbersTransformBar         *self,
                                const EmbersTransformStack *stack)
{
  GtkWidget *child;
  guint n;

  g_return_if_fail (EMBERS_IS_TRANSFORM_BAR (self));

  while ((child = gtk_widget_get_first_child (self->wrap)) != NULL)
    adw_wrap_box_remove (ADW_WRAP_BOX (self->wrap), child);
  g_ptr_array_set_size (self->chips, 0);

  n = stack != NULL ? embers_transform_stack_get_length (stack) : 0;
  for (guint i = 0; i < n; i++)
    {
      EmbersTransformKind kind = embers_transform_stack_get_kind (stack, i);
      const char * const *args = embers_transform_stack_get_args (stack, i);
      g_autofree char *text = embers_transform_describe (kind, args);
      g_autofree char *path = NULL;
      g_autofree char *tooltip = NULL;
      GtkWidget *chip;

      if (embers_transform_kind_takes_path (kind))
        path = g_strjoinv (" › ", (char **)args);
      /* Translators: the tooltip of a transform chip; the first %s says
       * what it does, the second (when there is one) is the call path */
      if (path != NULL)
        tooltip = g_strdup_printf (C_("transform", "%s\n%s\nClick to remove; the later steps apply again"),
                                   text, path);
      else
        tooltip = g_strdup_printf (C_("transform", "%s\nClick to remove; the later steps apply again"), text);

      chip = make_chip (self, i, text, tooltip);
      adw_wrap_box_append (ADW_WRAP_BOX (self->wrap), chip);
      g_ptr_array_add (self->chips, chip);
    }

  /* Removing all is worth a button from two steps on */
  gtk_widget_set_visible (self->clear, n > 1);
  gtk_widget_set_visible (GTK_WIDGET (self), n > 0);
}

void
embers_transform_bar_set_action_name (EmbersTransformBar *self,
                                      const char         *action_name)
{
  g_return_if_fail (EMBERS_IS_TRANSFORM_BAR (self));

  g_free (self->action_name);
  self->action_name = g_strdup (action_name);
  for (guint i = 0; i < self->chips->len; i++)
    gtk_actionable_set_action_name (g_ptr_array_index (self->chips, i), action_name);
}

guint
embers_transform_bar_get_n_chips (EmbersTransformBar *self)
{
  g_return_val_if_fail (EMBERS_IS_TRANSFORM_BAR (self), 0);
  return self->chips->len;
}

GtkWidget *
embers_transform_bar_get_chip (EmbersTransformBar *self,
                               guint               index)
{
  g_return_val_if_fail (EMBERS_IS_TRANSFORM_BAR (self), NULL);
  g_return_val_if_fail (index < self->chips->len, NULL);
  return g_ptr_array_index (self->chips, index);
}

GtkWidget *
embers_transform_bar_new (void)
{
  return g_object_new (EMBERS_TYPE_TRANSFORM_BAR, NULL);
}

static void
embers_transform_bar_dispose (GObject *object)
{
  EmbersTransformBar *self = EMBERS_TRANSFORM_BAR (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->heading = NULL;
  self->wrap = NULL;
  self->clear = NULL;
  g_clear_pointer (&self->chips, g_ptr_array_unref);

  G_OBJECT_CLASS (embers_transform_bar_parent_class)->dispose (object);
}

static void
embers_transform_bar_finalize (GObject *object)
{
  EmbersTransformBar *self = EMBERS_TRANSFORM_BAR (object);

  g_free (self->action_name);

  G_OBJECT_CLASS (embers_transform_bar_parent_class)->finalize (object);
}

static void
embers_transform_bar_class_init (EmbersTransformBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_transform_bar_dispose;
  object_class->finalize = embers_transform_bar_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "transformbar");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
embers_transform_bar_init (EmbersTransformBar *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  self->chips = g_ptr_array_new ();
  self->action_name = g_strdup ("page.remove-transform");
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 8);
  gtk_widget_add_css_class (GTK_WIDGET (self), "chips-bar");

  /* Translators: the heading before the chips of the frame actions */
  self->heading = gtk_label_new (C_("transforms", "Transforms"));
  gtk_widget_add_css_class (self->heading, "dim-label");
  gtk_widget_add_css_class (self->heading, "caption-heading");
  /* With the chips on several lines, beside the first */
  gtk_widget_set_valign (self->heading, GTK_ALIGN_START);
  gtk_widget_set_margin_top (self->heading, 7);
  gtk_widget_set_parent (self->heading, GTK_WIDGET (self));

  self->wrap = adw_wrap_box_new ();
  adw_wrap_box_set_child_spacing (ADW_WRAP_BOX (self->wrap), 6);
  adw_wrap_box_set_line_spacing (ADW_WRAP_BOX (self->wrap), 4);
  gtk_widget_set_hexpand (self->wrap, TRUE);
  gtk_widget_set_parent (self->wrap, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->wrap),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, C_("transforms", "Transforms"),
                                  -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, C_("transforms", "Transforms"),
                                  -1);

  /* Translators: a button after the transform chips: removes them all */
  self->clear = gtk_button_new_with_label (C_("transforms", "Remove All"));
  gtk_widget_add_css_class (self->clear, "flat");
  gtk_widget_add_css_class (self->clear, "caption");
  gtk_widget_set_valign (self->clear, GTK_ALIGN_START);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->clear), "page.clear-transforms");
  gtk_widget_set_parent (self->clear, GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}
