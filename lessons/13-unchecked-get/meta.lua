return {
  title = "The unchecked kobject_get",
  -- The checks open a port whose count already reached zero: kobject_get() refuses it
  -- ("refcount_t: addition on 0; use-after-free.") and returns nil, which port_open()
  -- uses anyway (a Lua error, the sandbox's oops). The solution records get-released too:
  -- the late lookup is the situation the lesson sets up; testing the result is the fix.
  intended = "get-released",
}
