-- The unmodified exercise registers the "drivers" kset of a bus with no subsystem: it
-- lands at /sys/drivers, and the first driver added to it reports "no-subsystem".
return { title = "Subsystems and their lock", intended = "no-subsystem" }
