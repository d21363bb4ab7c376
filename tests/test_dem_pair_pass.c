/* test_dem_pair_pass.c — the pair pass runs the contact law over blocks of contacts at once
 * (SIMD, padded lanes, results summed in pair order). For every contact law it must give,
 * bit for bit, what the contact law gives one contact at a time: force and torque on both
 * grains, and the updated history. 300 isolated pairs, about three quarters touching (more
 * than three blocks, the last one partial), the others within the skin but apart, with
 * random radii, materials, velocities and spins, and a few steps of history. And the health
 * check's deepest overlap, which the pass keeps, against a search over all pairs. With
 * twisting and with collision statistics too: the widest histories, whose rows past the
 * dashpots' the pass copies in and out of its blocks. The wall pass runs the same lanes
 * (contact_lanes.c) on grain-wall contacts: for every law, 300 isolated grains on a floor and
 * under a sliding, turning ceiling, each contact's force, torque, history and its grain's
 * losses as the law gives them one contact at a time. */
#include "dem/contact_kernel.h"
#include "dem_test_util.h"

#define PAIRS 300

typedef struct law_case {
    rbl_normal_model normal;
    rbl_damping_model damping;
    rbl_tangent_model tangent;
    int from_materials;
    rbl_rolling_model rolling;
    rbl_cohesion_model cohesion;
    rbl_twisting_model twisting;
    int collisions; /* the contacts keep their events: the history's widest rows */
} law_case;

/* A simulation of the law of lc in a box of 0.2 m, two materials (0 and 1). */
static rbl_sim *law_sim(const law_case *lc)
{
    const double rho = 2500.0;
    rbl_sim_config cfg = dem_config(0.0, 0.2, 0.0, 0.0, 1e-7);
    cfg.law.normal = lc->normal, cfg.law.damping = lc->damping, cfg.law.tangent = lc->tangent;
    cfg.law.from_materials = lc->from_materials;
    cfg.law.kn = lc->normal == RBL_NORMAL_HERTZ ? 1e6 : 2000.0;
    cfg.law.gamma_n = lc->damping == RBL_DAMPING_TSUJI ? 0.05 : 0.01;
    cfg.law.gamma_t = 0.5 * cfg.law.gamma_n;
    cfg.law.friction = 0.4;
    cfg.law.rolling = lc->rolling, cfg.law.rolling_friction = 0.1;
    cfg.law.cohesion = lc->cohesion, cfg.law.cohesion_energy_density = 2e4;
    cfg.law.surface_energy = 0.5; /* jkr: holds to about 3 % of the radius beyond touching */
    cfg.law.twisting = lc->twisting;
    rbl_sim *sim = dem_create(&cfg, rho);
    rbl_material stiff = {.density = rho, .youngs_modulus = 5e7, .poisson_ratio = 0.25,
                          .restitution = 0.7, .friction = 0.3};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_material(sim, &stiff, NULL, &err));
    return sim;
}

static rbl_sim *isolated_pairs(const law_case *lc, uint64_t seed)
{
    const double r = 0.001;
    rbl_sim *sim = law_sim(lc);
    rbl_error err = {0};
    for (int k = 0; k < PAIRS; k++) {
        double c[3] = {0.005 + 0.01 * (k % 19), 0.005 + 0.01 * ((k / 19) % 19), 0.1};
        double u[3], len = 0.0;
        for (int a = 0; a < 3; a++)
            u[a] = rand01(&seed) - 0.5, len += u[a] * u[a];
        len = sqrt(len);
        rbl_grain g[2];
        memset(g, 0, sizeof g);
        for (int s = 0; s < 2; s++) {
            g[s].radius = r * (0.6 + 0.8 * rand01(&seed)); /* size ratios up to 2.3 */
            g[s].material = rand01(&seed) < 0.5;
            for (int a = 0; a < 3; a++) {
                g[s].vel[a] = 0.1 * (rand01(&seed) - 0.5);
                g[s].omega[a] = 100.0 * (rand01(&seed) - 0.5);
            }
        }
        /* overlap from -1 % (apart, but listed) to 3 % of the nominal radius */
        double gap = g[0].radius + g[1].radius - r * (0.04 * rand01(&seed) - 0.01);
        for (int a = 0; a < 3; a++) {
            g[0].pos[a] = c[a];
            g[1].pos[a] = c[a] + gap * u[a] / len;
        }
        for (int s = 0; s < 2; s++) {
            uint32_t id;
            ASSERT_OK(rbl_sim_add_grain(sim, &g[s], &id, &err));
        }
    }
    if (lc->collisions)
        ASSERT_OK(rbl_sim_collisions(sim, 8, 1e-15, 1e-6, &err));
    return sim;
}

