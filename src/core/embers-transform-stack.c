/* embers-transform-stack.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "embers-transform-stack.h"
#include "embers-transforms.h"

typedef struct
{
  EmbersTransformKind  kind;
  GStrv                args;   /* never NULL */
} Step;

struct _EmbersTransformStack
{
  GPtrArray *steps;   /* Step */
};

static const char * const kind_names[] = {
  [EMBERS_TRANSFORM_FOCUS_SUBTREE] = "focus-subtree",
  [EMBERS_TRANSFORM_FOCUS_FUNCTION] = "focus-function",
  [EMBERS_TRANSFORM_MERGE_FUNCTION] = "merge-function",
  [EMBERS_TRANSFORM_HIDE] = "hide",
  [EMBERS_TRANSFORM_DROP_FUNCTION] = "drop-function",
  [EMBERS_TRANSFORM_COLLAPSE_PACKAGE] = "collapse-package",
  [EMBERS_TRANSFORM_COLLAPSE_RECURSION] = "collapse-recursion",
};

G_STATIC_ASSERT (G_N_ELEMENTS (kind_names) == EMBERS_TRANSFORM_N_KINDS);

const char *
embers_transform_kind_to_string (EmbersTransformKind kind)
{
  g_return_val_if_fail (kind < EMBERS_TRANSFORM_N_KINDS, NULL);
  return kind_names[kind];
}

gboolean
embers_transform_kind_from_string (const char          *string,
                                   EmbersTransformKind *kind)
{
  for (guint i = 0; i < EMBERS_TRANSFORM_N_KINDS; i++)
    if (g_strcmp0 (string, kind_names[i]) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
embers_transform_kind_takes_path (EmbersTransformKind kind)
{
  return kind == EMBERS_TRANSFORM_FOCUS_SUBTREE || kind == EMBERS_TRANSFORM_HIDE;
}

static void
step_free (gpointer data)
{
  Step *step = data;

  g_strfreev (step->args);
  g_free (step);
}

EmbersTransformStack *
embers_transform_stack_new (void)
{
  EmbersTransformStack *stack = g_new0 (EmbersTransformStack, 1);

  stack->steps = g_ptr_array_new_with_free_func (step_free);
  return stack;
}

EmbersTransformStack *
embers_transform_stack_copy (const EmbersTransformStack *stack)
{
  EmbersTransformStack *copy;

  g_return_val_if_fail (stack != NULL, NULL);

  copy = embers_transform_stack_new ();
  for (guint i = 0; i < stack->steps->len; i++)
    {
      const Step *s = g_ptr_array_index (stack->steps, i);
      Step *c = g_new0 (Step, 1);

      c->kind = s->kind;
      c->args = g_strdupv (s->args);
      g_ptr_array_add (copy->steps, c);
    }
  return copy;
}

void
embers_transform_stack_free (EmbersTransformStack *stack)
{
  if (stack == NULL)
    return;
  g_ptr_array_unref (stack->steps);
  g_free (stack);
}

guint
embers_transform_stack_get_length (const EmbersTransformStack *stack)
{
  g_return_val_if_fail (stack != NULL, 0);
  return stack->steps->len;
}

EmbersTransformKind
embers_transform_stack_get_kind (const EmbersTransformStack *stack,
                                 guint                       index)
{
  g_return_val_if_fail (stack != NULL, 0);
  g_return_val_if_fail (index < stack->steps->len, 0);
  return ((Step *)g_ptr_array_index (stack->steps, index))->kind;
}

const char * const *
embers_transform_stack_get_args (const EmbersTransformStack *stack,
                                 guint                       index)
{
  g_return_val_if_fail (stack != NULL, NULL);
  g_return_val_if_fail (index < stack->steps->len, NULL);
  return (const char * const *)((Step *)g_ptr_array_index (stack->steps, index))->args;
}

static gboolean
args_equal (const char * const *a,
            const char * const *b)
{
  return g_strv_equal (a, b);
}

int
embers_transform_stack_find (const EmbersTransformStack *stack,
                             EmbersTransformKind         kind,
                             const char * const         *args)
{
  static const char * const none[] = { NULL };

  g_return_val_if_fail (stack != NULL, -1);

  if (args == NULL)
    args = none;
  for (guint i = 0; i < stack->steps->len; i++)
    {
      const Step *s = g_ptr_array_index (stack->steps, i);

      if (s->kind == kind && args_equal ((const char * const *)s->args, args))
        return i;
    }
  return -1;
}

static gboolean
check_args (EmbersTransformKind  kind,
            const char * const  *args,
            GError             **error)
{
  guint n = args != NULL ? g_strv_length ((char **)args) : 0;

  if (kind >= EMBERS_TRANSFORM_N_KINDS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("Unknown frame action"));
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if (args[i][0] == '\0' || strlen (args[i]) > EMBERS_TRANSFORM_STACK_MAX_NAME ||
        !g_utf8_validate (args[i], -1, NULL))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("A frame action names an empty or invalid frame"));
        return FALSE;
      }

  if (embers_transform_kind_takes_path (kind) ? n >= 1 && n <= EMBERS_TRANSFORM_STACK_MAX_PATH
      : kind == EMBERS_TRANSFORM_COLLAPSE_RECURSION ? n <= 1
      : n == 1)
    return TRUE;

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               /* Translators: %s is a frame action's name in a file, e.g. "merge-function" */
               _("The frame action “%s” has the wrong number of frames"), kind_names[kind]);
  return FALSE;
}

