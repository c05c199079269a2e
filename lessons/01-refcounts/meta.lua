-- The unmodified exercise leaks: open_device()'s -EBUSY path keeps the reference it took.
return { title = "Reference counts and release", intended = "leak" }
