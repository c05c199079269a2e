-- The unmodified exercise: the ports' firmware references are dropped by a release
-- method that never runs (the kset's ktype wins over kobj.ktype), so the firmware, and
-- the subsystem it holds, are never released: the symptom is a leak, no diagnostic.
return { title = "The kset's ktype wins", intended = "leak" }
