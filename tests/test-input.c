/* test-input.c: reading a profile's bytes within limits (embers-input.c):
 * caps enforced on what is read, early refusal of bytes that cannot begin a
 * profile, pipes, devices and files that change while they are read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <zlib.h>
#include <glib/gstdio.h>

#include "embers-format.h"
#include "embers-input.h"
#include "embers-profile-builder.h"
#include "embers-readers.h"

static char *tmpdir;

static char *
fixture (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "go", name, NULL);
}

static GBytes *
read_fixture (const char *name)
{
  g_autofree char *path = fixture (name);
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&contents), len);
}

/* @n zero bytes, gzipped (run-length: a few KiB per GiB) */
static GBytes *
gzip_zeros (gsize         n,
            const guint8 *prefix,
            gsize         prefix_len)
{
  g_autofree guint8 *block = g_malloc0 (1024 * 1024);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  z_stream zs;
  gsize left = n;
  guint8 buf[65536];
  int flush;

  memset (&zs, 0, sizeof zs);
  g_assert_cmpint (deflateInit2 (&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_RLE), ==, Z_OK);
  if (prefix_len > 0)
    {
      zs.next_in = (Bytef *)prefix;
      zs.avail_in = prefix_len;
      do
        {
          zs.next_out = buf;
          zs.avail_out = sizeof buf;
          g_assert_cmpint (deflate (&zs, Z_NO_FLUSH), !=, Z_STREAM_ERROR);
          g_byte_array_append (out, buf, sizeof buf - zs.avail_out);
        }
      while (zs.avail_in > 0);
    }
  do
    {
      gsize chunk = MIN (left, (gsize)1024 * 1024);

      left -= chunk;
      flush = left == 0 ? Z_FINISH : Z_NO_FLUSH;
      zs.next_in = block;
      zs.avail_in = (uInt)chunk;
      do
        {
          zs.next_out = buf;
          zs.avail_out = sizeof buf;
          g_assert_cmpint (deflate (&zs, flush), !=, Z_STREAM_ERROR);
          g_byte_array_append (out, buf, sizeof buf - zs.avail_out);
        }
      while (zs.avail_out == 0);
    }
  while (flush != Z_FINISH);
  deflateEnd (&zs);

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* Pushes @bytes in blocks of @block bytes (0: all at once) */
static GBytes *
read_in_blocks (GBytes                   *bytes,
                gsize                     block,
                const EmbersInputOptions *options,
                EmbersFormat             *format,
                GError                  **error)
{
  g_autoptr(EmbersInput) input = embers_input_new (options);
  const guint8 *data;
  gsize len;

  data = g_bytes_get_data (bytes, &len);
  if (block == 0)
    block = MAX (len, 1);
  for (gsize off = 0; off < len; off += block)
    if (!embers_input_push (input, data + off, MIN (block, len - off), error))
      return NULL;

  return embers_input_finish (input, format, error);
}

/* A gzip bomb of zeros is refused at its first block: the zeros cannot
 * begin any profile, so it stops long before the inflated cap */
static void
test_input_bomb (void)
{
  g_autoptr(GBytes) bomb = gzip_zeros ((gsize)256 * 1024 * 1024, NULL, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  EmbersInputOptions options;

  g_assert_cmpuint (g_bytes_get_size (bomb), <, 1024 * 1024);

  out = read_in_blocks (bomb, 65536, NULL, NULL, &error);
  g_assert_null (out);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT);
  g_clear_error (&error);

  /* The same from memory (embers_profile_load_bytes): refused as not a
   * profile, not as too large, which proves it never inflated 256 MiB
   * against a 64 MiB cap */
  embers_input_options_init (&options);
  options.max_inflated = 64 * 1024 * 1024;
  out = read_in_blocks (bomb, 0, &options, NULL, &error);
  g_assert_null (out);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT);
  g_clear_error (&error);

  profile = embers_profile_load_bytes (bomb, NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT);
}

/* A bomb that starts like a pprof (a valid first field) and turns to zeros:
 * the top-level framing breaks at the first zero tag */
