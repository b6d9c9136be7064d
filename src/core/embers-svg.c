/* embers-svg.c: a flame graph as an interactive SVG document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <pango/pango.h>

#include "embers-palette.h"
#include "embers-svg.h"
#include "embers-text.h"
#include "embers-units.h"

/* The strip above the graphs: the heading, and the controls the script
 * shows */
#define TOOLBAR_HEIGHT 24.0

/* Numbers in the document: the C locale's point, at most two decimals */
static void
append_number (GString *out,
               double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char *end;

  if (!isfinite (value))
    value = 0;
  g_ascii_formatd (buf, sizeof buf, "%.2f", value);
  end = buf + strlen (buf);
  while (end > buf && end[-1] == '0')
    *--end = '\0';
  if (end > buf && end[-1] == '.')
    *--end = '\0';
  if (g_str_equal (buf, "-0"))
    g_strlcpy (buf, "0", sizeof buf);
  g_string_append (out, buf);
}

static void
append_color (GString           *out,
              const EmbersColor *color)
{
  guint8 r, g, b;

  embers_color_to_rgb8 (color, &r, &g, &b);
  g_string_append_printf (out, "#%02x%02x%02x", r, g, b);
}

/* Is @c a character XML 1.0 allows? */
static gboolean
is_xml_char (gunichar c)
{
  return c == 0x9 || c == 0xA || c == 0xD ||
         (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) ||
         (c >= 0x10000 && c <= 0x10FFFF);
}

/* Text that is already valid UTF-8 without controls, as XML character
 * data or an attribute value */
static void
append_xml (GString    *out,
            const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      switch (c)
        {
        case '<':
          g_string_append (out, "&lt;");
          break;
        case '>':
          g_string_append (out, "&gt;");
          break;
        case '&':
          g_string_append (out, "&amp;");
          break;
        case '"':
          g_string_append (out, "&quot;");
          break;
        case '\'':
          g_string_append (out, "&apos;");
          break;
        default:
          if (is_xml_char (c))
            g_string_append_unichar (out, c);
          else
            g_string_append_printf (out, "\\u%04X", c);
          break;
        }
    }
}

/* A name from a profile: escaped as --top escapes it (controls, bytes
 * that are not UTF-8, invisible reordering characters), then for XML */
static void
append_name (GString    *out,
             const char *name)
{
  g_autofree char *escaped = embers_text_escape (name != NULL ? name : "");

  append_xml (out, escaped);
}

/* The generic family of the style's font: monospace, serif or sans-serif,
 * and its size in px */
static void
font_of (const EmbersRenderStyle *style,
         const char             **family,
         double                  *size)
{
  PangoFontDescription *desc = pango_font_description_from_string (style->font != NULL ? style->font : "Monospace");
  g_autofree char *lower = g_ascii_strdown (pango_font_description_get_family (desc) ?: "monospace", -1);

  if (strstr (lower, "mono") != NULL || strstr (lower, "courier") != NULL)
    *family = "monospace";
  else if (strstr (lower, "serif") != NULL && strstr (lower, "sans") == NULL)
    *family = "serif";
  else
    *family = "sans-serif";

  *size = style->font_size > 0 ? style->font_size : 12.0;
  if (pango_font_description_get_set_fields (desc) & PANGO_FONT_MASK_SIZE)
    {
      double s = (double) pango_font_description_get_size (desc) / PANGO_SCALE;

      /* Points at 96 dpi, unless given in pixels */
      *size = pango_font_description_get_size_is_absolute (desc) ? s : s * 96.0 / 72.0;
    }
  pango_font_description_free (desc);
}

static const char *
legend_mode (EmbersDiffMode mode)
{
  return mode == EMBERS_DIFF_MODE_ABSOLUTE ?
         /* Translators: what the diff colours show (legend) */
         _("change of absolute value") :
         /* Translators: what the diff colours show (legend) */
         _("change of share of total");
}

