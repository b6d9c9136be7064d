/* embers-workspace.c: one service of one source in one tab, four views on
 * one query
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-workspace.h"

#define MAX_HISTORY 100

/* One step of back/forward: a view and the query it showed */
typedef struct
{
  char             *view;
  EmbersQueryState *state;
} Step;

struct _EmbersWorkspace
{
  AdwBreakpointBin   parent_instance;

  EmbersSource      *source;
  EmbersQueryModel  *model;
  char              *title;
  char              *tooltip;
  gboolean           loading;

  GPtrArray         *history;        /* Step */
  guint              history_index;
  gboolean           navigating;     /* applying a step: not a new one */

  /* Template */
  GtkWidget         *box;
  AdwViewStack      *stack;
  GtkLabel          *server_label;
  AdwBreakpoint     *narrow;
  AdwBreakpoint     *compact;

  /* The views */
  EmbersServicesPage *services;
  EmbersExplorePage *explore;
  AdwBin            *labels_bin;
  EmbersLabelsPage  *labels;
  char              *labels_label;   /* the label picked, kept across queries */
  EmbersComparePage *compare;
  gboolean           compare_prefilled;
  AdwBin            *rules_bin;
  EmbersRulesPage   *rules;
};

G_DEFINE_FINAL_TYPE (EmbersWorkspace, embers_workspace, ADW_TYPE_BREAKPOINT_BIN)

enum
{
  PROP_0,
  PROP_SOURCE,
  PROP_QUERY,
  PROP_VIEW,
  PROP_TITLE,
  PROP_TOOLTIP,
  PROP_LOADING,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_COMPACT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
step_free (Step *step)
{
  g_free (step->view);
  embers_query_state_free (step->state);
  g_free (step);
}

/* Title and tooltip: the query's short name, the source's name */

static void
update_title (EmbersWorkspace *self)
{
  g_autofree char *name = embers_query_model_dup_short_name (self->model);
  g_autofree char *server = embers_source_dup_display_name (self->source);

  if (server == NULL)
    server = g_strdup (_("Profiles"));
  if (name == NULL)
    name = g_strdup (server);
  if (g_strcmp0 (name, self->title) != 0)
    {
      g_free (self->title);
      self->title = g_steal_pointer (&name);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
  if (g_strcmp0 (server, self->tooltip) != 0)
    {
      g_free (self->tooltip);
      self->tooltip = g_strdup (server);
      gtk_label_set_text (self->server_label, server);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->server_label), server);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOLTIP]);
    }
}

static void
update_loading (EmbersWorkspace *self)
{
  gboolean loading = embers_explore_page_get_loading (self->explore) ||
                     embers_services_page_get_loading (self->services) ||
                     embers_compare_page_get_busy (self->compare) ||
                     (self->labels != NULL && embers_labels_page_get_loading (self->labels));

  if (loading == self->loading)
    return;
  self->loading = loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

/* History */

static void
update_history_actions (EmbersWorkspace *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "workspace.back", embers_workspace_get_can_go_back (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "workspace.forward", embers_workspace_get_can_go_forward (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
}

static void
record_step (EmbersWorkspace *self)
{
  const char *view = embers_workspace_get_view (self);
  g_autoptr(EmbersQueryState) state = NULL;
  Step *step;

  if (self->navigating || view == NULL)
    return;
  state = embers_query_model_dup_state (self->model);
  if (self->history->len > 0)
    {
      Step *current = g_ptr_array_index (self->history, self->history_index);

      if (g_strcmp0 (current->view, view) == 0 && embers_query_state_equal (current->state, state))
        return;
      /* A query that is not whole yet (no type for the new service) and
       * the one that completes it are one step */
      if (g_strcmp0 (current->view, view) == 0 && current->state->service != NULL &&
          current->state->profile_type == NULL && g_strcmp0 (current->state->service, state->service) == 0)
        {
          embers_query_state_free (current->state);
          current->state = g_steal_pointer (&state);
          return;
        }
    }

  if (self->history->len > 0)
    g_ptr_array_set_size (self->history, self->history_index + 1);
  step = g_new0 (Step, 1);
  step->view = g_strdup (view);
  step->state = g_steal_pointer (&state);
  g_ptr_array_add (self->history, step);
  if (self->history->len > MAX_HISTORY)
    g_ptr_array_remove_index (self->history, 0);
  self->history_index = self->history->len - 1;
  update_history_actions (self);
}

static void
apply_step (EmbersWorkspace *self,
            guint            index)
{
  Step *step = g_ptr_array_index (self->history, index);
  g_autoptr(EmbersQueryState) now = embers_query_model_dup_state (self->model);

  self->history_index = index;
  self->navigating = TRUE;
  if (!embers_query_state_equal (now, step->state))
    embers_query_model_set_state (self->model, step->state);
  embers_workspace_show_view (self, step->view);
  self->navigating = FALSE;
  update_history_actions (self);
}

/* A saved view restored: what is shown now is where the history starts */
void
embers_workspace_restart_history (EmbersWorkspace *self)
{
  g_return_if_fail (EMBERS_IS_WORKSPACE (self));

  g_ptr_array_set_size (self->history, 0);
  self->history_index = 0;
  record_step (self);
  update_history_actions (self);
}

gboolean
embers_workspace_get_can_go_back (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), FALSE);
  return self->history->len > 0 && self->history_index > 0;
}

gboolean
embers_workspace_get_can_go_forward (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), FALSE);
  return self->history->len > 0 && self->history_index + 1 < self->history->len;
}

