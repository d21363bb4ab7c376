/* cmd_bench.c — `rubble bench contacts`: the efficiency study of seed 000 §4 (CD7). For each
 * dimension and N, a touching lattice numbered in random order; every algorithm runs
 * --repeat times on the same data; the median detection time, ns per element, working memory
 * and pair count go to stdout and a CSV. --sparse: fixed N in ever larger boxes, to show the
 * screening array growing with the number of cells while NBS stays O(N). */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rubble bench gravity --help  (self-gravity accuracy and cost)\n"
            "       rubble bench contacts [--dims 2,3] [--sizes 2e5,1e6,...] [--repeat R]\n"
            "                             [--algorithms a,b,...] [--csv FILE] [--sparse]\n"
            "                             [--packing lattice|random] [--solid-share S]\n"
            "                             [--radius-ratio Q] [--large-share F]\n"
            "defaults: --dims 2,3 --sizes 2e5,5e5,1e6,2e6,5e6,1e7 --repeat 3\n"
            "          --algorithms screening,nbs,direct,sorting,tree,cgrid,brute\n"
            "          (brute only up to N = 20000)\n"
            "--sparse: N = 1e5 in 3D, random centres, box edge x1..x64 of the dense box\n"
            "--packing random --solid-share S --radius-ratio Q: random centres (overlaps\n"
            "          allowed) with radii uniform in [r/Q, r] instead of the lattice;\n"
            "          --large-share F: bimodal radii, a share F at r and the rest at r/Q\n");
}

/* Split "a,b,c" into at most max items (modifies text). */
static int split_list(char *text, char **items, int max)
{
    int n = 0;
    for (char *tok = strtok(text, ","); tok && n < max; tok = strtok(NULL, ","))
        items[n++] = tok;
    return n;
}

typedef struct bench_row {
    int dim;
    size_t n;
    const char *algorithm;
    double box_factor, radius_ratio;
    int refused;
    double median_s, min_s, cold_s, cells;
    size_t checks;
    size_t work_bytes, pairs;
} bench_row;

static void print_row(FILE *f, const bench_row *r)
{
    fprintf(f, "%d,%zu,%s,%g,%g,%s,%.6f,%.6f,%.6f,%.2f,%zu,%zu,%.3f\n", r->dim, r->n, r->algorithm,
            r->box_factor, r->radius_ratio, r->refused ? "refused" : "ok", r->median_s, r->min_s, r->cold_s,
            r->n ? r->median_s * 1e9 / (double)r->n : 0.0, r->work_bytes, r->pairs,
            r->n ? (double)r->checks / (double)r->n : 0.0);
}

/* The first call runs cold (fresh memory, as a one-shot `rubble contacts`); the repeats
 * reuse the workspace and the pair buffer, as a simulation does step after step. */
static int run_one(const rbl_elements *e, rbl_cd_algorithm alg, int repeat, size_t limit,
                   bench_row *row, rbl_error *err)
{
    double times[64];
    rbl_cd_workspace *ws = rbl_cd_workspace_create();
    if (!ws) {
        snprintf(err->message, sizeof err->message, "cannot allocate a workspace");
        return err->code = RBL_ENOMEM;
    }
    rbl_cd_options options = {.memory_limit = limit, .workspace = ws};
    rbl_pairs pairs = {0};
    rbl_cd_stats stats;
    int rc = RBL_OK;
    for (int k = 0; k <= repeat && rc == RBL_OK; k++) {
        pairs.n = 0;
        rc = rbl_contacts_detect(e, alg, &options, &pairs, &stats, err);
        if (k == 0) {
            row->cold_s = stats.seconds;
            row->checks = stats.candidates;
            row->pairs = pairs.n;
            row->cells = (double)stats.cells[0] * (double)stats.cells[1] * (double)stats.cells[2];
        } else {
            times[k - 1] = stats.seconds;
        }
        row->work_bytes = stats.work_bytes_peak;
    }
    rbl_pairs_free(&pairs);
    rbl_cd_workspace_destroy(ws);
    if (rc != RBL_OK)
        return rc;
    qsort(times, (size_t)repeat, sizeof *times, cli_compare_doubles);
    row->median_s = times[repeat / 2];
    row->min_s = times[0];
    return RBL_OK;
}

