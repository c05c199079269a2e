-- Lesson 18 solution: then and now.
--
-- A small driver written for 2.6.0 and ported to today's API: each widget is an object
-- in the kset /sys/kernel/widgets. The port replaced kobject_register() with
-- kobject_init_and_add() plus kobject_uevent(), and the kset's hotplug_ops with
-- uevent_ops. widget_open() and widget_close() let a user hold a widget (an open file,
-- say) while it is removed.
--
-- The fix: kobject_unregister() dropped two references because 2.6.0's kobject_add()
-- took one for the object's sysfs directory. Today's kobject_init_and_add() leaves one
-- reference, the creator's, and takes none for the directory: widget_remove() is
-- kobject_del() (out of sysfs at once, even while a user holds the widget) and one
-- kobject_put().

-- The last reference to a widget is gone: in C, kfree(to_widget(kobj)).
local function widget_release(kobj)
  container_of(kobj).freed = true
end

local widget_ktype = new_ktype{ name = "widget", release = widget_release }

-- Was: static struct kset_hotplug_ops widget_hotplug_ops = { .hotplug = ... }.
-- Today a uevent() callback adds the variables; it gets no kset argument.
local widget_uevent_ops = {
  uevent = function(kobj, env)
    env:add("WIDGET_COLOR=%s", container_of(kobj).color)
    return 0
  end,
}

-- Was: static decl_subsys(widgets, &widget_ktype, &widget_hotplug_ops).
widgets_kset = nil

-- widgets_init(): /sys/kernel/widgets. Returns 0 or -ENOMEM.
function widgets_init()
  widgets_kset = kset_create_and_add("widgets", widget_uevent_ops, kernel_kobj)
  return widgets_kset and 0 or -ENOMEM
end

-- widgets_exit(): every widget must be removed first.
function widgets_exit()
  kset_unregister(widgets_kset)
  widgets_kset = nil
end

-- widget_add(name, color): a widget in /sys/kernel/widgets, announced to user space.
-- Returns it, or nil and a negative errno.
function widget_add(name, color)
  local w = { color = color }
  new_kobject(w)
  -- Was: kobject_init(); kobject_set_name(); kobj.kset = ...; kobject_register().
  w.kobj.kset = widgets_kset
  local err = kobject_init_and_add(w.kobj, widget_ktype, nil, "%s", name)
  if err ~= 0 then
    kobject_put(w.kobj)
    return nil, err
  end
  kobject_uevent(w.kobj, KOBJ_ADD)  -- 2.6.0's add sent "add" itself; today's does not
  return w
end

-- widget_open(w): a user takes a reference. Returns w, or nil if it is going away.
function widget_open(w)
  if not kobject_get_unless_zero(w.kobj) then
    return nil
  end
  return w
end

-- widget_close(w): the user lets go.
function widget_close(w)
  kobject_put(w.kobj)
end

-- widget_remove(w): out of sysfs at once; freed when its last user lets go.
function widget_remove(w)
  -- Was: kobject_unregister(&w->kobj). Today's add holds no reference of its own.
  kobject_del(w.kobj)
  kobject_put(w.kobj)
end
