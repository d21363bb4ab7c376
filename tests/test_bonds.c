/* test_bonds.c — bonded particles (issue 72, docs/bonds.md): a cantilever of bonded spheres
 * against Euler-Bernoulli F L^3 / 3EI; a bonded chain's wave speed against d sqrt(k/m); a bond
 * pulled apart breaks at its tensile strength sigma_c pi R^2 and the energy balance closes
 * across the fracture; a bonded cluster gives the same bits on 1 and 2 threads, in a shuffled
 * memory order and restarted at an odd step; its fragments (and some by hand) are the same in
 * any order and hold every grain's mass and momentum. */
#include "bonds/bonds_internal.h"
#include "dem_test_util.h"

#define RHO 2500.0
#define R 1e-3

static rbl_bond_params params(double E, double damping)
{
    rbl_bond_params p = {.youngs_modulus = E, .stiffness_ratio = 1.0, .radius_multiplier = 1.0,
                         .tensile_strength = INFINITY, .shear_strength = INFINITY,
                         .damping = damping, .gap = 1e-9};
    return p;
}

static size_t index_of(const rbl_sim *sim, uint32_t id)
{
    for (size_t k = 0; k < sim->g.n; k++)
        if (sim->g.id[k] == id)
            return k;
    ASSERT_TRUE(0);
    return 0;
}

/* A cantilever of n + 1 spheres along x, the first held (a material a 1e12 times denser),
 * a force F along y on the last; relaxed by kinetic damping (all velocities zeroed whenever
 * the kinetic energy falls). Returns the tip's deflection. */
static double cantilever(int n, double E, double kappa, double F, double *discrete)
{
    const double kn_area = E / (2.0 * R) * M_PI * R * R;
    const double m = RHO * 4.0 / 3.0 * M_PI * R * R * R;
    rbl_sim_config cfg = dem_config(-0.01, 0.05, kn_area, 0.0, 0.1 * sqrt(0.5 * m / kn_area));
    rbl_sim *sim = dem_create(&cfg, RHO);
    rbl_error err = {0};
    rbl_material heavy = {.density = 1e12 * RHO, .youngs_modulus = 1e7, .poisson_ratio = 0.3,
                          .restitution = 0.5, .friction = 0.5};
    ASSERT_OK(rbl_sim_add_material(sim, &heavy, NULL, &err));
    uint32_t tip = 0;
    for (int k = 0; k <= n; k++) {
        rbl_grain g = {.pos = {2.0 * R * k, 0.0, 0.0}, .radius = R, .material = k == 0};
        ASSERT_OK(rbl_sim_add_grain(sim, &g, &tip, &err));
    }
    rbl_bond_params p = params(E, 0.0);
    p.stiffness_ratio = kappa;
    size_t made = 0;
    ASSERT_OK(rbl_sim_add_bonds(sim, &p, NULL, 0, &made, &err));
    ASSERT_EQ_INT(made, n);
    ASSERT_OK(rbl_sim_prepare(sim, &err));
    double *fext = rbl_sim_external_forces(sim, &err);
    ASSERT_TRUE(fext != NULL);
    fext[3 * index_of(sim, tip) + 1] = F;
    double last = 0.0, y = 0.0, y_was = 1.0;
    for (int chunk = 0; chunk < 40000; chunk++) {
        dem_step(sim, 5);
        rbl_grains *g = &sim->g;
        double ke = 0.0;
        for (size_t k = 0; k < 3 * g->n; k++)
            ke += g->mass[k / 3] * g->vel[k] * g->vel[k];
        if (ke < last) {
            memset(g->vel, 0, 3 * g->n * sizeof *g->vel);
            memset(g->omega, 0, 3 * g->n * sizeof *g->omega);
            ke = 0.0;
        }
        last = ke;
        if (chunk % 500 == 499) {
            y = g->pos[3 * index_of(sim, tip) + 1];
            if (fabs(y - y_was) < 1e-6 * fabs(y))
                break;
            y_was = y;
        }
    }
    /* the discrete chain's own closed form: joints at x_k = (2k - 1) R turned by the moment
       F (L - x_k) over k_n I, and each joint's shear spring k_s A giving F / (k_s A) */
    const double L = 2.0 * R * n, I = M_PI * R * R * R * R / 4.0, kn = E / (2.0 * R);
    double d = 0.0;
    for (int k = 1; k <= n; k++) {
        const double arm = L - (2.0 * k - 1.0) * R;
        d += F * arm * arm / (kn * I) + F / (kn / kappa * M_PI * R * R);
    }
    *discrete = d;
    rbl_sim_destroy(sim);
    return y;
}

