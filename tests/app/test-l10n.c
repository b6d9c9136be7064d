/* test-l10n.c: the window follows the locale (German from the build's
 * po/ directory, LANGUAGE=de over C.UTF-8, so no locale needs generating)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-window.h"
#include "embers-test-gtk-utils.h"

static GtkWidget *
find_tooltip (GtkWidget  *widget,
              const char *tooltip)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (widget), tooltip) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_tooltip (child, tooltip);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static AdwStatusPage *
find_status_page (GtkWidget *widget)
{
  if (ADW_IS_STATUS_PAGE (widget) && gtk_widget_get_mapped (widget))
    return ADW_STATUS_PAGE (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      AdwStatusPage *found = find_status_page (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The catalog itself: plain, plural and context lookups */
static void
test_catalog (void)
{
  g_assert_cmpstr (_("Open a Profile (Ctrl+O)"), ==, "Ein Profil öffnen (Strg+O)");
  g_assert_cmpstr (g_dngettext (GETTEXT_PACKAGE, "%u local profile", "%u local profiles", 1), ==, "%u lokales Profil");
  g_assert_cmpstr (g_dngettext (GETTEXT_PACKAGE, "%u local profile", "%u local profiles", 3), ==, "%u lokale Profile");
  g_assert_cmpstr (g_dpgettext2 (GETTEXT_PACKAGE, "shortcut window", "Quit"), ==, "Beenden");
  g_assert_cmpstr (g_dpgettext2 (GETTEXT_PACKAGE, "column", "Self"), ==, "Eigen");
}

/* What a person sees in the empty window: the header bar's tooltips and
 * the status page come from the templates, translated */
static void
test_window (void)
{
  EmbersWindow *window = embers_window_new (NULL);
  AdwStatusPage *status;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_mapped (GTK_WIDGET (window));

  g_assert_nonnull (find_tooltip (GTK_WIDGET (window), "Ein Profil öffnen (Strg+O)"));
  g_assert_nonnull (find_tooltip (GTK_WIDGET (window), "Hauptmenü"));
  g_assert_null (find_tooltip (GTK_WIDGET (window), "Open a Profile (Ctrl+O)"));

  status = find_status_page (GTK_WIDGET (window));
  g_assert_nonnull (status);
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Ein Profil öffnen");

  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_drain ();
}

int
main (int   argc,
      char *argv[])
{
  /* German: meson runs this in a German locale (glibc ignores LANGUAGE in
   * the C and C.UTF-8 locales) */
  g_setenv ("LANGUAGE", "de", TRUE);
  embers_test_gtk_init (&argc, &argv);
  /* gtk_test_init() pins the locale to en_US.UTF-8 (or C); follow the
   * environment again, as the application does */
  setlocale (LC_ALL, "");
  adw_init ();
  bindtextdomain (GETTEXT_PACKAGE, PO_BUILDDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_test_add_func ("/embers/l10n/catalog", test_catalog);
  g_test_add_func ("/embers/l10n/window", test_window);

  return g_test_run ();
}
