/*
 * Writes the timeline of a small, known world to the file named by argv[1], for the
 * browser test: a subsystem, a kset with two members, a child, a double put, a del.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/pictures/pictures.h"
#include "core/report/report.h"
#include "core/model/kobject.h"

struct my_object {
	struct kobject kobj;
};

static void release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct my_object, kobj));
}

static struct kobj_type ktype = { .release = release };
static decl_subsys(bus, &ktype, NULL);

static struct my_object *make(const char *name)
{
	struct my_object *o = kzalloc(sizeof(*o), GFP_KERNEL);
	o->kobj.ktype = &ktype;
	kobject_set_name(&o->kobj, "%s", name);
	return o;
}

int main(int argc, char **argv)
{
	static struct kset drivers = { .subsys = &bus_subsys, .ktype = &ktype };
	struct my_object *a = make("e1000"), *b = make("tg3"), *port = make("port0");
	char err[256];

	if (argc != 2)
		return 2;
	kobj_note_origin("lesson.lua", 1);
	(subsystem_register)(&bus_subsys);
	kobject_set_name(&drivers.kobj, "drivers");
	kset_register(&drivers);
	a->kobj.kset = b->kobj.kset = &drivers;
	kobject_register(&a->kobj);
	kobject_register(&b->kobj);
	port->kobj.parent = &a->kobj;
	kobject_register(&port->kobj);
	kobject_unregister(&port->kobj);
	kobject_put(&port->kobj);
	kobject_del(&b->kobj);

	FILE *out = fopen(argv[1], "w");
	if (!out || kobj_timeline_html(kobj_world_current(), &(struct kobj_timeline_options){ .title = "fixture" }, out, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	fclose(out);
	kobject_unregister(&a->kobj);
	kobject_put(&b->kobj);
	kset_unregister(&drivers);
	subsystem_unregister(&bus_subsys);
	return kobj_leak_count(kobj_world_current()) != 0;
}
