/* embers-query-model.c: the query a workspace's views share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "embers-query-model.h"

#define DEFAULT_PRESET_S 3600

struct _EmbersQueryModel
{
  GObject          parent_instance;

  EmbersSource    *source;
  char            *service;
  char            *profile_type;
  EmbersSelector  *filters;
  gint64           preset_s;
  gint64           start_ms;
  gint64           end_ms;
  guint            generation;

  guint            update_depth;
  gboolean         changed;

  EmbersClockFunc  clock;
  gpointer         clock_data;
};

G_DEFINE_FINAL_TYPE (EmbersQueryModel, embers_query_model, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_SOURCE,
  PROP_SERVICE,
  PROP_PROFILE_TYPE,
  PROP_FILTERS,
  PROP_SELECTOR,
  PROP_PRESET,
  PROP_START_MS,
  PROP_END_MS,
  PROP_COMPLETE,
  PROP_GENERATION,
  N_PROPS
};

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* State snapshots */

G_DEFINE_BOXED_TYPE (EmbersQueryState, embers_query_state,
                     embers_query_state_copy, embers_query_state_free)

EmbersQueryState *
embers_query_state_copy (const EmbersQueryState *state)
{
  EmbersQueryState *copy;

  g_return_val_if_fail (state != NULL, NULL);

  copy = g_new0 (EmbersQueryState, 1);
  copy->service = g_strdup (state->service);
  copy->profile_type = g_strdup (state->profile_type);
  copy->filters = g_strdup (state->filters);
  copy->preset_s = state->preset_s;
  copy->start_ms = state->start_ms;
  copy->end_ms = state->end_ms;
  return copy;
}

void
embers_query_state_free (EmbersQueryState *state)
{
  if (state == NULL)
    return;
  g_free (state->service);
  g_free (state->profile_type);
  g_free (state->filters);
  g_free (state);
}

gboolean
embers_query_state_equal (const EmbersQueryState *a,
                          const EmbersQueryState *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (g_strcmp0 (a->service, b->service) != 0 ||
      g_strcmp0 (a->profile_type, b->profile_type) != 0 ||
      g_strcmp0 (a->filters != NULL ? a->filters : "{}", b->filters != NULL ? b->filters : "{}") != 0 ||
      a->preset_s != b->preset_s)
    return FALSE;
  if (a->preset_s > 0)
    return TRUE;
  return a->start_ms == b->start_ms && a->end_ms == b->end_ms;
}

/* Changes */

static gint64
now_ms (EmbersQueryModel *self)
{
  if (self->clock != NULL)
    return self->clock (self->clock_data);
  return g_get_real_time () / 1000;
}

static void
notify (EmbersQueryModel *self,
        guint             prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  self->changed = TRUE;
}

void
embers_query_model_begin_update (EmbersQueryModel *self)
{
  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));

  if (self->update_depth++ == 0)
    g_object_freeze_notify (G_OBJECT (self));
}

void
embers_query_model_end_update (EmbersQueryModel *self)
{
  gboolean changed;

  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));
  g_return_if_fail (self->update_depth > 0);

  if (--self->update_depth > 0)
    return;

  changed = self->changed;
  self->changed = FALSE;
  if (changed)
    {
      self->generation++;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GENERATION]);
    }
  g_object_thaw_notify (G_OBJECT (self));
  if (changed)
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
set_range (EmbersQueryModel *self,
           gint64            start_ms,
           gint64            end_ms)
{
  if (self->start_ms != start_ms)
    {
      self->start_ms = start_ms;
      notify (self, PROP_START_MS);
    }
  if (self->end_ms != end_ms)
    {
      self->end_ms = end_ms;
      notify (self, PROP_END_MS);
    }
}

static void
follow_preset (EmbersQueryModel *self)
{
  gint64 end;

  if (self->preset_s <= 0)
    return;
  end = now_ms (self);
  set_range (self, end - self->preset_s * 1000, end);
}

static gboolean
filters_equal (EmbersSelector *a,
               EmbersSelector *b)
{
  g_autofree char *sa = embers_selector_to_string (a);
  g_autofree char *sb = embers_selector_to_string (b);

  return g_strcmp0 (sa, sb) == 0;
}

