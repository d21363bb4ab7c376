/* object_contact.c — contacts of perturbed objects (SPEC FO2: "perturbed objects refined from
 * their base quadric's contact"). Plain ellipsoids go to the closed forms of
 * ellipsoid_contact.c. A pair with a perturbed object starts from its base ellipsoids' contact
 * normal n and descends on the sphere of directions to the minimum of
 * d(n) = n . (s_a(n) - s_b(-n)), s the support points (fdo_support.c): for convex bodies that
 * minimum is the signed depth (the overlap of the Minkowski difference, or minus the gap), and
 * there s_a - s_b is along n, so the normal is common. The step is n - grad / rho with grad the
 * tangential part of s_a - s_b and rho the sum of the two radii of curvature along n (for two
 * spheres the distance of the centres, where one step lands), estimated by Barzilai-Borwein
 * from the last step and doubled until d decreases. Where d has a kink (the support point
 * jumps between two local maxima) no gradient step descends: there a proximal bundle method
 * takes over, every support pair found being an exact cut of d (pattern_search). A plane
 * touches the support point against its normal. */
#include "fdo_internal.h"

#include <string.h>

#define DESCENT_STEPS 60
#define GRADIENT_TOLERANCE 1e-10 /* of the smallest semi-axis */
#define PATTERN_STEPS 2000
#define STALL_ROUNDS 50 /* rounds in which d must fall by 1e-12 of the size */
#define BUNDLE 8        /* cuts kept from across kinks */
#define NULL_STEPS 8    /* proximal steps that do not descend before a compass round */
#define RHO_LEAST 1e-3  /* of the size: the least curvature rho of d assumed */

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

/* Every support pair found is a cut: d(n) = max over z in A - B of n . z, so the difference
 * D = s_a(m) - s_b(-m) found at any direction m gives n . D <= d(n) for every n, equal at m.
 * A bundle keeps up to BUNDLE of them from across d's kinks (where the support point jumps
 * between two local maxima: two bumps touching one plane, a flat face of the hull). */
typedef struct bundle {
    double D[BUNDLE][3];
    unsigned age[BUNDLE];
    int n;
    unsigned clock;
} bundle;

/* Adds D, in place of the oldest cut the last step did not use when the bundle is full (of
 * the oldest of all if it used every one). */
static void bundle_add(bundle *cuts, const double D[3], const int used[BUNDLE])
{
    int slot = cuts->n;
    if (cuts->n == BUNDLE) {
        slot = 0;
        for (int i = 1; i < BUNDLE; i++)
            if (used[i] < used[slot] ||
                (used[i] == used[slot] && cuts->age[i] < cuts->age[slot]))
                slot = i;
    } else {
        cuts->n++;
    }
    memcpy(cuts->D[slot], D, 3 * sizeof *D);
    cuts->age[slot] = ++cuts->clock;
}

/* The proximal step of the bundle method at n: the least over s in n's tangent plane of
 * max_i (b_i + h_i . s) + rho |s|^2 / 2, the cuts' model of d, with b_i = n . D_i and h_i the
 * tangential part of D_i (in the tangents' coordinates), cut 0 d's own at n (b_0 = depth,
 * h_0 its gradient). Through the dual: weights w on the simplex maximising
 * sum w_i b_i - |sum w_i h_i|^2 / (2 rho), s = -sum w_i h_i / rho; in the plane some optimal
 * w has at most three nonzero weights, so each face of up to three cuts is solved and the
 * best whose weights are positive kept. Marks the cuts used (w_i > 0). */
