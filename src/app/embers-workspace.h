/* embers-workspace.h: one service of one source in one tab, four views on
 * one query
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-compare-page.h"
#include "embers-explore-page.h"
#include "embers-labels-page.h"
#include "embers-query-model.h"
#include "embers-rules-page.h"
#include "embers-services-page.h"

G_BEGIN_DECLS

/* The views' names, for embers_workspace_show_view() and the
 * workspace.view action */
#define EMBERS_WORKSPACE_VIEW_SERVICES    "services"
#define EMBERS_WORKSPACE_VIEW_FLAME_GRAPH "flame-graph"
#define EMBERS_WORKSPACE_VIEW_LABELS      "labels"
#define EMBERS_WORKSPACE_VIEW_COMPARE     "compare"
#define EMBERS_WORKSPACE_VIEW_RULES       "rules"

#define EMBERS_TYPE_WORKSPACE (embers_workspace_get_type ())

G_DECLARE_FINAL_TYPE (EmbersWorkspace, embers_workspace, EMBERS, WORKSPACE, AdwBreakpointBin)

/*
 * A server tab: a view switcher over Services (every service at a
 * glance; activating one shows its Flame Graph), Flame Graph (the explore
 * page), Labels, Compare and Recording Rules (when the source keeps
 * rules), all on one EmbersQueryModel. What one view asks for, the others see; each
 * view keeps its own state while another is shown. Compare with Baseline,
 * Compare with the Rest and Compare… open the Compare view of the same
 * tab. Back and forward move through views and queries.
 *
 * Actions: workspace.view(s) shows a view, workspace.back,
 * workspace.forward, workspace.reload-rules.
 *
 * Properties: source (construct-only), query (the model, read-only),
 * view (the visible view's name), title ("checkout · cpu", or the
 * source's name before a service is picked), tooltip (the source's name:
 * the server), loading (any view loading), can-go-back, can-go-forward.
 */
EmbersWorkspace   *embers_workspace_new               (EmbersSource      *source);
EmbersSource      *embers_workspace_get_source        (EmbersWorkspace   *self);
EmbersQueryModel  *embers_workspace_get_query         (EmbersWorkspace   *self);
const char        *embers_workspace_get_title         (EmbersWorkspace   *self);
const char        *embers_workspace_get_tooltip       (EmbersWorkspace   *self);
gboolean           embers_workspace_get_loading       (EmbersWorkspace   *self);

const char        *embers_workspace_get_view          (EmbersWorkspace   *self);
/* FALSE for a view this workspace has not (rules on a local source) */
gboolean           embers_workspace_show_view         (EmbersWorkspace   *self,
                                                       const char        *name);

EmbersServicesPage *embers_workspace_get_services_page (EmbersWorkspace *self);
EmbersExplorePage *embers_workspace_get_explore_page  (EmbersWorkspace   *self);
/* The labels of the current query, made when first asked for or after
 * the query changed; NULL before a service and a type are picked */
EmbersLabelsPage  *embers_workspace_get_labels_page   (EmbersWorkspace   *self);
EmbersComparePage *embers_workspace_get_compare_page  (EmbersWorkspace   *self);
/* The views, for a switcher outside the workspace (the window's header,
 * where the workspace's own bar goes at narrow widths) */
AdwViewStack      *embers_workspace_get_stack         (EmbersWorkspace   *self);
/* NULL when the source keeps no recording rules */
EmbersRulesPage   *embers_workspace_get_rules_page    (EmbersWorkspace   *self);
/* The profile page of the view shown (the flame graph's, or the diff's) */
EmbersProfilePage *embers_workspace_get_profile_page  (EmbersWorkspace   *self);

/* Both sides in the Compare view (either may be NULL), shown; compared
 * at once when @start */
void               embers_workspace_compare           (EmbersWorkspace   *self,
                                                       const EmbersQuery *baseline,
                                                       const EmbersQuery *comparison,
                                                       gboolean           start);

/* Forgets the steps so far: the state shown is the first (a saved view
 * restored) */
void               embers_workspace_restart_history   (EmbersWorkspace   *self);
gboolean           embers_workspace_go_back           (EmbersWorkspace   *self);
gboolean           embers_workspace_go_forward        (EmbersWorkspace   *self);
gboolean           embers_workspace_get_can_go_back   (EmbersWorkspace   *self);
gboolean           embers_workspace_get_can_go_forward (EmbersWorkspace  *self);

G_END_DECLS
