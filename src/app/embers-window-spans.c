/* embers-window-spans.c: traces to profiles, from the connect dialog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The span or trace id typed in the connect dialog opens, next to the
 * explore tab, the profile of that span (SelectMergeSpanProfile) or trace
 * (SelectMergeStacktraces with a trace selector): CPU time, every
 * service, the last hour, as Grafana's traces-to-profiles link asks by
 * default. Another type or range: a query URL with &span-id= (Open
 * Location).
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-window-private.h"

#define SPAN_PROFILE_TYPE "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

typedef struct
{
  EmbersWindow      *window;   /* weak */
  EmbersProfilePage *page;
  gboolean           trace;
  char              *title;
} SpanLoad;

static void
span_load_free (SpanLoad *load)
{
  g_clear_weak_pointer (&load->window);
  g_clear_object (&load->page);
  g_free (load->title);
  g_free (load);
}

static void
span_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  SpanLoad *load = user_data;
  EmbersPyroscopeSource *source = EMBERS_PYROSCOPE_SOURCE (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  AdwTabPage *tab = NULL;

  profile = load->trace
            ? embers_pyroscope_source_merge_trace_profile_finish (source, result, &error)
            : embers_pyroscope_source_merge_span_profile_finish (source, result, &error);
  if (load->window != NULL)
    tab = adw_tab_view_get_page (load->window->tab_view, GTK_WIDGET (load->page));
  if (tab == NULL)
    {
      span_load_free (load);
      return;
    }
  adw_tab_page_set_loading (tab, FALSE);
  if (profile == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not open the span’s profile: %s"), error->message);

      embers_window_add_toast (load->window, message);
      adw_tab_view_close_page (load->window->tab_view, tab);
      span_load_free (load);
      return;
    }
  embers_profile_page_set_profile (load->page, profile, load->title);
  span_load_free (load);
}

EmbersProfilePage *
embers_window_open_span (EmbersWindow          *self,
                         EmbersPyroscopeSource *source,
                         const char            *id)
{
  g_autoptr(EmbersQuery) query = NULL;
  g_autoptr(GError) error = NULL;
  gboolean trace;
  const char *ids[] = { id, NULL };
  EmbersProfilePage *page;
  AdwTabPage *tab;
  SpanLoad *load;
  gint64 now_ms = g_get_real_time () / 1000;

  g_return_val_if_fail (EMBERS_IS_WINDOW (self), NULL);
  g_return_val_if_fail (EMBERS_IS_PYROSCOPE_SOURCE (source), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  trace = strlen (id) == 32;
  if (!embers_pyroscope_check_span_id (id, trace, &error))
    {
      embers_window_add_toast (self, error->message);
      return NULL;
    }

  page = embers_profile_page_new ();
  tab = adw_tab_view_append (self->tab_view, GTK_WIDGET (page));
  g_object_bind_property (page, "title", tab, "title", G_BINDING_SYNC_CREATE);
  /* Translators: a tab's title while a span's or trace's profile loads */
  adw_tab_page_set_title (tab, trace ? _("Trace") : _("Span"));
  adw_tab_page_set_tooltip (tab, id);
  adw_tab_page_set_loading (tab, TRUE);
  adw_tab_view_set_selected_page (self->tab_view, tab);

  load = g_new0 (SpanLoad, 1);
  g_set_weak_pointer (&load->window, self);
  load->page = g_object_ref (page);
  load->trace = trace;
  /* Translators: a tab's title: "Span 9a517183f26a089d", "Trace 7c9e…" */
  load->title = g_strdup_printf (trace ? _("Trace %s") : _("Span %s"), id);

  query = embers_query_new (SPAN_PROFILE_TYPE, "{}", now_ms - 3600 * 1000, now_ms);
  if (trace)
    embers_pyroscope_source_merge_trace_profile_async (source, query, ids, NULL, span_done, load);
  else
    embers_pyroscope_source_merge_span_profile_async (source, query, ids, NULL, span_done, load);
  return page;
}
