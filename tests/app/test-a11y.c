/* test-a11y.c: accessibility and keyboard of the window on a display
 * (GTK_A11Y=test): every control has an accessible name in each state of
 * the window, the flame graph names its selected frame, and every action
 * with a keyboard shortcut is listed in the shortcuts window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "embers-compare-page.h"
#include "embers-explore-page.h"
#include "embers-flame-graph.h"
#include "embers-labels-page.h"
#include "embers-recording-rules.h"
#include "embers-render.h"
#include "embers-rules-page.h"
#include "embers-shortcuts.h"
#include "embers-test-server-spawn.h"
#include "embers-window.h"
#include "embers-test-gtk-utils.h"

/* Until @done holds, then until the windows show it */
#define wait_for(done, data) \
  G_STMT_START { embers_test_wait_until ((done), (data), #done); embers_test_settle (); } G_STMT_END

static gboolean
page_idle (gpointer data)
{
  EmbersProfilePage *page = data;

  return embers_profile_page_get_state (page) != EMBERS_PAGE_STATE_LOADING &&
         !embers_profile_page_get_busy (page) &&
         !embers_profile_page_get_search_pending (page);
}

static gboolean
compare_idle (gpointer data)
{
  return !embers_compare_page_get_busy (data);
}

static gboolean
rules_idle (gpointer data)
{
  return !embers_rules_page_get_loading (data);
}

static gboolean
explore_idle (gpointer data)
{
  return !embers_explore_page_get_loading (data) &&
         !embers_profile_page_get_busy (embers_explore_page_get_profile_page (data));
}

static gboolean
labels_idle (gpointer data)
{
  return !embers_labels_page_get_loading (data);
}

static gboolean
has_services (gpointer data)
{
  return g_list_model_get_n_items (embers_explore_page_get_services (data)) > 0;
}

static gboolean
has_no_windows (gpointer app)
{
  return gtk_application_get_windows (app) == NULL;
}

static void
wait_page (EmbersProfilePage *page)
{
  wait_for (page_idle, page);
}

static EmbersWindow *
new_window (void)
{
  EmbersWindow *window = embers_window_new (NULL);

  embers_test_present_window (GTK_WINDOW (window), 1300, 800);
  return window;
}
static GFile *
fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "go", name, NULL);

  return g_file_new_for_path (path);
}

/* Accessible names */

static gboolean
has_text (const char *s)
{
  return s != NULL && s[0] != '\0';
}

/* A label inside @widget (a button's content: GtkLabel, AdwButtonContent) */
static gboolean
has_label_child (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child) && has_text (gtk_label_get_text (GTK_LABEL (child))))
        return TRUE;
      if (ADW_IS_BUTTON_CONTENT (child) && has_text (adw_button_content_get_label (ADW_BUTTON_CONTENT (child))))
        return TRUE;
      if (has_label_child (child))
        return TRUE;
    }
  return FALSE;
}

/* The raw text of a mnemonic button, underscore and all ("_Open…"): an
 * accessible label that repeats it is read with the underscore (GTK
 * before 4.14 set such labels by itself; none of ours may) */
static const char *
raw_mnemonic_label (GtkWidget *widget)
{
  const char *label = NULL;
  gboolean underline = FALSE;

  if (GTK_IS_BUTTON (widget))
    {
      label = gtk_button_get_label (GTK_BUTTON (widget));
      underline = gtk_button_get_use_underline (GTK_BUTTON (widget));
    }
  else if (GTK_IS_CHECK_BUTTON (widget))
    {
      label = gtk_check_button_get_label (GTK_CHECK_BUTTON (widget));
      underline = gtk_check_button_get_use_underline (GTK_CHECK_BUTTON (widget));
    }
  if (underline && label != NULL && strchr (label, '_') != NULL)
    return label;
  return NULL;
}

/* Whether @widget has a name of its own: its accessible label followed
 * by the labels of the widgets it is labelled by. A button is labelled
 * by its child: an icon, which has no name, or a label, which has its
 * text. Tooltips and visible text are no part of it: GTK reads a tooltip
 * when there is nothing else, but every control here has its own name. */
static gboolean
has_own_name (GtkWidget  *widget,
              GString    *why)
{
  GtkAccessible *accessible = GTK_ACCESSIBLE (widget);
  GtkWidget *child = gtk_widget_get_first_child (widget);
  const char *raw = raw_mnemonic_label (widget);
  gboolean own = gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL);
  gboolean by_child = FALSE;
  gboolean by_other = FALSE;

  if (own && raw != NULL)
    {
      g_autofree char *mismatch = gtk_test_accessible_check_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, raw);

      if (mismatch == NULL)
        {
          g_string_append_printf (why, "reads the mnemonic \"%s\"", raw);
          return FALSE;
        }
    }

  if (gtk_test_accessible_has_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY))
    {
      g_autofree char *mismatch = NULL;

      if (child != NULL)
        mismatch = gtk_test_accessible_check_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY, child, NULL);
      if (child != NULL && mismatch == NULL)
        by_child = gtk_test_accessible_has_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL);
      else
        by_other = TRUE;
    }

  if (own && by_child)
    {
      g_string_append (why, "named twice: its label, then its child's");
      return FALSE;
    }
  if (!own && !by_child && !by_other)
    {
      if (child != NULL && gtk_test_accessible_has_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY))
        g_string_append_printf (why, "labelled by its unnamed %s", G_OBJECT_TYPE_NAME (child));
      else
        g_string_append (why, "no accessible label");
      return FALSE;
    }
  return TRUE;
}

/* The button inside a drop-down is what takes the focus, and what a
 * screen reader names when it gets there */
