/* fdo_support.c — the support point of a functionally defined object (SPEC FO1-FO2): its point
 * farthest along a direction, from which its contacts with planes, tubes and other objects are
 * built (object_contact.c). For an ellipsoid S^2 u / |S u| in closed form. For a perturbed
 * object, F' = F + sum a_i max(Q_i, 0)^3, the farthest of the local maxima of u . x on F' = 0,
 * each found by an ascent on the surface (Newton's method on the Lagrange conditions
 * u + mu grad F' = 0, F' = 0 where the surface curves away from u, else a climb; every step
 * ends on the surface and is halved until u . x grows). The ascents start from the base
 * ellipsoid's support point and, for each perturbation that could reach farther, from a bump's
 * centre and its region's farthest point along u, or around a dent's rim. Where the object is
 * not convex (a dent, the neck of a bump) this is the support point of its convex hull. */
#include "fdo_internal.h"
#include "../base/rotation.h"

#include <float.h>
#include <string.h>

#define NEWTON_STEPS 200
/* Newton's steps onto the surface: where a cubed quadric dominates F' (a dent of amplitude
 * -2^31 whose Q reaches 7 inside, its root at Q ~ 8e-4) each step takes Q only by 2/3 towards
 * the root, 23 steps before the quadratic phase; 30 failed four projections in five there */
#define PROJECTION_STEPS 80
/* Newton's steps without halving the smallest |F'|, after which a projection has stalled at
 * the rounding of a field far steeper than its size says (a fuzzed perturbation's gradient
 * of 1e12): converging at 2/3 a step (the triple root above) halves it every 2 steps */
#define STALLED_PROJECTION 8
#define TANGENT_TOLERANCE 1e-10 /* |tangential part of u|: the direction's error, radians */
#define HALVINGS 40             /* of a step that does not gain */
#define RIM_STARTS 4            /* ascents around a dent's rim */
#define RIM_SAMPLES 16          /* points of a hard dent's rim searched for its maxima */
#define RIM_TOLERANCE 1e-9      /* rad, of the maxima along a hard dent's rim */
#define HARD_DENT 1e6           /* |a| top^3 of a dent whose rim is a crease (hard_rim_starts) */
#define STALLS 4                /* steps in a row that gain no more than rounding */

/* F', its gradient and (unless H is NULL) its Hessian at x of the shape's frame; `largest` (if
 * not NULL) the perturbations' largest term a Q^3 and its gradient (0 where none is > 0). */
static double field_derivatives(const rbl_fdo_shape *s, const double x[3], double g[3],
                                rbl_sym3 H, double largest[4])
{
    if (largest)
        memset(largest, 0, 4 * sizeof *largest);
    double f = 1;
    for (int k = 0; k < 3; k++) {
        double w = 1 / (s->semi[k] * s->semi[k]);
        f -= w * x[k] * x[k];
        g[k] = -2 * w * x[k];
        if (H)
            H[k] = -2 * w, H[3 + k] = 0;
    }
    for (size_t i = 0; i < s->n_perturbations; i++) {
        const rbl_fdo_perturbation *r = s->perturbation + i;
        double q = rbl_fdo_quadric_value(r, x);
        if (!(q > 0))
            continue;
        rbl_sym3 P;
        double p[3], c, gq[3];
        rbl_fdo_quadric_parts(r, P, p, &c);
        rbl_sym3_apply(P, x, gq);
        for (int k = 0; k < 3; k++)
            gq[k] = 2 * (gq[k] + p[k]);
        double a = r->amplitude, term = a * q * q * q;
        f += term;
        for (int k = 0; k < 3; k++)
            g[k] += 3 * a * q * q * gq[k];
        if (largest && fabs(term) > fabs(largest[0]))
            largest[0] = term, largest[1] = 3 * a * q * q * gq[0],
            largest[2] = 3 * a * q * q * gq[1], largest[3] = 3 * a * q * q * gq[2];
        if (H) {
            static const int row[6] = {0, 1, 2, 0, 0, 1}, col[6] = {0, 1, 2, 1, 2, 2};
            for (int e = 0; e < 6; e++)
                H[e] += 6 * a * q * gq[row[e]] * gq[col[e]] + 6 * a * q * q * P[e];
        }
    }
    return f;
}

