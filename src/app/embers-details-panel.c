/* embers-details-panel.c: the selected function's lines, source and calls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-details-panel.h"
#include "embers-source-files.h"
#include "embers-units.h"

#define ROOTS_KEY "source-roots"
#define MAX_CANDIDATES 20

struct _EmbersDetailsPanel
{
  GtkWidget              parent_instance;

  GtkLabel              *name_label;
  GtkLabel              *file_label;
  GtkLabel              *summary_label;
  GtkLabel              *ref_label;
  GtkLabel              *ref_warning;
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
  GFile                 *file;
  char                  *unit;
  char                  *source_key;
  char                  *git_ref;
  EmbersFunctionDetails *details;
  GPtrArray             *found;        /* EmbersSourceCandidate */
  char                  *source_path;
  char                  *git_warning;
  GCancellable          *cancellable;
  guint                  pending;
  gboolean               filling;      /* the candidates list is being refilled */
  GVariant              *roots_map;    /* without settings */
  gint64                 scroll_line;  /* to bring into view */
  gboolean               find_again;   /* the roots changed while busy */
  guint                  scroll_tick_id;
};

G_DEFINE_FINAL_TYPE (EmbersDetailsPanel, embers_details_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_FUNCTION,
  PROP_BUSY,
  PROP_SOURCE_PATH,
  PROP_GIT_WARNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  FUNCTION_ACTIVATED,
  CLOSE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void find_source (EmbersDetailsPanel *self);

/* ---- Busy ---- */

static void
begin (EmbersDetailsPanel *self)
{
  if (self->pending++ == 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
end (EmbersDetailsPanel *self)
{
  g_return_if_fail (self->pending > 0);
  if (--self->pending > 0)
    return;
  /* A root added meanwhile: look again, now that nothing runs */
  if (self->find_again && self->details != NULL)
    {
      self->find_again = FALSE;
      find_source (self);
      if (self->pending > 0)
        return;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
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
}

/* ---- Git ---- */

static const char *
profile_git_ref (EmbersProfile *profile)
{
  guint n_sets = embers_profile_get_n_label_sets (profile);

  for (guint s = 0; s < n_sets; s++)
    {
      guint n = 0;
      const EmbersLabel *labels = embers_profile_get_label_set (profile, s, &n);

      for (guint i = 0; i < n; i++)
        {
          const char *key = embers_profile_get_string (profile, labels[i].key);

          if (labels[i].str != 0 && (g_strcmp0 (key, "service_git_ref") == 0 || g_strcmp0 (key, "git_ref") == 0))
            return embers_profile_get_string (profile, labels[i].str);
        }
    }
  return NULL;
}

static gboolean
is_hex (const char *s)
{
  gsize n = strlen (s);

  if (n < 7 || n > 64)
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isxdigit (*s))
      return FALSE;
  return TRUE;
}

static void
set_git_warning (EmbersDetailsPanel *self,
                 const char         *warning)
{
  if (g_strcmp0 (self->git_warning, warning) == 0)
    return;
  g_free (self->git_warning);
  self->git_warning = g_strdup (warning);
  gtk_label_set_label (self->ref_warning, warning != NULL ? warning : "");
  gtk_widget_set_visible (GTK_WIDGET (self->ref_warning), warning != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GIT_WARNING]);
}

typedef struct
{
  EmbersDetailsPanel *self;
  char               *dir;
  char               *head;
  GCancellable       *cancellable;
} GitCheck;

static void
git_check_free (GitCheck *check)
{
  g_object_unref (check->self);
  g_free (check->dir);
  g_free (check->head);
  g_object_unref (check->cancellable);
  g_free (check);
}

static char *
first_line (const char *out)
{
  g_autofree char *copy = g_strdup (out != NULL ? out : "");

  g_strstrip (copy);
  if (strchr (copy, '\n') != NULL)
    *strchr (copy, '\n') = '\0';
  return g_steal_pointer (&copy);
}

static void
warn_other_commit (GitCheck   *check,
                   const char *ref_commit)
{
  EmbersDetailsPanel *self = check->self;
  g_autofree char *warning = NULL;
  g_autofree char *head = g_strndup (check->head, 12);

  if (ref_commit != NULL && g_ascii_strncasecmp (check->head, ref_commit, strlen (ref_commit)) == 0)
    set_git_warning (self, NULL);
  else
    {
      /* Translators: %s is a commit id */
      warning = g_strdup_printf (_("The checkout is at %s, not at the profile's commit: lines may have moved"), head);
      set_git_warning (self, warning);
    }
}

static void
on_ref_resolved (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GitCheck *check = user_data;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;

  if (g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &out, NULL, &error)
      && !g_cancellable_is_cancelled (check->cancellable))
    {
      g_autofree char *commit = first_line (out);

      /* A ref the checkout does not know is another commit too */
      if (g_subprocess_get_successful (G_SUBPROCESS (source)) && commit[0] != '\0')
        warn_other_commit (check, commit);
      else
        warn_other_commit (check, NULL);
    }
  if (!g_cancellable_is_cancelled (check->cancellable))
    end (check->self);
  git_check_free (check);
}

static void
on_head (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  GitCheck *check = user_data;
  EmbersDetailsPanel *self = check->self;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &out, NULL, &error)
      || g_cancellable_is_cancelled (check->cancellable)
      || !g_subprocess_get_successful (G_SUBPROCESS (source)))
    {
      /* Not a git checkout (or no git): nothing to compare */
      if (!g_cancellable_is_cancelled (check->cancellable))
        end (self);
      git_check_free (check);
      return;
    }

  check->head = first_line (out);
  if (is_hex (self->git_ref))
    {
      warn_other_commit (check, self->git_ref);
      end (self);
      git_check_free (check);
      return;
    }

  /* A branch or a tag: what it names in the checkout. The ref comes from
   * the profile: it is one argument, never an option. */
  {
    g_autofree char *spec = g_strdup_printf ("%s^{commit}", self->git_ref);
    g_autoptr(GSubprocess) proc = NULL;

    proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                             "git", "-C", check->dir, "rev-parse", "--verify", "--quiet",
                             "--end-of-options", spec, NULL);
    if (proc == NULL)
      {
        end (self);
        git_check_free (check);
        return;
      }
    g_subprocess_communicate_utf8_async (proc, NULL, check->cancellable, on_ref_resolved, check);
  }
}

