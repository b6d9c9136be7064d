/* embers-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-application.h"
#include "embers-window.h"

struct _EmbersApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  char           *server_url;  /* from --server, connected on activate */
};

G_DEFINE_FINAL_TYPE (EmbersApplication, embers_application, ADW_TYPE_APPLICATION)

static EmbersWindow *
get_window (EmbersApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (EMBERS_IS_WINDOW (window))
    return EMBERS_WINDOW (window);
  return embers_window_new (self);
}

static void
update_color_scheme (EmbersApplication *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  AdwColorScheme scheme = ADW_COLOR_SCHEME_DEFAULT;

  if (self->settings != NULL)
    {
      switch (g_settings_get_enum (self->settings, "color-scheme"))
        {
        case 1:
          scheme = ADW_COLOR_SCHEME_FORCE_LIGHT;
          break;
        case 2:
          scheme = ADW_COLOR_SCHEME_FORCE_DARK;
          break;
        default:
          scheme = ADW_COLOR_SCHEME_DEFAULT;
          break;
        }
    }

  adw_style_manager_set_color_scheme (manager, scheme);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (user_data)));

  /* Close each window so that it saves its state */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  EmbersWindow *window = embers_window_new (EMBERS_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (window));
}

static char *
about_debug_info (void)
{
  return g_strdup_printf ("Embers %s (%s)\n"
                          "GLib %u.%u.%u\n"
                          "GTK %u.%u.%u\n"
                          "libadwaita %u.%u.%u\n",
                          PACKAGE_VERSION, APP_ID,
                          glib_major_version, glib_minor_version, glib_micro_version,
                          gtk_get_major_version (), gtk_get_minor_version (), gtk_get_micro_version (),
                          adw_get_major_version (), adw_get_minor_version (), adw_get_micro_version ());
}

#define METAINFO_RESOURCE RESOURCE_PATH "/metainfo.xml"

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char *developers[] = { "The Embers Developers", NULL };
  g_autofree char *debug_info = about_debug_info ();
  AdwDialog *about;

  /* Name, icon, links, licence and this version's release notes come
   * from the metainfo (data/…metainfo.xml.in), the version from meson */
  about = adw_about_dialog_new_from_appdata (METAINFO_RESOURCE, PACKAGE_VERSION);
  g_object_set (about,
                "version", PACKAGE_VERSION,
                "debug-info", debug_info,
                "debug-info-filename", "embers-debug-info.txt",
                "comments", _("Explore profiles as flame graphs: open pprof, folded stacks and Pyroscope JSON, find the hot path, search, sandwich and export."),
                "copyright", "© 2025–2026 The Embers Developers",
                "developers", developers,
                /* Translators: put your names here, one per line */
                "translator-credits", _("translator-credits"),
                NULL);
  adw_about_dialog_add_link (ADW_ABOUT_DIALOG (about), _("User Guide"),
                             "https://github.com/emberslab/embers#using-embers");
  adw_about_dialog_add_link (ADW_ABOUT_DIALOG (about), _("Translations"),
                             "https://github.com/emberslab/embers/tree/main/po");
  adw_about_dialog_add_acknowledgement_section (ADW_ABOUT_DIALOG (about), _("Built With"),
                                                (const char *[]) {
                                                  "GTK https://gtk.org",
                                                  "libadwaita https://gnome.pages.gitlab.gnome.org/libadwaita/",
                                                  "protobuf-c https://github.com/protobuf-c/protobuf-c",
                                                  "libsoup https://libsoup.org",
                                                  "JSON-GLib https://gitlab.gnome.org/GNOME/json-glib",
                                                  NULL });
  adw_about_dialog_add_legal_section (ADW_ABOUT_DIALOG (about), "protobuf-c",
                                      "Copyright © 2008–2023 Dave Benson and the protobuf-c authors",
                                      GTK_LICENSE_BSD, NULL);
  adw_dialog_present (about, GTK_WIDGET (gtk_application_get_active_window (app)));
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_action },
  { .name = "new-window", .activate = new_window_action },
  { .name = "about", .activate = about_action },
};

static void
embers_application_startup (GApplication *app)
{
  EmbersApplication *self = EMBERS_APPLICATION (app);
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.open-folder", { "<Control><Shift>o", NULL } },
    { "win.connect", { "<Control><Shift>l", NULL } },
    { "win.open-location", { "<Control>l", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.close-tab", { "<Control>w", NULL } },
    { "win.show-shortcuts", { "<Control>question", NULL } },
  };

  G_APPLICATION_CLASS (embers_application_parent_class)->startup (app);

  g_set_application_name (_("Embers"));

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema != NULL)
    {
      g_autoptr(GAction) scheme = NULL;

      self->settings = g_settings_new (APP_ID);
      scheme = g_settings_create_action (self->settings, "color-scheme");
      g_action_map_add_action (G_ACTION_MAP (app), scheme);
      g_signal_connect_object (self->settings, "changed::color-scheme",
                               G_CALLBACK (update_color_scheme), self, G_CONNECT_SWAPPED);
    }
  update_color_scheme (self);

  gtk_window_set_default_icon_name (APP_ID);
}

static void
embers_application_activate (GApplication *app)
{
  EmbersApplication *self = EMBERS_APPLICATION (app);
  EmbersWindow *window = get_window (self);

  gtk_window_present (GTK_WINDOW (window));

  /* embers --server URL */
  if (self->server_url != NULL)
    {
      g_autofree char *url = g_steal_pointer (&self->server_url);

      embers_window_connect (window, url);
    }
}

static int
embers_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  EmbersApplication *self = EMBERS_APPLICATION (app);
  const char *url = NULL;

  if (g_variant_dict_lookup (options, "server", "&s", &url))
    {
      g_free (self->server_url);
      self->server_url = g_strdup (url);
    }

  return -1;
}

static void
embers_application_open (GApplication  *app,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  EmbersWindow *window = get_window (EMBERS_APPLICATION (app));

  /* embers BASE COMP: two files open as one comparison */
  if (n_files == 2)
    embers_window_open_comparison (window, files[0], files[1]);
  else
    for (int i = 0; i < n_files; i++)
      {
        /* A folder: its profiles as a local source (labels, time, diff) */
        const char *path = g_file_peek_path (files[i]);

        if (path != NULL && g_file_test (path, G_FILE_TEST_IS_DIR))
          embers_window_open_folder (window, files[i]);
        else
          embers_window_open_file (window, files[i]);
      }

  gtk_window_present (GTK_WINDOW (window));
}

static void
embers_application_dispose (GObject *object)
{
  EmbersApplication *self = EMBERS_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->server_url, g_free);

  G_OBJECT_CLASS (embers_application_parent_class)->dispose (object);
}

static void
embers_application_class_init (EmbersApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = embers_application_dispose;

  app_class->startup = embers_application_startup;
  app_class->activate = embers_application_activate;
  app_class->open = embers_application_open;
  app_class->handle_local_options = embers_application_handle_local_options;
}

static void
embers_application_init (EmbersApplication *self)
{
  static const GOptionEntry entries[] = {
    { "server", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Connect to a Grafana Pyroscope server"), N_("URL") },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
}

EmbersApplication *
embers_application_new (void)
{
  return g_object_new (EMBERS_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/emberslab/Embers",
                       NULL);
}
