/* contact_kernel.h — the contact law as pure kernels composed of sub-models, as LAMMPS'
 * GRANULAR and LIGGGHTS compose theirs: the geometry is computed once (rbl_contact_geom) and
 * handed to the normal model (spring and damping), the cohesion, the tangential model and the
 * rolling model in that order, each owning its slice of the contact's history. Out: the force
 * on the first body, its tangential part and the rolling torque on the first body (the second
 * gets the opposite). Shared by grain-grain and grain-wall contacts. Normal: seed 002 §2.3.1
 * (linear / Hertz spring, linear / Tsuji damping); tangential: §2.3.2 (scalar history D_H) or
 * the Cundall-Strack spring; Hertz-Mindlin coefficients from materials, rolling friction and
 * cohesion as LIGGGHTS' "hertz", "rolling_friction cdt / epsd2" and "cohesion sjkr". A pair
 * of materials' friction, rolling friction, cohesion and (without materials) normal damping
 * come from its rbl_pair_coef. SI. */
#ifndef RBL_CONTACT_KERNEL_H
#define RBL_CONTACT_KERNEL_H

#include "dem_internal.h"

#include <math.h>

/* The sub-models are inlined into the pair pass's SIMD loops whatever their size: a call
 * there would end vectorisation. */
#define RBL_KERNEL static inline __attribute__((always_inline))

typedef struct rbl_contact_geom {
    double n[3];    /* unit normal from the second body to the first */
    double overlap; /* xi > 0 */
    double v[3];    /* velocity of the contact point on the first body relative to the second */
    double w[3];    /* spin of the first body less the second's */
    double a2;      /* squared radius of the circle where the bodies' surfaces cross */
    double r_eff, m_eff;
} rbl_contact_geom;

/* Stiffness and damping of one contact at its current overlap. */
typedef struct rbl_contact_coef {
    double kn, gn, kt, gt, mu, mu_r;
} rbl_contact_coef;

/* A contact's results: force on the first body (normal + tangential), its tangential part,
 * the rolling torque on the first body, and the energy the step took out of the contact by
 * each mechanism (the energy account, account.c): loss[RBL_LOSS_DAMPING] the dashpots' work
 * (normal, and tangential while sticking), loss[RBL_LOSS_FRICTION] what the Coulomb cap and
 * the projection onto the tangent plane took from the tangential spring (the seed's D_H model:
 * its whole work), loss[RBL_LOSS_ROLLING] the rolling model's (cdt: its work; epsd2: what its
 * cap and its stiffness's change took from the spring). J, each >= 0. */
typedef struct rbl_contact_out {
    double f[3], ft[3], tr[3];
    double loss[3];
} rbl_contact_out;

/* JKR (Johnson, Kendall and Roberts 1971), E* = Y*, surface energy w, with
 * c = sqrt(2 pi w / E*): overlap and contact radius a are tied by xi = a^2 / R - c sqrt(a), the
 * force is F = 4 E* a^3 / (3 R) - 2 E* c a^(3/2) (positive pushes apart). A contact forms at
 * xi = 0 and holds in tension down to xi_c = -3/4 (pi^2 w^2 R / E*^2)^(1/3), where da/dxi is
 * infinite; its least force on the way is -3/2 pi w R (the pull-off force). */
RBL_KERNEL double rbl_jkr_c(double w, double y_star)
{
    return sqrt(2.0 * M_PI * w / y_star);
}

/* How far beyond touching (m) a JKR contact holds: -xi_c. */
static inline double rbl_jkr_reach(double w, double y_star, double r_eff)
{
    return 0.75 * cbrt(M_PI * M_PI * w * w * r_eff / (y_star * y_star));
}

/* The contact radius on the stable branch for xi >= xi_c, in closed form: with x = sqrt(a),
 * x^4 - R c x - R xi = 0, a quartic solved by Ferrari's resolvent m^3 + R xi m - R^2 c^2 / 8 = 0,
 * which has one real root for xi >= xi_c (Cardano's, as u - P / 3u; where P = R xi > m^2 that
 * difference cancels, so m = (R^2 c^2 / 8) / (m^2 + P), a contraction there, twice). Then
 * x = (sqrt(2m) + sqrt(2 R c / sqrt(2m) - 2m)) / 2. Branch-free. */
RBL_KERNEL double rbl_jkr_radius(double xi, double r, double c)
{
    double p = r * xi, h = r * r * c * c / 16.0;
    double disc = h * h + p * p * p / 27.0;
    double u = cbrt(h + sqrt(disc > 0.0 ? disc : 0.0));
    double m = u - p / (3.0 * u);
    int refine = p > m * m;
    double m1 = 2.0 * h / (m * m + (refine ? p : 1.0));
    double m2 = 2.0 * h / (m1 * m1 + (refine ? p : 1.0));
    m = refine ? m2 : m;
    double s = sqrt(2.0 * m);
    double q = 2.0 * r * c / s - 2.0 * m;
    double x = 0.5 * (s + sqrt(q > 0.0 ? q : 0.0));
    return x * x;
}

/* The JKR force at contact radius a. */
RBL_KERNEL double rbl_jkr_force(double a, double r, double c, double y_star)
{
    return 4.0 * y_star * a * a * a / (3.0 * r) - 2.0 * y_star * c * a * sqrt(a);
}

/* The energy stored at contact radius a (elastic and surface), zero where the contact forms
 * (xi = 0, a = (R c)^(2/3)): dU/dxi = F. */
static inline double rbl_jkr_energy(double a, double r, double c, double y_star)
{
#define RBL_JKR_U(x)                                                                          \
    (8.0 * y_star * pow(x, 5.0) / (15.0 * r * r) -                                            \
     4.0 / 3.0 * y_star * c / r * pow(x, 3.5) + 0.5 * y_star * c * c * (x) * (x))
    double a0 = cbrt(r * c * r * c);
    double e = RBL_JKR_U(a) - RBL_JKR_U(a0);
#undef RBL_JKR_U
    return e;
}

/* Its surface (cohesive) part: what is left of it without Hertz's elastic 8 E* a^5 / 15 R^2
 * (from where the contact forms). */
