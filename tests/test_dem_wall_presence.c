/* test_dem_wall_presence.c — walls taken away and put back between steps (issue 73: gates;
 * rbl_sim_set_wall_present, src/dem/wall_presence.c).
 * - A frictional pile settling on a floor (a plane; a rectangle primitive) whose floor is taken
 *   away: the energy its contacts held (elastic, with the tangential springs loaded) and the
 *   kick term of their last forces are booked as taken out by the change, those forces taken
 *   out of the grains', so the balance does not move at the change and the next step moves it
 *   as the step with the floor left does, within 1e-4 of what was booked (the wall's forces
 *   left in the grains moved it by 3.6 % of that: seen before the fix); the grains fall, with
 *   no wall contact.
 * - A wall put back where a grain touches it is refused, naming the grain; put back clear of
 *   the grains, it catches them.
 * - A pile whose floor was taken away, saved at an odd step on 2 threads and loaded, ends in
 *   the same bits as the run on 1 thread that went straight on (the checkpoint holds the
 *   wall's absence). */
#include "dem_test_util.h"

#include <math.h>

/* 64 grains of about 5 mm settled on the floor z = 0 of a box 0.05 m wide (periodic in x and
 * y, from z = -0.05): floor (wall 1) a plane, or (primitive) a rectangle primitive as wide as
 * the box; with `lower`, a second floor (wall 2), a plane 15 mm lower, away from the start. */
static rbl_sim *settled_on(int primitive, int lower, int threads)
{
    const double hi[3] = {0.05, 0.05, 0.1};
    const int n[3] = {4, 4, 4};
    rbl_sim *pile = dem_pile(hi, 0.005, n, 0.0125, 0.006, 0.0, 11, threads, 0.001, 0);
    rbl_sim_config c = *rbl_sim_config_get(pile);
    c.lo[2] = -0.05;
    rbl_sim *sim = dem_create(&c, 2500.0);
    rbl_error err = {0};
    rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0.0};
    rbl_primitive p;
    memset(&p, 0, sizeof p);
    p.kind = RBL_PRIM_RECTANGLE;
    p.center[0] = p.center[1] = 0.025, p.axis[2] = 1.0, p.side[0] = 1.0;
    p.size[0] = p.size[1] = 0.2; /* beyond the box: the periodic images stand on it too */
    if (primitive)
        ASSERT_OK(rbl_sim_add_primitive_wall(sim, &p, 0, &err));
    else
        ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    if (lower) {
        rbl_wall below = {.normal = {0, 0, 1}, .offset = 0.015};
        ASSERT_OK(rbl_sim_add_wall(sim, &below, &err));
        ASSERT_OK(rbl_sim_set_wall_present(sim, 1, 0, &err)); /* (before the first step) */
    }
    rbl_grains_view v;
    rbl_sim_grains(pile, &v);
    for (size_t k = 0; k < v.n; k++)
        dem_grain(sim, v.pos[3 * k], v.pos[3 * k + 1], v.pos[3 * k + 2], 0.0, 0.0, 0.0,
                  v.radius[k]);
    rbl_sim_destroy(pile);
    dem_step(sim, 2200);
    return sim;
}

static rbl_sim *settled(int primitive, int threads) { return settled_on(primitive, 0, threads); }

/* The balance's change over the step after the floor of a settled pile is taken away (take
 * 1) or left (take 0); *booked: what the change booked, *held: the floor's contacts' energy. */
static double step_after(int primitive, int take, double *booked, double *scale)
{
    rbl_sim *sim = settled(primitive, 1);
    rbl_error err = {0};
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    ASSERT_TRUE(t.wall_contacts >= 10);
    const double b0 = t.balance, changes0 = t.put_in[RBL_IN_CHANGES];
    *scale = fabs(t.potential) + t.elastic + t.kinetic;
    if (take) {
        ASSERT_OK(rbl_sim_set_wall_present(sim, 0, 0, &err));
        ASSERT_TRUE(!rbl_sim_wall_present(sim, 0));
        rbl_sim_thermo(sim, &t);
        *booked = t.put_in[RBL_IN_CHANGES] - changes0;
        ASSERT_TRUE(t.balance == b0); /* what it took is what it booked, exactly */
    }
    dem_step(sim, 1);
    rbl_sim_thermo(sim, &t);
    ASSERT_TRUE(take ? t.wall_contacts == 0 : t.wall_contacts >= 10);
    double worst = 0.0;
    for (int k = 0; take && k < 20; k++) { /* then falling: the pile's own steps */
        dem_step(sim, 10);
        rbl_thermo u;
        rbl_sim_thermo(sim, &u);
        worst = fmax(worst, fabs(u.balance - b0));
        ASSERT_TRUE(u.wall_contacts == 0);
    }
    ASSERT_TRUE(worst < 1e-4 * *scale);
    rbl_sim_destroy(sim);
    return t.balance - b0;
}

