/* test-rule-dialog.c: right-click a frame → recording rule dialog prefilled
 * → create → the rule is on the rules page → delete it; editing stored
 * rules; closing dialogs as a person does; servers without the rules API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "embers-explore-page.h"
#include "embers-flame-graph.h"
#include "embers-profile-page.h"
#include "embers-pyroscope-source.h"
#include "embers-recording-rules.h"
#include "embers-rule-dialog.h"
#include "embers-rules-page.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-server-spawn.h"
#include "embers-window-private.h"
#include "embers-workspace.h"

#define CPU "process_cpu:cpu:nanoseconds:cpu:nanoseconds"
#define ALLOC "memory:alloc_space:bytes:space:bytes"

/* ---- waiting ------------------------------------------------------------- */

/* Until @done holds, then whatever that made ready to run */
#define wait_for(done, data) \
  G_STMT_START { embers_test_wait_until ((done), (data), #done); embers_test_drain (); } G_STMT_END

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

static gboolean
rules_idle (gpointer data)
{
  return !embers_rules_page_get_loading (data);
}

static gboolean
preview_ready (gpointer data)
{
  return embers_rule_dialog_get_n_preview_series (data) > 0;
}

static gboolean
has_one_rule (gpointer data)
{
  return embers_rules_page_get_rules (data)->len == 1;
}

static gboolean
has_no_rules (gpointer data)
{
  return embers_rules_page_get_rules (data)->len == 0;
}

static gboolean
types_ready (gpointer data)
{
  return embers_rule_dialog_get_n_profile_types (data) > 0;
}

static gboolean
has_group_by_choices (gpointer data)
{
  return embers_rule_dialog_get_n_group_by_choices (data) > 0;
}

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_set_object ((GAsyncResult **)user_data, result);
}

static gboolean
have_result (gpointer data)
{
  return *(GAsyncResult **)data != NULL;
}

static GPtrArray *
list_rules (EmbersConnectClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *rules;

  embers_recording_rules_list_async (client, NULL, on_done, &result);
  embers_test_wait_until (have_result, &result, "the server's answer");
  rules = embers_recording_rules_list_finish (result, &error);
  g_assert_no_error (error);
  return rules;
}

static EmbersRecordingRule *
upsert (EmbersConnectClient *client,
        EmbersRecordingRule *rule)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  EmbersRecordingRule *stored;

  embers_recording_rules_upsert_async (client, rule, NULL, on_done, &result);
  embers_test_wait_until (have_result, &result, "the server's answer");
  stored = embers_recording_rules_upsert_finish (result, &error);
  g_assert_no_error (error);
  return stored;
}

/* ---- finding what a person sees ------------------------------------------ */

/* A button (or model button) whose label is @label, among @widget's
 * descendants */
