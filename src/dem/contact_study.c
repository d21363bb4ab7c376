/* contact_study.c — what force-chain and rheology studies read of a contact beyond its force
 * (issue 74, output.contacts' columns and filters): the tangential spring (m, as seen from the
 * first grain), whether it slides (its force at the Coulomb limit mu L, L the load that bounds
 * friction: |F_n|, JKR's F_e + 3 pi w R*), the rolling resistance's torque on the first grain
 * (N m), its age (the force evaluations it touched in, where kept), the grains' materials; and which contacts a filter keeps (region, materials, walls or
 * grains, |F_n|). Read back from the histories and slots the force passes left. */
#include "contact_kernel.h"
#include "insert_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A force at the cap is limit (1 +- a few ulps), recomputed from the list's split of the
 * force: a contact within this share of its limit slides. */
#define SLIDING_SHARE (1.0 - 1e-9)

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The load that bounds friction (rbl_contact_load) from the contact as listed. */
static double load_of(const rbl_sim *sim, const rbl_pair_coef *pc, const rbl_contact_item *it,
                      double r_eff)
{
    const rbl_contact_law *law = &sim->cfg.law;
    if (law->cohesion != RBL_COHESION_JKR)
        return sqrt(dot(it->fn, it->fn));
    const double c = rbl_jkr_c(pc->cohesion, pc->y_star);
    const double a = rbl_jkr_radius(it->overlap, r_eff, c);
    return rbl_jkr_force(a, r_eff, c, pc->y_star) + 3.0 * M_PI * pc->cohesion * r_eff;
}

/* The age the history h keeps (rbl_sim_contact_ages), -1 where none or unknown. */
static int64_t age_of(const rbl_contact_law *law, const double *h)
{
    const double a = law->collisions & RBL_LAW_AGES ? h[rbl_hist_age(law)] : -1.0;
    return a >= 1.0 ? (int64_t)a : -1;
}

/* spring, sliding and the epsd2 torque from history h (the first listed grain's sign: flip),
 * the limit's mu from pc. */
static void from_history(const rbl_sim *sim, const rbl_pair_coef *pc, const double *h,
                         double flip, const rbl_contact_item *it, double r_eff,
                         rbl_contact_extra *x)
{
    const rbl_contact_law *law = &sim->cfg.law;
    double spring = 0.0;
    if (law->tangent == RBL_TANGENT_SEED) { /* D_H, a length along no direction */
        x->spring[0] = h[0], spring = h[0];
    } else if (law->tangent == RBL_TANGENT_SPRING) {
        for (int a = 0; a < 3; a++)
            x->spring[a] = flip * h[a];
        spring = sqrt(dot(h, h));
    }
    const double kt = rbl_hist_holds_kt(law) ? h[3] : law->kt;
    if (law->tangent != RBL_TANGENT_NONE)
        x->sliding = kt * spring >= SLIDING_SHARE * pc->mu * load_of(sim, pc, it, r_eff) &&
                     kt * spring > 0.0;
    if (law->rolling == RBL_ROLLING_EPSD2) { /* the torque on the pass's first: -M */
        const double *m = h + rbl_hist_rolling(law);
        for (int a = 0; a < 3; a++)
            x->rolling[a] = -flip * m[a];
    }
}

/* cdt keeps no history: its torque from the slot, the torque on grain `on` less the
 * tangential force's at lever l (c = n x ft, the pass's normal and force), its part along n
 * (twisting) taken out. */
static void rolling_from_torque(const double t[3], double l, const double c[3],
                                const double n[3], double sign, double out[3])
{
    double tr[3];
    for (int a = 0; a < 3; a++)
        tr[a] = sign * (t[a] + l * c[a]);
    const double tn = dot(tr, n);
    for (int a = 0; a < 3; a++)
        out[a] = tr[a] - tn * n[a];
}

