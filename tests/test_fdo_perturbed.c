/* test_fdo_perturbed.c — SPEC FO1-FO3 for perturbed objects F' = F + sum a_i max(Q_i, 0)^3:
 * support points against a brute-force search over the surface; pair contacts whose planes
 * across the normal separate every surface sample (so the gap is the distance of the convex
 * hulls) or, overlapping, a normal where the depth is least; a bump on the far side changes
 * nothing; planes and tubes against brute force; in the engine: the shape's frame kept through
 * the body frame, an object that comes to rest on its bump, restarts bit for bit. */
#include "test_util.h"
#include "fdo_test_util.h"

#include "rubble.h"
#include "base/base_internal.h"
#include "base/rotation.h"
#include "fdo/fdo_internal.h"

#include <string.h>

/* An ellipsoid with 1-3 bumps centred on its surface (and a dent when `dents`). */
static void random_shape(rbl_fdo_shape *s, int dents)
{
    memset(s, 0, sizeof *s);
    for (int k = 0; k < 3; k++)
        s->semi[k] = uniform(0.5, 1);
    s->n_perturbations = 1 + (size_t)(3 * rbl_rng_uniform(&rng));
    for (size_t i = 0; i < s->n_perturbations; i++) {
        double u[3], c[3], w[3];
        random_unit(u);
        double rho = 0;
        for (int k = 0; k < 3; k++)
            rho += (u[k] / s->semi[k]) * (u[k] / s->semi[k]);
        for (int k = 0; k < 3; k++)
            c[k] = u[k] / sqrt(rho), w[k] = uniform(0.2, 0.5);
        double a = dents && i == 0 ? -uniform(0.3, 0.8) : uniform(0.2, 1);
        rbl_fdo_bump(c, w, a, s->perturbation + i);
    }
    rbl_error err = {0};
    ASSERT_OK(rbl_fdo_shape_check(s, &err));
}

/* Surface samples along rays from the shape's origin: on each ray the outermost point with
 * F' >= 0 (marching in from outside, then bisection), placed by the object's frame. The march
 * starts where F' must be negative: beyond the base ellipsoid and every bump's positive region
 * (the object lies in their union), the region's farthest point along u being
 * centre . u + sqrt(top u . M^-1 u). Its step is fixed by the shape's size, so thin bumps are
 * not stepped over. */
static size_t surface_samples(const rbl_fdo_object *o, int n_theta, double *x)
{
    const rbl_fdo_shape *s = o->shape;
    double far = 0, centre[RBL_FDO_MAX_PERTURBATIONS][3], top[RBL_FDO_MAX_PERTURBATIONS];
    rbl_sym3 M[RBL_FDO_MAX_PERTURBATIONS];
    for (int k = 0; k < 3; k++)
        far = fmax(far, s->semi[k]);
    for (size_t i = 0; i < s->n_perturbations; i++)
        ASSERT_TRUE(rbl_fdo_positive_region(s->perturbation + i, centre[i], &top[i], M[i]));
    const double step = (far * 1.01 * sqrt(1 + 3 * 1.0) + 0.5) / 200;
    size_t m = 0;
    int n_phi = 2 * n_theta;
    for (int i = 0; i < n_theta; i++)
        for (int j = 0; j < n_phi; j++) {
            double th = M_PI * (i + 0.5) / n_theta, ph = 2 * M_PI * j / n_phi;
            double u[3] = {sin(th) * cos(ph), sin(th) * sin(ph), cos(th)}, rho = 0;
            for (int k = 0; k < 3; k++)
                rho += (u[k] / s->semi[k]) * (u[k] / s->semi[k]);
            double hi = 0, lo = -1, start = 1 / sqrt(rho), Mu[3];
            for (size_t b = 0; b < s->n_perturbations; b++)
                if (s->perturbation[b].amplitude > 0 && rbl_sym3_solve_spd(M[b], u, Mu))
                    start = fmax(start, rbl_dot3(centre[b], u) + sqrt(top[b] * rbl_dot3(u, Mu)));
            for (double t = start + step; t > 0; t -= step) {
                double y[3] = {t * u[0], t * u[1], t * u[2]};
                if (rbl_fdo_field(s, y) >= 0) {
                    lo = t, hi = t + step;
                    break;
                }
            }
            if (lo < 0)
                continue;
            for (int b = 0; b < 60; b++) {
                double mid = 0.5 * (lo + hi), y[3] = {mid * u[0], mid * u[1], mid * u[2]};
                if (rbl_fdo_field(s, y) >= 0)
                    lo = mid;
                else
                    hi = mid;
            }
            double y[3] = {lo * u[0], lo * u[1], lo * u[2]};
            rbl_quat_rotate(o->quat, y, x + 3 * m);
            for (int k = 0; k < 3; k++)
                x[3 * m + k] += o->centre[k];
            m++;
        }
    return m;
}

static double field_at(const rbl_fdo_object *o, const double x[3])
{
    double d[3], b[3];
    rbl_sub3(x, o->centre, d);
    rbl_quat_rotate_back(o->quat, d, b);
    return rbl_fdo_field(o->shape, b);
}

/* How far the farthest of the m samples x lies from o's centre. */
static double farthest_sample(const rbl_fdo_object *o, const double *x, size_t m)
{
    double far = 0;
    for (size_t i = 0; i < m; i++) {
        double r[3];
        rbl_sub3(x + 3 * i, o->centre, r);
        far = fmax(far, sqrt(rbl_dot3(r, r)));
    }
    return far;
}

/* The support points of o along `directions` random directions, each converged and on the
 * surface (|F'| <= on_surface), against the m surface samples x: how far each is beyond the
 * farthest sample and short of it, the worst kept in *above and *below. */
