/* ellipsoid_cylinder.c — contact of an ellipsoid and a tube (SPEC FO2: an ellipsoid and another
 * quadric, seed ref. [15]; the seed's inclined tube). The tube is the open cylinder of radius R
 * about a segment, a thin wall with two faces: an object whose centre is nearer the axis than R
 * is inside and touches it with its point farthest from the axis; one outside, with its nearest.
 *
 * Both are found in the plane across the axis. An ellipsoid with Sigma = R diag(a^2, b^2, c^2)
 * R^T casts there the ellipse whose support point in a direction nu of the plane is
 * m + S nu / sqrt(nu^T S nu) (S: Sigma restricted to the plane, m: the centre's offset from the
 * axis), and that shadow point is the projection of the ellipsoid's own support point
 * c + Sigma nu / sqrt(nu^T Sigma nu). So the farthest (nearest) point of the ellipsoid from the
 * axis is the support point in the direction nu whose shadow point is farthest (nearest): a
 * search over one angle, 16 samples and Brent's refinement, without trigonometry.
 * There the ellipsoid's normal is radial, the cylinder's too: the normal is common and the
 * depth, R less (or minus) that point's distance from the axis, is exact. Brozos-Vazquez et al.
 * (ref. [15]) classify the same positions from the characteristic polynomial of the pencil;
 * the shadow gives the contact point and depth directly. A perturbed object's shadow is taken
 * the same way from its support points (fdo_support.c): then its convex hull touches. */
#include "fdo_internal.h"

#include <string.h>

#define SAMPLES 16
#define TANGENT_TOLERANCE 1e-9 /* of tau, the step along the tangent line: of the angle */

/* The part of p - from across the unit axis into out, its length returned; *along (unless
 * NULL) the part along it. */
static double across_axis(const double p[3], const double from[3], const double axis[3],
                          double *along, double out[3])
{
    double rel[3];
    rbl_sub3(p, from, rel);
    double at = rbl_dot3(rel, axis);
    for (int k = 0; k < 3; k++)
        out[k] = rel[k] - at * axis[k];
    if (along)
        *along = at;
    return sqrt(rbl_dot3(out, out));
}

/* An object seen in the plane across the axis: e1 (from the axis towards its centre), e2, and
 * m, the centre's distance from the axis. An ellipsoid with Sigma, S = {s11, s22, s12} its
 * restriction to the plane; or a perturbed object, seen through its support points. */
typedef struct shadow {
    double e1[3], e2[3], m;
    const rbl_ellipsoid *ellipsoid;
    rbl_sym3 Sigma;
    double S[3];
    const rbl_fdo_object *object;
    const double *from, *axis;
    int failed; /* a support point did not converge */
} shadow;

/* The object's support point in the direction nu (not necessarily unit) of the plane. */
static void support_across(shadow *sh, const double nu[2], double x[3])
{
    double dir[3];
    for (int k = 0; k < 3; k++)
        dir[k] = nu[0] * sh->e1[k] + nu[1] * sh->e2[k];
    if (sh->ellipsoid) {
        double Sd[3];
        rbl_sym3_apply(sh->Sigma, dir, Sd);
        double h = sqrt(rbl_dot3(dir, Sd));
        for (int k = 0; k < 3; k++)
            x[k] = sh->ellipsoid->centre[k] + Sd[k] / h;
        return;
    }
    double len = sqrt(rbl_dot3(dir, dir));
    for (int k = 0; k < 3; k++)
        dir[k] /= len;
    sh->failed |= !rbl_fdo_support(sh->object, dir, x);
}

/* The squared distance from the axis of the shadow's support point in direction nu. For an
 * ellipsoid in the plane's own terms, the centre at (m, 0). */
static double shadow_distance2(shadow *sh, const double nu[2])
{
    if (sh->ellipsoid) {
        const double *S = sh->S;
        double Sv0 = S[0] * nu[0] + S[2] * nu[1], Sv1 = S[2] * nu[0] + S[1] * nu[1];
        double h = sqrt(nu[0] * Sv0 + nu[1] * Sv1);
        double y0 = sh->m + Sv0 / h, y1 = Sv1 / h;
        return y0 * y0 + y1 * y1;
    }
    double x[3], across[3];
    support_across(sh, nu, x);
    double rho = across_axis(x, sh->from, sh->axis, NULL, across);
    return rho * rho;
}

/* The tangent line nu_k + tau nu_k^perp of the circle of directions at nu_k (base). */
typedef struct {
    shadow *sh;
    double sign;
    double base[2];
} along_tangent;

/* sign times the squared distance from the axis of the shadow point at tau along the line. */
static double tangent_value(double tau, void *context)
{
    const along_tangent *line = context;
    double v[2] = {line->base[0] - tau * line->base[1], line->base[1] + tau * line->base[0]};
    return line->sign * shadow_distance2(line->sh, v);
}

