/* embers-services-page.h: every service of a source, each with a small chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "embers-query-model.h"
#include "embers-service-overview.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_SERVICES_PAGE (embers_services_page_get_type ())

G_DECLARE_FINAL_TYPE (EmbersServicesPage, embers_services_page, EMBERS, SERVICES_PAGE, GtkWidget)

/*
 * The first view of a server tab: a grid of every service in the query
 * model's range, each a card with its name, its total and a small chart of
 * one profile type (the tab's, else CPU), from two requests whatever the
 * number of services (ListSeries, then SelectSeries grouped by
 * service_name). A filter (text or regular expression), an order (name or
 * total) and favourites (saved per server) come first. Activating a card
 * emits "service-activated" with its name.
 *
 * Properties: loading (read-only). Signal: service-activated (name).
 */
GtkWidget              *embers_services_page_new            (EmbersQueryModel   *model);
void                    embers_services_page_reload         (EmbersServicesPage *self);
gboolean                embers_services_page_get_loading    (EmbersServicesPage *self);
/* The chosen profile type, or NULL before the first answer */
const char             *embers_services_page_get_profile_type (EmbersServicesPage *self);
gboolean                embers_services_page_set_profile_type (EmbersServicesPage *self,
                                                               const char         *profile_type);
/* The rows shown, in order (filtered); for tests and the accessible text */
guint                   embers_services_page_get_n_shown    (EmbersServicesPage *self);
const EmbersServiceRow *embers_services_page_get_shown      (EmbersServicesPage *self,
                                                             guint               position);
void                    embers_services_page_set_filter     (EmbersServicesPage *self,
                                                             const char         *text,
                                                             gboolean            regex);
void                    embers_services_page_set_sort       (EmbersServicesPage *self,
                                                             EmbersServiceSort   sort);
/* The filter's text ("" for none), and whether it is a regular expression */
const char             *embers_services_page_get_filter     (EmbersServicesPage *self,
                                                             gboolean           *regex);
EmbersServiceSort       embers_services_page_get_sort       (EmbersServicesPage *self);
void                    embers_services_page_set_favourite  (EmbersServicesPage *self,
                                                             const char         *service,
                                                             gboolean            favourite);
void                    embers_services_page_activate       (EmbersServicesPage *self,
                                                             const char         *service);

G_END_DECLS
