/* embers-pprof-samples.c: pprof samples decoded and deduplicated
 *
 * A Sample is { repeated uint64 location_id = 1; repeated int64 value = 2;
 * repeated Label label = 3; } with Label { int64 key = 1; int64 str = 2;
 * int64 num = 3; int64 num_unit = 4; }. Repeated numbers come packed
 * (proto3's default, as Go writes them) or one per field; both are read.
 * A known field with the wrong wire type, a bad varint or a field past the
 * message's end make the sample unreadable, as for protobuf-c; unknown
 * fields are skipped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "embers-profile-builder.h"
#include "embers-pprof-samples.h"

void
embers_pprof_samples_init (EmbersPprofSamples *s,
                           guint               n_types)
{
  memset (s, 0, sizeof *s);
  s->n_types = n_types;
  embers_seq_table_init (&s->stacks);
  s->values = g_array_new (FALSE, TRUE, sizeof (gint64));
  s->first_sample = g_array_new (FALSE, FALSE, sizeof (guint32));
  embers_seq_table_init (&s->label_sets);
  s->entry_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->entry_sets = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->entry_values = g_array_new (FALSE, TRUE, sizeof (gint64));
  s->packed = g_byte_array_sized_new (1024);
  s->label_bytes = g_byte_array_sized_new (256);
  s->prev_label_bytes = g_byte_array_sized_new (256);
}

void
embers_pprof_samples_clear (EmbersPprofSamples *s)
{
  embers_seq_table_clear (&s->stacks);
  g_clear_pointer (&s->values, g_array_unref);
  g_clear_pointer (&s->first_sample, g_array_unref);
  embers_seq_table_clear (&s->label_sets);
  g_clear_pointer (&s->entry_stacks, g_array_unref);
  g_clear_pointer (&s->entry_sets, g_array_unref);
  g_clear_pointer (&s->entry_values, g_array_unref);
  g_clear_pointer (&s->packed, g_byte_array_unref);
  g_clear_pointer (&s->label_bytes, g_byte_array_unref);
  g_clear_pointer (&s->prev_label_bytes, g_byte_array_unref);
}

#define varint embers_pprof_varint

/* Steps over the payload of an unknown field */
static inline gboolean
skip_field (const guint8 **p,
            const guint8  *end,
            guint          wire)
{
  guint64 v;

  switch (wire)
    {
    case 0:
      return varint (p, end, &v);
    case 1:
      if (end - *p < 8)
        return FALSE;
      *p += 8;
      return TRUE;
    case 5:
      if (end - *p < 4)
        return FALSE;
      *p += 4;
      return TRUE;
    case 2:
      if (!varint (p, end, &v) || v > (guint64)(end - *p))
        return FALSE;
      *p += v;
      return TRUE;
    default:
      return FALSE;
    }
}

/* Counts the varints of a packed field, or -1 when one is bad (too long,
 * past 64 bits, or cut off at the end) */
static inline gssize
count_varints (const guint8 *p,
               gsize         len)
{
  gsize count = 0;
  guint run = 0;

  for (gsize i = 0; i < len; i++)
    {
      guint8 b = p[i];

      if (b & 0x80)
        {
          if (++run > 9)
            return -1;
        }
      else
        {
          if (run == 9 && b > 1)
            return -1;
          count++;
          run = 0;
        }
    }

  return run == 0 ? (gssize)count : -1;
}

static gboolean
fail (EmbersPprofSamples     *s,
      EmbersPprofSampleError  error,
      guint64                 detail,
      gint64                  value)
{
  s->error = error;
  s->error_sample = s->index;
  s->error_detail = detail;
  s->error_value = value;
  return FALSE;
}

/* A Label message: int64 key = 1, str = 2, num = 3, num_unit = 4 */
static gboolean
label_ok (const guint8 *p,
          const guint8 *end)
{
  while (p < end)
    {
      guint64 tag, field, v;
      guint wire;

      if (!varint (&p, end, &tag))
        return FALSE;
      field = tag >> 3;
      wire = tag & 7;
      if (field == 0)
        return FALSE;
      if (field <= 4)
        {
          if (wire != 0 || !varint (&p, end, &v))
            return FALSE;
        }
      else if (!skip_field (&p, end, wire))
        return FALSE;
    }

  return TRUE;
}

