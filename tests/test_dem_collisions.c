/* test_dem_collisions.c — collision statistics (issue 70 item 3, docs/dem.md "Collision
 * statistics"), against closed forms with the linear spring-dashpot (seed parameters of
 * test_dem_restitution.c: k_n = 1e5, gamma = 100, rho = 2000, r = 0.1):
 * - head-on pairs at known speeds: each impact energy m_eff v0^2 / 2 exact, one event in the
 *   bin its energy falls in and none elsewhere; the event's dissipated energy is what the
 *   energy account booked (round-off), the kinetic energy lost (but for the integration's
 *   O(dt^2) error at the contact's ends, the account's balance) and (1 - e^2) of its impact energy,
 *   e the law's closed form, within 2 e gamma dt / m_eff + (gamma dt / m_eff)^2: the dashpot's
 *   force jumps to gamma v0 at the contact's onset, somewhere inside a step, which moves e by
 *   up to gamma dt / m_eff (test_dem_restitution.c); over 8 onset phases, and the error at
 *   dt / 4 below half that at dt;
 * - an oblique impact with friction: normal and tangential speeds at first touch exact (from
 *   the positions of the first evaluation), the dissipation the account's, near the kinetic
 *   and rotational energy lost; the same trajectory as without the statistics;
 * - a wall impact (m_eff = m): its energy exact, in the wall's row.
 * - contacts that go with their grains (rbl_sim_remove_grains mid-contact): each event counted
 *   once, grain-grain and grain-wall, its dissipated energy the losses of its steps (what it
 *   held is carried out, not dissipated: the account's dissipated total to round-off).
 * - bad arguments refused. */
#include "dem_test_util.h"

#include <math.h>

static const double KN = 1e5, GAMMA = 100.0, RHO = 2000.0, R = 0.1;
static const double MASS = 2000.0 * 4.0 / 3.0 * M_PI * 0.1 * 0.1 * 0.1;

static double kinetic(const rbl_sim *sim)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    double k = 0.0;
    for (size_t i = 0; i < v.n; i++) {
        const double *u = v.vel + 3 * i, *w = v.omega + 3 * i;
        const double in = 0.4 * v.mass[i] * v.radius[i] * v.radius[i];
        k += 0.5 * v.mass[i] * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) +
             0.5 * in * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    }
    return k;
}

/* What the energy account holds as dissipated, every mechanism. */
static double account_dissipated(rbl_sim *sim)
{
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    double d = 0.0;
    for (int k = 0; k < RBL_LOSS_N; k++)
        d += t.dissipated[k];
    return d;
}

static double contact_time(double m_eff)
{
    const double b = GAMMA / (2.0 * m_eff);
    return M_PI / sqrt(KN / m_eff - b * b);
}

/* One event's bin (0 .. bins - 1; -1 below, bins above): the only bin holding one. */
static int event_bin(const rbl_sim *sim, int wall, int bins, rbl_collision_bin *out)
{
    rbl_error err = {0};
    int found = -2;
    uint64_t total = 0;
    for (int k = -1; k <= bins; k++) {
        rbl_collision_bin b;
        ASSERT_OK(rbl_sim_collision_bin(sim, 0, 0, wall, k, &b, &err));
        total += b.count;
        if (b.count)
            found = k, *out = b;
    }
    ASSERT_TRUE(total == 1);
    return found;
}

/* A head-on pair at v0 meeting (1 + onset) steps in: the event, and e as simulated. */
static int head_on(double v0, double dt, double onset, int bins, double e_min, double e_max,
                   rbl_collision_bin *ev, double *lost)
{
    rbl_sim_config c = dem_config(-1.0, 1.0, KN, GAMMA, dt);
    rbl_sim *sim = dem_create(&c, RHO);
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_collisions(sim, bins, e_min, e_max, &err));
    const double gap = 0.5 * v0 * (1.0 + onset) * dt;
    dem_grain(sim, -(R + gap), 0, 0, 0.5 * v0, 0, 0, R);
    dem_grain(sim, R + gap, 0, 0, -0.5 * v0, 0, 0, R);
    const double before = kinetic(sim);
    dem_step(sim, (uint64_t)(3.0 * contact_time(0.5 * MASS) / dt) + 10);
    *lost = before - kinetic(sim);
    const int k = event_bin(sim, 0, bins, ev);
    /* the event books what the energy account books of its contact */
    ASSERT_NEAR(ev->dissipated, account_dissipated(sim), 1e-13 * ev->impact);
    rbl_sim_destroy(sim);
    return k;
}

