/* embers-details-panel.c: the selected function's lines, source and calls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-details-panel-private.h"
#include "embers-source-files.h"
#include "embers-units.h"

G_DEFINE_FINAL_TYPE (EmbersDetailsPanel, embers_details_panel, GTK_TYPE_WIDGET)

static GParamSpec *properties[EMBERS_DETAILS_PANEL_N_PROPS];

enum {
  FUNCTION_ACTIVATED,
  CLOSE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];


/* ---- Busy ---- */

void
embers_details_panel_notify (EmbersDetailsPanel *self,
                             guint               prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

void
embers_details_panel_begin (EmbersDetailsPanel *self)
{
  if (self->pending++ == 0 && self->holds == 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[EMBERS_DETAILS_PANEL_PROP_BUSY]);
}

void
embers_details_panel_end (EmbersDetailsPanel *self)
{
  g_return_if_fail (self->pending > 0);
  if (--self->pending > 0)
    return;
  /* A root added meanwhile: look again, now that nothing runs */
  if (self->find_again && self->details != NULL)
    {
      self->find_again = FALSE;
      embers_details_panel_find_source (self);
      if (self->pending > 0)
        return;
    }
  if (self->holds == 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[EMBERS_DETAILS_PANEL_PROP_BUSY]);
}

/* ---- Header and lists ---- */

static char *
value_and_share (EmbersDetailsPanel *self,
                 gint64              value)
{
  g_autofree char *v = embers_format_value (value, self->unit);
  g_autofree char *p = NULL;
  gint64 all = self->details != NULL ? self->details->profile_total : 0;

  if (all <= 0)
    return g_steal_pointer (&v);
  p = embers_format_percent ((double)value / (double)all);
  /* Translators: a value and its share of the profile, "12.5 ms (3.2%)" */
  return g_strdup_printf (C_("value", "%s (%s)"), v, p);
}

static void
clear_list (GtkListBox *list)
{
  gtk_list_box_remove_all (list);
}

static GtkWidget *
row_new (const char *start,
         const char *middle,
         const char *end_text,
         const char *accessible)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label;

  gtk_widget_set_margin_start (box, 10);
  gtk_widget_set_margin_end (box, 10);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);

  label = gtk_label_new (start);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), label);

  if (middle != NULL)
    {
      label = gtk_label_new (middle);
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_widget_add_css_class (label, "numeric");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (box), label);
    }
  label = gtk_label_new (end_text);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_box_append (GTK_BOX (box), label);

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_widget_set_tooltip_text (row, accessible);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible, -1);
  return row;
}

static void
placeholder (GtkListBox *list,
             const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 12);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_list_box_set_placeholder (list, label);
}

static void
fill_calls (EmbersDetailsPanel *self,
            GtkListBox         *list,
            GArray             *edges)
{
  clear_list (list);
  for (guint i = 0; i < edges->len; i++)
    {
      const EmbersFunctionEdge *e = &g_array_index (edges, EmbersFunctionEdge, i);
      g_autofree char *value = value_and_share (self, e->value);
      /* Translators: a caller or callee and the value through it, for screen readers */
      g_autofree char *accessible = g_strdup_printf (_("%s, %s"), e->name, value);
      GtkWidget *row = row_new (e->name, NULL, value, accessible);

      g_object_set_data_full (G_OBJECT (row), "function", g_strdup (e->name), g_free);
      gtk_list_box_append (list, row);
    }
}

static void update_view_note (EmbersDetailsPanel *self);