static void support_against_samples(const rbl_fdo_object *o, const double *x, size_t m,
                                    int directions, double on_surface, double *above,
                                    double *below)
{
    for (int d = 0; d < directions; d++) {
        double u[3], p[3];
        random_unit(u);
        ASSERT_TRUE(rbl_fdo_support(o, u, p));
        ASSERT_NEAR(field_at(o, p), 0, on_surface);
        double best = -INFINITY;
        for (size_t i = 0; i < m; i++)
            best = fmax(best, rbl_dot3(u, x + 3 * i));
        double h = rbl_dot3(u, p);
        *above = fmax(*above, h - best);
        *below = fmax(*below, best - h);
    }
}

static void test_support(void)
{
    enum { THETA = 120 };
    double *x = malloc(3 * 2 * THETA * THETA * sizeof *x);
    double worst_above = 0, worst_below = 0, farthest = 0;
    const int objects = 20 / slow_build_divisor(); /* a sanitizer's build: its memory checks */
    for (int t = 0; t < objects; t++) {
        rbl_fdo_shape s;
        random_shape(&s, t % 4 == 3);
        rbl_fdo_object o = {&s, {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)}, {0}};
        random_quat(o.quat);
        size_t m = surface_samples(&o, THETA, x);
        farthest = fmax(farthest, farthest_sample(&o, x, m));
        support_against_samples(&o, x, m, 300, 1e-9, &worst_above, &worst_below);
    }
    printf("support: at most %.2e beyond and %.2e short of the brute-force samples\n",
           worst_above, worst_below);
    /* never short of a point of the object. Beyond the samples it may be: each support point
     * is on the surface (asserted above), so not beyond the object, and rays pi / THETA apart
     * on a radius r miss the top by about r (pi / THETA)^2 / 2, more where the surface meets
     * them obliquely (a bump's flank) */
    printf("        (rays at radius %.2f miss the top by about %.2e where square to it)\n",
           farthest, 0.5 * farthest * (M_PI / THETA) * (M_PI / THETA));
    ASSERT_TRUE(worst_below <= 1e-9);
    free(x);
}

/* An object of a fuzzed checkpoint, scaled to a base of semi-axes 1, 2/3, 1/2 with one
 * perturbation of quadric q and amplitude 0.5, at a random orientation: its support points
 * against its surface samples (support_against_samples, on the surface to `on_surface`).
 * Returns how far its farthest sample lies from its centre. */
static double fuzzed_lobe(const double q[10], double on_surface, double *above, double *below)
{
    enum { THETA = 60 };
    rbl_fdo_shape s;
    memset(&s, 0, sizeof s);
    s.semi[0] = 1, s.semi[1] = 4.0 / 6, s.semi[2] = 3.0 / 6;
    s.n_perturbations = 1;
    memcpy(s.perturbation[0].q, q, sizeof s.perturbation[0].q);
    s.perturbation[0].amplitude = 0.5;
    rbl_error err = {0};
    ASSERT_OK(rbl_fdo_shape_check(&s, &err));
    double *x = malloc(3 * 2 * THETA * THETA * sizeof *x);
    rbl_fdo_object o = {&s, {0.1, -0.2, 0.3}, {0}};
    random_quat(o.quat);
    size_t m = surface_samples(&o, THETA, x);
    double farthest = farthest_sample(&o, x, m);
    *above = *below = 0;
    support_against_samples(&o, x, m, 300, on_surface, above, below);
    free(x);
    return farthest;
}

/* A strong perturbation: the quadric of a fuzzed checkpoint (tests/fuzz/regressions/
 * impulse_checkpoint/slow_perturbed_step.bin), scaled to a base of semi-axes 1, 2/3, 1/2. Its
 * Q reaches 9.2 (a bump of amplitude 0.5 * 9.2^3 = 385) and puts a lobe 3.3 semi-axes long on
 * the object, where F' is of order 100 near the surface and cannot be resolved to 1e-14: every
 * projection onto the surface failed there (the support points with them, 27 contacts fell
 * back and one step took 50 s), until the projection's tolerance followed F''s rounding. */
static void test_strong_bump(void)
{
    const double q[10] = {-131073.8125 * 36e-6, -9, -9, 0, 0, 0, 1500 * 6e-3, 0, 0, -8};
    /* on the surface to F''s rounding (|F'| up to a few hundred near the lobe) */
    double above, below, farthest = fuzzed_lobe(q, 1e-11, &above, &below);
    printf("strong bump: lobe to %.2f; support at most %.2e beyond and %.2e short of the "
           "samples\n", farthest, above, below);
    ASSERT_TRUE(farthest > 3); /* the lobe is there: the quadric is the fuzzed one */
    ASSERT_TRUE(below <= 1e-9);
}

/* A thin sheet: the object of a fuzzed checkpoint (tests/fuzz/slow/
 * impulse_checkpoint_tube_halvings.bin), scaled from semi-axes 6, 4, 3 mm to 1, 2/3, 1/2. Its
 * bump's positive region is a disc 29 by 21 by 1.6 semi-axes and its lobe a sheet 15 semi-axes
 * long, over which no step longer than a few reaches projects back near where it went. The
 * ascents took more than sixty steps to climb it (12,526 of 96,358 in that checkpoint's run
 * stopped there, and on examples/perturbed.yaml 61,274 of 2.5 million, zigzagging along
 * ridges by 1e-11 a step); none does now. From the bump's centre alone the ascent ended at a
 * lower maximum of the sheet's rim (5.3 short of the samples, 2.5 with the ascents fixed): a
 * second start at the region's farthest point along u finds the farthest. Beyond the samples
 * the support may be by several semi-axes: rays 3 degrees apart miss a sheet 1.6 thick. */
