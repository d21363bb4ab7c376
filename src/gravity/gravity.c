/* gravity.c — self-gravity behind one interface (SPEC SD5): the checks of a configuration,
 * its defaults, the workspace, and the dispatch to the direct sum, the seed's Cell scheme
 * (seed 002 §2.6.2) or the Barnes-Hut tree; the result is scaled by G once, at the end. */
#include "gravity_internal.h"

#include <stdlib.h>
#include <string.h>

int rbl_self_gravity_check(const rbl_self_gravity *cfg, rbl_error *err)
{
    if (cfg->method < RBL_GRAVITY_OFF || cfg->method > RBL_GRAVITY_TREE)
        return rbl_error_set(err, RBL_EINVAL, "self-gravity: unknown method %d", (int)cfg->method);
    if (!(cfg->G >= 0.0 && isfinite(cfg->G)))
        return rbl_error_set(err, RBL_EINVAL,
                             "self-gravity: G must be a finite number > 0: '%g'", cfg->G);
    if (!(cfg->theta == 0.0 || (cfg->theta > 0.0 && cfg->theta <= 1.5)))
        return rbl_error_set(err, RBL_EINVAL,
                             "self-gravity: the opening angle theta must be in (0, 1.5]: '%g'",
                             cfg->theta);
    if (cfg->cells < 0 || cfg->cells > 1000)
        return rbl_error_set(err, RBL_EINVAL,
                             "self-gravity: Nc (lattices per Cell edge) must be in [1, 1000]: "
                             "'%d'",
                             cfg->cells);
    if (!(cfg->lattice >= 0.0 && isfinite(cfg->lattice)))
        return rbl_error_set(err, RBL_EINVAL,
                             "self-gravity: the lattice edge d1 must be > 0: '%g'", cfg->lattice);
    return RBL_OK;
}

rbl_self_gravity rbl_self_gravity_resolved(const rbl_self_gravity *cfg)
{
    rbl_self_gravity c = *cfg;
    if (c.G == 0.0)
        c.G = RBL_GRAVITY_G;
    if (c.theta == 0.0)
        c.theta = 0.5;
    if (c.cells == 0)
        c.cells = 5;
    if (c.every == 0)
        c.every = 1;
    return c;
}

void rbl_gravity_work_free(rbl_gravity_work *w)
{
    free(w->keys), free(w->keys_tmp), free(w->by_id), free(w->order), free(w->order_tmp);
    free(w->src);
    free(w->nodes), free(w->cell_start), free(w->cell_mono);
    memset(w, 0, sizeof *w);
}

int rbl_gravity_work_reserve(rbl_gravity_work *w, size_t n, rbl_error *err)
{
    if (n <= w->cap)
        return RBL_OK;
    const rbl_grow_item columns[] = { /* the sources' arrays, doubled from 1024 */
        {(void **)&w->keys, sizeof *w->keys},
        {(void **)&w->keys_tmp, sizeof *w->keys_tmp},
        {(void **)&w->by_id, sizeof *w->by_id},
        {(void **)&w->order, sizeof *w->order},
        {(void **)&w->order_tmp, sizeof *w->order_tmp},
        {(void **)&w->src, sizeof *w->src}};
    if (!rbl_grow_arrays(columns, sizeof columns / sizeof columns[0], &w->cap, n, 1024))
        return rbl_error_set(err, RBL_ENOMEM, "self-gravity: out of memory for %zu grains", n);
    return RBL_OK;
}