static void taken_away_books_its_contacts(void)
{
    for (int primitive = 0; primitive < 2; primitive++) {
        double booked = 0.0, scale;
        const double left = step_after(primitive, 0, &booked, &scale);
        const double taken = step_after(primitive, 1, &booked, &scale);
        printf("a settled pile's floor (%s) taken away: %.3g J booked as taken out; the next "
               "step's balance moved %.3g J, with the floor left %.3g J (scale %.3g J)\n",
               primitive ? "a rectangle" : "a plane", -booked, taken, left, scale);
        /* unbooked: the contacts' energy (the jump was -booked); their last forces left in
           the grains: 3.6 % of it */
        ASSERT_TRUE(booked < 0.0);
        ASSERT_TRUE(fabs(taken - left) < 1e-4 * -booked);
    }
}

static void put_back(void)
{
    rbl_sim *sim = settled_on(0, 1, 1);
    rbl_error err = {0};
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    ASSERT_TRUE(t.wall_contacts > 0 && t.wall_force[3 * 1 + 2] == 0.0);
    ASSERT_OK(rbl_sim_set_wall_present(sim, 0, 0, &err));
    ASSERT_OK(rbl_sim_set_wall_present(sim, 0, 0, &err)); /* (already away: nothing) */
    dem_step(sim, 50);
    /* the grains of the lowest layer still overlap the plane z = 0 */
    ASSERT_TRUE(rbl_sim_set_wall_present(sim, 0, 1, &err) == RBL_EINVAL);
    printf("put back where grains are: %s\n", err.message);
    ASSERT_TRUE(strstr(err.message, "wall 1 cannot be put back where grain") != NULL);
    ASSERT_TRUE(!rbl_sim_wall_present(sim, 0));
    ASSERT_TRUE(rbl_sim_set_wall_present(sim, 5, 1, &err) == RBL_EINVAL);
    ASSERT_TRUE(rbl_sim_wall_present(sim, 5) == 0);
    /* the lower floor put back clear of them: it catches them */
    ASSERT_OK(rbl_sim_set_wall_present(sim, 1, 1, &err));
    dem_step(sim, 3500);
    rbl_sim_thermo(sim, &t);
    printf("the lower floor put back: %zu grains on it, pushed down by %.3g N, %zu lost\n",
           (size_t)t.wall_contacts, -t.wall_force[3 * 1 + 2], (size_t)t.lost);
    ASSERT_TRUE(t.wall_contacts >= 5 && t.wall_force[3 * 1 + 2] < 0.0 && t.lost == 0);
    rbl_sim_destroy(sim);
}

/* The floor taken away at step 2200 + 7, one run straight on (1 thread), one saved 751 steps
 * later on 2 threads and loaded: the same bits. */
static void restart_after_taking_away(void)
{
    rbl_sim *one = settled(1, 1), *two = settled(1, 2);
    rbl_error err = {0};
    dem_step(one, 7), dem_step(two, 7);
    ASSERT_OK(rbl_sim_set_wall_present(one, 0, 0, &err));
    ASSERT_OK(rbl_sim_set_wall_present(two, 0, 0, &err));
    dem_assert_restart_same(one, &two);
    ASSERT_TRUE(!rbl_sim_wall_present(two, 0));
    rbl_sim_destroy(one), rbl_sim_destroy(two);
    printf("a pile whose floor was taken away, restarted 751 steps later on 2 threads: the same "
           "bits\n");
}

int main(void)
{
    taken_away_books_its_contacts();
    put_back();
    restart_after_taking_away();
    return 0;
}