/* What the diff legend says, in words (the <desc> of a diff) */
static char *
diff_description (const EmbersRenderStyle *style,
                  EmbersDiffWidth          diff_width)
{
  g_autofree char *legend = NULL;
  const char *widths, *colours;

  switch (diff_width)
    {
    case EMBERS_DIFF_WIDTH_COMPARISON:
      widths = _("the comparison’s values");
      break;
    case EMBERS_DIFF_WIDTH_BASELINE:
      widths = _("the baseline’s values");
      break;
    case EMBERS_DIFF_WIDTH_SUM:
    default:
      widths = _("baseline + comparison");
      break;
    }
  colours = style->diff_palette == EMBERS_DIFF_PALETTE_RED_GREEN ?
            _("green: shrank, gray: unchanged, red: grew") :
            _("blue: shrank, gray: unchanged, red: grew");
  /* Translators: diff legend, "red/blue · change of share of total" */
  legend = g_strdup_printf (_("%s · %s"), embers_palette_diff_name (style->diff_palette),
                            legend_mode (style->diff_mode));

  /* Translators: the description of an exported diff flame graph */
  return g_strdup_printf (_("Baseline vs comparison. Legend: %s; %s. "
                            "Bar widths: %s. Labels show the change in percent, or new / removed."),
                          legend, colours, widths);
}

/* The legend strip of a diff: "shrank [gradient] grew  red/blue · …",
 * placed by the width of a monospace character (0.6 em) */
static void
append_legend (GString                 *out,
               const EmbersRenderStyle *style,
               guint                    index,
               double                   font_size)
{
  /* Translators: diff legend caption at the "smaller" end of the scale */
  const char *shrank = _("shrank");
  /* Translators: diff legend caption at the "bigger" end of the scale */
  const char *grew = _("grew");
  g_autofree char *desc = g_strdup_printf (_("%s · %s"), embers_palette_diff_name (style->diff_palette),
                                           legend_mode (style->diff_mode));
  double em = 0.6 * font_size;
  double x = 8, mid = EMBERS_RENDER_LEGEND_HEIGHT / 2.0;

  g_string_append_printf (out, "<defs><linearGradient id=\"embers-diff-scale-%u\">", index);
  for (guint stop = 0; stop < 3; stop++)
    {
      EmbersColor c;

      embers_palette_diff_stop (style->diff_palette, stop, &c);
      g_string_append_printf (out, "<stop offset=\"%u%%\" stop-color=\"", stop * 50);
      append_color (out, &c);
      g_string_append (out, "\"/>");
    }
  g_string_append (out, "</linearGradient></defs>\n");

  g_string_append (out, "<g class=\"legend\" font-family=\"monospace\" fill=\"");
  append_color (out, &style->foreground);
  g_string_append (out, "\">");
  g_string_append (out, "<text x=\"8\" y=\"");
  append_number (out, mid);
  g_string_append (out, "\" dominant-baseline=\"central\">");
  append_xml (out, shrank);
  g_string_append (out, "</text>");
  x += g_utf8_strlen (shrank, -1) * em + 8;
  g_string_append (out, "<rect x=\"");
  append_number (out, x);
  g_string_append (out, "\" y=\"");
  append_number (out, mid - 5);
  g_string_append_printf (out, "\" width=\"120\" height=\"10\" fill=\"url(#embers-diff-scale-%u)\"/>", index);
  x += 120 + 8;
  g_string_append (out, "<text x=\"");
  append_number (out, x);
  g_string_append (out, "\" y=\"");
  append_number (out, mid);
  g_string_append (out, "\" dominant-baseline=\"central\">");
  append_xml (out, grew);
  g_string_append (out, "</text>");
  x += g_utf8_strlen (grew, -1) * em + 24;
  g_string_append (out, "<text x=\"");
  append_number (out, x);
  g_string_append (out, "\" y=\"");
  append_number (out, mid);
  g_string_append (out, "\" dominant-baseline=\"central\">");
  append_xml (out, desc);
  g_string_append (out, "</text></g>\n");
}

