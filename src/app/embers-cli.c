/* embers-cli.c: headless command line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib-unix.h>

#include "embers-location.h"
#include "embers-cli.h"
#include "embers-diff.h"
#include "embers-export.h"
#include "embers-format.h"
#include "embers-input.h"
#include "embers-profile.h"
#include "embers-query-url.h"
#include "embers-render.h"
#include "embers-top.h"

/* The headless options: any of them (without a window's --server) makes
 * the run headless. --diff alone opens the comparison in the window. */
static const char * const cli_flags[] = {
  "--top", "--export", "--format", "--sample-type", "--palette", "--diff-mode", "--diff-width",
  "--timeout",
};

static gboolean
has_flag (int                 argc,
          char              **argv,
          const char * const *flags,
          guint               n_flags)
{
  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;

      for (guint j = 0; j < n_flags; j++)
        {
          gsize len = strlen (flags[j]);

          if (strncmp (argv[i], flags[j], len) == 0 &&
              (argv[i][len] == '\0' || argv[i][len] == '='))
            return TRUE;
        }
    }

  return FALSE;
}

gboolean
embers_cli_wants (int    argc,
                  char **argv)
{
  return has_flag (argc, argv, cli_flags, G_N_ELEMENTS (cli_flags));
}

gboolean
embers_cli_wants_help (int    argc,
                       char **argv)
{
  static const char * const help[] = { "--help", "-h", "-?" };

  return has_flag (argc, argv, help, G_N_ELEMENTS (help));
}

/* `embers --help`: every option, grouped, from one table, so that the
 * window's options and the headless ones are told together */
typedef struct
{
  const char *syntax;       /* not translated: what is typed */
  const char *description;  /* N_() */
} HelpLine;

static void
append_wrapped (GString    *out,
                const char *text,
                guint       indent,
                guint       first_column)
{
  g_auto(GStrv) words = g_strsplit (text, " ", -1);
  guint column = first_column;
  const guint width = 79;

  for (guint i = 0; words[i] != NULL; i++)
    {
      guint len = (guint) g_utf8_strlen (words[i], -1);

      if (words[i][0] == '\0')
        continue;
      if (column > indent && column + 1 + len > width)
        {
          g_string_append_c (out, '\n');
          for (guint j = 0; j < indent; j++)
            g_string_append_c (out, ' ');
          column = indent;
        }
      else if (column > indent)
        {
          g_string_append_c (out, ' ');
          column++;
        }
      g_string_append (out, words[i]);
      column += len;
    }
  g_string_append_c (out, '\n');
}

static void
append_group (GString        *out,
              const char     *title,
              const HelpLine *lines,
              guint           n_lines)
{
  const guint indent = 28;

  g_string_append_printf (out, "\n%s\n", title);
  for (guint i = 0; i < n_lines; i++)
    {
      guint len = 2 + (guint) g_utf8_strlen (lines[i].syntax, -1);

      g_string_append_printf (out, "  %s", lines[i].syntax);
      if (len + 2 > indent)
        {
          g_string_append_c (out, '\n');
          len = 0;
        }
      for (; len < indent; len++)
        g_string_append_c (out, ' ');
      append_wrapped (out, _(lines[i].description), indent, indent);
    }
}

