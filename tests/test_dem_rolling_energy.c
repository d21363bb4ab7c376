/* test_dem_rolling_energy.c — the epsd2 rolling spring never gives out more work than it took
 * in (issue 69: JKR-bound beads spun up to 5.7e4 rad/s and examples/cohesive.yaml was stopped
 * by the health check at t = 0.284 s).
 *
 * The spring is checked along prescribed paths of one contact (the kernel alone, as the pair
 * pass and the walls call it) by its energy balance: the energy it created, U - U_0 - W, with U
 * the rolling term of rbl_contact_energy (what thermo's `elastic` and the health check count)
 * and W the work the relative spin did on it (its torque at the middle of each step, so that a
 * spring of constant stiffness balances to round-off), must stay <= 0 within round-off:
 * - the contact breathes (JKR in tension and compression, and strong sjkr on Hertz) while the
 *   beads roll to and fro, wound while the contact is stiff and unwound while it is soft: a
 *   spring that keeps its torque as its stiffness k_t R*^2 (8 G* a R*^2) falls gives out
 *   |M|^2 (1/k_soft - 1/k_stiff) / 2 more than it took, each cycle;
 * - the normal turns a quarter turn after the spring was wound, then the beads twist about the
 *   new normal: a torque left along the normal is a constant twisting torque, which the
 *   increments (they omit the spin along n) never wind back: work without end.
 * Then two beads held by JKR that orbit each other while their rolling spring swings: their
 * total energy (kinetic, rotational, JKR's, the springs') must not grow (it grew by 10 times
 * the spring's energy in 0.012 s, exponentially). A JKR pile with the rolling spring restarts
 * from a checkpoint bit for bit (its history: the torque and the stiffness it last had), and a
 * checkpoint of format 11 (a history of 6 doubles) is refused, naming its version. */
#include "dem/contact_kernel.h"
#include "dem_test_util.h"

static const double R = 0.0005, RHO = 2500.0, E = 5e6, NU = 0.3;

/* The law of examples/cohesive.yaml: Hertz-Mindlin from E, nu, with the tangential spring,
 * JKR (w) or sjkr (k_c), epsd2 with mu_r; e = 1 (no damping: only the spring at work). */
static void cohesive_law(rbl_cohesion_model cohesion, double energy, double mu_r,
                         rbl_contact_law *law, rbl_pair_coef *pc)
{
    memset(law, 0, sizeof *law);
    law->from_materials = 1;
    law->normal = RBL_NORMAL_HERTZ;
    law->damping = RBL_DAMPING_TSUJI;
    law->tangent = RBL_TANGENT_SPRING;
    law->cohesion = cohesion;
    law->rolling = RBL_ROLLING_EPSD2;
    law->rolling_friction = mu_r;
    *pc = (rbl_pair_coef){.y_star = E / (2.0 * (1.0 - NU * NU)),
                          .g_star = E / (4.0 * (2.0 - NU) * (1.0 + NU)), .beta = 0.0, .mu = 0.7,
                          .mu_r = mu_r, .cohesion = energy, .gn = 0.0};
}

/* Two beads of radius R, at rest but for the relative spin w, at overlap xi along n. */
static void bead_pair(const double n[3], double xi, const double w[3], rbl_contact_geom *g)
{
    memset(g, 0, sizeof *g);
    for (int a = 0; a < 3; a++)
        g->n[a] = n[a], g->w[a] = w[a];
    g->overlap = xi;
    double l1 = R - 0.5 * xi;
    g->a2 = R * R - l1 * l1;
    g->r_eff = 0.5 * R;
    g->m_eff = 0.5 * RHO * 4.0 / 3.0 * M_PI * R * R * R;
}

/* The rolling spring's share of the contact's energy. */
static double rolling_energy(const rbl_contact_law *law, const rbl_pair_coef *pc,
                             const rbl_contact_geom *g, const double *h)
{
    double bare[RBL_HIST_MAX];
    memcpy(bare, h, sizeof bare);
    for (size_t k = rbl_hist_rolling(law); k < rbl_hist_rolling(law) + 4; k++)
        bare[k] = 0.0;
    double s = 2.0 * R - g->overlap;
    return rbl_contact_energy(law, pc, g, h, R, R, s, NULL) -
           rbl_contact_energy(law, pc, g, bare, R, R, s, NULL);
}