/* One rect of the display list */
static void
append_frame (GString                *out,
              EmbersLayout           *layout,
              const EmbersRect       *r,
              const EmbersRenderItem *item,
              const EmbersRenderStyle *style,
              double                  row_height,
              gboolean                diff)
{
  EmbersProfile *profile = embers_layout_get_profile (layout);
  gboolean merged = (r->flags & EMBERS_RECT_MERGED) != 0;
  gboolean border = (item->flags & EMBERS_RENDER_ITEM_BORDER) != 0 && style->border > 0;
  g_autofree char *tooltip = embers_render_rect_tooltip_text (layout, r);
  const char *name = merged ? NULL : embers_profile_node_name_str (profile, r->node);
  double w = border ? r->width - style->border : r->width;
  double h = border ? row_height - style->border : row_height;

  g_string_append (out, "<g class=\"f");
  if (merged)
    g_string_append (out, " m");
  if (!(item->flags & EMBERS_RENDER_ITEM_LABEL))
    g_string_append (out, " nl");
  g_string_append_printf (out, "\" data-n=\"%u\" data-e=\"%u\" data-x=\"", r->node, r->node_end);
  append_number (out, r->x);
  g_string_append (out, "\" data-w=\"");
  append_number (out, r->width);
  g_string_append_printf (out, "\" data-v=\"%" G_GINT64_FORMAT "\">", embers_layout_rect_get_total (layout, r));

  /* The tooltip: the name (escaped), then what the window's tooltip says */
  g_string_append (out, "<title>");
  if (name != NULL && g_str_has_prefix (tooltip, name))
    {
      append_name (out, name);
      append_xml (out, tooltip + strlen (name));
    }
  else
    {
      g_autofree char *escaped = embers_text_escape (tooltip);

      append_xml (out, escaped);
    }
  g_string_append (out, "</title>");

  /* A nested <svg> clips the label to the box */
  g_string_append (out, "<svg x=\"");
  append_number (out, r->x);
  g_string_append (out, "\" y=\"");
  append_number (out, embers_layout_rect_y (layout, r));
  g_string_append (out, "\" width=\"");
  append_number (out, MAX (w, 0.1));
  g_string_append (out, "\" height=\"");
  append_number (out, h);
  g_string_append (out, "\"><rect width=\"100%\" height=\"100%\" fill=\"");
  append_color (out, &item->fill);
  g_string_append (out, "\"");
  if (item->fill.alpha < 0.999)
    {
      g_string_append (out, " fill-opacity=\"");
      append_number (out, item->fill.alpha);
      g_string_append (out, "\"");
    }
  g_string_append (out, "/>");

  if (name != NULL)
    {
      g_string_append (out, "<text x=\"");
      append_number (out, style->text_padding);
      g_string_append (out, "\" y=\"50%\" dominant-baseline=\"central\" fill=\"");
      append_color (out, &item->text);
      g_string_append (out, "\">");
      append_name (out, name);
      if (diff)
        {
          g_autofree char *change = embers_render_diff_change_text (profile, r->node, style->diff_mode);

          if (change != NULL)
            {
              g_string_append (out, "<tspan class=\"c\">  ");
              append_xml (out, change);
              g_string_append (out, "</tspan>");
            }
        }
      g_string_append (out, "</text>");
    }
  g_string_append (out, "</svg></g>\n");
}

