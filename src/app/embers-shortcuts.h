/* embers-shortcuts.h: every keyboard shortcut of the app, in one table, and
 * the dialog that lists them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

typedef struct
{
  const char *accelerators;  /* GTK accelerators, alternatives separated by spaces; NULL: a gesture */
  const char *title;         /* in the "shortcut window" context, untranslated */
} EmbersShortcut;

typedef struct
{
  const char           *title;  /* in the "shortcut window" context, untranslated */
  const EmbersShortcut *shortcuts;
  guint                 n_shortcuts;
} EmbersShortcutGroup;

/* The groups, General first */
const EmbersShortcutGroup *embers_shortcuts_get_groups (guint *n_groups);

/*
 * The dialog of the groups above: AdwShortcutsDialog where libadwaita has
 * it (1.8), else one of our own (a titled list per group, each shortcut's
 * keys beside its title). Present it with adw_dialog_present().
 */
AdwDialog *embers_shortcuts_dialog_new (void);

/* The accelerators a widget of the dialog shows (its keys), or NULL: what
 * tests read to check that every shortcut is listed */
char      *embers_shortcuts_dialog_dup_accelerators (GtkWidget *widget);

G_END_DECLS
