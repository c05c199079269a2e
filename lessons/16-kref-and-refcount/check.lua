-- Checks for lesson 16: every request_firmware() that succeeds gives its device one
-- reference to the image, every one that fails takes none, release_firmware() gives
-- back exactly one, and no refcount_t warning is ever recorded. A kref has no event log,
-- so the checks read the count (kref_read) before and after each call, and the
-- diagnostics recorded meanwhile.

local SATURATED = 3221225472

local wlan0 = { name = "wlan0", buf_size = 2 * 1024 * 1024 }
local wlan1 = { name = "wlan1", buf_size = 2 * 1024 * 1024 }
local eth0 = { name = "eth0", buf_size = 64 * 1024 }

-- call(what, fn, ...): runs the student's fn; a refcount_t warning recorded meanwhile
-- fails the check with the kernel's words, where and why. Returns what fn returned.
local function call(what, fn, ...)
  local results = table.pack(diagnostics_during(expect.call, what, fn, ...))
  for _, d in ipairs(results[1]) do
    if d.tag == "double-put" or d.tag == "get-released" or d.tag == "refcount-saturated" then
      expect.fail("%s: \"%s\" at %s:%d\n%s", what, d.message, d.file or "?", d.line or 0,
                  d.explanation)
    end
  end
  return table.unpack(results, 2, results.n)
end

-- counted(fw): the image's count as words, for messages.
local function counted(fw)
  local n = kref_read(fw.kref)
  if n == SATURATED then return "saturated (3221225472)" end
  if fw.freed then return "0, freed by fw_release()" end
  return tostring(n)
end

-- expect_count(fw, n, what, why): fw's count must be n after @what.
local function expect_count(fw, n, what, why)
  local got = kref_read(fw.kref)
  expect.that(got == n and not fw.freed, "after %s, '%s' has a count of %s; expected %d: %s",
              what, fw.name, counted(fw), n, why)
end

local image

check("request_firmware(wlan0, 'iwlwifi.ucode') gives wlan0 the image and one reference",
      function()
  local err = call("request_firmware(wlan0)", request_firmware, wlan0, "iwlwifi.ucode")
  expect.that(err == 0, "request_firmware(wlan0) returned %s", tostring(err))
  expect.that(wlan0.fw and wlan0.fw.name == "iwlwifi.ucode", "wlan0.fw is not the image")
  image = wlan0.fw
  expect_count(image, 1, "request_firmware(wlan0)", "kref_init() gave it 1, wlan0's")
end)

check("request_firmware(wlan1, same name) shares the cached copy", function()
  expect.that(image, "skipped: wlan0 has no image")
  local err = call("request_firmware(wlan1)", request_firmware, wlan1, "iwlwifi.ucode")
  expect.that(err == 0, "request_firmware(wlan1) returned %s", tostring(err))
  expect.that(wlan1.fw == image, "wlan1 got another copy, not the cached one")
  expect_count(image, 2, "request_firmware(wlan1)",
               "wlan0's, and wlan1's from kref_get_unless_zero() in fw_lookup()")
end)

check("a request that fails (eth0: image too big) takes nothing and drops nothing",
      function()
  expect.that(image and image.kref:read() == 2, "skipped: the image is not shared by two")
  local err = call("request_firmware(eth0)", request_firmware, eth0, "iwlwifi.ucode")
  expect.that(err and err < 0, "request_firmware(eth0) returned %s; the image is %d " ..
              "bytes and eth0's buffer %d", tostring(err), image.size, eth0.buf_size)
  expect.that(eth0.fw == nil, "the failed request left eth0.fw set")
  local after = kref_read(image.kref)
  expect.that(after == 2 and not image.freed,
              "request_firmware(eth0) failed, yet it left 'iwlwifi.ucode' with a count of " ..
              "%s where it found 2: it dropped %d reference(s) and took 1 (the one " ..
              "fw_get() gave it). The other belongs to wlan0 or wlan1, which still use " ..
              "the image: in the kernel they now read freed memory, and their " ..
              "release_firmware() will put a count that is already 0.",
              counted(image), image.freed and 2 + 1 or 2 + 1 - after)
  expect.that(fw_cached("iwlwifi.ucode"), "the image left the cache while wlan0 and " ..
              "wlan1 still use it")
end)

