/* main.c — the `rubble` program: dispatches to one subcommand per file. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "rubble %s — discrete element method toolkit\n"
            "\n"
            "usage: rubble <command> [options]\n"
            "\n"
            "commands:\n"
            "  run        run a scene file: rubble run SCENE.yaml (docs/scenes.md)\n"
            "  cg         coarse-grain a finished run's frames or checkpoints (docs/cg.md):\n"
            "             rubble cg --help\n"
            "  clump      approximate a body by a clump of spheres (seed 001): rubble clump --help\n"
            "  calibrate  the seed's time-step iteration: halve C until e matches theory\n"
            "  contacts   find every touching pair (Demcda interface: bounds.txt, elements.txt\n"
            "             -> contacts.txt); rubble contacts --help\n"
            "  generate   write bounds.txt and elements.txt for a lattice or random packing\n"
            "  bench      benchmarks: rubble bench contacts --help\n"
            "  version    print the version\n",
            RBL_VERSION_STRING);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    int rank, ranks = rbl_launched_ranks(&rank);
    if (ranks > 1 && strcmp(cmd, "run") != 0) { /* each would do the whole job, into one file */
        if (rank == 0)
            fprintf(stderr, "rubble: started as %d processes by %s: only `rubble run` "
                            "runs over several processes (docs/parallel.md). Start one process; "
                            "--threads uses the machine's cores\n",
                    ranks, rbl_launcher_name() ? rbl_launcher_name() : "the launcher");
        return EXIT_FAILURE;
    }
    if (strcmp(cmd, "calibrate") == 0)
        return cmd_calibrate(argc - 1, argv + 1);
    if (strcmp(cmd, "cg") == 0)
        return cmd_cg(argc - 1, argv + 1);
    if (strcmp(cmd, "clump") == 0)
        return cmd_clump(argc - 1, argv + 1);
    if (strcmp(cmd, "run") == 0) {
        if (ranks > 1 && rbl_parallel_begin() != RBL_OK) {
            fprintf(stderr, "rubble: MPI could not be initialised\n");
            return EXIT_FAILURE;
        }
        int status = cmd_run(argc - 1, argv + 1);
        if (ranks > 1) /* after rank 0 has reported: every rank waits there for the others */
            rbl_parallel_end();
        return status;
    }
    if (strcmp(cmd, "contacts") == 0)
        return cmd_contacts(argc - 1, argv + 1);
    if (strcmp(cmd, "generate") == 0)
        return cmd_generate(argc - 1, argv + 1);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(argc - 1, argv + 1);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("rubble %s\n", RBL_VERSION_STRING);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "rubble: error: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