/* The size of the terms F' at x sums, by which its rounding error is at most a few machine
 * epsilons times this: 1 + sum (x_k / a_k)^2 and, for each Q_i > 0, a_i (Q_i^3 + 3 Q_i^2 |Q_i|),
 * |Q_i| the sum of its terms' sizes. Where a perturbation is strong (F' of order 100 near the
 * surface) F' cannot be resolved to 1e-14, the tolerance that suits F of order 1. */
static double field_size(const rbl_fdo_shape *s, const double x[3])
{
    double m = 1, a[3] = {fabs(x[0]), fabs(x[1]), fabs(x[2])};
    for (int k = 0; k < 3; k++)
        m += a[k] * a[k] / (s->semi[k] * s->semi[k]);
    for (size_t i = 0; i < s->n_perturbations; i++) {
        const rbl_fdo_perturbation *r = s->perturbation + i;
        double q = rbl_fdo_quadric_value(r, x);
        if (!(q > 0))
            continue;
        const double *c = r->q;
        double terms = fabs(c[0]) * a[0] * a[0] + fabs(c[1]) * a[1] * a[1] +
                       fabs(c[2]) * a[2] * a[2] +
                       2 * (fabs(c[3]) * a[0] * a[1] + fabs(c[4]) * a[0] * a[2] +
                            fabs(c[5]) * a[1] * a[2] + fabs(c[6]) * a[0] + fabs(c[7]) * a[1] +
                            fabs(c[8]) * a[2]) +
                       fabs(c[9]);
        m += fabs(r->amplitude) * (q * q * q + 3 * q * q * terms);
    }
    return m;
}

/* Onto the surface F' = 0 by Newton's method along the gradient, to |F'| <= 1e-14 or to its
 * rounding where F' is larger than that (field_size); 0 if it does not get there. Where the
 * largest term a Q^3 outweighs the rest of F' 32768 times and the rest's gradient 32 times,
 * F' is as a Q^3 with a triple root near Q = 0 (the root, Q = cbrt(-rest / a), lies below a
 * 32nd of Q): each plain step takes Q by a third of the way there (a dent of amplitude -2^31:
 * from Q = 7 to 1e-3 in 22 steps), so the step is tripled. It gives up early where it
 * stalls (STALLED_PROJECTION). */
static int project(const rbl_fdo_shape *s, double x[3])
{
    /* the |F'| that last halved the one before, and its step: STALLED_PROJECTION steps
     * without halving it, once below 1e-6, and the projection has stalled */
    double least = INFINITY;
    int least_at = 0;
    for (int it = 0; it < PROJECTION_STEPS; it++) {
        double g[3], t[4], f = field_derivatives(s, x, g, NULL, t), gg = rbl_dot3(g, g);
        if (!(gg > 0) || !isfinite(f))
            return 0;
        if (fabs(f) <= 0.5 * least)
            least = fabs(f), least_at = it;
        else if (it - least_at >= STALLED_PROJECTION && least <= 1e-6)
            return 0; /* at the field's rounding floor, above the tolerance */
        double rest[3] = {g[0] - t[1], g[1] - t[2], g[2] - t[3]};
        const double m = fabs(t[0]) > 32768 * fabs(f - t[0]) &&
                                 rbl_dot3(t + 1, t + 1) > 1024 * rbl_dot3(rest, rest)
                             ? 3
                             : 1;
        for (int k = 0; k < 3; k++)
            x[k] -= m * f * g[k] / gg;
        if (fabs(f) <= 1e-14 || fabs(f) <= 16 * DBL_EPSILON * field_size(s, x))
            return 1;
    }
    return 0;
}

