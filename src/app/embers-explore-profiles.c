/* embers-explore-profiles.c: the heaviest individual profiles of the
 * explore chart, to pick one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-accessible.h"
#include "embers-explore-profiles.h"
#include "embers-time.h"

struct _EmbersProfilesBar
{
  GtkBox          parent_instance;

  EmbersChart    *chart;
  GtkWidget      *area;            /* the chart's drawing area (weak) */
  GtkMenuButton  *menu_button;
  GtkPopover     *popover;
  GtkListBox     *list;
  GtkWidget      *chip;            /* or NULL */

  EmbersExemplar *picked;          /* or NULL */
  char           *picked_text;     /* its description */
  gboolean        available;
  /* A saved pick, kept through the change to its query (one clear) until
   * that query's chart has come; a later change drops it as any would */
  gboolean        restoring;
  gboolean        restoring_text;  /* its chip says it as saved, until the chart comes */
  char           *announcement;    /* what the keyboard's last move said */
};

G_DEFINE_FINAL_TYPE (EmbersProfilesBar, embers_profiles_bar, GTK_TYPE_BOX)

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *describe_saved (EmbersProfilesBar    *self,
                             const EmbersExemplar *exemplar);

static void
redraw (EmbersProfilesBar *self)
{
  if (self->area != NULL)
    gtk_widget_queue_draw (self->area);
}

/* The marker of the picked profile, when it is one of the heaviest */
static int
picked_marker (EmbersProfilesBar *self)
{
  for (guint i = 0; self->picked != NULL && i < embers_chart_get_n_markers (self->chart); i++)
    if (g_str_equal (embers_chart_get_marker (self->chart, i)->profile_id, self->picked->profile_id))
      return (int) i;
  return -1;
}

static void
chip_clicked (EmbersProfilesBar *self)
{
  gboolean had_focus = self->chip != NULL && gtk_widget_has_focus (self->chip);

  /* The user's own choice, even while a saved pick is restored */
  self->restoring = FALSE;
  embers_profiles_bar_clear (self);
  /* The chip is gone: the keyboard goes on from the menu */
  if (had_focus)
    gtk_widget_grab_focus (GTK_WIDGET (self->menu_button));
}

static void
update_chip (EmbersProfilesBar *self)
{
  g_autofree char *value = NULL;
  g_autofree char *when = NULL;
  g_autofree char *text = NULL;
  g_autofree char *a11y = NULL;
  g_autoptr(GDateTime) utc = NULL;
  g_autoptr(GDateTime) local = NULL;
  GtkWidget *box;
  GtkWidget *label;

  if (self->chip != NULL)
    {
      gtk_box_remove (GTK_BOX (self), self->chip);
      self->chip = NULL;
    }
  if (self->picked == NULL)
    return;

  value = embers_chart_format_value (self->chart, (double) self->picked->value);
  utc = g_date_time_new_from_unix_utc (self->picked->timestamp_ms / 1000);
  local = utc != NULL ? g_date_time_to_local (utc) : NULL;
  when = local != NULL ? embers_time_format_time (local, TRUE) : g_strdup ("?");
  /* Translators: a chip naming the one profile the flame graph shows: its
   * time and value */
  text = g_strdup_printf (_("Profile at %s · %s"), when, value);
  /* Translators: the chip's tooltip and accessible name: what removing it
   * does, then the profile's time, value and labels */
  a11y = g_strdup_printf (_("Show all profiles again (remove %s)"), self->picked_text);

  self->chip = gtk_button_new ();
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  label = gtk_label_new (text);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("window-close-symbolic"));
  gtk_button_set_child (GTK_BUTTON (self->chip), box);
  gtk_widget_add_css_class (self->chip, "chip");
  gtk_widget_set_tooltip_text (self->chip, a11y);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->chip), GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
  g_signal_connect_swapped (self->chip, "clicked", G_CALLBACK (chip_clicked), self);
  gtk_box_append (GTK_BOX (self), self->chip);
}

