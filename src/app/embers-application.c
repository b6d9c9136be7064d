/* embers-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-application.h"
#include "embers-renderer.h"
#include "embers-time.h"
#include "embers-window.h"

struct _EmbersApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  GSettings      *interface_settings;   /* org.gnome.desktop.interface */
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

/* Times in charts and labels follow the desktop's 12 or 24 hours */
static void
update_clock_format (EmbersApplication *self)
{
  g_autofree char *format = g_settings_get_string (self->interface_settings, "clock-format");

  embers_time_set_clock_format (g_strcmp0 (format, "12h") == 0 ? EMBERS_CLOCK_FORMAT_12H
                                                               : EMBERS_CLOCK_FORMAT_24H);
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
                "copyright", "© 2026 The Embers Developers",
                "developers", developers,
                /* Translators: put your names here, one per line */
                "translator-credits", _("translator-credits"),
                NULL);
  /* No links: the project has no public home yet (README.md) */
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

static void compare_action (GSimpleAction *action,
                            GVariant      *param,
                            gpointer       user_data);
static void connect_action (GSimpleAction *action,
                            GVariant      *param,
                            gpointer       user_data);

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_action },
  { .name = "new-window", .activate = new_window_action },
  { .name = "about", .activate = about_action },
  { .name = "compare", .activate = compare_action, .parameter_type = "as" },
  { .name = "connect", .activate = connect_action, .parameter_type = "s" },
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
    { "win.save-view", { "<Control>s", NULL } },
    { "win.close-tab", { "<Control>w", NULL } },
    { "win.show-shortcuts", { "<Control>question", NULL } },
  };

  G_APPLICATION_CLASS (embers_application_parent_class)->startup (app);

  /* Before the first window: cairo where GL would be drawn in software */
  if (gdk_display_get_default () != NULL)
    embers_renderer_choose (gdk_display_get_default (), NULL);

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

  if (source != NULL)
    {
      g_autoptr(GSettingsSchema) interface = g_settings_schema_source_lookup (source, "org.gnome.desktop.interface", TRUE);

      if (interface != NULL && g_settings_schema_has_key (interface, "clock-format"))
        {
          self->interface_settings = g_settings_new ("org.gnome.desktop.interface");
          g_signal_connect_object (self->interface_settings, "changed::clock-format",
                                   G_CALLBACK (update_clock_format), self, G_CONNECT_SWAPPED);
          update_clock_format (self);
        }
    }

  gtk_window_set_default_icon_name (APP_ID);
}

static void
embers_application_activate (GApplication *app)
{
  EmbersWindow *window = get_window (EMBERS_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));
}

static int
embers_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  /* --version needs no window and no running instance */
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("embers %s\n", PACKAGE_VERSION);
      return 0;
    }

  /* Everything else is the primary instance's: a second `embers FILE`
   * or `embers --server URL` reaches the running one (command_line) */
  return -1;
}

/* Each file or folder in a tab of its own, in the order given: a
 * comparison only on request (--diff, app.compare) */
static void
open_files (EmbersWindow  *window,
            GFile        **files,
            int            n_files)
{
  for (int i = 0; i < n_files; i++)
    {
      /* A folder: its profiles as a local source (labels, time, diff) */
      const char *path = g_file_peek_path (files[i]);

      if (path != NULL && g_file_test (path, G_FILE_TEST_IS_DIR))
        embers_window_open_folder (window, files[i]);
      else
        embers_window_open_file (window, files[i]);
    }
}

static void
embers_application_open (GApplication  *app,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  EmbersWindow *window = get_window (EMBERS_APPLICATION (app));

  open_files (window, files, n_files);
  gtk_window_present (GTK_WINDOW (window));
}

/* app.compare(as): the comparison of two files or query URLs, baseline
 * first (embers --diff BASE COMP; also over D-Bus) */
static void
compare_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  g_autofree const char **uris = g_variant_get_strv (param, NULL);
  g_autoptr(GFile) baseline = NULL;
  g_autoptr(GFile) comparison = NULL;
  EmbersWindow *window;

  if (g_strv_length ((char **) uris) != 2)
    {
      g_warning ("app.compare takes two files, baseline and comparison");
      return;
    }
  baseline = g_file_new_for_uri (uris[0]);
  comparison = g_file_new_for_uri (uris[1]);
  window = get_window (EMBERS_APPLICATION (user_data));
  embers_window_open_comparison (window, baseline, comparison);
  gtk_window_present (GTK_WINDOW (window));
}

/* app.connect(s): a Pyroscope server (embers --server URL) */
static void
connect_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  EmbersWindow *window = get_window (EMBERS_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (window));
  embers_window_connect (window, g_variant_get_string (param, NULL));
}

/* In the primary instance, for its own command line and for each later
 * `embers …` (which only forwards its arguments and exits) */
static int
embers_application_command_line (GApplication            *app,
                                 GApplicationCommandLine *command_line)
{
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_autofree const char **args = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  const char *server = NULL;
  gboolean diff = FALSE;

  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &args);
  g_variant_dict_lookup (options, "server", "&s", &server);
  g_variant_dict_lookup (options, "diff", "b", &diff);

  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (files, g_application_command_line_create_file_for_arg (command_line, args[i]));

  if (diff && files->len != 2)
    {
      g_application_command_line_printerr (command_line, "embers: %s\n",
                                           _("--diff takes exactly two profiles: BASE COMP"));
      return 1;
    }

  if (diff)
    {
      g_autofree char *base = g_file_get_uri (files->pdata[0]);
      g_autofree char *comp = g_file_get_uri (files->pdata[1]);
      const char *uris[] = { base, comp, NULL };

      g_action_group_activate_action (G_ACTION_GROUP (app), "compare", g_variant_new_strv (uris, 2));
    }
  else if (files->len > 0)
    g_application_open (app, (GFile **) files->pdata, (int) files->len, "");

  if (server != NULL)
    g_action_group_activate_action (G_ACTION_GROUP (app), "connect", g_variant_new_string (server));

  if (!diff && files->len == 0 && server == NULL)
    g_application_activate (app);

  return 0;
}

static void
embers_application_dispose (GObject *object)
{
  EmbersApplication *self = EMBERS_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->interface_settings);

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
  app_class->command_line = embers_application_command_line;
  app_class->handle_local_options = embers_application_handle_local_options;
}

static void
embers_application_init (EmbersApplication *self)
{
  /* What the window's command line parses; `embers --help` is printed by
   * embers-cli.c, which lists these with the headless options */
  static const GOptionEntry entries[] = {
    { "server", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Connect to a Grafana Pyroscope server (in the running Embers, if there is one)"), N_("URL") },
    { "diff", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("Open the comparison of two profiles, BASE and COMP"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("Print the version and exit"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, N_("FILE…") },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
}

EmbersApplication *
embers_application_new (void)
{
  return g_object_new (EMBERS_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", "/io/github/emberslab/Embers",
                       NULL);
}
