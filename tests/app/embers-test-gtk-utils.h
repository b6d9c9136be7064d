/* embers-test-gtk-utils.h: shared helpers for the window tests
 *
 * Waiting is for conditions, never for time: every wait returns as soon as
 * its condition holds, and only fails (with a message) when a generous
 * safety limit passes, so a busy machine slows the tests down but does not
 * make them fail.
 *
 * Pixels: embers_test_render() draws a widget the way GTK draws it in the
 * window (through gtk_widget_snapshot(), so a child that GTK would skip, for
 * example one without a current allocation, is missing from the picture
 * too), with the cairo renderer, so the pixels do not depend on the GPU.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "../embers-test-wait.h"

G_BEGIN_DECLS

/* gtk_test_init() and adw_init(), with animations off: a stack's
 * cross-fade or a revealer's slide ends at once, so what a frame draws
 * does not depend on how fast the machine is */
void        embers_test_gtk_init            (int                 *argc,
                                             char              ***argv);

typedef gboolean (*EmbersTestCondition) (gpointer data);

/* Iterates the main loop until @condition holds. Fails the test with
 * @what when it still does not after EMBERS_TEST_WAIT_LIMIT seconds
 * (default 120). */
void        embers_test_wait_until          (EmbersTestCondition  condition,
                                             gpointer             data,
                                             const char          *what);
/* Until *@flag is TRUE */
void        embers_test_wait_flag           (const gboolean      *flag,
                                             const char          *what);
/* Until @object's boolean or enum/int/uint @property equals @value */
void        embers_test_wait_property       (gpointer             object,
                                             const char          *property,
                                             gint64               value);
/* Until @widget's frame clock has painted a frame that started after this
 * call (queues a draw so that there is one): layout and drawing of every
 * change made before are done */
void        embers_test_wait_frame          (GtkWidget           *widget);
/* Until @widget is mapped and at least @width × @height, then a frame */
void        embers_test_wait_size           (GtkWidget           *widget,
                                             int                  width,
                                             int                  height);
/* Runs every pending idle and main-loop source that is ready now, without
 * blocking */
void        embers_test_drain               (void);
/* Runs what is ready, then until every window on screen has painted a
 * frame that started after this call: every change made before is laid
 * out and drawn (what "let the window settle" means, without a clock) */
void        embers_test_settle              (void);
/* Until @widget is mapped (on screen), then a frame */
void        embers_test_wait_mapped         (GtkWidget           *widget);
/* Until @object is finalized (its last reference dropped: pending
 * callbacks that hold one have run) */
void        embers_test_wait_gone           (gpointer             object,
                                             const char          *what);
/* g_assert_finalize_object() for an object that work still running may
 * hold for a while: until the caller's reference is the last one, then
 * drops it and asserts that this finalized the object */
void        embers_test_assert_finalize     (gpointer             object);

/* Waiting for a signal: expect it before the action that emits it, then
 * wait. The object may be finalized in between (the wait then fails,
 * unless the signal came first). */
typedef struct _EmbersTestSignal EmbersTestSignal;
EmbersTestSignal *embers_test_expect_signal (gpointer             object,
                                             const char          *detailed_signal);
/* Until the signal was emitted (at least once since it was expected);
 * frees @expected */
void        embers_test_wait_signal         (EmbersTestSignal    *expected);

/* Activates @widget as the keyboard does (Enter or Space on a button:
 * GTK shows it pressed and clicks it a moment later) once it is on
 * screen, and waits for its click */
void        embers_test_press               (GtkWidget           *widget);

/* Finds a descendant of @root (or @root) of @type, depth first; with
 * @name, only a widget whose name, buildable id or CSS name is @name */
GtkWidget  *embers_test_find_widget         (GtkWidget           *root,
                                             GType                type,
                                             const char          *name);

/* A window on screen: @width × @height by default, presented, mapped */
void        embers_test_present_window      (GtkWindow           *window,
                                             int                  width,
                                             int                  height);
/* Destroys @window and asserts that nothing keeps it: once what it left
 * to run has run, it is finalized (the caller's reference goes) */
void        embers_test_destroy_window      (GtkWindow           *window);
/* The first descendant of @root (or @root) whose action is @action_name */
GtkWidget  *embers_test_find_actionable     (GtkWidget           *root,
                                             const char          *action_name);

