/*
 * The one CPU passing from a simulated thread to another, whatever carries them (host
 * threads in threads.c, fibers in the browser's fibers.c). Whatever the model keeps
 * process-wide about the call in progress (the origin noted for the next call, the
 * world's notes) goes with the CPU: saved from the thread that gives it up, restored
 * for the one that takes it.
 */
#include "core/race/race_internal.h"

static void save_cpu(struct race_cpu *cpu)
{
	struct kobj_world *w = kobj_world_peek();
	cpu->noted = kobj_noted;
	if (w) {
		cpu->last_take = w->last_take;
		cpu->next_put = w->next_put;
		cpu->next_put_obj = w->next_put_obj;
		cpu->site_from_c = w->site_from_c;
	}
}

static void restore_cpu(const struct race_cpu *cpu, unsigned thread)
{
	struct kobj_world *w = kobj_world_peek();
	kobj_noted = cpu->noted;
	if (w) {
		w->last_take = cpu->last_take;
		w->next_put = cpu->next_put;
		w->next_put_obj = cpu->next_put_obj;
		w->site_from_c = cpu->site_from_c;
		w->thread = thread;
	}
}

void race_hand_over(struct race *r, unsigned from, unsigned to)
{
	save_cpu(&r->t[from].cpu);
	if (r->p->switched)
		r->p->switched(r->p->ctx, from, to);
	restore_cpu(&r->t[to].cpu, to);
	r->running = to;
}
