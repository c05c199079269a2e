return {
  title = "A sysfs read against the teardown",
  -- battery_remove() frees the calibration table first and removes the battery's
  -- directory after: a read of capacity in between runs show() on the freed table (its
  -- handle is stale: the sandbox's use after free), recorded as the show() callback's
  -- error. explore() finds the schedule.
  intended = "callback-error",
}
