/* test_dem_turning.c — contacts in a body that turns rigidly load nothing (docs/dem.md
 * "Turning bodies"). Under the mid-step integrator a force evaluation reads the half step's
 * velocities: read against the step's line of centres, a turn at W made each contact a
 * relative velocity (dt/2) W x (W x d), of order W^2 |d| dt, which the tangential spring (and
 * the seed's D_H) summed step after step. Read on the half step's line, d - dv dt/2 (the
 * chord's midpoint), what is left is the chord against the arc:
 *     |v| = rho W (2 sin(th/2)/th - cos(th/2)) ~ rho W th^2 / 12,  th = W dt,
 * rho the distance of d from the axis, so that a spring gathers at most N dt |v| in N steps.
 * - The kernel alone (rbl_pair_frame, rbl_contact_force) on a prescribed rigid turn and drift:
 *   linear and Hertz-Mindlin springs and the seed's D_H stay within that bound under the
 *   mid-step reading, within round-off under the synchronized one; the step's line (the old
 *   reading, half = 0 with the half step's velocities) breaks the bound by orders.
 * - A bonded cube of overlapping grains with friction, turning without gravity: once its
 *   start's ringing has died, its contacts' tangential springs (their energy, as thermo counts
 *   it) and its bonds' loads hold still, under both integrators and the three laws.
 * - A grain held by friction on a plane turning with it keeps its place on the plane. */
#include "bonds/bonds_internal.h"
#include "dem/contact_kernel.h"
#include "dem_test_util.h"

#include <float.h>

#define R 1e-3
#define RHO 2500.0

/* x turned by angle th about the unit axis u (Rodrigues). */
static void turn(const double u[3], double th, const double x[3], double out[3])
{
    const double c = cos(th), s = sin(th), ux = u[0] * x[0] + u[1] * x[1] + u[2] * x[2];
    double cr[3];
    rbl_cross(u, x, cr);
    for (int a = 0; a < 3; a++)
        out[a] = x[a] * c + cr[a] * s + u[a] * ux * (1.0 - c);
}

/* The three laws of the test, with friction high enough that nothing slides. */
static void law_of(int k, rbl_contact_law *law, rbl_pair_coef *pc)
{
    memset(law, 0, sizeof *law);
    law->normal = RBL_NORMAL_LINEAR, law->damping = RBL_DAMPING_LINEAR;
    law->kn = 20.0, law->kt = 6.0, law->gamma_n = 1e-3, law->friction = 0.9;
    law->tangent = k == 2 ? RBL_TANGENT_SEED : RBL_TANGENT_SPRING;
    law->from_materials = k == 1;
    *pc = (rbl_pair_coef){.y_star = 1e7, .g_star = 4e6, .mu = 0.1, .beta = 0.9, .cohesion = 1e-3};
}

static const char *law_name(int k)
{
    return k == 0 ? "linear spring" : k == 1 ? "Hertz-Mindlin" : "seed D_H";
}

/* The pair (radii R and 0.6 R, overlapping by 0.02 R, its line at 45 degrees to the axis,
 * which passes 3 R beside it) turned at W about u and drifted at U for n steps of dt, its
 * velocities the half step's chords (half = dt/2; or half = 0 with them: the step's line)
 * or the step's own (sync). Returns the largest tangential displacement the law held (the
 * spring's |s|, or D_H), and in *bound the chord's bound N dt |v| with round-off's. */
