/* embers-status.c: a panel's content, loading or message, in one place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-status.h"

struct _EmbersStatus
{
  GtkWidget          parent_instance;

  GtkWidget         *stack;
  GtkWidget         *overlay;
  GtkWidget         *content;
  GtkWidget         *loading_box;
  GtkWidget         *loading_label;
  AdwStatusPage     *message;
  GtkWidget         *retry_button;

  EmbersStatusState  state;
  gboolean           shown_once;    /* the content has answered once */
  char              *loading_text;
};

G_DEFINE_FINAL_TYPE (EmbersStatus, embers_status, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_CONTENT,
  PROP_STATE,
  PROP_LOADING_TEXT,
  N_PROPS
};

enum
{
  SIGNAL_RETRY,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_state (EmbersStatus      *self,
           EmbersStatusState  state)
{
  gboolean dimmed = state == EMBERS_STATUS_LOADING && self->shown_once;

  if (self->content != NULL)
    {
      /* Loading: the old answer stays, dimmed, and takes no clicks */
      gtk_widget_set_opacity (self->content, state == EMBERS_STATUS_LOADING ? (dimmed ? 0.35 : 0.0) : 1.0);
      gtk_widget_set_can_target (self->content, state == EMBERS_STATUS_CONTENT);
      if (dimmed)
        gtk_widget_add_css_class (self->content, "embers-stale");
      else
        gtk_widget_remove_css_class (self->content, "embers-stale");
    }
  gtk_widget_set_visible (self->loading_box, state == EMBERS_STATUS_LOADING);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack),
                                    state == EMBERS_STATUS_MESSAGE ? "message" : "content");
  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }
}

void
embers_status_show_content (EmbersStatus *self)
{
  g_return_if_fail (EMBERS_IS_STATUS (self));

  self->shown_once = TRUE;
  set_state (self, EMBERS_STATUS_CONTENT);
}

void
embers_status_show_loading (EmbersStatus *self,
                            const char   *text)
{
  g_return_if_fail (EMBERS_IS_STATUS (self));

  if (g_strcmp0 (self->loading_text, text) != 0)
    {
      g_free (self->loading_text);
      self->loading_text = g_strdup (text);
      gtk_label_set_text (GTK_LABEL (self->loading_label), text != NULL ? text : _("Loading…"));
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING_TEXT]);
    }
  /* After a message, the old content is gone: nothing to dim */
  if (self->state == EMBERS_STATUS_MESSAGE)
    self->shown_once = FALSE;
  set_state (self, EMBERS_STATUS_LOADING);
}

void
embers_status_show_message (EmbersStatus *self,
                            const char   *icon_name,
                            const char   *title,
                            const char   *description,
                            gboolean      can_retry)
{
  g_return_if_fail (EMBERS_IS_STATUS (self));

  adw_status_page_set_icon_name (self->message, icon_name);
  adw_status_page_set_title (self->message, title != NULL ? title : "");
  adw_status_page_set_description (self->message, description);
  gtk_widget_set_visible (self->retry_button, can_retry);
  self->shown_once = FALSE;
  set_state (self, EMBERS_STATUS_MESSAGE);
}

EmbersStatusState
embers_status_get_state (EmbersStatus *self)
{
  g_return_val_if_fail (EMBERS_IS_STATUS (self), EMBERS_STATUS_CONTENT);
  return self->state;
}

const char *
embers_status_get_loading_text (EmbersStatus *self)
{
  g_return_val_if_fail (EMBERS_IS_STATUS (self), NULL);
  return self->state == EMBERS_STATUS_LOADING ? self->loading_text : NULL;
}

const char *
embers_status_get_title (EmbersStatus *self)
{
  g_return_val_if_fail (EMBERS_IS_STATUS (self), NULL);
  return self->state == EMBERS_STATUS_MESSAGE ? adw_status_page_get_title (self->message) : NULL;
}

const char *
embers_status_get_description (EmbersStatus *self)
{
  g_return_val_if_fail (EMBERS_IS_STATUS (self), NULL);
  return self->state == EMBERS_STATUS_MESSAGE ? adw_status_page_get_description (self->message) : NULL;
}

gboolean
embers_status_get_can_retry (EmbersStatus *self)
{
  g_return_val_if_fail (EMBERS_IS_STATUS (self), FALSE);
  return self->state == EMBERS_STATUS_MESSAGE && gtk_widget_get_visible (self->retry_button);
}

gboolean
embers_status_get_content_dimmed (EmbersStatus *self)
{
  g_return_val_if_fail (EMBERS_IS_STATUS (self), FALSE);
  return self->state == EMBERS_STATUS_LOADING && self->shown_once && self->content != NULL;
}

