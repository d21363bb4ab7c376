/* cg.c — coarse-graining (issue 43, docs/cg.md; Weinhart et al., Granular Matter 14, 2012):
 * per-node sums over samples of the grains (mass, volume, momentum, m v (x) v, fabric) spread
 * by the kernel about their centres, and of the contacts' b (x) f spread along their branch
 * vectors, from dem's one contact list (rbl_sim_contacts) or a saved state's arrays (frames
 * and contact files: rbl_cg_add_frame, the same values in the same order). The threads split
 * the grid's x layers between them and each adds, to its own nodes, every grain and contact in
 * id order: a node's sums have the same bits on any thread count. Along an averaged axis
 * (issue 74: one node across it) a grain or contact whose first end lies in the grid's extent
 * counts with the kernel integrated along the whole axis over the extent's length. */
#include "cg_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* The sums kept per node. */
enum { S_MASS, S_VOLUME, S_MOMENTUM, S_MVV = S_MOMENTUM + 3, S_FABRIC = S_MVV + 9,
       S_CONTACT = S_FABRIC + 9, S_WALL = S_CONTACT + 9, CG_SUMS = S_WALL + 3 };

struct rbl_cg {
    rbl_cg_options opt;
    rbl_cg_kernel_fn kernel;
    size_t n[3], nodes, samples;
    double origin[3], h[3];
    int average[3]; /* averaged grid axes: one node across */
    int flat[3];    /* the Cartesian axes along which d and b are taken as 0 (averaged) ... */
    double ext_lo[3], ext_hi[3]; /* ... and the extent a first end must lie in along them */
    rbl_cg_coords co; /* cylindrical or spherical nodes (co.pos), or Cartesian */
    double *sum;    /* CG_SUMS per node */
};

int rbl_cg_create(const rbl_cg_options *opt, rbl_cg **out, rbl_error *err)
{
    *out = NULL;
    size_t nodes = 1;
    for (int a = 0; a < 3; a++) {
        if (!(isfinite(opt->lo[a]) && isfinite(opt->hi[a]) && opt->hi[a] > opt->lo[a]))
            return rbl_error_set(err, RBL_EINVAL, "coarse-graining: the grid's max must exceed "
                                 "its min along %c: %g .. %g", 'x' + a, opt->lo[a], opt->hi[a]);
        if (opt->cells[a] == 0 || opt->cells[a] > RBL_CG_MAX_NODES ||
            nodes > RBL_CG_MAX_NODES / opt->cells[a])
            return rbl_error_set(err, RBL_EINVAL, "coarse-graining: the grid's cells must be "
                                 "1 or more along each axis and at most %zu in all",
                                 RBL_CG_MAX_NODES);
        nodes *= opt->cells[a];
    }
    if (!(isfinite(opt->width) && opt->width > 0.0))
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining: the kernel's width must be > 0: "
                             "%g", opt->width);
    if (opt->kernel != RBL_CG_LUCY && opt->kernel != RBL_CG_GAUSSIAN)
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining: no such kernel");
    rbl_cg *cg = calloc(1, sizeof *cg);
    if (!cg || !(cg->sum = calloc(nodes * CG_SUMS, sizeof *cg->sum))) {
        free(cg);
        return rbl_error_set(err, RBL_ENOMEM, "coarse-graining: out of memory for %zu nodes",
                             nodes);
    }
    cg->opt = *opt;
    cg->nodes = nodes;
    for (int a = 0; a < 3; a++) {
        cg->n[a] = opt->cells[a];
        cg->h[a] = (opt->hi[a] - opt->lo[a]) / (double)opt->cells[a];
        cg->origin[a] = opt->lo[a] + 0.5 * cg->h[a];
    }
    rbl_cg_kernel_init(&cg->kernel, opt->kernel, opt->width, 3, 1.0);
    cg->co.kind = RBL_CG_CARTESIAN;
    *out = cg;
    return RBL_OK;
}

