return {
  title = "Find the leak",
  -- remove() never drops the reference probe() took: the device, and the kset and
  -- subsystem it holds, are still in leaks() when the checks end.
  intended = "leak",
}
