return {
  title = "Names in sysfs",
  -- The checks register a second LED with the same name on purpose, so the exercise and
  -- the solution both record "duplicate-name" (kobject_add() refusing it is correct).
  -- The bug is what happens next: led_register() returns without kobject_put(), and the
  -- refused LED stays in leaks().
  intended = "leak",
}
