/* memory.c — tracked allocation for the detection algorithms: measured peak working memory,
 * an up-front limit with a message that says how much is needed, huge pages for big arrays. */
#include "base_internal.h"

#include <stdlib.h>
#include <sys/mman.h>

#define RBL_HUGE_ALIGN ((size_t)2 << 20)

int rbl_size_mul(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return 0;
    *out = a * b;
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
    void *p = NULL;
    size_t request = bytes ? bytes : 1;
    if (request >= RBL_HUGE_ALIGN) {
        size_t rounded = (request + RBL_HUGE_ALIGN - 1) / RBL_HUGE_ALIGN * RBL_HUGE_ALIGN;
        p = aligned_alloc(RBL_HUGE_ALIGN, rounded);
        if (p)
            (void)madvise(p, rounded, MADV_HUGEPAGE);
    } else {
        p = malloc(request);
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
    free(p);
    mem->current -= bytes;
}
