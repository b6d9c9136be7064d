/* embers-recording-rule.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-recording-rule.h"
#include "embers-selector.h"

G_DEFINE_BOXED_TYPE (EmbersRecordingRule, embers_recording_rule,
                     embers_recording_rule_copy, embers_recording_rule_free)

EmbersRecordingRule *
embers_recording_rule_new (void)
{
  EmbersRecordingRule *rule = g_new0 (EmbersRecordingRule, 1);

  rule->matchers = g_new0 (char *, 1);
  rule->group_by = g_new0 (char *, 1);
  rule->external_label_names = g_new0 (char *, 1);
  rule->external_label_values = g_new0 (char *, 1);

  return rule;
}

EmbersRecordingRule *
embers_recording_rule_copy (const EmbersRecordingRule *rule)
{
  EmbersRecordingRule *copy;

  g_return_val_if_fail (rule != NULL, NULL);

  copy = g_new0 (EmbersRecordingRule, 1);
  copy->id = g_strdup (rule->id);
  copy->metric_name = g_strdup (rule->metric_name);
  copy->profile_type = g_strdup (rule->profile_type);
  copy->matchers = g_strdupv (rule->matchers);
  copy->group_by = g_strdupv (rule->group_by);
  copy->external_label_names = g_strdupv (rule->external_label_names);
  copy->external_label_values = g_strdupv (rule->external_label_values);
  copy->generation = rule->generation;
  copy->function_name = g_strdup (rule->function_name);
  copy->provisioned = rule->provisioned;

  return copy;
}

void
embers_recording_rule_free (EmbersRecordingRule *rule)
{
  if (rule == NULL)
    return;

  g_free (rule->id);
  g_free (rule->metric_name);
  g_free (rule->profile_type);
  g_strfreev (rule->matchers);
  g_strfreev (rule->group_by);
  g_strfreev (rule->external_label_names);
  g_strfreev (rule->external_label_values);
  g_free (rule->function_name);
  g_free (rule);
}

static gboolean
id_is_valid (const char *id)
{
  if (id == NULL || id[0] == '\0')
    return TRUE;  /* the server makes one */
  for (const char *p = id; *p; p++)
    if (!g_ascii_isalpha (*p))
      return FALSE;
  return TRUE;
}

static gboolean
is_blank (const char *text)
{
  for (const char *p = text; *p; p++)
    if (!g_ascii_isspace (*p))
      return FALSE;
  return TRUE;
}

/* Parses every matcher as the server does (each one a Prometheus metric
 * selector; an empty one is an error) into one selector */
static EmbersSelector *
parse_rule_matchers (const EmbersRecordingRule  *rule,
                     char                      **message)
{
  g_autoptr(EmbersSelector) all = embers_selector_new ();

  for (guint i = 0; rule->matchers && rule->matchers[i]; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersSelector) sel = embers_selector_parse_metric_selector (rule->matchers[i], &error);

      if (sel == NULL)
        {
          if (message == NULL)
            return NULL;
          if (is_blank (rule->matchers[i]))
            /* Translators: %u counts the rule's matchers from 1 */
            *message = g_strdup_printf (_("Matcher %u is empty: remove it or write a selector such as {service_name=\"…\"}"),
                                        i + 1);
          else
            *message = g_strdup_printf (_("“%s”: %s"), rule->matchers[i], error->message);
          return NULL;
        }
      for (guint j = 0; j < embers_selector_get_n_matchers (sel); j++)
        embers_selector_add_matcher (all, embers_selector_get_matcher (sel, j));
    }

  return g_steal_pointer (&all);
}

char *
embers_recording_rule_derive_profile_type (const EmbersRecordingRule *rule)
{
  g_autoptr(EmbersSelector) sel = NULL;

  g_return_val_if_fail (rule != NULL, NULL);

  sel = parse_rule_matchers (rule, NULL);
  if (sel != NULL)
    {
      for (guint i = 0; i < embers_selector_get_n_matchers (sel); i++)
        {
          const EmbersMatcher *m = embers_selector_get_matcher (sel, i);

          if (g_str_equal (m->name, "__profile_type__") && m->op == EMBERS_MATCH_EQUAL)
            return g_strdup (m->value);
        }
    }

  return g_strdup ("unknown");
}

