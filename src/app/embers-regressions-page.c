/* embers-regressions-page.c: regressions across many snapshots (a tab)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "embers-accessible.h"
#include "embers-column-keys.h"
#include "embers-local-source.h"
#include "embers-pyroscope-snapshots.h"
#include "embers-regressions-page.h"
#include "embers-sparkline.h"

/* A row of the table: an index into the table's sorted rows */

#define EMBERS_TYPE_REGRESSIONS_ROW (embers_regressions_row_get_type ())
G_DECLARE_FINAL_TYPE (EmbersRegressionsRow, embers_regressions_row, EMBERS, REGRESSIONS_ROW, GObject)

struct _EmbersRegressionsRow
{
  GObject          parent_instance;
  EmbersSnapshots *snapshots;
  guint            index;
};

G_DEFINE_FINAL_TYPE (EmbersRegressionsRow, embers_regressions_row, G_TYPE_OBJECT)

static void
embers_regressions_row_finalize (GObject *object)
{
  g_clear_object (&EMBERS_REGRESSIONS_ROW (object)->snapshots);
  G_OBJECT_CLASS (embers_regressions_row_parent_class)->finalize (object);
}

static void
embers_regressions_row_class_init (EmbersRegressionsRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = embers_regressions_row_finalize;
}

static void
embers_regressions_row_init (EmbersRegressionsRow *self)
{
}

static EmbersRegressionsRow *
row_new (EmbersSnapshots *snapshots,
         guint            index)
{
  EmbersRegressionsRow *row = g_object_new (EMBERS_TYPE_REGRESSIONS_ROW, NULL);

  row->snapshots = g_object_ref (snapshots);
  row->index = index;
  return row;
}

/* The page */

typedef enum
{
  MODE_LABEL,
  MODE_RANGES,
  MODE_FILES,
} Mode;

struct _EmbersRegressionsPage
{
  AdwBin           parent_instance;

  /* Template */
  GtkLabel        *order_label;
  GtkWidget       *ranges_box;
  GtkSpinButton   *ranges_spin;
  GtkMenuButton   *order_button;
  GtkListBox      *order_list;
  GtkButton       *reverse_button;
  GtkStack        *stack;
  AdwStatusPage   *loading_page;
  AdwStatusPage   *error_page;
  AdwBanner       *noise_banner;
  GtkLabel        *summary_label;
  GtkColumnView   *table;

  Mode             mode;
  EmbersSource    *source;
  EmbersQuery     *base;
  char            *label;
  GStrv            values;
  guint            n_ranges;
  GPtrArray       *files;

  EmbersSnapshots *snapshots;   /* shown */
  EmbersSnapshots *pending;     /* being computed in a new order */
  GListStore      *rows;
  GCancellable    *cancellable;
  gboolean         loading;
  char            *title;
  char            *error;
  EmbersDiffPalette palette;
  GSettings       *settings;    /* NULL without the schema */
};

G_DEFINE_FINAL_TYPE (EmbersRegressionsPage, embers_regressions_page, ADW_TYPE_BIN)

