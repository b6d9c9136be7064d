/* embers-transform-bar.h: the transform stack as a row of removable chips,
 * in the order the frame actions apply
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-transform-stack.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_TRANSFORM_BAR (embers_transform_bar_get_type ())

G_DECLARE_FINAL_TYPE (EmbersTransformBar, embers_transform_bar, EMBERS, TRANSFORM_BAR, GtkWidget)

/* Each chip's button activates @action_name (a "u" action: the step's
 * index) to remove its step; the default is "page.remove-transform". The
 * bar is hidden while the stack is empty. */
GtkWidget  *embers_transform_bar_new             (void);
void        embers_transform_bar_set_stack       (EmbersTransformBar         *self,
                                                  const EmbersTransformStack *stack);
void        embers_transform_bar_set_action_name (EmbersTransformBar         *self,
                                                  const char                 *action_name);
/* The chips' buttons, in order (for tests) */
guint       embers_transform_bar_get_n_chips     (EmbersTransformBar         *self);
GtkWidget  *embers_transform_bar_get_chip        (EmbersTransformBar         *self,
                                                  guint                       index);

/* A step in words, as on its chip: "Merge runtime.mallocgc" */
char       *embers_transform_describe            (EmbersTransformKind         kind,
                                                  const char * const         *args);

G_END_DECLS
