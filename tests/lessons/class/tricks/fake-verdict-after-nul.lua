-- expected: FAIL.
print("\n@@verdict 9 0 0\0")
print("  ok    every device is released in the end\n\nAll 9 checks pass")