static void
test_input_bomb_after_prefix (void)
{
  /* Profile.sample_type { type: 1 unit: 2 } then field 6 (a string) */
  static const guint8 prefix[] = { 0x0a, 0x04, 0x08, 0x01, 0x10, 0x02, 0x32, 0x03, 'c', 'p', 'u' };
  g_autoptr(GBytes) bomb = gzip_zeros ((gsize)256 * 1024 * 1024, prefix, sizeof prefix);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = NULL;
  EmbersInputOptions options;

  embers_input_options_init (&options);
  options.max_inflated = 64 * 1024 * 1024;
  out = read_in_blocks (bomb, 4096, &options, NULL, &error);
  g_assert_null (out);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "at byte 11"));
  g_clear_error (&error);

  /* Text that turns to zeros after the sniffer's 4 KiB (before, a NUL
   * makes it binary): no text profile holds a NUL */
  {
    g_autoptr(GString) folded = g_string_new (NULL);
    g_autoptr(GBytes) text_bomb = NULL;

    while (folded->len < 8192)
      g_string_append (folded, "main;work 10\nmain;idle 5\n");
    text_bomb = gzip_zeros ((gsize)256 * 1024 * 1024, (const guint8 *)folded->str, folded->len);

    out = read_in_blocks (text_bomb, 4096, &options, NULL, &error);
    g_assert_null (out);
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "NUL"));
  }
}

/* Real profiles come out the same whatever the blocks they arrive in */
static void
test_input_blocks (void)
{
  const char *names[] = { "cpu-inlined.pb.gz", "heap.pb.gz", "cpu-labels.pb.gz" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GBytes) gz = read_fixture (names[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) whole = NULL;
      g_autoptr(EmbersProfile) reference = NULL;
      const gsize blocks[] = { 0, 1, 2, 3, 7, 4095, 4096, 65536 };
      EmbersFormat format = EMBERS_FORMAT_UNKNOWN;

      whole = embers_gunzip (g_bytes_get_data (gz, NULL), g_bytes_get_size (gz), G_MAXINT32, &error);
      g_assert_no_error (error);
      reference = embers_profile_load_bytes (gz, NULL, &error);
      g_assert_no_error (error);

      for (guint b = 0; b < G_N_ELEMENTS (blocks); b++)
        {
          g_autoptr(GBytes) out = read_in_blocks (gz, blocks[b], NULL, &format, &error);

          g_assert_no_error (error);
          g_assert_cmpint (format, ==, EMBERS_FORMAT_PPROF);
          g_assert_true (g_bytes_equal (out, whole));

          /* and uncompressed */
          g_clear_pointer (&out, g_bytes_unref);
          out = read_in_blocks (whole, blocks[b], NULL, &format, &error);
          g_assert_no_error (error);
          g_assert_cmpint (format, ==, EMBERS_FORMAT_PPROF);
          g_assert_true (g_bytes_equal (out, whole));
        }
    }

  /* Text formats, with a first line longer than the sniffer's probe */
  {
    g_autoptr(GString) text = g_string_new (NULL);
    g_autoptr(GError) error = NULL;
    EmbersFormat format = EMBERS_FORMAT_UNKNOWN;

    for (guint i = 0; i < 3000; i++)
      g_string_append_printf (text, "%sframe%u", i ? ";" : "", i);
    g_string_append (text, " 42\nmain 1\n");

    for (gsize block = 1; block < 9000; block = block * 3 + 1)
      {
        g_autoptr(GBytes) in = g_bytes_new (text->str, text->len);
        g_autoptr(GBytes) out = read_in_blocks (in, block, NULL, &format, &error);

        g_assert_no_error (error);
        g_assert_cmpint (format, ==, EMBERS_FORMAT_FOLDED);
        g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), text->str, text->len);
      }

    g_string_assign (text, "\xef\xbb\xbf  \n\n  {\"version\": 1, \"flamebearer\": {}}");
    for (gsize block = 1; block < 8; block++)
      {
        g_autoptr(GBytes) in = g_bytes_new (text->str, text->len);
        g_autoptr(GBytes) out = read_in_blocks (in, block, NULL, &format, &error);

        g_assert_no_error (error);
        g_assert_cmpint (format, ==, EMBERS_FORMAT_FLAMEBEARER);
      }
  }
}

