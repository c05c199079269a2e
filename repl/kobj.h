/*
 * The kobj program's parts and what they share. Each part is a file named for what it
 * holds: main.c (arguments, usage, dispatch), call.c (running user code: traceback,
 * Ctrl-C, limits), limits.c (memory cap, instruction budget), costs.c (what the standard
 * library's C functions cost), sandbox.c (the restricted environment), chunk.c
 * (compiling what is typed, printing its results), print.c (showing values), wrap.c
 * (text wrapped to the terminal), run.c (`kobj run`, -e, standard input), interactive.c
 * (the readline loop), complete.c (tab completion), commands.c (:help ...); the course
 * is in lesson.h.
 */
#ifndef KOBJ_REPL_KOBJ_H
#define KOBJ_REPL_KOBJ_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <lua.h>

#define KOBJ_VERSION "0.1.0"
#define KOBJ_PROGNAME "kobj"

/* Exit statuses of the program. */
enum kobj_exit {
	KOBJ_EXIT_OK = 0,
	KOBJ_EXIT_LUA = 1,    /* a Lua error: syntax, runtime, budget, memory, interrupt */
	KOBJ_EXIT_USAGE = 2,  /* bad arguments, a script that cannot be opened */
	KOBJ_EXIT_STRICT = 3, /* --strict: the run left a diagnostic or a leaked object */
};

#define KOBJ_DEFAULT_MAX_INSTRUCTIONS 100000000ULL /* 100M */
#define KOBJ_DEFAULT_MAX_MEMORY_MIB 128

/* What the command line asked for (main.c fills it, the rest only reads it). */
struct kobj_opts {
	const char **snippets;  /* -e CODE, in order; points into argv */
	int nsnippets;
	const char *script;     /* `run FILE`: the file, "-" for standard input, or NULL */
	char **script_args;     /* the arguments after FILE (points into argv) */
	int nscript_args;
	bool interactive;       /* -i: enter the REPL after the snippets and the script */
	bool strict;            /* --strict */
	bool report;            /* print diagnostics and leaks at the end (--no-report clears) */
	const char *record;     /* --record FILE.html: the timeline of the run */
	const char *picture;    /* --dot FILE.svg: a picture of the world at the end */
	const char *write_dir;  /* --write-dir DIR: where dot("name.svg") may write */
	const char *schedule;   /* --schedule S: what simulated threads follow */
	char **lesson_argv;     /* `kobj lesson ...`: from "lesson" on */
	int lesson_argc;
	unsigned long long max_instructions; /* 0: no budget */
	size_t max_memory_mib;  /* 0: no cap */
};

/* Colour only on a terminal and when NO_COLOR is unset or empty (main.c decides). */
extern bool kobj_color_stdout;
extern bool kobj_color_stderr;

/* ------------------------------------------------------------------------ limits.c */

enum kobj_fatal {
	KOBJ_FATAL_NONE,
	KOBJ_FATAL_BUDGET,    /* the instruction budget ran out */
	KOBJ_FATAL_INTERRUPT, /* Ctrl-C */
	KOBJ_FATAL_MEMORY,    /* the memory cap refused an allocation */
};

/*
 * The limits of one Lua state. The allocator's user data, so any thread reaches it
 * through lua_getallocf(). "Armed" only while user code runs (call.c), so the program's
 * own work (printing an error, completion lists) is never refused.
 */
struct kobj_limits {
	size_t used;                  /* bytes Lua holds now */
	size_t core;                  /* bytes the rest of the process holds (last measured) */
	size_t core_measured;         /* kobj_mem_in_use() at that measurement */
	unsigned ticks_to_measure;    /* hook ticks until the heap is measured again */
	size_t cap;                   /* bytes; 0 = no cap */
	bool mem_armed;
	unsigned long long budget;    /* instructions per call; 0 = none */
	unsigned long long spent;     /* instructions counted so far in this call */
	unsigned long long total;     /* instructions counted in every call so far */
	bool budget_armed;
	enum kobj_fatal fatal;        /* set when a limit stopped the call; not catchable */
	enum kobj_fatal first_stop;   /* the first stop of the whole run, never cleared */
	volatile sig_atomic_t interrupted; /* set by the SIGINT handler */
	lua_State *main;              /* the main thread, for the signal handler */
};

