return {
  title = "The kobject example, today",
  -- number_store() parses like sscanf() and returns the count whatever it found, so a
  -- write of junk "succeeds". The kernel records nothing for that (sysfs cannot know
  -- that a store() lied), so the symptom is the checks' own: echo() must fail with
  -- -EINVAL (-ERANGE for a number too big) and leave the value alone.
  -- Why this bug and not a module exit that forgets kobject_put(): leaks are lessons 1
  -- and 9 already, while the store() contract (a count or a negative errno, which
  -- reaches write(2)) is new here and is where sysfs interfaces really go wrong.
  intended = "check",
}
