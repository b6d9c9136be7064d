/* embers-shot.c: puts the window into one state and keeps it on screen,
 * for screenshots under Xvfb (not a test; see tests/app/meson.build)
 *
 * usage: embers-shot STATE [dark] [FILE]
 *   STATE: empty, recent, shortcuts, about, loaded, focused, search, sandwich, bottom-up, flame, menu,
 *          call-tree, call-tree-inverted (a 4th argument: a search),
 *          demo-over-time (as demo; Show Over Time of EMBERS_SHOT_FRAME),
 *          chips (three frame actions: drop, merge, collapse a package),
 *          compare (FILE is the baseline, then COMP [red-green|red-blue] [call-tree|call-tree-inverted]),
 *          compare-queries (FILE and COMP as one local source's last two hours),
 *          explore, labels, rule (FILE is a folder of profiles, then SERVICE;
 *          labels: EMBERS_SHOT_LABEL and EMBERS_SHOT_VIEW as for demo-labels),
 *          demo, demo-labels, demo-rule, demo-compare (FILE is tests/fixtures/go: services over two hours;
 *          demo-compare: the tab's Compare view, this hour against the one before;
 *          demo-labels: EMBERS_SHOT_VIEW=series|total|maximum|histogram|table, EMBERS_SHOT_LABEL=region|pod,
 *          EMBERS_SHOT_SAME_SCALE=0),
 *          rules (FILE is a server's URL, e.g. embers-test-server --recording-rules),
 *          server-rule (FILE is a server's URL, then SERVICE and FUNCTION: the rule dialog
 *          from that function's frame), server-rules (the same tab's Recording Rules view),
 *          connect (FILE is a server's URL, typed in the connect dialog; with a 4th argument
 *          "test", its Test Connection pressed),
 *          regressions (FILE is a folder of version folders, lined up; with a 4th argument
 *          "reverse", the newest first; "order", the Order popover open; "diff", the first
 *          row's Open Diff: the comparison with its noise test)
 *   dark: dark, light, hc (high contrast) or hc-dark
 *   EMBERS_LOCALEDIR=build/po LANGUAGE=de: the German catalog from a build
 *   EMBERS_SHOT_SIZE=600x500: the window's size (default 1360x860)
 *
 * It prints "embers-shot: ready" once the window has painted the state.
 *
 * The README's screenshots (data/screenshots) are taken by
 * build-aux/screenshots.sh: the window at 900x600 with its frame and
 * shadow (942x642 in all) in weston, with GTK 4.24 and libadwaita 1.10 (the
 * Flatpak runtime's), F being tests/fixtures/go: profile.png "search light
 * F/cpu-labels.pb.gz", sandwich-dark.png "sandwich dark F/cpu-labels.pb.gz",
 * compare.png "compare light F/cpu-before.pb.gz F/cpu-after.pb.gz",
 * explore.png "demo light F", labels.png "demo-labels light F", rule.png
 * "server-rule light URL api runtime.gcBgMarkWorker" against
 * embers-test-server --recording-rules, lineup.png "regressions light D"
 * at 958x656, D the versions build-aux/lineup-demo.py writes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <math.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-renderer.h"
#include "embers-call-tree-view.h"
#include "embers-compare-page.h"
#include "embers-explore-page.h"
#include "embers-labels-page.h"
#include "embers-local-source.h"
#include "embers-pyroscope-source.h"
#include "embers-regressions-page.h"
#include "embers-test-gtk-utils.h"
#include "embers-window.h"
#include "embers-workspace.h"
#include "embers-test-gtk-utils.h"

static void
wait_page (EmbersProfilePage *page)
{
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while ((embers_profile_page_get_state (page) == EMBERS_PAGE_STATE_LOADING ||
          embers_profile_page_get_busy (page) ||
          embers_profile_page_get_search_pending (page)) &&
         g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

static guint32
find_node (EmbersProfile *profile,
           const char    *name)
{
  for (guint32 i = 0; i < embers_profile_get_n_nodes (profile); i++)
    if (g_str_equal (embers_profile_node_name_str (profile, i), name))
      return i;
  return 0;
}

/* Keeps the window on screen; says when it has painted its state, for
 * build-aux/screenshots.sh, which takes the picture */