static void
update_details (EmbersDetailsPanel *self)
{
  EmbersFunctionDetails *d = self->details;
  g_autofree char *self_text = NULL;
  g_autofree char *total_text = NULL;
  g_autofree char *summary = NULL;

  gtk_label_set_label (self->name_label, d->name);
  if (d->file[0] != '\0' && d->start_line > 0)
    {
      g_autofree char *text = g_strdup_printf ("%s:%" G_GINT64_FORMAT, d->file, d->start_line);

      gtk_label_set_label (self->file_label, text);
    }
  else
    gtk_label_set_label (self->file_label, d->file[0] != '\0' ? d->file : _("No file in the profile"));

  self_text = value_and_share (self, d->self);
  total_text = value_and_share (self, d->total);
  /* Translators: the function's self and total values */
  summary = g_strdup_printf (_("Self %s · Total %s"), self_text, total_text);
  gtk_label_set_label (self->summary_label, summary);

  clear_list (self->lines_list);
  for (guint i = 0; i < d->lines->len; i++)
    {
      const EmbersLineCost *l = &g_array_index (d->lines, EmbersLineCost, i);
      g_autofree char *line = l->line > 0
        ? g_strdup_printf (_("Line %d"), (int)MIN (l->line, G_MAXINT)) : g_strdup (_("Unknown line"));
      g_autofree char *s = embers_format_value (l->self, self->unit);
      g_autofree char *t = value_and_share (self, l->total);
      /* Translators: for screen readers: "Line 12, self 3 ms, total 5 ms (1.2%)" */
      g_autofree char *accessible = g_strdup_printf (_("%s, self %s, total %s"), line, s, t);
      GtkWidget *row = row_new (line, s, t, accessible);

      g_object_set_data (G_OBJECT (row), "line", GINT_TO_POINTER ((int)MIN (l->line, G_MAXINT)));
      gtk_list_box_append (self->lines_list, row);
    }
  placeholder (self->lines_list, d->has_lines
               ? _("No line of this function has samples")
               : _("This profile has no line numbers"));

  fill_calls (self, self->callers_list, d->callers);
  fill_calls (self, self->callees_list, d->callees);
  placeholder (self->callers_list, _("No callers"));
  placeholder (self->callees_list, _("No callees"));

  embers_cost_gutter_set_costs (self->gutter, d, self->unit);
  update_view_note (self);
}

/* What the figures are of, when the view is not the data as recorded */
static void
update_view_note (EmbersDetailsPanel *self)
{
  g_autofree char *note = NULL;
  guint n = self->transforms != NULL ? embers_transform_stack_get_length (self->transforms) : 0;

  if (self->server_note != NULL)
    note = g_strdup (self->server_note);
  else if (n > 0 && self->details != NULL && self->details->lines_inexact)
    note = g_strdup (_("A collapse in the transforms merges frames of this function: "
                       "which line each merged frame stands for is not known, so the per-line figures are approximate."));
  else if (n > 0)
    /* Translators: %u is the number of transforms (frame actions) applied */
    note = g_strdup_printf (ngettext ("Counted over the view, after its transform.",
                               "Counted over the view, after its %u transforms.", n), n);

  if (g_strcmp0 (note, embers_details_panel_get_view_note (self)) == 0)
    return;
  gtk_label_set_label (self->view_note, note != NULL ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->view_note), note != NULL);
  embers_details_panel_notify (self, EMBERS_DETAILS_PANEL_PROP_VIEW_NOTE);
}

/* What the figures are of: the function wherever it is called (a file's
 * lines, the tree's figures), or one call site, the stack a server was
 * asked about (the selected frame's) */
static void
update_scope (EmbersDetailsPanel *self)
{
  guint n = self->shown_site != NULL ? g_strv_length (self->shown_site) : 0;
  g_autoptr(GString) path = g_string_new (NULL);
  g_autofree char *text = NULL;
  g_autofree char *tip = NULL;

  if (self->n_cut > 0)
    {
      g_autofree char *cut = g_strdup_printf (ngettext ("Not a function: the work the server’s answer cut at its node limit, in %u place.",
                                                        "Not a function: the work the server’s answer cut at its node limit, in %u places.",
                                                        self->n_cut), self->n_cut);

      gtk_label_set_label (self->scope_label, cut);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope_label),
                                   _("Select an “other” frame and use Load More (L) to see what it holds, or raise Nodes"));
      return;
    }
  if (n == 0)
    {
      gtk_label_set_label (self->scope_label, _("All calls of this function, from every caller"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope_label),
                                   _("The figures add up every frame of this function in the view"));
      return;
    }
  /* The last frames of the stack: the callers nearest the function */
  if (n > 3)
    g_string_append (path, "… › ");
  for (guint i = n > 3 ? n - 3 : 0; i < n; i++)
    {
      g_string_append (path, self->shown_site[i]);
      if (i + 1 < n)
        g_string_append (path, " › ");
    }
  /* Translators: %s is a call stack, callers first: "… › main.run › main.work" */
  text = g_strdup_printf (_("At the selected call site: %s"), path->str);
  gtk_label_set_label (self->scope_label, text);
  {
    g_autofree char *whole = g_strjoinv (" › ", self->shown_site);

    /* Translators: %s is the whole call stack, root first */
    tip = g_strdup_printf (_("The figures are of this stack only, as the server gives them: %s"), whole);
  }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope_label), tip);
}

