/* cmd_calibrate.c — `rubble calibrate`: the time-step iteration of seed 002 §2.7.3 and §3.1
 * (SPEC SD9): simulate one collision at dt = C pi / omega, halve C until the simulated
 * restitution matches the reference within a tolerance (Fig. 6); with --map, e over a grid
 * of (k_n, gamma), C found per k_n with gamma = 0 and kept for every gamma (Fig. 7). */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rubble calibrate [--case drop|pair] [--kn K] [--gamma G] [--density RHO]\n"
            "                        [--radius R] [--v0 V] [--h0 H] [--g G] [--c0 C]\n"
            "                        [--tol T] [--halvings N] [--onset F] [--csv FILE]\n"
            "       rubble calibrate --map [--kn-range A:B:N] [--gamma-range A:B:N] [--c C] ...\n"
            "defaults: the seed's case: --case drop --kn 1e5 --gamma 100 --density 2000\n"
            "          --radius 0.1 --h0 0.1 --g 9.81 (pair: --v0 0.01), --c0 0.1 --tol 0.005\n"
            "          --halvings 12 (C stops at c0 / 2^12)\n"
            "The drop is compared with the exact solution with gravity; the pair with\n"
            "e = exp(-pi gamma / sqrt(4 m_eff kn - gamma^2)).\n"
            "--map: pair collisions, kn log-spaced over A:B (N values), gamma linear over A:B;\n"
            "       CSV kn,gamma,c,e_sim,e_theory,abs_diff (overdamped pairs are left out);\n"
            "       C from the iteration with gamma = 0 per kn (the seed), or --c for all\n");
}

typedef struct calib {
    rbl_collision col;
    double c0, tol;
    double fixed_c; /* --map --c: this C for every kn instead of the iteration */
    double halvings; /* at most this many halvings of C */
    const char *csv;
} calib;

static double reference(const rbl_collision_result *r) { return r->e_exact; }

/* The seed's iteration: C = c0, c0/2, ... until |e - e_ref| < tol (both measures for the
 * drop). Returns the C found, or 0 if none within 24 halvings; rows go to f if given. */
static double iterate(const calib *cb, FILE *f, int print, rbl_error *err)
{
    int drop = cb->col.kind == RBL_COLLISION_DROP;
    if (print)
        printf("%-12s %-12s %-12s %-12s %-12s %s\n", "C", "dt [s]", drop ? "v/v0" : "e_sim",
               drop ? "sqrt(h/h0)" : "", "e_ref", "|diff|");
    for (int k = 0; k <= (int)cb->halvings; k++) {
        double c = cb->c0 / pow(2.0, k);
        rbl_collision_result r;
        if (rbl_collision_run(&cb->col, c, &r, err) != RBL_OK)
            return -1.0;
        double diff = fabs(r.e_velocity - reference(&r));
        if (drop)
            diff = fmax(diff, fabs(r.e_height - reference(&r)));
        if (print && drop)
            printf("%-12.6g %-12.4g %-12.6f %-12.6f %-12.6f %.2e\n", c, r.dt, r.e_velocity,
                   r.e_height, reference(&r), diff);
        else if (print)
            printf("%-12.6g %-12.4g %-12.6f %-12s %-12.6f %.2e\n", c, r.dt, r.e_velocity, "",
                   reference(&r), diff);
        if (f)
            fprintf(f, "%.8g,%.8g,%.10f,%.10f,%.10f,%.10f\n", c, r.dt, r.e_velocity,
                    drop ? r.e_height : NAN, reference(&r), r.e_closed);
        if (diff < cb->tol)
            return c;
    }
    return 0.0;
}

static int parse_range(const char *text, double *a, double *b, size_t *n)
{
    char extra;
    return sscanf(text, "%lf:%lf:%zu%c", a, b, n, &extra) == 3 && *n >= 1 && *a <= *b ? 0 : -1;
}

