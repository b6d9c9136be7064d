/* embers-window-private.h: shared by embers-window.c and embers-window-actions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-window.h"

G_BEGIN_DECLS

struct _EmbersWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template */
  AdwToastOverlay      *toast_overlay;
  AdwHeaderBar         *header_bar;
  AdwWindowTitle       *window_title;
  GtkStack             *title_stack;
  AdwInlineViewSwitcher *header_switcher;
  GtkWidget            *view_back_button;
  GtkWidget            *view_forward_button;
  GtkMenuButton        *menu_button;
  AdwTabBar            *tab_bar;
  AdwTabView           *tab_view;
  GtkStack             *stack;
  AdwStatusPage        *empty_page;
  GtkButton            *open_button;
  AdwPreferencesGroup  *recent_group;
  GtkListBox           *recent_list;

  GSettings            *settings;
  AdwTabPage           *titled_tab;  /* weak: the tab whose title the header shows */
  GCancellable         *file_cancellable;  /* the file dialogs', until the window closes */
  GBindingGroup        *workspace_bindings; /* the selected workspace's back and forward */
  gboolean              renderer_warm;      /* embers-window-warm.c is done */
  EmbersProfilePage    *spare_page;         /* made ahead, unused (owned) */
  guint                 spare_id;           /* the spare page's making, due */
};

/* At most this many recent files are remembered */
#define EMBERS_MAX_RECENT_FILES 8

void embers_window_class_actions_init (GtkWidgetClass *widget_class);
/* embers-window-regressions.c: win.compare-across* */
void embers_window_regressions_class_init (GtkWidgetClass *widget_class);
void embers_window_update_actions     (EmbersWindow   *self);
/* embers-window-session.c: Save View… (win.save-view), and a view file
 * opened into @page (off the main thread; errors shown on @page) */
void embers_window_save_view          (EmbersWindow      *self);
void embers_window_load_session       (EmbersWindow      *self,
                                       EmbersProfilePage *page,
                                       GFile             *file);
/* embers-window-warm.c: the GPU renderer's shader programs compiled, one
 * per idle, after the window's first frame; then a profile page made
 * ahead (the spare), and again after each is taken once nothing loads */
void embers_window_warm_renderer      (EmbersWindow   *self);
/* The spare page (transfer full), or NULL when there is none yet */
EmbersProfilePage *embers_window_take_spare_page (EmbersWindow *self);
void embers_window_clear_spare_page   (EmbersWindow   *self);
void embers_window_add_recent         (EmbersWindow   *self,
                                       const char     *uri);

G_END_DECLS
