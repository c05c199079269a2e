-- Lesson 1 demo: reference counts and release
--
-- Shows: kobject_init() gives a kobject its first reference, the creator's;
-- kobject_get() and kobject_put() move the count; when it reaches zero the release
-- method runs and frees the structure the kobject lives in. After that, kobject_get()
-- refuses: it returns nil, and the caller must test for that.
-- Mirrors: lib/kobject.c (kobject_init, kobject_get, kobject_put) and the life of a
-- network driver's private structure.
-- Watch for: "init 0 -> 1", "get 1 -> 2" in the log (the count before and after each
-- call, and the line that made it), and the release event right after the put that
-- reaches zero.

-- The type of the driver's structure; lesson 4 is about ktypes and release methods.
local e1000_type = new_ktype{
  name = "e1000_type",
  release = function(kobj)
    local adapter = container_of(kobj)
    adapter.rx_ring = nil      -- what kfree() of the adapter would do
  end,
}

-- A driver's private structure with a kobject inside, in zeroed memory (kzalloc).
local e1000 = { irq = 11, rx_ring = { "desc0", "desc1" } }

step("A structure with a kobject inside")
do
  e1000.kobj = new_kobject(e1000)
  e1000.kobj.ktype = e1000_type
  print("state " .. e1000.kobj.state .. ", refcount " .. e1000.kobj.refcount)
end

step("kobject_init and kobject_set_name")
do
  kobject_init(e1000.kobj)
  local err = kobject_set_name(e1000.kobj, "e1000-%d", 0)
  assert(err == 0, "kobject_set_name failed")
end
predict("After kobject_init, what is the refcount of 'e1000-0'?",
        function() return e1000.kobj.refcount end,
        "kobject_init sets it to 1: that reference belongs to the code that created it.")
show_log()

step("Someone else takes a reference")
do
  -- An interrupt handler, a timer, an open file: anyone that keeps a pointer to the
  -- adapter after the creator might let go. kobject_get() returns the kobject, or nil.
  local kobj = kobject_get(e1000.kobj)
  assert(kobj == e1000.kobj, "kobject_get failed")
end
predict("And after kobject_get?", function() return e1000.kobj.refcount end,
        "kobject_get adds one reference, for the other user: 1 + 1.")

step("The other user is done with it")
do
  kobject_put(e1000.kobj)
end
predict("After that user's kobject_put, has the release method run?",
        function() return e1000.rx_ring and "no" or "yes" end,
        "No: the count is 1, the creator still holds its reference.", { choices = "yes/no" })
show_log(2)

step("The creator drops its reference")
do
  kobject_put(e1000.kobj)
end
predict("What is the state of 'e1000-0' now?", function() return e1000.kobj.state end,
        "The count reached 0, so the ktype's release method ran right away, inside " ..
        "kobject_put: the log shows the release event on the same line.",
        { choices = "state" })
show_log(2)
print("the adapter's rx_ring after release: " .. tostring(e1000.rx_ring))

step("kobject_get on an object already released")
do
  -- The rule of the article: kobject_get() fails on an object on its way out, and its
  -- result must always be tested. Here it returns nil, and the sandbox reports the
  -- get, because in the kernel the memory is already freed.
  local kobj = kobject_get(e1000.kobj)
  print("kobject_get returned " .. tostring(kobj))
  show_diagnostics()
end

step("Nothing is left behind")
show_leaks()
