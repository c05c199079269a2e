/* The timeline page: one frame per event, self-contained, positions computed once, call
 * stacks, sources, folds and the leak picture as its last frame. */
#include <unistd.h>

#include "core/pictures/pictures.h"
#include "core/report/report.h"
#include "tests/core/fixture.h"

static char *read_source(const char *file, void *ctx)
{
	(void)ctx;
	return strcmp(file, "lesson.lua") == 0 ? strdup("-- line 1\nline 2 </script>\n") : NULL;
}

/* Not inlined: GCC 12 at -O2 then takes the stream's hold on &text for a dangling pointer. */
__attribute__((noinline)) static char *timeline(void **state, int *rc, char *err)
{
	const struct kobj_timeline_options o = { .title = "t<1>", .read_source = read_source };
	char *text = NULL;
	CAPTURE(text, *rc = kobj_timeline_page(*state, &o, out, err, 256));
	return text;
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* The text between "@name: [" and "],\n@next:". */
static char *section(const char *page, const char *name, const char *next)
{
	char start[64], end[64];
	snprintf(start, sizeof(start), "\n%s: [", name);
	snprintf(end, sizeof(end), "],\n%s:", next);
	const char *from = strstr(page, start);
	assert_non_null(from);
	from += strlen(start);
	const char *to = strstr(from, end);
	assert_non_null(to);
	return strndup(from, (size_t)(to - from));
}

static void one_frame_per_event(void **state)
{
	if (access("/usr/bin/dot", X_OK) != 0)
		skip();
	struct my_object *a = new_object("alpha"), *b = new_object("beta");
	kobject_register(&a->kobj);
	b->kobj.parent = &a->kobj;
	kobject_register(&b->kobj);
	kobject_unregister(&b->kobj);
	kobject_unregister(&a->kobj);
	kobject_put(&a->kobj); /* a diagnostic frame */

	int rc;
	char err[256];
	char *page = timeline(state, &rc, err);
	assert_int_equal(rc, 0);
	char *frames = section(page, "frames", "leak");
	/* each frame but the first starts a line with [; nothing else in the data does */
	assert_int_equal(count(frames, ",\n[") + 1, kobj_log_count(*state));
	assert_non_null(strstr(page, "[1,\"alpha\","));
	assert_non_null(strstr(page, "[2,\"beta\","));
	assert_non_null(strstr(page, "routes: [[2,1,["));              /* beta -> alpha */
	assert_non_null(strstr(page, "refcount_t: underflow; use-after-free."));
	assert_non_null(strstr(page, "title: \"t\\u003c1\\u003e\""));   /* escaped for <script> */
	assert_non_null(strstr(page, "leak: {svg: \"\\u003csvg"));       /* the last frame */
	assert_non_null(strstr(page, "text: \"End of the run: 1 diagnostic.\\nNo leaks"));
	assert_null(strstr(page, "<script src"));
	assert_null(strstr(page, "<link"));
	free(frames);
	free(page);
}

/* Each event names its site; a site with callers is a call stack; the scripts the sites
 * name come with their text, where the caller can give it. */
static void call_stacks_and_sources(void **state)
{
	if (access("/usr/bin/dot", X_OK) != 0)
		skip();
	struct kobj_world *w = *state;
	struct my_object *a = new_object("a");
	unsigned outer = kobj_site_in(w, "lesson.lua", 20, NULL, 0);
	unsigned helper = kobj_site_in(w, "lesson.lua", 5, NULL, outer);
	assert_int_not_equal(helper, kobj_site(w, "lesson.lua", 5, NULL)); /* its caller differs */
	assert_int_equal(kobj_site_caller(w, helper), outer);
	kobj_note_site_id(helper);
	(kobject_init)(&a->kobj);
	kobj_note_origin("other.lua", 3);
	(kobject_put)(&a->kobj);

	int rc;
	char err[256];
	char *page = timeline(state, &rc, err);
	assert_int_equal(rc, 0);
	char *sites = section(page, "sites", "files");
	char *files = section(page, "files", "frames");
	/* the caller first, then the helper's line called from it, then other.lua:3 */
	assert_string_equal(sites, "[0,20,null,-1],[0,5,null,0],[1,3,null,-1]");
	assert_string_equal(files, "[\"lesson.lua\",\"-- line 1\\nline 2 \\u003c/script\\u003e\\n\"],\n"
				   "[\"other.lua\",null]");
	assert_non_null(strstr(page, "frames: [\n[1,0,0,"));  /* the init: site 1, thread 0 */
	free(sites);
	free(files);
	free(page);
}

static void wide_ksets_fold_in_the_timeline_too(void **state)
{
	if (access("/usr/bin/dot", X_OK) != 0)
		skip();
	static decl_subsys(wide, &my_ktype, NULL);
	static struct kset set;
	memset(&set, 0, sizeof(set));
	struct my_object *m[9];
	subsystem_register(&wide_subsys);
	kobject_set_name(&set.kobj, "set");
	set.subsys = &wide_subsys;
	kset_register(&set);
	for (int i = 0; i < 9; i++) {
		char name[8];
		snprintf(name, sizeof(name), "m%d", i);
		m[i] = new_object(name);
		m[i]->kobj.kset = &set;
		kobject_register(&m[i]->kobj);
	}
	int rc;
	char err[256];
	char *page = timeline(state, &rc, err);
	assert_int_equal(rc, 0);
	char *folds = section(page, "folds", "links");
	/* the page folds sooner than pictures: m2 to m6 (ids 5 to 9) in the kset's (id 2) */
	assert_non_null(strstr(folds, "\n[2,"));
	assert_non_null(strstr(folds, ",[5,6,7,8,9]]"));
	assert_null(strstr(page, "\n[6,\"m3\","));         /* no box of its own */
	assert_non_null(strstr(page, "\"m3\""));           /* but its name, for the page */
	free(folds);
	free(page);
	for (int i = 8; i >= 0; i--)
		kobject_unregister(&m[i]->kobj);
	kset_unregister(&set);
	subsystem_unregister(&wide_subsys);
}

static void missing_graphviz_is_explained(void **state)
{
	char *old = strdup(getenv("PATH"));
	setenv("PATH", "/nonexistent", 1);
	int rc;
	char err[256], *page = NULL;
	CAPTURE(page, rc = kobj_timeline_html(*state, "title only", out, err, sizeof(err)));
	setenv("PATH", old, 1);
	free(old);
	free(page);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "graphviz's dot was not found"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(one_frame_per_event),
		TEST(call_stacks_and_sources),
		TEST(wide_ksets_fold_in_the_timeline_too),
		TEST(missing_graphviz_is_explained),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
