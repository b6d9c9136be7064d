/* embers-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "embers-layout.h"
#include "embers-profile-private.h"

/* Frames at least this wide carry the LABEL flag */
#define LABEL_MIN_WIDTH 20.0

struct _EmbersLayout
{
  gatomicrefcount  ref_count;
  EmbersProfile   *profile;
  guint            sample_type;
  guint32          focus;
  EmbersViewport   viewport;
  gint64           focus_total;

  /* Width columns: a node's width value is width_a[i] (+ width_b[i] when
   * width_b is set: a diff drawn on both sides) */
  const gint64    *width_a;
  const gint64    *width_b;
  gboolean         is_diff;

  EmbersRect      *rects;
  guint            n_rects;
  guint           *row_start;   /* n_rows + 1 */
  guint            n_rows;
};

G_DEFINE_BOXED_TYPE (EmbersLayout, embers_layout, embers_layout_ref, embers_layout_unref)

void
embers_viewport_init (EmbersViewport *viewport,
                      double          width)
{
  g_return_if_fail (viewport != NULL);

  viewport->x_start = 0.0;
  viewport->x_end = 1.0;
  viewport->width = width;
  viewport->row_height = EMBERS_LAYOUT_ROW_HEIGHT;
  viewport->min_width = EMBERS_LAYOUT_MIN_WIDTH;
  viewport->direction = EMBERS_LAYOUT_ICICLE;
  viewport->diff_width = EMBERS_DIFF_WIDTH_SUM;
}

static inline gint64
width_value (const gint64 *a,
             const gint64 *b,
             guint32       node)
{
  gint64 sum;

  if (b == NULL)
    return a[node];
  if (G_UNLIKELY (__builtin_add_overflow (a[node], b[node], &sum)))
    return a[node] < 0 ? G_MININT64 : G_MAXINT64;
  return sum;
}

/* Frames with at least this many children have them noted in a list */
#define KIDS_MIN 1024

/* A frame whose children are laid out in the next row */
typedef struct
{
  guint32 node;
  double  x;      /* unclipped left edge, px */
} Expand;

typedef struct
{
  GArray *rects;
  double  view_width;
} Builder;

static void
emit (Builder *b,
      guint32  node,
      guint32  node_end,
      guint32  n_nodes,
      guint32  row,
      double   x,
      double   width,
      guint32  flags)
{
  double x0 = MAX (x, 0.0);
  double x1 = MIN (x + width, b->view_width);
  EmbersRect r;

  if (!(x1 > x0))
    return;

  if (x0 != x || x1 != x + width)
    flags |= EMBERS_RECT_CLIPPED;
  if (!(flags & EMBERS_RECT_MERGED) && x1 - x0 >= LABEL_MIN_WIDTH)
    flags |= EMBERS_RECT_LABEL;

  r.x = x0;
  r.width = x1 - x0;
  r.node = node;
  r.node_end = node_end;
  r.n_nodes = n_nodes;
  r.row = row;
  r.flags = flags;
  g_array_append_val (b->rects, r);
}