static inline double rbl_jkr_surface_energy(double a, double r, double c, double y_star)
{
    double a0 = cbrt(r * c * r * c);
    return rbl_jkr_energy(a, r, c, y_star) -
           8.0 * y_star * (pow(a, 5.0) - pow(a0, 5.0)) / (15.0 * r * r);
}

/* The contact radius a: sqrt(R* xi) (Hertz's), or JKR's. */
RBL_KERNEL double rbl_contact_radius(const rbl_contact_law *law, const rbl_contact_geom *g,
                                     double a_jkr)
{
    const double ra = g->r_eff * g->overlap;
    return law->cohesion == RBL_COHESION_JKR ? a_jkr : sqrt(ra > 0.0 ? ra : 0.0);
}

/* Stiffness and damping at the current overlap; with JKR at contact radius a (the Hertz
 * sqrt(R xi) is the contact radius, so the damping and the tangential spring follow it, and
 * stay real in tension). */
RBL_KERNEL void rbl_contact_coefficients(const rbl_contact_law *law, const rbl_pair_coef *pc,
                                         const rbl_contact_geom *g, double a_jkr,
                                         rbl_contact_coef *c)
{
    double xi = g->overlap;
    if (law->from_materials) {
        /* LIGGGHTS normal_model_hertz / tangential_model_history with E*, G*, beta. */
        const double k56 = 1.8257418583505538; /* 2 sqrt(5/6) */
        double sr = law->cohesion == RBL_COHESION_JKR ? a_jkr : sqrt(g->r_eff * xi);
        double sn = 2.0 * pc->y_star * sr;
        c->kn = (4.0 / 3.0) * pc->y_star * sr;
        c->gn = -k56 * pc->beta * sqrt(sn * g->m_eff);
        c->kt = 8.0 * pc->g_star * sr;
        c->gt = -k56 * pc->beta * sqrt(c->kt * g->m_eff);
        c->mu = pc->mu, c->mu_r = pc->mu_r;
        return;
    }
    c->kn = law->kn, c->kt = law->kt, c->gn = pc->gn, c->gt = law->gamma_t;
    c->mu = pc->mu, c->mu_r = pc->mu_r;
    if (law->normal == RBL_NORMAL_HERTZ) {
        double s = sqrt(xi);
        c->kn *= s, c->kt *= s;
    }
    if (law->damping == RBL_DAMPING_TSUJI) {
        double q = sqrt(sqrt(xi));
        c->gn *= q, c->gt *= q;
    }
}

/* Normal model: the spring's force (*elastic: k_n xi, or JKR's at contact radius a) and with
 * the damping the normal force, positive when it pushes the bodies apart. v . n < 0 while
 * approaching; the seed's F_d = -gamma (v12 . n) n pushes apart then. */
RBL_KERNEL double rbl_normal_force(const rbl_contact_law *law, const rbl_pair_coef *pc,
                                   const rbl_contact_coef *c, const rbl_contact_geom *g,
                                   double a_jkr, double *elastic)
{
    const double *n = g->n;
    double vn = g->v[0] * n[0] + g->v[1] * n[1] + g->v[2] * n[2];
    if (law->cohesion == RBL_COHESION_JKR)
        *elastic = rbl_jkr_force(a_jkr, g->r_eff, rbl_jkr_c(pc->cohesion, pc->y_star),
                                 pc->y_star);
    else
        *elastic = c->kn * g->overlap;
    return *elastic - c->gn * vn;
}

/* Cohesion model: what it adds to the normal force (sjkr: -k_c A, A = pi a^2). */
RBL_KERNEL double rbl_cohesion_force(const rbl_contact_law *law, const rbl_pair_coef *pc,
                                     const rbl_contact_geom *g)
{
    if (law->cohesion == RBL_COHESION_SJKR)
        return -pc->cohesion * M_PI * g->a2;
    return 0.0;
}

/* The normal load that bounds friction and rolling: |F_n| with the cohesion included, as
 * LIGGGHTS; with JKR, F_e + 2 F_pulloff (Thornton and Yin; LAMMPS' jkr), which stays
 * positive in tension. */
RBL_KERNEL double rbl_contact_load(const rbl_contact_law *law, const rbl_pair_coef *pc,
                                   const rbl_contact_geom *g, double fn, double elastic)
{
    if (law->cohesion == RBL_COHESION_JKR)
        return elastic + 3.0 * M_PI * pc->cohesion * g->r_eff;
    return fabs(fn);
}

/* Tangential model on its history slice h (3 doubles), bounded by mu times the normal load.
 * Branch-free: the pair pass runs this over several contacts at once (SIMD), so the two sides
 * of a condition are selections, and no division can meet a zero. */
