/* test_dem_shear.c — the sheared periodic cell (Lees-Edwards boundaries, docs/shear.md, issue
 * 73 item 5):
 *   pairs     in a dense cell sheared fast, every step, the touching pairs the force pass found
 *             are those a search over all pairs with the shifted images finds (count and
 *             the largest overlap);
 *   across    two grains touching across the shifted side feel the force the same pair feels
 *             placed inside the box at the same separation and relative velocity (to
 *             round-off), and a grain crossing the side is moved by the shift and its velocity
 *             by rate L_z;
 *   momentum  the flow momentum changes only by the wraps' jumps (m rate L_z each);
 *   gas       a dilute frictionless gas started on the linear profile keeps it (the mean
 *             velocity profile's slope within 3 sampling errors), its kinetic shear stress
 *             grows as -rho_m rate T t at first (the streaming term of the Boltzmann
 *             equation: d P_xz / dt = -rate P_zz before collisions relax it), and the energy
 *             account's balance stays within 2e-3 of the energy put in by the boundary (the
 *             dense cell's: the step's own error, second order in dt);
 *   turned    the same cell sheared along y, x and y swapped: the same path to round-off. */
#include "dem_test_util.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define LX 0.008
#define LY 0.006
#define LZ 0.008

/* The cell LX x LY x LZ, periodic on every side, a linear law (frictionless unless set). */
static rbl_sim_config cell_config(double kn, double gamma, double dt, double skin)
{
    rbl_sim_config c = dem_config(0.0, LX, kn, gamma, dt);
    c.hi[1] = LY, c.hi[2] = LZ;
    c.periodic[0] = c.periodic[1] = c.periodic[2] = 1;
    c.skin = skin;
    return c;
}

/* That cell's simulation, sheared along `flow` (x or y) at `rate`. */
static rbl_sim *sheared(const rbl_sim_config *c, double rate, int flow)
{
    rbl_sim *sim = dem_create(c, 2500.0);
    rbl_shear sh = {rate, flow, 2};
    ASSERT_OK(rbl_sim_set_shear(sim, &sh, &err_));
    return sim;
}

static rbl_sim *cell(double rate, double kn, double gamma, double dt)
{
    const rbl_sim_config c = cell_config(kn, gamma, dt, 0.0002);
    return sheared(&c, rate, 0);
}

/* Separation of grains i and j of the view, x_i - x_j, with the sheared images (shift delta
 * of the flow x for the images along z); its square returned. */
