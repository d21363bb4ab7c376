/* grains.c — grain storage as structure of arrays (one array per quantity, vectors as 3
 * doubles per grain), growth, and the reordering by cell that keeps neighbours close in
 * memory; ids stay with their grains. */
#include "dem_internal.h"

#include <stdlib.h>
#include <string.h>

#define VEC_FIELDS(X) X(pos) X(vel) X(omega) X(force) X(torque) X(pos_build) X(loss)
#define DBL_FIELDS(X) X(radius) X(mass) X(inv_mass) X(inv_inertia) X(loss_cohesion)
/* kept only where the simulation uses them (with_eval, with_gravity) */
#define EVAL_VECS(X) X(vel_eval) X(omega_eval)
#define GRAVITY_VECS(X) X(gacc)
#define GRAVITY_DBLS(X) X(gphi)
#define EXTERNAL_VECS(X) X(fext) X(fext_applied)

/* The array *p of `had` elements made room for count; while held, in a new array, the old
 * one retired (kept readable until the hold ends). */
static int grow(rbl_grains *g, void **p, size_t had, size_t count, size_t size)
{
    if (!g->hold || !*p) {
        void *q = realloc(*p, count * size);
        if (!q)
            return 0;
        *p = q;
        return 1;
    }
    if (g->n_retired == g->cap_retired) {
        size_t cap = g->cap_retired ? 2 * g->cap_retired : 32;
        void **r = realloc(g->retired, cap * sizeof *r);
        if (!r)
            return 0;
        g->retired = r, g->cap_retired = cap;
    }
    void *q = malloc(count * size);
    if (!q)
        return 0;
    memcpy(q, *p, had * size);
    g->retired[g->n_retired++] = *p;
    *p = q;
    return 1;
}

int rbl_grains_reserve(rbl_grains *g, size_t cap, rbl_error *err)
{
    if (cap <= g->cap)
        return RBL_OK;
    size_t want = g->cap ? g->cap : 1024;
    while (want < cap)
        want *= 2;
    if (want > UINT32_MAX)
        return rbl_error_set(err, RBL_ETOOBIG, "more than %u grains", (unsigned)UINT32_MAX);
    int ok = 1;
#define GROW_VEC(f) ok = ok && grow(g, (void **)&g->f, 3 * g->cap, 3 * want, sizeof(double));
#define GROW_DBL(f) ok = ok && grow(g, (void **)&g->f, g->cap, want, sizeof(double));
    VEC_FIELDS(GROW_VEC)
    DBL_FIELDS(GROW_DBL)
    if (g->with_eval) {
        EVAL_VECS(GROW_VEC)
    }
    if (g->with_gravity) {
        GRAVITY_VECS(GROW_VEC)
        GRAVITY_DBLS(GROW_DBL)
    }
    if (g->with_fext) {
        EXTERNAL_VECS(GROW_VEC)
    }
    ok = ok && grow(g, (void **)&g->id, g->cap, want, sizeof *g->id);
    ok = ok && grow(g, (void **)&g->material, g->cap, want, sizeof *g->material);
    ok = ok && grow(g, (void **)&g->contacts, g->cap, want, sizeof *g->contacts);
    ok = ok && grow(g, (void **)&g->body, g->cap, want, sizeof *g->body);
    ok = ok && grow(g, (void **)&g->slot, g->cap, want, sizeof *g->slot);
    if (!ok)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", want);
    g->cap = want;
    return RBL_OK;
}

static int by_id(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a >> 32, y = *(const uint64_t *)b >> 32;
    return (x > y) - (x < y);
}

uint64_t *rbl_grains_id_order(const rbl_grains_view *v)
{
    uint64_t *order = malloc((v->n ? v->n : 1) * sizeof *order);
    if (!order)
        return NULL;
    for (size_t k = 0; k < v->n; k++)
        order[k] = (uint64_t)v->id[k] << 32 | (uint64_t)k;
    qsort(order, v->n, sizeof *order, by_id);
    return order;
}

