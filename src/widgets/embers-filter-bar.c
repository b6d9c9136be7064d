/* embers-filter-bar.c: label filters as chips, with suggested values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-accessible.h"
#include "embers-filter-bar.h"
#include "embers-request.h"
#include "embers-widgets.h"

struct _EmbersFilterBar
{
  GtkBox          parent_instance;

  GtkBox         *controls;
  GtkDropDown    *name_dropdown;
  GtkStringList  *names;
  GtkDropDown    *op_dropdown;
  GtkEntry       *value_entry;
  GtkStringList  *values;          /* the source's values of the name */
  GtkStringFilter *value_filter;   /* those holding what is typed */
  GtkSingleSelection *suggestions;
  GtkPopover     *suggestions_popover;
  GtkBox         *chips;

  EmbersSource   *source;
  EmbersSelector *scope;
  EmbersSelector *filters;
  gint64          start_ms;
  gint64          end_ms;

  GCancellable   *names_cancellable;
  GCancellable   *values_cancellable;
  char           *values_key;      /* what the values are (being) loaded for */
  gboolean        show_label;
};

G_DEFINE_FINAL_TYPE (EmbersFilterBar, embers_filter_bar, GTK_TYPE_BOX)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_SHOW_LABEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void load_values (EmbersFilterBar *self);

static const char *
selected_name (EmbersFilterBar *self)
{
  GtkStringObject *item = gtk_drop_down_get_selected_item (self->name_dropdown);

  return item != NULL ? gtk_string_object_get_string (item) : NULL;
}

/* The scope fixes this label ({service_name="api"}): not offered */
static gboolean
scope_fixes (EmbersFilterBar *self,
             const char      *name)
{
  if (self->scope == NULL)
    return FALSE;
  for (guint i = 0; i < embers_selector_get_n_matchers (self->scope); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (self->scope, i);

      if (m->op == EMBERS_MATCH_EQUAL && g_str_equal (m->name, name))
        return TRUE;
    }
  return FALSE;
}

/* The scope and the filters, as one matcher string */
static char *
matcher_text (EmbersFilterBar *self,
              const char      *without)
{
  g_autoptr(EmbersSelector) all = self->scope != NULL ? embers_selector_copy (self->scope)
                                                      : embers_selector_new ();

  for (guint i = 0; i < embers_selector_get_n_matchers (self->filters); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (self->filters, i);

      if (g_strcmp0 (m->name, without) != 0)
        embers_selector_add_matcher (all, m);
    }
  return embers_selector_to_string (all);
}

/* Values */

static void
values_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersFilterBar *self = req->owner;
  g_auto(GStrv) values = NULL;
  g_autoptr(GError) error = NULL;

  values = embers_source_list_label_values_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_request_finish (req))
    return;
  if (values == NULL)
    {
      /* Only suggestions: the bar works without them */
      /* Not asked again for the same name, filters and range */
      g_debug ("Label values: %s", error->message);
      gtk_string_list_splice (self->values, 0, g_list_model_get_n_items (G_LIST_MODEL (self->values)), NULL);
      return;
    }
  gtk_string_list_splice (self->values, 0, g_list_model_get_n_items (G_LIST_MODEL (self->values)),
                          (const char * const *)values);
}

static void
load_values (EmbersFilterBar *self)
{
  const char *name = selected_name (self);
  g_autofree char *text = NULL;
  g_autofree char *key = NULL;
  const char *matchers[2] = { NULL, NULL };
  EmbersRequest *req;

  if (name != NULL && self->source != NULL)
    {
      text = matcher_text (self, name);
      key = g_strdup_printf ("%s\n%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT,
                             name, text, self->start_ms, self->end_ms);
    }
  /* Asked for already (the same name, filters and range): nothing to do,
   * so that every path here may call it as often as it likes */
  if (key != NULL && g_strcmp0 (key, self->values_key) == 0)
    return;
  g_free (self->values_key);
  self->values_key = g_steal_pointer (&key);

  embers_request_cancel (&self->values_cancellable);
  gtk_string_list_splice (self->values, 0, g_list_model_get_n_items (G_LIST_MODEL (self->values)), NULL);
  if (self->values_key == NULL)
    return;

  matchers[0] = text;
  req = embers_request_start (self, &self->values_cancellable, 0);
  embers_source_list_label_values (self->source, name, matchers, self->start_ms, self->end_ms,
                                   req->cancellable, values_done, req);
}

