return {
  title = "The double put",
  -- remove() drops the device twice; the bus's last put then lands on a released
  -- object: "refcount_t: underflow; use-after-free."
  intended = "double-put",
}
