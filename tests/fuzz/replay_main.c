/*
 * The core fuzzer without libFuzzer, as `bazel test` runs it: every input of the corpus,
 * then a fixed number of deterministic mutations of them (bytes flipped, inserted,
 * removed, runs of random operations appended, two inputs spliced), each checked by
 * fz_run(). The same seed gives the same inputs on every machine.
 *
 * Usage: replay_main [--mutations N] [--seed S] CORPUS_DIR...
 *        replay_main --trace FILE     the operations of one input as C, then its checks
 */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

#include "tests/fuzz/core_fuzz.h"

#define FZ_MAX_INPUT 4096

extern bool fz_twice;

struct input {
	char *name;
	uint8_t *data;
	size_t size;
};

static struct input *inputs;
static size_t ninputs, inputs_cap;
static unsigned long long rng = 0x6b6f626a66757a7aull;

static unsigned long long next_random(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static void add_input(const char *name, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(2);
	}
	uint8_t *data = malloc(FZ_MAX_INPUT);
	size_t n = fread(data, 1, FZ_MAX_INPUT, f);
	fclose(f);
	if (ninputs == inputs_cap) {
		inputs_cap = inputs_cap ? 2 * inputs_cap : 64;
		inputs = realloc(inputs, inputs_cap * sizeof(*inputs));
	}
	inputs[ninputs++] = (struct input){ strdup(name), data, n };
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct input *)a)->name, ((const struct input *)b)->name);
}

static void load_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	if (!d) {
		perror(dir);
		exit(2);
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strstr(e->d_name, "README"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		add_input(e->d_name, path);
	}
	closedir(d);
}

/* A mutation of input @src into @out; Return: its size. */
static size_t mutate(const struct input *src, uint8_t *out)
{
	size_t n = src->size < FZ_MAX_INPUT ? src->size : FZ_MAX_INPUT;
	memcpy(out, src->data, n);
	for (int k = 1 + (int)(next_random() % 4); k > 0; k--) {
		size_t at = n ? next_random() % n : 0;
		switch (next_random() % 5) {
		case 0: /* flip a byte */
			if (n)
				out[at] ^= (uint8_t)(1u << next_random() % 8);
			break;
		case 1: /* a random byte in place */
			if (n)
				out[at] = (uint8_t)next_random();
			break;
		case 2: /* insert random bytes */
			for (int j = (int)(next_random() % 8); j > 0 && n < FZ_MAX_INPUT; j--, n++) {
				memmove(out + at + 1, out + at, n - at);
				out[at] = (uint8_t)next_random();
			}
			break;
		case 3: /* remove a run */
			if (n) {
				size_t len = 1 + next_random() % 8;
				len = len > n - at ? n - at : len;
				memmove(out + at, out + at + len, n - at - len);
				n -= len;
			}
			break;
		default: { /* splice in the tail of another input */
			const struct input *o = &inputs[next_random() % ninputs];
			size_t from = o->size ? next_random() % o->size : 0;
			size_t len = o->size - from;
			len = len > FZ_MAX_INPUT - at ? FZ_MAX_INPUT - at : len;
			memcpy(out + at, o->data + from, len);
			n = at + len > n ? at + len : n;
			break;
		}
		}
	}
	return n;
}

/* A crash of the process: the input that made it, then the crash as it was. */
static void on_crash(int sig)
{
	fz_dump_input();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_crashes(void)
{
	const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], on_crash);
#if defined(__SANITIZE_ADDRESS__)
	__sanitizer_set_death_callback(fz_dump_input);
#endif
}

static int trace_one(const char *path)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	add_input(path, path);
	fz_run(inputs[0].data, inputs[0].size, stdout);
	puts("/* every invariant held */");
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long mutations = 2000;
	int i = 1;

	catch_crashes();
	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		if (i + 1 >= argc)
			break;
		if (strcmp(argv[i], "--trace") == 0)
			return trace_one(argv[i + 1]);
		if (strcmp(argv[i], "--mutations") == 0)
			mutations = strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--seed") == 0)
			rng = strtoull(argv[i + 1], NULL, 0) | 1;
	}
	for (; i < argc; i++)
		load_dir(argv[i]);
	if (!ninputs) {
		fputs("usage: replay_main [--mutations N] [--seed S] CORPUS_DIR... | --trace FILE\n",
		      stderr);
		return 2;
	}
	qsort(inputs, ninputs, sizeof(*inputs), by_name);
	fz_twice = true; /* the corpus: also the same views twice */
	for (size_t k = 0; k < ninputs; k++)
		fz_run(inputs[k].data, inputs[k].size, NULL);
	static uint8_t buf[FZ_MAX_INPUT];
	for (unsigned long m = 0; m < mutations; m++) {
		fz_twice = m % 8 == 0;
		size_t n = mutate(&inputs[next_random() % ninputs], buf);
		fz_run(buf, n, NULL);
	}
	printf("core fuzz: %zu corpus inputs and %lu mutations, every invariant held\n", ninputs,
	       mutations);
	return 0;
}