enum
{
  PROP_0,
  PROP_LOADING,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_COMPARE_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
set_loading (EmbersRegressionsPage *self,
             gboolean               loading)
{
  if (self->loading == loading)
    return;
  self->loading = loading;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "regressions.reverse",
                                 !loading && self->snapshots != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->order_button), !loading && self->snapshots != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
set_title (EmbersRegressionsPage *self,
           const char            *title)
{
  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static void
set_ranges_title (EmbersRegressionsPage *self)
{
  g_autofree char *title = NULL;

  /* Translators: a tab's title */
  title = g_strdup_printf (_("%u time ranges"), self->n_ranges);
  set_title (self, title);
}

/* Cells */

static const EmbersSnapshotRow *
item_row (GtkListItem *item)
{
  EmbersRegressionsRow *row = gtk_list_item_get_item (item);

  return row != NULL ? embers_snapshots_get_row (row->snapshots, row->index) : NULL;
}

/* The step a row's Jump, Change and Open Diff are about: its flagged
 * jump, or when nothing is flagged its largest step */
static int
row_step (const EmbersSnapshotRow *r)
{
  return r->jump >= 0 ? r->jump : r->largest;
}

/* A cell's label: how many characters it shows at least (a share
 * "100.0%", a change "+62.8% ± 5.1%"), aligned right for figures; what is
 * longer is shortened (a function at its start: its name is at the end,
 * "…(*Regexp).MatchString"; the rest in the middle), the whole in its
 * tooltip */
#define CELL(width_chars, right, start) \
  GINT_TO_POINTER ((width_chars) << 2 | ((right) ? 1 : 0) | ((start) ? 2 : 0))

static void
setup_label (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);
  int cell = GPOINTER_TO_INT (user_data);

  gtk_label_set_xalign (GTK_LABEL (label), (cell & 1) ? 1 : 0);
  gtk_label_set_width_chars (GTK_LABEL (label), cell >> 2);
  gtk_label_set_ellipsize (GTK_LABEL (label), (cell & 2) ? PANGO_ELLIPSIZE_START : PANGO_ELLIPSIZE_MIDDLE);
  gtk_list_item_set_child (item, label);
}

static void
bind_name (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  const EmbersSnapshotRow *r = item_row (item);

  gtk_label_set_text (GTK_LABEL (label), r->name);
  gtk_widget_set_tooltip_text (label, r->key);
}

static void
setup_sparkline (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  gtk_list_item_set_child (item, embers_sparkline_new ());
}

static void
bind_sparkline (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  EmbersRegressionsPage *self = user_data;
  EmbersRegressionsRow *row = gtk_list_item_get_item (item);
  EmbersSparkline *spark = EMBERS_SPARKLINE (gtk_list_item_get_child (item));
  const EmbersSnapshotRow *r = item_row (item);
  guint K = embers_snapshots_get_n_snapshots (row->snapshots);
  g_autofree char *first = embers_snapshots_format_share (r->shares[0]);
  g_autofree char *last = embers_snapshots_format_share (r->shares[K - 1]);
  g_autofree char *text = NULL;

  embers_sparkline_set_values (spark, r->shares, K);
  embers_sparkline_set_jump (spark, r->jump, r->jump >= 0 ? r->steps[r->jump].verdict : EMBERS_CHANGE_WITHIN_NOISE);
  embers_sparkline_set_palette (spark, self->palette);
  /* Translators: a sparkline for screen readers: the share in the
   * baseline and in the last snapshot, with their names */
  text = g_strdup_printf (_("Share from %s in %s to %s in %s"), first,
                          embers_snapshots_get_name (row->snapshots, 0), last,
                          embers_snapshots_get_name (row->snapshots, K - 1));
  gtk_accessible_update_property (GTK_ACCESSIBLE (spark), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

static void
bind_jump (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  EmbersRegressionsRow *row = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  const EmbersSnapshotRow *r = item_row (item);
  int step = row_step (r);
  g_autofree char *text = NULL;
  g_autofree char *tip = NULL;

  if (step >= 0 && (r->jump >= 0 || !embers_snapshots_has_enough_steps (row->snapshots)))
    {
      text = g_strdup_printf ("%s → %s", embers_snapshots_get_name (row->snapshots, step),
                              embers_snapshots_get_name (row->snapshots, step + 1));
      tip = embers_snapshots_describe_step (row->snapshots, row->index, step);
    }
  else
    {
      /* Translators: no step of this row is beyond the noise */
      text = g_strdup (C_("jump", "none"));
      tip = g_strdup (_("Every step is within the noise"));
    }
  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, tip);
  if (r->jump >= 0)
    gtk_widget_remove_css_class (label, "dim-label");
  else
    gtk_widget_add_css_class (label, "dim-label");
}

static void
bind_change (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  EmbersRegressionsRow *row = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  const EmbersSnapshotRow *r = item_row (item);
  int step = row_step (r);
  g_autofree char *text = step >= 0 ? embers_change_stats_format (&r->steps[step]) : g_strdup ("–");
  g_autofree char *tip = step >= 0 ? embers_snapshots_describe_step (row->snapshots, row->index, step) : NULL;

  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, tip);
  if (r->jump >= 0)
    gtk_widget_remove_css_class (label, "dim-label");
  else
    gtk_widget_add_css_class (label, "dim-label");
}

static void
diff_clicked (GtkButton             *button,
              EmbersRegressionsPage *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "row"));

  embers_regressions_page_open_diff (self, index);
}

