return {
  title = "Then and now",
  -- widget_remove() keeps kobject_unregister()'s arithmetic on a today's object:
  -- kobject_del() and then two puts. Today's add took no reference of its own, so the
  -- second put finds the count at 0: "refcount_t: underflow; use-after-free.".
  intended = "double-put",
}