static void beam(void)
{
    const int n = 10;
    const double E = 1e6, L = 2.0 * R * n, I = M_PI * R * R * R * R / 4.0;
    const double F = 3.0 * E * I * 0.01 * L / (L * L * L); /* deflection 1 % of L */
    double discrete;
    const double y = cantilever(n, E, 1.0, F, &discrete);
    const double eb = F * L * L * L / (3.0 * E * I);
    printf("cantilever of %d bonded spheres: tip %.6e m, Euler-Bernoulli %.6e (%+.2f %%), the "
           "discrete chain's %.6e (%+.3f %%)\n", n, y, eb, 100.0 * (y / eb - 1.0), discrete,
           100.0 * (y / discrete - 1.0));
    ASSERT_NEAR(y, eb, 0.02 * eb);
    ASSERT_NEAR(y, discrete, 0.005 * discrete);
}

/* A free chain of n bonded spheres, d = 2.002 R apart (a gap the motion never closes, so the
 * contact law stays out), set moving in its lowest longitudinal mode u_j ~ cos(pi (j + 1/2) / n):
 * its period gives the standing wave's phase speed omega L / pi, L = n d, against the long-wave
 * speed d sqrt(k/m) of a chain of springs k = k_n A (the discrete chain's own omega_1 =
 * 2 sqrt(k/m) sin(pi / 2n) is 0.04 % below the long-wave limit at n = 40). */
static void wave(void)
{
    const int n = 40;
    const double E = 1e7, d = 2.002 * R, m = RHO * 4.0 / 3.0 * M_PI * R * R * R;
    const double k = E / (2.0 * R) * M_PI * R * R;
    rbl_sim_config cfg = dem_config(-0.01, 0.2, k, 0.0, 0.1 * sqrt(0.5 * m / k));
    rbl_sim *sim = dem_create(&cfg, RHO);
    rbl_error err = {0};
    const double w = 2.0 * sqrt(k / m) * sin(M_PI / (2.0 * n)), amplitude = 1e-5 * R;
    uint32_t first = 0;
    for (int j = 0; j < n; j++) {
        const double v = amplitude * w * cos(M_PI * (j + 0.5) / n);
        const uint32_t id = dem_grain(sim, d * j, 0.0, 0.0, v, 0.0, 0.0, R);
        if (j == 0)
            first = id;
    }
    rbl_bond_params p = params(E, 0.0);
    p.gap = 0.003 * R;
    size_t made = 0;
    ASSERT_OK(rbl_sim_add_bonds(sim, &p, NULL, 0, &made, &err));
    ASSERT_EQ_INT(made, n - 1);
    /* the velocity of the first sphere changes sign every half period */
    double was = 0.0, t_first = -1.0, t_last = -1.0;
    int crossings = 0;
    for (int s = 0; s < 6000; s++) {
        dem_step(sim, 1);
        const double v = sim->g.vel[3 * index_of(sim, first)];
        if (s > 0 && (v > 0.0) != (was > 0.0)) { /* crossed between the last step and this */
            const double t = sim->time - cfg.dt * v / (v - was);
            if (t_first < 0.0)
                t_first = t;
            else
                t_last = t, crossings++;
        }
        was = v;
    }
    const double omega = M_PI * crossings / (t_last - t_first);
    const double c = omega * n * d / M_PI, c0 = d * sqrt(k / m);
    printf("bonded chain of %d: the lowest mode's phase speed %.6g m/s, d sqrt(k/m) = %.6g "
           "(%+.3f %%; the discrete chain's own %+.3f %%), %d half periods\n", n, c, c0,
           100.0 * (c / c0 - 1.0), 100.0 * (w * n * d / M_PI / c0 - 1.0), crossings);
    ASSERT_TRUE(crossings >= 6);
    ASSERT_NEAR(c, c0, 0.02 * c0);
    ASSERT_NEAR(c, w * n * d / M_PI, 2e-3 * c0); /* and the discrete chain's, closely */
    rbl_sim_destroy(sim);
}

/* Two bonded spheres pulled apart by +-F: the bond holds below sigma_c pi R^2 and breaks above
 * it (critical damping: no overshoot); the balance holds across the fracture. */
