/* fragments.c — the fragments of a bonded run (issue 72, docs/bonds.md "Fragments"): connected
 * components of the intact bonds (a grain with none alone; a clump's members together), each
 * labelled by its least grain id, with its grains' count, mass (kg), equivalent diameter (m:
 * the sphere of its spheres' volume) and its centre of mass and velocity (m, m/s), its grains
 * taken across periodic sides along its bonds from the label's grain. From grains sorted by id,
 * so the same bits whatever the memory order and the number of processes. */
#include "bonds_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t root(size_t *up, size_t k)
{
    while (up[k] != k)
        k = up[k] = up[up[k]];
    return k;
}

static void join(size_t *up, size_t a, size_t b)
{
    a = root(up, a), b = root(up, b);
    if (a < b)
        up[b] = a;
    else if (b < a)
        up[a] = b; /* the root is the least index: the least id */
}

static int by_id(const void *x, const void *y)
{
    const rbl_fragment_grain *p = x, *q = y;
    return (p->id > q->id) - (p->id < q->id);
}

static long index_of(const rbl_fragment_grain *g, size_t n, uint32_t id)
{
    const rbl_fragment_grain key = {.id = id};
    const rbl_fragment_grain *at = bsearch(&key, g, n, sizeof key, by_id);
    return at ? (long)(at - g) : -1;
}

int rbl_fragments_find(rbl_fragment_grain *g, size_t n, const uint32_t *pairs, size_t n_pairs,
                       const double box[3], rbl_fragment **out, size_t *n_out, rbl_error *err)
{
    *out = NULL, *n_out = 0;
    qsort(g, n, sizeof *g, by_id);
    const size_t m = n ? n : 1;
    size_t *up = malloc(m * sizeof *up), *start = calloc(n + 1, sizeof *start);
    size_t *queue = malloc(m * sizeof *queue), *slot = malloc(m * sizeof *slot);
    size_t *edge = malloc(2 * (n_pairs + n + 1) * sizeof *edge);
    double *u = malloc(3 * m * sizeof *u);
    unsigned char *seen = calloc(m, 1);
    rbl_fragment *f = malloc(m * sizeof *f);
    int rc = up && start && queue && slot && edge && u && seen && f
                 ? RBL_OK
                 : rbl_error_set(err, RBL_ENOMEM, "out of memory for the fragments of %zu "
                                 "grains", n);
    /* the edges: the bonds, and each clump member to its clump's first (join) */
    size_t ne = 0;
    for (size_t e = 0; rc == RBL_OK && e < n_pairs + n; e++) {
        const long a = e < n_pairs ? index_of(g, n, pairs[2 * e]) : (long)(e - n_pairs);
        const long b = e < n_pairs ? index_of(g, n, pairs[2 * e + 1])
                                   : index_of(g, n, g[e - n_pairs].join);
        if (a < 0 || b < 0) {
            rc = rbl_error_set(err, RBL_EINVAL, "fragments: a bond of grains %u and %u, one of "
                               "them not among the grains", pairs[2 * e], pairs[2 * e + 1]);
            break;
        }
        if (a != b)
            edge[2 * ne] = (size_t)a, edge[2 * ne + 1] = (size_t)b, ne++;
    }
    if (rc != RBL_OK)
        goto done;
    for (size_t k = 0; k < n; k++)
        up[k] = k;
    for (size_t e = 0; e < ne; e++) {
        join(up, edge[2 * e], edge[2 * e + 1]);
        start[edge[2 * e] + 1]++, start[edge[2 * e + 1] + 1]++;
    }
    /* each grain's neighbours (CSR, in edge order), to carry positions across periodic sides */
    for (size_t k = 0; k < n; k++)
        start[k + 1] += start[k];
    size_t *nb = malloc((2 * ne + 1) * sizeof *nb);
    if (!nb) {
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory for the fragments");
        goto done;
    }
    memcpy(slot, start, n * sizeof *slot);
    for (size_t e = 0; e < ne; e++)
        nb[slot[edge[2 * e]]++] = edge[2 * e + 1], nb[slot[edge[2 * e + 1]]++] = edge[2 * e];
    size_t nf = 0;
    for (size_t r = 0; r < n; r++) {
        if (root(up, r) != r)
            continue;
        /* breadth first from the label's grain: positions unwrapped along the edges */
        size_t head = 0, tail = 0;
        queue[tail++] = r, seen[r] = 1;
        memcpy(u + 3 * r, g[r].pos, 3 * sizeof *u);
        while (head < tail) {
            const size_t k = queue[head++];
            for (size_t e = start[k]; e < start[k + 1]; e++) {
                const size_t j = nb[e];
                if (seen[j])
                    continue;
                seen[j] = 1, queue[tail++] = j;
                for (int a = 0; a < 3; a++) {
                    double d = g[j].pos[a] - g[k].pos[a];
                    if (box[a] > 0.0)
                        d -= box[a] * nearbyint(d / box[a]);
                    u[3 * j + a] = u[3 * k + a] + d;
                }
            }
        }
        slot[r] = nf;
        rbl_fragment *p = f + nf++;
        memset(p, 0, sizeof *p);
        p->label = g[r].id;
    }
    for (size_t k = 0; k < n; k++) { /* sums in id order */
        rbl_fragment *p = f + slot[root(up, k)];
        p->grains++;
        p->mass += g[k].mass;
        p->diameter += g[k].radius * g[k].radius * g[k].radius; /* (volumes, 4/3 pi later) */
        for (int a = 0; a < 3; a++)
            p->centre[a] += g[k].mass * u[3 * k + a], p->velocity[a] += g[k].mass * g[k].vel[a];
    }
    for (size_t q = 0; q < nf; q++) {
        rbl_fragment *p = f + q;
        p->diameter = 2.0 * cbrt(p->diameter);
        for (int a = 0; a < 3; a++)
            p->centre[a] /= p->mass, p->velocity[a] /= p->mass;
    }
    free(nb);
    *out = f, *n_out = nf;
    f = NULL;
done:
    free(up), free(start), free(queue), free(slot), free(edge), free(u), free(seen), free(f);
    return rc;
}