static void test_thin_sheet(void)
{
    const double q[10] = {-131073.8125 * 36e-6, -250000.00000098348 * 36e-6,
                          -41943056.006835938 * 36e-6, 0, 0, 0, 22976 * 6e-3, 0, 0, -8};
    /* on the surface to F''s rounding: the terms it sums reach 4e5 on the sheet (a Q of 7
     * whose own terms reach 5e3, cubed and differentiated), so 1e-7 is 1e3 epsilons of them */
    double above, below, farthest = fuzzed_lobe(q, 1e-7, &above, &below);
    printf("thin sheet: to %.2f; support at most %.2e beyond and %.2e short of the samples\n",
           farthest, above, below);
    ASSERT_TRUE(farthest > 10); /* the sheet is there: the quadric is the fuzzed one */
    ASSERT_TRUE(below <= 1e-9);
}

/* Surface points of shape s (in its frame) from rays out of the points (x, 0, 0) inside it,
 * n_x of them from x0 to x1, each in 2 theta^2 directions: out by doubling steps from `step`
 * while F' > 0, then bisection. For an object long along x whose sections are convex about
 * the axis (a cigar), where rays from the centre meet its long side only at grazing angles. */
static size_t axis_samples(const rbl_fdo_shape *s, double x0, double x1, int n_x, int theta,
                           double step, double *x)
{
    size_t m = 0;
    for (int i = 0; i < n_x; i++) {
        double o[3] = {x0 + (x1 - x0) * i / (n_x - 1), 0, 0};
        if (!(rbl_fdo_field(s, o) > 0))
            continue;
        for (int a = 0; a < theta; a++)
            for (int b = 0; b < 2 * theta; b++) {
                double th = M_PI * (a + 0.5) / theta, ph = M_PI * b / theta;
                double u[3] = {sin(th) * cos(ph), sin(th) * sin(ph), cos(th)}, lo = 0, hi = step;
                for (;; lo = hi, hi *= 2) {
                    double y[3] = {o[0] + hi * u[0], o[1] + hi * u[1], o[2] + hi * u[2]};
                    if (!(rbl_fdo_field(s, y) > 0))
                        break;
                }
                for (int it = 0; it < 60; it++) {
                    double mid = 0.5 * (lo + hi), y[3] = {o[0] + mid * u[0], o[1] + mid * u[1],
                                                        o[2] + mid * u[2]};
                    if (rbl_fdo_field(s, y) > 0)
                        lo = mid;
                    else
                        hi = mid;
                }
                for (int k = 0; k < 3; k++)
                    x[3 * m + k] = o[k] + lo * u[k];
                m++;
            }
    }
    return m;
}

/* A fuzzed checkpoint's object: a base of semi-axes `semi` and one perturbation (q, a). */
static void fuzzed_shape(const double semi[3], const double q[10], double amplitude,
                         rbl_fdo_shape *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s->semi, semi, sizeof s->semi);
    s->n_perturbations = 1;
    memcpy(s->perturbation[0].q, q, sizeof s->perturbation[0].q);
    s->perturbation[0].amplitude = amplitude;
    rbl_error err = {0};
    ASSERT_OK(rbl_fdo_shape_check(s, &err));
}

/* A hard dent: a fuzzed checkpoint's object (tests/fuzz/regressions/impulse_checkpoint/
 * hard_dent_tip_2e31.bin), a disc of 6 x 0.33 x 3 mm whose tip a dent of amplitude -2^31 cuts
 * off: its region is a ball of radius 5.3 mm about (6 mm, 0, 0), inside which F' falls to
 * -7e11, so the object is the disc outside the ball and its rim a crease. The dent's starts in
 * the tangent plane at the region's centre lay far off the disc and none projected onto it:
 * 177 of these 400 supports failed. Checked in random directions against samples of the
 * base's surface outside the ball, which hold the object's support points (the ball's wall,
 * seen from the object, is concave: its maxima are on the rim), 31 um apart along the disc. */
static void test_hard_dent(void)
{
    rbl_fdo_shape s;
    fuzzed_shape((const double[3]){0.006, 0.0003262939453125, 0.003},
                 (const double[10]){-250000, -250000, -250000, 0, 0, 0, 1500, 0, 0,
                                    -2.0000000000000115},
                 -2147483648.0, &s);
    enum { THETA = 600 };
    double *x = malloc(3 * (size_t)THETA * 2 * THETA * sizeof *x);
    size_t m = 0;
    for (int i = 0; i < THETA; i++)
        for (int j = 0; j < 2 * THETA; j++) {
            double th = M_PI * (i + 0.5) / THETA, ph = M_PI * j / THETA;
            double p[3] = {s.semi[0] * sin(th) * cos(ph), s.semi[1] * cos(th),
                           s.semi[2] * sin(th) * sin(ph)};
            if (rbl_fdo_quadric_value(s.perturbation, p) <= 0)
                memcpy(x + 3 * m++, p, sizeof p);
        }
    rbl_fdo_object o = {&s, {0, 0, 0}, {1, 0, 0, 0}};
    int failed = 0;
    double above = 0, below = 0;
    for (int d = 0; d < 400 / slow_build_divisor(); d++) {
        double u[3], p[3], best = -INFINITY;
        random_unit(u);
        failed += !rbl_fdo_support(&o, u, p);
        for (size_t i = 0; i < m; i++)
            best = fmax(best, rbl_dot3(u, x + 3 * i));
        above = fmax(above, rbl_dot3(u, p) - best), below = fmax(below, best - rbl_dot3(u, p));
    }
    printf("hard dent: %zu samples; %d supports failed, at most %.2e m beyond and %.2e m short "
           "of the samples\n", m, failed, above, below);
    /* beyond by no more than the samples' spacing along the disc, pi 6 mm / THETA */
    ASSERT_TRUE(failed == 0 && below <= 1e-9 && above <= M_PI * s.semi[0] / THETA);
    free(x);
}