char *
embers_cli_help (void)
{
  static const HelpLine open[] = {
    { "FILE…", N_("Open each profile or folder of profiles in a tab of its own: pprof (.pb.gz, .pprof, .pb), folded stacks, Pyroscope JSON, perf script output, V8 and Chrome CPU profiles, speedscope JSON, Java Flight Recorder, or a Pyroscope query URL") },
    { "--diff BASE COMP", N_("Open the comparison of two profiles, BASE and COMP") },
  };
  static const HelpLine headless[] = {
    { "--top[=N]", N_("Print the top functions (all, or the first N): self, self%, sum%, total, total% and name in aligned columns, as go tool pprof -top does") },
    { "--format=FORMAT", N_("How --top prints: table (default, for people) or tsv (self, total and name separated by tabs, values as plain numbers, for scripts)") },
    { "--export=OUT", N_("Write the profile to OUT: .png, .svg, .pdf (flame graph) or .pb.gz, .folded, .json (data)") },
    { "--sample-type=TYPE", N_("Sample type by name or index (default: the profile’s default)") },
    { "--timeout=SECONDS", N_("Seconds a Pyroscope server has to answer a query URL (default 60; also EMBERS_TIMEOUT)") },
  };
  static const HelpLine compare[] = {
    { "--diff BASE COMP", N_("With --top or --export: compare BASE and COMP; --top prints baseline, comparison, baseline %, comparison %, change and name") },
    { "--palette=PALETTE", N_("With --diff: colors of an exported diff, red-blue (default, color-blind safe) or red-green") },
    { "--diff-mode=MODE", N_("With --diff: color, label and sort by the change of each function’s share of its side’s total (share, default) or of its value (absolute)") },
    { "--diff-width=WIDTH", N_("With --diff: frame widths of an exported diff, both sides summed (both, default) or the comparison only (comparison)") },
  };
  static const HelpLine server[] = {
    { "--server=URL", N_("Connect to a Grafana Pyroscope server (in the running Embers, if there is one)") },
  };
  static const HelpLine other[] = {
    { "--version", N_("Print the version and exit") },
    { "-h, --help", N_("Show this help and exit") },
  };
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "%s\n  embers [FILE…]\n  embers --diff BASE COMP\n"
                          "  embers --top[=N] [--format=tsv] FILE|URL\n"
                          "  embers --export=OUT FILE|URL\n"
                          "  embers --diff (--top|--export=OUT) BASE COMP\n"
                          "  embers --server=URL\n",
                          _("Usage:"));
  g_string_append_c (out, '\n');
  append_wrapped (out, _("Explore profiles as flame graphs: open pprof, folded stacks and Pyroscope JSON, find the hot path, search, sandwich and export."), 0, 0);

  /* Translators: headings of `embers --help` */
  append_group (out, _("Open (in the window):"), open, G_N_ELEMENTS (open));
  append_group (out, _("Headless (no window, no display needed):"), headless, G_N_ELEMENTS (headless));
  append_group (out, _("Compare options:"), compare, G_N_ELEMENTS (compare));
  append_group (out, _("Server:"), server, G_N_ELEMENTS (server));
  append_group (out, _("Help:"), other, G_N_ELEMENTS (other));

  g_string_append_c (out, '\n');
  g_string_append (out, _("Print or convert a profile without opening a window.\n\n"
                          "A profile is a file (pprof, folded stacks, Pyroscope JSON, perf script\n"
                          "output, a V8 or Chrome CPU profile, speedscope JSON, Java Flight Recorder)\n"
                          "or a Pyroscope query URL such as\n"
                          "  'http://localhost:4040/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds"
                          "{service_name=\"api\"}&from=now-1h&until=now'\n"
                          "(add &span-id=ID or &trace-id=ID for the profile of a span or a trace).\n"
                          "Credentials come from the keyring entry for the server, or from\n"
                          "EMBERS_TOKEN, or EMBERS_USER and EMBERS_PASSWORD; EMBERS_TENANT sets the tenant,\n"
                          "EMBERS_TIMEOUT (or --timeout) the seconds a server has to answer.\n\n"
                          "Names in --top output are escaped, so that every line is one row:\n"
                          "\\\\ for a backslash, \\t \\n \\r for tab and line breaks, \\xHH for other\n"
                          "control characters and bytes that are not UTF-8, \\uHHHH for C1 controls\n"
                          "and invisible characters that reorder text (bidirectional marks)."));
  g_string_append (out, "\n\n");
  append_wrapped (out, _("Exit status: 0 on success; 1 on an error (a bad option, an unreadable file, a server that fails); 2 when the profile holds no samples (--top prints “no samples” on standard error and no rows); 128 + N when signal N (Ctrl+C, SIGTERM, SIGHUP) stopped the work."), 0, 0);

  return g_string_free (out, FALSE);
}

