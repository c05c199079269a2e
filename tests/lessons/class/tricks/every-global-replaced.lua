-- expected: FAIL.
local names, type, sort = {}, type, table.sort
for name, value in pairs(_G) do
  if type(value) == "function" and not name:find("device") then names[#names + 1] = name end
end
sort(names)
for _, name in ipairs(names) do _G[name] = function() return true end end
