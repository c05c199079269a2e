/* The timeline page around its data (generated from core/pictures/timeline_page.html). */
#ifndef KOBJ_TIMELINE_PAGE_H
#define KOBJ_TIMELINE_PAGE_H

extern const char kobj_timeline_head[];
extern const char kobj_timeline_tail[];

#endif