/* A path of the contact, step by step, and the spring's account. */
typedef struct account {
    double h[RBL_HIST_MAX], m_prev[3];
    double u0, work, created, u_max;
} account;

/* One step at geometry g: the spring's new torque, the work w . (M_before + M_after) / 2 dt
 * the spin did on it, and the energy it created so far. */
static void account_step(account *a, const rbl_contact_law *law, const rbl_pair_coef *pc,
                         const rbl_contact_geom *g, double dt)
{
    rbl_contact_out o;
    rbl_contact_force(law, pc, g, dt, a->h, &o);
    const double *m = a->h + rbl_hist_rolling(law);
    for (int k = 0; k < 3; k++)
        a->work += 0.5 * (a->m_prev[k] + m[k]) * g->w[k] * dt;
    a->m_prev[0] = m[0], a->m_prev[1] = m[1], a->m_prev[2] = m[2];
    double u = rolling_energy(law, pc, g, a->h);
    a->u_max = fmax(a->u_max, u);
    a->created = fmax(a->created, u - a->u0 - a->work);
}

/* The contact breathes, xi = xi_m + xi_a sin(2 W t), while the beads roll to and fro,
 * w = w0 cos(W t) about y (n along x): wound while stiff, unwound while soft. */
static void breathing(rbl_cohesion_model cohesion, double energy, double xi_m, double xi_a,
                      const char *name)
{
    rbl_contact_law law;
    rbl_pair_coef pc;
    cohesive_law(cohesion, energy, 0.3, &law, &pc);
    const double W = 2.0 * M_PI * 100.0, w0 = 1e-3 * W, dt = 1e-6; /* 1 mrad swings */
    const int steps = 5 * (int)(2.0 * M_PI / W / dt);                 /* 5 cycles */
    account a;
    memset(&a, 0, sizeof a);
    const double n[3] = {1.0, 0.0, 0.0};
    double xi_lo = INFINITY, xi_hi = -INFINITY;
    for (int k = 1; k <= steps; k++) {
        double t = k * dt, w[3] = {0.0, w0 * cos(W * t), 0.0};
        double xi = xi_m + xi_a * sin(2.0 * W * t);
        xi_lo = fmin(xi_lo, xi), xi_hi = fmax(xi_hi, xi);
        rbl_contact_geom g;
        bead_pair(n, xi, w, &g);
        account_step(&a, &law, &pc, &g, dt);
    }
    printf("%s breathing (xi %.3g to %.3g m), rolling to and fro, 5 cycles: the spring created "
           "%.3g J (its energy up to %.3g J)\n",
           name, xi_lo, xi_hi, a.created, a.u_max);
    ASSERT_TRUE(a.u_max > 1e-13);                /* wound, and below its cap: */
    ASSERT_TRUE(a.created <= 1e-6 * a.u_max);    /* created nothing (round-off) */
}

/* The spring wound about y with n along x; the normal turns to y (a rigid quarter turn of
 * the pair about z: no relative spin); then the beads twist about the new normal, against the
 * torque that was left along it. */
