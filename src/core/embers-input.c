/* embers-input.c: reading a profile's bytes, within limits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "embers-input.h"
#include "embers-profile.h"

/* Bytes read from a file at a time */
#define READ_BLOCK     ((gsize)256 * 1024)
/* Bytes inflated between two checks of what came out */
#define INFLATE_STEP   ((gsize)1024 * 1024)
/* First output buffer for gzip data */
#define INFLATE_START  ((gsize)64 * 1024)

typedef enum
{
  MODE_START,     /* fewer than two bytes seen: gzip or not is open */
  MODE_RAW,
  MODE_GZIP,
} Mode;

struct _EmbersInput
{
  EmbersInputOptions  options;
  Mode                mode;
  guint8              head[2];
  gsize               n_head;

  /* gzip */
  z_stream            zs;
  gboolean            zs_ready;
  gboolean            member_ended;  /* the last member ended; more may follow */
  guint8              magic[2];      /* the first bytes after a member's end */
  gsize               n_magic;
  gboolean            trailing;      /* bytes after the last member: ignored */

  /* the profile's bytes */
  guint8             *buf;
  gsize               len;
  gsize               cap;
  guint64             size_hint;

  guint64             n_read;

  /* a sink takes the bytes instead of buf, once the format is known */
  EmbersInputSink     sink;
  gboolean            has_sink;
  gboolean            asked_sink;
  gboolean            sinking;
  guint64             n_sunk;        /* bytes given to the sink */

  EmbersFormatSniffer sniffer;
  gsize               walked;        /* pprof: offset of the next top-level field */
  gsize               scanned;       /* text: bytes checked for NUL */
  GError             *failure;       /* sticky */
};

void
embers_input_options_init (EmbersInputOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->max_input = EMBERS_MAX_INPUT_SIZE;
  options->max_inflated = EMBERS_MAX_DECOMPRESSED_SIZE;
}

EmbersInput *
embers_input_new (const EmbersInputOptions *options)
{
  EmbersInput *self = g_new0 (EmbersInput, 1);

  if (options != NULL)
    self->options = *options;
  else
    embers_input_options_init (&self->options);
  if (self->options.max_input == 0)
    self->options.max_input = EMBERS_MAX_INPUT_SIZE;
  if (self->options.max_inflated == 0)
    self->options.max_inflated = EMBERS_MAX_DECOMPRESSED_SIZE;
  /* One byte more than allowed tells "exactly at the cap" from "past it" */
  self->options.max_inflated = MIN (self->options.max_inflated, (guint64)G_MAXSIZE - 1);
  embers_format_sniffer_init (&self->sniffer);

  return self;
}

void
embers_input_free (EmbersInput *self)
{
  if (self == NULL)
    return;

  if (self->zs_ready)
    inflateEnd (&self->zs);
  g_free (self->buf);
  g_clear_error (&self->failure);
  g_free (self);
}

void
embers_input_set_size_hint (EmbersInput *self,
                            guint64      size)
{
  g_return_if_fail (self != NULL);

  self->size_hint = size;
}

guint64
embers_input_get_n_read (EmbersInput *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_read;
}

void
embers_input_set_sink (EmbersInput           *self,
                       const EmbersInputSink *sink)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->asked_sink);

  self->has_sink = sink != NULL;
  if (sink != NULL)
    self->sink = *sink;
}

gboolean
embers_input_is_sinking (EmbersInput *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->sinking;
}

gboolean
embers_input_is_compressed (EmbersInput *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->mode == MODE_GZIP;
}

G_GNUC_PRINTF (3, 4)
static gboolean
fail (EmbersInput  *self,
      int           code,
      const char   *format,
      ...)
{
  va_list args;

  va_start (args, format);
  self->failure = g_error_new_valist (EMBERS_PROFILE_ERROR, code, format, args);
  va_end (args);

  return FALSE;
}

