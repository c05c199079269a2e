/*
 * The explorer: stateless model checking. Each run starts from scratch and follows the
 * path of decisions to the node being branched, then the rule; the nodes it makes are
 * the decisions of that run. With partial-order reduction a node is branched only where
 * a race needs it (Flanagan and Godefroid's DPOR with persistent sets): when a step of
 * thread p uses what an earlier step j of another thread changed (or the other way),
 * and j does not already happen before p's step, p must also be tried before j. Naive
 * enumeration branches every node into every thread that can run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/race/race_internal.h"

static race_set bit(unsigned t)
{
	return (race_set)1 << t;
}

/* ======================================================================= the races */

static void join(unsigned *into, const unsigned *from)
{
	for (unsigned t = 0; t <= KOBJ_RACE_MAX_THREADS; t++)
		if (from[t] > into[t])
			into[t] = from[t];
}

/*
 * Thread @p must also be tried at node @j; one that cannot run there makes every thread
 * that can a candidate (FG's conservative choice). Where the preemption bound forbids
 * it, the order is tried from the latest node before where it does not (Coons, Musuvathi
 * and McKinley's bounded partial-order reduction), so a bound cuts only what it must.
 */
static void branch(struct race *r, size_t j, unsigned p)
{
	for (size_t k = j + 1; k-- > 0;) {
		struct race_node *n = &r->path->nodes[k];
		race_set want = (n->enabled & bit(p)) ? bit(p) : n->enabled;
		race_set ok = race_allowed(r, n, want);
		n->backtrack |= ok;
		if (ok == want)
			return;
	}
}

/*
 * Step @i of thread p comes after every earlier step it depends on (its clock). A
 * dependent step j of another thread that does not happen before p's previous step is a
 * race: p is tried at j. FG check each pending step at every state it is pending in; done
 * here once the step has run, that is every such j after p's previous step, and the
 * latest before it.
 */
void race_analyse(struct race *r, size_t i)
{
	struct race_node *nodes = r->path->nodes, *e = &nodes[i];
	unsigned p = e->chosen, before[KOBJ_RACE_MAX_THREADS + 1] = { 0 };
	size_t last = i;
	bool older = false;

	if (!r->reduce)
		return;
	for (size_t j = i; j-- > 0;) {
		if (nodes[j].chosen == p) {
			memcpy(before, nodes[j].clock, sizeof(before));
			last = j;
			break;
		}
	}
	memcpy(e->clock, before, sizeof(before));
	for (size_t j = i; j-- > 0;) {
		const struct race_node *f = &nodes[j];
		if (!race_fp_conflict(&f->fp, &e->fp))
			continue;
		join(e->clock, f->clock);
		if (f->chosen == p || before[f->chosen] >= j + 1 || older)
			continue;
		if (last < i && j < last)
			older = true;
		branch(r, j, p);
	}
	e->clock[p] = (unsigned)i + 1;
}

/* ======================================================================== branching */

/* The deepest node with a thread still to try; that thread becomes its choice, and the
 * path ends there. Return: false when every branch is done. */
static bool next_branch(struct race *r)
{
	struct race_path *path = r->path;
	for (size_t k = path->n; k-- > 0;) {
		struct race_node *n = &path->nodes[k];
		race_set todo = n->backtrack & ~n->done & ~n->sleep;
		if (!todo)
			continue;
		unsigned c = 1;
		while (!(todo & bit(c)))
			c++;
		/* the step explored from here sleeps while the next choice is explored */
		race_fp_copy(&n->asleep[n->chosen], &n->fp);
		n->done |= bit(c);
		n->chosen = (unsigned char)c;
		path->n = k + 1;
		r->replay = k + 1;
		return true;
	}
	return false;
}

/* The number of interleavings of the threads' steps: a multinomial coefficient. */
static double interleavings(const unsigned *steps, unsigned nthreads)
{
	double count = 1;
	unsigned total = 0;
	for (unsigned t = 1; t <= nthreads; t++) {
		for (unsigned k = 1; k <= steps[t]; k++) {
			total++;
			count = count * total / k;
		}
	}
	return count;
}

/* ============================================================================ runs */

/* Keeps @failure among the sorted distinct failures (or frees it). */
static void collect(struct kobj_race_result *res, char *failure)
{
	size_t i = 0;
	while (i < res->nfailures && strcmp(res->failures[i], failure) < 0)
		i++;
	if (i < res->nfailures && strcmp(res->failures[i], failure) == 0) {
		free(failure);
		return;
	}
	res->failures = realloc(res->failures, (res->nfailures + 1) * sizeof(*res->failures));
	if (!res->failures)
		abort();
	memmove(res->failures + i + 1, res->failures + i,
		(res->nfailures - i) * sizeof(*res->failures));
	res->failures[i] = failure;
	res->nfailures++;
}

static char *xstrdup(const char *s)
{
	char *copy = strdup(s);
	if (!copy)
		abort();
	return copy;
}

