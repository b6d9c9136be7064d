/* fuzz-input.c: libFuzzer target for EmbersInput (embers-input.c): the
 * incremental sniffer, the streaming gzip inflation and the early checks
 * (pprof framing, NUL bytes in text), fed in blocks of every size.
 *
 * The first input byte picks the block size; the rest is the data. The
 * invariants:
 *  - what EmbersInput returns is exactly the data (inflated when gzip),
 *    and its format is embers_format_sniff() of that, never unknown;
 *  - early refusal is sound: when EmbersInput refuses data as "not a
 *    profile" or "corrupt", the whole data inflated without any early
 *    check must fail in the reader too (nothing loadable is refused);
 *  - errors are EMBERS_PROFILE_ERROR with a UTF-8 message.
 * It also runs embers_text_mask_credentials() on the data as text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fuzz-common.h"

#include "embers-input.h"
#include "embers-text.h"

#define FUZZ_CAP ((gsize)64 * 1024 * 1024)

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

static EmbersProfile *
parse_as (const guint8  *data,
          gsize          len,
          GError       **error)
{
  switch (embers_format_sniff (data, len))
    {
    case EMBERS_FORMAT_PPROF:
      return embers_pprof_parse (data, len, error);
    case EMBERS_FORMAT_FOLDED:
      return embers_folded_parse ((const char *) data, len, error);
    case EMBERS_FORMAT_FLAMEBEARER:
      return embers_flamebearer_parse ((const char *) data, len, error);
    case EMBERS_FORMAT_UNKNOWN:
    case EMBERS_FORMAT_PNG:
    case EMBERS_FORMAT_SVG:
    case EMBERS_FORMAT_PDF:
    default:
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT, "unknown");
      return NULL;
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(EmbersInput) input = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) reference = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) ref_error = NULL;
  EmbersInputOptions options;
  EmbersFormat format = EMBERS_FORMAT_UNKNOWN;
  gsize block;
  gboolean gzip;

  if (size < 1)
    return 0;
  block = 1 + (gsize) data[0] * data[0];
  data++;
  size--;

  /* Masking credentials takes any text */
  {
    g_autofree char *text = g_strndup ((const char *) data, MIN (size, (gsize) 4096));
    g_autofree char *masked = embers_text_mask_credentials (text);

    if (masked == NULL)
      fuzz_fail ("masking returned NULL");
  }

  embers_input_options_init (&options);
  options.max_input = FUZZ_CAP;
  options.max_inflated = FUZZ_CAP;
  input = embers_input_new (&options);

  for (gsize off = 0; off < size; off += block)
    if (!embers_input_push (input, data + off, MIN (block, size - off), &error))
      break;
  if (error == NULL)
    out = embers_input_finish (input, &format, &error);
  if (out == NULL)
    fuzz_check_error ("EmbersInput", error);

  /* The reference: everything inflated, nothing checked early */
  gzip = embers_is_gzip (data, size);
  if (gzip)
    reference = embers_gunzip (data, size, FUZZ_CAP, &ref_error);
  else
    reference = g_bytes_new_static (data, size);

  if (out != NULL)
    {
      if (reference == NULL)
        fuzz_fail ("EmbersInput read what gunzip refuses: %s", ref_error->message);
      if (!g_bytes_equal (out, reference))
        fuzz_fail ("EmbersInput gave %" G_GSIZE_FORMAT " bytes, not the %" G_GSIZE_FORMAT " of the data",
                   g_bytes_get_size (out), g_bytes_get_size (reference));
      if (format == EMBERS_FORMAT_UNKNOWN ||
          format != embers_format_sniff (g_bytes_get_data (out, NULL), g_bytes_get_size (out)))
        fuzz_fail ("EmbersInput says format %d, the sniffer %d", format,
                   embers_format_sniff (g_bytes_get_data (out, NULL), g_bytes_get_size (out)));
      return 0;
    }

  /* Refused early as not a profile, or corrupt: so must the full path */
  if (reference != NULL && g_bytes_get_size (reference) > 0 &&
      (g_error_matches (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT) ||
       g_error_matches (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID)))
    {
      g_autoptr(GError) parse_error = NULL;
      g_autoptr(EmbersProfile) profile = parse_as (g_bytes_get_data (reference, NULL),
                                                   g_bytes_get_size (reference), &parse_error);

      if (profile != NULL)
        fuzz_fail ("EmbersInput refused a loadable profile: %s", error->message);
    }

  return 0;
}