/* Names */

static void
names_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(EmbersRequest) req = user_data;
  EmbersFilterBar *self = req->owner;
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) shown = g_ptr_array_new ();
  g_autofree char *previous = NULL;
  guint pick = 0;

  names = embers_source_list_label_names_finish (EMBERS_SOURCE (object), result, &error);
  if (!embers_request_finish (req))
    return;
  if (names == NULL)
    {
      g_debug ("Label names: %s", error->message);
      return;
    }

  previous = g_strdup (selected_name (self));
  for (guint i = 0; names[i] != NULL; i++)
    {
      if (g_str_has_prefix (names[i], "__") || scope_fixes (self, names[i]))
        continue;
      if (g_strcmp0 (names[i], previous) == 0)
        pick = shown->len;
      g_ptr_array_add (shown, names[i]);
    }
  g_ptr_array_add (shown, NULL);

  /* The selected name changes at most once, to the one kept or picked
   * (the values follow it, see name_selected) */
  embers_drop_down_replace_strings (self->name_dropdown, self->names,
                                    (const char * const *) shown->pdata, pick);
  gtk_widget_set_sensitive (GTK_WIDGET (self->controls), shown->len > 1);
  load_values (self);
}

static void
load_names (EmbersFilterBar *self)
{
  g_autofree char *text = NULL;
  const char *matchers[2] = { NULL, NULL };
  EmbersRequest *req;

  embers_request_cancel (&self->names_cancellable);
  if (self->source == NULL)
    {
      gtk_string_list_splice (self->names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->names)), NULL);
      gtk_widget_set_sensitive (GTK_WIDGET (self->controls), FALSE);
      return;
    }

  if (self->scope != NULL && embers_selector_get_n_matchers (self->scope) > 0)
    {
      text = embers_selector_to_string (self->scope);
      matchers[0] = text;
    }
  req = embers_request_start (self, &self->names_cancellable, 0);
  embers_source_list_label_names (self->source, matchers, self->start_ms, self->end_ms,
                                  req->cancellable, names_done, req);
}

/* The values follow the name (load_values does nothing when they are
 * asked for already) */
static void
name_selected (EmbersFilterBar *self)
{
  load_values (self);
}

/* Chips */

static void
filters_changed (EmbersFilterBar *self);

static void
chip_clicked (GtkButton       *button,
              EmbersFilterBar *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "matcher-index"));
  g_autoptr(EmbersSelector) rest = embers_selector_new ();

  /* This matcher only (a typed selector may have two on one name) */
  for (guint i = 0; i < embers_selector_get_n_matchers (self->filters); i++)
    if (i != index)
      embers_selector_add_matcher (rest, embers_selector_get_matcher (self->filters, i));
  embers_selector_unref (self->filters);
  self->filters = g_steal_pointer (&rest);
  filters_changed (self);
}

static void
rebuild_chips (EmbersFilterBar *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->chips))) != NULL)
    gtk_box_remove (self->chips, child);

  for (guint i = 0; i < embers_selector_get_n_matchers (self->filters); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (self->filters, i);
      g_autofree char *text = embers_matcher_to_string (m);
      g_autofree char *a11y = g_strdup_printf (_("Remove filter %s"), text);
      GtkWidget *button = gtk_button_new ();
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
      GtkWidget *label = gtk_label_new (text);

      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      /* The whole name=value where there is room; cut in the middle only
       * when the bar is narrow (the tooltip has it whole) */
      gtk_label_set_max_width_chars (GTK_LABEL (label), -1);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("window-close-symbolic"));
      gtk_button_set_child (GTK_BUTTON (button), box);
      gtk_widget_add_css_class (button, "chip");
      gtk_widget_set_tooltip_text (button, a11y);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, a11y, -1);
      g_object_set_data (G_OBJECT (button), "matcher-index", GUINT_TO_POINTER (i));
      g_signal_connect (button, "clicked", G_CALLBACK (chip_clicked), self);
      gtk_box_append (self->chips, button);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->chips), embers_selector_get_n_matchers (self->filters) > 0);
}

