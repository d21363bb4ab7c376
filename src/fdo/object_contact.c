/* object_contact.c — contacts of perturbed objects (SPEC FO2: "perturbed objects refined from
 * their base quadric's contact"). Plain ellipsoids go to the closed forms of
 * ellipsoid_contact.c. A pair with a perturbed object starts from its base ellipsoids' contact
 * normal n and descends on the sphere of directions to the minimum of
 * d(n) = n . (s_a(n) - s_b(-n)), s the support points (fdo_support.c): for convex bodies that
 * minimum is the signed depth (the overlap of the Minkowski difference, or minus the gap), and
 * there s_a - s_b is along n, so the normal is common. The step is n - grad / rho with grad the
 * tangential part of s_a - s_b and rho the sum of the two radii of curvature along n (for two
 * spheres the distance of the centres, where one step lands), estimated by Barzilai-Borwein
 * from the last step and doubled until d decreases. A plane touches the support point against
 * its normal. */
#include "fdo_internal.h"

#include <string.h>

#define DESCENT_STEPS 60
#define GRADIENT_TOLERANCE 1e-10 /* of the smallest semi-axis */
#define PATTERN_STEPS 2000
#define STALL_ROUNDS 50 /* rounds in which d must fall by 1e-12 of the size */

static void base_ellipsoid(const rbl_fdo_object *a, rbl_ellipsoid *e)
{
    memcpy(e->centre, a->centre, sizeof e->centre);
    memcpy(e->quat, a->quat, sizeof e->quat);
    memcpy(e->semi, a->shape->semi, sizeof e->semi);
}

static double shortest(const rbl_fdo_shape *s)
{
    return fmin(s->semi[0], fmin(s->semi[1], s->semi[2]));
}

/* The largest radius of curvature of the base ellipsoid grown to hold the whole object, a^2 / c
 * (semi-axes a >= c): the scale of the object's radii where its hull is smooth. Where the hull
 * is flat (across a dent, between two bumps) d has a kink, which the cuts model. */
static double largest_radius(const rbl_fdo_shape *s)
{
    double longest = fmax(s->semi[0], fmax(s->semi[1], s->semi[2]));
    return rbl_fdo_enclosing_scale(s) * longest * longest / shortest(s);
}

/* d(n) and its two support points; *failed is set when either did not converge. */
static double support_depth(const rbl_fdo_object *a, const rbl_fdo_object *b, const double n[3],
                            double xa[3], double xb[3], int *failed)
{
    double m[3] = {-n[0], -n[1], -n[2]};
    *failed |= !rbl_fdo_support(a, n, xa);
    *failed |= !rbl_fdo_support(b, m, xb);
    return rbl_dot3(n, xa) - rbl_dot3(n, xb);
}

static void tangential(const double n[3], const double xa[3], const double xb[3], double g[3])
{
    double d[3];
    rbl_sub3(xa, xb, d);
    double along = rbl_dot3(n, d);
    for (int k = 0; k < 3; k++)
        g[k] = d[k] - along * n[k];
}

/* The unit direction n + angle (c1 t1 + c2 t2), and d there (with its support points). */
static double probe(const rbl_fdo_object *a, const rbl_fdo_object *b, const double n[3],
                    const double t[3], double angle, double m[3], double ya[3], double yb[3],
                    int *failed)
{
    double len = 0;
    for (int k = 0; k < 3; k++)
        m[k] = n[k] + angle * t[k], len += m[k] * m[k];
    for (int k = 0; k < 3; k++)
        m[k] /= sqrt(len);
    return support_depth(a, b, m, ya, yb, failed);
}

/* A linear model of d on the other side of a kink: d near direction m is about
 * value + grad . (direction - m); grad tangential at m. */
typedef struct cut {
    double m[3], value, grad[3];
    int set;
} cut;