/* The sniffer decides on a prefix exactly as on the whole data */
static void
test_input_sniffer (void)
{
  static const struct {
    const char *data;
    gsize       decided_at;   /* the shortest prefix that decides; 0: only complete */
    EmbersFormat format;
  } cases[] = {
    { "\x0a\x04\x08\x01\x10\x02", 2, EMBERS_FORMAT_PPROF },   /* binary at byte 1 */
    { "\x00\x00\x00", 1, EMBERS_FORMAT_UNKNOWN },
    { "~ello\x01", 6, EMBERS_FORMAT_UNKNOWN },      /* "~" is no Profile field tag */
    { "main;a 1\n", 0, EMBERS_FORMAT_FOLDED },                /* short text: only at the end */
    { "{}", 0, EMBERS_FORMAT_FLAMEBEARER },
    { "   \n", 0, EMBERS_FORMAT_UNKNOWN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize len = strlen (cases[i].data) + (cases[i].data[0] == '\0' ? 3 : 0);
      const guint8 *data = (const guint8 *)cases[i].data;

      for (gsize n = 1; n <= len; n++)
        {
          EmbersFormatSniffer sniffer;
          gboolean decided;

          embers_format_sniffer_init (&sniffer);
          decided = embers_format_sniffer_feed (&sniffer, data, n, FALSE);
          if (cases[i].decided_at != 0 && n >= cases[i].decided_at)
            {
              g_assert_true (decided);
              g_assert_cmpint (sniffer.format, ==, cases[i].format);
            }
          else
            g_assert_false (decided);
        }
      g_assert_cmpint (embers_format_sniff (data, len), ==, cases[i].format);
    }

  /* Long text: decided once 4 KiB have come and the first line is whole */
  {
    g_autoptr(GString) text = g_string_new ("\n\n");
    EmbersFormatSniffer sniffer;

    for (guint i = 0; i < 2000; i++)
      g_string_append (text, "abc;");
    g_string_append (text, "x 12\nmore 1\n");

    embers_format_sniffer_init (&sniffer);
    for (gsize n = 1; n <= text->len; n++)
      {
        gboolean decided = embers_format_sniffer_feed (&sniffer, (const guint8 *)text->str, n, FALSE);
        const char *nl = strchr (text->str + 2, '\n');

        g_assert_cmpint (decided, ==, n > (gsize)(nl - text->str));
      }
    g_assert_cmpint (sniffer.format, ==, EMBERS_FORMAT_FOLDED);
  }
}

static void
test_input_gzip_members (void)
{
  static const char folded[] = "main;a 1\nmain;b 2\n";
  g_autoptr(GBytes) a = embers_gzip ((const guint8 *)folded, 9, NULL);
  g_autoptr(GBytes) b = embers_gzip ((const guint8 *)folded + 9, 9, NULL);
  g_autoptr(GByteArray) both = g_byte_array_new ();
  g_autoptr(GError) error = NULL;

  g_byte_array_append (both, g_bytes_get_data (a, NULL), g_bytes_get_size (a));
  g_byte_array_append (both, g_bytes_get_data (b, NULL), g_bytes_get_size (b));

  /* Two members, split anywhere, even between the magic bytes */
  for (gsize block = 1; block <= both->len; block++)
    {
      g_autoptr(GBytes) in = g_bytes_new (both->data, both->len);
      g_autoptr(GBytes) out = read_in_blocks (in, block, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), folded, 18);
    }

  /* Bytes after the last member that start no member are ignored */
  g_byte_array_append (both, (const guint8 *)"\0\0\0\0junk", 8);
  for (gsize block = 1; block <= both->len; block += 5)
    {
      g_autoptr(GBytes) in = g_bytes_new (both->data, both->len);
      g_autoptr(GBytes) out = read_in_blocks (in, block, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), folded, 18);
    }

  /* A member cut short is an error, wherever the cut */
  g_byte_array_set_size (both, g_bytes_get_size (a) + g_bytes_get_size (b) - 3);
  {
    g_autoptr(GBytes) in = g_bytes_new (both->data, both->len);
    g_autoptr(GBytes) out = read_in_blocks (in, 3, NULL, NULL, &error);

    g_assert_null (out);
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "truncated"));
  }
}

