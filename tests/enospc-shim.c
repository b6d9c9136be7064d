/* enospc-shim.c: an LD_PRELOAD library that makes a folder's disk full.
 *
 * For machines where a test cannot mount a small tmpfs (tests/full-disk.h).
 * Writes to regular files under $EMBERS_ENOSPC_DIR fail with ENOSPC once
 * the file would grow past $EMBERS_ENOSPC_FILE_CAP bytes; the write that
 * crosses the cap writes what still fits first, as a filling disk does.
 * Everything else passes through.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

ssize_t write (int fd, const void *buf, size_t count);
ssize_t writev (int fd, const struct iovec *iov, int iovcnt);

/* How many bytes still fit in @fd's file, or -1 when it is not ours */
static long long
room (int fd)
{
  const char *dir = getenv ("EMBERS_ENOSPC_DIR");
  const char *cap_text = getenv ("EMBERS_ENOSPC_FILE_CAP");
  char link[64], target[PATH_MAX];
  struct stat st;
  size_t dir_len;
  ssize_t n;
  long long cap, offset;

  if (dir == NULL || cap_text == NULL || fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    return -1;
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  n = readlink (link, target, sizeof target - 1);
  if (n <= 0)
    return -1;
  target[n] = '\0';
  dir_len = strlen (dir);
  if (strncmp (target, dir, dir_len) != 0 || target[dir_len] != '/')
    return -1;

  cap = atoll (cap_text);
  offset = lseek (fd, 0, SEEK_CUR);
  return offset >= cap ? 0 : cap - offset;
}

ssize_t
write (int         fd,
       const void *buf,
       size_t      count)
{
  static ssize_t (*real) (int, const void *, size_t);
  long long left = room (fd);

  if (real == NULL)
    real = (ssize_t (*) (int, const void *, size_t))dlsym (RTLD_NEXT, "write");
  if (left >= 0 && (long long)count > left)
    {
      if (left == 0)
        {
          errno = ENOSPC;
          return -1;
        }
      count = (size_t)left;
    }
  return real (fd, buf, count);
}

ssize_t
writev (int                 fd,
        const struct iovec *iov,
        int                 iovcnt)
{
  static ssize_t (*real) (int, const struct iovec *, int);
  long long left = room (fd);
  size_t total = 0;

  if (real == NULL)
    real = (ssize_t (*) (int, const struct iovec *, int))dlsym (RTLD_NEXT, "writev");
  for (int i = 0; i < iovcnt; i++)
    total += iov[i].iov_len;
  if (left >= 0 && (long long)total > left)
    {
      /* What fits of the first buffer, then the disk is full */
      if (left == 0 || iovcnt == 0)
        {
          errno = ENOSPC;
          return -1;
        }
      return write (fd, iov[0].iov_base, iov[0].iov_len);
    }
  return real (fd, iov, iovcnt);
}
