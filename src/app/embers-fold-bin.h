/* embers-fold-bin.h: a bin that lays its child's parts side by side when
 * they fit and stacks them when they do not
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define EMBERS_TYPE_FOLD_BIN (embers_fold_bin_get_type ())

G_DECLARE_FINAL_TYPE (EmbersFoldBin, embers_fold_bin, EMBERS, FOLD_BIN, GtkWidget)

GtkWidget *embers_fold_bin_new           (void);
/* A horizontal GtkOrientable (a GtkBox or a GtkPaned): it turns vertical
 * when its parts do not fit side by side */
GtkWidget *embers_fold_bin_get_child     (EmbersFoldBin *self);
void       embers_fold_bin_set_child     (EmbersFoldBin *self,
                                          GtkWidget     *child);
/* Folds below this width even when the parts would fit (0: only when
 * they do not fit) */
int        embers_fold_bin_get_threshold (EmbersFoldBin *self);
void       embers_fold_bin_set_threshold (EmbersFoldBin *self,
                                          int            threshold);
/* Whether the parts are stacked now */
gboolean   embers_fold_bin_get_folded    (EmbersFoldBin *self);

G_END_DECLS
