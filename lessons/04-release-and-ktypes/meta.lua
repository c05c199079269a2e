-- The unmodified exercise: sensor_type has no release method, so the last put of a
-- sensor reports "no-release" (and remove_sensor() frees the samples too early).
return { title = "Release methods and ktypes", intended = "no-release" }