static void impacts_in_bins(void)
{
    /* 8 bins a decade wide from 1e-12 J; each speed's energy in the middle of bin k, one
       below the range and one above (3e-13 to 3e-4 J: 0.4 um/s to 1.2 cm/s) */
    const int bins = 8;
    const double m_eff = 0.5 * MASS, dt = contact_time(m_eff) / 50.0;
    for (int k = -1; k <= bins; k++) {
        const double e = 1e-12 * pow(10.0, k + 0.5), v0 = sqrt(2.0 * e / m_eff);
        rbl_collision_bin ev;
        double lost;
        const int got = head_on(v0, dt, 0.3, bins, 1e-12, 1e-4, &ev, &lost);
        ASSERT_EQ_INT(got, k);
        ASSERT_NEAR(ev.impact, 0.5 * m_eff * v0 * v0, 1e-13 * e);
        ASSERT_NEAR(ev.normal_speed, v0, 1e-13 * v0);
        ASSERT_NEAR(ev.tangential_speed, 0.0, 1e-13 * v0);
        /* what the grains lost, but for the integration's error at the contact's ends (the
           account's balance, O(dt^2): 0.13 % at the lowest speed, 50 steps a contact) */
        ASSERT_NEAR(ev.dissipated, lost, 3e-3 * lost);
    }
}

/* The worst |D/E - (1 - e^2)| over 8 onset phases at dt. */
static double restitution_error(double dt)
{
    const double m_eff = 0.5 * MASS, e = rbl_restitution_linear(GAMMA, m_eff, KN);
    const double q = GAMMA * dt / m_eff, bound = 2.0 * e * q + q * q;
    double worst = 0.0;
    for (int p = 0; p < 8; p++) {
        rbl_collision_bin ev;
        double lost;
        head_on(0.01, dt, p / 8.0, 10, 1e-9, 1.0, &ev, &lost);
        const double err = fabs(ev.dissipated / ev.impact - (1.0 - e * e));
        ASSERT_TRUE(err <= bound);
        worst = fmax(worst, err);
    }
    printf("dt = %.3g s: |D/E - (1 - e^2)| <= %.3g (bound 2 e gamma dt / m_eff + (gamma dt / "
           "m_eff)^2 = %.3g)\n", dt, worst, bound);
    return worst;
}

