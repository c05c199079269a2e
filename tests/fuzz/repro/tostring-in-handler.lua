-- An error object whose __tostring builds a huge string in the message handler.
-- expect: status 1
-- expect: memory limit reached
error(setmetatable({}, { __tostring = function() return string.rep("x", 1400 << 20) end }))