int rbl_fragments_records(const rbl_sim *sim, rbl_fragment_grain **grains, size_t *n,
                          uint32_t **pairs, size_t *n_pairs, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    const rbl_bodies *bd = &sim->bodies;
    const rbl_bonds *bs = sim->bonds;
    *grains = malloc((g->n ? g->n : 1) * sizeof **grains);
    *pairs = malloc(2 * ((bs ? bs->n : 0) + 1) * sizeof **pairs);
    *n = 0, *n_pairs = 0;
    if (!*grains || !*pairs) {
        free(*grains), free(*pairs);
        *grains = NULL, *pairs = NULL;
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the fragments");
    }
    for (size_t k = 0; k < g->n; k++) {
        rbl_fragment_grain *r = *grains + k;
        r->id = g->id[k];
        r->join = g->body[k] >= 0 ? bd->member_id[bd->start[g->body[k]]] : g->id[k];
        r->mass = g->mass[k], r->radius = g->radius[k];
        memcpy(r->pos, g->pos + 3 * k, sizeof r->pos);
        memcpy(r->vel, g->vel + 3 * k, sizeof r->vel);
    }
    *n = g->n;
    for (size_t k = 0; bs && k < bs->n; k++) { /* each intact bond once: at its home */
        const rbl_bond *b = rbl_bonds_at(bs, k);
        if (b->intact && rbl_bond_homed(sim, b)) {
            (*pairs)[2 * *n_pairs] = b->a, (*pairs)[2 * *n_pairs + 1] = b->b;
            (*n_pairs)++;
        }
    }
    return RBL_OK;
}

int rbl_sim_fragments(const rbl_sim *sim, rbl_fragment **out, size_t *n, rbl_error *err)
{
    rbl_fragment_grain *grains;
    uint32_t *pairs;
    size_t ng, np;
    int rc = rbl_fragments_records(sim, &grains, &ng, &pairs, &np, err);
    if (rc == RBL_OK)
        rc = rbl_fragments_find(grains, ng, pairs, np, sim->box, out, n, err);
    free(grains), free(pairs);
    return rc;
}

void rbl_fragments_free(rbl_fragment *f) { free(f); }
