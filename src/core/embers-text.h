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

/*
 * EmbersTextFits:
 *
 * Whether @text (a candidate label) fits where it is to be shown: the
 * caller measures it (pixels with Pango, or characters in tests).
 */
typedef gboolean (*EmbersTextFits) (const char *text,
                                    gpointer    user_data);

/*
 * embers_text_shorten_name:
 *
 * A function name made to fit by cutting its package path first and its
 * function name last. The name is split at the separators outside any
 * brackets ("/", "." and "::" at bracket depth 0, so the dots in
 * "(*compiler)" or the "::" in "Vec<alloc::string::String>" stay), and the
 * first candidate that @fits is returned, in this order:
 *
 *   the whole name                       regexp/syntax.(*compiler).compile
 *   leading segments dropped, one by one …syntax.(*compiler).compile
 *                                        …(*compiler).compile
 *   the last segment alone               …compile
 *   the last segment cut at its end      …comp…
 *
 * The last segment is what follows the last separator, with its
 * arguments, generics or file position (Java's "bar(Foo.java:12)", C++'s
 * "push_back(int const&)"). A name whose last segment holds no separator
 * at depth 0 (py-spy's "process (app/worker.py:12)") is cut at its end.
 * Invalid UTF-8 is made valid first; unbalanced brackets count as closed.
 * Returns "…" when nothing else fits, "" for NULL or "". Free with g_free().
 */
char  *embers_text_shorten_name          (const char     *name,
                                          EmbersTextFits  fits,
                                          gpointer        user_data);

/*
 * embers_text_name_cuts:
 *
 * Where embers_text_shorten_name() may start a shortened @name (valid
 * UTF-8): the byte offsets just past each separator at bracket depth 0,
 * in order, as a GArray of gsize. For painters that cut glyphs
 * themselves. Free with g_array_unref().
 */
GArray *embers_text_name_cuts            (const char     *name);

G_END_DECLS
