-- Checks for lesson 14: the module makes /sys/kernel/kobject_example with three files,
-- each file keeps its own integer, a write of anything but an integer fails with the
-- errno that kstrtoint() gives and leaves the value alone, and module exit leaves
-- nothing behind. Writes go through echo(), as a shell's would.

local DIR = "/sys/kernel/kobject_example"

-- shown(text): @text quoted, with a newline as \n.
local function shown(text)
  return (string.format("%q", text):gsub("\\\n", "\\n"))
end

-- write(name, text): echo text > DIR/name; returns what echo() returned.
local function write(name, text)
  return echo(DIR .. "/" .. name, text)
end

-- read(name): the file's text, or fails the check with cat()'s error.
local function read(name)
  local text, err = cat(DIR .. "/" .. name)
  expect.that(text, "cat %s/%s failed: %s", DIR, name, tostring(err))
  return text
end

local loaded = false

check("example_init() makes /sys/kernel/kobject_example with foo, baz and bar", function()
  local err = expect.call("example_init()", example_init)
  expect.that(err == 0, "example_init() returned %s", tostring(err))
  expect.that(example_kobj ~= nil, "example_init() left example_kobj nil")
  loaded = true
  local names = ls(DIR)
  expect.that(names, "%s does not exist", DIR)
  expect.that(table.concat(names, " ") == "bar baz foo",
              "%s holds %s; expected bar baz foo", DIR, table.concat(names, " "))
  advise("kobject_create_and_add() gives its caller the only reference: today's add " ..
         "takes none of its own.", expect.refcount, example_kobj, 1)
end)

check("each file starts at 0", function()
  expect.that(loaded, "skipped: the module is not loaded")
  for _, name in ipairs{ "foo", "baz", "bar" } do
    local text = read(name)
    expect.that(text == "0\n", "cat %s gave %s; expected \"0\\n\"", name, shown(text))
  end
end)

check("writing an integer changes that file, and only that one", function()
  expect.that(loaded, "skipped: the module is not loaded")
  local n, err = write("foo", "42")
  expect.that(n == 2, "echo -n 42 > foo returned %s (%s); expected 2, the bytes written",
              tostring(n), tostring(err))
  expect.that(read("foo") == "42\n", "after writing 42, foo reads %s", shown(read("foo")))
  n, err = write("baz", "-7\n")
  expect.that(n == 3, "echo -7 > baz returned %s (%s); expected 3", tostring(n),
              tostring(err))
  expect.that(read("baz") == "-7\n", "after writing -7, baz reads %s", shown(read("baz")))
  expect.that(read("bar") == "0\n", "bar changed to %s, yet nobody wrote to it",
              shown(read("bar")))
  expect.that(read("foo") == "42\n", "foo changed to %s when baz was written",
              shown(read("foo")))
end)

-- Each text that kstrtoint(buf, 10, &n) refuses, the errno it returns, and why.
local JUNK = {
  { "abc", "EINVAL", "it is no number at all" },
  { "12abc", "EINVAL", "only a newline may follow the digits" },
  { "4.5", "EINVAL", "an int has no fraction" },
  { "0x10", "EINVAL", "base 10 takes no 0x prefix" },
  { "99999999999", "ERANGE", "it does not fit in an int" },
}

for _, case in ipairs(JUNK) do
  local text, name, why = case[1], case[2], case[3]
  local errno = -_ENV[name]
  check(string.format("echo %s > foo fails with -%s and leaves foo alone", text, name),
        function()
    expect.that(loaded, "skipped: the module is not loaded")
    local before = read("foo")
    local n, msg, code = write("foo", text)
    expect.that(n == nil, "echo %s > foo returned %s, a success: the writer believes " ..
                "foo is now %s, and foo reads %s. kstrtoint() refuses %s (%s), and " ..
                "store() must return its error, which the writer gets back from write()",
                text, tostring(n), text, shown(read("foo")), shown(text), why)
    expect.that(code == errno, "echo %s > foo failed with %s (%s); kstrtoint() gives " ..
                "-%s (%d) here: %s", text, tostring(code), tostring(msg), name, errno, why)
    expect.that(read("foo") == before, "the failed write changed foo from %s to %s",
                shown(before), shown(read("foo")))
  end)
end

check("example_exit() drops the module's one reference, and nothing is left", function()
  expect.that(loaded, "skipped: the module is not loaded")
  expect.drops(example_kobj, 1, function()
    expect.call("example_exit()", example_exit)
  end, { by = "example_exit()" })
  expect.not_in_sysfs(DIR)
  expect.no_diagnostics()
  expect.no_leaks{ report = true }
end)
