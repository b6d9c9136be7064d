/* embers-shortcuts.c: every keyboard shortcut of the app, in one table, and
 * the dialog that lists them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-shortcuts.h"

/* Titles in header capitalization. tests/app/test-a11y.c checks that every
 * action's accelerator is listed here, or is exempt. */

static const EmbersShortcut general[] = {
  { "<ctrl>o", NC_("shortcut window", "Open a Profile") },
  { "<ctrl><shift>o", NC_("shortcut window", "Open a Folder of Profiles") },
  { "<ctrl>l", NC_("shortcut window", "Open a Location or Query URL") },
  { "<ctrl><shift>l", NC_("shortcut window", "Connect to a Server") },
  { "<ctrl><shift>n", NC_("shortcut window", "Compare Two Profiles") },
  { "<ctrl>e", NC_("shortcut window", "Export the View") },
  { "<ctrl>s", NC_("shortcut window", "Save the View to Open Again") },
  { "<ctrl>n", NC_("shortcut window", "New Window") },
  { "<ctrl>w", NC_("shortcut window", "Close the Tab") },
  { "<ctrl>question", NC_("shortcut window", "Keyboard Shortcuts") },
  { "<ctrl>q", NC_("shortcut window", "Quit") },
};

static const EmbersShortcut views[] = {
  { "<ctrl>1", NC_("shortcut window", "Icicle") },
  { "<ctrl>2", NC_("shortcut window", "Flame Graph") },
  { "<ctrl>3", NC_("shortcut window", "Bottom-Up") },
  { "<ctrl>4", NC_("shortcut window", "Sandwich") },
  { "<ctrl>5", NC_("shortcut window", "Call Tree") },
  { "<ctrl>i", NC_("shortcut window", "Function Details") },
  { "<ctrl>r F5", NC_("shortcut window", "Reload the File") },
  { "Escape", NC_("shortcut window", "Cancel Loading") },
};

static const EmbersShortcut search[] = {
  { "<ctrl>f slash", NC_("shortcut window", "Search Frames") },
  { "Return <ctrl>g", NC_("shortcut window", "Next Match") },
  { "<ctrl><shift>g", NC_("shortcut window", "Previous Match") },
  { "Escape", NC_("shortcut window", "Close the Search") },
};

static const EmbersShortcut moving[] = {
  { "Up Down", NC_("shortcut window", "Parent or Widest Child Frame") },
  { "Left Right", NC_("shortcut window", "Previous or Next Frame in the Row") },
  { "Return space", NC_("shortcut window", "Focus on the Frame") },
  { "BackSpace <alt>Left", NC_("shortcut window", "Back") },
  { "<alt>Right", NC_("shortcut window", "Forward") },
  { "Escape", NC_("shortcut window", "Reset Focus and Zoom") },
  { "<ctrl>plus <ctrl>equal <ctrl>minus", NC_("shortcut window", "Zoom In or Out") },
  { "<ctrl>0", NC_("shortcut window", "Show the Whole Width") },
  /* Translators: the touchpad gesture (two fingers apart or together) and
   * the mouse's, listed without keys */
  { NULL, NC_("shortcut window", "Zoom: Pinch, or Ctrl and Scroll") },
};

static const EmbersShortcut selected[] = {
  { "s", NC_("shortcut window", "Sandwich View of the Function") },
  { "i", NC_("shortcut window", "Invert (Bottom-Up View)") },
  { "r", NC_("shortcut window", "Collapse Recursion") },
  { "f", NC_("shortcut window", "Focus on the Function Everywhere") },
  { "<shift>f", NC_("shortcut window", "Focus on the Subtree Only") },
  { "m", NC_("shortcut window", "Merge the Function Into Its Callers") },
  { "d", NC_("shortcut window", "Drop the Samples With the Function") },
  { "p", NC_("shortcut window", "Collapse the Function’s Package") },
  { "<shift>r", NC_("shortcut window", "Collapse the Function’s Recursion") },
  { "Delete", NC_("shortcut window", "Hide the Frame") },
  { "t", NC_("shortcut window", "Show the Frame Over Time (Servers and Folders)") },
  { "<ctrl>c", NC_("shortcut window", "Copy the Function Name") },
  { "<ctrl><shift>c", NC_("shortcut window", "Copy the Stack") },
  { "Menu <shift>F10", NC_("shortcut window", "Frame Menu") },
};