static void
setup_diff (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  GtkWidget *button = gtk_button_new_with_label (_("Open Diff"));

  gtk_widget_add_css_class (button, "flat");
  g_signal_connect_object (button, "clicked", G_CALLBACK (diff_clicked), user_data, 0);
  gtk_list_item_set_child (item, button);
}

static void
bind_diff (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  EmbersRegressionsRow *row = gtk_list_item_get_item (item);
  GtkWidget *button = gtk_list_item_get_child (item);
  const EmbersSnapshotRow *r = item_row (item);
  int step = row_step (r);
  g_autofree char *tip = NULL;

  g_object_set_data (G_OBJECT (button), "row", GUINT_TO_POINTER (row->index));
  gtk_widget_set_sensitive (button, step >= 0 && embers_snapshots_get_query (row->snapshots, step) != NULL);
  if (step >= 0)
    /* Translators: the two snapshots a diff opens, baseline first */
    tip = g_strdup_printf (_("Compare %s (baseline) with %s"), embers_snapshots_get_name (row->snapshots, step),
                           embers_snapshots_get_name (row->snapshots, step + 1));
  gtk_widget_set_tooltip_text (button, tip);
  if (tip != NULL)
    embers_accessible_set_label (button, tip);
}

static void
bind_share (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  GtkWidget *label = gtk_list_item_get_child (item);
  guint position = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "position"));
  const EmbersSnapshotRow *r = item_row (item);
  g_autofree char *text = embers_snapshots_format_share (r->shares[position]);

  gtk_label_set_text (GTK_LABEL (label), text);
  /* The snapshot after a flagged jump stands out */
  if (r->jump >= 0 && position == (guint)r->jump + 1)
    gtk_widget_add_css_class (label, "heading");
  else
    gtk_widget_remove_css_class (label, "heading");
}

static GtkColumnViewColumn *
add_column (EmbersRegressionsPage *self,
            const char            *title,
            GCallback              setup,
            GCallback              bind,
            gpointer               setup_data,
            gboolean               expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_signal_connect (factory, "setup", setup, setup_data);
  g_signal_connect (factory, "bind", bind, self);
  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_append_column (self->table, column);
  g_object_unref (column);
  return column;
}

static void
build_columns (EmbersRegressionsPage *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->table);
  guint K = embers_snapshots_get_n_snapshots (self->snapshots);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (self->table, column);
    }

  add_column (self, _("Function"),
              G_CALLBACK (setup_label), G_CALLBACK (bind_name), CELL (17, FALSE, TRUE), TRUE);
  add_column (self, _("Trend"), G_CALLBACK (setup_sparkline), G_CALLBACK (bind_sparkline), NULL, FALSE);
  add_column (self, _("Jump"), G_CALLBACK (setup_label), G_CALLBACK (bind_jump), CELL (10, FALSE, FALSE), FALSE);
  add_column (self, _("Change"), G_CALLBACK (setup_label), G_CALLBACK (bind_change), CELL (15, TRUE, FALSE), FALSE);
  add_column (self, NULL, G_CALLBACK (setup_diff), G_CALLBACK (bind_diff), self, FALSE);
  for (guint p = 0; p < K; p++)
    {
      g_autofree char *title = p == 0
        ? g_strdup_printf (_("%s (baseline)"), embers_snapshots_get_name (self->snapshots, 0))
        : g_strdup (embers_snapshots_get_name (self->snapshots, p));
      GtkColumnViewColumn *column = add_column (self, title, G_CALLBACK (setup_label), G_CALLBACK (bind_share),
                                                CELL (6, TRUE, FALSE), FALSE);

      g_object_set_data (G_OBJECT (gtk_column_view_column_get_factory (column)), "position", GUINT_TO_POINTER (p));
    }
}

/* The order popover */

static void build_order_list (EmbersRegressionsPage *self);

static void
order_clicked (GtkButton             *button,
               EmbersRegressionsPage *self)
{
  guint position = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "position"));
  int delta = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "delta"));

  if (delta == 0)
    embers_regressions_page_move (self, position, 0);
  else
    embers_regressions_page_move (self, position, position + delta);
}