gboolean
embers_recording_rule_check (const EmbersRecordingRule  *rule,
                             char                      **messages)
{
  g_autoptr(EmbersSelector) sel = NULL;
  g_autofree char *metric = NULL;
  gboolean ok = TRUE;
  char *msg[EMBERS_RULE_N_FIELDS] = { NULL, };

  g_return_val_if_fail (rule != NULL, FALSE);

  if (!id_is_valid (rule->id))
    msg[EMBERS_RULE_FIELD_ID] = g_strdup (_("An id uses letters only (a–z, A–Z)"));

  metric = g_strstrip (g_strdup (rule->metric_name ? rule->metric_name : ""));
  if (metric[0] == '\0')
    msg[EMBERS_RULE_FIELD_METRIC_NAME] = g_strdup (_("A metric name is required"));
  else if (!embers_metric_name_is_valid (metric))
    msg[EMBERS_RULE_FIELD_METRIC_NAME] =
      g_strdup (_("Use letters, digits, “_” and “:”, not starting with a digit"));
  else if (!g_str_has_prefix (metric, EMBERS_RECORDING_RULE_METRIC_PREFIX))
    msg[EMBERS_RULE_FIELD_METRIC_NAME] =
      g_strdup_printf (_("The name must start with “%s”"), EMBERS_RECORDING_RULE_METRIC_PREFIX);

  sel = parse_rule_matchers (rule, &msg[EMBERS_RULE_FIELD_MATCHERS]);
  if (sel != NULL)
    {
      guint equal = 0, other = 0;

      for (guint i = 0; i < embers_selector_get_n_matchers (sel); i++)
        {
          const EmbersMatcher *m = embers_selector_get_matcher (sel, i);

          if (!g_str_equal (m->name, "__profile_type__"))
            continue;
          if (m->op == EMBERS_MATCH_EQUAL)
            equal++;
          else
            other++;
        }

      if (other > 0)
        msg[EMBERS_RULE_FIELD_MATCHERS] = g_strdup (_("The profile type matcher must use “=”, as in {__profile_type__=\"…\"}"));
      else if (equal == 0)
        msg[EMBERS_RULE_FIELD_MATCHERS] = g_strdup (_("Add a profile type matcher: {__profile_type__=\"…\"}"));
      else if (equal > 1)
        msg[EMBERS_RULE_FIELD_MATCHERS] = g_strdup (_("Only one __profile_type__ matcher is allowed"));
    }

  for (guint i = 0; rule->group_by && rule->group_by[i]; i++)
    {
      if (!embers_label_name_is_valid (rule->group_by[i]))
        {
          msg[EMBERS_RULE_FIELD_GROUP_BY] =
            g_strdup_printf (_("“%s” is not a valid label name (letters, digits and “_”, not starting with a digit)"),
                             rule->group_by[i]);
          break;
        }
    }

  for (guint i = 0; rule->external_label_names && rule->external_label_names[i]; i++)
    {
      const char *value = rule->external_label_values ? rule->external_label_values[i] : NULL;

      if (!embers_label_name_is_valid (rule->external_label_names[i]))
        {
          msg[EMBERS_RULE_FIELD_EXTERNAL_LABELS] =
            g_strdup_printf (_("“%s” is not a valid label name (letters, digits and “_”, not starting with a digit)"),
                             rule->external_label_names[i]);
          break;
        }
      if (value == NULL || !g_utf8_validate (value, -1, NULL))
        {
          msg[EMBERS_RULE_FIELD_EXTERNAL_LABELS] =
            g_strdup_printf (_("The value of “%s” is not valid UTF-8"), rule->external_label_names[i]);
          break;
        }
    }

  if (rule->generation < 0)
    msg[EMBERS_RULE_FIELD_GENERATION] = g_strdup (_("The generation cannot be negative"));

  if (rule->function_name != NULL && !g_utf8_validate (rule->function_name, -1, NULL))
    msg[EMBERS_RULE_FIELD_FUNCTION] = g_strdup (_("The function name is not valid UTF-8"));

  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    {
      if (msg[f] != NULL)
        ok = FALSE;
      if (messages)
        messages[f] = msg[f];
      else
        g_free (msg[f]);
    }

  return ok;
}

