/* embers-transforms.h: profile -> profile views (focus, hide, invert, ...)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "embers-profile.h"
#include "embers-selector.h"

G_BEGIN_DECLS

/*
 * Every transform is a pure function: it reads an immutable EmbersProfile
 * and returns a NEW profile (built with EmbersProfileBuilder), so it may run
 * on a worker thread. The result keeps every sample type (value column),
 * the period, time range, diff flag and function locations of the input.
 * Label samples (embers_profile_get_n_samples()) are carried over, with
 * their stacks transformed the same way, so transforms compose with
 * embers_transform_filter_labels() in any order.
 *
 * Functions are named by their frame name (a string), not by a string id,
 * because ids differ between the input and the output of a transform.
 * A name that occurs nowhere gives a profile with only a zero root.
 *
 * All return NULL and set @error only when a builder limit is hit
 * (EMBERS_PROFILE_ERROR_TOO_LARGE), which cannot happen for transforms that
 * do not grow the tree (all but invert and sandwich callers).
 */

/**
 * embers_transform_focus:
 * @function: the frame name to focus on
 *
 * Keeps only the stacks that pass through @function, re-rooted at it: the
 * result's root has the single child @function, under which the subtrees of
 * all its occurrences are merged. With recursion (f;x;f;y) the OUTERMOST
 * occurrence is the new root, so nothing is counted twice and the new
 * root's total equals the function's total in the top table.
 */
EmbersProfile *embers_transform_focus              (EmbersProfile  *profile,
                                                    const char     *function,
                                                    GError        **error);

/**
 * embers_transform_hide:
 * @regex: frames whose name matches (g_regex_match, unanchored) are removed
 *
 * Removes matching frames from every stack; their children are lifted to
 * the nearest kept ancestor and merged with its other children by name.
 * The self value of a removed frame goes to that ancestor. Totals at the
 * root are unchanged.
 */
EmbersProfile *embers_transform_hide               (EmbersProfile  *profile,
                                                    GRegex         *regex,
                                                    GError        **error);

/**
 * embers_transform_collapse_recursion:
 *
 * Merges consecutive repeats of the same frame name: a;b;b;b;c -> a;b;c.
 * Non-consecutive repeats (a;b;c;b) stay.
 */
EmbersProfile *embers_transform_collapse_recursion (EmbersProfile  *profile,
                                                    GError        **error);

/**
 * embers_transform_invert:
 *
 * The bottom-up (inverted) tree: every stack reversed, leaf first. The
 * first level holds the functions with self time, each with the total of
 * its self value; below each, its callers.
 */
EmbersProfile *embers_transform_invert             (EmbersProfile  *profile,
                                                    GError        **error);

/**
 * embers_transform_sandwich_callers:
 * @function: the frame name
 *
 * The callers half of a sandwich view: for every outermost occurrence of
 * @function, its path from the root, reversed, weighted by the
 * occurrence's TOTAL: root -> function -> its caller -> ... -> the
 * outermost frame. The function node's total equals its top-table total.
 */
EmbersProfile *embers_transform_sandwich_callers   (EmbersProfile  *profile,
                                                    const char     *function,
                                                    GError        **error);

/**
 * embers_transform_sandwich_callees:
 * @function: the frame name
 *
 * The callees half of a sandwich view: what @function calls, merged
 * across its occurrences. Same tree as embers_transform_focus().
 */
EmbersProfile *embers_transform_sandwich_callees   (EmbersProfile  *profile,
                                                    const char     *function,
                                                    GError        **error);

/**
 * embers_transform_filter_labels:
 * @selector: label matchers; a sample is kept when its label set matches
 *   (an absent label reads as "", as in Prometheus; a numeric label reads
 *   as its decimal number)
 *
 * Keeps the samples whose label set matches @selector, using the profile's
 * label samples. Values the profile has no label samples for (a profile
 * without labels at all, or self values added without a sample) count as
 * samples with the empty label set. The matcher is evaluated once per
 * label set, not once per sample.
 */
EmbersProfile *embers_transform_filter_labels      (EmbersProfile  *profile,
                                                    EmbersSelector *selector,
                                                    GError        **error);

/*
 * Frame actions, as in the Firefox Profiler (the transform stack's,
 * embers-transform-stack.h). A @path names a call node: the frame names
 * from the root's child down to it.
 */

/**
 * embers_transform_focus_subtree:
 * @path: the call node
 *
 * Keeps only the stacks that go through the call node, re-rooted at it:
 * the root has the single child @path's last name. An empty path, or a
 * path the profile lacks, leaves only a zero root.
 */
EmbersProfile *embers_transform_focus_subtree      (EmbersProfile       *profile,
                                                    const char * const  *path,
                                                    GError             **error);

/**
 * embers_transform_merge_node:
 * @path: the call node
 *
 * Removes the one call node at @path (not other occurrences of its
 * function): its children are lifted into its parent and merged by name,
 * its self value goes to the parent. Totals at the root are unchanged.
 */
EmbersProfile *embers_transform_merge_node         (EmbersProfile       *profile,
                                                    const char * const  *path,
                                                    GError             **error);

/**
 * embers_transform_merge_function:
 * @function: a frame name
 *
 * Removes every frame of @function, wherever it is: what it calls is
 * lifted into its callers, its self value goes to its callers. Totals at
 * the root are unchanged. (The exact-name case of embers_transform_hide().)
 */
EmbersProfile *embers_transform_merge_function     (EmbersProfile       *profile,
                                                    const char          *function,
                                                    GError             **error);

/**
 * embers_transform_drop_function:
 * @function: a frame name
 *
 * Drops every sample whose stack contains @function: the root's total
 * falls by the function's total (counted once per stack, so recursion is
 * not counted twice).
 */
EmbersProfile *embers_transform_drop_function      (EmbersProfile       *profile,
                                                    const char          *function,
                                                    GError             **error);

/**
 * embers_transform_collapse_package:
 * @package: a package, as embers_palette_package() cuts it from a name
 *
 * Every run of consecutive frames of @package becomes one frame named
 * @package; what they call (outside the package) hangs below it. Self
 * values of the collapsed frames go to the package frame; totals at the
 * root are unchanged.
 */
EmbersProfile *embers_transform_collapse_package   (EmbersProfile       *profile,
                                                    const char          *package,
                                                    GError             **error);

/**
 * embers_transform_collapse_function_recursion:
 * @function: a frame name
 *
 * Collapses the recursion of @function, direct and indirect: an inner
 * occurrence merges into the outermost one on its stack, and the frames
 * in between lose what went through it (f;g;f;h -> f;h, f;g stays for
 * g's own time). Totals at the root are unchanged.
 */
EmbersProfile *embers_transform_collapse_function_recursion (EmbersProfile  *profile,
                                                             const char     *function,
                                                             GError        **error);

/**
 * embers_transform_find_name:
 *
 * The string id of @name in @profile, or 0 when the profile has no such
 * string (id 0 is ""). Linear in the number of strings.
 */
guint32        embers_transform_find_name          (EmbersProfile  *profile,
                                                    const char     *name);

G_END_DECLS
