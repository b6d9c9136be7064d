/* embers-widgets.c: the widgets library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "embers-widgets.h"
#include "embers-widgets-resources.h"

void
embers_widgets_ensure_resources (void)
{
  static gsize registered = 0;

  if (g_once_init_enter (&registered))
    {
      embers_widgets_register_resource ();
      g_once_init_leave (&registered, 1);
    }
}