gboolean
embers_transform_stack_push (EmbersTransformStack  *stack,
                             EmbersTransformKind    kind,
                             const char * const    *args,
                             GError               **error)
{
  static const char * const none[] = { NULL };
  Step *step;

  g_return_val_if_fail (stack != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_args (kind, args, error))
    return FALSE;
  if (args == NULL)
    args = none;
  if (embers_transform_stack_find (stack, kind, args) >= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("That frame action is applied already"));
      return FALSE;
    }
  if (stack->steps->len >= EMBERS_TRANSFORM_STACK_MAX_STEPS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   _("Too many frame actions: remove one first"));
      return FALSE;
    }

  step = g_new0 (Step, 1);
  step->kind = kind;
  step->args = g_strdupv ((char **)args);
  g_ptr_array_add (stack->steps, step);
  return TRUE;
}

void
embers_transform_stack_remove (EmbersTransformStack *stack,
                               guint                 index)
{
  g_return_if_fail (stack != NULL);
  g_return_if_fail (index < stack->steps->len);
  g_ptr_array_remove_index (stack->steps, index);
}

void
embers_transform_stack_clear (EmbersTransformStack *stack)
{
  g_return_if_fail (stack != NULL);
  g_ptr_array_set_size (stack->steps, 0);
}

gboolean
embers_transform_stack_equal (const EmbersTransformStack *a,
                              const EmbersTransformStack *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a->steps->len != b->steps->len)
    return FALSE;
  for (guint i = 0; i < a->steps->len; i++)
    {
      const Step *x = g_ptr_array_index (a->steps, i);
      const Step *y = g_ptr_array_index (b->steps, i);

      if (x->kind != y->kind || !args_equal ((const char * const *)x->args, (const char * const *)y->args))
        return FALSE;
    }
  return TRUE;
}

GVariant *
embers_transform_stack_step_to_variant (const EmbersTransformStack *stack,
                                        guint                       index)
{
  const Step *s;

  g_return_val_if_fail (stack != NULL, NULL);
  g_return_val_if_fail (index < stack->steps->len, NULL);

  s = g_ptr_array_index (stack->steps, index);
  return g_variant_new ("(s^as)", kind_names[s->kind], s->args);
}

gboolean
embers_transform_stack_push_variant (EmbersTransformStack  *stack,
                                     GVariant              *step,
                                     GError               **error)
{
  const char *name;
  g_autofree const char **args = NULL;
  EmbersTransformKind kind;

  g_return_val_if_fail (stack != NULL, FALSE);
  g_return_val_if_fail (step != NULL, FALSE);

  if (!g_variant_is_of_type (step, G_VARIANT_TYPE ("(sas)")))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("Unknown frame action"));
      return FALSE;
    }
  g_variant_get (step, "(&s^a&s)", &name, &args);
  if (!embers_transform_kind_from_string (name, &kind))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("Unknown frame action"));
      return FALSE;
    }
  return embers_transform_stack_push (stack, kind, args, error);
}

JsonNode *
embers_transform_stack_to_json (const EmbersTransformStack *stack)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (stack != NULL, NULL);

  json_builder_begin_array (b);
  for (guint i = 0; i < stack->steps->len; i++)
    {
      const Step *s = g_ptr_array_index (stack->steps, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, kind_names[s->kind]);
      json_builder_set_member_name (b, "args");
      json_builder_begin_array (b);
      for (guint k = 0; s->args[k] != NULL; k++)
        json_builder_add_string_value (b, s->args[k]);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  return json_builder_get_root (b);
}

static gboolean
invalid (GError    **error,
         const char *message)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, message);
  return FALSE;
}