static void
layout_compute (EmbersLayout *self)
{
  EmbersProfile *profile = self->profile;
  const EmbersViewport *vp = &self->viewport;
  const gint64 *ta = self->width_a, *tb = self->width_b;
  const guint32 *ends;
  guint n_nodes;
  guint focus_depth;
  double span, k, min_width;
  Builder b;
  g_autoptr(GArray) row_start = NULL;
  g_autoptr(GArray) current = NULL;
  g_autoptr(GArray) next = NULL;
  g_autoptr(GArray) walked = NULL;
  guint row;

  n_nodes = embers_profile_get_n_nodes (profile);
  ends = embers_profile_get_end_column (profile);

  b.rects = g_array_new (FALSE, FALSE, sizeof (EmbersRect));
  b.view_width = vp->width;
  row_start = g_array_new (FALSE, FALSE, sizeof (guint));

  self->focus_total = n_nodes > 0 ? width_value (ta, tb, self->focus) : 0;

  if (n_nodes == 0 || self->focus_total <= 0 || !(vp->width > 0))
    goto done;

  /* Ancestors of the focus, full width, root first */
  focus_depth = embers_profile_node_depth (profile, self->focus);
  {
    g_autofree guint32 *chain = g_new (guint32, focus_depth + 1);
    guint32 n = self->focus;

    for (guint d = focus_depth; d > 0; d--)
      {
        n = embers_profile_node_parent (profile, n);
        chain[d - 1] = n;
      }
    for (guint d = 0; d < focus_depth; d++)
      {
        guint start = b.rects->len;

        g_array_append_val (row_start, start);
        emit (&b, chain[d], ends[chain[d]], 1, d, 0.0, vp->width, EMBERS_RECT_ANCESTOR);
      }
  }

  /* The focus spans [x_start, x_end] stretched to the width */
  span = vp->x_end - vp->x_start;
  k = vp->width / span / (double)self->focus_total;   /* px per value unit */
  min_width = vp->min_width;

  current = g_array_new (FALSE, FALSE, sizeof (Expand));
  next = g_array_new (FALSE, FALSE, sizeof (Expand));

  {
    guint start = b.rects->len;
    Expand e = { self->focus, -vp->x_start / span * vp->width };
    guint before = b.rects->len;

    g_array_append_val (row_start, start);
    emit (&b, self->focus, ends[self->focus], 1, focus_depth,
          e.x, (double)self->focus_total * k, EMBERS_RECT_FOCUS);
    if (b.rects->len > before)
      g_array_append_val (current, e);
  }

  row = focus_depth + 1;
  while (current->len > 0)
    {
      guint start = b.rects->len;

      g_array_set_size (next, 0);

      for (guint p = 0; p < current->len; p++)
        {
          const Expand *parent = &g_array_index (current, Expand, p);
          guint32 end = ends[parent->node];
          double offset = parent->x;
          /* The current run of narrow siblings */
          guint32 run_first = 0, run_last = 0, run_n = 0;
          double run_x = 0, run_w = 0;
          /* A frame with many children: read them from the list a walk
           * noted, or note them while walking (each step of a walk is a
           * cache miss, the list is one sweep) */
          gboolean big = end - parent->node > KIDS_MIN;
          const guint32 *kids = big ? _embers_profile_get_kids (profile, parent->node) : NULL;
          gboolean note = big && kids == NULL;
          guint32 c = parent->node + 1, next_kid = 0;

          if (note)
            {
              if (walked == NULL)
                walked = g_array_new (FALSE, FALSE, sizeof (guint32));
              g_array_set_size (walked, 0);
            }

          for (;;)
            {
              guint32 cur;
              gint64 v;
              double w, cx;

              if (kids != NULL)
                {
                  if (next_kid >= kids[0])
                    break;
                  cur = kids[1 + next_kid++];
                }
              else
                {
                  if (c >= end)
                    break;
                  cur = c;
                  c = ends[c];
                  if (note)
                    g_array_append_val (walked, cur);
                }

              v = width_value (ta, tb, cur);
              if (v <= 0)
                continue;

              w = (double)v * k;
              cx = offset;
              offset += w;

              if (cx + w <= 0.0)
                continue;               /* left of the viewport */
              if (cx >= vp->width)
                {
                  note = FALSE;         /* the rest is not walked */
                  break;                /* right of it: so are the rest */
                }

              if (w < min_width)
                {
                  if (run_n == 0)
                    {
                      run_first = cur;
                      run_x = cx;
                      run_w = 0;
                    }
                  run_w += w;
                  run_last = cur;
                  run_n++;
                  continue;
                }

              if (run_n > 0)
                {
                  emit (&b, run_first, ends[run_last], run_n, row, run_x, run_w,
                        run_n > 1 ? EMBERS_RECT_MERGED : EMBERS_RECT_NONE);
                  run_n = 0;
                }

              {
                guint before = b.rects->len;

                emit (&b, cur, ends[cur], 1, row, cx, w, EMBERS_RECT_NONE);
                if (b.rects->len > before && ends[cur] > cur + 1)
                  {
                    Expand e = { cur, cx };

                    g_array_append_val (next, e);
                  }
              }
            }

          if (run_n > 0)
            emit (&b, run_first, ends[run_last], run_n, row, run_x, run_w,
                  run_n > 1 ? EMBERS_RECT_MERGED : EMBERS_RECT_NONE);
          if (note && walked->len >= KIDS_MIN)
            _embers_profile_note_kids (profile, parent->node, (const guint32 *)(gpointer)walked->data,
                                       walked->len);
        }

      if (b.rects->len > start)
        g_array_append_val (row_start, start);

      {
        GArray *tmp = current;

        current = next;
        next = tmp;
      }
      row++;
    }

done:
  {
    guint end = b.rects->len;

    self->n_rows = row_start->len;
    g_array_append_val (row_start, end);
  }
  self->n_rects = b.rects->len;
  self->rects = (EmbersRect *)(gpointer)g_array_free (b.rects, FALSE);
  self->row_start = (guint *)(gpointer)g_array_free (g_steal_pointer (&row_start), FALSE);
}