typedef struct
{
  gboolean  top;
  gboolean  diff;
  guint     top_limit;
  char     *export_path;
  char     *sample_type;
  char     *palette;
  char     *diff_mode;
  char     *diff_width;
  char     *format;       /* --format: table (NULL) or tsv */
  gboolean  version;
  int       timeout;      /* --timeout=SECONDS for query URLs; 0 = default */
} CliOptions;

/* One of @names (the enum value is its index), or an error naming them */
static gboolean
parse_choice (const char          *option,
              const char          *value,
              const char * const  *names,
              int                 *out,
              GError             **error)
{
  g_autofree char *known = NULL;

  if (value == NULL)
    return TRUE;
  for (int i = 0; names[i] != NULL; i++)
    if (g_str_equal (value, names[i]))
      {
        *out = i;
        return TRUE;
      }
  known = g_strjoinv (", ", (char **) names);
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               /* Translators: an option's value is not one of its choices; the last %s lists them */
               _("%s takes one of %s, not “%s”"), option, known, value);
  return FALSE;
}

/* --palette, --diff-mode, --diff-width into export options (defaults:
 * red-blue, share, both) */
static gboolean
diff_options (const CliOptions     *opts,
              EmbersExportOptions  *export,
              EmbersDiffMode       *mode,
              GError              **error)
{
  static const char * const palettes[] = { "red-blue", "red-green", NULL };
  static const char * const modes[] = { "share", "absolute", NULL };
  static const char * const widths[] = { "both", "comparison", NULL };
  int palette = 0, diff_mode = 0, width = 0;

  if (!parse_choice ("--palette", opts->palette, palettes, &palette, error) ||
      !parse_choice ("--diff-mode", opts->diff_mode, modes, &diff_mode, error) ||
      !parse_choice ("--diff-width", opts->diff_width, widths, &width, error))
    return FALSE;

  embers_export_options_init (export);
  export->style.diff_palette = palette == 1 ? EMBERS_DIFF_PALETTE_RED_GREEN : EMBERS_DIFF_PALETTE_RED_BLUE;
  export->style.diff_mode = diff_mode == 1 ? EMBERS_DIFF_MODE_ABSOLUTE : EMBERS_DIFF_MODE_SHARE;
  export->diff_width = width == 1 ? EMBERS_DIFF_WIDTH_COMPARISON : EMBERS_DIFF_WIDTH_SUM;
  *mode = export->style.diff_mode;
  return TRUE;
}

static CliOptions *cli_options_current;

static gboolean
parse_top (const char  *option_name,
           const char  *value,
           gpointer     data,
           GError     **error)
{
  guint64 n = 0;

  cli_options_current->top = TRUE;
  if (value != NULL && !g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT, &n, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--top takes a number of rows, not “%s”"), value);
      return FALSE;
    }
  cli_options_current->top_limit = (guint)n;

  return TRUE;
}

static gboolean
resolve_sample_type (EmbersProfile *profile,
                     const char    *wanted,
                     guint         *out,
                     GError       **error)
{
  int idx;

  if (wanted == NULL)
    {
      *out = embers_profile_get_default_sample_type (profile);
      return TRUE;
    }

  idx = embers_profile_find_sample_type (profile, wanted);
  if (idx < 0)
    {
      g_autoptr(GString) known = g_string_new (NULL);

      for (guint i = 0; i < embers_profile_get_n_sample_types (profile); i++)
        {
          if (i > 0)
            g_string_append (known, ", ");
          g_string_append (known, embers_profile_get_sample_type (profile, i));
        }
      g_set_error (error, EMBERS_PROFILE_ERROR, EMBERS_PROFILE_ERROR_INVALID,
                   _("The profile has no sample type “%s” (it has: %s)"), wanted, known->str);
      return FALSE;
    }

  *out = (guint)idx;
  return TRUE;
}

/* Through the window's export code: images by the core painter, data by
 * the writers; written whole or not at all */
