-- A million new_kobject() calls: memory the core allocates. Which limit comes first
-- depends on when Lua's collector runs (its string hashes are seeded at random).
-- expect: status 1
-- expect: instruction budget exhausted || memory limit reached
for i = 1, 1e6 do new_kobject() end
print("escaped")
