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
  s->big_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  s->big_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  embers_seq_table_init (&s->label_sets);
  embers_u64_map_init (&s->entry_map, 64);
  s->entry_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->entry_sets = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->entry_values = g_array_new (FALSE, TRUE, sizeof (gint64));
  s->ids = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 256);
  s->words = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 64);
  s->prev_words = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 64);
}

void
embers_pprof_samples_clear (EmbersPprofSamples *s)
{
  embers_seq_table_clear (&s->stacks);
  g_clear_pointer (&s->values, g_array_unref);
  g_clear_pointer (&s->first_sample, g_array_unref);
  g_clear_pointer (&s->big_ids, g_array_unref);
  g_clear_pointer (&s->big_index, g_hash_table_unref);
  embers_seq_table_clear (&s->label_sets);
  embers_u64_map_clear (&s->entry_map);
  g_clear_pointer (&s->entry_stacks, g_array_unref);
  g_clear_pointer (&s->entry_sets, g_array_unref);
  g_clear_pointer (&s->entry_values, g_array_unref);
  g_clear_pointer (&s->ids, g_array_unref);
  g_clear_pointer (&s->words, g_array_unref);
  g_clear_pointer (&s->prev_words, g_array_unref);
}

static inline gboolean
varint (const guint8 **p,
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

/* Steps over a field's payload of an unknown field */
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

static inline guint32
store_id (EmbersPprofSamples *s,
          guint64             id)
{
  gpointer value;

  if G_LIKELY (id < EMBERS_PPROF_BIG_ID)
    return (guint32)id;

  value = g_hash_table_lookup (s->big_index, &id);
  if (value == NULL)
    {
      g_array_append_val (s->big_ids, id);
      value = GUINT_TO_POINTER (s->big_ids->len);
      /* The key lives in big_ids: keep it stable by pointing at a copy */
      g_hash_table_insert (s->big_index, g_memdup2 (&id, sizeof id), value);
    }
  return EMBERS_PPROF_BIG_ID + GPOINTER_TO_UINT (value) - 1;
}

static gboolean
fail (EmbersPprofSamples     *s,
      EmbersPprofSampleError  error,
      guint64                 detail,
      gint64                  value)
{
  s->error = error;
  s->error_sample = s->n_samples;
  s->error_detail = detail;
  s->error_value = value;
  return FALSE;
}

static gboolean
read_label (EmbersPprofSamples *s,
            const guint8       *p,
            const guint8       *end)
{
  guint64 v[4] = { 0, 0, 0, 0 };

  while (p < end)
    {
      guint64 tag, field;
      guint wire;

      if (!varint (&p, end, &tag))
        return FALSE;
      field = tag >> 3;
      wire = tag & 7;
      if (field == 0)
        return FALSE;
      if (field <= 4)
        {
          if (wire != 0 || !varint (&p, end, &v[field - 1]))
            return FALSE;
        }
      else if (!skip_field (&p, end, wire))
        return FALSE;
    }

  for (guint k = 0; k < 4; k++)
    {
      guint32 halves[2] = { (guint32)v[k], (guint32)(v[k] >> 32) };

      g_array_append_vals (s->words, halves, 2);
    }
  return TRUE;
}

gboolean
embers_pprof_samples_add (EmbersPprofSamples *s,
                          const guint8       *p,
                          gsize               len)
{
  const guint8 *end = p + len;
  guint n_values = 0;
  guint n_types;
  guint32 stack, set = 0;
  gboolean added;
  gint64 *dest;

  g_array_set_size (s->ids, 0);
  g_array_set_size (s->words, 0);

  while (p < end)
    {
      guint64 tag, field, v;
      guint wire;

      if (!varint (&p, end, &tag))
        return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
      field = tag >> 3;
      wire = tag & 7;

      if (field == 1 || field == 2)
        {
          const guint8 *q = p, *qe;

          if (wire == 0)
            qe = NULL;
          else if (wire == 2)
            {
              if (!varint (&q, end, &v) || v > (guint64)(end - q))
                return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
              qe = q + v;
            }
          else
            return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);

          do
            {
              if (!varint (&q, qe ? qe : end, &v))
                return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
              if (field == 1)
                {
                  guint32 id = store_id (s, v);

                  /* Every location is at least one frame */
                  if G_UNLIKELY (s->ids->len >= EMBERS_PROFILE_MAX_DEPTH)
                    return fail (s, EMBERS_PPROF_SAMPLE_TOO_DEEP, 0, 0);
                  g_array_append_val (s->ids, id);
                }
              else
                {
                  if (n_values < G_N_ELEMENTS (s->sample_values))
                    s->sample_values[n_values] = (gint64)v;
                  n_values++;
                }
            }
          while (qe != NULL && q < qe);
          p = q;
        }
      else if (field == 3)
        {
          if (wire != 2 || !varint (&p, end, &v) || v > (guint64)(end - p) ||
              !read_label (s, p, p + v))
            return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
          p += v;
        }
      else if (field == 0 || !skip_field (&p, end, wire))
        return fail (s, EMBERS_PPROF_SAMPLE_NOT_PROTOBUF, 0, 0);
    }

  if (s->n_types == 0)
    s->n_types = MIN (n_values, G_N_ELEMENTS (s->sample_values));
  n_types = s->n_types;
  if (n_values != n_types)
    return fail (s, EMBERS_PPROF_SAMPLE_VALUE_COUNT, n_values, 0);
  for (guint t = 0; t < n_types; t++)
    if G_UNLIKELY (s->sample_values[t] < 0)
      return fail (s, EMBERS_PPROF_SAMPLE_NEGATIVE, t, s->sample_values[t]);

  /* One hash per sample: identical stacks become one */
  stack = embers_seq_table_add (&s->stacks, (const guint32 *)(gpointer)s->ids->data, s->ids->len, &added);
  if G_UNLIKELY (stack == G_MAXUINT32)
    return fail (s, EMBERS_PPROF_SAMPLE_TOO_DEEP, 0, 0);
  if (added)
    {
      guint32 first = (guint32)MIN (s->n_samples, (gsize)G_MAXUINT32);

      g_array_append_val (s->first_sample, first);
      g_array_set_size (s->values, s->values->len + n_types);
    }
  dest = &g_array_index (s->values, gint64, (gsize)stack * n_types);
  for (guint t = 0; t < n_types; t++)
    if G_UNLIKELY (__builtin_add_overflow (dest[t], s->sample_values[t], &dest[t]))
      return fail (s, EMBERS_PPROF_SAMPLE_OVERFLOW, 0, 0);

  /* Labels: consecutive samples often share them */
  if (s->words->len > 0)
    {
      if (s->prev_set != 0 && s->words->len == s->prev_words->len &&
          memcmp (s->words->data, s->prev_words->data, sizeof (guint32) * s->words->len) == 0)
        set = s->prev_set;
      else
        {
          guint32 id = embers_seq_table_add (&s->label_sets, (const guint32 *)(gpointer)s->words->data,
                                             s->words->len, &added);

          if G_UNLIKELY (id == G_MAXUINT32)
            return fail (s, EMBERS_PPROF_SAMPLE_TOO_DEEP, 0, 0);
          set = id + 1;
          s->prev_set = set;
          g_array_set_size (s->prev_words, 0);
          g_array_append_vals (s->prev_words, s->words->data, s->words->len);
        }
    }

  if (set != 0)
    {
      gboolean found;
      guint32 *slot = embers_u64_map_lookup_or_insert (&s->entry_map, ((guint64)stack << 32) | set, &found);

      if (!found)
        {
          *slot = s->entry_stacks->len;
          g_array_append_val (s->entry_stacks, stack);
          g_array_append_val (s->entry_sets, set);
          g_array_set_size (s->entry_values, s->entry_values->len + n_types);
        }
      dest = &g_array_index (s->entry_values, gint64, (gsize)*slot * n_types);
      for (guint t = 0; t < n_types; t++)
        dest[t] += s->sample_values[t];   /* cannot overflow: the stack's sum did not */
    }

  s->n_samples++;
  return TRUE;
}
