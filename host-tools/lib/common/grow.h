/* SPDX-License-Identifier: MIT */
/* Library-internal: the one way the library grows an array it appends to (doubling, with the
 * count times the element size checked before realloc). */
#ifndef TINYPERF_HOST_TOOLS_LIB_COMMON_GROW_H
#define TINYPERF_HOST_TOOLS_LIB_COMMON_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "host-tools/lib/common/error.h"

/* Room in *arr, an array of *cap elements of elem_size bytes, for need elements: *cap doubles
 * (from first when it is 0) until need fits. 0, or -TP_ERR_NOMEM when realloc fails or the new
 * size in bytes would not fit a size_t; then *arr and *cap are left as they were. */
static inline int tp_grow_array(void **arr, size_t *cap, size_t need, size_t elem_size,
				size_t first)
{
	size_t n = *cap ? *cap : first ? first : 1;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : 2 * n;
	if (n > SIZE_MAX / elem_size)
		return -TP_ERR_NOMEM;
	p = realloc(*arr, n * elem_size);
	if (!p)
		return -TP_ERR_NOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

/* tp_grow_array() with the element size taken from the array: TP_GROW(v, cap, n + 1, 64) for
 * `struct x *v; size_t cap` */
#define TP_GROW(arr, cap, need, first) \
	tp_grow_array((void **)&(arr), &(cap), (need), sizeof(*(arr)), (first))

/* the same for the arrays counted in uint32_t (positions the indexes of common/htab.h hold):
 * from 64 elements, never past 2^31 */
static inline int tp_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem_size)
{
	size_t n = *cap;
	int err;

	if (need > UINT32_C(1) << 31)
		return -TP_ERR_NOMEM;
	err = tp_grow_array(arr, &n, need, elem_size, 64);
	if (!err)
		*cap = (uint32_t)n;
	return err;
}

#endif