/* The tangential step from the surface point x towards a larger u . x: Newton's in the tangent
 * plane where the surface curves away from u (the reduced Hessian mu H negative definite), else
 * along the tangential part r of u, as far as its curvature along r says (a 1-D Newton step)
 * or `reach` where it does not curve away; at a saddle, Newton's across and `reach` along. At the minimum facing away (r = 0, u . n < 0) it
 * leaves along a tangent. Returns |r|; *newton tells which step it is. */
static double ascent_step(const rbl_fdo_shape *s, const double u[3], const double x[3],
                          double reach, double dx[3], int *newton, double *facing)
{
    double g[3];
    rbl_sym3 H;
    field_derivatives(s, x, g, H, NULL);
    double gl = sqrt(rbl_dot3(g, g));
    if (!(gl > 0))
        return NAN;
    double n[3] = {-g[0] / gl, -g[1] / gl, -g[2] / gl}; /* outward */
    double un = rbl_dot3(u, n), r[3];
    for (int k = 0; k < 3; k++)
        r[k] = u[k] - un * n[k];
    double rl = sqrt(rbl_dot3(r, r));
    double t1[3], t2[3], Ht1[3], Ht2[3];
    rbl_fdo_tangents(n, t1, t2);
    rbl_sym3_apply(H, t1, Ht1);
    rbl_sym3_apply(H, t2, Ht2);
    double mu = un / gl; /* u + mu g = 0 at the maximum */
    double k11 = mu * rbl_dot3(t1, Ht1), k12 = mu * rbl_dot3(t1, Ht2);
    double k22 = mu * rbl_dot3(t2, Ht2), det = k11 * k22 - k12 * k12;
    double r1 = rbl_dot3(t1, r), r2 = rbl_dot3(t2, r);
    *facing = un;
    *newton = un > 0 && k11 < 0 && det > 0;
    if (*newton) {
        double d1 = (-r1 * k22 + r2 * k12) / det, d2 = (-r2 * k11 + r1 * k12) / det;
        for (int k = 0; k < 3; k++)
            dx[k] = d1 * t1[k] + d2 * t2[k];
    } else if (un > 0 && det < 0) {
        /* a saddle of u . x (a ridge between bumps, a crease): Newton's step across, where it
         * curves away, and `reach` along, where it curves towards u and any step gains; a
         * step along r alone zigzags across the ridge, gaining 1e-11 a step */
        double mean = 0.5 * (k11 + k22), half = hypot(0.5 * (k11 - k22), k12);
        double angle = 0.5 * atan2(2 * k12, k11 - k22), c = cos(angle), sn = sin(angle);
        double rp = c * r1 + sn * r2, rn = -sn * r1 + c * r2; /* along, across */
        double dn = -rn / (mean - half), dp = rp < 0 ? -reach : reach;
        double d1 = c * dp - sn * dn, d2 = sn * dp + c * dn;
        for (int k = 0; k < 3; k++)
            dx[k] = d1 * t1[k] + d2 * t2[k];
    } else if (rl > TANGENT_TOLERANCE) {
        double a1 = r1 / rl, a2 = r2 / rl; /* the curvature along r, if it curves away */
        double krr = a1 * a1 * k11 + 2 * a1 * a2 * k12 + a2 * a2 * k22;
        double len = un > 0 && krr < 0 ? fmin(rl / -krr, reach) : reach;
        for (int k = 0; k < 3; k++)
            dx[k] = len * r[k] / rl;
    } else {
        for (int k = 0; k < 3; k++)
            dx[k] = reach * t1[k];
    }
    double len = sqrt(rbl_dot3(dx, dx));
    if (len > reach)
        for (int k = 0; k < 3; k++)
            dx[k] *= reach / len;
    return rl;
}

/* From x inside the object (F' > 0) along u to the surface, by doubling steps from `step`
 * and bisection: a start beyond x along u, where projecting along the gradient may not be (at
 * a strong bump's centre the gradient is the base's alone, small beside F' of order 100, and
 * its Newton step lands across the object). Left as it is where F' <= 0. */