static int pulled(double ratio, double *balance, double *scale)
{
    const double E = 1e7, m = RHO * 4.0 / 3.0 * M_PI * R * R * R;
    const double kn_area = E / (2.0 * R) * M_PI * R * R;
    /* (critical damping takes 0.083 / omega at most, rbl_bond_dt_limit; omega = 1.12 sqrt(k/m*)
       for the twist's spring here) */
    rbl_sim_config cfg = dem_config(-0.01, 0.01, kn_area, 0.0, 0.07 * sqrt(0.5 * m / kn_area));
    rbl_sim *sim = dem_create(&cfg, RHO);
    rbl_error err = {0};
    uint32_t id[2];
    for (int k = 0; k < 2; k++) {
        rbl_grain g = {.pos = {2.0 * R * k, 0.0, 0.0}, .radius = R};
        ASSERT_OK(rbl_sim_add_grain(sim, &g, id + k, &err));
    }
    rbl_bond_params p = params(E, 1.0);
    p.tensile_strength = 1e5;
    ASSERT_OK(rbl_sim_add_bonds(sim, &p, NULL, 0, NULL, &err));
    ASSERT_OK(rbl_sim_prepare(sim, &err));
    rbl_thermo t0, t1;
    rbl_sim_thermo(sim, &t0);
    const double F = ratio * p.tensile_strength * M_PI * R * R;
    double *fext = rbl_sim_external_forces(sim, &err);
    fext[3 * index_of(sim, id[0])] = -F, fext[3 * index_of(sim, id[1])] = F;
    size_t intact, broken = 0;
    for (int k = 0; k < 200 && !broken; k++) { /* 2000 steps, or 50 past the fracture */
        dem_step(sim, 10);
        rbl_sim_bond_counts(sim, &intact, &broken);
    }
    if (broken)
        dem_step(sim, 50);
    rbl_sim_thermo(sim, &t1);
    rbl_sim_bond_counts(sim, &intact, &broken);
    ASSERT_EQ_INT(intact + broken, 1);
    rbl_bond_view v;
    ASSERT_OK(rbl_sim_bond(sim, 0, &v));
    if (v.intact) /* held: at rest, its normal force the pull */
        ASSERT_NEAR(v.normal_force, F, 1e-6 * F);
    *balance = t1.balance - t0.balance;
    *scale = t1.put_in[RBL_IN_EXTERNAL];
    rbl_sim_destroy(sim);
    return (int)broken;
}

static void breakage(void)
{
    double below, above, scale_below, scale_above;
    ASSERT_EQ_INT(pulled(0.99, &below, &scale_below), 0);
    ASSERT_EQ_INT(pulled(1.01, &above, &scale_above), 1);
    printf("a bond pulled at 0.99 sigma_c A holds, at 1.01 breaks; balance moved by %.2e J "
           "(put in %.2e J) and %.2e J (put in %.2e J)\n", below, scale_below, above, scale_above);
    /* linear springs and dashpots booked as the kicks give them: round-off */
    ASSERT_TRUE(fabs(below) < 1e-12 * scale_below);
    ASSERT_TRUE(fabs(above) < 1e-12 * scale_above);
}

/* A bonded 2 x 2 x 2 cube (its inertia the same about every axis: it turns steadily about
 * any) spun about (1, 1, 0)/sqrt 2, with no gravity and damped bonds: once the start's
 * ringing has died, each bond holds the centrifugal load of steady rotation, the same at
 * every later step. Under the mid-step integrator the relative motion must be read at the
 * half step, where the velocities are: read with the step's axis, a turn at W made a shear
 * velocity of order W^2 |d| dt, and the bonds' loads grew without end. */
/* A bonded cube of 8 grains turning steadily about (1, 1, 0) at 200 rad/s, bonds of damping beta;
 * dt: the step, or (< 0) -dt times the bonds' own limit (rbl_bond_dt_limit). Returns the bonds'
 * stresses summed after 2 x steps (*early: after steps); -1 where the bonds were refused. */
