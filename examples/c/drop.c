/* drop.c — the simulation API in C (README "The library"): one glass grain of 5 mm dropped
 * onto a floor under gravity, the linear law with damping (restitution about 0.5), stepped for
 * 0.5 s; it comes to rest sunk into the floor by mg / k_n. tests/cli_install.sh builds it
 * against an installed librubble (pkg-config and CMake) and checks where it rests.
 *   cc -o drop drop.c $(pkg-config --cflags --libs rubble) && ./drop */
#include <rubble.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    rbl_sim_config cfg;
    memset(&cfg, 0, sizeof cfg); /* zero: the linear law, no friction, all cores */
    for (int a = 0; a < 3; a++)
        cfg.lo[a] = 0.0, cfg.hi[a] = 0.1; /* the domain, m */
    cfg.gravity[2] = -9.81;
    cfg.law.kn = 1e3;      /* N/m */
    cfg.law.gamma_n = 0.5; /* N s/m */
    cfg.dt = 1e-5;         /* s */
    cfg.threads = 1;
    const rbl_material glass = {.density = 2500};
    const rbl_wall floor = {.normal = {0, 0, 1}, .offset = 0};
    const rbl_grain grain = {.pos = {0.05, 0.05, 0.02}, .radius = 0.005, .material = 0};
    rbl_sim *sim;
    rbl_error err = {0};
    if (rbl_sim_create(&sim, &cfg, &err) != RBL_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    if (rbl_sim_add_material(sim, &glass, NULL, &err) != RBL_OK ||
        rbl_sim_add_wall(sim, &floor, &err) != RBL_OK ||
        rbl_sim_add_grain(sim, &grain, NULL, &err) != RBL_OK ||
        rbl_sim_step(sim, 50000, &err) != RBL_OK) {
        fprintf(stderr, "%s\n", err.message);
        rbl_sim_destroy(sim);
        return 1;
    }
    rbl_grains_view v; /* valid until the next step */
    rbl_sim_grains(sim, &v);
    const double z = v.pos[2], m = 2500 * 4.0 / 3.0 * 3.14159265358979 * 1.25e-7;
    const double rest = 0.005 - m * 9.81 / 1e3;
    printf("the grain rests at z = %.7f m (radius less mg/k_n: %.7f m)\n", z, rest);
    rbl_sim_destroy(sim);
    return z > rest - 1e-7 && z < rest + 1e-7 ? 0 : 1;
}
