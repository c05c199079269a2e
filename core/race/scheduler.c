/*
 * One run under the scheduler. The model calls the hooks: at a scheduling point the step
 * in progress ends (what it used is recorded) and the next decision picks who takes the
 * next step; a thread that waits for a lock can take one only once the lock is free;
 * when every thread left waits, that is a deadlock, and their waits fail. The rule is:
 * the same thread on, else the lowest that can run. Exploring, a decision comes from the
 * path (a replay of a run made before), then from the rule among the threads not
 * asleep; otherwise from the forced schedule, then from the rule.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/race/race_internal.h"

static race_set bit(unsigned t)
{
	return (race_set)1 << t;
}

unsigned race_default(race_set enabled, unsigned prev)
{
	if (prev && (enabled & bit(prev)))
		return prev;
	for (unsigned t = 1; t <= KOBJ_RACE_MAX_THREADS; t++)
		if (enabled & bit(t))
			return t;
	return 0;
}

/* ========================================================================= steps */

static void touch(void *ctx, enum kobj_sched_res res, uintptr_t id, bool write)
{
	struct race *r = ctx;
	if (r->recording)
		race_fp_add(&r->cur, res, id, write);
}

static void begin_step(struct race *r)
{
	r->cur.n = 0;
	r->step_world = kobj_world_peek();
	r->log_mark = r->step_world ? kobj_log_count(r->step_world) : 0;
}

/* What the step's events changed: their objects, and the tree for what sysfs shows. A
 * step whose events cannot be read (another world, no log) may have changed anything. */
static void events_used(struct race *r)
{
	struct kobj_world *w = kobj_world_peek();
	struct kobj_event ev;

	if (!w || w != r->step_world || !kobj_world_logging(w)) {
		race_fp_add(&r->cur, KOBJ_RES_ALL, 0, true);
		return;
	}
	for (size_t i = r->log_mark; kobj_log_read(w, i, &ev); i++) {
		if (ev.kind == KOBJ_EV_SCHED)
			continue;
		if (ev.obj)
			race_fp_add(&r->cur, KOBJ_RES_OBJECT, ev.obj, true);
		if (ev.kind == KOBJ_EV_ADD || ev.kind == KOBJ_EV_DEL || ev.kind == KOBJ_EV_SYSFS)
			race_fp_add(&r->cur, KOBJ_RES_SYSFS, 0, true);
	}
}

static void end_step(struct race *r)
{
	if (!r->recording || r->depth == 0)
		return;
	struct race_node *n = &r->path->nodes[r->depth - 1];
	/* recorded again, as addresses differ from run to run */
	events_used(r);
	race_fp_close(&r->cur);
	race_fp_copy(&n->fp, &r->cur);
	/* the steps before the last replayed one were analysed in an earlier run */
	if (r->depth >= r->replay)
		race_analyse(r, r->depth - 1);
}

/* ===================================================================== decisions */

static bool preempts(const struct race_node *n, unsigned t)
{
	return n->prev && t != n->prev && (n->enabled & bit(n->prev));
}

static bool within_bound(const struct race *r, const struct race_node *n, unsigned t)
{
	return r->preemptions < 0 || n->preemptions + preempts(n, t) <= (unsigned)r->preemptions;
}

race_set race_allowed(const struct race *r, const struct race_node *n, race_set want)
{
	race_set ok = 0;
	for (unsigned t = 1; t <= KOBJ_RACE_MAX_THREADS; t++)
		if ((want & bit(t)) && within_bound(r, n, t))
			ok |= bit(t);
	return ok;
}

/* A thread asleep at @parent, or tried there before its current choice, stays asleep
 * after the step @parent took unless that step depends on the sleeper's (recorded in an
 * earlier run). */
static void inherit_sleep(struct race_node *n, const struct race_node *parent)
{
	race_set sleepers = (parent->sleep | parent->done) & ~bit(parent->chosen);
	for (unsigned t = 1; t <= KOBJ_RACE_MAX_THREADS; t++) {
		if (!(sleepers & bit(t)) || race_fp_conflict_across(&parent->asleep[t], &parent->fp))
			continue;
		n->sleep |= bit(t);
		race_fp_copy(&n->asleep[t], &parent->asleep[t]);
	}
}