static void
on_details_loaded (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  EmbersDetailsPanel *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersFunctionDetails) d = embers_function_details_load_finish (result, &error);

  if (d == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }
  if (d != NULL)
    {
      g_clear_pointer (&self->details, embers_function_details_unref);
      self->details = g_steal_pointer (&d);
      update_details (self);
    }
  /* else: not pprof, or unreadable now: the tree's details stay */
  embers_details_panel_find_source (self);
  embers_details_panel_end (self);
  g_object_unref (self);
}

typedef struct
{
  EmbersDetailsPanel *self;
  GStrv               site;
} SiteAnswer;

static void
site_answer_free (SiteAnswer *answer)
{
  g_object_unref (answer->self);
  g_strfreev (answer->site);
  g_free (answer);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SiteAnswer, site_answer_free)

/* A server's answer for one call site: the figures are that stack's */
static void
on_site_details_loaded (GObject      *source,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(SiteAnswer) answer = user_data;
  EmbersDetailsPanel *self = answer->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersFunctionDetails) d = embers_function_details_load_finish (result, &error);

  /* A newer frame or function took over (and settled what was pending) */
  if (d == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->site_computing = FALSE;
  if (d != NULL)
    {
      /* Shares of the whole view, as the tree's figures were: the
       * answer's own total is the call site's, always 100% */
      if (self->profile != NULL)
        d->profile_total = embers_profile_get_total (self->profile, self->sample_type);
      g_clear_pointer (&self->details, embers_function_details_unref);
      self->details = g_steal_pointer (&d);
      g_strfreev (self->shown_site);
      self->shown_site = g_steal_pointer (&answer->site);
      update_details (self);
      update_scope (self);
    }
  embers_details_panel_find_source (self);
  embers_details_panel_end (self);
}

/* ---- Public ---- */

void
embers_details_panel_show_function (EmbersDetailsPanel *self,
                                    EmbersProfile      *profile,
                                    guint               sample_type,
                                    const char         *name,
                                    GFile              *file)
{
  embers_details_panel_show_view_function (self, profile, NULL, sample_type, name, file);
}