static gboolean
export_profile (EmbersProfile             *profile,
                guint                      sample_type,
                const EmbersExportOptions *options,
                const char                *path,
                GCancellable              *cancellable,
                GError                   **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(EmbersExport) export = embers_export_new (file, sample_type, error);

  if (export == NULL)
    return FALSE;

  switch (embers_export_get_format (export))
    {
    case EMBERS_FORMAT_PNG:
    case EMBERS_FORMAT_SVG:
    case EMBERS_FORMAT_PDF:
      embers_export_add_profile (export, profile, sample_type, options);
      break;
    case EMBERS_FORMAT_PPROF:
    case EMBERS_FORMAT_FOLDED:
    case EMBERS_FORMAT_FLAMEBEARER:
    case EMBERS_FORMAT_UNKNOWN:
    default:
      embers_export_set_profile (export, profile);
      break;
    }

  return embers_export_run (export, cancellable, error);
}

typedef struct
{
  CliOptions          *opts;
  char               **files;
  EmbersExportOptions  export_options;
  EmbersDiffMode       diff_mode;
  GCancellable        *cancellable;
  int                  status;
  int                  done;        /* atomic */
  int                  signal;      /* the signal that cancelled, or 0 */
} CliJob;

/* A pipe, a FIFO or a terminal with nothing to read yet: say so, once */
static void
cli_waiting (gpointer user_data)
{
  const char *argument = user_data;

  /* Translators: %s is a file name (a pipe or a device) */
  g_printerr (_("embers: waiting for data from “%s” (Ctrl+C stops)\n"), argument);
}

/* Loads a file or a Pyroscope query URL, and picks the sample type. A URL
 * gives the server's merged flame graph, or with full_pprof the whole merged
 * profile (SelectMergeProfile), for exports to pprof. */
static EmbersProfile *
load_argument (const char    *argument,
               const char    *wanted_type,
               gboolean       full_pprof,
               guint         *sample_type,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(EmbersProfile) profile = NULL;

  if (embers_location_classify (argument) == EMBERS_LOCATION_QUERY_URL)
    profile = full_pprof ? embers_pyroscope_load_query_url_pprof (argument, cancellable, error)
                         : embers_pyroscope_load_query_url (argument, cancellable, error);
  else
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (argument);
      EmbersInputOptions options;

      /* The window's limits: the input and inflated caps, early refusal */
      embers_input_options_init (&options);
      options.waiting = cli_waiting;
      options.user_data = (gpointer)argument;
      profile = embers_profile_load_file_full (file, &options, cancellable, error);
    }
  if (profile == NULL)
    return NULL;

  if (!resolve_sample_type (profile, wanted_type, sample_type, error))
    return NULL;

  return g_steal_pointer (&profile);
}

/* All of @out on standard output, or a word on why not (a full disk) */
static gboolean
write_stdout (GString *out)
{
  errno = 0;
  if (fwrite (out->str, 1, out->len, stdout) == out->len && fflush (stdout) == 0)
    return TRUE;

  /* Translators: %s is the reason, such as "No space left on device" */
  g_printerr (_("embers: could not write to standard output: %s\n"),
              g_strerror (errno != 0 ? errno : EIO));
  return FALSE;
}

/* Prints why the job failed; a cancelled job is reported by the caller */
static int
report (CliJob *job,
        GError *error)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_printerr ("embers: %s\n", error->message);
  return 1;
}

/* Loading, diff, top and export: on a thread, so that the main thread can
 * turn Ctrl+C into a cancellation (a pipe with no writer, a slow server) */
