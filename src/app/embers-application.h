/* embers-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define EMBERS_TYPE_APPLICATION (embers_application_get_type ())

G_DECLARE_FINAL_TYPE (EmbersApplication, embers_application, EMBERS, APPLICATION, AdwApplication)

EmbersApplication *embers_application_new (void);

G_END_DECLS
