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

/* Parses every matcher; fills the profile type and counts __profile_type__ */
static EmbersSelector *
parse_rule_matchers (const EmbersRecordingRule  *rule,
                     char                      **message)
{
  g_autoptr(EmbersSelector) all = embers_selector_new ();

  for (guint i = 0; rule->matchers && rule->matchers[i]; i++)
    {
      const char *one[] = { rule->matchers[i], NULL };
      g_autoptr(GError) error = NULL;
      g_autoptr(EmbersSelector) sel = NULL;

      if (is_blank (rule->matchers[i]))
        continue;

      sel = embers_selector_parse_matchers (one, &error);
      if (sel == NULL)
        {
          if (message)
            *message = g_strdup_printf (_("“%s”: %s"), rule->matchers[i], error->message);
          return NULL;
        }
      for (guint j = 0; j < embers_selector_get_n_matchers (sel); j++)
        {
          const EmbersMatcher *m = embers_selector_get_matcher (sel, j);
          embers_selector_add (all, m->name, m->op, m->value, NULL);
        }
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
        msg[EMBERS_RULE_FIELD_MATCHERS] = g_strdup (_("The profile type matcher must use “=”, as in __profile_type__=\"…\""));
      else if (equal == 0)
        msg[EMBERS_RULE_FIELD_MATCHERS] = g_strdup (_("Add a profile type matcher: __profile_type__=\"…\""));
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

char *
embers_recording_rule_to_tenant_override (const EmbersRecordingRule *rule)
{
  GString *out;

  g_return_val_if_fail (rule != NULL, NULL);

  out = g_string_new ("recording_rules:\n");
  g_string_append (out, "  - metric_name: ");
  yaml_quote (out, rule->metric_name);
  g_string_append_c (out, '\n');
  if (rule->id && *rule->id)
    {
      g_string_append (out, "    id: ");
      yaml_quote (out, rule->id);
      g_string_append_c (out, '\n');
    }
  g_string_append (out, "    matchers:\n");
  for (guint i = 0; rule->matchers && rule->matchers[i]; i++)
    {
      g_string_append (out, "      - ");
      yaml_quote (out, rule->matchers[i]);
      g_string_append_c (out, '\n');
    }
  if (rule->group_by && rule->group_by[0])
    {
      g_string_append (out, "    group_by:\n");
      for (guint i = 0; rule->group_by[i]; i++)
        {
          g_string_append (out, "      - ");
          yaml_quote (out, rule->group_by[i]);
          g_string_append_c (out, '\n');
        }
    }
  if (rule->external_label_names && rule->external_label_names[0])
    {
      g_string_append (out, "    external_labels:\n");
      for (guint i = 0; rule->external_label_names[i]; i++)
        {
          g_string_append (out, "      - name: ");
          yaml_quote (out, rule->external_label_names[i]);
          g_string_append (out, "\n        value: ");
          yaml_quote (out, rule->external_label_values ? rule->external_label_values[i] : "");
          g_string_append_c (out, '\n');
        }
    }
  if (rule->function_name && *rule->function_name)
    {
      g_string_append (out, "    function_name: ");
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

char *
embers_recording_rule_to_og_config (const EmbersRecordingRule *rule)
{
  g_autoptr(EmbersSelector) sel = NULL;
  g_autoptr(GString) tags = g_string_new (NULL);
  g_autofree char *profile_type = NULL;
  g_auto(GStrv) parts = NULL;
  const char *app = "app";
  const char *kind = "cpu";
  GString *out;

  g_return_val_if_fail (rule != NULL, NULL);

  sel = parse_rule_matchers (rule, NULL);
  profile_type = embers_recording_rule_derive_profile_type (rule);
  parts = g_strsplit (profile_type, ":", -1);
  if (parts[0] && parts[1])
    kind = parts[1];

  for (guint i = 0; sel && i < embers_selector_get_n_matchers (sel); i++)
    {
      const EmbersMatcher *m = embers_selector_get_matcher (sel, i);
      g_autofree char *one = NULL;

      if (g_str_equal (m->name, "__profile_type__"))
        continue;
      if (g_str_equal (m->name, "service_name") && m->op == EMBERS_MATCH_EQUAL)
        {
          app = m->value;
          continue;
        }
      one = embers_matcher_to_string (m);
      if (tags->len > 0)
        g_string_append_c (tags, ',');
      g_string_append (tags, one);
    }

  out = g_string_new ("metrics-export-rules:\n  ");
  g_string_append (out, rule->metric_name ? rule->metric_name : "");
  g_string_append (out, ":\n    expr: ");
  {
    g_autofree char *expr = g_strdup_printf ("%s.%s{%s}", app, kind, tags->str);
    yaml_quote (out, expr);
  }
  g_string_append (out, "\n    node: ");
  if (rule->function_name && *rule->function_name)
    {
      g_autofree char *re = regex_escape_exact (rule->function_name);
      yaml_quote (out, re);
    }
  else
    g_string_append (out, "\"total\"");
  g_string_append_c (out, '\n');
  if (rule->group_by && rule->group_by[0])
    {
      g_string_append (out, "    group_by:\n");
      for (guint i = 0; rule->group_by[i]; i++)
        {
          g_string_append (out, "      - ");
          yaml_quote (out, rule->group_by[i]);
          g_string_append_c (out, '\n');
        }
    }

  return g_string_free (out, FALSE);
}