/* The proximal step on two cuts, d's own at n (depth, g) and c of the other branch: the
 * minimum over the tangent plane of max(depth + g . s, c's model) + rho |s|^2 / 2 is at
 * s = -(w g + (1 - w) h) / rho, w in [0, 1] maximising the dual (bundle methods with two
 * cuts). It lands on the ridge where the two branches of d meet, where the compass search
 * would crawl along it. 0 when the cut does not face g across a kink. */
static int proximal_step(const double n[3], const double g[3], double depth, const cut *c,
                         double rho, double s[3])
{
    double h[3], sc[3], a[3];
    double along = rbl_dot3(c->grad, n);
    for (int k = 0; k < 3; k++) /* in n's tangent plane, to first order in the angle */
        h[k] = c->grad[k] - along * n[k], sc[k] = c->m[k] - n[k], a[k] = g[k] - h[k];
    along = rbl_dot3(sc, n);
    for (int k = 0; k < 3; k++)
        sc[k] -= along * n[k];
    double aa = rbl_dot3(a, a);
    if (!(rbl_dot3(g, h) < 0) || !(aa > 0))
        return 0;
    /* the model of the cut at n: value + h . (0 - sc) */
    double offset = depth - (c->value - rbl_dot3(h, sc));
    double w = fmin(fmax((rho * offset - rbl_dot3(h, a)) / aa, 0), 1);
    for (int k = 0; k < 3; k++)
        s[k] = -(w * g[k] + (1 - w) * h[k]) / rho;
    return 1;
}

/* The least d near n where d has a kink (its support point jumps between two local maxima,
 * e.g. two bumps touching one plane): no gradient step descends there. Each round first takes
 * the proximal step on d's gradient here and the cut of the other branch (proximal_step), then,
 * if that does not descend, a compass search over the tangent plane in 8 directions; where
 * none descends, each probe that landed across the kink (its gradient h against the gradient
 * g here) gives a probe along the ridge, against the least vector of the segment [g, h] (the
 * bundle method's direction), and the least value across the kink becomes the next cut. The
 * angle grows by half after a success and halves after a failure, from the descent's last
 * turn (at most 1e-3 rad) down to 1e-6 rad, or until a proximal step is shorter than that
 * (d then within about |grad| 1e-6 of its least value, 1e-7 of the objects' size, 1e-3 of
 * the slop), or until d falls by no more than 1e-12 of the size (the smallest semi-axis) in
 * STALL_ROUNDS rounds. rho: the curvature of d, from the descent. 0 if the budget ends
 * first. */