static double kernel_turn(int k, double W, double dt, int n, int sync, double half,
                          double *bound)
{
    rbl_contact_law law;
    rbl_pair_coef pc;
    law_of(k, &law, &pc);
    const double u[3] = {0.0, 0.0, 1.0}, U[3] = {0.3, -0.2, 0.1}, c[3] = {3.0 * R, 0.0, 0.0};
    const double ri = R, rj = 0.6 * R, dist = ri + rj - 0.02 * R;
    const double d0[3] = {dist / sqrt(2.0), 0.0, dist / sqrt(2.0)};
    const double xi0[3] = {0.5 * d0[0], 0.5 * d0[1], 0.5 * d0[2]};
    const double xj0[3] = {-0.5 * d0[0], -0.5 * d0[1], -0.5 * d0[2]};
    const double spin[3] = {W * u[0], W * u[1], W * u[2]};
    double h[RBL_HIST_MAX] = {0.0}, most = 0.0, reach = 0.0;
    double was_i[3], was_j[3];
    for (int step = 0; step <= n; step++) {
        double xi[3], xj[3], ri_t[3], rj_t[3], p[3], q[3];
        const double t = step * dt;
        for (int a = 0; a < 3; a++)
            p[a] = xi0[a] - c[a], q[a] = xj0[a] - c[a];
        turn(u, W * t, p, ri_t);
        turn(u, W * t, q, rj_t);
        for (int a = 0; a < 3; a++) {
            xi[a] = c[a] + ri_t[a] + U[a] * t, xj[a] = c[a] + rj_t[a] + U[a] * t;
            reach = fmax(reach, fmax(fabs(xi[a]), fabs(xj[a])));
        }
        if (step > 0) {
            double d[3], dv[3], vi[3], vj[3];
            for (int a = 0; a < 3; a++)
                d[a] = xi[a] - xj[a];
            if (sync) { /* the step's own velocities, W x (x - c) + U */
                rbl_cross(spin, ri_t, vi);
                rbl_cross(spin, rj_t, vj);
                for (int a = 0; a < 3; a++)
                    vi[a] += U[a], vj[a] += U[a];
            } else { /* the half step's: the chord over the step just made */
                for (int a = 0; a < 3; a++)
                    vi[a] = (xi[a] - was_i[a]) / dt, vj[a] = (xj[a] - was_j[a]) / dt;
            }
            for (int a = 0; a < 3; a++)
                dv[a] = vi[a] - vj[a];
            rbl_contact_geom geo;
            rbl_contact_out o;
            double l1, l2;
            const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            const double mass = RHO * 4.0 / 3.0 * M_PI * R * R * R;
            rbl_pair_frame(d, r2, ri, rj, dv, spin, spin, mass, mass, half, &geo, &l1, &l2);
            rbl_contact_force(&law, &pc, &geo, dt, h, &o);
            const double held = law.tangent == RBL_TANGENT_SEED
                                    ? h[0]
                                    : sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
            most = fmax(most, held);
        }
        memcpy(was_i, xi, sizeof xi), memcpy(was_j, xj, sizeof xj);
    }
    /* the chord against the arc, at rho = |d x u| (d turns about u: rho stays), and the
     * velocities' round-off: the chords' differences of coordinates up to `reach`, 4 eps
     * each, over dt, at each of the n steps */
    const double th = W * dt, rho = sqrt(d0[0] * d0[0] + d0[1] * d0[1]);
    const double chord = rho * W * fabs(2.0 * sin(0.5 * th) / th - cos(0.5 * th));
    *bound = n * dt * (sync ? 0.0 : chord) + n * 16.0 * DBL_EPSILON * reach;
    return most;
}

static void kernel(void)
{
    const double W = 50.0, dt = 1e-5;
    const int n = 3000;
    for (int k = 0; k < 3; k++) {
        double bound, sync_bound, old_bound;
        const double mid = kernel_turn(k, W, dt, n, 0, 0.5 * dt, &bound);
        const double sync = kernel_turn(k, W, dt, n, 1, 0.0, &sync_bound);
        const double old = kernel_turn(k, W, dt, n, 0, 0.0, &old_bound);
        printf("%s, a pair turning at %g rad/s for %d steps: the tangential displacement held "
               "%.3g m mid-step (bound %.3g), %.3g synchronized (round-off %.3g); read on the "
               "step's line %.3g\n", law_name(k), W, n, mid, bound, sync, sync_bound, old);
        ASSERT_TRUE(mid <= bound);
        ASSERT_TRUE(sync <= sync_bound);
        ASSERT_TRUE(old > 100.0 * bound); /* the step's line: the test can fail */
    }
}

/* The tangential springs' energy, 1/2 k_t |s|^2 summed over the touching pairs (as
 * rbl_contact_energy counts it), with sum k_t |s| and sum k_t (kts, kt). */
static double springs(const rbl_sim *sim, double *kts, double *kt_sum)
{
    const rbl_contact_law *law = &sim->cfg.law;
    const rbl_pair_list *p = &sim->pairs;
    const size_t width = rbl_hist_width(law);
    double e = 0.0;
    *kts = *kt_sum = 0.0;
    for (size_t q = 0; q < p->n; q++) {
        const double *h = p->hist + width * q;
        if (!p->touch[q])
            continue;
        const double kt = rbl_hist_holds_kt(law) ? h[3] : law->kt;
        const double s2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
        e += 0.5 * kt * s2, *kts += kt * sqrt(s2), *kt_sum += kt;
    }
    return e;
}

