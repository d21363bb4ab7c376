/* cmd_bench_gravity.c — `rubble bench gravity`: the accuracy and cost of the self-gravity
 * methods (SPEC SD5, issue 11). N grains of radius 1 m, density 3000 kg/m^3, on a jittered
 * cubic lattice cut to a sphere (a rubble pile's interior); the direct sum is the reference.
 * For the tree over theta and the seed's Cells over Nc: the rms and the 99th percentile of
 * |a - a_direct| / |a_direct|, the error of the potential energy W, interactions per grain,
 * and the time of one evaluation (median of --repeat). */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: rubble bench gravity [--sizes 1e4,1e5] [--thetas 0.2,0.3,0.5,0.7,1]\n"
                 "                            [--cells 1,2,3,5,8] [--threads T] [--repeat R]\n"
                 "                            [--csv FILE] [--no-reference]\n"
                 "--no-reference: no direct sum (N too large): times and interactions only\n");
}

typedef struct lattice_point {
    double d2;
    double x[3];
} lattice_point;

static int cmp_point(const void *a, const void *b)
{
    double x = ((const lattice_point *)a)->d2, y = ((const lattice_point *)b)->d2;
    return (x > y) - (x < y);
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The n lattice points (spacing 2.1 m, jitter +-0.04 m) nearest the origin. */
static int make_sphere(size_t n, double *pos, double *mass, double *radius)
{
    int side = (int)ceil(cbrt((double)n * 6.0 / M_PI)) + 3;
    size_t total = (size_t)side * side * side;
    lattice_point *p = malloc(total * sizeof *p);
    if (!p)
        return -1;
    uint64_t seed = 11;
    size_t k = 0;
    for (int i = 0; i < side; i++)
        for (int j = 0; j < side; j++)
            for (int l = 0; l < side; l++, k++) {
                int c[3] = {i, j, l};
                p[k].d2 = 0.0;
                for (int a = 0; a < 3; a++) {
                    double u = (double)(splitmix(&seed) >> 11) / 9007199254740992.0;
                    p[k].x[a] = 2.1 * (c[a] - 0.5 * (side - 1)) + 0.08 * (u - 0.5);
                    p[k].d2 += p[k].x[a] * p[k].x[a];
                }
            }
    qsort(p, total, sizeof *p, cmp_point);
    for (k = 0; k < n; k++) {
        memcpy(pos + 3 * k, p[k].x, sizeof p[k].x);
        radius[k] = 1.0;
        mass[k] = 3000.0 * 4.0 / 3.0 * M_PI;
    }
    free(p);
    return 0;
}

typedef struct errors {
    double rms, p99, max, w_rel;
} errors;

static errors compare(size_t n, const double *acc, const double *ref, const double *phi,
                      const double *ref_phi, const double *mass, double *scratch)
{
    errors e = {0};
    double sum = 0.0, w = 0.0, w_ref = 0.0;
    for (size_t k = 0; k < n; k++) {
        double d2 = 0.0, r2 = 0.0;
        for (int a = 0; a < 3; a++) {
            double d = acc[3 * k + a] - ref[3 * k + a];
            d2 += d * d;
            r2 += ref[3 * k + a] * ref[3 * k + a];
        }
        scratch[k] = sqrt(d2 / r2);
        sum += d2 / r2;
        w += 0.5 * mass[k] * phi[k];
        w_ref += 0.5 * mass[k] * ref_phi[k];
    }
    qsort(scratch, n, sizeof *scratch, cli_compare_doubles);
    e.rms = sqrt(sum / (double)n);
    e.p99 = scratch[(size_t)(0.99 * (double)(n - 1))];
    e.max = scratch[n - 1];
    e.w_rel = fabs(w - w_ref) / fabs(w_ref);
    return e;
}

/* One method, timed: the median of repeat evaluations. */
static int timed(const rbl_self_gravity *cfg, size_t n, const double *pos, const double *mass,
                 const double *radius, int threads, int repeat, double *acc, double *phi,
                 double *inter, double *seconds, rbl_error *err)
{
    double t[64];
    for (int r = 0; r < repeat; r++) {
        double t0 = cli_seconds();
        int rc = rbl_gravity_field(cfg, n, pos, mass, radius, threads, acc, phi, inter, err);
        if (rc != RBL_OK)
            return rc;
        t[r] = cli_seconds() - t0;
    }
    qsort(t, (size_t)repeat, sizeof *t, cli_compare_doubles);
    *seconds = t[repeat / 2];
    return RBL_OK;
}

int cmd_bench_gravity(int argc, char **argv)
{
    char sizes_text[256] = "1e4,1e5", thetas_text[256] = "0.2,0.3,0.5,0.7,1",
         cells_text[256] = "1,2,3,5,8";
    const char *csv = NULL;
    int threads = 1, repeat = 3, reference = 1;
    for (int i = 2; i < argc; i++) {
        const char *v;
        size_t z;
        if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--no-reference") == 0) {
            reference = 0;
        } else if ((v = cli_option_value(argc, argv, &i, "--sizes"))) {
            snprintf(sizes_text, sizeof sizes_text, "%s", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--thetas"))) {
            snprintf(thetas_text, sizeof thetas_text, "%s", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--cells"))) {
            snprintf(cells_text, sizeof cells_text, "%s", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--csv"))) {
            csv = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--threads"))) {
            if (cli_parse_size(v, &z) || z < 1 || z > 1024)
                return cli_fail("bench", EXIT_USAGE, "--threads must be 1..1024, got '%s'", v);
            threads = (int)z;
        } else if ((v = cli_option_value(argc, argv, &i, "--repeat"))) {
            if (cli_parse_size(v, &z) || z < 1 || z > 64)
                return cli_fail("bench", EXIT_USAGE, "--repeat must be 1..64, got '%s'", v);
            repeat = (int)z;
        } else {
            usage(stderr);
            return cli_fail("bench", EXIT_USAGE, "unknown argument '%s'", argv[i]);
        }
    }
    FILE *out = stdout;
    char tmp[1024];
    if (csv) {
        snprintf(tmp, sizeof tmp, "%s.tmp", csv);
        if (!(out = fopen(tmp, "w")))
            return cli_fail("bench", EXIT_INPUT, "%s: cannot open for writing", tmp);
    }
    fprintf(out, "n,threads,method,parameter,rms,p99,max,w_rel,interactions_per_grain,seconds,"
                 "grains_per_second\n");
    int status = 0;
    rbl_error err = {0};
    for (char *s = strtok(sizes_text, ","); s && !status; s = strtok(NULL, ",")) {
        size_t n;
        if (cli_parse_size(s, &n) || n < 2 || n > 100000000) {
            status = cli_fail("bench", EXIT_USAGE, "bad size '%s'", s);
            break;
        }
        double *pos = malloc(3 * n * sizeof *pos), *mass = malloc(n * sizeof *mass),
               *radius = malloc(n * sizeof *radius), *ref = malloc(3 * n * sizeof *ref),
               *ref_phi = malloc(n * sizeof *ref_phi), *acc = malloc(3 * n * sizeof *acc),
               *phi = malloc(n * sizeof *phi), *scratch = malloc(n * sizeof *scratch);
        if (!pos || !mass || !radius || !ref || !ref_phi || !acc || !phi || !scratch ||
            make_sphere(n, pos, mass, radius)) {
            status = cli_fail("bench", EXIT_INPUT, "out of memory for %zu grains", n);
        } else {
            rbl_self_gravity cfg = {.method = RBL_GRAVITY_DIRECT};
            double inter, sec;
            if (!reference)
                ; /* errors are printed as NaN */
            else if (timed(&cfg, n, pos, mass, radius, threads, 1, ref, ref_phi, &inter, &sec,
                           &err))
                status = cli_fail("bench", EXIT_INPUT, "%s", err.message);
            else
                fprintf(out, "%zu,%d,direct,0,0,0,0,0,%.1f,%.6f,%.4g\n", n, threads, inter, sec,
                        (double)n / sec);
            fflush(out);
            for (int pass = 0; pass < 2 && !status; pass++) {
                char list[256];
                snprintf(list, sizeof list, "%s", pass == 0 ? thetas_text : cells_text);
                char *save = NULL;
                for (char *t = strtok_r(list, ",", &save); t && !status;
                     t = strtok_r(NULL, ",", &save)) {
                    double value;
                    if (cli_parse_double(t, &value)) {
                        status = cli_fail("bench", EXIT_USAGE, "bad parameter '%s'", t);
                        break;
                    }
                    cfg = (rbl_self_gravity){0};
                    cfg.method = pass == 0 ? RBL_GRAVITY_TREE : RBL_GRAVITY_CELLS;
                    if (pass == 0)
                        cfg.theta = value;
                    else
                        cfg.cells = (int)value;
                    if (timed(&cfg, n, pos, mass, radius, threads, repeat, acc, phi, &inter,
                              &sec, &err)) {
                        status = cli_fail("bench", EXIT_INPUT, "%s", err.message);
                        break;
                    }
                    errors e = {NAN, NAN, NAN, NAN};
                    if (reference)
                        e = compare(n, acc, ref, phi, ref_phi, mass, scratch);
                    fprintf(out, "%zu,%d,%s,%g,%.3e,%.3e,%.3e,%.3e,%.1f,%.6f,%.4g\n", n,
                            threads, pass == 0 ? "tree" : "cells", value, e.rms, e.p99, e.max, e.w_rel,
                            inter, sec, (double)n / sec);
                    fflush(out);
                }
            }
        }
        free(pos), free(mass), free(radius), free(ref), free(ref_phi), free(acc), free(phi);
        free(scratch);
    }
    if (csv) {
        int bad = fclose(out) != 0;
        if (status || bad || rename(tmp, csv) != 0) {
            remove(tmp);
            if (!status)
                status = cli_fail("bench", EXIT_INPUT, "%s: cannot write", csv);
        } else {
            printf("written: %s\n", csv);
        }
    }
    return status;
}