void rbl_gravity_sort_sources(rbl_gravity_work *w, const rbl_gravity_input *in,
                              unsigned key_bits)
{
    const size_t n = in->n;
    if (in->id) { /* the indices in id order, then a stable sort on the keys keeps it in ties */
        for (size_t k = 0; k < n; k++)
            w->by_id[k] = in->id[k], w->order[k] = (uint32_t)k;
        rbl_radix_sort_u64(w->by_id, w->order, n, 32, w->keys_tmp, w->order_tmp);
        for (size_t t = 0; t < n; t++)
            w->by_id[t] = w->keys[w->order[t]];
        memcpy(w->keys, w->by_id, n * sizeof *w->keys);
    }
    rbl_radix_sort_u64(w->keys, w->order, n, key_bits, w->keys_tmp, w->order_tmp);
    for (size_t t = 0; t < n; t++) {
        const size_t k = w->order[t];
        for (int a = 0; a < 3; a++)
            w->src[t].x[a] = in->pos[3 * k + a];
        w->src[t].m = in->mass[k];
        w->src[t].r = in->radius[k];
    }
}

int rbl_gravity_eval(rbl_gravity_work *w, const rbl_self_gravity *cfg_in,
                     const rbl_gravity_input *in, int threads, double *acc, double *phi,
                     double *interactions, rbl_error *err)
{
    int rc = rbl_self_gravity_check(cfg_in, err);
    if (rc != RBL_OK)
        return rc;
    const rbl_self_gravity cfg = rbl_self_gravity_resolved(cfg_in);
    if (in->n > UINT32_MAX)
        return rbl_error_set(err, RBL_ETOOBIG, "self-gravity: more than 2^32 - 1 grains");
    double count = 0.0;
    if (interactions)
        *interactions = 0.0;
    if (in->n == 0 || cfg.method == RBL_GRAVITY_OFF) {
        memset(acc, 0, 3 * in->n * sizeof *acc);
        memset(phi, 0, in->n * sizeof *phi);
        return RBL_OK;
    }
    if ((rc = rbl_gravity_work_reserve(w, in->n, err)) != RBL_OK)
        return rc;
    switch (cfg.method) {
    case RBL_GRAVITY_OFF: /* answered above */
        break;
    case RBL_GRAVITY_DIRECT:
        rbl_gravity_direct(w, in, threads, acc, phi, &count);
        break;
    case RBL_GRAVITY_CELLS:
        rc = rbl_gravity_cells(w, &cfg, in, threads, acc, phi, &count, err);
        break;
    case RBL_GRAVITY_TREE:
        rc = rbl_gravity_tree(w, &cfg, in, threads, acc, phi, &count, err);
        break;
    }
    if (rc != RBL_OK)
        return rc;
    const double G = cfg.G;
    for (size_t k = 0; k < 3 * in->n; k++)
        acc[k] *= G;
    for (size_t k = 0; k < in->n; k++)
        phi[k] *= G;
    size_t wanted = in->n;
    if (in->want)
        for (size_t k = 0; k < in->n; k++)
            wanted -= !in->want[k];
    if (interactions) /* per grain the field was wanted at */
        *interactions = wanted ? count / (double)wanted : 0.0;
    return RBL_OK;
}

int rbl_gravity_field(const rbl_self_gravity *cfg, size_t n, const double *pos,
                      const double *mass, const double *radius, int threads, double *acc,
                      double *phi, double *interactions, rbl_error *err)
{
    for (size_t k = 0; k < n; k++) {
        const double *x = pos + 3 * k;
        if (!(isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]) && mass[k] > 0.0 &&
              isfinite(mass[k]) && radius[k] >= 0.0 && isfinite(radius[k])))
            return rbl_error_set(err, RBL_EINVAL,
                                 "self-gravity: grain %zu: position, mass > 0 and radius >= 0 "
                                 "must be finite",
                                 k);
    }
    double *own_phi = phi ? NULL : malloc((n ? n : 1) * sizeof *own_phi);
    if (!phi && !own_phi)
        return rbl_error_set(err, RBL_ENOMEM, "self-gravity: out of memory for %zu grains", n);
    rbl_gravity_work w = {0};
    rbl_gravity_input in = {n, pos, mass, radius, NULL, NULL};
    int rc = rbl_gravity_eval(&w, cfg, &in, threads > 0 ? threads : 1, acc, phi ? phi : own_phi,
                              interactions, err);
    rbl_gravity_work_free(&w);
    free(own_phi);
    return rc;
}
