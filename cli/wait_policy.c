/* wait_policy.c — how the OpenMP threads of `rubble` wait for each other, set before the
 * runtime starts.
 *
 * At every barrier a thread that is done spins, so that it is awake the moment the others
 * arrive. GNU libgomp spins for 300,000 rounds by default (about a millisecond or more)
 * before it sleeps. That is right while the program has the cores to itself. But two runs
 * side by side on two cores, each with two threads (a parameter sweep), make every spinning
 * thread hold a core that the thread it waits for needs: each run then took 15 to 75 times as
 * long as alone (issue 16). OMP_WAIT_POLICY=passive sleeps at once and avoids that, but pays a
 * wake-up at every barrier of a lone run. RBL_SPIN_ROUNDS spins briefly, then sleeps: runs side
 * by side share the cores, and a lone run keeps most of its speed.
 *
 * libgomp reads its environment when the program is loaded, before main: the program sets the
 * spin count and starts itself again (once; a user's own OMP_WAIT_POLICY or GOMP_SPINCOUNT is
 * left as it is). LLVM's libomp reads its environment at the first parallel region, so there
 * setting KMP_BLOCKTIME is enough. */
#include "cli.h"

#include <stdlib.h>
#include <unistd.h>

/* What libgomp itself spins when it knows its threads outnumber the cores. Measured with
 * the 10^4-grain settled bed, 1000 steps on 2 threads, alone / two side by side (s; a noisy
 * machine, three rounds): runtime default 0.5-0.6 / 1.5-6.9; 10000 rounds 0.55-1.0 / 1.9-3.3;
 * 1000 rounds 0.64-1.09 / 1.16-1.59; passive 0.79-1.11 / 0.96-1.13. */
#define RBL_SPIN_ROUNDS "1000"
#define RBL_BLOCKTIME_MS "1"

void cli_wait_policy(char **argv)
{
    if (getenv("OMP_WAIT_POLICY"))
        return;
#if defined(__clang__)
    setenv("KMP_BLOCKTIME", RBL_BLOCKTIME_MS, 0);
    (void)argv;
#elif defined(__GNUC__) && defined(_OPENMP)
    if (getenv("GOMP_SPINCOUNT"))
        return;
    /* the program's own path, not /proc/self/exe: the process keeps its name (top, ps) */
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0 || (size_t)len >= sizeof self - 1)
        return;
    self[len] = '\0';
    if (setenv("GOMP_SPINCOUNT", RBL_SPIN_ROUNDS, 1) != 0)
        return;
    execv(self, argv);
    unsetenv("GOMP_SPINCOUNT"); /* could not start again: the runtime's default stays */
#else
    (void)argv;
#endif
}
