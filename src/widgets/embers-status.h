/* embers-status.h: a panel's content, loading or message, in one place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  EMBERS_STATUS_CONTENT,   /* the answer */
  EMBERS_STATUS_LOADING,   /* asking: the old answer dimmed, what is asked for on it */
  EMBERS_STATUS_MESSAGE,   /* an error (with Retry) or an empty answer, in place of the old one */
} EmbersStatusState;

#define EMBERS_TYPE_STATUS (embers_status_get_type ())

G_DECLARE_FINAL_TYPE (EmbersStatus, embers_status, EMBERS, STATUS, GtkWidget)

/*
 * One panel (a chart, a flame graph, a table, a card) shows one of three
 * states for its own request:
 *
 * - content: what answered the query on screen;
 * - loading: a new query is asked for; the old content stays, dimmed and
 *   not to be clicked, under a line that says what is being loaded (the
 *   time range); with no old content, that line over a spinner;
 * - message: an error with Retry, or "no data", in place of the content
 *   (never beside stale data).
 *
 * Properties: content (the panel's widget), state, loading-text, title,
 * description, can-retry. Signal: retry.
 */
GtkWidget         *embers_status_new              (void);
void               embers_status_set_content      (EmbersStatus *self,
                                                   GtkWidget    *content);
GtkWidget         *embers_status_get_content      (EmbersStatus *self);
EmbersStatusState  embers_status_get_state        (EmbersStatus *self);
void               embers_status_show_content     (EmbersStatus *self);
void               embers_status_show_loading     (EmbersStatus *self,
                                                   const char   *text);
void               embers_status_show_message     (EmbersStatus *self,
                                                   const char   *icon_name,
                                                   const char   *title,
                                                   const char   *description,
                                                   gboolean      can_retry);
const char        *embers_status_get_loading_text (EmbersStatus *self);
const char        *embers_status_get_title        (EmbersStatus *self);
const char        *embers_status_get_description  (EmbersStatus *self);
gboolean           embers_status_get_can_retry    (EmbersStatus *self);
/* Whether the old content shows (dimmed) while loading */
gboolean           embers_status_get_content_dimmed (EmbersStatus *self);

G_END_DECLS