/* A cigar: the object of a fuzzed checkpoint (tests/fuzz/regressions/impulse_checkpoint/
 * cigar_lobe_787_m.bin), a base of 6 mm x 1.02 m x 3 mm whose bump's positive region runs
 * along x from 0.7 mm to 787 m, 1.54 m across, and whose lobe (Q^3 against the base's
 * (x / 6 mm)^2) fills it but for its last 2 mm. The region's farthest point along u lies
 * outside the lobe, where F' = F: from there the projection followed the base's gradient
 * (9,460 of 20,188 ascents of 20,000 random directions failed so) and, for directions almost
 * across the cigar and slightly back, the support was the base's tip, up to 0.46 m short of
 * the lobe's side. The start is now taken back towards the centre, onto the lobe. Checked in
 * such directions, and in random ones, against samples of the lobe's surface (axis_samples). */
static void test_cigar(void)
{
    rbl_fdo_shape s;
    fuzzed_shape((const double[3]){0.006, 1.024, 0.003},
                 (const double[10]){-3.8147, -250000, -250000, 0, 0, 0, 1500, 0, 0, -2.00006}, 0.5,
                 &s);
    enum { THETA = 24 };
    const int n_x = 400 / slow_build_divisor(); /* 2 m apart along x, 8 m in a sanitizer's */
    double *x = malloc(3 * (size_t)n_x * 2 * THETA * THETA * sizeof *x);
    size_t m = axis_samples(&s, 1e-3, 786, n_x, THETA, 1e-3, x);
    double above = 0, below = 0, worst = 0;
    rbl_fdo_object o = {&s, {0, 0, 0}, {1, 0, 0, 0}};
    for (int d = 0; d < 400; d++) {
        double u[3], p[3];
        if (d % 2) {
            random_unit(u);
        } else { /* nearly across the cigar, slightly back: towards its thin end */
            double back = uniform(0.002, 0.008), ph = uniform(0, 2 * M_PI);
            double side = sqrt(1 - back * back);
            u[0] = -back, u[1] = side * sin(ph), u[2] = side * cos(ph);
        }
        ASSERT_TRUE(rbl_fdo_support(&o, u, p));
        /* on the surface to F''s rounding: its terms reach (787 m / 6 mm)^2 = 1.7e10 */
        worst = fmax(worst, fabs(rbl_fdo_field(&s, p)) / 1.7e10);
        double best = -INFINITY;
        for (size_t i = 0; i < m; i++)
            best = fmax(best, rbl_dot3(u, x + 3 * i));
        double h = rbl_dot3(u, p);
        above = fmax(above, h - best), below = fmax(below, best - h);
    }
    printf("cigar: %zu samples; support at most %.2e m beyond and %.2e m short of them, "
           "|F'| at most %.1e of its terms\n", m, above, below, worst);
    ASSERT_TRUE(worst <= 1e-12);
    ASSERT_TRUE(below <= 1e-9);
    free(x);
}

/* rubble's pair contact: separated pairs are split by the planes across the normal through
 * the two support points (every sample of a on one side, of b on the other); every pair has
 * the least d among nearby normals (so the largest separating gap, or the least overlap);
 * and a common normal except at a kink of d, where two support points of one object are
 * equally far along it (counted). */
/* Pair t of a random sequence: the first object at the origin (with a dent one time in five),
 * the second with its centre r in [lo, hi] away in a random direction, both turned at random;
 * and their contact. */
static void random_pair(int t, double lo, double hi, rbl_fdo_shape *sa, rbl_fdo_shape *sb,
                        rbl_fdo_object *a, rbl_fdo_object *b, rbl_fdo_contact *c)
{
    random_shape(sa, t % 5 == 4);
    random_shape(sb, 0);
    *a = (rbl_fdo_object){sa, {0, 0, 0}, {0}};
    *b = (rbl_fdo_object){sb, {0}, {0}};
    random_quat(a->quat), random_quat(b->quat);
    double u[3], r = uniform(lo, hi);
    random_unit(u);
    for (int k = 0; k < 3; k++)
        b->centre[k] = r * u[k];
    rbl_fdo_object_contact(a, b, c);
}

/* The least d of 20 random normals 1e-3 rad from n. */
static double nearby_least(const rbl_fdo_object *a, const rbl_fdo_object *b, const double n[3])
{
    double least = INFINITY;
    for (int k = 0; k < 20; k++) {
        double v[3], m[3], qa[3], qb[3], mn[3], len = 0;
        random_unit(v);
        for (int e = 0; e < 3; e++)
            m[e] = n[e] + 1e-3 * v[e], len += m[e] * m[e];
        for (int e = 0; e < 3; e++)
            m[e] /= sqrt(len), mn[e] = -m[e];
        rbl_fdo_support(a, m, qa);
        rbl_fdo_support(b, mn, qb);
        least = fmin(least, rbl_dot3(m, qa) - rbl_dot3(m, qb));
    }
    return least;
}

/* Deep overlaps (centres 0.2-1.0 apart, objects of semi-axes 0.5-1): the least d often lies
 * where three branches of d meet (a flat face of the hull of A - B), which the search's
 * bundle of cuts finds. Before it held three (session 40), 6 of these 200 pairs stopped up to
 * 1.3e-4 above a nearby normal's d; at most one (a support point short of its maximum) may. */
static void test_deep_pairs(void)
{
    rbl_rng_seed(&rng, 20261123);
    const int trials = 200 / slow_build_divisor();
    int above = 0, fallbacks = 0;
    double worst = 0;
    for (int t = 0; t < trials; t++) {
        rbl_fdo_shape sa, sb;
        rbl_fdo_object a, b;
        rbl_fdo_contact c;
        random_pair(t, 0.2, 1.0, &sa, &sb, &a, &b, &c);
        fallbacks += c.fallback;
        double below = c.depth - nearby_least(&a, &b, c.normal);
        above += below > 1e-8;
        worst = fmax(worst, below);
    }
    printf("deep pairs: %d of %d above a nearby normal's d by more than 1e-8 (at most %.2g), "
           "%d fell back\n", above, trials, worst, fallbacks);
    ASSERT_TRUE(above <= 1 && fallbacks <= 1);
}

