/* embers-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-application.h"

struct _EmbersApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (EmbersApplication, embers_application, ADW_TYPE_APPLICATION)

static void
embers_application_activate (GApplication *app)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (app));

  gtk_window_set_title (GTK_WINDOW (window), _("Embers"));
  gtk_window_present (GTK_WINDOW (window));
}

static void
embers_application_class_init (EmbersApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = embers_application_activate;
}

static void
embers_application_init (EmbersApplication *self)
{
}

EmbersApplication *
embers_application_new (void)
{
  return g_object_new (EMBERS_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       NULL);
}