static double turning_cube_loads(int integrator, double beta, double dt, int steps, double *early)
{
    const double E = 1e7, m = RHO * 4.0 / 3.0 * M_PI * R * R * R;
    const double kn_area = E / (2.0 * R) * M_PI * R * R;
    rbl_sim_config cfg = dem_config(-0.02, 0.02, kn_area, 0.0, dt > 0.0 ? dt : 1e-9);
    cfg.integrator = integrator;
    rbl_sim *sim = dem_create(&cfg, RHO);
    rbl_error err = {0};
    const double w = 200.0, axis[3] = {w / sqrt(2.0), w / sqrt(2.0), 0.0};
    for (int k = 0; k < 8; k++) {
        rbl_grain g = {.pos = {R * (2 * (k & 1) - 1), R * (2 * (k >> 1 & 1) - 1),
                               R * (2 * (k >> 2) - 1)},
                       .radius = R};
        g.vel[0] = axis[1] * g.pos[2] - axis[2] * g.pos[1];
        g.vel[1] = axis[2] * g.pos[0] - axis[0] * g.pos[2];
        g.vel[2] = axis[0] * g.pos[1] - axis[1] * g.pos[0];
        memcpy(g.omega, axis, sizeof axis);
        ASSERT_OK(rbl_sim_add_grain(sim, &g, NULL, &err));
    }
    rbl_bond_params p = params(E, beta);
    size_t made = 0;
    if (dt < 0.0) { /* the bonds' fastest spring (kn = ks here; the twist's against I*) */
        rbl_bond_params stiff = p;
        ASSERT_OK(rbl_sim_add_bonds(sim, &stiff, NULL, 0, &made, &err));
        const rbl_bond *b = sim->bonds->bond;
        const double inertia = 0.4 * m * R * R;
        const double w2 = fmax(fmax(b->kn, b->ks) / (0.5 * m), fmax(b->kt, b->kb) / (0.5 * inertia));
        rbl_sim_destroy(sim);
        const double step = -dt * rbl_bond_dt_limit(sqrt(w2), beta, integrator);
        return turning_cube_loads(integrator, beta, step, steps, early);
    }
    const int rc = rbl_sim_add_bonds(sim, &p, NULL, 0, &made, &err);
    if (rc != RBL_OK) {
        ASSERT_EQ_INT(rc, RBL_ERANGE);
        ASSERT_TRUE(strstr(err.message, "too long for the bond") != NULL);
        rbl_sim_destroy(sim);
        return -1.0;
    }
    ASSERT_EQ_INT(made, 12);
    double loads[2];
    for (int phase = 0; phase < 2; phase++) {
        dem_step(sim, steps);
        loads[phase] = 0.0;
        for (size_t k = 0; k < made; k++) {
            rbl_bond_view v;
            ASSERT_OK(rbl_sim_bond(sim, k, &v));
            loads[phase] += fabs(v.sigma) + fabs(v.tau);
        }
    }
    rbl_sim_destroy(sim);
    *early = loads[0];
    return loads[1];
}

static void rigid_turn(void)
{
    const double E = 1e7, m = RHO * 4.0 / 3.0 * M_PI * R * R * R;
    const double kn_area = E / (2.0 * R) * M_PI * R * R;
    for (int k = 0; k < 2; k++) {
        const int integrator = k ? RBL_INTEGRATOR_SYNCHRONIZED : RBL_INTEGRATOR_MIDSTEP;
        double early, late = turning_cube_loads(integrator, 0.3, 0.1 * sqrt(0.5 * m / kn_area),
                                                3000, &early);
        printf("a bonded cube turning steadily (%s): the bonds' stresses summed %.6g Pa after "
               "3000 steps, %.6g Pa after 6000\n", k ? "synchronized" : "mid-step", early,
               late);
        ASSERT_TRUE(early > 0.0); /* the centrifugal load */
        ASSERT_NEAR(late, early, 1e-6 * early);
    }
}

/* The time step's bound with damping (docs/bonds.md "Time step"): the turning cube with bonds
 * of 0.7 and 1 of critical damping, under both integrators, runs steadily at 0.99 of the bound
 * and is refused at 1.01. (Under the old bound, 0.2 sqrt(m* / k) whatever the damping, the
 * synchronized integrator at 0.7 blew up at 0.56 of it, the mid-step one at 1 at 0.75.) */