/* d(n) of two ellipsoids, sqrt(n.A n) + sqrt(n.B n) - n.(cb - ca) with A = R diag(a^2) R^T,
 * after `steps` steps of Newton's method on the sphere from n (its Hessian exact: the sphere
 * adds -(n . grad) = -d on the tangent plane, > 0 for a gap). */
static double ellipsoids_d(const rbl_fdo_object *a, const rbl_fdo_object *b, double n[3],
                           int steps)
{
    double M[2][3][3], c[3];
    const rbl_fdo_object *o[2] = {a, b};
    for (int w = 0; w < 2; w++) {
        double R[3][3];
        rbl_quat_matrix(o[w]->quat, R);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                M[w][i][j] = 0;
                for (int k = 0; k < 3; k++)
                    M[w][i][j] += R[i][k] * R[j][k] * o[w]->shape->semi[k] * o[w]->shape->semi[k];
            }
    }
    rbl_sub3(b->centre, a->centre, c);
    for (int it = 0;; it++) {
        double grad[3] = {-c[0], -c[1], -c[2]}, H[3][3] = {{0}}, d = -rbl_dot3(n, c);
        for (int w = 0; w < 2; w++) {
            double Mn[3];
            rbl_mat_apply(M[w], n, Mn);
            double h = sqrt(rbl_dot3(n, Mn));
            d += h;
            for (int i = 0; i < 3; i++) {
                grad[i] += Mn[i] / h;
                for (int j = 0; j < 3; j++)
                    H[i][j] += M[w][i][j] / h - Mn[i] * Mn[j] / (h * h * h);
            }
        }
        if (it == steps)
            return d;
        double t[2][3], g[2], T[2][2];
        rbl_fdo_tangents(n, t[0], t[1]);
        for (int p = 0; p < 2; p++) {
            g[p] = rbl_dot3(t[p], grad);
            for (int q = 0; q < 2; q++) {
                double Ht[3];
                rbl_mat_apply(H, t[q], Ht);
                T[p][q] = rbl_dot3(t[p], Ht) - (p == q) * d;
            }
        }
        double det = T[0][0] * T[1][1] - T[0][1] * T[1][0], len = 0;
        double s0 = -(T[1][1] * g[0] - T[0][1] * g[1]) / det;
        double s1 = -(T[0][0] * g[1] - T[1][0] * g[0]) / det;
        for (int k = 0; k < 3; k++)
            n[k] += s0 * t[0][k] + s1 * t[1][k], len += n[k] * n[k];
        for (int k = 0; k < 3; k++)
            n[k] /= sqrt(len);
    }
}

/* A needle far from a small object: pairs of a fuzzed checkpoint (cigar_far_pairs.bin), an
 * ellipsoid of 6 x 4 x 3 mm and one of 6 mm x 1.024 m x 3 mm (a bump of amplitude 9e-306
 * makes it a perturbed object, so the search, not the closed form, meets it) 3-8 cm apart.
 * d is smooth but ill-conditioned there (the needle's radii of curvature run from 9e-6 m to
 * 350 m), so the descent runs out and the bundle search takes over. With its rho, the
 * curvature of d, halved below the gap |d| (which every cut of d curves by over the sphere),
 * it crept along d's valley to its budget of 2,000 rounds and fell back 7e-9 to 4e-8 m above
 * the least d. Now in 16-20 rounds, within 2e-11 m of it (Newton's method on the closed form,
 * ellipsoids_d). */
static void test_needle_pairs(void)
{
    static const double at[3][2][7] = { /* centre, then quaternion, of the small object and the
                                         * needle */
        {{0.0064607571108314908, 0.022826477163906574, 0.019231974103448405, 0.39695397919964065,
          -0.70182638165994182, -0.13059062390643317, 0.57689978102909123},
         {0.012408695112742795, 0.032272933436376633, 0.066267147522441422, -0.32666039360196325,
          -0.46268795661678153, -0.82411690125072035, -0.0066464371288793653}},
        {{0.0077699645311828042, 0.024319809493531745, 0.019148593961027433, 0.29906487115441166,
          -0.6693138178888729, -0.24037857315879857, 0.63623687223435588},
         {0.01300921709726777, 0.032504701288086316, 0.075533401858323315, 0.23626381712419564,
          -0.45275970635983537, -0.85220620673166625, -0.11372175791327264}},
        {{0.011222915308752916, 0.007795386973612344, 0.0066890524232462592, -0.91746832121832678,
          -0.13419542262590831, 0.35893017572530334, -0.10682975737537662},
         {0.0073555357564383077, 0.028275464772224687, 0.096209635684984987, -0.88711845356268293,
          -0.16608730069016794, -0.027912411054825816, 0.42971706413303412}}};
    rbl_fdo_shape small = {.semi = {0.006, 0.004, 0.003}, .n_perturbations = 0};
    rbl_fdo_shape needle = {.semi = {0.006, 1.024, 0.003}, .n_perturbations = 1};
    const double q[10] = {-3.814697265625, -250000.00047111508, -250000, 0, 0, 0, 1500, 0,
                          -1.9656826079092814e-236, -2.0000610351562615};
    memcpy(needle.perturbation[0].q, q, sizeof q);
    needle.perturbation[0].amplitude = 9.029628199697127e-306;
    rbl_error err = {0};
    ASSERT_OK(rbl_fdo_shape_check(&needle, &err));
    for (int t = 0; t < 3; t++) {
        rbl_fdo_object a = {&small, {0}, {0}}, b = {&needle, {0}, {0}};
        memcpy(a.centre, at[t][0], sizeof a.centre), memcpy(a.quat, at[t][0] + 3, sizeof a.quat);
        memcpy(b.centre, at[t][1], sizeof b.centre), memcpy(b.quat, at[t][1] + 3, sizeof b.quat);
        rbl_fdo_contact c;
        rbl_fdo_object_contact(&a, &b, &c);
        double n[3] = {c.normal[0], c.normal[1], c.normal[2]};
        ASSERT_NEAR(ellipsoids_d(&a, &b, n, 0), c.depth, 1e-13); /* the supports' d */
        double least = ellipsoids_d(&a, &b, n, 30);
        printf("needle %d: gap %.12g m in %d rounds, %s, %.1e m above the least d\n", t,
               -c.depth, c.iterations, c.fallback ? "fell back" : "converged", c.depth - least);
        ASSERT_TRUE(!c.fallback && c.iterations < 200);
        ASSERT_TRUE(c.depth < -0.03 && c.depth - least < 1e-10);
    }
}