int rbl_cg_coordinates_set(rbl_cg *cg, rbl_cg_coordinates kind, int axis,
                           const double centre[3], rbl_error *err)
{
    const double *lo = cg->opt.lo, *hi = cg->opt.hi, span = 2.0 * M_PI * (1.0 + 1e-12);
    if (cg->samples || cg->average[0] || cg->average[1] || cg->average[2])
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining: the coordinates are set before "
                             "the first sample and before the axes averaged over");
    if (kind == RBL_CG_CARTESIAN) {
        free(cg->co.pos);
        memset(&cg->co, 0, sizeof cg->co);
        return RBL_OK;
    }
    if (kind != RBL_CG_CYLINDRICAL && kind != RBL_CG_SPHERICAL)
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining: no such coordinates");
    if (axis < 0 || axis > 2 || !(isfinite(centre[0]) && isfinite(centre[1]) &&
                                  isfinite(centre[2])))
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining: the axis is x, y or z and the "
                             "centre finite");
    if (lo[0] < 0.0)
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining: r from %g: r >= 0", lo[0]);
    for (int a = 1; a < 3; a++)
        if ((a == 1 || kind == RBL_CG_SPHERICAL) && hi[a] - lo[a] > span)
            return rbl_error_set(err, RBL_EINVAL, "coarse-graining: the angle %s spans %g "
                                 "radians, more than 2 pi", a == 1 ? "theta" : "phi",
                                 hi[a] - lo[a]);
    if (kind == RBL_CG_SPHERICAL && (lo[1] < 0.0 || hi[1] > M_PI * (1.0 + 1e-12)))
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining: the polar angle theta within "
                             "0 .. pi: %g .. %g", lo[1], hi[1]);
    cg->co.kind = kind, cg->co.axis = axis;
    memcpy(cg->co.centre, centre, sizeof cg->co.centre);
    if (!rbl_cg_coords_nodes(&cg->co, cg->n, cg->origin, cg->h)) {
        cg->co.kind = RBL_CG_CARTESIAN;
        return rbl_error_set(err, RBL_ENOMEM, "coarse-graining: out of memory for %zu nodes",
                             cg->nodes);
    }
    return RBL_OK;
}

int rbl_cg_average(rbl_cg *cg, const int axes[3], rbl_error *err)
{
    if (cg->samples)
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining: the axes to average over are "
                             "set before the first sample (%zu held)", cg->samples);
    int dims = 3;
    double norm = 1.0;
    const int curved = cg->co.kind != RBL_CG_CARTESIAN;
    for (int a = 0; a < 3; a++)
        if (axes[a]) {
            if (curved && (cg->co.kind == RBL_CG_SPHERICAL || a != 2))
                return rbl_error_set(err, RBL_EINVAL, "coarse-graining: a %s grid is averaged "
                                     "only along a cylinder's axis (z), not over %s",
                                     cg->co.kind == RBL_CG_SPHERICAL ? "spherical" : "cylindrical",
                                     a == 0 ? "r" : a == 1 ? "theta" : "phi");
            if (cg->n[a] != 1)
                return rbl_error_set(err, RBL_EINVAL, "coarse-graining: averaged over %c, the "
                                     "grid has one cell across it, not %zu",
                                     curved ? 'z' : 'x' + a, cg->n[a]);
            dims--, norm /= cg->opt.hi[a] - cg->opt.lo[a];
        }
    for (int a = 0; a < 3; a++) {
        cg->average[a] = !!axes[a];
        const int grid_axis = curved ? (a == cg->co.axis ? 2 : -1) : a; /* along Cartesian a */
        cg->flat[a] = grid_axis >= 0 && axes[grid_axis];
        cg->ext_lo[a] = cg->flat[a] ? cg->opt.lo[grid_axis] : 0.0;
        cg->ext_hi[a] = cg->flat[a] ? cg->opt.hi[grid_axis] : 0.0;
    }
    cg->co.flat_axis = curved && axes[2];
    rbl_cg_kernel_init(&cg->kernel, cg->opt.kernel, cg->opt.width, dims, norm);
    return RBL_OK;
}

const char *rbl_cg_averaged(const rbl_cg *cg, int axes[3])
{
    memcpy(axes, cg->average, sizeof cg->average);
    return cg->co.kind == RBL_CG_CYLINDRICAL ? "rtz" : cg->co.kind == RBL_CG_SPHERICAL ? "rtp"
                                                                                      : "xyz";
}

size_t rbl_cg_samples(const rbl_cg *cg) { return cg->samples; }

size_t rbl_cg_sums_count(const rbl_cg *cg) { return cg->nodes * CG_SUMS; }

const double *rbl_cg_sums(const rbl_cg *cg) { return cg->sum; }

int rbl_cg_set_sums(rbl_cg *cg, const double *sums, size_t count, size_t samples)
{
    if (count != cg->nodes * CG_SUMS)
        return 0;
    memcpy(cg->sum, sums, count * sizeof *sums);
    cg->samples = samples;
    return 1;
}

