-- Compares the kernel's fields of each module run with the sandbox's.
--
-- lua5.4 compare.lua RUNFILES DIR DIFFERENCES.tsv NAME...
--     every field of every module; a line on one side only is a mismatch unless a row
--     of DIFFERENCES.tsv allows it. Prints each module's verdict, the lines that differ
--     field by field, and the totals. Exits 1 when a difference is not in the table.
-- lua5.4 compare.lua --side RUNFILES DIR NAME
--     for a person: the kernel's dmesg beside the sandbox's, then the sandbox's
--     explanations and leak report, then which other fields differ.
--
-- DIFFERENCES.tsv: "MODULES<TAB>FIELD<TAB>SIDE<TAB>LINE<TAB>REASON" rows; MODULES is a
-- name with * wildcards, SIDE is kernel or sandbox (where the line appears alone), LINE
-- a Lua pattern for the whole line; "repeat:" before it allows the line only where it
-- also appears earlier on that side (a second warning of the same kind). Lines starting
-- with # are comments.

local side_mode = arg[1] == "--side"
local base = side_mode and 2 or 1
local runfiles, dir = arg[base], arg[base + 1]
package.path = runfiles .. "/kobject_sandbox/tools/realkernel/?.lua;" .. package.path
local fields = require("fields")

local function slurp(path)
  local f = io.open(path)
  if not f then
    io.stderr:write("realkernel: cannot read ", path, "\n")
    os.exit(2)
  end
  local s = f:read("a")
  f:close()
  return s
end