RBL_KERNEL void rbl_tangential_force(const rbl_contact_law *law, const rbl_contact_coef *c,
                                     const rbl_contact_geom *g, double load, double dt,
                                     double *h, double ft[3], double dash[3], double *slid)
{
    const double *n = g->n;
    double vn = g->v[0] * n[0] + g->v[1] * n[1] + g->v[2] * n[2];
    double vt[3] = {g->v[0] - vn * n[0], g->v[1] - vn * n[1], g->v[2] - vn * n[2]};
    ft[0] = ft[1] = ft[2] = 0.0;
    dash[0] = dash[1] = dash[2] = 0.0;
    *slid = 0.0;
    double limit = c->mu * load;
    if (law->tangent == RBL_TANGENT_SEED) {
        /* D_H = sum |v_t| dt; F = -min(k_t D_H, mu |F_n|) v_t / |v_t| (0 when v_t = 0). */
        double vmag = sqrt(vt[0] * vt[0] + vt[1] * vt[1] + vt[2] * vt[2]);
        h[0] += vmag * dt;
        double mag = c->kt * h[0];
        mag = mag > limit ? limit : mag;
        double s = -mag / (vmag > 0.0 ? vmag : 1.0);
        ft[0] = s * vt[0], ft[1] = s * vt[1], ft[2] = s * vt[2];
        /* It stores nothing: all its work is lost. It acts on the bodies as a dashpot does
         * (a force from the velocity, in both ends' kicks), so its work is booked as theirs,
         * the mean of its two ends times the motion: it goes into dash (rbl_contact_force
         * books it as friction). Booked as mag |v_t| dt, a grain whose v_t turned within a
         * step was booked a loss its force did not make (a resting rubble pile's balance
         * walked by 0.9 of its friction). */
        dash[0] = ft[0], dash[1] = ft[1], dash[2] = ft[2];
    } else if (law->tangent == RBL_TANGENT_SPRING) {
        /* Project the spring onto the current tangent plane (as LIGGGHTS does), extend it by
         * v_t dt, and cap its force at the Coulomb limit (sliding: the spring shrinks, and
         * its damping is off). */
        double sn = h[0] * n[0] + h[1] * n[1] + h[2] * n[2];
        const double was[3] = {h[0] - sn * n[0], h[1] - sn * n[1], h[2] - sn * n[2]};
        const double was2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2] - sn * sn;
        h[0] += vt[0] * dt - sn * n[0];
        h[1] += vt[1] * dt - sn * n[1];
        h[2] += vt[2] * dt - sn * n[2];
        double s2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
        /* the stiffness it held its stretch with: where it follows the overlap, the last
         * step's (0 at first touch, when the stretch is 0 too) */
        const int holds_kt = rbl_hist_holds_kt(law);
        const double kt_was = holds_kt ? h[3] : c->kt;
        int sliding = c->kt * c->kt * s2 > limit * limit; /* then k_t |s| > limit >= 0 */
        double ratio = limit / (sliding ? c->kt * sqrt(s2) : 1.0);
        ratio = sliding ? ratio : 1.0;
        double gt = sliding ? 0.0 : c->gt;
        h[0] *= ratio, h[1] *= ratio, h[2] *= ratio;
        ft[0] = -c->kt * h[0] - gt * vt[0];
        ft[1] = -c->kt * h[1] - gt * vt[1];
        ft[2] = -c->kt * h[2] - gt * vt[2];
        /* the account: what the spring held, 1/2 k_t,was |s_was|^2 (its part along n dropped
         * by the projection with it), plus the work its force did over the step, as the kicks
         * give it (the mean of its ends, (k_t,was s_was + k_t s) / 2 . v_t dt), less what it
         * holds now, 1/2 k_t |s|^2: 0 while it sticks with a constant k_t, the slip's k_t |s|
         * |v_t| dt while it slides (the cap's 1/2 k_t (|s_try|^2 - |s|^2) would count k_t
         * |v_t dt|^2 / 2 more each step). A stiffness that rose while the stretch held made
         * 1/2 (k_t - k_t,was) |s|^2 that no force put in: booked here too, as a negative loss
         * (and given back when it softens), so that the balance closes; the dashpot's work
         * is booked apart */
        const double ds = vt[0] * dt, ds1 = vt[1] * dt, ds2 = vt[2] * dt;
        *slid = 0.5 * (kt_was * (sn * sn + was[0] * ds + was[1] * ds1 + was[2] * ds2 + was2) +
                       c->kt * (h[0] * ds + h[1] * ds1 + h[2] * ds2 - s2 * ratio * ratio));
        if (holds_kt)
            h[3] = c->kt;
        dash[0] = -gt * vt[0], dash[1] = -gt * vt[1], dash[2] = -gt * vt[2];
    }
}

/* Rolling model on its history slice h (epsd2: the spring's torque M in h[0..2], the stiffness
 * k_r it last had in h[3]): the torque tr on the first body, bounded by the normal load (epsd2)
 * or from the spring's force (cdt; with JKR the load). Both use the rolling part of the
 * relative spin, w_t = w - (w . n) n (LIGGGHTS' default, torsionTorque off). */
RBL_KERNEL void rbl_rolling_torque(const rbl_contact_law *law, const rbl_contact_coef *c,
                                   const rbl_contact_geom *g, double load, double elastic,
                                   double dt, double *h, double tr[3], double *lost)
{
    tr[0] = tr[1] = tr[2] = 0.0;
    *lost = 0.0;
    if (law->rolling == RBL_ROLLING_NONE)
        return;
    const double *n = g->n, *w = g->w;
    double mu_r = c->mu_r, r = g->r_eff;
    if (law->rolling == RBL_ROLLING_CDT) {
        /* M = -mu_r F_e R* (w / |w|) with its component along n removed */
        double wmag = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        double f = law->cohesion == RBL_COHESION_JKR ? load : elastic;
        double s = -mu_r * f * r / (wmag > 0.0 ? wmag : 1.0);
        double m[3] = {s * w[0], s * w[1], s * w[2]};
        double mn = m[0] * n[0] + m[1] * n[1] + m[2] * n[2];
        tr[0] = m[0] - mn * n[0], tr[1] = m[1] - mn * n[1], tr[2] = m[2] - mn * n[2];
        *lost = -(tr[0] * w[0] + tr[1] * w[1] + tr[2] * w[2]) * dt; /* its work: all lost */
    } else {
        /* The spring's torque M grows by k_r w_t dt, k_r = k_t R*^2, and is capped at
         * mu_r |F_n| R* (Ai et al. 2011's EPSD2; LIGGGHTS' epsd2). Two steps come first, so
         * that the spring never gives out more work than it took in:
         * - M is a bending moment about a tangent axis, so it is turned with the contact into
         *   the current tangent plane, keeping its size (as LAMMPS' rolling sds turns its
         *   displacement). Left behind, its part along n became a twisting torque that the
         *   increments (which omit w . n) never wind back: a constant torque on the free
         *   relative twist, which spun JKR-bound beads up without bound (issue 69).
         * - Where k_r has fallen since the last step (the contact radius shrank), M falls with
         *   it, M k_r / k_r,old: a spring that keeps its torque as it softens stores more,
         *   |M|^2 / 2 k_r, than was put in. Where k_r has risen, M stays (and its energy
         *   falls). Mindlin's unloading rule, as LAMMPS' mindlin_rescale applies it to the
         *   tangential history (keeping the last contact radius for it).
         * With a constant k_t (linear law) neither step changes a bit for a sphere on a
         * plane. */
        double mn = h[0] * n[0] + h[1] * n[1] + h[2] * n[2];
        double m2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
        double p[3] = {h[0] - mn * n[0], h[1] - mn * n[1], h[2] - mn * n[2]};
        double p2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        double kr = c->kt * r * r, k_old = h[3];
        int turned = p2 > 0.0 && mn != 0.0;
        int softer = k_old > kr;
        double keep = sqrt(m2 / (turned ? p2 : 1.0));
        double ratio = (turned ? keep : 1.0) * (softer ? kr / (softer ? k_old : 1.0) : 1.0);
        ratio = p2 > 0.0 ? ratio : 0.0;
        double krdt = kr * dt, wn = w[0] * n[0] + w[1] * n[1] + w[2] * n[2];
        /* the account: the spring held |M|^2 / 2 k_old; turned and rescaled, |M ratio|^2 /
         * 2 k_r (Mindlin's rule and a stiffer spring both store less) */
        double inv_old = 1.0 / (k_old > 0.0 ? k_old : 1.0), inv_kr = 1.0 / (kr > 0.0 ? kr : 1.0);
        double kept2 = (p2 > 0.0 ? p2 : 0.0) * ratio * ratio;
        double before = 0.5 * (k_old > 0.0 ? m2 * inv_old : 0.0);
        const double kept[3] = {p[0] * ratio, p[1] * ratio, p[2] * ratio};
        const double turn[3] = {(w[0] - wn * n[0]) * dt, (w[1] - wn * n[1]) * dt,
                                (w[2] - wn * n[2]) * dt};
        h[0] = kept[0] + krdt * (w[0] - wn * n[0]);
        h[1] = kept[1] + krdt * (w[1] - wn * n[1]);
        h[2] = kept[2] + krdt * (w[2] - wn * n[2]);
        h[3] = kr;
        m2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
        double limit = mu_r * load * r;
        int full = m2 > limit * limit;
        double cap = limit / (full ? sqrt(m2) : 1.0);
        cap = full ? cap : 1.0;
        h[0] *= cap, h[1] *= cap, h[2] *= cap;
        tr[0] = -h[0], tr[1] = -h[1], tr[2] = -h[2];
        /* what the turn and the stiffness's change took, then as the tangential spring's
         * (rbl_tangential_force): the torque's mean work over the turn less what it stores
         * more (0 while within the cap) */
        *lost = (before - 0.5 * kept2 * inv_kr) +
                0.5 * ((kept[0] + h[0]) * turn[0] + (kept[1] + h[1]) * turn[1] +
                       (kept[2] + h[2]) * turn[2]) -
                0.5 * (m2 * cap * cap - kept2) * inv_kr;
    }
}