void rbl_cg_clear(rbl_cg *cg)
{
    memset(cg->sum, 0, cg->nodes * CG_SUMS * sizeof *cg->sum);
    cg->samples = 0;
}

void rbl_cg_free(rbl_cg *cg)
{
    if (cg)
        free(cg->sum), free(cg->co.pos);
    free(cg);
}

/* What one sample spreads: a grain's point (at x) or a contact's segment (from x along b),
 * with the values it adds to each node, times phi (a grain) or its line integral (a contact). */
typedef struct spread {
    double x[3], b[3];
    int segment;
    double v[CG_SUMS];
    int first, count; /* the sums it adds: v[first .. first + count) */
} spread;

/* One sample as spread: its particles in id order (P_WIDTH doubles each: centre, mass, volume,
 * velocity, the sum of its contacts' n (x) n) and its contacts in the contact list's order
 * (C_WIDTH: the first particle's centre, the branch vector, the force on the first particle,
 * 1 for a wall contact: its branch ends at the point on the wall),
 * and the domain's periodic sides. rbl_cg_add makes it from a simulation, rbl_cg_add_frame
 * from a saved state's arrays: the same values in the same order, so the same bits. */
enum { P_X, P_MASS = 3, P_VOLUME, P_VEL, P_FABRIC = P_VEL + 3, P_WIDTH = P_FABRIC + 9 };
enum { C_X, C_BRANCH = 3, C_FORCE = 6, C_WALL = 9, C_WIDTH = 10 };
typedef struct cg_sample {
    size_t n, n_contacts;
    double *part, *cont;
    double side[3];
    int periodic[3];
    int threads;
} cg_sample;

static int sample_alloc(cg_sample *s, size_t n, size_t n_contacts)
{
    s->n = n, s->n_contacts = n_contacts;
    s->part = calloc(P_WIDTH * (n ? n : 1), sizeof *s->part);
    s->cont = calloc(C_WIDTH * (n_contacts ? n_contacts : 1), sizeof *s->cont);
    return s->part && s->cont;
}

static void sample_free(cg_sample *s)
{
    free(s->part), free(s->cont);
}

/* Node index range along axis a that the support of [lo, hi] reaches, clipped to the grid;
 * 0 when it misses. */
static int node_range(const rbl_cg *cg, int a, double lo, double hi, size_t *i0, size_t *i1)
{
    const double c = cg->kernel.cutoff;
    const double f0 = ceil((lo - c - cg->origin[a]) / cg->h[a]);
    const double f1 = floor((hi + c - cg->origin[a]) / cg->h[a]);
    if (f1 < 0.0 || f0 > (double)(cg->n[a] - 1) || f1 < f0)
        return 0;
    *i0 = f0 < 0.0 ? 0 : (size_t)f0;
    *i1 = f1 > (double)(cg->n[a] - 1) ? cg->n[a] - 1 : (size_t)f1;
    return 1;
}

