/* test_dem_wall_table.c — walls moved by a table of times, displacements and orientations
 * (issue 73; src/dem/wall_table.c, rbl_sim_set_wall_table):
 * - a table that describes a built-in motion moves the wall as it does: a two-row
 *   translation in the same bits (its velocity is the rows' slope, equal to the built-in's
 *   here, pushing the grains); a turn at a constant rate about a tilted axis, rows every
 *   quarter of the run, within round-off of the built-in turn (its rotation's entries 1e-19
 *   apart, its spin an ulp: the bed's grains 3.5e-18 m apart after 1500 steps, held below
 *   1e-16; the balance moves alike); the same at the run's first forces, where the table's
 *   velocities are those it starts with, as a built-in motion's;
 * - a bed of 60 grains pushed by a plane that goes in and out and tilts, on a floor mesh that
 *   turns about a wobbling axis (or, without turns, slides and rises), all from tables with
 *   rows at uneven times: the energy account's balance falls with dt as under the built-in
 *   motions (first order where a wall turns about an axis off its normal or pushes hard,
 *   built in or tabled alike), below 1e-3 of the walls' work: the contacts see the velocity
 *   and spin of the interpolation, averaged over the step (with the spin left out it does not
 *   fall);
 * - a run saved at an odd step mid-table on 2 threads and loaded ends in the same bits as the
 *   run on 1 thread that went straight on; a wall switched to a table between steppings
 *   (now = 1, as a stage does) does not jump, and moves by the table from where it was;
 * - tables that cannot be are refused, naming the row. */
#include "dem/dem_internal.h"
#include "dem_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double R = 0.001, RHO = 2500.0, DT = 2e-6, W = 30.0, V = 0.5;
static const double PIVOT[3] = {0.001, 0.0, 0.0};

/* A frictional bed (both springs damped) of 60 grains on a floor mesh of one facet (wall 2;
 * the plane pusher at x = -0.0115 facing +x is wall 1). */
static rbl_sim *bed_dt(int threads, double dt)
{
    rbl_sim_config cfg = dem_config(-0.03, 0.03, 2000.0, 0.0, dt);
    const double m = RHO * 4.0 / 3.0 * M_PI * R * R * R;
    cfg.gravity[2] = -9.81;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.5;
    cfg.law.gamma_n = cfg.law.gamma_t = 0.4 * sqrt(m * cfg.law.kn);
    cfg.threads = threads;
    rbl_sim *sim = dem_create(&cfg, RHO);
    rbl_error err = {0};
    rbl_wall pusher = {{1.0, 0.0, 0.0}, 0.0115, 0};
    ASSERT_OK(rbl_sim_add_wall(sim, &pusher, &err));
    double v[9] = {-0.05, -0.05, 0, 0.1, -0.05, 0, -0.05, 0.1, 0};
    uint32_t t[3] = {0, 1, 2};
    rbl_mesh floor = {3, 1, v, t};
    ASSERT_OK(rbl_sim_add_mesh_wall(sim, &floor, 0, &err));
    uint64_t seed = 11;
    for (int k = 0; k < 60; k++)
        dem_grain(sim, 0.0025 * (k % 8) - 0.0099, 0.0025 * (k / 8) - 0.009,
                  R - 5e-8 * rand01(&seed), 0.01 * rand01(&seed), 0.0, 0.0, R);
    return sim;
}

static rbl_sim *bed(int threads) { return bed_dt(threads, DT); }

/* A turn by angle about the unit axis a, as a quaternion. */
static void turn_quat(const double a[3], double angle, double q[4])
{
    q[0] = cos(0.5 * angle);
    for (int k = 0; k < 3; k++)
        q[1 + k] = sin(0.5 * angle) * a[k];
}

static void set_table(rbl_sim *sim, int wall, const rbl_motion_row *rows, size_t n,
                      const double pivot[3], int now)
{
    rbl_wall_table tab = {.n = n, .rows = rows};
    memcpy(tab.pivot, pivot, sizeof tab.pivot);
    rbl_error err = {0};
    if (rbl_sim_set_wall_table(sim, wall, &tab, now, &err) != RBL_OK) {
        fprintf(stderr, "rbl_sim_set_wall_table: %s\n", err.message);
        exit(1);
    }
}