/* One run from scratch; its verdict in *@failure. Return: 0, or -1 (@err says why). */
static int one_run(struct race *r, char **failure, char *err, size_t size)
{
	const struct kobj_race_program *p = r->p;

	*failure = NULL;
	if (p->setup && p->setup(p->ctx, err, size) != 0)
		return -1;
	race_run(r);
	*failure = p->verdict ? p->verdict(p->ctx, &r->run) : NULL;
	if (r->run.too_long) { /* what went wrong after it may only follow from it */
		char text[200];
		snprintf(text, sizeof(text), "the run took more than %u steps: a thread that "
			 "loops until another one acts?", r->max_steps);
		free(*failure);
		*failure = xstrdup(text);
	}
	if (p->finish)
		p->finish(p->ctx);
	return 0;
}

static const char *check_program(const struct kobj_race_program *p)
{
	if (!p->thread || p->nthreads < 1 || p->nthreads > KOBJ_RACE_MAX_THREADS)
		return "a program needs 1 to 8 threads";
	return NULL;
}

static struct race *race_new(const struct kobj_race_program *p, char *err, size_t size)
{
	const char *bad = check_program(p);
	if (bad) {
		snprintf(err, size, "%s", bad);
		return NULL;
	}
	struct race *r = calloc(1, sizeof(*r));
	if (!r)
		abort();
	r->p = p;
	r->preemptions = -1;
	r->max_steps = DEFAULT_MAX_STEPS;
	r->path = calloc(1, sizeof(*r->path));
	if (!r->path)
		abort();
	if (race_threads_start(r, err, size) == 0)
		return r;
	free(r->path);
	free(r);
	return NULL;
}

static void race_free(struct race *r)
{
	race_threads_stop(r);
	race_path_free(r->path);
	free(r->path);
	race_fp_free(&r->cur);
	kobj_xfree(r->choices);
	kobj_xfree(r->run_error);
	kobj_xfree(r->run_schedule);
	free(r);
}

/* Judges the run just made; Return: true if exploring stops here. */
static bool judge(struct race *r, const struct kobj_race_options *o, char *failure,
		  struct kobj_race_result *res)
{
	if (res->schedules++ == 0)
		res->naive = interleavings(r->run.thread_steps, r->p->nthreads);
	if (r->nondeterministic) {
		free(failure);
		res->error = xstrdup("a run did not repeat the one it replays: the setup or a "
				     "thread behaves differently from one run to the next (state "
				     "kept between runs?), so schedules cannot be explored");
		return true;
	}
	if (!failure)
		return false;
	if (res->failing++ == 0) {
		res->schedule = xstrdup(r->run.schedule);
		res->failure = xstrdup(failure);
	}
	if (o->keep_going) {
		collect(res, failure);
		return false;
	}
	free(failure);
	return true;
}

int kobj_race_explore(const struct kobj_race_program *p, const struct kobj_race_options *o,
		      struct kobj_race_result *res)
{
	static const struct kobj_race_options defaults = { .preemptions = -1 };
	char err[512];
	char *failure;

	memset(res, 0, sizeof(*res));
	o = o ? o : &defaults;
	struct race *r = race_new(p, err, sizeof(err));
	if (!r) {
		res->error = xstrdup(err);
		return -1;
	}
	r->exploring = true;
	r->naive = o->naive;
	r->reduce = !o->naive;
	r->preemptions = o->preemptions;
	r->max_steps = o->max_steps ? o->max_steps : DEFAULT_MAX_STEPS;
	unsigned long max = o->max_schedules ? o->max_schedules : DEFAULT_MAX_SCHEDULES;
	for (;;) {
		if (one_run(r, &failure, err, sizeof(err)) != 0) {
			res->error = xstrdup(err);
			break;
		}
		if (judge(r, o, failure, res)) {
			res->complete = !res->error;
			break;
		}
		if (!next_branch(r)) {
			res->complete = true;
			break;
		}
		if (res->schedules >= max)
			break;
	}
	race_free(r);
	return res->error ? -1 : 0;
}

void kobj_race_result_free(struct kobj_race_result *res)
{
	free(res->schedule);
	free(res->failure);
	for (size_t i = 0; i < res->nfailures; i++)
		free(res->failures[i]);
	free(res->failures);
	free(res->error);
	memset(res, 0, sizeof(*res));
}

int kobj_race_replay(const struct kobj_race_program *p, const char *schedule,
		     char **failure, char *err, size_t size)
{
	char *verdict = NULL;

	if (failure)
		*failure = NULL;
	if (schedule && kobj_race_check_schedule(schedule, p->nthreads)) {
		snprintf(err, size, "schedule '%s' %s", schedule,
			 kobj_race_check_schedule(schedule, p->nthreads));
		return -1;
	}
	struct race *r = race_new(p, err, size);
	if (!r)
		return -1;
	r->forced = schedule;
	int rc = one_run(r, &verdict, err, size);
	race_free(r);
	if (failure)
		*failure = verdict;
	else
		free(verdict);
	return rc;
}
