return {
  title = "Modules and cdev_get()",
  -- cdev_get() keeps the module reference when kobject_get() fails on a released cdev,
  -- so the owner's module_unload() is refused: "rmmod: ERROR: Module snd_pcm is in use".
  -- (Both the exercise and the solution record get-released: the late open is the race
  -- the lesson is about, and kobject_get() refusing it is correct.)
  intended = "module-in-use",
}