EmbersLayout *
embers_layout_new (EmbersProfile        *profile,
                   guint                 sample_type,
                   guint32               focus,
                   const EmbersViewport *viewport)
{
  EmbersLayout *self;

  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (sample_type < embers_profile_get_n_sample_types (profile), NULL);

  self = g_new0 (EmbersLayout, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->profile = g_object_ref (profile);
  self->sample_type = sample_type;
  self->is_diff = embers_profile_is_diff (profile) && embers_profile_get_n_sample_types (profile) >= 2;

  if (focus == EMBERS_NODE_NONE || focus >= embers_profile_get_n_nodes (profile))
    focus = 0;
  self->focus = focus;

  if (viewport != NULL)
    self->viewport = *viewport;
  else
    embers_viewport_init (&self->viewport, 1000.0);

  if (!(self->viewport.x_end > self->viewport.x_start) ||
      !isfinite (self->viewport.x_start) || !isfinite (self->viewport.x_end))
    {
      self->viewport.x_start = 0.0;
      self->viewport.x_end = 1.0;
    }
  if (!(self->viewport.row_height > 0))
    self->viewport.row_height = EMBERS_LAYOUT_ROW_HEIGHT;
  if (!(self->viewport.min_width >= 0))
    self->viewport.min_width = EMBERS_LAYOUT_MIN_WIDTH;
  if (!isfinite (self->viewport.width))
    self->viewport.width = 0;
  if ((guint)self->viewport.diff_width > EMBERS_DIFF_WIDTH_BASELINE)
    self->viewport.diff_width = EMBERS_DIFF_WIDTH_SUM;

  if (!self->is_diff)
    {
      self->width_a = embers_profile_get_total_column (profile, sample_type);
      self->viewport.diff_width = EMBERS_DIFF_WIDTH_SUM;
    }
  else
    {
      /* Columns 0 and 1 are baseline and comparison (embers-diff.h) */
      const gint64 *baseline = embers_profile_get_total_column (profile, 0);
      const gint64 *comparison = embers_profile_get_total_column (profile, 1);

      switch (self->viewport.diff_width)
        {
        case EMBERS_DIFF_WIDTH_COMPARISON:
          self->width_a = comparison;
          break;
        case EMBERS_DIFF_WIDTH_BASELINE:
          self->width_a = baseline;
          break;
        case EMBERS_DIFF_WIDTH_SUM:
        default:
          self->width_a = baseline;
          self->width_b = comparison;
          break;
        }
    }

  layout_compute (self);

  return self;
}

void
embers_layout_prepare (EmbersProfile *profile,
                       guint          sample_type)
{
  EmbersViewport vp;

  g_return_if_fail (EMBERS_IS_PROFILE (profile));

  if (sample_type >= embers_profile_get_n_sample_types (profile))
    return;
  embers_viewport_init (&vp, 8192.0);
  embers_layout_unref (embers_layout_new (profile, sample_type, 0, &vp));
}

EmbersLayout *
embers_layout_ref (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
embers_layout_unref (EmbersLayout *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_clear_object (&self->profile);
      g_free (self->rects);
      g_free (self->row_start);
      g_free (self);
    }
}

EmbersProfile *
embers_layout_get_profile (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->profile;
}

guint
embers_layout_get_sample_type (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->sample_type;
}

guint32
embers_layout_get_focus (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->focus;
}

const EmbersViewport *
embers_layout_get_viewport (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->viewport;
}

gint64
embers_layout_get_focus_total (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->focus_total;
}

gboolean
embers_layout_is_diff (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->is_diff;
}

EmbersDiffWidth
embers_layout_get_diff_width (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, EMBERS_DIFF_WIDTH_SUM);
  return self->viewport.diff_width;
}