static GtkWidget *
order_button (EmbersRegressionsPage *self,
              const char            *icon,
              const char            *tip,
              guint                  position,
              int                    delta,
              gboolean               sensitive)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tip);
  embers_accessible_set_label (button, tip);
  gtk_widget_set_sensitive (button, sensitive);
  g_object_set_data (G_OBJECT (button), "position", GUINT_TO_POINTER (position));
  g_object_set_data (G_OBJECT (button), "delta", GINT_TO_POINTER (delta));
  g_signal_connect_object (button, "clicked", G_CALLBACK (order_clicked), self, 0);
  return button;
}

static void
build_order_list (EmbersRegressionsPage *self)
{
  guint K = self->snapshots != NULL ? embers_snapshots_get_n_snapshots (self->snapshots) : 0;

  gtk_list_box_remove_all (self->order_list);
  for (guint p = 0; p < K; p++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *name = g_markup_escape_text (embers_snapshots_get_name (self->snapshots, p), -1);
      g_autofree char *steps = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u step", "%u steps",
                                                             embers_snapshots_get_n_steps (self->snapshots, p)),
                                                embers_snapshots_get_n_steps (self->snapshots, p));

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), p == 0 ? _("Baseline") : steps);
      if (p > 0)
        adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                   order_button (self, "starred-symbolic", _("Make Baseline"), p, 0, TRUE));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 order_button (self, "go-up-symbolic", _("Move Up"), p, -1, p > 0));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 order_button (self, "go-down-symbolic", _("Move Down"), p, 1, p + 1 < K));
      gtk_list_box_append (self->order_list, row);
    }
}

/* Showing a table */

static void
show_error (EmbersRegressionsPage *self,
            const GError          *error)
{
  g_free (self->error);
  self->error = g_strdup (error->message);
  adw_status_page_set_description (self->error_page, error->message);
  gtk_stack_set_visible_child_name (self->stack, "error");
  set_loading (self, FALSE);
}

static void
show_table (EmbersRegressionsPage *self,
            EmbersSnapshots       *snapshots)
{
  guint n_rows = embers_snapshots_get_n_rows (snapshots);
  guint K = embers_snapshots_get_n_snapshots (snapshots);
  g_autofree char *order = NULL;
  g_autofree char *order_text = NULL;
  g_autofree char *summary = NULL;

  g_set_object (&self->snapshots, snapshots);
  g_clear_pointer (&self->error, g_free);

  order = embers_snapshots_describe_order (snapshots);
  /* Translators: the snapshots in the order they are compared */
  order_text = g_strdup_printf (_("Order: %s"), order);
  gtk_label_set_text (self->order_label, order_text);

  if (embers_snapshots_has_enough_steps (snapshots))
    {
      guint fewest = G_MAXUINT;

      for (guint p = 0; p < K; p++)
        fewest = MIN (fewest, embers_snapshots_get_n_steps (snapshots, p));
      adw_banner_set_revealed (self->noise_banner, FALSE);
      /* Translators: how many rows have a step beyond the noise, of how
       * many; then the false discovery rate, the steps tested and the
       * fewest steps a snapshot has */
      summary = g_strdup_printf (_("%u of %u jump beyond the noise (Welch's t-test on per-step shares; "
                                   "false discoveries held at %.0f%% over all %u steps tested; "
                                   "at least %u steps per snapshot)"),
                                 embers_snapshots_get_n_flagged (snapshots), n_rows,
                                 embers_snapshots_get_fdr (snapshots) * 100,
                                 embers_snapshots_get_n_tested (snapshots), fewest);
    }
  else
    {
      guint fewest = G_MAXUINT, at = 0;
      g_autofree char *banner = NULL;

      for (guint p = 0; p < K; p++)
        if (embers_snapshots_get_n_steps (snapshots, p) < fewest)
          {
            fewest = embers_snapshots_get_n_steps (snapshots, p);
            at = p;
          }
      /* Translators: the steps the noise test needs, then a snapshot's name and its steps */
      banner = g_strdup_printf (_("Not enough steps to tell a change from noise: each snapshot needs %u, “%s” has %u. "
                                  "Changes are shown; none is flagged"),
                                EMBERS_DIFF_STATS_MIN_STEPS, embers_snapshots_get_name (snapshots, at), fewest);
      adw_banner_set_title (self->noise_banner, banner);
      adw_banner_set_revealed (self->noise_banner, TRUE);
      summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u row, by its largest step change",
                                              "%u rows, by their largest step change", n_rows), n_rows);
    }
  gtk_label_set_text (self->summary_label, summary);

  g_list_store_remove_all (self->rows);
  build_columns (self);
  {
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

    for (guint i = 0; i < n_rows; i++)
      g_ptr_array_add (items, row_new (snapshots, i));
    g_list_store_splice (self->rows, 0, 0, items->pdata, items->len);
  }
  build_order_list (self);
  gtk_stack_set_visible_child_name (self->stack, "table");
  set_loading (self, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "regressions.reverse", TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->order_button), TRUE);
}