static void normal_turns(void)
{
    rbl_contact_law law;
    rbl_pair_coef pc;
    cohesive_law(RBL_COHESION_JKR, 0.3, 0.3, &law, &pc);
    const double dt = 1e-6, w0 = 1.0, xi = 2e-6;
    account a;
    memset(&a, 0, sizeof a);
    rbl_contact_geom g;
    for (int k = 0; k < 1000; k++) { /* 1 mrad about y */
        const double n[3] = {1.0, 0.0, 0.0}, w[3] = {0.0, w0, 0.0};
        bead_pair(n, xi, w, &g);
        account_step(&a, &law, &pc, &g, dt);
    }
    double wound = a.h[rbl_hist_rolling(&law) + 1];
    for (int k = 1; k <= 1000; k++) { /* the quarter turn */
        double phi = 0.5 * M_PI * k / 1000.0;
        const double n[3] = {cos(phi), sin(phi), 0.0}, w[3] = {0.0, 0.0, 0.0};
        bead_pair(n, xi, w, &g);
        account_step(&a, &law, &pc, &g, dt);
    }
    const double *n = g.n, *m = a.h + rbl_hist_rolling(&law);
    double along = m[0] * n[0] + m[1] * n[1] + m[2] * n[2];
    double size = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    for (int k = 0; k < 10000; k++) { /* twisting for 10 ms */
        const double nn[3] = {0.0, 1.0, 0.0}, w[3] = {0.0, -w0, 0.0};
        bead_pair(nn, xi, w, &g);
        account_step(&a, &law, &pc, &g, dt);
    }
    printf("normal turned: the torque %.4g N m (wound %.4g) has %.3g N m along the new normal; "
           "twisting against it, the spring created %.3g J (its energy %.3g J)\n",
           size, wound, along, a.created, a.u_max);
    ASSERT_NEAR(size, wound, 1e-12 * wound); /* turned with the contact, its size kept */
    ASSERT_TRUE(fabs(along) < 1e-12 * wound);
    ASSERT_TRUE(a.created <= 1e-6 * a.u_max);
}

/* JKR beads of radius R and the cohesive example's glass, e = 1, epsd2 mu_r 0.3. */
static rbl_sim *jkr_beads(double dt, double lo, double hi, double gz)
{
    rbl_sim_config cfg = dem_config(lo, hi, 0.0, 0.0, dt);
    cfg.gravity[2] = gz;
    rbl_pair_coef pc;
    cohesive_law(RBL_COHESION_JKR, 0.3, 0.3, &cfg.law, &pc);
    cfg.law.surface_energy = 0.3;
    rbl_sim *sim = NULL;
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_create(&sim, &cfg, &err));
    rbl_material m = {.density = RHO, .youngs_modulus = E, .poisson_ratio = NU,
                      .restitution = 1.0, .friction = 0.7};
    ASSERT_OK(rbl_sim_add_material(sim, &m, NULL, &err));
    return sim;
}

/* Two beads at JKR's zero-force overlap, their rolling spring swinging (spins +-5 rad/s about
 * y), set orbiting each other about z at 200 rad/s: the contact's normal turns. */
static void orbiting_pair(void)
{
    rbl_sim *sim = jkr_beads(1e-7, -0.05, 0.05, 0.0);
    rbl_contact_law law;
    rbl_pair_coef pc;
    cohesive_law(RBL_COHESION_JKR, 0.3, 0.3, &law, &pc);
    double ys = E / (2.0 * (1.0 - NU * NU)), reff = 0.5 * R, c = sqrt(2.0 * M_PI * 0.3 / ys);
    double a0 = pow(1.5 * reff * c, 2.0 / 3.0); /* F(a) = 0 */
    double xi0 = a0 * a0 / reff - c * sqrt(a0), om = 200.0;
    for (int s = -1; s <= 1; s += 2) {
        rbl_grain g;
        memset(&g, 0, sizeof g);
        g.radius = R;
        g.pos[0] = s * (R - 0.5 * xi0);
        g.vel[1] = om * g.pos[0];
        g.omega[1] = -s * 5.0, g.omega[2] = om;
        uint32_t id;
        rbl_error err = {0};
        ASSERT_OK(rbl_sim_add_grain(sim, &g, &id, &err));
    }
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_prepare(sim, &err)); /* the contact found: its JKR energy counted */
    rbl_thermo t;
    rbl_sim_thermo(sim, &t);
    ASSERT_EQ_INT(t.contacts, 1);
    const double e0 = t.kinetic + t.rotational + t.elastic;
    double grown = -INFINITY, spring = 0.0;
    for (int k = 0; k < 120; k++) { /* 0.012 s: 0.4 turns */
        dem_step(sim, 1000);
        rbl_sim_thermo(sim, &t);
        ASSERT_EQ_INT(t.contacts, 1);
        grown = fmax(grown, t.kinetic + t.rotational + t.elastic - e0);
        rbl_grains_view v;
        rbl_sim_grains(sim, &v);
        double d2 = 0.0;
        for (int a = 0; a < 3; a++)
            d2 += (v.pos[3 + a] - v.pos[a]) * (v.pos[3 + a] - v.pos[a]);
        rbl_contact_geom geo;
        const double n[3] = {1.0, 0.0, 0.0}, w[3] = {0.0, 0.0, 0.0};
        bead_pair(n, 2.0 * R - sqrt(d2), w, &geo);
        spring = fmax(spring, rolling_energy(&sim->cfg.law, &pc, &geo, sim->pairs.hist));
    }
    printf("JKR pair orbiting at %.0f rad/s, rolling spring swinging: energy grew by at most "
           "%.3g J in 0.012 s (the spring holds up to %.3g J; total %.4g J)\n",
           om, grown, spring, e0);
    ASSERT_TRUE(spring > 1e-12);
    ASSERT_TRUE(grown < 1e-3 * spring);
    rbl_sim_destroy(sim);
}