static int
cli_work (CliJob *job)
{
  CliOptions *opts = job->opts;
  char **files = job->files;
  g_autoptr(GError) error = NULL;
  g_autoptr(EmbersProfile) profile = NULL;
  g_autoptr(EmbersProfile) server_diff = NULL;
  gboolean full_pprof;
  gboolean tsv, empty = FALSE;
  guint sample_type = 0;

  /* Two queries on one server: the server's Diff RPC, nothing else loaded */
  if (opts->diff && embers_location_classify (files[0]) == EMBERS_LOCATION_QUERY_URL &&
      embers_location_classify (files[1]) == EMBERS_LOCATION_QUERY_URL)
    {
      server_diff = embers_pyroscope_load_query_url_diff (files[0], files[1], job->cancellable,
                                                          &error);
      if (server_diff == NULL && !g_error_matches (error, EMBERS_SOURCE_ERROR, EMBERS_SOURCE_ERROR_NOT_SUPPORTED))
        return report (job, error);
      g_clear_error (&error);
    }

  full_pprof = !opts->diff && opts->export_path != NULL &&
               embers_format_for_filename (opts->export_path) == EMBERS_FORMAT_PPROF;
  if (server_diff != NULL)
    profile = g_object_ref (server_diff);
  else
    profile = load_argument (files[0], opts->sample_type, full_pprof, &sample_type,
                             job->cancellable, &error);
  if (profile == NULL)
    return report (job, error);

  if (opts->diff)
    {
      g_autoptr(EmbersProfile) comparison = NULL;
      g_autoptr(EmbersProfile) diff = server_diff ? g_object_ref (server_diff) : NULL;
      guint comparison_type = 0;

      if (diff == NULL)
        {
          comparison = load_argument (files[1], opts->sample_type, FALSE, &comparison_type,
                                      job->cancellable, &error);
          if (comparison == NULL ||
              !(diff = embers_diff_profiles (profile, sample_type, comparison, comparison_type, &error)))
            return report (job, error);
        }

      g_set_object (&profile, diff);
      sample_type = EMBERS_DIFF_COMPARISON;
    }

  tsv = g_strcmp0 (opts->format, "tsv") == 0;
  /* Nothing sampled: no table whose every share is a division by zero */
  if (opts->top)
    {
      if (opts->diff)
        empty = embers_profile_get_total (profile, EMBERS_DIFF_BASELINE) == 0 &&
                embers_profile_get_total (profile, EMBERS_DIFF_COMPARISON) == 0;
      else
        empty = embers_profile_get_total (profile, sample_type) == 0;
    }

  if (opts->top && !empty && opts->diff)
    {
      g_autoptr(GArray) rows = embers_diff_top_compute (profile);
      g_autoptr(GString) out = g_string_new (NULL);

      embers_diff_top_sort (rows, profile, job->diff_mode, TRUE);
      if (tsv)
        embers_diff_top_print (rows, profile, job->diff_mode, opts->top_limit, out);
      else
        embers_diff_top_print_table (rows, profile, job->diff_mode, opts->top_limit, out);
      if (!write_stdout (out))
        return 1;
    }
  else if (opts->top && !empty)
    {
      g_autoptr(GArray) rows = embers_top_compute (profile, sample_type);
      g_autoptr(GString) out = g_string_new (NULL);

      if (tsv)
        embers_top_print (rows, profile, opts->top_limit, out);
      else
        embers_top_print_table (rows, profile, sample_type, opts->top_limit, out);
      if (!write_stdout (out))
        return 1;
    }

  if (opts->export_path != NULL &&
      !export_profile (profile, sample_type, &job->export_options, opts->export_path,
                       job->cancellable, &error))
    return report (job, error);

  if (empty)
    {
      /* Translators: `embers --top` on a profile without samples (exit status 2) */
      g_printerr ("embers: %s\n", _("no samples"));
      return EMBERS_CLI_EXIT_NO_SAMPLES;
    }

  return 0;
}

static gpointer
cli_thread (gpointer data)
{
  CliJob *job = data;

  job->status = cli_work (job);
  g_atomic_int_set (&job->done, 1);
  g_main_context_wakeup (NULL);
  return NULL;
}