/* Loading */

static void
loaded (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(EmbersRegressionsPage) self = user_data;
  g_autoptr(EmbersSnapshots) snapshots = NULL;
  g_autoptr(GError) error = NULL;

  if (self->mode == MODE_FILES)
    snapshots = embers_snapshots_load_files_finish (result, &error);
  else if (EMBERS_IS_LOCAL_SOURCE (object))
    snapshots = embers_local_source_snapshots_finish (EMBERS_LOCAL_SOURCE (object), result, &error);
  else
    snapshots = embers_pyroscope_snapshots_finish (EMBERS_PYROSCOPE_SOURCE (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_CANCELED))
    return;
  if (snapshots == NULL)
    {
      show_error (self, error);
      return;
    }
  show_table (self, snapshots);
}

static void
on_progress (guint    done,
             guint    total,
             gpointer user_data)
{
  EmbersRegressionsPage *self = user_data;
  g_autofree char *text = NULL;

  /* Translators: progress of the queries, one per call site */
  text = g_strdup_printf (_("%u of %u call sites"), done, total);
  adw_status_page_set_description (self->loading_page, text);
}

void
embers_regressions_page_reload (EmbersRegressionsPage *self)
{
  g_autoptr(EmbersSnapshots) snapshots = NULL;

  g_return_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self));

  embers_regressions_page_cancel (self);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_pointer (&self->error, g_free);
  adw_status_page_set_description (self->loading_page, NULL);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  set_loading (self, TRUE);

  if (self->mode == MODE_FILES)
    {
      embers_snapshots_load_files_async ((GFile * const *)self->files->pdata, self->files->len,
                                         EMBERS_SNAPSHOTS_MAX_ROWS_DEFAULT, self->cancellable,
                                         loaded, g_object_ref (self));
      return;
    }

  snapshots = embers_snapshots_new (EMBERS_DIFF_STATS_SHARE, 0);
  if (self->mode == MODE_LABEL)
    for (guint i = 0; self->values[i] != NULL; i++)
      {
        g_autoptr(EmbersQuery) q = embers_snapshots_query_with_label (self->base, self->label, self->values[i]);

        embers_snapshots_add_snapshot (snapshots, self->values[i], q, NULL);
      }
  else
    embers_snapshots_add_time_ranges (snapshots, self->base, self->n_ranges);

  if (EMBERS_IS_LOCAL_SOURCE (self->source))
    embers_local_source_snapshots_async (EMBERS_LOCAL_SOURCE (self->source), snapshots, self->cancellable,
                                         loaded, g_object_ref (self));
  else if (EMBERS_IS_PYROSCOPE_SOURCE (self->source))
    {
      adw_status_page_set_description (self->loading_page, _("Asking the server"));
      embers_pyroscope_snapshots_async (EMBERS_PYROSCOPE_SOURCE (self->source), snapshots, self->base,
                                        self->mode == MODE_LABEL ? self->label : NULL,
                                        EMBERS_SNAPSHOTS_MAX_ROWS_DEFAULT, on_progress, self,
                                        self->cancellable, loaded, g_object_ref (self));
    }
  else
    {
      g_autoptr(GError) error = g_error_new_literal (EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_NOT_SUPPORTED,
                                                     _("This source cannot line up snapshots"));

      show_error (self, error);
    }
}

void
embers_regressions_page_cancel (EmbersRegressionsPage *self)
{
  g_return_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->pending);
  if (self->loading)
    {
      set_loading (self, FALSE);
      if (self->snapshots != NULL)
        gtk_stack_set_visible_child_name (self->stack, "table");
      else
        {
          g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));

          show_error (self, error);
        }
    }
}

/* Order */

