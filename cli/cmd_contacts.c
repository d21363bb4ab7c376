/* cmd_contacts.c — `rubble contacts`: the Demcda program of seed 000 §3 (CD5). Reads
 * bounds.txt and elements.txt, checks them, runs one algorithm, writes contacts.txt (i > j,
 * 1-based, i descending then j descending) atomically, and reports time and memory. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rubble contacts [--algorithm NAME|1|2] [--bounds FILE] [--elements FILE]\n"
            "                       [--output FILE]\n"
            "  --algorithm  1 = screening, 2 = nbs (as in Demcda), or a name: screening, nbs,\n"
            "               direct, sorting, tree, cgrid, brute (default: nbs)\n"
            "  --bounds     default bounds.txt    --elements  default elements.txt\n"
            "  --output     default contacts.txt\n"
            "File layouts: docs/demcda.md\n");
}

int cmd_contacts(int argc, char **argv)
{
    const char *algorithm_text = "nbs", *bounds = "bounds.txt", *elements = "elements.txt",
               *output = "contacts.txt";
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if ((v = cli_option_value(argc, argv, &i, "--algorithm"))) {
            algorithm_text = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--bounds"))) {
            bounds = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--elements"))) {
            elements = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--output"))) {
            output = v;
        } else {
            usage(stderr);
            return cli_fail("contacts", EXIT_USAGE, "unknown argument '%s'", argv[i]);
        }
        if (v && !*v)
            return cli_fail("contacts", EXIT_USAGE, "%s needs a value", argv[i]);
    }
    rbl_error err = {0};
    rbl_cd_algorithm algorithm;
    if (rbl_cd_algorithm_parse(algorithm_text, &algorithm, &err) != RBL_OK)
        return cli_fail("contacts", EXIT_USAGE, "%s", err.message);

    rbl_elements e;
    if (rbl_demcda_read(bounds, elements, &e, &err) != RBL_OK)
        return cli_fail("contacts", EXIT_INPUT, "%s", err.message);

    rbl_cd_options options = {.memory_limit = cli_physical_memory_bytes()};
    rbl_pairs pairs = {0};
    rbl_cd_stats stats;
    int rc = rbl_contacts_detect(&e, algorithm, &options, &pairs, &stats, &err);
    if (rc == RBL_OK)
        rc = rbl_pairs_sort_descending(&pairs, e.n, &err);
    if (rc == RBL_OK)
        rc = rbl_demcda_write_contacts(output, &pairs, &err);
    int status = 0;
    if (rc != RBL_OK) {
        status = cli_fail("contacts", EXIT_INPUT, "%s", err.message);
    } else {
        char b1[32], b2[32];
        printf("algorithm: %s\n", rbl_cd_algorithm_name(algorithm));
        printf("elements: %zu (%dD)\n", e.n, e.dim);
        printf("pairs: %zu\n", pairs.n);
        printf("detection time: %.6f s (%.1f ns per element)\n", stats.seconds,
               e.n ? stats.seconds * 1e9 / (double)e.n : 0.0);
        printf("distance checks: %zu (%.2f per element)\n", stats.candidates,
               e.n ? (double)stats.candidates / (double)e.n : 0.0);
        printf("memory: %s working memory of the algorithm, %s peak resident (whole process)\n",
               cli_bytes(stats.work_bytes_peak, b1, sizeof b1),
               cli_bytes(rbl_peak_memory_bytes(), b2, sizeof b2));
        printf("written: %s\n", output);
    }
    rbl_pairs_free(&pairs);
    rbl_elements_free(&e);
    return status;
}