/* Twisting model on its history slice h (marshall: h[0] the twist the spring holds, rad;
 * h[1] its stiffness at the last step; h[2] its dashpot's torque along n at the last step):
 * adds the torque along n on the first body to tr, and what the step took out of it to *slid
 * (the slider's, as the tangential spring's is booked) and *damped (the dashpot's, the mean
 * of its two ends' torque times the twist). Marshall (2009), as LAMMPS' "twisting marshall":
 * k = k_t a^2 / 2, damping gamma_t a^2 / 2, the spring capped at 2/3 a mu times the normal
 * load (the slider: the twist shrinks to the cap and the dashpot is off, as the tangential
 * spring's), a the contact radius. Branch-free, as the other models. */
RBL_KERNEL void rbl_twisting_torque(const rbl_contact_law *law, const rbl_contact_coef *c,
                                    const rbl_contact_geom *g, double a, double load, double dt,
                                    double *h, double tr[3], double *slid, double *damped)
{
    if (law->twisting == RBL_TWISTING_NONE)
        return;
    const double *n = g->n, *w = g->w;
    const double wn = w[0] * n[0] + w[1] * n[1] + w[2] * n[2], turn = wn * dt;
    const double k = 0.5 * c->kt * a * a, gt = 0.5 * c->gt * a * a;
    const double limit = (2.0 / 3.0) * a * c->mu * load;
    const double th_was = h[0], k_was = h[1];
    double th = th_was + turn;
    const int sliding = k * k * th * th > limit * limit; /* then k |th| > limit >= 0 */
    const double capped = limit / (sliding ? k : 1.0);
    th = sliding ? (th < 0.0 ? -capped : capped) : th;
    const double m_damp = -(sliding ? 0.0 : gt) * wn;
    const double m = -k * th + m_damp;
    tr[0] += m * n[0], tr[1] += m * n[1], tr[2] += m * n[2];
    /* what the spring held, plus the mean of its torque's ends times the twist, less what it
     * holds now */
    *slid += 0.5 * (k_was * (th_was * th_was + th_was * turn) + k * (th * turn - th * th));
    *damped += -0.5 * (h[2] + m_damp) * turn;
    h[0] = th, h[1] = k, h[2] = m_damp;
}

/* The seed's tangential force rides in the dashpots' slot (rbl_tangential_force): of the
 * slot's work over the step, -(dash + d_now) . v dt / 2, the part of the seed's force (its
 * last force: the slot's part across the normal n, the normal dashpot's being along the
 * contact's last normal, which turns by O(|w| dt) a step; its force now: ft), so that
 * friction and damping are told apart to that order and their sum stays exact. */
RBL_KERNEL double rbl_seed_share(const double dash[3], const double n[3],
                                 const double ft_now[3], const double v[3], double dt)
{
    const double dn = dash[0] * n[0] + dash[1] * n[1] + dash[2] * n[2];
    double w = 0.0;
    for (int a = 0; a < 3; a++)
        w += (dash[a] - dn * n[a] + ft_now[a]) * v[a];
    return -0.5 * w * dt;
}

/* The law's sub-models in order: normal (JKR's in place of Hertz's), cohesion (sjkr),
 * tangential (history h[0..2], and h[3] where it holds k_t), rolling (at
 * h[rbl_hist_rolling]), twisting (at h[rbl_hist_further]); the dashpots' force kept at
 * h[rbl_hist_dash] for the account. */