/* The check on the picked one's entry in the menu */
static void
update_checks (EmbersProfilesBar *self)
{
  for (guint i = 0; i < embers_chart_get_n_markers (self->chart); i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list, (int) i);
      GtkWidget *box = row != NULL ? gtk_list_box_row_get_child (row) : NULL;
      GtkWidget *check = box != NULL ? gtk_widget_get_last_child (box) : NULL;
      gboolean picked = self->picked != NULL &&
                        g_str_equal (self->picked->profile_id, embers_chart_get_marker (self->chart, i)->profile_id);

      if (check == NULL)
        continue;
      gtk_widget_set_opacity (check, picked ? 1.0 : 0.0);
      gtk_accessible_update_state (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_STATE_SELECTED, picked, -1);
    }
}

static void
set_picked (EmbersProfilesBar    *self,
            const EmbersExemplar *exemplar,
            const char           *text)
{
  if (exemplar == NULL && self->picked == NULL)
    return;
  if (exemplar != NULL && self->picked != NULL && g_str_equal (exemplar->profile_id, self->picked->profile_id))
    return;

  g_clear_pointer (&self->picked, embers_exemplar_free);
  g_clear_pointer (&self->picked_text, g_free);
  if (exemplar != NULL)
    {
      self->picked = embers_exemplar_copy (exemplar);
      self->picked_text = g_strdup (text);
    }
  embers_chart_set_marker_selected (self->chart, picked_marker (self));
  update_chip (self);
  update_checks (self);
  redraw (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
row_activated (EmbersProfilesBar *self,
               GtkListBoxRow     *row)
{
  gtk_popover_popdown (self->popover);
  embers_profiles_bar_pick (self, (guint) gtk_list_box_row_get_index (row));
}

static void
rebuild_list (EmbersProfilesBar *self)
{
  GtkWidget *child;
  guint n = embers_chart_get_n_markers (self->chart);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  for (guint i = 0; i < n; i++)
    {
      const EmbersExemplar *e = embers_chart_get_marker (self->chart, i);
      g_autofree char *text = embers_chart_describe_marker (self->chart, i);
      g_autofree char *value = embers_chart_format_value (self->chart, (double) e->value);
      g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (e->timestamp_ms / 1000);
      g_autoptr(GDateTime) local = utc != NULL ? g_date_time_to_local (utc) : NULL;
      g_autofree char *when = local != NULL ? embers_time_format_date_time (local, TRUE) : g_strdup ("?");
      /* Translators: a profile in the Profiles menu: its value and time */
      g_autofree char *title = g_strdup_printf (C_("individual profile", "%s at %s"), value, when);
      g_autoptr(GString) labels = g_string_new (NULL);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *label = gtk_label_new (title);

      for (guint l = 0; e->label_names != NULL && e->label_names[l] != NULL; l++)
        if (!g_str_has_prefix (e->label_names[l], "__"))
          g_string_append_printf (labels, "%s%s=%s", labels->len > 0 ? ", " : "",
                                  e->label_names[l], e->label_values[l]);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_box_append (GTK_BOX (box), label);
      if (labels->len > 0)
        {
          GtkWidget *sub = gtk_label_new (labels->str);

          gtk_label_set_xalign (GTK_LABEL (sub), 0);
          gtk_label_set_ellipsize (GTK_LABEL (sub), PANGO_ELLIPSIZE_END);
          gtk_label_set_width_chars (GTK_LABEL (sub), 24);
          gtk_label_set_max_width_chars (GTK_LABEL (sub), 48);
          gtk_widget_add_css_class (sub, "caption");
          gtk_widget_add_css_class (sub, "dim-label");
          gtk_box_append (GTK_BOX (box), sub);
        }
      {
        /* The one picked has a check */
        GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
        GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
        gboolean picked = self->picked != NULL && g_str_equal (self->picked->profile_id, e->profile_id);

        gtk_widget_set_hexpand (box, TRUE);
        gtk_box_append (GTK_BOX (row), box);
        gtk_widget_set_opacity (check, picked ? 1.0 : 0.0);
        gtk_box_append (GTK_BOX (row), check);
        gtk_widget_set_margin_start (row, 6);
        gtk_widget_set_margin_end (row, 6);
        gtk_widget_set_margin_top (row, 4);
        gtk_widget_set_margin_bottom (row, 4);
        gtk_widget_set_tooltip_text (row, text);
        gtk_list_box_append (self->list, row);
        gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (row)),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
      }
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->menu_button), n > 0);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->menu_button),
                               n > 0 ? _("The heaviest individual profiles: pick one to see it alone")
                                     : _("No individual profiles in this range"));
}