static void
check_git (EmbersDetailsPanel *self)
{
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  GitCheck *check;

  set_git_warning (self, NULL);
  if (self->git_ref == NULL || self->source_path == NULL)
    return;

  check = g_new0 (GitCheck, 1);
  check->self = g_object_ref (self);
  check->dir = g_path_get_dirname (self->source_path);
  check->cancellable = g_object_ref (self->cancellable);

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                           "git", "-C", check->dir, "rev-parse", "HEAD", NULL);
  if (proc == NULL)
    {
      git_check_free (check);
      return;
    }
  begin (self);
  g_subprocess_communicate_utf8_async (proc, NULL, self->cancellable, on_head, check);
}

/* ---- Source ---- */

static void
show_no_source (EmbersDetailsPanel *self,
                const char         *title,
                const char         *description)
{
  adw_status_page_set_title (self->source_status, title);
  adw_status_page_set_description (self->source_status, description);
  gtk_stack_set_visible_child_name (self->source_stack, "none");
  if (self->source_path != NULL)
    {
      g_clear_pointer (&self->source_path, g_free);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE_PATH]);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "details.open-editor", FALSE);
  /* No checkout to compare with */
  set_git_warning (self, NULL);
}

/* The view scrolls once it is mapped and its lines are measured: the
 * panel may have been hidden, or the file just loaded */
static gboolean
scroll_tick (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       data)
{
  EmbersDetailsPanel *self = data;
  GtkTextView *view = GTK_TEXT_VIEW (self->source_view);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter iter;
  GdkRectangle location, visible;

  if (!gtk_widget_get_mapped (widget) || gtk_widget_get_height (widget) <= 0)
    return G_SOURCE_CONTINUE;

  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int)MIN (self->scroll_line - 1, G_MAXINT));
  gtk_text_view_scroll_to_iter (view, &iter, 0.0, TRUE, 0.0, 0.3);
  gtk_text_view_get_iter_location (view, &iter, &location);
  gtk_text_view_get_visible_rect (view, &visible);
  if (location.y < visible.y || location.y + location.height > visible.y + visible.height)
    return G_SOURCE_CONTINUE;

  self->scroll_tick_id = 0;
  return G_SOURCE_REMOVE;
}

