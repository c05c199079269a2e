-- How predict() matches answers, run by the stock lua5.4 on lessons/lib/predict.lua:
--   lua5.4 tests/lessons/predict_match_test.lua lessons/lib/predict.lua
local printed = {}
local env = setmetatable({ EBUSY = 16, EEXIST = 17,
                           print = function(s) printed[#printed + 1] = s end },
                         { __index = _G })
assert(loadfile(arg[1], "t", env))()
local failed, passed = 0, 0

local function case(answer, truth, want)
  if env.prediction_matches(answer, truth) == want then
    passed = passed + 1
  else
    failed = failed + 1
    print(string.format("FAIL: %q for %q should %smatch", answer, tostring(truth),
                        want and "" or "not "))
  end
end

for _, c in ipairs{
  { "No", "no" }, { "  YES ", "yes" }, { "y", "yes" }, { "true", "yes" }, { "Yes", true },
  { "No.", false }, { "Released", "released" }, { "freed", "released" },
  { "gone", "released" }, { "IN SYSFS", "in sysfs" }, { "added", "in sysfs" },
  { "removed", "deleted" }, { "initialised", "initialized" }, { "pending", "release pending" },
  { "2", 2 }, { "two", 2 }, { " Three ", "3" }, { "none", 0 }, { "zero", "0" },
  { "-EBUSY", "-EBUSY" }, { "ebusy", "-EBUSY" }, { "-16", "-EBUSY" }, { "NULL", "nil" },
  { "usb, bus", "bus,usb" }, { "'mine2'", "mine2" }, { "`del`", "del" },
} do case(c[1], c[2], true) end

for _, c in ipairs{
  { "1", 2 }, { "no", "yes" }, { "deleted", "released" }, { "three", 2 },
  { "-EEXIST", "-EBUSY" }, { "16", "-EBUSY" }, { "usb", "bus,usb" }, { "mine1", "mine2" },
} do case(c[1], c[2], false) end

-- Every question needs its explanation; a few-word answer needs its choices listed.
local ok, err = pcall(env.predict, "How many?", function() return 1 end)
case(tostring(ok), "no", true)
case(tostring(err):match("needs an explanation") and "yes" or "no", "yes", true)
ok, err = pcall(env.predict, "Alive?", function() return "yes" end, "because")
case(tostring(err):match("list them in opts.choices") and "yes" or "no", "yes", true)
env.predict("State?", function() return "released" end, "because", { choices = "state" })
case(printed[#printed - 2]:match("%(one of: uninitialized, .*, released%)$") and "y" or "n",
     "yes", true)

print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