static int pattern_search(const rbl_fdo_object *a, const rbl_fdo_object *b, double step,
                          double rho, double size, double apart, double n[3], double xa[3],
                          double xb[3], double *depth, int *steps, int *failed)
{
    static const double c8[8][2] = {{1, 0},           {0, 1},           {-1, 0},
                                    {0, -1},          {0.7071, 0.7071}, {-0.7071, 0.7071},
                                    {-0.7071, -0.7071}, {0.7071, -0.7071}};
    cut other = {{0}, 0, {0}, 0};
    double before = *depth; /* d STALL_ROUNDS rounds ago */
    for (int it = 0; it < PATTERN_STEPS; it++, (*steps)++) {
        if (step < 1e-6 || *depth < -apart)
            return 1;
        if (it % STALL_ROUNDS == 0 && it) {
            if (before - *depth <= 1e-12 * size) /* d no longer moves: as low as it gets */
                return 1;
            before = *depth;
        }
        double t1[3], t2[3], g[3], best_n[3], m[3], ya[3], yb[3], h[8][3], best = *depth;
        rbl_fdo_tangents(n, t1, t2);
        tangential(n, xa, xb, g);
        double s[3];
        if (other.set && proximal_step(n, g, *depth, &other, rho, s)) {
            double len = sqrt(rbl_dot3(s, s));
            double trial = len > 0 ? probe(a, b, n, s, 1, m, ya, yb, failed) : INFINITY;
            if (trial < *depth) {
                *depth = trial;
                memcpy(n, m, sizeof m), memcpy(xa, ya, sizeof ya), memcpy(xb, yb, sizeof yb);
                if (len < 1e-6) /* on the ridge's least point, to the search's resolution */
                    return 1;
                continue;
            }
        }
        for (int e = 0; e < 16 && !(e == 8 && best < *depth); e++) {
            double t[3];
            if (e < 8) {
                for (int k = 0; k < 3; k++)
                    t[k] = c8[e][0] * t1[k] + c8[e][1] * t2[k];
            } else { /* along the ridge that probe e - 8 crossed, if it crossed one */
                const double *he = h[e - 8];
                double gh[3];
                rbl_sub3(g, he, gh);
                double gg = rbl_dot3(gh, gh);
                if (!(rbl_dot3(g, he) < 0) || !(gg > 0))
                    continue;
                double w = fmin(fmax(rbl_dot3(g, gh) / gg, 0), 1), len = 0;
                for (int k = 0; k < 3; k++) /* -(g - w (g - h)), in the plane across n */
                    t[k] = -(g[k] - w * gh[k]);
                double along = rbl_dot3(t, n);
                for (int k = 0; k < 3; k++)
                    t[k] -= along * n[k], len += t[k] * t[k];
                if (!(len > 0))
                    continue;
                for (int k = 0; k < 3; k++)
                    t[k] /= sqrt(len);
            }
            double trial = probe(a, b, n, t, step, m, ya, yb, failed);
            if (e < 8) {
                tangential(m, ya, yb, h[e]);
                if (rbl_dot3(g, h[e]) < 0 && (!other.set || trial < other.value ||
                                              rbl_dot3(g, other.grad) >= 0)) {
                    memcpy(other.m, m, sizeof m), memcpy(other.grad, h[e], sizeof h[e]);
                    other.value = trial, other.set = 1;
                }
            }
            if (trial < best) {
                best = trial;
                memcpy(best_n, m, sizeof m), memcpy(xa, ya, sizeof ya);
                memcpy(xb, yb, sizeof yb);
            }
        }
        if (best < *depth) {
            *depth = best;
            memcpy(n, best_n, sizeof best_n);
            step *= 1.5;
        } else {
            step *= 0.5;
        }
    }
    return 0;
}

void rbl_fdo_object_contact(const rbl_fdo_object *a, const rbl_fdo_object *b,
                            rbl_fdo_contact *out)
{
    rbl_fdo_object_contact_from(a, b, NULL, INFINITY, out);
}