/* Adds sp, shifted by `shift`, to the nodes of x layers [x0, x1). */
static void add_spread(rbl_cg *cg, const spread *sp, const double shift[3], size_t x0, size_t x1)
{
    double x[3], lo[3], hi[3], b[3];
    size_t i0[3], i1[3];
    const int curved = cg->co.kind != RBL_CG_CARTESIAN;
    for (int a = 0; a < 3; a++) {
        x[a] = sp->x[a] + shift[a];
        b[a] = cg->flat[a] || !sp->segment ? 0.0 : sp->b[a];
        if (cg->flat[a] && !(x[a] >= cg->ext_lo[a] && x[a] < cg->ext_hi[a]))
            return; /* averaged along a: the one node, if the first end lies in the extent */
        if (curved)
            continue;
        if (cg->flat[a]) {
            i0[a] = i1[a] = 0;
            continue;
        }
        const double e = sp->segment ? x[a] + sp->b[a] : x[a];
        lo[a] = x[a] < e ? x[a] : e, hi[a] = x[a] < e ? e : x[a];
        if (!node_range(cg, a, lo[a], hi[a], &i0[a], &i1[a]))
            return;
    }
    if (curved) { /* the ball about the segment's middle that holds its support */
        const double m[3] = {x[0] + 0.5 * b[0], x[1] + 0.5 * b[1], x[2] + 0.5 * b[2]};
        const double reach = 0.5 * sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]) +
                             cg->kernel.cutoff;
        if (!rbl_cg_coords_reach(&cg->co, cg->n, cg->origin, cg->h, m, reach, i0, i1))
            return;
    }
    if (x1 <= x0 || i1[0] < x0 || i0[0] >= x1)
        return;
    if (i0[0] < x0)
        i0[0] = x0;
    if (i1[0] >= x1)
        i1[0] = x1 - 1;
    const double c2 = cg->kernel.cutoff * cg->kernel.cutoff;
    const double bb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
    const double b2inv = sp->segment && bb > 0.0 ? 1.0 / bb : 0.0;
    for (size_t k = i0[2]; k <= i1[2]; k++)
        for (size_t j = i0[1]; j <= i1[1]; j++)
            for (size_t i = i0[0]; i <= i1[0]; i++) {
                const size_t node = i + cg->n[0] * (j + cg->n[1] * k);
                double d[3];
                for (int a = 0; a < 3; a++) {
                    const double at = curved ? cg->co.pos[3 * node + (size_t)a]
                                             : cg->origin[a] + (double)(a == 0 ? i : a == 1 ? j : k) *
                                                                   cg->h[a];
                    d[a] = cg->flat[a] ? 0.0 : at - x[a];
                }
                double w;
                if (sp->segment) { /* nodes farther than the cutoff from the segment: none */
                    const double t = (d[0] * b[0] + d[1] * b[1] + d[2] * b[2]) * b2inv;
                    const double s = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
                    const double e[3] = {d[0] - s * b[0], d[1] - s * b[1], d[2] - s * b[2]};
                    w = e[0] * e[0] + e[1] * e[1] + e[2] * e[2] < c2
                            ? rbl_cg_line(&cg->kernel, d, b)
                            : 0.0;
                } else {
                    w = rbl_cg_phi(&cg->kernel, d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                }
                if (w == 0.0)
                    continue;
                double *s = cg->sum + CG_SUMS * node;
                for (int q = sp->first; q < sp->first + sp->count; q++)
                    s[q] += w * sp->v[q];
            }
}

/* sp and its periodic images whose support meets the grid (each periodic axis: the shifts
 * -L, 0, +L that reach it; an averaged one: those that put its first end in the grid's
 * extent), to the nodes of x layers [x0, x1). */
static void add_images(rbl_cg *cg, const cg_sample *smp, const spread *sp, size_t x0, size_t x1)
{
    double shifts[3][3];
    int count[3];
    const double c = cg->kernel.cutoff;
    for (int a = 0; a < 3; a++) {
        const double e = sp->segment ? sp->x[a] + sp->b[a] : sp->x[a];
        const double lo = (sp->x[a] < e ? sp->x[a] : e) - c, hi = (sp->x[a] < e ? e : sp->x[a]) + c;
        const int curved = cg->co.kind != RBL_CG_CARTESIAN;
        const double g0 = cg->flat[a] ? cg->ext_lo[a] : curved ? cg->co.box_lo[a] : cg->opt.lo[a];
        const double g1 = cg->flat[a] ? cg->ext_hi[a] : curved ? cg->co.box_hi[a] : cg->opt.hi[a];
        const double side = smp->side[a];
        count[a] = 0;
        for (int k = -1; k <= 1; k++) {
            if (k != 0 && !smp->periodic[a])
                continue;
            const double sh = k * side;
            if (cg->flat[a] ? sp->x[a] + sh >= g0 && sp->x[a] + sh < g1
                               : hi + sh >= g0 && lo + sh <= g1) /* the support meets the grid */
                shifts[a][count[a]++] = sh;
        }
    }
    for (int k = 0; k < count[2]; k++)
        for (int j = 0; j < count[1]; j++)
            for (int i = 0; i < count[0]; i++) {
                const double shift[3] = {shifts[0][i], shifts[1][j], shifts[2][k]};
                add_spread(cg, sp, shift, x0, x1);
            }
}

/* Particle p's spread: m, V, m v, m v (x) v, V N. */
static void particle_spread(const double *p, spread *sp)
{
    memcpy(sp->x, p + P_X, sizeof sp->x);
    sp->segment = 0;
    const double m = p[P_MASS], vol = p[P_VOLUME];
    const double *u = p + P_VEL, *fabric = p + P_FABRIC;
    sp->v[S_MASS] = m, sp->v[S_VOLUME] = vol;
    for (int a = 0; a < 3; a++) {
        sp->v[S_MOMENTUM + a] = m * u[a];
        for (int b = 0; b < 3; b++) {
            sp->v[S_MVV + 3 * a + b] = m * u[a] * u[b];
            sp->v[S_FABRIC + 3 * a + b] = vol * fabric[3 * a + b];
        }
    }
    sp->first = S_MASS;
    sp->count = S_CONTACT; /* mass .. fabric */
}