/* The built-in motions (tabled 0): the pusher at V along +x (into the grains), the floor
 * turning at W about the tilted axis (0.1, 0.05, 1) through PIVOT; or the same from tables
 * (the pusher's two rows, the floor's five). */
static rbl_sim *constant_motions(int tabled, int threads)
{
    rbl_sim *sim = bed(threads);
    rbl_error err = {0};
    const double T = 1500 * DT, len = sqrt(1.0125);
    const double z[3] = {0.1 / len, 0.05 / len, 1.0 / len};
    if (!tabled) {
        rbl_wall_motion push = {.velocity = {V, 0.0, 0.0}};
        rbl_wall_motion turn = {.axis = {0.1, 0.05, 1.0}, .omega = W};
        memcpy(turn.center, PIVOT, sizeof turn.center);
        ASSERT_OK(rbl_sim_set_wall_motion(sim, 0, &push, &err));
        ASSERT_OK(rbl_sim_set_wall_motion(sim, 1, &turn, &err));
        return sim;
    }
    rbl_motion_row push[2] = {{0.0, {0, 0, 0}, {1, 0, 0, 0}}, {T, {V * T, 0, 0}, {1, 0, 0, 0}}};
    ASSERT_TRUE(V * T / T == V); /* the rows' slope is V itself: the same bits */
    set_table(sim, 0, push, 2, (double[3]){0, 0, 0}, 0);
    rbl_motion_row turn[5];
    for (int k = 0; k < 5; k++) {
        turn[k] = (rbl_motion_row){.t = 0.25 * k * T};
        turn_quat(z, W * turn[k].t, turn[k].quat);
    }
    set_table(sim, 1, turn, 5, PIVOT, 0);
    return sim;
}

/* The largest distance between the grains of a and b, by id. */
static double largest_apart(rbl_sim *a, rbl_sim *b)
{
    rbl_grains_view va, vb;
    rbl_sim_grains(a, &va), rbl_sim_grains(b, &vb);
    ASSERT_EQ_INT(va.n, vb.n);
    uint64_t *oa = dem_id_order(&va), *ob = dem_id_order(&vb);
    double most = 0.0;
    for (size_t q = 0; q < va.n; q++) {
        const size_t i = (size_t)(oa[q] & 0xffffffffu), j = (size_t)(ob[q] & 0xffffffffu);
        for (int c = 0; c < 3; c++)
            most = fmax(most, fabs(va.pos[3 * i + c] - vb.pos[3 * j + c]));
    }
    free(oa), free(ob);
    return most;
}

/* The balance's largest move over n steps, and the walls' work through their contacts; the
 * largest push on the pusher, along -x, among the steps looked at. */
static double balance_walk(rbl_sim *sim, int steps, double *work, double *push)
{
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    const double b0 = t.balance;
    double most = 0.0;
    *push = 0.0;
    for (int k = 0; k < steps / 50; k++) {
        dem_step(sim, 50);
        rbl_sim_thermo(sim, &t);
        most = fmax(most, fabs(t.balance - b0));
        *push = fmax(*push, -t.wall_force[0]);
    }
    *work = fabs(t.put_in[RBL_IN_WALLS]);
    return most;
}

/* The built-in motions' balance: its largest move over 1500 steps, as a share of the walls'
 * work (out). */
static void as_built_in(double *share)
{
    rbl_sim *built = constant_motions(0, 1), *tabled = constant_motions(1, 1);
    const double corner[3] = {0.02, 0.02, 0.0}, origin[3] = {-0.0115, 0.0, 0.0};
    double worst_place = 0.0, w_built, w_tabled, walk_built, walk_tabled, push, push_tabled;
    walk_built = balance_walk(built, 1500, &w_built, &push);
    walk_tabled = balance_walk(tabled, 1500, &w_tabled, &push_tabled);
    double x[3], y[3];
    rbl_sim_wall_place(built, 1, corner, 1, x), rbl_sim_wall_place(tabled, 1, corner, 1, y);
    for (int c = 0; c < 3; c++)
        worst_place = fmax(worst_place, fabs(x[c] - y[c]));
    rbl_sim_wall_place(built, 0, origin, 1, x), rbl_sim_wall_place(tabled, 0, origin, 1, y);
    ASSERT_TRUE(memcmp(x, y, sizeof x) == 0); /* the translation: the same bits */
    const double apart = largest_apart(built, tabled);
    printf("a constant translation and a turn about a tilted axis from tables: the pusher in the "
           "same bits, the floor's corner %.3g m from the built-in turn's, the grains within "
           "%.3g m after 1500 steps (the pusher pushed by up to %.3g N); the balance's largest "
           "move %.3g J, tabled %.3g J, of the walls' work %.3g J\n", worst_place, apart, push,
           walk_built, walk_tabled, w_built);
    ASSERT_TRUE(push > 0.0 && push == push_tabled); /* the grains pushed back on the pusher */
    ASSERT_TRUE(worst_place < 1e-17);   /* an ulp or two of 0.03 m */
    ASSERT_TRUE(apart < 1e-16); /* the poses' round-off (measured 3.5e-18 m) */
    ASSERT_NEAR(walk_tabled, walk_built, 1e-6 * walk_built);
    *share = walk_built / w_built;
    rbl_sim_destroy(built), rbl_sim_destroy(tabled);
}

