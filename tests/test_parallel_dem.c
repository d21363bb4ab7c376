/* One simulation over however many ranks the test is started with (ctest: alone and under
 * mpirun on 2, 3 and 4 ranks) ends in the same bits as the same scene on one process: every
 * grain's position, velocity and spin, compared by id. Scenes: a polydisperse pile thrown
 * sideways onto a floor between periodic sides (friction, rolling resistance with its spring
 * history, reordering every 100 steps), also onto a floor that tilts and shakes; a hot
 * frictional Hertz gas, fully periodic, with the synchronized integrator, where grains change
 * rank (950 times on 4 ranks); two grains colliding, so that most ranks hold nothing. The
 * diagnostics summed over the ranks are one process's bits (contacts, listed pairs, energies,
 * momenta, virials, wall forces: exact sums).
 *
 * Checkpoints from P processes to Q: midway every run writes a checkpoint, every rank its own
 * grains into the one file (checkpoint_ranks.c); rank 0 then restarts from that file alone and
 * ends in the same bits, and so do all the ranks reading it apart, each only its share
 * (checkpoint_read_ranks.c), which refuses crafted copies (a pair's grain beyond the grains, a
 * twin id, a flipped bit) with one message on every rank. The pile and the gas are also run on one process first and written to a checkpoint
 * between two neighbour builds, which every rank loads and spreads (its contact histories
 * handed over, its next build where one process makes it). A pile pressed by a servo lid (its
 * load summed over the ranks), and a cloud that collapses under its own gravity (every rank
 * gathers all the grains for the tree) while grains fired out of it are removed beyond an
 * escape distance, and clumps (jacks) among spheres, end in one process's bits too. */
#include "dem_test_util.h"

#include "base/base_internal.h"
#include "parallel/parallel_internal.h"
#include "io/io_internal.h" /* rbl_checkpoint_write_ranks, rbl_checkpoint_read_ranks */
#include "io/checkpoint_layout.h" /* rbl_checkpoint_head: where the grains begin */

#include <stdio.h>

static double uniform(uint64_t *s) { return rand01(s); }

/* A pile: 490 grains of radius 0.4-0.6 mm on a jittered lattice above a floor, thrown
 * down and sideways, in a box periodic along x and y; the floor still, tilting and shaking,
 * or still under a lid that a servo drives down to press the pile with 0.05 N. */
enum { STILL, TILTING, PRESSED };
static rbl_sim *pile_on(int floor_motion)
{
    const double L = 0.00875, H = 0.03;
    rbl_sim_config cfg = dem_config(0.0, L, 2500.0, 0.0, 2e-6);
    cfg.hi[2] = H;
    cfg.periodic[0] = cfg.periodic[1] = 1;
    cfg.gravity[2] = -9.81;
    cfg.law.gamma_n = 0.04;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.5;
    cfg.law.rolling = RBL_ROLLING_EPSD2;
    cfg.law.rolling_friction = 0.1;
    cfg.skin = 1e-4;
    cfg.sort_every = 100;
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_wall floor = {{0.0, 0.0, 1.0}, 0.0, 0};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    if (floor_motion == TILTING) { /* about y through the floor's middle, and up and down by
                                      0.1 mm at 200 Hz */
        rbl_wall_motion m = {0};
        m.axis[1] = 1.0, m.center[0] = m.center[1] = 0.5 * L, m.omega = 4.0;
        m.amplitude[2] = 1e-4, m.frequency = 200.0;
        ASSERT_OK(rbl_sim_set_wall_motion(sim, 0, &m, &err));
    }
    if (floor_motion == PRESSED) { /* its load is summed over every rank's grains */
        rbl_wall lid = {{0.0, 0.0, -1.0}, 0.0128, 0};
        ASSERT_OK(rbl_sim_add_wall(sim, &lid, &err));
        rbl_wall_motion m = {0};
        m.servo = 1, m.servo_axis[2] = -1.0, m.servo_force = 0.05, m.servo_speed = 2.0;
        ASSERT_OK(rbl_sim_set_wall_motion(sim, 1, &m, &err));
    }
    uint64_t seed = 7;
    const double a = 1.25e-3;
    for (int z = 0; z < 10; z++)
        for (int y = 0; y < 7; y++)
            for (int x = 0; x < 7; x++) {
                double r = 0.4e-3 + 0.2e-3 * uniform(&seed);
                double px = (x + 0.5) * a + 0.05e-3 * (uniform(&seed) - 0.5);
                double py = (y + 0.5) * a + 0.05e-3 * (uniform(&seed) - 0.5);
                double pz = 0.65e-3 + z * a;
                double vx = 0.8 * (uniform(&seed) - 0.3), vy = 0.4 * (uniform(&seed) - 0.5);
                dem_grain(sim, px, py, pz, vx, vy, -1.0, r);
            }
    return sim;
}