/* The direction nu whose shadow point is farthest from the axis (sign +1) or nearest (-1). */
static void extreme_direction(shadow *sh, double sign, double nu[2])
{
    /* cos and sin of k pi / 8 */
    static const double c8[SAMPLES] = {1,
                                       0.92387953251128674,
                                       0.70710678118654752,
                                       0.38268343236508977,
                                       0,
                                       -0.38268343236508977,
                                       -0.70710678118654752,
                                       -0.92387953251128674,
                                       -1,
                                       -0.92387953251128674,
                                       -0.70710678118654752,
                                       -0.38268343236508977,
                                       0,
                                       0.38268343236508977,
                                       0.70710678118654752,
                                       0.92387953251128674};
    int best = 0;
    double best_value = -INFINITY;
    for (int k = 0; k < SAMPLES; k++) {
        double v[2] = {c8[k], c8[(k + SAMPLES - SAMPLES / 4) % SAMPLES]};
        double g = sign * shadow_distance2(sh, v);
        if (g > best_value)
            best_value = g, best = k;
    }
    /* along the tangent line nu_k + tau nu_k^perp, tau within one sample spacing either side */
    along_tangent line = {sh, sign, {c8[best], c8[(best + SAMPLES - SAMPLES / 4) % SAMPLES]}};
    const double half = 0.41421356237309505; /* tan(pi / 8) */
    double t = rbl_brent_maximum(tangent_value, &line, -half, half, 0, TANGENT_TOLERANCE);
    nu[0] = line.base[0] - t * line.base[1], nu[1] = line.base[1] + t * line.base[0];
}

/* The contact of the object in sh (its centre at `centre`) with the tube. */
static int cylinder_contact(shadow *sh, const double centre[3], const double from[3],
                            const double axis[3], double length, double radius,
                            rbl_fdo_contact *out)
{
    memset(out, 0, sizeof *out);
    sh->from = from, sh->axis = axis;
    double m = across_axis(centre, from, axis, NULL, sh->e1);
    if (m > 1e-12 * radius) {
        for (int k = 0; k < 3; k++)
            sh->e1[k] /= m;
        rbl_cross3(axis, sh->e1, sh->e2);
    } else {
        rbl_fdo_tangents(axis, sh->e1, sh->e2); /* on the axis: any frame across it */
        m = 0;
    }
    sh->m = m;
    double inside = m < radius ? 1 : -1;
    if (sh->ellipsoid) {
        const rbl_ellipsoid *a = sh->ellipsoid;
        double d2[3] = {a->semi[0] * a->semi[0], a->semi[1] * a->semi[1],
                        a->semi[2] * a->semi[2]};
        rbl_sym3_rotated_diagonal(a->quat, d2, sh->Sigma);
        double Se1[3], Se2[3];
        rbl_sym3_apply(sh->Sigma, sh->e1, Se1);
        rbl_sym3_apply(sh->Sigma, sh->e2, Se2);
        sh->S[0] = rbl_dot3(sh->e1, Se1), sh->S[1] = rbl_dot3(sh->e2, Se2);
        sh->S[2] = rbl_dot3(sh->e1, Se2);
    }
    double nu[2];
    extreme_direction(sh, inside, nu);
    /* the object's support point in that direction, and its distance from the axis */
    double x[3], radial[3];
    support_across(sh, nu, x);
    double at, rho = across_axis(x, from, axis, &at, radial);
    if (at < 0 || at > length)
        return 0; /* beyond the tube's ends */
    if (rho > 1e-12 * radius) {
        for (int k = 0; k < 3; k++)
            radial[k] /= rho;
    } else { /* an outside object across the axis: out along its centre's side */
        memcpy(radial, sh->e1, sizeof radial);
        out->fallback = 1;
    }
    out->fallback |= sh->failed;
    out->depth = inside > 0 ? rho - radius : radius - rho;
    for (int k = 0; k < 3; k++) {
        out->normal[k] = -inside * radial[k];
        out->point[k] = x[k] + 0.5 * out->depth * out->normal[k];
    }
    return 1;
}

int rbl_ellipsoid_cylinder_contact(const rbl_ellipsoid *a, const double from[3],
                                   const double axis[3], double length, double radius,
                                   rbl_fdo_contact *out)
{
    shadow sh = {.ellipsoid = a};
    return cylinder_contact(&sh, a->centre, from, axis, length, radius, out);
}

int rbl_fdo_object_cylinder_contact(const rbl_fdo_object *a, const double from[3],
                                    const double axis[3], double length, double radius,
                                    rbl_fdo_contact *out)
{
    if (!a->shape->n_perturbations) {
        rbl_ellipsoid e;
        memcpy(e.centre, a->centre, sizeof e.centre);
        memcpy(e.quat, a->quat, sizeof e.quat);
        memcpy(e.semi, a->shape->semi, sizeof e.semi);
        return rbl_ellipsoid_cylinder_contact(&e, from, axis, length, radius, out);
    }
    shadow sh = {.object = a};
    return cylinder_contact(&sh, a->centre, from, axis, length, radius, out);
}
