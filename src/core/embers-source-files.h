/* embers-source-files.h: finding a profile's source file in local folders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * A profile names a function's file as it was on the machine that built
 * the program: "/build/app-1.2/src/net/conn.c", a Go module path
 * "github.com/acme/shop/cart/cart.go" or a module cache path
 * ".../pkg/mod/github.com/acme/lib@v1.4.0/x.go", a Windows path, or for
 * Java only a class ("com.acme.Cart.add" in Cart.java). The user keeps
 * checkouts in "source roots"; this finds the file there.
 *
 * The path is cut into clean components (no "", ".", ".." or drive
 * letters; "@version" dropped from a component), and a candidate is a file
 * under a root whose path ends with the most of them: longer matches rank
 * first, then the root's own name matching the component before, then
 * shorter paths, then the order of the roots. Nothing outside a root is
 * ever returned, through ".." or a symbolic link.
 */

typedef struct
{
  char  *path;     /* absolute, inside root */
  char  *root;     /* the source root it is in */
  guint  matched;  /* trailing components that match */
} EmbersSourceCandidate;

void       embers_source_candidate_free    (EmbersSourceCandidate *candidate);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EmbersSourceCandidate, embers_source_candidate_free)

/* The clean components of @path (both / and \ separate); NULL-terminated;
 * empty when nothing usable is left */
char     **embers_source_path_components   (const char            *path);

/* The relative path of a Java class's source from a function name
 * ("com.acme.Cart.add" or "com/acme/Cart.add" and file "Cart.java" or ""
 * give "com/acme/Cart.java"); NULL when the name is not of that form */
char      *embers_source_java_path         (const char            *function_name,
                                            const char            *file);

/* Candidates for @file (or, without a usable file, the Java path of
 * @function_name) under @roots, best first; at most @max_results. Walks
 * each root looking for the file's name, skipping version-control and
 * dependency folders and at most a bounded number of entries. Blocking:
 * call it in a thread (or use the async pair). */
GPtrArray *embers_source_find              (const char            *file,
                                            const char            *function_name,
                                            const char * const    *roots,
                                            guint                  max_results,
                                            GCancellable          *cancellable,
                                            GError               **error);

void       embers_source_find_async        (const char            *file,
                                            const char            *function_name,
                                            const char * const    *roots,
                                            guint                  max_results,
                                            GCancellable          *cancellable,
                                            GAsyncReadyCallback    callback,
                                            gpointer               user_data);
GPtrArray *embers_source_find_finish       (GAsyncResult          *result,
                                            GError               **error);

/* Source roots saved per service, in a GVariant of type a{sas} (the
 * "source-roots" setting): the roots of @service ("" for local files) */
char     **embers_source_roots_lookup      (GVariant              *map,
                                            const char            *service);
/* A new map with @roots for @service (removed when @roots is empty) */
GVariant  *embers_source_roots_replace     (GVariant              *map,
                                            const char            *service,
                                            const char * const    *roots);

G_END_DECLS