static double le_separation(const rbl_grains_view *v, size_t i, size_t j, double delta,
                            double d[3])
{
    for (int a = 0; a < 3; a++)
        d[a] = v->pos[3 * i + a] - v->pos[3 * j + a];
    const double sz = nearbyint(d[2] / LZ);
    d[2] -= sz * LZ;
    d[0] -= sz * delta;
    d[0] -= LX * nearbyint(d[0] / LX);
    d[1] -= LY * nearbyint(d[1] / LY);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

static double shift_now(const rbl_sim *sim)
{
    rbl_shear_state st;
    ASSERT_OK(rbl_sim_shear_state(sim, &st, &err_));
    return st.delta;
}

static void test_pairs(void)
{
    rbl_sim *sim = cell(400.0, 2000.0, 0.0, 2e-6);
    rbl_insert_spec s;
    memset(&s, 0, sizeof s);
    s.hi[0] = LX, s.hi[1] = LY, s.hi[2] = LZ;
    s.size.kind = RBL_SIZE_UNIFORM, s.size.min = 0.0004, s.size.max = 0.0006;
    s.seed = 3;
    s.vel_spread = 0.2;
    size_t placed = 0;
    rbl_pack_info info;
    ASSERT_OK(rbl_sim_insert_pack(sim, &s, 0.5, &placed, &info, &err_));
    ASSERT_OK(rbl_sim_shear_profile(sim, &err_));
    const int steps = 1500 / slow_build_divisor();
    const double U = 400.0 * LZ; /* the images' speed */
    size_t most = 0;
    /* momentum: the flow's changes only by the wraps (by id: the grains are reordered) */
    double p0 = 0.0, wrapped = 0.0, scale = 0.0, *z_was = calloc(placed, sizeof *z_was);
    ASSERT_TRUE(z_was != NULL);
    ASSERT_OK(rbl_sim_step(sim, 0, &err_)); /* the first forces */
    rbl_thermo t0;
    rbl_sim_thermo(sim, &t0);
    const double b0 = t0.balance;
    {
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        for (size_t i = 0; i < v.n; i++)
            p0 += v.mass[i] * v.vel[3 * i], z_was[v.id[i]] = v.pos[3 * i + 2],
                scale += v.mass[i] * U;
    }
    for (int k = 0; k < steps; k++) {
        ASSERT_OK(rbl_sim_step(sim, 1, &err_));
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        double p = 0.0;
        for (size_t i = 0; i < v.n; i++) {
            const double z = v.pos[3 * i + 2], jump = z - z_was[v.id[i]];
            if (fabs(jump) > 0.5 * LZ) /* wrapped: down across the top, -m U */
                wrapped += (jump < 0 ? -1.0 : 1.0) * v.mass[i] * U;
            z_was[v.id[i]] = z;
            p += v.mass[i] * v.vel[3 * i];
        }
        ASSERT_NEAR(p - wrapped, p0, 1e-12 * scale);
        if (k % 10 != 9)
            continue;
        const double delta = shift_now(sim);
        size_t touching = 0;
        for (size_t i = 0; i < v.n; i++)
            for (size_t j = i + 1; j < v.n; j++) {
                double d[3];
                const double rs = v.radius[i] + v.radius[j];
                touching += le_separation(&v, i, j, delta, d) < rs * rs;
            }
        rbl_thermo t;
        rbl_sim_thermo(sim, &t);
        if (t.contacts != touching)
            fprintf(stderr, "step %d: shift %g m: %zu pairs touch, the force pass found %zu\n",
                    k + 1, delta, touching, t.contacts);
        ASSERT_EQ_INT(t.contacts, touching);
        most = touching > most ? touching : most;
    }
    ASSERT_TRUE(2 * most > placed); /* a dense cell: many contacts, some across the sides */
    ASSERT_TRUE(wrapped != 0.0); /* grains crossed the sheared sides */
    /* the energy account: the boundary's work (wraps and contacts across the sides) books
       what the shear put in, so the balance stays: the step's error, 8e-4 of it at this dt,
       1.5e-4 at half of it */
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    ASSERT_NEAR(t.balance, b0, 2e-3 * t.put_in[RBL_IN_WALLS]);
    ASSERT_TRUE(t.put_in[RBL_IN_WALLS] > 0.1 * t.kinetic);
    printf("pairs: %zu grains, up to %zu contacts, every 10th of %d steps as a full search; "
           "momentum along the flow less the wraps' %g kg m/s: within 1e-12 of sum m U; "
           "energy put in by the boundary %g J, the balance within %.2g of it\n",
           placed, most, steps, wrapped, t.put_in[RBL_IN_WALLS],
           fabs(t.balance - b0) / t.put_in[RBL_IN_WALLS]);
    free(z_was);
    rbl_sim_destroy(sim);
}

/* Two grains of radius r touching across the sheared side (i near the bottom, j near the top,
 * its image below shifted by -delta and moving at -U) against the same pair inside a box at
 * rest, j moving at its image's velocity: the same forces step by step (tangential spring and
 * friction: the relative velocity counts). */
static void test_across(void)
{
    const double r = 0.0005, rate = 150.0, U = rate * LZ, dt = 1e-6;
    rbl_sim_config c = cell_config(2000.0, 0.05, dt, 0.0002);
    c.law.tangent = RBL_TANGENT_SPRING, c.law.friction = 0.5, c.law.kt = 1500.0;
    rbl_sim *a = sheared(&c, rate, 0), *b = dem_create(&c, 2500.0);
    ASSERT_OK(rbl_sim_step(a, 3700, &err_)); /* no grains: the shift moves on, past L/2 */
    ASSERT_OK(rbl_sim_step(b, 3700, &err_));
    const double delta = shift_now(a);
    ASSERT_TRUE(delta < 0.0 && fabs(delta) > 4 * r); /* wrapped */
    const double D[3] = {0.4 * r, -0.3 * r, 1.7 * r}; /* x_i - x_j's image */
    const double vi[3] = {0.02, -0.01, -0.03}, vj[3] = {-0.05, 0.02, 0.04};
    const double xi[3] = {0.5 * LX, 0.5 * LY, 0.35 * r};
    double xj[3] = {xi[0] - D[0] + delta, xi[1] - D[1], xi[2] - D[2] + LZ};
    xj[0] -= LX * floor(xj[0] / LX);
    dem_grain(a, xi[0], xi[1], xi[2], vi[0], vi[1], vi[2], r);
    dem_grain(a, xj[0], xj[1], xj[2], vj[0], vj[1], vj[2], r);
    const double yi[3] = {0.5 * LX, 0.5 * LY, 0.5 * LZ};
    dem_grain(b, yi[0], yi[1], yi[2], vi[0], vi[1], vi[2], r);
    dem_grain(b, yi[0] - D[0], yi[1] - D[1], yi[2] - D[2], vj[0] - U, vj[1], vj[2], r);
    double most = 0.0;
    for (int k = 0; k < 60; k++) {
        ASSERT_OK(rbl_sim_step(a, 1, &err_));
        ASSERT_OK(rbl_sim_step(b, 1, &err_));
        rbl_grains_view va, vb;
        rbl_sim_grains(a, &va), rbl_sim_grains(b, &vb);
        for (size_t g = 0; g < 2; g++) {
            const size_t ga = va.id[0] == g ? 0 : 1, gb = vb.id[0] == g ? 0 : 1;
            const double *fa = va.force + 3 * ga, *fb = vb.force + 3 * gb;
            const double size = sqrt(fb[0] * fb[0] + fb[1] * fb[1] + fb[2] * fb[2]);
            most = fmax(most, size);
            for (int d = 0; d < 3; d++)
                ASSERT_NEAR(fa[d], fb[d], 1e-9 * size + 1e-300);
        }
    }
    ASSERT_TRUE(most > 0.0);
    printf("across: the pair across the side at shift %g m, 60 steps: the forces of the pair "
           "inside (up to %g N) within 1e-9\n", delta, most);
    rbl_sim_destroy(a), rbl_sim_destroy(b);
}

/* A lone grain crossing the top side: its velocity along the flow less U, its position along
 * the flow less the shift: x = x0 + vx0 t - delta(t) (mod LX) whenever it wrapped. */
static void test_crossing(void)
{
    const double rate = 80.0, U = rate * LZ, dt = 1e-6;
    rbl_sim *sim = cell(rate, 2000.0, 0.0, dt);
    const double x0 = 0.3 * LX, vx = 0.07, vz = 0.5;
    dem_grain(sim, x0, 0.5 * LY, LZ - 0.0003, vx, 0.0, vz, 0.0005);
    const int steps = 2000;
    ASSERT_OK(rbl_sim_step(sim, (uint64_t)steps, &err_));
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    ASSERT_TRUE(v.pos[2] < 0.5 * LZ); /* wrapped to the bottom */
    ASSERT_NEAR(v.vel[0], vx - U, 1e-12);
    double want = x0 + vx * steps * dt - shift_now(sim);
    want -= LX * floor(want / LX);
    double got = v.pos[0] - want;
    got -= LX * nearbyint(got / LX);
    ASSERT_NEAR(got, 0.0, 1e-12);
    printf("crossing: v_x %g -> %g m/s (U %g), x by the shift to 1e-12 m\n", vx, v.vel[0], U);
    rbl_sim_destroy(sim);
}

/* A dilute frictionless gas (300 grains of 0.03 mm, 9e-5 by volume: a grain meets another
 * about once in 80 mm of travel, 2 mm here) started on the linear profile with a uniform
 * random part: over rate t = 1 the mean profile stays linear (each of 8 slabs' mean v_x within
 * 4 of its standard errors of rate (z - centre)), every grain that touched none keeps its
 * velocity relative to the profile, c, as free streaming gives it (c_x = c_x0 - rate c_z t,
 * c_z = c_z0, to 1e-12 m/s: across a sheared side too), the measured kinetic stress is the
 * grains' sum m c c / V, and it follows free streaming's closed form P_xz(t) = P_xz(0) - rate
 * P_zz(0) t but for the most that the few grains that collided (under 5 %) carry. */
static void test_gas(void)
{
    const double rate = 50.0, dt = 5e-6, r = 0.00003;
    const rbl_sim_config c = cell_config(1.0, 0.0, dt, 0.0015);
    rbl_sim *sim = sheared(&c, rate, 0);
    uint64_t seed = 11;
    const size_t n = 300;
    double (*at)[3] = calloc(n, sizeof *at);
    ASSERT_TRUE(at != NULL);
    for (size_t k = 0; k < n; k++) {
        double *p = at[k], v[3];
        for (int apart = 0; !apart;) { /* none overlapping (nearest images) */
            p[0] = LX * test_uniform(&seed), p[1] = LY * test_uniform(&seed);
            p[2] = LZ * test_uniform(&seed);
            apart = 1;
            for (size_t j = 0; j < k && apart; j++) {
                double d2 = 0.0;
                for (int a = 0; a < 3; a++) {
                    double d = p[a] - at[j][a];
                    d -= LX * nearbyint(d / LX);
                    d2 += d * d;
                }
                apart = d2 > 9.0 * r * r;
            }
        }
        for (int a = 0; a < 3; a++)
            v[a] = 0.1 * (2.0 * test_uniform(&seed) - 1.0);
        dem_grain(sim, p[0], p[1], p[2], v[0], v[1], v[2], r);
    }
    free(at);
    ASSERT_OK(rbl_sim_shear_profile(sim, &err_));
    rbl_shear_state s0, s1;
    ASSERT_OK(rbl_sim_step(sim, 0, &err_));
    ASSERT_OK(rbl_sim_shear_state(sim, &s0, &err_));
    double (*c0)[3] = calloc(n, sizeof *c0);
    unsigned char *touched = calloc(n, 1);
    ASSERT_TRUE(c0 && touched);
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    for (size_t i = 0; i < v.n; i++) {
        memcpy(c0[v.id[i]], v.vel + 3 * i, sizeof c0[0]);
        c0[v.id[i]][0] -= rate * (v.pos[3 * i + 2] - 0.5 * LZ);
    }
    const int steps = (int)(1.0 / rate / dt + 0.5);
    for (int k = 0; k < steps; k++) {
        ASSERT_OK(rbl_sim_step(sim, 1, &err_));
        rbl_sim_grains(sim, &v);
        for (size_t i = 0; i < v.n; i++)
            touched[v.id[i]] |= v.contacts[i] != 0;
    }
    const double t = steps * dt;
    ASSERT_OK(rbl_sim_shear_state(sim, &s1, &err_));
    rbl_sim_grains(sim, &v);
    /* the profile, slab by slab */
    double sum[8] = {0}, sum2[8] = {0}, cnt[8] = {0};
    size_t free_grains = 0;
    for (size_t i = 0; i < v.n; i++) {
        double z = v.pos[3 * i + 2] - LZ * floor(v.pos[3 * i + 2] / LZ);
        int slab = (int)(8.0 * z / LZ);
        slab = slab > 7 ? 7 : slab;
        const double dev = v.vel[3 * i] - rate * (v.pos[3 * i + 2] - 0.5 * LZ);
        const double line = rate * ((slab + 0.5) * LZ / 8.0 - 0.5 * LZ);
        const double u = v.vel[3 * i] - rate * (z - (slab + 0.5) * LZ / 8.0); /* at the centre */
        (void)line;
        sum[slab] += u, sum2[slab] += u * u, cnt[slab] += 1.0;
        const uint32_t id = v.id[i];
        if (touched[id])
            continue;
        free_grains++;
        ASSERT_NEAR(dev, c0[id][0] - rate * c0[id][2] * t, 1e-12);
        ASSERT_NEAR(v.vel[3 * i + 2], c0[id][2], 1e-12);
    }
    for (int b = 0; b < 8; b++) {
        const double mean = sum[b] / cnt[b], sd = sqrt(sum2[b] / cnt[b] - mean * mean);
        const double line = rate * ((b + 0.5) * LZ / 8.0 - 0.5 * LZ);
        ASSERT_NEAR(mean, line, 4.0 * sd / sqrt(cnt[b]));
    }
    /* the measured kinetic stress is the grains' (c from the profile about the centre) */
    const double V = LX * LY * LZ;
    double pxz = 0.0, pzz = 0.0, carried = 0.0;
    for (size_t i = 0; i < v.n; i++) {
        const double cx = v.vel[3 * i] - rate * (v.pos[3 * i + 2] - 0.5 * LZ);
        const double cz = v.vel[3 * i + 2], m = v.mass[i];
        const uint32_t id = v.id[i];
        pxz += m * cx * cz / V, pzz += m * cz * cz / V;
        if (touched[id]) /* what a collision may have changed: the most it can carry */
            carried += (fabs(m * cx * cz) +
                        fabs(m * (c0[id][0] - rate * c0[id][2] * t) * c0[id][2])) / V;
    }
    ASSERT_NEAR(s1.kinetic[2], pxz, 1e-12 * fabs(pxz));
    ASSERT_NEAR(s1.kinetic[8], pzz, 1e-12 * pzz);
    /* free streaming's closed form, but for what the grains that collided carry */
    const double want = s0.kinetic[2] - rate * s0.kinetic[8] * t;
    ASSERT_NEAR(s1.kinetic[2], want, carried);
    ASSERT_TRUE(carried < 0.1 * fabs(rate * s0.kinetic[8] * t));
    ASSERT_TRUE(free_grains > n * 19 / 20);
    printf("gas: %zu of %zu grains touched none over rate t = 1; P_xz %g -> %g Pa (free "
           "streaming: %g), P_zz %g Pa\n", free_grains, n, s0.kinetic[2], s1.kinetic[2],
           want, s0.kinetic[8]);
    free(c0), free(touched);
    rbl_sim_destroy(sim);
}

/* The scene turned: the dense cell of test_pairs sheared along y instead of x, its x and y
 * swapped (positions, velocities, box), follows the same path: after 200 steps every grain's
 * position and velocity the first run's, swapped, to round-off (1e-12 of the box, 1e-9 m/s:
 * the sums' order differs with the axes), through collisions across the sides. */
static void test_turned(void)
{
    rbl_sim *sim[2];
    for (int turn = 0; turn < 2; turn++) {
        rbl_sim_config c = cell_config(2000.0, 0.02, 2e-6, 0.0002);
        c.hi[1] = LX; /* square across the gradient */
        c.law.tangent = RBL_TANGENT_SPRING, c.law.friction = 0.5, c.law.kt = 1500.0;
        sim[turn] = sheared(&c, 300.0, turn);
        uint64_t seed = 5;
        /* a loose lattice with random velocities: many contacts across the sides soon */
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++)
                for (int k = 0; k < 8; k++) {
                    double p[3] = {(i + 0.5) * LX / 8, (j + 0.5) * LX / 8, (k + 0.5) * LZ / 8};
                    double v[3];
                    for (int a = 0; a < 3; a++)
                        v[a] = 0.3 * (2.0 * test_uniform(&seed) - 1.0);
                    const double r = 0.00047 + 0.00003 * test_uniform(&seed);
                    if (turn)
                        dem_grain(sim[turn], p[1], p[0], p[2], v[1], v[0], v[2], r);
                    else
                        dem_grain(sim[turn], p[0], p[1], p[2], v[0], v[1], v[2], r);
                }
        ASSERT_OK(rbl_sim_shear_profile(sim[turn], &err_));
        ASSERT_OK(rbl_sim_step(sim[turn], 200, &err_));
    }
    rbl_grains_view a, b;
    rbl_sim_grains(sim[0], &a), rbl_sim_grains(sim[1], &b);
    ASSERT_EQ_INT(a.n, b.n);
    size_t *at = calloc(b.n, sizeof *at);
    ASSERT_TRUE(at != NULL);
    for (size_t i = 0; i < b.n; i++)
        at[b.id[i]] = i;
    for (size_t i = 0; i < a.n; i++) {
        const size_t j = at[a.id[i]];
        static const int swap[3] = {1, 0, 2};
        for (int d = 0; d < 3; d++) {
            double dx = a.pos[3 * i + d] - b.pos[3 * j + swap[d]];
            dx -= LX * nearbyint(dx / LX); /* (a wrap at another build: the same place) */
            ASSERT_NEAR(dx, 0.0, 1e-12 * LX);
            ASSERT_NEAR(a.vel[3 * i + d], b.vel[3 * j + swap[d]], 1e-9);
        }
    }
    rbl_thermo t;
    rbl_sim_thermo(sim[0], &t);
    ASSERT_TRUE(t.contacts > 40); /* (81) */
    ASSERT_TRUE(t.dissipated[RBL_LOSS_DAMPING] > 0.01 * t.kinetic); /* many collisions */
    printf("turned: flow along y with x and y swapped: %zu grains, %zu contacts, the same path "
           "to round-off\n", a.n, t.contacts);
    free(at);
    rbl_sim_destroy(sim[0]), rbl_sim_destroy(sim[1]);
}

