/* embers-profile-page.c: one opened profile (a tab); the object, its
 * properties and the view's choices (see embers-profile-page-private.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "embers-accessible.h"
#include "embers-adaptive.h"
#include "embers-drop-down.h"
#include "embers-palette.h"
#include "embers-profile-page-private.h"
#include "embers-session.h"
#include "embers-transforms.h"

GParamSpec *embers_profile_page_properties[N_PAGE_PROPS];

G_DEFINE_FINAL_TYPE (EmbersProfilePage, embers_profile_page, ADW_TYPE_BREAKPOINT_BIN)

static const char * const view_names[] = { "icicle", "flame", "bottom-up", "sandwich", "call-tree" };
static const char * const color_names[] = { "package", "value", "plain" };
static int
find_name (const char * const *names,
           guint               n_names,
           const char         *name)
{
  for (guint i = 0; i < n_names; i++)
    if (g_strcmp0 (names[i], name) == 0)
      return i;
  return -1;
}

void
embers_profile_page_toast (EmbersProfilePage *self,
                           const char        *message)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-toast", "s", message);
}

void
embers_profile_page_set_state (EmbersProfilePage *self,
                               EmbersPageState    state)
{
  if (state == self->state)
    return;

  self->state = state;
  switch (state)
    {
    case EMBERS_PAGE_STATE_LOADING:
      gtk_stack_set_visible_child_name (self->stack, "loading");
      break;
    case EMBERS_PAGE_STATE_FAILED:
      gtk_stack_set_visible_child_name (self->stack, "error");
      break;
    case EMBERS_PAGE_STATE_READY:
      gtk_stack_set_visible_child_name (self->stack, "content");
      break;
    case EMBERS_PAGE_STATE_EMPTY:
    case EMBERS_PAGE_STATE_CANCELLED:
    default:
      break;
    }

  embers_profile_page_notify (self, PAGE_PROP_STATE);
}

void
embers_profile_page_set_title (EmbersProfilePage *self,
                               const char        *title)
{
  if (g_strcmp0 (title, self->title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  embers_profile_page_notify (self, PAGE_PROP_TITLE);
}

EmbersFlameGraph *
embers_profile_page_active_graph (EmbersProfilePage *self)
{
  if (self->view == EMBERS_VIEW_SANDWICH)
    {
      if (gtk_widget_has_focus (GTK_WIDGET (self->callers_graph)))
        return self->callers_graph;
      return self->callees_graph;
    }
  return self->graph;
}
static gboolean
collapses_recursion (EmbersProfilePage *self)
{
  return embers_transform_stack_find (self->transforms, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL) >= 0;
}

/* The tables' column widths are kept as they are, an a{si} (GSettings
 * maps no GVariant property by itself) */
static gboolean
widths_from_setting (GValue   *value,
                     GVariant *variant,
                     gpointer  user_data)
{
  g_value_set_variant (value, variant);
  return TRUE;
}

static GVariant *
widths_to_setting (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  GVariant *widths = g_value_get_variant (value);

  if (widths == NULL || !g_variant_is_of_type (widths, expected_type))
    return NULL;
  return g_variant_ref (widths);
}

/* View state */

EmbersView
embers_profile_page_get_view (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), EMBERS_VIEW_ICICLE);
  return self->view;
}

static gboolean
shows_table_profile (EmbersView view)
{
  return view == EMBERS_VIEW_ICICLE || view == EMBERS_VIEW_FLAME || view == EMBERS_VIEW_CALL_TREE;
}