static GtkWidget *
drop_down_button (GtkWidget *drop_down)
{
  for (GtkWidget *child = gtk_widget_get_first_child (drop_down);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      return child;
  return NULL;
}

/* What a screen reader can call @widget: its accessible label, or a
 * button's or row's visible text or tooltip (GTK computes a name from
 * them), unless the text is a raw mnemonic (see raw_mnemonic_label); a
 * menu button's or a drop-down's name is its accessible label alone */
static gboolean
has_accessible_name (GtkWidget *widget,
                     GString   *why)
{
  if (GTK_IS_DROP_DOWN (widget))
    {
      GtkWidget *button = drop_down_button (widget);

      if (!has_own_name (widget, why))
        return FALSE;
      if (button != NULL && !gtk_test_accessible_has_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL))
        {
          g_string_append (why, "its button has no accessible label");
          return FALSE;
        }
      return TRUE;
    }
  /* The menu button's inner button, which takes the focus, is labelled
   * by the menu button: by its accessible label alone */
  if (GTK_IS_MENU_BUTTON (widget))
    {
      if (gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL))
        return TRUE;
      g_string_append (why, "no accessible label");
      return FALSE;
    }
  if (raw_mnemonic_label (widget) == NULL &&
      (has_text (gtk_widget_get_tooltip_text (widget)) ||
       (GTK_IS_BUTTON (widget) && has_text (gtk_button_get_label (GTK_BUTTON (widget)))) ||
       (GTK_IS_MENU_BUTTON (widget) && has_text (gtk_menu_button_get_label (GTK_MENU_BUTTON (widget)))) ||
       (GTK_IS_CHECK_BUTTON (widget) && has_text (gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)))) ||
       (ADW_IS_PREFERENCES_ROW (widget) && has_text (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)))) ||
       ((GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (widget)) && has_label_child (widget))))
    return TRUE;
  return has_own_name (widget, why);
}

/* The controls a person operates */
static gboolean
is_control (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (widget) || GTK_IS_CHECK_BUTTON (widget) ||
      GTK_IS_SWITCH (widget) || GTK_IS_DROP_DOWN (widget) || GTK_IS_SCALE (widget) ||
      GTK_IS_ENTRY (widget) || GTK_IS_SEARCH_ENTRY (widget) || GTK_IS_PASSWORD_ENTRY (widget) ||
      GTK_IS_SPIN_BUTTON (widget) || ADW_IS_SPLIT_BUTTON (widget))
    return TRUE;
  /* Rows and cards that take the focus are announced by their name */
  if ((GTK_IS_LIST_BOX_ROW (widget) || GTK_IS_FLOW_BOX_CHILD (widget)) && gtk_widget_get_focusable (widget))
    return TRUE;
  /* Custom widgets that take the keyboard: the flame graph, charts */
  return gtk_widget_get_focusable (widget) &&
         !GTK_IS_TEXT (widget) && !GTK_IS_LIST_VIEW (widget) && !GTK_IS_COLUMN_VIEW (widget) &&
         g_str_has_prefix (G_OBJECT_TYPE_NAME (widget), "Embers");
}

/* Composite widgets of GTK and libadwaita name their own inner parts */
static gboolean
skip_children (GtkWidget *widget)
{
  return GTK_IS_MENU_BUTTON (widget) || GTK_IS_DROP_DOWN (widget) || GTK_IS_SPIN_BUTTON (widget) ||
         GTK_IS_ENTRY (widget) || GTK_IS_SEARCH_ENTRY (widget) || GTK_IS_PASSWORD_ENTRY (widget) ||
         ADW_IS_SPLIT_BUTTON (widget) || GTK_IS_SCROLLBAR (widget) ||
         GTK_IS_POPOVER (widget) || ADW_IS_COMBO_ROW (widget) || GTK_IS_SCALE (widget);
}

static void
collect_unnamed (GtkWidget *widget,
                 GString   *path,
                 GPtrArray *unnamed)
{
  gsize len = path->len;

  if (!gtk_widget_get_mapped (widget))
    return;

  g_string_append_printf (path, "/%s", G_OBJECT_TYPE_NAME (widget));
  if (has_text (gtk_widget_get_name (widget)) &&
      !g_str_equal (gtk_widget_get_name (widget), G_OBJECT_TYPE_NAME (widget)))
    g_string_append_printf (path, "#%s", gtk_widget_get_name (widget));

  if (is_control (widget))
    {
      g_autoptr(GString) why = g_string_new (NULL);

      if (!has_accessible_name (widget, why))
        {
          const char *action = GTK_IS_ACTIONABLE (widget) ? gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)) : NULL;
          const char *icon = GTK_IS_BUTTON (widget) ? gtk_button_get_icon_name (GTK_BUTTON (widget)) : NULL;
          const char *tooltip = gtk_widget_get_tooltip_text (widget);

          g_ptr_array_add (unnamed,
                           g_strdup_printf ("%s: %s (action %s, icon %s, tooltip “%s”)", path->str, why->str,
                                            action ? action : "-", icon ? icon : "-",
                                            tooltip ? tooltip : ""));
        }
    }

  if (!skip_children (widget))
    for (GtkWidget *child = gtk_widget_get_first_child (widget);
         child != NULL;
         child = gtk_widget_get_next_sibling (child))
      collect_unnamed (child, path, unnamed);

  g_string_truncate (path, len);
}

static void
assert_all_named (GtkWidget  *root,
                  const char *state)
{
  g_autoptr(GPtrArray) unnamed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) path = g_string_new (NULL);

  collect_unnamed (root, path, unnamed);
  for (guint i = 0; i < unnamed->len; i++)
    g_test_message ("%s: no accessible name: %s", state, (char *)unnamed->pdata[i]);
  /* Every state is checked and every unnamed control listed */
  if (unnamed->len > 0)
    g_test_fail_printf ("%s: %u controls without an accessible name", state, unnamed->len);
}

static guint
count_controls (GtkWidget *widget)
{
  guint n = 0;

  if (!gtk_widget_get_mapped (widget))
    return 0;
  if (is_control (widget))
    n++;
  if (!skip_children (widget))
    for (GtkWidget *child = gtk_widget_get_first_child (widget);
         child != NULL;
         child = gtk_widget_get_next_sibling (child))
      n += count_controls (child);
  return n;
}