static void leave_along(const rbl_fdo_shape *s, const double u[3], double step, double x[3])
{
    double g[3], lo = 0, hi = step;
    if (!(field_derivatives(s, x, g, NULL, NULL) > 0))
        return;
    for (int it = 0;; it++, lo = hi, hi *= 2) {
        double y[3] = {x[0] + hi * u[0], x[1] + hi * u[1], x[2] + hi * u[2]};
        if (!(field_derivatives(s, y, g, NULL, NULL) > 0))
            break;
        if (it == 64) /* the object is bounded: only a field that is not finite gets here */
            return;
    }
    for (int it = 0; it < 60 && hi - lo > 1e-15 * hi; it++) {
        double mid = 0.5 * (lo + hi), y[3] = {x[0] + mid * u[0], x[1] + mid * u[1],
                                            x[2] + mid * u[2]};
        if (field_derivatives(s, y, g, NULL, NULL) > 0)
            lo = mid;
        else
            hi = mid;
    }
    for (int k = 0; k < 3; k++)
        x[k] += lo * u[k];
}

/* A local maximum of u . x on the surface from x: out along u if x is inside (leave_along),
 * then ascent steps (ascent_step), each ending on the surface, halved until u . x grows (a
 * Newton step near the maximum may leave it equal to rounding). A step is at most `trust`,
 * from `reach`: doubled after a step cut to it gains whole and halved (not below reach) after
 * a step had to be halved, so that a long climb over a smooth slope (a flat object's bump, 30
 * reaches away) takes a few steps. Where the surface is a thin sheet (a fuzzed bump 0.3 m
 * long on a base of 6 mm) no step longer than a few reaches projects back near where it
 * went, and a climb takes up to a hundred steps: hence the budget of NEWTON_STEPS. Where
 * STALLS steps in a row gain no more than u . x's rounding, x is a maximum to rounding (at a
 * sharp rim the Newton step projects back to where it began and |r| does not fall below
 * TANGENT_TOLERANCE). 0 if it does not converge. */
static int local_support(const rbl_fdo_shape *s, const double u[3], double reach, double x[3])
{
    leave_along(s, u, reach, x);
    if (!project(s, x))
        return 0;
    double h = rbl_dot3(u, x), size = reach + fabs(h), trust = reach;
    int stalls = 0;
    for (int it = 0; it < NEWTON_STEPS; it++) {
        double dx[3], un;
        int newton;
        double rl = ascent_step(s, u, x, trust, dx, &newton, &un);
        if (!(rl >= 0))
            return 0;
        if (un > 0 && rl <= TANGENT_TOLERANCE)
            return 1;
        const int cut = rbl_dot3(dx, dx) >= trust * trust * (1 - 1e-12);
        int moved = 0, half;
        for (half = 0; half < HALVINGS && !moved; half++) {
            double y[3] = {x[0] + dx[0], x[1] + dx[1], x[2] + dx[2]};
            if (project(s, y)) {
                double hy = rbl_dot3(u, y);
                if (hy > h || (newton && hy >= h - 1e-15 * size)) {
                    stalls = hy - h <= 4 * DBL_EPSILON * size ? stalls + 1 : 0;
                    memcpy(x, y, sizeof y);
                    h = hy, moved = 1;
                }
            }
            for (int k = 0; k < 3; k++)
                dx[k] *= 0.5;
        }
        if (!moved) /* no step gains: a maximum to rounding if u . n > 0 and r is small */
            return un > 0 && rl <= 1e3 * TANGENT_TOLERANCE;
        if (stalls == STALLS)
            return un > 0;
        if (half == 1 && cut)
            trust = 2 * trust;
        else if (half > 1)
            trust = fmax(0.5 * trust, reach);
    }
    return 0;
}

