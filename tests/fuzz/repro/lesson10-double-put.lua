-- Lesson 10's own mistake: the parent put twice while its child still holds it.
-- expect: status 0
-- expect: /p/c
-- expect: refcount_t: underflow; use-after-free.
P = kobject_create_and_add("p")
c = kobject_create_and_add("c", P)
kobject_put(P)
kobject_put(P)
print(kobject_get_path(c))
q = kobject_create_and_add("q")
print(kobject_get_path(c))
kobject_put(c)
kobject_put(q)
