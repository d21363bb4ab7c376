/* test_dem_twisting.c — the twisting sub-model (Marshall 2009, LAMMPS' "twisting marshall"),
 * the one added through the law's table (issue 71: src/dem/law_table.h), against closed forms
 * written out here. With the tangential spring's k_t, gamma_t and mu, and the contact radius
 * a = sqrt(R* xi): a twist spring k = k_t a^2 / 2, a dashpot gamma_t a^2 / 2, a slider at
 * 2/3 a mu F_n.
 * - A sphere resting on a floor (F_n = m g), spun about the normal fast enough to slide: the
 *   torque 2/3 a mu m g decelerates its spin at alpha = M / I, I = 2/5 m R^2; measured between
 *   two times after the spring reached the cap, 1e-6 relative (the load is m g to round-off).
 * - Spun slowly, it sticks and the spring swings it: the period 2 pi sqrt(I / k), 1e-6 (the
 *   step's phase error is (omega dt)^2 / 24 ~ 6e-10; the crossings' interpolation less).
 * - Both keep the energy account's balance to round-off (the twist's spring, slider and
 *   dashpot booked: rbl_twisting_torque), 1e-9 of the energy scale.
 * - Grains colliding with each other in open space: the total angular momentum (orbital and
 *   spin) holds to round-off with twisting (each pair's twist torques equal and opposite),
 *   and the spins differ from the run without it (the torques act).
 * - The same bits on 1 and 2 threads through a checkpoint at an odd step (a pile).
 * - Refused: marshall without the tangential spring, and a twisting model the table lacks. */
#include "dem_test_util.h"

static const double R = 0.001, RHO = 2500.0, G = 9.81, KN = 2000.0, MU = 0.5;

static double mass(void) { return RHO * 4.0 / 3.0 * M_PI * R * R * R; }

/* A sphere at rest on a floor at its equilibrium overlap, spinning about z at w0. */
static rbl_sim *spinning_on_floor(double w0, double gamma_t)
{
    rbl_sim_config cfg = dem_config(-0.1, 0.1, KN, 0.0, 2e-6);
    cfg.gravity[2] = -G;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = MU;
    cfg.law.gamma_t = gamma_t;
    cfg.law.twisting = RBL_TWISTING_MARSHALL;
    rbl_sim *sim = dem_create(&cfg, RHO);
    rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0.0};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    rbl_grain g;
    memset(&g, 0, sizeof g);
    g.pos[2] = R - mass() * G / KN;
    g.omega[2] = w0;
    g.radius = R;
    ASSERT_OK(rbl_sim_add_grain(sim, &g, NULL, &err));
    ASSERT_OK(rbl_sim_prepare(sim, &err));
    return sim;
}

static double spin_z(const rbl_sim *sim)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    return v.omega[2];
}

/* the closed form's twist spring and cap (kt = 2/7 kn, the law's default) */
static void twist_constants(double *k, double *cap, double *inertia)
{
    const double xi = mass() * G / KN, a = sqrt(R * xi), kt = 2.0 / 7.0 * KN;
    *k = 0.5 * kt * a * a;
    *cap = 2.0 / 3.0 * a * MU * mass() * G;
    *inertia = 0.4 * mass() * R * R;
}

static void sliding_twist_decelerates(void)
{
    double k, cap, inertia;
    twist_constants(&k, &cap, &inertia);
    const double w0 = 5.0, alpha = cap / inertia, dt = 2e-6;
    rbl_sim *sim = spinning_on_floor(w0, 0.0);
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    const double b0 = t.balance, scale = t.rotational;
    /* the spring reaches the cap after about cap / (k w0) = 3.3 ms: measure from 10 ms on */
    dem_step(sim, 5000);
    const double w1 = spin_z(sim);
    dem_step(sim, 20000);
    const double w2 = spin_z(sim);
    rbl_sim_thermo(sim, &t);
    const double measured = (w1 - w2) / (20000 * dt), off = fabs(t.balance - b0);
    printf("sliding twist: deceleration %.9g rad/s^2 against 2/3 a mu m g / I = %.9g (%.2g); "
           "friction dissipated %.4g J of %.4g J; balance off by %.2g of the scale\n",
           measured, alpha, measured / alpha - 1.0, t.dissipated[RBL_LOSS_FRICTION], scale,
           off / scale);
    ASSERT_NEAR(measured, alpha, 1e-6 * alpha);
    ASSERT_TRUE(t.dissipated[RBL_LOSS_FRICTION] > 0.1 * scale);
    ASSERT_TRUE(off < 1e-9 * scale);
    /* it comes to rest (then sticks: the spring holds at most the cap, so it cannot start
       turning the other way for long) */
    dem_step(sim, (uint64_t)(1.2 * w0 / alpha / dt) - 25000);
    ASSERT_TRUE(fabs(spin_z(sim)) < 0.2 * w0);
    rbl_sim_destroy(sim);
}

