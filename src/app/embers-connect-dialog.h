/* embers-connect-dialog.h: connect to a Grafana Pyroscope server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "embers-credentials.h"
#include "embers-source.h"

G_BEGIN_DECLS

#define EMBERS_TYPE_CONNECT_DIALOG (embers_connect_dialog_get_type ())

G_DECLARE_FINAL_TYPE (EmbersConnectDialog, embers_connect_dialog, EMBERS, CONNECT_DIALOG, AdwDialog)

/*
 * A dialog (AdwDialog; the caller presents it): server URL (validated), optional tenant, authentication
 * (none, basic user + password, bearer token), "Test connection" and
 * "Connect". On success it emits
 *
 *   connected (EmbersSource *source, const char *url)
 *
 * with an EmbersPyroscopeSource and the normalised base URL, remembers the
 * URL in the "recent-servers" setting (when the schema has that key) and
 * the secret in the keyring, then closes. Secrets never go to GSettings.
 */

EmbersConnectDialog *embers_connect_dialog_new             (void);

void                 embers_connect_dialog_set_url         (EmbersConnectDialog *self,
                                                            const char          *url);
const char          *embers_connect_dialog_get_url         (EmbersConnectDialog *self);
void                 embers_connect_dialog_set_tenant      (EmbersConnectDialog *self,
                                                            const char          *tenant);
/* user is for BASIC only; secret is the password or the token */
void                 embers_connect_dialog_set_auth        (EmbersConnectDialog *self,
                                                            EmbersAuthKind       kind,
                                                            const char          *user,
                                                            const char          *secret);
/* Seconds the server has to answer (1 to 86400; 60 by default), saved per
 * server in the "server-timeouts" setting on connecting and restored with
 * its URL */
void                 embers_connect_dialog_set_timeout     (EmbersConnectDialog *self,
                                                            guint                seconds);
guint                embers_connect_dialog_get_timeout     (EmbersConnectDialog *self);
/* Why the dialog opens without the person asking (a saved view's server
 * wants credentials): @reason on the status line, and the focus on the
 * first empty field of the chosen kind of authentication */
void                 embers_connect_dialog_ask_credentials (EmbersConnectDialog *self,
                                                            const char          *reason);
/* The credentials as entered (never NULL) */
EmbersCredentials   *embers_connect_dialog_dup_credentials (EmbersConnectDialog *self);
/* Whether the URL is a valid http(s) URL */
gboolean             embers_connect_dialog_get_url_valid   (EmbersConnectDialog *self);

/* What the buttons do */
void                 embers_connect_dialog_test_connection (EmbersConnectDialog *self);
void                 embers_connect_dialog_connect         (EmbersConnectDialog *self);
/* Traces to profiles: a span id (16 hexadecimal digits) or trace id (32)
 * whose profile opens with the explore tab; NULL when none is typed.
 * Connect refuses one that is neither. */
void                 embers_connect_dialog_set_span_id     (EmbersConnectDialog *self,
                                                            const char          *id);
const char          *embers_connect_dialog_get_span_id     (EmbersConnectDialog *self);
/* TRUE while a test or a connection is under way */
gboolean             embers_connect_dialog_get_busy        (EmbersConnectDialog *self);
/* The last result shown to the user ("" before any) */
const char          *embers_connect_dialog_get_status      (EmbersConnectDialog *self);

G_END_DECLS
