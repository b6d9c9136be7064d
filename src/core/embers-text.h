/* embers-text.h: text that leaves Embers safely
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * embers_text_append_escaped:
 *
 * Appends @text as one field of a tab-separated line that is also safe on
 * a terminal (the --top output). Function names come from profiles, and
 * profiles come from anywhere: a tab or line break in a name would forge
 * columns or rows, an escape sequence would reach the terminal. So:
 *
 *   \\ for a backslash, \t \n \r for tab, line feed, carriage return;
 *   \xHH for any other control character (U+0000–U+001F, U+007F) and for
 *        each byte that is not UTF-8;
 *   \uHHHH for the C1 controls (U+0080–U+009F) and for the invisible
 *        characters that move or hide text on a terminal: U+061C,
 *        U+200B–U+200F, U+2028–U+202E, U+2060–U+2064, U+2066–U+2069,
 *        U+FEFF, U+FFF9–U+FFFB.
 *
 * Everything else, any other UTF-8 included, is copied as it is. Reading a
 * field back: undo the escapes above, nothing else is escaped.
 */
void   embers_text_append_escaped        (GString    *out,
                                          const char *text);
char  *embers_text_escape                (const char *text);

/*
 * embers_text_mask_credentials:
 *
 * @text with the password of every URL in it masked: "user:***@host".
 * For every message, title, tooltip, log line and list that shows a URL
 * someone typed; the password itself goes to the keyring only. Text
 * without "scheme://user:password@" comes back unchanged.
 */
char  *embers_text_mask_credentials      (const char *text);

G_END_DECLS