static void
scroll_to_line (EmbersDetailsPanel *self,
                gint64              line)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
  GtkTextIter iter;

  if (line <= 0)
    return;
  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int)MIN (line - 1, G_MAXINT));
  gtk_text_buffer_place_cursor (buffer, &iter);
  self->scroll_line = line;
  if (self->scroll_tick_id == 0)
    self->scroll_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->source_view), scroll_tick, self, NULL);
}

static void
update_scheme (EmbersDetailsPanel *self)
{
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view)));
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  GtkSourceStyleScheme *scheme;

  scheme = gtk_source_style_scheme_manager_get_scheme (schemes, dark ? "Adwaita-dark" : "Adwaita");
  if (scheme != NULL)
    gtk_source_buffer_set_style_scheme (buffer, scheme);
}

typedef struct
{
  EmbersDetailsPanel *self;
  char               *path;
} LoadSource;

static void
on_source_loaded (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  LoadSource *ls = user_data;
  EmbersDetailsPanel *self = ls->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (G_FILE (source), result, &contents, &length, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          show_no_source (self, _("Cannot Read the Source"), error->message);
          end (self);
        }
    }
  else
    {
      GtkSourceBuffer *buffer = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view)));
      GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
      g_autofree char *text = g_utf8_make_valid (contents, length);
      const EmbersLineCost *hot = embers_function_details_get_hottest_line (self->details);

      gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), text, -1);
      gtk_source_buffer_set_language (buffer, gtk_source_language_manager_guess_language (languages, ls->path, NULL));
      update_scheme (self);
      gtk_stack_set_visible_child_name (self->source_stack, "view");
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "details.open-editor", TRUE);

      g_free (self->source_path);
      self->source_path = g_strdup (ls->path);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE_PATH]);

      if (hot != NULL)
        scroll_to_line (self, hot->line);
      else if (self->details->start_line > 0)
        scroll_to_line (self, self->details->start_line);
      check_git (self);
      end (self);
    }

  g_object_unref (ls->self);
  g_free (ls->path);
  g_free (ls);
}

static void
load_candidate (EmbersDetailsPanel *self,
                guint               index)
{
  EmbersSourceCandidate *c;
  g_autoptr(GFile) file = NULL;
  LoadSource *ls;

  if (self->found == NULL || index >= self->found->len)
    return;
  c = g_ptr_array_index (self->found, index);
  file = g_file_new_for_path (c->path);
  ls = g_new0 (LoadSource, 1);
  ls->self = g_object_ref (self);
  ls->path = g_strdup (c->path);
  begin (self);
  g_file_load_contents_async (file, self->cancellable, on_source_loaded, ls);
}

static void
on_candidate_selected (EmbersDetailsPanel *self)
{
  guint selected = gtk_drop_down_get_selected (self->candidates_dropdown);

  if (!self->filling && selected != GTK_INVALID_LIST_POSITION)
    load_candidate (self, selected);
}

static void
on_found (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  EmbersDetailsPanel *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) found = embers_source_find_finish (result, &error);

  if (found == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }

  g_clear_pointer (&self->found, g_ptr_array_unref);
  if (found == NULL || found->len == 0)
    {
      g_autofree char *description = NULL;

      /* Translators: %s is a file path from the profile */
      description = g_strdup_printf (_("No file under the source folders matches “%s”. Add the folder of a checkout of this program."),
                                     self->details->file[0] != '\0' ? self->details->file : self->details->name);
      show_no_source (self, _("Source Not Found"), error != NULL ? error->message : description);
      end (self);
      g_object_unref (self);
      return;
    }

  self->found = g_steal_pointer (&found);
  self->filling = TRUE;
  {
    g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

    for (guint i = 0; i < self->found->len; i++)
      {
        EmbersSourceCandidate *c = g_ptr_array_index (self->found, i);
        g_autofree char *root_name = g_path_get_basename (c->root);
        const char *rel = c->path + strlen (c->root);

        while (*rel == '/')
          rel++;
        g_ptr_array_add (labels, g_build_filename (root_name, rel, NULL));
      }
    g_ptr_array_add (labels, NULL);
    gtk_string_list_splice (self->candidates, 0, g_list_model_get_n_items (G_LIST_MODEL (self->candidates)),
                            (const char * const *)labels->pdata);
  }
  gtk_drop_down_set_selected (self->candidates_dropdown, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->candidates_dropdown), self->found->len > 1);
  self->filling = FALSE;
  load_candidate (self, 0);
  end (self);
  g_object_unref (self);
}

/* The saved roots; without the app's schema (a test of the core widget
 * alone) they live as long as the panel */
