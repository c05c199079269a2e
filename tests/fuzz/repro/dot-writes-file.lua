-- dot(path) from a script writes nothing the command line did not name.
-- expect: status 1
-- expect: a script writes files only where the command line says
print(dot("/tmp/kobj-fuzz-pwned.dot"))
print("escaped")