/* Uneven motions from tables: the pusher in, back and in again while it tilts about y through
 * its foot, the floor turning about an axis that wobbles; rows at uneven times (spin_off:
 * the floor's spin left out of its contacts, on purpose). */
static rbl_sim *uneven_dt(int threads, int turning, double dt)
{
    rbl_sim *sim = bed_dt(threads, dt);
    const double T = 3000 * DT;
    const double at[6] = {0.0, 0.13, 0.31, 0.52, 0.77, 1.0};
    rbl_motion_row push[6], turn[6];
    for (int k = 0; k < 6; k++) {
        const double t = at[k] * T;
        const double y[3] = {0.0, 1.0, 0.0};
        push[k] = (rbl_motion_row){.t = t, .shift = {1.2e-3 * sin(M_PI * at[k]), 1e-4 * at[k], 0}};
        turn_quat(y, turning ? 0.05 * sin(6.0 * t / T) : 0.0, push[k].quat);
        const double wobble[3] = {0.1 * sin(7.0 * t / T), 0.1 * cos(5.0 * t / T), 1.0};
        const double len = sqrt(wobble[0] * wobble[0] + wobble[1] * wobble[1] + 1.0);
        const double axis[3] = {wobble[0] / len, wobble[1] / len, 1.0 / len};
        turn[k] = (rbl_motion_row){.t = t, .shift = {0, 0, 2e-5 * at[k]}};
        if (!turning) /* instead: sideways and up and down */
            turn[k].shift[0] = 4e-4 * sin(5.0 * t / T), turn[k].shift[2] = 2e-4 * at[k];
        turn_quat(axis, turning ? W * t * (1.0 + 0.5 * at[k]) : 0.0, turn[k].quat);
    }
    set_table(sim, 0, push, 6, (double[3]){-0.0115, 0.0, 0.0}, 0);
    set_table(sim, 1, turn, 6, PIVOT, 0);
    return sim;
}

static rbl_sim *uneven(int threads) { return uneven_dt(threads, 1, DT); }

/* Uneven tables, turning or only sliding: the balance's largest move over 3 ms at dt and at
 * dt / 2 falls at least as dt, as under the built-in motions (a wall turning about an axis
 * not along its normal, or pushing hard, leaves a balance first order in dt: the tilted turn
 * above, built in or tabled, 4.5e-9, 2.0e-9, 9.4e-10 J at dt, dt/2, dt/4; built-in
 * translations of the same size 5.2e-9, 2.3e-9, 1.2e-9 J). Velocities the contacts see that
 * were not the interpolation's would leave an error that does not fall with dt: with the
 * tables' spin left out of their contacts (on purpose) it stays at 3.4e-6 J at both. */
static void energy_balance(double share)
{
    for (int turning = 1; turning >= 0; turning--) {
        double walk[2], work[2], push;
        for (int half = 0; half < 2; half++) {
            rbl_sim *sim = uneven_dt(1, turning, half ? 0.5 * DT : DT);
            walk[half] = balance_walk(sim, half ? 3000 : 1500, &work[half], &push);
            ASSERT_TRUE(push > 0.0);
            rbl_sim_destroy(sim);
        }
        printf("uneven tables%s: the balance's largest move over 3 ms %.3g J at dt, %.3g J at "
               "dt/2, of the walls' work %.3g J (%.3g; the built-in motions above %.3g)\n",
               turning ? "" : " without turns", walk[0], walk[1], work[0], walk[0] / work[0],
               share);
        ASSERT_TRUE(work[0] > 1e-6);
        ASSERT_TRUE(walk[1] < 0.6 * walk[0]);
        ASSERT_TRUE(walk[0] / work[0] < 1e-3);
    }
}

