/* test-rule-dialog-form.c: the recording rule dialog's template, keyboard
 * and links (under Xvfb, no server)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The dialog is a GtkBuilder template with its parts as widgets of their
 * own (rows, group-by toggles, type chooser, preview, copies). These
 * tests check that every widget is in place and reachable by keyboard
 * (Tab through the form, mnemonics), and that the parts stay in step
 * both ways without loops: notifications and preview requests counted.
 * The preview runs against a local source (SelectSeries computed
 * locally), so no server is needed.
 */

#include "config.h"

#include <adwaita.h>

#include "embers-local-source.h"
#include "embers-rule-copies.h"
#include "embers-rule-dialog.h"
#include "embers-rule-group-by.h"
#include "embers-rule-preview.h"
#include "embers-rule-rows.h"
#include "embers-rule-type-chooser.h"
#include "embers-test-gtk-utils.h"
#include "embers-test-utils.h"

#define CPU_TYPE "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

static GtkWidget *
part (gpointer    root,
      GType       type,
      const char *id)
{
  GtkWidget *widget = embers_test_find_widget (GTK_WIDGET (root), type, id);

  if (widget == NULL)
    g_error ("No %s “%s” in the dialog", g_type_name (type), id);
  return widget;
}

static EmbersRuleDialog *
open_dialog (GtkWindow    *window,
             EmbersSource *source)
{
  EmbersRuleDialog *dialog = embers_rule_dialog_new (source, "api", CPU_TYPE, "{service_name=\"api\"}",
                                                     "main.work");

  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (window));
  embers_test_wait_mapped (part (dialog, GTK_TYPE_ENTRY, "metric_entry"));
  return dialog;
}

static gboolean
has_focus_in (GtkWidget *focus,
              GtkWidget *widget)
{
  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Tab as GtkWindow handles it: the next focusable widget, wrapping */
static GtkWidget *
tab (GtkWindow *window)
{
  if (!gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD))
    {
      gtk_window_set_focus (window, NULL);
      gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD);
    }
  return gtk_root_get_focus (GTK_ROOT (window));
}

/* Notifications of "text" that brought a new value (GtkEntry notifies
 * twice per gtk_editable_set_text, with the same value: GTK's own) */
typedef struct
{
  guint  n;
  char  *last;
} Changes;

static void
count_changes (GObject    *object,
               GParamSpec *pspec,
               Changes    *changes)
{
  g_autofree char *text = NULL;

  g_object_get (object, "text", &text, NULL);
  if (g_strcmp0 (text, changes->last) == 0)
    return;
  g_free (changes->last);
  changes->last = g_steal_pointer (&text);
  changes->n++;
}

static void
count (GObject    *object,
       GParamSpec *pspec,
       guint      *counter)
{
  (*counter)++;
}

/* Every widget in place; Tab reaches every field and button; every
 * field's label has a mnemonic that takes the keyboard there */
