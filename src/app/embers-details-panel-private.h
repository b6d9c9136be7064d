/* embers-details-panel-private.h: what the details panel's files share
 *
 * The panel is split by part: embers-details-panel.c (the function, its
 * lines and calls, the class), embers-details-panel-source.c (the source
 * file under the roots, its view, the git check, the editor).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-details-panel.h"
#include "embers-transform-stack.h"

G_BEGIN_DECLS

struct _EmbersDetailsPanel
{
  GtkWidget              parent_instance;

  GtkLabel              *name_label;
  GtkLabel              *file_label;
  GtkLabel              *summary_label;
  GtkLabel              *scope_label;
  GtkLabel              *ref_label;
  GtkLabel              *ref_warning;
  GtkLabel              *view_note;
  GtkStack              *stack;
  GtkStack              *source_stack;
  AdwStatusPage         *source_status;
  GtkDropDown           *candidates_dropdown;
  GtkStringList         *candidates;
  GtkScrolledWindow     *source_scroller;
  GtkSourceView         *source_view;
  GtkListBox            *lines_list;
  GtkListBox            *callers_list;
  GtkListBox            *callees_list;
  EmbersCostGutter      *gutter;
  GtkMenuButton         *roots_button;
  GtkMenuButton         *status_roots_button;

  EmbersProfile         *profile;
  guint                  sample_type;
  char                  *name;
  GStrv                  call_site;    /* the selected frame's stack, root first */
  gboolean               site_asked;   /* call_site notified since the function was shown */
  GStrv                  shown_site;   /* the call site the figures are of, or NULL: every call */
  GFile                 *file;
  EmbersTransformStack  *transforms;   /* what the shown profile went through */
  char                  *server_note;  /* why a server gives no lines for this view */
  guint                  n_cut;        /* the function is a cut answer's `other`, in this many places */
  char                  *unit;
  char                  *source_key;
  char                  *git_ref;
  EmbersFunctionDetails *details;
  GPtrArray             *found;        /* EmbersSourceCandidate */
  char                  *source_path;
  char                  *git_warning;
  GCancellable          *cancellable;
  GCancellable          *site_cancellable; /* a call site's answer being read */
  gboolean               site_computing;
  guint                  pending;
  guint                  holds;  /* fetches for it by its page (hold / release) */
  gboolean               filling;      /* the candidates list is being refilled */
  GVariant              *roots_map;    /* without settings */
  gint64                 scroll_line;  /* to bring into view */
  gboolean               find_again;   /* the roots changed while busy */
  guint                  scroll_tick_id;
};

enum {
  EMBERS_DETAILS_PANEL_PROP_0,
  EMBERS_DETAILS_PANEL_PROP_FUNCTION,
  EMBERS_DETAILS_PANEL_PROP_BUSY,
  EMBERS_DETAILS_PANEL_PROP_SOURCE_PATH,
  EMBERS_DETAILS_PANEL_PROP_GIT_WARNING,
  EMBERS_DETAILS_PANEL_PROP_VIEW_NOTE,
  EMBERS_DETAILS_PANEL_PROP_CALL_SITE,
  EMBERS_DETAILS_PANEL_N_PROPS
};

/* embers-details-panel.c */
void embers_details_panel_notify        (EmbersDetailsPanel *self,
                                         guint               prop);
/* Work in flight (busy) */
void embers_details_panel_begin         (EmbersDetailsPanel *self);
void embers_details_panel_end           (EmbersDetailsPanel *self);

/* embers-details-panel-source.c */
const char *embers_details_panel_profile_git_ref (EmbersProfile *profile);
void embers_details_panel_set_git_warning (EmbersDetailsPanel *self,
                                           const char         *warning);
void embers_details_panel_find_source   (EmbersDetailsPanel *self);
void embers_details_panel_show_no_source (EmbersDetailsPanel *self,
                                          const char         *title,
                                          const char         *description);
void embers_details_panel_scroll_to_line (EmbersDetailsPanel *self,
                                          gint64              line);
void embers_details_panel_update_scheme (EmbersDetailsPanel *self);
void embers_details_panel_update_roots_menu (EmbersDetailsPanel *self,
                                             const char * const *roots);
void embers_details_panel_candidate_selected (EmbersDetailsPanel *self);
/* The actions: choose a folder to add; open the source at the cursor */
void embers_details_panel_choose_root   (EmbersDetailsPanel *self);
void embers_details_panel_open_editor   (EmbersDetailsPanel *self);

G_END_DECLS