/* Contact c's spread: b (x) f along its branch. */
static void contact_spread(const double *c, spread *sp)
{
    memcpy(sp->x, c + C_X, sizeof sp->x);
    memcpy(sp->b, c + C_BRANCH, sizeof sp->b);
    sp->segment = 1;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            sp->v[S_CONTACT + 3 * a + b] = c[C_BRANCH + a] * c[C_FORCE + b];
    sp->first = S_CONTACT;
    sp->count = 9;
}

/* A wall contact's boundary interaction (Weinhart et al. 2012, their t): the force -f the
 * grain puts on the wall, spread about the contact point x + b. With it the contact stress's
 * divergence is balanced next to walls: div sigma + rho g = t at rest (docs/cg.md). */
static void wall_spread(const double *c, spread *sp)
{
    sp->segment = 0;
    for (int a = 0; a < 3; a++)
        sp->x[a] = c[C_X + a] + c[C_BRANCH + a], sp->v[S_WALL + a] = -c[C_FORCE + a];
    sp->first = S_WALL;
    sp->count = 3;
}

/* Adds the sample: the threads split the grid's x layers, each adding every particle and
 * contact in order to its own nodes. */
static int add_sample(rbl_cg *cg, const cg_sample *smp, rbl_error *err)
{
    for (int a = 0; a < 3; a++)
        if (smp->periodic[a] && !cg->flat[a] && !(2.0 * cg->kernel.cutoff < smp->side[a]))
            return rbl_error_set(err, RBL_EINVAL, "coarse-graining: the kernel reaches %g m, "
                                 "more than half the periodic side %c (%g m)", cg->kernel.cutoff,
                                 'x' + a, smp->side[a]);
    int threads = smp->threads > 0 ? smp->threads : 1;
    if ((size_t)threads > cg->n[0])
        threads = (int)cg->n[0];
#pragma omp parallel num_threads(threads)
    {
        int t = 0, nt = 1;
#ifdef _OPENMP
        t = omp_get_thread_num(), nt = omp_get_num_threads();
#endif
        const size_t x0 = cg->n[0] * (size_t)t / (size_t)nt;
        const size_t x1 = cg->n[0] * (size_t)(t + 1) / (size_t)nt;
        spread sp;
        for (size_t o = 0; o < smp->n; o++) {
            particle_spread(smp->part + P_WIDTH * o, &sp);
            add_images(cg, smp, &sp, x0, x1);
        }
        for (size_t q = 0; q < smp->n_contacts; q++) {
            const double *c = smp->cont + C_WIDTH * q;
            contact_spread(c, &sp);
            add_images(cg, smp, &sp, x0, x1);
            if (c[C_WALL] != 0.0) {
                wall_spread(c, &sp);
                add_images(cg, smp, &sp, x0, x1);
            }
        }
    }
    cg->samples++;
    return RBL_OK;
}

/* Adds n (x) n to a fabric's 9 components. */
static void fabric_add(double *fabric, const double n[3])
{
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            fabric[3 * a + b] += n[a] * n[b];
}

/* Fills particle p: its centre, mass, volume and velocity (the fabric is summed apart). */
static void particle_set(double *p, const double x[3], double m, double vol, const double u[3])
{
    memcpy(p + P_X, x, 3 * sizeof *p);
    p[P_MASS] = m, p[P_VOLUME] = vol;
    memcpy(p + P_VEL, u, 3 * sizeof *p);
}

/* A contact's row: from x along b, the force fn + ft on the first particle. */
static void contact_set(double *c, const double x[3], const double b[3], const double fn[3],
                        const double ft[3], int wall)
{
    for (int a = 0; a < 3; a++)
        c[C_X + a] = x[a], c[C_BRANCH + a] = b[a], c[C_FORCE + a] = fn[a] + ft[a];
    c[C_WALL] = wall ? 1.0 : 0.0;
}

/* Contact item it with its ends at the centres of mass of their particles: a clump sphere's
 * end moves from the sphere's centre to its clump's (its arm back), so that the branch vector
 * joins the two particles the force acts between. */
