/* embers-credentials.h: server credentials from the keyring or environment
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Secrets live in the keyring (libsecret, schema
 * io.github.emberslab.Embers.Server keyed by server URL and user) or come
 * from environment variables for scripts. They are never written to
 * GSettings and never logged.
 */

#pragma once

#include <gio/gio.h>

#include "embers-connect-client.h"

G_BEGIN_DECLS

#define EMBERS_CREDENTIALS_SCHEMA_NAME "io.github.emberslab.Embers.Server"

typedef enum
{
  EMBERS_AUTH_NONE,
  EMBERS_AUTH_BASIC,   /* user + password */
  EMBERS_AUTH_BEARER,  /* token */
} EmbersAuthKind;

typedef struct
{
  EmbersAuthKind  kind;
  char           *user;    /* BASIC only */
  char           *secret;  /* the password (BASIC) or the token (BEARER) */
  char           *tenant;  /* X-Scope-OrgID; not a secret; NULL for none */
} EmbersCredentials;

#define EMBERS_TYPE_CREDENTIALS (embers_credentials_get_type ())
GType              embers_credentials_get_type         (void) G_GNUC_CONST;
EmbersCredentials *embers_credentials_new              (EmbersAuthKind           kind,
                                                        const char              *user,
                                                        const char              *secret,
                                                        const char              *tenant);
EmbersCredentials *embers_credentials_copy             (const EmbersCredentials *self);
/* Wipes the secret before freeing it. */
void               embers_credentials_free             (EmbersCredentials       *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersCredentials, embers_credentials_free)

/* EMBERS_USER + EMBERS_PASSWORD (basic; wins), EMBERS_TOKEN (bearer),
 * EMBERS_TENANT. NULL when none of them is set. */
EmbersCredentials *embers_credentials_from_environment (void);

/* Puts auth and tenant on a client (NONE clears the auth). */
void               embers_credentials_apply            (const EmbersCredentials *self,
                                                        EmbersConnectClient     *client);

/* The keyring key for a server: its normalised base URL. NULL if invalid. */
char              *embers_credentials_server_key       (const char              *server_url);

/* Keyring. Store replaces whatever was stored for that server. */
const void        *embers_credentials_get_schema       (void);  /* a const SecretSchema * */
void               embers_credentials_store_async      (const char              *server_url,
                                                        const EmbersCredentials *credentials,
                                                        GCancellable            *cancellable,
                                                        GAsyncReadyCallback      callback,
                                                        gpointer                 user_data);
gboolean           embers_credentials_store_finish     (GAsyncResult            *result,
                                                        GError                 **error);
/* Resolves to the stored credentials, or NULL without an error when none
 * are stored or no keyring is reachable (logged at debug level). user may
 * be NULL to take any user of that server. */
void               embers_credentials_lookup_async     (const char              *server_url,
                                                        const char              *user,
                                                        GCancellable            *cancellable,
                                                        GAsyncReadyCallback      callback,
                                                        gpointer                 user_data);
EmbersCredentials *embers_credentials_lookup_finish    (GAsyncResult            *result,
                                                        GError                 **error);
/* Removes every stored secret of that server. */
void               embers_credentials_clear_async      (const char              *server_url,
                                                        GCancellable            *cancellable,
                                                        GAsyncReadyCallback      callback,
                                                        gpointer                 user_data);
gboolean           embers_credentials_clear_finish     (GAsyncResult            *result,
                                                        GError                 **error);

G_END_DECLS