static void
append_sanitized (GString    *out,
                  const char *text,
                  gsize       max_len)
{
  gsize start = out->len;
  gboolean pending = out->len > 0;

  for (const char *p = text; *p && out->len - start < max_len; p++)
    {
      if (g_ascii_isalnum (*p))
        {
          if (pending && out->len > 0 && out->str[out->len - 1] != '_')
            g_string_append_c (out, '_');
          pending = FALSE;
          g_string_append_c (out, g_ascii_tolower (*p));
        }
      else
        pending = TRUE;
    }
}

char *
embers_recording_rule_suggest_metric_name (const char *service,
                                           const char *profile_type,
                                           const char *function_name)
{
  GString *out = g_string_new (EMBERS_RECORDING_RULE_METRIC_PREFIX);
  g_auto(GStrv) parts = profile_type ? g_strsplit (profile_type, ":", -1) : NULL;

  g_string_truncate (out, out->len - 1);  /* the separator comes with each part */

  if (service && *service)
    append_sanitized (out, service, 32);
  if (parts && parts[0] && parts[1])
    append_sanitized (out, parts[1], 24);        /* sample type: cpu, alloc_space */
  if (function_name && *function_name)
    {
      const char *shortname = function_name;
      const char *slash = strrchr (function_name, '/');

      if (slash && slash[1])
        shortname = slash + 1;                   /* Go: drop the import path */
      append_sanitized (out, shortname, 40);
    }
  if (parts && parts[0] && parts[1] && parts[2])
    append_sanitized (out, parts[2], 16);        /* unit suffix */
  if (out->len < strlen (EMBERS_RECORDING_RULE_METRIC_PREFIX))
    g_string_append_c (out, '_');                /* nothing known: the prefix */

  return g_string_free (out, FALSE);
}