check("a request that fails because the device has an image already takes nothing",
      function()
  expect.that(wlan0.fw == image, "skipped: wlan0 does not hold the image")
  local err = call("request_firmware(wlan0, 'rtl8168g.fw')", request_firmware, wlan0,
                   "rtl8168g.fw")
  expect.that(err == -EBUSY, "request_firmware(wlan0, 'rtl8168g.fw') returned %s; " ..
              "expected -EBUSY (wlan0 holds an image)", tostring(err))
  expect.that(wlan0.fw == image, "the failed request changed wlan0.fw")
  expect.that(not fw_cached("rtl8168g.fw"), "request_firmware() failed with -EBUSY, yet " ..
              "'rtl8168g.fw' is still cached: fw_get() loaded it with a count of 1 for " ..
              "the request, and the error path never gave that reference back. No device " ..
              "holds it, so it can never be freed (a leak).")
end)

check("release_firmware(wlan0) drops exactly wlan0's reference", function()
  expect.that(image and wlan0.fw == image, "skipped: wlan0 has no image")
  local before = counted(image)
  call("release_firmware(wlan0)", release_firmware, wlan0)
  expect.that(before == "2", "before release_firmware(wlan0), 'iwlwifi.ucode' had a " ..
              "count of %s, not 2 (wlan0's and wlan1's): an earlier call dropped a " ..
              "reference it did not own, so now wlan0's own put left it at %s while wlan1 " ..
              "still uses it", before, counted(image))
  expect_count(image, 1, "release_firmware(wlan0)", "wlan1 still holds its reference")
  expect.that(fw_cached("iwlwifi.ucode"), "the image left the cache while wlan1 uses it")
end)

check("release_firmware(wlan1) drops the last reference, and the image is freed", function()
  expect.that(image and wlan1.fw == image, "skipped: wlan1 has no image")
  call("release_firmware(wlan1)", release_firmware, wlan1)
  expect.that(image.freed, "after both devices released it, 'iwlwifi.ucode' has a count " ..
              "of %s; fw_release() should have run at the last put", counted(image))
  expect.that(not fw_cached("iwlwifi.ucode"), "the freed image is still in the cache")
end)

check("a request that fails with nobody else holding the image frees it, once", function()
  local err = call("request_firmware(eth0)", request_firmware, eth0, "iwlwifi.ucode")
  expect.that(err and err < 0, "request_firmware(eth0) returned %s", tostring(err))
  expect.that(eth0.fw == nil, "the failed request left eth0.fw set")
  expect.that(not fw_cached("iwlwifi.ucode"), "the image loaded for the failed request " ..
              "is still cached: its reference was never given back")
end)

check("a missing file fails with -ENOENT and caches nothing", function()
  local err = call("request_firmware(eth0, 'missing.bin')", request_firmware, eth0,
                   "missing.bin")
  expect.that(err == -ENOENT, "request_firmware(eth0, 'missing.bin') returned %s",
              tostring(err))
  expect.that(not fw_cached("missing.bin"), "'missing.bin' is cached")
end)

check("after the last release, a new request loads a fresh copy", function()
  local err = call("request_firmware(wlan0)", request_firmware, wlan0, "iwlwifi.ucode")
  expect.that(err == 0, "request_firmware(wlan0) returned %s", tostring(err))
  expect.that(wlan0.fw ~= image, "wlan0 got the freed copy back")
  local fresh = wlan0.fw
  expect_count(fresh, 1, "request_firmware(wlan0)", "a fresh copy, wlan0's only")
  call("release_firmware(wlan0)", release_firmware, wlan0)
  expect.that(fresh.freed, "the fresh copy has a count of %s after its one user let go",
              counted(fresh))
end)

check("no refcount_t warning was ever recorded", function()
  local lines = {}
  for _, d in ipairs(diagnostics()) do
    lines[#lines + 1] = string.format("%s at %s:%d", d.message, d.file or "?", d.line or 0)
  end
  expect.that(#lines == 0, "%d warning(s):\n%s", #lines, table.concat(lines, "\n"))
end)