static void oblique_with_friction(void)
{
    const double m_eff = 0.5 * MASS, dt = contact_time(m_eff) / 50.0;
    const double vn = 0.02, vt = 0.015, gap = 0.5 * vn * 1.4 * dt;
    double final[2][6];
    for (int with = 0; with < 2; with++) {
        rbl_sim_config c = dem_config(-1.0, 1.0, KN, GAMMA, dt);
        c.law.tangent = RBL_TANGENT_SPRING;
        c.law.friction = 0.3;
        rbl_sim *sim = dem_create(&c, RHO);
        rbl_error err = {0};
        if (with)
            ASSERT_OK(rbl_sim_collisions(sim, 20, 1e-9, 1.0, &err));
        dem_grain(sim, -(R + gap), 0, 0, 0.5 * vn, 0.5 * vt, 0, R);
        dem_grain(sim, R + gap, 0, 0, -0.5 * vn, -0.5 * vt, 0, R);
        const double before = kinetic(sim);
        /* the first evaluation that touches: its separation, from the straight flight */
        double d[3] = {0, 0, 0};
        uint64_t steps = 0;
        for (;; steps++) {
            const double t = (double)(steps + 1) * dt; /* positions after step steps + 1 */
            d[0] = -(2.0 * (R + gap) - vn * t), d[1] = -(-vt * t), d[2] = 0.0;
            if (d[0] * d[0] + d[1] * d[1] < 4.0 * R * R)
                break;
        }
        dem_step(sim, (uint64_t)(3.0 * contact_time(m_eff) / dt) + 10);
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        for (int a = 0; a < 3; a++)
            final[with][a] = v.pos[a], final[with][3 + a] = v.omega[a];
        if (with) {
            rbl_collision_bin ev;
            event_bin(sim, 0, 20, &ev);
            /* n from the second grain to the first; v the first's less the second's */
            const double len = sqrt(d[0] * d[0] + d[1] * d[1]);
            const double n[2] = {d[0] / len, d[1] / len}, dv[2] = {vn, vt};
            const double v_n = dv[0] * n[0] + dv[1] * n[1];
            const double v_t = fabs(-dv[0] * n[1] + dv[1] * n[0]);
            ASSERT_NEAR(ev.normal_speed, fabs(v_n), 1e-12 * vn);
            ASSERT_NEAR(ev.tangential_speed, v_t, 1e-12 * vn);
            ASSERT_NEAR(ev.impact, 0.5 * m_eff * v_n * v_n, 1e-12 * m_eff * vn * vn);
            const double lost = before - kinetic(sim);
            printf("oblique: impact %.6g J, dissipated %.6g J, lost %.6g J (spin %.3g rad/s)\n",
                   ev.impact, ev.dissipated, lost, v.omega[2]);
            ASSERT_TRUE(fabs(v.omega[2]) > 0.0); /* friction acted */
            ASSERT_NEAR(ev.dissipated, account_dissipated(sim), 1e-13 * ev.impact);
            /* the account's balance: the integration's error as the springs let go, 0.4 % */
            ASSERT_NEAR(ev.dissipated, lost, 1e-2 * lost);
        }
        rbl_sim_destroy(sim);
    }
    for (int k = 0; k < 6; k++) /* the statistics change nothing of the motion */
        ASSERT_TRUE(final[0][k] == final[1][k]);
}

static void wall_impact(void)
{
    const double m = MASS, dt = contact_time(m) / 50.0, v0 = 0.05;
    rbl_sim_config c = dem_config(-1.0, 1.0, KN, GAMMA, dt);
    rbl_sim *sim = dem_create(&c, RHO);
    rbl_error err = {0};
    rbl_wall plane = {.normal = {0, 0, 1}, .offset = 0.0};
    ASSERT_OK(rbl_sim_add_wall(sim, &plane, &err));
    ASSERT_OK(rbl_sim_collisions(sim, 10, 1e-6, 1e4, &err));
    dem_grain(sim, 0, 0, R + 0.37 * v0 * dt, 0, 0, -v0, R);
    const double before = kinetic(sim);
    dem_step(sim, (uint64_t)(3.0 * contact_time(m) / dt) + 10);
    rbl_collision_bin ev, none;
    const double e = 0.5 * m * v0 * v0;
    ASSERT_EQ_INT(event_bin(sim, 1, 10, &ev), (int)floor(log10(e / 1e-6)));
    ASSERT_NEAR(ev.impact, e, 1e-13 * e);
    ASSERT_NEAR(ev.dissipated, account_dissipated(sim), 1e-13 * e);
    ASSERT_NEAR(ev.dissipated, before - kinetic(sim), 3e-3 * e);
    const double r = rbl_restitution_linear(GAMMA, m, KN), q = GAMMA * dt / m;
    ASSERT_NEAR(ev.dissipated / e, 1.0 - r * r, 2.0 * r * q + q * q);
    for (int k = -1; k <= 10; k++) { /* nothing between grains */
        ASSERT_OK(rbl_sim_collision_bin(sim, 0, 0, 0, k, &none, &err));
        ASSERT_TRUE(none.count == 0);
    }
    rbl_sim_collisions_clear(sim);
    ASSERT_OK(rbl_sim_collision_bin(sim, 0, 0, 1, (int)floor(log10(e / 1e-6)), &none, &err));
    ASSERT_TRUE(none.count == 0 && none.impact == 0.0);
    rbl_sim_destroy(sim);
}

