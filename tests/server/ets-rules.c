/* ets-rules.c: settings.v1.RecordingRulesService for the test server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Behaves as Pyroscope's RecordingRulesService (PYROSCOPE-API.md section 3
 * and the server's observable behaviour):
 * - Upsert validates every field and reports all problems at once, as
 *   invalid_argument "invalid request: <problem>\n<problem>...";
 * - an empty id gets a random 10-letter id; a new rule's generation is 1
 *   whatever was sent; updating an existing rule needs the stored
 *   generation (else already_exists "conflicting update, please try
 *   again") and increments it;
 * - new rules past --max-rules (default 25, 0 = no limit) are refused with
 *   resource_exhausted (updates are not counted);
 * - provisioned rules (--provisioned FILE, a JSON list of RecordingRule in
 *   protojson) are listed first with provisioned:true and a hash-derived id
 *   when they have none, and hide a stored rule with the same id. As on the
 *   real server, Upsert and Delete only ever touch stored rules: an Upsert
 *   with a provisioned rule's id succeeds and creates a stored rule that
 *   stays hidden behind the provisioned one, and Delete of an id that only
 *   a provisioned rule has is not_found. So a provisioned rule cannot be
 *   changed through the API, and the answer shows it unchanged.
 * - Get and Delete need an id (invalid_argument "id is required"); an
 *   unknown id is not_found.
 */

#include "ets-server.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "ets-protojson.h"
#include "ets-selector.h"
#include "settings.pb-c.h"
#include "types.pb-c.h"

#define ID_LENGTH 10
#define ALPHABET "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define LABEL_NAME_RE "^[a-zA-Z_][a-zA-Z0-9_]*$"
#define METRIC_PREFIX "profiles_recorded_"

struct _EtsRules
{
  guint       max_rules;
  GHashTable *by_tenant;    /* tenant -> GPtrArray of Settings__V1__RecordingRule* */
  GPtrArray  *provisioned;  /* Settings__V1__RecordingRule* */
};

static void
free_rule (gpointer rule)
{
  protobuf_c_message_free_unpacked (rule, NULL);
}

/* A deep copy through the wire format */
static Settings__V1__RecordingRule *
rule_copy (const Settings__V1__RecordingRule *rule)
{
  gsize size = protobuf_c_message_get_packed_size (&rule->base);
  g_autofree guint8 *buf = g_malloc (MAX (size, 1));

  protobuf_c_message_pack (&rule->base, buf);
  return settings__v1__recording_rule__unpack (NULL, size, buf);
}

EtsRules *
ets_rules_new (guint max_rules)
{
  EtsRules *rules = g_new0 (EtsRules, 1);

  rules->max_rules = max_rules;
  rules->by_tenant = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) g_ptr_array_unref);
  rules->provisioned = g_ptr_array_new_with_free_func (free_rule);
  return rules;
}

void
ets_rules_free (EtsRules *rules)
{
  if (rules == NULL)
    return;
  g_hash_table_unref (rules->by_tenant);
  g_ptr_array_unref (rules->provisioned);
  g_free (rules);
}

static GPtrArray *
stored_for (EtsRules   *rules,
            const char *tenant)
{
  GPtrArray *list = g_hash_table_lookup (rules->by_tenant, tenant);

  if (list == NULL)
    {
      list = g_ptr_array_new_with_free_func (free_rule);
      g_hash_table_insert (rules->by_tenant, g_strdup (tenant), list);
    }
  return list;
}

static Settings__V1__RecordingRule *
find_rule (GPtrArray  *list,
           const char *id)
{
  for (guint i = 0; i < list->len; i++)
    {
      Settings__V1__RecordingRule *rule = g_ptr_array_index (list, i);
      if (g_strcmp0 (rule->id, id) == 0)
        return rule;
    }
  return NULL;
}