/* GObject */

EmbersQueryModel *
embers_query_model_new (EmbersSource *source)
{
  g_return_val_if_fail (source == NULL || EMBERS_IS_SOURCE (source), NULL);

  return g_object_new (EMBERS_TYPE_QUERY_MODEL, "source", source, NULL);
}

static void
embers_query_model_finalize (GObject *object)
{
  EmbersQueryModel *self = EMBERS_QUERY_MODEL (object);

  g_clear_object (&self->source);
  g_clear_pointer (&self->service, g_free);
  g_clear_pointer (&self->profile_type, g_free);
  g_clear_pointer (&self->filters, embers_selector_unref);

  G_OBJECT_CLASS (embers_query_model_parent_class)->finalize (object);
}

static void
embers_query_model_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  EmbersQueryModel *self = EMBERS_QUERY_MODEL (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;
    case PROP_SERVICE:
      g_value_set_string (value, self->service);
      break;
    case PROP_PROFILE_TYPE:
      g_value_set_string (value, self->profile_type);
      break;
    case PROP_FILTERS:
      g_value_set_boxed (value, self->filters);
      break;
    case PROP_SELECTOR:
      g_value_take_string (value, embers_query_model_dup_selector (self));
      break;
    case PROP_PRESET:
      g_value_set_int64 (value, self->preset_s);
      break;
    case PROP_START_MS:
      g_value_set_int64 (value, self->start_ms);
      break;
    case PROP_END_MS:
      g_value_set_int64 (value, self->end_ms);
      break;
    case PROP_COMPLETE:
      g_value_set_boolean (value, embers_query_model_get_complete (self));
      break;
    case PROP_GENERATION:
      g_value_set_uint (value, self->generation);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_query_model_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  EmbersQueryModel *self = EMBERS_QUERY_MODEL (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      self->source = g_value_dup_object (value);
      break;
    case PROP_SERVICE:
      embers_query_model_set_service (self, g_value_get_string (value));
      break;
    case PROP_PROFILE_TYPE:
      embers_query_model_set_profile_type (self, g_value_get_string (value));
      break;
    case PROP_FILTERS:
      embers_query_model_set_filters (self, g_value_get_boxed (value));
      break;
    case PROP_PRESET:
      if (g_value_get_int64 (value) > 0)
        embers_query_model_set_preset (self, g_value_get_int64 (value));
      break;
    case PROP_START_MS:
      embers_query_model_set_time_range (self, g_value_get_int64 (value),
                                         MAX (self->end_ms, g_value_get_int64 (value) + 1));
      break;
    case PROP_END_MS:
      embers_query_model_set_time_range (self, MIN (self->start_ms, g_value_get_int64 (value) - 1),
                                         g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
embers_query_model_class_init (EmbersQueryModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = embers_query_model_finalize;
  object_class->get_property = embers_query_model_get_property;
  object_class->set_property = embers_query_model_set_property;

  properties[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL, EMBERS_TYPE_SOURCE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SERVICE] = g_param_spec_string ("service", NULL, NULL, NULL, rw);
  properties[PROP_PROFILE_TYPE] = g_param_spec_string ("profile-type", NULL, NULL, NULL, rw);
  properties[PROP_FILTERS] = g_param_spec_boxed ("filters", NULL, NULL, EMBERS_TYPE_SELECTOR, rw);
  properties[PROP_SELECTOR] = g_param_spec_string ("selector", NULL, NULL, "{}", ro);
  properties[PROP_PRESET] = g_param_spec_int64 ("preset", NULL, NULL, 0, G_MAXINT64 / 1000,
                                                DEFAULT_PRESET_S, rw);
  properties[PROP_START_MS] = g_param_spec_int64 ("start-ms", NULL, NULL, G_MININT64, G_MAXINT64, 0, rw);
  properties[PROP_END_MS] = g_param_spec_int64 ("end-ms", NULL, NULL, G_MININT64, G_MAXINT64, 0, rw);
  properties[PROP_COMPLETE] = g_param_spec_boolean ("complete", NULL, NULL, FALSE, ro);
  properties[PROP_GENERATION] = g_param_spec_uint ("generation", NULL, NULL, 0, G_MAXUINT, 0, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EmbersQueryModel::changed:
   *
   * The query as a whole changed (once per setter or update batch); what
   * shows it asks again.
   */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
embers_query_model_init (EmbersQueryModel *self)
{
  self->filters = embers_selector_new ();
  self->preset_s = DEFAULT_PRESET_S;
  self->end_ms = g_get_real_time () / 1000;
  self->start_ms = self->end_ms - DEFAULT_PRESET_S * 1000;
}

/* Accessors */

EmbersSource *
embers_query_model_get_source (EmbersQueryModel *self)
{
  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), NULL);
  return self->source;
}

const char *
embers_query_model_get_service (EmbersQueryModel *self)
{
  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), NULL);
  return self->service;
}

void
embers_query_model_set_service (EmbersQueryModel *self,
                                const char       *service)
{
  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));

  if (service != NULL && service[0] == '\0')
    service = NULL;
  if (g_strcmp0 (self->service, service) == 0)
    return;

  embers_query_model_begin_update (self);
  g_free (self->service);
  self->service = g_strdup (service);
  notify (self, PROP_SERVICE);
  notify (self, PROP_SELECTOR);
  notify (self, PROP_COMPLETE);
  embers_query_model_end_update (self);
}