gboolean
embers_workspace_go_back (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), FALSE);

  if (!embers_workspace_get_can_go_back (self))
    return FALSE;
  apply_step (self, self->history_index - 1);
  return TRUE;
}

gboolean
embers_workspace_go_forward (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), FALSE);

  if (!embers_workspace_get_can_go_forward (self))
    return FALSE;
  apply_step (self, self->history_index + 1);
  return TRUE;
}

/* Labels: a page per query, made when the view is shown */

static gboolean
same_query (const EmbersQuery *a,
            const EmbersQuery *b)
{
  return a != NULL && b != NULL &&
         g_strcmp0 (a->profile_type, b->profile_type) == 0 &&
         g_strcmp0 (a->label_selector, b->label_selector) == 0 &&
         a->start_ms == b->start_ms && a->end_ms == b->end_ms;
}

static void
on_labels_compare (EmbersLabelsPage *page,
                   EmbersQuery      *baseline,
                   EmbersQuery      *comparison,
                   EmbersWorkspace  *self)
{
  embers_workspace_compare (self, baseline, comparison, TRUE);
}

/* A value went to the filters (the query model): the flame graph shows it */
static void
on_labels_filter_added (EmbersLabelsPage *page,
                        const char       *name,
                        const char       *value,
                        gboolean          exclude,
                        EmbersWorkspace  *self)
{
  embers_workspace_show_view (self, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
}

static void
ensure_labels (EmbersWorkspace *self)
{
  g_autoptr(EmbersQuery) query = embers_query_model_dup_query (self->model);

  if (query == NULL)
    {
      GtkWidget *empty;

      if (self->labels == NULL && adw_bin_get_child (self->labels_bin) != NULL)
        return;
      self->labels = NULL;
      empty = adw_status_page_new ();
      adw_status_page_set_icon_name (ADW_STATUS_PAGE (empty), "view-grid-symbolic");
      adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("No Service Picked"));
      adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                       _("Pick a service and a profile type in the flame graph view to see their labels."));
      adw_bin_set_child (self->labels_bin, empty);
      return;
    }
  if (self->labels != NULL && same_query (embers_labels_page_get_query (self->labels), query))
    return;
  /* Another range or filters: the same page, its old values dimmed while
   * the new ones load */
  if (self->labels != NULL && embers_labels_page_set_query (self->labels, query,
                                                                embers_query_model_get_service (self->model)))
    {
      embers_labels_page_set_explore_page (self->labels, self->explore);
      return;
    }
  /* The label picked before, for the new query too */
  if (self->labels != NULL && embers_labels_page_get_label (self->labels) != NULL)
    {
      g_free (self->labels_label);
      self->labels_label = g_strdup (embers_labels_page_get_label (self->labels));
    }

  self->labels = embers_labels_page_new (self->source, query, embers_query_model_get_service (self->model));
  embers_labels_page_set_explore_page (self->labels, self->explore);
  embers_labels_page_set_query_model (self->labels, self->model);
  g_signal_connect_object (self->labels, "compare-requested", G_CALLBACK (on_labels_compare), self, 0);
  g_signal_connect_object (self->labels, "filter-added", G_CALLBACK (on_labels_filter_added), self, 0);
  g_signal_connect_object (self->labels, "notify::loading", G_CALLBACK (update_loading), self, G_CONNECT_SWAPPED);
  adw_bin_set_child (self->labels_bin, GTK_WIDGET (self->labels));
  /* The label picked before, for the new query too */
  if (self->labels_label != NULL)
    embers_labels_page_prefer_label (self->labels, self->labels_label);
  update_loading (self);
}

EmbersLabelsPage *
embers_workspace_get_labels_page (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);

  ensure_labels (self);
  return self->labels;
}