static gboolean
on_signal (CliJob *job,
           int     signum)
{
  if (job->signal != 0)
    {
      /* A second time: stop now, whatever is running */
      signal (signum, SIG_DFL);
      raise (signum);
    }
  job->signal = signum;
  g_cancellable_cancel (job->cancellable);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_sigint (gpointer data)
{
  return on_signal (data, SIGINT);
}

static gboolean
on_sigterm (gpointer data)
{
  return on_signal (data, SIGTERM);
}

static gboolean
on_sighup (gpointer data)
{
  return on_signal (data, SIGHUP);
}

/* Runs the job; Ctrl+C (SIGINT), SIGTERM and SIGHUP cancel it as Cancel
 * does in the window: reads and server calls stop, no export is left
 * behind, and the exit status is 128 + the signal's number */
static int
run_job (CliOptions                *opts,
         char                     **files,
         const EmbersExportOptions *export_options,
         EmbersDiffMode             diff_mode)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  CliJob job = { 0, };
  GThread *thread;
  guint sources[3];

  job.opts = opts;
  job.files = files;
  job.export_options = *export_options;
  job.diff_mode = diff_mode;
  job.cancellable = cancellable;

  sources[0] = g_unix_signal_add (SIGINT, on_sigint, &job);
  sources[1] = g_unix_signal_add (SIGTERM, on_sigterm, &job);
  sources[2] = g_unix_signal_add (SIGHUP, on_sighup, &job);

  thread = g_thread_new ("embers-cli", cli_thread, &job);
  while (!g_atomic_int_get (&job.done))
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    g_source_remove (sources[i]);

  if (job.signal != 0 && job.status != 0)
    {
      g_printerr ("embers: %s\n", _("Interrupted"));
      return 128 + job.signal;
    }

  return job.status;
}