static int
keep (GtkWindow *window)
{
  embers_test_wait_size (GTK_WIDGET (window), 100, 100);
  embers_test_wait_frame (GTK_WIDGET (window));
  embers_test_wait_frame (GTK_WIDGET (window));
  g_print ("embers-shot: ready\n");
  fflush (stdout);
  for (;;)
    g_main_context_iteration (NULL, TRUE);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  const char *state = argc > 1 ? argv[1] : "empty";
  gboolean dark = argc > 2 && g_str_has_suffix (argv[2], "dark");
  gboolean high_contrast = argc > 2 && g_str_has_prefix (argv[2], "hc");
  const char *path = argc > 3 ? argv[3] : NULL;
  EmbersWindow *window;
  EmbersProfilePage *page = NULL;
  EmbersFlameGraph *graph;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("EMBERS_LOCALEDIR") ? g_getenv ("EMBERS_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  gtk_init ();
  if (high_contrast)
    {
      /* What libadwaita reads without the settings portal; never in the
       * user's own settings */
      g_autoptr(GSettings) a11y = NULL;

      if (g_strcmp0 (g_getenv ("GSETTINGS_BACKEND"), "memory") != 0)
        {
          g_printerr ("hc needs GSETTINGS_BACKEND=memory\n");
          return 2;
        }
      a11y = g_settings_new ("org.gnome.desktop.a11y.interface");

      g_settings_set_boolean (a11y, "high-contrast", TRUE);
    }
  adw_init ();
  /* The renderer the app picks (embers-renderer.c) */
  embers_renderer_choose (gdk_display_get_default (), NULL);
  /* No animation: the picture is the state, not a moment of a transition */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  /* GNOME's default window buttons, whatever the compositor offers */
  g_object_set (gtk_settings_get_default (), "gtk-decoration-layout", "appmenu:close", NULL);
  /* The application's own style sheet, as EmbersApplication loads it */
  {
    g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (css, "/io/github/emberslab/Embers/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);

  if (g_str_equal (state, "shortcuts") || g_str_equal (state, "about"))
    {
      EmbersApplication *app = embers_application_new ();

      g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
      g_application_register (G_APPLICATION (app), NULL, NULL);
      g_application_activate (G_APPLICATION (app));
      window = EMBERS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
      gtk_window_set_default_size (GTK_WINDOW (window), 1360, 860);
      for (int i = 0; i < 50; i++)
        g_main_context_iteration (NULL, FALSE);
      if (g_str_equal (state, "about"))
        g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
      else
        gtk_widget_activate_action (GTK_WIDGET (window), "win.show-shortcuts", NULL);
      return keep (GTK_WINDOW (window));
    }

  window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1360, 860);
  if (g_getenv ("EMBERS_SHOT_SIZE") != NULL)
    {
      /* EMBERS_SHOT_SIZE=600x500: another window size */
      int w = 0, h = 0;

      if (sscanf (g_getenv ("EMBERS_SHOT_SIZE"), "%dx%d", &w, &h) == 2 && w > 0 && h > 0)
        gtk_window_set_default_size (GTK_WINDOW (window), w, h);
    }
  gtk_window_present (GTK_WINDOW (window));

  if (g_str_equal (state, "compare"))
    {
      /* compare [dark] BASE COMP [red-green] */
      g_autoptr(GFile) base = g_file_new_for_commandline_arg (path != NULL ? path : "base.pb.gz");
      g_autoptr(GFile) comp = g_file_new_for_commandline_arg (argc > 4 ? argv[4] : "comp.pb.gz");
      GtkWidget *compare = embers_window_open_comparison (window, base, comp);

      if (argc > 5 && g_str_equal (argv[5], "red-green"))
        embers_compare_page_set_palette (EMBERS_COMPARE_PAGE (compare), EMBERS_DIFF_PALETTE_RED_GREEN);
      while (embers_compare_page_get_busy (EMBERS_COMPARE_PAGE (compare)))
        g_main_context_iteration (NULL, TRUE);
      wait_page (embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare)));
      /* compare [dark] BASE COMP [red-green|red-blue] call-tree: the comparison's call tree */
      if (argc > 6 && g_str_has_prefix (argv[6], "call-tree"))
        {
          EmbersProfilePage *diff_page = embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare));
          GtkWidget *tree;

          embers_profile_page_set_view (diff_page, EMBERS_VIEW_CALL_TREE);
          wait_page (diff_page);
          tree = embers_test_find_widget (GTK_WIDGET (diff_page), EMBERS_TYPE_CALL_TREE_VIEW, NULL);
          if (g_str_equal (argv[6], "call-tree-inverted"))
            gtk_widget_activate_action (GTK_WIDGET (diff_page), "page.invert", NULL);
          while (!embers_call_tree_view_is_settled (EMBERS_CALL_TREE_VIEW (tree)))
            g_main_context_iteration (NULL, TRUE);
          gtk_widget_grab_focus (tree);
        }
    }
  else if (g_str_equal (state, "regressions"))
    {
      g_autoptr(GFile) folder = g_file_new_for_commandline_arg (path != NULL ? path : ".");
      EmbersRegressionsPage *lineup = embers_regressions_page_new_for_files (&folder, 1);

      embers_window_open_regressions (window, lineup);
      while (embers_regressions_page_get_loading (lineup))
        g_main_context_iteration (NULL, TRUE);
      if (argc > 4 && g_str_equal (argv[4], "reverse"))
        {
          embers_regressions_page_reverse (lineup);
          while (embers_regressions_page_get_loading (lineup))
            g_main_context_iteration (NULL, TRUE);
        }
      else if (argc > 4 && g_str_equal (argv[4], "diff"))
        {
          GtkWidget *compare;

          embers_regressions_page_open_diff (lineup, 0);
          compare = GTK_WIDGET (embers_test_find_widget (GTK_WIDGET (window), EMBERS_TYPE_COMPARE_PAGE, NULL));
          while (compare != NULL && embers_compare_page_get_busy (EMBERS_COMPARE_PAGE (compare)))
            g_main_context_iteration (NULL, TRUE);
          if (compare != NULL)
            wait_page (embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare)));
        }
      else if (argc > 4 && g_str_equal (argv[4], "order"))
        {
          for (int i = 0; i < 50; i++)
            g_main_context_iteration (NULL, FALSE);
          gtk_menu_button_popup (GTK_MENU_BUTTON (embers_test_find_widget (GTK_WIDGET (lineup), GTK_TYPE_MENU_BUTTON,
                                                                           "order_button")));
        }
    }
  else if (g_str_equal (state, "compare-queries"))
    {
      /* compare-queries [dark] BASE COMP: both as profiles of one local
       * source, an hour apart, compared as the hour before vs the last */
      g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
      g_autoptr(GFile) base = g_file_new_for_commandline_arg (path != NULL ? path : "base.pb.gz");
      g_autoptr(GFile) comp = g_file_new_for_commandline_arg (argc > 4 ? argv[4] : "comp.pb.gz");
      g_autoptr(EmbersProfile) before = embers_profile_load_file (base, NULL, NULL);
      g_autoptr(EmbersProfile) after = embers_profile_load_file (comp, NULL, NULL);
      const char *labels[] = { "service_name", "api", NULL };
      gint64 now = g_get_real_time () / 1000;
      g_autofree char *type = NULL;
      g_autoptr(EmbersQuery) q1 = NULL;
      g_autoptr(EmbersQuery) q2 = NULL;
      GtkWidget *compare;

      if (before == NULL || after == NULL)
        return 1;
      for (int i = 0; i < 6; i++)
        {
          embers_local_source_add_profile (source, "before", before, now - (115 - i * 10) * 60000, labels);
          embers_local_source_add_profile (source, "after", after, now - (55 - i * 10) * 60000, labels);
        }
      type = embers_local_source_profile_type_id (before, embers_profile_get_default_sample_type (before));
      q1 = embers_query_new (type, "{service_name=\"api\"}", now - 2 * 3600000, now - 3600000);
      q2 = embers_query_new (type, "{service_name=\"api\"}", now - 3600000, now);
      compare = embers_window_open_compare_queries (window, EMBERS_SOURCE (source), q1, q2, TRUE);
      while (embers_compare_page_get_busy (EMBERS_COMPARE_PAGE (compare)))
        g_main_context_iteration (NULL, TRUE);
      wait_page (embers_compare_page_get_profile_page (EMBERS_COMPARE_PAGE (compare)));
    }
  else if (g_str_equal (state, "demo") || g_str_equal (state, "demo-labels") || g_str_equal (state, "demo-rule") ||
           g_str_equal (state, "demo-compare") || g_str_equal (state, "demo-services") ||
           g_str_equal (state, "demo-over-time"))
    {
      /* demo|demo-labels|demo-rule [dark] FIXTURES-DIR: a local source with
       * services over the last two hours (the api slows down in the last
       * hour; regions and pods as labels), explored like a server */
      g_autoptr(EmbersLocalSource) source = embers_local_source_new ();
      const char *dir = path != NULL ? path : "tests/fixtures/go";
      const char *regions[] = { "eu-west", "us-east", "ap-south" };
      const char *pods[3][6] = {
        { "api-7d4f9", "api-b81c2", "api-0e6d1", "api-5a2c8", "api-93f40", "api-c7b15" },
        { "api-c3e07", "api-f0a55", "api-2b9e4", "api-6d013", "api-a8c72", "api-e41f9" },
        { "api-19d3a", "api-4c8e2", "api-7fa60", "api-b2d5e", "api-d06b7", "api-f83c1" },
      };
      gint64 now = g_get_real_time () / 1000;
      GtkWidget *widget;
      EmbersExplorePage *explore;
      gint64 end;

      for (int i = 0; i < 24; i++)
        {
          gint64 when = now - (115 - i * 5) * 60000;
          g_autofree char *before = g_build_filename (dir, i < 12 ? "cpu-before.pb.gz" : "cpu-after.pb.gz", NULL);
          g_autofree char *web = g_build_filename (dir, "cpu-labels.pb.gz", NULL);
          g_autoptr(GFile) api_file = g_file_new_for_path (before);
          g_autoptr(GFile) web_file = g_file_new_for_path (web);
          g_autoptr(EmbersProfile) api = embers_profile_load_file (api_file, NULL, NULL);
          g_autoptr(EmbersProfile) web_profile = embers_profile_load_file (web_file, NULL, NULL);
          const char *web_labels[] = { "service_name", "web", "region", regions[(i + 1) % 3], NULL };
          /* Each region its own course (profiles per 5 minutes): eu-west
           * steady at two pods, us-east two with a burst to six half an
           * hour ago, ap-south growing from one pod to five */
          int n_pods[3] = { 2, i == 18 || i == 19 ? 6 : 2, 1 + i * 4 / 23 };

          if (api == NULL || web_profile == NULL)
            return 1;
          for (int r = 0; r < 3; r++)
            for (int p = 0; p < n_pods[r]; p++)
              {
                const char *api_labels[] = { "service_name", "api", "region", regions[r], "pod", pods[r][p], NULL };

                /* A few seconds apart, all in the same minute */
                embers_local_source_add_profile (source, "api", api, when - 30000 + (r * 6 + p) * 1000, api_labels);
              }
          if (i % 2 == 0)
            embers_local_source_add_profile (source, "web", web_profile, when, web_labels);
          if (g_str_equal (state, "demo-services"))
            {
              /* More services, each with its own course over the two hours */
              const char *more[] = { "checkout", "payments", "search", "auth", "ingest", "notifications" };

              for (guint m = 0; m < G_N_ELEMENTS (more); m++)
                {
                  const char *labels[] = { "service_name", more[m], "region", regions[m % 3], NULL };
                  int copies = (m == 2 ? 1 + i / 6 : m == 4 ? (i % 6 < 3 ? 3 : 1) : 1 + (int)(m % 2));

                  if (m == 5 && i % 4 != 0)
                    continue;
                  for (int c = 0; c < copies; c++)
                    embers_local_source_add_profile (source, more[m], m % 2 == 0 ? web_profile : api,
                                                     when - c * 7000, labels);
                }
            }
        }
      widget = embers_window_open_explore (window, EMBERS_SOURCE (source), NULL);
      explore = EMBERS_EXPLORE_PAGE (widget);
      end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
      while (g_list_model_get_n_items (embers_explore_page_get_services (explore)) == 0 &&
             g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, TRUE);
      embers_explore_page_select_service (explore, argc > 4 ? argv[4] : "api");
      end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
      while ((embers_explore_page_get_loading (explore) ||
              embers_profile_page_get_busy (embers_explore_page_get_profile_page (explore))) &&
             g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, TRUE);
      for (int i = 0; i < 50; i++)
        g_main_context_iteration (NULL, FALSE);
      if (g_str_equal (state, "demo-labels"))
        {
          EmbersLabelsPage *labels = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));

          end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
          while ((embers_labels_page_get_loading (labels) ||
                  g_list_model_get_n_items (embers_labels_page_get_names (labels)) == 0) &&
                 g_get_monotonic_time () < end)
            g_main_context_iteration (NULL, TRUE);
          const char *view = g_getenv ("EMBERS_SHOT_VIEW");
          const char *views[] = { "series", "total", "maximum", "histogram", "table" };

          embers_labels_page_select_label (labels, g_getenv ("EMBERS_SHOT_LABEL") ? g_getenv ("EMBERS_SHOT_LABEL") : "region");
          while (embers_labels_page_get_loading (labels) && g_get_monotonic_time () < end)
            g_main_context_iteration (NULL, TRUE);
          embers_labels_page_mark_baseline (labels, "eu-west");
          embers_labels_page_mark_comparison (labels, "us-east");
          /* EMBERS_SHOT_SAME_SCALE=0: each card its own scale */
          if (g_strcmp0 (g_getenv ("EMBERS_SHOT_SAME_SCALE"), "0") == 0)
            embers_labels_page_set_same_scale (labels, FALSE);
          for (guint v = 0; view != NULL && v < G_N_ELEMENTS (views); v++)
            if (g_str_equal (view, views[v]))
              embers_labels_page_set_view (labels, (EmbersLabelsView)v);
        }
      else if (g_str_equal (state, "demo-rule"))
        gtk_widget_activate_action (GTK_WIDGET (explore), "explore.create-rule", NULL);
      else if (g_str_equal (state, "demo-over-time"))
        {
          /* Show Over Time of the frame EMBERS_SHOT_FRAME (default: three
           * frames down the heaviest path) */
          EmbersFlameGraph *g = embers_profile_page_get_flame_graph (embers_explore_page_get_profile_page (explore));
          EmbersProfile *profile = embers_flame_graph_get_profile (g);
          guint32 hot[3];
          guint32 node = g_getenv ("EMBERS_SHOT_FRAME") != NULL
                         ? find_node (profile, g_getenv ("EMBERS_SHOT_FRAME"))
                         : (embers_call_tree_heaviest_path (profile, embers_flame_graph_get_sample_type (g), 0, hot, 3) == 3
                            ? hot[2] : 1);

          embers_flame_graph_set_selected_node (g, node);
          gtk_widget_grab_focus (GTK_WIDGET (g));
          gtk_widget_activate_action (GTK_WIDGET (explore), "explore.show-over-time", NULL);
          for (int i = 0; i < 200; i++)
            g_main_context_iteration (NULL, FALSE);
        }
      else if (g_str_equal (state, "demo-services"))
        {
          /* The tab's Services view: every service, checkout a favourite */
          EmbersWorkspace *workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (widget, EMBERS_TYPE_WORKSPACE));
          EmbersServicesPage *services = embers_workspace_get_services_page (workspace);

          embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_SERVICES);
          end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
          while ((embers_services_page_get_loading (services) || embers_services_page_get_n_shown (services) == 0) &&
                 g_get_monotonic_time () < end)
            g_main_context_iteration (NULL, TRUE);
          embers_services_page_set_favourite (services, "checkout", TRUE);
          if (g_getenv ("EMBERS_SHOT_SORT") != NULL)
            embers_services_page_set_sort (services, EMBERS_SERVICE_SORT_TOTAL);
        }
      else if (g_str_equal (state, "demo-compare"))
        {
          /* The Compare view of the tab: this hour against the one before */
          EmbersWorkspace *workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (widget, EMBERS_TYPE_WORKSPACE));
          EmbersComparePage *compare = embers_workspace_get_compare_page (workspace);

          gtk_widget_activate_action (GTK_WIDGET (explore), "explore.compare", NULL);
          embers_compare_page_compare (compare);
          end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
          while (embers_compare_page_get_busy (compare) && g_get_monotonic_time () < end)
            g_main_context_iteration (NULL, TRUE);
          wait_page (embers_compare_page_get_profile_page (compare));
        }
    }
  else if (g_str_equal (state, "explore") || g_str_equal (state, "labels") || g_str_equal (state, "rule"))
    {
      /* explore|labels|rule [dark] FOLDER [SERVICE] */
      g_autoptr(GFile) folder = g_file_new_for_commandline_arg (path != NULL ? path : ".");
      EmbersExplorePage *explore = EMBERS_EXPLORE_PAGE (embers_window_open_folder (window, folder));
      GListModel *services = embers_explore_page_get_services (explore);
      gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

      while (g_list_model_get_n_items (services) == 0 && g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, TRUE);
      if (g_list_model_get_n_items (services) == 0)
        return 1;
      if (argc > 4)
        embers_explore_page_select_service (explore, argv[4]);
      else
        {
          g_autoptr(GtkStringObject) first = g_list_model_get_item (services, 0);

          embers_explore_page_select_service (explore, gtk_string_object_get_string (first));
        }
      end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
      while ((embers_explore_page_get_loading (explore) ||
              embers_profile_page_get_busy (embers_explore_page_get_profile_page (explore))) &&
             g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, TRUE);
      for (int i = 0; i < 50; i++)
        g_main_context_iteration (NULL, FALSE);
      if (g_str_equal (state, "labels"))
        {
          /* EMBERS_SHOT_LABEL, EMBERS_SHOT_VIEW: a label and a view as for demo-labels */
          EmbersLabelsPage *labels = EMBERS_LABELS_PAGE (embers_window_open_labels (window, explore));
          const char *view = g_getenv ("EMBERS_SHOT_VIEW");
          const char *views[] = { "series", "total", "maximum", "histogram", "table" };

          end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
          while (labels != NULL && g_getenv ("EMBERS_SHOT_LABEL") != NULL &&
                 (embers_labels_page_get_loading (labels) ||
                  g_list_model_get_n_items (embers_labels_page_get_names (labels)) == 0) &&
                 g_get_monotonic_time () < end)
            g_main_context_iteration (NULL, TRUE);
          if (labels != NULL && g_getenv ("EMBERS_SHOT_LABEL") != NULL)
            embers_labels_page_select_label (labels, g_getenv ("EMBERS_SHOT_LABEL"));
          for (guint v = 0; labels != NULL && view != NULL && v < G_N_ELEMENTS (views); v++)
            if (g_str_equal (view, views[v]))
              embers_labels_page_set_view (labels, (EmbersLabelsView)v);
        }
      else if (g_str_equal (state, "rule"))
        gtk_widget_activate_action (GTK_WIDGET (explore), "explore.create-rule", NULL);
    }
  else if (g_str_equal (state, "server-rule") || g_str_equal (state, "server-rules"))
    {
      /* server-rule [dark] URL SERVICE FUNCTION */
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersConnectClient) client = embers_connect_client_new (path != NULL ? path : "http://127.0.0.1:4040/", &error);
      g_autoptr(EmbersPyroscopeSource) source = NULL;
      EmbersExplorePage *explore;
      EmbersProfile *profile;
      gint64 end;

      if (client == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      source = embers_pyroscope_source_new (client);
      explore = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
      end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
      while (g_list_model_get_n_items (embers_explore_page_get_services (explore)) == 0 &&
             g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, TRUE);
      embers_explore_page_select_service (explore, argc > 4 ? argv[4] : "api");
      end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
      while ((embers_explore_page_get_loading (explore) ||
              embers_profile_page_get_busy (embers_explore_page_get_profile_page (explore))) &&
             g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, TRUE);
      graph = embers_profile_page_get_flame_graph (embers_explore_page_get_profile_page (explore));
      profile = embers_flame_graph_get_profile (graph);
      if (profile != NULL && argc > 5)
        embers_flame_graph_set_selected_node (graph, find_node (profile, argv[5]));
      if (g_str_equal (state, "server-rules"))
        {
          /* The tab's Recording Rules view */
          EmbersWorkspace *workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (GTK_WIDGET (explore),
                                                                                  EMBERS_TYPE_WORKSPACE));
          EmbersRulesPage *rules;

          embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_RULES);
          rules = embers_workspace_get_rules_page (workspace);
          end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
          while (embers_rules_page_get_loading (rules) && g_get_monotonic_time () < end)
            g_main_context_iteration (NULL, TRUE);
        }
      else
        embers_explore_page_create_rule (explore);
    }
  else if (g_str_equal (state, "connect"))
    {
      EmbersConnectDialog *dialog = embers_window_connect (window, NULL);

      embers_connect_dialog_set_url (dialog, path != NULL ? path : "http://localhost:4040/");
      embers_connect_dialog_set_tenant (dialog, "team-a");
      embers_connect_dialog_set_auth (dialog, EMBERS_AUTH_BASIC, "admin", "password");
      if (argc > 4 && g_str_equal (argv[4], "test"))
        embers_connect_dialog_test_connection (dialog);
    }
  else if (g_str_equal (state, "rules"))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersConnectClient) client = embers_connect_client_new (path != NULL ? path : "http://127.0.0.1:4040/", &error);

      if (client == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      embers_window_open_rules (window, client);
    }
  else if (g_str_equal (state, "recent"))
    {
      g_autofree char *dir = g_path_get_dirname (path != NULL ? path : ".");
      const char *names[] = { "cpu-labels.pb.gz", "heap.pb.gz", "cpu-recursion.pb.gz" };

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          g_autofree char *p = g_build_filename (dir, names[i], NULL);
          g_autoptr(GFile) file = g_file_new_for_path (p);

          page = embers_window_open_file (window, file);
          wait_page (page);
        }
      while (embers_window_get_n_pages (window) > 0)
        gtk_widget_activate_action (GTK_WIDGET (window), "win.close-tab", NULL);
    }
  else if (!g_str_equal (state, "empty"))
    {
      if (path != NULL)
        {
          g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);

          page = embers_window_open_file (window, file);
        }
      else
        page = embers_window_open_sample (window);
      wait_page (page);
      graph = embers_profile_page_get_flame_graph (page);

      if (g_str_equal (state, "focused"))
        {
          EmbersProfile *profile = embers_flame_graph_get_profile (graph);
          guint32 node = find_node (profile, argc > 4 ? argv[4] : "main.handleAPI");

          embers_flame_graph_set_focus_node (graph, node);
          embers_flame_graph_set_selected_node (graph, node);
          gtk_widget_grab_focus (GTK_WIDGET (graph));
        }
      else if (g_str_equal (state, "search"))
        {
          embers_profile_page_set_search (page, argc > 4 ? argv[4] : "main\\.(compress|burn)", TRUE, FALSE);
          wait_page (page);
        }
      else if (g_str_equal (state, "sandwich"))
        {
          gtk_widget_activate_action (GTK_WIDGET (page), "page.sandwich", "s",
                                      argc > 4 ? argv[4] : "main.compress");
          wait_page (page);
        }
      else if (g_str_equal (state, "chips"))
        {
          /* Three frame actions: their chips in order */
          gtk_widget_activate_action (GTK_WIDGET (page), "page.drop-function", "s", "main.burn");
          wait_page (page);
          gtk_widget_activate_action (GTK_WIDGET (page), "page.merge-function", "s", "runtime/pprof.Do");
          wait_page (page);
          gtk_widget_activate_action (GTK_WIDGET (page), "page.collapse-package", "s", "runtime.main");
          wait_page (page);
        }
      else if (g_str_equal (state, "bottom-up"))
        {
          embers_profile_page_set_view (page, EMBERS_VIEW_BOTTOM_UP);
          wait_page (page);
        }
      else if (g_str_equal (state, "call-tree") || g_str_equal (state, "call-tree-inverted"))
        {
          GtkWidget *tree;

          embers_profile_page_set_view (page, EMBERS_VIEW_CALL_TREE);
          wait_page (page);
          tree = embers_test_find_widget (GTK_WIDGET (page), EMBERS_TYPE_CALL_TREE_VIEW, NULL);
          if (g_str_equal (state, "call-tree-inverted"))
            gtk_widget_activate_action (GTK_WIDGET (page), "page.invert", NULL);
          if (argc > 4)
            embers_profile_page_set_search (page, argv[4], TRUE, FALSE);
          while (!embers_call_tree_view_is_settled (EMBERS_CALL_TREE_VIEW (tree)))
            g_main_context_iteration (NULL, TRUE);
          gtk_widget_grab_focus (tree);
        }
      else if (g_str_equal (state, "flame"))
        {
          embers_profile_page_set_view (page, EMBERS_VIEW_FLAME);
          wait_page (page);
        }
      else if (g_str_equal (state, "menu"))
        {
          EmbersProfile *profile = embers_flame_graph_get_profile (graph);

          embers_flame_graph_set_selected_node (graph, find_node (profile, "main.serveStatic"));
          gtk_widget_grab_focus (GTK_WIDGET (graph));
          for (int i = 0; i < 20; i++)
            g_main_context_iteration (NULL, FALSE);
          gtk_widget_activate_action (GTK_WIDGET (graph), "flame.context-menu", NULL);
        }
    }

  return keep (GTK_WINDOW (window));
}