int cmd_bench(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "gravity") == 0)
        return cmd_bench_gravity(argc, argv);
    if (argc < 2 || strcmp(argv[1], "contacts") != 0) {
        usage(argc >= 2 && strcmp(argv[1], "--help") == 0 ? stdout : stderr);
        return argc >= 2 && strcmp(argv[1], "--help") == 0 ? 0 : EXIT_USAGE;
    }
    char dims_text[64] = "2,3", sizes_text[512] = "2e5,5e5,1e6,2e6,5e6,1e7",
         algs_text[256] = "screening,nbs,direct,sorting,tree,cgrid,brute";
    const char *csv = NULL;
    int repeat = 3, sparse = 0;
    rbl_packing packing = RBL_PACKING_LATTICE;
    double share = 0.3, ratio = 1.0, large = 0.0;
    for (int i = 2; i < argc; i++) {
        const char *v;
        size_t z;
        if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--sparse") == 0) {
            sparse = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--dims"))) {
            snprintf(dims_text, sizeof dims_text, "%s", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--sizes"))) {
            snprintf(sizes_text, sizeof sizes_text, "%s", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--algorithms"))) {
            snprintf(algs_text, sizeof algs_text, "%s", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--packing"))) {
            if (strcmp(v, "lattice") == 0)
                packing = RBL_PACKING_LATTICE;
            else if (strcmp(v, "random") == 0)
                packing = RBL_PACKING_RANDOM;
            else
                return cli_fail("bench", EXIT_USAGE, "--packing must be lattice or random");
        } else if ((v = cli_option_value(argc, argv, &i, "--solid-share"))) {
            if (cli_parse_double(v, &share) || !(share > 0 && share < 1))
                return cli_fail("bench", EXIT_USAGE, "--solid-share must lie in (0, 1)");
        } else if ((v = cli_option_value(argc, argv, &i, "--large-share"))) {
            if (cli_parse_double(v, &large) || !(large >= 0 && large <= 1))
                return cli_fail("bench", EXIT_USAGE, "--large-share must lie in [0, 1]");
        } else if ((v = cli_option_value(argc, argv, &i, "--radius-ratio"))) {
            if (cli_parse_double(v, &ratio) || !(ratio >= 1))
                return cli_fail("bench", EXIT_USAGE, "--radius-ratio must be >= 1");
        } else if ((v = cli_option_value(argc, argv, &i, "--csv"))) {
            csv = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--repeat"))) {
            if (cli_parse_size(v, &z) || z < 1 || z > 64)
                return cli_fail("bench", EXIT_USAGE, "--repeat must be 1..64, got '%s'", v);
            repeat = (int)z;
        } else {
            usage(stderr);
            return cli_fail("bench", EXIT_USAGE, "unknown argument '%s'", argv[i]);
        }
    }
    char *dim_items[4], *size_items[32], *alg_items[16];
    int n_dims = split_list(dims_text, dim_items, 4);
    int n_sizes = split_list(sizes_text, size_items, 32);
    int n_algs = split_list(algs_text, alg_items, 16);
    rbl_cd_algorithm algs[16];
    rbl_error err = {0};
    for (int a = 0; a < n_algs; a++)
        if (rbl_cd_algorithm_parse(alg_items[a], &algs[a], &err) != RBL_OK)
            return cli_fail("bench", EXIT_USAGE, "%s", err.message);
    size_t limit = cli_physical_memory_bytes() / 10 * 8;

    char tmp_path[1024];
    FILE *out = NULL;
    if (csv) {
        snprintf(tmp_path, sizeof tmp_path, "%s.tmp", csv);
        out = fopen(tmp_path, "w");
        if (!out)
            return cli_fail("bench", EXIT_INPUT, "%s: cannot open for writing", tmp_path);
        fprintf(out, "dim,n,algorithm,box_factor,radius_ratio,status,median_s,min_s,cold_s,ns_per_element,"
                     "work_bytes,pairs,checks_per_element\n");
    }
    printf("%-3s %10s %-10s %6s %12s %10s %10s %12s %10s\n", "dim", "N", "algorithm", "box",
           "median_s", "ns/elem", "cold_s", "work_MiB", "pairs");
    int status = 0;
    const double sparse_factors[] = {1, 2, 4, 8, 16, 32, 64};
    int n_cases = sparse ? 7 : n_sizes;
    for (int di = 0; di < (sparse ? 1 : n_dims) && !status; di++) {
        int dim = sparse ? 3 : atoi(dim_items[di]);
        if (dim != 2 && dim != 3) {
            status = cli_fail("bench", EXIT_USAGE, "--dims items must be 2 or 3");
            break;
        }
        for (int si = 0; si < n_cases && !status; si++) {
            size_t n = 100000;
            double factor = 1.0;
            if (sparse)
                factor = sparse_factors[si];
            else if (cli_parse_size(size_items[si], &n)) {
                status = cli_fail("bench", EXIT_USAGE, "bad size '%s'", size_items[si]);
                break;
            }
            rbl_generate_options o = {.dim = dim, .n = n, .radius = 0.5, .radius_ratio = ratio,
                                      .packing = packing, .solid_share = share,
                                      .large_share = large, .shuffle = 1,
                                      .seed = 7};
            if (sparse) {
                o.packing = RBL_PACKING_RANDOM;
                o.solid_share = 0.3 / (factor * factor * factor);
            }
            rbl_elements e;
            if (rbl_elements_generate(&o, &e, &err) != RBL_OK) {
                status = cli_fail("bench", EXIT_INPUT, "%s", err.message);
                break;
            }
            size_t reference_pairs = (size_t)-1;
            for (int a = 0; a < n_algs && !status; a++) {
                if (algs[a] == RBL_CD_BRUTE && n > 20000)
                    continue;
                bench_row row = {.dim = dim, .n = n, .algorithm = rbl_cd_algorithm_name(algs[a]),
                                 .box_factor = factor, .radius_ratio = ratio};
                int rc = run_one(&e, algs[a], repeat, limit, &row, &err);
                if (rc == RBL_ETOOBIG) {
                    row.refused = 1;
                    row.work_bytes = (size_t)fmin(row.cells * 4.0 + 4.0 * (double)n, 1.8e19);
                    fprintf(stderr, "  %s refused: %s\n", row.algorithm, err.message);
                } else if (rc != RBL_OK) {
                    status = cli_fail("bench", EXIT_INPUT, "%s", err.message);
                }
                if (!row.refused && !status) {
                    if (reference_pairs == (size_t)-1)
                        reference_pairs = row.pairs;
                    else if (row.pairs != reference_pairs)
                        status = cli_fail("bench", EXIT_INPUT,
                                          "%s found %zu pairs, the first algorithm %zu",
                                          row.algorithm, row.pairs, reference_pairs);
                }
                printf("%-3d %10zu %-10s %6g %12.6f %10.1f %10.4f %12.1f %10zu%s\n", dim, n,
                       row.algorithm, factor, row.median_s,
                       n ? row.median_s * 1e9 / (double)n : 0.0, row.cold_s,
                       (double)row.work_bytes / (1 << 20), row.pairs,
                       row.refused ? "  (refused: needs that much)" : "");
                fflush(stdout);
                if (out)
                    print_row(out, &row);
            }
            rbl_elements_free(&e);
        }
    }
    if (out) {
        int bad = fclose(out) != 0;
        if (status || bad || rename(tmp_path, csv) != 0) {
            remove(tmp_path);
            if (!status)
                status = cli_fail("bench", EXIT_INPUT, "%s: cannot write", csv);
        } else {
            printf("written: %s\n", csv);
        }
    }
    return status;
}