/* The point of a positive region (centre, top, M) farthest along u: where a bump's lobe is
 * long (a sheet 0.3 m on a base of 6 mm), the ascent from its centre may end at a lower
 * maximum of the lobe's rim than the one near this point. There Q = 0 and F' = F, the base's
 * field, whose Newton step heads for the base: near it (F' >= -3, within twice the base's
 * size) it lands on the base or the bump's flank, but from afar (a lobe of 787 m on a base of
 * 6 mm ends 2 mm short of its region) the projection failed or landed on the base, and the
 * support fell short by 0.36 m. So a start F' < -3 is taken back along the segment from the
 * centre, if the centre is inside, to where the segment leaves the object (leave_along). 0
 * if M is not positive definite. */
static int far_start(const rbl_fdo_shape *s, const double centre[3], double top,
                     const rbl_sym3 M, const double u[3], double start[3])
{
    double Mu[3];
    if (!rbl_sym3_solve_spd(M, u, Mu))
        return 0;
    double len = sqrt(top / rbl_dot3(u, Mu));
    for (int k = 0; k < 3; k++)
        start[k] = centre[k] + len * Mu[k];
    if (!(rbl_fdo_field(s, start) < -3) || !(rbl_fdo_field(s, centre) > 0))
        return 1;
    const double reach = len * sqrt(rbl_dot3(Mu, Mu));
    if (!(reach < INFINITY)) /* |Mu| overflows: an absurd region, left at its far point */
        return 1;
    const double d[3] = {len * Mu[0] / reach, len * Mu[1] / reach, len * Mu[2] / reach};
    memcpy(start, centre, 3 * sizeof start[0]);
    leave_along(s, d, reach, start); /* the far point is outside: straight to bisection */
    return 1;
}

/* The point of the base ellipsoid's surface on the ray from its centre through
 * centre + t w; 0 if there is none (that point at the centre, or not finite). */
static int under(const rbl_fdo_shape *s, const double centre[3], const double w[3], double t,
                 double p[3])
{
    double y[3], len = 0;
    for (int k = 0; k < 3; k++)
        y[k] = centre[k] + t * w[k], len += y[k] * y[k] / (s->semi[k] * s->semi[k]);
    len = sqrt(len);
    if (!(len > 0) || !(len < INFINITY))
        return 0;
    for (int k = 0; k < 3; k++)
        p[k] = y[k] / len;
    return 1;
}

/* Where the boundary of dent r's region crosses the base's surface, going from under the
 * region's centre along w (under(); t doubled from `reach` until Q <= 0, then regula falsi,
 * Illinois): there F = 0 and Q = 0, so F' = 0, a point of the object on the dent's rim. 0 if
 * the surface under the centre is outside the region or the boundary is not crossed. */
static int rim_point(const rbl_fdo_shape *s, const rbl_fdo_perturbation *r,
                     const double centre[3], const double w[3], double reach, double rim[3])
{
    double p[3], lo = 0, hi = reach, qlo, qhi;
    if (!under(s, centre, w, 0, p) || !((qlo = rbl_fdo_quadric_value(r, p)) > 0))
        return 0;
    for (int it = 0;; it++, lo = hi, hi *= 2) {
        if (it == 64 || !under(s, centre, w, hi, p))
            return 0;
        if (!((qhi = rbl_fdo_quadric_value(r, p)) > 0))
            break;
        qlo = qhi;
    }
    for (int it = 0, side = 0; it < 100 && hi - lo > 1e-15 * hi && qhi < 0; it++) {
        double t = hi - qhi * (hi - lo) / (qhi - qlo);
        if (!(t > lo && t < hi))
            t = 0.5 * (lo + hi);
        if (!under(s, centre, w, t, p))
            return 0;
        double q = rbl_fdo_quadric_value(r, p);
        if (q > 0) {
            lo = t, qlo = q, qhi *= side == 1 ? 0.5 : 1, side = 1;
        } else {
            hi = t, qhi = q, qlo *= side == -1 ? 0.5 : 1, side = -1;
        }
    }
    return under(s, centre, w, hi, rim);
}

