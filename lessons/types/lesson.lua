---@meta lesson
-- Definitions of the lessons' vocabulary (lessons/lib/lesson.lua and predict.lua) for
-- lua-language-server (LuaCATS): the names that demos and checks use beside the
-- kernel's. This file is never run; tests/lua/types_test.sh checks it against the
-- vocabulary.

---The expectations a check makes; a failed one fails the check it runs in.
---@class lesson_expect
---@field that fun(ok: any, fmt: string, ...: any) fails with the lesson's own message
---@field fail fun(fmt: string, ...: any) fails, always
---@field call fun(what: string, fn: function, ...: any): ... runs the student's fn
---@field refcount fun(obj: kobject|kset|subsystem, n: integer)
---@field released fun(obj: kobject|kset|subsystem, opts?: lesson_expect_opts)
---@field not_released fun(obj: kobject|kset|subsystem, why?: string)
---@field state fun(obj: kobject|kset|subsystem, state: kobject_state)
---@field no_leaks fun(opts?: {report?: boolean})
---@field diagnostic fun(tag: string, object?: kobject|string)
---@field no_diagnostics fun(tag?: string)
---@field hotplug fun(want: {action?: string, devpath?: string, env?: table<string, string>}): kobj_hotplug_event
---@field tree fun(path: string, want: string)
---@field in_sysfs fun(path: string)
---@field not_in_sysfs fun(path: string)
---@field drops fun(obj: kobject|kset|subsystem, n: integer, fn: function, holder?: string|lesson_expect_opts)
---@field takes fun(obj: kobject|kset|subsystem, n: integer, fn: function, opts?: lesson_expect_opts)
---@field every_schedule fun(result: race_result, who: string) explore() found no failing schedule

---@class lesson_expect_opts
---@field prefix string|nil goes in front of the failure message
---@field held boolean|nil the message ends with the references still held
---@field by string|nil the student's function that fn runs, such as "remove()"
---@field holder string|nil who holds the other references

---@type lesson_expect
expect = {}

---Runs fn and records whether its expectations held.
---@param description string
---@param fn fun()
function check(description, fn) end

---Diagnostics of these kinds are what the checks provoke on purpose; any other one
---recorded during a check run fails it.
---@param ... string diagnostic tags, such as "duplicate-name"
function accept_diagnostics(...) end

---Prints one line per check, after a last one: nothing unexpected was reported.
---@return integer passed
---@return integer failed
function lesson_results() end

---Runs an expect.* call; when it fails, the message ends with @text.
---@param text string what to do about it
---@param expectation function
function advise(text, expectation, ...) end

---The references still outstanding on @obj, oldest first, as the ledger keeps them. As a
---string: one line each; "" when there are none.
---@param obj kobject|kset|subsystem|module|kobj_leak|kobj_record
---@return kobj_ref[]
function held(obj) end

---Runs fn(...); returns the events it added to the log, then what fn returned.
---@param fn function
---@return kobj_event[]
---@return ...
function events_during(fn, ...) end

---The references @obj gained and lost while fn(...) ran.
---@param obj kobject|kset|subsystem
---@param fn function
---@return integer taken
---@return integer dropped
function references_during(obj, fn, ...) end

---Runs fn(...); returns the diagnostics recorded meanwhile, then what fn returned.
---@param fn function
---@return kobj_diagnostic[]
---@return ...
function diagnostics_during(fn, ...) end

---The student answers before the truth is shown; the explanation follows every answer.
---@param question string
---@param truth fun(): any its value is the right answer
---@param explanation string
---@param opts? {choices: string[]|"state"|"yes/no"}
---@return any # the truth
function predict(question, truth, explanation, opts) end

---@return integer right
---@return integer asked
function prediction_score() end

---Whether @answer means @truth: case, space, synonyms and number words aside.
---@param answer string
---@param truth any
---@return boolean
function prediction_matches(answer, truth) end

---@param path? string
function show_tree(path) end
---@param n? integer
function show_log(n) end
function show_diagnostics() end
function show_leaks() end
---What each simulated thread did, from the log: its calls, events and waits.
---@return string
function threads_text() end
function show_threads() end
---A heading for the next step of a demo.
---@param title string
function step(title) end
