/* test-session-workspace.c: a server's workspace saved (Save View…) and
 * opened again, against the Pyroscope test server (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a person sees must come back: the Compare view of two time ranges
 * with the same diff flame graph, pixel for pixel; a picked individual
 * profile with its chip, and the flame graph of that profile alone with
 * its frame action; the Labels view's label, view and marked values (the
 * marked cards' outlines), the Services view's filter. The file holds no
 * credential.
 */

#include "config.h"

#include <string.h>

#include <fcntl.h>
#include <unistd.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "embers-compare-page.h"
#include "embers-connect-dialog.h"
#include "embers-explore-page.h"
#include "embers-explore-profiles.h"
#include "embers-labels-page.h"
#include "embers-label-stats.h"
#include "embers-pyroscope-source.h"
#include "embers-services-page.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window-private.h"
#include "embers-workspace.h"

#define CPU_TYPE "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define HOUR_MS  (G_GINT64_CONSTANT (3600) * 1000)

static EmbersTestServer *server;

static gboolean
explore_idle (EmbersExplorePage *page)
{
  return !embers_explore_page_get_loading (page) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (page));
}

static gboolean
compare_idle (EmbersComparePage *page)
{
  return !embers_compare_page_get_busy (page) && embers_compare_page_get_diff (page) != NULL &&
         !embers_profile_page_get_busy (embers_compare_page_get_profile_page (page)) &&
         embers_profile_page_get_state (embers_compare_page_get_profile_page (page)) == EMBERS_PAGE_STATE_READY;
}

/* The workspace of the tab shown, when it is one other than @not */
static EmbersWorkspace *
shown_workspace (EmbersWindow    *window,
                 EmbersWorkspace *not)
{
  AdwTabPage *tab = adw_tab_view_get_selected_page (window->tab_view);
  GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;

  return EMBERS_IS_WORKSPACE (child) && child != GTK_WIDGET (not) ? EMBERS_WORKSPACE (child) : NULL;
}

/* A window of 1200 × 800 with a workspace on the test server, on api's
 * CPU time over the hour before @now_ms (whole minutes) */
/* A server tab on @test_server's api service over the hour before
 * @now_ms, its flame graph shown, in a new window; with @password, asked
 * as @user with basic auth */
static EmbersWorkspace *
open_workspace_on (EmbersTestServer *test_server,
                   const char       *user,
                   const char       *password,
                   EmbersWindow    **window_out,
                   gint64            now_ms)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersConnectClient) client = embers_connect_client_new (embers_test_server_get_url (test_server), &error);
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersWorkspace *workspace;
  EmbersQueryModel *model;

  g_assert_no_error (error);
  if (password != NULL)
    embers_connect_client_set_basic_auth (client, user, password);
  /* What the user typed may carry a tenant; it is saved, and used again */
  embers_connect_client_set_tenant (client, "team-a");
  source = embers_pyroscope_source_new (client);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  workspace = EMBERS_WORKSPACE (gtk_widget_get_ancestor (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL),
                                                         EMBERS_TYPE_WORKSPACE));
  model = embers_workspace_get_query (workspace);
  embers_query_model_begin_update (model);
  embers_query_model_set_service (model, "api");
  embers_query_model_set_profile_type (model, CPU_TYPE);
  embers_query_model_set_time_range (model, now_ms - HOUR_MS, now_ms);
  embers_query_model_end_update (model);
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  embers_test_wait_for (explore_idle (embers_workspace_get_explore_page (workspace)));
  *window_out = window;
  return workspace;
}

static EmbersWorkspace *
open_workspace (EmbersWindow **window_out,
                gint64         now_ms)
{
  return open_workspace_on (server, NULL, NULL, window_out, now_ms);
}

static gint64
now_minute (void)
{
  gint64 now = g_get_real_time () / 1000;

  return now - now % 60000;
}

/* Saves the window's tab to @path and opens it again: the new workspace */
static EmbersWorkspace *
save_and_reopen (EmbersWindow    *window,
                 EmbersWorkspace *workspace,
                 const char      *path,
                 char           **text)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  EmbersWorkspace *again;

  g_unlink (path);
  embers_window_save_view_to (window, file);
  embers_test_wait_for (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_get_contents (path, text, NULL, NULL));
  /* No credential; the tenant is there */
  g_assert_null (strstr (*text, "@"));
  g_assert_nonnull (strstr (*text, "\"tenant\" : \"team-a\""));

  embers_window_open_file (window, file);
  embers_test_wait_for ((again = shown_workspace (window, workspace)) != NULL);
  /* One tab for it: the placeholder gave its place */
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 2);
  g_assert_cmpstr (embers_connect_client_get_tenant (
                     embers_pyroscope_source_get_client (EMBERS_PYROSCOPE_SOURCE (embers_workspace_get_source (again)))),
                   ==, "team-a");
  return again;
}

/* The saved tab closed: the reopened one alone, as the saved one was (no
 * tab bar), for its pixels */
static void
close_saved (EmbersWindow    *window,
             EmbersWorkspace *saved)
{
  adw_tab_view_close_page (window->tab_view, adw_tab_view_get_page (window->tab_view, GTK_WIDGET (saved)));
  embers_test_wait_for (embers_window_get_n_pages (window) == 1);
}

static void
assert_same_query (EmbersWorkspace *a,
                   EmbersWorkspace *b)
{
  EmbersQueryModel *ma = embers_workspace_get_query (a);
  EmbersQueryModel *mb = embers_workspace_get_query (b);
  g_autofree char *sa = embers_query_model_dup_selector (ma);
  g_autofree char *sb = embers_query_model_dup_selector (mb);

  g_assert_cmpstr (embers_query_model_get_service (ma), ==, embers_query_model_get_service (mb));
  g_assert_cmpstr (embers_query_model_get_profile_type (ma), ==, embers_query_model_get_profile_type (mb));
  g_assert_cmpstr (sa, ==, sb);
  g_assert_cmpint (embers_query_model_get_start_ms (ma), ==, embers_query_model_get_start_ms (mb));
  g_assert_cmpint (embers_query_model_get_end_ms (ma), ==, embers_query_model_get_end_ms (mb));
}