void
embers_profile_page_set_view (EmbersProfilePage *self,
                              EmbersView         view)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (view <= EMBERS_VIEW_CALL_TREE);

  if (view == EMBERS_VIEW_SANDWICH && self->sandwich_function == NULL)
    {
      const char *name = embers_profile_page_default_function (self);

      if (name == NULL)
        {
          gtk_widget_error_bell (GTK_WIDGET (self));
          embers_profile_page_notify (self, PAGE_PROP_VIEW);
          return;
        }
      self->sandwich_function = g_strdup (name);
    }

  if (view == self->view)
    return;

  if (view == EMBERS_VIEW_ICICLE || view == EMBERS_VIEW_FLAME)
    self->last_tree_view = view;
  /* Icicle, flame graph and call tree show the same profile, the table's
   * after the transforms: between them, with that profile computed for
   * the transforms there are, the switch is the widgets' alone (a new
   * computation re-made the tables' rows and searched again: on 1M nodes
   * frames of 30-58 ms) */
  if (shows_table_profile (self->view) && shows_table_profile (view) && self->view_profile != NULL
      && self->view_profile == self->table_profile && self->partial_profile == NULL
      && !embers_profile_page_get_busy (self) && self->applied != NULL
      && embers_transform_stack_equal (self->applied, self->transforms))
    {
      self->view = view;
      embers_profile_page_show_view (self);
      embers_profile_page_update_actions (self);
      embers_profile_page_notify (self, PAGE_PROP_VIEW);
      return;
    }
  self->view = view;
  embers_profile_page_recompute (self);
  embers_profile_page_notify (self, PAGE_PROP_VIEW);
}

static void
set_collapse_recursion (EmbersProfilePage *self,
                        gboolean           collapse)
{
  int index = embers_transform_stack_find (self->transforms, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL);

  collapse = !!collapse;
  if (collapse == (index >= 0))
    return;

  if (collapse)
    embers_transform_stack_push (self->transforms, EMBERS_TRANSFORM_COLLAPSE_RECURSION, NULL, NULL);
  else
    embers_transform_stack_remove (self->transforms, index);
  embers_profile_page_update_chips (self);
  embers_profile_page_recompute (self);
  embers_profile_page_notify (self, PAGE_PROP_COLLAPSE_RECURSION);
  embers_profile_page_notify (self, PAGE_PROP_N_TRANSFORMS);
}

static void
set_colors (EmbersProfilePage *self,
            EmbersColorScheme  colors)
{
  if (colors == self->colors)
    return;

  self->colors = colors;
  embers_flame_graph_set_color_scheme (self->graph, colors);
  embers_flame_graph_set_color_scheme (self->callers_graph, colors);
  embers_flame_graph_set_color_scheme (self->callees_graph, colors);
  if (self->settings != NULL)
    g_settings_set_enum (self->settings, "flame-colors", colors);
  embers_profile_page_notify (self, PAGE_PROP_COLORS);
}

/* Diff views */

EmbersDiffPalette
embers_profile_page_get_diff_palette (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), EMBERS_DIFF_PALETTE_RED_BLUE);
  return self->diff_palette;
}

/* Every diff view follows the palette setting; the switch changes it */
void
embers_profile_page_set_diff_palette (EmbersProfilePage *self,
                                      EmbersDiffPalette  palette)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (palette <= EMBERS_DIFF_PALETTE_RED_GREEN);

  if (gtk_drop_down_get_selected (self->diff_palette_dropdown) != (guint) palette)
    gtk_drop_down_set_selected (self->diff_palette_dropdown, palette);
  if (palette == self->diff_palette)
    return;

  self->diff_palette = palette;
  embers_flame_graph_set_diff_palette (self->graph, palette);
  embers_flame_graph_set_diff_palette (self->callers_graph, palette);
  embers_flame_graph_set_diff_palette (self->callees_graph, palette);
  embers_call_tree_view_set_diff_palette (self->call_tree, palette);
  embers_diff_legend_set_palette (self->diff_legend, palette);
  if (self->settings != NULL && g_settings_get_enum (self->settings, "diff-palette") != (int) palette)
    g_settings_set_enum (self->settings, "diff-palette", palette);
}

EmbersDiffMode
embers_profile_page_get_diff_mode (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), EMBERS_DIFF_MODE_SHARE);
  return self->diff_mode;
}

void
embers_profile_page_set_diff_mode (EmbersProfilePage *self,
                                   EmbersDiffMode     mode)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (mode <= EMBERS_DIFF_MODE_ABSOLUTE);

  if (gtk_drop_down_get_selected (self->diff_mode_dropdown) != (guint) mode)
    gtk_drop_down_set_selected (self->diff_mode_dropdown, mode);
  if (mode == self->diff_mode)
    return;

  self->diff_mode = mode;
  embers_diff_table_set_mode (self->diff_table, mode);
  embers_flame_graph_set_diff_mode (self->graph, mode);
  embers_flame_graph_set_diff_mode (self->callers_graph, mode);
  embers_flame_graph_set_diff_mode (self->callees_graph, mode);
  embers_diff_legend_set_mode (self->diff_legend, mode);
}