static void restart_and_switch(void)
{
    rbl_sim *one = uneven(1), *two = uneven(2);
    dem_assert_restart_same(one, &two); /* saved at step 751, mid-table (rows every ~400) */
    rbl_sim_destroy(one), rbl_sim_destroy(two);
    printf("uneven tables: restarted at step 751 on 2 threads, the same bits as 1 thread\n");

    /* the pusher at rest, switched to a table at step 300 (now: from where it is) */
    rbl_sim *sim = bed(1);
    dem_step(sim, 300);
    const double foot[3] = {-0.012, 0.001, 0.0};
    double before[3], after[3], later[3];
    rbl_sim_wall_place(sim, 0, foot, 1, before);
    const double t1 = 300 * DT, y[3] = {0.0, 1.0, 0.0};
    rbl_motion_row rows[2] = {{0.0, {0, 0, 0}, {1, 0, 0, 0}}, {400 * DT, {1e-5, 0, 0}, {0}}};
    turn_quat(y, 0.01, rows[1].quat);
    set_table(sim, 0, rows, 2, foot, 1);
    rbl_sim_wall_place(sim, 0, foot, 1, after);
    ASSERT_TRUE(memcmp(before, after, sizeof before) == 0);
    dem_step(sim, 200); /* half way: the foot (the pivot) 5e-6 m along +x */
    double own[3];
    rbl_sim_wall_place(sim, 0, foot, 1, later);
    for (int c = 0; c < 3; c++)
        own[c] = later[c] - before[c];
    printf("a resting pusher switched to a table at t = %g s: it stays where it was, and 200 "
           "steps on its pivot has moved (%.3g, %.3g, %.3g) m\n", t1, own[0], own[1], own[2]);
    ASSERT_NEAR(own[0], 5e-6, 1e-15);
    ASSERT_TRUE(fabs(own[1]) < 1e-18 && fabs(own[2]) < 1e-18);
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    ASSERT_NEAR(t.wall_travel[0], 5e-6, 1e-15);
    rbl_sim_destroy(sim);
}

static void refused(void)
{
    rbl_sim *sim = bed(1);
    rbl_error err = {0};
    rbl_motion_row rows[3] = {{0.0, {0}, {1, 0, 0, 0}}, {0.1, {0}, {1, 0, 0, 0}},
                              {0.2, {0}, {1, 0, 0, 0}}};
    rbl_wall_table tab = {.n = 1, .rows = rows};
    ASSERT_TRUE(rbl_sim_set_wall_table(sim, 0, &tab, 0, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    tab.n = 3;
    rows[2].t = 0.1;
    ASSERT_TRUE(rbl_sim_set_wall_table(sim, 1, &tab, 1, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    ASSERT_TRUE(strstr(err.message, "wall 2: motion table row 3") != NULL);
    rows[2].t = 0.2, rows[1].shift[1] = NAN;
    ASSERT_TRUE(rbl_sim_set_wall_table(sim, 0, &tab, 0, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    rows[1].shift[1] = 0.0, rows[1].quat[0] = 0.9;
    ASSERT_TRUE(rbl_sim_set_wall_table(sim, 0, &tab, 0, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    const double x[3] = {1.0, 0.0, 0.0};
    turn_quat(x, 0.0, rows[1].quat), turn_quat(x, 3.13, rows[2].quat); /* 179.3 degrees */
    ASSERT_TRUE(rbl_sim_set_wall_table(sim, 0, &tab, 0, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    rows[0].t = -1.0;
    ASSERT_TRUE(rbl_sim_set_wall_table(sim, 0, &tab, 0, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    ASSERT_TRUE(rbl_sim_set_wall_table(sim, 2, &tab, 0, &err) == RBL_EINVAL);
    printf("refused: %s\n", err.message);
    rbl_sim_destroy(sim);
}

int main(void)
{
    double share;
    as_built_in(&share);
    energy_balance(share);
    restart_and_switch();
    refused();
    return 0;
}
