/* fuzz-load.c: libFuzzer target for embers_profile_load_bytes(): gzip
 * detection and inflation, format sniffing and every reader behind them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fuzz-common.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

static EmbersProfile *
fuzz_read_load (const guint8  *data,
                gsize          len,
                GError       **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, len);

  /* Sniffing must agree with itself and never crash on its own. */
  (void) embers_format_get_name (embers_format_sniff (data, len));

  return embers_profile_load_bytes (bytes, NULL, error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  return fuzz_one ("embers_profile_load_bytes", fuzz_read_load, data, size);
}