/* A bonded 2 x 2 x 2 cube of grains overlapping by 0.01 R (its inertia the same about every
 * axis: it turns steadily about any) spun at W about (1, 1, 0)/sqrt 2 without gravity, its
 * contacts' law k (law_of, friction 0.9), its bonds damped: once the start's ringing has died
 * (3000 steps, 0.17 s, about 80 of the bonds' damping times), its contacts' springs and its
 * bonds' loads hold still over 3000 steps more:
 * - the chord's residual (kernel_turn) moves a spring by at most D = N dt |d| W th^2 / 12
 *   (rho <= |d|), so its energy by k_t |s| D + k_t D^2 / 2; and the springs are kept in the
 *   plane across n by projection, which shortens each by at most a factor cos(W dt) a step:
 *   a share N (W dt)^2 of their energy;
 * - a contact's tangential force then moves by at most k_t D, what the projection took (a
 *   share N (W dt)^2 of its size over the N steps, reloaded as much) and its turn against the
 *   grains: the projection keeps it in the plane across n but does not turn it about n with
 *   the pair (as LIGGGHTS' and LAMMPS' histories), so it turns against them at W . n, by at
 *   most N W dt over the N steps. The bond beside it takes at most that as shear, F/A, and as
 *   bending, F R R / (pi R^4 / 4): the bonds' summed stresses move by at most
 *   5 / (pi R^2) sum k_t (D + (N (W dt)^2 + N W dt) |s|).
 * Returns the springs' energy after 3000 steps; *moved how far it and the loads moved, over
 * their bounds. */
static double turning_cube(int k, int integrator, double W, double moved[2])
{
    const double E = 1e7, m = RHO * 4.0 / 3.0 * M_PI * R * R * R;
    const double kn_area = E / (2.0 * R) * M_PI * R * R;
    rbl_sim_config cfg = dem_config(-0.02, 0.02, kn_area, 1e-3, 0.1 * sqrt(0.5 * m / kn_area));
    rbl_pair_coef pc;
    law_of(k, &cfg.law, &pc);
    if (k != 1)
        cfg.law.kn = kn_area, cfg.law.kt = 0.3 * kn_area;
    cfg.integrator = integrator;
    rbl_sim *sim = NULL;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_create(&sim, &cfg, &err));
    rbl_material mat = {.density = RHO, .youngs_modulus = 2e4, .poisson_ratio = 0.3,
                        .restitution = 0.5, .friction = 0.9};
    ASSERT_OK(rbl_sim_add_material(sim, &mat, NULL, &err));
    const double axis[3] = {W / sqrt(2.0), W / sqrt(2.0), 0.0}, a = R * (1.0 - 0.005);
    for (int c = 0; c < 8; c++) {
        rbl_grain g = {.pos = {a * (2 * (c & 1) - 1), a * (2 * (c >> 1 & 1) - 1),
                               a * (2 * (c >> 2) - 1)},
                       .radius = R};
        rbl_cross(axis, g.pos, g.vel);
        memcpy(g.omega, axis, sizeof axis);
        ASSERT_OK(rbl_sim_add_grain(sim, &g, NULL, &err));
    }
    rbl_bond_params p = {.youngs_modulus = E, .stiffness_ratio = 1.0, .radius_multiplier = 1.0,
                         .tensile_strength = INFINITY, .shear_strength = INFINITY,
                         .damping = 0.3, .gap = 1e-9};
    size_t made = 0;
    ASSERT_OK(rbl_sim_add_bonds(sim, &p, NULL, 0, &made, &err));
    ASSERT_EQ_INT(made, 12);
    const int n = 3000;
    double e[2], loads[2], kts = 0.0, kt = 0.0, kts_later, kt_later;
    for (int phase = 0; phase < 2; phase++) {
        dem_step(sim, (uint64_t)n);
        e[phase] = phase ? springs(sim, &kts_later, &kt_later) : springs(sim, &kts, &kt);
        loads[phase] = 0.0;
        for (size_t b = 0; b < made; b++) {
            rbl_bond_view v;
            ASSERT_OK(rbl_sim_bond(sim, b, &v));
            loads[phase] += fabs(v.sigma) + fabs(v.tau);
        }
    }
    ASSERT_EQ_INT(sim->pairs.touching, 12);
    const double dt = cfg.dt, th = W * dt, D = n * dt * 2.0 * a * W * th * th / 12.0;
    const double e_bound = kts * D + 0.5 * kt * D * D + e[0] * n * th * th;
    const double load_bound = 5.0 / (M_PI * R * R) * (kt * D + kts * n * (th * th + th));
    moved[0] = fabs(e[1] - e[0]) / e_bound;
    moved[1] = fabs(loads[1] - loads[0]) / load_bound;
    printf("%s, a bonded cube turning at %g rad/s (%s), 3000 steps on: the springs' energy "
           "%.6g -> %.6g J (bound on the move %.3g), the bonds' stresses summed %.8g -> %.8g Pa "
           "(bound %.3g)\n", law_name(k), W, integrator ? "synchronized" : "mid-step", e[0], e[1],
           e_bound, loads[0], loads[1], load_bound);
    rbl_sim_destroy(sim);
    return e[0];
}

