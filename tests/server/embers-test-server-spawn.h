/* embers-test-server-spawn.h: start and stop embers-test-server from a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each call starts one server process on a free port of 127.0.0.1 with the
 * committed demo data (tests/server/data) unless extra_args has its own
 * --data, waits until it prints "listening on http://127.0.0.1:PORT/" and
 * returns. The process is killed on stop (and when the test process dies).
 *
 *   g_autoptr(EmbersTestServer) server = NULL;
 *   const char *args[] = { "--multitenancy", NULL };
 *
 *   server = embers_test_server_start (args, &error);
 *   g_assert_no_error (error);
 *   url = embers_test_server_get_url (server);   // "http://127.0.0.1:PORT/"
 *
 * The server's options are listed by `embers-test-server --help`. Useful
 * ones for tests: --now MS (a fixed "now" so data and answers are the same
 * on every run), --multitenancy, --basic-auth USER:PASS, --bearer TOKEN,
 * --recording-rules, --max-rules N, --provisioned FILE, --fault-* .
 *
 * The binary is the one meson built (EMBERS_TEST_SERVER_PATH); the
 * environment variable EMBERS_TEST_SERVER overrides it.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _EmbersTestServer EmbersTestServer;

/* extra_args: NULL-terminated, may be NULL. Fails after 20 s without the
 * "listening on" line, or when the server exits first (its stderr is
 * passed through to the test's stderr). */
EmbersTestServer *embers_test_server_start    (const char * const *extra_args,
                                               GError            **error);
/* "http://127.0.0.1:PORT/" (with the trailing slash) */
/* embers-hostile-server (a server that misbehaves, one mode per first
 * path segment: see its source), with the same handle */
EmbersTestServer *embers_hostile_server_start (GError            **error);
const char       *embers_test_server_get_url  (EmbersTestServer   *self);
guint16           embers_test_server_get_port (EmbersTestServer   *self);
/* The --data directory the helper passes by default */
const char       *embers_test_server_get_default_data_dir (void);
/* A request to the server's control paths (embers-test/faults,
 * embers-test/stats; see the README): @method on @path (relative to the
 * URL), with @json as the body when not NULL. Asserts that it answered
 * 200 and returns its body. */
char             *embers_test_server_control  (EmbersTestServer   *self,
                                               const char         *method,
                                               const char         *path,
                                               const char         *json);
/* One figure of GET embers-test/stats: @table is "requests" (answered) or
 * "maxInFlight" (most at once), @path an RPC path such as
 * "/querier.v1.QuerierService/Diff"; 0 for a path not asked */
gint64            embers_test_server_stat     (EmbersTestServer   *self,
                                               const char         *table,
                                               const char         *path);
/* Stops the process (SIGTERM, then SIGKILL after 5 s) and frees self. */
void              embers_test_server_stop     (EmbersTestServer   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersTestServer, embers_test_server_stop)

G_END_DECLS