/* Hovering a marker: its time, value and labels */
static gboolean
query_tooltip (GtkWidget         *widget,
               int                x,
               int                y,
               gboolean           keyboard,
               GtkTooltip        *tooltip,
               EmbersProfilesBar *self)
{
  g_autofree char *text = keyboard ? NULL : embers_profiles_bar_describe_at (self, x, y);
  g_autofree char *full = NULL;

  if (text == NULL)
    return FALSE;
  /* Translators: a marker's tooltip: the profile, then what a click does */
  full = g_strdup_printf (_("%s\nClick to see this profile alone"), text);
  gtk_tooltip_set_text (tooltip, full);
  return TRUE;
}

static void
motion (GtkEventControllerMotion *controller,
        double                    x,
        double                    y,
        EmbersProfilesBar        *self)
{
  guint index;
  int hover = embers_chart_marker_hit (self->chart, x, y, &index) ? (int) index : -1;

  embers_chart_set_marker_hover (self->chart, hover);
  gtk_widget_set_cursor_from_name (self->area, hover >= 0 ? "pointer" : NULL);
  redraw (self);
}

static void
leave (GtkEventControllerMotion *controller,
       EmbersProfilesBar        *self)
{
  embers_chart_set_marker_hover (self->chart, -1);
  redraw (self);
}

/* The keyboard on the chart: [ and ] move between the markers in time
 * order, the marker drawn with a focus ring and said to screen readers;
 * Enter (or Space) picks it */

/* The markers' indices (heaviest first) by time, earliest first */
static GArray *
markers_by_time (EmbersProfilesBar *self)
{
  guint n = embers_chart_get_n_markers (self->chart);
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);

  for (guint i = 0; i < n; i++)
    {
      gint64 t = embers_chart_get_marker (self->chart, i)->timestamp_ms;
      guint at = order->len;

      while (at > 0 && embers_chart_get_marker (self->chart, g_array_index (order, guint, at - 1))->timestamp_ms > t)
        at--;
      g_array_insert_val (order, at, i);
    }
  return order;
}

static void
announce (EmbersProfilesBar *self,
          const char        *text)
{
  g_free (self->announcement);
  self->announcement = g_strdup (text);
  if (self->area != NULL)
    embers_accessible_announce (self->area, text);
}

gboolean
embers_profiles_bar_move_focus (EmbersProfilesBar *self,
                                int                direction)
{
  g_autoptr(GArray) order = NULL;
  g_autofree char *text = NULL;
  g_autofree char *said = NULL;
  int current, pos = -1;
  guint n;

  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), FALSE);

  n = embers_chart_get_n_markers (self->chart);
  if (n == 0)
    {
      announce (self, _("No individual profiles in this range"));
      return FALSE;
    }
  order = markers_by_time (self);
  current = embers_chart_get_marker_focus (self->chart);
  for (guint i = 0; current >= 0 && i < n; i++)
    if (g_array_index (order, guint, i) == (guint) current)
      pos = (int) i;
  if (pos < 0)
    pos = direction >= 0 ? 0 : (int) n - 1;
  else
    pos = CLAMP (pos + direction, 0, (int) n - 1);

  current = (int) g_array_index (order, guint, pos);
  embers_chart_set_marker_focus (self->chart, current);
  redraw (self);
  text = embers_chart_describe_marker (self->chart, (guint) current);
  /* Translators: said to a screen reader as the keyboard moves between
   * the individual profiles on the chart: which one of how many (in time
   * order), the profile (its value, time and labels), what Enter does */
  said = g_strdup_printf (_("Profile %d of %u: %s. Enter shows it alone."), pos + 1, n, text);
  announce (self, said);
  return TRUE;
}