RBL_KERNEL void rbl_contact_force(const rbl_contact_law *law, const rbl_pair_coef *pc,
                                  const rbl_contact_geom *g, double dt, double *h,
                                  rbl_contact_out *o)
{
    rbl_contact_coef c;
    double a_jkr = law->cohesion == RBL_COHESION_JKR
                       ? rbl_jkr_radius(g->overlap, g->r_eff,
                                        rbl_jkr_c(pc->cohesion, pc->y_star))
                       : 0.0;
    rbl_contact_coefficients(law, pc, g, a_jkr, &c);
    double elastic;
    double fn =
        rbl_normal_force(law, pc, &c, g, a_jkr, &elastic) + rbl_cohesion_force(law, pc, g);
    double load = rbl_contact_load(law, pc, g, fn, elastic);
    double d_now[3];
    rbl_tangential_force(law, &c, g, load, dt, h, o->ft, d_now, &o->loss[RBL_LOSS_FRICTION]);
    rbl_rolling_torque(law, &c, g, load, elastic, dt, h + rbl_hist_rolling(law), o->tr,
                       &o->loss[RBL_LOSS_ROLLING]);
    const double *n = g->n;
    const double vn = g->v[0] * n[0] + g->v[1] * n[1] + g->v[2] * n[2];
    /* the dashpots' force on the first body now: the tangential one's (rbl_tangential_force)
     * and the normal one's. Their work over the step just made is the mean of their force at
     * its two ends times the motion, as the kicks give it to the bodies. */
    double *dash = h + rbl_hist_dash(law);
    const double gnv = c.gn * vn;
    for (int a = 0; a < 3; a++)
        d_now[a] -= gnv * n[a];
    o->loss[RBL_LOSS_DAMPING] = -0.5 * ((dash[0] + d_now[0]) * g->v[0] +
                                        (dash[1] + d_now[1]) * g->v[1] +
                                        (dash[2] + d_now[2]) * g->v[2]) * dt;
    if (law->tangent == RBL_TANGENT_SEED) { /* its force's share, as friction */
        const double moved = rbl_seed_share(dash, n, o->ft, g->v, dt);
        o->loss[RBL_LOSS_FRICTION] += moved, o->loss[RBL_LOSS_DAMPING] -= moved;
    }
    dash[0] = d_now[0], dash[1] = d_now[1], dash[2] = d_now[2];
    rbl_twisting_torque(law, &c, g, rbl_contact_radius(law, g, a_jkr), load, dt,
                        h + rbl_hist_further(law), o->tr, &o->loss[RBL_LOSS_FRICTION],
                        &o->loss[RBL_LOSS_DAMPING]);
    o->f[0] = fn * n[0] + o->ft[0];
    o->f[1] = fn * n[1] + o->ft[1];
    o->f[2] = fn * n[2] + o->ft[2];
}

/* What a contact's springs and dashpots leave as it parts, by mechanism into
 * lost[RBL_LOSS_DAMPING .. RBL_LOSS_ROLLING] (the energy account, account.c; JKR's is
 * account.c's): the tangential spring's energy at the stiffness of its last evaluation (a
 * linear law's k_t, or the one its history kept) and its last force's work over the half step
 * the kick gives it (unbooked, a contact parting with its spring loaded left it in the
 * balance, of first order in dt), and the twist spring's (friction), the epsd2
 * spring's and its last torque's work over the half step the kick gives it (rolling), and the
 * dashpots' last force and torque over that half step, with the contact point's velocity and
 * the relative spin of geo (damping). Each model's term here, beside its kernel. */
static inline void rbl_contact_held_at_end(const rbl_contact_law *law, const double *h,
                                           const rbl_contact_geom *geo, double dt,
                                           double lost[3])
{
    const double *v = geo->v, *n = geo->n, *w = geo->w;
    const double kt = rbl_hist_holds_kt(law) ? h[3] : law->kt;
    if (law->tangent == RBL_TANGENT_SPRING) /* its spring, and its last force's half step */
        lost[RBL_LOSS_FRICTION] +=
            0.5 * kt * (h[0] * h[0] + h[1] * h[1] + h[2] * h[2] +
                        (h[0] * v[0] + h[1] * v[1] + h[2] * v[2]) * dt);
    const double *dash = h + rbl_hist_dash(law);
    lost[RBL_LOSS_DAMPING] += -(0.5 * (dash[0] * v[0] + dash[1] * v[1] + dash[2] * v[2]) * dt);
    if (law->tangent == RBL_TANGENT_SEED) { /* the seed force's last half step, as friction */
        const double none[3] = {0.0, 0.0, 0.0};
        const double moved = rbl_seed_share(dash, n, none, v, dt);
        lost[RBL_LOSS_FRICTION] += moved, lost[RBL_LOSS_DAMPING] -= moved;
    }
    /* the epsd2 spring's, and the work of its last torque (-M) over the half step the kick
     * gives it, on the rolling part of the relative spin (as its kernel books a step's: the
     * mean of the torque at the step's two ends, the second 0): unbooked, a contact parting
     * from a turning wall with its spring loaded moved the balance by it (issue 70) */
    const double *m = h + rbl_hist_rolling(law);
    if (law->rolling == RBL_ROLLING_EPSD2 && m[3] > 0.0) {
        const double wn = w[0] * n[0] + w[1] * n[1] + w[2] * n[2];
        const double turn = m[0] * (w[0] - wn * n[0]) + m[1] * (w[1] - wn * n[1]) +
                            m[2] * (w[2] - wn * n[2]);
        lost[RBL_LOSS_ROLLING] +=
            0.5 * (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]) / m[3] + 0.5 * turn * dt;
    }
    const double *tw = h + rbl_hist_further(law);
    if (law->twisting == RBL_TWISTING_MARSHALL) { /* its spring, and its last half step */
        const double wn = w[0] * n[0] + w[1] * n[1] + w[2] * n[2];
        lost[RBL_LOSS_FRICTION] += 0.5 * tw[1] * tw[0] * (tw[0] + wn * dt);
        lost[RBL_LOSS_DAMPING] += -0.5 * tw[2] * wn * dt;
    }
}

/* sjkr: the work the attraction k_c pi a^2 does from first touch to separation s of the
 * centres (pair) or of the centre from the plane (wall, rj < 0), as the integral of
 * a^2(s) = ri^2 - l1(s)^2 in closed form. */
