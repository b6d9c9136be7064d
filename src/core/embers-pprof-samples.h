/* embers-pprof-samples.h: pprof samples decoded and deduplicated (internal)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "embers-tree-build.h"

G_BEGIN_DECLS

/*
 * The samples of a pprof profile, read straight from the wire one Sample
 * message at a time, before the tables they refer to are known (in files
 * written by Go, samples come first). Identical stacks are merged by the
 * bytes of their location ids, one hash per sample, before any id is even
 * decoded; their values are summed. The labelled samples are logged as
 * (stack, raw label set, values), the set being the bytes of the sample's
 * Label messages, and merged later by sorting: a probe per labelled sample
 * into a big map costs a cache miss each. Nothing here knows the string table or the locations:
 * embers-pprof.c resolves the ids. Equal stacks written differently (one
 * id per field, or overlong varints) become equal again there.
 */

typedef enum
{
  EMBERS_PPROF_SAMPLE_OK,
  EMBERS_PPROF_SAMPLE_NOT_PROTOBUF,   /* the message does not parse */
  EMBERS_PPROF_SAMPLE_VALUE_COUNT,    /* detail: the number of values */
  EMBERS_PPROF_SAMPLE_NEGATIVE,       /* detail: the sample type; value */
  EMBERS_PPROF_SAMPLE_OVERFLOW,       /* values add up past 64 bits */
  EMBERS_PPROF_SAMPLE_TOO_DEEP,       /* more locations than frames allowed */
} EmbersPprofSampleError;

typedef struct
{
  guint               n_types;       /* values per sample; 0 until known */
  gsize               n_samples;     /* samples read */

  /* Unique stacks: the packed varints of their location ids, leaf first */
  EmbersSeqTable      stacks;
  GArray             *values;        /* gint64, n_types per stack */
  GArray             *first_sample;  /* guint32 per stack */

  /* Raw label sets: each Label message's bytes after a varint of its
   * length; set ids count from 1 */
  EmbersSeqTable      label_sets;
  /* Per labelled sample, in order (merged later, by sorting) */
  GArray             *entry_stacks;  /* guint32 */
  GArray             *entry_sets;    /* guint32 */
  GArray             *entry_values;  /* gint64, n_types per entry */

  /* The first sample that could not be read, and why */
  EmbersPprofSampleError error;
  gsize               error_sample;
  guint64             error_detail;
  gint64              error_value;

  /* Scratch */
  gsize               index;         /* of the sample being read */
  GByteArray         *packed;        /* ids written one per field, packed */
  GByteArray         *label_bytes;
  GByteArray         *prev_label_bytes;
  guint32             prev_set;
  gint64              sample_values[65];
} EmbersPprofSamples;

void     embers_pprof_samples_init  (EmbersPprofSamples *s,
                                     guint               n_types);
void     embers_pprof_samples_clear (EmbersPprofSamples *s);

/* Reads one Sample message, the @index-th of the file. FALSE when it
 * cannot be read (see error): stop there. */
gboolean embers_pprof_samples_add   (EmbersPprofSamples *s,
                                     const guint8       *body,
                                     gsize               len,
                                     gsize               index);

/* Varints, as on the wire: FALSE at the end or for a bad one */
static inline gboolean
embers_pprof_varint (const guint8 **p,
                     const guint8  *end,
                     guint64       *out)
{
  const guint8 *q = *p;
  guint64 v;

  if G_LIKELY (q < end && *q < 0x80)
    {
      *out = *q;
      *p = q + 1;
      return TRUE;
    }

  v = 0;
  for (guint shift = 0; shift < 70; shift += 7)
    {
      guint8 byte;

      if (q >= end)
        return FALSE;
      byte = *q++;
      if (shift == 63 && byte > 1)
        return FALSE;
      v |= (guint64)(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        {
          *out = v;
          *p = q;
          return TRUE;
        }
    }

  return FALSE;
}

G_END_DECLS
