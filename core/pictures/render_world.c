/* A picture of a world in a file: its DOT text drawn by whichever kobj_render() this
 * program has (graphviz's dot here, its WebAssembly build in the browser). */
#include <stdio.h>
#include <stdlib.h>

#include "core/pictures/pictures.h"

int kobj_render_world(const struct kobj_world *w, const struct kobj_dot_options *options,
		      const char *file, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out) {
		snprintf(err, errlen, "no memory for the picture");
		return -1;
	}
	int rc = kobj_dot(w, options, out);
	fclose(out);
	if (rc) {
		snprintf(err, errlen, "no object at %s", options && options->path ? options->path : "/sys");
		free(text);
		return -1;
	}
	rc = kobj_render(text, file, err, errlen);
	free(text);
	return rc;
}
