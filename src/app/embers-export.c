/* embers-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>
#include <cairo-pdf.h>

#include "embers-export.h"
#include "embers-save.h"
#include "embers-svg.h"

/* Space between stacked graphs, px */
#define PART_GAP 16.0

typedef struct
{
  EmbersProfile       *profile;
  guint                sample_type;
  EmbersExportOptions  options;
  char                *font;
  char                *search;
} Part;

struct _EmbersExport
{
  GFile        *file;
  char         *path;
  EmbersFormat  format;
  gboolean      gzip;
  guint         sample_type;
  GPtrArray    *parts;
  EmbersProfile *profile;
  int           width;   /* images: this wide, 0 = as on screen */
};

static void
part_free (gpointer data)
{
  Part *part = data;

  g_clear_object (&part->profile);
  g_free (part->font);
  g_free (part->search);
  g_free (part);
}

EmbersExport *
embers_export_new (GFile   *file,
                   guint    sample_type,
                   GError **error)
{
  g_autofree char *name = NULL;
  EmbersExport *self;
  EmbersFormat format;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  name = g_file_get_basename (file);
  format = embers_format_for_filename (name);
  if (format == EMBERS_FORMAT_UNKNOWN)
    {
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                   _("Cannot tell the export format from “%s”; use .png, .svg, .pdf, .pb.gz, .folded or .json"),
                   name);
      return NULL;
    }

  self = g_new0 (EmbersExport, 1);
  self->file = g_object_ref (file);
  self->path = g_file_get_path (file);
  self->format = format;
  {
    g_autofree char *lower = g_ascii_strdown (name, -1);

    /* pprof is conventionally gzipped (.pb.gz, .pprof, .prof); a bare .pb
     * stays raw */
    self->gzip = format == EMBERS_FORMAT_PPROF && !g_str_has_suffix (lower, ".pb");
  }
  self->sample_type = sample_type;
  self->parts = g_ptr_array_new_with_free_func (part_free);
  return self;
}

void
embers_export_set_width (EmbersExport *self,
                         int           width)
{
  self->width = MAX (width, 0);
}

EmbersFormat
embers_export_get_format (EmbersExport *self)
{
  return self->format;
}

void
embers_export_add_graph (EmbersExport     *self,
                         EmbersFlameGraph *graph)
{
  EmbersProfile *profile = embers_flame_graph_get_profile (graph);
  Part *part;

  if (profile == NULL)
    return;

  part = g_new0 (Part, 1);
  part->profile = g_object_ref (profile);
  part->sample_type = embers_flame_graph_get_sample_type (graph);
  embers_flame_graph_get_export_options (graph, &part->options);
  /* Own the strings: the widget may change them while the thread runs */
  part->font = g_strdup (part->options.style.font);
  part->search = g_strdup (part->options.search);
  part->options.style.font = part->font;
  part->options.search = part->search;
  g_ptr_array_add (self->parts, part);
}

void
embers_export_add_profile (EmbersExport              *self,
                           EmbersProfile              *profile,
                           guint                       sample_type,
                           const EmbersExportOptions  *options)
{
  Part *part;

  g_return_if_fail (EMBERS_IS_PROFILE (profile));

  part = g_new0 (Part, 1);
  part->profile = g_object_ref (profile);
  part->sample_type = sample_type;
  if (options != NULL)
    part->options = *options;
  else
    embers_export_options_init (&part->options);
  part->font = g_strdup (part->options.style.font);
  part->search = g_strdup (part->options.search);
  part->options.style.font = part->font;
  part->options.search = part->search;
  g_ptr_array_add (self->parts, part);
}

void
embers_export_set_profile (EmbersExport  *self,
                           EmbersProfile *profile)
{
  g_set_object (&self->profile, profile);
}

void
embers_export_free (EmbersExport *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->file);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->parts, g_ptr_array_unref);
  g_free (self->path);
  g_free (self);
}

static gboolean
check_cairo (cairo_status_t   status,
             const char      *path,
             GError         **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
               _("Could not write the image %s: %s"), path, cairo_status_to_string (status));
  return FALSE;
}