static void to_particle_centres(const rbl_sim *sim, const uint64_t *order, size_t n,
                                rbl_contact_item *it)
{
    const rbl_grains *g = &sim->g;
    const uint32_t ids[2] = {it->id1, it->id2};
    for (int e = 0; e < 2; e++) {
        if (ids[e] == UINT32_MAX)
            continue;
        const size_t k = rbl_grains_index_of(order, n, ids[e]);
        if (k == SIZE_MAX || g->body[k] < 0)
            continue;
        const double *arm = sim->bodies.arm + 3 * (size_t)g->slot[k];
        for (int a = 0; a < 3; a++) {
            if (e == 0)
                it->centre[a] -= arm[a], it->branch[a] += arm[a];
            else
                it->branch[a] -= arm[a];
        }
    }
}

/* The simulation's sample. Each grain's fabric is summed over its contacts in list order, at
 * its place in the id order; a sphere is itself, a clump one particle at its centre of mass
 * with its mass, volume, velocity and its spheres' contacts (at its first sphere's place; the
 * others add nothing), as MercuryCG takes a particle: the density then integrates to the
 * clump's mass and the momentum to its own, M V. */
static int sim_sample(const rbl_sim *sim, cg_sample *smp)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    size_t *slots = NULL, n_pairs = 0, n_walls = 0;
    uint64_t *order = rbl_grains_id_order(&v);
    double *fabric = calloc(9 * (v.n ? v.n : 1), sizeof *fabric); /* by memory index */
    int ok = order && fabric && rbl_contacts_order(sim, &slots, &n_pairs, &n_walls) &&
             sample_alloc(smp, v.n, n_pairs + n_walls);
    for (size_t q = 0; ok && q < n_pairs + n_walls; q++) {
        rbl_contact_item it;
        rbl_contact_item_of(sim, slots, n_pairs, q, &it);
        const uint32_t ids[2] = {it.id1, it.id2};
        for (int e = 0; e < (q < n_pairs ? 2 : 1); e++) {
            const size_t k = rbl_grains_index_of(order, v.n, ids[e]);
            if (k != SIZE_MAX)
                fabric_add(fabric + 9 * k, it.normal);
        }
        if (sim->bodies.n)
            to_particle_centres(sim, order, v.n, &it);
        contact_set(smp->cont + C_WIDTH * q, it.centre, it.branch, it.fn, it.ft, q >= n_pairs);
    }
    size_t kept = 0;
    for (size_t o = 0; ok && o < v.n; o++) {
        const size_t k = (size_t)(order[o] & UINT32_MAX);
        double *p = smp->part + P_WIDTH * kept;
        const int32_t body = v.body ? v.body[k] : -1;
        if (body < 0) {
            const double r = v.radius[k];
            particle_set(p, v.pos + 3 * k, v.mass[k], 4.0 / 3.0 * M_PI * r * r * r,
                         v.vel + 3 * k);
            memcpy(p + P_FABRIC, fabric + 9 * k, 9 * sizeof *p);
            kept++;
            continue;
        }
        const rbl_bodies *b = &sim->bodies;
        const size_t first = b->start[body], last = b->start[body + 1];
        if (b->member_id[first] != v.id[k])
            continue;
        for (size_t s = first; s < last; s++)
            for (int e = 0; e < 9; e++)
                p[P_FABRIC + e] += fabric[9 * (size_t)b->member_index[s] + e];
        const double m = b->mass[body];
        particle_set(p, b->pos + 3 * (size_t)body, m,
                     m / sim->materials[b->material[body]].density, b->vel + 3 * (size_t)body);
        kept++;
    }
    smp->n = kept;
    for (int a = 0; a < 3; a++)
        smp->side[a] = sim->cfg.hi[a] - sim->cfg.lo[a], smp->periodic[a] = sim->cfg.periodic[a];
    smp->threads = sim->threads;
    free(order), free(fabric), free(slots);
    return ok;
}

int rbl_cg_add(rbl_cg *cg, const rbl_sim *sim, rbl_error *err)
{
    if (sim->peers)
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining cannot yet run over several "
                             "processes: run it on one (docs/cg.md)");
    cg_sample smp = {0};
    int rc = sim_sample(sim, &smp)
                 ? add_sample(cg, &smp, err)
                 : rbl_error_set(err, RBL_ENOMEM, "coarse-graining: out of memory for %zu "
                                 "grains", sim->g.n);
    sample_free(&smp);
    return rc;
}

