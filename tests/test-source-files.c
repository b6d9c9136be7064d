/* test-source-files.c: finding a profile's source file under source roots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include "embers-source-files.h"

static char *tmp;

static void
touch (const char *rel)
{
  g_autofree char *path = g_build_filename (tmp, rel, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, "package x\n", -1, &error);
  g_assert_no_error (error);
}

static void
rm_rf (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          rm_rf (child);
        }
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_remove (path);
}

static char *
at (const char *rel)
{
  return g_build_filename (tmp, rel, NULL);
}

static GPtrArray *
find (const char *file,
      const char *function_name,
      const char *root1,
      const char *root2)
{
  g_autofree char *r1 = root1 != NULL ? at (root1) : NULL;
  g_autofree char *r2 = root2 != NULL ? at (root2) : NULL;
  const char *roots[] = { r1, r2, NULL };
  g_autoptr(GError) error = NULL;
  GPtrArray *found;

  found = embers_source_find (file, function_name, roots, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (found);
  return found;
}

static void
assert_candidate (GPtrArray  *found,
                  guint       index,
                  const char *rel,
                  guint       matched)
{
  g_autofree char *path = at (rel);
  EmbersSourceCandidate *c;

  g_assert_cmpuint (index, <, found->len);
  c = g_ptr_array_index (found, index);
  g_assert_cmpstr (c->path, ==, path);
  g_assert_cmpuint (c->matched, ==, matched);
  g_assert_true (g_str_has_prefix (c->path, c->root));
}

static void
assert_components (const char *path,
                   const char *expected)
{
  g_auto(GStrv) parts = embers_source_path_components (path);
  g_autofree char *joined = g_strjoinv ("|", parts);

  g_assert_cmpstr (joined, ==, expected);
}

static void
test_components (void)
{
  assert_components ("/build/app-1.2/src/net/conn.c", "build|app-1.2|src|net|conn.c");
  assert_components ("a/../../b/./c.go", "b|c.go");
  assert_components ("../../../../etc/passwd", "etc|passwd");
  assert_components ("C:\\work\\app\\main.c", "work|app|main.c");
  assert_components ("github.com/acme/lib@v1.4.0/x/y.go", "github.com|acme|lib|x|y.go");
  assert_components ("@v1/a", "@v1|a");
  assert_components ("", "");
  assert_components ("////", "");
  assert_components ("..", "");
  assert_components ("C:", "");
  assert_components (NULL, "");
  assert_components ("a/\xff\xfe/b", "a|b");
}

static void
test_java_path (void)
{
  struct { const char *name, *file, *expected; } cases[] = {
    { "com.acme.Cart.add", "", "com/acme/Cart.java" },
    { "com.acme.Cart.add", "Cart.java", "com/acme/Cart.java" },
    { "com.acme.Cart$Inner.lambda$run$0", NULL, "com/acme/Cart.java" },
    { "com/acme/Cart.add", "Cart.kt", "com/acme/Cart.kt" },
    { "com.acme.Cart.add(Ljava/lang/String;)V", NULL, "com/acme/Cart.java" },
    { "com.acme.Cart.add", "../../etc/passwd", "com/acme/Cart.java" },
    { "main.fib", NULL, NULL },
    { "std::vector<int>::push_back", NULL, NULL },
    { "a..b", NULL, NULL },
    { "", NULL, NULL },
    { NULL, NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = embers_source_java_path (cases[i].name, cases[i].file);

      g_assert_cmpstr (path, ==, cases[i].expected);
    }
}

static void
test_go_module (void)
{
  g_autoptr(GPtrArray) found = NULL;

  /* A trimmed Go path: the root named like the module's last part ranks
   * its file first; a shallower file beats a deeper one */
  found = find ("github.com/acme/shop/cart/cart.go", NULL, "other", "src/shop");
  g_assert_cmpuint (found->len, ==, 3);
  assert_candidate (found, 0, "src/shop/cart/cart.go", 3);
  assert_candidate (found, 1, "other/cart/cart.go", 2);
  assert_candidate (found, 2, "src/shop/internal/cart/cart.go", 2);
  g_clear_pointer (&found, g_ptr_array_unref);

  /* The module cache, with a version */
  found = find ("/home/ci/go/pkg/mod/github.com/acme/lib@v1.4.0/x/y.go", NULL, "src/lib", NULL);
  g_assert_cmpuint (found->len, ==, 1);
  assert_candidate (found, 0, "src/lib/x/y.go", 3);
}

static void
test_build_prefix (void)
{
  g_autoptr(GPtrArray) found = NULL;

  found = find ("/build/app-1.2/src/net/conn.c", NULL, "app", NULL);
  g_assert_cmpuint (found->len, ==, 2);
  assert_candidate (found, 0, "app/src/net/conn.c", 3);
  /* The same name elsewhere matches less */
  assert_candidate (found, 1, "app/tests/conn.c", 1);
  g_clear_pointer (&found, g_ptr_array_unref);

  /* A Windows path */
  found = find ("C:\\ci\\app\\src\\net\\conn.c", NULL, "app", NULL);
  assert_candidate (found, 0, "app/src/net/conn.c", 4);
  g_clear_pointer (&found, g_ptr_array_unref);

  /* Nothing by that name */
  found = find ("/build/none.c", NULL, "app", "other");
  g_assert_cmpuint (found->len, ==, 0);
}

static void
test_java (void)
{
  g_autoptr(GPtrArray) found = NULL;

  found = find ("Cart.java", "com.acme.Cart.add", "java", NULL);
  g_assert_cmpuint (found->len, ==, 2);
  assert_candidate (found, 0, "java/src/main/java/com/acme/Cart.java", 3);
  assert_candidate (found, 1, "java/src/test/Cart.java", 1);
  g_clear_pointer (&found, g_ptr_array_unref);

  /* No file at all: the class alone */
  found = find (NULL, "com.acme.Cart.add", "java", NULL);
  assert_candidate (found, 0, "java/src/main/java/com/acme/Cart.java", 3);
}