static void test_pairs(void)
{
    enum { THETA = 60 };
    const int trials = 200 / slow_build_divisor();
    double *xa = malloc(3 * 2 * THETA * THETA * sizeof *xa);
    double *xb = malloc(3 * 2 * THETA * THETA * sizeof *xb);
    int separated = 0, overlapping = 0, fallbacks = 0, kinks = 0;
    for (int t = 0; t < trials; t++) {
        rbl_fdo_shape sa, sb;
        rbl_fdo_object a, b;
        rbl_fdo_contact c;
        random_pair(t, 1.0, 2.8, &sa, &sb, &a, &b, &c);
        fallbacks += c.fallback;
        if (c.fallback)
            continue;
        double pa[3], pb[3], m[3] = {-c.normal[0], -c.normal[1], -c.normal[2]};
        rbl_fdo_support(&a, c.normal, pa);
        rbl_fdo_support(&b, m, pb);
        double d[3], cross[3];
        rbl_sub3(pa, pb, d);
        rbl_cross3(d, c.normal, cross);
        kinks += sqrt(rbl_dot3(cross, cross)) > 1e-8; /* no common normal: at a kink of d */
        ASSERT_NEAR(rbl_dot3(d, c.normal), c.depth, 1e-12);
        if (c.depth < 0) {
            separated++;
            size_t ma = surface_samples(&a, THETA, xa), mb = surface_samples(&b, THETA, xb);
            double ha = rbl_dot3(c.normal, pa), hb = rbl_dot3(c.normal, pb);
            for (size_t i = 0; i < ma; i++)
                ASSERT_TRUE(rbl_dot3(c.normal, xa + 3 * i) <= ha + 1e-9);
            for (size_t i = 0; i < mb; i++)
                ASSERT_TRUE(rbl_dot3(c.normal, xb + 3 * i) >= hb - 1e-9);
        } else {
            overlapping++;
        }
        /* no nearby normal gives less: the gap or overlap */
        ASSERT_TRUE(nearby_least(&a, &b, c.normal) >= c.depth - 1e-12);
    }
    printf("pairs: %d separated, %d overlapping (%d at a kink: two support points), %d fell "
           "back\n", separated, overlapping, kinks, fallbacks);
    ASSERT_TRUE(separated >= trials / 5 && overlapping >= trials / 5);
    ASSERT_TRUE(fallbacks <= 1 + trials / 200);
    free(xa), free(xb);
}

/* A bump on the side turned away changes nothing: two spheres give the sphere answer. */
static void test_far_bump(void)
{
    for (int t = 0; t < 50; t++) {
        rbl_fdo_shape sa = {.semi = {1, 1, 1}, .n_perturbations = 1};
        rbl_fdo_shape sb = {.semi = {0.5, 0.5, 0.5}};
        rbl_fdo_bump((double[3]){-1, 0, 0}, (double[3]){0.3, 0.3, 0.3}, 0.8, sa.perturbation);
        double dir[3], dist = uniform(1.3, 1.7);
        random_unit(dir);
        /* turn a so that its bump (along -x of its frame) points away from b */
        double axis[3] = {1, 0, 0}, half[3];
        for (int k = 0; k < 3; k++)
            half[k] = axis[k] + dir[k];
        double hl = sqrt(rbl_dot3(half, half)), q[4] = {0, half[0] / hl, half[1] / hl,
                                                        half[2] / hl};
        rbl_fdo_object a = {&sa, {0, 0, 0}, {q[0], q[1], q[2], q[3]}};
        rbl_fdo_object b = {&sb, {dist * dir[0], dist * dir[1], dist * dir[2]}, {1, 0, 0, 0}};
        rbl_fdo_contact c;
        rbl_fdo_object_contact(&a, &b, &c);
        ASSERT_TRUE(!c.fallback);
        ASSERT_NEAR(c.depth, 1.5 - dist, 1e-12);
        for (int k = 0; k < 3; k++) {
            ASSERT_NEAR(c.normal[k], dir[k], 1e-9);
            ASSERT_NEAR(c.point[k], 0.5 * (1 + dist - 0.5) * dir[k], 1e-9);
        }
    }
}