static const EmbersShortcut call_tree[] = {
  { "Up Down", NC_("shortcut window", "Previous or Next Row") },
  { "Right plus", NC_("shortcut window", "Open the Row Along Its Heaviest Path") },
  { "Left minus", NC_("shortcut window", "Close the Row, or Go to Its Parent") },
  { "asterisk", NC_("shortcut window", "Open Everything Below the Row") },
  { "Return", NC_("shortcut window", "Open or Close the Row") },
  { "i", NC_("shortcut window", "Invert the Call Tree") },
};

static const EmbersShortcut servers[] = {
  { "<ctrl>r F5", NC_("shortcut window", "Refresh Services, Chart and Flame Graph") },
  { "F9", NC_("shortcut window", "Show or Hide the Services") },
  { "<ctrl>d", NC_("shortcut window", "Compare With the Previous Period") },
  { "<ctrl><shift>r", NC_("shortcut window", "Create a Recording Rule") },
  { "l", NC_("shortcut window", "Load More of What “other” Holds") },
  { "<ctrl>b", NC_("shortcut window", "Label Explorer") },
};

static const EmbersShortcut range[] = {
  { "Left Right", NC_("shortcut window", "Move the Selected Range") },
  { "<shift>Left <shift>Right", NC_("shortcut window", "Move the End of the Range") },
  { "Return space", NC_("shortcut window", "Apply the Range") },
  { "Escape", NC_("shortcut window", "Back to the Applied Range") },
};

static const EmbersShortcut profiles[] = {
  { "bracketleft bracketright", NC_("shortcut window", "Previous or Next Individual Profile") },
  { "Return space", NC_("shortcut window", "See That Profile Alone") },
};

static const EmbersShortcut tables[] = {
  { "<ctrl><alt>1 <ctrl><alt>9", NC_("shortcut window", "Sort by Column 1 to 9 (Again: the Other Way)") },
};

static const EmbersShortcut labels[] = {
  { "<ctrl>Return", NC_("shortcut window", "Compare the Baseline and Comparison Values") },
};

#define GROUP(title, array) { title, array, G_N_ELEMENTS (array) }

static const EmbersShortcutGroup groups[] = {
  GROUP (NC_("shortcut window", "General"), general),
  GROUP (NC_("shortcut window", "Views"), views),
  GROUP (NC_("shortcut window", "Search"), search),
  GROUP (NC_("shortcut window", "Moving Around"), moving),
  GROUP (NC_("shortcut window", "The Selected Frame"), selected),
  GROUP (NC_("shortcut window", "Call Tree"), call_tree),
  GROUP (NC_("shortcut window", "Tables"), tables),
  GROUP (NC_("shortcut window", "Servers and Folders"), servers),
  GROUP (NC_("shortcut window", "Time Range Chart"), range),
  GROUP (NC_("shortcut window", "Individual Profiles on the Chart"), profiles),
  GROUP (NC_("shortcut window", "Label Explorer"), labels),
};

const EmbersShortcutGroup *
embers_shortcuts_get_groups (guint *n_groups)
{
  if (n_groups != NULL)
    *n_groups = G_N_ELEMENTS (groups);
  return groups;
}

static const char *
translated (const char *text)
{
  return g_dpgettext2 (GETTEXT_PACKAGE, "shortcut window", text);
}

#if ADW_CHECK_VERSION (1, 8, 0)

AdwDialog *
embers_shortcuts_dialog_new (void)
{
  AdwDialog *dialog = adw_shortcuts_dialog_new ();

  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      AdwShortcutsSection *section = adw_shortcuts_section_new (translated (groups[g].title));

      for (guint i = 0; i < groups[g].n_shortcuts; i++)
        {
          const EmbersShortcut *s = &groups[g].shortcuts[i];

          adw_shortcuts_section_add (section, adw_shortcuts_item_new (translated (s->title),
                                                                      s->accelerators != NULL ? s->accelerators : ""));
        }
      adw_shortcuts_dialog_add (ADW_SHORTCUTS_DIALOG (dialog), section);
    }
  return dialog;
}

char *
embers_shortcuts_dialog_dup_accelerators (GtkWidget *widget)
{
  g_autofree char *accelerator = NULL;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  if (!ADW_IS_SHORTCUT_LABEL (widget))
    return NULL;
  g_object_get (widget, "accelerator", &accelerator, NULL);
  return accelerator != NULL && accelerator[0] != '\0' ? g_steal_pointer (&accelerator) : NULL;
}