/* Two pictures of the same size, pixel for pixel */
static void
assert_same_pixels (EmbersTestPixels *a,
                    EmbersTestPixels *b,
                    const char       *label)
{
  guint differ = 0;

  g_assert_cmpint (a->width, ==, b->width);
  g_assert_cmpint (a->height, ==, b->height);
  for (int y = 0; y < a->height; y++)
    for (int x = 0; x < a->width; x++)
      if (embers_test_pixels_get (a, x + a->origin_x, y + a->origin_y) !=
          embers_test_pixels_get (b, x + b->origin_x, y + b->origin_y))
        differ++;
  if (differ > 0)
    {
      g_autofree char *pa = g_strdup_printf ("pixels-%s-saved.png", label);
      g_autofree char *pb = g_strdup_printf ("pixels-%s-reopened.png", label);

      embers_test_pixels_save (a, pa);
      embers_test_pixels_save (b, pb);
      g_error ("%s: %u of %d pixels differ (see %s, %s)", label, differ, a->width * a->height, pa, pb);
    }
}

/* The Compare view of two time ranges: reopened on the Compare view,
 * both sides' queries the same, the diff flame graph the same pixels */
static void
test_compare_ranges (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "compare.embers", NULL);
  g_autofree char *text = NULL;
  gint64 now = now_minute ();
  g_autoptr(EmbersQuery) baseline = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now - 2 * HOUR_MS, now - HOUR_MS);
  g_autoptr(EmbersQuery) comparison = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now - HOUR_MS, now);
  g_autoptr(EmbersQuery) b2 = NULL;
  g_autoptr(EmbersQuery) c2 = NULL;
  g_autoptr(EmbersTestPixels) before = NULL;
  g_autoptr(EmbersTestPixels) after = NULL;
  EmbersWindow *window;
  EmbersWorkspace *workspace = open_workspace (&window, now);
  EmbersWorkspace *again;
  EmbersComparePage *compare = embers_workspace_get_compare_page (workspace);
  EmbersComparePage *compare2;
  GtkWidget *graph;
  gint64 t0 = g_get_monotonic_time ();

  embers_workspace_compare (workspace, baseline, comparison, TRUE);
  embers_test_wait_for (compare_idle (compare));
  g_assert_null (embers_compare_page_get_error (compare));
  embers_compare_page_set_mode (compare, EMBERS_DIFF_MODE_ABSOLUTE);
  graph = embers_compare_page_get_graph (compare);
  embers_test_wait_mapped (graph);
  before = embers_test_render_frame (graph);
  {
    graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (graph), gtk_widget_get_height (graph));

    embers_test_assert_not_blank (before, &all, 4, "session-diff");
  }

  again = save_and_reopen (window, workspace, path, &text);
  g_assert_nonnull (strstr (text, "\"view\" : \"compare\""));
  g_assert_nonnull (strstr (text, "\"diff-mode\" : \"absolute\""));
  g_assert_cmpstr (embers_workspace_get_view (again), ==, EMBERS_WORKSPACE_VIEW_COMPARE);
  assert_same_query (workspace, again);
  /* Its history starts at the restored state */
  g_assert_false (embers_workspace_get_can_go_back (again));
  compare2 = embers_workspace_get_compare_page (again);
  embers_test_wait_for (compare_idle (compare2));
  g_assert_null (embers_compare_page_get_error (compare2));
  g_assert_cmpint (embers_compare_page_get_mode (compare2), ==, EMBERS_DIFF_MODE_ABSOLUTE);
  b2 = embers_compare_page_dup_query (compare2, FALSE);
  c2 = embers_compare_page_dup_query (compare2, TRUE);
  g_assert_cmpint (b2->start_ms, ==, baseline->start_ms);
  g_assert_cmpint (b2->end_ms, ==, baseline->end_ms);
  g_assert_cmpint (c2->start_ms, ==, comparison->start_ms);
  g_assert_cmpint (c2->end_ms, ==, comparison->end_ms);

  /* What a person sees: the same diff */
  close_saved (window, workspace);
  graph = embers_compare_page_get_graph (compare2);
  embers_test_wait_mapped (graph);
  embers_test_wait_for (compare_idle (compare2));
  after = embers_test_render_frame (graph);
  assert_same_pixels (before, after, "session-diff");
  g_test_message ("compare: %.1f s", (g_get_monotonic_time () - t0) / 1e6);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

/* Whether a diff flame graph shows frames that grew (red) and frames
 * that shrank (blue), a few hundred pixels of each */
static gboolean
has_diff_colours (EmbersTestPixels *pixels)
{
  guint red = 0, blue = 0;

  for (int y = 0; y < pixels->height; y++)
    for (int x = 0; x < pixels->width; x++)
      {
        guint32 p = embers_test_pixels_get (pixels, x + pixels->origin_x, y + pixels->origin_y);
        int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

        if (r > b + 80 && r > g + 80)
          red++;
        else if (b > r + 80 && b > g + 30)
          blue++;
      }
  g_test_message ("diff colours: %u red, %u blue pixels", red, blue);
  return red > 200 && blue > 200;
}

/* A profile file of api's CPU time (speedscope, nanoseconds) made from
 * the test server's own data for api (tests/server/data/api.cpu.folded),
 * its first stack four times as heavy: compared with the server's api,
 * that stack shrank and the others grew */
static GFile *
write_api_profile (const char *dir)
{
  g_autofree char *folded_path = g_test_build_filename (G_TEST_DIST, "server", "data", "api.cpu.folded", NULL);
  g_autofree char *folded = NULL;
  g_autofree char *path = g_build_filename (dir, "api-before.speedscope.json", NULL);
  g_auto(GStrv) lines = NULL;
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GString) frames = g_string_new (NULL);
  g_autoptr(GString) samples = g_string_new (NULL);
  g_autoptr(GString) weights = g_string_new (NULL);
  g_autofree char *text = NULL;
  guint n_frames = 0, n_samples = 0;
  guint64 total = 0;

  g_assert_true (g_file_get_contents (folded_path, &folded, NULL, NULL));
  lines = g_strsplit (folded, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *space = strrchr (lines[i], ' ');
      g_auto(GStrv) names = NULL;
      guint64 weight;

      if (space == NULL)
        continue;
      *space = '\0';
      weight = g_ascii_strtoull (space + 1, NULL, 10) * (n_samples == 0 ? 4 : 1);
      names = g_strsplit (lines[i], ";", -1);
      g_string_append_printf (samples, "%s[", n_samples > 0 ? "," : "");
      for (guint k = 0; names[k] != NULL; k++)
        {
          gpointer found;

          if (!g_hash_table_lookup_extended (index, names[k], NULL, &found))
            {
              found = GUINT_TO_POINTER (n_frames++);
              g_hash_table_insert (index, g_strdup (names[k]), found);
              g_string_append_printf (frames, "%s{\"name\":\"%s\"}", n_frames > 1 ? "," : "", names[k]);
            }
          g_string_append_printf (samples, "%s%u", k > 0 ? "," : "", GPOINTER_TO_UINT (found));
        }
      g_string_append_c (samples, ']');
      g_string_append_printf (weights, "%s%" G_GUINT64_FORMAT, n_samples > 0 ? "," : "", weight);
      total += weight;
      n_samples++;
    }
  text = g_strdup_printf ("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
                          "\"shared\":{\"frames\":[%s]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"api\","
                          "\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":%" G_GUINT64_FORMAT ","
                          "\"samples\":[%s],\"weights\":[%s]}]}",
                          frames->str, total, samples->str, weights->str);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return g_file_new_for_path (path);
}

