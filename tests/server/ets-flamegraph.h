/* ets-flamegraph.h: merged stacks -> FlameGraph levels, FlameGraphDiff, pprof
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Written from the encoding facts of PYROSCOPE-API.md section 2:
 * - levels[d] holds depth d, 4 ints per node [x_delta, total, self, name]
 *   (7 for a diff: left x_delta/total/self, right x_delta/total/self, name);
 * - x is delta-encoded per level against the previous node's end;
 * - a node's self is on its left: the first child starts at x + self;
 * - children are sorted by name; names[0] is "total";
 * - past max_nodes, the smallest nodes are merged into a child "other" of
 *   their parent, so every total is kept. Nodes are ranked by total
 *   (by max(left, right) for a diff); at most max_nodes real frames stay,
 *   and the root and the "other" nodes are not counted.
 */

#pragma once

#include "ets-connect.h"
#include "ets-store.h"

#include "querier.pb-c.h"

G_BEGIN_DECLS

#define ETS_MAX_NODES_DEFAULT 8192
#define ETS_MAX_NODES_MAX     1048576

/* self: one value per trie node (ets_store_get_n_nodes) */
Querier__V1__FlameGraph     *ets_flamegraph_build      (EtsCall      *call,
                                                        EtsStore     *store,
                                                        const gint64 *self,
                                                        gint64        max_nodes);
Querier__V1__FlameGraphDiff *ets_flamegraph_build_diff (EtsCall      *call,
                                                        EtsStore     *store,
                                                        const gint64 *left,
                                                        const gint64 *right,
                                                        gint64        max_nodes);
/* An uncompressed google.v1.Profile of the merged stacks */
GBytes                      *ets_flamegraph_pprof      (EtsStore             *store,
                                                        const gint64         *self,
                                                        const EtsProfileType *type,
                                                        gint64                start_ms,
                                                        gint64                end_ms,
                                                        GError              **error);

G_END_DECLS
