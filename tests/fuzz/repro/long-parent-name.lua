-- A parent whose name (20 characters or more) lives on the heap, put twice: the child's
-- expect: status 0
-- expect: /a_parent_with_a_long_name/c
-- expect: refcount_t: underflow
-- path still reads the whole name, never freed bytes.
P = kobject_create_and_add("a_parent_with_a_long_name")
c = kobject_create_and_add("c", P)
kobject_put(P)
kobject_put(P)
print(kobject_get_path(c))
kobject_put(c)
