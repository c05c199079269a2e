return {
  title = "Hotplug events",
  -- No diagnostic applies: a filter that says no is legal, and the kernel sends nothing
  -- and reports nothing. The symptom is only visible to the checks, which look for the
  -- "add" and "remove" events in hotplug_events() and find none: they fail without any
  -- diagnostic being recorded.
  intended = "check",
}