const char *
embers_query_model_get_profile_type (EmbersQueryModel *self)
{
  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), NULL);
  return self->profile_type;
}

void
embers_query_model_set_profile_type (EmbersQueryModel *self,
                                     const char       *profile_type)
{
  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));

  if (profile_type != NULL && profile_type[0] == '\0')
    profile_type = NULL;
  if (g_strcmp0 (self->profile_type, profile_type) == 0)
    return;

  embers_query_model_begin_update (self);
  g_free (self->profile_type);
  self->profile_type = g_strdup (profile_type);
  notify (self, PROP_PROFILE_TYPE);
  notify (self, PROP_COMPLETE);
  embers_query_model_end_update (self);
}

EmbersSelector *
embers_query_model_get_filters (EmbersQueryModel *self)
{
  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), NULL);
  return self->filters;
}

static void
take_filters (EmbersQueryModel *self,
              EmbersSelector   *filters)
{
  if (filters_equal (self->filters, filters))
    {
      embers_selector_unref (filters);
      return;
    }
  embers_query_model_begin_update (self);
  embers_selector_unref (self->filters);
  self->filters = filters;
  notify (self, PROP_FILTERS);
  notify (self, PROP_SELECTOR);
  embers_query_model_end_update (self);
}

void
embers_query_model_set_filters (EmbersQueryModel *self,
                                EmbersSelector   *filters)
{
  EmbersSelector *copy;

  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));

  copy = filters != NULL ? embers_selector_copy (filters) : embers_selector_new ();
  embers_selector_remove (copy, EMBERS_SERVICE_LABEL);
  take_filters (self, copy);
}

gboolean
embers_query_model_add_filter (EmbersQueryModel *self,
                               const char       *name,
                               EmbersMatchOp     op,
                               const char       *value,
                               GError          **error)
{
  EmbersSelector *copy;

  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (g_str_equal (name, EMBERS_SERVICE_LABEL))
    {
      g_set_error (error, EMBERS_SELECTOR_ERROR, EMBERS_SELECTOR_ERROR_NAME,
                   _("The service is chosen in the list of services, not with a filter"));
      return FALSE;
    }

  copy = embers_selector_copy (self->filters);
  embers_selector_remove (copy, name);
  if (!embers_selector_add (copy, name, op, value, error))
    {
      embers_selector_unref (copy);
      return FALSE;
    }
  take_filters (self, copy);
  return TRUE;
}

gboolean
embers_query_model_remove_filter (EmbersQueryModel *self,
                                  const char       *name)
{
  EmbersSelector *copy;

  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  copy = embers_selector_copy (self->filters);
  if (embers_selector_remove (copy, name) == 0)
    {
      embers_selector_unref (copy);
      return FALSE;
    }
  take_filters (self, copy);
  return TRUE;
}