static void
filters_changed (EmbersFilterBar *self)
{
  rebuild_chips (self);
  /* Other labels' values depend on the filters */
  load_values (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
add_clicked (EmbersFilterBar *self)
{
  g_autoptr(GError) error = NULL;

  if (!embers_filter_bar_commit_pending (self, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->value_entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->value_entry), error->message);
    }
}

/* Suggested values: a list under the value entry of the source's values
 * that hold what is typed (all of them before anything is); Down and Up
 * move in it, Enter takes the selected one, Escape closes it */

static void
hide_suggestions (EmbersFilterBar *self)
{
  if (gtk_widget_get_visible (GTK_WIDGET (self->suggestions_popover)))
    gtk_popover_popdown (self->suggestions_popover);
}

/* The entry or its text has the keyboard focus */
static gboolean
value_has_focus (EmbersFilterBar *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self->value_entry));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == GTK_WIDGET (self->value_entry) ||
                           gtk_widget_is_ancestor (focus, GTK_WIDGET (self->value_entry)));
}

static void
update_suggestions (EmbersFilterBar *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->suggestions));
  GtkStringObject *only = n == 1 ? g_list_model_get_item (G_LIST_MODEL (self->suggestions), 0) : NULL;
  /* Nothing to suggest but what is typed already */
  gboolean same = only != NULL &&
                  g_str_equal (gtk_string_object_get_string (only),
                               gtk_editable_get_text (GTK_EDITABLE (self->value_entry)));

  g_clear_object (&only);
  if (n == 0 || same || !value_has_focus (self) ||
      !gtk_widget_get_mapped (GTK_WIDGET (self->value_entry)))
    {
      hide_suggestions (self);
      return;
    }
  gtk_single_selection_set_selected (self->suggestions, GTK_INVALID_LIST_POSITION);
  if (!gtk_widget_get_visible (GTK_WIDGET (self->suggestions_popover)))
    gtk_popover_popup (self->suggestions_popover);
}

static void
take_suggestion (EmbersFilterBar *self,
                 guint            position)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (G_LIST_MODEL (self->suggestions), position);

  if (item == NULL)
    return;
  gtk_editable_set_text (GTK_EDITABLE (self->value_entry), gtk_string_object_get_string (item));
  gtk_editable_set_position (GTK_EDITABLE (self->value_entry), -1);
  hide_suggestions (self);
}

static void
suggestion_activated (GtkListView     *view,
                      guint            position,
                      EmbersFilterBar *self)
{
  take_suggestion (self, position);
  gtk_widget_grab_focus (GTK_WIDGET (self->value_entry));
}

/* The keys in the value entry (a capture-phase shortcut controller: FALSE
 * passes the key on to the entry) */
static gboolean
suggestion_down (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   data)
{
  EmbersFilterBar *self = data;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->suggestions));
  guint selected = gtk_single_selection_get_selected (self->suggestions);

  if (n == 0)
    return FALSE;
  if (!gtk_widget_get_visible (GTK_WIDGET (self->suggestions_popover)))
    update_suggestions (self);
  else
    gtk_single_selection_set_selected (self->suggestions,
                                       selected == GTK_INVALID_LIST_POSITION ? 0 : MIN (selected + 1, n - 1));
  return TRUE;
}

static gboolean
suggestion_up (GtkWidget *widget,
               GVariant  *args,
               gpointer   data)
{
  EmbersFilterBar *self = data;
  guint selected = gtk_single_selection_get_selected (self->suggestions);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->suggestions_popover)) || selected == GTK_INVALID_LIST_POSITION)
    return FALSE;
  gtk_single_selection_set_selected (self->suggestions, selected == 0 ? GTK_INVALID_LIST_POSITION : selected - 1);
  return TRUE;
}