/* Zoom, reset and search; the words come from the document (translated) */
static const char script[] =
  "(function () {\n"
  "'use strict';\n"
  "var svg = document.documentElement;\n"
  "if (document.currentScript && document.currentScript.ownerSVGElement)\n"
  "  svg = document.currentScript.ownerSVGElement;\n"
  "var W = +svg.getAttribute('data-width');\n"
  "var minLabel = +svg.getAttribute('data-label-min');\n"
  "var border = +svg.getAttribute('data-border');\n"
  "var graphs = Array.prototype.slice.call(svg.querySelectorAll('g.graph'));\n"
  "var status = svg.querySelector('#embers-status');\n"
  "var term = null;\n"
  "function num(el, k) { return +el.getAttribute('data-' + k); }\n"
  "function frames(g) { return Array.prototype.slice.call(g.querySelectorAll('g.f')); }\n"
  "function place(f, x, w) {\n"
  "  var box = f.querySelector('svg');\n"
  "  box.setAttribute('x', x.toFixed(2));\n"
  "  box.setAttribute('width', Math.max(w - (w >= 3 * border ? border : 0), 0.1).toFixed(2));\n"
  "  f.classList.toggle('nl', f.classList.contains('m') || w < minLabel);\n"
  "}\n"
  "function reset(g) {\n"
  "  frames(g).forEach(function (f) {\n"
  "    f.classList.remove('hid', 'anc');\n"
  "    place(f, num(f, 'x'), num(f, 'w'));\n"
  "  });\n"
  "  g.removeAttribute('data-zoom');\n"
  "  update();\n"
  "}\n"
  "function zoom(g, t) {\n"
  "  var n = num(t, 'n'), e = num(t, 'e'), x0 = num(t, 'x'), k = W / num(t, 'w');\n"
  "  if (n === 0 && x0 === 0 && !t.classList.contains('m')) { reset(g); return; }\n"
  "  frames(g).forEach(function (f) {\n"
  "    var fn = num(f, 'n'), fe = num(f, 'e');\n"
  "    f.classList.remove('hid', 'anc');\n"
  "    if (fn >= n && fn < e) place(f, (num(f, 'x') - x0) * k, num(f, 'w') * k);\n"
  "    else if (fn < n && n < fe && !f.classList.contains('m')) { f.classList.add('anc'); place(f, 0, W); }\n"
  "    else f.classList.add('hid');\n"
  "  });\n"
  "  g.setAttribute('data-zoom', n);\n"
  "  update();\n"
  "}\n"
  "function name(f) {\n"
  "  var text = f.querySelector('text');\n"
  "  return text && text.firstChild ? text.firstChild.nodeValue : null;\n"
  "}\n"
  "function search(pattern) {\n"
  "  var re = null;\n"
  "  term = pattern;\n"
  "  if (pattern) {\n"
  "    try { re = new RegExp(pattern); } catch (err) { term = null; status.textContent = svg.getAttribute('data-bad-pattern'); return; }\n"
  "  }\n"
  "  var shares = [];\n"
  "  graphs.forEach(function (g) {\n"
  "    var end = -1, matched = 0, total = num(g, 'total');\n"
  "    frames(g).sort(function (a, b) { return num(a, 'n') - num(b, 'n'); }).forEach(function (f) {\n"
  "      var s = name(f), hit = re !== null && s !== null && re.test(s);\n"
  "      f.classList.toggle('match', hit);\n"
  "      if (hit && num(f, 'n') >= end) { matched += num(f, 'v'); end = num(f, 'e'); }\n"
  "    });\n"
  "    shares.push(total > 0 ? 100 * matched / total : 0);\n"
  "  });\n"
  "  svg.setAttribute('data-matched', shares.map(function (p) { return p.toFixed(2); }).join(' '));\n"
  "  update();\n"
  "}\n"
  "function update() {\n"
  "  var zoomed = graphs.some(function (g) { return g.hasAttribute('data-zoom'); });\n"
  "  svg.querySelector('#embers-reset').classList.toggle('off', !zoomed);\n"
  "  if (term === null) { status.textContent = ''; return; }\n"
  "  var shares = svg.getAttribute('data-matched').split(' ').map(function (p) { return p + '%'; });\n"
  "  status.textContent = svg.getAttribute('data-matched-format').replace('%s', shares.join(' · '));\n"
  "}\n"
  "function ask() {\n"
  "  if (term !== null) { search(null); return; }\n"
  "  var p = window.prompt(svg.getAttribute('data-prompt'), '');\n"
  "  if (p) search(p);\n"
  "}\n"
  "svg.addEventListener('click', function (ev) {\n"
  "  var t = ev.target;\n"
  "  if (t.closest('#embers-reset')) { graphs.forEach(reset); return; }\n"
  "  if (t.closest('#embers-search')) { ask(); return; }\n"
  "  if (t.closest('#embers-status')) { search(null); return; }\n"
  "  var f = t.closest('g.f');\n"
  "  if (f) zoom(f.closest('g.graph'), f);\n"
  "});\n"
  "document.addEventListener('keydown', function (ev) {\n"
  "  if ((ev.ctrlKey || ev.metaKey) && ev.key === 'f') { ev.preventDefault(); ask(); }\n"
  "  else if (ev.key === 'Escape') { graphs.forEach(reset); search(null); }\n"
  "});\n"
  "window.embers = { zoom: zoom, reset: reset, search: search };\n"
  "svg.classList.add('scripted');\n"
  "update();\n"
  "})();\n";