EmbersDiffWidth
embers_profile_page_get_diff_width (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), EMBERS_DIFF_WIDTH_SUM);
  return self->diff_width;
}

void
embers_profile_page_set_diff_width (EmbersProfilePage *self,
                                    EmbersDiffWidth    width)
{
  guint position = width == EMBERS_DIFF_WIDTH_COMPARISON ? 1 : 0;

  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));

  if (width == EMBERS_DIFF_WIDTH_SUM || width == EMBERS_DIFF_WIDTH_COMPARISON)
    if (gtk_drop_down_get_selected (self->diff_width_dropdown) != position)
      gtk_drop_down_set_selected (self->diff_width_dropdown, position);
  if (width == self->diff_width)
    return;

  self->diff_width = width;
  embers_flame_graph_set_diff_width (self->graph, width);
  embers_flame_graph_set_diff_width (self->callers_graph, width);
  embers_flame_graph_set_diff_width (self->callees_graph, width);
}

static void
on_diff_palette_selected (EmbersProfilePage *self)
{
  guint selected = gtk_drop_down_get_selected (self->diff_palette_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION)
    embers_profile_page_set_diff_palette (self, selected == 1 ? EMBERS_DIFF_PALETTE_RED_GREEN
                                                              : EMBERS_DIFF_PALETTE_RED_BLUE);
}

static void
on_diff_mode_selected (EmbersProfilePage *self)
{
  guint selected = gtk_drop_down_get_selected (self->diff_mode_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION)
    embers_profile_page_set_diff_mode (self, selected == 1 ? EMBERS_DIFF_MODE_ABSOLUTE
                                                           : EMBERS_DIFF_MODE_SHARE);
}

static void
on_diff_width_selected (EmbersProfilePage *self)
{
  guint selected = gtk_drop_down_get_selected (self->diff_width_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION)
    embers_profile_page_set_diff_width (self, selected == 1 ? EMBERS_DIFF_WIDTH_COMPARISON
                                                            : EMBERS_DIFF_WIDTH_SUM);
}

static void
on_diff_palette_setting (EmbersProfilePage *self)
{
  embers_profile_page_set_diff_palette (self, g_settings_get_enum (self->settings, "diff-palette")
                                              == EMBERS_DIFF_PALETTE_RED_GREEN
                                              ? EMBERS_DIFF_PALETTE_RED_GREEN
                                              : EMBERS_DIFF_PALETTE_RED_BLUE);
}

EmbersDiffTable *
embers_profile_page_get_diff_table (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->diff_table;
}

EmbersDiffLegend *
embers_profile_page_get_diff_legend (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->diff_legend;
}

guint
embers_profile_page_get_sample_type (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), 0);
  return self->sample_type;
}

void
embers_profile_page_set_sample_type (EmbersProfilePage *self,
                                     guint              sample_type)
{
  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));

  if (self->profile == NULL || sample_type >= embers_profile_get_n_sample_types (self->profile))
    return;
  if (sample_type == self->sample_type)
    return;

  /* The drop-down follows through its binding (the template) */
  self->sample_type = sample_type;
  embers_profile_page_recompute (self);
  embers_profile_page_notify (self, PAGE_PROP_SAMPLE_TYPE);
}

/* The table above the graph (a narrow page) */
static gboolean
is_stacked (EmbersProfilePage *self)
{
  return gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned)) == GTK_ORIENTATION_VERTICAL;
}

/* A saved view on the profile just shown: its sample type, frame actions,
 * view and search now, its focus once the graph has the result */