static rbl_sim *thrown_pile(void) { return pile_on(STILL); }
static rbl_sim *tilting_pile(void) { return pile_on(TILTING); }
static rbl_sim *pressed_pile(void) { return pile_on(PRESSED); }

/* A gas: 512 grains of radius 0.5 mm at up to 5 m/s in a periodic box of 12 mm, Hertz
 * contacts from the material, with friction, synchronized integrator. */
static rbl_sim *gas(void)
{
    const double L = 0.012;
    rbl_sim_config cfg = dem_config(0.0, L, 0.0, 0.0, 2e-7);
    cfg.periodic[0] = cfg.periodic[1] = cfg.periodic[2] = 1;
    cfg.law.from_materials = 1;
    cfg.law.normal = RBL_NORMAL_HERTZ;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.integrator = RBL_INTEGRATOR_SYNCHRONIZED;
    cfg.skin = 1e-4;
    cfg.sort_every = 50;
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    uint64_t seed = 11;
    for (int z = 0; z < 8; z++)
        for (int y = 0; y < 8; y++)
            for (int x = 0; x < 8; x++) {
                double vx = 10.0 * (uniform(&seed) - 0.5), vy = 10.0 * (uniform(&seed) - 0.5);
                double vz = 10.0 * (uniform(&seed) - 0.5);
                dem_grain(sim, (x + 0.5) * 1.5e-3, (y + 0.5) * 1.5e-3, (z + 0.5) * 1.5e-3, vx,
                          vy, vz, 0.5e-3);
            }
    return sim;
}

/* A channel 40 mm long and 3.5 mm wide, periodic along both, 208 grains of radius 0.5 mm
 * sliding along it at 1 m/s over a floor: on 4 ranks the partition cuts it into 4 slabs, each
 * the neighbour of two (one across the periodic seam), so grains migrate and ghosts travel
 * between neighbours only, never to the slab across. */
static rbl_sim *channel(void)
{
    rbl_sim_config cfg = dem_config(0.0, 0.04, 2500.0, 0.0, 2e-6);
    cfg.hi[1] = 0.0035, cfg.hi[2] = 0.01;
    cfg.periodic[0] = cfg.periodic[1] = 1;
    cfg.gravity[2] = -9.81;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.5;
    cfg.skin = 1e-4;
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    rbl_wall floor = {{0.0, 0.0, 1.0}, 0.0, 0};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    uint64_t seed = 5;
    for (int z = 0; z < 4; z++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 26; x++)
                dem_grain(sim, (x + 0.5) * 1.538e-3, (y + 0.5) * 1.75e-3, 0.55e-3 + z * 1.1e-3,
                          1.0 + 0.2 * (uniform(&seed) - 0.5), 0.05 * (uniform(&seed) - 0.5),
                          -0.1, 0.5e-3);
    return sim;
}

/* Two grains meeting head on in a closed box: on more ranks than grains, most hold none. */
static rbl_sim *two(void)
{
    rbl_sim_config cfg = dem_config(0.0, 0.01, 1e4, 1e-3, 1e-6);
    rbl_sim *sim = dem_create(&cfg, 2500.0);
    dem_grain(sim, 0.003, 0.005, 0.005, 1.0, 0.0, 0.0, 1e-3);
    dem_grain(sim, 0.007, 0.0052, 0.005, -1.0, 0.0, 0.0, 1e-3);
    return sim;
}

