/* contact_kernel.h — the contact law as a pure kernel: a const geometry in, the force on the
 * first body and its tangential part out, the contact's history slice updated. Shared by
 * grain-grain and grain-wall contacts. Normal: seed 002 §2.3.1 (linear / Hertz spring,
 * linear / Tsuji damping); tangential: §2.3.2 (scalar history D_H) or the Cundall-Strack
 * spring; Hertz-Mindlin coefficients from materials as LIGGGHTS' "hertz" model. SI units. */
#ifndef RBL_CONTACT_KERNEL_H
#define RBL_CONTACT_KERNEL_H

#include "dem_internal.h"

#include <math.h>

typedef struct rbl_contact_geom {
    double n[3];    /* unit normal from the second body to the first */
    double overlap; /* xi > 0 */
    double v[3];    /* velocity of the contact point on the first body relative to the second */
    double r_eff, m_eff;
} rbl_contact_geom;

/* Stiffness and damping of one contact at its current overlap. */
typedef struct rbl_contact_coef {
    double kn, gn, kt, gt, mu;
} rbl_contact_coef;

static inline void rbl_contact_coefficients(const rbl_contact_law *law, const rbl_pair_coef *pc,
                                            const rbl_contact_geom *g, rbl_contact_coef *c)
{
    double xi = g->overlap;
    if (law->from_materials) {
        /* LIGGGHTS normal_model_hertz / tangential_model_history with E*, G*, beta. */
        const double k56 = 1.8257418583505538; /* 2 sqrt(5/6) */
        double sr = sqrt(g->r_eff * xi);
        double sn = 2.0 * pc->y_star * sr;
        c->kn = (4.0 / 3.0) * pc->y_star * sr;
        c->gn = -k56 * pc->beta * sqrt(sn * g->m_eff);
        c->kt = 8.0 * pc->g_star * sr;
        c->gt = -k56 * pc->beta * sqrt(c->kt * g->m_eff);
        c->mu = pc->mu;
        return;
    }
    c->kn = law->kn, c->kt = law->kt, c->gn = law->gamma_n, c->gt = law->gamma_t;
    c->mu = law->friction;
    if (law->normal == RBL_NORMAL_HERTZ) {
        double s = sqrt(xi);
        c->kn *= s, c->kt *= s;
    }
    if (law->damping == RBL_DAMPING_TSUJI) {
        double q = sqrt(sqrt(xi));
        c->gn *= q, c->gt *= q;
    }
}

/* Force on the first body f (normal + tangential) and its tangential part ft. */
static inline void rbl_contact_force(const rbl_contact_law *law, const rbl_pair_coef *pc,
                                     const rbl_contact_geom *g, double dt, double *hist,
                                     double f[3], double ft[3])
{
    rbl_contact_coef c;
    rbl_contact_coefficients(law, pc, g, &c);
    const double *n = g->n;
    /* v . n < 0 while approaching; the seed's F_d = -gamma (v12 . n) n pushes apart then. */
    double vn = g->v[0] * n[0] + g->v[1] * n[1] + g->v[2] * n[2];
    double fn = c.kn * g->overlap - c.gn * vn;
    double vt[3] = {g->v[0] - vn * n[0], g->v[1] - vn * n[1], g->v[2] - vn * n[2]};
    ft[0] = ft[1] = ft[2] = 0.0;
    double limit = c.mu * fabs(fn);
    if (law->tangent == RBL_TANGENT_SEED) {
        /* D_H = sum |v_t| dt; F = -min(k_t D_H, mu |F_n|) v_t / |v_t|. */
        double vmag = sqrt(vt[0] * vt[0] + vt[1] * vt[1] + vt[2] * vt[2]);
        hist[0] += vmag * dt;
        if (vmag > 0.0) {
            double mag = c.kt * hist[0];
            if (mag > limit)
                mag = limit;
            double s = -mag / vmag;
            ft[0] = s * vt[0], ft[1] = s * vt[1], ft[2] = s * vt[2];
        }
    } else if (law->tangent == RBL_TANGENT_SPRING) {
        /* Project the spring onto the current tangent plane (as LIGGGHTS does), extend it by
         * v_t dt, and cap its force at the Coulomb limit (sliding: the spring shrinks). */
        double *s = hist;
        double sn = s[0] * n[0] + s[1] * n[1] + s[2] * n[2];
        s[0] += vt[0] * dt - sn * n[0];
        s[1] += vt[1] * dt - sn * n[1];
        s[2] += vt[2] * dt - sn * n[2];
        double s2 = s[0] * s[0] + s[1] * s[1] + s[2] * s[2];
        if (c.kt * c.kt * s2 > limit * limit) {
            double ratio = limit / (c.kt * sqrt(s2));
            s[0] *= ratio, s[1] *= ratio, s[2] *= ratio;
            ft[0] = -c.kt * s[0], ft[1] = -c.kt * s[1], ft[2] = -c.kt * s[2];
        } else {
            ft[0] = -c.kt * s[0] - c.gt * vt[0];
            ft[1] = -c.kt * s[1] - c.gt * vt[1];
            ft[2] = -c.kt * s[2] - c.gt * vt[2];
        }
    }
    f[0] = fn * n[0] + ft[0];
    f[1] = fn * n[1] + ft[1];
    f[2] = fn * n[2] + ft[2];
}

/* Energy stored in the springs of one contact: normal (1/2 k xi^2 linear, 2/5 k_H xi^(5/2)
 * Hertz) and the tangential spring 1/2 k_t |s|^2. */