size_t rbl_grains_index_of(const uint64_t *order, size_t n, uint32_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((uint32_t)(order[mid] >> 32) < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && (uint32_t)(order[lo] >> 32) == id ? (size_t)(order[lo] & UINT32_MAX)
                                                        : SIZE_MAX;
}

int rbl_grains_external(rbl_grains *g, rbl_error *err)
{
    if (g->with_fext)
        return RBL_OK;
    g->fext = calloc(3 * (g->cap ? g->cap : 1), sizeof *g->fext);
    g->fext_applied = calloc(3 * (g->cap ? g->cap : 1), sizeof *g->fext_applied);
    if (!g->fext || !g->fext_applied) {
        free(g->fext), free(g->fext_applied);
        g->fext = g->fext_applied = NULL;
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", g->cap);
    }
    g->with_fext = 1;
    return RBL_OK;
}

void rbl_grains_hold(rbl_grains *g, int hold)
{
    g->hold = hold;
    if (hold)
        return;
    for (size_t k = 0; k < g->n_retired; k++)
        free(g->retired[k]);
    free(g->retired);
    g->retired = NULL, g->n_retired = g->cap_retired = 0;
}

void rbl_grains_free(rbl_grains *g)
{
#define FREE_F(f) free(g->f);
    VEC_FIELDS(FREE_F)
    DBL_FIELDS(FREE_F)
    EVAL_VECS(FREE_F)
    GRAVITY_VECS(FREE_F)
    GRAVITY_DBLS(FREE_F)
    EXTERNAL_VECS(FREE_F)
    free(g->id);
    free(g->material);
    free(g->contacts);
    free(g->body);
    free(g->slot);
    rbl_grains_hold(g, 0);
    const int with_eval = g->with_eval, with_gravity = g->with_gravity, with_fext = g->with_fext;
    memset(g, 0, sizeof *g);
    g->with_eval = with_eval, g->with_gravity = with_gravity, g->with_fext = with_fext;
}

static void permute_vec(double *a, const uint32_t *perm, size_t count, double *tmp)
{
    for (size_t k = 0; k < count; k++) {
        const double *src = a + 3 * (size_t)perm[k];
        tmp[3 * k] = src[0], tmp[3 * k + 1] = src[1], tmp[3 * k + 2] = src[2];
    }
    memcpy(a, tmp, 3 * count * sizeof *a);
}

static void permute_dbl(double *a, const uint32_t *perm, size_t count, double *tmp)
{
    for (size_t k = 0; k < count; k++)
        tmp[k] = a[perm[k]];
    memcpy(a, tmp, count * sizeof *a);
}

static void permute_u32(uint32_t *a, const uint32_t *perm, size_t count, double *tmp)
{
    uint32_t *t = (uint32_t *)tmp;
    for (size_t k = 0; k < count; k++)
        t[k] = a[perm[k]];
    memcpy(a, t, count * sizeof *a);
}

void rbl_grains_permute(rbl_grains *g, const uint32_t *perm, size_t count, double *scratch)
{
    if (count == 0) {
        g->n = 0;
        return;
    }
#define PERM_VEC(f) permute_vec(g->f, perm, count, scratch);
#define PERM_DBL(f) permute_dbl(g->f, perm, count, scratch);
    VEC_FIELDS(PERM_VEC)
    DBL_FIELDS(PERM_DBL)
    if (g->with_eval) {
        EVAL_VECS(PERM_VEC)
    }
    if (g->with_gravity) {
        GRAVITY_VECS(PERM_VEC)
        GRAVITY_DBLS(PERM_DBL)
    }
    if (g->with_fext) {
        EXTERNAL_VECS(PERM_VEC)
    }
    permute_u32(g->id, perm, count, scratch);
    permute_u32((uint32_t *)g->material, perm, count, scratch);
    permute_u32(g->contacts, perm, count, scratch);
    permute_u32((uint32_t *)g->body, perm, count, scratch);
    permute_u32(g->slot, perm, count, scratch);
    g->n = count;
}