/* The caps hold on what is read and inflated, exactly at the limit */
static void
test_input_caps (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GBytes) raw = NULL;
  g_autoptr(GBytes) gz = NULL;
  g_autoptr(GError) error = NULL;
  EmbersInputOptions options;

  while (text->len < 100000)
    g_string_append (text, "main;work;leaf 1\n");
  raw = g_bytes_new (text->str, text->len);
  gz = embers_gzip ((const guint8 *)text->str, text->len, NULL);

  embers_input_options_init (&options);
  options.max_input = text->len;
  g_bytes_unref (read_in_blocks (raw, 1000, &options, NULL, &error));
  g_assert_no_error (error);
  options.max_input = text->len - 1;
  g_assert_null (read_in_blocks (raw, 1000, &options, NULL, &error));
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
  g_clear_error (&error);

  embers_input_options_init (&options);
  options.max_inflated = text->len;
  g_bytes_unref (read_in_blocks (gz, 1000, &options, NULL, &error));
  g_assert_no_error (error);
  options.max_inflated = text->len - 1;
  g_assert_null (read_in_blocks (gz, 1000, &options, NULL, &error));
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "refusing"));
  g_clear_error (&error);

  /* Empty input, and an empty gzip */
  {
    g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
    g_autoptr(GBytes) empty_gz = embers_gzip ((const guint8 *)"", 0, NULL);

    g_assert_null (read_in_blocks (empty, 1, NULL, NULL, &error));
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY);
    g_clear_error (&error);
    g_assert_null (read_in_blocks (empty_gz, 1, NULL, NULL, &error));
    g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY);
  }
}

/* Files */

static char *
write_tmp (const char *name,
           const char *contents,
           gssize      len)
{
  char *path = g_build_filename (tmpdir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, len, NULL));
  return path;
}

typedef struct
{
  GMutex        lock;
  GCond         cond;
  gboolean      waiting;
  gboolean      done;
  GFile        *file;
  EmbersInputOptions options;
  GCancellable *cancellable;
  GBytes       *result;
  GError       *error;
} ReadJob;

static void
job_waiting (gpointer user_data)
{
  ReadJob *job = user_data;

  g_mutex_lock (&job->lock);
  job->waiting = TRUE;
  g_cond_broadcast (&job->cond);
  g_mutex_unlock (&job->lock);
}

static gpointer
job_thread (gpointer user_data)
{
  ReadJob *job = user_data;
  GBytes *result;
  GError *error = NULL;

  result = embers_input_read_file (job->file, &job->options, NULL, job->cancellable, &error);
  g_mutex_lock (&job->lock);
  job->result = result;
  job->error = error;
  job->done = TRUE;
  g_cond_broadcast (&job->cond);
  g_mutex_unlock (&job->lock);
  return NULL;
}

static GThread *
job_start (ReadJob    *job,
           const char *path)
{
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  job->file = g_file_new_for_path (path);
  job->cancellable = g_cancellable_new ();
  if (job->options.max_input == 0)
    embers_input_options_init (&job->options);
  job->options.waiting = job_waiting;
  job->options.user_data = job;
  return g_thread_new ("read", job_thread, job);
}

static void
job_wait_for (ReadJob  *job,
              gboolean *flag)
{
  g_mutex_lock (&job->lock);
  while (!*flag)
    g_cond_wait (&job->cond, &job->lock);
  g_mutex_unlock (&job->lock);
}

static void
job_clear (ReadJob *job)
{
  g_clear_object (&job->file);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->result, g_bytes_unref);
  g_clear_error (&job->error);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
}