/* A profile file compared with a query of the server (the Compare view
 * with the file as baseline), and a compare tab of a query against a
 * file (the other way round): saved, reopened on the Compare view with
 * the file and the query back, the diff run again, the diff mode, and
 * the same diff flame graph, pixel for pixel */
static void
test_file_and_query (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "mixed.embers", NULL);
  g_autofree char *path2 = g_build_filename (dir, "mixed-tab.embers", NULL);
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;
  g_autoptr(GFile) profile_file = write_api_profile (dir);
  const char *profile = g_file_peek_path (profile_file);
  g_autoptr(GFile) file2 = g_file_new_for_path (path2);
  gint64 now = now_minute ();
  g_autoptr(EmbersQuery) comparison = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now - HOUR_MS, now);
  g_autoptr(EmbersQuery) c2 = NULL;
  g_autoptr(EmbersTestPixels) before = NULL;
  g_autoptr(EmbersTestPixels) after = NULL;
  EmbersWindow *window;
  EmbersWorkspace *workspace = open_workspace (&window, now);
  EmbersWorkspace *again;
  EmbersComparePage *compare = embers_workspace_get_compare_page (workspace);
  EmbersComparePage *compare2, *tab;
  GtkWidget *graph;
  gint64 totals[2];
  gint64 t0 = g_get_monotonic_time ();

  /* The file as baseline (its CPU time), the server's last hour of api */
  embers_workspace_compare (workspace, NULL, comparison, FALSE);
  embers_compare_page_set_side_file (compare, FALSE, profile_file, "time");
  embers_compare_page_compare (compare);
  embers_test_wait_for (!embers_compare_page_get_busy (compare));
  g_assert_cmpstr (embers_compare_page_get_error (compare), ==, NULL);
  embers_test_wait_for (compare_idle (compare));
  /* Shares (the file's frames shrank to nothing, the server's are new)
   * in the Flame Graph view */
  embers_compare_page_set_mode (compare, EMBERS_DIFF_MODE_SHARE);
  embers_profile_page_set_view (embers_compare_page_get_profile_page (compare), EMBERS_VIEW_FLAME);
  embers_test_wait_for (compare_idle (compare));
  for (guint i = 0; i < 2; i++)
    totals[i] = embers_profile_get_total (embers_compare_page_get_diff (compare), i);
  g_assert_cmpint (totals[0], >, 0);
  g_assert_cmpint (totals[1], >, 0);
  graph = embers_compare_page_get_graph (compare);
  embers_test_wait_mapped (graph);
  before = embers_test_render_frame (graph);
  {
    graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (graph), gtk_widget_get_height (graph));

    embers_test_assert_not_blank (before, &all, 4, "session-mixed");
  }
  /* Both sides on screen: the file's frames blue (shrank), the query's
   * red (grew) */
  g_assert_true (has_diff_colours (before));

  again = save_and_reopen (window, workspace, path, &text);
  /* The file by path, with its sample type; the query as a query side */
  {
    g_autofree char *want = g_strdup_printf ("\"file\" : \"%s\",\n        \"sample-type\" : \"time\"", profile);

    g_assert_nonnull (strstr (text, want));
  }
  g_assert_nonnull (strstr (text, "\"diff-mode\" : \"share\""));
  g_assert_cmpstr (embers_workspace_get_view (again), ==, EMBERS_WORKSPACE_VIEW_COMPARE);
  compare2 = embers_workspace_get_compare_page (again);
  embers_test_wait_for (compare_idle (compare2));
  g_assert_null (embers_compare_page_get_error (compare2));
  g_assert_true (g_file_equal (embers_compare_page_get_side_file (compare2, FALSE), profile_file));
  g_assert_cmpstr (embers_compare_page_get_sample_type (compare2, FALSE), ==, "time");
  g_assert_null (embers_compare_page_get_side_file (compare2, TRUE));
  c2 = embers_compare_page_dup_query (compare2, TRUE);
  g_assert_nonnull (c2);
  g_assert_cmpstr (c2->label_selector, ==, comparison->label_selector);
  g_assert_cmpint (c2->start_ms, ==, comparison->start_ms);
  g_assert_cmpint (c2->end_ms, ==, comparison->end_ms);
  g_assert_cmpint (embers_compare_page_get_mode (compare2), ==, EMBERS_DIFF_MODE_SHARE);
  for (guint i = 0; i < 2; i++)
    g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (compare2), i), ==, totals[i]);
  g_assert_cmpint (embers_profile_page_get_view (embers_compare_page_get_profile_page (compare2)), ==,
                   EMBERS_VIEW_FLAME);

  /* What a person sees: the same diff */
  close_saved (window, workspace);
  graph = embers_compare_page_get_graph (compare2);
  embers_test_wait_mapped (graph);
  embers_test_wait_for (compare_idle (compare2));
  after = embers_test_render_frame (graph);
  assert_same_pixels (before, after, "session-mixed");
  g_test_message ("file and query: %.1f s", (g_get_monotonic_time () - t0) / 1e6);

  /* The other way round, in a compare tab of its own: the query the
   * baseline, the file the comparison (its default sample type) */
  tab = EMBERS_COMPARE_PAGE (embers_window_open_compare_queries (window, embers_workspace_get_source (again),
                                                                  comparison, NULL, FALSE));
  embers_compare_page_set_side_file (tab, TRUE, profile_file, NULL);
  embers_compare_page_compare (tab);
  embers_test_wait_for (compare_idle (tab));
  g_assert_null (embers_compare_page_get_error (tab));
  embers_compare_page_set_mode (tab, EMBERS_DIFF_MODE_ABSOLUTE);
  totals[0] = embers_profile_get_total (embers_compare_page_get_diff (tab), 0);
  totals[1] = embers_profile_get_total (embers_compare_page_get_diff (tab), 1);
  embers_window_save_view_to (window, file2);
  embers_test_wait_for (g_file_test (path2, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_get_contents (path2, &text2, NULL, NULL));
  g_assert_null (strstr (text2, "sample-type"));
  embers_window_open_file (window, file2);
  embers_test_wait_for ((again = shown_workspace (window, again)) != NULL);
  g_assert_cmpstr (embers_workspace_get_view (again), ==, EMBERS_WORKSPACE_VIEW_COMPARE);
  g_assert_cmpstr (embers_query_model_get_service (embers_workspace_get_query (again)), ==, "api");
  compare2 = embers_workspace_get_compare_page (again);
  embers_test_wait_for (compare_idle (compare2));
  g_assert_null (embers_compare_page_get_side_file (compare2, FALSE));
  g_assert_true (g_file_equal (embers_compare_page_get_side_file (compare2, TRUE), profile_file));
  g_assert_cmpint (embers_compare_page_get_mode (compare2), ==, EMBERS_DIFF_MODE_ABSOLUTE);
  for (guint i = 0; i < 2; i++)
    g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (compare2), i), ==, totals[i]);
  g_test_message ("file and query, both: %.1f s", (g_get_monotonic_time () - t0) / 1e6);

  /* The file gone: the tab names it */
  {
    g_autofree char *gone = g_build_filename (dir, "gone-before.pb.gz", NULL);
    g_auto(GStrv) parts = g_strsplit (text, profile, -1);
    g_autofree char *moved = g_strjoinv (gone, parts);
    g_autoptr(GFile) moved_file = g_file_new_for_path (path);
    EmbersProfilePage *page;

    g_assert_true (g_file_set_contents (path, moved, -1, NULL));
    page = embers_window_open_file (window, moved_file);
    embers_test_wait_for (embers_profile_page_get_error (page) != NULL);
    g_assert_nonnull (strstr (embers_profile_page_get_error (page), "gone-before.pb.gz"));
  }

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_unlink (path2);
  g_file_delete (profile_file, NULL, NULL);
  g_rmdir (dir);
}