static inline double rbl_sjkr_work(double kc, double ri, double rj, double s)
{
    if (rj < 0.0) /* wall: a^2 = ri^2 - s^2 */
        return kc * M_PI * ((ri * ri * ri - ri * ri * s) - (ri * ri * ri - s * s * s) / 3.0);
    double c = ri * ri - rj * rj, s0 = ri + rj;
#define RBL_SJKR_F(x) (ri * ri * (x) + c * c / (4.0 * (x)) - c * (x) / 2.0 - (x) * (x) * (x) / 12.0)
    double w = kc * M_PI * (RBL_SJKR_F(s0) - RBL_SJKR_F(s));
#undef RBL_SJKR_F
    return w;
}

/* Energy stored in one contact: the normal spring (1/2 k xi^2 linear, 2/5 k_H xi^(5/2)
 * Hertz, JKR's from where the contact formed), the tangential spring 1/2 k_t |s|^2, the
 * rolling spring |M|^2 / (2 k_r), and sjkr's potential (negative: the work it would take to
 * pull the bodies apart). The separation s and radii ri, rj (rj < 0 for a wall) are for sjkr.
 * *cohesive (may be NULL): the cohesion's part of it (sjkr's potential, JKR's surface part). */
static inline double rbl_contact_energy(const rbl_contact_law *law, const rbl_pair_coef *pc,
                                        const rbl_contact_geom *g, const double *hist,
                                        double ri, double rj, double s, double *cohesive)
{
    rbl_contact_coef c;
    double e = 0.0, a_jkr = 0.0, coh = 0.0;
    if (law->cohesion == RBL_COHESION_JKR) {
        double cj = rbl_jkr_c(pc->cohesion, pc->y_star);
        a_jkr = rbl_jkr_radius(g->overlap, g->r_eff, cj);
        e = rbl_jkr_energy(a_jkr, g->r_eff, cj, pc->y_star);
        coh = rbl_jkr_surface_energy(a_jkr, g->r_eff, cj, pc->y_star);
    }
    rbl_contact_coefficients(law, pc, g, a_jkr, &c);
    if (law->cohesion != RBL_COHESION_JKR) {
        int hertz = law->from_materials || law->normal == RBL_NORMAL_HERTZ;
        e = (hertz ? 0.4 : 0.5) * c.kn * g->overlap * g->overlap;
    }
    if (law->tangent == RBL_TANGENT_SPRING)
        e += 0.5 * c.kt * (hist[0] * hist[0] + hist[1] * hist[1] + hist[2] * hist[2]);
    const double *m = hist + rbl_hist_rolling(law);
    if (law->rolling == RBL_ROLLING_EPSD2 && c.kt > 0.0)
        e += 0.5 * (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]) / (c.kt * g->r_eff * g->r_eff);
    if (law->twisting == RBL_TWISTING_MARSHALL) {
        const double a = rbl_contact_radius(law, g, a_jkr), th = hist[rbl_hist_further(law)];
        e += 0.5 * (0.5 * c.kt * a * a) * th * th;
    }
    if (law->cohesion == RBL_COHESION_SJKR) {
        coh = -rbl_sjkr_work(pc->cohesion, ri, rj, s);
        e += coh;
    }
    if (cohesive)
        *cohesive = coh;
    return e;
}

/* The normal force of the springs alone (the normal spring's, JKR's, sjkr's attraction), the
 * part of a contact's force whose work the account books through the energy it holds, not
 * as a loss (rbl_contact_energy; the dashpots and the tangential spring book theirs). */
static inline double rbl_contact_spring_normal(const rbl_contact_law *law,
                                               const rbl_pair_coef *pc,
                                               const rbl_contact_geom *g)
{
    rbl_contact_coef c;
    double a_jkr = law->cohesion == RBL_COHESION_JKR
                       ? rbl_jkr_radius(g->overlap, g->r_eff, rbl_jkr_c(pc->cohesion, pc->y_star))
                       : 0.0;
    rbl_contact_coefficients(law, pc, g, a_jkr, &c);
    double elastic = law->cohesion == RBL_COHESION_JKR
                         ? rbl_jkr_force(a_jkr, g->r_eff, rbl_jkr_c(pc->cohesion, pc->y_star),
                                         pc->y_star)
                         : c.kn * g->overlap;
    return elastic + rbl_cohesion_force(law, pc, g);
}

/* The normal spring's stiffness k of F = k xi^p (p 1 linear, 3/2 Hertz): its k_n xi over
 * xi^p at an overlap of 1 (JKR: Hertz's, at the contact radius sqrt(R)). */
static inline double rbl_normal_spring_scale(const rbl_contact_law *law, const rbl_pair_coef *pc,
                                             const rbl_contact_geom *g)
{
    rbl_contact_geom unit = *g;
    rbl_contact_coef c;
    unit.overlap = 1.0;
    rbl_contact_coefficients(law, pc, &unit, sqrt(g->r_eff), &c);
    return c.kn;
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
    const double *omega; /* the spins that go with the records, 3 per grain */
    const uint32_t *i, *j;
    const uint8_t *image;
    double box[3];
    rbl_shear_image le; /* a sheared cell's images (shear.c) */
} rbl_pair_arrays;

/* Valid after rbl_pack_grains. */
static inline rbl_pair_arrays rbl_pair_arrays_of(const rbl_sim *sim)
{
    rbl_pair_arrays a = {sim->packed, sim->packed_omega, sim->pairs.i, sim->pairs.j, sim->pairs.image,
                         {sim->box[0], sim->box[1], sim->box[2]}, sim->shear.image};
    return a;
}

/* Separation d = x_i - x_j of listed pair q (nearest image), whose first grain's record is
 * gi; returns |d|^2. */
