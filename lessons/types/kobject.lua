---@meta kobject
-- Definitions of the kobject sandbox's globals and handles for lua-language-server
-- (LuaCATS). kobj writes a .luarc.json into your work folder that points here, so an
-- editor opened on your exercises completes and checks these names. This file is never
-- run; tests/lua/types_test.sh checks it against the bindings.

-- =============================================================================== types

---@alias kobject_state "uninitialized"|"initialized"|"in sysfs"|"deleted"|"release pending"|"released"
---@alias errno integer a negative error code such as -EINVAL, or 0
---@alias kobject_action integer|"add"|"remove"|"change"|"move"|"online"|"offline"|"bind"|"unbind"

---A kobject. A handle holds no reference: the refcount is exactly what the code did.
---Once the object is released every handle to it is stale, and using it raises.
---@class kobject
---@field name string the name, as kobject_set_name() made it ("" before)
---@field refcount integer the count of references
---@field parent kobject|nil the parent in sysfs (assignable before the add)
---@field kset kset|nil the kset it belongs to (assignable before the add)
---@field ktype kobj_type|nil its own ktype (a kset's ktype wins: get_ktype())
---@field state kobject_state
---@field path string|nil its sysfs path ("/sys/bus/eth0") while in sysfs
---@field id integer the world's number for it, stable for its life
---@field init fun(self: kobject, ktype?: kobj_type) kobject_init(self)
---@field set_name fun(self: kobject, fmt: string, ...: any): errno kobject_set_name(self, ...)
---@field get fun(self: kobject): kobject|nil kobject_get(self)
---@field put fun(self: kobject) kobject_put(self)
---@field add fun(self: kobject, parent?: kobject, fmt?: string, ...: any): errno kobject_add(self)
---@field del fun(self: kobject) kobject_del(self)
---@field register fun(self: kobject): errno kobject_register(self)
---@field unregister fun(self: kobject) kobject_unregister(self)

---A kset: a kobject (its kobj) that keeps a list of members.
---@class kset
---@field name string
---@field refcount integer the count of its kobject
---@field state kobject_state
---@field path string|nil
---@field id integer
---@field kobj kobject the embedded kobject
---@field ktype kobj_type|nil the ktype of its members
---@field subsys subsystem|nil the subsystem whose lock guards its list
---@field hotplug_ops hotplug_ops|nil the article's hotplug operations
---@field uevent_ops uevent_ops|nil today's
---@field list kobject[] its members, in order
---@field init fun(self: kset) kset_init(self)
---@field add fun(self: kset): errno kset_add(self)
---@field register fun(self: kset): errno kset_register(self)
---@field unregister fun(self: kset) kset_unregister(self)
---@field get fun(self: kset): kset|nil kset_get(self)
---@field put fun(self: kset) kset_put(self)
---@field find_obj fun(self: kset, name: string): kobject|nil kset_find_obj(self, name)
---@field set_name fun(self: kset, name: string)

---A subsystem (2.6.0): a kset and the rwsem that guards the lists of its ksets.
---@class subsystem
---@field name string
---@field refcount integer
---@field state kobject_state
---@field path string|nil
---@field id integer
---@field kset kset its kset
---@field ktype kobj_type|nil
---@field hotplug_ops hotplug_ops|nil
---@field uevent_ops uevent_ops|nil
---@field init fun(self: subsystem) subsystem_init(self)
---@field register fun(self: subsystem): errno subsystem_register(self)
---@field unregister fun(self: subsystem) subsystem_unregister(self)
---@field get fun(self: subsystem): subsystem|nil subsys_get(self)
---@field put fun(self: subsystem) subsys_put(self)
---@field set_name fun(self: subsystem, name: string)

---A struct kobj_type: the release method and the sysfs operations of its objects.
---@class kobj_type
---@field name string|nil shown in trees and pictures
---@field release fun(kobj: kobject)|nil runs when the count reaches zero
---@field sysfs_ops sysfs_ops|kobj_sysfs_ops|nil
---@field default_attrs (string|{name: string, mode: string|integer}|kobj_attribute)[]|nil the article's
---@field default_groups attribute_group[]|nil today's

---@class sysfs_ops
---@field show fun(kobj: kobject, attr: {name: string}): string|nil
---@field store fun(kobj: kobject, attr: {name: string}, value: string): integer|nil

---@class kobj_sysfs_ops: userdata each file's kobj_attribute answers

---A simulated module, for try_module_get() and module_put().
---@class module
---@field name string
---@field refcount integer its users
---@field state "live"|"unloaded"
---@field id integer
---@field get fun(self: module): boolean try_module_get(self)
---@field put fun(self: module) module_put(self)
---@field unload fun(self: module): errno module_unload(self)

---A struct kobj_attribute: a sysfs file with its own show and store.
---@class kobj_attribute
---@field name string
---@field mode string|integer "0644" (Lua has no octal literals)
---@field show (fun(kobj: kobject, attr: kobj_attribute): string)|nil
---@field store (fun(kobj: kobject, attr: kobj_attribute, value: string): integer)|nil

---A struct attribute_group.
---@class attribute_group
---@field name string|nil a subdirectory for its files
---@field attrs kobj_attribute[]|nil
---@field is_visible (fun(kobj: kobject, attr: kobj_attribute, i: integer): integer|boolean|nil)|nil

---A struct kref: a bare reference count (refcount_t inside).
---@class kref
---@field refcount integer
---@field init fun(self: kref) kref_init(self)
---@field read fun(self: kref): integer kref_read(self)
---@field get fun(self: kref) kref_get(self)
---@field put fun(self: kref, release: fun(kref: kref)): integer kref_put(self, release)
---@field get_unless_zero fun(self: kref): boolean kref_get_unless_zero(self)

---A refcount_t: a count that saturates instead of wrapping or going below 0.
---@class refcount_t
---@field refs integer the count, as refcount_read() gives it

---The environment of a uevent, while a uevent() callback runs.
---@class kobj_uevent_env
---@field add fun(self: kobj_uevent_env, fmt: string, ...: any): errno add_uevent_var

---The article's hotplug operations of a kset.
---@class hotplug_ops
---@field filter (fun(kset: kset, kobj: kobject): boolean)|nil
---@field name (fun(kset: kset, kobj: kobject): string)|nil
---@field hotplug (fun(kset: kset, kobj: kobject, env: table): integer)|nil

---Today's uevent operations of a kset.
---@class uevent_ops
---@field filter (fun(kobj: kobject): boolean)|nil
---@field name (fun(kobj: kobject): string)|nil
---@field uevent (fun(kobj: kobject, env: kobj_uevent_env): integer)|nil

---A lock of a program's own (new_spinlock); a kset's list_lock is taken through the kset.
---@class spinlock_t: userdata

---A reader/writer semaphore of a program's own (new_rwsem); a subsystem's through it.
---@class rw_semaphore: userdata

---What explore() found.
---@class race_result
---@field ok boolean no schedule failed
---@field schedule string|nil the first failing schedule: the thread of each step ("1112")
---@field failure string|nil what went wrong in it: a diagnostic, a thread's error, a check
---@field schedules integer the schedules run
---@field naive integer|number the interleavings of the first run's steps: what running every order would take
---@field failing integer the schedules that failed (all of them with all = true)
---@field complete boolean every schedule the options allow was run, or a failure found
---@field failures string[]|nil with all = true: every distinct failure

---What one run of threads did (replay, run_threads).
---@class race_run
---@field ok boolean
---@field schedule string the run's schedule, shortest form
---@field failure string|nil the first failure
---@field steps integer steps taken by all threads
---@field deadlock boolean threads waited for each other (their waits failed)
---@field error string|nil a step of the schedule named a thread that could not run

---explore{} as a table: the threads as a list, and options.
---@class race_program
---@field setup (fun(): ...)|nil makes the objects of one run, in a fresh world; its results are each thread's arguments
---@field teardown fun(...)|nil after the threads, before the checks
---@field check (fun(...): any)|nil false or nil (or a message) fails the run
---@field reduce boolean|nil partial-order reduction (default true); false: every interleaving
---@field preemptions integer|nil at most this many preemptions per schedule
---@field max_schedules integer|nil stop after this many schedules (default 100000)
---@field all boolean|nil go on after a failure, collecting every distinct one
---@field leaks boolean|nil objects left at the end fail the run (default true)
---@field allow string[]|nil diagnostic tags that are no failure ("module-in-use")
---@field [integer] fun(...)

---@class kobj_event one line of the event log
---@field seq integer
---@field kind string "init", "get", "put", "add", "del", "release", "hotplug", "diag", ...
---@field op string the call, such as "kobject_get"
---@field step string|nil the kernel function inside it that did this, such as "kobject_del"
---@field object string|nil
---@field id integer|nil
---@field ref integer|nil get, put, init: the reference's serial number
---@field ref_kind string|nil "creator", "sysfs", "parent of", "kset of", "get", "lookup", ...
---@field holder string|nil the object that holds the reference (nil: a caller)
---@field holder_id integer|nil
---@field chosen boolean|nil put: no reference was named, the sandbox chose this one
---@field thread integer|nil the simulated thread
---@field before integer the count before
---@field after integer the count after
---@field file string|nil
---@field line integer|nil
---@field tag string|nil a diagnostic's tag
---@field action string|nil a hotplug event's action
---@field devpath string|nil
---@field what string|nil a scheduling point's next step: "call", "lookup", "unlock", "decrement", "unlink", "wait", "going"

---@class kobj_diagnostic
---@field tag string such as "double-put", "leak", "no-release"
---@field message string the kernel's words
---@field explanation string what went wrong, in plain words
---@field object string|nil
---@field id integer|nil
---@field file string|nil
---@field line integer|nil
---@field seq integer

---@class kobj_ref one reference outstanding, as the ledger keeps it
---@field serial integer its number, never reused
---@field kind string "creator", "sysfs", "parent of", "kset of", "get", "lookup", ...
---@field op string the call that took it
---@field file string|nil where
---@field line integer|nil
---@field func string|nil the function that called it
---@field holder string|nil the object that holds it (nil: a caller)
---@field holder_id integer|nil
---@field tracked boolean|nil carried by a reference handle
---@field text string

---@class kobj_leak
---@field name string
---@field id integer
---@field kind string
---@field refcount integer
---@field file string|nil where it was initialised
---@field line integer|nil
---@field registered boolean still in sysfs
---@field root string|nil the leaked object whose callers keep this one alive
---@field root_id integer|nil
---@field refs kobj_ref[] the references never dropped, oldest first

---@class kobj_hotplug_event
---@field seqnum integer
---@field action string
---@field devpath string
---@field subsystem string|nil
---@field env table<string, string>
---@field envp string[]
---@field object string|nil
---@field id integer|nil
---@field file string|nil
---@field line integer|nil

---@class kobj_record
---@field id integer
---@field kind string
---@field name string
---@field refcount integer
---@field state kobject_state
---@field parent integer|nil
---@field kset integer|nil
---@field file string|nil
---@field line integer|nil
---@field release_file string|nil
---@field release_line integer|nil
---@field no_release boolean|nil

-- =========================================================================== constants

EACCES = 13
EAGAIN = 11
EBUSY = 16
EDEADLK = 35
EEXIST = 17
EFAULT = 14
EFBIG = 27
EINVAL = 22
EIO = 5
EISDIR = 21
ENODEV = 19
ENOENT = 2
ENOMEM = 12
ENOTDIR = 20
ENXIO = 6
EPERM = 1
ERANGE = 34
---Ticks per second of the virtual clock.
HZ = 100
---The largest count a refcount_t holds before it saturates.
REFCOUNT_MAX = 2147483647
---What refcount_read() and kref_read() give once the count saturated.
REFCOUNT_SATURATED = 3221225472
KOBJ_ADD = 0
KOBJ_REMOVE = 1
KOBJ_CHANGE = 2
KOBJ_MOVE = 3
KOBJ_ONLINE = 4
KOBJ_OFFLINE = 5
KOBJ_BIND = 6
KOBJ_UNBIND = 7
---The struct of that name: each file's kobj_attribute shows and stores.
---@type kobj_sysfs_ops
kobj_sysfs_ops = nil

-- ====================================================================== constructors

---A new kobject in zeroed memory, not initialised (kzalloc).
---@param container? table the structure that embeds it: container[member] = the kobject
---@param member? string default "kobj"
---@return kobject
function new_kobject(container, member) end

---@param def? {name?: string, release?: fun(kobj: kobject), sysfs_ops?: sysfs_ops|kobj_sysfs_ops, default_attrs?: table, default_groups?: attribute_group[]}
---@return kobj_type
function new_ktype(def) end

---A new kset in zeroed memory, not initialised.
---@param opts? string|{name?: string, ktype?: kobj_type, subsys?: subsystem, hotplug_ops?: hotplug_ops, uevent_ops?: uevent_ops, parent?: kobject, container?: table, member?: string}
---@return kset
function new_kset(opts) end

---A subsystem as the C macro declares it, not yet registered.
---@param name string
---@param ktype? kobj_type
---@param hotplug_ops? hotplug_ops
---@return subsystem
function decl_subsys(name, ktype, hotplug_ops) end

---@param def {name: string, mode?: string|integer, show?: fun(kobj: kobject, attr: kobj_attribute): string, store?: fun(kobj: kobject, attr: kobj_attribute, value: string): integer}
---@return kobj_attribute
function new_kobj_attribute(def) end

---@param def {name?: string, attrs?: kobj_attribute[], is_visible?: fun(kobj: kobject, attr: kobj_attribute, i: integer): integer|boolean|nil}
---@return attribute_group
function new_attribute_group(def) end

---A kref in zeroed memory (count 0).
---@param container? table
---@param member? string default "kref"
---@return kref
function new_kref(container, member) end

---A live module with no users.
---@param name string
---@param exit? fun(mod: module) run by module_unload() while the module is going
---@return module|nil
---@return string? reason
---@return errno? err
function module_load(name, exit) end

-- =================================================================== kobject calls

---The article's init (count 1), or today's with a ktype (chosen by the arguments).
---@param kobj kobject
---@param ktype? kobj_type
function kobject_init(kobj, ktype) end

---@param kobj kobject
---@param fmt string formatted as string.format does
---@return errno # -ENOMEM under fail_alloc
function kobject_set_name(kobj, fmt, ...) end

---@param kobj kobject
---@return string
function kobject_name(kobj) end

---kobj with its count raised, or nil when the count already reached zero.
---@param kobj kobject|nil
---@return kobject|nil
function kobject_get(kobj) end

---@param kobj kobject|nil
function kobject_put(kobj) end

---The article's add (name and parent set before), or today's (parent, fmt, ...).
---@param kobj kobject
---@param parent? kobject
---@param fmt? string
---@return errno
function kobject_add(kobj, parent, fmt, ...) end

---@param kobj kobject
function kobject_del(kobj) end

---kobject_init() and kobject_add().
---@param kobj kobject
---@return errno
function kobject_register(kobj) end

---kobject_del() and kobject_put().
---@param kobj kobject
function kobject_unregister(kobj) end

---@param kobj kobject
---@return integer
function kobject_refcount(kobj) end

---The kset's ktype if it has one, else the object's own.
---@param kobj kobject
---@return kobj_type|nil
function get_ktype(kobj) end

---The table that embeds a kobject (or a kset, or a kref).
---@param ptr kobject|kset|kref
---@param type? any
---@param member? string checks that it is embedded under that name
---@return table|kset|subsystem|nil
function container_of(ptr, type, member) end

---The kset whose embedded kobject this is.
---@param kobj kobject|nil
---@return kset|nil
function to_kset(kobj) end

---Today's init then today's add; the caller puts the object even on failure.
---@param kobj kobject
---@param ktype kobj_type|nil
---@param parent kobject|fun(): kobject|nil
---@param fmt string
---@return errno
function kobject_init_and_add(kobj, ktype, parent, fmt, ...) end

---A kobject in the kernel's memory (dynamic_kobj_ktype); kobject_put() frees it.
---@param name string
---@param parent kobject|fun(): kobject|nil
---@return kobject|nil
---@return string? why
function kobject_create_and_add(name, parent) end

---@param name string
---@param uevent_ops? uevent_ops
---@param parent? kobject|fun(): kobject
---@return kset|nil
---@return string? why
function kset_create_and_add(name, uevent_ops, parent) end

---kobj with its count raised, or nil (no warning) at zero.
---@param kobj kobject
---@return kobject|nil
function kobject_get_unless_zero(kobj) end

---"/a/b/c" from the names up the parents, as DEVPATH.
---@param kobj kobject
---@return string|nil
function kobject_get_path(kobj) end

---@param kobj kobject
---@param new_name string
---@return errno
function kobject_rename(kobj, new_name) end

---@param kobj kobject
---@param new_parent kobject|nil
---@return errno
function kobject_move(kobj, new_parent) end

---/sys/kernel of the current world; call it each time rather than keeping its value.
---@return kobject
function kernel_kobj() end

-- ====================================================================== kset calls

---@param kset kset
function kset_init(kset) end
---@param kset kset
---@return errno
function kset_add(kset) end
---@param kset kset
---@return errno
function kset_register(kset) end
---@param kset kset
function kset_unregister(kset) end
---@param kset kset|nil
---@return kset|nil
function kset_get(kset) end
---@param kset kset|nil
function kset_put(kset) end

---The member named @name; no reference for the article's ksets, one for today's.
---@param kset kset
---@param name string
---@return kobject|nil
function kset_find_obj(kset, name) end

---@param s subsystem
function subsystem_init(s) end
---@param s subsystem
---@return errno
function subsystem_register(s) end
---@param s subsystem
function subsystem_unregister(s) end
---@param s subsystem|nil
---@return subsystem|nil
function subsys_get(s) end
---@param s subsystem|nil
function subsys_put(s) end

-- ========================================================================== modules

---@param m module
---@return errno # -EBUSY while it has users
function module_unload(m) end
---@param m module|nil
---@return boolean # true if m is nil or live (its count raised)
function try_module_get(m) end
---@param m module|nil
function module_put(m) end
---@param m module
---@return integer
function module_refcount(m) end

-- ============================================================================= krefs

---@param kref kref
function kref_init(kref) end
---@param kref kref
---@return integer # 3221225472 once saturated
function kref_read(kref) end
---@param kref kref
function kref_get(kref) end
---@param kref kref
---@param release fun(kref: kref)
---@return integer # 1 if release was called, else 0
function kref_put(kref, release) end
---@param kref kref
---@return boolean
function kref_get_unless_zero(kref) end

-- ======================================================================== refcount_t

---A refcount_t set to n.
---@param n? integer default 0
---@return refcount_t
function REFCOUNT_INIT(n) end
---@param r refcount_t
---@param n integer
function refcount_set(r, n) end
---@param r refcount_t
---@return integer # 3221225472 once saturated
function refcount_read(r) end
---From 0 it warns "addition on 0" and saturates.
---@param r refcount_t
function refcount_inc(r) end
---@param i integer
---@param r refcount_t
function refcount_add(i, r) end
---@param r refcount_t
---@return boolean # false (quietly) at 0
function refcount_inc_not_zero(r) end
---@param i integer
---@param r refcount_t
---@return boolean
function refcount_add_not_zero(i, r) end
---@param r refcount_t
---@return boolean # true when it reached 0: the caller frees
function refcount_dec_and_test(r) end
---@param i integer
---@param r refcount_t
---@return boolean
function refcount_sub_and_test(i, r) end
---A decrement that must not reach 0 ("decrement hit 0; leaking memory.").
---@param r refcount_t
function refcount_dec(r) end
---@param r refcount_t
---@return boolean # true if it went from 1 to 0
function refcount_dec_if_one(r) end
---@param r refcount_t
---@return boolean # false only for a count of 1
function refcount_dec_not_one(r) end

-- ================================================================ parsing and emitting

---The integer in s, as a store() parses: an optional sign, digits, one newline at most.
---@param s string
---@param base? integer default 10; 0 reads a 0x or 0 prefix
---@return integer|nil
---@return string? error
---@return errno? err -EINVAL or -ERANGE
function kstrtoint(s, base) end
---true for "1", "y", "t", "on" (any case), false for "0", "n", "f", "off".
---@param s string
---@return boolean|nil
---@return string? error
---@return errno? err -EINVAL
function kstrtobool(s) end
---The text a show() returns: string.format's, cut to PAGE_SIZE - 1 bytes.
---@param fmt string
---@param ... any
---@return string
function sysfs_emit(fmt, ...) end

-- ============================================================================= sysfs

---The names in a sysfs directory, sorted.
---@param path? string default "/sys"
---@return string[]|nil
---@return string? error
---@return errno? err
function ls(path) end

---An attribute's text, through its sysfs_ops.show.
---@param path string
---@return string|nil
---@return string? error
---@return errno? err
function cat(path) end

---A write to an attribute, through its sysfs_ops.store.
---@param path string
---@param value string
---@return integer|nil # what store() returned
---@return string? error
---@return errno? err
function echo(path, value) end

---@class tree_options
---@field path string? the subtree (in place of the first argument)
---@field depth integer? levels shown below it, as tree -L (0: all)
---@field filelimit integer? a directory with more entries is folded, as tree --filelimit
---@field held boolean? objects deleted from sysfs but still held (default true)

---The subtree with refcounts, as `tree` prints it.
---@param path? string|tree_options
---@param options? tree_options
---@return string
function tree(path, options) end

---@class dot_options
---@field path string? the subtree to draw
---@field file string? a .svg/.png/.pdf/.dot file to write instead of returning the text
---@field at_exit boolean? the leak picture: what the run left, as the leak report says
---@field fold integer? members a kset shows before the rest fold into one box (0: never)
---@field legend boolean? default true

---The world as graphviz DOT text, or a picture written to a .svg/.png/.pdf/.dot file.
---@param path? string|dot_options
---@param file_or_at_exit? string|boolean|dot_options
---@param options? dot_options
---@return string|true|nil
---@return string? error
function dot(path, file_or_at_exit, options) end

---@param kobj kobject
---@param attr kobj_attribute
---@return errno
function sysfs_create_file(kobj, attr) end
---@param kobj kobject
---@param attr kobj_attribute
function sysfs_remove_file(kobj, attr) end
---@param kobj kobject
---@param group attribute_group
---@return errno
function sysfs_create_group(kobj, group) end
---@param kobj kobject
---@param group attribute_group
function sysfs_remove_group(kobj, group) end
---@param kobj kobject
---@param groups attribute_group[]|nil
---@return errno
function sysfs_create_groups(kobj, groups) end
---@param kobj kobject
---@param groups attribute_group[]|nil
function sysfs_remove_groups(kobj, groups) end
---@param kobj kobject|nil nil: /sys
---@param target kobject
---@param name string
---@return errno
function sysfs_create_link(kobj, target, name) end
---@param kobj kobject|nil
---@param name string
function sysfs_remove_link(kobj, name) end

---Where the link at @path points, as it was made.
---@param path string
---@return string|nil
---@return string? error
---@return errno? err
function readlink(path) end

-- =========================================================================== uevents

---@param kobj kobject
---@param action kobject_action
---@return errno
function kobject_uevent(kobj, action) end

---@param kobj kobject
---@param action kobject_action
---@param envp? string[] "KEY=value" strings
---@return errno
function kobject_uevent_env(kobj, action, envp) end

-- =========================================================================== queries

---The last @n events of the log (all without @n), oldest first.
---@param n? integer
---@return kobj_event[]
function log(n) end

---@return kobj_diagnostic[]
function diagnostics() end

---The objects not released, with the references still outstanding.
---@return kobj_leak[]
function leaks() end

---@return kobj_hotplug_event[]
function hotplug_events() end

---Every object the world has a record of, in order of initialisation.
---@return kobj_record[]
function objects() end

---The references outstanding on an object (a handle or a record id), oldest first.
---@param obj kobject|kset|subsystem|module|integer
---@return kobj_ref[]
function references(obj) end

---The nth simulated kernel allocation from now fails (0: none).
---@param n integer
function fail_alloc(n) end

---@return string
function leak_report() end
---@param n? integer
---@return string
function log_text(n) end
---@return string
function diag_text() end
---@return string
function hotplug_text() end

---A fresh world: every existing handle goes stale.
function reset() end

-- ======================================================================= debug modes

---CONFIG_DEBUG_KOBJECT on or off; without an argument, only asks.
---@param on? boolean
---@return boolean # the state before
function debug_kobject(on) end

---CONFIG_DEBUG_KOBJECT_RELEASE on or off: the last put only queues the release.
---@param on? boolean
---@param ticks? integer
---@return boolean # the state before
function debug_kobject_release(on, ticks) end

---Moves the virtual clock on and runs the delayed releases that fall due.
---@param ticks integer
---@return integer # how many releases ran
function advance(ticks) end

---The same as advance().
---@param ticks integer
---@return integer
function jiffies_advance(ticks) end

---@return integer # ticks since the world was made
function jiffies() end

---@return integer # delayed releases not yet run
function pending_releases() end

---@param n? integer
---@return {text: string, level: string, tick: integer, object: string|nil, id: integer|nil, file: string|nil, line: integer|nil, seq: integer}[]
function kernel_log(n) end

---@param n? integer
---@return string
function dmesg(n) end

---@param fmt string
function pr_err(fmt, ...) end
---@param fmt string
function pr_warn(fmt, ...) end
---@param fmt string
function pr_info(fmt, ...) end
---@param fmt string
function pr_debug(fmt, ...) end

-- ========================================================================== threads

---Queues a simulated kernel thread that runs fn(...); run_threads() runs them.
---@param fn fun(...)
---@return integer # its number: 1, 2, ...
function spawn(fn, ...) end

---Runs the spawned threads to their end in the current world, switching only at
---scheduling points: by the rule (each thread on until it finishes or waits, then the
---lowest that can run), or as @schedule says (the thread of each step, "1121").
---@param schedule? string
---@return race_run
function run_threads(schedule) end

---Runs the threads under every schedule that matters, each run in a fresh world.
---@param setup race_program|fun(): ...
---@param ... fun(...) the threads
---@return race_result
function explore(setup, ...) end

---One run under @schedule, in a fresh world that stays: the last explore()'s threads,
---or those given.
---@param schedule string
---@param setup? fun(): ...
---@param ... fun(...)
---@return race_run
function replay(schedule, setup, ...) end

---@return integer # the simulated thread running this code (0: the main program)
function current_thread() end

---@param lock kset|spinlock_t a kset's list_lock, or a lock of your own
function spin_lock(lock) end
---@param lock kset|spinlock_t
function spin_unlock(lock) end
---@param sem subsystem|rw_semaphore a subsystem's rwsem, or one of your own
---@return errno # 0, or -EDEADLK
function down_read(sem) end
---@param sem subsystem|rw_semaphore
---@return errno
function down_write(sem) end
---@param sem subsystem|rw_semaphore
function up_read(sem) end
---@param sem subsystem|rw_semaphore
function up_write(sem) end
---Whether the running thread holds the lock (lockdep_is_held in C).
---@param lock kset|spinlock_t|subsystem|rw_semaphore
---@return boolean
function lockdep_is_held(lock) end
---@return spinlock_t
function new_spinlock() end
---@return rw_semaphore
function new_rwsem() end