void rbl_contact_pair_extra(const rbl_sim *sim, size_t q, const rbl_contact_item *it,
                            rbl_contact_extra *x)
{
    const rbl_contact_law *law = &sim->cfg.law;
    const rbl_pair_list *p = &sim->pairs;
    const uint32_t i = p->i[q], j = p->j[q];
    const int swap = sim->g.id[i] > sim->g.id[j];
    memset(x, 0, sizeof *x);
    x->material1 = sim->g.material[swap ? j : i], x->material2 = sim->g.material[swap ? i : j];
    const rbl_pair_coef *pc = rbl_pair_coef_of(sim, sim->g.material[i], sim->g.material[j]);
    const double ri = sim->g.radius[i], rj = sim->g.radius[j];
    const double *h = p->hist + rbl_hist_width(law) * q;
    from_history(sim, pc, h, swap ? -1.0 : 1.0, it, ri * rj / (ri + rj), x);
    x->age = age_of(law, h);
    if (law->rolling == RBL_ROLLING_CDT) {
        /* the slot holds the torque on j: -l2 (n x ft) - tr, n from j to i, ft on i */
        const double *t = p->out + RBL_PAIR_OUT * (size_t)p->jpos[q] + 3;
        const double dist = ri + rj - it->overlap;
        const double l1 = (ri * ri - rj * rj + dist * dist) / (2.0 * dist), l2 = dist - l1;
        const double s = swap ? 1.0 : -1.0; /* the list's normal and ft into the pass's */
        double n[3], ft[3], c[3];
        for (int a = 0; a < 3; a++)
            n[a] = s * it->normal[a], ft[a] = -s * it->ft[a];
        rbl_cross(n, ft, c);
        rolling_from_torque(t, l2, c, n, -1.0, x->rolling); /* tr on i */
        for (int a = 0; a < 3; a++)
            x->rolling[a] *= swap ? -1.0 : 1.0;
    }
}

void rbl_contact_wall_extra(const rbl_sim *sim, size_t q, const rbl_contact_item *it,
                            rbl_contact_extra *x)
{
    const rbl_contact_law *law = &sim->cfg.law;
    const rbl_wall_list *w = &sim->wpairs;
    const uint32_t i = w->grain[q];
    memset(x, 0, sizeof *x);
    x->material1 = sim->g.material[i], x->material2 = rbl_wall_material(sim, w->wall[q]);
    const rbl_pair_coef *pc = rbl_pair_coef_of(sim, x->material1, x->material2);
    const double *h = w->hist + rbl_wall_hist_width(law) * q;
    from_history(sim, pc, h, 1.0, it, sim->g.radius[i], x);
    x->age = age_of(law, h);
    if (law->rolling == RBL_ROLLING_CDT) { /* the slot: -l1 (n x ft) + tr on the grain */
        double c[3];
        rbl_cross(it->normal, it->ft, c);
        rolling_from_torque(w->out + RBL_WALL_OUT * q + 3, sim->g.radius[i] - it->overlap, c,
                            it->normal, 1.0, x->rolling);
    }
}

int rbl_contact_filter_keeps(const rbl_contact_filter *f, const rbl_contact_item *it,
                             const rbl_contact_extra *x)
{
    const int wall = it->wall >= 0;
    if ((f->only == RBL_CONTACTS_GRAINS && wall) || (f->only == RBL_CONTACTS_WALLS && !wall))
        return 0;
    if (f->fn_min > 0.0 && !(sqrt(dot(it->fn, it->fn)) >= f->fn_min))
        return 0;
    if (f->n_materials) {
        int in = 0;
        for (int k = 0; k < f->n_materials; k++)
            in |= f->materials[k] == x->material1 || (!wall && f->materials[k] == x->material2);
        if (!in)
            return 0;
    }
    if (f->has_region) {
        const rbl_insert_spec *r = &f->region;
        for (int a = 0; a < 3 && r->shape == RBL_REGION_BOX; a++)
            if (!(it->point[a] >= r->lo[a] && it->point[a] <= r->hi[a]))
                return 0;
        if (!rbl_insert_in_shape(r, NULL, NULL, it->point, 0.0))
            return 0;
    }
    return 1;
}

int rbl_sim_contact_rows(const rbl_sim *sim, const rbl_contact_filter *f, rbl_contact_row **rows,
                         size_t *n, size_t *n_pairs)
{
    size_t *slots = NULL, np = 0, nw = 0;
    *rows = NULL, *n = *n_pairs = 0;
    if (!rbl_contacts_order(sim, &slots, &np, &nw))
        return 0;
    rbl_contact_row *r = malloc((np + nw + 1) * sizeof *r);
    if (!r) {
        free(slots);
        return 0;
    }
    size_t k = 0;
    for (size_t q = 0; q < np + nw; q++) {
        rbl_contact_row *row = r + k;
        rbl_contact_item_of(sim, slots, np, q, &row->it);
        if (q < np)
            rbl_contact_pair_extra(sim, slots[q], &row->it, &row->x);
        else
            rbl_contact_wall_extra(sim, slots[q], &row->it, &row->x);
        if (!f || rbl_contact_filter_keeps(f, &row->it, &row->x)) {
            k++;
            *n_pairs += q < np;
        }
    }
    free(slots);
    *rows = r, *n = k;
    return 1;
}