static void sticking_twist_swings(void)
{
    double k, cap, inertia;
    twist_constants(&k, &cap, &inertia);
    const double omega = sqrt(k / inertia), period = 2.0 * M_PI / omega, dt = 2e-6;
    const double w0 = 0.3 * cap / k * omega; /* the spring's largest torque: 0.3 of the cap */
    rbl_sim *sim = spinning_on_floor(w0, 0.0);
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    const double b0 = t.balance, scale = t.rotational;
    double last = spin_z(sim), crossings[3];
    int n = 0;
    double worst = 0.0;
    for (uint64_t s = 1; n < 3 && s < (uint64_t)(2.0 * period / dt); s++) {
        dem_step(sim, 1);
        const double w = spin_z(sim);
        if ((last > 0.0) != (w > 0.0)) /* linear between the steps */
            crossings[n++] = ((double)s - 1.0 + last / (last - w)) * dt;
        last = w;
        if (s % 1000 == 0) {
            rbl_sim_thermo(sim, &t);
            worst = fmax(worst, fabs(t.balance - b0));
        }
    }
    ASSERT_EQ_INT(n, 3);
    const double measured = crossings[2] - crossings[0];
    rbl_sim_thermo(sim, &t);
    printf("sticking twist: period %.6g s against 2 pi sqrt(I / k) = %.6g s (%.2g); slid %.2g J; "
           "balance off by %.2g of the scale\n",
           measured, period, measured / period - 1.0, t.dissipated[RBL_LOSS_FRICTION],
           worst / scale);
    ASSERT_NEAR(measured, period, 1e-6 * period);
    ASSERT_TRUE(t.dissipated[RBL_LOSS_FRICTION] < 1e-9 * scale); /* it never slid */
    ASSERT_TRUE(worst < 1e-9 * scale);
    rbl_sim_destroy(sim);
}

/* 27 spinning grains thrown together in open space (sjkr cohesion holds them in contact),
 * with or without twisting; returns the largest drift of the total angular momentum's
 * components over the run, relative to its size, and the spins in id order. */
static double open_cluster(int twisting, double *spins)
{
    const double r = 0.001, m = mass(), kn = 2000.0;
    rbl_sim_config cfg = dem_config(-0.05, 0.05, kn, rbl_gamma_from_restitution(0.3, 0.5 * m, kn),
                                    2e-6);
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.4;
    cfg.law.gamma_t = 0.2 * cfg.law.gamma_n;
    cfg.law.cohesion = RBL_COHESION_SJKR;
    cfg.law.cohesion_energy_density = 1e5;
    cfg.law.twisting = twisting ? RBL_TWISTING_MARSHALL : RBL_TWISTING_NONE;
    rbl_sim *sim = dem_create(&cfg, RHO);
    uint64_t seed = 11;
    rbl_error err = {0};
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 3; x++) {
                rbl_grain g;
                memset(&g, 0, sizeof g);
                g.pos[0] = (x - 1) * 2.1 * r, g.pos[1] = (y - 1) * 2.1 * r;
                g.pos[2] = (z - 1) * 2.1 * r;
                for (int a = 0; a < 3; a++) {
                    g.vel[a] = -0.02 * g.pos[a] / r + 0.01 * (rand01(&seed) - 0.5);
                    g.omega[a] = 200.0 * (rand01(&seed) - 0.5);
                }
                g.radius = r * (0.9 + 0.1 * rand01(&seed));
                ASSERT_OK(rbl_sim_add_grain(sim, &g, NULL, &err));
            }
    double L0[3] = {0}, worst = 0.0, size = 0.0; /* size: the sum of the terms' magnitudes */
    for (int s = 0; s <= 20; s++) {
        if (s)
            dem_step(sim, 1000);
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        double L[3] = {0}, terms = 0.0;
        for (size_t k = 0; k < v.n; k++) {
            const double *x = v.pos + 3 * k, *u = v.vel + 3 * k, *w = v.omega + 3 * k;
            const double mk = RHO * 4.0 / 3.0 * M_PI * pow(v.radius[k], 3.0);
            const double ik = 0.4 * mk * v.radius[k] * v.radius[k];
            L[0] += mk * (x[1] * u[2] - x[2] * u[1]) + ik * w[0];
            L[1] += mk * (x[2] * u[0] - x[0] * u[2]) + ik * w[1];
            L[2] += mk * (x[0] * u[1] - x[1] * u[0]) + ik * w[2];
            terms += mk * sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) *
                         sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) +
                     ik * sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        }
        if (s == 0)
            memcpy(L0, L, sizeof L), size = terms;
        for (int a = 0; a < 3; a++)
            worst = fmax(worst, fabs(L[a] - L0[a]) / size);
    }
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    uint64_t *order = dem_id_order(&v);
    for (size_t q = 0; q < v.n; q++)
        memcpy(spins + 3 * q, v.omega + 3 * (order[q] & 0xffffffffu), 3 * sizeof *spins);
    free(order);
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    ASSERT_TRUE(t.dissipated[RBL_LOSS_FRICTION] > 0.0); /* they touched and slid */
    rbl_sim_destroy(sim);
    return worst;
}

