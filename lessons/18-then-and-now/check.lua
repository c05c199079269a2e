-- Checks for lesson 18: a widget added with today's calls holds one reference, the
-- creator's; widget_remove() takes it out of sysfs at once and drops exactly that one
-- reference, whether or not a user still holds the widget; the user's put is the last.
-- The checks read the event log (expect.drops), and report a put that lands on a
-- released widget as the double put it is.

local DIR = "/sys/kernel/widgets"

local TODAY = "kobject_init_and_add() leaves a widget one reference, the creator's: " ..
  "today's kobject_add() holds no reference of its own (2.6.0's took one for the sysfs " ..
  "directory, and kobject_unregister() gave it back). widget_remove() owns one " ..
  "reference, so it makes one put."

local USER = "the user who opened it (widget_open() took it; widget_close() drops it)"

-- drops(who, obj, n, fn, holder, advice): expect.drops by @who; a put that landed on
-- @obj after its release (a double-put diagnostic) is reported first, as such. A
-- failure ends with @advice.
local function drops(who, obj, n, fn, holder, advice)
  local before = obj.state ~= "released" and obj.refcount
  local diags, ok, err = diagnostics_during(pcall, expect.drops, obj, n, fn,
                                            { by = who, holder = holder })
  for _, d in ipairs(before and diags or {}) do
    if d.tag == "double-put" and d.id == obj.id then
      expect.fail("%s: a put on '%s' came after '%s' was released (\"%s\" at %s:%d). " ..
                  "'%s' had refcount %d when %s started, and %s owns %d of those.\n%s",
                  who, d.object, d.object, d.message, d.file or "?", d.line or 0,
                  d.object, before, who, who, n, advice)
    end
  end
  if not ok then
    if type(err) == "table" and err.message then
      err.message = err.message .. "\n" .. advice
    end
    error(err, 0)
  end
end

local ready = false

check("widgets_init() makes /sys/kernel/widgets", function()
  local err = expect.call("widgets_init()", widgets_init)
  expect.that(err == 0, "widgets_init() returned %s", tostring(err))
  expect.in_sysfs(DIR)
  ready = true
end)

local w0
check("widget_add('w0') leaves one reference and announces the widget", function()
  expect.that(ready, "skipped: no /sys/kernel/widgets")
  local before = widgets_kset.refcount
  local err
  w0, err = expect.call("widget_add('w0')", widget_add, "w0", "red")
  expect.that(w0, "widget_add('w0') failed with %s", tostring(err))
  advise("Today's kobject_init_and_add() leaves one reference, the creator's; 2.6.0's " ..
         "kobject_register() left two.", expect.refcount, w0.kobj, 1)
  expect.that(widgets_kset.refcount == before + 2, "the kset's refcount went from %d to " ..
              "%d; a member holds two, as its parent and as its kset", before,
              widgets_kset.refcount)
  local ev = expect.hotplug{ action = "add", devpath = "/kernel/widgets/w0",
                             env = { WIDGET_COLOR = "red", SUBSYSTEM = "widgets" } }
  expect.that(ev.env.SEQNUM ~= nil, "the add event has no SEQNUM")
end)

check("widget_remove() of an unused widget drops its one reference and frees it", function()
  expect.that(w0, "skipped: no w0")
  drops("widget_remove()", w0.kobj, 1, function()
    expect.call("widget_remove()", widget_remove, w0)
  end, "nobody: no user opened 'w0'", TODAY)
  expect.released(w0.kobj, { prefix = "after widget_remove() with no user, " })
  expect.not_in_sysfs(DIR .. "/w0")
  expect.hotplug{ action = "remove", devpath = "/kernel/widgets/w0" }
end)

local w1
check("widget_remove() of an open widget: out of sysfs at once, freed later", function()
  expect.that(ready, "skipped: no /sys/kernel/widgets")
  local kset_before = widgets_kset.refcount
  w1 = expect.call("widget_add('w1')", widget_add, "w1", "blue")
  expect.that(w1, "widget_add('w1') failed")
  expect.that(expect.call("widget_open()", widget_open, w1) == w1, "widget_open() failed")
  drops("widget_remove()", w1.kobj, 1, function()
    expect.call("widget_remove()", widget_remove, w1)
  end, USER, TODAY)
  expect.not_released(w1.kobj, "its user still holds the reference widget_open() took")
  expect.that(not ls(DIR .. "/w1"), "%s/w1 is still in sysfs after widget_remove(), " ..
              "because its user still holds it: the last put's auto cleanup would " ..
              "remove it only when the user lets go. A removed widget must leave sysfs " ..
              "at once: that is kobject_del()'s job, before the put.", DIR)
  expect.that(widgets_kset.refcount == kset_before, "after widget_remove(), the kset's " ..
              "refcount is %d, not %d: today's kobject_del() gives the parent and kset " ..
              "references back at once (2.6.0 kept them until the release)",
              widgets_kset.refcount, kset_before)
end)

check("widget_close() drops the last reference, and the widget is freed", function()
  expect.that(w1, "skipped: no w1")
  expect.that(w1.kobj.state ~= "released", "'w1' was released before its user let go: " ..
              "widget_remove() dropped the user's reference, so widget_close() now puts " ..
              "freed memory")
  drops("widget_close()", w1.kobj, 1, function()
    expect.call("widget_close()", widget_close, w1)
  end, "nobody: widget_remove() has run", "widget_open() took one reference; " ..
       "widget_close() gives back that one.")
  expect.released(w1.kobj, { prefix = "after widget_remove() and widget_close(), " })
  expect.that(w1.freed, "widget_release() did not run for 'w1'")
end)

check("widgets_exit() leaves nothing behind, and no put was one too many", function()
  expect.that(ready, "skipped: no /sys/kernel/widgets")
  expect.call("widgets_exit()", widgets_exit)
  expect.not_in_sysfs(DIR)
  expect.no_diagnostics()
  expect.no_leaks{ report = true }
end)