gboolean
embers_pprof_samples_add (EmbersPprofSamples *s,
                          const guint8       *p,
                          gsize               len,
                          gsize               index)
{
  const guint8 *end = p + len;
  const guint8 *ids = NULL;
  gsize ids_len = 0, n_ids = 0;
  gboolean copied = FALSE;
  guint n_values = 0;
  guint n_types;
  guint32 stack, set = 0;
  gboolean added;
  gint64 *dest;

  g_byte_array_set_size (s->label_bytes, 0);
  s->index = index;

  while (p < end)
    {
      guint64 tag, field, v;
      guint wire;

      if (!varint (&p, end, &tag))
        return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
      field = tag >> 3;
      wire = tag & 7;

      if (field == 1)
        {
          /* Location ids: kept as their varints' bytes */
          const guint8 *start;
          gsize n_bytes;
          gssize count;

          if (wire == 2)
            {
              if (!varint (&p, end, &v) || v > (guint64)(end - p))
                return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
              start = p;
              n_bytes = v;
              p += v;
            }
          else if (wire == 0)
            {
              start = p;
              if (!varint (&p, end, &v))
                return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
              n_bytes = p - start;
            }
          else
            return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);

          count = count_varints (start, n_bytes);
          if (count < 0)
            return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
          n_ids += count;
          /* Every location is at least one frame */
          if G_UNLIKELY (n_ids > EMBERS_PROFILE_MAX_DEPTH)
            return fail (s, EMBERS_PPROF_SAMPLE_TOO_DEEP, 0, 0);

          if (ids == NULL)
            {
              ids = start;
              ids_len = n_bytes;
            }
          else
            {
              /* More than one field: join them, as packing would */
              if (!copied)
                {
                  g_byte_array_set_size (s->packed, 0);
                  g_byte_array_append (s->packed, ids, ids_len);
                  copied = TRUE;
                }
              g_byte_array_append (s->packed, start, n_bytes);
            }
        }
      else if (field == 2)
        {
          const guint8 *q = p, *qe = NULL;

          if (wire == 2)
            {
              if (!varint (&q, end, &v) || v > (guint64)(end - q))
                return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
              qe = q + v;
            }
          else if (wire != 0)
            return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);

          do
            {
              if (!varint (&q, qe ? qe : end, &v))
                return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
              if (n_values < G_N_ELEMENTS (s->sample_values))
                s->sample_values[n_values] = (gint64)v;
              n_values++;
            }
          while (qe != NULL && q < qe);
          p = q;
        }
      else if (field == 3)
        {
          const guint8 *start = p;

          if (wire != 2 || !varint (&p, end, &v) || v > (guint64)(end - p) || !label_ok (p, p + v))
            return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
          p += v;
          g_byte_array_append (s->label_bytes, start, p - start);
        }
      else if (field == 0 || !skip_field (&p, end, wire))
        return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
    }

  /* The first sample stored says how many values there are: a later one
   * cannot change it (a first sample of no values stored stacks with no
   * room for any) */
  if (s->n_types == 0 && s->first_sample->len == 0 && s->entry_stacks->len == 0)
    s->n_types = MIN (n_values, G_N_ELEMENTS (s->sample_values));
  n_types = s->n_types;
  if (n_values != n_types)
    return fail (s, EMBERS_PPROF_SAMPLE_VALUE_COUNT, n_values, 0);
  for (guint t = 0; t < n_types; t++)
    if G_UNLIKELY (s->sample_values[t] < 0)
      return fail (s, EMBERS_PPROF_SAMPLE_NEGATIVE, t, s->sample_values[t]);

  /* One hash per sample, over the ids' bytes: identical stacks become one */
  if (copied)
    {
      ids = s->packed->data;
      ids_len = s->packed->len;
    }
  stack = embers_seq_table_add_bytes (&s->stacks, ids, ids_len, &added);
  if G_UNLIKELY (stack == G_MAXUINT32)
    return fail (s, EMBERS_PPROF_SAMPLE_TOO_DEEP, 0, 0);
  if (added)
    {
      guint32 first = (guint32)MIN (index, (gsize)G_MAXUINT32);

      g_array_append_val (s->first_sample, first);
      g_array_set_size (s->values, s->values->len + n_types);
    }
  if (n_types > 0)
    {
      dest = &g_array_index (s->values, gint64, (gsize)stack * n_types);
      for (guint t = 0; t < n_types; t++)
        if G_UNLIKELY (__builtin_add_overflow (dest[t], s->sample_values[t], &dest[t]))
          return fail (s, EMBERS_PPROF_SAMPLE_OVERFLOW, 0, 0);
    }

  /* Labels: consecutive samples often share them */
  if (s->label_bytes->len > 0)
    {
      if (s->prev_set != 0 && s->label_bytes->len == s->prev_label_bytes->len &&
          memcmp (s->label_bytes->data, s->prev_label_bytes->data, s->label_bytes->len) == 0)
        set = s->prev_set;
      else
        {
          guint32 id = embers_seq_table_add_bytes (&s->label_sets, s->label_bytes->data,
                                                   s->label_bytes->len, &added);

          if G_UNLIKELY (id == G_MAXUINT32)
            return fail (s, EMBERS_PPROF_SAMPLE_TOO_DEEP, 0, 0);
          set = id + 1;
          s->prev_set = set;
          g_byte_array_set_size (s->prev_label_bytes, 0);
          g_byte_array_append (s->prev_label_bytes, s->label_bytes->data, s->label_bytes->len);
        }
    }

  if (set != 0)
    {
      g_array_append_val (s->entry_stacks, stack);
      g_array_append_val (s->entry_sets, set);
      g_array_append_vals (s->entry_values, s->sample_values, n_types);
    }

  s->n_samples++;
  return TRUE;
}