/* How many labels on screen (mapped) in @root show @text (in part):
 * a message said once, not twice */
guint       embers_test_count_shown_text    (GtkWidget           *root,
                                             const char          *text);

/* A picture of a widget as GTK draws it. Coordinates given to the
 * accessors are the widget's own (as gtk_widget_compute_point() gives
 * them); the picture may start left of and above 0, 0 (a window's
 * client-side decorations). */
typedef struct
{
  int     width;
  int     height;
  int     origin_x;   /* widget coordinates of the picture's top left */
  int     origin_y;
  gsize   stride;
  guint8 *data;   /* B8G8R8A8 premultiplied, as GDK_MEMORY_DEFAULT */
} EmbersTestPixels;

/* @widget drawn as it is now */
EmbersTestPixels *embers_test_render        (GtkWidget           *widget);
/* @widget as the next frame draws it: queues a frame and takes the picture
 * right after it is painted, before anything else may change the widgets
 * (what a person sees is frames) */
EmbersTestPixels *embers_test_render_frame  (GtkWidget           *widget);
void        embers_test_pixels_free         (EmbersTestPixels    *pixels);
/* 0xRRGGBB of the pixel at (@x, @y) (widget coordinates), clamped into
 * the picture */
guint32     embers_test_pixels_get          (const EmbersTestPixels *pixels,
                                             int                  x,
                                             int                  y);
/* How many different colours the rectangle holds (capped at @cap) */
guint       embers_test_pixels_count_colors (const EmbersTestPixels *pixels,
                                             const graphene_rect_t  *area,
                                             guint                cap);
/* The share (0..1) of pixels in @area whose colour is @color */
double      embers_test_pixels_share        (const EmbersTestPixels *pixels,
                                             const graphene_rect_t  *area,
                                             guint32              color);
/* The most common colour in @area */
guint32     embers_test_pixels_dominant     (const EmbersTestPixels *pixels,
                                             const graphene_rect_t  *area);
/* Writes the picture as a PNG (for a failing test, to look at) */
void        embers_test_pixels_save         (const EmbersTestPixels *pixels,
                                             const char          *path);

/* @widget's bounds in @ancestor's coordinates */
graphene_rect_t embers_test_bounds          (GtkWidget           *widget,
                                             GtkWidget           *ancestor);

/* Asserts that @area of @pixels is not blank: at least @min_colors
 * colours. On failure, saves the picture as pixels-@label.png in
 * G_TEST_BUILDDIR (or the current folder) and says where. */
#define embers_test_assert_not_blank(pixels, area, min_colors, label) \
  embers_test_assert_not_blank_impl ((pixels), (area), (min_colors), (label), \
                                     __FILE__, __LINE__, G_STRFUNC)
void        embers_test_assert_not_blank_impl (const EmbersTestPixels *pixels,
                                               const graphene_rect_t  *area,
                                               guint                   min_colors,
                                               const char             *label,
                                               const char             *file,
                                               int                     line,
                                               const char             *func);

/* Dialogs (AdwDialog) open now of @type, in any window: in an Adwaita
 * window's dialogs or as a window of their own (not owned) */
GPtrArray  *embers_test_dialogs             (GType                type);
gboolean    embers_test_dialog_is_open      (gpointer             dialog);
/* Until a dialog of @type that is not in @before (NULL: any) is open: on
 * screen with the keyboard focus in it; fails when two are */
AdwDialog  *embers_test_wait_new_dialog     (GType                type,
                                             GPtrArray           *before);
/* Until @dialog is closed (only its address is compared: it may be gone) */
void        embers_test_wait_dialog_closed  (gpointer             dialog);
/* @widget or an ancestor takes neither pointer nor keyboard input (what a
 * modal dialog does to the window below it) */
gboolean    embers_test_blocks_input        (GtkWidget           *widget);
/* Activates what the key @keyval with @modifiers is bound to for @widget:
 * a shortcut (GtkShortcutController, class key bindings included) on
 * @widget or its nearest ancestor that has one, as a key press there
 * bubbles. FALSE when nothing took it. */
gboolean    embers_test_press_key           (GtkWidget           *widget,
                                             guint                keyval,
                                             GdkModifierType      modifiers);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersTestPixels, embers_test_pixels_free)

G_END_DECLS
