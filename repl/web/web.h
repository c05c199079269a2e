/* What the browser's entry points share (web.c, web_lesson.c, render_web.c). */
#ifndef KOBJ_REPL_WEB_H
#define KOBJ_REPL_WEB_H

#include <stdint.h>

#include <lua.h>

/* Where the worker writes the course, and the student's copies of the exercises. */
#define WEB_LESSONS "/lessons"
#define WEB_WORK "/home/kobj/lessons"

/* Views bigger than this are not drawn: graphviz cannot be stopped once it runs. */
#define WEB_MAX_DOT (256 * 1024)
#define WEB_MAX_EVENTS 20000

/* What a call from the page ended with. */
enum web_status {
	WEB_DONE = 0,
	WEB_ERROR = 1, /* a Lua error, printed on stderr */
	WEB_MORE = 2,  /* the statement goes on: nothing ran */
	WEB_ASK = 3,   /* a lesson's demo waits for a prediction (web_demo_answer) */
};

/* The sandbox's one Lua state (web_open makes it). */
extern lua_State *web_L;

/*
 * What worker.js calls (each documented where it is defined). Those that run Lua keep
 * what they return for web_returned() too: there a race's simulated threads run on
 * fibers (core/race/fibers.c), and a switch between them unwinds the WebAssembly stack
 * to JavaScript, so the value the call itself returns to JavaScript is lost.
 */
intptr_t web_returned(void);
int web_keep(int value);
const char *web_keep_text(const char *text);
int web_open(double max_instructions, int max_memory_mib);
int web_statement(const char *text);
const char *web_prompt(int pending);
const char *web_complete(const char *line, int start, int continuation);
const char *web_picture(void);
const char *web_timeline(void);
const char *web_view_error(void);
const char *web_check(int n, const char *file);
int web_demo(int n);
int web_demo_answer(const char *answer);
void web_demo_cancel(void);

#endif