void limits_init(struct kobj_limits *lim, size_t max_memory_mib,
		 unsigned long long max_instructions);
void *limits_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
struct kobj_limits *limits_of(lua_State *L);
/* Installs the counting hook on @L (new threads inherit it); the first call also lets
 * the bindings charge their work (registry field "kobject.charge"). */
void limits_install(lua_State *L);
/* From a signal handler: make the running code stop at its next instruction. */
void limits_interrupt(struct kobj_limits *lim);
/* Before and after user code: a fresh budget, the cap on; then both off. */
void limits_arm(struct kobj_limits *lim);
void limits_disarm(struct kobj_limits *lim);
/*
 * limits_charge() - count @units of work done in C (a pattern match, a copy, a walk of
 * the world) against the budget, as if they were instructions. Raises the stop when
 * the budget, the memory cap or Ctrl-C says so, and when a stop is already under way.
 * Call it only where a Lua error may be raised.
 */
void limits_charge(lua_State *L, unsigned long long units);
/*
 * limits_uncatchable() - whether an error that a script's pcall caught must go on up
 * @status: the status pcall got. Return: true for the budget, Ctrl-C and the cap.
 */
bool limits_uncatchable(lua_State *L, int status);
/* The message for a fatal stop, e.g. "memory limit reached (128 MiB; ...)". */
const char *limits_message(const struct kobj_limits *lim, char *buf, size_t size);
/* The message of @reason (the current stop, or first_stop for a whole run). */
const char *limits_reason(const struct kobj_limits *lim, enum kobj_fatal reason, char *buf,
			  size_t size);

/* -------------------------------------------------------------------------- call.c */

/*
 * kobj_docall() - call the function below @narg arguments with a traceback handler,
 * Ctrl-C interrupting it, and the limits armed (lua.c `docall`)
 * Return: the lua_pcall status; on error the message (with traceback) is on the stack.
 */
int kobj_docall(lua_State *L, int narg, int nres);
/*
 * kobj_report() - print the error message on top of the stack (if @status is not
 * LUA_OK) to stderr, prefixed with @progname unless NULL, and pop it.
 * Return: @status.
 */
int kobj_report(lua_State *L, int status, const char *progname);
/* Prints "kobj: <msg>" (or just msg without @progname) to stderr. */
void kobj_message(const char *progname, const char *msg);

/* ----------------------------------------------------------------------- sandbox.c */

/* Opens the safe libraries and the kobject module in the host state; call once. */
void sandbox_open(lua_State *L);
/* Makes a fresh environment (the lesson-facing names, safe libraries), current. */
void sandbox_new_env(lua_State *L);
/* Pushes the current environment table. */
void sandbox_push_env(lua_State *L);
/* Makes the table at @idx the current environment. */
void sandbox_use_env(lua_State *L, int idx);
/* The environment at @idx looks up the names it lacks in the current one. */
void sandbox_fall_back(lua_State *L, int idx);
/* In the current environment, reset() refuses: a check run keeps its world. */
void sandbox_graded_env(lua_State *L);
/* --write-dir: the one folder where dot("name.svg") may write; none by default. */
void sandbox_set_write_dir(const char *dir);
/*
 * sandbox_loadbuffer() / sandbox_loadfile() - compile text (never binary) with the
 * sandbox's environment. @path "-" or NULL reads standard input, named "=stdin".
 * Return: a lua_load status; the function or the error message is pushed.
 */
int sandbox_loadbuffer(lua_State *L, const char *s, size_t len, const char *chunkname);
int sandbox_loadfile(lua_State *L, const char *path);

/* ------------------------------------------------------------------------- costs.c */

/* Charges the standard library's unbounded C functions to the budget (host tables). */
void costs_wrap(lua_State *L);

/* ------------------------------------------------------------------------- chunk.c */

/* Pushes _PROMPT or _PROMPT2 from the environment when it is a string, else the
 * default ("kobj:12> ") with the number of the line about to be read, @lineno. */
const char *chunk_push_prompt(lua_State *L, bool first, int lineno);
/* The lines of @text: one more than its newlines. */
int chunk_count_lines(const char *text);
/*
 * chunk_load_numbered() - compile @text (@len bytes) in the sandbox, named "=stdin", as
 * if it followed @lines_before lines, so that its origins count the session's lines
 * Return: a lua_load status; the function or the error message is pushed.
 */