void
embers_status_set_content (EmbersStatus *self,
                           GtkWidget    *content)
{
  g_return_if_fail (EMBERS_IS_STATUS (self));
  g_return_if_fail (content == NULL || GTK_IS_WIDGET (content));

  if (self->content == content)
    return;
  self->content = content;
  gtk_overlay_set_child (GTK_OVERLAY (self->overlay), content);
  set_state (self, self->state);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONTENT]);
}

GtkWidget *
embers_status_get_content (EmbersStatus *self)
{
  g_return_val_if_fail (EMBERS_IS_STATUS (self), NULL);
  return self->content;
}

static void
on_retry (EmbersStatus *self)
{
  g_signal_emit (self, signals[SIGNAL_RETRY], 0);
}

/* GObject */

static void
embers_status_dispose (GObject *object)
{
  EmbersStatus *self = EMBERS_STATUS (object);

  g_clear_pointer (&self->stack, gtk_widget_unparent);
  self->content = NULL;

  G_OBJECT_CLASS (embers_status_parent_class)->dispose (object);
}

static void
embers_status_finalize (GObject *object)
{
  EmbersStatus *self = EMBERS_STATUS (object);

  g_free (self->loading_text);

  G_OBJECT_CLASS (embers_status_parent_class)->finalize (object);
}

static void
embers_status_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  EmbersStatus *self = EMBERS_STATUS (object);

  switch (prop_id)
    {
    case PROP_CONTENT:
      g_value_set_object (value, self->content);
      break;
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_LOADING_TEXT:
      g_value_set_string (value, self->loading_text);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_status_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  EmbersStatus *self = EMBERS_STATUS (object);

  switch (prop_id)
    {
    case PROP_CONTENT:
      embers_status_set_content (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_status_class_init (EmbersStatusClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_status_dispose;
  object_class->finalize = embers_status_finalize;
  object_class->get_property = embers_status_get_property;
  object_class->set_property = embers_status_set_property;

  properties[PROP_CONTENT] =
    g_param_spec_object ("content", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL, EMBERS_STATUS_CONTENT, EMBERS_STATUS_MESSAGE, EMBERS_STATUS_CONTENT,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING_TEXT] =
    g_param_spec_string ("loading-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EmbersStatus::retry:
   *
   * Retry was pressed under an error: ask again.
   */
  signals[SIGNAL_RETRY] =
    g_signal_new ("retry", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "status");
}

static void
embers_status_init (EmbersStatus *self)
{
  GtkWidget *spinner = adw_spinner_new ();
  GtkWidget *card;

  self->stack = gtk_stack_new ();
  gtk_stack_set_vhomogeneous (GTK_STACK (self->stack), FALSE);
  gtk_widget_set_parent (self->stack, GTK_WIDGET (self));

  self->overlay = gtk_overlay_new ();
  gtk_stack_add_named (GTK_STACK (self->stack), self->overlay, "content");

  /* What is being loaded, over the dimmed old answer */
  self->loading_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_halign (self->loading_box, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (self->loading_box, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (spinner, 20, 20);
  gtk_box_append (GTK_BOX (self->loading_box), spinner);
  self->loading_label = gtk_label_new (_("Loading…"));
  gtk_label_set_wrap (GTK_LABEL (self->loading_label), TRUE);
  gtk_box_append (GTK_BOX (self->loading_box), self->loading_label);
  card = self->loading_box;
  gtk_widget_add_css_class (card, "embers-loading");
  gtk_widget_add_css_class (card, "osd");
  gtk_widget_set_visible (card, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (card), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Loading"), -1);
  gtk_overlay_add_overlay (GTK_OVERLAY (self->overlay), card);

  /* An error or an empty answer, in place of the content */
  self->message = ADW_STATUS_PAGE (adw_status_page_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "compact");
  self->retry_button = gtk_button_new_with_mnemonic (_("_Retry"));
  gtk_widget_set_halign (self->retry_button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (self->retry_button, "pill");
  g_signal_connect_swapped (self->retry_button, "clicked", G_CALLBACK (on_retry), self);
  adw_status_page_set_child (self->message, self->retry_button);
  gtk_stack_add_named (GTK_STACK (self->stack), GTK_WIDGET (self->message), "message");

  self->state = EMBERS_STATUS_CONTENT;
}

GtkWidget *
embers_status_new (void)
{
  return g_object_new (EMBERS_TYPE_STATUS, NULL);
}