static void damped_turn(void)
{
    const double betas[] = {0.7, 1.0};
    for (int k = 0; k < 2; k++)
        for (int q = 0; q < 2; q++) {
            const int integrator = k ? RBL_INTEGRATOR_SYNCHRONIZED : RBL_INTEGRATOR_MIDSTEP;
            double early = 0.0, late = turning_cube_loads(integrator, betas[q], -0.99, 1000, &early);
            ASSERT_TRUE(early > 0.0);
            ASSERT_NEAR(late, early, 1e-6 * early);
            ASSERT_TRUE(turning_cube_loads(integrator, betas[q], -1.01, 1000, &early) == -1.0);
            printf("the turning cube, damping %.1f (%s): steady at 0.99 of the bound (%.6g and "
                   "%.6g Pa, 1000 and 2000 steps), refused at 1.01\n", betas[q], k ? "synchronized" : "mid-step",
                   early, late);
        }
}

/* A 3 x 3 x 3 bonded block thrown at a floor of grains of its own, spinning; the bonds break
 * (low strengths, spread). */
static rbl_sim *block(int threads, uint64_t shuffle)
{
    const double E = 1e7, m = RHO * 4.0 / 3.0 * M_PI * R * R * R;
    const double kn_area = E / (2.0 * R) * M_PI * R * R;
    rbl_sim_config cfg = dem_config(-0.02, 0.02, kn_area, 0.0, 0.1 * sqrt(0.5 * m / kn_area));
    cfg.threads = threads;
    rbl_sim *sim = dem_create(&cfg, RHO);
    rbl_sim_set_test_shuffle(sim, shuffle);
    uint64_t seed = 7;
    uint32_t ids[27];
    int c = 0;
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 3; x++) {
                double vx = 0.3 * (rand01(&seed) - 0.5), vy = 0.3 * (rand01(&seed) - 0.5);
                ids[c++] = dem_grain(sim, 2.0 * R * x, 2.0 * R * y, 2.0 * R * z, vx, vy, -1.0, R);
            }
    for (int k = 0; k < 40; k++) /* a loose floor */
        dem_grain(sim, -0.006 + 2.2 * R * (k % 8), -0.004 + 2.2 * R * (k / 8), -0.004, 0.0, 0.0,
                  0.0, R);
    rbl_bond_params p = params(E, 0.05);
    p.tensile_strength = 2e4, p.shear_strength = 2e4;
    p.spread = RBL_BOND_SPREAD_WEIBULL, p.spread_value = 3.0, p.seed = 11;
    rbl_error err = {0};
    size_t made = 0;
    ASSERT_OK(rbl_sim_add_bonds(sim, &p, ids, 27, &made, &err));
    ASSERT_EQ_INT(made, 54);
    return sim;
}

static void invariance(void)
{
    rbl_sim *one = block(1, 0), *two = block(2, 0), *mixed = block(2, 99);
    for (int k = 0; k < 4; k++) {
        dem_step(one, 1000), dem_step(two, 1000), dem_step(mixed, 1000);
        dem_assert_same_state(one, two);
        dem_assert_same_state(one, mixed);
    }
    size_t intact, broken;
    rbl_sim_bond_counts(one, &intact, &broken);
    printf("bonded block: %zu intact, %zu broken after 4000 steps: the same bits on 1 and 2 "
           "threads and shuffled\n", intact, broken);
    ASSERT_TRUE(broken > 0 && intact > 0); /* it did break, not all */
    /* its fragments: the same bits shuffled; every grain in one, the mass and momentum theirs */
    rbl_fragment *f = NULL, *g = NULL;
    size_t nf = 0, ng = 0, grains = 0;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_fragments(one, &f, &nf, &err));
    ASSERT_OK(rbl_sim_fragments(mixed, &g, &ng, &err));
    ASSERT_EQ_INT(nf, ng);
    ASSERT_TRUE(memcmp(f, g, nf * sizeof *f) == 0);
    double mass = 0.0, p[3] = {0.0, 0.0, 0.0}, mass_g = 0.0, p_g[3] = {0.0, 0.0, 0.0};
    size_t big = 0;
    for (size_t q = 0; q < nf; q++) {
        grains += f[q].grains, mass += f[q].mass;
        big += f[q].grains > 1;
        ASSERT_TRUE(q == 0 || f[q].label > f[q - 1].label);
        for (int a = 0; a < 3; a++)
            p[a] += f[q].mass * f[q].velocity[a];
    }
    for (size_t k = 0; k < one->g.n; k++) {
        mass_g += one->g.mass[k];
        for (int a = 0; a < 3; a++)
            p_g[a] += one->g.mass[k] * one->g.vel[3 * k + a];
    }
    ASSERT_EQ_INT(grains, one->g.n);
    ASSERT_TRUE(fabs(mass - mass_g) < 1e-12 * mass_g);
    for (int a = 0; a < 3; a++)
        ASSERT_TRUE(fabs(p[a] - p_g[a]) < 1e-12 * mass_g);
    printf("its fragments: %zu (%zu of several grains), the same bits shuffled, every grain, "
           "the mass and momentum in them\n", nf, big);
    ASSERT_TRUE(big >= 1 && nf > 40); /* the floor's grains alone, the block in pieces */
    rbl_fragments_free(f), rbl_fragments_free(g);
    rbl_sim_destroy(one), rbl_sim_destroy(two), rbl_sim_destroy(mixed);
}

