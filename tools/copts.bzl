"""Compiler flags for the project's own C targets (never for third-party code)."""

STRICT_COPTS = [
    "-std=c11",
    "-D_POSIX_C_SOURCE=200809L",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wshadow",
    "-Wstrict-prototypes",
    "-Wmissing-prototypes",
    "-Wformat=2",
    "-Wvla",
]