static struct race_node *new_node(struct race *r, race_set enabled, unsigned prev)
{
	struct race_path *path = r->path;
	if (path->n == path->cap) {
		size_t cap = path->cap ? path->cap * 2 : 64;
		kobj_grow((void **)&path->nodes, &path->cap, cap, sizeof(*path->nodes));
		memset(path->nodes + path->n, 0, (path->cap - path->n) * sizeof(*path->nodes));
	}
	struct race_node *n = &path->nodes[path->n++];
	unsigned preemptions = 0;
	if (path->n > 1) {
		const struct race_node *before = n - 1;
		preemptions = before->preemptions + preempts(before, before->chosen);
	}
	n->enabled = enabled;
	n->backtrack = n->done = n->sleep = 0;
	n->prev = (unsigned char)prev;
	n->preemptions = preemptions;
	n->fp.n = 0; /* the footprints' memory is reused */
	if (r->reduce && path->n > 1)
		inherit_sleep(n, n - 1);
	return n;
}

/* The next thread after @prev that can run: threads take turns. */
static unsigned take_turns(race_set enabled, unsigned prev)
{
	for (unsigned i = 1; i <= KOBJ_RACE_MAX_THREADS; i++) {
		unsigned t = (prev + i - 1) % KOBJ_RACE_MAX_THREADS + 1;
		if (enabled & bit(t))
			return t;
	}
	return 0;
}

/* Why thread @t cannot take step @step of the forced schedule. */
static void refuse_forced(struct race *r, size_t step, unsigned t)
{
	const char *why = t > r->p->nthreads          ? "does not exist"
			  : r->t[t].state == RACE_DONE ? "has finished"
						       : "is waiting for a lock";
	if (r->run_error)
		return;
	size_t len = strlen(r->forced) + 128;
	r->run_error = kobj_xmalloc(len);
	snprintf(r->run_error, len, "schedule '%s', step %zu: thread %u %s; the run went on "
		 "by the rule", r->forced, step + 1, t, why);
}

/*
 * A run that is not explored: the forced schedule's decision, else the rule's; but a
 * thread that ran FAIR_STEPS steps in a row while another could run lets it (a loop that
 * waits for another thread to act would wait forever). Such a turn is a decision of
 * the run's schedule, so a replay takes it as well.
 */
static unsigned choose_forced(struct race *r, race_set enabled, unsigned prev)
{
	size_t step = r->run.steps;
	unsigned c = race_default(enabled, prev);
	if (r->forced && step < r->nforced) {
		unsigned want = (unsigned)(r->forced[step] - '0');
		if (enabled & bit(want))
			return want;
		refuse_forced(r, step, want);
	} else if (c == prev && ++r->streak >= FAIR_STEPS && enabled != bit(prev)) {
		r->streak = 0;
		return take_turns(enabled, prev);
	}
	if (c != prev)
		r->streak = 0;
	return c;
}

/*
 * The decision at a new node: the rule's among the threads not asleep. When every
 * thread that can run is asleep, all that can follow was explored already: the run goes
 * on by the rule, unrecorded. Return: 0 then.
 */
static unsigned choose_new(struct race *r, race_set enabled, unsigned prev)
{
	struct race_node *n = new_node(r, enabled, prev);
	unsigned c = race_default(enabled & ~n->sleep, prev);
	if (!c) {
		r->path->n--;
		r->recording = false;
		return race_default(enabled, prev);
	}
	n->chosen = (unsigned char)c;
	n->done = bit(c);
	n->backtrack = r->naive ? race_allowed(r, n, enabled) : bit(c);
	return c;
}

/* The decision at a node of the path: as recorded (the explorer set the last one). */
static unsigned choose_replayed(struct race *r, race_set enabled, unsigned prev)
{
	struct race_node *n = &r->path->nodes[r->depth];
	if (n->enabled != enabled || n->prev != prev || !(enabled & bit(n->chosen))) {
		r->nondeterministic = true;
		r->recording = false;
		return race_default(enabled, prev);
	}
	return n->chosen;
}