/* A FIFO without a writer: the reader says it waits, and Cancel ends it */
static void
test_input_fifo_cancel (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "no-writer.fifo", NULL);
  ReadJob job = { 0, };
  GThread *thread;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  thread = job_start (&job, path);
  job_wait_for (&job, &job.waiting);
  g_assert_false (job.done);
  g_cancellable_cancel (job.cancellable);
  g_thread_join (thread);
  g_assert_null (job.result);
  g_assert_error (job.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  job_clear (&job);
}

/* A FIFO whose writer comes later and writes in pieces */
static void
test_input_fifo_writer (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "late-writer.fifo", NULL);
  g_autoptr(GBytes) gz = read_fixture ("cpu-labels.pb.gz");
  g_autoptr(GBytes) whole = NULL;
  ReadJob job = { 0, };
  GThread *thread;
  const guint8 *data;
  gsize len;
  int fd;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  thread = job_start (&job, path);
  job_wait_for (&job, &job.waiting);

  fd = g_open (path, O_WRONLY, 0);
  g_assert_cmpint (fd, >=, 0);
  data = g_bytes_get_data (gz, &len);
  for (gsize off = 0; off < len; off += 1000)
    g_assert_cmpint (write (fd, data + off, MIN (1000, len - off)), ==, (gssize)MIN (1000, len - off));
  g_close (fd, NULL);

  g_thread_join (thread);
  g_assert_no_error (job.error);
  whole = embers_gunzip (data, len, G_MAXINT32, NULL);
  g_assert_true (g_bytes_equal (job.result, whole));
  job_clear (&job);
}

typedef struct
{
  int      fd;
  gboolean stop;
} Endless;

static gpointer
endless_writer (gpointer user_data)
{
  Endless *endless = user_data;
  static const char line[] = "main;busy;loop 1\n";
  char block[4096];

  for (gsize i = 0; i + sizeof line - 1 <= sizeof block; i += sizeof line - 1)
    memcpy (block + i, line, sizeof line - 1);
  /* Until the reader closes its end (EPIPE) */
  while (write (endless->fd, block, sizeof block - sizeof block % (sizeof line - 1)) > 0)
    ;
  g_close (endless->fd, NULL);
  return NULL;
}

/* An endless stream of valid text is cut at the input cap */
static void
test_input_fifo_endless (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "endless.fifo", NULL);
  ReadJob job = { 0, };
  Endless endless = { -1, FALSE };
  GThread *thread, *writer;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  embers_input_options_init (&job.options);
  job.options.max_input = 4 * 1024 * 1024;
  thread = job_start (&job, path);
  endless.fd = g_open (path, O_WRONLY, 0);
  g_assert_cmpint (endless.fd, >=, 0);
  writer = g_thread_new ("writer", endless_writer, &endless);

  g_thread_join (thread);
  g_thread_join (writer);
  g_assert_null (job.result);
  g_assert_error (job.error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (job.error->message, "endless.fifo"));
  job_clear (&job);
}

/* /dev/zero is read (not refused for being a device) and refused at its
 * first block; /dev/null is empty */
static void
test_input_devices (void)
{
  g_autoptr(GFile) zero = g_file_new_for_path ("/dev/zero");
  g_autoptr(GFile) null = g_file_new_for_path ("/dev/null");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = NULL;

  out = embers_input_read_file (zero, NULL, NULL, NULL, &error);
  g_assert_null (out);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "/dev/zero"));
  g_clear_error (&error);

  out = embers_input_read_file (null, NULL, NULL, NULL, &error);
  g_assert_null (out);
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY);
  g_clear_error (&error);

  /* A folder, a socket, a missing file */
  {
    g_autoptr(GFile) dir = g_file_new_for_path (tmpdir);
    g_autofree char *sock_path = g_build_filename (tmpdir, "a.sock", NULL);
    g_autoptr(GFile) sock = g_file_new_for_path (sock_path);
    g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/x.pb.gz");
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int fd = socket (AF_UNIX, SOCK_STREAM, 0);

    g_strlcpy (addr.sun_path, sock_path, sizeof addr.sun_path);
    g_assert_cmpint (bind (fd, (struct sockaddr *)&addr, sizeof addr), ==, 0);

    out = embers_input_read_file (dir, NULL, NULL, NULL, &error);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
    g_assert_nonnull (strstr (error->message, "folder"));
    g_clear_error (&error);

    out = embers_input_read_file (sock, NULL, NULL, NULL, &error);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
    g_assert_nonnull (strstr (error->message, "socket"));
    g_clear_error (&error);
    close (fd);

    out = embers_input_read_file (missing, NULL, NULL, NULL, &error);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (error->message, "x.pb.gz"));
  }
}

