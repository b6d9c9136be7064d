/* embers-top-model.h: the top table's rows as a lazy list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-profile.h"
#include "embers-search.h"
#include "embers-top.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_TOP_MODEL (embers_top_model_get_type ())

G_DECLARE_FINAL_TYPE (EmbersTopModel, embers_top_model, EMBERS, TOP_MODEL, GObject)

EmbersTopModel *embers_top_model_new         (void);

/* The rows (EmbersTopRow, as embers_top_compute() gives them) are shown as
 * they are: an EmbersTopItem is made only for a row that is asked for (a
 * row on screen, the selected one), never one per row. Sorting and the
 * search's filter reorder an array of row numbers. @rows is referenced. */
void            embers_top_model_set_rows    (EmbersTopModel *self,
                                              EmbersProfile  *profile,
                                              GArray         *rows);
void            embers_top_model_set_sort    (EmbersTopModel *self,
                                              EmbersTopSort   column,
                                              gboolean        descending);
/* Only the functions @search matches, while it is active (NULL: all) */
void            embers_top_model_set_search  (EmbersTopModel *self,
                                              EmbersSearch   *search);
/* The position of the function named @name (shown now if it was not
 * yet), or GTK's invalid position (G_MAXUINT) */
guint           embers_top_model_find_name   (EmbersTopModel *self,
                                              const char     *name);
/* The row that holds the `other` frames of an answer a node limit cut
 * (each a leaf named `other`, embers-fill.h): its name's string id, or
 * G_MAXUINT32 when there is none; and how many places were cut. It is no
 * function: a search never matches it. */
guint32         embers_top_model_get_cut_name (EmbersTopModel *self);
guint           embers_top_model_get_n_cut    (EmbersTopModel *self);
/* The rows the table has, shown already or not (a few at a time after a
 * change, see embers-top-model.c) */
guint           embers_top_model_get_n_rows  (EmbersTopModel *self);

G_END_DECLS