void
embers_profile_page_apply_saved_view (EmbersProfilePage   *self,
                                      const EmbersSession *view)
{
  int type = view->sample_type != NULL ? embers_profile_find_sample_type (self->profile, view->sample_type) : -1;
  int mode = view->view != NULL ? find_name (view_names, G_N_ELEMENTS (view_names), view->view) : -1;

  if (type >= 0 && (guint) type != self->sample_type)
    {
      self->sample_type = type;
      embers_profile_page_notify (self, PAGE_PROP_SAMPLE_TYPE);
    }
  embers_transform_stack_free (self->transforms);
  self->transforms = embers_transform_stack_copy (view->transforms);
  embers_profile_page_update_chips (self);
  g_free (self->sandwich_function);
  self->sandwich_function = g_strdup (view->sandwich);
  if (mode == EMBERS_VIEW_SANDWICH && self->sandwich_function == NULL)
    mode = -1;
  if (mode >= 0)
    {
      self->view = mode;
      if (mode == EMBERS_VIEW_ICICLE || mode == EMBERS_VIEW_FLAME)
        self->last_tree_view = mode;
    }
  g_strfreev (self->pending_focus);
  self->pending_focus = g_strdupv (view->focus);
  if (view->search != NULL)
    embers_profile_page_set_search (self, view->search, view->search_regex, view->search_case_sensitive);
}

/* Getters */

GFile *
embers_profile_page_get_file (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->file;
}

const char *
embers_profile_page_get_title (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->title;
}

EmbersPageState
embers_profile_page_get_state (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), EMBERS_PAGE_STATE_EMPTY);
  return self->state;
}

const char *
embers_profile_page_get_error (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->error;
}

EmbersProfile *
embers_profile_page_get_profile (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->profile;
}

gboolean
embers_profile_page_get_busy (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), FALSE);
  return self->state == EMBERS_PAGE_STATE_LOADING || self->pulse_id != 0;
}

gboolean
embers_profile_page_get_search_pending (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), FALSE);
  return self->search_serial != self->search_serial_done;
}

EmbersFlameGraph *
embers_profile_page_get_flame_graph (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return embers_profile_page_active_graph (self);
}

EmbersTopTable *
embers_profile_page_get_top_table (EmbersProfilePage *self)
{
  g_return_val_if_fail (EMBERS_IS_PROFILE_PAGE (self), NULL);
  return self->top_table;
}

/* GObject */

static void
embers_profile_page_dispose (GObject *object)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (object);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->compute_cancellable != NULL)
    g_cancellable_cancel (self->compute_cancellable);
  g_clear_object (&self->details);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->compute_cancellable);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  embers_profile_page_stop_load (self);
  if (self->search_cancellable != NULL)
    g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  self->search_serial++;
  /* A transform still running finishes on a page without widgets: make
   * its result stale so that it is dropped */
  self->compute_serial++;

  /* The bin lets go of its child before the template does */
  adw_breakpoint_bin_set_child (ADW_BREAKPOINT_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_PROFILE_PAGE);

  g_clear_pointer (&self->table_search, embers_search_unref);
  g_clear_object (&self->profile);
  g_clear_object (&self->partial_profile);
  g_clear_object (&self->table_profile);
  g_clear_object (&self->view_profile);
  g_clear_object (&self->callers_profile);
  g_clear_object (&self->callees_profile);
  g_clear_object (&self->file);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (embers_profile_page_parent_class)->dispose (object);
}

static void
embers_profile_page_finalize (GObject *object)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (object);

  g_clear_pointer (&self->transforms, embers_transform_stack_free);
  g_clear_pointer (&self->applied, embers_transform_stack_free);
  g_clear_pointer (&self->pending_view, embers_session_free);
  g_clear_pointer (&self->pending_focus, g_strfreev);
  g_free (self->title);
  g_free (self->error);
  g_free (self->sandwich_function);
  g_free (self->hottest_function);
  g_free (self->search_text);
  g_free (self->summary);

  G_OBJECT_CLASS (embers_profile_page_parent_class)->finalize (object);
}

