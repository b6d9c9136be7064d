/* embers-rule-type-chooser.h: the profile type of a new recording rule
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_RULE_TYPE_CHOOSER (embers_rule_type_chooser_get_type ())

G_DECLARE_FINAL_TYPE (EmbersRuleTypeChooser, embers_rule_type_chooser, EMBERS, RULE_TYPE_CHOOSER, GtkWidget)

/* A drop-down of a source's profile types (of the last day), hidden until
 * they are loaded. "profile-type" is the type chosen: set by a person's
 * choice, by load (the rule's own type, else CPU, else the first, so that
 * a new rule starts out valid) or by the setter, which does nothing when
 * the type is already chosen. While the list fills, the drop-down's
 * selection passes positions nobody chose: they are not taken. */
GtkWidget  *embers_rule_type_chooser_new              (void);
/* Lists @source's types; @current (the rule's type, or "unknown") is
 * kept in the list even when the source has none of it */
void        embers_rule_type_chooser_load             (EmbersRuleTypeChooser *self,
                                                       EmbersSource          *source,
                                                       const char            *current,
                                                       GCancellable          *cancellable);
const char *embers_rule_type_chooser_get_profile_type (EmbersRuleTypeChooser *self);
/* FALSE when @type is not in the list (or it is not loaded yet) */
gboolean    embers_rule_type_chooser_set_profile_type (EmbersRuleTypeChooser *self,
                                                       const char            *type);
/* The types offered, 0 until loaded */
guint       embers_rule_type_chooser_get_n_types      (EmbersRuleTypeChooser *self);

G_END_DECLS