/* Go's %q, enough for messages */
static void
append_quoted (GString    *out,
               const char *text)
{
  const char *p = text != NULL ? text : "";

  g_string_append_c (out, '"');
  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* Not UTF-8: the byte, escaped (as Go's %q does) */
          g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", (char) c);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_unichar (out, c);
      p = g_utf8_next_char (p);
    }
  g_string_append_c (out, '"');
}

static char *
quoted (const char *text)
{
  GString *out = g_string_new (NULL);

  append_quoted (out, text);
  return g_string_free (out, FALSE);
}

/* The value of the first __profile_type__="..." matcher, or "unknown" */
static char *
profile_type_of (char  **matchers,
                 gsize   n)
{
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(EtsSelector) selector = ets_selector_parse (matchers[i], NULL);
      const char *value;

      if (selector == NULL)
        continue;
      value = ets_selector_get_equal (selector, "__profile_type__");
      if (value != NULL)
        return g_strdup (value);
    }
  return g_strdup ("unknown");
}

static void
add_problem (GString    *problems,
             const char *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
add_problem (GString    *problems,
             const char *format,
             ...)
{
  va_list args;

  if (problems->len > 0)
    g_string_append_c (problems, '\n');
  va_start (args, format);
  g_string_append_vprintf (problems, format, args);
  va_end (args);
}

static gboolean
is_letters (const char *id)
{
  if (id == NULL || id[0] == '\0')
    return FALSE;
  for (const char *p = id; *p != '\0'; p++)
    if (!g_ascii_isalpha (*p))
      return FALSE;
  return TRUE;
}

static char *
random_id (void)
{
  char *id = g_malloc (ID_LENGTH + 1);

  for (guint i = 0; i < ID_LENGTH; i++)
    id[i] = ALPHABET[g_random_int_range (0, strlen (ALPHABET))];
  id[ID_LENGTH] = '\0';
  return id;
}

/* Pyroscope's checks on an Upsert, all problems joined by newlines */
static void
validate_upsert (const Settings__V1__UpsertRecordingRuleRequest *req,
                 const char                                     *id,
                 const char                                     *metric_name,
                 GString                                        *problems)
{
  guint n_type_matchers = 0;
  g_autofree char *q = NULL;

  if (!is_letters (id))
    {
      q = quoted (id);
      add_problem (problems, "id %s must match ^[a-zA-Z]+$", q);
      g_clear_pointer (&q, g_free);
    }

  if (metric_name[0] == '\0')
    add_problem (problems, "metric_name is required");
  else if (!ets_is_metric_name (metric_name))
    {
      q = quoted (metric_name);
      add_problem (problems, "metric_name %s is invalid: invalid metric name: %s", q, metric_name);
      g_clear_pointer (&q, g_free);
    }
  else if (!g_str_has_prefix (metric_name, METRIC_PREFIX))
    {
      q = quoted (metric_name);
      add_problem (problems, "metric_name %s is invalid: metric name must start with " METRIC_PREFIX, q);
      g_clear_pointer (&q, g_free);
    }

  for (gsize i = 0; i < req->n_matchers; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(EtsSelector) selector = ets_selector_parse (req->matchers[i], &error);

      if (selector == NULL)
        {
          q = quoted (req->matchers[i]);
          add_problem (problems, "matcher %s is invalid: %s", q, error->message);
          g_clear_pointer (&q, g_free);
          continue;
        }
      for (guint j = 0; j < selector->matchers->len; j++)
        {
          EtsMatcher *m = g_ptr_array_index (selector->matchers, j);

          if (!g_str_equal (m->name, "__profile_type__"))
            continue;
          if (m->op != ETS_MATCH_EQ)
            add_problem (problems, "matcher \"__profile_type__\" must have type \"=\"");
          n_type_matchers++;
        }
    }
  if (n_type_matchers != 1)
    add_problem (problems, "matchers must contain a \"__profile_type__\" matcher");

  for (gsize i = 0; i < req->n_group_by; i++)
    if (!ets_is_label_name (req->group_by[i]))
      {
        q = quoted (req->group_by[i]);
        add_problem (problems, "group_by label %s must match " LABEL_NAME_RE, q);
        g_clear_pointer (&q, g_free);
      }

  for (gsize i = 0; i < req->n_external_labels; i++)
    {
      const Types__V1__LabelPair *l = req->external_labels[i];

      if (!ets_is_label_name (l->name))
        {
          q = quoted (l->name);
          add_problem (problems, "external_labels name %s must match " LABEL_NAME_RE, q);
          g_clear_pointer (&q, g_free);
        }
      if (l->value != NULL && !g_utf8_validate (l->value, -1, NULL))
        {
          q = quoted (l->value);
          add_problem (problems, "external_labels value %s must be a valid utf-8 string", q);
          g_clear_pointer (&q, g_free);
        }
    }

  if (req->generation < 0)
    add_problem (problems, "generation must be positive");
}

static Settings__V1__RecordingRule *
answer_copy (EtsCall                           *call,
             const Settings__V1__RecordingRule *rule)
{
  return ets_call_take_message (call, &rule_copy (rule)->base);
}

static ProtobufCMessage *
list_rules (EtsCall                *call,
            const ProtobufCMessage *message,
            GError                **error)
{
  EtsRules *rules = call->server->rules;
  GPtrArray *stored = stored_for (rules, call->tenant);
  Settings__V1__ListRecordingRulesResponse *res =
    ets_call_new (call, Settings__V1__ListRecordingRulesResponse, 1);

  settings__v1__list_recording_rules_response__init (res);
  res->rules = ets_call_new (call, Settings__V1__RecordingRule *, rules->provisioned->len + stored->len);
  for (guint i = 0; i < rules->provisioned->len; i++)
    res->rules[res->n_rules++] = answer_copy (call, g_ptr_array_index (rules->provisioned, i));
  for (guint i = 0; i < stored->len; i++)
    {
      Settings__V1__RecordingRule *rule = g_ptr_array_index (stored, i);

      if (find_rule (rules->provisioned, rule->id) == NULL)
        res->rules[res->n_rules++] = answer_copy (call, rule);
    }
  return &res->base;
}

static char *
trimmed (const char *text)
{
  return g_strstrip (g_strdup (text != NULL ? text : ""));
}

static ProtobufCMessage *
get_rule (EtsCall                *call,
          const ProtobufCMessage *message,
          GError                **error)
{
  const Settings__V1__GetRecordingRuleRequest *req = (const Settings__V1__GetRecordingRuleRequest *) message;
  EtsRules *rules = call->server->rules;
  Settings__V1__GetRecordingRuleResponse *res;
  Settings__V1__RecordingRule *rule;
  g_autofree char *id = trimmed (req->id);

  if (id[0] == '\0')
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "id is required");
      return NULL;
    }
  rule = find_rule (rules->provisioned, id);
  if (rule == NULL)
    rule = find_rule (stored_for (rules, call->tenant), id);
  if (rule == NULL)
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_NOT_FOUND, "no rule with id='%s' found", id);
      return NULL;
    }
  res = ets_call_new (call, Settings__V1__GetRecordingRuleResponse, 1);
  settings__v1__get_recording_rule_response__init (res);
  res->rule = answer_copy (call, rule);
  return &res->base;
}