static void
reordered (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(EmbersRegressionsPage) self = user_data;
  EmbersSnapshots *snapshots = EMBERS_SNAPSHOTS (object);

  if (!embers_snapshots_compute_finish (snapshots, result, NULL) || snapshots != self->pending)
    return;
  g_clear_object (&self->pending);
  show_table (self, snapshots);
}

void
embers_regressions_page_set_order (EmbersRegressionsPage *self,
                                   const guint           *order,
                                   guint                  n)
{
  g_autoptr(EmbersSnapshots) next = NULL;

  g_return_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self));
  g_return_if_fail (self->snapshots != NULL);

  next = embers_snapshots_reorder (self->snapshots, order, n);
  g_return_if_fail (next != NULL);
  g_set_object (&self->pending, next);
  set_loading (self, TRUE);
  embers_snapshots_compute_async (next, NULL, reordered, g_object_ref (self));
}

static guint *
current_order (EmbersRegressionsPage *self,
               guint                 *n)
{
  guint K = embers_snapshots_get_n_snapshots (self->snapshots);
  guint *order = g_new (guint, MAX (K, 1u));

  for (guint p = 0; p < K; p++)
    order[p] = embers_snapshots_get_index (self->snapshots, p);
  *n = K;
  return order;
}

void
embers_regressions_page_reverse (EmbersRegressionsPage *self)
{
  g_autofree guint *order = NULL;
  guint K;

  g_return_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self));
  if (self->snapshots == NULL)
    return;

  order = current_order (self, &K);
  for (guint i = 0; i < K / 2; i++)
    {
      guint t = order[i];

      order[i] = order[K - 1 - i];
      order[K - 1 - i] = t;
    }
  embers_regressions_page_set_order (self, order, K);
}

void
embers_regressions_page_move (EmbersRegressionsPage *self,
                              guint                  position,
                              guint                  to)
{
  g_autofree guint *order = NULL;
  guint K, moved;

  g_return_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self));
  if (self->snapshots == NULL)
    return;

  order = current_order (self, &K);
  if (position >= K || to >= K || position == to)
    return;
  moved = order[position];
  if (to < position)
    memmove (&order[to + 1], &order[to], (position - to) * sizeof (guint));
  else
    memmove (&order[position], &order[position + 1], (to - position) * sizeof (guint));
  order[to] = moved;
  embers_regressions_page_set_order (self, order, K);
}

gboolean
embers_regressions_page_open_diff (EmbersRegressionsPage *self,
                                   guint                  row)
{
  const EmbersSnapshotRow *r;
  const EmbersQuery *a, *b;
  int step;

  g_return_val_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self), FALSE);
  if (self->snapshots == NULL || row >= embers_snapshots_get_n_rows (self->snapshots))
    return FALSE;

  r = embers_snapshots_get_row (self->snapshots, row);
  step = row_step (r);
  if (step < 0)
    return FALSE;
  a = embers_snapshots_get_query (self->snapshots, step);
  b = embers_snapshots_get_query (self->snapshots, step + 1);
  if (a == NULL || b == NULL)
    return FALSE;
  g_signal_emit (self, signals[SIGNAL_COMPARE_REQUESTED], 0, a, b);
  return TRUE;
}

/* Actions */

static void
page_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  EmbersRegressionsPage *self = EMBERS_REGRESSIONS_PAGE (widget);

  if (g_str_equal (action_name, "regressions.reverse"))
    embers_regressions_page_reverse (self);
  else if (g_str_equal (action_name, "regressions.cancel"))
    embers_regressions_page_cancel (self);
  else if (g_str_equal (action_name, "regressions.retry"))
    embers_regressions_page_reload (self);
}

static void
activate_row (GtkColumnView         *view,
              guint                  position,
              EmbersRegressionsPage *self)
{
  g_autoptr(EmbersRegressionsRow) row = g_list_model_get_item (G_LIST_MODEL (self->rows), position);

  if (row != NULL)
    embers_regressions_page_open_diff (self, row->index);
}

guint
embers_regressions_page_get_n_ranges (EmbersRegressionsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self), 0);

  return self->mode == MODE_RANGES ? self->n_ranges : 0;
}