void rbl_fdo_object_contact_from(const rbl_fdo_object *a, const rbl_fdo_object *b,
                                 const double *normal, double apart, rbl_fdo_contact *out)
{
    rbl_ellipsoid ea, eb;
    base_ellipsoid(a, &ea);
    base_ellipsoid(b, &eb);
    if (!a->shape->n_perturbations && !b->shape->n_perturbations) {
        rbl_ellipsoid_contact(&ea, &eb, -1, out);
        return;
    }
    double size = fmin(shortest(a->shape), shortest(b->shape));
    double n[3], xa[3], xb[3], g[3];
    if (normal) { /* the last step's: the objects moved little since */
        memset(out, 0, sizeof *out);
        memcpy(n, normal, sizeof n);
    } else {
        rbl_ellipsoid_contact(&ea, &eb, -1, out);
        memcpy(n, out->normal, sizeof n);
    }
    int failed = 0;
    double depth = support_depth(a, b, n, xa, xb, &failed);
    tangential(n, xa, xb, g);
    double r[3];
    rbl_sub3(b->centre, a->centre, r);
    double rho = fmax(rbl_dot3(n, r), size), rho_least = 1e-3 * size;
    /* d's curvature, the two radii plus the distance, is about this at most where d is smooth:
     * a Barzilai-Borwein quotient beyond it measured the jump of the gradient across a kink.
     * Held there, a proximal step short of 1e-6 rad (pattern_search) means d is near its least
     * value, not that rho was blown up (a pair stopped 1.2e-2 above it). A cap too low only
     * lengthens steps, which are doubled until d falls. */
    double rho_most = 2 * (largest_radius(a->shape) + largest_radius(b->shape)) +
                      sqrt(rbl_dot3(r, r));
    double flat = 1e-15 * (sqrt(rbl_dot3(r, r)) + size);
    int it, converged = 0;
    double turn = normal ? 1e-5 : 1e-3; /* the last step's angle */
    for (it = 0; it < DESCENT_STEPS; it++) {
        if (sqrt(rbl_dot3(g, g)) <= GRADIENT_TOLERANCE * size || depth < -apart) {
            converged = 1;
            break;
        }
        double m[3], ya[3], yb[3], h[3], trial = INFINITY, rho_before = rho;
        for (int tries = 0; tries < 10; tries++, rho *= 2) {
            for (int k = 0; k < 3; k++)
                m[k] = n[k] - g[k] / rho;
            double len = sqrt(rbl_dot3(m, m));
            for (int k = 0; k < 3; k++)
                m[k] /= len;
            trial = support_depth(a, b, m, ya, yb, &failed);
            tangential(m, ya, yb, h);
            /* lower; or, where d is flat to round-off, a smaller gradient */
            if (trial < depth ||
                (trial <= depth + flat && rbl_dot3(h, h) < rbl_dot3(g, g)))
                break;
            trial = INFINITY;
        }
        if (trial == INFINITY) { /* no step descends: as low as round-off allows, or a kink */
            rho = rho_before;      /* (where the doubled rho says nothing of the curvature) */
            break;
        }
        double s[3], y[3];
        rbl_sub3(m, n, s);
        rbl_sub3(h, g, y); /* the gradient's change along the step */
        double ss = rbl_dot3(s, s), sy = rbl_dot3(s, y);
        turn = fmax(fmin(sqrt(ss), 1e-3), 2e-6);
        if (sy > 0 && ss > 0)
            rho = fmin(fmax(sy / ss, rho_least), rho_most);
        int moved = ss > 0;
        memcpy(n, m, sizeof n), memcpy(xa, ya, sizeof xa), memcpy(xb, yb, sizeof xb);
        memcpy(g, h, sizeof g);
        depth = trial;
        if (!moved) {
            converged = 1;
            break;
        }
    }
    if (!converged) /* at a kink of d: where the support point jumps from one bump to another */
        converged = pattern_search(a, b, turn, rho, size, apart, n, xa, xb, &depth, &it,
                                   &failed);
    memcpy(out->normal, n, sizeof n);
    out->depth = depth;
    for (int k = 0; k < 3; k++)
        out->point[k] = 0.5 * (xa[k] + xb[k]);
    out->iterations = it;
    out->fallback = failed || !converged;

}

void rbl_fdo_object_plane_contact(const rbl_fdo_object *a, const double n[3], double offset,
                                  rbl_fdo_contact *out)
{
    if (!a->shape->n_perturbations) {
        rbl_ellipsoid e;
        base_ellipsoid(a, &e);
        rbl_ellipsoid_plane_contact(&e, n, offset, out);
        return;
    }
    memset(out, 0, sizeof *out);
    memcpy(out->normal, n, sizeof out->normal);
    double m[3] = {-n[0], -n[1], -n[2]}, x[3];
    out->fallback = !rbl_fdo_support(a, m, x);
    double height = rbl_dot3(n, a->centre) - offset, h = rbl_dot3(n, a->centre) - rbl_dot3(n, x);
    out->depth = h - height;
    out->scale = height / h;
    for (int k = 0; k < 3; k++)
        out->point[k] = x[k] + 0.5 * out->depth * n[k];
}