void
embers_details_panel_show_view_function (EmbersDetailsPanel         *self,
                                         EmbersProfile              *profile,
                                         const EmbersTransformStack *view,
                                         guint                       sample_type,
                                         const char                 *name,
                                         GFile                      *file)
{
  const char *ref;

  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  g_return_if_fail (EMBERS_IS_PROFILE (profile));
  g_return_if_fail (name != NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_cancellable_cancel (self->site_cancellable);
  g_clear_object (&self->site_cancellable);
  self->site_computing = FALSE;
  self->find_again = FALSE;
  if (self->pending > 0)
    {
      self->pending = 0;
      if (self->holds == 0)
        g_object_notify_by_pspec (G_OBJECT (self), properties[EMBERS_DETAILS_PANEL_PROP_BUSY]);
    }

  g_set_object (&self->profile, profile);
  self->sample_type = sample_type;
  g_free (self->name);
  self->name = g_strdup (name);
  /* The frame is told next (set_call_site), and always notified */
  g_clear_pointer (&self->call_site, g_strfreev);
  g_clear_pointer (&self->shown_site, g_strfreev);
  self->site_asked = FALSE;
  g_set_object (&self->file, file);
  g_free (self->unit);
  self->unit = g_strdup (embers_profile_get_sample_unit (profile, sample_type));
  g_clear_pointer (&self->found, g_ptr_array_unref);
  if (view != self->transforms)
    {
      g_clear_pointer (&self->transforms, embers_transform_stack_free);
      if (view != NULL && embers_transform_stack_get_length (view) > 0)
        self->transforms = embers_transform_stack_copy (view);
    }
  g_clear_pointer (&self->server_note, g_free);

  ref = embers_details_panel_profile_git_ref (profile);
  g_free (self->git_ref);
  self->git_ref = g_strdup (ref);
  if (ref != NULL)
    {
      /* Translators: %s is a git commit, branch or tag */
      g_autofree char *text = g_strdup_printf (_("Profiled at %s"), ref);

      gtk_label_set_label (self->ref_label, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->ref_label), ref != NULL);
  embers_details_panel_set_git_warning (self, NULL);

  g_clear_pointer (&self->details, embers_function_details_unref);
  self->details = embers_function_details_new_from_profile (profile, name, sample_type);
  update_details (self);
  update_scope (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[EMBERS_DETAILS_PANEL_PROP_FUNCTION]);

  if (file != NULL)
    {
      embers_details_panel_begin (self);
      embers_details_panel_show_no_source (self, _("Reading Lines…"), NULL);
      embers_function_details_load_view_async (file, name, sample_type, self->transforms, self->cancellable,
                                               on_details_loaded, g_object_ref (self));
    }
  else
    embers_details_panel_find_source (self);
}

void
embers_details_panel_set_pprof (EmbersDetailsPanel *self,
                                const char         *name,
                                GBytes             *pprof,
                                guint               sample_type)
{
  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (pprof != NULL);

  /* Late: the panel shows another function by now */
  if (g_strcmp0 (name, self->name) != 0)
    return;

  /* The server's stacks through the call site, seen through the view */
  {
    SiteAnswer *answer = g_new0 (SiteAnswer, 1);

    answer->self = g_object_ref (self);
    answer->site = g_strdupv (self->call_site);
    if (self->site_cancellable == NULL)
      self->site_cancellable = g_cancellable_new ();
    self->site_computing = TRUE;
    embers_details_panel_begin (self);
    embers_function_details_compute_view_async (pprof, name, sample_type, self->transforms, self->site_cancellable,
                                                on_site_details_loaded, answer);
  }
}

static gboolean
same_site (const char * const *a,
           const char * const *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return g_strv_equal (a, b);
}

void
embers_details_panel_set_call_site (EmbersDetailsPanel *self,
                                    const char * const *call_site)
{
  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));

  /* The very frame shown: nothing to ask again */
  if (self->site_asked && same_site ((const char * const *)self->call_site, call_site))
    return;
  /* An answer for the frame before is no longer wanted */
  if (self->site_cancellable != NULL)
    {
      g_cancellable_cancel (self->site_cancellable);
      g_clear_object (&self->site_cancellable);
    }
  if (self->site_computing)
    {
      self->site_computing = FALSE;
      embers_details_panel_end (self);
    }
  g_strfreev (self->call_site);
  self->call_site = g_strdupv ((char **)call_site);
  self->site_asked = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[EMBERS_DETAILS_PANEL_PROP_CALL_SITE]);
}

const char * const *
embers_details_panel_get_call_site (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), NULL);
  return (const char * const *)self->call_site;
}

const char * const *
embers_details_panel_get_shown_call_site (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), NULL);
  return (const char * const *)self->shown_site;
}

/* Kept apart from its own tasks (pending), which a new function resets */
void
embers_details_panel_hold (EmbersDetailsPanel *self)
{
  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  if (self->holds++ == 0 && self->pending == 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[EMBERS_DETAILS_PANEL_PROP_BUSY]);
}

void
embers_details_panel_release (EmbersDetailsPanel *self)
{
  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  g_return_if_fail (self->holds > 0);
  if (--self->holds == 0 && self->pending == 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[EMBERS_DETAILS_PANEL_PROP_BUSY]);
}

void
embers_details_panel_set_cut_off (EmbersDetailsPanel *self,
                                  guint               n_places)
{
  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));

  if (self->n_cut == n_places)
    return;
  self->n_cut = n_places;
  update_scope (self);
}

gboolean
embers_details_panel_can_query_call_site (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), FALSE);

  /* The server has no stacks through `other`: it is where it cut them */
  if (self->n_cut > 0)
    return FALSE;
  if (embers_function_details_view_keeps_call_sites (self->transforms))
    return TRUE;
  g_free (self->server_note);
  self->server_note = g_strdup (_("The transforms rewrote this view's stacks: its call sites are not the "
                                  "server's, so the server cannot give this function's lines here. "
                                  "Remove the transforms to see them."));
  update_view_note (self);
  return FALSE;
}