void
embers_regressions_page_set_n_ranges (EmbersRegressionsPage *self,
                                      guint                  n)
{
  g_return_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self));
  g_return_if_fail (self->mode == MODE_RANGES);

  n = CLAMP (n, EMBERS_REGRESSIONS_MIN_RANGES, EMBERS_REGRESSIONS_MAX_RANGES);
  if ((guint)gtk_spin_button_get_value_as_int (self->ranges_spin) != n)
    gtk_spin_button_set_value (self->ranges_spin, n);   /* comes back here */
  if (n == self->n_ranges)
    return;
  self->n_ranges = n;
  if (self->settings != NULL)
    g_settings_set_int (self->settings, "time-ranges", (int)n);
  set_ranges_title (self);
  embers_regressions_page_reload (self);
}

static void
ranges_changed (GtkSpinButton         *spin,
                EmbersRegressionsPage *self)
{
  if (self->mode == MODE_RANGES)
    embers_regressions_page_set_n_ranges (self, (guint)gtk_spin_button_get_value_as_int (spin));
}

/* GObject */

static void
embers_regressions_page_dispose (GObject *object)
{
  EmbersRegressionsPage *self = EMBERS_REGRESSIONS_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_REGRESSIONS_PAGE);

  G_OBJECT_CLASS (embers_regressions_page_parent_class)->dispose (object);
}

static void
embers_regressions_page_finalize (GObject *object)
{
  EmbersRegressionsPage *self = EMBERS_REGRESSIONS_PAGE (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->source);
  g_clear_pointer (&self->base, embers_query_free);
  g_free (self->label);
  g_strfreev (self->values);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_object (&self->snapshots);
  g_clear_object (&self->pending);
  g_clear_object (&self->rows);
  g_free (self->title);
  g_free (self->error);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (embers_regressions_page_parent_class)->finalize (object);
}

static void
embers_regressions_page_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  EmbersRegressionsPage *self = EMBERS_REGRESSIONS_PAGE (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_regressions_page_class_init (EmbersRegressionsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_regressions_page_dispose;
  object_class->finalize = embers_regressions_page_finalize;
  object_class->get_property = embers_regressions_page_get_property;

  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EmbersRegressionsPage::compare-requested:
   * @baseline: the query of the snapshot before the step
   * @comparison: the query of the snapshot after it
   */
  signals[SIGNAL_COMPARE_REQUESTED] =
    g_signal_new ("compare-requested",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, EMBERS_TYPE_QUERY, EMBERS_TYPE_QUERY);

  g_type_ensure (EMBERS_TYPE_SPARKLINE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/emberslab/Embers/embers-regressions-page.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, order_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, ranges_box);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, ranges_spin);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, order_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, order_list);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, reverse_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, stack);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, loading_page);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, noise_banner);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, EmbersRegressionsPage, table);

  gtk_widget_class_install_action (widget_class, "regressions.reverse", NULL, page_action);
  gtk_widget_class_install_action (widget_class, "regressions.cancel", NULL, page_action);
  gtk_widget_class_install_action (widget_class, "regressions.retry", NULL, page_action);
}

static void
embers_regressions_page_init (EmbersRegressionsPage *self)
{
  g_autoptr(GtkNoSelection) selection = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  GSettingsSchemaSource *schemas = g_settings_schema_source_get_default ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->rows = g_list_store_new (EMBERS_TYPE_REGRESSIONS_ROW);
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  gtk_column_view_set_model (self->table, GTK_SELECTION_MODEL (selection));
  embers_column_view_add_sort_keys (self->table);
  gtk_column_view_set_single_click_activate (self->table, FALSE);
  g_signal_connect_object (self->table, "activate", G_CALLBACK (activate_row), self, 0);
  embers_accessible_set_label (GTK_WIDGET (self->table), _("Functions across the snapshots"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "regressions.reverse", FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->order_button), FALSE);

  if (schemas != NULL)
    schema = g_settings_schema_source_lookup (schemas, APP_ID, TRUE);
  if (schema != NULL)
    {
      self->settings = g_settings_new (APP_ID);
      self->palette = g_settings_get_enum (self->settings, "diff-palette") == 1
                      ? EMBERS_DIFF_PALETTE_RED_GREEN : EMBERS_DIFF_PALETTE_RED_BLUE;
    }

  gtk_spin_button_set_range (self->ranges_spin, EMBERS_REGRESSIONS_MIN_RANGES, EMBERS_REGRESSIONS_MAX_RANGES);
  gtk_spin_button_set_increments (self->ranges_spin, 1, 5);
  embers_accessible_set_label (GTK_WIDGET (self->ranges_spin), _("Time Ranges"));
  g_signal_connect_object (self->ranges_spin, "value-changed", G_CALLBACK (ranges_changed), self, 0);
}