typedef struct
{
  char   *path;
  gsize   append;
  guint   calls;
} Grower;

static void
grow_on_first_block (guint64  n_read,
                     guint64  size,
                     gpointer user_data)
{
  Grower *grower = user_data;

  if (grower->calls++ == 0)
    {
      g_autofree char *more = g_malloc (grower->append);
      FILE *f = fopen (grower->path, "a");

      for (gsize i = 0; i < grower->append; i++)
        more[i] = "main;grow 1\n"[i % 12];
      g_assert_nonnull (f);
      g_assert_cmpuint (fwrite (more, 1, grower->append, f), ==, grower->append);
      fclose (f);
    }
}

static GString *
folded_text (gsize at_least)
{
  GString *text = g_string_new (NULL);

  while (text->len < at_least)
    g_string_append (text, "main;work;leaf 1\n");
  return text;
}

/* A file that grows while it is read: refused (changed), and past the
 * cap refused as too large, whatever stat said at the start */
static void
test_input_growing_file (void)
{
  g_autoptr(GString) text = folded_text (600 * 1024);
  g_autofree char *path = write_tmp ("growing.folded", text->str, text->len);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  Grower grower = { path, 12 * 1000, 0 };
  EmbersInputOptions options;

  embers_input_options_init (&options);
  options.progress = grow_on_first_block;
  options.user_data = &grower;

  g_assert_null (embers_input_read_file (file, &options, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_assert_nonnull (strstr (error->message, "changed while it was read"));
  g_clear_error (&error);

  /* Now it is whole again: reads fine */
  options.progress = NULL;
  g_bytes_unref (embers_input_read_file (file, &options, NULL, NULL, &error));
  g_assert_no_error (error);

  /* Past the cap while reading: the cap is on the bytes read */
  grower.calls = 0;
  grower.append = 1024 * 1024;
  options.progress = grow_on_first_block;
  options.max_input = 1024 * 1024;
  g_assert_null (embers_input_read_file (file, &options, NULL, NULL, &error));
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
  g_clear_error (&error);

  /* Larger than the cap already: refused before reading */
  grower.calls = 0;
  options.progress = NULL;
  g_assert_null (embers_input_read_file (file, &options, NULL, NULL, &error));
  g_assert_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE);
}

/* A cancelled read of a regular file stops */
static void
test_input_cancel_file (void)
{
  g_autoptr(GString) text = folded_text (100 * 1024);
  g_autofree char *path = write_tmp ("cancel.folded", text->str, text->len);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_null (embers_input_read_file (file, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- a load cancelled half-way (issue 17) ------------------------------- */

/* A pprof profile of random deep stacks, as gen-pprof's "s" shape: about
 * 20 nodes per stack, so the tree is built in many steps */
static char *
write_deep_pprof (guint n_stacks)
{
  g_autoptr(EmbersProfileBuilder) b = embers_profile_builder_new ();
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(GBytes) pb = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint32 *names = g_new (guint32, 2000);
  GRand *rand = g_rand_new_with_seed (17);
  guint32 stack[40];

  embers_profile_builder_add_sample_type (b, "cpu", "nanoseconds");
  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *name = g_strdup_printf ("pkg%u.function%u", i % 37, i);

      names[i] = embers_profile_builder_intern (b, name, -1);
    }
  for (guint s = 0; s < n_stacks; s++)
    {
      guint depth = g_rand_int_range (rand, 8, 40);
      gint64 value = g_rand_int_range (rand, 1, 1000);

      for (guint d = 0; d < depth; d++)
        stack[d] = names[g_rand_int_range (rand, 0, 2000)];
      embers_profile_builder_add_stack (b, stack, depth, &value, 0);
    }
  g_rand_free (rand);
  profile = embers_profile_builder_finish (b, &error);
  g_assert_no_error (error);
  pb = embers_pprof_write (profile, &error);
  g_assert_no_error (error);
  return write_tmp ("deep.pb.gz", g_bytes_get_data (pb, NULL), (gssize)g_bytes_get_size (pb));
}

typedef enum
{
  CANCEL_READING,     /* at the first block read */
  CANCEL_TABLES,      /* as the building begins: the tables' unpack */
  CANCEL_RESOLVING,   /* at the first stack resolved (first half of the building) */
  CANCEL_TREE,        /* while the tree is laid out (second half) */
} CancelAt;

typedef struct
{
  CancelAt      at;
  GCancellable *cancellable;
  gboolean      cancelled;
  guint64       read_after;    /* the most bytes read after the cancel */
  guint64       size;
  guint         building_after;
  guint64       built_after;   /* the most building progress after the cancel */
  guint64       build_total;
} CancelJob;

static void
cancel_on_read (guint64  n_read,
                guint64  size,
                gpointer user_data)
{
  CancelJob *job = user_data;

  job->size = size;
  if (job->cancelled)
    job->read_after = MAX (job->read_after, n_read);
  else if (job->at == CANCEL_READING && n_read > 0)
    {
      g_assert_cmpuint (n_read, <, size);   /* the file is longer than a block */
      g_cancellable_cancel (job->cancellable);
      job->cancelled = TRUE;
    }
}

static void
cancel_on_build (guint64  done,
                 guint64  total,
                 gpointer user_data)
{
  CancelJob *job = user_data;

  job->build_total = total;
  if (job->cancelled)
    {
      job->building_after++;
      job->built_after = MAX (job->built_after, done);
    }
  else if ((job->at == CANCEL_TABLES && done == 0) ||
           (job->at == CANCEL_RESOLVING && done > 0 && done < total / 2) ||
           (job->at == CANCEL_TREE && done > total / 2 && done < total))
    {
      g_cancellable_cancel (job->cancellable);
      job->cancelled = TRUE;
    }
}

/* The pprof reader says (g_debug) when its tables are unpacked: a load
 * cancelled as the unpack begins must never say it */
static guint tables_unpacked;

static GLogWriterOutput
count_unpacks (GLogLevelFlags   level,
               const GLogField *fields,
               gsize            n_fields,
               gpointer         user_data)
{
  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0 &&
        g_str_has_prefix (fields[i].value, "pprof: tables unpacked"))
      tables_unpacked++;
  return g_log_writer_default (level, fields, n_fields, user_data);
}

static gint64
rss_anon_kb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, "RssAnon:")) == NULL)
    return -1;
  return g_ascii_strtoll (line + strlen ("RssAnon:"), NULL, 10);
}

