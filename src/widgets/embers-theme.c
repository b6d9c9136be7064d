/* embers-theme.c: the theme's colours for widgets that draw themselves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-theme.h"

/* A CSS node that is never shown: its colour is the one asked for */

#define EMBERS_TYPE_THEME_PROBE (embers_theme_probe_get_type ())
G_DECLARE_FINAL_TYPE (EmbersThemeProbe, embers_theme_probe, EMBERS, THEME_PROBE, GtkWidget)

struct _EmbersThemeProbe
{
  GtkWidget parent_instance;
};

G_DEFINE_FINAL_TYPE (EmbersThemeProbe, embers_theme_probe, GTK_TYPE_WIDGET)

static void
embers_theme_probe_class_init (EmbersThemeProbeClass *klass)
{
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "themecolor");
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_PRESENTATION);
}

static void
embers_theme_probe_init (EmbersThemeProbe *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (self), FALSE);
}

static const char * const probe_classes[] = {
  [EMBERS_THEME_FOREGROUND] = NULL,
  [EMBERS_THEME_VIEW_BACKGROUND] = "view-bg",
  [EMBERS_THEME_VIEW_FOREGROUND] = "view-fg",
  [EMBERS_THEME_ACCENT] = "accent",
};

#define PROBES_KEY "embers-theme-probes"

/* The probes' colours, whatever style sheets the application loads */
static void
ensure_css (GdkDisplay *display)
{
  static const char css[] =
    "themecolor.view-bg { color: var(--view-bg-color); }\n"
    "themecolor.view-fg { color: var(--view-fg-color); }\n"
    "themecolor.accent { color: var(--accent-color); }\n";
  g_autoptr(GtkCssProvider) provider = NULL;

  if (display == NULL || g_object_get_data (G_OBJECT (display), "embers-theme-css") != NULL)
    return;
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_string (provider, css);
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data_full (G_OBJECT (display), "embers-theme-css", g_steal_pointer (&provider), g_object_unref);
}

/* The widget goes: its probes with it */
static void
remove_probes (GtkWidget *widget)
{
  GtkWidget **probes = g_object_get_data (G_OBJECT (widget), PROBES_KEY);

  for (guint i = 0; probes != NULL && i < G_N_ELEMENTS (probe_classes); i++)
    g_clear_pointer (&probes[i], gtk_widget_unparent);
  g_object_set_data (G_OBJECT (widget), PROBES_KEY, NULL);
}

static GtkWidget *
probe_for (GtkWidget        *widget,
           EmbersThemeColor  color)
{
  GtkWidget **probes = g_object_get_data (G_OBJECT (widget), PROBES_KEY);

  if (probes == NULL)
    {
      ensure_css (gtk_widget_get_display (widget));
      probes = g_new0 (GtkWidget *, G_N_ELEMENTS (probe_classes));
      g_object_set_data_full (G_OBJECT (widget), PROBES_KEY, probes, g_free);
      g_signal_connect (widget, "destroy", G_CALLBACK (remove_probes), NULL);
    }
  if (probes[color] == NULL)
    {
      probes[color] = g_object_new (EMBERS_TYPE_THEME_PROBE, NULL);
      gtk_widget_add_css_class (probes[color], probe_classes[color]);
      gtk_widget_set_parent (probes[color], widget);
    }
  return probes[color];
}

void
embers_theme_get_color (GtkWidget        *widget,
                        EmbersThemeColor  color,
                        GdkRGBA          *rgba)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (color < G_N_ELEMENTS (probe_classes));
  g_return_if_fail (rgba != NULL);

  if (color == EMBERS_THEME_FOREGROUND)
    gtk_widget_get_color (widget, rgba);
  else
    gtk_widget_get_color (probe_for (widget, color), rgba);
  /* Colours mixed in other spaces (the accent is made in oklab) may fall
   * outside sRGB: the nearest that cairo can paint */
  rgba->red = CLAMP (rgba->red, 0.f, 1.f);
  rgba->green = CLAMP (rgba->green, 0.f, 1.f);
  rgba->blue = CLAMP (rgba->blue, 0.f, 1.f);
  rgba->alpha = CLAMP (rgba->alpha, 0.f, 1.f);
}

gboolean
embers_theme_is_dark (GtkWidget *widget)
{
  GdkRGBA fg;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  gtk_widget_get_color (widget, &fg);
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

void
embers_theme_chart_style (GtkWidget        *widget,
                          EmbersChartStyle *style)
{
  GdkRGBA fg, accent;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (style != NULL);

  gtk_widget_get_color (widget, &fg);
  embers_theme_get_color (widget, EMBERS_THEME_ACCENT, &accent);
  embers_chart_style_init (style, embers_theme_is_dark (widget));
  style->fg[0] = fg.red;
  style->fg[1] = fg.green;
  style->fg[2] = fg.blue;
  style->fg[3] = fg.alpha;
  style->accent[0] = style->selection[0] = accent.red;
  style->accent[1] = style->selection[1] = accent.green;
  style->accent[2] = style->selection[2] = accent.blue;
  style->accent[3] = accent.alpha;
}