static void test_plane_and_tube(void)
{
    enum { THETA = 200 };
    const int trials = 20 / slow_build_divisor();
    double *x = malloc(3 * 2 * THETA * THETA * sizeof *x);
    double worst_plane = 0, worst_tube = 0;
    int tubes = 0;
    for (int t = 0; t < trials; t++) {
        rbl_fdo_shape s;
        random_shape(&s, t % 4 == 3);
        rbl_fdo_object o = {&s, {0.2, -0.1, 0.3}, {0}};
        random_quat(o.quat);
        size_t m = surface_samples(&o, THETA, x);
        double n[3];
        random_unit(n);
        double offset = rbl_dot3(n, o.centre) - 0.8, lowest = INFINITY;
        rbl_fdo_contact c;
        rbl_fdo_object_plane_contact(&o, n, offset, &c);
        ASSERT_TRUE(!c.fallback);
        for (size_t i = 0; i < m; i++)
            lowest = fmin(lowest, rbl_dot3(n, x + 3 * i));
        worst_plane = fmax(worst_plane, fabs(c.depth - (offset - lowest)));
        /* inside a tube along z of radius 1.6 about (0, 0): the point farthest from the axis */
        double from[3] = {0, 0, -5}, axis[3] = {0, 0, 1};
        if (rbl_fdo_object_cylinder_contact(&o, from, axis, 10, 1.6, &c)) {
            double farthest = 0;
            for (size_t i = 0; i < m; i++)
                farthest = fmax(farthest, hypot(x[3 * i], x[3 * i + 1]));
            ASSERT_TRUE(!c.fallback);
            worst_tube = fmax(worst_tube, fabs(c.depth - (farthest - 1.6)));
            tubes++;
        }
    }
    printf("plane: depth within %.2e of brute force; tube (%d): within %.2e\n", worst_plane,
           tubes, worst_tube);
    ASSERT_TRUE(worst_plane <= 2e-4 && worst_tube <= 2e-4 && tubes == trials);
    free(x);
}

static rbl_fdo_shape bumped_ellipsoid(void)
{
    rbl_fdo_shape s = {.semi = {0.02, 0.015, 0.012}, .n_perturbations = 2};
    rbl_fdo_bump((double[3]){0, 0, -0.012}, (double[3]){0.006, 0.006, 0.004}, 0.6,
                 s.perturbation);
    rbl_fdo_bump((double[3]){0.02, 0, 0}, (double[3]){0.005, 0.008, 0.008}, 0.4,
                 s.perturbation + 1);
    return s;
}

/* The shape's frame survives the body frame: what is put in comes back. */
static void test_frame(void)
{
    rbl_fdo_params p = {.dt = 1e-4};
    rbl_fdo_sim *sim;
    rbl_error err = {0};
    ASSERT_OK(rbl_fdo_sim_create(&p, &sim, &err));
    rbl_fdo_shape s = bumped_ellipsoid();
    double pos[3] = {0.1, 0.2, 0.3}, q[4], v[3] = {0.1, 0, 0}, w[3] = {0, 0, 0};
    random_quat(q);
    ASSERT_OK(rbl_fdo_sim_add(sim, &s, 2500, pos, q, v, w, &err));
    double pos2[3], q2[4], v2[3], w2[3];
    rbl_fdo_sim_get(sim, 0, pos2, q2, v2, w2);
    double sign = q2[0] * q[0] + q2[1] * q[1] + q2[2] * q[2] + q2[3] * q[3] < 0 ? -1 : 1;
    for (int k = 0; k < 3; k++) {
        ASSERT_NEAR(pos2[k], pos[k], 1e-15);
        ASSERT_NEAR(v2[k], v[k], 0);
        ASSERT_NEAR(w2[k], 0, 0);
    }
    for (int k = 0; k < 4; k++)
        ASSERT_NEAR(sign * q2[k], q[k], 1e-14);
    /* free flight without gravity: the shape's centre moves with the centre of mass */
    ASSERT_OK(rbl_fdo_sim_step(sim, 100, &err));
    rbl_fdo_sim_get(sim, 0, pos2, NULL, NULL, NULL);
    ASSERT_NEAR(pos2[0], pos[0] + 100 * 1e-4 * 0.1, 1e-15);
    rbl_fdo_sim_free(sim);
}

/* Dropped bump-down onto a plane with e = 0 and friction, it comes to rest touching the plane
 * with its lowest point (within the slop), its energy never growing. */
static void test_rest(void)
{
    rbl_fdo_params p = {.dt = 1e-4, .gravity = {0, 0, -9.81}, .friction = 0.5, .rolling = 2e-3};
    rbl_fdo_sim *sim;
    rbl_error err = {0};
    ASSERT_OK(rbl_fdo_sim_create(&p, &sim, &err));
    ASSERT_OK(rbl_fdo_sim_add_plane(sim, (double[3]){0, 0, 1}, 0, &err));
    rbl_fdo_shape s = bumped_ellipsoid();
    double q[4] = {cos(0.1), sin(0.1), 0, 0}; /* tilted a little off its bump */
    ASSERT_OK(rbl_fdo_sim_add(sim, &s, 2500, (double[3]){0, 0, 0.03}, q, (double[3]){0, 0, 0},
                              (double[3]){0, 0, 0}, &err));
    double last = INFINITY;
    for (int block = 0; block < 100; block++) {
        ASSERT_OK(rbl_fdo_sim_step(sim, 100, &err));
        double ke, pe;
        rbl_fdo_sim_energy(sim, &ke, &pe);
        ASSERT_TRUE(ke + pe <= last + 1e-12);
        last = ke + pe;
    }
    double pos[3], quat[4], v[3], w[3], low[3];
    rbl_fdo_sim_get(sim, 0, pos, quat, v, w);
    rbl_fdo_object o = {&s, {pos[0], pos[1], pos[2]}, {quat[0], quat[1], quat[2], quat[3]}};
    rbl_fdo_support(&o, (double[3]){0, 0, -1}, low);
    printf("rest: lowest point at z = %.3g m, speed %.2g m/s, spin %.2g rad/s\n", low[2],
           sqrt(rbl_dot3(v, v)), sqrt(rbl_dot3(w, w)));
    ASSERT_TRUE(fabs(low[2]) <= 1e-5);
    ASSERT_TRUE(sqrt(rbl_dot3(v, v)) <= 1e-6 && sqrt(rbl_dot3(w, w)) <= 1e-4);
    rbl_fdo_sim_free(sim);
}

/* A heap of bumped objects saved halfway and loaded into a new simulation ends with the same
 * bits as the run straight through. */