static gboolean
fail_unknown_format (EmbersInput *self)
{
  return fail (self, EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT, "%s",
               embers_format_unknown_message ());
}

/* Room for @more bytes of output, within @limit bytes in all */
static void
reserve (EmbersInput *self,
         gsize        more,
         gsize        limit)
{
  gsize want, cap;

  if (more <= self->cap - self->len)
    return;

  want = self->len + more;
  if (want > limit)
    want = limit;
  if (want <= self->cap)
    return;

  cap = MAX (self->cap, (gsize)4096);
  while (cap < want)
    cap = cap > limit / 2 ? limit : cap * 2;
  self->buf = g_realloc (self->buf, cap);
  self->cap = cap;
}

/* pprof: a varint at *p, or FALSE when it is cut off (*cut) or malformed */
static gboolean
read_varint (const guint8 **p,
             const guint8  *end,
             guint64       *out,
             gboolean      *cut)
{
  guint64 v = 0;

  *cut = FALSE;
  for (guint shift = 0; shift < 70; shift += 7)
    {
      guint8 byte;

      if (*p >= end)
        {
          *cut = TRUE;
          return FALSE;
        }
      byte = *(*p)++;
      if (shift == 63 && byte > 1)
        return FALSE;
      v |= (guint64)(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        {
          *out = v;
          return TRUE;
        }
    }

  return FALSE;
}

/* pprof: the top-level fields that have arrived must be framed as the
 * reader (embers-pprof.c) requires: a tag with a field number, wire types
 * 0, 1, 2 or 5, lengths that fit the cap, the samples (field 2)
 * length-delimited. A field cut off by the end of the data so far is
 * checked when the rest arrives. */
static gboolean
check_pprof_framing (EmbersInput *self)
{
  const guint8 *start = self->buf;
  const guint8 *end = self->buf + self->len;

  while (self->walked < self->len)
    {
      const guint8 *p = start + self->walked;
      guint64 tag, value;
      gboolean cut;
      guint64 field;
      guint wire;

      if (!read_varint (&p, end, &tag, &cut))
        {
          if (cut)
            return TRUE;
          goto corrupt;
        }
      field = tag >> 3;
      wire = tag & 7;
      if (field == 0 || (field == 2 && wire != 2))
        goto corrupt;

      if (wire == 0)
        {
          if (!read_varint (&p, end, &value, &cut))
            {
              if (cut)
                return TRUE;
              goto corrupt;
            }
        }
      else
        {
          if (wire == 1)
            value = 8;
          else if (wire == 5)
            value = 4;
          else if (wire != 2)
            goto corrupt;
          else if (!read_varint (&p, end, &value, &cut))
            {
              if (cut)
                return TRUE;
              goto corrupt;
            }

          if (value > self->options.max_inflated)
            goto corrupt;
          if (value > (guint64)(end - p))
            {
              /* Cut off: the field's end is known, wait for it */
              self->walked = (gsize)(p - start) + (gsize)value;
              return TRUE;
            }
          p += value;
        }

      self->walked = (gsize)(p - start);
    }

  return TRUE;

corrupt:
  return fail (self, EMBERS_PROFILE_ERROR_INVALID,
               _("pprof: not a valid profile protobuf (the data is corrupt at byte %zu)"),
               self->walked);
}

/* Hands bytes to the sink; text formats hold no NUL here either (a sink
 * for a binary format checks its framing itself, as the pprof reader does) */
static gboolean
sink_bytes (EmbersInput  *self,
            const guint8 *data,
            gsize         len)
{
  g_autoptr(GError) error = NULL;

  if (len == 0)
    return TRUE;
  if (self->sniffer.format != EMBERS_FORMAT_PPROF && self->sniffer.format != EMBERS_FORMAT_JFR)
    {
      const guint8 *nul = memchr (data, 0, len);

      if (nul != NULL)
        return fail (self, EMBERS_PROFILE_ERROR_INVALID,
                     _("%s: a NUL byte at byte %zu; text profiles have none"),
                     embers_format_get_name (self->sniffer.format),
                     (gsize)(self->n_sunk + (gsize)(nul - data)));
    }
  self->n_sunk += len;
  if (!self->sink.block (data, len, self->sink.user_data, &error))
    {
      self->failure = g_steal_pointer (&error);
      return FALSE;
    }
  return TRUE;
}

/* Once the format is known: the sink may take the bytes from here on */
static gboolean
maybe_start_sink (EmbersInput *self)
{
  if (!self->has_sink || self->asked_sink || self->sniffer.format == EMBERS_FORMAT_UNKNOWN)
    return TRUE;

  self->asked_sink = TRUE;
  if (!self->sink.start (self->sniffer.format, self->sink.user_data))
    return TRUE;

  self->sinking = TRUE;
  if (!sink_bytes (self, self->buf, self->len))
    return FALSE;
  self->len = 0;
  return TRUE;
}

/* Java Flight Recorder: the data is a row of chunks, each with a 68-byte
 * header that starts with "FLR\0", a major version of 2 (JDK 11 and
 * later, async-profiler) and the chunk's size. Each header is checked as
 * soon as it has arrived, so that zeros in place of a chunk stop the read
 * there. */
#define JFR_HEADER_SIZE 68

static gboolean
check_jfr_framing (EmbersInput *self)
{
  while (self->walked + JFR_HEADER_SIZE <= self->len)
    {
      const guint8 *h = self->buf + self->walked;
      guint16 major = (guint16)(h[4] << 8 | h[5]);
      guint64 size = 0;

      for (guint k = 0; k < 8; k++)
        size = size << 8 | h[8 + k];
      if (memcmp (h, "FLR\0", 4) != 0)
        return fail (self, EMBERS_PROFILE_ERROR_INVALID,
                     _("JFR: no chunk starts at byte %zu"), self->walked);
      if (major != 2)
        return fail (self, EMBERS_PROFILE_ERROR_UNSUPPORTED,
                     _("JFR: version %u of the format is not supported (Embers reads version 2, "
                       "written by JDK 11 and later and by async-profiler)"), major);
      if (size == 0)
        return fail (self, EMBERS_PROFILE_ERROR_INVALID, "%s",
                     _("JFR: the recording is not finished (a chunk has no size yet)"));
      if (size < JFR_HEADER_SIZE || size > self->options.max_inflated)
        return fail (self, EMBERS_PROFILE_ERROR_INVALID,
                     _("JFR: the chunk at byte %zu has an impossible size"), self->walked);
      self->walked += (gsize)size;
    }

  return TRUE;
}

/* What came out so far must be able to begin a profile */
static gboolean
check_output (EmbersInput *self,
              gboolean     complete)
{
  if (!self->sniffer.decided)
    {
      if (!embers_format_sniffer_feed (&self->sniffer, self->buf, self->len, complete))
        return TRUE;
      if (self->sniffer.format == EMBERS_FORMAT_UNKNOWN && self->len > 0)
        return fail_unknown_format (self);
      if (!maybe_start_sink (self))
        return FALSE;
    }

  if (self->sinking)
    {
      /* What is in buf (gzip) goes to the sink, which checks a pprof's
       * framing itself as it reads */
      if (!sink_bytes (self, self->buf, self->len))
        return FALSE;
      self->len = 0;
      return TRUE;
    }

  switch (self->sniffer.format)
    {
    case EMBERS_FORMAT_PPROF:
      return check_pprof_framing (self);

    case EMBERS_FORMAT_FOLDED:
    case EMBERS_FORMAT_FLAMEBEARER:
    case EMBERS_FORMAT_PERF_SCRIPT:
    case EMBERS_FORMAT_CPUPROFILE:
    case EMBERS_FORMAT_CHROME_TRACE:
    case EMBERS_FORMAT_SPEEDSCOPE:
      {
        /* Neither reader takes a NUL byte anywhere */
        const guint8 *nul = memchr (self->buf + self->scanned, 0, self->len - self->scanned);

        if (nul != NULL)
          return fail (self, EMBERS_PROFILE_ERROR_INVALID,
                       _("%s: a NUL byte at byte %zu; text profiles have none"),
                       embers_format_get_name (self->sniffer.format), (gsize)(nul - self->buf));
        self->scanned = self->len;
        return TRUE;
      }

    case EMBERS_FORMAT_JFR:
      return check_jfr_framing (self);

    case EMBERS_FORMAT_UNKNOWN:
    case EMBERS_FORMAT_PNG:
    case EMBERS_FORMAT_SVG:
    case EMBERS_FORMAT_PDF:
    default:
      return TRUE;
    }
}

static gboolean
push_raw (EmbersInput  *self,
          const guint8 *data,
          gsize         len)
{
  if (len == 0)
    return TRUE;

  if (self->sinking)
    return sink_bytes (self, data, len);

  if (self->cap == 0 && self->size_hint > 0)
    /* The whole file, and a byte to see the end */
    reserve (self, (gsize)MIN (self->size_hint + 1, self->options.max_input + 1), G_MAXSIZE);
  reserve (self, len, G_MAXSIZE);
  memcpy (self->buf + self->len, data, len);
  self->len += len;

  return check_output (self, FALSE);
}

static gboolean
too_much_inflated (EmbersInput *self)
{
  g_autofree char *limit = g_format_size (self->options.max_inflated);

  return fail (self, EMBERS_PROFILE_ERROR_TOO_LARGE,
               _("The compressed data expands to more than %s; refusing to decompress it further"),
               limit);
}

static gboolean
push_gzip (EmbersInput  *self,
           const guint8 *data,
           gsize         len)
{
  gsize limit = (gsize)self->options.max_inflated + 1;

  while (len > 0 && !self->trailing)
    {
      gsize step_in;
      gboolean more_out;

      if (self->member_ended)
        {
          /* Another member, or bytes after the last one (ignored) */
          while (len > 0 && self->n_magic < 2)
            {
              self->magic[self->n_magic++] = *data++;
              len--;
            }
          if (self->n_magic < 2)
            return TRUE;
          if (self->magic[0] != 0x1f || self->magic[1] != 0x8b)
            {
              self->trailing = TRUE;
              return TRUE;
            }
          inflateReset (&self->zs);
          self->member_ended = FALSE;
          /* The two magic bytes first */
          self->zs.next_in = self->magic;
          self->zs.avail_in = 2;
          step_in = 0;
        }
      else
        {
          step_in = MIN (len, (gsize)G_MAXUINT32 / 2);
          self->zs.next_in = (Bytef *)data;
          self->zs.avail_in = (uInt)step_in;
        }

      do
        {
          gsize room;
          int ret;

          /* n_sunk + len <= max_inflated < limit here */
          gsize out_limit = limit - (gsize)self->n_sunk;

          reserve (self, MIN (INFLATE_STEP, out_limit - self->len), out_limit);
          room = MIN (self->cap - self->len, INFLATE_STEP);
          self->zs.next_out = self->buf + self->len;
          self->zs.avail_out = (uInt)room;

          ret = inflate (&self->zs, Z_NO_FLUSH);
          self->len += room - self->zs.avail_out;
          more_out = self->zs.avail_out == 0;

          if (self->n_sunk + self->len > limit - 1)
            return too_much_inflated (self);
          if (!check_output (self, FALSE))
            return FALSE;

          if (ret == Z_STREAM_END)
            {
              self->member_ended = TRUE;
              self->n_magic = 0;
              break;
            }
          if (ret == Z_BUF_ERROR && self->zs.avail_in == 0)
            break;  /* wants more input */
          if (ret != Z_OK)
            return fail (self, EMBERS_PROFILE_ERROR_INVALID,
                         _("The compressed data is corrupt (%s)"),
                         self->zs.msg ? self->zs.msg : _("unknown zlib error"));
        }
      while (self->zs.avail_in > 0 || more_out);

      if (step_in > 0)
        {
          gsize used = step_in - self->zs.avail_in;

          data += used;
          len -= used;
        }
      else if (self->zs.avail_in > 0)
        {
          /* The member ended inside the two magic bytes: no gzip stream is
           * that short, so the second byte starts nothing we read */
          self->trailing = TRUE;
          return TRUE;
        }
    }

  return TRUE;
}

static gboolean
push_mode (EmbersInput  *self,
           const guint8 *data,
           gsize         len)
{
  if (self->mode == MODE_GZIP)
    return push_gzip (self, data, len);

  return push_raw (self, data, len);
}

static gboolean
start (EmbersInput *self)
{
  if (self->n_head == 2 && self->head[0] == 0x1f && self->head[1] == 0x8b)
    {
      memset (&self->zs, 0, sizeof self->zs);
      if (inflateInit2 (&self->zs, 15 + 16) != Z_OK)
        return fail (self, EMBERS_PROFILE_ERROR_INVALID, "%s", _("Could not start decompression"));
      self->zs_ready = TRUE;
      self->mode = MODE_GZIP;
    }
  else
    self->mode = MODE_RAW;

  return push_mode (self, self->head, self->n_head);
}

gboolean
embers_input_push (EmbersInput   *self,
                   const guint8  *data,
                   gsize          len,
                   GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  if (self->failure != NULL)
    goto failed;

  if (len > self->options.max_input - MIN (self->n_read, self->options.max_input))
    {
      g_autofree char *limit = g_format_size (self->options.max_input);

      fail (self, EMBERS_PROFILE_ERROR_TOO_LARGE,
            _("The input is larger than %s, the most Embers reads"), limit);
      goto failed;
    }
  self->n_read += len;

  if (self->mode == MODE_START)
    {
      while (len > 0 && self->n_head < 2)
        {
          self->head[self->n_head++] = *data++;
          len--;
        }
      if (self->n_head < 2)
        return TRUE;
      if (!start (self))
        goto failed;
    }

  if (push_mode (self, data, len))
    return TRUE;

failed:
  if (error != NULL)
    *error = g_error_copy (self->failure);
  return FALSE;
}

GBytes *
embers_input_finish (EmbersInput   *self,
                     EmbersFormat  *format,
                     GError       **error)
{
  GBytes *bytes;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->failure != NULL)
    goto failed;

  if (self->mode == MODE_START)
    {
      if (self->n_head == 0)
        {
          fail (self, EMBERS_PROFILE_ERROR_EMPTY, "%s", _("The file is empty"));
          goto failed;
        }
      if (!start (self))
        goto failed;
    }

  if (self->mode == MODE_GZIP)
    {
      gboolean ended = self->member_ended ||
                       /* bytes after a member that start no other one */
                       self->trailing;

      if (!ended)
        {
          fail (self, EMBERS_PROFILE_ERROR_INVALID, "%s", _("The compressed data is truncated"));
          goto failed;
        }
      if (self->len == 0)
        {
          fail (self, EMBERS_PROFILE_ERROR_EMPTY, "%s", _("The compressed file is empty"));
          goto failed;
        }
    }

  if (!check_output (self, TRUE))
    goto failed;
  if (self->sniffer.format == EMBERS_FORMAT_UNKNOWN)
    {
      fail_unknown_format (self);
      goto failed;
    }

  if (format != NULL)
    *format = self->sniffer.format;

  /* Give back what a generous first guess reserved */
  if (self->cap - self->len > MAX ((gsize)1024 * 1024, self->len / 8))
    {
      self->buf = g_realloc (self->buf, MAX (self->len, 1));
      self->cap = MAX (self->len, 1);
    }
  bytes = g_bytes_new_take (g_steal_pointer (&self->buf), self->len);
  self->len = self->cap = 0;
  fail (self, EMBERS_PROFILE_ERROR_INVALID, "%s", _("The input was already read"));

  return bytes;

failed:
  if (error != NULL)
    *error = g_error_copy (self->failure);
  return NULL;
}

