return {
  title = "try_module_get() against unload",
  -- codec_get() finds the codec under the list's lock, reads its owner, unlocks, then
  -- calls try_module_get(owner): rmmod can run in between, and the module is unloaded
  -- (its struct freed) when the get comes: "BUG: unable to handle page fault in
  -- try_module_get". explore() finds the schedule.
  intended = "module-unloaded",
}