/* ---- A server that wants a password the keyring does not have ---- */

static gint64 flame_total (EmbersExplorePage *page);

#define SECRET_USER "admin"
#define SECRET      "Pw-0f-th3-Test-S3rver"

/* The Connect dialog shown over @window, or NULL */
static EmbersConnectDialog *
shown_connect_dialog (EmbersWindow *window)
{
  AdwDialog *dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window));

  return EMBERS_IS_CONNECT_DIALOG (dialog) ? EMBERS_CONNECT_DIALOG (dialog) : NULL;
}

/* The button of the tab that waits for credentials, when it is shown */
static GtkWidget *
connect_again_button (EmbersWindow *window)
{
  AdwTabPage *tab = adw_tab_view_get_selected_page (window->tab_view);
  GtkWidget *child = tab != NULL ? adw_tab_page_get_child (tab) : NULL;

  return ADW_IS_STATUS_PAGE (child) ? embers_test_find_widget (child, GTK_TYPE_BUTTON, "session-connect") : NULL;
}

/* Whether the captured log holds @needle yet */
static gboolean
log_has (const char *path,
         const char *needle)
{
  g_autofree char *text = NULL;

  fflush (stdout);
  fflush (stderr);
  return g_file_get_contents (path, &text, NULL, NULL) && strstr (text, needle) != NULL;
}

/* The dialog's address is the server's (the dialog shows it without
 * the trailing slash) */
static void
assert_dialog_url (EmbersConnectDialog *dialog,
                   EmbersTestServer    *test_server)
{
  g_autofree char *shown = g_strdup (embers_connect_dialog_get_url (dialog));
  g_autofree char *want = g_strdup (embers_test_server_get_url (test_server));

  if (g_str_has_suffix (shown, "/"))
    shown[strlen (shown) - 1] = '\0';
  if (g_str_has_suffix (want, "/"))
    want[strlen (want) - 1] = '\0';
  g_assert_cmpstr (shown, ==, want);
}

/* Everything logged, at every level, goes to a file while @path is set:
 * standard error and standard output (where GLib's test mode writes
 * debug messages, as TAP comments) */
static int saved_fds[2] = { -1, -1 };

static void
capture_logs (const char *path)
{
  fflush (stdout);
  fflush (stderr);
  if (path != NULL)
    {
      int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

      g_assert_cmpint (fd, >=, 0);
      for (int i = 0; i < 2; i++)
        {
          saved_fds[i] = dup (i + 1);
          dup2 (fd, i + 1);
        }
      close (fd);
      g_setenv ("G_MESSAGES_DEBUG", "all", TRUE);
    }
  else
    {
      g_unsetenv ("G_MESSAGES_DEBUG");
      for (int i = 0; i < 2; i++)
        {
          dup2 (saved_fds[i], i + 1);
          close (saved_fds[i]);
          saved_fds[i] = -1;
        }
    }
}

/* No secret in the window's title, any tab's title or tooltip, or any
 * setting */
static void
assert_no_secret_shown (EmbersWindow *window)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_auto(GStrv) keys = g_settings_schema_list_keys (schema);
  const char *title = gtk_window_get_title (GTK_WINDOW (window));

  g_assert_null (title != NULL ? strstr (title, SECRET) : NULL);
  for (int i = 0; i < adw_tab_view_get_n_pages (window->tab_view); i++)
    {
      AdwTabPage *tab = adw_tab_view_get_nth_page (window->tab_view, i);
      const char *tab_title = adw_tab_page_get_title (tab);
      const char *tooltip = adw_tab_page_get_tooltip (tab);

      g_assert_null (tab_title != NULL ? strstr (tab_title, SECRET) : NULL);
      g_assert_null (tooltip != NULL ? strstr (tooltip, SECRET) : NULL);
    }
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (settings, keys[i]);
      g_autofree char *text = g_variant_print (value, FALSE);

      if (strstr (text, SECRET) != NULL)
        g_error ("the setting %s holds the secret", keys[i]);
    }
}