gboolean
embers_input_finish_sink (EmbersInput   *self,
                          EmbersFormat  *format,
                          GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->failure != NULL)
    goto failed;

  if (self->mode == MODE_START)
    {
      if (self->n_head == 0)
        {
          fail (self, EMBERS_PROFILE_ERROR_EMPTY, "%s", _("The file is empty"));
          goto failed;
        }
      if (!start (self))
        goto failed;
    }

  if (self->mode == MODE_GZIP)
    {
      if (!self->member_ended && !self->trailing)
        {
          fail (self, EMBERS_PROFILE_ERROR_INVALID, "%s", _("The compressed data is truncated"));
          goto failed;
        }
      if (self->len + self->n_sunk == 0)
        {
          fail (self, EMBERS_PROFILE_ERROR_EMPTY, "%s", _("The compressed file is empty"));
          goto failed;
        }
    }

  if (!check_output (self, TRUE))
    goto failed;
  if (self->sniffer.format == EMBERS_FORMAT_UNKNOWN)
    {
      fail_unknown_format (self);
      goto failed;
    }
  if (!self->sinking)
    {
      fail (self, EMBERS_PROFILE_ERROR_INVALID, "%s", _("The input was already read"));
      goto failed;
    }

  if (format != NULL)
    *format = self->sniffer.format;
  fail (self, EMBERS_PROFILE_ERROR_INVALID, "%s", _("The input was already read"));
  return TRUE;

