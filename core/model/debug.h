/*
 * The kernel's two kobject debug options, as settings of a world, and the kernel log
 * they write to. Included by core/kobject.h.
 *
 * KOBJ_DEBUG_KOBJECT (CONFIG_DEBUG_KOBJECT): today's calls log each lifecycle step with
 * the kernel's pr_debug text ("kobject: 'foo' (00000000a1b2c3d4): kobject_add_internal:
 * parent: 'bar', set: '<NULL>'", "... calling ktype release", ...). 2.6.0 had no such
 * option (its pr_debugs were compiled out), so objects of the article's era log nothing.
 *
 * KOBJ_DEBUG_RELEASE (CONFIG_DEBUG_KOBJECT_RELEASE): the last put of an object of today's
 * era logs "kobject: '%s' (%p): kobject_release, parent %p (delayed %ld)" and only queues
 * the cleanup. The object then has a count of 0 but is not released until the world's
 * virtual clock reaches the deadline (kobj_world_advance) or the world is freed. A get, a
 * put or a kfree() of it in between is reported: that is code which assumed the last put
 * frees at once. The delay is HZ to 4 * HZ ticks, drawn from a pseudo-random sequence with
 * a fixed seed per world (kobj_world_set_release_seed), or fixed by
 * kobj_world_set_release_delay(); everything is deterministic.
 */
#ifndef KOBJ_DEBUG_H
#define KOBJ_DEBUG_H

#include <stdio.h>

#include "core/model/kobject.h"

#define KOBJ_DEBUG_KOBJECT 0x1u
#define KOBJ_DEBUG_RELEASE 0x2u

/* Ticks of the virtual clock per second (the kernel's HZ; jiffies are ticks). */
#ifndef HZ
#define HZ 100
#endif

/* kobj_world_set_debug() - any of KOBJ_DEBUG_KOBJECT | KOBJ_DEBUG_RELEASE, or 0. */
void kobj_world_set_debug(struct kobj_world *w, unsigned flags);
unsigned kobj_world_debug(const struct kobj_world *w);

/* kobj_world_set_release_delay() - every delayed release waits @ticks (> 0); 0 goes back
 * to the pseudo-random delay of 1 to 4 seconds. */
void kobj_world_set_release_delay(struct kobj_world *w, long ticks);
/* kobj_world_set_release_seed() - restart the pseudo-random delays from @seed. */
void kobj_world_set_release_seed(struct kobj_world *w, unsigned long seed);

/* kobj_world_now() - the virtual clock, in ticks since the world was made. */
unsigned long kobj_world_now(const struct kobj_world *w);

/**
 * kobj_world_advance() - move the clock on by @ticks and run the delayed releases that
 * fall due, oldest deadline first (a release may queue its parent's, due later)
 * Return: how many ran.
 */
size_t kobj_world_advance(struct kobj_world *w, unsigned long ticks);

/* kobj_world_pending_releases() - delayed releases not yet run. */
size_t kobj_world_pending_releases(const struct kobj_world *w);

/* ------------------------------------------------------------------- the kernel log */

enum kobj_loglevel {
	KOBJ_LOGLEVEL_ERR = 3,
	KOBJ_LOGLEVEL_WARNING = 4,
	KOBJ_LOGLEVEL_INFO = 6,
	KOBJ_LOGLEVEL_DEBUG = 7,
};

/* One line of the kernel log, as dmesg would show it. */
struct kobj_trace {
	enum kobj_loglevel level;
	char *text;                /* without the final newline */
	unsigned obj;              /* the object it is about, or 0 */
	unsigned long tick;        /* the virtual clock when it was written */
	unsigned long seq;         /* the log event it follows (kobj_log_count() then) */
	unsigned site;
	struct kobj_origin origin;
};

size_t kobj_trace_count(const struct kobj_world *w);
const struct kobj_trace *kobj_trace_at(const struct kobj_world *w, size_t i);

/**
 * kobj_printk() - write a line at @level to the current world's kernel log (printk() and
 * pr_*() of <linux/printk.h> use kobj_printk_line(), vsprintf.h); KOBJ_LOGLEVEL_DEBUG
 * lines only with KOBJ_DEBUG_KOBJECT
 */
void kobj_printk(enum kobj_loglevel level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