static void
test_empty (void)
{
  EmbersWindow *window = new_window ();

  g_assert_cmpuint (count_controls (GTK_WIDGET (window)), >=, 3);
  assert_all_named (GTK_WIDGET (window), "empty window");
  embers_test_destroy_window (GTK_WINDOW (window));
}

/* The first widget under @widget whose type is @type */
static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      if ((found = find_descendant (child, type)) != NULL)
        return found;
    }
  return NULL;
}

/* The toggle button under @widget whose label child shows @text */
static GtkWidget *
find_toggle_showing (GtkWidget  *widget,
                     const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_TOGGLE_BUTTON (child) && GTK_IS_LABEL (gtk_widget_get_first_child (child)) &&
          g_strcmp0 (gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (child))), text) == 0)
        return child;
      if ((found = find_toggle_showing (child, text)) != NULL)
        return found;
    }
  return NULL;
}

static void
test_profile (void)
{
  EmbersWindow *window = new_window ();
  g_autoptr(GFile) file = fixture ("cpu-labels.pb.gz");
  EmbersProfilePage *page = embers_window_open_file (window, file);
  EmbersFlameGraph *graph;
  EmbersProfile *profile;
  g_autofree char *expected = NULL;
  g_autofree char *mismatch = NULL;
  guint32 node;

  wait_page (page);
  g_assert_cmpuint (embers_profile_page_get_state (page), ==, EMBERS_PAGE_STATE_READY);
  assert_all_named (GTK_WIDGET (window), "loaded profile");

  /* The flame graph names the selected frame (name, value, share) */
  graph = embers_profile_page_get_flame_graph (page);
  profile = embers_flame_graph_get_profile (graph);
  g_assert_nonnull (profile);
  g_assert_cmpuint (embers_profile_get_n_nodes (profile), >, 2);
  node = embers_profile_get_n_nodes (profile) / 2;
  embers_flame_graph_set_selected_node (graph, node);
  embers_test_settle ();
  expected = embers_render_accessible_text (profile, embers_flame_graph_get_sample_type (graph), node);
  g_assert_true (has_text (expected));
  mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (graph), GTK_ACCESSIBLE_PROPERTY_LABEL, expected);
  g_assert_null (mismatch);

  /* Each view, and the search bar */
  for (guint v = 0; v < 4; v++)
    {
      g_autofree char *state = g_strdup_printf ("view %u", v);

      embers_profile_page_set_view (page, v);
      wait_page (page);
      assert_all_named (GTK_WIDGET (window), state);
    }
  embers_profile_page_set_view (page, EMBERS_VIEW_ICICLE);
  embers_profile_page_set_search (page, "main", FALSE, FALSE);
  wait_page (page);
  assert_all_named (GTK_WIDGET (window), "search");

  /* The search's toggles show ".*" and "Aa" and are named in words */
  {
    GtkWidget *bar = find_descendant (GTK_WIDGET (page), GTK_TYPE_SEARCH_BAR);
    static const char * const shown[] = { ".*", "Aa" };
    static const char * const names[] = { "Regular Expression", "Match Case" };

    g_assert_nonnull (bar);
    for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
      {
        GtkWidget *toggle = find_toggle_showing (bar, shown[i]);
        g_autofree char *wrong = NULL;

        g_assert_nonnull (toggle);
        g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (toggle)), ==, GTK_ACCESSIBLE_ROLE_TOGGLE_BUTTON);
        wrong = gtk_test_accessible_check_property (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_PROPERTY_LABEL, names[i]);
        g_assert_null (wrong);
        /* and not "Regular Expression .*": no label child to add to it */
        g_assert_false (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_RELATION_LABELLED_BY));
      }
  }

  embers_test_destroy_window (GTK_WINDOW (window));
}

static gboolean
focus_is_inside (GtkWidget *window,
                 GtkWidget *widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* A table (the top table, the diff table): each row has an accessible
 * label (set by the row factory), roles as GTK exposes them, and
 * the table is one Tab stop */
static void
check_table (GtkWidget  *window,
             GtkWidget  *table,
             const char *what)
{
  GtkWidget *view;
  GtkWidget *list;
  guint n_rows = 0;

  view = find_descendant (table, GTK_TYPE_COLUMN_VIEW);
  g_assert_nonnull (view);
  g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL));
  list = find_descendant (view, GTK_TYPE_LIST_VIEW);
  g_assert_nonnull (list);

  /* Rows: focusable, a row role, named */
  for (GtkWidget *row = gtk_widget_get_first_child (list);
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      if (!gtk_widget_get_mapped (row) || g_strcmp0 (gtk_widget_get_css_name (row), "row") != 0)
        continue;
      n_rows++;
      g_assert_true (gtk_widget_get_focusable (row));
      g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (row)), ==, GTK_ACCESSIBLE_ROLE_ROW);
      if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL))
        g_test_fail_printf ("row %u of the %s has no accessible label", n_rows, what);
    }
  g_assert_cmpuint (n_rows, >, 3);

  /* Into the table: a row has the focus */
  g_assert_true (gtk_widget_child_focus (table, GTK_DIR_TAB_FORWARD));
  g_assert_true (focus_is_inside (window, list));

  /* Tab leaves it from the first row; so does Shift+Tab */
  g_signal_emit_by_name (window, "move-focus", GTK_DIR_TAB_FORWARD);
  g_assert_false (focus_is_inside (window, table));
  g_signal_emit_by_name (window, "move-focus", GTK_DIR_TAB_BACKWARD);
  g_assert_true (focus_is_inside (window, list));
  g_signal_emit_by_name (window, "move-focus", GTK_DIR_TAB_BACKWARD);
  g_assert_false (focus_is_inside (window, table));
  g_signal_emit_by_name (window, "move-focus", GTK_DIR_TAB_FORWARD);
  g_assert_true (focus_is_inside (window, list));

  /* Down moves between rows and stays in the table */
  g_signal_emit_by_name (window, "move-focus", GTK_DIR_DOWN);
  g_assert_true (focus_is_inside (window, list));
}