static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkModelButton"))
    {
      g_autofree char *text = NULL;

      g_object_get (widget, "text", &text, NULL);
      if (g_strcmp0 (text, label) == 0)
        return widget;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A label whose text is @text */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

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

/* A row's button by its tooltip ("Edit", "Delete") */
static GtkWidget *
row_button (GtkWidget  *row,
            const char *tooltip)
{
  if (GTK_IS_BUTTON (row) && g_strcmp0 (gtk_widget_get_tooltip_text (row), tooltip) == 0)
    return row;
  for (GtkWidget *child = gtk_widget_get_first_child (row); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = row_button (child, tooltip);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The entry that has the keyboard focus in @dialog, or NULL */
static GtkWidget *
focused_entry (gpointer dialog)
{
  GtkWidget *focus = adw_dialog_get_focus (ADW_DIALOG (dialog));

  return focus ? gtk_widget_get_ancestor (focus, GTK_TYPE_ENTRY) : NULL;
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

/* A press as GTK does it for the keyboard (Enter or Space): the button
 * shows it is pressed, then clicks a moment later */
#define press embers_test_press

static void
keep_up_for_shot (const char *variable)
{
  gint64 until;

  if (g_getenv (variable) == NULL)
    return;
  until = g_get_monotonic_time () + 6 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
}

/* Whether the graph's selected frame is on screen, laid out */
static gboolean
selected_frame_shown (gpointer data)
{
  EmbersFlameGraph *graph = data;
  graphene_rect_t area;

  return gtk_widget_get_mapped (GTK_WIDGET (graph)) &&
         embers_flame_graph_get_node_area (graph, embers_flame_graph_get_selected_node (graph), &area);
}

/* The frame's context menu as a person opens it (the Menu key or a
 * right-click on the selected frame, once it is on screen), then
 * "Create Recording Rule…" */
static EmbersRuleDialog *
create_rule_from_menu (EmbersFlameGraph *graph)
{
  g_autoptr(GPtrArray) before = embers_test_dialogs (EMBERS_TYPE_RULE_DIALOG);
  GtkWidget *popover;
  GtkWidget *item;
  EmbersRuleDialog *dialog;

  embers_test_wait_until (selected_frame_shown, graph, "the selected frame on screen");
  gtk_widget_grab_focus (GTK_WIDGET (graph));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame.context-menu", NULL));
  embers_test_drain ();
  popover = find_type (GTK_WIDGET (graph), GTK_TYPE_POPOVER_MENU);
  g_assert_nonnull (popover);
  /* On screen (a popover maps on a later frame) */
  embers_test_wait_until (is_mapped, popover, "the context menu on screen");
  g_assert_true (gtk_widget_get_visible (popover));
  /* (a model button shows its label without the mnemonic's underscore) */
  item = find_button (popover, "Create Recording Rule…");
  g_assert_nonnull (item);
  press (item);

  dialog = EMBERS_RULE_DIALOG (embers_test_wait_new_dialog (EMBERS_TYPE_RULE_DIALOG, before));
  /* The menu closed; one dialog, not two */
  g_assert_false (gtk_widget_get_visible (popover));
  return dialog;
}

/* ---- from a frame to the rules page and back ------------------------------ */

static void
test_rule_from_frame (void)
{
  const char *args[] = { "--recording-rules", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (args, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  g_autoptr(GPtrArray) rules = NULL;
  EmbersWindow *window;
  EmbersExplorePage *page;
  EmbersRulesPage *rules_page;
  EmbersFlameGraph *graph;
  EmbersProfile *profile;
  EmbersRuleDialog *dialog;
  AdwTabPage *explore_tab;
  GtkWidget *entry;
  GtkWidget *copy;
  const char *frame = NULL;
  guint32 node = 0;
  guint n_tabs;
  EmbersWorkspace *workspace;
  gboolean found = FALSE;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  window = embers_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  page = EMBERS_EXPLORE_PAGE (embers_window_open_explore (window, EMBERS_SOURCE (source), NULL));
  explore_tab = adw_tab_view_get_selected_page (window->tab_view);
  wait_for (page_idle, page);
  g_assert_true (embers_explore_page_select_service (page, "api"));
  wait_for (page_idle, page);

  /* Show Recording Rules: the Recording Rules view of the same tab (a
   * workspace), twice is the same view */
  n_tabs = embers_window_get_n_pages (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "explore.show-rules", NULL));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, n_tabs);
  workspace = EMBERS_WORKSPACE (adw_tab_page_get_child (explore_tab));
  g_assert_cmpstr (embers_workspace_get_view (workspace), ==, "rules");
  rules_page = embers_workspace_get_rules_page (workspace);
  g_assert_true (EMBERS_IS_RULES_PAGE (rules_page));
  wait_for (rules_idle, rules_page);
  g_assert_cmpuint (embers_rules_page_get_rules (rules_page)->len, ==, 0);
  embers_workspace_show_view (workspace, "flame-graph");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (page), "explore.show-rules", NULL));
  g_assert_cmpuint (embers_window_get_n_pages (window), ==, n_tabs);
  g_assert_true (embers_workspace_get_rules_page (workspace) == rules_page);
  wait_for (rules_idle, rules_page);
  embers_workspace_show_view (workspace, "flame-graph");
  /* The tab shows the last 6 hours: the preview shows them too */
  embers_explore_page_set_preset (page, 6 * 3600);
  wait_for (page_idle, page);
  embers_test_wait_frame (GTK_WIDGET (window));

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
  dialog = create_rule_from_menu (graph);

  /* Prefilled: function, matchers with the type and the service, a valid name */
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_FUNCTION), ==, frame);
  g_assert_nonnull (strstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_MATCHERS),
                            "__profile_type__=\"" CPU "\""));
  g_assert_nonnull (strstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_MATCHERS),
                            "service_name=\"api\""));
  g_assert_true (g_str_has_prefix (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME),
                                   "profiles_recorded_api_cpu_"));
  g_assert_true (embers_rule_dialog_get_valid (dialog));
  g_assert_null (embers_rule_dialog_get_notice (dialog));

  /* Keyboard: the metric name has the focus, Create is the default */
  entry = focused_entry (dialog);
  g_assert_nonnull (entry);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==,
                   embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (adw_dialog_get_default_widget (ADW_DIALOG (dialog)))),
                   ==, "C_reate");
  /* Over the window, which takes no input while it is open */
  g_assert_true (embers_test_blocks_input (GTK_WIDGET (page)));

  /* The preview: what the rule records over the last hour (by service_name: one series) */
  wait_for (preview_ready, dialog);
  g_assert_cmpuint (embers_rule_dialog_get_n_preview_series (dialog), ==, 1);
  {
    gint64 tab_start, tab_end, start, end;

    embers_explore_page_get_time_range (page, &tab_start, &tab_end);
    embers_rule_dialog_get_preview_range (dialog, &start, &end);
    g_assert_cmpint (end - start, ==, 6 * 3600 * 1000);
    g_assert_cmpint (start, ==, tab_start);
    g_assert_cmpint (end, ==, tab_end);
  }
  /* With a function filter the preview says what its chart leaves out */
  g_assert_nonnull (strstr (embers_rule_dialog_get_preview_text (dialog), "only stacks through"));
  /* Opened from a frame, it charts that frame's call site: the same
   * SelectSeries with a stack-trace selector as Show Over Time, and less
   * than the whole service (issue 16.7) */
  g_assert_true (embers_rule_dialog_get_preview_call_site (dialog));
  g_assert_nonnull (strstr (embers_rule_dialog_get_preview_text (dialog), "stacks through this frame"));
  {
    g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
    g_autoptr(GPtrArray) names = g_ptr_array_new ();
    g_auto(GStrv) call_site = NULL;
    g_autoptr(EmbersQuery) query = NULL;
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GPtrArray) series = NULL;
    g_autoptr(GPtrArray) whole = NULL;
    const char *by[] = { "service_name", NULL };
    gint64 start, end;
    double sum = 0, whole_sum = 0;

    for (guint32 n = node; n != 0; n = embers_profile_node_parent (profile, n))
      g_ptr_array_insert (names, 0, (gpointer) embers_profile_node_name_str (profile, n));
    for (guint i = 0; i < names->len; i++)
      g_strv_builder_add (builder, g_ptr_array_index (names, i));
    call_site = g_strv_builder_end (builder);
    embers_rule_dialog_get_preview_range (dialog, &start, &end);
    query = embers_query_new (CPU, "{service_name=\"api\"}", start, end);
    embers_source_select_call_site_series (EMBERS_SOURCE (source), query, (const char * const *) call_site, by,
                                           NULL, on_done, &result);
    embers_test_wait_until (have_result, &result, "the call site's series");
    series = embers_source_select_call_site_series_finish (EMBERS_SOURCE (source), result, &error);
    g_assert_no_error (error);
    g_clear_object (&result);
    embers_source_select_chart_series (EMBERS_SOURCE (source), query, by, EMBERS_AGGREGATION_SUM, 0,
                                       NULL, on_done, &result);
    embers_test_wait_until (have_result, &result, "the service's series");
    whole = embers_source_select_series_finish (EMBERS_SOURCE (source), result, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < series->len; i++)
      for (guint k = 0; k < ((EmbersSeries *) g_ptr_array_index (series, i))->n_points; k++)
        sum += ((EmbersSeries *) g_ptr_array_index (series, i))->values[k];
    for (guint i = 0; i < whole->len; i++)
      for (guint k = 0; k < ((EmbersSeries *) g_ptr_array_index (whole, i))->n_points; k++)
        whole_sum += ((EmbersSeries *) g_ptr_array_index (whole, i))->values[k];
    g_assert_cmpfloat (sum, >, 0);
    g_assert_cmpfloat (embers_rule_dialog_get_preview_sum (dialog), ==, sum);
    g_assert_cmpfloat (sum, <, whole_sum);

    /* Another function typed by hand: no call site to chart; the whole
     * service, and the note says so */
    embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_FUNCTION, "runtime.mallocgc");
    embers_test_wait_while (embers_rule_dialog_get_preview_call_site (dialog));
    wait_for (preview_ready, dialog);
    g_assert_cmpfloat (embers_rule_dialog_get_preview_sum (dialog), ==, whole_sum);
    g_assert_nonnull (strstr (embers_rule_dialog_get_preview_text (dialog), "all stacks of the matched profiles"));
    embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_FUNCTION, frame);
    embers_test_wait_while (!embers_rule_dialog_get_preview_call_site (dialog));
  }

  /* Group by from the service's label names: toggles edit the entry */
  wait_for (has_group_by_choices, dialog);
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

  /* Live validation, with the reason next to the field; an invalid rule
   * has no preview (the old chart goes) and cannot be copied */
  copy = find_button (GTK_WIDGET (dialog), "Copy as _Tenant Override");
  g_assert_nonnull (copy);
  g_assert_true (gtk_widget_get_sensitive (copy));
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME, "cpu_gc");
  g_assert_false (embers_rule_dialog_get_valid (dialog));
  g_assert_nonnull (strstr (embers_rule_dialog_get_message (dialog, EMBERS_RULE_FIELD_METRIC_NAME),
                            "profiles_recorded_"));
  g_assert_cmpuint (embers_rule_dialog_get_n_preview_series (dialog), ==, 0);
  g_assert_nonnull (strstr (embers_rule_dialog_get_preview_text (dialog), "once the rule is valid"));
  g_assert_false (gtk_widget_get_sensitive (copy));
  g_assert_false (gtk_widget_get_sensitive (adw_dialog_get_default_widget (ADW_DIALOG (dialog))));
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "region, k8s.pod");
  g_assert_nonnull (embers_rule_dialog_get_message (dialog, EMBERS_RULE_FIELD_GROUP_BY));
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "region");
  /* A bare matcher is not what the server parses */
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_MATCHERS, "__profile_type__=\"" CPU "\"");
  g_assert_nonnull (embers_rule_dialog_get_message (dialog, EMBERS_RULE_FIELD_MATCHERS));
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_MATCHERS,
                                "{__profile_type__=\"" CPU "\"}\n{service_name=\"api\"}");
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME, "profiles_recorded_api_frame_nanoseconds");
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_EXTERNAL_LABELS, "env=prod");
  g_assert_true (embers_rule_dialog_get_valid (dialog));
  g_assert_true (gtk_widget_get_sensitive (copy));
  wait_for (preview_ready, dialog);

  keep_up_for_shot ("EMBERS_RULE_SHOT");

  /* Enter in a field creates it (Create is the default); the dialog
   * closes, and the open rules tab lists the rule */
  g_object_ref (dialog);
  entry = focused_entry (dialog);
  g_assert_nonnull (entry);
  {
    EmbersTestSignal *clicked = embers_test_expect_signal (adw_dialog_get_default_widget (ADW_DIALOG (dialog)),
                                                           "clicked");

    g_signal_emit_by_name (gtk_widget_get_first_child (entry), "activate");
    embers_test_wait_signal (clicked);
  }
  wait_for (dialog_idle, dialog);
  embers_test_wait_dialog_closed (dialog);
  g_object_unref (dialog);

  rules = list_rules (client);
  for (guint i = 0; i < rules->len; i++)
    {
      EmbersRecordingRule *rule = g_ptr_array_index (rules, i);

      if (g_str_equal (rule->metric_name, "profiles_recorded_api_frame_nanoseconds"))
        {
          found = TRUE;
          g_assert_cmpstr (rule->function_name, ==, frame);
          g_assert_cmpuint (g_strv_length (rule->matchers), ==, 2);
          g_assert_cmpstr (rule->group_by[0], ==, "region");
          g_assert_cmpstr (rule->external_label_values[0], ==, "prod");
        }
    }
  g_assert_true (found);
  wait_for (rules_idle, rules_page);
  g_assert_cmpuint (embers_rules_page_get_rules (rules_page)->len, ==, 1);

  /* The root: no function filter; Escape closes the dialog */
  embers_flame_graph_set_selected_node (graph, 0);
  dialog = create_rule_from_menu (graph);
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_FUNCTION), ==, "");
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME), ==,
                   "profiles_recorded_api_cpu_nanoseconds");
  g_assert_true (embers_rule_dialog_get_valid (dialog));
  {
    g_autoptr(EmbersRecordingRule) rule = embers_rule_dialog_dup_rule (dialog);

    g_assert_null (rule->function_name);
  }
  g_assert_true (embers_test_press_key (focused_entry (dialog), GDK_KEY_Escape, 0));
  embers_test_wait_dialog_closed (dialog);
  g_assert_false (embers_test_blocks_input (GTK_WIDGET (page)));

  /* On the rules page: Delete asks first; Cancel keeps it, Delete deletes */
  embers_workspace_show_view (workspace, "rules");
  embers_test_wait_frame (GTK_WIDGET (window));
  for (int attempt = 0; attempt < 2; attempt++)
    {
      g_autoptr(GPtrArray) before = embers_test_dialogs (ADW_TYPE_ALERT_DIALOG);
      GtkWidget *row = find_row (GTK_WIDGET (rules_page), "profiles_recorded_api_frame_nanoseconds");
      AdwDialog *confirm;

      g_assert_nonnull (row);
      press (row_button (row, "Delete"));
      confirm = embers_test_wait_new_dialog (ADW_TYPE_ALERT_DIALOG, before);
      /* The metric name whole in its own label, not hyphenated in the body */
      g_assert_nonnull (find_label (GTK_WIDGET (confirm), "profiles_recorded_api_frame_nanoseconds"));
      g_assert_null (strstr (adw_alert_dialog_get_body (ADW_ALERT_DIALOG (confirm)), "profiles_recorded"));
      keep_up_for_shot ("EMBERS_RULES_SHOT");
      /* Its buttons, as a person presses them */
      press (find_button (GTK_WIDGET (confirm), attempt == 0 ? "_Cancel" : "_Delete"));
      embers_test_wait_dialog_closed (confirm);
      wait_for (rules_idle, rules_page);
      wait_for (attempt == 0 ? has_one_rule : has_no_rules, rules_page);
      g_assert_cmpuint (embers_rules_page_get_rules (rules_page)->len, ==, attempt == 0 ? 1 : 0);
    }
  g_clear_pointer (&rules, g_ptr_array_unref);
  rules = list_rules (client);
  g_assert_cmpuint (rules->len, ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  embers_test_drain ();
}