EmbersTransformStack *
embers_transform_stack_from_json (JsonNode  *node,
                                  GError   **error)
{
  g_autoptr(EmbersTransformStack) stack = embers_transform_stack_new ();
  JsonArray *array;
  guint n;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return invalid (error, _("The frame actions are not a list")), NULL;
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n > EMBERS_TRANSFORM_STACK_MAX_STEPS)
    return invalid (error, _("Too many frame actions: remove one first")), NULL;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *object;
      JsonNode *kind_node, *args_node;
      JsonArray *args_array;
      g_autoptr(GPtrArray) args = g_ptr_array_new ();
      EmbersTransformKind kind;
      guint n_args;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        return invalid (error, _("A frame action is not an object")), NULL;
      object = json_node_get_object (element);
      kind_node = json_object_get_member (object, "kind");
      if (kind_node == NULL || json_node_get_value_type (kind_node) != G_TYPE_STRING ||
          !embers_transform_kind_from_string (json_node_get_string (kind_node), &kind))
        return invalid (error, _("Unknown frame action")), NULL;

      args_node = json_object_get_member (object, "args");
      if (args_node != NULL && !JSON_NODE_HOLDS_ARRAY (args_node))
        return invalid (error, _("A frame action’s frames are not a list")), NULL;
      args_array = args_node != NULL ? json_node_get_array (args_node) : NULL;
      n_args = args_array != NULL ? json_array_get_length (args_array) : 0;
      if (n_args > EMBERS_TRANSFORM_STACK_MAX_PATH)
        return invalid (error, _("A frame action’s frames are not a list")), NULL;
      for (guint k = 0; k < n_args; k++)
        {
          JsonNode *a = json_array_get_element (args_array, k);

          if (!JSON_NODE_HOLDS_VALUE (a) || json_node_get_value_type (a) != G_TYPE_STRING)
            return invalid (error, _("A frame action’s frames are not a list")), NULL;
          g_ptr_array_add (args, (gpointer)json_node_get_string (a));
        }
      g_ptr_array_add (args, NULL);

      if (!embers_transform_stack_push (stack, kind, (const char * const *)args->pdata, error))
        return NULL;
    }

  return g_steal_pointer (&stack);
}

static EmbersProfile *
apply_step (const Step     *s,
            EmbersProfile  *profile,
            GError        **error)
{
  const char * const *args = (const char * const *)s->args;

  switch (s->kind)
    {
    case EMBERS_TRANSFORM_FOCUS_SUBTREE:
      return embers_transform_focus_subtree (profile, args, error);
    case EMBERS_TRANSFORM_FOCUS_FUNCTION:
      return embers_transform_focus (profile, args[0], error);
    case EMBERS_TRANSFORM_MERGE_FUNCTION:
      return embers_transform_merge_function (profile, args[0], error);
    case EMBERS_TRANSFORM_HIDE:
      return embers_transform_merge_node (profile, args, error);
    case EMBERS_TRANSFORM_DROP_FUNCTION:
      return embers_transform_drop_function (profile, args[0], error);
    case EMBERS_TRANSFORM_COLLAPSE_PACKAGE:
      return embers_transform_collapse_package (profile, args[0], error);
    case EMBERS_TRANSFORM_COLLAPSE_RECURSION:
      if (args[0] == NULL)
        return embers_transform_collapse_recursion (profile, error);
      return embers_transform_collapse_function_recursion (profile, args[0], error);
    case EMBERS_TRANSFORM_N_KINDS:
    default:
      g_assert_not_reached ();
    }
}

EmbersProfile *
embers_transform_stack_apply_from (const EmbersTransformStack *stack,
                                   guint                       first,
                                   EmbersProfile              *profile,
                                   GCancellable               *cancellable,
                                   GError                    **error)
{
  g_autoptr(EmbersProfile) p = NULL;

  g_return_val_if_fail (stack != NULL, NULL);
  g_return_val_if_fail (EMBERS_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (first <= stack->steps->len, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  p = g_object_ref (profile);
  for (guint i = first; i < stack->steps->len; i++)
    {
      EmbersProfile *next;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      next = apply_step (g_ptr_array_index (stack->steps, i), p, error);
      if (next == NULL)
        return NULL;
      g_object_unref (p);
      p = next;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  return g_steal_pointer (&p);
}

EmbersProfile *
embers_transform_stack_apply (const EmbersTransformStack *stack,
                              EmbersProfile              *profile,
                              GCancellable               *cancellable,
                              GError                    **error)
{
  return embers_transform_stack_apply_from (stack, 0, profile, cancellable, error);
}

gboolean
embers_transform_stack_is_prefix (const EmbersTransformStack *prefix,
                                  const EmbersTransformStack *stack)
{
  g_return_val_if_fail (prefix != NULL && stack != NULL, FALSE);

  if (prefix->steps->len > stack->steps->len)
    return FALSE;
  for (guint i = 0; i < prefix->steps->len; i++)
    {
      const Step *x = g_ptr_array_index (prefix->steps, i);
      const Step *y = g_ptr_array_index (stack->steps, i);

      if (x->kind != y->kind || !args_equal ((const char * const *)x->args, (const char * const *)y->args))
        return FALSE;
    }
  return TRUE;
}
