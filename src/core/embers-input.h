/* embers-input.h: reading a profile's bytes, within limits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "embers-format.h"

G_BEGIN_DECLS

/*
 * Every profile Embers reads from a file, a pipe or a device comes through
 * here, and so does every gzipped buffer. This is the one place that
 * enforces, on the bytes as they arrive (never on what stat() claims):
 *
 *  - the input cap: more than max_input bytes read is refused;
 *  - the inflated cap: gzip data that expands past max_inflated is refused;
 *  - early refusal: the format is sniffed as soon as the first (inflated)
 *    bytes allow, and bytes that cannot begin a profile stop the read then
 *    and there. After that, a pprof's top-level protobuf framing is checked
 *    block by block, and text formats must hold no NUL byte, so a stream
 *    that turns to zeros stops at the first bad block;
 *  - cancellation, also while a pipe or a device has nothing to read yet;
 *  - a regular file that changes while it is read is refused, not shown
 *    half old and half new.
 *
 * EmbersInput is the push side (blocks in, the profile's bytes out);
 * embers_input_read_file() drives it from a file.
 */

/* Called on the reading thread, once, when a pipe or device has no data
 * yet (a FIFO without a writer, a terminal). */
typedef void (*EmbersInputWaitingFunc)  (gpointer user_data);
/* Called on the reading thread after each block: bytes read so far, and
 * the file's size (0 when unknown: pipes, devices). */
typedef void (*EmbersInputProgressFunc) (guint64  n_read,
                                         guint64  size,
                                         gpointer user_data);

/* A long load's coarse profile of the samples read so far (see interim
 * below), on the loading thread: take a reference to keep it. @fraction:
 * the share of the profile's samples (by value, of the default sample
 * type) it holds, 1.0 for all of them. */
typedef void (*EmbersInputInterimFunc)  (EmbersProfile *profile,
                                         double         fraction,
                                         gpointer       user_data);

/* progress, then building: a long load's two stages, for a determinate
 * progress bar. building is called on the loading thread while the call
 * tree is made, with stacks done and their number.
 *
 * interim: a pprof load that takes long (its stacks are many, or reading
 * took a second) offers coarse profiles before it is done: once the
 * file's tables are read, about every second, one of the unique stacks
 * resolved so far (in the order of their first sample), each cut to a
 * few thousand nodes in all (a cut stack's value stays with the deepest
 * frame kept: totals are whole); the last holds every sample, before the
 * whole tree is laid out. The final profile is the same with or without.
 * interim_every (tests): one every this many stacks, whatever the load's
 * length (0: by time, for long loads only). */
typedef struct
{
  guint64                  max_input;     /* EMBERS_MAX_INPUT_SIZE */
  guint64                  max_inflated;  /* EMBERS_MAX_DECOMPRESSED_SIZE */
  EmbersInputWaitingFunc   waiting;
  EmbersInputProgressFunc  progress;
  gpointer                 user_data;
  EmbersInputProgressFunc  building;
  EmbersInputInterimFunc   interim;
  guint                    interim_every;
} EmbersInputOptions;

void           embers_input_options_init   (EmbersInputOptions        *options);

typedef struct _EmbersInput EmbersInput;

/* @options: (nullable): NULL for the defaults */
EmbersInput   *embers_input_new            (const EmbersInputOptions  *options);
void           embers_input_free           (EmbersInput               *self);
/* Hint for the output buffer: the input's size when known */
void           embers_input_set_size_hint  (EmbersInput               *self,
                                            guint64                    size);
/* Feeds the next block. FALSE (with @error) means stop reading: the input
 * is refused, and every later call fails the same way. */
gboolean       embers_input_push           (EmbersInput               *self,
                                            const guint8              *data,
                                            gsize                      len,
                                            GError                   **error);
/* At the end of the input: the profile's (inflated) bytes and, when
 * @format is not NULL, the sniffed format (never UNKNOWN on success). */
GBytes        *embers_input_finish         (EmbersInput               *self,
                                            EmbersFormat              *format,
                                            GError                   **error);
guint64        embers_input_get_n_read     (EmbersInput               *self);

/*
 * A sink takes the profile's bytes block by block, as they are read and
 * inflated, instead of the one buffer finish() returns: a reader that
 * streams needs no copy of the whole profile. start() is told the format
 * as soon as it is sniffed and returns FALSE to have the bytes buffered as
 * usual. block() gets the bytes (from the start) in order; it returns
 * FALSE with an error to stop the input. The input's own checks stay but
 * for a pprof's framing: the sink's reader checks that as it goes.
 * finish_sink() ends the input (FALSE with the error when it is refused).
 */
typedef struct
{
  gboolean (*start) (EmbersFormat   format,
                     gpointer       user_data);
  gboolean (*block) (const guint8  *data,
                     gsize          len,
                     gpointer       user_data,
                     GError       **error);
  gpointer   user_data;
} EmbersInputSink;

void           embers_input_set_sink       (EmbersInput               *self,
                                            const EmbersInputSink     *sink);
/* TRUE once the sink took the bytes (then finish() returns none) */
gboolean       embers_input_is_sinking     (EmbersInput               *self);
gboolean       embers_input_finish_sink    (EmbersInput               *self,
                                            EmbersFormat              *format,
                                            GError                   **error);
gboolean       embers_input_is_compressed  (EmbersInput               *self);

/* Reads @file through an EmbersInput. Regular files are read to the end;
 * pipes, devices and terminals too, waiting for data without blocking
 * @cancellable. Folders and sockets are refused. Errors name the file. */
GBytes        *embers_input_read_file      (GFile                     *file,
                                            const EmbersInputOptions  *options,
                                            EmbersFormat              *format,
                                            GCancellable              *cancellable,
                                            GError                   **error);

/* The same into a sink: TRUE when the sink took the bytes, FALSE with
 * *bytes set when they were buffered (start() said no), FALSE and NULL
 * with an error when the input was refused. */
gboolean       embers_input_read_file_to_sink (GFile                     *file,
                                               const EmbersInputOptions  *options,
                                               const EmbersInputSink     *sink,
                                               EmbersFormat              *format,
                                               GBytes                   **bytes,
                                               GCancellable              *cancellable,
                                               GError                   **error);

/* A small side file (a .labels next to a profile): regular, at most @max
 * bytes, opened without blocking */
GBytes        *embers_input_read_small_file (GFile                  *file,
                                             gsize                   max,
                                             GCancellable           *cancellable,
                                             GError                **error);

/* embers_profile_load_file() with options: limits, and a word when a pipe
 * has nothing to read yet */
EmbersProfile *embers_profile_load_file_full (GFile                     *file,
                                              const EmbersInputOptions  *options,
                                              GCancellable              *cancellable,
                                              GError                   **error);

/* The same on a thread of its own, at a lower priority than the caller's
 * (its own helper threads too), so that a window's main loop keeps the
 * processor it needs while both cores load. @options' callbacks run on
 * that thread; @destroy frees options->user_data when the thread is done
 * with it (after the callback may have run). A cancelled load stops
 * within milliseconds. Finish with embers_profile_load_file_finish(). */
void           embers_profile_load_file_full_async (GFile                     *file,
                                                    const EmbersInputOptions  *options,
                                                    GDestroyNotify             destroy,
                                                    GCancellable              *cancellable,
                                                    GAsyncReadyCallback        callback,
                                                    gpointer                   user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersInput, embers_input_free)

G_END_DECLS