static void heap(rbl_fdo_sim **out, const void *state, size_t len)
{
    rbl_fdo_params p = {.dt = 1e-4, .gravity = {0, 0, -9.81}, .friction = 0.4,
                        .restitution = 0.2};
    rbl_error err = {0};
    ASSERT_OK(rbl_fdo_sim_create(&p, out, &err));
    ASSERT_OK(rbl_fdo_sim_add_plane(*out, (double[3]){0, 0, 1}, 0, &err));
    if (state) {
        ASSERT_OK(rbl_fdo_sim_load_state(*out, state, len, &err));
        return;
    }
    rbl_fdo_shape s = bumped_ellipsoid();
    rbl_rng local;
    rbl_rng_seed(&local, 7);
    for (int k = 0; k < 8; k++) {
        double q[4], pos[3] = {0.05 * (k % 2), 0.05 * ((k / 2) % 2), 0.024 + 0.045 * (k / 4)};
        rbl_quat_uniform(rbl_rng_uniform(&local), rbl_rng_uniform(&local),
                         rbl_rng_uniform(&local), q);
        ASSERT_OK(rbl_fdo_sim_add(*out, &s, 2500, pos, q, (double[3]){0, 0, 0},
                                  (double[3]){0, 0, 0}, &err));
    }
}

static void test_restart(void)
{
    rbl_fdo_sim *straight, *first, *second;
    rbl_error err = {0};
    heap(&straight, NULL, 0);
    heap(&first, NULL, 0);
    ASSERT_OK(rbl_fdo_sim_step(straight, 1000, &err));
    ASSERT_OK(rbl_fdo_sim_step(first, 700, &err));
    rbl_fdo_stats stats;
    rbl_fdo_sim_stats(first, &stats);
    printf("restart: %zu contacts when saved\n", stats.contacts);
    ASSERT_TRUE(stats.contacts >= 4); /* at least the lower four on the floor */
    void *state;
    size_t len;
    ASSERT_OK(rbl_fdo_sim_save_state(first, &state, &len, &err));
    heap(&second, state, len);
    ASSERT_OK(rbl_fdo_sim_step(second, 300, &err));
    for (size_t k = 0; k < 8; k++) {
        double a[13], b[13];
        rbl_fdo_sim_get(straight, k, a, a + 3, a + 7, a + 10);
        rbl_fdo_sim_get(second, k, b, b + 3, b + 7, b + 10);
        ASSERT_TRUE(memcmp(a, b, sizeof a) == 0);
    }
    /* a truncated state is refused, not read past its end */
    rbl_fdo_sim *third;
    rbl_fdo_params p = {.dt = 1e-4};
    ASSERT_OK(rbl_fdo_sim_create(&p, &third, &err));
    ASSERT_TRUE(rbl_fdo_sim_load_state(third, state, len - 9, &err) != RBL_OK);
    free(state);
    rbl_fdo_sim_free(straight), rbl_fdo_sim_free(first), rbl_fdo_sim_free(second);
    rbl_fdo_sim_free(third);
}

/* The surface mesh that ParaView draws encloses the object's volume: the divergence theorem
 * over its quads (two triangles each) against the sampled volume (seed 001's sampler). */
static void test_surface(void)
{
    rbl_fdo_shape s = bumped_ellipsoid();
    rbl_quad_mesh mesh;
    rbl_mass_properties props;
    rbl_error err = {0};
    ASSERT_OK(rbl_fdo_surface(&s, 0, &mesh, &err));
    ASSERT_OK(rbl_fdo_mass_properties(&s, 1, 0, &props, &err));
    double volume = 0;
    for (size_t i = 0; i < mesh.n_quads; i++) {
        const uint32_t *q = mesh.quad + 4 * i;
        for (int t = 0; t < 2; t++) {
            const double *a = mesh.vertex + 3 * q[0], *b = mesh.vertex + 3 * q[1 + t],
                         *c = mesh.vertex + 3 * q[2 + t];
            double bc[3];
            rbl_cross3(b, c, bc);
            volume += rbl_dot3(a, bc) / 6;
        }
    }
    printf("surface: %zu quads enclose %.5g m^3, sampled volume %.5g m^3\n", mesh.n_quads,
           volume, props.volume);
    /* outward winding, and the volume within the mesh's resolution (half the smallest
     * feature: a few per cent of an object of a few features across) */
    ASSERT_TRUE(volume > 0);
    ASSERT_NEAR(volume / props.volume, 1, 0.05);
    rbl_quad_mesh_free(&mesh);
}

static void timed(const char *name, void (*test)(void))
{
    double t0 = rbl_now();
    test();
    printf("  %s: %.2f s\n", name, rbl_now() - t0);
}

int main(void)
{
    /* The random objects of two seeds: before session 23's fixes the second (10) left a support
     * point short of a local maximum on a dent's rim and a pair at a kink short of its least d;
     * 40 seeds more passed by hand (docs/fdo.md). */
    static const uint64_t seeds[2] = {20261123, 10};
    for (int k = 0; k < 2; k++) {
        printf("seed %llu\n", (unsigned long long)seeds[k]);
        rbl_rng_seed(&rng, seeds[k]);
        timed("support", test_support);
        timed("pairs", test_pairs);
    }
    timed("deep pairs", test_deep_pairs);
    timed("needle pairs", test_needle_pairs);
    timed("strong bump", test_strong_bump);
    timed("far bump", test_far_bump);
    timed("plane and tube", test_plane_and_tube);
    timed("frame", test_frame);
    timed("surface", test_surface);
    timed("rest", test_rest);
    timed("restart", test_restart);
    timed("thin sheet", test_thin_sheet); /* last: the draws of the tests before stay */
    timed("cigar", test_cigar);
    timed("hard dent", test_hard_dent);
    printf("test_fdo_perturbed: ok\n");
    return 0;
}