int
embers_profiles_bar_get_focused_marker (EmbersProfilesBar *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), -1);

  return embers_chart_get_marker_focus (self->chart);
}

const char *
embers_profiles_bar_get_announcement (EmbersProfilesBar *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), NULL);

  return self->announcement;
}

static gboolean
next_marker (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  return embers_profiles_bar_move_focus (user_data, +1);
}

static gboolean
previous_marker (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   user_data)
{
  return embers_profiles_bar_move_focus (user_data, -1);
}

static gboolean
pick_focused (GtkWidget *widget,
              GVariant  *args,
              gpointer   user_data)
{
  EmbersProfilesBar *self = user_data;
  int focus = embers_chart_get_marker_focus (self->chart);

  if (focus < 0)
    return FALSE;
  self->restoring = FALSE;
  return embers_profiles_bar_pick (self, (guint) focus);
}

/* The ring goes with the keyboard focus */
static void
focus_left (GtkEventControllerFocus *controller,
            EmbersProfilesBar       *self)
{
  embers_chart_set_marker_focus (self->chart, -1);
  redraw (self);
}

/* Coming to the chart: how many profiles, and the keys */
static void
focus_entered (GtkEventControllerFocus *controller,
               EmbersProfilesBar       *self)
{
  guint n = embers_chart_get_n_markers (self->chart);
  g_autofree char *text = NULL;

  if (n == 0)
    return;
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       /* Translators: said to a screen reader when the chart gets the
                                        * keyboard focus; [ and ] are the keys */
                                       "%u individual profile on the chart: [ and ] move to it",
                                       "%u individual profiles on the chart: [ and ] move between them", n),
                          n);
  announce (self, text);
}

static void
add_keys (EmbersProfilesBar *self,
          GtkWidget         *area)
{
  GtkEventController *keys = gtk_shortcut_controller_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();
  static const struct {
    const char       *trigger;
    GtkShortcutFunc   func;
  } bindings[] = {
    { "bracketright", next_marker },
    { "bracketleft", previous_marker },
    { "Return", pick_focused },
    { "KP_Enter", pick_focused },
    { "space", pick_focused },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (bindings[i].trigger),
                                                            gtk_callback_action_new (bindings[i].func, self, NULL)));
  gtk_widget_add_controller (area, keys);
  g_signal_connect_object (focus, "leave", G_CALLBACK (focus_left), self, 0);
  g_signal_connect_object (focus, "enter", G_CALLBACK (focus_entered), self, 0);
  gtk_widget_add_css_class (area, "profiles-chart");
  gtk_widget_add_controller (area, focus);
  /* The chart takes the keyboard focus, for its markers */
  gtk_widget_set_focusable (area, TRUE);
}

static void
embers_profiles_bar_dispose (GObject *object)
{
  EmbersProfilesBar *self = EMBERS_PROFILES_BAR (object);

  g_clear_weak_pointer (&self->area);
  G_OBJECT_CLASS (embers_profiles_bar_parent_class)->dispose (object);
}

static void
embers_profiles_bar_finalize (GObject *object)
{
  EmbersProfilesBar *self = EMBERS_PROFILES_BAR (object);

  g_clear_pointer (&self->chart, embers_chart_unref);
  g_clear_pointer (&self->picked, embers_exemplar_free);
  g_free (self->picked_text);
  g_free (self->announcement);
  G_OBJECT_CLASS (embers_profiles_bar_parent_class)->finalize (object);
}