/* ---- servers without the rules API ---------------------------------------- */

/* The rejection says why, up front from then on; nothing typed is lost;
 * copying is what is left to do */
static void
test_rule_disabled (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersPyroscopeSource) source = NULL;
  EmbersRuleDialog *dialog;
  GtkWidget *window;
  GtkWidget *copy;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);
  source = embers_pyroscope_source_new (client);

  /* Not known yet: Create tries, and the answer turns the dialog around */
  window = adw_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 800);
  gtk_window_present (GTK_WINDOW (window));
  dialog = embers_rule_dialog_new (EMBERS_SOURCE (source), "api", CPU, "{service_name=\"api\"}", "runtime.GC");
  g_object_ref_sink (dialog);
  embers_rule_dialog_set_source (dialog, EMBERS_SOURCE (source));
  adw_dialog_present (ADW_DIALOG (dialog), window);
  g_assert_true (embers_rule_dialog_get_valid (dialog));
  g_assert_null (embers_rule_dialog_get_notice (dialog));
  embers_rule_dialog_create (dialog);
  wait_for (dialog_idle, dialog);
  g_assert_nonnull (embers_rule_dialog_get_notice (dialog));
  g_assert_nonnull (strstr (embers_rule_dialog_get_notice (dialog), "-tenant-settings.recording-rules.enabled=true"));
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_FUNCTION), ==, "runtime.GC");
  g_assert_nonnull (embers_pyroscope_source_get_unavailable_reason (source, EMBERS_SOURCE_CAN_RECORDING_RULES));
  copy = find_button (GTK_WIDGET (dialog), "Copy as _Tenant Override");
  g_assert_true (adw_dialog_get_default_widget (ADW_DIALOG (dialog)) == copy);
  g_assert_true (gtk_widget_has_css_class (copy, "suggested-action"));
  g_assert_false (gtk_widget_get_sensitive (find_button (GTK_WIDGET (dialog), "C_reate")));
  g_assert_true (adw_dialog_close (ADW_DIALOG (dialog)));
  embers_test_wait_dialog_closed (dialog);
  g_object_unref (dialog);

  /* Known: said up front, when the dialog opens */
  dialog = embers_rule_dialog_new (EMBERS_SOURCE (source), "api", CPU, "{service_name=\"api\"}", NULL);
  g_object_ref_sink (dialog);
  embers_rule_dialog_set_source (dialog, EMBERS_SOURCE (source));
  adw_dialog_present (ADW_DIALOG (dialog), window);
  g_assert_nonnull (embers_rule_dialog_get_notice (dialog));
  /* Group-by offers api's labels only: worker's "queue" (same profile
   * type, another service) is not one; LabelNames unions its matchers,
   * so the dialog asks with one selector */
  embers_test_wait_until (has_group_by_choices, dialog, "the group-by choices");
  g_assert_true (embers_rule_dialog_toggle_group_by (dialog, "span_name"));
  g_assert_true (embers_rule_dialog_toggle_group_by (dialog, "span_name"));
  g_assert_false (embers_rule_dialog_toggle_group_by (dialog, "queue"));
  embers_test_wait_until (is_mapped, find_label (GTK_WIDGET (dialog), "-tenant-settings.recording-rules.enabled=true"),
                          "the flag on screen");
  g_assert_false (gtk_label_get_wrap (GTK_LABEL (find_label (GTK_WIDGET (dialog),
                                                             "-tenant-settings.recording-rules.enabled=true"))));
  g_assert_false (gtk_widget_get_sensitive (find_button (GTK_WIDGET (dialog), "C_reate")));
  copy = find_button (GTK_WIDGET (dialog), "Copy as _Tenant Override");
  g_assert_true (adw_dialog_get_default_widget (ADW_DIALOG (dialog)) == copy);
  /* Copying says where it goes */
  press (copy);
  g_assert_nonnull (strstr (embers_rule_dialog_get_status (dialog), "anonymous"));
  g_assert_nonnull (find_label (GTK_WIDGET (dialog),
                                "A tenant override goes into Pyroscope’s runtime configuration file "
                                "(-runtime-config.file), under overrides for tenant “anonymous”."));
  keep_up_for_shot ("EMBERS_RULE_SHOT");
  /* Cancel closes it */
  press (find_button (GTK_WIDGET (dialog), "_Cancel"));
  embers_test_wait_dialog_closed (dialog);
  g_object_unref (dialog);

  /* Not from a server at all (a local file): copy only, no Create */
  dialog = embers_rule_dialog_new (NULL, NULL, CPU, NULL, NULL);
  g_object_ref_sink (dialog);
  adw_dialog_present (ADW_DIALOG (dialog), window);
  g_assert_nonnull (embers_rule_dialog_get_notice (dialog));
  g_assert_false (gtk_widget_get_visible (find_button (GTK_WIDGET (dialog), "C_reate")));
  /* Original Pyroscope without a service: a warning, not a silent "app" */
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME, "profiles_recorded_cpu");
  press (find_button (GTK_WIDGET (dialog), "Copy for _Original Pyroscope"));
  g_assert_nonnull (strstr (embers_rule_dialog_get_status (dialog), "APP_NAME"));
  adw_dialog_force_close (ADW_DIALOG (dialog));
  g_object_unref (dialog);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The rules page of a server without the rules API: a page of its own with
 * the flag to select, no pointless Try Again; its dialogs know */
