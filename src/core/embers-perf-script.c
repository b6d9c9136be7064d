/* embers-perf-script.c: what `perf script` prints, as a profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-profile-builder.h"
#include "embers-readers.h"

/*
 * `perf script` (tools/perf/builtin-script.c) prints one block per sample:
 * a header line that starts in the first column, then, when the recording
 * has call chains (perf record -g), one indented line per frame, leaf
 * first, and an empty line:
 *
 *   workload 29141 [001] 4642.413940:    1001001 cpu-clock:ppp:
 *   	ffffffff813a2313 finish_task_switch.isra.0+0x93 ([kernel.kallsyms])
 *   	            12b3 work+0x9 (/tmp/workload)
 *
 * Without call chains the one frame sits at the end of the header:
 *
 *   workload 32016  4687.574279:          1 page-faults:  ffffffff81752b6a elf_load+0x28a ([kernel.kallsyms])
 *
 * The header's fields are: the command (which may hold spaces), the pid
 * or pid/tid, the CPU in brackets (when recorded), the time and a colon,
 * the period (when recorded), and the event's name and a colon. `perf
 * script --header` puts "#" comment lines first.
 *
 * Each sample becomes a stack rooted at its command, with one frame per
 * function: the symbol without its "+0x…" offset, "[dso]" for a frame
 * perf could not name, and "_[k]" after kernel frames (the addresses in
 * the upper half, or a "[kernel…]" dso), "_[j]" after JIT frames (a
 * /tmp/perf-PID.map dso), as FlameGraph's stackcollapse-perf marks them.
 *
 * Sample types: for each event, in the order they appear, its periods
 * ("cpu-clock", in nanoseconds for the clock events) and its sample count
 * ("cpu-clock samples"); an event recorded without periods has its count
 * only.
 */

#define MAX_EVENTS 32

typedef struct
{
  const char *comm;
  gsize       comm_len;
  const char *event;
  gsize       event_len;
  gboolean    has_time;
  gboolean    has_period;
  gint64      period;
  const char *rest;        /* after the event: a frame, or nothing */
  gsize       rest_len;
} Header;

typedef struct
{
  const char *start;
  gsize       len;
} Token;

static gboolean
all_digits (const char *s,
            gsize       len)
{
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

/* "1234" or "1234/1235" */
static gboolean
is_pid (const Token *t)
{
  const char *slash = memchr (t->start, '/', t->len);

  if (slash == NULL)
    return all_digits (t->start, t->len);
  return all_digits (t->start, slash - t->start) &&
         all_digits (slash + 1, t->start + t->len - slash - 1);
}

/* "[001]" */
static gboolean
is_cpu (const Token *t)
{
  return t->len >= 3 && t->start[0] == '[' && t->start[t->len - 1] == ']' &&
         all_digits (t->start + 1, t->len - 2);
}

/* "4642.413940:" */
static gboolean
is_time (const Token *t)
{
  const char *dot;

  if (t->len < 4 || t->start[t->len - 1] != ':')
    return FALSE;
  dot = memchr (t->start, '.', t->len);
  if (dot == NULL)
    return all_digits (t->start, t->len - 1);
  return all_digits (t->start, dot - t->start) &&
         all_digits (dot + 1, t->start + t->len - 1 - dot - 1);
}

static gboolean
parse_int (const char *s,
           gsize       len,
           gint64     *out)
{
  guint64 v = 0;

  if (!all_digits (s, len))
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (v > ((guint64)G_MAXINT64 - 9) / 10)
        return FALSE;
      v = v * 10 + (guint)(s[i] - '0');
    }
  *out = (gint64)v;
  return TRUE;
}

/* The first tokens of a header line, enough to find its fields */
#define MAX_TOKENS 64