/* Several graphs, one below the other, painted by the core painter */
static gboolean
export_stacked (EmbersExport  *self,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(GPtrArray) layouts = g_ptr_array_new_with_free_func ((GDestroyNotify)embers_layout_unref);
  g_autoptr(EmbersSave) save = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  double width = 0, height = 0, scale = 1, y = 0;
  gboolean ok;

  for (guint i = 0; i < self->parts->len; i++)
    {
      Part *part = g_ptr_array_index (self->parts, i);
      EmbersViewport vp;
      EmbersLayout *layout;

      width = MAX (width, part->options.width);
      scale = MAX (scale, part->options.scale);
      embers_viewport_init (&vp, part->options.width);
      vp.direction = part->options.direction;
      if (part->options.x_end > part->options.x_start && part->options.x_start >= 0 &&
          part->options.x_end <= 1)
        {
          vp.x_start = part->options.x_start;
          vp.x_end = part->options.x_end;
        }
      layout = embers_layout_new (part->profile, part->sample_type, part->options.focus, &vp);
      height += MAX (embers_layout_get_height (layout), vp.row_height) + (i > 0 ? PART_GAP : 0);
      g_ptr_array_add (layouts, layout);
    }

  /* Into a temporary file next to the target, renamed over it once whole */
  save = embers_save_new (self->path, error);
  if (save == NULL)
    return FALSE;

  /* SVG: written by us, every graph in one document (embers-svg.c) */
  if (self->format == EMBERS_FORMAT_SVG)
    {
      g_autoptr(GPtrArray) renders = g_ptr_array_new_with_free_func ((GDestroyNotify) embers_render_unref);
      g_autoptr(GBytes) svg = NULL;

      for (guint i = 0; i < self->parts->len; i++)
        {
          Part *part = g_ptr_array_index (self->parts, i);
          g_autoptr(EmbersSearch) search = NULL;

          if (part->search != NULL)
            search = embers_search_new (part->profile, part->search, part->options.search_flags, NULL);
          g_ptr_array_add (renders, embers_render_new (g_ptr_array_index (layouts, i), search,
                                                       &part->options.style));
        }
      svg = embers_svg_write ((EmbersRender * const *) renders->pdata, renders->len, width, PART_GAP,
                              ((Part *) g_ptr_array_index (self->parts, 0))->options.diff_width);
      return embers_save_write (save, g_bytes_get_data (svg, NULL), g_bytes_get_size (svg), error) &&
             embers_save_commit (save, cancellable, error);
    }

  switch (self->format)
    {
    case EMBERS_FORMAT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                            (int)ceil (width * scale), (int)ceil (height * scale));
      break;
    case EMBERS_FORMAT_PDF:
    default:
      surface = cairo_pdf_surface_create_for_stream (embers_save_cairo_write, save, width, height);
      break;
    }
  if (!check_cairo (cairo_surface_status (surface), self->path, error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }

  cr = cairo_create (surface);
  if (self->format == EMBERS_FORMAT_PNG)
    cairo_scale (cr, scale, scale);

  for (guint i = 0; i < self->parts->len; i++)
    {
      Part *part = g_ptr_array_index (self->parts, i);
      EmbersLayout *layout = g_ptr_array_index (layouts, i);
      g_autoptr(EmbersSearch) search = NULL;
      g_autoptr(EmbersRender) render = NULL;
      double h = MAX (embers_layout_get_height (layout), embers_layout_get_viewport (layout)->row_height);

      if (part->search != NULL)
        search = embers_search_new (part->profile, part->search, part->options.search_flags, NULL);
      render = embers_render_new (layout, search, &part->options.style);

      if (i > 0)
        {
          /* The gap in the background colour */
          const EmbersColor *bg = &part->options.style.background;

          cairo_set_source_rgba (cr, bg->red, bg->green, bg->blue, bg->alpha);
          cairo_rectangle (cr, 0, y, width, PART_GAP);
          cairo_fill (cr);
          y += PART_GAP;
        }

      cairo_save (cr);
      cairo_translate (cr, 0, y);
      cairo_rectangle (cr, 0, 0, width, h);
      cairo_clip (cr);
      embers_render_paint (render, cr);
      cairo_restore (cr);
      y += h;
    }

  /* A write error says why (the disk is full), cairo only that it failed */
  ok = embers_save_check (save, error) && check_cairo (cairo_status (cr), self->path, error);
  cairo_destroy (cr);
  if (ok && self->format == EMBERS_FORMAT_PNG)
    {
      cairo_status_t status = cairo_surface_write_to_png_stream (surface, embers_save_cairo_write, save);

      ok = embers_save_check (save, error) && check_cairo (status, self->path, error);
    }
  cairo_surface_finish (surface);
  if (ok)
    ok = embers_save_check (save, error) &&
         check_cairo (cairo_surface_status (surface), self->path, error);
  cairo_surface_destroy (surface);

  /* Only a whole file replaces the target */
  if (ok)
    ok = embers_save_commit (save, cancellable, error);

  return ok;
}

gboolean
embers_export_run (EmbersExport  *self,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GBytes) bytes = NULL;

  switch (self->format)
    {
    case EMBERS_FORMAT_PNG:
    case EMBERS_FORMAT_SVG:
    case EMBERS_FORMAT_PDF:
      if (self->path == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("Images can only be written to local files"));
          return FALSE;
        }
      if (self->parts->len == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                       _("There is no flame graph to export"));
          return FALSE;
        }
      /* A width asked for: that many pixels, whatever the screen */
      for (guint i = 0; self->width > 0 && i < self->parts->len; i++)
        {
          Part *part = g_ptr_array_index (self->parts, i);

          part->options.width = self->width;
          part->options.scale = 1;
        }
      if (self->parts->len == 1)
        {
          Part *part = g_ptr_array_index (self->parts, 0);

          return embers_render_export (part->profile, part->sample_type, &part->options,
                                       self->path, error);
        }
      return export_stacked (self, cancellable, error);

    case EMBERS_FORMAT_PPROF:
    case EMBERS_FORMAT_FOLDED:
    case EMBERS_FORMAT_FLAMEBEARER:
      if (self->profile == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                       _("There is no profile to export"));
          return FALSE;
        }
      bytes = embers_profile_save_bytes (self->profile, self->format, self->sample_type,
                                         self->gzip, error);
      if (bytes == NULL)
        return FALSE;
      /* Atomically: a temporary file, flushed, renamed over the target */
      if (self->path != NULL)
        return embers_save_contents (self->path, g_bytes_get_data (bytes, NULL),
                                     g_bytes_get_size (bytes), cancellable, error);
      /* Elsewhere (a GVfs location): GIO's own replace, which also keeps
       * the old file until the new one is whole */
      return g_file_replace_contents (self->file,
                                      g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                      NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                      NULL, cancellable, error);

    case EMBERS_FORMAT_UNKNOWN:
    default:
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                   _("This format cannot be exported"));
      return FALSE;
    }
}