static void
test_template (void)
{
  GtkWindow *window = GTK_WINDOW (adw_window_new ());
  EmbersRuleDialog *dialog;
  EmbersRuleRows *matchers, *labels;
  GtkWidget *metric, *group_by, *function, *add_matcher, *add_label, *cancel, *create;
  GtkWidget *copy_override, *copy_og, *chooser;
  struct { const char *label; GtkWidget *target; } mnemonics[6];
  GtkWidget *reachable[10];
  gboolean reached[10] = { FALSE, };
  gunichar keys[6];
  GtkWidget *focus;

  embers_test_present_window (window, 1200, 800);
  dialog = open_dialog (window, NULL);

  /* In place, as the template builds them */
  metric = part (dialog, GTK_TYPE_ENTRY, "metric_entry");
  group_by = part (dialog, GTK_TYPE_ENTRY, "group_by_entry");
  function = part (dialog, GTK_TYPE_ENTRY, "function_entry");
  add_matcher = part (dialog, GTK_TYPE_BUTTON, "add_matcher_button");
  add_label = part (dialog, GTK_TYPE_BUTTON, "add_label_button");
  cancel = part (dialog, GTK_TYPE_BUTTON, "cancel_button");
  create = part (dialog, GTK_TYPE_BUTTON, "create_button");
  copy_override = part (dialog, GTK_TYPE_BUTTON, "override_button");
  copy_og = part (dialog, GTK_TYPE_BUTTON, "og_button");
  chooser = part (dialog, EMBERS_TYPE_RULE_TYPE_CHOOSER, "type_chooser");
  matchers = EMBERS_RULE_ROWS (part (dialog, EMBERS_TYPE_RULE_ROWS, "matcher_rows"));
  labels = EMBERS_RULE_ROWS (part (dialog, EMBERS_TYPE_RULE_ROWS, "label_rows"));
  part (dialog, EMBERS_TYPE_RULE_GROUP_BY, "group_by_chips");
  part (dialog, EMBERS_TYPE_RULE_PREVIEW, "preview");
  part (dialog, EMBERS_TYPE_RULE_COPIES, "copies");
  part (dialog, GTK_TYPE_LABEL, "status");

  /* Prefilled from the context */
  g_assert_cmpuint (embers_rule_rows_get_n (matchers), ==, 2);
  g_assert_cmpstr (gtk_editable_get_text (embers_rule_rows_get_entry (matchers, 0)), ==,
                   "{__profile_type__=\"" CPU_TYPE "\"}");
  g_assert_cmpstr (gtk_editable_get_text (embers_rule_rows_get_entry (matchers, 1)), ==, "{service_name=\"api\"}");
  g_assert_cmpuint (embers_rule_rows_get_n (labels), ==, 0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (group_by)), ==, "service_name");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (function)), ==, "main.work");
  g_assert_true (embers_rule_dialog_get_valid (dialog));
  /* Not from a server: the copies are the way forward, Create is not
   * offered, the notice says why; no source, so no type list, no preview */
  g_assert_false (gtk_widget_get_visible (create));
  g_assert_nonnull (embers_rule_dialog_get_notice (dialog));
  g_assert_true (gtk_widget_has_css_class (copy_override, "suggested-action"));
  g_assert_true (gtk_widget_get_sensitive (copy_override));
  g_assert_false (gtk_widget_get_visible (chooser));
  g_assert_false (gtk_widget_get_visible (part (dialog, GTK_TYPE_LABEL, "type_label")));
  g_assert_false (gtk_widget_get_visible (part (dialog, EMBERS_TYPE_RULE_PREVIEW, "preview")));

  /* Each field's label: its mnemonic takes the keyboard to the field (the
   * first matcher; the Add button while there are no labels) */
  mnemonics[0].label = "metric_label";   mnemonics[0].target = metric;
  mnemonics[1].label = "matchers_label"; mnemonics[1].target = GTK_WIDGET (embers_rule_rows_get_entry (matchers, 0));
  mnemonics[2].label = "group_by_label"; mnemonics[2].target = group_by;
  mnemonics[3].label = "labels_label";   mnemonics[3].target = add_label;
  mnemonics[4].label = "function_label"; mnemonics[4].target = function;
  mnemonics[5].label = "type_label";     mnemonics[5].target = chooser;
  for (guint i = 0; i < G_N_ELEMENTS (mnemonics); i++)
    {
      GtkLabel *label = GTK_LABEL (part (dialog, GTK_TYPE_LABEL, mnemonics[i].label));

      g_assert_true (gtk_label_get_use_underline (label));
      keys[i] = gdk_keyval_to_unicode (gtk_label_get_mnemonic_keyval (label));
      g_assert_cmpuint (keys[i], !=, 0);
      for (guint k = 0; k < i; k++)
        g_assert_cmpuint (keys[k], !=, keys[i]);
      g_assert_true (gtk_label_get_mnemonic_widget (label) == mnemonics[i].target);
      /* (the Add button's mnemonic clicks it: below) */
      if (gtk_widget_get_visible (mnemonics[i].target) && mnemonics[i].target != add_label)
        {
          gtk_widget_mnemonic_activate (mnemonics[i].target, FALSE);
          g_assert_true (has_focus_in (gtk_root_get_focus (GTK_ROOT (window)), mnemonics[i].target));
        }
    }
  /* Alt+E without labels adds one and goes to its name, which the
   * mnemonic then goes to */
  {
    EmbersTestSignal *clicked = embers_test_expect_signal (add_label, "clicked");

    /* (a button pressed by its key shows pressed, then clicks) */
    gtk_widget_mnemonic_activate (add_label, FALSE);
    embers_test_wait_signal (clicked);
  }
  g_assert_cmpuint (embers_rule_rows_get_n (labels), ==, 1);
  g_assert_true (gtk_label_get_mnemonic_widget (GTK_LABEL (part (dialog, GTK_TYPE_LABEL, "labels_label"))) ==
                 GTK_WIDGET (embers_rule_rows_get_entry (labels, 0)));
  g_assert_true (has_focus_in (gtk_root_get_focus (GTK_ROOT (window)),
                               GTK_WIDGET (embers_rule_rows_get_entry (labels, 0))));

  /* Tab from the metric name goes round the whole form */
  reachable[0] = metric;
  reachable[1] = GTK_WIDGET (embers_rule_rows_get_entry (matchers, 0));
  reachable[2] = GTK_WIDGET (embers_rule_rows_get_entry (matchers, 1));
  reachable[3] = add_matcher;
  reachable[4] = group_by;
  reachable[5] = GTK_WIDGET (embers_rule_rows_get_value (labels, 0));
  reachable[6] = add_label;
  reachable[7] = function;
  reachable[8] = copy_override;
  reachable[9] = cancel;
  gtk_widget_grab_focus (metric);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  for (guint step = 0; step < 60; step++)
    {
      focus = tab (window);
      g_assert_nonnull (focus);
      /* The keyboard stays in the dialog */
      g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (dialog)));
      for (guint i = 0; i < G_N_ELEMENTS (reachable); i++)
        reached[i] |= has_focus_in (focus, reachable[i]);
      if (has_focus_in (focus, metric))
        break;
    }
  for (guint i = 0; i < G_N_ELEMENTS (reachable); i++)
    if (!reached[i])
      g_error ("Tab never reached %s", gtk_buildable_get_buildable_id (GTK_BUILDABLE (reachable[i])) ?: "a row");
  g_assert_true (has_focus_in (focus, metric));
  /* (and Copy for Original Pyroscope, beside it) */
  g_assert_true (gtk_widget_get_focusable (copy_og) || gtk_widget_get_focus_on_click (copy_og));

  adw_dialog_force_close (ADW_DIALOG (dialog));
  embers_test_destroy_window (window);
}

