/* fdo_spin_energy.c — how much kinetic energy a free spinning object loses or gains with the
 * turn per step |omega| dt (issue 70): one ellipsoid of each of five shapes spun about 20 random
 * axes, 2000 steps of 1e-4 s with no contact, the largest |dE/E| over the 100 runs printed per
 * |omega| dt. It chose the impulse scenes' bound on |omega| dt (docs/fdo.md, "Hostile inputs").
 * Built and run against a build's library:
 *   cc -O2 -Iinclude bench/fdo_spin_energy.c -Lbuild -lrubble -Wl,-rpath,$PWD/build -lm \
 *      -o spin_energy && OMP_NUM_THREADS=1 ./spin_energy */
#include "rubble.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    static const double shapes[][3] = {{0.01, 0.006, 0.004}, {0.01, 0.0099, 0.0098},
                                       {0.01, 0.002, 0.001}, {0.01, 0.01, 0.005},
                                       {0.01, 0.005, 0.005}};
    static const double turns[] = {0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.7, 0.8, 0.9, 1.0};
    srand(7);
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("|omega| dt (rad)  largest |dE/E| over 5 shapes x 20 axes, 2000 steps\n");
    for (size_t i = 0; i < sizeof turns / sizeof *turns; i++) {
        double worst = 0;
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
            for (int d = 0; d < 20; d++) {
                rbl_fdo_params p = {.dt = 1e-4, .threads = 1};
                rbl_fdo_sim *sim;
                rbl_error err = {0};
                rbl_fdo_shape sh = {0};
                double u[3], n = 0, w[3], x[3] = {0, 0, 0}, q[4] = {1, 0, 0, 0}, v[3] = {0, 0, 0};
                for (int a = 0; a < 3; a++) {
                    sh.semi[a] = shapes[s][a];
                    u[a] = (double)rand() / RAND_MAX - 0.5;
                    n += u[a] * u[a];
                }
                for (int a = 0; a < 3; a++)
                    w[a] = u[a] / sqrt(n) * turns[i] / p.dt;
                if (rbl_fdo_sim_create(&p, &sim, &err) != RBL_OK ||
                    rbl_fdo_sim_add(sim, &sh, 2500, x, q, v, w, &err) != RBL_OK) {
                    fprintf(stderr, "%s\n", err.message);
                    return 1;
                }
                double e0, e, pe;
                rbl_fdo_sim_energy(sim, &e0, &pe);
                for (int k = 0; k < 2000; k++) {
                    rbl_fdo_sim_step(sim, 1, &err);
                    rbl_fdo_sim_energy(sim, &e, &pe);
                    worst = fmax(worst, fabs(e - e0) / e0);
                }
                rbl_fdo_sim_free(sim);
            }
        printf("%.2f %.3g\n", turns[i], worst);
    }
    return 0;
}