/* A cloud of 216 frictional grains collapsing under its own gravity (the tree evaluated every
 * second step and held in between, so the held field moves with its grain; or the Cells every
 * step), in an open domain,
 * and six grains fired out of it, removed beyond the escape distance of 1 m from the centre of
 * mass (the same centre over all ranks: exact sums). */
static rbl_sim *cloud_by(rbl_gravity_method method, uint64_t every)
{
    rbl_sim_config cfg = dem_cloud_config(2.0);
    cfg.open = 1;
    cfg.escape = 1.0;
    cfg.self_gravity.method = method;
    cfg.self_gravity.every = every;
    rbl_sim *sim = dem_create(&cfg, DEM_CLOUD_RHO);
    dem_cloud_grains(sim);
    for (int a = 0; a < 3; a++)
        for (int sign = -1; sign <= 1; sign += 2) {
            double x[3] = {0.0, 0.0, 0.0}, v[3] = {0.0, 0.0, 0.0};
            x[a] = 0.45 * sign, v[a] = 2.0 * sign;
            dem_grain(sim, x[0], x[1], x[2], v[0], v[1], v[2], 0.05);
        }
    return sim;
}

/* Jacks: a sphere of 0.5 mm and six more 3 mm out along the axes, a clump whose members reach
 * 3 mm from its centre where a ghost layer of spheres alone is 1.2 mm. A lattice of them
 * (turned at random) with spheres among them, thrown about over a floor between periodic
 * sides: each clump goes with its centre of mass, its members with it. */
static rbl_sim *jacks(void)
{
    const double r = 5e-4, arm = 3e-3, rho = 2500.0;
    static double sphere[4 * 7];
    static rbl_clump jack = {7, sphere};
    static rbl_mass_properties props;
    const double ms = rho * 4.0 / 3.0 * M_PI * r * r * r;
    memset(sphere, 0, sizeof sphere);
    for (int e = 0; e < 7; e++) {
        sphere[4 * e + 3] = r;
        if (e > 0)
            sphere[4 * e + (e - 1) % 3] = e <= 3 ? arm : -arm;
    }
    memset(&props, 0, sizeof props);
    props.volume = 7.0 * 4.0 / 3.0 * M_PI * r * r * r;
    props.density = rho, props.mass = rho * props.volume;
    for (int a = 0; a < 3; a++) {
        props.principal[a] = 4.0 * ms * arm * arm + 7.0 * 0.4 * ms * r * r;
        props.inertia[a][a] = props.principal[a], props.axes[a][a] = 1.0;
    }
    rbl_sim_config cfg = dem_config(0.0, 0.02, 2000.0, 1e-4, 3e-6);
    cfg.hi[2] = 0.04;
    cfg.periodic[0] = cfg.periodic[1] = 1;
    cfg.gravity[2] = -9.81;
    cfg.law.tangent = RBL_TANGENT_SPRING;
    cfg.law.friction = 0.5;
    cfg.skin = 2e-4;
    rbl_sim *sim = dem_create(&cfg, rho);
    rbl_wall floor = {{0.0, 0.0, 1.0}, 0.0, 0};
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_add_wall(sim, &floor, &err));
    rbl_insert_spec spec = {.lo = {0.0, 0.0, 0.0}, .hi = {0.02, 0.02, 0.02}, .vel_spread = 1.0,
                            .seed = 3, .clump = &jack, .clump_props = &props};
    size_t placed = 0;
    ASSERT_OK(rbl_sim_insert_lattice(sim, &spec, &placed, &err));
    ASSERT_TRUE(placed >= 8);
    rbl_insert_spec spheres = {.lo = {0.0, 0.0, 0.0}, .hi = {0.02, 0.02, 0.02},
                               .size = {.kind = RBL_SIZE_CONSTANT, .radius = r},
                               .vel_spread = 1.0, .count = 300, .seed = 4};
    ASSERT_OK(rbl_sim_insert_random(sim, &spheres, &placed, &err));
    return sim;
}