const char *
embers_details_panel_get_view_note (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->view_note)) ? gtk_label_get_label (self->view_note) : NULL;
}

const char *
embers_details_panel_get_function (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), NULL);
  return self->name;
}

gboolean
embers_details_panel_get_busy (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), FALSE);
  return self->pending > 0 || self->holds > 0;
}

EmbersFunctionDetails *
embers_details_panel_get_details (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), NULL);
  return self->details;
}

const char *
embers_details_panel_get_source_path (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), NULL);
  return self->source_path;
}

const char *
embers_details_panel_get_git_warning (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), NULL);
  return self->git_warning;
}

GtkSourceView *
embers_details_panel_get_source_view (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), NULL);
  return self->source_view;
}

EmbersCostGutter *
embers_details_panel_get_gutter (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), NULL);
  return self->gutter;
}

/* ---- Actions and signals ---- */

static void
panel_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  EmbersDetailsPanel *self = EMBERS_DETAILS_PANEL (widget);

  if (g_str_equal (action_name, "details.add-root"))
    embers_details_panel_choose_root (self);
  else if (g_str_equal (action_name, "details.open-editor"))
    embers_details_panel_open_editor (self);
  else if (g_str_equal (action_name, "details.remove-root") && parameter != NULL)
    embers_details_panel_remove_root (self, g_variant_get_string (parameter, NULL));
  else if (g_str_equal (action_name, "details.close"))
    g_signal_emit (self, signals[CLOSE], 0);
}

static void
on_line_activated (EmbersDetailsPanel *self,
                   GtkListBoxRow      *row)
{
  int line = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "line"));

  if (self->source_path != NULL && line > 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "source");
      embers_details_panel_scroll_to_line (self, line);
      gtk_widget_grab_focus (GTK_WIDGET (self->source_view));
    }
}

static void
on_call_activated (EmbersDetailsPanel *self,
                   GtkListBoxRow      *row)
{
  const char *name = g_object_get_data (G_OBJECT (row), "function");
  g_autofree char *copy = g_strdup (name);
  g_autoptr(EmbersTransformStack) view = NULL;

  if (copy == NULL || self->profile == NULL)
    return;
  view = self->transforms != NULL ? embers_transform_stack_copy (self->transforms) : NULL;

  /* A listener moves the graph's selection to it first, and may show it
   * here through that (then with the call site chosen) */
  g_signal_emit (self, signals[FUNCTION_ACTIVATED], 0, copy);
  if (g_strcmp0 (self->name, copy) != 0 && self->profile != NULL)
    embers_details_panel_show_view_function (self, self->profile, view, self->sample_type, copy, self->file);
}

/* ---- GObject ---- */

static void
embers_details_panel_dispose (GObject *object)
{
  EmbersDetailsPanel *self = EMBERS_DETAILS_PANEL (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->site_cancellable);
  if (self->scroll_tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self->source_view), self->scroll_tick_id);
      self->scroll_tick_id = 0;
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_DETAILS_PANEL);
  /* The template's unnamed children too */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->profile);
  g_clear_object (&self->file);
  g_clear_pointer (&self->details, embers_function_details_unref);
  g_clear_pointer (&self->found, g_ptr_array_unref);

  G_OBJECT_CLASS (embers_details_panel_parent_class)->dispose (object);
}

static void
embers_details_panel_finalize (GObject *object)
{
  EmbersDetailsPanel *self = EMBERS_DETAILS_PANEL (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->site_cancellable);
  g_free (self->name);
  g_strfreev (self->call_site);
  g_strfreev (self->shown_site);
  g_free (self->unit);
  g_free (self->source_key);
  g_free (self->git_ref);
  g_free (self->source_path);
  g_free (self->git_warning);
  g_free (self->server_note);
  g_clear_pointer (&self->transforms, embers_transform_stack_free);
  g_clear_pointer (&self->roots_map, g_variant_unref);

  G_OBJECT_CLASS (embers_details_panel_parent_class)->finalize (object);
}