/* The seed's D_H is a path length that any chatter lengthens (the cube's chatters under it:
 * its friction is a Coulomb slider whose direction follows v_t): its turn is the kernel's. */
static void cube(void)
{
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < 2; s++) {
            double moved[2];
            const double e = turning_cube(k, s, 50.0, moved);
            ASSERT_TRUE(e > 0.0); /* the centrifugal load's share */
            ASSERT_TRUE(moved[0] <= 1.0);
            ASSERT_TRUE(moved[1] <= 1.0);
        }
}

/* A grain in a V groove (two planes at 90 degrees, its floor along the axis of the turn, 4 R
 * from it) turning at W about z without gravity: pressed into the groove by its centrifugal
 * force, which the planes' normal forces hold alone, its springs stay unloaded. The wall's
 * point under the grain is read where the grain was at the half step: what is left is the
 * chord against the arc, |v| = W |x| (2 tan(th/2)/th - 1) ~ W |x| th^2 / 12 (under the
 * synchronized integrator the prediction v + a dt against the turn's, W |x| th^2 / 2), so
 * that after N steps each spring holds at most D = N dt |v|, the two together k_t D^2. Read
 * at the step's position, the grain saw the planes move by (dt/2) W x (W x x) against it,
 * along the groove's bisector, across each plane's normal: the springs slid at their caps.
 * Returns the springs' energy after 2 N steps over that bound. */
static double groove(int integrator, double W)
{
    const double m = RHO * 4.0 / 3.0 * M_PI * R * R * R, kn = 15.7, c = sqrt(0.5);
    rbl_sim_config cfg = dem_config(-0.02, 0.02, kn, 2.0 * 0.3 * sqrt(kn * m),
                                    0.1 * sqrt(0.5 * m / kn));
    cfg.law.tangent = RBL_TANGENT_SPRING, cfg.law.kt = 0.3 * kn, cfg.law.friction = 0.9;
    cfg.law.gamma_t = 2.0 * 0.3 * sqrt(0.3 * kn * m);
    cfg.integrator = integrator;
    rbl_sim *sim = dem_create(&cfg, RHO);
    rbl_error err = {0};
    const double x = 4.0 * R, push = m * W * W * x, xi = push * c / kn; /* each plane: push c */
    for (int k = 0; k < 2; k++) { /* n . p + offset = R - xi at the grain */
        const double s = k ? -c : c;
        rbl_wall wall = {.normal = {-c, s, 0.0}, .offset = R - xi + c * x};
        ASSERT_OK(rbl_sim_add_wall(sim, &wall, &err));
    }
    rbl_wall_motion turn = {.axis = {0.0, 0.0, 1.0}, .omega = W};
    for (int k = 0; k < 2; k++)
        ASSERT_OK(rbl_sim_set_wall_motion(sim, k, &turn, &err));
    rbl_grain g = {.pos = {x, 0.0, 0.0}, .vel = {0.0, W * x, 0.0}, .omega = {0.0, 0.0, W},
                   .radius = R};
    ASSERT_OK(rbl_sim_add_grain(sim, &g, NULL, &err));
    const int n = 6000;
    dem_step(sim, (uint64_t)n);
    const rbl_wall_list *w = &sim->wpairs;
    const size_t wide = rbl_wall_hist_width(&sim->cfg.law);
    double e = 0.0;
    ASSERT_EQ_INT(w->n, 2);
    for (size_t q = 0; q < w->n; q++) {
        const double *h = w->hist + wide * q;
        ASSERT_TRUE(w->touch[q]);
        e += 0.5 * cfg.law.kt * (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    }
    const double dt = cfg.dt, th = W * dt;
    const double left = integrator ? 0.5 * th * th : 2.0 * tan(0.5 * th) / th - 1.0;
    const double D = n * dt * W * (x + R) * left, bound = cfg.law.kt * D * D;
    printf("a grain in a V groove turning at %g rad/s (%s), %d steps: its springs hold %.3g J "
           "(bound %.3g)\n", W, integrator ? "synchronized" : "mid-step", n, e, bound);
    rbl_sim_destroy(sim);
    return e / bound;
}

static void walls(void)
{
    for (int s = 0; s < 2; s++)
        ASSERT_TRUE(groove(s, 50.0) <= 1.0);
}

int main(void)
{
    kernel();
    cube();
    walls();
    return 0;
}