static void
embers_profiles_bar_class_init (EmbersProfilesBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = embers_profiles_bar_dispose;
  object_class->finalize = embers_profiles_bar_finalize;

  /**
   * EmbersProfilesBar::changed:
   *
   * A profile was picked, or the pick removed.
   */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
embers_profiles_bar_init (EmbersProfilesBar *self)
{
  GtkWidget *scrolled;
  GtkWidget *box;
  GtkWidget *heading;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  gtk_widget_add_css_class (GTK_WIDGET (self), "profiles-bar");

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (self->list, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "navigation-sidebar");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("The heaviest individual profiles"), -1);
  g_signal_connect_swapped (self->list, "row-activated", G_CALLBACK (row_activated), self);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 360);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  heading = gtk_label_new (_("Heaviest Profiles"));
  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_set_margin_start (heading, 6);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), scrolled);

  self->popover = GTK_POPOVER (gtk_popover_new ());
  gtk_popover_set_child (self->popover, box);

  self->menu_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
  gtk_menu_button_set_label (self->menu_button, _("_Profiles"));
  gtk_menu_button_set_use_underline (self->menu_button, TRUE);
  gtk_menu_button_set_popover (self->menu_button, GTK_WIDGET (self->popover));
  gtk_widget_add_css_class (GTK_WIDGET (self->menu_button), "flat");
  /* Its inner button takes the focus: named by the menu button's label */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->menu_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Profiles"), -1);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->menu_button));
}

EmbersProfilesBar *
embers_profiles_bar_new (EmbersChart *chart,
                         GtkWidget   *area)
{
  EmbersProfilesBar *self;
  GtkEventController *motion_controller;

  g_return_val_if_fail (chart != NULL, NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (area), NULL);

  self = g_object_new (EMBERS_TYPE_PROFILES_BAR, NULL);
  self->chart = embers_chart_ref (chart);
  g_set_weak_pointer (&self->area, area);

  g_signal_connect_object (area, "query-tooltip", G_CALLBACK (query_tooltip), self, 0);
  motion_controller = gtk_event_controller_motion_new ();
  g_signal_connect_object (motion_controller, "motion", G_CALLBACK (motion), self, 0);
  g_signal_connect_object (motion_controller, "leave", G_CALLBACK (leave), self, 0);
  gtk_widget_add_controller (area, motion_controller);
  add_keys (self, area);

  rebuild_list (self);
  embers_profiles_bar_set_available (self, FALSE);
  return self;
}

void
embers_profiles_bar_set_series (EmbersProfilesBar *self,
                                GPtrArray         *series)
{
  g_autoptr(GPtrArray) top = NULL;

  g_return_if_fail (EMBERS_IS_PROFILES_BAR (self));

  top = embers_source_top_exemplars (series, EMBERS_PROFILES_BAR_MAX);
  embers_chart_set_markers (self->chart, top);
  embers_chart_set_marker_selected (self->chart, picked_marker (self));
  if (series != NULL && self->picked != NULL && self->picked_text != NULL && self->restoring_text)
    {
      int marker = picked_marker (self);

      /* The restored query's chart: from now on the pick is the user's;
       * its marker, when it is one, names it with its labels */
      self->restoring = FALSE;
      self->restoring_text = FALSE;
      g_free (self->picked_text);
      self->picked_text = marker >= 0 ? embers_chart_describe_marker (self->chart, (guint) marker)
                                      : describe_saved (self, self->picked);
      /* Its value in the chart's unit, now that the chart has one */
      update_chip (self);
    }
  rebuild_list (self);
  redraw (self);
}

void
embers_profiles_bar_set_available (EmbersProfilesBar *self,
                                   gboolean           available)
{
  g_return_if_fail (EMBERS_IS_PROFILES_BAR (self));

  self->available = available;
  gtk_widget_set_visible (GTK_WIDGET (self), available || self->picked != NULL);
}

guint
embers_profiles_bar_get_n_profiles (EmbersProfilesBar *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), 0);

  return embers_chart_get_n_markers (self->chart);
}

