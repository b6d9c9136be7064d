/* test-rule-dialog.c: right-click a frame → recording rule dialog prefilled
 * → create → the rule is on the server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <gtk/gtk.h>
#include <glib/gstdio.h>

#include "embers-explore-page.h"
#include "embers-flame-graph.h"
#include "embers-profile-page.h"
#include "embers-pyroscope-source.h"
#include "embers-recording-rules.h"
#include "embers-rule-dialog.h"
#include "embers-rules-page.h"
#include "embers-test-server-spawn.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

static gboolean
page_idle (gpointer data)
{
  return !embers_explore_page_get_loading (data) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (data));
}

static gboolean
dialog_idle (gpointer data)
{
  return !embers_rule_dialog_get_busy (data);
}

static gboolean preview_ready (gpointer data);
static gboolean rules_idle (gpointer data);

static void
spin_until (gboolean (*done) (gpointer),
            gpointer   data)
{
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (!done (data) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (done (data));
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
preview_ready (gpointer data)
{
  return embers_rule_dialog_get_n_preview_series (data) > 0;
}

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_set_object ((GAsyncResult **)user_data, result);
}

static void
test_rule_from_frame (void)
{
  const char *args[] = { "--recording-rules", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) rules = NULL;
  EmbersExplorePage *page;
  EmbersFlameGraph *graph;
  EmbersProfile *profile;
  EmbersRuleDialog *dialog;
  GtkWindow *window;
  const char *frame = NULL;
  guint32 node = 0;
  gboolean found = FALSE;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  page = embers_explore_page_new (EMBERS_SOURCE (source));
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, 1200, 800);
  gtk_window_set_child (window, GTK_WIDGET (page));
  gtk_window_present (window);
  spin_until (page_idle, page);
  g_assert_true (embers_explore_page_select_service (page, "api"));
  spin_until (page_idle, page);

  /* Select a frame below the root */
  graph = embers_profile_page_get_flame_graph (embers_explore_page_get_profile_page (page));
  profile = embers_flame_graph_get_profile (graph);
  g_assert_nonnull (profile);
  for (guint32 i = 1; i < embers_profile_get_n_nodes (profile); i++)
    if (embers_profile_node_depth (profile, i) == 2)
      {
        node = i;
        break;
      }
  g_assert_cmpuint (node, !=, 0);
  frame = embers_profile_node_name_str (profile, node);
  embers_flame_graph_set_selected_node (graph, node);

  /* The context menu's item is there on an explore page */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "explore.create-rule", NULL));
  dialog = embers_explore_page_create_rule (page);

  /* Prefilled: function, matchers with the type and the service, a valid name */
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_FUNCTION), ==, frame);
  g_assert_nonnull (strstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_MATCHERS),
                            "__profile_type__=\"" CPU "\""));
  g_assert_nonnull (strstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_MATCHERS),
                            "service_name=\"api\""));
  g_assert_true (g_str_has_prefix (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME),
                                   "profiles_recorded_api_cpu_"));
  g_assert_true (embers_rule_dialog_get_valid (dialog));

  /* The preview: what the rule records over the last hour (by service_name: one series) */
  spin_until (preview_ready, dialog);
  g_assert_cmpuint (embers_rule_dialog_get_n_preview_series (dialog), ==, 1);
  /* With a function filter the preview says what its chart leaves out */
  g_assert_nonnull (strstr (embers_rule_dialog_get_preview_text (dialog), "only stacks through"));

  /* Group by from the service's label names: toggles edit the entry */
  {
    gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

    while (embers_rule_dialog_get_n_group_by_choices (dialog) == 0 && g_get_monotonic_time () < until)
      g_main_context_iteration (NULL, TRUE);
  }
  g_assert_cmpuint (embers_rule_dialog_get_n_group_by_choices (dialog), >=, 2);
  g_assert_false (embers_rule_dialog_toggle_group_by (dialog, "__profile_type__"));
  /* Prefilled by service (one series per service) */
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_GROUP_BY), ==, "service_name");
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "");
  g_assert_true (embers_rule_dialog_toggle_group_by (dialog, "region"));
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_GROUP_BY), ==, "region");
  g_assert_true (embers_rule_dialog_toggle_group_by (dialog, "service_name"));
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_GROUP_BY), ==, "region, service_name");
  g_assert_true (embers_rule_dialog_toggle_group_by (dialog, "region"));
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_GROUP_BY), ==, "service_name");
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "");

  /* Live validation, with the reason next to the field */
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME, "cpu_gc");
  g_assert_false (embers_rule_dialog_get_valid (dialog));
  g_assert_nonnull (strstr (embers_rule_dialog_get_message (dialog, EMBERS_RULE_FIELD_METRIC_NAME),
                            "profiles_recorded_"));
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "region, k8s.pod");
  g_assert_nonnull (embers_rule_dialog_get_message (dialog, EMBERS_RULE_FIELD_GROUP_BY));
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "region");
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME, "profiles_recorded_api_frame_nanoseconds");
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_EXTERNAL_LABELS, "env=prod");
  g_assert_true (embers_rule_dialog_get_valid (dialog));

  /* For screenshots: EMBERS_RULE_SHOT=1 keeps the dialog up a while */
  if (g_getenv ("EMBERS_RULE_SHOT") != NULL)
    {
      gint64 until = g_get_monotonic_time () + 6 * G_USEC_PER_SEC;

      while (g_get_monotonic_time () < until)
        g_main_context_iteration (NULL, FALSE);
    }

  /* Create: it is on the server */
  g_object_ref (dialog);
  embers_rule_dialog_create (dialog);
  spin_until (dialog_idle, dialog);
  g_object_unref (dialog);

  embers_recording_rules_list_async (client, NULL, on_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  rules = embers_recording_rules_list_finish (result, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < rules->len; i++)
    {
      EmbersRecordingRule *rule = g_ptr_array_index (rules, i);

      if (g_str_equal (rule->metric_name, "profiles_recorded_api_frame_nanoseconds"))
        {
          found = TRUE;
          g_assert_cmpstr (rule->function_name, ==, frame);
          g_assert_cmpstr (rule->group_by[0], ==, "region");
          g_assert_cmpstr (rule->external_label_values[0], ==, "prod");
        }
    }
  g_assert_true (found);

  /* It is on the rules page; delete it there (confirmed), and it is gone */
  {
    EmbersRulesPage *rules_page = embers_rules_page_new (client);
    const char *id = NULL;
    GPtrArray *listed;
    guint n_before;

    gtk_window_set_child (window, GTK_WIDGET (rules_page));
    spin_until (rules_idle, rules_page);
    listed = embers_rules_page_get_rules (rules_page);
    for (guint i = 0; i < listed->len; i++)
      {
        EmbersRecordingRule *rule = g_ptr_array_index (listed, i);

        if (g_str_equal (rule->metric_name, "profiles_recorded_api_frame_nanoseconds"))
          id = rule->id;
      }
    g_assert_nonnull (id);
    n_before = listed->len;
    g_assert_true (embers_rules_page_delete (rules_page, id, TRUE));
    {
      gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

      while (embers_rules_page_get_rules (rules_page)->len != n_before - 1 &&
             g_get_monotonic_time () < until)
        g_main_context_iteration (NULL, TRUE);
    }
    listed = embers_rules_page_get_rules (rules_page);
    g_assert_cmpuint (listed->len, ==, n_before - 1);
    for (guint i = 0; i < listed->len; i++)
      g_assert_cmpstr (((EmbersRecordingRule *)g_ptr_array_index (listed, i))->metric_name, !=,
                       "profiles_recorded_api_frame_nanoseconds");
  }

  gtk_window_destroy (window);
}