static GSettings *
settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  return schema != NULL ? g_settings_new (APP_ID) : NULL;
}

static GVariant *
dup_roots_map (EmbersDetailsPanel *self)
{
  g_autoptr(GSettings) s = settings ();

  if (s != NULL)
    return g_settings_get_value (s, ROOTS_KEY);
  return self->roots_map != NULL ? g_variant_ref (self->roots_map) : NULL;
}

/* The roots' menu: each to remove, and Add */
static void
update_roots_menu (EmbersDetailsPanel *self,
                   const char * const *roots)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) listed = g_menu_new ();
  g_autoptr(GMenu) add = g_menu_new ();

  for (guint i = 0; roots[i] != NULL; i++)
    {
      g_autoptr(GMenuItem) item = NULL;
      /* Translators: a menu item; %s is a folder */
      g_autofree char *label = g_strdup_printf (_("Remove “%s”"), roots[i]);

      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "details.remove-root", g_variant_new_string (roots[i]));
      g_menu_append_item (listed, item);
    }
  g_menu_append (add, _("_Add Source Folder…"), "details.add-root");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (listed));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (add));
  gtk_menu_button_set_menu_model (self->roots_button, G_MENU_MODEL (menu));
  gtk_menu_button_set_menu_model (self->status_roots_button, G_MENU_MODEL (menu));
  gtk_widget_set_visible (GTK_WIDGET (self->status_roots_button), roots[0] != NULL);
}

static void
find_source (EmbersDetailsPanel *self)
{
  g_autoptr(GVariant) map = dup_roots_map (self);
  g_auto(GStrv) roots = embers_source_roots_lookup (map, self->source_key);
  g_autofree char *java = embers_source_java_path (self->details->name, self->details->file);

  update_roots_menu (self, (const char * const *)roots);
  if (self->details->file[0] == '\0' && java == NULL)
    {
      show_no_source (self, _("No Source File"), _("The profile names no file for this function."));
      return;
    }
  if (roots[0] == NULL)
    {
      show_no_source (self, _("Source Not Found"),
                      _("Add the folder of a checkout of this program: Embers finds the file there by its path."));
      return;
    }

  begin (self);
  embers_source_find_async (self->details->file, self->details->name, (const char * const *)roots,
                            MAX_CANDIDATES, self->cancellable, on_found, g_object_ref (self));
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
  find_source (self);
  end (self);
  g_object_unref (self);
}

/* ---- Public ---- */

void
embers_details_panel_show_function (EmbersDetailsPanel *self,
                                    EmbersProfile      *profile,
                                    guint               sample_type,
                                    const char         *name,
                                    GFile              *file)
{
  const char *ref;

  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  g_return_if_fail (EMBERS_IS_PROFILE (profile));
  g_return_if_fail (name != NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->find_again = FALSE;
  if (self->pending > 0)
    {
      self->pending = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }

  g_set_object (&self->profile, profile);
  self->sample_type = sample_type;
  g_free (self->name);
  self->name = g_strdup (name);
  g_set_object (&self->file, file);
  g_free (self->unit);
  self->unit = g_strdup (embers_profile_get_sample_unit (profile, sample_type));
  g_clear_pointer (&self->found, g_ptr_array_unref);

  ref = profile_git_ref (profile);
  g_free (self->git_ref);
  self->git_ref = g_strdup (ref);
  if (ref != NULL)
    {
      /* Translators: %s is a git commit, branch or tag */
      g_autofree char *text = g_strdup_printf (_("Profiled at %s"), ref);

      gtk_label_set_label (self->ref_label, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->ref_label), ref != NULL);
  set_git_warning (self, NULL);

  g_clear_pointer (&self->details, embers_function_details_unref);
  self->details = embers_function_details_new_from_profile (profile, name, sample_type);
  update_details (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FUNCTION]);

  if (file != NULL)
    {
      begin (self);
      show_no_source (self, _("Reading Lines…"), NULL);
      embers_function_details_load_async (file, name, sample_type, self->cancellable,
                                          on_details_loaded, g_object_ref (self));
    }
  else
    find_source (self);
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

  begin (self);
  embers_function_details_compute_async (pprof, name, sample_type, self->cancellable,
                                         on_details_loaded, g_object_ref (self));
}

const char *
embers_details_panel_get_function (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), NULL);
  return self->name;
}

