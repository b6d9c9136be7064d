/* embers-flame-graph-private.h: the flame graph's state, shared by
 * embers-flame-graph.c (properties, data, invalidation, GObject),
 * embers-flame-graph-view.c (geometry, scrolling, zoom, focus history,
 * selection, size), embers-flame-graph-draw.c (worker paints, snapshot,
 * overlays, tooltips) and embers-flame-graph-input.c (pointer, gestures,
 * keys, actions, context menu)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-flame-graph.h"

G_BEGIN_DECLS

/* Smallest visible part of the focused frame's width (free zoom limit) */
#define MIN_RANGE 1e-9
#define ZOOM_STEP 1.25

struct _EmbersFlameGraph
{
  GtkWidget              parent_instance;

  EmbersProfile         *profile;
  char                  *share_of;   /* the whole the tooltip's shares are of (NULL: the total) */
  EmbersSearch          *search;
  EmbersLayout          *layout;
  EmbersRender          *render;

  /* A diff's noise test and its verdicts for self->profile */
  EmbersDiffStats       *noise;
  EmbersChangeVerdict   *verdicts;
  gboolean               hide_noise;

  /* The graph is painted on a worker thread into a texture, which is
   * reused until data, size, scroll or style change; hover and selection
   * are drawn on top of it. Until the texture for the view is there, the
   * last one is shown: moved and scaled to where it belongs after a zoom
   * or pan step, as it was after other changes. */
  struct _Paint         *shown;        /* the last finished paint */
  struct _Paint         *pending;      /* the paint on the worker */
  guint                  generation;   /* bumped by what a paint key cannot see */
  EmbersRender          *worker_render; /* used by one paint at a time */
  /* Outlines of the frames of the highlighted function */
  GskRenderNode         *highlight_cache;

  GtkAdjustment         *hadjustment;
  GtkAdjustment         *vadjustment;

  GMenuModel            *context_menu;
  GtkWidget             *popover;      /* made when first opened */

  EmbersRenderStyle      style;
  char                  *font;

  guint                  sample_type;
  EmbersLayoutDirection  direction;
  EmbersColorScheme      color_scheme;
  EmbersDiffPalette      diff_palette;
  EmbersDiffMode         diff_mode;
  EmbersDiffWidth        diff_width;

  guint32                focus;
  guint32                selected;
  int                    hover_rect;
  guint32                hover_node;
  double                 x_start;
  double                 x_end;
  /* flame direction: how far the view is scrolled up from the bottom */
  double                 v_from_bottom;

  GArray                *back;
  GArray                *forward;

  char                  *highlight_name;
  guint32                highlight_id;

  double                 pointer_x;
  double                 pointer_y;
  double                 drag_hvalue;
  double                 drag_vvalue;
  double                 zoom_scale;

  int                    alloc_width;
  int                    alloc_height;

  guint                  hscroll_policy : 1;
  guint                  vscroll_policy : 1;
  guint                  style_valid : 1;
  guint                  in_configure : 1;
  int                    configured_width;    /* the size the adjustments */
  int                    configured_height;   /* were last set up for */
  guint                  dragging : 1;
  guint                  has_pointer : 1;
  guint                  disposed : 1;
  guint                  measured_zoomed : 1;  /* as measure() last said */
};

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_SAMPLE_TYPE,
  PROP_DIRECTION,
  PROP_COLOR_SCHEME,
  PROP_DIFF_PALETTE,
  PROP_DIFF_MODE,
  PROP_DIFF_WIDTH,
  PROP_SEARCH,
  PROP_FOCUS_NODE,
  PROP_SELECTED_NODE,
  PROP_HOVER_NODE,
  PROP_HIGHLIGHT_NAME,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_ZOOMED,
  N_PROPS,

  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