/* The index of grain id among the frame's ascending ids, or SIZE_MAX. */
static size_t frame_index(const rbl_cg_frame *f, int64_t id)
{
    size_t lo = 0, hi = f->n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((int64_t)f->id[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->n && (int64_t)f->id[lo] == id ? lo : SIZE_MAX;
}

int rbl_cg_add_frame(rbl_cg *cg, const rbl_cg_frame *f, rbl_error *err)
{
    for (size_t k = 0; k < f->n; k++) {
        if (k && f->id[k] <= f->id[k - 1])
            return rbl_error_set(err, RBL_EINVAL, "grain %zu: id %u after %u, not in ascending "
                                 "order", k, f->id[k], f->id[k - 1]);
        const double *x = f->pos + 3 * k, *u = f->vel + 3 * k;
        if (!(isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]) && isfinite(u[0]) &&
              isfinite(u[1]) && isfinite(u[2]) && f->radius[k] > 0.0 &&
              isfinite(f->radius[k]) && f->mass[k] >= 0.0 && isfinite(f->mass[k])))
            return rbl_error_set(err, RBL_EINVAL, "grain %u: a position, velocity, radius "
                                 "(%g) or mass (%g) that is not a finite number (a radius > 0, "
                                 "a mass >= 0)", f->id[k], f->radius[k], f->mass[k]);
    }
    cg_sample smp = {0};
    if (!sample_alloc(&smp, f->n, f->n_contacts)) {
        sample_free(&smp);
        return rbl_error_set(err, RBL_ENOMEM, "coarse-graining: out of memory for %zu grains "
                             "and %zu contacts", f->n, f->n_contacts);
    }
    int rc = RBL_OK;
    for (size_t q = 0; rc == RBL_OK && q < f->n_contacts; q++) {
        const int64_t ids[2] = {f->id1[q], f->id2[q]};
        size_t at[2] = {frame_index(f, ids[0]), ids[1] < 0 ? SIZE_MAX : frame_index(f, ids[1])};
        const double *n = f->normal + 3 * q, *b = f->branch + 3 * q;
        const double *fn = f->fn + 3 * q, *ft = f->ft + 3 * q;
        int finite = 1;
        for (int a = 0; a < 3; a++)
            finite &= isfinite(n[a]) && isfinite(b[a]) && isfinite(fn[a]) && isfinite(ft[a]);
        if (at[0] == SIZE_MAX || (ids[1] >= 0 && at[1] == SIZE_MAX))
            rc = rbl_error_set(err, RBL_EINVAL, "contact %zu: grain %lld is not in the frame",
                               q, (long long)ids[at[0] == SIZE_MAX ? 0 : 1]);
        else if (!finite)
            rc = rbl_error_set(err, RBL_EINVAL, "contact %zu (grain %lld): a normal, branch or "
                               "force that is not a finite number", q, (long long)ids[0]);
        for (int e = 0; rc == RBL_OK && e < 2; e++)
            if (at[e] != SIZE_MAX)
                fabric_add(smp.part + P_WIDTH * at[e] + P_FABRIC, n);
        if (rc == RBL_OK)
            contact_set(smp.cont + C_WIDTH * q, f->pos + 3 * at[0], b, fn, ft, ids[1] < 0);
    }
    for (size_t k = 0; rc == RBL_OK && k < f->n; k++) {
        const double r = f->radius[k];
        particle_set(smp.part + P_WIDTH * k, f->pos + 3 * k, f->mass[k],
                     4.0 / 3.0 * M_PI * r * r * r, f->vel + 3 * k);
    }
    for (int a = 0; a < 3; a++)
        smp.side[a] = f->hi[a] - f->lo[a], smp.periodic[a] = f->periodic[a];
    smp.threads = f->threads;
    if (rc == RBL_OK)
        rc = add_sample(cg, &smp, err);
    sample_free(&smp);
    return rc;
}

/* Node k's local basis E (rows), from its coordinates. */
static void node_basis(const rbl_cg *cg, size_t k, double e[9])
{
    const size_t at[3] = {k % cg->n[0], k / cg->n[0] % cg->n[1], k / cg->n[0] / cg->n[1]};
    double q[3];
    for (int a = 0; a < 3; a++)
        q[a] = cg->origin[a] + (double)at[a] * cg->h[a];
    rbl_cg_coords_basis(&cg->co, q, e);
}

/* v turned into the basis E: E v. */
static void vector_to_local(const double e[9], double v[3])
{
    double w[3] = {0.0, 0.0, 0.0};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            w[a] += e[3 * a + b] * v[b];
    memcpy(v, w, sizeof w);
}

