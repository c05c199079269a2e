-- The unmodified exercise: releasing one disk drops another disk's queue, so the later
-- release of that other disk puts its queue a second time ("double-put"), and one queue
-- is never released.
return { title = "Embedding kobjects and container_of", intended = "double-put" }
