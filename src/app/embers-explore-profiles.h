/* embers-explore-profiles.h: the heaviest individual profiles of the
 * explore chart, to pick one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-chart.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_PROFILES_BAR (embers_profiles_bar_get_type ())
G_DECLARE_FINAL_TYPE (EmbersProfilesBar, embers_profiles_bar, EMBERS, PROFILES_BAR, GtkBox)

/*
 * A row under the explore chart: a "Profiles" menu listing the heaviest
 * individual profiles of the chart's points (Pyroscope's exemplars, a
 * folder's files), and, once one is picked, a chip naming it; removing
 * the chip goes back to the merged view. The same profiles are markers
 * on the chart: hovering one says its time, value and labels, clicking
 * one picks it. With the chart focused (the bar makes @area focusable),
 * [ and ] move between the markers in time order, the marker drawn
 * with a focus ring and announced to screen readers, and Enter (or
 * Space) picks it. The bar draws nothing itself: it sets the chart's
 * markers and redraws @area.
 *
 * Signals:
 *   changed: the picked profile changed (or was cleared)
 */

#define EMBERS_PROFILES_BAR_MAX 10

EmbersProfilesBar *embers_profiles_bar_new            (EmbersChart       *chart,
                                                       GtkWidget         *area);
/* The chart's new series: their heaviest exemplars become the markers and
 * the list; a picked profile stays picked (its chip) even when it is not
 * among them */
void               embers_profiles_bar_set_series     (EmbersProfilesBar *self,
                                                       GPtrArray         *series);
/* Whether the source offers individual profiles (else the bar hides) */
void               embers_profiles_bar_set_available  (EmbersProfilesBar *self,
                                                       gboolean           available);
guint              embers_profiles_bar_get_n_profiles (EmbersProfilesBar *self);
/* Profile @index, heaviest first (owned by the bar), or NULL */
const EmbersExemplar *embers_profiles_bar_get_profile (EmbersProfilesBar *self,
                                                       guint              index);
/* Picks the profile of marker @index (heaviest first) */
gboolean           embers_profiles_bar_pick           (EmbersProfilesBar *self,
                                                       guint              index);
/* Picks the marker under x, y of the chart's area, if any */
gboolean           embers_profiles_bar_click          (EmbersProfilesBar *self,
                                                       double             x,
                                                       double             y);
/* The keyboard's move to the next (@direction > 0) or previous marker in
 * time order (the first or last when none has the ring); FALSE when
 * there are none. Says the profile to screen readers. */
gboolean           embers_profiles_bar_move_focus     (EmbersProfilesBar *self,
                                                       int                direction);
/* The marker with the keyboard's ring (heaviest-first index), or -1 */
int                embers_profiles_bar_get_focused_marker (EmbersProfilesBar *self);
/* What the last move said to screen readers, or NULL */
const char        *embers_profiles_bar_get_announcement (EmbersProfilesBar *self);
/* Back to every profile (the chip removed); FALSE if none was picked */
gboolean           embers_profiles_bar_clear          (EmbersProfilesBar *self);
/* The picked profile, or NULL */
const EmbersExemplar *embers_profiles_bar_get_picked  (EmbersProfilesBar *self);
/* Picks a profile saved in a view file, before its query is set: shown
 * as the chip at once (emits nothing), and kept while the query changes
 * to the saved one, until that query's chart has come */
void               embers_profiles_bar_restore_pick   (EmbersProfilesBar    *self,
                                                       const EmbersExemplar *exemplar);
/* The picked profile's id, or NULL */
const char        *embers_profiles_bar_get_picked_id  (EmbersProfilesBar *self);
/* The chip (a button that removes it), or NULL when none is picked */
GtkWidget         *embers_profiles_bar_get_chip       (EmbersProfilesBar *self);
GtkWidget         *embers_profiles_bar_get_menu_button (EmbersProfilesBar *self);
/* Where marker @index (heaviest first) is drawn on the chart's area */
gboolean           embers_profiles_bar_get_marker_position (EmbersProfilesBar *self,
                                                       guint              index,
                                                       double            *x,
                                                       double            *y);
/* What hovering x, y of the chart's area says (a marker's time, value
 * and labels), or NULL off the markers */
char              *embers_profiles_bar_describe_at    (EmbersProfilesBar *self,
                                                       double             x,
                                                       double             y);

G_END_DECLS