static ProtobufCMessage *
upsert_rule (EtsCall                *call,
             const ProtobufCMessage *message,
             GError                **error)
{
  const Settings__V1__UpsertRecordingRuleRequest *req =
    (const Settings__V1__UpsertRecordingRuleRequest *) message;
  EtsRules *rules = call->server->rules;
  GPtrArray *stored = stored_for (rules, call->tenant);
  g_autoptr(GString) problems = g_string_new (NULL);
  g_autofree char *id = NULL;
  g_autofree char *metric_name = trimmed (req->metric_name);
  g_autofree char *profile_type = NULL;
  Settings__V1__RecordingRule draft = SETTINGS__V1__RECORDING_RULE__INIT;
  Settings__V1__UpsertRecordingRuleResponse *res;
  Settings__V1__RecordingRule *existing;
  Settings__V1__RecordingRule *rule;
  gint64 generation = req->generation;

  if (req->id == NULL || req->id[0] == '\0')
    {
      id = random_id ();
      generation = 1;
    }
  else
    id = g_strdup (req->id);

  validate_upsert (req, id, metric_name, problems);
  if (problems->len > 0)
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "invalid request: %s", problems->str);
      return NULL;
    }

  existing = find_rule (stored, id);
  if (existing == NULL)
    {
      if (rules->max_rules > 0 && stored->len >= rules->max_rules)
        {
          g_set_error (error, ETS_ERROR, ETS_CODE_RESOURCE_EXHAUSTED,
                       "the maximum number of recording rules (%u) has been reached for this tenant",
                       rules->max_rules);
          return NULL;
        }
      generation = 1;
    }
  else if (existing->generation != generation)
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_ALREADY_EXISTS,
                           "conflicting update, please try again");
      return NULL;
    }
  else
    generation = existing->generation + 1;

  profile_type = profile_type_of (req->matchers, req->n_matchers);
  draft.id = id;
  draft.metric_name = metric_name;
  draft.profile_type = profile_type;
  draft.n_matchers = req->n_matchers;
  draft.matchers = req->matchers;
  draft.n_group_by = req->n_group_by;
  draft.group_by = req->group_by;
  draft.n_external_labels = req->n_external_labels;
  draft.external_labels = req->external_labels;
  draft.generation = generation;
  draft.has_generation = TRUE;
  draft.stacktrace_filter = req->stacktrace_filter;
  rule = rule_copy (&draft);

  if (existing != NULL)
    {
      guint index;
      g_ptr_array_find (stored, existing, &index);
      free_rule (g_ptr_array_index (stored, index));
      stored->pdata[index] = rule;
    }
  else
    g_ptr_array_add (stored, rule);

  res = ets_call_new (call, Settings__V1__UpsertRecordingRuleResponse, 1);
  settings__v1__upsert_recording_rule_response__init (res);
  res->rule = answer_copy (call, rule);
  return &res->base;
}

