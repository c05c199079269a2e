return {
  title = "Delayed release",
  -- slot_destroy() is a bare kobject_put() that relies on the release running at once.
  -- With debug_kobject_release(true) the old slot stays in sysfs until its delayed
  -- cleanup, so slot_create() with the same name right after fails: "sysfs: cannot create
  -- duplicate filename '/kernel/slots/slot1'".
  intended = "duplicate-name",
}