static rbl_sim *cloud(void) { return cloud_by(RBL_GRAVITY_TREE, 2); }
/* 1728 grains: enough a rank (4 at most) for the tree built apart, not gathered */
static rbl_sim *big_cloud(void)
{
    rbl_sim_config cfg = dem_cloud_config(2.0);
    cfg.open = 1;
    cfg.self_gravity.theta = 0.7;
    rbl_sim *sim = dem_create(&cfg, DEM_CLOUD_RHO);
    dem_cloud_lattice(sim, 12);
    return sim;
}
/* the seed's Cells, in which many grains share a Cell: their order is the ids' */
static rbl_sim *cloud_cells(void) { return cloud_by(RBL_GRAVITY_CELLS, 1); }

/* The simulation written to a checkpoint by every rank at once, each its own grains
 * (rbl_checkpoint_write_ranks, as `rubble run` writes them), the run going on undisturbed. */
static void checkpoint_from_ranks(rbl_domain *d, rbl_comm *c, rbl_sim *sim, const char *path)
{
    rbl_error err = {0};
    ASSERT_OK(rbl_checkpoint_write_ranks(path, c, d, sim, NULL, 0, &err));
}

/* Rank 0's state of every grain by id (9 doubles: position, velocity, spin) from one process's
 * sim; ids are 0..n-1 here. */
static double *by_id(rbl_sim *one, size_t *n)
{
    rbl_grains_view v;
    rbl_sim_grains(one, &v);
    double *ref = malloc(9 * (v.n ? v.n : 1) * sizeof *ref);
    for (size_t k = 0; k < v.n; k++) {
        ASSERT_TRUE(v.id[k] < v.n);
        for (int a = 0; a < 3; a++) {
            ref[9 * v.id[k] + a] = v.pos[3 * k + a];
            ref[9 * v.id[k] + 3 + a] = v.vel[3 * k + a];
            ref[9 * v.id[k] + 6 + a] = v.omega[3 * k + a];
        }
    }
    *n = v.n;
    return ref;
}

/* A checkpoint read by every rank apart (each its share: rbl_checkpoint_read_ranks, as
 * `rubble run --restart` over several processes reads one), spread, run `steps` more; every
 * grain on rank 0 by id. */
static rbl_gathered resumed_apart(rbl_comm *c, const char *path, uint64_t steps)
{
    rbl_error err = {0};
    rbl_sim *sim = NULL;
    void *extra = NULL;
    size_t extra_len = 0;
    rbl_history_rows pairs = {0}, walls = {0};
    ASSERT_OK(rbl_checkpoint_read_ranks(path, c, &sim, &extra, &extra_len, &pairs, &walls,
                                        &err));
    rbl_domain *d = NULL;
    ASSERT_OK(rbl_domain_create_apart(&d, c, sim, &pairs, &walls, &err));
    dem_step(sim, steps);
    rbl_gathered all;
    ASSERT_OK(rbl_domain_gather(d, &all, &err));
    free(extra);
    rbl_history_rows_free(&pairs), rbl_history_rows_free(&walls);
    rbl_domain_free(d);
    rbl_sim_destroy(sim);
    return all;
}

/* Crafted copies of a checkpoint (its checksum made right again) read apart: refused on every
 * rank with the one message. */
static void put_at(unsigned char *p, uint64_t at, const void *v, size_t n) { memcpy(p + at, v, n); }