static int bundle_step(int k, const double b[], const double h[][2], double rho,
                       double s[2], int used[], double ridge[2])
{
    double best = -INFINITY, w[3] = {1, 0, 0};
    int face[3] = {0, 0, 0}, size = 1;
    for (int i = 0; i < k; i++) {
        double value = b[i] - (h[i][0] * h[i][0] + h[i][1] * h[i][1]) / (2 * rho);
        if (value > best)
            best = value, face[0] = i, size = 1, w[0] = 1;
        for (int j = i + 1; j < k; j++) {
            double a[2] = {h[i][0] - h[j][0], h[i][1] - h[j][1]};
            double aa = a[0] * a[0] + a[1] * a[1];
            double wi = (rho * (b[i] - b[j]) - (h[j][0] * a[0] + h[j][1] * a[1])) / aa;
            if (aa > 0 && wi > 0 && wi < 1) {
                double v[2] = {h[j][0] + wi * a[0], h[j][1] + wi * a[1]};
                value = wi * b[i] + (1 - wi) * b[j] - (v[0] * v[0] + v[1] * v[1]) / (2 * rho);
                if (value > best)
                    best = value, face[0] = i, face[1] = j, size = 2, w[0] = wi, w[1] = 1 - wi;
            }
            for (int l = j + 1; l < k; l++) {
                double a1[2] = {h[i][0] - h[l][0], h[i][1] - h[l][1]};
                double a2[2] = {h[j][0] - h[l][0], h[j][1] - h[l][1]};
                double m11 = a1[0] * a1[0] + a1[1] * a1[1], m12 = a1[0] * a2[0] + a1[1] * a2[1];
                double m22 = a2[0] * a2[0] + a2[1] * a2[1], det = m11 * m22 - m12 * m12;
                if (!(det > 1e-12 * m11 * m22))
                    continue;
                double r1 = rho * (b[i] - b[l]) - (h[l][0] * a1[0] + h[l][1] * a1[1]);
                double r2 = rho * (b[j] - b[l]) - (h[l][0] * a2[0] + h[l][1] * a2[1]);
                double u1 = (r1 * m22 - r2 * m12) / det, u2 = (r2 * m11 - r1 * m12) / det;
                if (!(u1 > 0 && u2 > 0 && u1 + u2 < 1))
                    continue;
                double v[2] = {h[l][0] + u1 * a1[0] + u2 * a2[0],
                               h[l][1] + u1 * a1[1] + u2 * a2[1]};
                value = u1 * b[i] + u2 * b[j] + (1 - u1 - u2) * b[l] -
                        (v[0] * v[0] + v[1] * v[1]) / (2 * rho);
                if (value > best)
                    best = value, face[0] = i, face[1] = j, face[2] = l, size = 3, w[0] = u1,
                    w[1] = u2, w[2] = 1 - u1 - u2;
            }
        }
    }
    s[0] = s[1] = 0;
    for (int e = 0; e < k; e++)
        used[e] = 0;
    for (int e = 0; e < size; e++) {
        used[face[e]] = 1;
        s[0] -= w[e] * h[face[e]][0] / rho, s[1] -= w[e] * h[face[e]][1] / rho;
    }
    if (size == 2) { /* across the two cuts' gradients: along the ridge where they meet */
        double a[2] = {h[face[0]][0] - h[face[1]][0], h[face[0]][1] - h[face[1]][1]};
        double len = sqrt(a[0] * a[0] + a[1] * a[1]);
        ridge[0] = -a[1] / len, ridge[1] = a[0] / len;
    }
    return size;
}

/* The least d near n where d has a kink, no gradient step descends there. Each round takes
 * the proximal step of the bundle method (bundle_step) on d's own cut at n and the bundle's;
 * where it does not descend (a null step) the support pair it found joins the bundle and the
 * step is taken again on the richer model, up to NULL_STEPS times; then a compass search over
 * the tangent plane in 8 directions, whose probes join the bundle too. Each cut is exact
 * where it was found and below d elsewhere, so a proximal step shorter than 1e-6 rad means
 * the model, d's own at n, is least at n: d there is within about |grad| 1e-6 of its least
 * value (1e-7 of the objects' size, 1e-3 of the slop). The compass angle grows by half after
 * a success and halves after a failure, from the descent's last turn (at most 1e-3 rad) down
 * to 1e-6 rad; the search also stops once d falls by no more than 1e-12 of the size (the
 * smallest semi-axis) in STALL_ROUNDS rounds. rho: the curvature of d, from the descent,
 * never taken below |d| where the objects are apart: there each cut n . D, followed over the
 * sphere, curves by -n . D >= |d| (d itself by |d| plus the hull's radius of curvature), so
 * a smaller rho models steps longer than d allows: pairs of a needle (6 mm x 1 m x 3 mm) and
 * a small object 3-8 cm away, rho a quarter of |d|, crept along d's valley to the budget.
 * 0 if the budget ends first. */