/* A suggestion picked with the arrows is taken; Enter again adds */
static gboolean
suggestion_take (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   data)
{
  EmbersFilterBar *self = data;
  guint selected = gtk_single_selection_get_selected (self->suggestions);

  if (gtk_widget_get_visible (GTK_WIDGET (self->suggestions_popover)) && selected != GTK_INVALID_LIST_POSITION)
    {
      take_suggestion (self, selected);
      return TRUE;
    }
  hide_suggestions (self);
  return FALSE;
}

static gboolean
suggestion_close (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   data)
{
  EmbersFilterBar *self = data;

  if (!gtk_widget_get_visible (GTK_WIDGET (self->suggestions_popover)))
    return FALSE;
  hide_suggestions (self);
  return TRUE;
}

static void
add_key (GtkShortcutController *controller,
         guint                  keyval,
         GtkShortcutFunc        func,
         gpointer               data)
{
  gtk_shortcut_controller_add_shortcut (controller,
                                        gtk_shortcut_new (gtk_keyval_trigger_new (keyval, 0),
                                                          gtk_callback_action_new (func, data, NULL)));
}

static void
value_focus_left (EmbersFilterBar *self)
{
  hide_suggestions (self);
}

static void
setup_suggestion (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_list_item_set_child (item, label);
}

static void
bind_suggestion (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  data)
{
  GtkStringObject *string = gtk_list_item_get_item (item);
  const char *text = gtk_string_object_get_string (string);

  gtk_label_set_label (GTK_LABEL (gtk_list_item_get_child (item)), text);
  gtk_list_item_set_accessible_label (item, text);
}

static void
build_suggestions (EmbersFilterBar *self)
{
  GtkExpression *expression = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");
  GtkFilterListModel *filtered;
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *view, *scrolled;
  GtkEventController *keys, *focus;

  self->values = gtk_string_list_new (NULL);
  self->value_filter = gtk_string_filter_new (expression);
  gtk_string_filter_set_match_mode (self->value_filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->value_filter, TRUE);
  g_object_bind_property (self->value_entry, "text", self->value_filter, "search", G_BINDING_SYNC_CREATE);
  filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->values)),
                                        GTK_FILTER (g_object_ref (self->value_filter)));
  self->suggestions = gtk_single_selection_new (G_LIST_MODEL (filtered));
  gtk_single_selection_set_autoselect (self->suggestions, FALSE);
  gtk_single_selection_set_can_unselect (self->suggestions, TRUE);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_suggestion), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_suggestion), NULL);
  view = gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->suggestions)), factory);
  gtk_list_view_set_single_click_activate (GTK_LIST_VIEW (view), TRUE);
  gtk_widget_add_css_class (view, "navigation-sidebar");
  /* Translators: accessible name of the list of a label's values under the value entry */
  embers_accessible_set_label (view, _("Suggested values"));
  g_signal_connect_object (view, "activate", G_CALLBACK (suggestion_activated), self, 0);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 240);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);

  /* Under the entry, without its focus: typing goes on in the entry */
  self->suggestions_popover = GTK_POPOVER (gtk_popover_new ());
  gtk_popover_set_child (self->suggestions_popover, scrolled);
  gtk_popover_set_autohide (self->suggestions_popover, FALSE);
  gtk_popover_set_has_arrow (self->suggestions_popover, FALSE);
  gtk_popover_set_position (self->suggestions_popover, GTK_POS_BOTTOM);
  gtk_widget_set_halign (GTK_WIDGET (self->suggestions_popover), GTK_ALIGN_START);
  gtk_widget_set_can_focus (GTK_WIDGET (self->suggestions_popover), FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->suggestions_popover), "menu");
  gtk_widget_set_parent (GTK_WIDGET (self->suggestions_popover), GTK_WIDGET (self->value_entry));

  g_signal_connect_object (self->value_entry, "changed", G_CALLBACK (update_suggestions), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  focus = gtk_event_controller_focus_new ();
  g_signal_connect_object (focus, "leave", G_CALLBACK (value_focus_left), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->value_entry), focus);
  keys = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_Down, suggestion_down, self);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_KP_Down, suggestion_down, self);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_Up, suggestion_up, self);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_KP_Up, suggestion_up, self);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_Return, suggestion_take, self);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_KP_Enter, suggestion_take, self);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_ISO_Enter, suggestion_take, self);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_Escape, suggestion_close, self);
  gtk_widget_add_controller (GTK_WIDGET (self->value_entry), keys);
}