failed:
  if (error != NULL)
    *error = g_error_copy (self->failure);
  return FALSE;
}

/* Reading files */

typedef enum
{
  OPENING,
  READING,
} Stage;

static gboolean
io_error (GError     **error,
          int          saved_errno,
          Stage        stage,
          const char  *name)
{
  if (stage == OPENING)
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                 _("Could not open “%s”: %s"), name, g_strerror (saved_errno));
  else
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                 _("Could not read “%s”: %s"), name, g_strerror (saved_errno));
  return FALSE;
}

static gboolean
push_block (EmbersInput   *input,
            const guint8  *data,
            gsize          len,
            const char    *name,
            guint64        size,
            GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  if (!embers_input_push (input, data, len, &local_error))
    {
      /* Translators: %s is a file name, then the reason */
      g_set_error (error, local_error->domain, local_error->code,
                   _("Could not read “%s”: %s"), name, local_error->message);
      return FALSE;
    }
  if (input->options.progress != NULL)
    input->options.progress (input->n_read, size, input->options.user_data);

  return TRUE;
}

/* A pipe or a device: wait until it has data (or is closed) without
 * blocking cancellation. Says once that it is waiting. */
static gboolean
wait_readable (EmbersInput   *input,
               int            fd,
               gboolean      *said_waiting,
               const char    *name,
               GCancellable  *cancellable,
               GError       **error)
{
  GPollFD fds[2];
  guint n_fds = 1;
  gboolean ok = TRUE;

  fds[0].fd = fd;
  fds[0].events = G_IO_IN | G_IO_HUP | G_IO_ERR;
  fds[0].revents = 0;
  if (g_cancellable_make_pollfd (cancellable, &fds[1]))
    n_fds = 2;

  for (;;)
    {
      int ret;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }

      fds[0].revents = 0;
      /* First a look (timeout 0); only when there is nothing, a wait */
      ret = g_poll (fds, n_fds, *said_waiting ? -1 : 0);
      if (ret < 0)
        {
          int saved_errno = errno;

          if (saved_errno == EINTR)
            continue;
          ok = io_error (error, saved_errno, READING, name);
          break;
        }
      if (fds[0].revents != 0)
        break;
      if (ret == 0 && !*said_waiting)
        {
          *said_waiting = TRUE;
          if (input->n_read == 0 && input->options.waiting != NULL)
            input->options.waiting (input->options.user_data);
        }
    }

  if (n_fds == 2)
    g_cancellable_release_fd (cancellable);

  return ok;
}

