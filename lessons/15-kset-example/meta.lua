return {
  title = "The kset example, today",
  -- create_foo_obj() returns on a failed kobject_init_and_add() without kobject_put():
  -- the initialised object (count 1) is never released. The checks make it fail with a
  -- duplicate name and with fail_alloc; the objects are still in leaks() at the end.
  intended = "leak",
}
