/* fuzz-speedscope.c: libFuzzer target for embers_speedscope_parse().
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

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  return fuzz_one ("embers_speedscope_parse", fuzz_read_speedscope, data, size);
}