static ProtobufCMessage *
delete_rule (EtsCall                *call,
             const ProtobufCMessage *message,
             GError                **error)
{
  const Settings__V1__DeleteRecordingRuleRequest *req = (const Settings__V1__DeleteRecordingRuleRequest *) message;
  GPtrArray *stored = stored_for (call->server->rules, call->tenant);
  Settings__V1__DeleteRecordingRuleResponse *res;
  Settings__V1__RecordingRule *rule;
  g_autofree char *id = trimmed (req->id);

  if (id[0] == '\0')
    {
      g_set_error_literal (error, ETS_ERROR, ETS_CODE_INVALID_ARGUMENT, "invalid request: id is required");
      return NULL;
    }
  rule = find_rule (stored, id);
  if (rule == NULL)
    {
      g_set_error (error, ETS_ERROR, ETS_CODE_NOT_FOUND, "no rule with ID='%s' found", id);
      return NULL;
    }
  g_ptr_array_remove (stored, rule);

  res = ets_call_new (call, Settings__V1__DeleteRecordingRuleResponse, 1);
  settings__v1__delete_recording_rule_response__init (res);
  return &res->base;
}

/* ---- provisioned rules ----------------------------------------------------- */

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Pyroscope's id for a provisioned rule without one: SHA-256 over metric
 * name, profile type, sorted matchers, sorted group_by, external label
 * names and values and the function name; byte i picks letter i. */
static char *
hash_id (const Settings__V1__RecordingRule *rule)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autoptr(GPtrArray) matchers = g_ptr_array_new ();
  g_autoptr(GPtrArray) group_by = g_ptr_array_new ();
  guint8 digest[32];
  gsize len = sizeof digest;
  char *id;