static void
embers_profile_page_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (object);

  switch (prop_id)
    {
    case PAGE_PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PAGE_PROP_STATE:
      g_value_set_uint (value, self->state);
      break;
    case PAGE_PROP_BUSY:
      g_value_set_boolean (value, embers_profile_page_get_busy (self));
      break;
    case PAGE_PROP_VIEW:
      g_value_set_string (value, view_names[self->view]);
      break;
    case PAGE_PROP_COLLAPSE_RECURSION:
      g_value_set_boolean (value, collapses_recursion (self));
      break;
    case PAGE_PROP_N_TRANSFORMS:
      g_value_set_uint (value, embers_transform_stack_get_length (self->transforms));
      break;
    case PAGE_PROP_COLORS:
      g_value_set_string (value, color_names[self->colors]);
      break;
    case PAGE_PROP_SAMPLE_TYPE:
      g_value_set_uint (value, self->sample_type);
      break;
    case PAGE_PROP_SEARCH_SUMMARY:
      g_value_set_string (value, embers_profile_page_get_search_summary (self));
      break;
    case PAGE_PROP_SEARCH_REGEX:
      g_value_set_boolean (value, self->search_regex);
      break;
    case PAGE_PROP_PARTIAL:
      g_value_set_boolean (value, self->partial_profile != NULL);
      break;
    case PAGE_PROP_SEARCH_CASE_SENSITIVE:
      g_value_set_boolean (value, self->search_case_sensitive);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_profile_page_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (object);
  int index;

  switch (prop_id)
    {
    case PAGE_PROP_VIEW:
      index = find_name (view_names, G_N_ELEMENTS (view_names), g_value_get_string (value));
      if (index >= 0)
        embers_profile_page_set_view (self, index);
      break;
    case PAGE_PROP_COLLAPSE_RECURSION:
      set_collapse_recursion (self, g_value_get_boolean (value));
      break;
    case PAGE_PROP_COLORS:
      index = find_name (color_names, G_N_ELEMENTS (color_names), g_value_get_string (value));
      if (index >= 0)
        set_colors (self, index);
      break;
    case PAGE_PROP_SAMPLE_TYPE:
      embers_profile_page_set_sample_type (self, g_value_get_uint (value));
      break;
    case PAGE_PROP_SEARCH_REGEX:
    case PAGE_PROP_SEARCH_CASE_SENSITIVE:
      embers_profile_page_set_search_flag (self, prop_id, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The toolbar's breakpoint follows the toolbar's measured width at every
 * allocation, before the bin picks its breakpoint: a style that changes
 * later (a theme, fonts, a widget whose first instance loads CSS) would
 * leave a measure taken earlier too narrow. Measures are cached by GTK:
 * cheap when nothing changed */
static void
embers_profile_page_size_allocate (GtkWidget *widget,
                                   int        width,
                                   int        height,
                                   int        baseline)
{
  EmbersProfilePage *self = EMBERS_PROFILE_PAGE (widget);

  embers_adaptive_update (self->toolbar_breakpoint);
  GTK_WIDGET_CLASS (embers_profile_page_parent_class)->size_allocate (widget, width, height, baseline);
}

static void
embers_profile_page_class_init (EmbersProfilePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_profile_page_dispose;
  object_class->finalize = embers_profile_page_finalize;
  object_class->get_property = embers_profile_page_get_property;
  object_class->set_property = embers_profile_page_set_property;
  widget_class->size_allocate = embers_profile_page_size_allocate;

  embers_profile_page_properties[PAGE_PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_STATE] =
    g_param_spec_uint ("state", NULL, NULL,
                       EMBERS_PAGE_STATE_EMPTY, EMBERS_PAGE_STATE_CANCELLED, EMBERS_PAGE_STATE_EMPTY,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_VIEW] =
    g_param_spec_string ("view", NULL, NULL,
                         "icicle",
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_COLLAPSE_RECURSION] =
    g_param_spec_boolean ("collapse-recursion", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_COLORS] =
    g_param_spec_string ("colors", NULL, NULL,
                         "package",
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_SAMPLE_TYPE] =
    g_param_spec_uint ("sample-type", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_N_TRANSFORMS] =
    g_param_spec_uint ("n-transforms", NULL, NULL,
                       0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_SEARCH_SUMMARY] =
    g_param_spec_string ("search-summary", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_SEARCH_REGEX] =
    g_param_spec_boolean ("search-regex", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_SEARCH_CASE_SENSITIVE] =
    g_param_spec_boolean ("search-case-sensitive", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  embers_profile_page_properties[PAGE_PROP_PARTIAL] =
    g_param_spec_boolean ("partial", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PAGE_PROPS, embers_profile_page_properties);

  g_type_ensure (EMBERS_TYPE_FLAME_GRAPH);
  g_type_ensure (EMBERS_TYPE_CALL_TREE_VIEW);
  g_type_ensure (EMBERS_TYPE_TRANSFORM_BAR);
  g_type_ensure (EMBERS_TYPE_TOP_TABLE);
  g_type_ensure (EMBERS_TYPE_DIFF_TABLE);
  g_type_ensure (EMBERS_TYPE_DIFF_LEGEND);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-profile-page.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, loading_page);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, error_page);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, load_progress);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, partial_banner);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, transform_bar);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, sample_type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, sample_types);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, search_bar);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, regex_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, case_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, search_summary);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, paned);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, top_table);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, table_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_table);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_bar);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_legend);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_palette_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, diff_width_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, colors_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, view_menu_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, view_menu);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, colors_menu);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, split_breakpoint);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, narrow_breakpoint);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, toolbar_breakpoint);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, toolbar);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, view_switch);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, graph);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, call_tree);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, callers_graph);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, callees_graph);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, callers_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, callees_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersProfilePage, busy_bar);
  embers_profile_page_class_init_view (widget_class);
  embers_profile_page_class_init_actions (widget_class);

  gtk_widget_class_set_css_name (widget_class, "profilepage");
}