/* A saved view of a server that wants a password (HTTP Basic behind a
 * proxy: 401 with WWW-Authenticate), opened with no credentials in the
 * keyring or the environment: the Connect dialog, filled in with the
 * server and tenant. Cancel leaves a tab that says what is missing, with
 * a button that asks again; the right password then restores the view,
 * the same flame graph pixel for pixel. The secret is in no log, title,
 * setting or saved file. */
static void
test_needs_credentials (void)
{
  static const char *args[] = { "--basic-auth", SECRET_USER ":" SECRET, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) auth_server = embers_test_server_start (args, &error);
  g_autofree char *dir = g_dir_make_tmp ("embers-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "locked.embers", NULL);
  g_autofree char *path2 = g_build_filename (dir, "again.embers", NULL);
  g_autofree char *log_path = g_build_filename (dir, "log.txt", NULL);
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;
  g_autofree char *log = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) file2 = g_file_new_for_path (path2);
  g_autoptr(EmbersCredentials) prefilled = NULL;
  g_autoptr(EmbersTestPixels) before = NULL;
  g_autoptr(EmbersTestPixels) after = NULL;
  gint64 now = now_minute ();
  EmbersWindow *window = NULL;
  EmbersWorkspace *workspace, *again;
  EmbersExplorePage *explore;
  EmbersConnectDialog *dialog;
  GtkWidget *graph, *button, *status;
  gint64 t0 = g_get_monotonic_time ();
  g_autofree char *server_host = NULL;

  g_assert_no_error (error);
  server_host = g_strdup_printf ("127.0.0.1:%u", embers_test_server_get_port (auth_server));
  /* The view, made with the password (as Connect to Server would) */
  workspace = open_workspace_on (auth_server, SECRET_USER, SECRET, &window, now);
  explore = embers_workspace_get_explore_page (workspace);
  embers_test_wait_for (explore_idle (explore) && flame_total (explore) > 0);
  embers_profile_page_set_view (embers_explore_page_get_profile_page (explore), EMBERS_VIEW_FLAME);
  embers_test_wait_for (explore_idle (explore));
  graph = GTK_WIDGET (embers_profile_page_get_flame_graph (embers_explore_page_get_profile_page (explore)));
  embers_test_wait_mapped (graph);
  before = embers_test_render_frame (graph);

  embers_window_save_view_to (window, file);
  embers_test_wait_for (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_null (strstr (text, SECRET));
  g_assert_null (strstr (text, SECRET_USER));
  /* Only the saved view: the tab made with the password is closed */
  adw_tab_view_close_page (window->tab_view, adw_tab_view_get_page (window->tab_view, GTK_WIDGET (workspace)));
  embers_test_wait_for (embers_window_get_n_pages (window) == 0);

  /* Opened without credentials: the Connect dialog, filled in */
  capture_logs (log_path);
  embers_window_open_file (window, file);
  embers_test_wait_for ((dialog = shown_connect_dialog (window)) != NULL);
  assert_dialog_url (dialog, auth_server);
  prefilled = embers_connect_dialog_dup_credentials (dialog);
  g_assert_cmpstr (prefilled->tenant, ==, "team-a");
  g_assert_cmpint (prefilled->kind, ==, EMBERS_AUTH_BASIC);
  g_assert_true (prefilled->secret == NULL || prefilled->secret[0] == '\0');
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);
  /* It says why it opened, on screen, and waits in the user field */
  g_assert_cmpstr (embers_connect_dialog_get_status (dialog), ==,
                   "The server asks for credentials. Enter them to open the saved view.");
  embers_test_wait_for (embers_test_count_shown_text (GTK_WIDGET (dialog), "The server asks for credentials") == 1);
  embers_test_wait_for (adw_dialog_get_focus (ADW_DIALOG (dialog)) != NULL &&
                        gtk_widget_get_ancestor (adw_dialog_get_focus (ADW_DIALOG (dialog)), ADW_TYPE_ENTRY_ROW) != NULL);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (gtk_widget_get_ancestor (adw_dialog_get_focus (ADW_DIALOG (dialog)),
                                                                                                 ADW_TYPE_ENTRY_ROW))),
                   ==, "User");

  /* Cancel: a tab that says what is missing, and can ask again */
  adw_dialog_close (ADW_DIALOG (dialog));
  embers_test_wait_for (shown_connect_dialog (window) == NULL && (button = connect_again_button (window)) != NULL);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);
  status = gtk_widget_get_ancestor (button, ADW_TYPE_STATUS_PAGE);
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), ==, "Credentials Needed");
  g_test_message ("%s", adw_status_page_get_description (ADW_STATUS_PAGE (status)));
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)), server_host));
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)), "locked.embers"));
  g_assert_cmpstr (adw_tab_page_get_title (adw_tab_view_get_selected_page (window->tab_view)), ==, "locked.embers");
  embers_test_wait_mapped (button);
  {
    g_autoptr(EmbersTestPixels) pixels = embers_test_render_frame (status);
    graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (status), gtk_widget_get_height (status));

    embers_test_assert_not_blank (pixels, &all, 3, "session-credentials");
  }
  assert_no_secret_shown (window);

  /* Connect again, the password typed: the view as it was saved */
  g_assert_true (gtk_widget_activate (button));
  embers_test_wait_for ((dialog = shown_connect_dialog (window)) != NULL);
  assert_dialog_url (dialog, auth_server);
  embers_connect_dialog_set_auth (dialog, EMBERS_AUTH_BASIC, SECRET_USER, SECRET);
  embers_connect_dialog_connect (dialog);
  embers_test_wait_for ((again = shown_workspace (window, NULL)) != NULL);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);
  g_assert_cmpstr (embers_workspace_get_view (again), ==, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  g_assert_cmpstr (embers_query_model_get_service (embers_workspace_get_query (again)), ==, "api");
  g_assert_cmpstr (embers_query_model_get_profile_type (embers_workspace_get_query (again)), ==, CPU_TYPE);
  g_assert_cmpint (embers_query_model_get_start_ms (embers_workspace_get_query (again)), ==, now - HOUR_MS);
  g_assert_cmpint (embers_query_model_get_end_ms (embers_workspace_get_query (again)), ==, now);
  g_assert_cmpstr (embers_connect_client_get_tenant (
                     embers_pyroscope_source_get_client (EMBERS_PYROSCOPE_SOURCE (embers_workspace_get_source (again)))),
                   ==, "team-a");
  explore = embers_workspace_get_explore_page (again);
  embers_test_wait_for (explore_idle (explore) && flame_total (explore) > 0);
  g_assert_null (embers_explore_page_get_error (explore));
  g_assert_cmpint (embers_profile_page_get_view (embers_explore_page_get_profile_page (explore)), ==, EMBERS_VIEW_FLAME);
  graph = GTK_WIDGET (embers_profile_page_get_flame_graph (embers_explore_page_get_profile_page (explore)));
  embers_test_wait_mapped (graph);
  after = embers_test_render_frame (graph);
  assert_same_pixels (before, after, "session-credentials");
  /* The typed password went to the keyring (which, here, says it could
   * not keep it: the Connect dialog's message), not only to the
   * connection */
  embers_test_wait_for (log_has (log_path, "Could not save the server's credentials in the keyring"));

  /* Saved again: still no secret */
  embers_window_save_view_to (window, file2);
  embers_test_wait_for (g_file_test (path2, G_FILE_TEST_IS_REGULAR));
  capture_logs (NULL);
  g_assert_true (g_file_get_contents (path2, &text2, NULL, NULL));
  g_assert_null (strstr (text2, SECRET));
  g_assert_nonnull (strstr (text2, "\"tenant\" : \"team-a\""));
  assert_no_secret_shown (window);
  /* The logs, debug messages included, were written and hold no secret */
  g_assert_true (g_file_get_contents (log_path, &log, NULL, NULL));
  g_test_message ("%zu bytes logged", strlen (log));
  if (strstr (log, "DEBUG") == NULL)
    g_test_message ("%s", log);
  g_assert_nonnull (strstr (log, "DEBUG"));
  g_assert_null (strstr (log, SECRET));

  /* Credentials that the server refuses (from the environment here): the
   * dialog keeps the user's name, never the secret; the tab says so */
  g_setenv ("EMBERS_USER", SECRET_USER, TRUE);
  g_setenv ("EMBERS_PASSWORD", "not-" SECRET, TRUE);
  embers_window_open_file (window, file);
  embers_test_wait_for ((dialog = shown_connect_dialog (window)) != NULL);
  g_clear_pointer (&prefilled, embers_credentials_free);
  prefilled = embers_connect_dialog_dup_credentials (dialog);
  g_assert_cmpint (prefilled->kind, ==, EMBERS_AUTH_BASIC);
  g_assert_cmpstr (prefilled->user, ==, SECRET_USER);
  g_assert_true (prefilled->secret == NULL || prefilled->secret[0] == '\0');
  adw_dialog_close (ADW_DIALOG (dialog));
  embers_test_wait_for (shown_connect_dialog (window) == NULL && (button = connect_again_button (window)) != NULL);
  status = gtk_widget_get_ancestor (button, ADW_TYPE_STATUS_PAGE);
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)), "refused"));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 2);
  g_unsetenv ("EMBERS_USER");
  g_unsetenv ("EMBERS_PASSWORD");
  g_test_message ("needs credentials: %.1f s", (g_get_monotonic_time () - t0) / 1e6);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_unlink (path2);
  g_unlink (log_path);
  g_rmdir (dir);
}

