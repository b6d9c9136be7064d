/* embers-rule-copies.c: a recording rule copied as server configuration
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-rule-copies.h"

struct _EmbersRuleCopies
{
  GtkWidget            parent_instance;

  GtkWidget           *override_button;
  GtkWidget           *og_button;
  GtkLabel            *note;
  EmbersRecordingRule *rule;
  char                *tenant;
};

G_DEFINE_FINAL_TYPE (EmbersRuleCopies, embers_rule_copies, GTK_TYPE_WIDGET)

enum {
  SIGNAL_COPIED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
tenant (EmbersRuleCopies *self)
{
  return self->tenant != NULL ? self->tenant : EMBERS_RECORDING_RULE_DEFAULT_TENANT;
}

void
embers_rule_copies_copy (EmbersRuleCopies *self,
                         gboolean          override)
{
  g_autofree char *config = NULL;
  g_autofree char *warning = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (EMBERS_IS_RULE_COPIES (self));

  if (self->rule == NULL)
    return;
  if (override)
    {
      config = embers_recording_rule_to_tenant_override (self->rule, tenant (self));
      /* Translators: %s is a tenant id, e.g. anonymous */
      text = g_strdup_printf (_("Copied as a per-tenant “recording_rules” override for tenant “%s”"), tenant (self));
    }
  else
    {
      config = embers_recording_rule_to_og_config (self->rule, &warning);
      text = warning != NULL
        ? g_strdup_printf (_("Copied as a “metrics-export-rules” entry for the original "
                             "Pyroscope’s configuration. Before you use it: %s"), warning)
        : g_strdup (_("Copied as a “metrics-export-rules” entry for the original Pyroscope’s configuration"));
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), config);
  g_signal_emit (self, signals[SIGNAL_COPIED], 0, text, warning != NULL);
}

static void
on_copy_override (EmbersRuleCopies *self)
{
  embers_rule_copies_copy (self, TRUE);
}

static void
on_copy_og (EmbersRuleCopies *self)
{
  embers_rule_copies_copy (self, FALSE);
}

void
embers_rule_copies_set_rule (EmbersRuleCopies          *self,
                             const EmbersRecordingRule *rule)
{
  g_return_if_fail (EMBERS_IS_RULE_COPIES (self));

  g_clear_pointer (&self->rule, embers_recording_rule_free);
  self->rule = rule != NULL ? embers_recording_rule_copy (rule) : NULL;
  gtk_widget_set_sensitive (self->override_button, rule != NULL);
  gtk_widget_set_sensitive (self->og_button, rule != NULL);
}

void
embers_rule_copies_set_tenant (EmbersRuleCopies *self,
                               const char       *tenant_id)
{
  g_autofree char *note = NULL;

  g_return_if_fail (EMBERS_IS_RULE_COPIES (self));

  g_free (self->tenant);
  self->tenant = g_strdup (tenant_id);
  /* Translators: %s is a tenant id, e.g. anonymous */
  note = g_strdup_printf (_("A tenant override goes into Pyroscope’s runtime configuration "
                            "file (-runtime-config.file), under overrides for tenant “%s”."),
                          tenant (self));
  gtk_label_set_text (self->note, note);
}

void
embers_rule_copies_set_suggested (EmbersRuleCopies *self,
                                  gboolean          suggested)
{
  g_return_if_fail (EMBERS_IS_RULE_COPIES (self));

  if (suggested)
    gtk_widget_add_css_class (self->override_button, "suggested-action");
  else
    gtk_widget_remove_css_class (self->override_button, "suggested-action");
}

GtkWidget *
embers_rule_copies_get_first (EmbersRuleCopies *self)
{
  g_return_val_if_fail (EMBERS_IS_RULE_COPIES (self), NULL);
  return self->override_button;
}

static void
embers_rule_copies_dispose (GObject *object)
{
  EmbersRuleCopies *self = EMBERS_RULE_COPIES (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_RULE_COPIES);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->rule, embers_recording_rule_free);
  g_clear_pointer (&self->tenant, g_free);

  G_OBJECT_CLASS (embers_rule_copies_parent_class)->dispose (object);
}

static void
embers_rule_copies_class_init (EmbersRuleCopiesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_rule_copies_dispose;

  /**
   * EmbersRuleCopies::copied:
   * @text: what was copied, for people
   * @warning: whether the text warns
   */
  signals[SIGNAL_COPIED] = g_signal_new ("copied", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                         G_TYPE_STRING, G_TYPE_BOOLEAN);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-rule-copies.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersRuleCopies, override_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersRuleCopies, og_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersRuleCopies, note);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_override);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_og);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "rulecopies");
}

static void
embers_rule_copies_init (EmbersRuleCopies *self)
{
  GtkLayoutManager *layout;

  gtk_widget_init_template (GTK_WIDGET (self));
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
  embers_rule_copies_set_tenant (self, NULL);
  embers_rule_copies_set_rule (self, NULL);
}

GtkWidget *
embers_rule_copies_new (void)
{
  return g_object_new (EMBERS_TYPE_RULE_COPIES, NULL);
}
