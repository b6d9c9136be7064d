/* embers-request.h: the newest request of its kind wins
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* An asynchronous request a page or widget makes for its own display
 * (service list, label values, a chart…). Its owner keeps one
 * GCancellable slot per kind of request; starting a request cancels the
 * one before it in that slot, and an answer counts only while its request
 * is still the one in the slot. The request holds a reference to its
 * owner, so the slot stays valid until the answer arrives. */
typedef struct
{
  gpointer       owner;        /* a GObject, referenced */
  GCancellable  *cancellable;  /* referenced */
  GCancellable **slot;         /* in the owner */
  guint          kind;         /* the owner's own kind of request */
  char          *name;         /* what a shared request is for, or NULL */
} EmbersRequest;

EmbersRequest *embers_request_start      (gpointer        owner,
                                          GCancellable  **slot,
                                          guint           kind);
EmbersRequest *embers_request_share      (EmbersRequest  *req,
                                          const char     *name);
gboolean       embers_request_is_current (EmbersRequest  *req);
gboolean       embers_request_finish     (EmbersRequest  *req);
void           embers_request_cancel     (GCancellable  **slot);
void           embers_request_free       (EmbersRequest  *req);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersRequest, embers_request_free)

G_END_DECLS