static gboolean
read_fd (EmbersInput   *input,
         int            fd,
         const char    *name,
         GCancellable  *cancellable,
         GError       **error)
{
  g_autofree guint8 *block = g_malloc (READ_BLOCK);
  struct stat before, after;
  gboolean regular;
  gboolean said_waiting = FALSE;

  if (fstat (fd, &before) != 0)
    return io_error (error, errno, READING, name);

  if (S_ISDIR (before.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                   _("Could not open “%s”: it is a folder"), name);
      return FALSE;
    }

  regular = S_ISREG (before.st_mode);
  if (regular)
    {
      int flags = fcntl (fd, F_GETFL);

      /* Regular files block only as long as the disk takes */
      if (flags >= 0)
        fcntl (fd, F_SETFL, flags & ~O_NONBLOCK);

      if ((guint64)before.st_size > input->options.max_input)
        {
          g_autofree char *limit = g_format_size (input->options.max_input);

          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                       _("Could not open “%s”: it is larger than %s"), name, limit);
          return FALSE;
        }
      embers_input_set_size_hint (input, (guint64)before.st_size);
    }

  for (;;)
    {
      gssize n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!regular && !wait_readable (input, fd, &said_waiting, name, cancellable, error))
        return FALSE;

      n = read (fd, block, READ_BLOCK);
      if (n < 0)
        {
          int saved_errno = errno;

          if (saved_errno == EINTR || saved_errno == EAGAIN)
            continue;
          return io_error (error, saved_errno, READING, name);
        }
      if (n == 0)
        break;
      if (!push_block (input, block, (gsize)n, name,
                       regular ? (guint64)before.st_size : 0, error))
        return FALSE;
    }

  if (regular)
    {
      /* Refuse what was written while it was read: the bytes may be half
       * old, half new. (A file system that reports size 0 for files with
       * contents, such as /proc, only gets the time check.) */
      gboolean same_time, same_size;

      if (fstat (fd, &after) != 0)
        return io_error (error, errno, READING, name);
      same_time = after.st_mtim.tv_sec == before.st_mtim.tv_sec &&
                  after.st_mtim.tv_nsec == before.st_mtim.tv_nsec;
      same_size = (after.st_size == 0 && before.st_size == 0) ||
                  ((guint64)before.st_size == input->n_read &&
                   (guint64)after.st_size == input->n_read);
      if (!same_time || !same_size)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                       _("Could not read “%s”: it changed while it was read; "
                         "open it again once it is written completely"), name);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
