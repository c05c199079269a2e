/* mallinfo2() from emscripten's mallinfo() (libc/malloc.h says why). */
#include <malloc.h>

struct mallinfo2 mallinfo2(void)
{
	struct mallinfo m = mallinfo();

	return (struct mallinfo2){
		.arena = (size_t)m.arena, .ordblks = (size_t)m.ordblks, .smblks = (size_t)m.smblks,
		.hblks = (size_t)m.hblks, .hblkhd = (size_t)m.hblkhd, .usmblks = (size_t)m.usmblks,
		.fsmblks = (size_t)m.fsmblks, .uordblks = (size_t)m.uordblks,
		.fordblks = (size_t)m.fordblks, .keepcost = (size_t)m.keepcost,
	};
}
