/* cli_util.c — option values, number parsing, memory figures for the `rubble` subcommands. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *cli_escaped(const char *s, char *buf, size_t size)
{
    size_t n = 0;
    for (; *s && n + 5 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f) /* ESC, CR, BEL...: shown, never obeyed by the terminal */
            n += (size_t)snprintf(buf + n, size - n, "\\x%02x", c);
        else
            buf[n++] = (char)c;
    }
    buf[n] = '\0';
    return buf;
}

int cli_fail(const char *cmd, int status, const char *fmt, ...)
{
    int rank;
    rbl_launched_ranks(&rank);
    if (rank != 0) /* over several processes (mpirun) each met the error: rank 0 tells it */
        return status;
    char message[2 * RBL_ERROR_MESSAGE_MAX], shown[8 * RBL_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    /* a message quotes scene files and checkpoints: their control bytes are escaped */
    fprintf(stderr, "rubble %s: error: %s\n", cmd, cli_escaped(message, shown, sizeof shown));
    return status;
}

const char *cli_option_value(int argc, char **argv, int *i, const char *name)
{
    size_t len = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, len) != 0)
        return NULL;
    if (arg[len] == '=')
        return arg + len + 1;
    if (arg[len] != '\0')
        return NULL;
    if (*i + 1 >= argc)
        return "";
    return argv[++*i];
}

int cli_parse_size(const char *text, size_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end); /* accepts 1e7 */
    if (end == text || *end || errno || !(v >= 0) || v > 9e15 || v != floor(v))
        return -1;
    *out = (size_t)v;
    return 0;
}

int cli_parse_double(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

size_t cli_physical_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

const char *cli_bytes(size_t bytes, char *buf, size_t len)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 4)
        v /= 1024.0, u++;
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
    return buf;
}

int cli_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cli_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
