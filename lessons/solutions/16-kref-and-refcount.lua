-- Lesson 16 solution: struct kref and refcount_t.
--
-- A firmware cache, shaped like the kernel's firmware loader: a device asks for an image
-- by name with request_firmware(), devices that ask for the same name share one copy,
-- and release_firmware() gives the device's copy back. Each cached image counts its users
-- with a struct kref; the last kref_put() runs fw_release(), which frees it and takes it
-- out of the cache. The cache itself holds no reference: lookups use
-- kref_get_unless_zero().
--
-- The fix: the -EFBIG path put the image and then jumped to put_fw, which put it again.
-- fw_get() gave request_firmware() one reference, so exactly one put may give it back:
-- the one at put_fw, which every error path after fw_get() goes through.

local EFBIG = 27 -- "File too large"; the sandbox names only the errnos its calls return

-- The images on "disk": name -> size in bytes.
local firmware_files = { ["iwlwifi.ucode"] = 1200000, ["rtl8168g.fw"] = 6000 }

-- The cache: name -> image. It holds no reference; fw_release() removes the entry.
local fw_cache = {}

-- fw_release(kref): the last reference is gone. In C: list_del(), then kfree().
local function fw_release(kref)
  local fw = container_of(kref)
  fw_cache[fw.name] = nil
  fw.freed = true
end

local function fw_put(fw)
  kref_put(fw.kref, fw_release)
end

-- fw_lookup(name): the cached image with a new reference, or nil. An image whose count
-- already reached 0 is on its way out: kref_get_unless_zero() refuses it.
local function fw_lookup(name)
  local fw = fw_cache[name]
  if fw and kref_get_unless_zero(fw.kref) then
    return fw
  end
  return nil
end

-- fw_get(name): a reference to the image, from the cache or loaded now.
-- Returns the image, or nil and -ENOENT.
local function fw_get(name)
  local fw = fw_lookup(name)
  if fw then
    return fw
  end
  local size = firmware_files[name]
  if not size then
    return nil, -ENOENT
  end
  fw = { name = name, size = size }
  new_kref(fw)                    -- fw.kref, at 0 as in kzalloc'd memory
  kref_init(fw.kref)              -- 1: the reference we return
  fw_cache[name] = fw
  return fw
end

-- request_firmware(dev, name): dev.fw gets the image and one reference to it.
-- Returns 0, or a negative errno and leaves dev.fw alone.
function request_firmware(dev, name)
  local fw, err = fw_get(name)
  if not fw then
    return err
  end
  if fw.size > dev.buf_size then
    err = -EFBIG
    goto put_fw
  end
  if dev.fw then                  -- an image is loaded already: release it first
    err = -EBUSY
    goto put_fw
  end
  dev.fw = fw
  do return 0 end

::put_fw::
  fw_put(fw)
  return err
end

-- release_firmware(dev): dev gives its image back.
function release_firmware(dev)
  local fw = dev.fw
  dev.fw = nil
  fw_put(fw)
end

-- fw_cached(name): whether the cache has the image (for the checks).
function fw_cached(name)
  return fw_cache[name] ~= nil
end