static void
test_rules_page_disabled (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = embers_test_server_start (NULL, &error);
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(GPtrArray) before = embers_test_dialogs (EMBERS_TYPE_RULE_DIALOG);
  EmbersRulesPage *page;
  GtkWindow *window;
  GtkWidget *flag;
  AdwDialog *dialog;

  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);

  page = embers_rules_page_new (client);
  window = GTK_WINDOW (adw_window_new ());
  gtk_window_set_default_size (window, 700, 600);
  adw_window_set_content (ADW_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (window);
  wait_for (rules_idle, page);

  g_assert_true (embers_rules_page_get_disabled (page));
  flag = find_label (GTK_WIDGET (page), "-tenant-settings.recording-rules.enabled=true");
  g_assert_nonnull (flag);
  g_assert_true (gtk_widget_get_mapped (flag));
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (flag)));
  g_assert_false (gtk_label_get_wrap (GTK_LABEL (flag)));
  {
    GtkWidget *retry = find_button (GTK_WIDGET (page), "_Try Again");

    g_assert_true (retry == NULL || !gtk_widget_get_mapped (retry));
  }
  keep_up_for_shot ("EMBERS_RULES_SHOT");

  /* New Rule…: the dialog says so up front */
  press (find_button (GTK_WIDGET (page), "_New Rule…"));
  dialog = embers_test_wait_new_dialog (EMBERS_TYPE_RULE_DIALOG, before);
  g_assert_nonnull (embers_rule_dialog_get_notice (EMBERS_RULE_DIALOG (dialog)));
  g_assert_true (adw_dialog_close (dialog));
  embers_test_wait_dialog_closed (dialog);

  gtk_window_destroy (window);
  embers_test_drain ();
}