gint64
embers_layout_node_value (EmbersLayout *self,
                          guint32       node)
{
  g_return_val_if_fail (self != NULL, 0);

  if (node >= embers_profile_get_n_nodes (self->profile))
    return 0;
  return width_value (self->width_a, self->width_b, node);
}

const EmbersRect *
embers_layout_get_rects (EmbersLayout *self,
                         guint        *n_rects)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (n_rects)
    *n_rects = self->n_rects;
  return self->rects;
}

guint
embers_layout_get_n_rects (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rects;
}

const EmbersRect *
embers_layout_get_rect (EmbersLayout *self,
                        guint         index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->n_rects, NULL);

  return &self->rects[index];
}

guint
embers_layout_get_n_rows (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rows;
}

double
embers_layout_get_height (EmbersLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rows * self->viewport.row_height;
}

guint
embers_layout_get_row (EmbersLayout *self,
                       guint         row,
                       guint        *first)
{
  g_return_val_if_fail (self != NULL, 0);

  if (row >= self->n_rows)
    {
      if (first)
        *first = self->n_rects;
      return 0;
    }

  if (first)
    *first = self->row_start[row];
  return self->row_start[row + 1] - self->row_start[row];
}

double
embers_layout_row_y (EmbersLayout *self,
                     guint         row)
{
  g_return_val_if_fail (self != NULL, 0);

  if (self->viewport.direction == EMBERS_LAYOUT_FLAME)
    return ((double)self->n_rows - 1.0 - (double)row) * self->viewport.row_height;
  return (double)row * self->viewport.row_height;
}

double
embers_layout_rect_y (EmbersLayout     *self,
                      const EmbersRect *rect)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (rect != NULL, 0);

  return embers_layout_row_y (self, rect->row);
}

int
embers_layout_row_at_y (EmbersLayout *self,
                        double        y)
{
  double r;
  int row;

  g_return_val_if_fail (self != NULL, -1);

  if (!(y >= 0) || self->n_rows == 0)
    return -1;
  r = floor (y / self->viewport.row_height);
  if (r >= self->n_rows)
    return -1;
  row = (int)r;
  if (self->viewport.direction == EMBERS_LAYOUT_FLAME)
    row = (int)self->n_rows - 1 - row;
  return row;
}

int
embers_layout_hit_test (EmbersLayout *self,
                        double        x,
                        double        y)
{
  int row;
  guint lo, hi;

  g_return_val_if_fail (self != NULL, -1);

  row = embers_layout_row_at_y (self, y);
  if (row < 0 || !(x >= 0))
    return -1;

  /* Last rect in the row with rect.x <= x */
  lo = self->row_start[row];
  hi = self->row_start[row + 1];
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->rects[mid].x <= x)
        lo = mid + 1;
      else
        hi = mid;
    }

  if (lo == self->row_start[row])
    return -1;
  lo--;
  if (x < self->rects[lo].x + self->rects[lo].width)
    return (int)lo;

  return -1;
}

/* Index of the last rect in [first, last) of one row with node <= target,
 * or first - 1 (as -1 when first is 0) */
static int
row_search_node (EmbersLayout *self,
                 guint         first,
                 guint         last,
                 guint32       target)
{
  guint lo = first, hi = last;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->rects[mid].node <= target)
        lo = mid + 1;
      else
        hi = mid;
    }

  return (int)lo - 1;
}