static void
test_top_table (void)
{
  EmbersWindow *window = new_window ();
  g_autoptr(GFile) file = fixture ("cpu-labels.pb.gz");
  EmbersProfilePage *page = embers_window_open_file (window, file);

  wait_page (page);
  check_table (GTK_WIDGET (window), GTK_WIDGET (embers_profile_page_get_top_table (page)), "top table");
  embers_test_destroy_window (GTK_WINDOW (window));
}

static guint
count_mapped (GtkWidget *widget,
              GType      type)
{
  guint n = 0;

  if (!gtk_widget_get_mapped (widget))
    return 0;
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    n++;
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_mapped (child, type);
  return n;
}

/* A narrow window: the toolbars fold into menus (the view menu, More
 * Actions), which need names of their own */
static void
test_narrow (void)
{
  EmbersWindow *window = embers_window_new (NULL);
  g_autoptr(GFile) file = fixture ("cpu-labels.pb.gz");
  EmbersProfilePage *page;

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 500);
  gtk_window_present (GTK_WINDOW (window));
  embers_test_wait_mapped (GTK_WIDGET (window));
  page = embers_window_open_file (window, file);
  wait_page (page);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (embers_profile_page_get_flame_graph (page))));
  /* The view menu stands for the view buttons, beside Frame Colors */
  g_assert_cmpuint (count_mapped (GTK_WIDGET (page), GTK_TYPE_MENU_BUTTON), >=, 2);
  assert_all_named (GTK_WIDGET (window), "narrow profile");
  embers_profile_page_set_search (page, "main", FALSE, FALSE);
  wait_page (page);
  assert_all_named (GTK_WIDGET (window), "narrow search");
  embers_test_destroy_window (GTK_WINDOW (window));
}

/* The connect dialog and an empty compare tab */
static void
test_dialogs (void)
{
  EmbersWindow *window = new_window ();
  EmbersConnectDialog *dialog;

  dialog = embers_window_connect (window, NULL);
  g_assert_nonnull (dialog);
  embers_test_settle ();
  assert_all_named (GTK_WIDGET (dialog), "connect dialog");
  adw_dialog_force_close (ADW_DIALOG (dialog));
  embers_test_settle ();

  embers_window_open_compare (window);
  embers_test_settle ();
  assert_all_named (GTK_WIDGET (window), "new comparison");

  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
test_comparison (void)
{
  EmbersWindow *window = new_window ();
  g_autoptr(GFile) base = fixture ("cpu-before.pb.gz");
  g_autoptr(GFile) comp = fixture ("cpu-after.pb.gz");
  EmbersProfilePage *page;

  EmbersComparePage *compare;

  compare = EMBERS_COMPARE_PAGE (embers_window_open_comparison (window, base, comp));
  g_assert_nonnull (compare);
  wait_for (compare_idle, compare);
  page = embers_compare_page_get_profile_page (compare);
  g_assert_nonnull (page);
  wait_page (page);
  assert_all_named (GTK_WIDGET (window), "comparison");

  /* The diff table: named rows, one Tab stop */
  check_table (GTK_WIDGET (window), GTK_WIDGET (embers_profile_page_get_diff_table (page)), "diff table");
  embers_test_destroy_window (GTK_WINDOW (window));
}

static void
rule_upserted (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  EmbersRecordingRule **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = embers_recording_rules_upsert_finish (result, &error);
  g_assert_no_error (error);
}

static void
wait_rules (EmbersRulesPage *page)
{
  wait_for (rules_idle, page);
}

/* The recording rules page: a provisioned rule and a stored one (their
 * Edit and Delete buttons), and a server without the rules API */
static void
test_rules_page (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-a11y-rules-XXXXXX", NULL);
  g_autofree char *provisioned = g_build_filename (dir, "provisioned.json", NULL);
  g_autofree char *arg = g_strdup_printf ("--provisioned=%s", provisioned);
  const char *args[] = { "--recording-rules", arg, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersTestServer) server = NULL;
  g_autoptr(EmbersTestServer) no_rules = NULL;
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersConnectClient) no_rules_client = NULL;
  g_autoptr(EmbersRecordingRule) rule = embers_recording_rule_new ();
  g_autoptr(EmbersRecordingRule) created = NULL;
  EmbersWindow *window;
  EmbersRulesPage *page;

  g_file_set_contents (provisioned,
                       "[{\"metricName\":\"profiles_recorded_gc_total\","
                       "\"matchers\":[\"{__profile_type__=\\\"process_cpu:cpu:nanoseconds:cpu:nanoseconds\\\"}\"]}]",
                       -1, &error);
  g_assert_no_error (error);
  server = embers_test_server_start (args, &error);
  g_assert_no_error (error);
  client = embers_connect_client_new (embers_test_server_get_url (server), &error);
  g_assert_no_error (error);

  rule->metric_name = g_strdup ("profiles_recorded_api_cpu_nanoseconds");
  g_strfreev (rule->matchers);
  rule->matchers = g_strdupv ((char *[]) { (char *)"{__profile_type__=\"process_cpu:cpu:nanoseconds:cpu:nanoseconds\", service_name=\"api\"}", NULL });
  g_strfreev (rule->group_by);
  rule->group_by = g_strdupv ((char *[]) { (char *)"region", NULL });
  rule->function_name = g_strdup ("runtime.gcBgMarkWorker");
  embers_recording_rules_upsert_async (client, rule, NULL, rule_upserted, &created);
  embers_test_wait_while (created == NULL);

  window = new_window ();
  page = EMBERS_RULES_PAGE (embers_window_open_rules (window, client));
  g_assert_nonnull (page);
  wait_rules (page);
  g_assert_null (embers_rules_page_get_error (page));
  g_assert_cmpuint (embers_rules_page_get_rules (page)->len, ==, 2);
  assert_all_named (GTK_WIDGET (window), "recording rules");

  /* Recording rules off on the server: a page of its own */
  no_rules = embers_test_server_start (NULL, &error);
  g_assert_no_error (error);
  no_rules_client = embers_connect_client_new (embers_test_server_get_url (no_rules), &error);
  g_assert_no_error (error);
  page = EMBERS_RULES_PAGE (embers_window_open_rules (window, no_rules_client));
  wait_rules (page);
  g_assert_true (embers_rules_page_get_disabled (page));
  assert_all_named (GTK_WIDGET (window), "recording rules off");

  embers_test_destroy_window (GTK_WINDOW (window));
  g_unlink (provisioned);
  g_rmdir (dir);
}