/* A load cancelled while it reads, as it unpacks its tables, while it resolves the samples' stacks
 * and while it lays out the tree stops there: it fails as cancelled, reads
 * and builds nothing more, and gives its memory back. The cancel comes
 * from the loader's own progress callbacks, at a point of the load chosen
 * by what they report, so no timing is involved. */
static void
test_input_cancel_mid_load (void)
{
  g_autofree char *path = write_deep_pprof (60000);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  gint64 whole_kb = 0;

  /* The whole load, for the memory it holds and the steps it reports */
  {
    CancelJob job = { .at = (CancelAt) -1 };
    EmbersInputOptions options;
    g_autoptr(GError) error = NULL;
    g_autoptr(EmbersProfile) profile = NULL;
    gint64 before;

    malloc_trim (0);
    before = rss_anon_kb ();
    embers_input_options_init (&options);
    options.progress = cancel_on_read;
    options.building = cancel_on_build;
    options.user_data = &job;
    job.cancellable = g_cancellable_new ();
    tables_unpacked = 0;
    profile = embers_profile_load_file_full (file, &options, job.cancellable, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (tables_unpacked, ==, 1);
    g_assert_cmpuint (embers_profile_get_n_nodes (profile), >, 500000);
    g_assert_cmpuint (job.build_total, >, 0);
    whole_kb = rss_anon_kb () - before;
    g_test_message ("the whole load holds %" G_GINT64_FORMAT " KiB", whole_kb);
    g_object_unref (job.cancellable);
  }

  for (CancelAt at = CANCEL_READING; at <= CANCEL_TREE; at++)
    {
      CancelJob job = { .at = at };
      EmbersInputOptions options;
      g_autoptr(GError) error = NULL;
      EmbersProfile *profile;
      gint64 before, after;

      malloc_trim (0);
      before = rss_anon_kb ();
      embers_input_options_init (&options);
      options.progress = cancel_on_read;
      options.building = cancel_on_build;
      options.user_data = &job;
      job.cancellable = g_cancellable_new ();
      tables_unpacked = 0;
      profile = embers_profile_load_file_full (file, &options, job.cancellable, &error);
      g_assert_null (profile);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_true (job.cancelled);
      /* It stopped where it was: no more of the file, no finished tree */
      if (at == CANCEL_READING)
        {
          g_assert_cmpuint (job.read_after, <, job.size);
          g_assert_cmpuint (job.building_after, ==, 0);
        }
      else if (at == CANCEL_TABLES)
        {
          /* the unpack stopped at its first allocation: no stack resolved */
          g_assert_cmpuint (tables_unpacked, ==, 0);
          g_assert_cmpuint (job.building_after, ==, 0);
        }
      else
        g_assert_cmpuint (job.built_after, <, job.build_total);
      g_object_unref (job.cancellable);

      /* and gave back what it had (ASan keeps freed memory aside) */
      malloc_trim (0);
      after = rss_anon_kb ();
      g_test_message ("cancelled at step %d: %" G_GINT64_FORMAT " KiB kept (a whole load: %" G_GINT64_FORMAT ")",
                      at, after - before, whole_kb);
#if !defined(__SANITIZE_ADDRESS__) && !defined(EMBERS_UNDER_ASAN)
      if (before > 0 && whole_kb > 32 * 1024)
        g_assert_cmpint (after - before, <, whole_kb / 4);
#endif
    }
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  g_log_set_writer_func (count_unpacks, NULL, NULL);
  /* The endless writer meets a closed pipe */
  signal (SIGPIPE, SIG_IGN);
  tmpdir = g_dir_make_tmp ("embers-input-XXXXXX", NULL);

  g_test_add_func ("/embers/input/bomb", test_input_bomb);
  g_test_add_func ("/embers/input/bomb-after-prefix", test_input_bomb_after_prefix);
  g_test_add_func ("/embers/input/blocks", test_input_blocks);
  g_test_add_func ("/embers/input/sniffer", test_input_sniffer);
  g_test_add_func ("/embers/input/gzip-members", test_input_gzip_members);
  g_test_add_func ("/embers/input/caps", test_input_caps);
  g_test_add_func ("/embers/input/fifo-cancel", test_input_fifo_cancel);
  g_test_add_func ("/embers/input/fifo-writer", test_input_fifo_writer);
  g_test_add_func ("/embers/input/fifo-endless", test_input_fifo_endless);
  g_test_add_func ("/embers/input/devices", test_input_devices);
  g_test_add_func ("/embers/input/growing-file", test_input_growing_file);
  g_test_add_func ("/embers/input/cancel-file", test_input_cancel_file);
  g_test_add_func ("/embers/input/cancel-mid-load", test_input_cancel_mid_load);

  ret = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);

        g_unlink (p);
      }
    g_rmdir (tmpdir);
    g_free (tmpdir);
  }

  return ret;
}