static void
embers_details_panel_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  EmbersDetailsPanel *self = EMBERS_DETAILS_PANEL (object);

  switch (prop_id)
    {
    case EMBERS_DETAILS_PANEL_PROP_FUNCTION:
      g_value_set_string (value, self->name);
      break;
    case EMBERS_DETAILS_PANEL_PROP_BUSY:
      g_value_set_boolean (value, self->pending > 0 || self->holds > 0);
      break;
    case EMBERS_DETAILS_PANEL_PROP_SOURCE_PATH:
      g_value_set_string (value, self->source_path);
      break;
    case EMBERS_DETAILS_PANEL_PROP_GIT_WARNING:
      g_value_set_string (value, self->git_warning);
      break;
    case EMBERS_DETAILS_PANEL_PROP_VIEW_NOTE:
      g_value_set_string (value, embers_details_panel_get_view_note (self));
      break;
    case EMBERS_DETAILS_PANEL_PROP_CALL_SITE:
      g_value_set_boxed (value, self->call_site);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_details_panel_class_init (EmbersDetailsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_details_panel_dispose;
  object_class->finalize = embers_details_panel_finalize;
  object_class->get_property = embers_details_panel_get_property;

  properties[EMBERS_DETAILS_PANEL_PROP_FUNCTION] =
    g_param_spec_string ("function", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[EMBERS_DETAILS_PANEL_PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[EMBERS_DETAILS_PANEL_PROP_SOURCE_PATH] =
    g_param_spec_string ("source-path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[EMBERS_DETAILS_PANEL_PROP_GIT_WARNING] =
    g_param_spec_string ("git-warning", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* What the figures are of, when the view is transformed */
  properties[EMBERS_DETAILS_PANEL_PROP_VIEW_NOTE] =
    g_param_spec_string ("view-note", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The selected frame's stack, root first (NULL: none): notified when
   * the panel shows another function or another frame of it, so that a
   * server can be asked for that call site's lines (set_pprof) */
  properties[EMBERS_DETAILS_PANEL_PROP_CALL_SITE] =
    g_param_spec_boxed ("call-site", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, EMBERS_DETAILS_PANEL_N_PROPS, properties);

  /* A caller or callee was activated (the panel then shows it) */
  signals[FUNCTION_ACTIVATED] =
    g_signal_new ("function-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* The close button */
  signals[CLOSE] =
    g_signal_new ("close", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_source_init ();
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-details-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, name_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, file_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, summary_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, scope_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, ref_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, ref_warning);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, view_note);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, source_stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, source_status);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, candidates_dropdown);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, candidates);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, source_scroller);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, source_view);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, lines_list);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, callers_list);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, callees_list);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, roots_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, status_roots_button);
  gtk_widget_class_bind_template_callback (widget_class, on_line_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_call_activated);

  gtk_widget_class_install_action (widget_class, "details.add-root", NULL, panel_action);
  gtk_widget_class_install_action (widget_class, "details.open-editor", NULL, panel_action);
  gtk_widget_class_install_action (widget_class, "details.close", NULL, panel_action);
  gtk_widget_class_install_action (widget_class, "details.remove-root", "s", panel_action);

  gtk_widget_class_set_css_name (widget_class, "detailspanel");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
embers_details_panel_init (EmbersDetailsPanel *self)
{
  GtkSourceGutter *gutter;

  self->source_key = g_strdup ("");
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->gutter = embers_cost_gutter_new ();
  gutter = gtk_source_view_get_gutter (self->source_view, GTK_TEXT_WINDOW_LEFT);
  gtk_source_gutter_insert (gutter, GTK_SOURCE_GUTTER_RENDERER (self->gutter), -100);

  g_signal_connect_object (self->candidates_dropdown, "notify::selected",
                           G_CALLBACK (embers_details_panel_candidate_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (embers_details_panel_update_scheme), self, G_CONNECT_SWAPPED);
  embers_details_panel_update_scheme (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "details.open-editor", FALSE);
  {
    const char *none[] = { NULL };

    embers_details_panel_update_roots_menu (self, none);
  }
}

EmbersDetailsPanel *
embers_details_panel_new (void)
{
  return g_object_new (EMBERS_TYPE_DETAILS_PANEL, NULL);
}