static void
wait_explore (EmbersExplorePage *page)
{
  /* (what is ready runs first: a load may be about to start) */
  embers_test_drain ();
  wait_for (explore_idle, page);
}

static void
test_explore (void)
{
  g_autofree char *dir = g_dir_make_tmp ("embers-a11y-XXXXXX", NULL);
  const char *names[] = { "cpu-labels.pb.gz", "heap.pb.gz" };
  EmbersWindow *window = new_window ();
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GtkStringObject) first = NULL;
  EmbersExplorePage *page;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *from = g_test_build_filename (G_TEST_DIST, "fixtures", "go", names[i], NULL);
      g_autofree char *to = g_build_filename (dir, names[i], NULL);
      g_autofree char *data = NULL;
      gsize len = 0;

      g_assert_true (g_file_get_contents (from, &data, &len, NULL));
      g_assert_true (g_file_set_contents (to, data, len, NULL));
    }

  page = EMBERS_EXPLORE_PAGE (embers_window_open_folder (window, folder));
  g_assert_nonnull (page);
  embers_test_wait_until (has_services, page, "the folder's services");
  wait_explore (page);
  assert_all_named (GTK_WIDGET (window), "explore, no service");

  g_assert_cmpuint (g_list_model_get_n_items (embers_explore_page_get_services (page)), >=, 1);
  first = g_list_model_get_item (embers_explore_page_get_services (page), 0);
  g_assert_true (embers_explore_page_select_service (page, gtk_string_object_get_string (first)));
  wait_explore (page);
  assert_all_named (GTK_WIDGET (window), "explore, a service");

  /* The recording rule dialog (New Rule… on a folder) */
  {
    g_autoptr(GPtrArray) before = embers_test_dialogs (EMBERS_TYPE_RULE_DIALOG);
    AdwDialog *dialog;

    gtk_widget_activate_action (GTK_WIDGET (page), "explore.create-rule", NULL);
    dialog = embers_test_wait_new_dialog (EMBERS_TYPE_RULE_DIALOG, before);
    g_assert_true (adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window)) == dialog);
    embers_test_settle ();
    assert_all_named (GTK_WIDGET (dialog), "recording rule dialog");
    adw_dialog_force_close (dialog);
    embers_test_wait_dialog_closed (dialog);
  }

  /* The label explorer on the explore tab's service */
  {
    GtkWidget *labels = embers_window_open_labels (window, page);

    g_assert_nonnull (labels);
    embers_test_drain ();
    wait_for (labels_idle, labels);
    assert_all_named (GTK_WIDGET (window), "labels, no label");
    if (g_list_model_get_n_items (embers_labels_page_get_names (EMBERS_LABELS_PAGE (labels))) > 0)
      {
        g_autoptr(GtkStringObject) name = g_list_model_get_item (embers_labels_page_get_names (EMBERS_LABELS_PAGE (labels)), 0);

        embers_labels_page_select_label (EMBERS_LABELS_PAGE (labels), gtk_string_object_get_string (name));
        embers_test_drain ();
        wait_for (labels_idle, labels);
        assert_all_named (GTK_WIDGET (window), "labels, a label");
      }
  }

  embers_test_destroy_window (GTK_WINDOW (window));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *to = g_build_filename (dir, names[i], NULL);

      g_unlink (to);
    }
  g_rmdir (dir);
}

/* Keyboard shortcuts */

typedef struct
{
  guint           keyval;
  GdkModifierType mods;
} Accel;

static void
add_accels (GArray     *accels,
            const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, " ", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      Accel a = { 0, 0 };

      if (parts[i][0] == '\0')
        continue;
      if (gtk_accelerator_parse (parts[i], &a.keyval, &a.mods))
        {
          a.keyval = gdk_keyval_to_lower (a.keyval);
          g_array_append_val (accels, a);
        }
    }
}

/* Every accelerator the shortcuts dialog shows (AdwShortcutsDialog's key
 * labels, or the keys of our own list on libadwaita 1.7) */
static GArray *
listed_accels (AdwDialog *dialog)
{
  GArray *accels = g_array_new (FALSE, FALSE, sizeof (Accel));
  GList *stack = g_list_prepend (NULL, dialog);

  while (stack != NULL)
    {
      GtkWidget *widget = stack->data;
      g_autofree char *accel = embers_shortcuts_dialog_dup_accelerators (widget);

      stack = g_list_delete_link (stack, stack);
      if (accel != NULL)
        add_accels (accels, accel);
      for (GtkWidget *child = gtk_widget_get_first_child (widget);
           child != NULL;
           child = gtk_widget_get_next_sibling (child))
        stack = g_list_prepend (stack, child);
    }
  return accels;
}

