-- Lesson 16 demo: struct kref on refcount_t.
--
-- Shows: a kref starts at 0 in zeroed memory and kref_init() makes it 1; kref_get() and
-- kref_put() count, and the put that reaches 0 calls the release function and returns
-- 1; kref_get_unless_zero() refuses an object whose count already reached 0, which is
-- what a lookup needs; a kref_get() at 0 and a put below 0 do not wrap: refcount_t
-- saturates the count, warns, and the object is never released.
-- Mirrors: include/linux/kref.h, include/linux/refcount.h and lib/refcount.c
-- (refcount_warn_saturate and its messages).
-- Watch for: kref_put's return value; the count 3221225472 (REFCOUNT_SATURATED read as
-- unsigned) after a mistake, and that it never changes again.

local function show(what, r)
  print(string.format("  %-34s %s", what, tostring(r)))
end

do
  step("A kref in zeroed memory, then kref_init()")
  local session = { id = 7 }
  new_kref(session)                          -- session.kref, as kzalloc leaves it
  show("new_kref(session)", session.kref)
  kref_init(session.kref)
  predict("What does kref_read(session.kref) return now?",
          function() return kref_read(session.kref) end,
          "kref_init() is refcount_set(&kref->refcount, 1): the creator's reference.")
end

do
  step("kref_get, kref_put, and the release on the last put")
  local session = { id = 8 }
  new_kref(session)
  kref_init(session.kref)
  local function session_release(kref)
    print("  session_release: kfree(container_of(kref, struct session, kref)), id " ..
          container_of(kref).id)
  end
  kref_get(session.kref)
  show("after kref_init and kref_get", session.kref)
  predict("kref_put() returns 1 when it released the object. What does this put return?",
          function() return kref_put(session.kref, session_release) end,
          "2 -> 1: somebody still holds a reference, so release is not called.")
  predict("And the next one?", function() return kref_put(session.kref, session_release) end,
          "1 -> 0: refcount_dec_and_test() is true, release runs, and the caller must " ..
          "not touch the object any more.")
end

-- A table that finds sessions by id and holds no reference: an entry leaves it when the
-- session's release runs, after taking the table's lock. In the kernel another CPU can
-- find the entry between the count reaching 0 and that removal.
local table_of = {}

do
  step("A lookup that finds an object whose count already reached 0")
  local session = { id = 9 }
  new_kref(session)
  kref_init(session.kref)
  table_of[9] = session
  kref_put(session.kref, function()
    print("  release queued: it waits for the table's lock")
  end)
  show("the entry still in the table", table_of[9].kref)
  predict("kref_get_unless_zero(table_of[9].kref)?",
          function() return tostring(kref_get_unless_zero(table_of[9].kref)) end,
          "At 0 it takes nothing and says so, quietly: the lookup treats the entry as gone.",
          { choices = { "true", "false" } })
  show("the count is unchanged", table_of[9].kref)
end

do
  step("The same lookup with a plain kref_get()")
  local session = table_of[9]
  kref_get(session.kref)
  predict("What does kref_read() return after a kref_get() at 0?",
          function() return kref_read(session.kref) end,
          "refcount_t refuses to count up from 0 (\"addition on 0; use-after-free.\"): " ..
          "it sets the count to REFCOUNT_SATURATED, INT_MIN / 2, read as unsigned.")
  local released = kref_put(session.kref, function() print("  released (never printed)") end)
  show("kref_put on the saturated count ->", released)
  show("and the count", session.kref)
  print("  (that put warned too: a saturated count is negative, and any decrement of it")
  print("  is reported as an underflow)")
  print("  A saturated count stays saturated: no number of puts brings it to 0 again, so")
  print("  the object is never freed. A leak is the price, and a small one: a count that")
  print("  wrapped round to 0 would free memory somebody is still using.")
  table_of[9] = nil
end

do
  step("A put too many")
  local session = { id = 10 }
  new_kref(session)
  kref_init(session.kref)
  local calls = 0
  local function session_release() calls = calls + 1 end
  kref_put(session.kref, session_release)
  predict("The count is 0 and the session was released. What does a second kref_put return?",
          function() return kref_put(session.kref, session_release) end,
          "refcount_dec_and_test() at 0 warns \"underflow; use-after-free.\", saturates, " ..
          "and returns false: the release is not called twice.")
  show("release called", calls .. " time(s)")
  show("the count", session.kref)
end

do
  step("What the kernel said")
  show_diagnostics()
  print("A kref is not a kobject: it has no sysfs entry and no leak report of its own.")
  show_leaks()
end