static void crafted_apart(rbl_comm *c, const char *path, const rbl_sim *sim)
{
    const int rank = rbl_comm_rank(c);
    const char *bad = "pdem_crafted.bin";
    enum { PAIR, TWIN, FLIP, KINDS };
    const char *want[KINDS] = {"inconsistent checkpoint contents", "two grains share one id",
                               "checksum mismatch"};
    for (int kind = 0; kind < KINDS; kind++) {
        if (rank == 0) {
            FILE *f = fopen(path, "rb");
            ASSERT_TRUE(f != NULL);
            fseek(f, 0, SEEK_END);
            const long size = ftell(f);
            rewind(f);
            unsigned char *b = malloc((size_t)size);
            ASSERT_TRUE(fread(b, 1, (size_t)size, f) == (size_t)size);
            fclose(f);
            void *head = NULL;
            size_t head_len = 0;
            ASSERT_TRUE(rbl_checkpoint_head(sim, &head, &head_len));
            free(head);
            const uint64_t len = (uint64_t)size - 32, at_n = 24 + head_len;
            uint64_t n;
            memcpy(&n, b + at_n, 8);
            /* the grains' columns: 12 of vectors, 6 of doubles, 5 of 32-bit fields */
            const uint64_t ids = at_n + 8 + n * (12 * 24 + 6 * 8);
            if (kind == PAIR) { /* the first pair's first grain beyond the grains */
                const uint64_t at_np = at_n + 8 + n * (CKPT_GRAIN_BYTES) + 24;
                uint64_t np;
                memcpy(&np, b + at_np, 8);
                ASSERT_TRUE(np > 0 && np < n * 100);
                const uint32_t beyond = (uint32_t)n;
                put_at(b, at_np + 8, &beyond, 4);
            } else if (kind == TWIN) { /* the last grain takes the first's id */
                memcpy(b + ids + 4 * (n - 1), b + ids, 4);
            } else {
                b[24 + len / 2] ^= 1;
            }
            if (kind != FLIP) {
                uint64_t h = rbl_fnv1a(RBL_FNV1A_START, b + 24, (size_t)len);
                put_at(b, 24 + len, &h, 8);
            }
            f = fopen(bad, "wb");
            ASSERT_TRUE(fwrite(b, 1, (size_t)size, f) == (size_t)size);
            fclose(f);
            free(b);
        }
        rbl_comm_sum(c, 0.0); /* (a barrier: the file is whole) */
        rbl_error err = {0};
        rbl_sim *got = NULL;
        void *extra = NULL;
        size_t extra_len = 0;
        rbl_history_rows pairs = {0}, walls = {0};
        const int rc = rbl_checkpoint_read_ranks(bad, c, &got, &extra, &extra_len, &pairs,
                                                 &walls, &err);
        if (rc != RBL_EPARSE)
            fprintf(stderr, "rank %d: %d '%s'\n", rank, rc, err.message);
        ASSERT_TRUE(rc == RBL_EPARSE);
        ASSERT_TRUE(got == NULL && extra == NULL && pairs.n == 0);
        if (!strstr(err.message, want[kind]))
            fprintf(stderr, "rank %d: '%s' lacks '%s'\n", rank, err.message, want[kind]);
        ASSERT_TRUE(strstr(err.message, want[kind]) != NULL);
        if (rank == 0)
            printf("refused apart on %d rank(s): %s\n", rbl_comm_size(c), err.message);
        rbl_comm_sum(c, 0.0);
    }
    if (rank == 0)
        remove(bad);
}

static size_t differing(const double *a, const double *b, size_t n)
{
    size_t differ = 0;
    for (size_t k = 0; k < n; k++)
        differ += memcmp(a + 9 * k, b + 9 * k, 9 * sizeof *a) != 0;
    return differ;
}

/* The scene run on one process and over all ranks; rank 0 compares every grain's state.
 * before: steps run on every rank as one process first, on to a step that does not rebuild,
 * written by rank 0 to a checkpoint that every rank loads and spreads. Midway the run writes
 * a checkpoint from all ranks, from which rank 0 alone runs to the end. */
