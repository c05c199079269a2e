-- The unmodified exercise ignores a failed kobject_set_name() and adds a kobject with no
-- name: kobject_add() reports "empty-name" and make_port() returns the wrong error.
return { title = "Naming a kobject", intended = "empty-name" }