static int map(calib *cb, double kn_a, double kn_b, size_t kn_n, double g_a, double g_b,
               size_t g_n)
{
    FILE *f = cb->csv ? fopen(cb->csv, "w") : stdout;
    if (!f)
        return cli_fail("calibrate", EXIT_INPUT, "%s: cannot write", cb->csv);
    fprintf(f, "kn,gamma,c,e_sim,e_theory,abs_diff\n");
    rbl_error err = {0};
    double m = cb->col.material.density * 4.0 / 3.0 * M_PI * pow(cb->col.radius, 3.0);
    double m_eff = cb->col.kind == RBL_COLLISION_PAIR ? 0.5 * m : m;
    for (size_t i = 0; i < kn_n; i++) {
        double kn = kn_n > 1 ? kn_a * pow(kn_b / kn_a, (double)i / (double)(kn_n - 1)) : kn_a;
        calib zero = *cb;
        zero.col.law.kn = kn;
        zero.col.law.gamma_n = 0.0;
        double c = cb->fixed_c > 0.0 ? cb->fixed_c : iterate(&zero, NULL, 0, &err);
        if (c <= 0.0) {
            if (f != stdout)
                fclose(f);
            return cli_fail("calibrate", EXIT_INPUT, "kn = %g: %s", kn,
                            c < 0.0 ? err.message : "no C found");
        }
        for (size_t j = 0; j < g_n; j++) {
            double gamma = g_n > 1 ? g_a + (g_b - g_a) * (double)j / (double)(g_n - 1) : g_a;
            if (gamma * gamma >= 4.0 * m_eff * kn)
                continue; /* overdamped: the seed leaves these white */
            calib one = *cb;
            one.col.law.kn = kn;
            one.col.law.gamma_n = gamma;
            /* the seed keeps the step of gamma = 0 for every gamma of this kn */
            one.col.dt = rbl_dt_from_c(c, kn, 0.0, m_eff);
            rbl_collision_result r;
            if (rbl_collision_run(&one.col, c, &r, &err) != RBL_OK) {
                if (f != stdout)
                    fclose(f);
                return cli_fail("calibrate", EXIT_INPUT, "%s", err.message);
            }
            fprintf(f, "%.8g,%.8g,%.6g,%.8f,%.8f,%.3e\n", kn, gamma, c, r.e_velocity, r.e_exact,
                    fabs(r.e_velocity - r.e_exact));
        }
        fprintf(f, "\n"); /* gnuplot: one block per kn */
    }
    if (f != stdout && fclose(f) != 0)
        return cli_fail("calibrate", EXIT_INPUT, "%s: write failed", cb->csv);
    if (cb->csv)
        printf("written: %s\n", cb->csv);
    return 0;
}

