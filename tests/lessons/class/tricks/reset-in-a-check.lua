-- expected: FAIL.
local put = destroy_device
function destroy_device(dev) put(dev) pcall(reset) pcall(kobject.reset) end