static inline double rbl_pair_separation(const rbl_pair_arrays *a, const rbl_packed_grain *gi,
                                         const rbl_packed_grain *gj, size_t q, double d[3])
{
    d[0] = gi->pos[0] - gj->pos[0], d[1] = gi->pos[1] - gj->pos[1];
    d[2] = gi->pos[2] - gj->pos[2];
    uint8_t c = a->image[q];
    if (c != RBL_IMAGE_NONE)
        rbl_image_sub(a->box, &a->le, c, d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* Collision statistics (collisions.c): a contact's first evaluation begins its event, from
 * the geometry of that evaluation (the normal and tangential speeds of the contact point);
 * each step's losses are added to it. */
static inline void rbl_collision_begin(double *hc, const rbl_contact_geom *geo)
{
    const double *v = geo->v, *n = geo->n;
    const double vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
    const double t[3] = {v[0] - vn * n[0], v[1] - vn * n[1], v[2] - vn * n[2]};
    hc[0] = 1.0;
    hc[1] = 0.5 * geo->m_eff * vn * vn;
    hc[2] = fabs(vn);
    hc[3] = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    hc[4] = 0.0;
}

/* Geometry of two touching spheres (radii ri, rj, masses mi, mj) from their separation d
 * (|d|^2 = r2), relative velocity dv = v_i - v_j and spins wi, wj. Contact point at -l1 n
 * from the first centre and +l2 n from the second (seed: l1 = (ri^2 - rj^2 + d^2) / 2d).
 * half: how far back (s) the velocities were taken, dt/2 under the mid-step integrator
 * (rbl_velocity_lag), 0 where they are the step's. The contact point's relative velocity is
 * read on the line of centres where they were, d - dv half (the midpoint of the step's chord;
 * its lever arms l1 and l2 stretched to its length), as the bonds read theirs (docs/dem.md
 * "Turning bodies"): v = dv - (l1 wi + l2 wj) x (d - dv half) / |d|. Read on the step's line
 * d, a body turning rigidly at W gave each contact a spurious relative velocity
 * (dt/2) W x (W x d), which the tangential spring summed step after step. The forces, the
 * split into normal and tangential parts and the lever arms the torques act with stay the
 * step's. Branch-free, like rbl_contact_force. */
RBL_KERNEL void rbl_pair_frame(const double d[3], double r2, double ri, double rj,
                               const double dv[3], const double wi[3], const double wj[3],
                               double mi, double mj, double half, rbl_contact_geom *geo,
                               double *l1_out, double *l2_out)
{
    /* 1/d as d / d^2: the square root and the division run side by side, not one after the
     * other (a contact's cost is the latency of its chain of operations) */
    double dist = sqrt(r2);
    int apart = dist > 0.0;
    double inv = dist * (1.0 / (apart ? r2 : 1.0));
    geo->n[0] = apart ? d[0] * inv : 0.0;
    geo->n[1] = apart ? d[1] * inv : 0.0;
    geo->n[2] = apart ? d[2] * inv : 1.0;
    geo->overlap = ri + rj - dist;
    double l1 = apart ? 0.5 * (ri * ri - rj * rj + r2) * inv : ri;
    double l2 = dist - l1;
    /* v = dv + wi x (-l1 h) - wj x (l2 h) = dv - (l1 wi + l2 wj) x h, h = (d - dv half) / |d|
     * (n itself where half is 0: the same bits as the step's line) */
    const int back = apart && half != 0.0;
    const double h[3] = {back ? (d[0] - half * dv[0]) * inv : geo->n[0],
                         back ? (d[1] - half * dv[1]) * inv : geo->n[1],
                         back ? (d[2] - half * dv[2]) * inv : geo->n[2]};
    double w[3] = {l1 * wi[0] + l2 * wj[0], l1 * wi[1] + l2 * wj[1], l1 * wi[2] + l2 * wj[2]};
    double wn[3];
    rbl_cross(w, h, wn);
    geo->v[0] = dv[0] - wn[0], geo->v[1] = dv[1] - wn[1], geo->v[2] = dv[2] - wn[2];
    geo->w[0] = wi[0] - wj[0], geo->w[1] = wi[1] - wj[1], geo->w[2] = wi[2] - wj[2];
    geo->a2 = ri * ri - l1 * l1;
    geo->r_eff = ri * rj / (ri + rj);
    geo->m_eff = mi * mj / (mi + mj);
    *l1_out = l1, *l2_out = l2;
}

/* How far beyond touching listed pair q still counts as in contact: JKR's pull-off distance
 * while it touches, else 0. */
static inline double rbl_pair_reach(const rbl_sim *sim, size_t q)
{
    const rbl_contact_law *law = &sim->cfg.law;
    if (law->cohesion != RBL_COHESION_JKR || !sim->pairs.touch[q])
        return 0.0;
    uint32_t i = sim->pairs.i[q], j = sim->pairs.j[q];
    double ri = sim->g.radius[i], rj = sim->g.radius[j];
    const rbl_pair_coef *pc = rbl_pair_coef_of(sim, sim->g.material[i], sim->g.material[j]);
    return rbl_jkr_reach(pc->cohesion, pc->y_star, ri * rj / (ri + rj));
}

/* How far back (s) the velocities a force evaluation reads were taken: the half step's under
 * the mid-step integrator (dt/2), the step's (predicted) under the synchronized one (0), and
 * the step's at the first evaluation, which no step came before (the run's velocities as they
 * were set or restored). The contact frames read the relative motion there (rbl_pair_frame,
 * rbl_wall_frame). */
static inline double rbl_velocity_lag(const rbl_sim *sim)
{
    const int mid = sim->cfg.integrator != RBL_INTEGRATOR_SYNCHRONIZED && sim->prepared;
    return mid ? 0.5 * sim->cfg.dt : 0.0;
}

/* Geometry of listed pair q, whose first grain's record is gi, its velocities taken half s
 * back (rbl_pair_frame; 0: the step's); 0 if the grains are apart by reach or more
 * (rbl_pair_reach). */
static inline int rbl_pair_geometry(const rbl_pair_arrays *a, const rbl_packed_grain *gi,
                                    size_t q, double reach, double half, rbl_contact_geom *geo,
                                    double *l1_out, double *l2_out)
{
    const rbl_packed_grain *gj = a->pk + a->j[q];
    double d[3];
    double r2 = rbl_pair_separation(a, gi, gj, q, d);
    double rs = gi->radius + gj->radius + reach;
    if (r2 >= rs * rs)
        return 0;
    double dv[3] = {gi->vel[0] - gj->vel[0], gi->vel[1] - gj->vel[1], gi->vel[2] - gj->vel[2]};
    rbl_image_dv(&a->le, a->image[q], dv);
    const double *wi = a->omega + 3 * (size_t)(gi - a->pk), *wj = a->omega + 3 * (size_t)a->j[q];
    rbl_pair_frame(d, r2, gi->radius, gj->radius, dv, wi, wj, gi->mass, gj->mass, half,
                   geo, l1_out, l2_out);
    return 1;
}

/* The material of wall code `code` (a plane's index, or a mesh slot's). */
static inline int rbl_wall_material(const rbl_sim *sim, uint32_t code)
{
    return rbl_wall_is_mesh(code) ? sim->meshes[rbl_wall_mesh(code)].material
                                  : sim->walls[code].material;
}

/* The pose of wall code `code` (a plane's, or a mesh slot's mesh's). */
static inline const rbl_wall_pose *rbl_wall_pose_of_code(const rbl_sim *sim, uint32_t code)
{
    return rbl_wall_is_mesh(code) ? &sim->meshes[rbl_wall_mesh(code)].pose
                                  : &sim->walls[code].pose;
}

/* Geometry of grain i against a wall whose surface is at distance d from the centre along -n
 * (n: unit, from the wall to the grain): xi = r - d, lever arm l1 = d (seed: d*). A moving
 * wall's velocity at the contact point and its spin are taken from the grain's. half: how far
 * back the velocities were taken (rbl_velocity_lag; 0: the step's): a turning wall's point
 * velocity is read under the grain where it was then, its position against the wall's centre
 * less (v - v_wall) half, as rbl_pair_frame reads a pair's (read at the step's position, a
 * grain turning with a wall at W saw it move by (dt/2) W x (W x y) against it, y from the
 * wall's centre: docs/dem.md "Turning bodies"). */
static inline void rbl_wall_frame(const rbl_sim *sim, uint32_t i, const double n[3], double d,
                                  const double *vel, const double *om, const rbl_wall_pose *pose,
                                  double half, rbl_contact_geom *geo, double *l1_out)
{
    const rbl_grains *g = &sim->g;
    double r = g->radius[i];
    geo->n[0] = n[0], geo->n[1] = n[1], geo->n[2] = n[2];
    geo->overlap = r - d;
    double l1 = d > 0.0 ? d : 0.0;
    double a1[3] = {-l1 * geo->n[0], -l1 * geo->n[1], -l1 * geo->n[2]}, wi[3];
    rbl_cross(om + 3 * (size_t)i, a1, wi);
    const double *v = vel + 3 * (size_t)i, *spin = om + 3 * (size_t)i;
    geo->v[0] = v[0] + wi[0], geo->v[1] = v[1] + wi[1], geo->v[2] = v[2] + wi[2];
    geo->w[0] = spin[0], geo->w[1] = spin[1], geo->w[2] = spin[2];
    if (pose->moving) { /* the wall's point under the grain: vel + spin × (x - c - shift) */
        const double *x = g->pos + 3 * (size_t)i;
        double y[3], vw[3];
        for (int a = 0; a < 3; a++)
            y[a] = x[a] - d * geo->n[a] - pose->m.center[a] - pose->shift[a] -
                   half * (v[a] - pose->vel[a]);
        rbl_cross(pose->spin, y, vw);
        for (int a = 0; a < 3; a++) {
            geo->v[a] -= pose->vel[a] + vw[a];
            geo->w[a] -= pose->spin[a];
        }
    }
    geo->a2 = r * r - d * d;
    geo->r_eff = r;
    geo->m_eff = rbl_grain_contact_mass(sim, i);
    *l1_out = l1;
}

/* How far beyond touching a wall contact holds: JKR's pull-off distance while it touches. */
static inline double rbl_wall_reach(const rbl_sim *sim, size_t q)
{
    const rbl_wall_list *w = &sim->wpairs;
    const rbl_contact_law *law = &sim->cfg.law;
    if (law->cohesion != RBL_COHESION_JKR || !w->touch[q])
        return 0.0;
    uint32_t i = w->grain[q];
    const rbl_pair_coef *pc =
        rbl_pair_coef_of(sim, sim->g.material[i], rbl_wall_material(sim, w->wall[q]));
    return rbl_jkr_reach(pc->cohesion, pc->y_star, sim->g.radius[i]);
}

/* Geometry of grain-wall contact q (seed: xi = r - d*, lever arm l1 = d*) with the grains at
 * pos (a plane's distance; the grains' own positions: rbl_wall_geometry);
 * 0 if apart (a JKR contact: beyond its pull-off distance). A mesh slot's is the contact's as
 * the last force evaluation found it (its normal and distance kept in the history). */
static inline int rbl_wall_geometry_at(const rbl_sim *sim, size_t q, const double *pos,
                                       const double *vel, const double *om, double half,
                                       rbl_contact_geom *geo, double *l1_out)
{
    const rbl_wall_list *w = &sim->wpairs;
    const rbl_grains *g = &sim->g;
    uint32_t i = w->grain[q], code = w->wall[q];
    double n[3], d;
    if (rbl_wall_is_mesh(code)) {
        if (!w->touch[q])
            return 0;
        const size_t width = rbl_hist_width(&sim->cfg.law);
        const double *h = w->hist + rbl_wall_hist_width(&sim->cfg.law) * q + width;
        n[0] = h[0], n[1] = h[1], n[2] = h[2], d = h[3];
    } else {
        const rbl_plane *pl = &sim->walls[code];
        const double *x = pos + 3 * (size_t)i;
        d = pl->n[0] * x[0] + pl->n[1] * x[1] + pl->n[2] * x[2] + pl->offset;
        if (d >= g->radius[i] + rbl_wall_reach(sim, q))
            return 0;
        n[0] = pl->n[0], n[1] = pl->n[1], n[2] = pl->n[2];
    }
    rbl_wall_frame(sim, i, n, d, vel, om, rbl_wall_pose_of_code(sim, code), half, geo, l1_out);
    return 1;
}

/* half: as rbl_wall_frame's (0: the velocities are the step's). */
static inline int rbl_wall_geometry(const rbl_sim *sim, size_t q, const double *vel,
                                    const double *om, double half, rbl_contact_geom *geo,
                                    double *l1_out)
{
    return rbl_wall_geometry_at(sim, q, sim->g.pos, vel, om, half, geo, l1_out);
}

#endif
