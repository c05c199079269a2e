-- Prints its arguments, given as ... and as arg.
print(select("#", ...), ...)
print(arg[0], arg[1], arg[2])