/* A server without the rules API: the rejection says why, nothing typed is lost */
static void
test_rule_disabled (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  EmbersRuleDialog *dialog;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);

  dialog = embers_rule_dialog_new (NULL, client, "api", CPU, "{service_name=\"api\"}", "runtime.GC");
  g_object_ref_sink (dialog);
  g_assert_true (embers_rule_dialog_get_valid (dialog));
  embers_rule_dialog_create (dialog);
  spin_until (dialog_idle, dialog);
  g_assert_nonnull (strstr (embers_rule_dialog_get_status (dialog), "recording-rules.enabled"));
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_FUNCTION), ==, "runtime.GC");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (dialog);
}

static gboolean
rules_idle (gpointer data)
{
  return !embers_rules_page_get_loading (data);
}

/* The rules page: lists rules, provisioned ones read-only, edit with the
 * current generation (a stale one is explained), delete */
/* The rules page's row whose title is @title */
static GtkWidget *
find_row (GtkWidget  *widget,
          const char *title)
{
  if (ADW_IS_ACTION_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_row (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_rules_page (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-rules-XXXXXX", NULL);
  g_autofree char *provisioned = g_build_filename (dir, "provisioned.json", NULL);
  g_autofree char *arg = NULL;
  const char *args[3] = { "--recording-rules", NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = NULL;
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersRecordingRule) rule = embers_recording_rule_new ();
  g_autoptr(EmbersRecordingRule) created = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  EmbersRulesPage *page;
  EmbersRuleDialog *dialog;
  GtkWindow *window;
  GPtrArray *rules;
  const char *provisioned_id = NULL;

  g_file_set_contents (provisioned,
                       "[{\"metricName\":\"profiles_recorded_gc_total\","
                       "\"matchers\":[\"{__profile_type__=\\\"" CPU "\\\"}\"]}]", -1, &error);
  g_assert_no_error (error);
  arg = g_strdup_printf ("--provisioned=%s", provisioned);
  args[1] = arg;
  server = embers_test_server_start (args, &error);
  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);

  rule->metric_name = g_strdup ("profiles_recorded_api_cpu_nanoseconds");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\",service_name=\"api\"}", NULL });
  embers_recording_rules_upsert_async (client, rule, NULL, on_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  created = embers_recording_rules_upsert_finish (result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);

  page = embers_rules_page_new (client);
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (window, 900, 600);
  gtk_window_set_child (window, GTK_WIDGET (page));
  gtk_window_present (window);
  spin_until (rules_idle, page);
  g_assert_null (embers_rules_page_get_error (page));
  rules = embers_rules_page_get_rules (page);
  g_assert_cmpuint (rules->len, ==, 2);
  for (guint i = 0; i < rules->len; i++)
    {
      EmbersRecordingRule *r = g_ptr_array_index (rules, i);

      if (r->provisioned)
        provisioned_id = r->id;
    }
  g_assert_nonnull (provisioned_id);

  if (g_getenv ("EMBERS_RULES_SHOT") != NULL)
    {
      gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

      while (g_get_monotonic_time () < until)
        g_main_context_iteration (NULL, FALSE);
    }

  /* Provisioned: read-only */
  g_assert_false (embers_rules_page_delete (page, provisioned_id, TRUE));
  g_assert_null (embers_rules_page_edit (page, provisioned_id));

  /* The row of an editable rule opens it on activation (Enter, click);
   * the provisioned row does not */
  {
    GtkWidget *row = find_row (GTK_WIDGET (page), created->metric_name);
    GtkWidget *provisioned_row = find_row (GTK_WIDGET (page), "profiles_recorded_gc_total");
    GtkWindow *opened = NULL;
    GListModel *toplevels = gtk_window_get_toplevels ();

    g_assert_nonnull (row);
    g_assert_nonnull (provisioned_row);
    g_assert_true (gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (row)));
    g_assert_false (gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (provisioned_row)));
    g_assert_true (gtk_widget_activate (row));
    /* The edit button shows it was pressed, then clicks (a quarter second) */
    for (gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
         opened == NULL && g_get_monotonic_time () < end;)
      {
        g_main_context_iteration (NULL, TRUE);
        for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
          {
            g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

            /* The one this page opened (an earlier test may leave others) */
            if (EMBERS_IS_RULE_DIALOG (w) && gtk_window_get_transient_for (w) == window)
              opened = w;
          }
      }
    g_assert_nonnull (opened);
    g_assert_cmpstr (embers_rule_dialog_get_field (EMBERS_RULE_DIALOG (opened), EMBERS_RULE_FIELD_METRIC_NAME),
                     ==, created->metric_name);
    gtk_window_destroy (opened);
    spin_until (rules_idle, page);
  }

  /* Edit: saved with the generation it was read with */
  dialog = EMBERS_RULE_DIALOG (embers_rules_page_edit (page, created->id));
  g_assert_nonnull (dialog);
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "region");
  embers_rule_dialog_create (dialog);
  spin_until (dialog_idle, dialog);
  g_assert_nonnull (strstr (embers_rule_dialog_get_status (dialog), "Saved"));
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* A second dialog on the old copy: the server refuses, and it says why */
  spin_until (rules_idle, page);
  {
    g_autoptr(EmbersRecordingRule) old = embers_recording_rule_copy (created);
    EmbersRuleDialog *stale = embers_rule_dialog_new_for_rule (NULL, client, old);

    g_object_ref_sink (stale);
    embers_rule_dialog_create (stale);
    spin_until (dialog_idle, stale);
    g_assert_nonnull (strstr (embers_rule_dialog_get_status (stale), "conflicting update"));
    g_assert_true (embers_rule_dialog_get_conflict (stale));
    if (g_getenv ("EMBERS_RULES_SHOT") != NULL)
      {
        gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

        gtk_window_present (GTK_WINDOW (stale));
        while (g_get_monotonic_time () < until)
          g_main_context_iteration (NULL, FALSE);
      }

    /* Load Current Version: the fields become the server's (the group
     * by saved above) and a save now goes through */
    embers_rule_dialog_set_field (stale, EMBERS_RULE_FIELD_EXTERNAL_LABELS, "team=perf");
    embers_rule_dialog_reload (stale, FALSE);
    spin_until (dialog_idle, stale);
    g_assert_false (embers_rule_dialog_get_conflict (stale));
    g_assert_cmpstr (embers_rule_dialog_get_field (stale, EMBERS_RULE_FIELD_GROUP_BY), ==, "region");
    g_assert_cmpstr (embers_rule_dialog_get_field (stale, EMBERS_RULE_FIELD_EXTERNAL_LABELS), ==, "");
    gtk_window_destroy (GTK_WINDOW (stale));
    g_object_unref (stale);

    /* Keep My Changes: what was typed stays and overwrites the server's */
    stale = embers_rule_dialog_new_for_rule (NULL, client, old);
    g_object_ref_sink (stale);
    embers_rule_dialog_set_field (stale, EMBERS_RULE_FIELD_GROUP_BY, "pod");
    embers_rule_dialog_create (stale);
    spin_until (dialog_idle, stale);
    g_assert_true (embers_rule_dialog_get_conflict (stale));
    embers_rule_dialog_reload (stale, TRUE);
    spin_until (dialog_idle, stale);
    g_assert_false (embers_rule_dialog_get_conflict (stale));
    g_assert_cmpstr (embers_rule_dialog_get_field (stale, EMBERS_RULE_FIELD_GROUP_BY), ==, "pod");
    embers_rule_dialog_create (stale);
    spin_until (dialog_idle, stale);
    g_assert_nonnull (strstr (embers_rule_dialog_get_status (stale), "Saved"));
    g_assert_false (embers_rule_dialog_get_conflict (stale));
    gtk_window_destroy (GTK_WINDOW (stale));
    g_object_unref (stale);
  }

  /* Delete (confirmed): gone */
  g_assert_true (embers_rules_page_delete (page, created->id, TRUE));
  {
    gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

    while (embers_rules_page_get_rules (page)->len != 1 && g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, TRUE);
  }
  g_assert_cmpuint (embers_rules_page_get_rules (page)->len, ==, 1);

  gtk_window_destroy (window);
  g_unlink (provisioned);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/embers/app/rule-from-frame", test_rule_from_frame);
  g_test_add_func ("/embers/app/rule-disabled", test_rule_disabled);
  g_test_add_func ("/embers/app/rules-page", test_rules_page);

  return g_test_run ();
}