static void same_as_one_at_a_time(const law_case *lc, const char *name)
{
    rbl_sim *sim = isolated_pairs(lc, 11);
    dem_step(sim, 3); /* springs with some history */
    const rbl_grains *g = &sim->g;
    const rbl_pair_list *p = &sim->pairs;
    ASSERT_TRUE(p->n == PAIRS);
    /* one contact at a time, on copies of the histories */
    ASSERT_TRUE(rbl_pack_grains(sim, g->vel, g->omega));
    const rbl_pair_arrays arrays = rbl_pair_arrays_of(sim);
    const size_t width = rbl_hist_width(&sim->cfg.law);
    double *hist = malloc(width * p->n * sizeof *hist);
    double *want = malloc(9 * p->n * sizeof *want); /* f, torque on i, torque on j */
    int *touching = malloc(p->n * sizeof *touching);
    ASSERT_TRUE(hist && want && touching);
    memcpy(hist, p->hist, width * p->n * sizeof *hist);
    size_t touching_count = 0;
    for (size_t q = 0; q < p->n; q++) {
        rbl_contact_geom geo;
        double l1, l2, *h = hist + width * q, *w = want + 9 * q;
        touching[q] = rbl_pair_geometry(&arrays, arrays.pk + p->i[q], q, rbl_pair_reach(sim, q),
                                        rbl_velocity_lag(sim), &geo, &l1, &l2);
        if (!touching[q]) {
            memset(h, 0, width * sizeof *h);
            continue;
        }
        touching_count++;
        rbl_contact_out o;
        double c[3];
        rbl_contact_force(&sim->cfg.law,
                          rbl_pair_coef_of(sim, g->material[p->i[q]], g->material[p->j[q]]),
                          &geo, sim->cfg.dt, h, &o);
        rbl_cross(geo.n, o.ft, c);
        for (int a = 0; a < 3; a++)
            w[a] = o.f[a], w[3 + a] = -l1 * c[a] + o.tr[a], w[6 + a] = -l2 * c[a] - o.tr[a];
    }
    /* the pair pass, completed by the gather (no gravity, no walls) */
    rbl_error err = {0};
    ASSERT_OK(rbl_forces_compute(sim, &err));
    rbl_forces_gather(sim);
    size_t mismatches = 0;
    for (size_t q = 0; q < p->n; q++) {
        size_t i = p->i[q], j = p->j[q];
        const double *w = want + 9 * q;
        for (int a = 0; a < 3; a++) {
            double fi = touching[q] ? w[a] : 0.0, ti = touching[q] ? w[3 + a] : 0.0;
            double tj = touching[q] ? w[6 + a] : 0.0;
            mismatches += g->force[3 * i + a] != fi || g->force[3 * j + a] != -fi;
            mismatches += g->torque[3 * i + a] != ti || g->torque[3 * j + a] != tj;
        }
        /* the law's slices (a contact's event, past them, is the collision statistics') */
        for (size_t a = 0; a < rbl_hist_collision(&sim->cfg.law); a++)
            mismatches += p->hist[width * q + a] != hist[width * q + a];
        mismatches += g->contacts[i] != (uint32_t)touching[q];
        mismatches += g->contacts[j] != (uint32_t)touching[q];
    }
    printf("%-28s %zu of %d pairs touching, %zu values differ\n", name, touching_count, PAIRS,
           mismatches);
    ASSERT_TRUE(touching_count > 3 * 64 && touching_count < PAIRS);
    ASSERT_TRUE(mismatches == 0);
    free(hist);
    free(want);
    free(touching);
    rbl_sim_destroy(sim);
}

/* Grains on walls (wall_pass.c runs the law on them in the pairs' lanes): PAIRS isolated
 * grains, half above a floor, half below a ceiling of the other material that slides and
 * turns about its normal (its velocity at each contact point in the geometry, its work
 * booked), overlaps from -1 % (listed, apart) to 3 % of the nominal radius, random radii,
 * materials, velocities and spins. */
