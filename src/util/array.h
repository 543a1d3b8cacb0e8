/*
 * Growing the runtime's appendable arrays: a pointer, a count n in use and
 * a capacity cap, grown by doubling (from a first capacity the owner picks)
 * when an append finds it full.  One place for the arithmetic the owners
 * used to spell out each on its own (queue pages, dealloc callbacks,
 * system-event handlers, registered runs, the suballocator's cache).
 *
 * No locking here: the owner calls it under the lock that guards the array.
 */
#ifndef HSALITE_UTIL_ARRAY_H
#define HSALITE_UTIL_ARRAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/*
 * Room for one more element in items (n of *cap in use, elem bytes each):
 * returns items itself while n < *cap; otherwise the array reallocated to
 * twice *cap (first when *cap is 0) with *cap updated.  NULL when the
 * memory is not there or the size would not fit a size_t: items and *cap
 * are then unchanged and still the owner's.  The caller stores the result
 * back before appending.
 */
static inline void *hl_array_room(void *items, uint32_t n, uint32_t *cap, size_t elem,
				  uint32_t first)
{
	if (!cap || !elem || !first || n > *cap)
		return NULL;
	if (n < *cap)
		return items;
	uint32_t grown = *cap ? *cap * 2 : first;
	if (grown <= *cap || grown > SIZE_MAX / elem)
		return NULL;
	void *p = realloc(items, (size_t)grown * elem);
	if (p)
		*cap = grown;
	return p;
}

#endif