int cmd_calibrate(int argc, char **argv)
{
    calib cb;
    memset(&cb, 0, sizeof cb);
    cb.col.kind = RBL_COLLISION_DROP;
    cb.col.law.normal = RBL_NORMAL_LINEAR;
    cb.col.law.kn = 1e5;
    cb.col.law.gamma_n = 100.0;
    cb.col.material.density = 2000.0;
    cb.col.radius = 0.1;
    cb.col.v0 = 0.01;
    cb.col.h0 = 0.1;
    cb.col.gravity = 9.81;
    cb.col.onset = 0.5;
    cb.c0 = 0.1;
    cb.tol = 0.005;
    cb.halvings = 12;
    int do_map = 0;
    double kn_a = 1e4, kn_b = 1e6, g_a = 0.0, g_b = 2000.0;
    size_t kn_n = 21, g_n = 41;
    struct {
        const char *name;
        double *value;
        double lo;
    } numbers[] = {{"--kn", &cb.col.law.kn, 0.0},        {"--gamma", &cb.col.law.gamma_n, -1e-300},
                   {"--density", &cb.col.material.density, 0.0}, {"--radius", &cb.col.radius, 0.0},
                   {"--v0", &cb.col.v0, 0.0},            {"--h0", &cb.col.h0, 0.0},
                   {"--g", &cb.col.gravity, 0.0},        {"--c0", &cb.c0, 0.0},
                   {"--tol", &cb.tol, 0.0},              {"--onset", &cb.col.onset, -1e-300},
                   {"--c", &cb.fixed_c, 0.0},            {"--halvings", &cb.halvings, -1e-300}};
    for (int i = 1; i < argc; i++) {
        const char *v;
        int matched = 0;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], "--map") == 0) {
            do_map = 1;
            cb.col.kind = RBL_COLLISION_PAIR;
            continue;
        }
        for (size_t k = 0; k < sizeof numbers / sizeof *numbers && !matched; k++) {
            if ((v = cli_option_value(argc, argv, &i, numbers[k].name))) {
                matched = 1;
                if (cli_parse_double(v, numbers[k].value) != 0 || !(*numbers[k].value > numbers[k].lo))
                    return cli_fail("calibrate", EXIT_USAGE, "%s: not a valid value: '%s'",
                                    numbers[k].name, v);
            }
        }
        if (matched)
            continue;
        if ((v = cli_option_value(argc, argv, &i, "--case"))) {
            if (strcmp(v, "drop") == 0)
                cb.col.kind = RBL_COLLISION_DROP;
            else if (strcmp(v, "pair") == 0)
                cb.col.kind = RBL_COLLISION_PAIR;
            else
                return cli_fail("calibrate", EXIT_USAGE, "--case: drop or pair: '%s'", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--csv"))) {
            cb.csv = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--kn-range"))) {
            if (parse_range(v, &kn_a, &kn_b, &kn_n) != 0 || !(kn_a > 0.0))
                return cli_fail("calibrate", EXIT_USAGE, "--kn-range: A:B:N with 0 < A <= B: '%s'", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--gamma-range"))) {
            if (parse_range(v, &g_a, &g_b, &g_n) != 0 || !(g_a >= 0.0))
                return cli_fail("calibrate", EXIT_USAGE, "--gamma-range: A:B:N with 0 <= A <= B: '%s'", v);
        } else {
            usage(stderr);
            return cli_fail("calibrate", EXIT_USAGE, "unknown argument '%s'", argv[i]);
        }
    }
    if (do_map)
        return map(&cb, kn_a, kn_b, kn_n, g_a, g_b, g_n);
    rbl_error err = {0};
    FILE *f = NULL;
    if (cb.csv) {
        f = fopen(cb.csv, "w");
        if (!f)
            return cli_fail("calibrate", EXIT_INPUT, "%s: cannot write", cb.csv);
        fprintf(f, "c,dt,e_velocity,e_height,e_reference,e_closed_g0\n");
    }
    printf("%s: kn = %g N/m, gamma = %g N s/m, rho = %g, r = %g; tolerance %g\n",
           cb.col.kind == RBL_COLLISION_DROP ? "drop on a plane" : "head-on pair", cb.col.law.kn,
           cb.col.law.gamma_n, cb.col.material.density, cb.col.radius, cb.tol);
    double c = iterate(&cb, f, 1, &err);
    if (f && fclose(f) != 0)
        return cli_fail("calibrate", EXIT_INPUT, "%s: write failed", cb.csv);
    if (c < 0.0)
        return cli_fail("calibrate", EXIT_INPUT, "%s", err.message);
    if (c == 0.0)
        return cli_fail("calibrate", EXIT_INPUT, "no C down to %g met the tolerance",
                        cb.c0 / pow(2.0, cb.halvings));
    rbl_collision_result r;
    rbl_collision_run(&cb.col, c, &r, &err);
    printf("C = %g: dt = %.6g s (%.0f steps per contact)\n", c, r.dt, 1.0 / c);
    return 0;
}