/* A restart at an odd step (751, while bonds break), on another thread count: bit for bit,
 * the bonds' counts and each bond's loads too. */
static void restart(void)
{
    rbl_sim *one = block(1, 0), *two = block(2, 0);
    dem_assert_restart_same(one, &two);
    size_t i1, b1, i2, b2;
    rbl_sim_bond_counts(one, &i1, &b1);
    rbl_sim_bond_counts(two, &i2, &b2);
    ASSERT_EQ_INT(i1, i2);
    ASSERT_EQ_INT(b1, b2);
    for (size_t k = 0; k < i1 + b1; k++) {
        rbl_bond_view u, v;
        ASSERT_OK(rbl_sim_bond(one, k, &u));
        ASSERT_OK(rbl_sim_bond(two, k, &v));
        ASSERT_TRUE(memcmp(&u, &v, sizeof u) == 0);
    }
    rbl_thermo t1, t2; /* the energy account too: the dashpots' work booked, the breaks' */
    rbl_sim_thermo(one, &t1);
    rbl_sim_thermo(two, &t2);
    ASSERT_TRUE(memcmp(t1.dissipated, t2.dissipated, sizeof t1.dissipated) == 0);
    ASSERT_TRUE(memcmp(&t1.elastic, &t2.elastic, sizeof t1.elastic) == 0);
    ASSERT_TRUE(memcmp(&t1.balance, &t2.balance, sizeof t1.balance) == 0);
    printf("bonded block restarted at step 751 on 2 threads: the same bits at 1500 (%zu of %zu "
           "bonds broken)\n", b1, i1 + b1);
    ASSERT_TRUE(b1 > 0);
    rbl_sim_destroy(one), rbl_sim_destroy(two);
}

static void refusals(void)
{
    rbl_sim_config cfg = dem_config(-0.01, 0.01, 1e3, 0.0, 1e-6);
    rbl_sim *sim = dem_create(&cfg, RHO);
    rbl_error err = {0};
    dem_grain(sim, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, R);
    dem_grain(sim, 2.0 * R, 0.0, 0.0, 0.0, 0.0, 0.0, R);
    rbl_bond_params p = params(1e6, 0.0);
    p.tensile_strength = -1.0;
    ASSERT_EQ_INT(rbl_sim_add_bonds(sim, &p, NULL, 0, NULL, &err), RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "tensile_strength") != NULL);
    p = params(1e6, 0.0);
    p.radius_multiplier = 0.0;
    ASSERT_EQ_INT(rbl_sim_add_bonds(sim, &p, NULL, 0, NULL, &err), RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "lambda") != NULL);
    p = params(1e6, 0.0);
    p.gap = 1.0;
    ASSERT_EQ_INT(rbl_sim_add_bonds(sim, &p, NULL, 0, NULL, &err), RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "skin") != NULL);
    p = params(1e14, 0.0);
    ASSERT_EQ_INT(rbl_sim_add_bonds(sim, &p, NULL, 0, NULL, &err), RBL_ERANGE);
    ASSERT_TRUE(strstr(err.message, "time step") != NULL);
    rbl_sim_destroy(sim);
}

/* Fragments by hand: a chain of three across a periodic side (box 1 m along x), a grain alone,
 * a clump of three; given in any order, the same fragments, labelled by least ids, their sums
 * the closed forms; a bond to a grain not given is refused. */