static EmbersSelector *
build_selector (EmbersQueryModel *self)
{
  EmbersSelector *selector = embers_selector_new ();

  if (self->service != NULL)
    embers_selector_add (selector, EMBERS_SERVICE_LABEL, EMBERS_MATCH_EQUAL, self->service, NULL);
  for (guint i = 0; i < embers_selector_get_n_matchers (self->filters); i++)
    embers_selector_add_matcher (selector, embers_selector_get_matcher (self->filters, i));
  return selector;
}

char *
embers_query_model_dup_selector (EmbersQueryModel *self)
{
  g_autoptr(EmbersSelector) selector = NULL;

  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), NULL);

  selector = build_selector (self);
  return embers_selector_to_string (selector);
}

gboolean
embers_query_model_get_complete (EmbersQueryModel *self)
{
  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), FALSE);
  return self->service != NULL && self->profile_type != NULL;
}

EmbersQuery *
embers_query_model_dup_query (EmbersQueryModel *self)
{
  g_autofree char *selector = NULL;

  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), NULL);

  if (!embers_query_model_get_complete (self))
    return NULL;
  selector = embers_query_model_dup_selector (self);
  return embers_query_new (self->profile_type, selector, self->start_ms, self->end_ms);
}

/* Time */

void
embers_query_model_set_preset (EmbersQueryModel *self,
                               gint64            seconds)
{
  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));
  g_return_if_fail (seconds > 0);

  embers_query_model_begin_update (self);
  if (self->preset_s != seconds)
    {
      self->preset_s = seconds;
      notify (self, PROP_PRESET);
    }
  follow_preset (self);
  embers_query_model_end_update (self);
}

void
embers_query_model_set_preset_at (EmbersQueryModel *self,
                                  gint64            seconds,
                                  gint64            end_ms)
{
  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));
  g_return_if_fail (seconds > 0);

  embers_query_model_begin_update (self);
  if (self->preset_s != seconds)
    {
      self->preset_s = seconds;
      notify (self, PROP_PRESET);
    }
  set_range (self, end_ms - seconds * 1000, end_ms);
  embers_query_model_end_update (self);
}

gint64
embers_query_model_get_preset (EmbersQueryModel *self)
{
  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), 0);
  return self->preset_s;
}

void
embers_query_model_set_time_range (EmbersQueryModel *self,
                                   gint64            start_ms,
                                   gint64            end_ms)
{
  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));
  g_return_if_fail (start_ms < end_ms);

  embers_query_model_begin_update (self);
  if (self->preset_s != 0)
    {
      self->preset_s = 0;
      notify (self, PROP_PRESET);
    }
  set_range (self, start_ms, end_ms);
  embers_query_model_end_update (self);
}

gint64
embers_query_model_get_start_ms (EmbersQueryModel *self)
{
  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), 0);
  return self->start_ms;
}

gint64
embers_query_model_get_end_ms (EmbersQueryModel *self)
{
  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), 0);
  return self->end_ms;
}

void
embers_query_model_refresh (EmbersQueryModel *self)
{
  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));

  embers_query_model_begin_update (self);
  follow_preset (self);
  self->changed = TRUE;
  embers_query_model_end_update (self);
}

void
embers_query_model_set_clock (EmbersQueryModel *self,
                              EmbersClockFunc   clock,
                              gpointer          user_data)
{
  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));

  self->clock = clock;
  self->clock_data = user_data;
  embers_query_model_begin_update (self);
  follow_preset (self);
  embers_query_model_end_update (self);
}

guint
embers_query_model_get_generation (EmbersQueryModel *self)
{
  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), 0);
  return self->generation;
}

/* Snapshots */

EmbersQueryState *
embers_query_model_dup_state (EmbersQueryModel *self)
{
  EmbersQueryState *state;

  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), NULL);

  state = g_new0 (EmbersQueryState, 1);
  state->service = g_strdup (self->service);
  state->profile_type = g_strdup (self->profile_type);
  state->filters = embers_selector_to_string (self->filters);
  state->preset_s = self->preset_s;
  state->start_ms = self->start_ms;
  state->end_ms = self->end_ms;
  return state;
}

