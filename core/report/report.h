/*
 * Text views of a world: the event log, diagnostics, the leak report, the references an
 * object holds, uevents, the kernel log and the sysfs tree, as people read them. Colour
 * and other decoration are the caller's: a style gives the strings to put around parts.
 */
#ifndef KOBJ_REPORT_H
#define KOBJ_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/model/kobject.h"

/* ============================================================================ the log */

/* One line: "12  demo.c:40   kobject_get   +1 'foo' 1 -> 2 [get]". */
void kobj_event_print(const struct kobj_world *w, const struct kobj_event *ev, FILE *out);
/* The last @n events (all when @n is 0). */
void kobj_log_print(const struct kobj_world *w, size_t n, FILE *out);
/* The bracketed part of a GET or PUT line: "kset of 'eth0'", "sysfs, dropped by
 * kobject_del"; "" for other events. */
void kobj_event_ref_text(const struct kobj_world *w, const struct kobj_event *ev, char *buf,
			 size_t size);

/* ======================================================================== diagnostics */

/* The kernel's line(s), then "  -> file:line: " and the explanation, indented. */
void kobj_diag_print(const struct kobj_diag *d, FILE *out);

/* ============================================================================= leaks */

/* One object not released, and why. */
struct kobj_leak {
	const struct kobj_record *record;
	struct kobj_ref *refs;     /* the references never dropped, oldest first */
	size_t nrefs;
	unsigned root;             /* the leaked object whose callers keep this one alive;
				    * its own id when a caller keeps it (a root cause) */
	bool registered;           /* still in sysfs: never torn down, not only never put */
};

/**
 * kobj_leaks_find() - the leak report as data
 * Return: an array of *@count leaks, root causes first (in order of initialisation),
 * then the objects they keep alive; free it with kobj_leaks_free().
 */
struct kobj_leak *kobj_leaks_find(const struct kobj_world *w, size_t *count);
void kobj_leaks_free(struct kobj_leak *leaks, size_t count);
/* kobj_leak_count() - objects not released, and modules whose users never put them. */
size_t kobj_leak_count(const struct kobj_world *w);
/**
 * kobj_leak_report() - the leaked objects with every reference never dropped, root
 * causes first
 * Return: the number of leaked objects (0 prints "No leaks").
 */
size_t kobj_leak_report(const struct kobj_world *w, FILE *out);
/* "get, taken at demo.lua:43 by kobject_get in open_device, never put" for @ref. */
void kobj_leak_ref_text(const struct kobj_world *w, const struct kobj_ref *ref, char *buf,
			size_t size);

/* ============================================================================ others */

/* Like `udevadm monitor --env`: "KERNEL[seq] add /devpath (subsystem)" and the env. */
void kobj_hotplug_print(const struct kobj_hotplug_event *ev, FILE *out);
/* Every kernel log line as dmesg does: "[    1.250000] kobject: 'foo' ...". */
void kobj_trace_print(const struct kobj_world *w, FILE *out);

/* ============================================================================= trees */

/* Strings put around parts of a tree line (NULL: nothing), e.g. a terminal's colours. */
struct kobj_tree_style {
	const char *object, *kset, *file, *mark, *faded, *end;
};

struct kobj_tree_options {
	const struct kobj_tree_style *style; /* NULL: plain text */
	unsigned max_depth;                  /* 0: no limit (tree -L) */
	unsigned file_limit;                 /* 0: no limit; a directory with more entries
					      * is shown folded (tree --filelimit) */
	bool held;                           /* also objects deleted but still held */
};

/*
 * kobj_print_tree() - like `tree`: the subtree at @path with each object's kind,
 * refcount and named ktype, "!" after objects a diagnostic named, and objects deleted
 * from sysfs but still referenced listed where they were, marked.
 * Return: 0, or -ENOENT.
 */
int kobj_print_tree(const struct kobj_world *w, const char *path,
		    const struct kobj_tree_options *options, FILE *out);
/* sysfs_print_tree() - kobj_print_tree() with the defaults. */
int sysfs_print_tree(const struct kobj_world *w, const char *path, FILE *out);

#endif