void
embers_details_panel_set_source_key (EmbersDetailsPanel *self,
                                     const char         *key)
{
  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  g_free (self->source_key);
  self->source_key = g_strdup (key != NULL ? key : "");
}

void
embers_details_panel_add_root (EmbersDetailsPanel *self,
                               const char         *path)
{
  g_autoptr(GSettings) s = settings ();
  g_autoptr(GVariant) map = dup_roots_map (self);
  g_auto(GStrv) roots = embers_source_roots_lookup (map, self->source_key);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) next = NULL;
  g_autoptr(GVariant) replaced = NULL;

  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  g_return_if_fail (path != NULL);

  /* The newest root first; each once */
  g_strv_builder_add (b, path);
  for (guint i = 0; roots[i] != NULL; i++)
    if (!g_str_equal (roots[i], path))
      g_strv_builder_add (b, roots[i]);
  next = g_strv_builder_end (b);
  replaced = embers_source_roots_replace (map, self->source_key, (const char * const *)next);
  if (s != NULL)
    g_settings_set_value (s, ROOTS_KEY, replaced);
  else
    {
      g_clear_pointer (&self->roots_map, g_variant_unref);
      self->roots_map = g_variant_ref (replaced);
    }

  if (self->details == NULL)
    update_roots_menu (self, (const char * const *)next);
  else if (self->pending == 0)
    find_source (self);
  else
    self->find_again = TRUE;
}

void
embers_details_panel_remove_root (EmbersDetailsPanel *self,
                                  const char         *path)
{
  g_autoptr(GSettings) s = settings ();
  g_autoptr(GVariant) map = dup_roots_map (self);
  g_auto(GStrv) roots = embers_source_roots_lookup (map, self->source_key);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) next = NULL;
  g_autoptr(GVariant) replaced = NULL;

  g_return_if_fail (EMBERS_IS_DETAILS_PANEL (self));
  g_return_if_fail (path != NULL);

  for (guint i = 0; roots[i] != NULL; i++)
    if (!g_str_equal (roots[i], path))
      g_strv_builder_add (b, roots[i]);
  next = g_strv_builder_end (b);
  replaced = embers_source_roots_replace (map, self->source_key, (const char * const *)next);
  if (s != NULL)
    g_settings_set_value (s, ROOTS_KEY, replaced);
  else
    {
      g_clear_pointer (&self->roots_map, g_variant_unref);
      self->roots_map = g_variant_ref (replaced);
    }

  if (self->details == NULL)
    update_roots_menu (self, (const char * const *)next);
  else if (self->pending == 0)
    find_source (self);
  else
    self->find_again = TRUE;
}

gboolean
embers_details_panel_get_busy (EmbersDetailsPanel *self)
{
  g_return_val_if_fail (EMBERS_IS_DETAILS_PANEL (self), FALSE);
  return self->pending > 0;
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
on_folder_chosen (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  EmbersDetailsPanel *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) folder = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (source), result, &error);

  if (folder != NULL)
    {
      g_autofree char *path = g_file_get_path (folder);

      if (path != NULL)
        embers_details_panel_add_root (self, path);
    }
  g_object_unref (self);
}

/* Editors that open a file at a line, by their command's name, and how.
 * Inside Flatpak (or for any other editor) the file opens through the
 * desktop's handler, the OpenURI portal, at its start. */
typedef enum
{
  LINE_PLUS,       /* editor +LINE FILE */
  LINE_OPTION,     /* editor --line LINE FILE */
} LineStyle;

typedef struct
{
  const char *command;
  LineStyle   style;
} EditorRecipe;

static const EditorRecipe editors[] = {
  { "gnome-text-editor", LINE_PLUS },
  { "gedit",             LINE_PLUS },
  { "gvim",              LINE_PLUS },
  { "kate",              LINE_OPTION },
  { "kwrite",            LINE_OPTION },
};