static gint64
flame_total (EmbersExplorePage *page)
{
  EmbersProfile *profile = embers_profile_page_get_profile (embers_explore_page_get_profile_page (page));

  return profile != NULL ? embers_profile_get_total (profile, 0) : -1;
}

/* A picked individual profile, with a frame action on its flame graph:
 * reopened with its chip, that profile's flame graph and the action */
static void
test_picked_profile (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "profile.embers", NULL);
  g_autofree char *text = NULL;
  g_autofree char *id = NULL;
  g_autofree char *chip_text = NULL;
  g_autoptr(EmbersTestPixels) before = NULL;
  g_autoptr(EmbersTestPixels) after = NULL;
  EmbersWindow *window;
  EmbersWorkspace *workspace = open_workspace (&window, now_minute ());
  EmbersExplorePage *explore = embers_workspace_get_explore_page (workspace);
  EmbersProfilePage *page = embers_explore_page_get_profile_page (explore);
  EmbersProfilesBar *bar = embers_explore_page_get_profiles_bar (explore);
  EmbersWorkspace *again;
  EmbersExplorePage *explore2;
  EmbersProfilePage *page2;
  EmbersProfilesBar *bar2;
  GtkWidget *graph;
  EmbersProfile *shown;
  gint64 total;
  gint64 t0 = g_get_monotonic_time ();

  embers_test_wait_for (embers_profiles_bar_get_n_profiles (bar) > 0);
  g_assert_true (embers_profiles_bar_pick (bar, 0));
  id = g_strdup (embers_profiles_bar_get_picked_id (bar));
  embers_test_wait_for (explore_idle (explore));
  total = flame_total (explore);
  g_assert_cmpint (total, ==, embers_profiles_bar_get_picked (bar)->value);
  /* A frame action on that profile: the first function merged away */
  shown = embers_flame_graph_get_profile (embers_profile_page_get_flame_graph (page));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "page.merge-function", "s",
                                             embers_profile_node_name_str (shown, 1)));
  embers_test_wait_for (explore_idle (explore));
  g_assert_cmpuint (embers_transform_stack_get_length (embers_profile_page_get_transforms (page)), ==, 1);
  chip_text = g_strdup (gtk_widget_get_tooltip_text (embers_profiles_bar_get_chip (bar)));
  graph = GTK_WIDGET (embers_profile_page_get_flame_graph (page));
  embers_test_wait_mapped (graph);
  before = embers_test_render_frame (graph);

  again = save_and_reopen (window, workspace, path, &text);
  g_assert_nonnull (strstr (text, id));
  g_assert_cmpstr (embers_workspace_get_view (again), ==, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  assert_same_query (workspace, again);
  explore2 = embers_workspace_get_explore_page (again);
  page2 = embers_explore_page_get_profile_page (explore2);
  bar2 = embers_explore_page_get_profiles_bar (explore2);
  /* The chip at once, the profile's flame graph once loaded */
  g_assert_cmpstr (embers_profiles_bar_get_picked_id (bar2), ==, id);
  g_assert_nonnull (embers_profiles_bar_get_chip (bar2));
  embers_test_wait_for (explore_idle (explore2) && flame_total (explore2) == total &&
                        embers_profiles_bar_get_n_profiles (bar2) > 0);
  g_assert_null (embers_explore_page_get_error (explore2));
  g_assert_cmpstr (embers_profiles_bar_get_picked_id (bar2), ==, id);
  g_assert_true (embers_transform_stack_equal (embers_profile_page_get_transforms (page2),
                                               embers_profile_page_get_transforms (page)));
  /* The chip names the same profile, its marker ringed, and is on screen */
  g_assert_cmpstr (gtk_widget_get_tooltip_text (embers_profiles_bar_get_chip (bar2)), ==, chip_text);
  embers_test_wait_mapped (embers_profiles_bar_get_chip (bar2));
  {
    GtkWidget *chip = embers_profiles_bar_get_chip (bar2);
    g_autoptr(EmbersTestPixels) pixels = embers_test_render_frame (chip);
    graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (chip), gtk_widget_get_height (chip));

    embers_test_assert_not_blank (pixels, &all, 3, "session-chip");
  }

  close_saved (window, workspace);
  graph = GTK_WIDGET (embers_profile_page_get_flame_graph (page2));
  embers_test_wait_mapped (graph);
  after = embers_test_render_frame (graph);
  assert_same_pixels (before, after, "session-profile");
  g_test_message ("picked profile: %.1f s", (g_get_monotonic_time () - t0) / 1e6);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