/* A paint of the graph: what it shows, and the result */
typedef struct _Paint
{
  EmbersLayout      *layout;
  EmbersSearch      *search;
  EmbersRenderStyle  style;
  char              *font;
  double             offset;
  int                width;
  int                height;
  int                scale;
  guint              generation;
  EmbersProfile     *noise_profile;   /* the diff the verdicts are for */
  EmbersChangeVerdict *verdicts;
  gboolean           hide_noise;
  gboolean           opaque;          /* the texture may say it is opaque */
  GdkTexture        *texture;
  gint64             started;
  gint64             finished;
} Paint;

/* embers-flame-graph.c */
void     embers_flame_graph_notify                  (EmbersFlameGraph *self,
                                                     guint             prop_id);
void     embers_flame_graph_clear_paint             (EmbersFlameGraph *self);
void     embers_flame_graph_ensure_layout_for_width (EmbersFlameGraph *self,
                                                     int               width);
void     embers_flame_graph_ensure_layout           (EmbersFlameGraph *self);
void     embers_flame_graph_invalidate_layout       (EmbersFlameGraph *self);
void     embers_flame_graph_ensure_style            (EmbersFlameGraph *self);

/* embers-flame-graph-view.c */
double   embers_flame_graph_get_y_offset            (EmbersFlameGraph *self);
int      embers_flame_graph_hit_test                (EmbersFlameGraph *self,
                                                     double            x,
                                                     double            y);
const EmbersRect *
         embers_flame_graph_get_rect                (EmbersFlameGraph *self,
                                                     int               index);
int      embers_flame_graph_find_node               (EmbersFlameGraph *self,
                                                     guint32           node);
gboolean embers_flame_graph_selected_is_frame       (EmbersFlameGraph *self);
void     embers_flame_graph_update_actions          (EmbersFlameGraph *self);
void     embers_flame_graph_update_accessible       (EmbersFlameGraph *self);
void     embers_flame_graph_configure_adjustments   (EmbersFlameGraph *self);
void     embers_flame_graph_update_hover            (EmbersFlameGraph *self);
void     embers_flame_graph_on_vadjustment_changed  (EmbersFlameGraph *self,
                                                     GtkAdjustment    *adjustment);
void     embers_flame_graph_on_hadjustment_changed  (EmbersFlameGraph *self,
                                                     GtkAdjustment    *adjustment);
void     embers_flame_graph_notify_history          (EmbersFlameGraph *self,
                                                     gboolean          could_go_back,
                                                     gboolean          could_go_forward);
gboolean embers_flame_graph_is_zoomed               (EmbersFlameGraph *self);
void     embers_flame_graph_set_range               (EmbersFlameGraph *self,
                                                     double            x_start,
                                                     double            x_end);
void     embers_flame_graph_set_adjustment          (EmbersFlameGraph  *self,
                                                     GtkAdjustment    **slot,
                                                     GtkAdjustment     *adjustment,
                                                     GCallback          callback);
GtkSizeRequestMode
         embers_flame_graph_get_request_mode        (GtkWidget        *widget);
void     embers_flame_graph_measure                 (GtkWidget        *widget,
                                                     GtkOrientation    orientation,
                                                     int               for_size,
                                                     int              *minimum,
                                                     int              *natural,
                                                     int              *minimum_baseline,
                                                     int              *natural_baseline);
void     embers_flame_graph_size_allocate           (GtkWidget        *widget,
                                                     int               width,
                                                     int               height,
                                                     int               baseline);

/* embers-flame-graph-draw.c */
void     embers_flame_graph_paint_free              (Paint            *paint);
gboolean embers_flame_graph_paint_is_current        (EmbersFlameGraph *self,
                                                     Paint            *paint);
void     embers_flame_graph_request_paint           (EmbersFlameGraph *self,
                                                     double            offset);
void     embers_flame_graph_snapshot                (GtkWidget        *widget,
                                                     GtkSnapshot      *snapshot);
gboolean embers_flame_graph_query_tooltip           (GtkWidget        *widget,
                                                     int               x,
                                                     int               y,
                                                     gboolean          keyboard_mode,
                                                     GtkTooltip       *tooltip);

/* embers-flame-graph-input.c */
void     embers_flame_graph_class_init_input        (GtkWidgetClass   *widget_class);

G_END_DECLS
