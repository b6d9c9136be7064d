/* ets-ingest.c: /ingest and push.v1.PusherService for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ets-server.h"

#include "push.pb-c.h"

void
ets_ingest_handle (EtsServer         *server,
                   SoupServerMessage *msg,
                   GHashTable        *query,
                   const char        *tenant)
{
  ets_respond_error (msg, ETS_CODE_UNIMPLEMENTED, "not yet");
}

const EtsMethod ets_push_methods[] = {
  { NULL }
};