static rbl_sim *grains_on_walls(const law_case *lc, uint64_t seed)
{
    const double r = 0.001;
    rbl_sim *sim = law_sim(lc);
    rbl_error err = {0};
    const rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0.0, .material = 0};
    const rbl_wall ceiling = {.normal = {0, 0, -1}, .offset = 0.2, .material = 1};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    ASSERT_OK(rbl_sim_add_wall(sim, &ceiling, &err));
    const rbl_wall_motion slide = {.velocity = {0.02, -0.01, 0.0}, .axis = {0, 0, 1},
                                   .center = {0.1, 0.1, 0.2}, .omega = 3.0};
    ASSERT_OK(rbl_sim_set_wall_motion(sim, 1, &slide, &err));
    for (int k = 0; k < PAIRS; k++) {
        rbl_grain g;
        memset(&g, 0, sizeof g);
        g.radius = r * (0.6 + 0.8 * rand01(&seed));
        g.material = rand01(&seed) < 0.5;
        for (int a = 0; a < 3; a++) {
            g.vel[a] = 0.1 * (rand01(&seed) - 0.5);
            g.omega[a] = 100.0 * (rand01(&seed) - 0.5);
        }
        const double gap = g.radius - r * (0.04 * rand01(&seed) - 0.01);
        g.pos[0] = 0.005 + 0.01 * (k % 19), g.pos[1] = 0.005 + 0.01 * ((k / 19) % 19);
        g.pos[2] = k % 2 ? 0.2 - gap : gap;
        uint32_t id;
        ASSERT_OK(rbl_sim_add_grain(sim, &g, &id, &err));
    }
    if (lc->collisions)
        ASSERT_OK(rbl_sim_collisions(sim, 8, 1e-15, 1e-6, &err));
    return sim;
}

/* 1 where a and b are not the same bits (-0 is not 0 here). */
static int bits_differ(double a, double b)
{
    return memcmp(&a, &b, sizeof a) != 0;
}

/* The wall pass against the law one contact at a time (rbl_wall_geometry, rbl_contact_force;
 * the torque on the grain -l1 (n x f_t) + the law's), bit for bit (-0 told from 0): each contact's force and
 * torque, its history's law rows and its grain's losses. */
static void walls_same_as_one_at_a_time(const law_case *lc, const char *name)
{
    rbl_sim *sim = grains_on_walls(lc, 5);
    dem_step(sim, 3); /* springs with some history */
    const rbl_grains *g = &sim->g;
    const rbl_wall_list *w = &sim->wpairs;
    const rbl_contact_law *law = &sim->cfg.law;
    ASSERT_TRUE(w->n == PAIRS);
    const size_t wide = rbl_wall_hist_width(law), rows = rbl_hist_collision(law);
    double *hist = malloc(wide * w->n * sizeof *hist);
    double *want = malloc(6 * w->n * sizeof *want);
    double *lost = malloc(3 * g->n * sizeof *lost);
    int *touching = malloc(w->n * sizeof *touching);
    ASSERT_TRUE(hist && want && lost && touching);
    memcpy(hist, w->hist, wide * w->n * sizeof *hist);
    memcpy(lost, g->loss, 3 * g->n * sizeof *lost);
    size_t touching_count = 0;
    for (size_t q = 0; q < w->n; q++) {
        rbl_contact_geom geo;
        double l1, *h = hist + wide * q, *f = want + 6 * q;
        const uint32_t i = w->grain[q];
        touching[q] = rbl_wall_geometry(sim, q, g->vel, g->omega, rbl_velocity_lag(sim), &geo,
                                        &l1);
        if (!touching[q])
            continue;
        touching_count++;
        rbl_contact_out o;
        double c[3];
        rbl_contact_force(law, rbl_pair_coef_of(sim, g->material[i], sim->walls[w->wall[q]].material),
                          &geo, sim->cfg.dt, h, &o);
        rbl_cross(geo.n, o.ft, c);
        for (int a = 0; a < 3; a++)
            f[a] = o.f[a], f[3 + a] = -l1 * c[a] + o.tr[a], lost[3 * i + a] += o.loss[a];
    }
    rbl_error err = {0};
    ASSERT_OK(rbl_forces_compute(sim, &err));
    rbl_forces_gather(sim);
    size_t mismatches = 0;
    for (size_t q = 0; q < w->n; q++) {
        if (!touching[q]) { /* parted or apart: nothing held */
            mismatches += w->touch[q] != 0;
            continue;
        }
        const uint32_t i = w->grain[q];
        for (int a = 0; a < 6; a++)
            mismatches += bits_differ(w->out[RBL_WALL_OUT * q + (size_t)a], want[6 * q + (size_t)a]);
        for (size_t a = 0; a < rows; a++)
            mismatches += bits_differ(w->hist[wide * q + a], hist[wide * q + a]);
        for (int a = 0; a < 3; a++)
            mismatches += bits_differ(g->loss[3 * i + (size_t)a], lost[3 * i + (size_t)a]);
        mismatches += w->touch[q] != 1;
    }
    printf("%-28s %zu of %d wall contacts touching, %zu values differ\n", name, touching_count,
           PAIRS, mismatches);
    ASSERT_TRUE(touching_count > 3 * 64 && touching_count < PAIRS);
    ASSERT_TRUE(mismatches == 0);
    free(hist);
    free(want);
    free(lost);
    free(touching);
    rbl_sim_destroy(sim);
}

