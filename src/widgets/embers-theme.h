/* embers-theme.h: the theme's colours for widgets that draw themselves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-chart.h"

G_BEGIN_DECLS

typedef enum
{
  EMBERS_THEME_FOREGROUND,       /* the widget's own CSS color */
  EMBERS_THEME_VIEW_BACKGROUND,  /* --view-bg-color */
  EMBERS_THEME_VIEW_FOREGROUND,  /* --view-fg-color */
  EMBERS_THEME_ACCENT,           /* --accent-color: accent text, outlines */
} EmbersThemeColor;

/*
 * A colour as the widget's CSS gives it, for widgets that draw with cairo
 * (the flame graph, its legend, the charts). The foreground is the
 * widget's own `color` (gtk_widget_get_color()); the others are read
 * from CSS custom properties through small hidden nodes below @widget,
 * so that they follow the widget's style (dark, high contrast, a custom
 * accent) as its own colour does. Look them up again when the widget's
 * CSS changes (GtkWidgetClass.css_changed).
 */
void embers_theme_get_color   (GtkWidget        *widget,
                               EmbersThemeColor  color,
                               GdkRGBA          *rgba);

/* TRUE when the widget's text is light: a dark theme */
gboolean embers_theme_is_dark (GtkWidget        *widget);

/* Chart colours from the widget's CSS: text and axes in its colour, the
 * hover marker and the selected range in the accent colour */
void embers_theme_chart_style (GtkWidget        *widget,
                               EmbersChartStyle *style);

G_END_DECLS