int
embers_layout_find_node (EmbersLayout *self,
                         guint32       node)
{
  guint row;
  int i;
  const EmbersRect *r;

  g_return_val_if_fail (self != NULL, -1);

  if (node >= embers_profile_get_n_nodes (self->profile))
    return -1;

  row = embers_profile_node_depth (self->profile, node);
  if (row >= self->n_rows)
    return -1;

  i = row_search_node (self, self->row_start[row], self->row_start[row + 1], node);
  if (i < (int)self->row_start[row])
    return -1;

  r = &self->rects[i];
  if (r->node == node)
    return i;
  /* Inside a merged block: node has the block's depth, so it is one of its
   * siblings, not something deeper */
  if ((r->flags & EMBERS_RECT_MERGED) && node < r->node_end)
    return i;

  return -1;
}

int
embers_layout_get_neighbor (EmbersLayout   *self,
                            int             index,
                            EmbersNeighbor  which)
{
  const EmbersRect *r;

  g_return_val_if_fail (self != NULL, -1);

  if (index < 0 || (guint)index >= self->n_rects)
    return -1;

  r = &self->rects[index];

  switch (which)
    {
    case EMBERS_NEIGHBOR_PARENT:
      if (r->row == 0)
        return -1;
      return embers_layout_find_node (self, embers_profile_node_parent (self->profile, r->node));

    case EMBERS_NEIGHBOR_CHILD:
      {
        guint first, last;
        int best = -1, best_merged = -1;
        int i;

        if ((r->flags & EMBERS_RECT_MERGED) || r->row + 1 >= self->n_rows)
          return -1;

        first = self->row_start[r->row + 1];
        last = self->row_start[r->row + 2];
        /* First rect of the next row with node > r->node */
        i = row_search_node (self, first, last, r->node) + 1;
        for (; i < (int)last && self->rects[i].node < r->node_end; i++)
          {
            const EmbersRect *c = &self->rects[i];

            if (c->flags & EMBERS_RECT_MERGED)
              {
                if (best_merged < 0 || c->width > self->rects[best_merged].width)
                  best_merged = i;
              }
            else if (best < 0 || c->width > self->rects[best].width)
              {
                best = i;
              }
          }

        return best >= 0 ? best : best_merged;
      }

    case EMBERS_NEIGHBOR_PREVIOUS:
      for (int i = index - 1; i >= (int)self->row_start[r->row]; i--)
        if (!(self->rects[i].flags & EMBERS_RECT_MERGED))
          return i;
      return -1;

    case EMBERS_NEIGHBOR_NEXT:
      for (guint i = (guint)index + 1; i < self->row_start[r->row + 1]; i++)
        if (!(self->rects[i].flags & EMBERS_RECT_MERGED))
          return (int)i;
      return -1;

    default:
      g_return_val_if_reached (-1);
    }
}

GArray *
embers_layout_rect_get_nodes (EmbersLayout     *self,
                              const EmbersRect *rect)
{
  GArray *nodes;
  const guint32 *ends;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (rect != NULL, NULL);

  nodes = g_array_sized_new (FALSE, FALSE, sizeof (guint32), rect->n_nodes);
  if (!(rect->flags & EMBERS_RECT_MERGED))
    {
      g_array_append_val (nodes, rect->node);
      return nodes;
    }

  ends = embers_profile_get_end_column (self->profile);
  for (guint32 c = rect->node; c < rect->node_end; c = ends[c])
    if (width_value (self->width_a, self->width_b, c) > 0)
      g_array_append_val (nodes, c);

  return nodes;
}

gint64
embers_layout_rect_get_total (EmbersLayout     *self,
                              const EmbersRect *rect)
{
  const guint32 *ends;
  gint64 sum = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (rect != NULL, 0);

  if (!(rect->flags & EMBERS_RECT_MERGED))
    return width_value (self->width_a, self->width_b, rect->node);

  ends = embers_profile_get_end_column (self->profile);
  for (guint32 c = rect->node; c < rect->node_end; c = ends[c])
    {
      gint64 v = width_value (self->width_a, self->width_b, c);

      /* Only visible (positive) widths are in the block */
      if (v > 0 && __builtin_add_overflow (sum, v, &sum))
        return G_MAXINT64;
    }

  return sum;
}
