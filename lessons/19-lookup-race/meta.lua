return {
  title = "A lookup against the last put",
  -- sensor_find() walks the kset's list under its lock, unlocks, then calls
  -- kobject_get(): under schedule 11112 sensor_remove()'s last put runs in between, the
  -- sensor is released, and the get finds it gone ("refcount_t: addition on 0;
  -- use-after-free."). The explorer finds that schedule; the checks name it.
  intended = "get-released",
}
