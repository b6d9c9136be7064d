/* ets-server.h: embers-test-server's shared state
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <libsoup/soup.h>

#include "ets-connect.h"
#include "ets-store.h"

G_BEGIN_DECLS

typedef struct
{
  guint     delay_ms;
  gboolean  has_code;
  EtsCode   code;
  char     *message;
  gboolean  drop;          /* close the connection without a response */
  gboolean  truncate;      /* promise a longer body than sent, then close */
  guint     http_status;   /* a bare HTTP error page (proxy style) */
} EtsFault;

typedef struct _EtsRules EtsRules;

struct _EtsServer
{
  EtsStore   *store;
  gboolean    multitenancy;
  char       *basic_auth;      /* "user:pass" or NULL */
  char       *bearer;          /* token or NULL */
  gboolean    verbose;
  gboolean    no_diff;         /* --no-diff: Diff is a plain 404 */
  gboolean    v1_querier;      /* --v1-querier: no exemplars nor profile ids */

  /* recording rules */
  gboolean    recording_rules;
  guint       max_rules;
  EtsRules   *rules;

  /* global fault: applied to RPC and ingest requests */
  EtsFault    fault;
  gboolean    fault_enabled;
  guint       fault_remaining; /* 0 = no limit */
  guint       fault_every;     /* every Nth request; 0 or 1 = each */
  guint64     n_fault_candidates;

  /* GET /embers-test/stats: requests per path, and the most of them
   * answered at once (only delayed requests overlap) */
  GHashTable *n_requests;       /* path -> count */
  GHashTable *in_flight;        /* path -> count now */
  GHashTable *max_in_flight;    /* path -> most at once */
  GHashTable *peers;            /* "ip:port" of each client connection -> requests */
};

void ets_fault_clear (EtsFault *fault);

/* NULL-terminated tables */
extern const EtsMethod ets_querier_methods[];
extern const EtsMethod ets_rules_methods[];
extern const EtsMethod ets_push_methods[];

/* POST /ingest. TRUE when the answer comes later (a pprof is read on a
 * worker thread): the message is paused until then. */
gboolean   ets_ingest_handle (EtsServer         *server,
                              SoupServerMessage *msg,
                              GHashTable        *query,
                              const char        *tenant);

/* Recording rules state (ets-rules.c) */
EtsRules  *ets_rules_new     (guint              max_rules);
gboolean   ets_rules_load_provisioned (EtsRules   *rules,
                                       const char *path,
                                       GError    **error);
void       ets_rules_free    (EtsRules          *rules);

G_END_DECLS