static int pattern_search(const rbl_fdo_object *a, const rbl_fdo_object *b, double step,
                          double rho, double size, double apart, double n[3], double xa[3],
                          double xb[3], double *depth, int *steps, int *failed)
{
    static const double c8[8][2] = {{1, 0},           {0, 1},           {-1, 0},
                                    {0, -1},          {0.7071, 0.7071}, {-0.7071, 0.7071},
                                    {-0.7071, -0.7071}, {0.7071, -0.7071}};
    bundle cuts = {.n = 0};
    int used[BUNDLE + 1] = {0}, nulls = 0;
    double before = *depth; /* d STALL_ROUNDS rounds ago */
    for (int it = 0; it < PATTERN_STEPS; it++, (*steps)++) {
        if (step < 1e-6 || *depth < -apart)
            return 1;
        if (it % STALL_ROUNDS == 0 && it) {
            if (before - *depth <= 1e-12 * size) /* d no longer moves: as low as it gets */
                return 1;
            before = *depth;
        }
        double least = fmax(RHO_LEAST * size, -*depth); /* the least curvature of d here */
        rho = fmax(rho, least);
        double t1[3], t2[3], m[3], ya[3], yb[3], D[3];
        rbl_fdo_tangents(n, t1, t2);
        rbl_sub3(xa, xb, D);
        if (nulls < NULL_STEPS) {
            double bv[BUNDLE + 1], h[BUNDLE + 1][2], s[2];
            bv[0] = *depth, h[0][0] = rbl_dot3(t1, D), h[0][1] = rbl_dot3(t2, D);
            for (int i = 0; i < cuts.n; i++)
                bv[i + 1] = rbl_dot3(n, cuts.D[i]), h[i + 1][0] = rbl_dot3(t1, cuts.D[i]),
                       h[i + 1][1] = rbl_dot3(t2, cuts.D[i]);
            double ridge[2];
            int face = bundle_step(cuts.n + 1, bv, h, rho, s, used, ridge);
            double len = sqrt(s[0] * s[0] + s[1] * s[1]), dir[3], Dm[3], trial;
            if (len < 1e-6) {
                /* the model is least here, to the search's resolution: a local minimum of d
                 * where three cuts meet, or where d < 0 (the sphere's curvature adds |d| to the
                 * model's). Overlapping, on a ridge of two, d falls along the ridge as the
                 * cosine of the angle: probed both ways at the compass angle */
                if (face == 3 || (face == 2 && *depth <= 0))
                    return 1;
                if (face == 1) { /* d's own cut alone, its step short: rho too large (a
                                  * quotient across a kink), or the cut across it not known */
                    if (rho > least)
                        rho = fmax(0.25 * rho, least);
                    else
                        nulls = NULL_STEPS;
                    continue;
                }
                double best = INFINITY, best_n[3], bya[3], byb[3];
                for (int sign = -1; sign <= 1; sign += 2) {
                    for (int k = 0; k < 3; k++)
                        dir[k] = sign * (ridge[0] * t1[k] + ridge[1] * t2[k]);
                    trial = probe(a, b, n, dir, step, m, ya, yb, failed);
                    rbl_sub3(ya, yb, Dm);
                    bundle_add(&cuts, Dm, used + 1);
                    if (trial < best)
                        best = trial, memcpy(best_n, m, sizeof m), memcpy(bya, ya, sizeof ya),
                        memcpy(byb, yb, sizeof yb);
                }
                if (best < *depth) {
                    *depth = best, step *= 1.5;
                    memcpy(n, best_n, sizeof m), memcpy(xa, bya, sizeof ya);
                    memcpy(xb, byb, sizeof yb);
                } else {
                    step *= 0.5;
                }
                continue;
            }
            for (int k = 0; k < 3; k++)
                dir[k] = s[0] * t1[k] + s[1] * t2[k];
            trial = probe(a, b, n, dir, 1, m, ya, yb, failed);
            rbl_sub3(ya, yb, Dm);
            if (trial < *depth) { /* a serious step: the cut here stays in the bundle */
                double model = -INFINITY;
                for (int i = 0; i <= cuts.n; i++)
                    model = fmax(model, bv[i] + h[i][0] * s[0] + h[i][1] * s[1]);
                /* d fell by at least half what the model said: longer steps (a smaller rho)
                 * should too */
                if (*depth - trial >= 0.5 * (*depth - model))
                    rho = fmax(0.5 * rho, least);
                bundle_add(&cuts, D, used + 1);
                *depth = trial, nulls = 0;
                memcpy(n, m, sizeof m), memcpy(xa, ya, sizeof ya), memcpy(xb, yb, sizeof yb);
            } else {
                bundle_add(&cuts, Dm, used + 1);
                nulls++;
            }
            continue;
        }
        nulls = 0;
        double best = *depth, best_n[3];
        for (int e = 0; e < 8; e++) {
            double t[3], Dm[3];
            for (int k = 0; k < 3; k++)
                t[k] = c8[e][0] * t1[k] + c8[e][1] * t2[k];
            double trial = probe(a, b, n, t, step, m, ya, yb, failed);
            rbl_sub3(ya, yb, Dm);
            for (int i = 0; i < BUNDLE; i++)
                used[i + 1] = 0;
            bundle_add(&cuts, Dm, used + 1);
            if (trial < best) {
                best = trial;
                memcpy(best_n, m, sizeof m), memcpy(xa, ya, sizeof ya);
                memcpy(xb, yb, sizeof yb);
            }
        }
        if (best < *depth) {
            bundle_add(&cuts, D, used + 1);
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
    double rho = fmax(rbl_dot3(n, r), size), rho_least = RHO_LEAST * size;
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