gboolean
embers_profiles_bar_pick (EmbersProfilesBar *self,
                          guint              index)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), FALSE);

  if (index >= embers_chart_get_n_markers (self->chart))
    return FALSE;
  text = embers_chart_describe_marker (self->chart, index);
  set_picked (self, embers_chart_get_marker (self->chart, index), text);
  return TRUE;
}

gboolean
embers_profiles_bar_click (EmbersProfilesBar *self,
                           double             x,
                           double             y)
{
  guint index;

  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), FALSE);

  if (!embers_chart_marker_hit (self->chart, x, y, &index))
    return FALSE;
  return embers_profiles_bar_pick (self, index);
}

gboolean
embers_profiles_bar_clear (EmbersProfilesBar *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), FALSE);

  if (self->picked == NULL)
    return FALSE;
  /* A saved pick belongs to the query being restored: the change to that
   * query does not take it away (once; a later one does) */
  if (self->restoring)
    {
      self->restoring = FALSE;
      return FALSE;
    }
  set_picked (self, NULL, NULL);
  embers_profiles_bar_set_available (self, self->available);
  return TRUE;
}

/* "A profile: 250 ms at 14:05:00" for a pick that is no marker */
static char *
describe_saved (EmbersProfilesBar    *self,
                const EmbersExemplar *exemplar)
{
  g_autofree char *value = embers_chart_format_value (self->chart, (double) exemplar->value);
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (exemplar->timestamp_ms / 1000);
  g_autoptr(GDateTime) local = utc != NULL ? g_date_time_to_local (utc) : NULL;
  g_autofree char *when = local != NULL ? embers_time_format_date_time (local, TRUE) : g_strdup ("?");

  /* Translators: an individual profile: its value and time */
  return g_strdup_printf (C_("individual profile", "%s at %s"), value, when);
}

void
embers_profiles_bar_restore_pick (EmbersProfilesBar    *self,
                                  const EmbersExemplar *exemplar)
{
  g_autofree char *text = NULL;

  g_return_if_fail (EMBERS_IS_PROFILES_BAR (self));
  g_return_if_fail (exemplar != NULL && exemplar->profile_id != NULL);

  g_clear_pointer (&self->picked, embers_exemplar_free);
  g_clear_pointer (&self->picked_text, g_free);
  self->picked = embers_exemplar_copy (exemplar);
  self->picked_text = describe_saved (self, exemplar);
  self->restoring = TRUE;
  self->restoring_text = TRUE;
  embers_chart_set_marker_selected (self->chart, picked_marker (self));
  update_chip (self);
  update_checks (self);
  embers_profiles_bar_set_available (self, self->available);
  redraw (self);
}

const EmbersExemplar *
embers_profiles_bar_get_picked (EmbersProfilesBar *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), NULL);

  return self->picked;
}

const char *
embers_profiles_bar_get_picked_id (EmbersProfilesBar *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), NULL);

  return self->picked != NULL ? self->picked->profile_id : NULL;
}

GtkWidget *
embers_profiles_bar_get_chip (EmbersProfilesBar *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), NULL);

  return self->chip;
}

GtkWidget *
embers_profiles_bar_get_menu_button (EmbersProfilesBar *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), NULL);

  return GTK_WIDGET (self->menu_button);
}

gboolean
embers_profiles_bar_get_marker_position (EmbersProfilesBar *self,
                                         guint              index,
                                         double            *x,
                                         double            *y)
{
  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), FALSE);

  return embers_chart_get_marker_position (self->chart, index, x, y);
}

char *
embers_profiles_bar_describe_at (EmbersProfilesBar *self,
                                 double             x,
                                 double             y)
{
  guint index;

  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), NULL);

  if (!embers_chart_marker_hit (self->chart, x, y, &index))
    return NULL;
  return embers_chart_describe_marker (self->chart, index);
}

const EmbersExemplar *
embers_profiles_bar_get_profile (EmbersProfilesBar *self,
                                 guint              index)
{
  g_return_val_if_fail (EMBERS_IS_PROFILES_BAR (self), NULL);

  return embers_chart_get_marker (self->chart, index);
}