-- The lines only in @a and only in @b, in order, after the longest common subsequence;
-- and the aligned rows { a, b } (nil on the side that lacks the line).
local function diff(a, b)
  local n, m, L = #a, #b, {}
  for i = n + 1, 1, -1 do
    L[i] = {}
    for j = m + 1, 1, -1 do
      if i > n or j > m then L[i][j] = 0
      elseif a[i] == b[j] then L[i][j] = L[i + 1][j + 1] + 1
      else L[i][j] = math.max(L[i + 1][j], L[i][j + 1]) end
    end
  end
  local only_a, only_b, rows, i, j = {}, {}, {}, 1, 1
  while i <= n or j <= m do
    if i <= n and j <= m and a[i] == b[j] then
      rows[#rows + 1] = { a[i], b[j] }; i, j = i + 1, j + 1
    elseif j > m or (i <= n and L[i + 1][j] >= L[i][j + 1]) then
      only_a[#only_a + 1] = a[i]; rows[#rows + 1] = { a[i], nil }; i = i + 1
    else
      only_b[#only_b + 1] = b[j]; rows[#rows + 1] = { nil, b[j] }; j = j + 1
    end
  end
  return only_a, only_b, rows
end

-- ======================================================================= the table

local function glob(s)
  return "^" .. s:gsub("[%^%$%(%)%%%.%[%]%+%-%?]", "%%%0"):gsub("%*", ".*") .. "$"
end

local function load_table(path)
  local rows, n = {}, 0
  for line in slurp(path):gmatch("([^\n]*)\n") do
    n = n + 1
    if line ~= "" and not line:find("^#") then
      local mods, field, side, pat, reason = line:match("^([^\t]+)\t([^\t]+)\t([^\t]+)\t([^\t]+)\t([^\t]+)$")
      if not mods or (side ~= "kernel" and side ~= "sandbox") then
        io.stderr:write(string.format("%s:%d: want MODULES, FIELD, kernel|sandbox, LINE " ..
                                      "and REASON separated by tabs\n", path, n))
        os.exit(2)
      end
      local rep = pat:match("^repeat:(.*)$")
      rows[#rows + 1] = { mods = glob(mods), field = field, side = side, repeats = rep ~= nil,
                          pat = "^" .. (rep or pat) .. "$", reason = reason, used = false }
    end
  end
  return rows
end

local function occurrences(lines, line)
  local n = 0
  for _, l in ipairs(lines) do
    if l == line then n = n + 1 end
  end
  return n
end

-- The row of @table that allows @line, found in @lines, on @side of @field of @name.
local function allowed(table_, name, field, side, line, lines)
  for _, r in ipairs(table_) do
    if r.field == field and r.side == side and name:find(r.mods) and line:find(r.pat) and
       (not r.repeats or occurrences(lines, line) >= 2) then
      r.used = true
      return r
    end
  end
end

-- ================================================================== the comparison

local function compare_case(name, table_, totals)
  local k = fields.read(slurp(dir .. "/" .. name .. ".kernel"))
  local s = fields.read(slurp(dir .. "/" .. name .. ".sandbox"))
  local report, deliberate, bad = {}, {}, false
  for _, field in ipairs(fields.ORDER) do
    local only_k, only_s = diff(k[field], s[field])
    totals.fields = totals.fields + 1
    totals.lines = totals.lines + math.max(#k[field], #s[field])
    local field_bad = false
    for side, lines in pairs{ kernel = only_k, sandbox = only_s } do
      for _, line in ipairs(lines) do
        local r = allowed(table_, name, field, side, line, side == "kernel" and k[field] or s[field])
        if r then
          deliberate[r.reason] = true
        else
          field_bad = true
          report[#report + 1] = string.format("    %-7s %-7s only: %s", field, side, line)
        end
      end
    end
    if field_bad then totals.mismatched = totals.mismatched + 1
    elseif #only_k + #only_s > 0 then totals.deliberate = totals.deliberate + 1
    else totals.same = totals.same + 1 end
    bad = bad or field_bad
  end
  table.sort(report)
  return bad, report, deliberate
end

local function compare_all(table_path, names)
  local table_ = load_table(table_path)
  local totals = { fields = 0, lines = 0, same = 0, deliberate = 0, mismatched = 0 }
  local failed = 0
  for _, name in ipairs(names) do
    local bad, report, deliberate = compare_case(name, table_, totals)
    local reasons = {}
    for r in pairs(deliberate) do reasons[#reasons + 1] = r end
    table.sort(reasons)
    if bad then
      failed = failed + 1
      print(name .. "  MISMATCH")
      for _, line in ipairs(report) do print(line) end
    elseif #reasons > 0 then
      print(name .. "  same, but for deliberate differences:")
      for _, r in ipairs(reasons) do print("    " .. r) end
    else
      print(name .. "  same in every field")
    end
  end
  for _, r in ipairs(table_) do
    if not r.used then
      print(string.format("note: no module showed the deliberate difference '%s'", r.reason))
    end
  end
  print(string.format("%d modules, %d fields compared (%d lines): %d the same, %d differ " ..
                      "only as %s allows, %d mismatched", #names, totals.fields, totals.lines,
                      totals.same, totals.deliberate, table_path:match("[^/]+$"),
                      totals.mismatched))
  return failed == 0
end

-- ================================================================== side by side

local function columns()
  local c = tonumber(os.getenv("COLUMNS") or "")
  return c and c >= 60 and c or 120
end

local function fit(s, w)
  s = s or ""
  if #s > w then return s:sub(1, w - 1) .. "~" end
  return s .. string.rep(" ", w - #s)
end

local function section(raw, head)
  local body = raw:match("\n@@ " .. head .. "\n(.-)@@ ")
  return body and body ~= "" and body:gsub("\n$", "") or nil
end

local function side_by_side(name)
  local k = fields.read(slurp(dir .. "/" .. name .. ".kernel"))
  local s = fields.read(slurp(dir .. "/" .. name .. ".sandbox"))
  local w = (columns() - 3) // 2
  local _, _, rows = diff(k.dmesg, s.dmesg)
  print(fit("Linux 6.1 (dmesg)", w) .. "   " .. "the sandbox")
  print(string.rep("-", w) .. "   " .. string.rep("-", w))
  for _, r in ipairs(rows) do
    local mark = (r[1] and r[2]) and " = " or (r[1] and " < " or " > ")
    print(fit(r[1], w) .. mark .. (r[2] or ""))
  end
  if #rows == 0 then print(fit("(nothing)", w) .. "   (nothing)") end
  print("(= in both, < the kernel only, > the sandbox only; the kernel prints each " ..
        "refcount_t warning once per boot, the sandbox every time)")
  local raw = slurp(dir .. "/" .. name .. ".sandbox.raw")
  for _, part in ipairs{ { "explain", "What the sandbox says about it" },
                         { "leaks", "Left behind (the kernel does not say)" } } do
    local body = section(raw, part[1])
    if body then print("\n" .. part[2] .. ":\n" .. body) end
  end
  local differ = {}
  for _, field in ipairs(fields.ORDER) do
    local a, b = diff(k[field], s[field])
    if field ~= "dmesg" and #a + #b > 0 then differ[#differ + 1] = field end
  end
  print("\nOther fields: " .. (#differ == 0 and "the same in both" or
        "they differ in " .. table.concat(differ, ", ") .. " (see " .. dir .. "/" .. name ..
        ".kernel and .sandbox)"))
end

if side_mode then
  side_by_side(arg[base + 2])
else
  os.exit(compare_all(arg[3], table.move(arg, 4, #arg, 1, {})) and 0 or 1)
end
