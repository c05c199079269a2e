-- Lesson 2 demo: embedding kobjects and container_of
--
-- Shows: a kobject lives inside a bigger structure (the article's struct cdev and
-- struct my_object); given the kobject, container_of() gives back the structure around
-- it; one release method serves every object of a type, and container_of() tells it
-- which object it was called for.
-- Mirrors: include/linux/kernel.h (container_of), fs/char_dev.c (struct cdev and its
-- release), and the article's my_object_release().
-- Watch for: the same release method running twice, each time freeing the structure its
-- own kobject is embedded in.

-- The article's release method: the only thing it is given is the kobject.
local my_type = new_ktype{
  name = "my_type",
  release = function(kobj)
    local mine = container_of(kobj, "struct my_object", "kobj")
    mine.stuff = nil           -- what kfree(mine) would do
  end,
}

step("struct cdev: a kobject embedded in a bigger structure")
do
  -- struct cdev { struct kobject kobj; struct module *owner; ... } in zeroed memory
  local cdev = { owner = "snd", ops = "snd_fops" }
  local kp = new_kobject(cdev)          -- sets cdev.kobj, like the embedded member
  print("cdev.kobj is the kobject:     " .. tostring(cdev.kobj == kp))
  print("container_of(kp) is the cdev: " .. tostring(container_of(kp) == cdev))
  -- container_of(kp, struct cdev, kobj): the member name is checked, as the C macro's
  -- type check would catch a wrong one.
  print("container_of(kp, 'struct cdev', 'kobj').owner = " ..
        container_of(kp, "struct cdev", "kobj").owner)
  local ok, err = pcall(container_of, kp, "struct cdev", "dev_kobj")
  print("with the wrong member: " .. tostring(err))
  -- Never initialised, so there is nothing to put: it simply goes away.
end

-- Two objects of the same type, each with its own stuff.
local mine1 = { stuff = "buffer of mine1" }
local mine2 = { stuff = "buffer of mine2" }

step("Two my_objects share one ktype")
do
  for i, mine in ipairs({ mine1, mine2 }) do
    new_kobject(mine)
    mine.kobj.ktype = my_type
    kobject_init(mine.kobj)
    assert(kobject_set_name(mine.kobj, "mine%d", i) == 0)
  end
  show_log()
end

step("The last put of mine2")
do
  kobject_put(mine2.kobj)
end
predict("Whose stuff is still there?",
        function()
          if mine1.stuff and mine2.stuff then return "both" end
          return mine1.stuff and "mine1" or mine2.stuff and "mine2" or "none"
        end,
        "The release ran for mine2's kobject, and container_of() turned that kobject " ..
        "into mine2, not into any other object of the type.",
        { choices = { "mine1", "mine2", "both", "none" } })
print("mine1.stuff = " .. tostring(mine1.stuff) .. ", mine2.stuff = " ..
      tostring(mine2.stuff))

step("The last put of mine1")
do
  kobject_put(mine1.kobj)
  print("mine1.stuff = " .. tostring(mine1.stuff) .. ", mine2.stuff = " ..
        tostring(mine2.stuff))
  show_log(4)
end

step("Nothing is left behind")
show_leaks()