/* ---- Narrow windows ---- */

/* The toolbar's view menu (shown instead of the view buttons when they do
 * not fit) names the current view */
static void
update_view_menu_button (EmbersProfilePage *self)
{
  static const char * const labels[] = {
    [EMBERS_VIEW_ICICLE] = NC_("view", "_Icicle"),
    [EMBERS_VIEW_FLAME] = NC_("view", "_Flame Graph"),
    [EMBERS_VIEW_BOTTOM_UP] = NC_("view", "_Bottom-Up"),
    [EMBERS_VIEW_SANDWICH] = NC_("view", "_Sandwich"),
    [EMBERS_VIEW_CALL_TREE] = NC_("view", "Call _Tree"),
  };

  gtk_label_set_text_with_mnemonic (self->view_menu_label,
                                    g_dpgettext2 (GETTEXT_PACKAGE, "view", labels[self->view]));
}

/* The split beside a diff leaves room for every column of the diff table
 * (measured once its rows exist), as long as the graph keeps half of the
 * page: the diff is the answer; the table scrolls sideways for the rest */
gboolean
embers_profile_page_fit_diff_table (GtkWidget     *paned,
                                    GdkFrameClock *clock,
                                    gpointer       data)
{
  EmbersProfilePage *self = data;
  int min = 0;
  int limit;

  gtk_widget_measure (GTK_WIDGET (embers_diff_table_get_column_view (self->diff_table)),
                      GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  limit = gtk_widget_get_width (paned) / 2;
  if (limit > 0)
    min = MIN (min, limit);
  if (is_stacked (self))
    self->wide_position = limit > 0 ? CLAMP (self->wide_position, min, limit) : MAX (self->wide_position, min);
  else if (gtk_paned_get_position (self->paned) < min ||
           (limit > 0 && gtk_paned_get_position (self->paned) > limit))
    gtk_paned_set_position (self->paned, min);

  return --self->fit_diff_frames > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* Stacked (a narrow page), the table is above the graph and the graph gets
 * most of the height; side by side again, the split is where it was. Set
 * on the frame after the fold: GtkPaned scales its position by the change
 * of its size, which across an orientation change means nothing. */
static gboolean
place_split (GtkWidget     *paned,
             GdkFrameClock *clock,
             gpointer       data)
{
  EmbersProfilePage *self = data;
  int height = gtk_widget_get_height (paned);

  /* Stacked, the graph keeps most of the height: a diff's table (its
   * rows are the same functions as the graph's) a fifth but at least its
   * least height (its header and rows, not cut), a profile's a quarter;
   * the handle drags either */
  if (is_stacked (self) && embers_profile_page_is_diff (self))
    {
      int least = embers_diff_table_get_least_height (self->diff_table, 2);

      gtk_paned_set_position (self->paned, height <= 0 ? 100 : MAX (height / 5, least));
    }
  else if (is_stacked (self))
    gtk_paned_set_position (self->paned, height <= 0 ? 100 : height / 4);
  else if (self->wide_position > 0)
    gtk_paned_set_position (self->paned, self->wide_position);
  return G_SOURCE_REMOVE;
}

static void
on_split_changed (EmbersProfilePage *self)
{
  gboolean stacked = is_stacked (self);

  if (stacked == self->stacked)
    return;
  self->stacked = stacked;
  if (stacked)
    self->wide_position = gtk_paned_get_position (self->paned);
  gtk_widget_add_tick_callback (GTK_WIDGET (self->paned), place_split, self, NULL);
}

/* GtkSearchBar's close button is an icon without a name or tooltip (GTK 4.18) */
static void
name_search_close_button (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_BUTTON (child) &&
          g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (child)), "window-close-symbolic") == 0)
        gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        _("Close Search"), -1);
      else if (!GTK_IS_SEARCH_ENTRY (child))
        name_search_close_button (child);
    }
}

