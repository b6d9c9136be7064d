/* embers-service-overview.h: every service of a source at a glance
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "embers-source.h"

G_BEGIN_DECLS

/*
 * The rows of a service overview (Grafana Profiles Drilldown's "All
 * services"): every service a source has in a range, each with the series
 * of one profile type over the range's chart points, its total and its
 * largest point.
 *
 * Built from two answers: ListSeries over service_name and
 * __profile_type__ (which services exist, and which types each has), and
 * SelectSeries of the chosen type grouped by service_name (the series, one
 * request for every service). A service without the chosen type has a row
 * with has_type FALSE, so it is never silently missing.
 *
 * Points are the chart's grid (embers_source_series_first_point(),
 * embers_source_series_n_points()): a grid point without a point in the
 * answer is NAN (no profiles in that step; a gap, not a zero).
 */

typedef struct
{
  char     *name;
  gboolean  has_type;   /* the service has profiles of the chosen type */
  double   *values;     /* n_values points on the grid, NAN where none */
  guint     n_values;
  double    total;      /* sum of the points (0 without any) */
  double    max;        /* largest point (0 without any) */
  gboolean  favourite;
} EmbersServiceRow;

#define EMBERS_TYPE_SERVICE_ROW (embers_service_row_get_type ())
GType             embers_service_row_get_type (void) G_GNUC_CONST;
EmbersServiceRow *embers_service_row_copy     (const EmbersServiceRow *row);
void              embers_service_row_free     (EmbersServiceRow       *row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersServiceRow, embers_service_row_free)

/* The services in a ListSeries answer over service_name and
 * __profile_type__ (EmbersSeries), as a table service -> sorted GStrv of
 * type ids */
GHashTable *embers_service_overview_types       (GPtrArray          *label_series);

/* The type to show first: @preferred when some service has it; else the
 * CPU type most services have (a "cpu" sample type); else the type most
 * services have; NULL without any. @types as returned above. */
char       *embers_service_overview_default_type (GHashTable        *types,
                                                 const char        *preferred);

/* Every type any service has, sorted (a NULL-terminated array) */
GStrv       embers_service_overview_all_types    (GHashTable        *types);

/* The rows: one per service in @types (with or without @profile_type),
 * points from @series (SelectSeries grouped by service_name) on the grid
 * of n_points points from first_ms, step_ms apart. Unsorted. */
GPtrArray  *embers_service_overview_rows         (GHashTable        *types,
                                                 const char        *profile_type,
                                                 GPtrArray         *series,
                                                 gint64             first_ms,
                                                 gint64             step_ms,
                                                 guint              n_points);

typedef enum
{
  EMBERS_SERVICE_SORT_NAME,
  EMBERS_SERVICE_SORT_TOTAL,
} EmbersServiceSort;

/* Favourites first; then by name (as people sort names: "api-2" before
 * "api-10"), or by total, largest first (rows without the type last),
 * name breaking ties */
void        embers_service_overview_sort         (GPtrArray         *rows,
                                                 EmbersServiceSort  sort);

/* The filter on names is an EmbersNameMatcher (embers-search.h): the
 * same substring or regular expression as the flame graph's search */

G_END_DECLS
