/* memory.c — tracked allocation for the detection algorithms: measured peak working memory,
 * an up-front limit with a message that says how much is needed, huge pages for big arrays. */
#include "base_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define RBL_HUGE_ALIGN ((size_t)2 << 20)
#define RBL_LINE ((size_t)64)
#define RBL_CACHE_SLOTS 16

/* The workspace: buffers given back by rbl_mem_free, kept for the next rbl_mem_alloc. */
struct rbl_cd_workspace {
    void *block[RBL_CACHE_SLOTS];
    size_t size[RBL_CACHE_SLOTS]; /* usable bytes of each block */
};

rbl_cd_workspace *rbl_cd_workspace_create(void) { return calloc(1, sizeof(rbl_cd_workspace)); }

void rbl_cd_workspace_destroy(rbl_cd_workspace *w)
{
    if (!w)
        return;
    for (int k = 0; k < RBL_CACHE_SLOTS; k++)
        free(w->block[k]);
    free(w);
}

/* Smallest cached block that holds bytes, or NULL. */
static void *cache_take(rbl_cd_workspace *w, size_t bytes)
{
    int best = -1;
    for (int k = 0; k < RBL_CACHE_SLOTS; k++)
        if (w->block[k] && w->size[k] >= bytes && (best < 0 || w->size[k] < w->size[best]))
            best = k;
    if (best < 0)
        return NULL;
    void *p = w->block[best];
    w->block[best] = NULL;
    return p;
}

/* Keep p for reuse; when the cache is full, drop the smallest block. */
static void cache_give(rbl_cd_workspace *w, void *p, size_t usable)
{
    int slot = -1;
    for (int k = 0; k < RBL_CACHE_SLOTS && slot < 0; k++)
        if (!w->block[k])
            slot = k;
    if (slot < 0) {
        slot = 0;
        for (int k = 1; k < RBL_CACHE_SLOTS; k++)
            if (w->size[k] < w->size[slot])
                slot = k;
        if (w->size[slot] >= usable) {
            free(p);
            return;
        }
        free(w->block[slot]);
    }
    w->block[slot] = p;
    w->size[slot] = usable;
}

/* Bytes actually allocated: whole cache lines, or whole 2 MiB pages for large buffers. */
static size_t usable_size(size_t bytes)
{
    size_t request = bytes ? bytes : 1;
    size_t align = request >= RBL_HUGE_ALIGN ? RBL_HUGE_ALIGN : RBL_LINE;
    return (request + align - 1) / align * align;
}

int rbl_size_mul(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}

int rbl_grow_array(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    size_t want = *cap ? *cap : 1024, bytes;
    while (want < need)
        want = want > SIZE_MAX / 2 ? need : 2 * want;
    if (!rbl_size_mul(want, size, &bytes))
        return 0;
    void *q = realloc(*p, bytes);
    if (!q)
        return 0;
    *p = q;
    *cap = want;
    return 1;
}

int rbl_grow_arrays(const rbl_grow_item *items, size_t n, size_t *cap, size_t need,
                    size_t first)
{
    if (need <= *cap)
        return 1;
    size_t want = *cap ? *cap : first;
    while (want < need)
        want = want > SIZE_MAX / 2 ? need : 2 * want;
    for (size_t k = 0; k < n; k++) {
        size_t bytes;
        if (!rbl_size_mul(want, items[k].size, &bytes))
            return 0;
        void *q = realloc(*items[k].p, bytes);
        if (!q)
            return 0;
        *items[k].p = q;
    }
    *cap = want;
    return 1;
}

int rbl_mem_reserve_check(const rbl_mem *mem, size_t bytes, const char *what, rbl_error *err)
{
    if (mem->limit && (bytes > mem->limit || mem->current > mem->limit - bytes))
        return rbl_error_set(err, RBL_ETOOBIG,
                             "%s needs %.3g GiB (%zu bytes) but the memory limit is %.3g GiB",
                             what, (double)bytes / (1 << 30), bytes,
                             (double)mem->limit / (1 << 30));
    return RBL_OK;
}

void *rbl_mem_alloc(rbl_mem *mem, size_t bytes, const char *what, rbl_error *err)
{
    if (rbl_mem_reserve_check(mem, bytes, what, err) != RBL_OK)
        return NULL;
    size_t usable = usable_size(bytes);
    void *p = mem->cache ? cache_take(mem->cache, usable) : NULL;
    if (!p && usable >= RBL_HUGE_ALIGN) {
        p = aligned_alloc(RBL_HUGE_ALIGN, usable);
        if (p)
            (void)madvise(p, usable, MADV_HUGEPAGE);
    } else if (!p) {
        p = aligned_alloc(RBL_LINE, usable);
    }
    if (!p) {
        rbl_error_set(err, RBL_ENOMEM, "cannot allocate %zu bytes for %s", bytes, what);
        return NULL;
    }
    mem->current += bytes;
    if (mem->current > mem->peak)
        mem->peak = mem->current;
    return p;
}

void rbl_mem_free(rbl_mem *mem, void *p, size_t bytes)
{
    if (!p)
        return;
    if (mem->cache)
        cache_give(mem->cache, p, usable_size(bytes));
    else
        free(p);
    mem->current -= bytes;
}

void *rbl_huge_calloc(size_t count, size_t size)
{
    size_t bytes;
    if (!rbl_size_mul(count, size, &bytes))
        return NULL;
    if (bytes < RBL_HUGE_ALIGN)
        return calloc(count, size);
    size_t rounded = (bytes + RBL_HUGE_ALIGN - 1) / RBL_HUGE_ALIGN * RBL_HUGE_ALIGN;
    void *p = aligned_alloc(RBL_HUGE_ALIGN, rounded);
    if (p) {
        (void)madvise(p, rounded, MADV_HUGEPAGE);
        memset(p, 0, bytes);
    }
    return p;
}

double rbl_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 0.0;
}

size_t rbl_peak_memory_bytes(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (size_t)ru.ru_maxrss * 1024u : 0;
}