/* Recording rules: the server's list, loaded when first shown */

static void
ensure_rules (EmbersWorkspace *self)
{
  if (self->rules_bin == NULL || self->rules != NULL)
    return;
  self->rules = embers_rules_page_new_for_source (self->source);
  adw_bin_set_child (self->rules_bin, GTK_WIDGET (self->rules));
}

EmbersRulesPage *
embers_workspace_get_rules_page (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);

  ensure_rules (self);
  return self->rules;
}

/* Compare */

void
embers_workspace_compare (EmbersWorkspace   *self,
                          const EmbersQuery *baseline,
                          const EmbersQuery *comparison,
                          gboolean           start)
{
  g_return_if_fail (EMBERS_IS_WORKSPACE (self));

  self->compare_prefilled = TRUE;
  embers_compare_page_set_queries (self->compare, baseline, comparison);
  embers_workspace_show_view (self, EMBERS_WORKSPACE_VIEW_COMPARE);
  if (start && baseline != NULL && comparison != NULL)
    embers_compare_page_compare (self->compare);
}

/* Compare…, Compare with Baseline, Compare with the Rest from the flame
 * graph view: the current query and the one it is compared with */
static void
on_explore_compare (EmbersExplorePage *page,
                    EmbersQuery       *baseline,
                    EmbersQuery       *comparison,
                    EmbersWorkspace   *self)
{
  embers_workspace_compare (self, baseline, comparison, FALSE);
}

/* Views */

/* A service picked in the overview: its flame graph */
static void
on_service_activated (EmbersWorkspace *self,
                      const char      *service)
{
  embers_query_model_set_service (self->model, service);
  embers_workspace_show_view (self, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
}

static void
on_view_changed (EmbersWorkspace *self)
{
  const char *view = embers_workspace_get_view (self);

  if (g_strcmp0 (view, EMBERS_WORKSPACE_VIEW_LABELS) == 0)
    ensure_labels (self);
  else if (g_strcmp0 (view, EMBERS_WORKSPACE_VIEW_RULES) == 0)
    ensure_rules (self);
  else if (g_strcmp0 (view, EMBERS_WORKSPACE_VIEW_COMPARE) == 0 && !self->compare_prefilled &&
           embers_query_model_get_complete (self->model))
    /* The first time: the current query against the period before it */
    embers_explore_page_request_compare (self->explore);

  record_step (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW]);
}

const char *
embers_workspace_get_view (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);
  return adw_view_stack_get_visible_child_name (self->stack);
}

gboolean
embers_workspace_show_view (EmbersWorkspace *self,
                            const char      *name)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (adw_view_stack_get_child_by_name (self->stack, name) == NULL)
    return FALSE;
  adw_view_stack_set_visible_child_name (self->stack, name);
  return TRUE;
}

static void
on_query_changed (EmbersWorkspace *self)
{
  const char *view = embers_workspace_get_view (self);

  update_title (self);
  /* The labels shown follow the query at once; hidden, when next shown */
  if (g_strcmp0 (view, EMBERS_WORKSPACE_VIEW_LABELS) == 0)
    ensure_labels (self);
  record_step (self);
}

/* Actions */

static void
view_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  embers_workspace_show_view (EMBERS_WORKSPACE (widget), g_variant_get_string (param, NULL));
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  embers_workspace_go_back (EMBERS_WORKSPACE (widget));
}

static void
forward_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  embers_workspace_go_forward (EMBERS_WORKSPACE (widget));
}

static void
reload_rules_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  EmbersWorkspace *self = EMBERS_WORKSPACE (widget);

  if (self->rules != NULL)
    embers_rules_page_reload (self->rules);
}

/* GObject */

