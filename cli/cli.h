/* cli.h — helpers shared by the subcommands of the `rubble` program: option values, exit
 * statuses, memory figures of this process and machine. */
#ifndef RBL_CLI_H
#define RBL_CLI_H

#include "rubble.h"

#include <stddef.h>

/* 1: bad input or a failure; 2: bad usage; 3: the run's health check stopped it */
enum { EXIT_USAGE = 2, EXIT_INPUT = 1, EXIT_UNSTABLE = 3 };

int cmd_contacts(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_bench_gravity(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_clump(int argc, char **argv);
int cmd_cg(int argc, char **argv);

/* Print "rubble <cmd>: error: <message>" to stderr and return status. */
/* s with its control bytes (below 0x20, and 0x7f) written as \xNN, into buf (cut to fit). */
const char *cli_escaped(const char *s, char *buf, size_t size);
int cli_fail(const char *cmd, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Value of option argv[*i] (either "--opt=value" or "--opt value"); NULL if absent. */
const char *cli_option_value(int argc, char **argv, int *i, const char *name);
int cli_parse_size(const char *text, size_t *out);
int cli_parse_double(const char *text, double *out);
/* Monotonic wall clock, s. */
double cli_seconds(void);
/* qsort comparator: doubles in ascending order (medians of repeated timings). */
int cli_compare_doubles(const void *a, const void *b);
size_t cli_physical_memory_bytes(void);
/* "12.3 MiB" */
const char *cli_bytes(size_t bytes, char *buf, size_t len);

#endif