static gboolean
is_listed (GArray     *listed,
           const char *accel)
{
  Accel a = { 0, 0 };

  if (!gtk_accelerator_parse (accel, &a.keyval, &a.mods))
    return FALSE;
  a.keyval = gdk_keyval_to_lower (a.keyval);
  for (guint i = 0; i < listed->len; i++)
    {
      Accel *l = &g_array_index (listed, Accel, i);

      if (l->keyval == a.keyval && l->mods == a.mods)
        return TRUE;
    }
  return FALSE;
}

/* Twins of listed keys need no entry of their own: the keypad's, and the
 * Enter and context menu keys newer GTK binds beside Return and Menu */
static gboolean
is_twin (guint keyval)
{
  const char *name = gdk_keyval_name (keyval);

  return (name != NULL && g_str_has_prefix (name, "KP_")) ||
         keyval == GDK_KEY_ISO_Enter || keyval == GDK_KEY_ContextMenu;
}

/* The shortcuts of @widget's own shortcut controllers (class bindings
 * included) that trigger an action or signal: "accel -> what" */
static void
collect_widget_shortcuts (GtkWidget *widget,
                          GPtrArray *out)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
          GtkShortcutTrigger *triggers[2] = { trigger, NULL };
          g_autofree char *what = NULL;

          /* Our actions, and our own key handlers (callbacks) on our
           * widgets; the window's callbacks and signals are GTK's and
           * libadwaita's (focus moves, tab switching) */
          GVariant *args = gtk_shortcut_get_arguments (shortcut);

          /* An action with its target ("page.view::icicle"); a callback
           * that forwards to an action names it as its argument */
          if (GTK_IS_NAMED_ACTION (action))
            what = g_action_print_detailed_name (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)), args);
          else if (GTK_IS_CALLBACK_ACTION (action) && args != NULL &&
                   g_variant_is_of_type (args, G_VARIANT_TYPE_STRING) &&
                   strchr (g_variant_get_string (args, NULL), '.') != NULL)
            what = g_variant_dup_string (args, NULL);
          else if (GTK_IS_CALLBACK_ACTION (action) && !GTK_IS_WINDOW (widget))
            what = gtk_shortcut_action_to_string (action);
          else
            continue;

          if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
            {
              triggers[0] = gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger));
              triggers[1] = gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger));
            }
          for (guint k = 0; k < G_N_ELEMENTS (triggers); k++)
            if (triggers[k] != NULL && GTK_IS_KEYVAL_TRIGGER (triggers[k]) &&
                !is_twin (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (triggers[k]))))
              {
                g_autofree char *accel =
                  gtk_accelerator_name (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (triggers[k])),
                                        gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (triggers[k])));

                g_ptr_array_add (out, g_strdup_printf ("%s\t%s\t%s", accel, what, G_OBJECT_TYPE_NAME (widget)));
              }
        }
    }
}

static void
collect_tree_shortcuts (GtkWidget  *widget,
                        GHashTable *seen_types,
                        GPtrArray  *out)
{
  /* Class shortcuts are the same for each instance: one per type */
  if (g_str_has_prefix (G_OBJECT_TYPE_NAME (widget), "Embers") &&
      g_hash_table_add (seen_types, (gpointer)G_OBJECT_TYPE_NAME (widget)))
    collect_widget_shortcuts (widget, out);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_tree_shortcuts (child, seen_types, out);
}

/* Runs what @accel triggers on @widget as GTK runs a key press: the
 * shortcuts of its controllers, the last added first, until one acts */
static gboolean
press (GtkWidget  *widget,
       const char *accel)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  guint keyval = 0;
  GdkModifierType mods = 0;

  g_assert_true (gtk_accelerator_parse (accel, &keyval, &mods));
  for (guint i = g_list_model_get_n_items (controllers); i-- > 0;)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = g_list_model_get_n_items (G_LIST_MODEL (controller)); j-- > 0;)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == mods &&
              gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                            gtk_shortcut_get_arguments (shortcut)))
            return TRUE;
        }
    }
  return FALSE;
}

static char *
clipboard_text (GtkWidget *widget)
{
  GdkContentProvider *content = gdk_clipboard_get_content (gtk_widget_get_clipboard (widget));
  g_auto(GValue) value = G_VALUE_INIT;

  if (content == NULL)
    return NULL;
  g_value_init (&value, G_TYPE_STRING);
  if (!gdk_content_provider_get_value (content, &value, NULL))
    return NULL;
  return g_value_dup_string (&value);
}

/* The new keys do what the shortcuts window says */
static void
test_keys (void)
{
  EmbersWindow *window = new_window ();
  g_autoptr(GFile) file = fixture ("cpu-labels.pb.gz");
  EmbersProfilePage *page = embers_window_open_file (window, file);
  EmbersFlameGraph *graph;
  EmbersProfile *profile;
  g_autofree char *copied = NULL;
  g_autofree char *stack = NULL;
  gboolean collapsed = FALSE;
  guint32 node;

  wait_page (page);
  graph = embers_profile_page_get_flame_graph (page);
  profile = embers_flame_graph_get_profile (graph);

  /* Ctrl+1…4: the views */
  g_assert_true (press (GTK_WIDGET (page), "<Control>2"));
  wait_page (page);
  g_assert_cmpint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_FLAME);
  g_assert_true (press (GTK_WIDGET (page), "<Control>3"));
  wait_page (page);
  g_assert_cmpint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_BOTTOM_UP);
  g_assert_true (press (GTK_WIDGET (page), "<Control>1"));
  wait_page (page);
  g_assert_cmpint (embers_profile_page_get_view (page), ==, EMBERS_VIEW_ICICLE);
  graph = embers_profile_page_get_flame_graph (page);
  profile = embers_flame_graph_get_profile (graph);

  /* r: Collapse Recursion, on and off */
  g_assert_true (press (GTK_WIDGET (graph), "r"));
  wait_page (page);
  g_object_get (page, "collapse-recursion", &collapsed, NULL);
  g_assert_true (collapsed);
  g_assert_true (press (GTK_WIDGET (graph), "r"));
  wait_page (page);
  g_object_get (page, "collapse-recursion", &collapsed, NULL);
  g_assert_false (collapsed);
  profile = embers_flame_graph_get_profile (graph);

  /* Ctrl+C and Ctrl+Shift+C: the selected frame's name and stack */
  node = embers_profile_get_n_nodes (profile) / 2;
  embers_flame_graph_set_selected_node (graph, node);
  g_assert_true (press (GTK_WIDGET (graph), "<Control>c"));
  copied = clipboard_text (GTK_WIDGET (graph));
  g_assert_cmpstr (copied, ==, embers_profile_node_name_str (profile, node));
  g_assert_true (press (GTK_WIDGET (graph), "<Control><Shift>c"));
  g_clear_pointer (&copied, g_free);
  copied = clipboard_text (GTK_WIDGET (graph));
  stack = embers_profile_node_stack (profile, node, "\n");
  g_assert_cmpstr (copied, ==, stack);

  /* Enter focuses the frame; Escape on the page (the table, say) resets */
  g_assert_true (press (GTK_WIDGET (graph), "Return"));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (graph), ==, node);
  embers_test_settle ();
  g_assert_true (press (GTK_WIDGET (page), "Escape"));
  g_assert_cmpuint (embers_flame_graph_get_focus_node (graph), ==, 0);
  /* …and with nothing to reset, lets the key go on */
  embers_test_settle ();
  g_assert_false (press (GTK_WIDGET (page), "Escape"));

  embers_test_destroy_window (GTK_WINDOW (window));
}