static void same_bits(rbl_comm *c, const char *name, rbl_sim *(*scene)(void), uint64_t before,
                      uint64_t steps)
{
    const int rank = rbl_comm_rank(c), size = rbl_comm_size(c);
    rbl_error err = {0};
    char start[96], mid[96];
    snprintf(start, sizeof start, "pdem_%s_%d_%llu_start.bin", name, size,
             (unsigned long long)before);
    snprintf(mid, sizeof mid, "pdem_%s_%d_%llu_mid.bin", name, size, (unsigned long long)before);
    for (char *p = start; *p; p++)
        *p = *p == ' ' ? '_' : *p;
    for (char *p = mid; *p; p++)
        *p = *p == ' ' ? '_' : *p;
    rbl_sim *one = NULL;
    if (rank == 0) {
        one = scene();
        dem_step(one, steps);
    }
    rbl_sim *sim = scene();
    int between_builds = 0;
    if (before) {
        dem_step(sim, before);
        rbl_sim_timers tm0, tm1;
        do {
            rbl_sim_timers_get(sim, &tm0);
            dem_step(sim, 1), before++;
            rbl_sim_timers_get(sim, &tm1);
        } while (tm1.rebuilds != tm0.rebuilds);
        between_builds = 1;
        if (rank == 0)
            ASSERT_OK(rbl_sim_save(sim, start, &err));
        rbl_sim_destroy(sim);
        rbl_comm_sum(c, 0.0); /* (a barrier: the file is whole) */
        ASSERT_OK(rbl_sim_load(start, &sim, &err));
    }
    steps -= before;
    rbl_domain *d = NULL;
    ASSERT_OK(rbl_domain_create(&d, c, sim, &err));
    const uint64_t part1 = steps / 4 + 3, rest = steps - part1;
    dem_step(sim, part1); /* in parts: the closing half kicks between calls */
    checkpoint_from_ranks(d, c, sim, mid);
    for (int part = 0; part < 3; part++)
        dem_step(sim, rest / 3 + (part == 2 ? rest % 3 : 0));
    rbl_gathered all;
    ASSERT_OK(rbl_domain_gather(d, &all, &err));
    /* the ranks' checkpoint read apart by the ranks, on to the end */
    rbl_gathered apart = resumed_apart(c, mid, rest);
    if (scene == thrown_pile && before == 0)
        crafted_apart(c, mid, sim);
    rbl_thermo whole;
    rbl_domain_thermo(d, &whole);
    rbl_domain_stats st;
    rbl_domain_stats_get(d, &st);
    double moved = rbl_comm_sum(c, (double)st.migrated);
    double ghosts = rbl_comm_sum(c, (double)st.ghosts);
    double bytes = rbl_comm_sum(c, (double)st.bytes);
    double parts = rbl_comm_max(c, (double)st.partitions);
    double all_ranks = rbl_comm_max(c, (double)st.exchanges_all);
    double neighbours = rbl_comm_max(c, (double)st.neighbours);
    if (rank == 0) {
        size_t n = 0;
        double *ref = by_id(one, &n);
        ASSERT_EQ_INT(all.n, n);
        ASSERT_EQ_INT(apart.n, n);
        for (size_t k = 0; k < all.n; k++)
            ASSERT_TRUE(all.id[k] == k && apart.id[k] == k);
        size_t differ = differing(all.state, ref, n);
        size_t differ_apart = differing(apart.state, ref, n);
        /* from the checkpoint written midway by all the ranks, on one process */
        rbl_sim *resumed = NULL;
        ASSERT_OK(rbl_sim_load(mid, &resumed, &err));
        dem_step(resumed, rest);
        size_t m = 0;
        double *again = by_id(resumed, &m);
        ASSERT_EQ_INT(m, n);
        size_t differ_resumed = differing(again, ref, n);
        rbl_thermo t;
        rbl_sim_thermo(one, &t);
        rbl_sim_timers tm;
        rbl_sim_timers_get(one, &tm);
        char from[96] = "";
        if (between_builds)
            snprintf(from, sizeof from, " from one process's checkpoint at step %llu, between "
                     "builds", (unsigned long long)before);
        printf("%s on %d rank%s%s: %zu grains, "
               "%llu steps, %llu lost, %zu touching at the end, %zu on walls (the last pushed "
               "with %.3g N), "
               "%llu builds; %.0f partitions, %.0f exchanges among all ranks (the others "
               "with at most %.0f neighbours), %.0f grains "
               "migrated, %.0f ghosts held at the end, %.0f bytes sent; grains that differ from "
               "one process: %zu; resumed alone from the ranks' checkpoint at step %llu: %zu, "
               "read apart by the ranks: %zu\n",
               name, size, size > 1 ? "s" : "", from, all.n,
               (unsigned long long)(before + steps), (unsigned long long)t.lost, t.contacts,
               t.wall_contacts,
               t.n_walls ? fabs(t.wall_force[3 * t.n_walls - 1]) : 0.0,
               (unsigned long long)tm.rebuilds, parts, all_ranks, neighbours, moved, ghosts,
               bytes, differ,
               (unsigned long long)(before + part1), differ_resumed,
               differ_apart);
        ASSERT_TRUE(differ == 0);
        ASSERT_TRUE(differ_apart == 0);
        ASSERT_TRUE(differ_resumed == 0);
        if (scene == big_cloud && size > 1) /* no rank gathered every grain */
            ASSERT_TRUE(st.gravity_apart > 0 && st.gravity_gathers == 0);
        if (scene == channel && size == 4) /* each slab talks to the two beside it */
            ASSERT_TRUE(neighbours == 2.0 && moved > 0.0);
        /* the diagnostics: counts exact (each pair counted once, by its lower id's rank), sums
           exact too (summed over the ranks limb by limb): one process's bits */
        ASSERT_EQ_INT(whole.grains, t.grains);
        ASSERT_EQ_INT(whole.contacts, t.contacts);
        ASSERT_EQ_INT(whole.pairs_listed, t.pairs_listed);
        ASSERT_EQ_INT(whole.wall_contacts, t.wall_contacts);
        const double got[] = {whole.kinetic, whole.rotational, whole.potential, whole.elastic,
                              whole.contact_virial, whole.gravity_virial, whole.momentum[0],
                              whole.momentum[2], whole.angular_momentum[1]};
        const double want[] = {t.kinetic, t.rotational, t.potential, t.elastic,
                               t.contact_virial, t.gravity_virial, t.momentum[0],
                               t.momentum[2], t.angular_momentum[1]};
        ASSERT_TRUE(memcmp(got, want, sizeof got) == 0);
        ASSERT_TRUE(whole.max_overlap_ratio == t.max_overlap_ratio);
        for (size_t w = 0; w < t.n_walls; w++)
            ASSERT_TRUE(memcmp(whole.wall_force + 3 * w, t.wall_force + 3 * w,
                               3 * sizeof *t.wall_force) == 0);
        free(ref), free(again);
        rbl_sim_destroy(resumed);
        remove(mid);
        if (between_builds)
            remove(start);
    }
    rbl_gathered_free(&all), rbl_gathered_free(&apart);
    rbl_domain_free(d);
    rbl_sim_destroy(sim);
    rbl_sim_destroy(one);
}