read_stream (EmbersInput   *input,
             GFile         *file,
             const char    *name,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree guint8 *block = g_malloc (READ_BLOCK);
  guint64 size = 0;

  stream = g_file_read (file, cancellable, &local_error);
  if (stream == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY))
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                     _("Could not open “%s”: it is a folder"), name);
      else
        g_set_error (error, local_error->domain, local_error->code,
                     _("Could not open “%s”: %s"), name, local_error->message);
      return FALSE;
    }

  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable, NULL);
  if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE))
    {
      size = (guint64)g_file_info_get_size (info);
      if (size > input->options.max_input)
        {
          g_autofree char *limit = g_format_size (input->options.max_input);

          g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                       _("Could not open “%s”: it is larger than %s"), name, limit);
          return FALSE;
        }
      embers_input_set_size_hint (input, size);
    }

  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (stream), block, READ_BLOCK,
                                      cancellable, &local_error);

      if (n < 0)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_propagate_error (error, g_steal_pointer (&local_error));
          else
            g_set_error (error, local_error->domain, local_error->code,
                         _("Could not read “%s”: %s"), name, local_error->message);
          return FALSE;
        }
      if (n == 0)
        break;
      if (!push_block (input, block, (gsize)n, name, size, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
read_input (EmbersInput   *input,
            GFile         *file,
            const char    *name,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autofree char *path = NULL;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  path = g_file_get_path (file);
  if (path != NULL)
    {
      /* Non-blocking: opening a FIFO must not wait for its writer here,
       * where nothing could cancel it (the reads wait in poll()) */
      int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
      gboolean ok;

      if (fd < 0)
        {
          int saved_errno = errno;
          GStatBuf st;

          if (saved_errno == ENXIO && g_stat (path, &st) == 0 && S_ISSOCK (st.st_mode))
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                         _("Could not open “%s”: it is a socket"), name);
          else
            io_error (error, saved_errno, OPENING, name);
          return FALSE;
        }
      ok = read_fd (input, fd, name, cancellable, error);
      g_close (fd, NULL);
      return ok;
    }

  return read_stream (input, file, name, cancellable, error);
}

GBytes *
embers_input_read_file (GFile                     *file,
                        const EmbersInputOptions  *options,
                        EmbersFormat              *format,
                        GCancellable              *cancellable,
                        GError                   **error)
{
  GBytes *bytes = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  embers_input_read_file_to_sink (file, options, NULL, format, &bytes, cancellable, error);
  return bytes;
}

gboolean
embers_input_read_file_to_sink (GFile                     *file,
                                const EmbersInputOptions  *options,
                                const EmbersInputSink     *sink,
                                EmbersFormat              *format,
                                GBytes                   **bytes,
                                GCancellable              *cancellable,
                                GError                   **error)
{
  g_autoptr(EmbersInput) input = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (bytes != NULL && *bytes == NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  name = g_file_get_parse_name (file);
  input = embers_input_new (options);
  embers_input_set_sink (input, sink);

  if (!read_input (input, file, name, cancellable, error))
    return FALSE;

  if (embers_input_is_sinking (input))
    {
      if (embers_input_finish_sink (input, format, &local_error))
        return TRUE;
    }
  else
    {
      *bytes = embers_input_finish (input, format, &local_error);
      if (*bytes != NULL)
        return FALSE;
    }

  g_set_error (error, local_error->domain, local_error->code,
               _("Could not read “%s”: %s"), name, local_error->message);
  return FALSE;
}

/**
 * embers_input_read_small_file:
 * @max: the most bytes the file may hold
 *
 * A small side file (a profile's .labels): a regular file of at most @max
 * bytes, read whole. A FIFO, a device, a folder or a larger file is an
 * error, never a wait: the file is opened without blocking and checked
 * before anything is read.
 */
GBytes *
embers_input_read_small_file (GFile         *file,
                              gsize          max,
                              GCancellable  *cancellable,
                              GError       **error)
{
  g_autofree char *path = NULL;
  g_autofree char *name = NULL;
  g_autofree guint8 *buf = NULL;
  struct stat st;
  gsize len = 0;
  int fd;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  name = g_file_get_parse_name (file);
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Could not open “%s”: it is not a local file"), name);
      return NULL;
    }

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
  if (fd < 0)
    {
      io_error (error, errno, OPENING, name);
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || (guint64)st.st_size > max)
    {
      g_close (fd, NULL);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("Could not open “%s”: it is not a small regular file"), name);
      return NULL;
    }

  /* One byte more than allowed tells a file that grew */
  buf = g_malloc (max + 1);
  for (;;)
    {
      gssize n = read (fd, buf + len, max + 1 - len);

      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_close (fd, NULL);
          io_error (error, saved_errno, READING, name);
          return NULL;
        }
      if (n == 0)
        break;
      len += (gsize)n;
      if (len > max)
        {
          g_close (fd, NULL);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                       _("Could not open “%s”: it is not a small regular file"), name);
          return NULL;
        }
    }
  g_close (fd, NULL);

  return g_bytes_new_take (g_realloc (g_steal_pointer (&buf), MAX (len, 1)), len);
}
