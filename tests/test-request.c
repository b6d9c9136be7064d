/* test-request.c: the newest request of its kind wins
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "embers-request.h"

typedef struct
{
  GObject      *owner;
  GCancellable *slot;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->owner = g_object_new (G_TYPE_OBJECT, NULL);
  f->slot = NULL;
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  embers_request_cancel (&f->slot);
  g_assert_finalize_object (f->owner);
}

/* A request is current until a newer one starts; the newer one cancels it */
static void
test_newest_wins (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(EmbersRequest) first = embers_request_start (f->owner, &f->slot, 3);
  g_autoptr(EmbersRequest) second = NULL;

  g_assert_true (first->owner == f->owner);
  g_assert_cmpuint (first->kind, ==, 3);
  g_assert_true (f->slot == first->cancellable);
  g_assert_true (embers_request_is_current (first));

  second = embers_request_start (f->owner, &f->slot, 3);
  g_assert_true (g_cancellable_is_cancelled (first->cancellable));
  g_assert_false (g_cancellable_is_cancelled (second->cancellable));
  g_assert_false (embers_request_is_current (first));
  g_assert_false (embers_request_finish (first));
  /* the stale answer left the newer request alone */
  g_assert_true (f->slot == second->cancellable);

  /* The answer of the newer one counts, once: the slot is then empty */
  g_assert_true (embers_request_finish (second));
  g_assert_null (f->slot);
  g_assert_false (embers_request_is_current (second));
  g_assert_false (embers_request_finish (second));
}

/* Shared requests (one per name) are current while the one they share is */
static void
test_share (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(EmbersRequest) req = embers_request_start (f->owner, &f->slot, 1);
  g_autoptr(EmbersRequest) a = embers_request_share (req, "region");
  g_autoptr(EmbersRequest) b = embers_request_share (req, "pod");
  g_autoptr(EmbersRequest) newer = NULL;

  g_assert_cmpstr (a->name, ==, "region");
  g_assert_cmpstr (b->name, ==, "pod");
  g_assert_null (req->name);
  g_assert_true (a->cancellable == req->cancellable);
  g_assert_true (embers_request_is_current (a));
  g_assert_true (embers_request_is_current (b));

  newer = embers_request_start (f->owner, &f->slot, 1);
  g_assert_false (embers_request_is_current (a));
  g_assert_false (embers_request_is_current (b));
  g_assert_true (embers_request_is_current (newer));
}

/* Cancelling the slot (a closed page) makes every answer stale */
static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(EmbersRequest) req = embers_request_start (f->owner, &f->slot, 0);
  GCancellable *cancellable = req->cancellable;

  embers_request_cancel (&f->slot);
  g_assert_null (f->slot);
  g_assert_true (g_cancellable_is_cancelled (cancellable));
  g_assert_false (embers_request_is_current (req));
  g_assert_false (embers_request_finish (req));
  /* an empty slot cancels nothing */
  embers_request_cancel (&f->slot);
  g_assert_null (f->slot);
}

/* A request keeps its owner alive until the answer is handled */
static void
test_owner_alive (void)
{
  GObject *owner = g_object_new (G_TYPE_OBJECT, NULL);
  GCancellable *slot = NULL;
  EmbersRequest *req = embers_request_start (owner, &slot, 0);

  g_object_add_weak_pointer (owner, (gpointer *)&owner);
  g_object_unref (owner);
  g_assert_nonnull (owner);
  g_assert_true (embers_request_finish (req));
  embers_request_free (req);
  g_assert_null (owner);
  g_assert_null (slot);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/embers/request/newest-wins", Fixture, NULL, fixture_set_up, test_newest_wins, fixture_tear_down);
  g_test_add ("/embers/request/share", Fixture, NULL, fixture_set_up, test_share, fixture_tear_down);
  g_test_add ("/embers/request/cancel", Fixture, NULL, fixture_set_up, test_cancel, fixture_tear_down);
  g_test_add_func ("/embers/request/owner-alive", test_owner_alive);

  return g_test_run ();
}