static void
set_menu_on_popup (GtkMenuButton *button,
                   gpointer       model)
{
  if (gtk_menu_button_get_popover (button) == NULL)
    gtk_menu_button_set_menu_model (button, model);
}

static void
embers_profile_page_init (EmbersProfilePage *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  self->transforms = embers_transform_stack_new ();
  self->view = EMBERS_VIEW_ICICLE;
  self->last_tree_view = EMBERS_VIEW_ICICLE;

  gtk_widget_init_template (GTK_WIDGET (self));
  embers_profile_page_setup_details (self);
  /* The menus' popovers are made when first opened: a tab's opening
   * skips building their rows */
  gtk_menu_button_set_create_popup_func (self->view_menu_button, set_menu_on_popup, self->view_menu, NULL);
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (self->colors_button), set_menu_on_popup, self->colors_menu, NULL);
  /* A sandwich's halves have the function at their root: their shares
   * are of the function, not of the profile's total */
  embers_flame_graph_set_share_of (self->callers_graph, _("of the function"));
  embers_flame_graph_set_share_of (self->callees_graph, _("of the function"));

  /* The drop-downs' names, for their buttons too; the search bar's close
   * button */
  embers_accessible_set_label (GTK_WIDGET (self->sample_type_dropdown), _("Sample Type"));
  embers_accessible_set_label (GTK_WIDGET (self->diff_width_dropdown), _("Frame Widths"));
  embers_accessible_set_label (GTK_WIDGET (self->diff_mode_dropdown), _("Color Frames By"));
  embers_accessible_set_label (GTK_WIDGET (self->diff_palette_dropdown), _("Diff Colors"));
  name_search_close_button (GTK_WIDGET (self->search_bar));

  /* The diff table's columns scroll sideways rather than hold the page
   * wide (it gets its width beside the graph, see show_profile) */
  {
    GtkWidget *diff_scroller = gtk_widget_get_parent (GTK_WIDGET (embers_diff_table_get_column_view (self->diff_table)));

    if (GTK_IS_SCROLLED_WINDOW (diff_scroller))
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (diff_scroller),
                                      GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  }

  /* The view menu's button: the view's name, shortened when the toolbar
   * is narrow, and the arrow */
  {
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *label = gtk_label_new (NULL);

    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
    gtk_label_set_width_chars (GTK_LABEL (label), 6);
    gtk_label_set_xalign (GTK_LABEL (label), 0);
    gtk_box_append (GTK_BOX (box), label);
    gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("pan-down-symbolic"));
    gtk_menu_button_set_child (self->view_menu_button, box);
    gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->view_menu_button));
    self->view_menu_label = GTK_LABEL (label);
  }
  update_view_menu_button (self);
  g_signal_connect (self, "notify::view", G_CALLBACK (update_view_menu_button), NULL);
  /* The view buttons where the toolbar fits with them, else the menu */
  embers_adaptive_follow_width (self->toolbar_breakpoint, self->toolbar, self->view_switch, "buttons");
  /* The breakpoints turn the split: the table above the graph or beside */
  g_signal_connect_object (self->paned, "notify::orientation",
                           G_CALLBACK (on_split_changed), self, G_CONNECT_SWAPPED);
  /* A long sample type shortens on its button in a narrow toolbar */
  embers_drop_down_shorten_on_button (self->sample_type_dropdown);

  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  g_signal_connect_object (self->diff_palette_dropdown, "notify::selected",
                           G_CALLBACK (on_diff_palette_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->diff_mode_dropdown, "notify::selected",
                           G_CALLBACK (on_diff_mode_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->diff_width_dropdown, "notify::selected",
                           G_CALLBACK (on_diff_width_selected), self, G_CONNECT_SWAPPED);

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema != NULL)
    {
      self->settings = g_settings_new (APP_ID);
      set_colors (self, g_settings_get_enum (self->settings, "flame-colors"));
      on_diff_palette_setting (self);
      g_signal_connect_object (self->settings, "changed::diff-palette",
                               G_CALLBACK (on_diff_palette_setting), self, G_CONNECT_SWAPPED);
      /* Widths the user dragged the columns to, kept across tabs and runs */
      g_settings_bind_with_mapping (self->settings, "top-table-columns", self->top_table, "column-widths",
                                    G_SETTINGS_BIND_DEFAULT, widths_from_setting, widths_to_setting, NULL, NULL);
      g_settings_bind_with_mapping (self->settings, "diff-table-columns", self->diff_table, "column-widths",
                                    G_SETTINGS_BIND_DEFAULT, widths_from_setting, widths_to_setting, NULL, NULL);
    }

  embers_profile_page_update_actions (self);
}