/* u . x at the rim point (rim_point) in direction angle of the tangents t; -inf if none. */
static double rim_height(const rbl_fdo_shape *s, const rbl_fdo_perturbation *r,
                         const double centre[3], double top, const rbl_sym3 M,
                         const double t[2][3], double angle, const double u[3], double p[3])
{
    double w[3];
    for (int k = 0; k < 3; k++)
        w[k] = cos(angle) * t[0][k] + sin(angle) * t[1][k];
    double reach = sqrt(top / rbl_sym3_form(M, w));
    return rim_point(s, r, centre, w, reach, p) ? rbl_dot3(u, p) : -INFINITY;
}

/* One dent's rim, walked by angle (hard_rim_starts). */
typedef struct {
    const rbl_fdo_shape *s;
    const rbl_fdo_perturbation *r;
    const double *centre;
    double top;
    const double *M;
    const double *u;
    const double (*t)[3];
} rim_walk;

/* rim_height at angle along the rim in context (a rim_walk). */
static double rim_value(double angle, void *context)
{
    const rim_walk *rim = context;
    double p[3];
    return rim_height(rim->s, rim->r, rim->centre, rim->top, rim->M, rim->t, angle, rim->u, p);
}

/* A hard dent (|a| top^3 above HARD_DENT) leaves a pit whose wall meets the base's surface in
 * a crease along its rim, the base's surface where Q = 0. Starts in the tangent plane at the
 * region's centre may lie far off the object (a region 5.3 mm across a disc 0.33 mm thick):
 * none projected, and 42 % of that object's supports failed. Ascents started on the rim
 * crept along it, each step running into the pit and projected back a few micrometres
 * further. Here the local maxima of u . x along the rim itself, over RIM_SAMPLES angles and
 * refined by Brent's method, are the starts (at most RIM_STARTS); 0 if no rim is found. */
static int hard_rim_starts(const rbl_fdo_shape *s, const rbl_fdo_perturbation *r,
                           const double centre[3], double top, const rbl_sym3 M,
                           const double u[3], const double t[2][3],
                           double start[RIM_STARTS][3])
{
    const double da = 2 * M_PI / RIM_SAMPLES;
    rim_walk rim = {s, r, centre, top, M, u, t};
    double h[RIM_SAMPLES];
    for (int j = 0; j < RIM_SAMPLES; j++)
        h[j] = rim_value(j * da, &rim);
    int n = 0;
    for (int j = 0; j < RIM_SAMPLES && n < RIM_STARTS; j++) {
        if (!(h[j] > -INFINITY) || h[j] < h[(j + RIM_SAMPLES - 1) % RIM_SAMPLES] ||
            h[j] <= h[(j + 1) % RIM_SAMPLES])
            continue;
        double angle =
            rbl_brent_maximum(rim_value, &rim, (j - 1) * da, (j + 1) * da, j * da, RIM_TOLERANCE);
        n += rim_height(s, r, centre, top, M, t, angle, u, start[n]) > -INFINITY;
    }
    return n;
}

/* Where the ascents for perturbation r start (its positive region: centre, top, M): a bump's
 * at its centre, which projects onto its cap (a dent may have left the centre outside the
 * object and the cap standing), and at its region's farthest point along u (far_start); a
 * dent's at RIM_STARTS points of its region's boundary in the base's tangent plane at its
 * centre, which project onto its rim, or a hard dent's on its rim (hard_rim_starts). Along a
 * rim u . x may have several maxima (two, across a dent elongated and facing u), each found
 * from a start near it. Returns the number of starts. */