static EmbersRegressionsPage *
page_new (Mode mode)
{
  EmbersRegressionsPage *self = g_object_new (EMBERS_TYPE_REGRESSIONS_PAGE, NULL);

  self->mode = mode;
  return self;
}

EmbersRegressionsPage *
embers_regressions_page_new_for_label (EmbersSource       *source,
                                       const EmbersQuery  *base,
                                       const char         *label,
                                       const char * const *values)
{
  EmbersRegressionsPage *self;
  g_autofree char *title = NULL;

  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);
  g_return_val_if_fail (base != NULL && label != NULL && values != NULL, NULL);

  self = page_new (MODE_LABEL);
  self->source = g_object_ref (source);
  self->base = embers_query_copy (base);
  self->label = g_strdup (label);
  self->values = g_strdupv ((char **)values);
  /* Translators: a tab's title: a label name and how many of its values are lined up */
  title = g_strdup_printf (_("%s across %u values"), label, g_strv_length (self->values));
  set_title (self, title);
  embers_regressions_page_reload (self);
  return self;
}

EmbersRegressionsPage *
embers_regressions_page_new_for_ranges (EmbersSource      *source,
                                        const EmbersQuery *base,
                                        guint              n)
{
  EmbersRegressionsPage *self;

  g_return_val_if_fail (EMBERS_IS_SOURCE (source), NULL);
  g_return_val_if_fail (base != NULL && (n == 0 || n >= EMBERS_REGRESSIONS_MIN_RANGES), NULL);

  self = page_new (MODE_RANGES);
  self->source = g_object_ref (source);
  self->base = embers_query_copy (base);
  if (n == 0)
    n = self->settings != NULL ? (guint)g_settings_get_int (self->settings, "time-ranges")
                               : EMBERS_REGRESSIONS_DEFAULT_RANGES;
  self->n_ranges = CLAMP (n, EMBERS_REGRESSIONS_MIN_RANGES, EMBERS_REGRESSIONS_MAX_RANGES);
  /* Shown before the handler can act: mode is set, the value is the same */
  gtk_spin_button_set_value (self->ranges_spin, self->n_ranges);
  gtk_widget_set_visible (self->ranges_box, TRUE);
  set_ranges_title (self);
  embers_regressions_page_reload (self);
  return self;
}

EmbersRegressionsPage *
embers_regressions_page_new_for_files (GFile * const *files,
                                       guint          n)
{
  EmbersRegressionsPage *self;
  g_autofree char *title = NULL;

  g_return_val_if_fail (files != NULL && n >= 1, NULL);

  self = page_new (MODE_FILES);
  self->files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (self->files, g_object_ref (files[i]));
  if (n == 1)
    title = g_file_get_basename (files[0]);
  else
    /* Translators: a tab's title: how many files or folders are lined up */
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u profile lined up", "%u profiles lined up", n), n);
  set_title (self, title);
  embers_regressions_page_reload (self);
  return self;
}

EmbersSource *
embers_regressions_page_get_source (EmbersRegressionsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self), NULL);

  if (self->snapshots != NULL && embers_snapshots_get_source (self->snapshots) != NULL)
    return embers_snapshots_get_source (self->snapshots);
  return self->source;
}

EmbersSnapshots *
embers_regressions_page_get_snapshots (EmbersRegressionsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self), NULL);

  return self->snapshots;
}

gboolean
embers_regressions_page_get_loading (EmbersRegressionsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self), FALSE);

  return self->loading;
}

const char *
embers_regressions_page_get_title (EmbersRegressionsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self), NULL);

  return self->title;
}

const char *
embers_regressions_page_get_error (EmbersRegressionsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self), NULL);

  return self->error;
}

GtkColumnView *
embers_regressions_page_get_table (EmbersRegressionsPage *self)
{
  g_return_val_if_fail (EMBERS_IS_REGRESSIONS_PAGE (self), NULL);

  return self->table;
}