static void pairs_keep_angular_momentum(void)
{
    double with[81], without[81];
    const double drift = open_cluster(1, with), drift_off = open_cluster(0, without);
    double differ = 0.0;
    for (int k = 0; k < 81; k++)
        differ = fmax(differ, fabs(with[k] - without[k]));
    printf("a cluster of 27 spinning grains, 20 000 steps: angular momentum drift %.2g (with "
           "twisting), %.2g (without); the spins differ by up to %.3g rad/s\n",
           drift, drift_off, differ);
    ASSERT_TRUE(drift < 1e-13);
    ASSERT_TRUE(differ > 1.0);
}

static rbl_sim *twisting_pile(int threads)
{
    const double hi[3] = {0.03, 0.03, 0.06}, r = 0.0015, rho = 2500.0;
    const double m = rho * 4.0 / 3.0 * M_PI * r * r * r, kn = 2e4;
    const double gamma = rbl_gamma_from_restitution(0.5, 0.5 * m, kn);
    rbl_sim_config cfg =
        dem_floor_config(hi, kn, gamma, rbl_dt_from_c(0.05, kn, gamma, 0.5 * m), threads);
    cfg.law.twisting = RBL_TWISTING_MARSHALL;
    rbl_sim *sim = dem_create(&cfg, rho);
    rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0.0};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    uint64_t seed = 5;
    for (int z = 0; z < 6; z++)
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++) {
                uint32_t id = dem_grain(sim, (x + 0.5) * 0.00375 + 0.0005 * rand01(&seed),
                                        (y + 0.5) * 0.00375, 0.002 + z * 0.00375, 0, 0, -0.3,
                                        r * (0.8 + 0.2 * rand01(&seed)));
                (void)id;
            }
    return sim;
}

static void same_bits_on_threads_and_restart(void)
{
    rbl_sim *one = twisting_pile(1), *two = twisting_pile(2);
    dem_assert_restart_same(one, &two);
    rbl_sim_destroy(one), rbl_sim_destroy(two);
}

static void refused(void)
{
    rbl_sim_config cfg = dem_config(-0.1, 0.1, KN, 0.0, 2e-6);
    cfg.law.twisting = RBL_TWISTING_MARSHALL; /* with tangential: none */
    rbl_sim *sim = NULL;
    rbl_error err = {0};
    ASSERT_TRUE(rbl_sim_create(&sim, &cfg, &err) != RBL_OK);
    ASSERT_TRUE(strstr(err.message, "twisting model marshall needs tangential: spring") != NULL);
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.twisting = (rbl_twisting_model)7;
    ASSERT_TRUE(rbl_sim_create(&sim, &cfg, &err) != RBL_OK);
    ASSERT_TRUE(strstr(err.message, "unknown twisting model 7") != NULL);
}

int main(void)
{
    sliding_twist_decelerates();
    sticking_twist_swings();
    pairs_keep_angular_momentum();
    same_bits_on_threads_and_restart();
    refused();
    return 0;
}