static void
embers_workspace_constructed (GObject *object)
{
  EmbersWorkspace *self = EMBERS_WORKSPACE (object);
  AdwViewStackPage *page;

  G_OBJECT_CLASS (embers_workspace_parent_class)->constructed (object);

  g_assert (self->source != NULL);
  self->model = embers_query_model_new (self->source);

  /* Adding the views shows each in turn: none of that is a step back */
  self->navigating = TRUE;
  self->services = EMBERS_SERVICES_PAGE (embers_services_page_new (self->model));
  g_signal_connect_object (self->services, "service-activated", G_CALLBACK (on_service_activated), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->services, "notify::loading", G_CALLBACK (update_loading), self, G_CONNECT_SWAPPED);
  adw_view_stack_add_titled_with_icon (self->stack, GTK_WIDGET (self->services),
                                       EMBERS_WORKSPACE_VIEW_SERVICES,
                                       /* Translators: a view of a server tab: every service */
                                       C_("workspace view", "Services"), "view-app-grid-symbolic");

  self->explore = EMBERS_EXPLORE_PAGE (embers_explore_page_new (self->source));
  embers_explore_page_set_query_model (self->explore, self->model);
  g_signal_connect_object (self->explore, "compare-requested", G_CALLBACK (on_explore_compare), self, 0);
  g_signal_connect_object (self->explore, "notify::loading", G_CALLBACK (update_loading), self, G_CONNECT_SWAPPED);
  page = adw_view_stack_add_titled_with_icon (self->stack, GTK_WIDGET (self->explore),
                                              EMBERS_WORKSPACE_VIEW_FLAME_GRAPH,
                                              /* Translators: a view of a server tab */
                                              C_("workspace view", "Flame Graph"), "view-continuous-symbolic");
  adw_view_stack_page_set_use_underline (page, FALSE);
  {
    g_auto(GValue) short_title = G_VALUE_INIT;

    g_value_init (&short_title, G_TYPE_STRING);
    /* Translators: a view of a server tab when the window is narrow
     * (short for Flame Graph) */
    g_value_set_string (&short_title, C_("workspace view", "Graph"));
    adw_breakpoint_add_setter (self->narrow, G_OBJECT (page), "title", &short_title);
    adw_breakpoint_add_setter (self->compact, G_OBJECT (page), "title", &short_title);
  }

  self->labels_bin = ADW_BIN (adw_bin_new ());
  adw_view_stack_add_titled_with_icon (self->stack, GTK_WIDGET (self->labels_bin),
                                       EMBERS_WORKSPACE_VIEW_LABELS,
                                       /* Translators: a view of a server tab */
                                       C_("workspace view", "Labels"), "view-grid-symbolic");

  self->compare = EMBERS_COMPARE_PAGE (embers_compare_page_new ());
  embers_compare_page_set_source (self->compare, self->source);
  g_signal_connect_object (self->compare, "notify::busy", G_CALLBACK (update_loading), self, G_CONNECT_SWAPPED);
  adw_view_stack_add_titled_with_icon (self->stack, GTK_WIDGET (self->compare),
                                       EMBERS_WORKSPACE_VIEW_COMPARE,
                                       /* Translators: a view of a server tab */
                                       C_("workspace view", "Compare"), "view-dual-symbolic");

  if (embers_source_offers_recording_rules (self->source))
    {
      g_auto(GValue) short_title = G_VALUE_INIT;

      self->rules_bin = ADW_BIN (adw_bin_new ());
      page = adw_view_stack_add_titled_with_icon (self->stack, GTK_WIDGET (self->rules_bin),
                                                  EMBERS_WORKSPACE_VIEW_RULES,
                                                  /* Translators: a view of a server tab */
                                                  C_("workspace view", "Recording Rules"),
                                                  "view-list-bullet-symbolic");
      /* Narrow: the short name, so that all four show whole */
      g_value_init (&short_title, G_TYPE_STRING);
      /* Translators: a view of a server tab when the window is narrow
       * (short for Recording Rules) */
      g_value_set_string (&short_title, C_("workspace view", "Rules"));
      adw_breakpoint_add_setter (self->narrow, G_OBJECT (page), "title", &short_title);
      adw_breakpoint_add_setter (self->compact, G_OBJECT (page), "title", &short_title);
    }

  adw_view_stack_set_visible_child_name (self->stack, EMBERS_WORKSPACE_VIEW_FLAME_GRAPH);
  self->navigating = FALSE;
  g_signal_connect_object (self->model, "changed", G_CALLBACK (on_query_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->source, "notify", G_CALLBACK (update_title), self, G_CONNECT_SWAPPED);
  update_title (self);
  record_step (self);
  update_history_actions (self);
}

static void
embers_workspace_dispose (GObject *object)
{
  EmbersWorkspace *self = EMBERS_WORKSPACE (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  /* The bin lets go of its child before the template does */
  adw_breakpoint_bin_set_child (ADW_BREAKPOINT_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_WORKSPACE);
  self->explore = NULL;
  self->labels = NULL;
  self->compare = NULL;
  self->rules = NULL;
  g_clear_pointer (&self->history, g_ptr_array_unref);
  g_clear_object (&self->model);
  g_clear_object (&self->source);

  G_OBJECT_CLASS (embers_workspace_parent_class)->dispose (object);
}

static void
embers_workspace_finalize (GObject *object)
{
  EmbersWorkspace *self = EMBERS_WORKSPACE (object);

  g_free (self->title);
  g_free (self->tooltip);
  g_free (self->labels_label);

  G_OBJECT_CLASS (embers_workspace_parent_class)->finalize (object);
}

static void
embers_workspace_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  EmbersWorkspace *self = EMBERS_WORKSPACE (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;
    case PROP_QUERY:
      g_value_set_object (value, self->model);
      break;
    case PROP_VIEW:
      g_value_set_string (value, embers_workspace_get_view (self));
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_TOOLTIP:
      g_value_set_string (value, self->tooltip);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, embers_workspace_get_can_go_back (self));
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, embers_workspace_get_can_go_forward (self));
      break;
    case PROP_COMPACT:
      g_value_set_boolean (value, adw_breakpoint_bin_get_current_breakpoint (ADW_BREAKPOINT_BIN (self)) == self->compact);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_workspace_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  EmbersWorkspace *self = EMBERS_WORKSPACE (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      self->source = g_value_dup_object (value);
      break;
    case PROP_VIEW:
      embers_workspace_show_view (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
on_compact_changed (EmbersWorkspace *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPACT]);
}

static void
embers_workspace_class_init (EmbersWorkspaceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->constructed = embers_workspace_constructed;
  object_class->dispose = embers_workspace_dispose;
  object_class->finalize = embers_workspace_finalize;
  object_class->get_property = embers_workspace_get_property;
  object_class->set_property = embers_workspace_set_property;

  properties[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL, EMBERS_TYPE_SOURCE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_QUERY] = g_param_spec_object ("query", NULL, NULL, EMBERS_TYPE_QUERY_MODEL, ro);
  properties[PROP_VIEW] = g_param_spec_string ("view", NULL, NULL, NULL,
                                               G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, ro);
  properties[PROP_TOOLTIP] = g_param_spec_string ("tooltip", NULL, NULL, NULL, ro);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE, ro);
  properties[PROP_CAN_GO_BACK] = g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE, ro);
  properties[PROP_CAN_GO_FORWARD] = g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE, ro);
  /* Narrow: the bar (back, forward, the views) is hidden, for the window
   * to show them in its header (embers_workspace_get_stack()) */
  properties[PROP_COMPACT] = g_param_spec_boolean ("compact", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-workspace.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersWorkspace, box);
  gtk_widget_class_bind_template_child (widget_class, EmbersWorkspace, stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersWorkspace, server_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersWorkspace, narrow);
  gtk_widget_class_bind_template_child (widget_class, EmbersWorkspace, compact);
  gtk_widget_class_bind_template_callback (widget_class, on_view_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_compact_changed);

  gtk_widget_class_install_action (widget_class, "workspace.view", "s", view_action);
  gtk_widget_class_install_action (widget_class, "workspace.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "workspace.forward", NULL, forward_action);
  gtk_widget_class_install_action (widget_class, "workspace.reload-rules", NULL, reload_rules_action);
  gtk_widget_class_set_css_name (widget_class, "workspace");
}