static gboolean
parse_header (const char *line,
              gsize       len,
              Header     *h)
{
  Token tokens[MAX_TOKENS];
  guint n = 0;
  gsize i = 0;
  gint pid = -1, after, ev;

  memset (h, 0, sizeof *h);
  if (len == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#')
    return FALSE;

  /* Tokens up to the event (the first token after the pid that ends in a
   * colon), which is never far */
  while (n < MAX_TOKENS)
    {
      while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
      if (i >= len)
        break;
      tokens[n].start = line + i;
      while (i < len && line[i] != ' ' && line[i] != '\t')
        i++;
      tokens[n].len = (gsize)(line + i - tokens[n].start);
      n++;
    }

  /* The pid: the first numeric token (after at least the command) that
   * is followed by the CPU, the time, a period or the event */
  for (guint k = 1; k + 1 < n && pid < 0; k++)
    {
      guint next = k + 1;

      if (!is_pid (&tokens[k]))
        continue;
      if (next < n && is_cpu (&tokens[next]))
        next++;
      if (next < n && (is_time (&tokens[next]) ||
                       (tokens[next].len > 1 && tokens[next].start[tokens[next].len - 1] == ':'
                        && !all_digits (tokens[next].start, tokens[next].len - 1)) ||
                       all_digits (tokens[next].start, tokens[next].len)))
        pid = (gint)k;
    }
  if (pid < 0)
    return FALSE;

  after = pid + 1;
  if (after < (gint)n && is_cpu (&tokens[after]))
    after++;
  if (after < (gint)n && is_time (&tokens[after]))
    {
      h->has_time = TRUE;
      after++;
    }
  if (after < (gint)n && all_digits (tokens[after].start, tokens[after].len))
    {
      if (!parse_int (tokens[after].start, tokens[after].len, &h->period))
        return FALSE;
      h->has_period = TRUE;
      after++;
    }
  ev = after;
  if (ev >= (gint)n || tokens[ev].len < 2 || tokens[ev].start[tokens[ev].len - 1] != ':')
    return FALSE;

  h->comm = line;
  h->comm_len = (gsize)(tokens[pid - 1].start + tokens[pid - 1].len - line);
  h->event = tokens[ev].start;
  h->event_len = tokens[ev].len - 1;
  h->rest = tokens[ev].start + tokens[ev].len;
  h->rest_len = (gsize)(line + len - h->rest);
  while (h->rest_len > 0 && (h->rest[0] == ' ' || h->rest[0] == '\t'))
    {
      h->rest++;
      h->rest_len--;
    }
  while (h->rest_len > 0 && (h->rest[h->rest_len - 1] == ' ' || h->rest[h->rest_len - 1] == '\t' ||
                             h->rest[h->rest_len - 1] == '\r'))
    h->rest_len--;

  return TRUE;
}

gboolean
embers_perf_script_is_header (const char *line,
                              gsize       len)
{
  Header h;

  while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
    len--;
  /* A sample's header has its time, or ends in its event's colon (call
   * chains follow) or in its one frame's "(dso)" */
  if (!parse_header (line, len, &h))
    return FALSE;
  return h.has_time || h.rest_len == 0 || h.rest[h.rest_len - 1] == ')';
}

typedef struct
{
  guint64     address;
  const char *symbol;
  gsize       symbol_len;
  const char *dso;
  gsize       dso_len;
} Frame;

/* "ffffffff813a2313 finish_task_switch.isra.0+0x93 ([kernel.kallsyms])",
 * leading white space already skipped */
static gboolean
parse_frame (const char *s,
             gsize       len,
             Frame      *f)
{
  gsize i = 0;
  const char *open;

  memset (f, 0, sizeof *f);
  while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
    len--;

  while (i < len && g_ascii_isxdigit (s[i]))
    {
      if (i >= 16)
        return FALSE;
      f->address = f->address << 4 | (guint64)g_ascii_xdigit_value (s[i]);
      i++;
    }
  if (i == 0 || i >= len || (s[i] != ' ' && s[i] != '\t'))
    return FALSE;
  while (i < len && (s[i] == ' ' || s[i] == '\t'))
    i++;

  /* The dso: the last " (" … ")" */
  if (len > i && s[len - 1] == ')')
    {
      for (open = s + len - 2; open > s + i; open--)
        if (*open == '(' && (open[-1] == ' ' || open[-1] == '\t'))
          break;
      if (open > s + i)
        {
          f->dso = open + 1;
          f->dso_len = (gsize)(s + len - 1 - f->dso);
          len = (gsize)(open - s);
          while (len > i && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        }
    }

  f->symbol = s + i;
  f->symbol_len = len - i;

  /* Drop "+0x93" */
  {
    const char *plus = NULL;

    for (gssize k = (gssize)f->symbol_len - 1; k >= 0; k--)
      {
        char c = f->symbol[k];

        if (c == '+')
          {
            plus = f->symbol + k;
            break;
          }
        if (!g_ascii_isxdigit (c) && c != 'x')
          break;
      }
    if (plus != NULL && f->symbol + f->symbol_len - plus > 3 && plus[1] == '0' && plus[2] == 'x')
      f->symbol_len = (gsize)(plus - f->symbol);
  }

  return TRUE;
}

static gboolean
is_kernel_frame (const Frame *f)
{
  if (f->address >= G_GUINT64_CONSTANT (0x8000000000000000))
    return TRUE;
  return f->dso_len >= 7 && memcmp (f->dso, "[kernel", 7) == 0;
}

static gboolean
is_jit_frame (const Frame *f)
{
  const char *base = f->dso;
  gsize len = f->dso_len;

  for (gsize k = 0; k < f->dso_len; k++)
    if (f->dso[k] == '/')
      {
        base = f->dso + k + 1;
        len = f->dso_len - k - 1;
      }
  return len > 9 && memcmp (base, "perf-", 5) == 0 && memcmp (base + len - 4, ".map", 4) == 0;
}

static guint32
intern_frame (EmbersProfileBuilder *b,
              GString              *scratch,
              const Frame          *f)
{
  g_string_truncate (scratch, 0);

  if (f->symbol_len == 0 || (f->symbol_len == 9 && memcmp (f->symbol, "[unknown]", 9) == 0))
    {
      /* No symbol: the dso's file name, in brackets */
      const char *base = f->dso;
      gsize len = f->dso_len;

      for (gsize k = 0; k < f->dso_len; k++)
        if (f->dso[k] == '/')
          {
            base = f->dso + k + 1;
            len = f->dso_len - k - 1;
          }
      if (len > 0 && base[0] == '[')
        g_string_append_len (scratch, base, len);
      else if (len > 0)
        {
          g_string_append_c (scratch, '[');
          g_string_append_len (scratch, base, len);
          g_string_append_c (scratch, ']');
        }
      else
        g_string_append (scratch, "[unknown]");
    }
  else
    g_string_append_len (scratch, f->symbol, f->symbol_len);

  if (is_kernel_frame (f))
    g_string_append (scratch, "_[k]");
  else if (is_jit_frame (f))
    g_string_append (scratch, "_[j]");

  return embers_profile_builder_intern (b, scratch->str, scratch->len);
}

typedef struct
{
  const char *name;
  gsize       len;
  gboolean    has_period;
  guint       period_column;   /* G_MAXUINT without periods */
  guint       count_column;
} Event;

static int
find_event (Event      *events,
            guint       n_events,
            const char *name,
            gsize       len)
{
  for (guint e = 0; e < n_events; e++)
    if (events[e].len == len && memcmp (events[e].name, name, len) == 0)
      return (int)e;
  return -1;
}

/* The software clock events count nanoseconds */
static gboolean
is_clock_event (const char *name)
{
  return g_str_has_prefix (name, "cpu-clock") || g_str_has_prefix (name, "task-clock");
}

static void
set_invalid (GError     **error,
             guint        line,
             const char  *what)
{
  g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
               _("perf script: line %u: %s"), line, what);
}

/* The next line: [*pos, end of line), *pos moves past its newline */
static inline gboolean
next_line (const char  *data,
           gsize        len,
           gsize       *pos,
           const char **line,
           gsize       *line_len)
{
  const char *nl;

  if (*pos >= len)
    return FALSE;
  *line = data + *pos;
  nl = memchr (*line, '\n', len - *pos);
  *line_len = nl != NULL ? (gsize)(nl - *line) : len - *pos;
  *pos += *line_len + (nl != NULL ? 1 : 0);
  if (*line_len > 0 && (*line)[*line_len - 1] == '\r')
    (*line_len)--;
  return TRUE;
}

typedef struct
{
  guint   event;
  guint32 comm;
  gint64  period;
  guint   first_frame;   /* in frames, leaf first */
  guint   n_frames;
} Sample;

static const char *
skip_blanks (const char *line,
             gsize      *len)
{
  while (*len > 0 && (line[0] == ' ' || line[0] == '\t'))
    {
      line++;
      (*len)--;
    }
  return line;
}

EmbersProfile *
embers_perf_script_parse (const char  *data,
                          gsize        len,
                          GError     **error)
{
  g_autoptr(EmbersProfileBuilder) b = NULL;
  g_autoptr(GArray) samples = NULL;
  g_autoptr(GArray) frames = NULL;
  g_autoptr(GArray) stack = NULL;
  g_autoptr(GString) scratch = NULL;
  g_autofree gint64 *values = NULL;
  Event events[MAX_EVENTS];
  guint n_events = 0, n_columns = 0, lineno = 0;
  Sample *current = NULL;
  gsize pos = 0;
  const char *line;
  gsize line_len;

  if (memchr (data, '\0', len) != NULL)
    {
      g_set_error_literal (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                           _("perf script: the text holds a NUL byte"));
      return NULL;
    }

  b = embers_profile_builder_new ();
  samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  scratch = g_string_new (NULL);

  /*
   * One pass: each sample's header, then (in a sample with call chains)
   * its frames until an empty line. Headers may be indented (perf right-
   * aligns the command when there are no call chains); in a sample, an
   * indented line is a frame when it reads as one.
   */
  while (next_line (data, len, &pos, &line, &line_len))
    {
      const char *text;
      gsize text_len = line_len;
      Header h;
      Frame f;
      int e;

      lineno++;
      text = skip_blanks (line, &text_len);
      if (text_len == 0)
        {
          current = NULL;   /* the end of a sample */
          continue;
        }
      if (text == line && line[0] == '#')
        continue;

      if (current != NULL && text != line && parse_frame (text, text_len, &f))
        {
          guint32 id = intern_frame (b, scratch, &f);

          if (current->n_frames >= EMBERS_PROFILE_MAX_DEPTH)
            {
              g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                           _("perf script: line %u: a stack deeper than %u frames"),
                           lineno, EMBERS_PROFILE_MAX_DEPTH);
              return NULL;
            }
          g_array_append_val (frames, id);
          current->n_frames++;
          continue;
        }

      if (!parse_header (text, text_len, &h))
        {
          /* In a sample, lines that are no frame (a source line, a
           * symbol's offset in a file…) are skipped */
          if (current != NULL && text != line)
            continue;
          set_invalid (error, lineno, _("expected a sample’s header (command, pid, time, event)"));
          return NULL;
        }

      e = find_event (events, n_events, h.event, h.event_len);
      if (e < 0)
        {
          if (n_events == MAX_EVENTS)
            {
              g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_TOO_LARGE,
                           _("perf script: more than %u events"), MAX_EVENTS);
              return NULL;
            }
          e = (int)n_events++;
          events[e].name = h.event;
          events[e].len = h.event_len;
          events[e].has_period = FALSE;
        }
      if (h.has_period)
        events[e].has_period = TRUE;

      {
        Sample sample = { (guint)e, embers_profile_builder_intern (b, h.comm, h.comm_len),
                          h.has_period ? h.period : 0, frames->len, 0 };

        g_array_append_val (samples, sample);
        current = &g_array_index (samples, Sample, samples->len - 1);
      }

      /* Without call chains, the one frame ends the header */
      if (h.rest_len > 0)
        {
          if (parse_frame (h.rest, h.rest_len, &f))
            {
              guint32 id = intern_frame (b, scratch, &f);

              g_array_append_val (frames, id);
              current->n_frames++;
            }
          current = NULL;
        }
    }

  if (samples->len == 0)
    {
      g_set_error_literal (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_EMPTY,
                           _("perf script: there are no samples"));
      return NULL;
    }

  for (guint e = 0; e < n_events; e++)
    {
      g_autofree char *name = g_strndup (events[e].name, events[e].len);

      if (events[e].has_period)
        {
          g_autofree char *count = g_strconcat (name, " samples", NULL);

          events[e].period_column =
            embers_profile_builder_add_sample_type (b, name, is_clock_event (name) ? "nanoseconds" : "count");
          events[e].count_column = embers_profile_builder_add_sample_type (b, count, "count");
          n_columns += 2;
        }
      else
        {
          events[e].period_column = G_MAXUINT;
          events[e].count_column = embers_profile_builder_add_sample_type (b, name, "count");
          n_columns++;
        }
    }
  embers_profile_builder_set_default_sample_type (b, 0);

  values = g_new0 (gint64, n_columns);
  stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < samples->len; i++)
    {
      const Sample *sample = &g_array_index (samples, Sample, i);
      const Event *event = &events[sample->event];
      /* Root first: the command, then the frames from the outermost
       * (frames holds them leaf first) */
      g_array_set_size (stack, sample->n_frames + 1);
      g_array_index (stack, guint32, 0) = sample->comm;
      for (guint k = 0; k < sample->n_frames; k++)
        g_array_index (stack, guint32, k + 1) =
          g_array_index (frames, guint32, sample->first_frame + sample->n_frames - 1 - k);

      memset (values, 0, n_columns * sizeof *values);
      if (event->period_column != G_MAXUINT)
        values[event->period_column] = sample->period;
      values[event->count_column] = 1;
      embers_profile_builder_add_stack (b, (const guint32 *)(gpointer)stack->data, stack->len, values, 0);
    }

  if (!embers_profile_builder_check (b, error))
    return NULL;
  return embers_profile_builder_finish (b, error);
}