/* The health check's deepest overlap (pair_pass.c block_peak) against brute force: a
 * polydisperse pile (radii 1:5) poured onto a floor between periodic sides, at every force
 * evaluation the largest overlap / smaller radius over every pair and the floor, by a search
 * over all pairs. The pass looks at a block only when its largest overlap reaches the peak
 * share of the smallest radius there is; a filter that missed a lane would report a smaller
 * peak or other grains. On 1 and 2 threads. */
static void health_peak_is_exact(int threads)
{
    const double hi[3] = {0.04, 0.04, 0.2}, L = 0.04, r = 0.004;
    double rho = 2500.0, m = rho * 4.0 / 3.0 * M_PI * r * r * r, kn = 2e3;
    /* damping and dt for the lightest pair, two of the smallest grains (0.2 r) */
    double m_small = 0.008 * m, gamma = rbl_gamma_from_restitution(0.5, 0.5 * m_small, kn);
    rbl_sim_config cfg = dem_floor_config(hi, kn, gamma,
                                          rbl_dt_from_c(0.05, kn, gamma, 0.5 * m_small), threads);
    rbl_sim *sim = dem_create(&cfg, rho);
    rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0.0};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    uint64_t seed = 3;
    for (int z = 0; z < 6; z++)
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 5; x++)
                dem_grain(sim, (x + 0.5) * 0.008, (y + 0.5) * 0.008, 0.005 + z * 0.008,
                          0.3 * (rand01(&seed) - 0.5), 0.3 * (rand01(&seed) - 0.5), -1.0,
                          r * (0.2 + 0.8 * rand01(&seed)));
    double best = 0;
    uint32_t best_ids[2] = {0, 0};
    for (int step = 0; step <= 3000; step++) {
        int rc = step ? rbl_sim_step(sim, 1, &err) : rbl_sim_prepare(sim, &err);
        if (rc != RBL_OK)
            fprintf(stderr, "step %d: %s\n", step, err.message);
        ASSERT_TRUE(rc == RBL_OK);
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        for (size_t i = 0; i < v.n; i++) {
            const double *a = v.pos + 3 * i;
            double wall = (v.radius[i] - a[2]) / v.radius[i];
            if (wall > best)
                best = wall, best_ids[0] = v.id[i], best_ids[1] = UINT32_MAX;
            for (size_t j = i + 1; j < v.n; j++) {
                const double *b = v.pos + 3 * j;
                double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
                for (int k = 0; k < 2; k++)
                    d[k] -= L * round(d[k] / L);
                double dist = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                double ratio = (v.radius[i] + v.radius[j] - dist) / fmin(v.radius[i],
                                                                       v.radius[j]);
                if (ratio > best) {
                    best = ratio;
                    best_ids[0] = v.id[i] < v.id[j] ? v.id[i] : v.id[j];
                    best_ids[1] = v.id[i] < v.id[j] ? v.id[j] : v.id[i];
                }
            }
        }
    }
    rbl_health h;
    rbl_sim_health(sim, &h);
    printf("health peak on %d thread(s): %.6g (grains %u, %u), brute force %.6g (%u, %u)\n",
           threads, h.peak_overlap, h.peak_overlap_ids[0], h.peak_overlap_ids[1], best,
           best_ids[0], best_ids[1]);
    ASSERT_TRUE(best > 0.02); /* the pour's impacts: a peak worth finding */
    ASSERT_NEAR(h.peak_overlap, best, 1e-12 * best);
    uint32_t lo = h.peak_overlap_ids[0] < h.peak_overlap_ids[1] ? h.peak_overlap_ids[0]
                                                                 : h.peak_overlap_ids[1];
    uint32_t hi_id = h.peak_overlap_ids[0] < h.peak_overlap_ids[1] ? h.peak_overlap_ids[1]
                                                                    : h.peak_overlap_ids[0];
    ASSERT_TRUE(lo == best_ids[0] && hi_id == best_ids[1]);
    rbl_sim_destroy(sim);
}