/* Two grains pressed together on a floor, both taken out while they touch: two events (the
 * pair's and one grain's on the floor; the other is above it), counted once each, the
 * dissipated energy the account's. */
static void removed_mid_contact(void)
{
    const double m = MASS, dt = contact_time(m) / 50.0, v0 = 0.05;
    rbl_sim_config c = dem_config(-1.0, 1.0, KN, GAMMA, dt);
    rbl_sim *sim = dem_create(&c, RHO);
    rbl_error err = {0};
    rbl_wall plane = {.normal = {0, 0, 1}, .offset = 0.0};
    ASSERT_OK(rbl_sim_add_wall(sim, &plane, &err));
    ASSERT_OK(rbl_sim_collisions(sim, 10, 1e-9, 1e4, &err));
    uint32_t ids[2];
    ids[0] = dem_grain(sim, 0, 0, R + 0.37 * v0 * dt, 0, 0, -v0, R);
    ids[1] = dem_grain(sim, 0, 0, 3.0 * R + 0.37 * v0 * dt + 0.5 * v0 * dt, 0, 0, -2.0 * v0, R);
    dem_step(sim, (uint64_t)(0.3 * contact_time(m) / dt)); /* both contacts under way */
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    ASSERT_TRUE(t.contacts == 1 && t.wall_contacts == 1);
    ASSERT_OK(rbl_sim_remove_grains(sim, ids, 2, &err));
    dem_step(sim, 2);
    uint64_t events[2] = {0, 0};
    double dissipated = 0.0;
    for (int wall = 0; wall < 2; wall++)
        for (int k = -1; k <= 10; k++) {
            rbl_collision_bin b;
            ASSERT_OK(rbl_sim_collision_bin(sim, 0, 0, wall, k, &b, &err));
            events[wall] += b.count;
            dissipated += b.dissipated;
        }
    ASSERT_TRUE(events[0] == 1 && events[1] == 1);
    ASSERT_TRUE(dissipated > 0.0);
    ASSERT_NEAR(dissipated, account_dissipated(sim), 1e-13 * 0.5 * m * v0 * v0);
    rbl_sim_destroy(sim);
}

static void refused(void)
{
    rbl_sim_config c = dem_config(-1.0, 1.0, KN, GAMMA, 1e-4);
    rbl_sim *sim = dem_create(&c, RHO);
    rbl_error err = {0};
    rbl_collision_bin b;
    ASSERT_TRUE(rbl_sim_collision_bin(sim, 0, 0, 0, 0, &b, &err) == RBL_EINVAL);
    ASSERT_TRUE(rbl_sim_collisions(sim, -1, 1e-6, 1.0, &err) == RBL_ERANGE);
    ASSERT_TRUE(rbl_sim_collisions(sim, 10, 1.0, 1.0, &err) == RBL_ERANGE);
    ASSERT_TRUE(rbl_sim_collisions(sim, 10, -1.0, 1.0, &err) == RBL_ERANGE);
    ASSERT_OK(rbl_sim_collisions(sim, 10, 1e-6, 1.0, &err));
    ASSERT_TRUE(rbl_sim_collision_bin(sim, 0, 0, 0, 11, &b, &err) == RBL_ERANGE);
    ASSERT_TRUE(rbl_sim_collision_bin(sim, 1, 0, 0, 0, &b, &err) == RBL_ERANGE);
    ASSERT_OK(rbl_sim_collisions(sim, 0, 0.0, 0.0, &err)); /* off again */
    ASSERT_TRUE(rbl_sim_collision_bin(sim, 0, 0, 0, 0, &b, &err) == RBL_EINVAL);
    rbl_sim_destroy(sim);
}

int main(void)
{
    impacts_in_bins();
    const double t_c = contact_time(0.5 * MASS);
    const double coarse = restitution_error(t_c / 20.0), fine = restitution_error(t_c / 80.0);
    ASSERT_TRUE(fine < 0.5 * coarse);
    oblique_with_friction();
    wall_impact();
    removed_mid_contact();
    refused();
    printf("collisions: all passed\n");
    return 0;
}