/* A compare tab of two queries on one server (the regressions page's
 * Open Diff, two query URLs): saved as that server's workspace, reopened
 * on its Compare view with both sides and the same diff */
static void
test_compare_tab (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersConnectClient) client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autofree char *dir = g_dir_make_tmp ("embers-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "tab.embers", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  gint64 now = now_minute ();
  g_autoptr(EmbersQuery) baseline = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now - 2 * HOUR_MS, now - HOUR_MS);
  g_autoptr(EmbersQuery) comparison = embers_query_new (CPU_TYPE, "{service_name=\"api\"}", now - HOUR_MS, now);
  g_autoptr(EmbersQuery) c2 = NULL;
  EmbersWindow *window = embers_window_new (NULL);
  EmbersComparePage *compare, *compare2;
  EmbersWorkspace *again;
  gint64 total;

  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  compare = EMBERS_COMPARE_PAGE (embers_window_open_compare_queries (window, EMBERS_SOURCE (source), baseline,
                                                                      comparison, TRUE));
  embers_test_wait_for (compare_idle (compare));
  total = embers_profile_get_total (embers_compare_page_get_diff (compare), 1);

  embers_window_save_view_to (window, file);
  embers_test_wait_for (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "\"view\" : \"compare\""));
  g_assert_null (strstr (text, "\"tenant\""));

  embers_window_open_file (window, file);
  embers_test_wait_for ((again = shown_workspace (window, NULL)) != NULL);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 2);
  g_assert_cmpstr (embers_workspace_get_view (again), ==, EMBERS_WORKSPACE_VIEW_COMPARE);
  g_assert_cmpstr (embers_query_model_get_service (embers_workspace_get_query (again)), ==, "api");
  compare2 = embers_workspace_get_compare_page (again);
  embers_test_wait_for (compare_idle (compare2));
  c2 = embers_compare_page_dup_query (compare2, TRUE);
  g_assert_cmpint (c2->start_ms, ==, comparison->start_ms);
  g_assert_cmpint (embers_profile_get_total (embers_compare_page_get_diff (compare2), 1), ==, total);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

/* A view file of version 1 (a server's query): opened as that server's
 * workspace on the Flame Graph view, its selector as service and filters */
static void
test_version_1 (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "old.embers", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  gint64 now = now_minute ();
  g_autofree char *text = g_strdup_printf ("{\"format\": \"embers-view\", \"version\": 1,"
                                           " \"source\": {\"server\": \"%s\"},"
                                           " \"query\": {\"profile-type\": \"" CPU_TYPE "\","
                                           " \"selector\": \"{service_name=\\\"api\\\"}\","
                                           " \"from\": %" G_GINT64_FORMAT ", \"until\": %" G_GINT64_FORMAT "},"
                                           " \"view\": {\"mode\": \"flame\"}}",
                                           embers_test_server_get_url (server), now - HOUR_MS, now);
  EmbersWindow *window = embers_window_new (NULL);
  EmbersWorkspace *again;
  EmbersExplorePage *explore;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  embers_window_open_file (window, file);
  embers_test_wait_for ((again = shown_workspace (window, NULL)) != NULL);
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, 1);
  g_assert_cmpstr (embers_workspace_get_view (again), ==, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  g_assert_cmpstr (embers_query_model_get_service (embers_workspace_get_query (again)), ==, "api");
  g_assert_cmpint (embers_query_model_get_start_ms (embers_workspace_get_query (again)), ==, now - HOUR_MS);
  explore = embers_workspace_get_explore_page (again);
  embers_test_wait_for (explore_idle (explore) &&
                        embers_profile_page_get_profile (embers_explore_page_get_profile_page (explore)) != NULL);
  g_assert_null (embers_explore_page_get_error (explore));
  g_assert_cmpint (embers_profile_page_get_view (embers_explore_page_get_profile_page (explore)), ==, EMBERS_VIEW_FLAME);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

static gboolean
labels_ready (EmbersLabelsPage *labels,
              const char       *label)
{
  return !embers_labels_page_get_loading (labels) && g_strcmp0 (embers_labels_page_get_label (labels), label) == 0 &&
         embers_labels_page_get_stats (labels) != NULL && embers_labels_page_get_stats (labels)->len >= 2 &&
         embers_labels_page_get_n_cards (labels) >= 2;
}

/* The card of @value on the Labels view */
static GtkWidget *
find_card (GtkWidget  *root,
           const char *value)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_FLOW_BOX_CHILD (child))
        {
          GtkWidget *card = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));

          if (card != NULL && g_strcmp0 (g_object_get_data (G_OBJECT (card), "value"), value) == 0)
            return card;
          continue;
        }
      if ((found = find_card (child, value)) != NULL)
        return found;
    }
  return NULL;
}

/* What a person sees: the baseline card outlined in blue (#3584e4), the
 * comparison card in orange (#e66100), ui/style.css; the colour of each
 * card's left edge, half-way down */