static int ascent_starts(const rbl_fdo_shape *s, const rbl_fdo_perturbation *r,
                         const double centre[3], double top, const rbl_sym3 M,
                         const double u[3], double start[RIM_STARTS][3])
{
    if (r->amplitude > 0) {
        memcpy(start[0], centre, sizeof start[0]);
        return 1 + far_start(s, centre, top, M, u, start[1]);
    }
    double n[3] = {0, 0, 1}, t[2][3], len = 0; /* the base's normal at the centre */
    for (int k = 0; k < 3; k++)
        len += centre[k] * centre[k];
    if (len > 0)
        for (int k = 0; k < 3; k++)
            n[k] = centre[k] / (s->semi[k] * s->semi[k]);
    len = sqrt(rbl_dot3(n, n));
    for (int k = 0; k < 3; k++)
        n[k] /= len;
    rbl_fdo_tangents(n, t[0], t[1]);
    if (fabs(r->amplitude) * top * top * top > HARD_DENT) {
        int found = hard_rim_starts(s, r, centre, top, M, u, t, start);
        if (found)
            return found;
    }
    for (int j = 0; j < RIM_STARTS; j++) {
        double angle = 2 * M_PI * j / RIM_STARTS, w[3];
        for (int k = 0; k < 3; k++)
            w[k] = cos(angle) * t[0][k] + sin(angle) * t[1][k];
        double reach = sqrt(top / rbl_sym3_form(M, w));
        for (int k = 0; k < 3; k++)
            start[j][k] = centre[k] + reach * w[k];
    }
    return RIM_STARTS;
}

int rbl_fdo_support_local(const rbl_fdo_shape *s, const double u[3], double x[3])
{
    double Su[3];
    for (int k = 0; k < 3; k++)
        Su[k] = s->semi[k] * s->semi[k] * u[k];
    double h = sqrt(rbl_dot3(u, Su));
    for (int k = 0; k < 3; k++)
        x[k] = Su[k] / h;
    if (!s->n_perturbations)
        return 1;
    /* the longest step: a quarter of the smallest feature */
    double reach = 0.25 * rbl_fdo_feature_size(s), best = -INFINITY, y[3];
    int found = 0, untouched = 1;
    for (size_t i = 0; i < s->n_perturbations && untouched; i++)
        untouched = rbl_fdo_quadric_value(s->perturbation + i, x) < 0;
    memcpy(y, x, sizeof y);
    /* where a dent leaves F' < -1 at the base's support point, that point lies in a pit (the
     * base's F is 0 there and at most 1 anywhere): its projection ran across the pit, Newton's
     * steps bouncing off both sides 80 times, and failed; the dent's rim starts find the
     * maxima there */
    if (untouched || (rbl_fdo_field(s, y) >= -1 && local_support(s, u, reach, y))) {
        /* no perturbation reaches the base's support point: there F' = F nearby, so it is
         * a local maximum of F' as it is */
        memcpy(x, y, sizeof y);
        best = rbl_dot3(u, y), found = 1;
    }
    /* Elsewhere a maximum has some Q_i >= 0 (outside every region F' = F, whose one maximum is
     * the base's): it lies in that perturbation's region */
    for (size_t i = 0; i < s->n_perturbations; i++) {
        const rbl_fdo_perturbation *r = s->perturbation + i;
        double centre[3], top, Mu[3], start[RIM_STARTS][3];
        rbl_sym3 M;
        if (!rbl_fdo_positive_region(r, centre, &top, M) || !rbl_sym3_solve_spd(M, u, Mu))
            continue;
        /* which reaches no farther along u than it does; where a dent acts F' < F, so its
         * points of the object are inside the base ellipsoid too */
        double bound = rbl_dot3(centre, u) + sqrt(top * rbl_dot3(u, Mu));
        if (r->amplitude < 0 ? untouched || fmin(bound, h) <= best : bound <= best)
            continue;
        int n = ascent_starts(s, r, centre, top, M, u, start);
        for (int j = 0; j < n; j++) {
            memcpy(y, start[j], sizeof y);
            if (local_support(s, u, reach, y) && rbl_dot3(u, y) > best) {
                memcpy(x, y, sizeof y);
                best = rbl_dot3(u, y), found = 1;
            }
        }
    }
    return found;
}

int rbl_fdo_support(const rbl_fdo_object *a, const double dir[3], double x[3])
{
    double u[3], y[3];
    rbl_quat_rotate_back(a->quat, dir, u);
    int ok = rbl_fdo_support_local(a->shape, u, y);
    rbl_quat_rotate(a->quat, y, x);
    for (int k = 0; k < 3; k++)
        x[k] += a->centre[k];
    return ok;
}
