/* cells.c — self-gravity by the Cell scheme of seed 002 §2.6.2 (SPEC SD5): space is cut into
 * lattices of edge d1 = 2.5 r_max (the seed's contact lattice, §2.6.1) grouped into cubic
 * Cells of Nc^3 lattices. Grains in the same Cell attract pair by pair, exactly; every other
 * Cell acts as one point of its total mass at its centre of mass, both recomputed at every
 * evaluation. The Cells tile space from the lower corner of the grains' bounding box (the seed
 * tiles its box from its lower corner; an open domain has none), found by sorting the grains
 * on their Cell key. Each grain sums its own Cell in sorted order, then the
 * other Cells in key order: the result does not depend on the thread count. */
#include "gravity_internal.h"

#include <stdlib.h>

#define AXIS_BITS 21

int rbl_gravity_cells(rbl_gravity_work *w, const rbl_self_gravity *cfg,
                      const rbl_gravity_input *in, int threads, double *acc, double *phi,
                      double *interactions, rbl_error *err)
{
    const size_t n = in->n;
    *interactions = 0.0;
    double r_max = 0.0, lo[3] = {INFINITY, INFINITY, INFINITY};
    for (size_t k = 0; k < n; k++) {
        r_max = fmax(r_max, in->radius[k]);
        for (int a = 0; a < 3; a++)
            lo[a] = fmin(lo[a], in->pos[3 * k + a]);
    }
    const double d1 = cfg->lattice > 0.0 ? cfg->lattice : 2.5 * r_max;
    const double edge = (double)cfg->cells * d1;
    if (!(edge > 0.0 && isfinite(edge)))
        return rbl_error_set(err, RBL_EINVAL,
                             "self-gravity: cells: the Cell edge Nc d1 = %g m is not usable "
                             "(grains of radius 0 need an explicit lattice edge)",
                             edge);
    const double top = (double)((1u << AXIS_BITS) - 1);
    for (size_t k = 0; k < n; k++) {
        uint64_t key = 0;
        for (int a = 0; a < 3; a++) {
            double c = floor((in->pos[3 * k + a] - lo[a]) / edge);
            if (!(c <= top))
                return rbl_error_set(err, RBL_ERANGE,
                                     "self-gravity: cells: the grains spread over more than "
                                     "2^21 Cells of %g m along %c; remove escaped grains "
                                     "(domain: {open: true, escape: R}) or use method: tree",
                                     edge, "xyz"[a]);
            key |= (uint64_t)c << (AXIS_BITS * a);
        }
        w->keys[k] = key;
        w->order[k] = (uint32_t)k;
    }
    rbl_gravity_sort_sources(w, in, 3 * AXIS_BITS);
    const rbl_gravity_source *src = w->src;
    /* the Cells: runs of equal keys */
    size_t cells = 1;
    for (size_t t = 1; t < n; t++)
        cells += w->keys[t] != w->keys[t - 1];
    if (cells + 1 > w->cells_cap) {
        size_t *s = realloc(w->cell_start, (cells + 1) * sizeof *s);
        if (s)
            w->cell_start = s;
        rbl_gravity_source *m = s ? realloc(w->cell_mono, (cells + 1) * sizeof *m) : NULL;
        if (!m)
            return rbl_error_set(err, RBL_ENOMEM, "self-gravity: out of memory for %zu Cells",
                                 cells);
        w->cell_mono = m;
        w->cells_cap = cells + 1;
    }
    w->n_cells = cells;
    size_t *start = w->cell_start;
    rbl_gravity_source *mono = w->cell_mono;
    size_t c = 0;
    start[0] = 0;
    for (size_t t = 1; t < n; t++)
        if (w->keys[t] != w->keys[t - 1])
            start[++c] = t;
    start[cells] = n;
    for (c = 0; c < cells; c++) { /* each Cell's mass at its centre of mass */
        double m = 0.0, mx[3] = {0, 0, 0};
        for (size_t t = start[c]; t < start[c + 1]; t++) {
            m += src[t].m;
            for (int a = 0; a < 3; a++)
                mx[a] += src[t].m * src[t].x[a];
        }
        for (int a = 0; a < 3; a++)
            mono[c].x[a] = mx[a] / m;
        mono[c].m = m;
        mono[c].r = r_max; /* bounded should a centre of mass come within reach of a grain */
    }
    const long n_cells = (long)cells;
    uint64_t total = 0;
    const uint32_t *order = w->order;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(+ : total)
    for (long own = 0; own < n_cells; own++) {
        for (size_t t = start[own]; t < start[own + 1]; t++) {
            if (in->want && !in->want[order[t]])
                continue;
            double a[3] = {0.0, 0.0, 0.0}, p = 0.0;
            const double *x = src[t].x, r = src[t].r;
            for (size_t k = start[own]; k < start[own + 1]; k++)
                if (k != t)
                    rbl_gravity_pair(x, r, src + k, a, &p);
            for (long other = 0; other < n_cells; other++)
                if (other != own)
                    rbl_gravity_pair(x, r, mono + other, a, &p);
            total += (start[own + 1] - start[own] - 1) + (uint64_t)(n_cells - 1);
            const size_t k = order[t];
            acc[3 * k] = a[0], acc[3 * k + 1] = a[1], acc[3 * k + 2] = a[2];
            phi[k] = p;
        }
    }
    *interactions = (double)total;
    return RBL_OK;
}