static void
embers_workspace_init (EmbersWorkspace *self)
{
  self->history = g_ptr_array_new_with_free_func ((GDestroyNotify) step_free);
  /* The action the view switcher fires is never needed before the
   * constructor has made the views */
  g_type_ensure (ADW_TYPE_VIEW_SWITCHER);
  gtk_widget_init_template (GTK_WIDGET (self));
}

EmbersWorkspace *
embers_workspace_new (EmbersSource *source)
{
  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);

  return g_object_new (EMBERS_TYPE_WORKSPACE, "source", source, NULL);
}

EmbersSource *
embers_workspace_get_source (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);
  return self->source;
}

EmbersQueryModel *
embers_workspace_get_query (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);
  return self->model;
}

const char *
embers_workspace_get_title (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);
  return self->title;
}

const char *
embers_workspace_get_tooltip (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);
  return self->tooltip;
}

gboolean
embers_workspace_get_loading (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), FALSE);
  return self->loading;
}

EmbersServicesPage *
embers_workspace_get_services_page (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);
  return self->services;
}

EmbersExplorePage *
embers_workspace_get_explore_page (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);
  return self->explore;
}

AdwViewStack *
embers_workspace_get_stack (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);
  return self->stack;
}

EmbersComparePage *
embers_workspace_get_compare_page (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);
  return self->compare;
}

EmbersProfilePage *
embers_workspace_get_profile_page (EmbersWorkspace *self)
{
  g_return_val_if_fail (EMBERS_IS_WORKSPACE (self), NULL);

  if (g_strcmp0 (embers_workspace_get_view (self), EMBERS_WORKSPACE_VIEW_COMPARE) == 0)
    return embers_compare_page_get_profile_page (self->compare);
  return embers_explore_page_get_profile_page (self->explore);
}