#define FEED(s) g_checksum_update (sum, (const guchar *) ((s) != NULL ? (s) : ""), -1)
  FEED (rule->metric_name);
  FEED (rule->profile_type);
  for (gsize i = 0; i < rule->n_matchers; i++)
    g_ptr_array_add (matchers, rule->matchers[i]);
  g_ptr_array_sort (matchers, compare_strings);
  for (guint i = 0; i < matchers->len; i++)
    FEED ((const char *) g_ptr_array_index (matchers, i));
  for (gsize i = 0; i < rule->n_group_by; i++)
    g_ptr_array_add (group_by, rule->group_by[i]);
  g_ptr_array_sort (group_by, compare_strings);
  for (guint i = 0; i < group_by->len; i++)
    FEED ((const char *) g_ptr_array_index (group_by, i));
  for (gsize i = 0; i < rule->n_external_labels; i++)
    {
      FEED (rule->external_labels[i]->name);
      FEED (rule->external_labels[i]->value);
    }
  if (rule->stacktrace_filter != NULL && rule->stacktrace_filter->function_name != NULL)
    FEED (rule->stacktrace_filter->function_name->function_name);
#undef FEED

  g_checksum_get_digest (sum, digest, &len);
  id = g_malloc (ID_LENGTH + 1);
  for (guint i = 0; i < ID_LENGTH; i++)
    id[i] = ALPHABET[digest[i] % strlen (ALPHABET)];
  id[ID_LENGTH] = '\0';
  return id;
}

gboolean
ets_rules_load_provisioned (EtsRules   *rules,
                            const char *path,
                            GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  JsonArray *array;

  if (!json_parser_load_from_file (parser, path, error))
    return FALSE;
  if (!JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: expected a JSON list of recording rules", path);
      return FALSE;
    }
  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(GBytes) wire = NULL;
      Settings__V1__RecordingRule *rule;
      gsize len;

      json_generator_set_root (generator, json_array_get_element (array, i));
      text = json_generator_to_data (generator, &len);
      wire = ets_protojson_to_wire (&settings__v1__recording_rule__descriptor, text, len, error);
      if (wire == NULL)
        {
          g_prefix_error (error, "%s: rule %u: ", path, i + 1);
          return FALSE;
        }
      rule = settings__v1__recording_rule__unpack (NULL, g_bytes_get_size (wire),
                                                   g_bytes_get_data (wire, NULL));
      if (rule == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: rule %u is invalid", path, i + 1);
          return FALSE;
        }

      /* Replace fields through a draft, then copy so protobuf-c owns all */
      {
        Settings__V1__RecordingRule draft = *rule;
        g_autofree char *id = rule->id != NULL && rule->id[0] != '\0' ? g_strdup (rule->id) : hash_id (rule);
        g_autofree char *type = rule->profile_type != NULL && rule->profile_type[0] != '\0'
                                ? g_strdup (rule->profile_type)
                                : profile_type_of (rule->matchers, rule->n_matchers);

        draft.id = id;
        draft.profile_type = type;
        draft.provisioned = draft.has_provisioned = TRUE;
        g_ptr_array_add (rules->provisioned, rule_copy (&draft));
        free_rule (rule);
      }
    }
  return TRUE;
}

const EtsMethod ets_rules_methods[] = {
  { "settings.v1.RecordingRulesService", "ListRecordingRules",
    &settings__v1__list_recording_rules_request__descriptor, list_rules },
  { "settings.v1.RecordingRulesService", "GetRecordingRule",
    &settings__v1__get_recording_rule_request__descriptor, get_rule },
  { "settings.v1.RecordingRulesService", "UpsertRecordingRule",
    &settings__v1__upsert_recording_rule_request__descriptor, upsert_rule },
  { "settings.v1.RecordingRulesService", "DeleteRecordingRule",
    &settings__v1__delete_recording_rule_request__descriptor, delete_rule },
  { NULL }
};
