-- The unmodified exercise puts each disk's "queue" directory in /sys/block instead of in
-- the disk's directory, so the second disk's queue collides with the first one's:
-- "duplicate-name" (sysfs: cannot create duplicate filename '/block/queue').
return { title = "Ksets and parents", intended = "duplicate-name" }