int
embers_cli_run (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) files = NULL;
  CliOptions opts = { 0, };
  g_auto(GStrv) owned_argv = NULL;
  g_autofree char **parse_argv = NULL;
  EmbersExportOptions export_options;
  EmbersDiffMode diff_mode = EMBERS_DIFF_MODE_SHARE;
  int status = 1;
  /* Translators: N, OUT, TYPE, PALETTE, MODE, WIDTH, SECONDS, FILE|URL, BASE and COMP are placeholders in --help */
  GOptionEntry entries[] = {
    { "top", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, parse_top,
      N_("Print the top functions (all, or the first N): self, self%, sum%, total, total% and name in aligned columns, as go tool pprof -top does"), N_("N") },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &opts.export_path,
      N_("Write the profile to OUT: .png, .svg, .pdf (flame graph) or .pb.gz, .folded, .json (data)"), N_("OUT") },
    { "diff", 0, 0, G_OPTION_ARG_NONE, &opts.diff,
      N_("With --top or --export: compare BASE and COMP; --top prints baseline, comparison, baseline %, comparison %, change and name"), NULL },
    { "sample-type", 0, 0, G_OPTION_ARG_STRING, &opts.sample_type,
      N_("Sample type by name or index (default: the profile’s default)"), N_("TYPE") },
    { "palette", 0, 0, G_OPTION_ARG_STRING, &opts.palette,
      N_("With --diff: colors of an exported diff, red-blue (default, color-blind safe) or red-green"), N_("PALETTE") },
    { "diff-mode", 0, 0, G_OPTION_ARG_STRING, &opts.diff_mode,
      N_("With --diff: color, label and sort by the change of each function’s share of its side’s total (share, default) or of its value (absolute)"), N_("MODE") },
    { "diff-width", 0, 0, G_OPTION_ARG_STRING, &opts.diff_width,
      N_("With --diff: frame widths of an exported diff, both sides summed (both, default) or the comparison only (comparison)"), N_("WIDTH") },
    { "format", 0, 0, G_OPTION_ARG_STRING, &opts.format,
      N_("How --top prints: table (default, for people) or tsv (self, total and name separated by tabs, values as plain numbers, for scripts)"), N_("FORMAT") },
    { "version", 0, 0, G_OPTION_ARG_NONE, &opts.version,
      N_("Print the version and exit"), NULL },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &opts.timeout,
      N_("Seconds a Pyroscope server has to answer a query URL (default 60; also EMBERS_TIMEOUT)"), N_("SECONDS") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE|URL") },
    { NULL }
  };

  /* GOption gives an optional argument the next word when it has no "=";
   * a bare --top must not swallow the file name. The parser drops what it
   * took from the vector it is given: it gets a shallow copy, and the
   * strings are freed from owned_argv. */
  owned_argv = g_strdupv (argv);
  for (int i = 1; i < argc; i++)
    if (g_str_equal (owned_argv[i], "--top"))
      {
        g_free (owned_argv[i]);
        owned_argv[i] = g_strdup ("--top=0");
      }
  parse_argv = g_memdup2 (owned_argv, sizeof (char *) * (argc + 1));
  argv = parse_argv;

  cli_options_current = &opts;
  context = g_option_context_new (_("FILE|URL — headless profile tools"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Print or convert a profile without opening a window.\n\n"
                                           "A profile is a file (pprof, folded stacks, Pyroscope JSON, perf script\n"
                                           "output, a V8 or Chrome CPU profile, speedscope JSON, Java Flight Recorder)\n"
                                           "or a Pyroscope query URL such as\n"
                                           "  'http://localhost:4040/?query=process_cpu:cpu:nanoseconds:cpu:nanoseconds"
                                           "{service_name=\"api\"}&from=now-1h&until=now'\n"
                                           "(add &span-id=ID or &trace-id=ID for the profile of a span or a trace).\n"
                                           "Credentials come from the keyring entry for the server, or from\n"
                                           "EMBERS_TOKEN, or EMBERS_USER and EMBERS_PASSWORD; EMBERS_TENANT sets the tenant,\n"
                                           "EMBERS_TIMEOUT (or --timeout) the seconds a server has to answer.\n\n"
                                           "Names in --top output are escaped, so that every line is one row:\n"
                                           "\\\\ for a backslash, \\t \\n \\r for tab and line breaks, \\xHH for other\n"
                                           "control characters and bytes that are not UTF-8, \\uHHHH for C1 controls\n"
                                           "and invisible characters that reorder text (bidirectional marks)."));

  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("embers: %s\n", error->message);
      goto out;
    }

  if (opts.version)
    {
      g_print ("embers %s\n", PACKAGE_VERSION);
      status = 0;
      goto out;
    }

  if (opts.format != NULL && !g_str_equal (opts.format, "table") && !g_str_equal (opts.format, "tsv"))
    {
      g_printerr ("embers: ");
      /* Translators: %s is what was given to --format */
      g_printerr (_("--format takes table or tsv, not “%s”"), opts.format);
      g_printerr ("\n");
      goto out;
    }

  if (opts.timeout < 0 || opts.timeout > EMBERS_QUERY_URL_MAX_TIMEOUT_S)
    {
      g_printerr ("embers: ");
      g_printerr (_("--timeout takes a whole number of seconds from 1 to %u"), EMBERS_QUERY_URL_MAX_TIMEOUT_S);
      g_printerr ("\n");
      goto out;
    }
  embers_query_url_set_timeout ((guint) opts.timeout);

  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("embers: %s\n", _("No profile given; pass a file"));
      goto out;
    }

  if (!opts.diff && files[1] != NULL)
    {
      g_printerr ("embers: %s\n", _("Give exactly one profile (or --diff BASE COMP)"));
      goto out;
    }
  if (opts.diff && (files[1] == NULL || files[2] != NULL))
    {
      g_printerr ("embers: %s\n", _("--diff takes exactly two profiles: BASE COMP"));
      goto out;
    }

  if (!opts.diff && (opts.palette != NULL || opts.diff_mode != NULL || opts.diff_width != NULL))
    {
      g_printerr ("embers: %s\n", _("--palette, --diff-mode and --diff-width need --diff"));
      goto out;
    }
  if (!diff_options (&opts, &export_options, &diff_mode, &error))
    {
      g_printerr ("embers: %s\n", error->message);
      goto out;
    }

  if (!opts.top && opts.export_path == NULL)
    {
      g_printerr ("embers: %s\n", _("Nothing to do: use --top or --export"));
      goto out;
    }

  status = run_job (&opts, files, &export_options, diff_mode);

out:
  cli_options_current = NULL;
  g_free (opts.export_path);
  g_free (opts.sample_type);
  g_free (opts.palette);
  g_free (opts.diff_mode);
  g_free (opts.diff_width);
  g_free (opts.format);

  return status;
}
