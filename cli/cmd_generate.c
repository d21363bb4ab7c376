/* cmd_generate.c — `rubble generate`: write bounds.txt and elements.txt for a lattice (the
 * seed's touching grid), random or clustered packing, optionally numbered in random order. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rubble generate [--dim 2|3] [--n N] [--packing lattice|random|clustered]\n"
            "                       [--radius R] [--radius-ratio Q] [--large-share F]\n"
            "                       [--solid-share S]\n"
            "                       [--shuffle] [--seed K] [--bounds FILE] [--elements FILE]\n"
            "defaults: --dim 3 --n 27 --packing lattice --radius 0.5 --radius-ratio 1\n"
            "          --solid-share 0.3 (random/clustered), files bounds.txt elements.txt\n"
            "radii: uniform in [R/Q, R]; with --large-share F, bimodal: a share F of the\n"
            "       elements has radius R, the others R/Q\n");
}

int cmd_generate(int argc, char **argv)
{
    rbl_generate_options o = {.dim = 3, .n = 27, .packing = RBL_PACKING_LATTICE, .radius = 0.5,
                              .radius_ratio = 1.0, .solid_share = 0.3, .seed = 1};
    const char *bounds = "bounds.txt", *elements = "elements.txt";
    for (int i = 1; i < argc; i++) {
        const char *v;
        size_t z;
        double d;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--shuffle") == 0) {
            o.shuffle = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--dim"))) {
            if (cli_parse_size(v, &z) || (z != 2 && z != 3))
                return cli_fail("generate", EXIT_USAGE, "--dim must be 2 or 3, got '%s'", v);
            o.dim = (int)z;
        } else if ((v = cli_option_value(argc, argv, &i, "--n"))) {
            if (cli_parse_size(v, &z))
                return cli_fail("generate", EXIT_USAGE, "--n must be a whole number, got '%s'", v);
            o.n = z;
        } else if ((v = cli_option_value(argc, argv, &i, "--seed"))) {
            if (cli_parse_size(v, &z))
                return cli_fail("generate", EXIT_USAGE, "--seed must be a whole number, got '%s'", v);
            o.seed = z;
        } else if ((v = cli_option_value(argc, argv, &i, "--packing"))) {
            if (strcmp(v, "lattice") == 0)
                o.packing = RBL_PACKING_LATTICE;
            else if (strcmp(v, "random") == 0)
                o.packing = RBL_PACKING_RANDOM;
            else if (strcmp(v, "clustered") == 0)
                o.packing = RBL_PACKING_CLUSTERED;
            else
                return cli_fail("generate", EXIT_USAGE, "unknown packing '%s'", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--radius-ratio"))) {
            if (cli_parse_double(v, &d) || d < 1.0)
                return cli_fail("generate", EXIT_USAGE, "--radius-ratio must be >= 1, got '%s'", v);
            o.radius_ratio = d;
        } else if ((v = cli_option_value(argc, argv, &i, "--large-share"))) {
            if (cli_parse_double(v, &d) || !(d >= 0 && d <= 1))
                return cli_fail("generate", EXIT_USAGE, "--large-share must lie in [0, 1], got '%s'", v);
            o.large_share = d;
        } else if ((v = cli_option_value(argc, argv, &i, "--radius"))) {
            if (cli_parse_double(v, &d) || !(d > 0))
                return cli_fail("generate", EXIT_USAGE, "--radius must be > 0, got '%s'", v);
            o.radius = d;
        } else if ((v = cli_option_value(argc, argv, &i, "--solid-share"))) {
            if (cli_parse_double(v, &d) || !(d > 0 && d < 1))
                return cli_fail("generate", EXIT_USAGE, "--solid-share must lie in (0, 1), got '%s'", v);
            o.solid_share = d;
        } else if ((v = cli_option_value(argc, argv, &i, "--bounds"))) {
            bounds = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--elements"))) {
            elements = v;
        } else {
            usage(stderr);
            return cli_fail("generate", EXIT_USAGE, "unknown argument '%s'", argv[i]);
        }
    }
    rbl_error err = {0};
    rbl_elements e;
    if (rbl_elements_generate(&o, &e, &err) != RBL_OK)
        return cli_fail("generate", EXIT_INPUT, "%s", err.message);
    int rc = rbl_demcda_write_elements(bounds, elements, &e, &err);
    if (rc == RBL_OK)
        printf("generated %zu elements (%dD) -> %s, %s\n", e.n, e.dim, bounds, elements);
    rbl_elements_free(&e);
    return rc == RBL_OK ? 0 : cli_fail("generate", EXIT_INPUT, "%s", err.message);
}