EmbersProfilePage *
embers_profile_page_new (void)
{
  return g_object_new (EMBERS_TYPE_PROFILE_PAGE, NULL);
}

/* Saved views (embers-session.h) */

void
embers_profile_page_save_view (EmbersProfilePage *self,
                               EmbersSession     *session)
{
  guint32 focus;

  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (session != NULL);

  g_free (session->view);
  session->view = g_strdup (view_names[self->view]);
  g_free (session->sample_type);
  session->sample_type = self->profile != NULL && !embers_profile_is_diff (self->profile)
                         ? g_strdup (embers_profile_get_sample_type (self->profile, self->sample_type))
                         : NULL;
  g_free (session->sandwich);
  session->sandwich = self->view == EMBERS_VIEW_SANDWICH ? g_strdup (self->sandwich_function) : NULL;
  embers_transform_stack_free (session->transforms);
  session->transforms = embers_transform_stack_copy (self->transforms);

  /* The main graph's zoomed frame, by its path */
  g_clear_pointer (&session->focus, g_strfreev);
  focus = embers_flame_graph_get_focus_node (self->graph);
  if (self->view != EMBERS_VIEW_SANDWICH && self->view_profile != NULL && focus != 0 &&
      focus != EMBERS_NODE_NONE)
    {
      GPtrArray *path = g_ptr_array_new ();

      for (guint32 n = focus; n != 0 && n != EMBERS_NODE_NONE; n = embers_profile_node_parent (self->view_profile, n))
        g_ptr_array_insert (path, 0, g_strdup (embers_profile_node_name_str (self->view_profile, n)));
      g_ptr_array_add (path, NULL);
      session->focus = (GStrv)g_ptr_array_free (path, FALSE);
    }

  g_free (session->search);
  session->search = self->search_text != NULL && self->search_text[0] != '\0' ? g_strdup (self->search_text) : NULL;
  session->search_regex = self->search_regex;
  session->search_case_sensitive = self->search_case_sensitive;
}

void
embers_profile_page_restore_view (EmbersProfilePage   *self,
                                  const EmbersSession *session)
{
  EmbersSession *copy;

  g_return_if_fail (EMBERS_IS_PROFILE_PAGE (self));
  g_return_if_fail (session != NULL);

  copy = embers_session_new ();
  copy->view = g_strdup (session->view);
  copy->sample_type = g_strdup (session->sample_type);
  copy->sandwich = g_strdup (session->sandwich);
  embers_transform_stack_free (copy->transforms);
  copy->transforms = embers_transform_stack_copy (session->transforms);
  copy->focus = g_strdupv (session->focus);
  copy->search = g_strdup (session->search);
  copy->search_regex = session->search_regex;
  copy->search_case_sensitive = session->search_case_sensitive;

  if (self->state == EMBERS_PAGE_STATE_READY && self->profile != NULL)
    {
      embers_profile_page_apply_saved_view (self, copy);
      embers_session_free (copy);
      embers_profile_page_recompute (self);
      embers_profile_page_notify (self, PAGE_PROP_VIEW);
      embers_profile_page_notify (self, PAGE_PROP_N_TRANSFORMS);
      embers_profile_page_notify (self, PAGE_PROP_COLLAPSE_RECURSION);
      return;
    }
  g_clear_pointer (&self->pending_view, embers_session_free);
  self->pending_view = copy;
}
