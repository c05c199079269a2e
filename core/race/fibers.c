/*
 * Fibers that carry simulated threads in the browser, where WebAssembly has no host
 * threads (emscripten's pthreads need SharedArrayBuffer, which a page opened from a
 * file cannot have). Each simulated thread is a fiber with a C stack of its own, so a
 * call suspended at a scheduling point deep in the model keeps its frames while another
 * runs, as on a host thread (threads.c); the CPU passes only at race_wait, where the
 * thread giving it up swaps to the one race_pass chose. A swap unwinds the WebAssembly
 * stack into the fiber's asyncify stack and rewinds the other's (emcc -sASYNCIFY).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/race/race_internal.h"

/*
 * A thread's body is Lua over the model's C, at most Lua's 200 nested C calls deep
 * ("C stack overflow" past that): measured there, a thread used 79 KiB of C stack, and
 * parking it saved 77 KiB of WebAssembly locals (every frame from the body, or for the
 * caller from the page's call, down to the swap) on its asyncify stack.
 */
#define C_STACK (512 * 1024)
#define ASYNC_STACK (256 * 1024)

void race_pass(struct race *r, unsigned from, unsigned to)
{
	race_hand_over(r, from, to);
}

void race_wait(struct race *r, unsigned me)
{
	if (r->running != me)
		emscripten_fiber_swap(&r->t[me].fiber, &r->t[r->running].fiber);
}

/* A fiber: each time it gets the CPU with no body running, it starts one. It never
 * returns: race_threads_stop frees it where it waits. */
static void fiber_main(void *arg)
{
	struct race_thread *t = arg;
	struct race *r = t->race;

	for (;;) {
		r->p->thread(r->p->ctx, t->id);
		race_thread_exit(r, t->id);
		race_wait(r, t->id);
	}
}

static char *new_stacks(size_t size, char *err, size_t errsize)
{
	char *s = malloc(size);
	if (!s)
		snprintf(err, errsize, "cannot make a fiber for a simulated thread: out of "
			 "memory");
	return s;
}

int race_threads_start(struct race *r, char *err, size_t size)
{
	struct race_thread *caller = &r->t[0];

	caller->stacks = new_stacks(ASYNC_STACK, err, size);
	if (!caller->stacks)
		return -1;
	emscripten_fiber_init_from_current_context(&caller->fiber, caller->stacks, ASYNC_STACK);
	for (unsigned i = 1; i <= r->p->nthreads; i++) {
		struct race_thread *t = &r->t[i];
		t->race = r;
		t->id = i;
		t->stacks = new_stacks(C_STACK + ASYNC_STACK, err, size);
		if (!t->stacks) {
			race_threads_stop(r);
			return -1;
		}
		emscripten_fiber_init(&t->fiber, fiber_main, t, t->stacks, C_STACK,
				      t->stacks + C_STACK, ASYNC_STACK);
	}
	return 0;
}

void race_threads_stop(struct race *r)
{
	for (unsigned i = 0; i <= KOBJ_RACE_MAX_THREADS; i++) {
		free(r->t[i].stacks);
		r->t[i].stacks = NULL;
	}
}
