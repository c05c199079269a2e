-- Run by ":load" in the REPL test: defines a global the session can see.
loaded_value = 6 * 7