/* ---- the rules page ------------------------------------------------------- */

static void
assert_same_rule (const EmbersRecordingRule *a,
                  const EmbersRecordingRule *b)
{
  g_assert_cmpstr (a->metric_name, ==, b->metric_name);
  g_assert_true (g_strv_equal ((const char * const *)a->matchers, (const char * const *)b->matchers));
  g_assert_true (g_strv_equal ((const char * const *)a->group_by, (const char * const *)b->group_by));
  g_assert_true (g_strv_equal ((const char * const *)a->external_label_names,
                               (const char * const *)b->external_label_names));
  g_assert_true (g_strv_equal ((const char * const *)a->external_label_values,
                               (const char * const *)b->external_label_values));
  g_assert_cmpstr (a->function_name, ==, b->function_name);
}

static const EmbersRecordingRule *
rule_by_id (GPtrArray  *rules,
            const char *id)
{
  for (guint i = 0; i < rules->len; i++)
    if (g_str_equal (((EmbersRecordingRule *)g_ptr_array_index (rules, i))->id, id))
      return g_ptr_array_index (rules, i);
  return NULL;
}

/* Opens a rule's dialog from its row, as Enter or a click on it does */
static EmbersRuleDialog *
open_row (EmbersRulesPage *page,
          const char      *title)
{
  g_autoptr(GPtrArray) before = embers_test_dialogs (EMBERS_TYPE_RULE_DIALOG);
  GtkWidget *row = find_row (GTK_WIDGET (page), title);

  g_assert_nonnull (row);
  g_assert_true (gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (row)));
  g_assert_true (gtk_widget_activate (row));
  return EMBERS_RULE_DIALOG (embers_test_wait_new_dialog (EMBERS_TYPE_RULE_DIALOG, before));
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

  /* A rule as other tools store it: several matcher strings, external
   * labels whose values hold commas, "=", quotes and spaces */
  rule->metric_name = g_strdup ("profiles_recorded_api_cpu_nanoseconds");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"" CPU "\"}",
                                           (char *)"{service_name=\"api\", region=~\"eu-.*\"}",
                                           (char *)"{\"k8s.pod\"!=\"canary\"}", NULL });
  g_strfreev (rule->group_by);
  rule->group_by = g_strdupv ((char *[]) { (char *)"region", (char *)"service_name", NULL });
  g_strfreev (rule->external_label_names);
  g_strfreev (rule->external_label_values);
  rule->external_label_names = g_strdupv ((char *[]) { (char *)"team", (char *)"note", (char *)"empty", NULL });
  rule->external_label_values = g_strdupv ((char *[]) { (char *)"a,b", (char *)" x=y \"z\" ", (char *)"", NULL });
  rule->function_name = g_strdup ("main.(*Server).handle");
  created = upsert (client, rule);

  page = embers_rules_page_new (client);
  window = GTK_WINDOW (adw_window_new ());
  gtk_window_set_default_size (window, 900, 600);
  adw_window_set_content (ADW_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (window);
  wait_for (rules_idle, page);
  g_assert_null (embers_rules_page_get_error (page));
  g_assert_false (embers_rules_page_get_disabled (page));
  rules = embers_rules_page_get_rules (page);
  g_assert_cmpuint (rules->len, ==, 2);
  for (guint i = 0; i < rules->len; i++)
    {
      EmbersRecordingRule *r = g_ptr_array_index (rules, i);

      if (r->provisioned)
        provisioned_id = r->id;
    }
  g_assert_nonnull (provisioned_id);

  keep_up_for_shot ("EMBERS_RULES_SHOT");

  /* Provisioned: read-only */
  g_assert_false (embers_rules_page_delete (page, provisioned_id, TRUE));
  g_assert_null (embers_rules_page_edit (page, provisioned_id));
  g_assert_false (gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (find_row (GTK_WIDGET (page),
                                                                                "profiles_recorded_gc_total"))));

  /* Each row's buttons are named after its rule for screen readers */
  {
    GtkWidget *row = find_row (GTK_WIDGET (page), created->metric_name);
    g_autofree char *want = g_strdup_printf ("Delete “%s”", created->metric_name);
    GtkWidget *delete = row_button (row, "Delete");
    GtkAccessible *accessible = GTK_ACCESSIBLE (delete);

    gtk_test_accessible_assert_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, want);
  }

  /* Dialogs close as a person closes them: Cancel, Escape, closing the
   * dialog; each time the page lists again and takes input again */
  for (int how = 0; how < 3; how++)
    {
      dialog = open_row (page, created->metric_name);
      /* Modal: the page below takes no input while it is open */
      g_assert_true (embers_test_blocks_input (GTK_WIDGET (page)));
      if (how == 0)
        press (find_button (GTK_WIDGET (dialog), "_Cancel"));
      else if (how == 1)
        g_assert_true (embers_test_press_key (focused_entry (dialog), GDK_KEY_Escape, 0));
      else
        g_assert_true (adw_dialog_close (ADW_DIALOG (dialog)));
      embers_test_wait_dialog_closed (dialog);
      wait_for (rules_idle, page);
      g_assert_false (embers_test_blocks_input (GTK_WIDGET (page)));
    }

  /* Edit → Save unchanged: the stored rule comes back exactly */
  dialog = open_row (page, created->metric_name);
  g_assert_cmpstr (embers_rule_dialog_get_field (dialog, EMBERS_RULE_FIELD_MATCHERS), ==,
                   "{__profile_type__=\"" CPU "\"}\n{service_name=\"api\", region=~\"eu-.*\"}\n{\"k8s.pod\"!=\"canary\"}");
  g_assert_true (embers_rule_dialog_get_valid (dialog));
  {
    g_autoptr(EmbersRecordingRule) shown = embers_rule_dialog_dup_rule (dialog);

    assert_same_rule (shown, created);
  }
  keep_up_for_shot ("EMBERS_RULES_SHOT");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (adw_dialog_get_default_widget (ADW_DIALOG (dialog)))),
                   ==, "_Save");
  press (find_button (GTK_WIDGET (dialog), "_Save"));
  /* Saved: the page closes the dialog and lists the new generation */
  embers_test_wait_dialog_closed (dialog);
  wait_for (rules_idle, page);
  {
    g_autoptr(GPtrArray) stored = list_rules (client);
    const EmbersRecordingRule *now = rule_by_id (stored, created->id);

    g_assert_nonnull (now);
    assert_same_rule (now, created);
    g_assert_cmpint (now->generation, ==, created->generation + 1);
  }

  /* What the server says about a field stands next to it, until the next
   * edit (a dialog without a source: its only request is the save) */
  {
    g_autoptr(GPtrArray) stored = list_rules (client);
    EmbersRuleDialog *edit = embers_rule_dialog_new_for_rule (embers_rules_page_get_source (page), rule_by_id (stored, created->id));

    g_object_ref_sink (edit);
    g_free (embers_test_server_control (server, "POST", "embers-test/faults",
                                        "{\"code\":\"invalid_argument\",\"count\":1,\"message\":\"invalid request: group_by label "
                                        "\\\"region\\\" must match ^[a-zA-Z_][a-zA-Z0-9_]*$\\nsomething else\"}"));
    embers_rule_dialog_create (edit);
    wait_for (dialog_idle, edit);
    g_assert_nonnull (strstr (embers_rule_dialog_get_status (edit), "the server rejected the rule"));
    /* Screen readers read the error itself: no name over the text */
    {
      /* (not presented: its content is the dialog's child alone) */
      GtkWidget *status = find_label (adw_dialog_get_child (ADW_DIALOG (edit)), embers_rule_dialog_get_status (edit));

      g_assert_nonnull (status);
      gtk_test_accessible_assert_property (GTK_ACCESSIBLE (status), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                           embers_rule_dialog_get_status (edit));
      g_assert_true (gtk_label_get_selectable (GTK_LABEL (status)));
    }
    g_assert_null (strstr (embers_rule_dialog_get_status (edit), "query"));
    g_assert_nonnull (embers_rule_dialog_get_message (edit, EMBERS_RULE_FIELD_GROUP_BY));
    g_assert_nonnull (strstr (embers_rule_dialog_get_message (edit, EMBERS_RULE_FIELD_GROUP_BY), "group_by label"));
    g_assert_null (embers_rule_dialog_get_message (edit, EMBERS_RULE_FIELD_METRIC_NAME));
    embers_rule_dialog_set_field (edit, EMBERS_RULE_FIELD_FUNCTION, "main.other");
    g_assert_null (embers_rule_dialog_get_message (edit, EMBERS_RULE_FIELD_GROUP_BY));
    g_assert_cmpstr (embers_rule_dialog_get_status (edit), ==, "");

    /* The rule limit: in its own words */
    g_free (embers_test_server_control (server, "POST", "embers-test/faults",
                                        "{\"code\":\"resource_exhausted\",\"count\":1,\"message\":\"the maximum number of "
                                        "recording rules (25) has been reached for this tenant\"}"));
    embers_rule_dialog_create (edit);
    wait_for (dialog_idle, edit);
    g_assert_nonnull (strstr (embers_rule_dialog_get_status (edit), "rule limit reached"));
    g_assert_null (strstr (embers_rule_dialog_get_status (edit), "time range"));
    g_object_unref (edit);
  }

  /* A second dialog on the old copy: the server refuses, and it says why */
  {
    g_autoptr(EmbersRecordingRule) old = embers_recording_rule_copy (created);
    EmbersRuleDialog *stale = embers_rule_dialog_new_for_rule (embers_rules_page_get_source (page), old);

    g_object_ref_sink (stale);
    embers_rule_dialog_create (stale);
    wait_for (dialog_idle, stale);
    g_assert_nonnull (strstr (embers_rule_dialog_get_status (stale), "conflicting update"));
    g_assert_true (embers_rule_dialog_get_conflict (stale));
    if (g_getenv ("EMBERS_RULES_SHOT") != NULL)
      {
        adw_dialog_present (ADW_DIALOG (stale), GTK_WIDGET (window));
        keep_up_for_shot ("EMBERS_RULES_SHOT");
        adw_dialog_force_close (ADW_DIALOG (stale));
      }

    /* Load Current Version: the fields become the server's and a save
     * now goes through */
    embers_rule_dialog_set_field (stale, EMBERS_RULE_FIELD_EXTERNAL_LABELS, "team=perf");
    embers_rule_dialog_reload (stale, FALSE);
    wait_for (dialog_idle, stale);
    g_assert_false (embers_rule_dialog_get_conflict (stale));
    g_assert_cmpstr (embers_rule_dialog_get_field (stale, EMBERS_RULE_FIELD_GROUP_BY), ==, "region, service_name");
    g_assert_cmpstr (embers_rule_dialog_get_field (stale, EMBERS_RULE_FIELD_EXTERNAL_LABELS), ==,
                     "team=a,b\nnote= x=y \"z\" \nempty=");
    g_object_unref (stale);

    /* Keep My Changes: what was typed stays and overwrites the server's */
    stale = embers_rule_dialog_new_for_rule (embers_rules_page_get_source (page), old);
    g_object_ref_sink (stale);
    embers_rule_dialog_set_field (stale, EMBERS_RULE_FIELD_GROUP_BY, "pod");
    embers_rule_dialog_create (stale);
    wait_for (dialog_idle, stale);
    g_assert_true (embers_rule_dialog_get_conflict (stale));
    embers_rule_dialog_reload (stale, TRUE);
    wait_for (dialog_idle, stale);
    g_assert_false (embers_rule_dialog_get_conflict (stale));
    g_assert_cmpstr (embers_rule_dialog_get_field (stale, EMBERS_RULE_FIELD_GROUP_BY), ==, "pod");
    embers_rule_dialog_create (stale);
    wait_for (dialog_idle, stale);
    g_assert_nonnull (strstr (embers_rule_dialog_get_status (stale), "Saved"));
    g_assert_false (embers_rule_dialog_get_conflict (stale));
    g_object_unref (stale);
  }

  /* New Rule…: a profile type to choose from the server's, a valid start */
  {
    GtkWindow *window_before = window;
    EmbersRuleDialog *fresh = EMBERS_RULE_DIALOG (embers_rules_page_new_rule (page));
    g_autofree char *matchers = NULL;

    /* Over the page's window */
    g_assert_true (adw_window_get_visible_dialog (ADW_WINDOW (window_before)) == ADW_DIALOG (fresh));
    wait_for (types_ready, fresh);
    g_assert_true (embers_rule_dialog_get_valid (fresh));
    g_assert_cmpstr (embers_rule_dialog_get_field (fresh, EMBERS_RULE_FIELD_METRIC_NAME), ==,
                     "profiles_recorded_cpu_nanoseconds");
    g_assert_cmpstr (embers_rule_dialog_get_field (fresh, EMBERS_RULE_FIELD_MATCHERS), ==,
                     "{__profile_type__=\"" CPU "\"}");
    /* The metric name has the focus once the rule is valid */
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (focused_entry (fresh))), ==,
                     "profiles_recorded_cpu_nanoseconds");
    /* Another type: the matcher and the suggested name follow */
    g_assert_true (embers_rule_dialog_set_profile_type (fresh, ALLOC));
    g_assert_cmpstr (embers_rule_dialog_get_field (fresh, EMBERS_RULE_FIELD_MATCHERS), ==,
                     "{__profile_type__=\"" ALLOC "\"}");
    g_assert_cmpstr (embers_rule_dialog_get_field (fresh, EMBERS_RULE_FIELD_METRIC_NAME), ==,
                     "profiles_recorded_alloc_space_bytes");
    /* A name someone typed stays */
    embers_rule_dialog_set_field (fresh, EMBERS_RULE_FIELD_METRIC_NAME, "profiles_recorded_mine");
    g_assert_true (embers_rule_dialog_set_profile_type (fresh, CPU));
    g_assert_cmpstr (embers_rule_dialog_get_field (fresh, EMBERS_RULE_FIELD_METRIC_NAME), ==,
                     "profiles_recorded_mine");
    matchers = g_strdup (embers_rule_dialog_get_field (fresh, EMBERS_RULE_FIELD_MATCHERS));
    g_assert_cmpstr (matchers, ==, "{__profile_type__=\"" CPU "\"}");
    keep_up_for_shot ("EMBERS_RULES_SHOT");
    g_assert_true (adw_dialog_close (ADW_DIALOG (fresh)));
    embers_test_wait_dialog_closed (fresh);
  }

  /* Delete through the confirmation: gone */
  wait_for (rules_idle, page);
  {
    g_autoptr(GPtrArray) before = embers_test_dialogs (ADW_TYPE_ALERT_DIALOG);
    AdwDialog *confirm;

    g_assert_true (embers_rules_page_delete (page, created->id, FALSE));
    confirm = embers_test_wait_new_dialog (ADW_TYPE_ALERT_DIALOG, before);
    press (find_button (GTK_WIDGET (confirm), "_Delete"));
    embers_test_wait_dialog_closed (confirm);
  }
  wait_for (has_one_rule, page);
  g_assert_cmpuint (embers_rules_page_get_rules (page)->len, ==, 1);

  gtk_window_destroy (window);
  embers_test_drain ();
  g_unlink (provisioned);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/app/rule-from-frame", test_rule_from_frame);
  g_test_add_func ("/embers/app/rule-disabled", test_rule_disabled);
  g_test_add_func ("/embers/app/rules-page-disabled", test_rules_page_disabled);
  g_test_add_func ("/embers/app/rules-page", test_rules_page);

  return g_test_run ();
}