/* Actions without a shortcut of their own, and why. Every other action
 * of the application, the window, a profile page, its flame graph and an
 * explore page has one, listed in the shortcuts window (test_shortcuts) */
static const char * const no_shortcut[] = {
  /* With a parameter, reached from a menu, a row or another action */
  "app.color-scheme",           /* the main menu's Style submenu */
  "app.compare",                /* embers --diff BASE COMP, and over D-Bus */
  "app.connect",                /* embers --server URL, and over D-Bus */
  "win.open-uri",               /* a recent file's row on the start page */
  "win.show-toast",             /* pages' messages to their window */
  "win.show-toast-action",      /* pages' messages with a button */
  "win.add-recent",             /* pages' files to the recent list */
  "win.compare-across",         /* a labels tab's Line Up menu: values or time ranges */
  /* page.sandwich, page.hide-frame, page.focus-function, page.merge-function,
   * page.drop-function, page.collapse-package and
   * page.collapse-function-recursion: s, Delete, f, m, d, p and Shift+R on
   * a table row (and through flame.* on the graph) */
  "page.remove-transform",      /* an index: its transform chip's button */
  "page.transform",             /* a call path: Delete and Shift+F through flame.* */
  "page.colors",                /* the Frame Colors menu */
  /* One button in one place, which GNOME apps give no shortcut */
  "app.about",                  /* the main menu */
  "win.open-sample",            /* the start page and the main menu: a first look */
  "win.clear-recent",           /* the start page's recent files; it forgets them */
  "page.clear-transforms",      /* the transform bar's Remove All button */
  "explore.show-rules",         /* the Rules button and the More Actions menu */
  "win.show-rules",             /* a toast's Show button (the tab's Rules view) */
  "win.compare-across-files",   /* the main menu's Line Up Profiles… */
  "win.compare-across-folder",  /* the main menu's Line Up a Folder of Versions… */
  NULL
};

/* @group's actions, prefixed */
static void
list_actions (GActionGroup *group,
              const char   *prefix,
              GPtrArray    *out)
{
  g_auto(GStrv) names = g_action_group_list_actions (group);

  for (guint i = 0; names[i] != NULL; i++)
    g_ptr_array_add (out, g_strconcat (prefix, names[i], NULL));
}

/* The actions @type installs (not GTK's: window.close, default.activate…) */
static void
list_class_actions (GType      type,
                    GPtrArray *out)
{
  GtkWidgetClass *klass = g_type_class_ref (type);
  const char *name = NULL;
  const char *property = NULL;
  const GVariantType *parameter = NULL;
  GType owner;

  for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &name, &parameter, &property); i++)
    if (g_str_has_prefix (g_type_name (owner), "Embers"))
      g_ptr_array_add (out, g_strdup (name));
  g_type_class_unref (klass);
}