void
embers_query_model_set_state (EmbersQueryModel       *self,
                              const EmbersQueryState *state)
{
  g_autoptr(EmbersSelector) filters = NULL;

  g_return_if_fail (EMBERS_IS_QUERY_MODEL (self));
  g_return_if_fail (state != NULL);

  filters = embers_selector_parse (state->filters != NULL ? state->filters : "{}", NULL, NULL);

  embers_query_model_begin_update (self);
  embers_query_model_set_service (self, state->service);
  embers_query_model_set_profile_type (self, state->profile_type);
  embers_query_model_set_filters (self, filters);
  if (state->preset_s > 0)
    embers_query_model_set_preset (self, state->preset_s);
  else if (state->start_ms < state->end_ms)
    embers_query_model_set_time_range (self, state->start_ms, state->end_ms);
  embers_query_model_end_update (self);
}

/* Names */

char *
embers_query_model_dup_short_name (EmbersQueryModel *self)
{
  g_autoptr(EmbersProfileTypeInfo) info = NULL;

  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), NULL);

  if (self->service == NULL)
    return NULL;
  if (self->profile_type != NULL)
    info = embers_profile_type_info_new (self->profile_type);
  if (info == NULL || info->sample_type == NULL || info->sample_type[0] == '\0')
    return g_strdup (self->service);
  /* Translators: a tab's name, the service and its profile's sample type */
  return g_strdup_printf (C_("tab name", "%s · %s"), self->service, info->sample_type);
}

char *
embers_profile_type_describe (const char *id)
{
  g_autoptr(EmbersProfileTypeInfo) info = NULL;

  g_return_val_if_fail (id != NULL, NULL);

  info = embers_profile_type_info_new (id);
  if (info == NULL || info->name == NULL)
    return g_strdup (id);
  if (info->sample_unit != NULL && info->sample_unit[0] != '\0')
    return g_strdup_printf ("%s · %s (%s)", info->name, info->sample_type, info->sample_unit);
  return g_strdup_printf ("%s · %s", info->name, info->sample_type);
}

char *
embers_file_name_make_safe (const char *text)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean replaced = FALSE;

  g_return_val_if_fail (text != NULL, NULL);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gboolean ok = g_unichar_isalnum (c) || c == '.' || c == '-' || c == '_' || c == ' ' ||
                    c == 0x00B7 /* · */;

      if (!g_utf8_validate (p, -1, NULL))
        break;
      if (ok)
        {
          g_string_append_unichar (out, c);
          replaced = FALSE;
        }
      else if (!replaced)
        {
          g_string_append_c (out, '_');
          replaced = TRUE;
        }
    }
  /* No hidden file, no trailing blanks or separators */
  while (out->len > 0 && (out->str[0] == '.' || out->str[0] == ' ' || out->str[0] == '_'))
    g_string_erase (out, 0, 1);
  while (out->len > 0 && (out->str[out->len - 1] == ' ' || out->str[out->len - 1] == '_' ||
                          out->str[out->len - 1] == '.'))
    g_string_truncate (out, out->len - 1);
  if (out->len == 0)
    g_string_assign (out, "profile");
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
embers_query_model_dup_file_stem (EmbersQueryModel *self)
{
  g_autoptr(EmbersProfileTypeInfo) info = NULL;
  g_autoptr(GDateTime) end = NULL;
  g_autofree char *when = NULL;
  g_autofree char *stem = NULL;

  g_return_val_if_fail (EMBERS_IS_QUERY_MODEL (self), NULL);

  if (self->service == NULL)
    return NULL;
  if (self->profile_type != NULL)
    info = embers_profile_type_info_new (self->profile_type);
  end = g_date_time_new_from_unix_local (self->end_ms / 1000);
  when = end != NULL ? g_date_time_format (end, "%Y-%m-%d_%H%M") : g_strdup ("");
  stem = g_strdup_printf ("%s_%s_%s", self->service,
                          info != NULL && info->sample_type != NULL ? info->sample_type : "profile", when);
  return embers_file_name_make_safe (stem);
}