/* GObject */

static void
embers_filter_bar_dispose (GObject *object)
{
  EmbersFilterBar *self = EMBERS_FILTER_BAR (object);

  embers_request_cancel (&self->names_cancellable);
  embers_request_cancel (&self->values_cancellable);
  g_clear_object (&self->source);
  g_clear_object (&self->values);
  g_clear_object (&self->value_filter);
  g_clear_object (&self->suggestions);
  if (self->suggestions_popover != NULL)
    gtk_widget_unparent (GTK_WIDGET (self->suggestions_popover));
  self->suggestions_popover = NULL;
  g_clear_pointer (&self->scope, embers_selector_unref);
  g_clear_pointer (&self->filters, embers_selector_unref);
  g_clear_pointer (&self->values_key, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_FILTER_BAR);

  G_OBJECT_CLASS (embers_filter_bar_parent_class)->dispose (object);
}

static void
embers_filter_bar_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  EmbersFilterBar *self = EMBERS_FILTER_BAR (object);

  switch (prop_id)
    {
    case PROP_SHOW_LABEL:
      g_value_set_boolean (value, self->show_label);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_filter_bar_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  EmbersFilterBar *self = EMBERS_FILTER_BAR (object);

  switch (prop_id)
    {
    case PROP_SHOW_LABEL:
      if (self->show_label != g_value_get_boolean (value))
        {
          self->show_label = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_filter_bar_class_init (EmbersFilterBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_filter_bar_dispose;
  object_class->get_property = embers_filter_bar_get_property;
  object_class->set_property = embers_filter_bar_set_property;

  /**
   * EmbersFilterBar:show-label:
   *
   * Whether the "Filter" label leads the controls (off where a row has
   * no room for it: the controls have their own names).
   */
  properties[PROP_SHOW_LABEL] =
    g_param_spec_boolean ("show-label", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EmbersFilterBar::changed:
   *
   * The filters changed (a chip added or removed).
   */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  embers_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-filter-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersFilterBar, controls);
  gtk_widget_class_bind_template_child (widget_class, EmbersFilterBar, name_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersFilterBar, names);
  gtk_widget_class_bind_template_child (widget_class, EmbersFilterBar, op_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersFilterBar, value_entry);
  gtk_widget_class_bind_template_child (widget_class, EmbersFilterBar, chips);
  gtk_widget_class_bind_template_callback (widget_class, name_selected);
  gtk_widget_class_bind_template_callback (widget_class, add_clicked);

  gtk_widget_class_set_css_name (widget_class, "filterbar");
}

/* The label names: shortened on the button where the row has no room
 * (the list has them whole) */
static void
setup_name (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  shorten)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (shorten != NULL)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 4);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_name (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  GtkStringObject *string = gtk_list_item_get_item (item);

  gtk_label_set_label (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (string));
}

static void
embers_filter_bar_init (EmbersFilterBar *self)
{
  self->filters = embers_selector_new ();
  self->show_label = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The drop-downs' buttons are named too (the template names the
   * drop-downs only) */
  embers_accessible_set_label (GTK_WIDGET (self->name_dropdown), _("Label Name"));
  /* Translators: accessible name of the drop-down with =, !=, =~ and !~ */
  embers_accessible_set_label (GTK_WIDGET (self->op_dropdown), _("Operator"));
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

      g_signal_connect (factory, "setup", G_CALLBACK (setup_name), i == 0 ? self : NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_name), NULL);
      if (i == 0)
        gtk_drop_down_set_factory (self->name_dropdown, factory);
      else
        gtk_drop_down_set_list_factory (self->name_dropdown, factory);
    }
  build_suggestions (self);
}

GtkWidget *
embers_filter_bar_new (void)
{
  return g_object_new (EMBERS_TYPE_FILTER_BAR, NULL);
}

void
embers_filter_bar_set_source (EmbersFilterBar *self,
                              EmbersSource    *source)
{
  g_return_if_fail (EMBERS_IS_FILTER_BAR (self));
  g_return_if_fail (source == NULL || EMBERS_IS_SOURCE (source));

  if (!g_set_object (&self->source, source))
    return;
  load_names (self);
}