static void
test_shortcuts (void)
{
  g_autoptr(EmbersApplication) app = embers_application_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) listed = NULL;
  g_autoptr(GPtrArray) unlisted = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) widget_shortcuts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen_types = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) actions = NULL;
  g_autoptr(GFile) file = fixture ("cpu-labels.pb.gz");
  GtkWindow *window;
  AdwDialog *shortcuts;
  guint n_accels = 0;

  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_application_activate (G_APPLICATION (app));
  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert_true (EMBERS_IS_WINDOW (window));
  embers_test_settle ();

  /* The shortcuts dialog, opened by its action (Ctrl+?): every group,
   * each shortcut named for screen readers */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-shortcuts", NULL));
  shortcuts = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window));
  g_assert_nonnull (shortcuts);
  embers_test_settle ();
  listed = listed_accels (shortcuts);
  g_assert_cmpuint (listed->len, >=, 10);
  g_assert_true (is_listed (listed, "<Control>question"));
  assert_all_named (GTK_WIDGET (shortcuts), "shortcuts dialog");
  adw_dialog_force_close (shortcuts);

  /* Application accelerators (app. and win.) */
  actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);

      for (guint j = 0; accels[j] != NULL; j++)
        {
          n_accels++;
          if (!is_listed (listed, accels[j]))
            g_ptr_array_add (unlisted, g_strdup_printf ("%s (%s)", accels[j], actions[i]));
        }
    }
  g_assert_cmpuint (n_accels, >=, 7);

  /* Widget shortcuts of the window, a profile page and its flame graph,
   * a compare page, an explore page */
  wait_page (embers_window_open_file (EMBERS_WINDOW (window), file));
  collect_tree_shortcuts (GTK_WIDGET (window), seen_types, widget_shortcuts);
  embers_window_open_compare (EMBERS_WINDOW (window));
  embers_test_settle ();
  collect_tree_shortcuts (GTK_WIDGET (window), seen_types, widget_shortcuts);
  {
    g_autofree char *dir = g_dir_make_tmp ("embers-a11y-XXXXXX", NULL);
    g_autofree char *to = g_build_filename (dir, "cpu-labels.pb.gz", NULL);
    g_autofree char *from = g_file_get_path (file);
    g_autofree char *data = NULL;
    g_autoptr(GFile) folder = g_file_new_for_path (dir);
    gsize len = 0;
    EmbersExplorePage *page;

    g_assert_true (g_file_get_contents (from, &data, &len, NULL));
    g_assert_true (g_file_set_contents (to, data, len, NULL));
    page = EMBERS_EXPLORE_PAGE (embers_window_open_folder (EMBERS_WINDOW (window), folder));
    wait_explore (page);
    collect_tree_shortcuts (GTK_WIDGET (window), seen_types, widget_shortcuts);
    g_unlink (to);
    g_rmdir (dir);
  }
  for (guint i = 0; i < widget_shortcuts->len; i++)
    {
      g_auto(GStrv) parts = g_strsplit (widget_shortcuts->pdata[i], "\t", 3);

      g_test_message ("widget shortcut %s -> %s (%s)", parts[0], parts[1], parts[2]);
      if (!is_listed (listed, parts[0]))
        g_ptr_array_add (unlisted, g_strdup_printf ("%s (%s in %s)", parts[0], parts[1], parts[2]));
    }
  g_assert_cmpuint (widget_shortcuts->len, >=, 5);

  for (guint i = 0; i < unlisted->len; i++)
    g_test_message ("not in the shortcuts window: %s", (char *)unlisted->pdata[i]);
  g_assert_cmpuint (unlisted->len, ==, 0);

  /* Every action has a shortcut (all of them listed, above), or is on
   * the list of those without one */
  {
    g_autoptr(GHashTable) covered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GPtrArray) installed = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GPtrArray) uncovered = g_ptr_array_new_with_free_func (g_free);
    static const char * const views[] = { "icicle", "flame", "bottom-up", "sandwich" };

    for (guint i = 0; actions[i] != NULL; i++)
      {
        g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);

        if (accels[0] != NULL)
          g_hash_table_add (covered, g_strdup (actions[i]));
      }
    for (guint i = 0; i < widget_shortcuts->len; i++)
      {
        g_auto(GStrv) parts = g_strsplit (widget_shortcuts->pdata[i], "\t", 3);
        g_autofree char *name = NULL;
        g_autoptr(GVariant) target = NULL;

        g_hash_table_add (covered, g_strdup (parts[1]));
        /* "page.view::icicle" also covers "page.view" */
        if (g_action_parse_detailed_name (parts[1], &name, &target, NULL))
          g_hash_table_add (covered, g_steal_pointer (&name));
      }

    list_actions (G_ACTION_GROUP (app), "app.", installed);
    list_actions (G_ACTION_GROUP (window), "win.", installed);
    list_class_actions (EMBERS_TYPE_WINDOW, installed);
    list_class_actions (EMBERS_TYPE_PROFILE_PAGE, installed);
    list_class_actions (EMBERS_TYPE_FLAME_GRAPH, installed);
    list_class_actions (EMBERS_TYPE_EXPLORE_PAGE, installed);
    g_assert_cmpuint (installed->len, >=, 40);

    for (guint i = 0; i < installed->len; i++)
      {
        const char *name = installed->pdata[i];
        gboolean exempt = g_strv_contains (no_shortcut, name);

        if (exempt && g_hash_table_contains (covered, name))
          g_test_fail_printf ("%s has a shortcut: take it off no_shortcut", name);
        else if (!exempt && !g_hash_table_contains (covered, name))
          g_ptr_array_add (uncovered, g_strdup (name));
      }
    for (guint i = 0; i < G_N_ELEMENTS (views); i++)
      {
        g_autofree char *view = g_strdup_printf ("page.view::%s", views[i]);

        if (!g_hash_table_contains (covered, view))
          g_ptr_array_add (uncovered, g_steal_pointer (&view));
      }
    /* The exemptions name real actions */
    for (guint i = 0; no_shortcut[i] != NULL; i++)
      {
        gboolean found = FALSE;

        for (guint j = 0; j < installed->len && !found; j++)
          found = g_str_equal (installed->pdata[j], no_shortcut[i]);
        if (!found)
          g_test_fail_printf ("%s on no_shortcut is no action of the window", no_shortcut[i]);
      }
    for (guint i = 0; i < uncovered->len; i++)
      g_test_message ("no shortcut: %s", (char *)uncovered->pdata[i]);
    g_assert_cmpuint (uncovered->len, ==, 0);
  }

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  embers_test_wait_until (has_no_windows, app, "the application's windows to close");
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));
}

int
main (int   argc,
      char *argv[])
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/a11y/empty", test_empty);
  g_test_add_func ("/embers/a11y/profile", test_profile);
  g_test_add_func ("/embers/a11y/top-table", test_top_table);
  g_test_add_func ("/embers/a11y/narrow", test_narrow);
  g_test_add_func ("/embers/a11y/comparison", test_comparison);
  g_test_add_func ("/embers/a11y/dialogs", test_dialogs);
  g_test_add_func ("/embers/a11y/rules-page", test_rules_page);
  g_test_add_func ("/embers/a11y/explore", test_explore);
  g_test_add_func ("/embers/a11y/shortcuts", test_shortcuts);
  g_test_add_func ("/embers/a11y/keys", test_keys);

  return g_test_run ();
}
