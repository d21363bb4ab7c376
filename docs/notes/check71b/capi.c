/* check71b: the viscous rolling damping through the C API, by name */
#include "rubble.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static int fails = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { fails++; printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } } while (0)

static void refused(int rc, const rbl_error *err, const char *what)
{
    printf("  %-34s rc=%d: %s\n", what, rc, rc ? err->message : "(accepted!)");
    EXPECT(rc != RBL_OK, "%s accepted", what);
}

static double run(double eta, int pair, double t_end, double *balance, double *lost_r, double *w0out)
{
    rbl_error err = {0};
    rbl_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    for (int a = 0; a < 3; a++) cfg.lo[a] = -0.05, cfg.hi[a] = 0.05;
    cfg.lo[2] = -0.01;
    cfg.gravity[2] = -9.81;
    cfg.dt = 1e-5;
    cfg.threads = 1;
    cfg.law.normal = RBL_NORMAL_LINEAR;
    cfg.law.kn = 1e4;
    cfg.law.gamma_n = 0.5;
    if (rbl_contact_law_set_model(&cfg.law, "tangential", "none", &err) ||
        rbl_contact_law_set_model(&cfg.law, "rolling", "viscous", &err)) {
        printf("set_model: %s\n", err.message);
        fails++;
        return NAN;
    }
    rbl_sim *sim;
    if (rbl_sim_create(&sim, &cfg, &err)) { printf("create: %s\n", err.message); fails++; return NAN; }
    rbl_material m = {.density = 2500};
    int mi;
    rbl_sim_add_material(sim, &m, &mi, &err);
    rbl_wall w = {.normal = {0, 0, 1}, .offset = 0, .material = mi};
    rbl_sim_add_wall(sim, &w, &err);
    const double r = 0.01, mass = 2500 * 4.0 / 3.0 * M_PI * r * r * r, I = 0.4 * mass * r * r;
    rbl_grain g = {.pos = {0, 0, r - mass * 9.81 / 1e4}, .omega = {20, 0, 0}, .radius = r, .material = mi};
    uint32_t id;
    rbl_sim_add_grain(sim, &g, &id, &err);
    int rc = rbl_sim_set_law_coef(sim, "rolling.damping", eta, &err);
    EXPECT(rc == RBL_OK, "set_law_coef: %s", err.message);
    double back = -1;
    rbl_sim_law_coef(sim, "rolling_damping", &back, &err);
    EXPECT(back == eta, "read back %g", back);
    double eff = eta;
    if (pair) {
        rc = rbl_sim_set_pair_coef(sim, mi, mi, "rolling_damping", 2 * eta, &err);
        EXPECT(rc == RBL_OK, "set_pair_coef: %s", err.message);
        eff = 2 * eta;
    }
    rbl_thermo th;
    rbl_sim_thermo(sim, &th);
    uint64_t steps = (uint64_t)llround(t_end / cfg.dt);
    rc = rbl_sim_step(sim, steps, &err);
    EXPECT(rc == RBL_OK, "step: %s", err.message);
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    rbl_sim_thermo(sim, &th);
    *balance = th.balance;
    *lost_r = th.dissipated[RBL_LOSS_ROLLING];
    *w0out = 0.5 * I * 400.0;
    double wx = v.omega[0], want = 20 * exp(-eff * t_end / I);
    printf("  eta %g%s: w(%g) = %.9g, closed form %.9g, rel %.2e; balance %.3e J, rolling loss %.6e J (E_rot0 %.6e)\n",
           eta, pair ? " (pair 2 eta)" : "", t_end, wx, want, wx / want - 1, th.balance,
           th.dissipated[RBL_LOSS_ROLLING], *w0out);
    rbl_sim_destroy(sim);
    return wx / want - 1;
}

int main(void)
{
    double bal, lr, e0;
    double rel = run(1e-6, 0, 0.5, &bal, &lr, &e0);
    EXPECT(fabs(rel) < 1e-4, "decay off by %g", rel);
    rel = run(1e-6, 1, 0.5, &bal, &lr, &e0);
    EXPECT(fabs(rel) < 1e-4, "pair decay off by %g", rel);

    rbl_error err = {0};
    rbl_contact_law law;
    memset(&law, 0, sizeof law);
    printf("refusals:\n");
    refused(rbl_contact_law_set_model(&law, "rolling", "viscuos", &err), &err, "set_model rolling viscuos");
    EXPECT(strstr(err.message, "viscous") != NULL, "no 'viscous' in the message");
    refused(rbl_contact_law_set_model(&law, "rollin", "viscous", &err), &err, "set_model rollin viscous");
    refused(rbl_contact_law_set_model(&law, "rolling", "", &err), &err, "set_model rolling ''");

    rbl_sim_config cfg;
    memset(&cfg, 0, sizeof cfg);
    for (int a = 0; a < 3; a++) cfg.lo[a] = -1, cfg.hi[a] = 1;
    cfg.dt = 1e-5, cfg.law.kn = 1e4, cfg.threads = 1;
    rbl_contact_law_set_model(&cfg.law, "rolling", "viscous", &err);
    rbl_sim *sim;
    if (rbl_sim_create(&sim, &cfg, &err)) { printf("create: %s\n", err.message); return 1; }
    refused(rbl_sim_set_law_coef(sim, "rolling.dampnig", 1e-6, &err), &err, "rolling.dampnig");
    refused(rbl_sim_set_law_coef(sim, "rolling.damping", -1e-6, &err), &err, "rolling.damping -1e-6");
    refused(rbl_sim_set_law_coef(sim, "rolling.damping", NAN, &err), &err, "rolling.damping NaN");
    refused(rbl_sim_set_law_coef(sim, "rolling.damping", 1e300, &err), &err, "rolling.damping 1e300");
    refused(rbl_sim_set_law_coef(sim, "rolling.damping", INFINITY, &err), &err, "rolling.damping inf");
    refused(rbl_sim_set_law_coef(sim, "rolling.friction", 0.1, &err), &err, "rolling.friction (viscous)");
    refused(rbl_sim_set_law_coef(sim, "twisting.damping", 1e-6, &err), &err, "twisting.damping");
    int rc = rbl_sim_set_law_coef(sim, "rolling_damping", 0.0, &err);
    printf("  rolling_damping 0 rc=%d %s\n", rc, rc ? err.message : "(accepted)");
    rbl_sim_destroy(sim);
    /* under cdt, the viscous coefficient is not the model's */
    rbl_contact_law_set_model(&cfg.law, "rolling", "cdt", &err);
    cfg.law.rolling_friction = 0.1;
    rbl_sim_create(&sim, &cfg, &err);
    refused(rbl_sim_set_law_coef(sim, "rolling.damping", 1e-6, &err), &err, "rolling.damping under cdt");
    rbl_sim_destroy(sim);
    printf("%s (%d failures)\n", fails ? "FAILED" : "OK", fails);
    return fails != 0;
}
