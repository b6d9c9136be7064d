/* embers-adaptive.h: breakpoints whose width is measured, not guessed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/*
 * A row (a toolbar) shows one of two pages of @stack: @wide_page where the
 * row fits with it, the other (a menu, a drop-down) where it does not.
 * @breakpoint switches @stack to the other page below the width the row
 * needs with @wide_page, measured whenever it may change (the row maps,
 * the font or text size changes, embers_adaptive_update() after the row's
 * content changed, or from the bin's size_allocate before it chains up: a
 * style loaded later changes widths too; unchanged figures cost nothing): fonts, text size and translations decide, no fixed
 * number. The row must span its breakpoint bin's width. The stack must
 * not be homogeneous in width.
 */
void embers_adaptive_follow_width (AdwBreakpoint *breakpoint,
                                   GtkWidget     *row,
                                   GtkStack      *stack,
                                   const char    *wide_page);
/* Measures again (after the row's content changed) */
void embers_adaptive_update       (AdwBreakpoint *breakpoint);

G_END_DECLS
