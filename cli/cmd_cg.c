/* cmd_cg.c — `rubble cg`: coarse-graining after the run (issue 74, docs/cg.md "After the
 * run"): a finished run's frames with their contact files, or its checkpoints, on output.cg's
 * grid (the scene's or --cg's), written as output.cg writes them (rbl_cg_job_run). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rubble cg SCENE.yaml INPUT... [--cg '{cells: [nx, ny, nz], width: c, ...}']\n"
            "                 [--output DIR] [--threads N]\n"
            "  INPUT      frames of the run (grains_NNNNNN.vtp or .pvtp, each with its\n"
            "             contact .vtp or .csv beside it) or its checkpoints, in time order;\n"
            "             each is one sample, 'samples' of them averaged per output\n"
            "  --cg       output.cg's keys (cells, width, kernel, min, max, samples, profile),\n"
            "             replacing the scene's output.cg (default: the scene's)\n"
            "  --output   the folder for cg_NNNNNN.vti, cg_profile_NNNNNN.csv, cg.pvd\n"
            "             (default: cg)\n"
            "  --threads  OpenMP threads (default 1; the files do not depend on it)\n"
            "The same numbers as output.cg on the same states (docs/cg.md).\n");
}

static void on_warning(const char *text, void *userdata)
{
    (void)userdata;
    fprintf(stderr, "rubble cg: warning: %s\n", text);
}

int cmd_cg(int argc, char **argv)
{
    const char *scene = NULL, *grid = NULL, *output = "cg";
    size_t threads = 1, n = 0;
    const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    if (!inputs)
        return cli_fail("cg", EXIT_INPUT, "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            free(inputs);
            return 0;
        } else if ((v = cli_option_value(argc, argv, &i, "--cg"))) {
            grid = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--output"))) {
            output = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--threads"))) {
            if (cli_parse_size(v, &threads) != 0 || threads < 1 || threads > 1024) {
                free(inputs);
                return cli_fail("cg", EXIT_USAGE, "--threads: not a thread count: '%s'", v);
            }
        } else if (argv[i][0] == '-' && argv[i][1]) {
            usage(stderr);
            free(inputs);
            return cli_fail("cg", EXIT_USAGE, "unknown option '%s'", argv[i]);
        } else if (!scene) {
            scene = argv[i];
        } else {
            inputs[n++] = argv[i];
        }
        if (v && !*v) {
            free(inputs);
            return cli_fail("cg", EXIT_USAGE, "%s needs a value", argv[i]);
        }
    }
    if (!scene || !n) {
        usage(stderr);
        free(inputs);
        return cli_fail("cg", EXIT_USAGE, "give the run's scene and its frames or checkpoints");
    }
    rbl_cg_job job = {.scene = scene, .cg = grid, .inputs = inputs, .n_inputs = n,
                      .output_dir = output, .threads = (int)threads, .warning = on_warning};
    rbl_error err = {0};
    size_t outputs = 0;
    int inexact = 0;
    int rc = rbl_cg_job_run(&job, &outputs, &inexact, &err);
    free(inputs);
    if (rc != RBL_OK)
        return cli_fail("cg", EXIT_INPUT, "%s", err.message);
    if (inexact)
        fprintf(stderr, "rubble cg: warning: a contact .vtp without branch vectors (written "
                        "before rubble held them): taken from its lines' ends, to their "
                        "rounding; the .csv holds them exactly\n");
    printf("written: %zu output%s of %zu input%s into %s (cg.pvd)\n", outputs,
           outputs == 1 ? "" : "s", n, n == 1 ? "" : "s", output);
    return 0;
}