static void
test_hostile (void)
{
  g_autoptr(GPtrArray) found = NULL;
  g_autofree char *link1 = at ("app/passwd");
  g_autofree char *link2 = at ("app/etc");
  g_autofree char *outside = at ("secret.c");
  g_autofree char *link3 = at ("app/src/secret.c");
  const char *hostile[] = {
    "../../../../etc/passwd", "/etc/passwd", "etc/passwd", "passwd", "..\\..\\etc\\passwd",
    "app/../../secret.c", "../secret.c", "secret.c", "", "/", "..", ".", "\\\\server\\share\\passwd",
  };

  /* Links out of the root, to a file and to a folder */
  g_assert_cmpint (symlink ("/etc/passwd", link1), ==, 0);
  g_assert_cmpint (symlink ("/etc", link2), ==, 0);
  touch ("secret.c");
  g_assert_cmpint (symlink (outside, link3), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      found = find (hostile[i], "x", "app", NULL);
      for (guint k = 0; k < found->len; k++)
        {
          EmbersSourceCandidate *c = g_ptr_array_index (found, k);
          g_autofree char *real = realpath (c->path, NULL);

          g_test_message ("%s gave %s", hostile[i], c->path);
          g_assert_nonnull (real);
          g_assert_true (g_str_has_prefix (real, c->root));
        }
      g_assert_cmpuint (found->len, ==, 0);
      g_clear_pointer (&found, g_ptr_array_unref);
    }

  /* A root that does not exist, or is a file, is passed over */
  found = find ("src/net/conn.c", NULL, "missing", "app/src/net/conn.c");
  g_assert_cmpuint (found->len, ==, 0);
}

static void
test_limits (void)
{
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *root = at ("src/shop");
  const char *roots[] = { root, NULL };

  found = embers_source_find ("cart.go", NULL, roots, 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->len, ==, 1);
  assert_candidate (found, 0, "src/shop/cart/cart.go", 1);
  g_clear_pointer (&found, g_ptr_array_unref);

  g_cancellable_cancel (cancellable);
  found = embers_source_find ("cart.go", NULL, roots, 0, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (found);
}

static void
on_found (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  GPtrArray **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = embers_source_find_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr(GPtrArray) found = NULL;
  g_autofree char *root = at ("app");
  const char *roots[] = { root, NULL };

  embers_source_find_async ("/build/src/net/conn.c", NULL, roots, 0, NULL, on_found, &found);
  while (found == NULL)
    g_main_context_iteration (NULL, TRUE);
  assert_candidate (found, 0, "app/src/net/conn.c", 3);
}

static void
test_roots_setting (void)
{
  g_autoptr(GVariant) empty = g_variant_ref_sink (g_variant_new_parsed ("@a{sas} {}"));
  g_autoptr(GVariant) one = NULL, two = NULL, back = NULL;
  const char *a[] = { "/src/shop", "/src/lib", NULL };
  const char *b[] = { "/src/cart", NULL };
  g_auto(GStrv) got = NULL;

  got = embers_source_roots_lookup (empty, "shop");
  g_assert_cmpuint (g_strv_length (got), ==, 0);
  g_clear_pointer (&got, g_strfreev);

  one = embers_source_roots_replace (empty, "http://pyro:4040 shop", a);
  two = embers_source_roots_replace (one, "", b);
  got = embers_source_roots_lookup (two, "http://pyro:4040 shop");
  g_assert_cmpstrv (got, a);
  g_clear_pointer (&got, g_strfreev);
  got = embers_source_roots_lookup (two, NULL);
  g_assert_cmpstrv (got, b);
  g_clear_pointer (&got, g_strfreev);

  /* No roots removes the entry */
  back = embers_source_roots_replace (two, "http://pyro:4040 shop", NULL);
  g_assert_cmpuint (g_variant_n_children (back), ==, 1);

  /* A value of the wrong type reads as empty */
  {
    g_autoptr(GVariant) wrong = g_variant_ref_sink (g_variant_new_string ("x"));

    got = embers_source_roots_lookup (wrong, "");
  }
  g_assert_cmpuint (g_strv_length (got), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp = g_dir_make_tmp ("embers-source-XXXXXX", &error);
  g_assert_no_error (error);
  touch ("src/shop/cart/cart.go");
  touch ("src/shop/internal/cart/cart.go");
  touch ("src/shop/.git/cart/cart.go");
  touch ("src/shop/node_modules/cart/cart.go");
  touch ("other/cart/cart.go");
  touch ("src/lib/x/y.go");
  touch ("app/src/net/conn.c");
  touch ("app/tests/conn.c");
  touch ("java/src/main/java/com/acme/Cart.java");
  touch ("java/src/test/Cart.java");

  g_test_add_func ("/embers/source-files/components", test_components);
  g_test_add_func ("/embers/source-files/java-path", test_java_path);
  g_test_add_func ("/embers/source-files/go-module", test_go_module);
  g_test_add_func ("/embers/source-files/build-prefix", test_build_prefix);
  g_test_add_func ("/embers/source-files/java", test_java);
  g_test_add_func ("/embers/source-files/hostile", test_hostile);
  g_test_add_func ("/embers/source-files/limits", test_limits);
  g_test_add_func ("/embers/source-files/async", test_async);
  g_test_add_func ("/embers/source-files/roots-setting", test_roots_setting);

  ret = g_test_run ();

  rm_rf (tmp);
  g_free (tmp);
  return ret;
}
