/* direct.c — self-gravity by direct summation over every pair (seed 002 §2.4 eq. for F_G):
 * the reference the other methods are measured against. O(N^2); each grain sums the others
 * in input order (id order when ids are given), so the result does not depend on the number
 * of threads (nor, with ids, on the input's order). */
#include "gravity_internal.h"

void rbl_gravity_direct(rbl_gravity_work *w, const rbl_gravity_input *in, int threads,
                        double *acc, double *phi, double *interactions)
{
    const size_t n = in->n;
    for (size_t k = 0; k < n; k++)
        w->order[k] = (uint32_t)k, w->keys[k] = 0;
    rbl_gravity_sort_sources(w, in, 0); /* input order, or id order */
    const rbl_gravity_source *src = w->src;
    const uint32_t *order = w->order;
    const long count = (long)n;
    uint64_t wanted = 0;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads) reduction(+ : wanted)
    for (long i = 0; i < count; i++) {
        const size_t k = order[i];
        if (in->want && !in->want[k])
            continue;
        wanted++;
        double a[3] = {0.0, 0.0, 0.0}, p = 0.0;
        const double *x = src[i].x, r = src[i].r;
        for (long j = 0; j < i; j++)
            rbl_gravity_pair(x, r, src + j, a, &p);
        for (long j = i + 1; j < count; j++)
            rbl_gravity_pair(x, r, src + j, a, &p);
        acc[3 * k] = a[0], acc[3 * k + 1] = a[1], acc[3 * k + 2] = a[2];
        phi[k] = p;
    }
    *interactions = (double)wanted * (double)(n - 1);
}