static void fragments_by_hand(void)
{
    const rbl_fragment_grain given[] = {
        {.id = 5, .join = 5, .mass = 2.0, .radius = 1.0, .pos = {0.05, 0.0, 0.0}, .vel = {0, 1, 0}},
        {.id = 7, .join = 7, .mass = 1.5, .radius = 0.5, .pos = {0.5, 0.5, 0.5}, .vel = {1, 1, 1}},
        {.id = 9, .join = 9, .mass = 3.0, .radius = 2.0, .pos = {0.15, 0.0, 0.0}, .vel = {0, 0, 1}},
        {.id = 4, .join = 3, .mass = 1.0, .radius = 1.0, .pos = {0.3, 0.3, 0.3}, .vel = {2, 0, 0}},
        {.id = 2, .join = 2, .mass = 1.0, .radius = 1.0, .pos = {0.95, 0.0, 0.0}, .vel = {1, 0, 0}},
        {.id = 11, .join = 3, .mass = 1.0, .radius = 1.0, .pos = {0.3, 0.4, 0.3}, .vel = {2, 0, 0}},
        {.id = 3, .join = 3, .mass = 1.0, .radius = 1.0, .pos = {0.3, 0.2, 0.3}, .vel = {2, 0, 0}}};
    const uint32_t pairs[] = {5, 9, 2, 5};
    const double box[3] = {1.0, 0.0, 0.0};
    rbl_fragment *first = NULL;
    size_t n_first = 0;
    uint64_t seed = 3;
    for (int round = 0; round < 4; round++) {
        rbl_fragment_grain g[7];
        memcpy(g, given, sizeof g);
        for (int k = 6; k > 0 && round; k--) { /* another order each round */
            const int j = (int)(rand01(&seed) * (k + 1));
            const rbl_fragment_grain t = g[k];
            g[k] = g[j], g[j] = t;
        }
        rbl_fragment *f = NULL;
        size_t n = 0;
        rbl_error err = {0};
        ASSERT_OK(rbl_fragments_find(g, 7, pairs, 2, box, &f, &n, &err));
        ASSERT_EQ_INT(n, 3);
        ASSERT_EQ_INT(f[0].label, 2);
        ASSERT_EQ_INT(f[0].grains, 3);
        ASSERT_EQ_INT(f[1].label, 3);
        ASSERT_EQ_INT(f[1].grains, 3);
        ASSERT_EQ_INT(f[2].label, 7);
        ASSERT_EQ_INT(f[2].grains, 1);
        /* the chain from grain 2 at 0.95: 5 at 1.05, 9 at 1.15 */
        ASSERT_TRUE(fabs(f[0].mass - 6.0) < 1e-15);
        ASSERT_TRUE(fabs(f[0].centre[0] - (0.95 + 2.0 * 1.05 + 3.0 * 1.15) / 6.0) < 1e-15);
        ASSERT_TRUE(fabs(f[0].diameter - 2.0 * cbrt(10.0)) < 1e-14);
        ASSERT_TRUE(fabs(f[0].velocity[0] - 1.0 / 6.0) < 1e-15 &&
                    fabs(f[0].velocity[1] - 2.0 / 6.0) < 1e-15 &&
                    fabs(f[0].velocity[2] - 3.0 / 6.0) < 1e-15);
        ASSERT_TRUE(fabs(f[1].centre[1] - 0.3) < 1e-15 && fabs(f[1].velocity[0] - 2.0) < 1e-15);
        ASSERT_TRUE(fabs(f[2].diameter - 1.0) < 1e-15 && f[2].centre[2] == 0.5);
        if (!first)
            first = f, n_first = n;
        else
            ASSERT_TRUE(n == n_first && memcmp(f, first, n * sizeof *f) == 0);
        if (f != first)
            free(f);
    }
    rbl_fragments_free(first);
    rbl_fragment_grain g[7];
    memcpy(g, given, sizeof g);
    const uint32_t stray[] = {2, 6};
    rbl_fragment *f = NULL;
    size_t n = 0;
    rbl_error err = {0};
    ASSERT_EQ_INT(rbl_fragments_find(g, 7, stray, 1, box, &f, &n, &err), RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "grains 2 and 6") != NULL && f == NULL);
    printf("fragments by hand: 3 in any of 4 orders, labelled 2, 3, 7; their sums the closed "
           "forms; a bond to a grain not given refused\n");
}

int main(void)
{
    rigid_turn();
    damped_turn();
    fragments_by_hand();
    refusals();
    breakage();
    beam();
    wave();
    invariance();
    restart();
    return 0;
}
