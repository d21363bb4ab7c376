/* core_share.c — fewer threads while the cores are shared.
 *
 * OpenMP threads that wait at a barrier spin, so that they are awake the moment the others
 * arrive: right while the program has its cores, ruinous when another program wants them.
 * Two runs side by side on a 2-core machine, each with 2 threads, took 15 to 75 times as long
 * as one alone (issue 16): each spinning thread holds a core that the thread it waits for
 * needs. Waiting passively (OMP_WAIT_POLICY=passive) avoids that but costs a lone run a
 * wake-up at every barrier, and more still when anything else runs in the background.
 *
 * Instead the run driver watches the share of its cores that it gets: the process's CPU time
 * over the stepping's wall time and threads. Spinning counts as CPU time, so a run that has
 * its cores gets nearly all of them (0.9 and more, measured), and two runs side by side get
 * about half each. Below LOW_SHARE in two windows of WINDOW s in a row, it goes down to the
 * threads its share pays for (at once below CLEAR_SHARE); every probe_gap s, if the machine
 * left half a core idle over the last window (/proc/stat), it tries one thread more and keeps
 * it if the share stays up (the gap doubles after each failed try, up to MAX_GAP). Probing
 * only where a core is idle keeps a run beside a busy program from paying for probes that
 * cannot succeed: the seed's tube beside a busy loop took 3 % longer on the default threads
 * than on one before (docs/bench/fdo.md). The results do not
 * depend on the thread count (the engine sums in a fixed order), so nothing else changes. */
#include "core_share.h"

#include "../base/base_internal.h"

#include <math.h>
#include <stdlib.h>
#include <strings.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define WINDOW 0.5
#define LOW_SHARE 0.7
#define CLEAR_SHARE 0.6 /* so low that one window tells */
#define FIRST_GAP 10.0
#define MAX_GAP 320.0

/* The machine's idle CPU time so far (all cores, s), from /proc/stat; < 0 where it cannot be
 * read (then every probe is tried). */
static double idle_seconds(void)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return -1.0;
    unsigned long long user, nice, system, idle, iowait;
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle, &iowait);
    fclose(f);
    long tick = sysconf(_SC_CLK_TCK);
    if (n != 5 || tick <= 0)
        return -1.0;
    return (double)(idle + iowait) / (double)tick;
}

static double cpu_seconds(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0)
        return 0.0;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void rbl_core_share_start(rbl_core_share *c, int threads, int enabled)
{
    *c = (rbl_core_share){0};
    c->most = threads;
    c->fewest = c->most;
    /* threads that wait passively do not spin: then nothing needs giving up, and the share
     * of CPU time would not tell */
    const char *policy = getenv("OMP_WAIT_POLICY");
    c->enabled = enabled && c->most > 1 && !(policy && strcasecmp(policy, "passive") == 0);
    c->probe_gap = FIRST_GAP;
}

void rbl_core_share_before(rbl_core_share *c)
{
    if (!c->enabled)
        return;
    c->wall0 = rbl_now();
    c->cpu0 = cpu_seconds();
    if (c->wall == 0.0) /* a window starts: the machine's idle time from here */
        c->idle0 = idle_seconds(), c->idle_at = c->wall0;
}

int rbl_core_share_after(rbl_core_share *c, int threads)
{
    if (!c->enabled)
        return threads;
    double now = rbl_now();
    c->wall += now - c->wall0;
    c->cpu += cpu_seconds() - c->cpu0;
    if (c->wall < WINDOW)
        return threads;
    double share = c->cpu / (c->wall * (double)threads);
    /* cores the machine left idle over the window (-1: cannot tell) */
    double idle = idle_seconds(), free_cores = -1.0;
    if (idle >= 0.0 && c->idle0 >= 0.0)
        free_cores = (idle - c->idle0) / fmax(now - c->idle_at, 1e-9);
    c->wall = c->cpu = 0.0;
    int want = threads;
    if (share < LOW_SHARE) {
        if (c->probing) { /* the thread taken back did not pay: give it up, wait longer */
            want = threads - 1;
            c->probe_gap = fmin(2.0 * c->probe_gap, MAX_GAP);
        } else if (share < CLEAR_SHARE || ++c->low >= 2) {
            want = (int)floor(share * (double)threads + 0.5);
        }
    } else {
        c->low = 0;
        if (c->probing)
            c->probe_gap = FIRST_GAP;
    }
    c->probing = 0;
    if (want < 1)
        want = 1;
    if (want < threads) {
        c->low = 0;
        c->probe_at = now + c->probe_gap;
    } else if (threads < c->most && now >= c->probe_at &&
               (free_cores < 0.0 || free_cores >= 0.5)) {
        want = threads + 1;
        c->probing = 1;
    }
    if (want < c->fewest)
        c->fewest = want;
    return want;
}