static void
assert_marked_cards (EmbersLabelsPage *labels,
                     const char       *baseline,
                     const char       *comparison)
{
  const char *values[] = { baseline, comparison };

  embers_test_wait_frame (GTK_WIDGET (labels));
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      GtkWidget *card = find_card (GTK_WIDGET (labels), values[i]);
      g_autoptr(EmbersTestPixels) pixels = NULL;
      guint32 edge;
      int r, g, b;

      g_assert_nonnull (card);
      g_assert_true (gtk_widget_has_css_class (card, i == 0 ? "labels-baseline" : "labels-comparison"));
      g_assert_false (gtk_widget_has_css_class (card, i == 0 ? "labels-comparison" : "labels-baseline"));
      embers_test_wait_mapped (card);
      pixels = embers_test_render_frame (card);
      edge = embers_test_pixels_get (pixels, 0, gtk_widget_get_height (card) / 2);
      r = (edge >> 16) & 0xff;
      g = (edge >> 8) & 0xff;
      b = edge & 0xff;
      if (i == 0 ? !(b > r + 80 && b > g + 30) : !(r > b + 80 && r > g + 40))
        {
          embers_test_pixels_save (pixels, i == 0 ? "pixels-session-baseline.png" : "pixels-session-comparison.png");
          g_error ("the %s card's edge is #%06x, not its mark's colour", values[i], edge);
        }
    }
}

/* The Labels view with a label picked, Total, its own scale per card and
 * a baseline and a comparison marked, and the Services view's filter:
 * reopened on the Labels view with the same label, view and marks (the
 * same outlines), the filter back */
static void
test_labels_services (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-session-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "labels.embers", NULL);
  g_autofree char *text = NULL;
  g_autofree char *baseline = NULL;
  g_autofree char *comparison = NULL;
  gint64 now = now_minute ();
  EmbersWindow *window;
  EmbersWorkspace *workspace = open_workspace (&window, now);
  EmbersWorkspace *again;
  EmbersServicesPage *services = embers_workspace_get_services_page (workspace);
  EmbersLabelsPage *labels;
  GPtrArray *stats;
  gboolean regex = FALSE;
  gint64 t0 = g_get_monotonic_time ();

  embers_services_page_set_filter (services, "^(api|web)", TRUE);
  embers_workspace_show_view (workspace, EMBERS_WORKSPACE_VIEW_LABELS);
  labels = embers_workspace_get_labels_page (workspace);
  g_assert_nonnull (labels);
  embers_labels_page_prefer_label (labels, "region");
  embers_test_wait_for (labels_ready (labels, "region"));
  embers_labels_page_set_view (labels, EMBERS_LABELS_VIEW_TOTAL);
  embers_labels_page_set_same_scale (labels, FALSE);
  stats = embers_labels_page_get_stats (labels);
  baseline = g_strdup (((EmbersLabelValueStats *)stats->pdata[0])->value);
  comparison = g_strdup (((EmbersLabelValueStats *)stats->pdata[1])->value);
  embers_labels_page_mark_baseline (labels, baseline);
  embers_labels_page_mark_comparison (labels, comparison);
  assert_marked_cards (labels, baseline, comparison);

  again = save_and_reopen (window, workspace, path, &text);
  g_assert_nonnull (strstr (text, "\"view\" : \"labels\""));
  g_assert_nonnull (strstr (text, "\"label\" : \"region\""));
  g_assert_nonnull (strstr (text, "\"view\" : \"total\""));
  g_assert_nonnull (strstr (text, "\"filter\" : \"^(api|web)\""));
  g_assert_cmpstr (embers_workspace_get_view (again), ==, EMBERS_WORKSPACE_VIEW_LABELS);
  assert_same_query (workspace, again);

  /* The Services view's filter */
  services = embers_workspace_get_services_page (again);
  g_assert_cmpstr (embers_services_page_get_filter (services, &regex), ==, "^(api|web)");
  g_assert_true (regex);

  /* The Labels view as it was */
  close_saved (window, workspace);
  labels = embers_workspace_get_labels_page (again);
  g_assert_nonnull (labels);
  embers_test_wait_for (labels_ready (labels, "region"));
  g_assert_cmpint (embers_labels_page_get_view (labels), ==, EMBERS_LABELS_VIEW_TOTAL);
  g_assert_false (embers_labels_page_get_same_scale (labels));
  {
    g_autofree char *b = embers_labels_page_dup_baseline (labels);
    g_autofree char *c = embers_labels_page_dup_comparison (labels);
    g_autofree char *want_b = g_strdup_printf ("region=\"%s\"", baseline);
    g_autofree char *want_c = g_strdup_printf ("region=\"%s\"", comparison);

    g_assert_cmpstr (b, ==, want_b);
    g_assert_cmpstr (c, ==, want_c);
  }
  g_assert_true (embers_labels_page_get_can_compare (labels));
  assert_marked_cards (labels, baseline, comparison);
  g_test_message ("labels and services: %.1f s", (g_get_monotonic_time () - t0) / 1e6);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  /* No keyring (no session bus) and no credentials from the environment:
   * a server's password is only ever what a test types, and nothing is
   * written to the keyring of whoever runs the tests */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/embers-test-bus", TRUE);
  g_unsetenv ("EMBERS_USER");
  g_unsetenv ("EMBERS_PASSWORD");
  g_unsetenv ("EMBERS_TOKEN");
  g_unsetenv ("EMBERS_TENANT");
  embers_test_gtk_init (&argc, &argv);
  /* The application's own style sheet, as EmbersApplication loads it
   * (the marked cards' outlines) */
  {
    g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (css, "/io/github/emberslab/Embers/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }
  server = embers_test_server_start (NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/embers/session/workspace/compare-ranges", test_compare_ranges);
  g_test_add_func ("/embers/session/workspace/file-and-query", test_file_and_query);
  g_test_add_func ("/embers/session/workspace/needs-credentials", test_needs_credentials);
  g_test_add_func ("/embers/session/workspace/picked-profile", test_picked_profile);
  g_test_add_func ("/embers/session/workspace/compare-tab", test_compare_tab);
  g_test_add_func ("/embers/session/workspace/version-1", test_version_1);
  g_test_add_func ("/embers/session/workspace/labels-services", test_labels_services);

  status = g_test_run ();
  embers_test_server_stop (server);
  return status;
}
