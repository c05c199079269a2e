-- The vocabulary of lessons and their checks, loaded into a lesson's environment before
-- its scripts run. Checks read the event log, so they can say who took and who dropped
-- each reference, not only what a count ended at.

local results = {}

-- A failed expectation: raised by expect.*, caught by check().
local Failure = {}
Failure.__index = Failure

local function fail(fmt, ...)
  error(setmetatable({ message = string.format(fmt, ...) }, Failure), 0)
end

-- An object's name; a released object's handle no longer reads, so its record is asked.
local function name_of(obj)
  if type(obj) == "string" then return obj end
  local ok, name = pcall(function() return obj.name end)
  if ok then return name end
  local id_ok, id = pcall(function() return obj.id end)
  for _, o in ipairs(id_ok and objects() or {}) do
    if o.id == id then return o.name end
  end
  return tostring(obj)
end

-- check(description, fn): runs fn and records whether its expectations held.
function check(description, fn)
  local ok, err = pcall(fn)
  if ok then
    results[#results + 1] = { ok = true, description = description }
  elseif getmetatable(err) == Failure then
    results[#results + 1] = { ok = false, description = description, message = err.message }
  else
    results[#results + 1] = { ok = false, description = description,
                              message = "the check itself failed: " .. tostring(err) }
  end
end

-- accept_diagnostics(tag, ...): diagnostics of these kinds are part of what the lesson's
-- checks provoke on purpose (a duplicate name, an allocation made to fail, a get on a
-- released object). Any other diagnostic recorded during a check run fails the run.
local accepted = {}
function accept_diagnostics(...)
  for _, tag in ipairs{ ... } do accepted[tag] = true end
end

-- The last check of every run: the kernel said nothing that the lesson did not expect.
local function nothing_unexpected()
  local lines = {}
  for _, d in ipairs(diagnostics()) do
    if not accepted[d.tag] then
      lines[#lines + 1] = string.format("[%s] %s at %s:%d", d.tag, d.message:match("[^\n]*"),
                                        d.file or "?", d.line or 0)
    end
  end
  if #lines > 0 then
    fail("the kernel reported %d diagnostic(s) the lesson does not expect:\n%s",
         #lines, table.concat(lines, "\n"))
  end
end

-- The verdict: prints one line per check; returns passed, failed.
function lesson_results()
  check("the kernel reported nothing unexpected", nothing_unexpected)
  local passed, failed = 0, 0
  for _, r in ipairs(results) do
    if r.ok then
      passed = passed + 1
      print("  ok    " .. r.description)
    else
      failed = failed + 1
      print("  FAIL  " .. r.description)
      print("        " .. r.message:gsub("\n", "\n        "))
    end
  end
  return passed, failed
end

expect = {}

-- expect.that(ok, fmt, ...): fails the check with a message of the lesson's own.
function expect.that(ok, fmt, ...)
  if not ok then fail(fmt, ...) end
end

-- expect.fail(fmt, ...): fails the check with a message of the lesson's own, always.
function expect.fail(fmt, ...)
  fail(fmt, ...)
end

-- expect.call(what, fn, ...): runs the student's fn and returns what it returned. An
-- error it raises fails the check, naming @what: "probe() raised an error: ...".
function expect.call(what, fn, ...)
  local returned = table.pack(pcall(fn, ...))
  if not returned[1] then
    fail("%s raised an error: %s", what, tostring(returned[2]))
  end
  return table.unpack(returned, 2, returned.n)
end

-- held(obj): the references still outstanding on @obj (a kobject or module handle,
-- released or not, or a record from objects() or leaks()), oldest first, as records of
-- the ledger: {kind=, holder=, op=, file=, line=, func=, serial=, tracked=, text=}. As a
-- string (tostring, "%s") it is one line per reference, indented by two spaces; "" when
-- there are none.
local Held = {
  __tostring = function(refs)
    local lines = {}
    for i, ref in ipairs(refs) do lines[i] = "  " .. ref.text end
    return table.concat(lines, "\n")
  end,
}

function held(obj)
  return setmetatable(references(type(obj) == "table" and obj.id or obj), Held)
end

-- "\nstill held:" and the references still outstanding on @obj, or "" if there are none.
local function still_held(obj)
  local refs = held(obj)
  return #refs > 0 and "\nstill held:\n" .. tostring(refs) or ""
end

-- The options that expect.released, expect.drops and expect.takes take last:
--   prefix = "after remove(), "  goes in front of the failure message
--   held = true        drops, takes: the message ends with the references still held on
--                      the object, after "still held:" (expect.released always does)
--   by = "remove()"    drops, takes: the student's function that fn runs. The message
--                      starts with "remove(): " and ends as with held; an object already
--                      released when fn starts fails at once, fn not run (a released
--                      object counts no more gets or puts)
--   holder = "..."     drops: who holds the other references
-- annotated(obj, opts, body) runs body() as @opts say; a failure it raises (or any error)
-- gets the prefix and the still-held lines.
local function annotated(obj, opts, body)
  if not opts then return body() end
  local prefix = opts.by and opts.by .. ": " or opts.prefix
  if not (prefix or opts.held) then return body() end
  local ok, err = pcall(function()
    if opts.by and obj.state == "released" then
      fail("'%s' is already released", name_of(obj))
    end
    body()
  end)
  if ok then return end
  local message = getmetatable(err) == Failure and err.message or tostring(err)
  fail("%s%s%s", prefix or "", message, (opts.held or opts.by) and still_held(obj) or "")
end

-- advise(text, expectation, ...): runs an expect.* call; when it fails, the message
-- ends with @text, which says what to do about it.
function advise(text, expectation, ...)
  local ok, err = pcall(expectation, ...)
  if ok then return end
  if getmetatable(err) == Failure then err.message = err.message .. "\n" .. text end
  error(err, 0)
end

function expect.refcount(obj, n)
  local count = obj.refcount
  if count ~= n then
    fail("'%s' has refcount %d; expected %d", name_of(obj), count, n)
  end
end

-- expect.released(obj [, opts]): obj's count reached zero; if not, the message says who
-- still holds it.
function expect.released(obj, opts)
  if obj.state ~= "released" then
    fail("%s'%s' is not released (refcount %d)%s", opts and opts.prefix or "",
         name_of(obj), obj.refcount, still_held(obj))
  end
end

function expect.not_released(obj, why)
  if obj.state == "released" then
    fail("'%s' was released too early%s", name_of(obj), why and ": " .. why or "")
  end
end

function expect.state(obj, state)
  if obj.state ~= state then
    fail("'%s' is %s; expected %s", name_of(obj), obj.state, state)
  end
end

-- expect.no_leaks([opts]): every object released. With opts.report, the message is the
-- core's leak report (leak_report(): where each object was initialised, too).
function expect.no_leaks(opts)
  local list = leaks()
  if #list > 0 and opts and opts.report then
    fail("%s", (leak_report():gsub("\n+$", "")))
  elseif #list > 0 then
    local lines = {}
    for _, l in ipairs(list) do
      lines[#lines + 1] = string.format("'%s' refcount %d", l.name, l.refcount)
      for _, ref in ipairs(l.refs) do lines[#lines + 1] = "  " .. ref.text end
    end
    fail("%d object(s) not released:\n%s", #list, table.concat(lines, "\n"))
  end
end

local function find_diag(tag, object)
  for _, d in ipairs(diagnostics()) do
    if d.tag == tag and (object == nil or d.object == name_of(object)) then return d end
  end
end

function expect.diagnostic(tag, object)
  if not find_diag(tag, object) then
    fail("expected a '%s' diagnostic%s; there was none", tag,
         object and " for '" .. name_of(object) .. "'" or "")
  end
end

function expect.no_diagnostics(tag)
  for _, d in ipairs(diagnostics()) do
    if tag == nil or d.tag == tag then
      fail("%s at %s:%d\n%s", d.message, d.file or "?", d.line or 0, d.explanation)
    end
  end
end

-- expect.hotplug{action = "add", devpath = "/bus/foo", env = {KEY = "value"}}
function expect.hotplug(want)
  for _, ev in ipairs(hotplug_events()) do
    local match = (want.action == nil or ev.action == want.action)
      and (want.devpath == nil or ev.devpath == want.devpath)
    for k, v in pairs(want.env or {}) do
      match = match and ev.env[k] == v
    end
    if match then return ev end
  end
  local seen = {}
  for _, ev in ipairs(hotplug_events()) do seen[#seen + 1] = ev.action .. " " .. ev.devpath end
  fail("no hotplug event %s %s; events: %s", want.action or "", want.devpath or "",
       #seen > 0 and table.concat(seen, ", ") or "none")
end

local function trim(s) return (s:gsub("%s+$", ""):gsub("^%s+", "")) end

function expect.tree(path, want)
  local got = tree(path)
  if trim(got) ~= trim(want) then
    fail("the tree under %s is\n%s\nexpected\n%s", path, trim(got), trim(want))
  end
end

function expect.in_sysfs(path)
  local names, err = ls(path)
  if not names and not cat(path) then fail("%s does not exist (%s)", path, err) end
end

function expect.not_in_sysfs(path)
  if ls(path) or cat(path) then fail("%s still exists", path) end
end

-- The entries that list() gained while fn(...) ran, then what fn returned.
local function gained(list, fn, ...)
  local first = #list() + 1
  local results = table.pack(fn(...))
  local new, all = {}, list()
  for i = first, #all do new[#new + 1] = all[i] end
  return new, table.unpack(results, 1, results.n)
end

-- events_during(fn, ...): runs fn(...); returns the events it added to the log, oldest
-- first, then what fn returned.
function events_during(fn, ...)
  return gained(log, fn, ...)
end

-- references_during(obj, fn, ...): the references @obj gained and lost while fn(...) ran,
-- from the event log.
function references_during(obj, fn, ...)
  local taken, dropped = 0, 0
  for _, ev in ipairs((events_during(fn, ...))) do
    if ev.id == obj.id then
      if ev.kind == "get" or ev.kind == "init" then taken = taken + 1 end
      if ev.kind == "put" then dropped = dropped + 1 end
    end
  end
  return taken, dropped
end

-- diagnostics_during(fn, ...): runs fn(...); returns the diagnostics recorded meanwhile,
-- then what fn returned.
function diagnostics_during(fn, ...)
  return gained(diagnostics, fn, ...)
end

-- expect.drops(obj, n, fn [, holder | opts]): fn must drop exactly n references to obj.
-- @holder (or opts.holder) names who holds the others, for the message when fn drops
-- too many.
function expect.drops(obj, n, fn, holder)
  local opts = type(holder) == "table" and holder or { holder = holder }
  annotated(obj, opts, function()
    local taken, dropped = references_during(obj, fn)
    local net = dropped - taken
    if net > n then
      fail("it dropped %d reference(s) to '%s' but owns %d: the other %d belong to %s, " ..
           "which still relies on them", net, name_of(obj), n, net - n,
           opts.holder or "another holder")
    elseif net < n then
      fail("it dropped %d reference(s) to '%s'; it owns %d, so %d leak(s)", net,
           name_of(obj), n, n - net)
    end
  end)
end

-- expect.takes(obj, n, fn [, opts]): fn must leave obj with exactly n more references.
function expect.takes(obj, n, fn, opts)
  annotated(obj, opts, function()
    local taken, dropped = references_during(obj, fn)
    if taken - dropped ~= n then
      fail("it took %d reference(s) to '%s' and dropped %d; expected it to keep %d",
           taken, name_of(obj), dropped, n)
    end
  end)
end

-- threads_text(): what each simulated thread did, in the order it came, from the log (of
-- the run that explore(), replay() or run_threads() left): each call a thread made, then
-- its events, the steps it waited at, and modules going.
function threads_text()
  local lines = {}
  for _, ev in ipairs(log()) do
    local obj = ev.object and " '" .. ev.object .. "'" or ""
    if ev.thread and ev.kind == "sched" and ev.what == "call" then
      lines[#lines + 1] = string.format("  thread %d  %s()", ev.thread, ev.op)
    elseif ev.thread and ev.kind == "sched" and ev.what == "wait" then
      lines[#lines + 1] = string.format("  thread %d      waits for a lock", ev.thread)
    elseif ev.thread and ev.kind == "sched" and ev.what == "going" then
      lines[#lines + 1] = string.format("  thread %d      going%s", ev.thread, obj)
    elseif ev.thread and ev.kind ~= "sched" then
      lines[#lines + 1] = string.format("  thread %d      %s%s", ev.thread,
                                        ev.tag and "! " .. ev.tag or ev.kind, obj)
    end
  end
  return table.concat(lines, "\n")
end

-- expect.every_schedule(result, who): explore()'s @result found no failing schedule.
-- Otherwise the message names the schedule, what went wrong (without its traceback)
-- and what each thread did in that run, which explore() left as the world.
function expect.every_schedule(result, who)
  if result.ok then return end
  local failure = result.failure:gsub("\nstack traceback:.*", "")
  fail("under schedule %s %s go wrong:\n%s\nwhat the threads did in that run:\n%s",
       result.schedule, who, failure, threads_text())
end

-- Short names for what demos show.
function show_tree(path) print(tree(path)) end
function show_log(n) print(log_text(n)) end
function show_diagnostics() print(diag_text()) end
function show_leaks() print(leak_report()) end
function show_threads() print(threads_text()) end
function step(title) print("\n== " .. title) end
