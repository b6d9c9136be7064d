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
 * written by Go, samples come first): identical stacks of location ids
 * are merged with one hash per sample, their values summed; the part of a
 * stack's value that carries labels is kept per raw label set. Nothing
 * here knows the string table; embers-pprof.c resolves the ids.
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

/* Location ids at or above this are kept apart (big_ids) and stored as
 * EMBERS_PPROF_BIG_ID + their index there */
#define EMBERS_PPROF_BIG_ID 0x80000000u

typedef struct
{
  guint               n_types;       /* values per sample; 0 until known */
  gsize               n_samples;     /* samples seen */

  /* Unique stacks of location ids, leaf first as in the file */
  EmbersSeqTable      stacks;
  GArray             *values;        /* gint64, n_types per stack */
  GArray             *first_sample;  /* guint32 per stack */
  GArray             *big_ids;       /* guint64 */
  GHashTable         *big_index;     /* guint64 * -> index + 1 */

  /* Raw label sets: 8 words per label (key, str, num, num_unit as two
   * 32-bit halves each), as they are in the file; set ids count from 1 */
  EmbersSeqTable      label_sets;
  EmbersU64Map        entry_map;     /* stack << 32 | set -> entry */
  GArray             *entry_stacks;  /* guint32 */
  GArray             *entry_sets;    /* guint32 */
  GArray             *entry_values;  /* gint64, n_types per entry */

  /* The first sample that could not be read, and why */
  EmbersPprofSampleError error;
  gsize               error_sample;
  guint64             error_detail;
  gint64              error_value;

  /* Scratch */
  GArray             *ids;           /* guint32 */
  GArray             *words;         /* guint32 */
  GArray             *prev_words;    /* guint32 */
  guint32             prev_set;
  gint64              sample_values[65];
} EmbersPprofSamples;

void     embers_pprof_samples_init  (EmbersPprofSamples *s,
                                     guint               n_types);
void     embers_pprof_samples_clear (EmbersPprofSamples *s);

/* Reads one Sample message. FALSE when it cannot be read (see error):
 * stop there. */
gboolean embers_pprof_samples_add   (EmbersPprofSamples *s,
                                     const guint8       *body,
                                     gsize               len);

static inline guint64
embers_pprof_samples_location_id (const EmbersPprofSamples *s,
                                  guint32                   stored)
{
  if (stored < EMBERS_PPROF_BIG_ID)
    return stored;
  return g_array_index (s->big_ids, guint64, stored - EMBERS_PPROF_BIG_ID);
}

G_END_DECLS