/* The Group by entry and its toggles show one value both ways: a toggle
 * changes the entry once, the entry the toggles once; setting either to
 * what it is does nothing; the toggles never reorder what was typed */
static void
test_group_by_links (void)
{
  const char *names[] = { "service_name", "region", "__name__", NULL };
  GtkWindow *window = GTK_WINDOW (adw_window_new ());
  EmbersRuleDialog *dialog;
  EmbersRuleGroupBy *chips;
  GtkWidget *entry;
  Changes entry_changes = { 0, NULL };
  guint chip_notifies = 0;
  g_autoptr(EmbersRecordingRule) rule = NULL;

  embers_test_present_window (window, 1200, 800);
  dialog = open_dialog (window, NULL);
  chips = EMBERS_RULE_GROUP_BY (part (dialog, EMBERS_TYPE_RULE_GROUP_BY, "group_by_chips"));
  entry = part (dialog, GTK_TYPE_ENTRY, "group_by_entry");
  entry_changes.last = g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry)));
  g_signal_connect (entry, "notify::text", G_CALLBACK (count_changes), &entry_changes);
  /* The toggles' own property notifies only when its value changes */
  g_signal_connect (chips, "notify::text", G_CALLBACK (count), &chip_notifies);

  /* Choices (as the source's label names give them; internals left out):
   * the toggles show the entry, which stays as it is */
  embers_rule_group_by_set_choices (chips, names);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (chips)));
  g_assert_cmpuint (embers_rule_dialog_get_n_group_by_choices (dialog), ==, 2);
  g_assert_cmpstr (embers_rule_group_by_get_text (chips), ==, "service_name");
  g_assert_cmpuint (entry_changes.n, ==, 0);
  g_assert_cmpuint (chip_notifies, ==, 0);

  /* Toggle to entry */
  g_assert_true (embers_rule_dialog_toggle_group_by (dialog, "region"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "service_name, region");
  g_assert_cmpuint (entry_changes.n, ==, 1);
  g_assert_cmpuint (chip_notifies, ==, 1);

  /* Entry to toggles, in another order: kept as typed */
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "region, service_name");
  g_assert_cmpstr (embers_rule_group_by_get_text (chips), ==, "region, service_name");
  g_assert_cmpuint (entry_changes.n, ==, 2);
  g_assert_cmpuint (chip_notifies, ==, 2);

  /* The same again, either way, and the choices again: nothing */
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "region, service_name");
  embers_rule_group_by_set_text (chips, "region, service_name");
  embers_rule_group_by_set_choices (chips, names);
  g_assert_cmpuint (entry_changes.n, ==, 2);
  g_assert_cmpuint (chip_notifies, ==, 2);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "region, service_name");

  /* A name typed that is no choice stays; toggling one off keeps it */
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "region, pod, service_name");
  g_assert_true (embers_rule_dialog_toggle_group_by (dialog, "service_name"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "region, pod");
  g_assert_false (embers_rule_dialog_toggle_group_by (dialog, "__name__"));
  g_assert_cmpuint (entry_changes.n, ==, 4);
  g_assert_cmpuint (chip_notifies, ==, 4);
  rule = embers_rule_dialog_dup_rule (dialog);
  g_assert_cmpuint (g_strv_length (rule->group_by), ==, 2);
  g_assert_cmpstr (rule->group_by[1], ==, "pod");

  g_signal_handlers_disconnect_by_data (entry, &entry_changes);
  g_free (entry_changes.last);
  adw_dialog_force_close (ADW_DIALOG (dialog));
  embers_test_destroy_window (window);
}

