-- expected: ERR.
while true do end
