/* Doubly linked lists and container_of, as in <linux/list.h> and <linux/kernel.h>. */
#ifndef KOBJ_LIST_H
#define KOBJ_LIST_H

#include <stddef.h>

/**
 * container_of() - the structure that embeds a member
 * @ptr: pointer to the member
 * @type: type of the containing structure
 * @member: name of the member inside @type
 *
 * Return: pointer to the containing structure.
 */
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void list_add_tail(struct list_head *item, struct list_head *head)
{
	item->prev = head->prev;
	item->next = head;
	head->prev->next = item;
	head->prev = item;
}

/* Leaves @item pointing at itself so a second list_del_init is harmless. */
static inline void list_del_init(struct list_head *item)
{
	item->prev->next = item->next;
	item->next->prev = item->prev;
	INIT_LIST_HEAD(item);
}

static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)

#define list_for_each(pos, head) \
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

#define list_for_each_safe(pos, n, head) \
	for ((pos) = (head)->next, (n) = (pos)->next; (pos) != (head); \
	     (pos) = (n), (n) = (pos)->next)

#endif
