/* embers-request.c: the newest request of its kind wins
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-request.h"

/**
 * embers_request_start:
 * @owner: the GObject that shows the answer
 * @slot: the owner's cancellable for this kind of request
 * @kind: the owner's number for this kind, kept in the request
 *
 * Cancels the request in @slot, if any, and puts a new cancellable there.
 */
EmbersRequest *
embers_request_start (gpointer       owner,
                      GCancellable **slot,
                      guint          kind)
{
  EmbersRequest *req;

  g_return_val_if_fail (G_IS_OBJECT (owner), NULL);
  g_return_val_if_fail (slot != NULL, NULL);

  req = g_new0 (EmbersRequest, 1);
  embers_request_cancel (slot);
  *slot = g_cancellable_new ();
  req->owner = g_object_ref (owner);
  req->cancellable = g_object_ref (*slot);
  req->slot = slot;
  req->kind = kind;
  return req;
}

/* A further request under the same cancellable (one per label name, say):
 * current while @req is */
EmbersRequest *
embers_request_share (EmbersRequest *req,
                      const char    *name)
{
  EmbersRequest *copy = g_new0 (EmbersRequest, 1);

  copy->owner = g_object_ref (req->owner);
  copy->cancellable = g_object_ref (req->cancellable);
  copy->slot = req->slot;
  copy->kind = req->kind;
  copy->name = g_strdup (name);
  return copy;
}

/* TRUE while no newer request of the kind was started nor this one
 * cancelled */
gboolean
embers_request_is_current (EmbersRequest *req)
{
  return *req->slot == req->cancellable && !g_cancellable_is_cancelled (req->cancellable);
}

/* For the answer: TRUE when it counts, and then the slot is empty (the
 * kind is no longer loading) */
gboolean
embers_request_finish (EmbersRequest *req)
{
  if (!embers_request_is_current (req))
    return FALSE;
  g_clear_object (req->slot);
  return TRUE;
}

/* Cancels what runs in @slot and empties it */
void
embers_request_cancel (GCancellable **slot)
{
  if (*slot != NULL)
    g_cancellable_cancel (*slot);
  g_clear_object (slot);
}

void
embers_request_free (EmbersRequest *req)
{
  g_object_unref (req->owner);
  g_object_unref (req->cancellable);
  g_free (req->name);
  g_free (req);
}