static unsigned choose(struct race *r, race_set enabled, unsigned prev)
{
	if (!r->exploring)
		return choose_forced(r, enabled, prev);
	if (r->recording && r->depth >= r->max_steps) {
		r->recording = false;
		r->run.too_long = true;
	}
	if (r->run.too_long)
		return take_turns(enabled, prev);
	if (!r->recording)
		return race_default(enabled, prev);
	unsigned c = r->depth < r->replay ? choose_replayed(r, enabled, prev)
					  : choose_new(r, enabled, prev);
	if (r->recording)
		r->depth++;
	return c;
}

/* The run's schedule so far: each step's thread, and where it last left the rule. */
static void note_choice(struct race *r, unsigned c, bool chosen)
{
	kobj_grow((void **)&r->choices, &r->choices_cap, r->run.steps + 1, 1);
	r->choices[r->run.steps++] = (unsigned char)c;
	if (chosen || r->run.steps == 1)
		r->keep = r->run.steps;
}

/* Who takes the next step (0: nobody, every thread is done); it begins now. */
static unsigned decide(struct race *r)
{
	race_set enabled = 0, blocked = 0;

	for (unsigned t = 1; t <= r->p->nthreads; t++) {
		struct race_thread *th = &r->t[t];
		if (th->state == RACE_READY || (th->state == RACE_BLOCKED && th->ready(th->lock)))
			enabled |= bit(t);
		else if (th->state == RACE_BLOCKED)
			blocked |= bit(t);
	}
	if (!enabled && blocked) { /* nobody can ever release what they wait for */
		r->run.deadlock = true;
		r->recording = false;
		for (unsigned t = 1; t <= r->p->nthreads; t++)
			if (blocked & bit(t))
				r->t[t].deadlocked = true;
		enabled = blocked;
	}
	if (!enabled)
		return 0;
	unsigned c = choose(r, enabled, r->running);
	note_choice(r, c, c != race_default(enabled, r->running));
	r->t[c].state = RACE_READY;
	r->run.thread_steps[c]++;
	begin_step(r);
	return c;
}

/* ========================================================================= hooks */

static void yield(void *ctx)
{
	struct race *r = ctx;
	unsigned me = r->running;

	end_step(r);
	unsigned next = decide(r);
	if (next != me) {
		race_pass(r, me, next);
		race_wait(r, me);
	}
}

static int block(void *ctx, const void *lock, bool (*ready)(const void *lock))
{
	struct race *r = ctx;
	unsigned me = r->running;
	struct race_thread *t = &r->t[me];

	if (!me)
		return -EDEADLK; /* the caller does not run during a run */
	t->state = RACE_BLOCKED;
	t->lock = lock;
	t->ready = ready;
	end_step(r);
	unsigned next = decide(r);
	if (next != me) {
		race_pass(r, me, next);
		race_wait(r, me);
	}
	t->lock = NULL;
	if (!t->deadlocked)
		return 0;
	t->deadlocked = false;
	return -EDEADLK;
}

void race_thread_exit(struct race *r, unsigned me)
{
	r->t[me].state = RACE_DONE;
	end_step(r);
	race_pass(r, me, decide(r));
}

/* =========================================================================== runs */

void race_run(struct race *r)
{
	for (unsigned t = 1; t <= r->p->nthreads; t++) {
		struct race_thread *th = &r->t[t];
		th->state = RACE_READY;
		th->lock = NULL;
		th->deadlocked = false;
		memset(&th->cpu, 0, sizeof(th->cpu));
	}
	kobj_xfree(r->run_error);
	kobj_xfree(r->run_schedule);
	r->run_error = r->run_schedule = NULL;
	r->run = (struct kobj_race_run){ 0 };
	r->path->n = r->replay;
	r->depth = 0;
	r->keep = 0;
	r->streak = 0;
	r->recording = r->exploring;
	r->nforced = r->forced ? strlen(r->forced) : 0;
	r->running = 0;
	r->hooks = (struct kobj_sched_hooks){ yield, block, touch, r };

	const struct kobj_sched_hooks *outer = kobj_sched_install(&r->hooks);
	unsigned first = decide(r);
	if (first) {
		race_pass(r, 0, first);
		race_wait(r, 0);
	}
	kobj_sched_install(outer);
	r->run_schedule = race_schedule_text(r->choices, r->keep);
	r->run.schedule = r->run_schedule;
	r->run.error = r->run_error;
}