static gboolean
preview_done (gpointer data)
{
  return !embers_rule_preview_get_pending (data);
}

/* The preview asks again only when its query changed: edits of the
 * metric name or the external labels, the same range again, or the type
 * list choosing the rule's own type send no request */
static void
test_preview_requests (void)
{
  g_autoptr(EmbersLocalSource) local = embers_local_source_new ();
  GtkWindow *window = GTK_WINDOW (adw_window_new ());
  gint64 now_ms = g_get_real_time () / 1000;
  EmbersRuleDialog *dialog;
  EmbersRulePreview *preview;
  guint n;

  for (int k = 0; k < 3; k++)
    {
      g_autoptr(EmbersProfile) p = embers_test_cpu_profile (now_ms - (40 - k * 10) * 60000, "main.work", 100);
      const char *labels[] = { "service_name", "api", NULL };

      embers_local_source_add_profile (local, "api", p, 0, labels);
    }

  embers_test_present_window (window, 1200, 800);
  dialog = open_dialog (window, NULL);
  preview = embers_rule_dialog_get_preview (dialog);
  g_assert_false (embers_rule_preview_get_pending (preview));
  embers_rule_dialog_set_source (dialog, EMBERS_SOURCE (local));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (preview)));
  g_assert_true (embers_rule_preview_get_pending (preview));
  embers_test_wait_until (preview_done, preview, "the preview");
  g_assert_cmpuint (embers_rule_preview_get_n_requests (preview), ==, 1);
  g_assert_cmpuint (embers_rule_dialog_get_n_preview_series (dialog), ==, 1);
  g_assert_cmpfloat (embers_rule_dialog_get_preview_sum (dialog), >, 0);
  /* What a person sees: the text, and a chart drawn, not dimmed */
  g_assert_true (g_str_has_prefix (embers_rule_dialog_get_preview_text (dialog), "Over the last hour"));
  {
    GtkWidget *area = embers_test_find_widget (GTK_WIDGET (preview), GTK_TYPE_DRAWING_AREA, NULL);
    g_autoptr(EmbersTestPixels) pixels = embers_test_render_frame (GTK_WIDGET (preview));
    graphene_rect_t bounds = embers_test_bounds (area, GTK_WIDGET (preview));

    g_assert_cmpfloat (gtk_widget_get_opacity (area), ==, 1.0);
    embers_test_assert_not_blank (pixels, &bounds, 3, "rule-preview");
  }

  /* What the preview does not chart: no request */
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME, "profiles_recorded_api_work");
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_EXTERNAL_LABELS, "team=core");
  embers_rule_dialog_set_source (dialog, EMBERS_SOURCE (local));
  embers_rule_dialog_set_time_range (dialog, 0, 0);
  g_assert_true (embers_rule_dialog_get_valid (dialog));
  g_assert_false (embers_rule_preview_get_pending (preview));
  /* The type list, once loaded, chooses the rule's own type: no change */
  if (embers_rule_dialog_get_n_profile_types (dialog) > 0)
    g_assert_true (embers_rule_dialog_set_profile_type (dialog, CPU_TYPE));
  g_assert_false (embers_rule_preview_get_pending (preview));
  g_assert_cmpuint (embers_rule_preview_get_n_requests (preview), ==, 1);

  /* A new range: one request; the same range again: none. Until the
   * answer, the chart of the range before is dimmed, under Previewing… */
  n = embers_rule_preview_get_n_requests (preview);
  embers_rule_dialog_set_time_range (dialog, now_ms - 3 * 3600 * 1000, now_ms);
  g_assert_cmpstr (embers_rule_dialog_get_preview_text (dialog), ==, "Previewing…");
  g_assert_cmpfloat (gtk_widget_get_opacity (embers_test_find_widget (GTK_WIDGET (preview), GTK_TYPE_DRAWING_AREA,
                                                                      NULL)), <, 1.0);
  embers_test_wait_until (preview_done, preview, "the preview over 3 hours");
  g_assert_cmpuint (embers_rule_preview_get_n_requests (preview), ==, n + 1);
  embers_rule_dialog_set_time_range (dialog, now_ms - 3 * 3600 * 1000, now_ms);
  g_assert_false (embers_rule_preview_get_pending (preview));

  /* A group-by typed key by key: one request after the pause */
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "service_name, r");
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "service_name, re");
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_GROUP_BY, "service_name, region");
  embers_test_wait_until (preview_done, preview, "the preview by region");
  g_assert_cmpuint (embers_rule_preview_get_n_requests (preview), ==, n + 2);

  /* Invalid: cleared at once, and said; valid again: asked again */
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME, "1 bad");
  g_assert_false (embers_rule_dialog_get_valid (dialog));
  g_assert_false (embers_rule_preview_get_pending (preview));
  g_assert_cmpuint (embers_rule_dialog_get_n_preview_series (dialog), ==, 0);
  g_assert_cmpstr (embers_rule_dialog_get_preview_text (dialog), ==, "The preview follows once the rule is valid");
  embers_rule_dialog_set_field (dialog, EMBERS_RULE_FIELD_METRIC_NAME, "profiles_recorded_api_work");
  g_assert_true (embers_rule_preview_get_pending (preview));
  embers_test_wait_until (preview_done, preview, "the preview again");
  g_assert_cmpuint (embers_rule_preview_get_n_requests (preview), ==, n + 3);

  adw_dialog_force_close (ADW_DIALOG (dialog));
  embers_test_destroy_window (window);
}

int
main (int    argc,
      char **argv)
{
  embers_test_gtk_init (&argc, &argv);

  g_test_add_func ("/embers/rule-dialog/template", test_template);
  g_test_add_func ("/embers/rule-dialog/group-by-links", test_group_by_links);
  g_test_add_func ("/embers/rule-dialog/preview-requests", test_preview_requests);

  return g_test_run ();
}
