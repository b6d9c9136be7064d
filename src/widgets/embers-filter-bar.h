/* embers-filter-bar.h: label filters as chips, with suggested values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-selector.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_FILTER_BAR (embers_filter_bar_get_type ())

G_DECLARE_FINAL_TYPE (EmbersFilterBar, embers_filter_bar, EMBERS, FILTER_BAR, GtkBox)

/*
 * EmbersFilterBar: "Filter", a label name (from the source, searchable),
 * an operator (= != =~ !~), a value (the source's values of that label
 * that hold what is typed are suggested in a list under it) and an add
 * button, then the filters as chips that remove
 * themselves when clicked. A GtkBox, horizontal until a host turns it
 * (a breakpoint of the explore page, always in the compare page's sides):
 * hosts may append parts of their own (the explore page's time range).
 *
 * Names and values come from @source for the series matching the scope
 * (embers_filter_bar_set_scope()) in its time range; names starting with
 * "__" and names the scope fixes with "=" are not offered. Without a
 * source, or until names arrive, the controls are insensitive.
 *
 * Signal "changed": the filters changed by the user or by
 * embers_filter_bar_add_filter() / _remove_filter() (not by _set_filters()).
 */

GtkWidget            *embers_filter_bar_new             (void);

void                  embers_filter_bar_set_source      (EmbersFilterBar     *self,
                                                         EmbersSource        *source);
/* @scope: a selector every completion is limited to ({service_name="api"},
 * {__profile_type__="…"}), NULL for all series. Reloads the names. */
void                  embers_filter_bar_set_scope       (EmbersFilterBar     *self,
                                                         const char          *scope,
                                                         gint64               start_ms,
                                                         gint64               end_ms);

/* The filters (never NULL) */
EmbersSelector       *embers_filter_bar_get_filters     (EmbersFilterBar     *self);
/* Replaces the filters; emits nothing */
void                  embers_filter_bar_set_filters     (EmbersFilterBar     *self,
                                                         EmbersSelector      *filters);
/* Replaces the filter of @name (one per name); FALSE and @error when
 * @value does not fit @op (a bad regular expression) */
gboolean              embers_filter_bar_add_filter      (EmbersFilterBar     *self,
                                                         const char          *name,
                                                         EmbersMatchOp        op,
                                                         const char          *value,
                                                         GError             **error);
/* FALSE when there was no filter of @name */
gboolean              embers_filter_bar_remove_filter   (EmbersFilterBar     *self,
                                                         const char          *name);
/* What the controls hold but the user did not add yet (a typed value):
 * added as if the add button was pressed. TRUE when nothing was pending
 * or it was added; FALSE with @error when it is not valid. */
gboolean              embers_filter_bar_commit_pending  (EmbersFilterBar     *self,
                                                         GError             **error);

/* Parts, for tests */
GtkDropDown          *embers_filter_bar_get_name_dropdown (EmbersFilterBar   *self);
GtkEditable          *embers_filter_bar_get_value_entry (EmbersFilterBar     *self);
/* The label names offered (a GtkStringList) */
GListModel           *embers_filter_bar_get_names       (EmbersFilterBar     *self);
/* The values of the selected name (GtkStringObjects) */
GListModel           *embers_filter_bar_get_values      (EmbersFilterBar     *self);
/* Those suggested for what the value entry holds (a GtkSingleSelection;
 * its selected item is the one Enter takes), and the popover that shows
 * them under the entry while it has the focus */
GListModel           *embers_filter_bar_get_suggestions (EmbersFilterBar     *self);
GtkPopover           *embers_filter_bar_get_suggestions_popover (EmbersFilterBar *self);
/* Requests for names or values are running */
gboolean              embers_filter_bar_get_loading     (EmbersFilterBar     *self);

G_END_DECLS