#else

/* libadwaita 1.7: a dialog of our own, a titled list per group */

#define ACCELERATORS_KEY "embers-accelerators"

/* One accelerator as keys: each modifier, then the key */
static void
append_keys (GtkWidget       *box,
             guint            keyval,
             GdkModifierType  mods,
             GString         *spoken)
{
  static const GdkModifierType order[] = { GDK_SUPER_MASK, GDK_CONTROL_MASK, GDK_ALT_MASK, GDK_SHIFT_MASK };
  g_autofree char *key = gtk_accelerator_get_label (keyval, 0);

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_autofree char *name = NULL;
      GtkWidget *cap;

      if (!(mods & order[i]))
        continue;
      name = gtk_accelerator_get_label (0, order[i]);
      /* ("Ctrl+" and the like: the name alone) */
      if (g_str_has_suffix (name, "+"))
        name[strlen (name) - 1] = '\0';
      cap = gtk_label_new (name);
      gtk_widget_add_css_class (cap, "keycap");
      gtk_box_append (GTK_BOX (box), cap);
    }
  {
    GtkWidget *cap = gtk_label_new (key);

    gtk_widget_add_css_class (cap, "keycap");
    gtk_box_append (GTK_BOX (box), cap);
  }
  {
    g_autofree char *label = gtk_accelerator_get_label (keyval, mods);

    if (spoken->len > 0)
      /* Translators: between two keys that do the same (read out) */
      g_string_append (spoken, C_("shortcut window", " or "));
    g_string_append (spoken, label);
  }
}

static GtkWidget *
keys_new (const char *accelerators,
          GString    *spoken)
{
  g_auto(GStrv) alternatives = g_strsplit (accelerators, " ", -1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gboolean first = TRUE;

  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (box, "shortcut-keys");
  for (guint i = 0; alternatives[i] != NULL; i++)
    {
      guint keyval = 0;
      GdkModifierType mods = 0;

      if (alternatives[i][0] == '\0' || !gtk_accelerator_parse (alternatives[i], &keyval, &mods))
        continue;
      if (!first)
        {
          GtkWidget *slash = gtk_label_new ("/");

          gtk_widget_add_css_class (slash, "dim-label");
          gtk_box_append (GTK_BOX (box), slash);
        }
      append_keys (box, keyval, mods, spoken);
      first = FALSE;
    }
  g_object_set_data_full (G_OBJECT (box), ACCELERATORS_KEY, g_strdup (accelerators), g_free);
  return box;
}

AdwDialog *
embers_shortcuts_dialog_new (void)
{
  AdwDialog *dialog = adw_dialog_new ();
  GtkWidget *view = adw_toolbar_view_new ();
  GtkWidget *page = adw_preferences_page_new ();

  adw_dialog_set_title (dialog, C_("shortcut window", "Keyboard Shortcuts"));
  adw_dialog_set_content_width (dialog, 560);
  adw_dialog_set_content_height (dialog, 680);
  adw_toolbar_view_add_top_bar (ADW_TOOLBAR_VIEW (view), adw_header_bar_new ());
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      GtkWidget *group = adw_preferences_group_new ();

      adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), translated (groups[g].title));
      for (guint i = 0; i < groups[g].n_shortcuts; i++)
        {
          const EmbersShortcut *s = &groups[g].shortcuts[i];
          GtkWidget *row = adw_action_row_new ();

          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), translated (s->title));
          if (s->accelerators != NULL)
            {
              g_autoptr(GString) spoken = g_string_new (NULL);

              adw_action_row_add_suffix (ADW_ACTION_ROW (row), keys_new (s->accelerators, spoken));
              /* What a screen reader says after the title */
              gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                              spoken->str, -1);
            }
          adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
        }
      adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (group));
    }
  adw_toolbar_view_set_content (ADW_TOOLBAR_VIEW (view), page);
  adw_dialog_set_child (dialog, view);
  gtk_widget_add_css_class (GTK_WIDGET (dialog), "shortcuts-list");
  return dialog;
}

char *
embers_shortcuts_dialog_dup_accelerators (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  return g_strdup (g_object_get_data (G_OBJECT (widget), ACCELERATORS_KEY));
}

#endif