/* Node k's vectors and tensors turned into its local basis E (rows): E v, E T E^T. */
static void to_local(const rbl_cg *cg, size_t k, rbl_cg_fields *f)
{
    double e[9];
    node_basis(cg, k, e);
    vector_to_local(e, f->velocity + 3 * k);
    double *tensors[4] = {f->stress + 9 * k, f->contact_stress + 9 * k,
                          f->kinetic_stress + 9 * k, f->fabric + 9 * k};
    for (int t = 0; t < 4; t++) {
        double et[9] = {0}, out[9] = {0}; /* E T, then (E T) E^T */
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                for (int c = 0; c < 3; c++)
                    et[3 * a + b] += e[3 * a + c] * tensors[t][3 * c + b];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                for (int c = 0; c < 3; c++)
                    out[3 * a + b] += et[3 * a + c] * e[3 * b + c];
        memcpy(tensors[t], out, sizeof out);
    }
}

int rbl_cg_fields_get(const rbl_cg *cg, rbl_cg_fields *f, rbl_error *err)
{
    memset(f, 0, sizeof *f);
    const size_t n = cg->nodes;
    f->nodes = n, f->samples = cg->samples;
    for (int a = 0; a < 3; a++)
        f->cells[a] = cg->n[a], f->origin[a] = cg->origin[a], f->spacing[a] = cg->h[a];
    f->density = malloc(n * sizeof(double));
    f->volume_fraction = malloc(n * sizeof(double));
    f->velocity = malloc(3 * n * sizeof(double));
    f->stress = malloc(9 * n * sizeof(double));
    f->contact_stress = malloc(9 * n * sizeof(double));
    f->kinetic_stress = malloc(9 * n * sizeof(double));
    f->fabric = malloc(9 * n * sizeof(double));
    if (!f->density || !f->volume_fraction || !f->velocity || !f->stress ||
        !f->contact_stress || !f->kinetic_stress || !f->fabric) {
        rbl_cg_fields_free(f);
        return rbl_error_set(err, RBL_ENOMEM, "coarse-graining: out of memory for %zu nodes", n);
    }
    const double inv = cg->samples ? 1.0 / (double)cg->samples : 0.0;
    for (size_t k = 0; k < n; k++) {
        const double *s = cg->sum + CG_SUMS * k;
        const double rho = s[S_MASS] * inv;
        double vel[3];
        for (int a = 0; a < 3; a++)
            vel[a] = rho > 0.0 ? s[S_MOMENTUM + a] * inv / rho : 0.0;
        f->density[k] = rho;
        f->volume_fraction[k] = s[S_VOLUME] * inv;
        for (int a = 0; a < 3; a++) {
            f->velocity[3 * k + a] = vel[a];
            for (int b = 0; b < 3; b++) {
                const int ab = 3 * a + b;
                const double kin = -(s[S_MVV + ab] * inv - rho * vel[a] * vel[b]);
                f->kinetic_stress[9 * k + ab] = kin;
                f->contact_stress[9 * k + ab] = s[S_CONTACT + ab] * inv;
                f->stress[9 * k + ab] = kin + s[S_CONTACT + ab] * inv;
                f->fabric[9 * k + ab] = s[S_FABRIC + ab] * inv;
            }
        }
        if (cg->co.kind != RBL_CG_CARTESIAN)
            to_local(cg, k, f);
    }
    return RBL_OK;
}

void rbl_cg_fields_free(rbl_cg_fields *f)
{
    free(f->density), free(f->volume_fraction), free(f->velocity), free(f->stress);
    free(f->contact_stress), free(f->kinetic_stress), free(f->fabric);
    memset(f, 0, sizeof *f);
}

int rbl_cg_wall_force_get(const rbl_cg *cg, double *out, size_t count, rbl_error *err)
{
    if (count != 3 * cg->nodes)
        return rbl_error_set(err, RBL_EINVAL, "coarse-graining: the wall force takes 3 values "
                             "per node, %zu, not %zu", 3 * cg->nodes, count);
    const double inv = cg->samples ? 1.0 / (double)cg->samples : 0.0;
    for (size_t k = 0; k < cg->nodes; k++) {
        const double *s = cg->sum + CG_SUMS * k + S_WALL;
        double *t = out + 3 * k;
        for (int a = 0; a < 3; a++)
            t[a] = s[a] * inv;
        if (cg->co.kind != RBL_CG_CARTESIAN) {
            double e[9];
            node_basis(cg, k, e);
            vector_to_local(e, t);
        }
    }
    return RBL_OK;
}