/* A cell at an imposed normal stress (rbl_sim_set_shear_pressure): started loose (0.54), its
 * height follows sigma_zz to the target; the mean sigma_zz over the run's second half is the
 * target within 5 % (the blocks' spread at this I ~ 0.1 is about 5 % a block, the servo's lag
 * while the cell still compacts about 1 %), the cell compacted, and the energy account's
 * balance stays within 2e-3 of what the boundary put in (the remap's change of the contacts'
 * energy booked with the boundary's work). */
static void test_pressure(void)
{
    const double rate = 100.0, P0 = 2000.0;
    rbl_sim_config c = cell_config(2000.0, 0.02, 2e-6, 0.0002);
    c.law.tangent = RBL_TANGENT_SPRING, c.law.kt = 2000.0, c.law.friction = 0.5;
    rbl_sim *sim = sheared(&c, rate, 0);
    rbl_insert_spec s;
    memset(&s, 0, sizeof s);
    s.hi[0] = LX, s.hi[1] = LY, s.hi[2] = LZ;
    s.size.kind = RBL_SIZE_UNIFORM, s.size.min = 0.0004, s.size.max = 0.0006;
    s.seed = 5;
    size_t placed = 0;
    rbl_pack_info info;
    ASSERT_OK(rbl_sim_insert_pack(sim, &s, 0.54, &placed, &info, &err_));
    ASSERT_OK(rbl_sim_shear_profile(sim, &err_));
    rbl_shear_servo sv = {P0, 2e-4};
    ASSERT_OK(rbl_sim_set_shear_pressure(sim, &sv, &err_));
    ASSERT_OK(rbl_sim_step(sim, 0, &err_));
    rbl_thermo t0;
    rbl_sim_thermo(sim, &t0);
    rbl_shear_state st;
    ASSERT_OK(rbl_sim_shear_state(sim, &st, &err_));
    const double phi0 = st.volume_fraction;
    const int steps = 4000, blocks = 20, per = steps / 2 / blocks;
    double sum = 0.0, sum2 = 0.0;
    ASSERT_OK(rbl_sim_step(sim, (uint64_t)(steps / 2), &err_));
    for (int b = 0; b < blocks; b++) {
        double block = 0.0;
        for (int k = 0; k < per; k++) {
            ASSERT_OK(rbl_sim_step(sim, 1, &err_));
            ASSERT_OK(rbl_sim_shear_state(sim, &st, &err_));
            block += st.stress[8] / per;
        }
        sum += block / blocks, sum2 += block * block / blocks;
    }
    const double spread = sqrt(fmax(sum2 - sum * sum, 0.0));
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    printf("pressure: %zu grains at %g 1/s, sigma_zz %g Pa (blocks' spread %g) for %g asked; "
           "volume fraction %.4f -> %.4f (I = %.3f); balance within %.2g of the %g J put in\n",
           placed, rate, sum, spread, P0, phi0, st.volume_fraction, st.inertial,
           fabs(t.balance - t0.balance) / t.put_in[RBL_IN_WALLS], t.put_in[RBL_IN_WALLS]);
    ASSERT_NEAR(sum, P0, 0.05 * P0);
    ASSERT_TRUE(st.volume_fraction > phi0 + 0.02); /* the servo compacted the loose cell */
    ASSERT_NEAR(t.balance, t0.balance, 2e-3 * t.put_in[RBL_IN_WALLS]);
    rbl_sim_destroy(sim);
}

int main(void)
{
    test_pressure();
    test_pairs();
    test_across();
    test_crossing();
    test_gas();
    test_turned();
    printf("test_dem_shear: all passed\n");
    return 0;
}