int main(void)
{
    rbl_comm *c = NULL;
    rbl_error err = {0};
    ASSERT_OK(rbl_comm_create(&c, &err));
    /* under the sanitizers (RBL_TEST_SLOW_BUILD) every scene runs half its steps, and the gas
       spread from a checkpoint and the Cells are left to the release pass */
    const int all = slow_build_divisor() == 1;
    const uint64_t h = all ? 1 : 2;
    same_bits(c, "pile", thrown_pile, 0, 2500 / h);
    same_bits(c, "pile", thrown_pile, 1500 / h, 2500 / h); /* spread mid-contact */
    same_bits(c, "tilting pile", tilting_pile, 0, 2500 / h);
    same_bits(c, "pressed pile", pressed_pile, 0, 2500 / h);
    same_bits(c, "gas", gas, 0, 800 / h);
    if (all)
        same_bits(c, "gas", gas, 300, 800);
    same_bits(c, "channel", channel, 0, 1500 / h);
    same_bits(c, "two grains", two, 0, 3000 / h);
    same_bits(c, "gravitating cloud", cloud, 0, 1500 / h);
    same_bits(c, "big gravitating cloud", big_cloud, 0, 300 / h);
    same_bits(c, "jacks", jacks, 0, 3000 / h);
    if (all)
        same_bits(c, "gravitating cloud (Cells)", cloud_cells, 0, 600);
    rbl_comm_free(c);
    return 0;
}