GBytes *
embers_svg_write (EmbersRender * const *renders,
                  guint                 n_renders,
                  double                width,
                  double                gap,
                  EmbersDiffWidth       diff_width)
{
  GString *out = g_string_sized_new (4096);
  const EmbersRenderStyle *style;
  const char *family;
  double font_size, height = TOOLBAR_HEIGHT, y;
  gboolean any_diff = FALSE;

  g_return_val_if_fail (renders != NULL && n_renders > 0, NULL);

  style = embers_render_get_style (renders[0]);
  font_of (style, &family, &font_size);

  for (guint i = 0; i < n_renders; i++)
    {
      EmbersLayout *layout = embers_render_get_layout (renders[i]);

      if (i > 0)
        height += gap;
      if (embers_layout_is_diff (layout))
        {
          any_diff = TRUE;
          height += EMBERS_RENDER_LEGEND_HEIGHT;
        }
      height += MAX (embers_layout_get_height (layout), embers_layout_get_viewport (layout)->row_height);
    }

  g_string_append (out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
  g_string_append (out, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"");
  append_number (out, width);
  g_string_append (out, "\" height=\"");
  append_number (out, height);
  g_string_append (out, "\" viewBox=\"0 0 ");
  append_number (out, width);
  g_string_append (out, " ");
  append_number (out, height);
  g_string_append_printf (out, "\" font-family=\"%s\" font-size=\"", family);
  append_number (out, font_size);
  g_string_append (out, "\" data-width=\"");
  append_number (out, width);
  g_string_append (out, "\" data-label-min=\"");
  append_number (out, style->label_min_width);
  g_string_append (out, "\" data-border=\"");
  append_number (out, style->border);
  g_string_append (out, "\" data-prompt=\"");
  /* Translators: the question an exported SVG asks in a browser */
  append_xml (out, _("Search for a regular expression"));
  g_string_append (out, "\" data-matched-format=\"");
  /* Translators: shown in an exported SVG after a search; %s is the matches' share of the total */
  append_xml (out, _("Matched: %s"));
  g_string_append (out, "\" data-bad-pattern=\"");
  append_xml (out, _("Not a regular expression"));
  g_string_append (out, "\">\n<title>");
  append_xml (out, any_diff ? _("Diff flame graph") : _("Flame graph"));
  g_string_append (out, "</title>\n<desc>");
  if (any_diff)
    {
      g_autofree char *desc = diff_description (style, diff_width);

      append_xml (out, desc);
      g_string_append_c (out, ' ');
    }
  /* Translators: the description of an exported SVG flame graph */
  append_xml (out, _("Made by Embers. In a browser: click a frame to zoom to it, click the root or Reset zoom to go back; Search (Ctrl+F) highlights the frames a regular expression matches and tells their share."));
  g_string_append (out, "</desc>\n");

  /* Matches in a colour no palette uses; controls shown with the script */
  g_string_append (out, "<style>\n"
                        ".f { cursor: pointer; }\n"
                        ".f text { white-space: pre; pointer-events: none; }\n"
                        ".nl text, .hid { display: none; }\n"
                        ".anc > svg > rect { fill-opacity: 0.6; }\n"
                        ".match > svg > rect { fill: #e000e0; }\n"
                        ".f:hover > svg > rect { stroke: ");
  append_color (out, &style->foreground);
  g_string_append (out, "; stroke-width: 1; }\n"
                        ".ui { display: none; cursor: pointer; }\n"
                        ".scripted .ui { display: inline; }\n"
                        ".scripted .ui.off { display: none; }\n"
                        "</style>\n");

  if (style->background.alpha > 0)
    {
      g_string_append (out, "<rect width=\"100%\" height=\"100%\" fill=\"");
      append_color (out, &style->background);
      g_string_append (out, "\"/>\n");
    }

  /* The toolbar: the heading, Reset zoom, Search and the matches */
  g_string_append (out, "<g class=\"toolbar\" fill=\"");
  append_color (out, &style->foreground);
  g_string_append (out, "\"><text x=\"8\" y=\"12\" dominant-baseline=\"central\">");
  {
    EmbersLayout *layout = embers_render_get_layout (renders[0]);
    EmbersProfile *profile = embers_layout_get_profile (layout);

    if (any_diff)
      append_xml (out, _("Diff flame graph"));
    else
      {
        guint type = embers_layout_get_sample_type (layout);
        g_autofree char *total = embers_format_value (embers_profile_get_total (profile, type),
                                                      embers_profile_get_sample_unit (profile, type));
        g_autofree char *sample_type = embers_text_escape (embers_profile_get_sample_type (profile, type));
        /* Translators: the heading of an exported SVG: sample type and total, "cpu, 2.99 s" */
        g_autofree char *heading = g_strdup_printf (_("%s, %s"), sample_type, total);

        append_xml (out, heading);
      }
  }
  g_string_append (out, "</text>");
  g_string_append (out, "<text id=\"embers-status\" class=\"ui\" x=\"");
  append_number (out, width - 8);
  g_string_append (out, "\" y=\"12\" text-anchor=\"end\" dominant-baseline=\"central\"></text>");
  g_string_append (out, "<text id=\"embers-search\" class=\"ui\" x=\"");
  append_number (out, width / 2 + 60);
  g_string_append (out, "\" y=\"12\" dominant-baseline=\"central\">");
  /* Translators: a button in an exported SVG */
  append_xml (out, _("Search"));
  g_string_append (out, "</text><text id=\"embers-reset\" class=\"ui off\" x=\"");
  append_number (out, width / 2 - 60);
  g_string_append (out, "\" y=\"12\" text-anchor=\"end\" dominant-baseline=\"central\">");
  /* Translators: a button in an exported SVG */
  append_xml (out, _("Reset zoom"));
  g_string_append (out, "</text></g>\n");

  y = TOOLBAR_HEIGHT;
  for (guint i = 0; i < n_renders; i++)
    {
      EmbersRender *render = renders[i];
      EmbersLayout *layout = embers_render_get_layout (render);
      const EmbersRenderStyle *part_style = embers_render_get_style (render);
      const EmbersViewport *vp = embers_layout_get_viewport (layout);
      gboolean diff = embers_layout_is_diff (layout);
      const EmbersRect *rects;
      const EmbersRenderItem *items;
      guint n_rects, n_items;
      gint64 total = 0;

      if (i > 0)
        y += gap;

      rects = embers_layout_get_rects (layout, &n_rects);
      items = embers_render_get_items (render, &n_items);
      for (guint k = 0; k < n_rects; k++)
        if (rects[k].node == embers_layout_get_focus (layout) && !(rects[k].flags & EMBERS_RECT_MERGED))
          total = embers_layout_rect_get_total (layout, &rects[k]);

      if (diff)
        {
          g_string_append (out, "<g transform=\"translate(0,");
          append_number (out, y);
          g_string_append (out, ")\">");
          append_legend (out, part_style, i, font_size);
          g_string_append (out, "</g>\n");
          y += EMBERS_RENDER_LEGEND_HEIGHT;
        }

      g_string_append (out, "<g class=\"graph\" transform=\"translate(0,");
      append_number (out, y);
      g_string_append_printf (out, ")\" data-total=\"%" G_GINT64_FORMAT "\">\n", total);
      for (guint k = 0; k < MIN (n_rects, n_items); k++)
        append_frame (out, layout, &rects[items[k].rect], &items[k], part_style, vp->row_height, diff);
      g_string_append (out, "</g>\n");
      y += MAX (embers_layout_get_height (layout), vp->row_height);
    }

  g_string_append (out, "<script><![CDATA[\n");
  g_string_append (out, script);
  g_string_append (out, "]]></script>\n</svg>\n");

  return g_string_free_to_bytes (out);
}