static inline double rbl_contact_energy(const rbl_contact_law *law, const rbl_pair_coef *pc,
                                        const rbl_contact_geom *g, const double *hist)
{
    rbl_contact_coef c;
    rbl_contact_coefficients(law, pc, g, &c);
    int hertz = law->from_materials || law->normal == RBL_NORMAL_HERTZ;
    double e = (hertz ? 0.4 : 0.5) * c.kn * g->overlap * g->overlap;
    if (law->tangent == RBL_TANGENT_SPRING)
        e += 0.5 * c.kt * (hist[0] * hist[0] + hist[1] * hist[1] + hist[2] * hist[2]);
    return e;
}

static inline void rbl_cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline const rbl_pair_coef *rbl_pair_coef_of(const rbl_sim *sim, int ma, int mb)
{
    return sim->coef ? &sim->coef[ma * sim->n_materials + mb] : NULL;
}

/* What the geometry of a pair reads, copied out of the simulation into locals once per pass:
 * the force loop then holds these pointers in registers instead of reloading them through
 * the simulation after every store (a byte store may alias anything). */
typedef struct rbl_pair_arrays {
    const rbl_packed_grain *pk;
    const uint32_t *i, *j;
    const uint8_t *image;
    double box[3];
} rbl_pair_arrays;

/* Valid after rbl_pack_grains. */
static inline rbl_pair_arrays rbl_pair_arrays_of(const rbl_sim *sim)
{
    rbl_pair_arrays a = {sim->packed, sim->pairs.i, sim->pairs.j, sim->pairs.image,
                         {sim->box[0], sim->box[1], sim->box[2]}};
    return a;
}

/* Geometry of listed pair q, whose first grain's record is gi; 0 if the grains do not touch.
 * Contact point at -l1 n from the first centre and +l2 n from the second. */
static inline int rbl_pair_geometry(const rbl_pair_arrays *a, const rbl_packed_grain *gi,
                                    size_t q, rbl_contact_geom *geo, double *l1_out,
                                    double *l2_out)
{
    const rbl_packed_grain *gj = a->pk + a->j[q];
    double d[3] = {gi->pos[0] - gj->pos[0], gi->pos[1] - gj->pos[1], gi->pos[2] - gj->pos[2]};
    uint8_t c = a->image[q];
    if (c != RBL_IMAGE_NONE) {
        double sh[3];
        rbl_image_shift(a->box, c, sh);
        d[0] -= sh[0], d[1] -= sh[1], d[2] -= sh[2];
    }
    double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    double ri = gi->radius, rj = gj->radius, rs = ri + rj;
    if (r2 >= rs * rs)
        return 0;
    /* 1/d as d / d^2: the square root and the division run side by side, not one after the
     * other (a contact's cost is the latency of its chain of operations) */
    double dist = sqrt(r2);
    double inv = dist > 0.0 ? dist * (1.0 / r2) : 0.0;
    if (dist > 0.0) {
        geo->n[0] = d[0] * inv, geo->n[1] = d[1] * inv, geo->n[2] = d[2] * inv;
    } else {
        geo->n[0] = 0.0, geo->n[1] = 0.0, geo->n[2] = 1.0;
    }
    geo->overlap = rs - dist;
    double l1 = dist > 0.0 ? 0.5 * (ri * ri - rj * rj + r2) * inv : ri;
    double l2 = dist - l1;
    double wi[3], wj[3], a1[3] = {-l1 * geo->n[0], -l1 * geo->n[1], -l1 * geo->n[2]};
    double a2[3] = {l2 * geo->n[0], l2 * geo->n[1], l2 * geo->n[2]};
    rbl_cross(gi->omega, a1, wi);
    rbl_cross(gj->omega, a2, wj);
    for (int k = 0; k < 3; k++)
        geo->v[k] = gi->vel[k] + wi[k] - gj->vel[k] - wj[k];
    geo->r_eff = ri * rj / rs;
    geo->m_eff = gi->mass * gj->mass / (gi->mass + gj->mass);
    *l1_out = l1, *l2_out = l2;
    return 1;
}

/* Geometry of grain-wall contact q (seed: xi = r - d*, lever arm l1 = d*); 0 if apart. */
static inline int rbl_wall_geometry(const rbl_sim *sim, size_t q, const double *vel,
                                    const double *om, rbl_contact_geom *geo, double *l1_out)
{
    const rbl_wall_list *w = &sim->wpairs;
    const rbl_grains *g = &sim->g;
    uint32_t i = w->grain[q];
    const rbl_plane *pl = &sim->walls[w->wall[q]];
    const double *x = g->pos + 3 * (size_t)i;
    double d = pl->n[0] * x[0] + pl->n[1] * x[1] + pl->n[2] * x[2] + pl->offset;
    double r = g->radius[i];
    if (d >= r)
        return 0;
    geo->n[0] = pl->n[0], geo->n[1] = pl->n[1], geo->n[2] = pl->n[2];
    geo->overlap = r - d;
    double l1 = d > 0.0 ? d : 0.0;
    double a1[3] = {-l1 * geo->n[0], -l1 * geo->n[1], -l1 * geo->n[2]}, wi[3];
    rbl_cross(om + 3 * (size_t)i, a1, wi);
    const double *v = vel + 3 * (size_t)i;
    geo->v[0] = v[0] + wi[0], geo->v[1] = v[1] + wi[1], geo->v[2] = v[2] + wi[2];
    geo->r_eff = r;
    geo->m_eff = g->mass[i];
    *l1_out = l1;
    return 1;
}

#endif