/* The lanes against the law one contact at a time, for pairs and for walls. */
static void lanes_same_as_one_at_a_time(const law_case *lc, const char *name)
{
    same_as_one_at_a_time(lc, name);
    walls_same_as_one_at_a_time(lc, name);
}

int main(void)
{
    static const char *normal[] = {"linear", "hertz"}, *damping[] = {"linear", "tsuji"};
    static const char *tangent[] = {"none", "seed", "spring"};
    for (int t = 0; t < 3; t++) {
        char name[64];
        for (int nm = 0; nm < 2; nm++)
            for (int d = 0; d < 2; d++) {
                law_case lc = {nm, d, t, 0, RBL_ROLLING_NONE, RBL_COHESION_NONE, RBL_TWISTING_NONE, 0};
                snprintf(name, sizeof name, "%s/%s/%s", normal[nm], damping[d], tangent[t]);
                lanes_same_as_one_at_a_time(&lc, name);
            }
        law_case lc = {RBL_NORMAL_HERTZ, RBL_DAMPING_LINEAR, t, 1, RBL_ROLLING_NONE,
                       RBL_COHESION_NONE, RBL_TWISTING_NONE, 0};
        snprintf(name, sizeof name, "materials/%s", tangent[t]);
        lanes_same_as_one_at_a_time(&lc, name);
    }
    /* the composed loop: rolling resistance and cohesion, on both families of laws */
    static const char *rolling[] = {"no rolling", "cdt", "epsd2"};
    for (int r = 0; r < 3; r++)
        for (int coh = 0; coh < 2; coh++)
            for (int m = 0; m < 2; m++) {
                if (r == 0 && coh == 0)
                    continue;
                char name[64];
                law_case lc = {m ? RBL_NORMAL_HERTZ : RBL_NORMAL_LINEAR, RBL_DAMPING_LINEAR,
                               RBL_TANGENT_SPRING, m, r, coh, RBL_TWISTING_NONE, 0};
                snprintf(name, sizeof name, "%s/spring/%s%s", m ? "materials" : "linear",
                         rolling[r], coh ? "/sjkr" : "");
                lanes_same_as_one_at_a_time(&lc, name);
            }
    for (int r = 0; r < 3; r++) {
        char name[64];
        law_case lc = {RBL_NORMAL_HERTZ, RBL_DAMPING_LINEAR, RBL_TANGENT_SPRING, 1, r,
                       RBL_COHESION_JKR, RBL_TWISTING_NONE, 0};
        snprintf(name, sizeof name, "materials/spring/%s/jkr", rolling[r]);
        lanes_same_as_one_at_a_time(&lc, name);
    }
    /* the twisting model's slices past the dashpots', and the collision statistics' event
     * past all of the law's (the widest histories) */
    for (int m = 0; m < 2; m++) {
        char name[64];
        law_case lc = {m ? RBL_NORMAL_HERTZ : RBL_NORMAL_LINEAR, RBL_DAMPING_LINEAR,
                       RBL_TANGENT_SPRING, m, RBL_ROLLING_EPSD2, RBL_COHESION_SJKR,
                       RBL_TWISTING_MARSHALL, !m};
        snprintf(name, sizeof name, "%s/spring/epsd2/sjkr/marshall%s", m ? "materials" : "linear",
                 m ? "" : "/events");
        lanes_same_as_one_at_a_time(&lc, name);
    }
    health_peak_is_exact(1);
    health_peak_is_exact(2);
    return 0;
}