void
embers_filter_bar_set_scope (EmbersFilterBar *self,
                             const char      *scope,
                             gint64           start_ms,
                             gint64           end_ms)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (EMBERS_IS_FILTER_BAR (self));

  g_clear_pointer (&self->scope, embers_selector_unref);
  if (scope != NULL)
    {
      self->scope = embers_selector_parse (scope, NULL, &error);
      if (self->scope == NULL)
        g_warning ("Filter bar scope “%s”: %s", scope, error->message);
    }
  self->start_ms = start_ms;
  self->end_ms = end_ms;
  load_names (self);
}

EmbersSelector *
embers_filter_bar_get_filters (EmbersFilterBar *self)
{
  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), NULL);
  return self->filters;
}

void
embers_filter_bar_set_filters (EmbersFilterBar *self,
                               EmbersSelector  *filters)
{
  g_return_if_fail (EMBERS_IS_FILTER_BAR (self));

  embers_selector_unref (self->filters);
  self->filters = filters != NULL ? embers_selector_copy (filters) : embers_selector_new ();
  rebuild_chips (self);
  load_values (self);
}

gboolean
embers_filter_bar_add_filter (EmbersFilterBar  *self,
                              const char       *name,
                              EmbersMatchOp     op,
                              const char       *value,
                              GError          **error)
{
  g_autoptr(EmbersSelector) filters = NULL;

  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  filters = embers_selector_copy (self->filters);
  embers_selector_remove (filters, name);
  if (!embers_selector_add (filters, name, op, value != NULL ? value : "", error))
    return FALSE;
  embers_selector_unref (self->filters);
  self->filters = g_steal_pointer (&filters);
  filters_changed (self);
  return TRUE;
}

gboolean
embers_filter_bar_remove_filter (EmbersFilterBar *self,
                                 const char      *name)
{
  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), FALSE);

  if (embers_selector_remove (self->filters, name) == 0)
    return FALSE;
  filters_changed (self);
  return TRUE;
}

gboolean
embers_filter_bar_commit_pending (EmbersFilterBar  *self,
                                  GError          **error)
{
  const char *name;
  const char *value;
  guint op;

  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), FALSE);

  name = selected_name (self);
  value = gtk_editable_get_text (GTK_EDITABLE (self->value_entry));
  op = gtk_drop_down_get_selected (self->op_dropdown);
  if (name == NULL || value[0] == '\0' || op == GTK_INVALID_LIST_POSITION)
    return TRUE;
  if (!embers_filter_bar_add_filter (self, name, (EmbersMatchOp) op, value, error))
    return FALSE;
  gtk_widget_remove_css_class (GTK_WIDGET (self->value_entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->value_entry), NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->value_entry), "");
  return TRUE;
}

GtkDropDown *
embers_filter_bar_get_name_dropdown (EmbersFilterBar *self)
{
  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), NULL);
  return self->name_dropdown;
}

GtkEditable *
embers_filter_bar_get_value_entry (EmbersFilterBar *self)
{
  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), NULL);
  return GTK_EDITABLE (self->value_entry);
}

GListModel *
embers_filter_bar_get_names (EmbersFilterBar *self)
{
  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), NULL);
  return G_LIST_MODEL (self->names);
}

GListModel *
embers_filter_bar_get_values (EmbersFilterBar *self)
{
  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), NULL);
  return G_LIST_MODEL (self->values);
}

GListModel *
embers_filter_bar_get_suggestions (EmbersFilterBar *self)
{
  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), NULL);
  return G_LIST_MODEL (self->suggestions);
}

GtkPopover *
embers_filter_bar_get_suggestions_popover (EmbersFilterBar *self)
{
  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), NULL);
  return self->suggestions_popover;
}

gboolean
embers_filter_bar_get_loading (EmbersFilterBar *self)
{
  g_return_val_if_fail (EMBERS_IS_FILTER_BAR (self), FALSE);
  return self->names_cancellable != NULL || self->values_cancellable != NULL;
}