static gboolean
open_at_line (EmbersDetailsPanel *self,
              const char         *path,
              gint64              line)
{
  g_autofree char *type = NULL;
  g_autoptr(GAppInfo) app = NULL;
  g_autofree char *command = NULL;
  const char *exe;

  if (line <= 0 || g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    return FALSE;
  type = g_content_type_guess (path, NULL, 0, NULL);
  app = g_app_info_get_default_for_type (type, FALSE);
  if (app == NULL)
    app = g_app_info_get_default_for_type ("text/plain", FALSE);
  if (app == NULL || (exe = g_app_info_get_executable (app)) == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (editors); i++)
    {
      g_autofree char *base = g_path_get_basename (exe);

      if (g_str_equal (base, editors[i].command))
        {
          g_autofree char *quoted = g_shell_quote (path);
          g_autofree char *args = editors[i].style == LINE_PLUS
            ? g_strdup_printf ("+%" G_GINT64_FORMAT " %s", line, quoted)
            : g_strdup_printf ("--line %" G_GINT64_FORMAT " %s", line, quoted);
          g_autoptr(GAppInfo) launch = NULL;
          g_autoptr(GdkAppLaunchContext) context = NULL;

          command = g_strdup_printf ("%s %s", exe, args);
          launch = g_app_info_create_from_commandline (command, NULL, G_APP_INFO_CREATE_NONE, NULL);
          if (launch == NULL)
            return FALSE;
          context = gdk_display_get_app_launch_context (gtk_widget_get_display (GTK_WIDGET (self)));
          return g_app_info_launch (launch, NULL, G_APP_LAUNCH_CONTEXT (context), NULL);
        }
    }
  return FALSE;
}

static gint64
current_line (EmbersDetailsPanel *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  return gtk_text_iter_get_line (&iter) + 1;
}

static void
on_launched (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!gtk_file_launcher_launch_finish (GTK_FILE_LAUNCHER (source), result, &error)
      && !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED))
    g_warning ("Could not open the source file: %s", error->message);
}

static void
panel_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  EmbersDetailsPanel *self = EMBERS_DETAILS_PANEL (widget);

  if (g_str_equal (action_name, "details.add-root"))
    {
      g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
      GtkRoot *root = gtk_widget_get_root (widget);

      gtk_file_dialog_set_title (dialog, _("Add Source Folder"));
      gtk_file_dialog_set_accept_label (dialog, _("_Add"));
      gtk_file_dialog_select_folder (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                     NULL, on_folder_chosen, g_object_ref (self));
    }
  else if (g_str_equal (action_name, "details.open-editor") && self->source_path != NULL)
    {
      if (!open_at_line (self, self->source_path, current_line (self)))
        {
          g_autoptr(GFile) file = g_file_new_for_path (self->source_path);
          g_autoptr(GtkFileLauncher) launcher = gtk_file_launcher_new (file);
          GtkRoot *root = gtk_widget_get_root (widget);

          gtk_file_launcher_launch (launcher, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                    NULL, on_launched, NULL);
        }
    }
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
      scroll_to_line (self, line);
      gtk_widget_grab_focus (GTK_WIDGET (self->source_view));
    }
}

static void
on_call_activated (EmbersDetailsPanel *self,
                   GtkListBoxRow      *row)
{
  const char *name = g_object_get_data (G_OBJECT (row), "function");
  g_autofree char *copy = g_strdup (name);

  if (copy == NULL || self->profile == NULL)
    return;
  g_signal_emit (self, signals[FUNCTION_ACTIVATED], 0, copy);
  embers_details_panel_show_function (self, self->profile, self->sample_type, copy, self->file);
}

/* ---- GObject ---- */

static void
embers_details_panel_dispose (GObject *object)
{
  EmbersDetailsPanel *self = EMBERS_DETAILS_PANEL (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
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
  g_free (self->name);
  g_free (self->unit);
  g_free (self->source_key);
  g_free (self->git_ref);
  g_free (self->source_path);
  g_free (self->git_warning);
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
    case PROP_FUNCTION:
      g_value_set_string (value, self->name);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->pending > 0);
      break;
    case PROP_SOURCE_PATH:
      g_value_set_string (value, self->source_path);
      break;
    case PROP_GIT_WARNING:
      g_value_set_string (value, self->git_warning);
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

  properties[PROP_FUNCTION] =
    g_param_spec_string ("function", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SOURCE_PATH] =
    g_param_spec_string ("source-path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GIT_WARNING] =
    g_param_spec_string ("git-warning", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

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
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, ref_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersDetailsPanel, ref_warning);
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
                           G_CALLBACK (on_candidate_selected), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_scheme), self, G_CONNECT_SWAPPED);
  update_scheme (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "details.open-editor", FALSE);
  {
    const char *none[] = { NULL };

    update_roots_menu (self, none);
  }
}

EmbersDetailsPanel *
embers_details_panel_new (void)
{
  return g_object_new (EMBERS_TYPE_DETAILS_PANEL, NULL);
}