/* A JKR pile on a floor with the rolling spring: restart bit for bit, 1 and 2 threads; an
 * older format is refused. */
static void restart(void)
{
    rbl_sim *sims[2];
    for (int s = 0; s < 2; s++) {
        sims[s] = jkr_beads(2e-6, -0.005, 0.005, -9.81);
        rbl_wall floor = {{0.0, 0.0, 1.0}, 0.0, 0};
        rbl_error err = {0};
        ASSERT_OK(rbl_sim_add_wall(sims[s], &floor, &err));
        ASSERT_OK(rbl_sim_set_threads(sims[s], s + 1, &err));
        uint64_t seed = 7;
        for (int k = 0; k < 48; k++) { /* a 4 x 4 x 3 stack, touching, jittered */
            double x = (k % 4 - 1.5) * 1.98 * R, y = (k / 4 % 4 - 1.5) * 1.98 * R;
            double z = R + (k / 16) * 1.98 * R;
            dem_grain(sims[s], x, y, z, 0.02 * (test_uniform(&seed) - 0.5),
                      0.02 * (test_uniform(&seed) - 0.5), 0.0, R);
        }
    }
    dem_assert_restart_same(sims[0], &sims[1]);
    rbl_thermo t;
    rbl_sim_thermo(sims[1], &t);
    printf("JKR pile with the rolling spring: restart bit-identical at step %llu (%zu contacts, "
           "%zu with walls)\n", (unsigned long long)t.step, t.contacts, t.wall_contacts);
    ASSERT_TRUE(t.contacts > 40 && t.wall_contacts > 10);
    /* the same file as format 12 (before the epsd2 history of 4 doubles) */
    char path[] = "/tmp/rubble_rolling_ckpt_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    close(fd);
    rbl_error err = {0};
    ASSERT_OK(rbl_sim_save(sims[1], path, &err));
    FILE *f = fopen(path, "r+b");
    ASSERT_TRUE(f != NULL);
    const uint32_t twelve = 12;
    ASSERT_TRUE(fseek(f, 8, SEEK_SET) == 0 && fwrite(&twelve, 4, 1, f) == 1);
    fclose(f);
    rbl_sim *old = NULL;
    ASSERT_TRUE(rbl_sim_load(path, &old, &err) != RBL_OK && old == NULL);
    printf("refused: %s\n", err.message);
    ASSERT_TRUE(strstr(err.message, "format version 12") != NULL);
    remove(path);
    rbl_sim_destroy(sims[0]);
    rbl_sim_destroy(sims[1]);
}

int main(void)
{
    const double ys = E / (2.0 * (1.0 - NU * NU)), reff = 0.5 * R;
    /* JKR at w = 0.3: from 0.6 of the way to pull-off (tension) to 3 times the zero-force
     * overlap; sjkr with a pull-off ~ JKR's, on a Hertz spring */
    double reach = rbl_jkr_reach(0.3, ys, reff);
    breathing(RBL_COHESION_JKR, 0.3, 0.5 * (4e-6 - 0.6 * reach), 0.5 * (4e-6 + 0.6 * reach),
              "JKR");
    breathing(RBL_COHESION_SJKR, 2e5, 3e-6, 2.5e-6, "sjkr");
    normal_turns();
    orbiting_pair();
    restart();
    return 0;
}