static void
yaml_quote (GString    *out,
            const char *value)
{
  g_string_append_c (out, '"');
  for (const char *p = value ? value : ""; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      if (*p == '\n')
        {
          g_string_append (out, "\\n");
          continue;
        }
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
yaml_list (GString            *out,
           const char         *indent,
           const char         *key,
           const char * const *items)
{
  if (items == NULL || items[0] == NULL)
    return;
  g_string_append_printf (out, "%s%s:\n", indent, key);
  for (guint i = 0; items[i]; i++)
    {
      g_string_append_printf (out, "%s  - ", indent);
      yaml_quote (out, items[i]);
      g_string_append_c (out, '\n');
    }
}

char *
embers_recording_rule_to_tenant_override (const EmbersRecordingRule *rule,
                                          const char                *tenant)
{
  const char *indent = "        ";
  g_autofree char *metric = NULL;
  GString *out;

  g_return_val_if_fail (rule != NULL, NULL);

  if (tenant == NULL || tenant[0] == '\0')
    tenant = EMBERS_RECORDING_RULE_DEFAULT_TENANT;

  /* The runtime configuration's overrides, per tenant. Pyroscope reads a
   * rule there as settings.v1.RecordingRule in JSON (the proto's field
   * names); the function filter's metric type TOTAL is the default. */
  out = g_string_new ("overrides:\n  ");
  yaml_quote (out, tenant);
  g_string_append (out, ":\n    recording_rules:\n      - metric_name: ");
  metric = g_strstrip (g_strdup (rule->metric_name ? rule->metric_name : ""));
  yaml_quote (out, metric);
  g_string_append_c (out, '\n');
  if (rule->id && *rule->id)
    {
      g_string_append_printf (out, "%sid: ", indent);
      yaml_quote (out, rule->id);
      g_string_append_c (out, '\n');
    }
  yaml_list (out, indent, "matchers", (const char * const *)rule->matchers);
  yaml_list (out, indent, "group_by", (const char * const *)rule->group_by);
  if (rule->external_label_names && rule->external_label_names[0])
    {
      g_string_append_printf (out, "%sexternal_labels:\n", indent);
      for (guint i = 0; rule->external_label_names[i]; i++)
        {
          g_string_append_printf (out, "%s  - name: ", indent);
          yaml_quote (out, rule->external_label_names[i]);
          g_string_append_printf (out, "\n%s    value: ", indent);
          yaml_quote (out, rule->external_label_values ? rule->external_label_values[i] : "");
          g_string_append_c (out, '\n');
        }
    }
  if (rule->function_name && *rule->function_name)
    {
      g_string_append_printf (out, "%sstacktrace_filter:\n%s  function_name:\n%s    function_name: ",
                              indent, indent, indent);
      yaml_quote (out, rule->function_name);
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

static char *
regex_escape_exact (const char *text)
{
  g_autofree char *escaped = g_regex_escape_string (text, -1);

  return g_strdup_printf ("^%s$", escaped);
}

/* The original Pyroscope's name for a profile type (the suffix of
 * app.<type>), or NULL when it had none */
static const char *
og_type_name (const char *profile_type)
{
  static const struct {
    const char *name;         /* profile type's name */
    const char *sample_type;  /* NULL: any */
    const char *og;
  } map[] = {
    { "process_cpu", NULL, "cpu" },
    { "memory", "alloc_objects", "alloc_objects" },
    { "memory", "alloc_space", "alloc_space" },
    { "memory", "inuse_objects", "inuse_objects" },
    { "memory", "inuse_space", "inuse_space" },
    { "goroutines", NULL, "goroutines" },
    { "goroutine", NULL, "goroutines" },
    { "mutex", "contentions", "mutex_count" },
    { "mutex", "delay", "mutex_duration" },
    { "block", "contentions", "block_count" },
    { "block", "delay", "block_duration" },
  };
  g_auto(GStrv) parts = g_strsplit (profile_type ? profile_type : "", ":", -1);

  if (parts[0] == NULL || parts[1] == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (g_str_equal (parts[0], map[i].name) &&
        (map[i].sample_type == NULL || g_str_equal (parts[1], map[i].sample_type)))
      return map[i].og;
  return NULL;
}

char *
embers_recording_rule_to_og_config (const EmbersRecordingRule  *rule,
                                    char                      **warning)
{
  g_autoptr(EmbersSelector) sel = NULL;
  g_autoptr(GString) tags = g_string_new (NULL);
  g_autoptr(GString) warnings = g_string_new (NULL);
  g_autofree char *profile_type = NULL;
  g_autofree char *expr = NULL;
  g_autofree char *kind_owned = NULL;
  const char *app = NULL;
  const char *kind;
  gboolean app_regex = FALSE;
  GString *out;

  g_return_val_if_fail (rule != NULL, NULL);

  sel = parse_rule_matchers (rule, NULL);
  profile_type = embers_recording_rule_derive_profile_type (rule);
  kind = og_type_name (profile_type);

  for (guint i = 0; sel && i < embers_selector_get_n_matchers (sel); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (sel, i);
      g_autofree char *one = NULL;

      if (g_str_equal (m->name, "__profile_type__") || g_str_equal (m->name, "__name__"))
        continue;
      if (g_str_equal (m->name, "service_name"))
        {
          if (m->op == EMBERS_MATCH_EQUAL && app == NULL)
            {
              app = m->value;
              continue;
            }
          app_regex = TRUE;
        }
      one = embers_matcher_to_string (m);
      if (tags->len > 0)
        g_string_append_c (tags, ',');
      g_string_append (tags, one);
    }

  if (app == NULL)
    {
      app = EMBERS_RECORDING_RULE_OG_APP_PLACEHOLDER;
      /* Translators: %s is a placeholder in the configuration, APP_NAME */
      g_string_append_printf (warnings,
                              app_regex
                              ? _("The original Pyroscope needs one application name, and service_name is not "
                                  "one exact value here: replace %s in “expr” with the application’s name "
                                  "(one rule per application).")
                              : _("The rule has no service_name=\"…\" matcher, and the original Pyroscope needs "
                                  "an application name: replace %s in “expr” with it."),
                              EMBERS_RECORDING_RULE_OG_APP_PLACEHOLDER);
    }
  if (kind == NULL)
    {
      g_auto(GStrv) parts = g_strsplit (profile_type, ":", -1);

      kind_owned = g_strdup (parts[0] && parts[1] ? parts[1] : profile_type);
      kind = kind_owned;
      if (warnings->len > 0)
        g_string_append_c (warnings, ' ');
      /* Translators: %s is a profile type id such as wall:wall:nanoseconds:wall:nanoseconds */
      g_string_append_printf (warnings,
                              _("The original Pyroscope has no profile type like “%s”: check the type after "
                                "the application’s name in “expr”."),
                              profile_type);
    }
  expr = g_strdup_printf ("%s.%s{%s}", app, kind, tags->str);

  out = g_string_new ("metrics-export-rules:\n  ");
  g_string_append (out, rule->metric_name ? rule->metric_name : "");
  g_string_append (out, ":\n    expr: ");
  yaml_quote (out, expr);
  g_string_append (out, "\n    node: ");
  if (rule->function_name && *rule->function_name)
    {
      g_autofree char *re = regex_escape_exact (rule->function_name);
      yaml_quote (out, re);
    }
  else
    g_string_append (out, "\"total\"");
  g_string_append_c (out, '\n');
  yaml_list (out, "    ", "group_by", (const char * const *)rule->group_by);

  if (warning != NULL)
    *warning = warnings->len > 0 ? g_strdup (warnings->str) : NULL;

  return g_string_free (out, FALSE);
}

char *
embers_recording_rule_place_server_problems (const char  *message,
                                             char       **messages)
{
  static const struct {
    const char      *prefix;
    EmbersRuleField  field;
  } prefixes[] = {
    { "id ", EMBERS_RULE_FIELD_ID },
    { "metric_name ", EMBERS_RULE_FIELD_METRIC_NAME },
    { "matcher ", EMBERS_RULE_FIELD_MATCHERS },
    { "matchers ", EMBERS_RULE_FIELD_MATCHERS },
    { "group_by ", EMBERS_RULE_FIELD_GROUP_BY },
    { "external_labels ", EMBERS_RULE_FIELD_EXTERNAL_LABELS },
    { "generation ", EMBERS_RULE_FIELD_GENERATION },
  };
  g_auto(GStrv) lines = g_strsplit (message ? message : "", "\n", -1);
  GString *placed[EMBERS_RULE_N_FIELDS] = { NULL, };
  g_autoptr(GString) rest = g_string_new (NULL);

  g_return_val_if_fail (messages != NULL, NULL);

  for (guint i = 0; lines[i]; i++)
    {
      const char *line = lines[i];
      const char *request = strstr (line, "invalid request: ");
      gboolean done = FALSE;

      if (request != NULL)
        line = request + strlen ("invalid request: ");
      while (g_ascii_isspace (*line))
        line++;
      if (*line == '\0')
        continue;

      for (guint p = 0; p < G_N_ELEMENTS (prefixes) && !done; p++)
        {
          EmbersRuleField f = prefixes[p].field;

          if (!g_str_has_prefix (line, prefixes[p].prefix))
            continue;
          if (placed[f] == NULL)
            placed[f] = g_string_new (NULL);
          else
            g_string_append_c (placed[f], '\n');
          g_string_append (placed[f], line);
          done = TRUE;
        }
      if (!done)
        {
          if (rest->len > 0)
            g_string_append_c (rest, '\n');
          g_string_append (rest, line);
        }
    }

  for (guint f = 0; f < EMBERS_RULE_N_FIELDS; f++)
    messages[f] = placed[f] != NULL ? g_string_free (placed[f], FALSE) : NULL;

  return rest->len > 0 ? g_strdup (rest->str) : NULL;
}