int chunk_load_numbered(lua_State *L, const char *text, size_t len, int lines_before);
/* Whether @status and the message on top say the statement goes on (a syntax error at
 * <eof>); if so the message is popped. */
bool chunk_incomplete(lua_State *L, int status);
/* Prints the values above stack index @base through print_values, protected. */
void chunk_print_results(lua_State *L, int base);
/*
 * chunk_report_error() - an error at the prompt: its message, without the traceback when
 * the error is in the line just typed or was Ctrl-C (:trace shows it). Pops the message.
 */
void chunk_report_error(lua_State *L);
/* The last error at the prompt with its traceback (:trace), or NULL if none yet. */
const char *repl_last_error(void);
/* Forgets the last error (the prompt is left). */
void chunk_forget_error(void);

/* ------------------------------------------------------------------------- print.c */

/* A lua_CFunction: prints its arguments readably on one line each group, tab-separated,
 * to stdout (colour when kobj_color_stdout). Runs user __tostring: call it protected. */
int print_values(lua_State *L);

/* -------------------------------------------------------------------------- wrap.c */

/* The width to wrap text to on @fd: its terminal's, or 0 when it is not a terminal. */
int wrap_width(int fd);
/* wrap_fputs() - @text with each line longer than @width broken at spaces, continued
 * with the line's indentation; @width 0 writes it unchanged. */
void wrap_fputs(const char *text, int width, FILE *out);
/* wrap_text() - Markdown @text (a lesson, a hint) on @out, its paragraphs filled again
 * when the terminal is narrower than the text; unchanged when @out is no terminal. */
void wrap_text(const char *text, FILE *out);
/* A lua_CFunction: print(), its lines wrapped to the terminal of stdout. */
int wrap_print(lua_State *L);

/* --------------------------------------------------------------------------- run.c */

/* Runs the -e snippets and the script, then the report. Return: an exit status. */
int run_batch(lua_State *L, const struct kobj_opts *o);
/* Prints the diagnostics and leak report of the current world to @out.
 * Return: the number of diagnostics plus leaked objects. */
size_t run_report(lua_State *L, FILE *out);

/* ------------------------------------------------------------------------- views.c */

/* The timeline and the leak picture a run was asked for. */
struct views {
	const char *record;     /* --record FILE.html, or NULL */
	const char *picture;    /* --dot FILE.svg (.png, .pdf, .dot), or NULL */
	const char *title;      /* the page's title */
	const char *script;     /* a script the page may show by its exact name, or NULL */
	const char *dirs[3];    /* folders whose .lua files it may show, by relative name */
};

/* views_prepare() - before the run: note call stacks when a view was asked for. */
void views_prepare(lua_State *L, const struct views *v);
/* views_write() - after the run: write what was asked. Return: 0, or 1 after a message. */
int views_write(lua_State *L, const struct views *v);

/* ------------------------------------------------------------------- interactive.c */

/* The REPL until Ctrl-D or :quit. Return: an exit status. */
int repl_run(lua_State *L);

/* ---------------------------------------------------------------------- complete.c */

void complete_init(lua_State *L);
/*
 * complete_collect() - a lua_CFunction: the candidates for the line up to the cursor
 * (argument 1) whose word starts at byte (argument 2); returns an array of strings that
 * replace the word. Needs no readline (the browser's prompt calls it too).
 */
int complete_collect(lua_State *L);
/* Whether the line being read continues a statement (changes what ':' means). */
void complete_set_continuation(bool continuation);

/* ------------------------------------------------------------------------ lesson.c */

/* `kobj lesson ...`: argv[0] is "lesson". Return: an exit status. */
int lesson_main(lua_State *L, int argc, char **argv, const struct kobj_opts *o);
/* real.c: "real FILE.c" or "lesson real N [FILE.c]" (argv[0] is "real" or "lesson"). */
int real_main(int argc, char **argv);

/* ---------------------------------------------------------------------- commands.c */

enum command_result { COMMAND_DONE, COMMAND_QUIT };

/* Runs a line that starts with ':' (leading blanks allowed). */
enum command_result commands_run(lua_State *L, const char *line);
/* The command names without ':', NULL-terminated. */
extern const char *const commands_names[];

#endif
