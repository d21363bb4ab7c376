/* work_estimate.c — a run's wall time, said before its first step (issue 70): its particles
 * (grains or objects: those placed, and those its pours bring as they come) times its steps
 * times a cost per particle-step measured on one core, over its cores. A notice from a minute
 * on, a warning from an hour naming dt's line and what would shorten it (`dt: 3e-9`, a run of
 * 50 s). Once the run goes, the progress lines' ETA (progress.c) follows the measured rate. */
#include "run_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Seconds per particle-step on one core, from the benchmarks (a cost fixed in advance, not
 * one calibrated on the first steps: the warning must come before the run starts and writes
 * anything, and the ETA measures the rest). Grains: docs/bench/dem.md, one core, the settled
 * and polydisperse beds of 10^5 and 10^6 grains (4.2e6 to 7.4e6 particle-steps/s; a gas is
 * 5 times cheaper, but long runs are of beds). Objects: docs/bench/fdo.md, the seed's tube pile
 * (0.026 s a step for 1000 objects in 2000 contacts). */
#define GRAIN_STEP_SECONDS 2e-7
#define OBJECT_STEP_SECONDS 2.6e-5
#define NOTICE_SECONDS 60.0
#define WARN_SECONDS 3600.0

/* Grain-seconds a pour of `count` at `rate` per second (0: all at once) from t0 adds up to
 * time t_end: placed(t) = min(count, rate (t - t0)), integrated. */
static double pour_grain_seconds(double count, double rate, double t0, double t_end)
{
    if (!(t_end > t0))
        return 0.0;
    if (!(rate > 0.0))
        return count * (t_end - t0);
    const double fill = count / rate; /* s to place them all */
    if (t_end - t0 <= fill)
        return 0.5 * rate * (t_end - t0) * (t_end - t0);
    return 0.5 * count * fill + count * (t_end - t0 - fill);
}

/* The particle-steps left: those placed for every step, a fresh run's pours as they come. */
static double particle_steps(rbl_run *r, uint64_t steps)
{
    const rbl_scene *s = r->scene;
    const double now = (double)r->kind->count(r); /* every process calls: a sum over them */
    if (s->impulse)
        return (r->restart ? now : fmax(now, rbl_objects_asked(s))) * (double)steps;
    double total = now * (double)steps;
    const double t_end = (double)r->events.total * r->dt;
    for (int k = 0; !r->restart && k < s->n_sources; k++) {
        const rbl_source *src = &s->sources[k];
        if (src->kind != RBL_SOURCE_POUR)
            continue;
        const double t0 = src->stage && r->stage_start
                              ? (double)r->stage_start[src->stage - 1] * r->dt
                              : 0.0;
        total += pour_grain_seconds((double)src->spec.count, src->rate, t0, t_end) / r->dt;
    }
    return total;
}

/* "2.5 hours", "12 minutes", "1 minute" */
static void duration(double seconds, char *out, size_t size)
{
    const int hours = seconds >= 3600.0;
    char n[32];
    snprintf(n, sizeof n, hours ? "%.3g" : "%.2g", seconds / (hours ? 3600.0 : 60.0));
    snprintf(out, size, "%s %s%s", n, hours ? "hour" : "minute", strcmp(n, "1") ? "s" : "");
}

int rbl_run_work_estimate(rbl_run *r)
{
    const rbl_scene *s = r->scene;
    const uint64_t steps = r->events.total > r->step ? r->events.total - r->step : 0;
    const double work = particle_steps(r, steps);
    const int cores = r->sim ? rbl_sim_threads(r->sim) * (r->ranks.size > 1 ? r->ranks.size : 1)
                             : 1; /* impulse dynamics: one core */
    const double cost = s->impulse ? OBJECT_STEP_SECONDS : GRAIN_STEP_SECONDS;
    const double seconds = work * cost / cores;
    if (seconds < NOTICE_SECONDS || !steps)
        return 1;
    char said[48], line[600];
    duration(seconds, said, sizeof said);
    const double particles = work / (double)steps;
    snprintf(line, sizeof line, "about %s of work: %llu steps of dt = %.4g s, %.0f %s on "
             "average, at %.1e s per %s-step on one core (docs/bench/%s.md) on %d core%s",
             said, (unsigned long long)steps, r->dt, particles, s->impulse ? "objects" : "grains",
             cost, s->impulse ? "object" : "particle", s->impulse ? "fdo" : "dem", cores,
             cores > 1 ? "s" : "");
    if (seconds < WARN_SECONDS || !rbl_scene_warns(s, RBL_WARN_LONG_RUN)) {
        if (r->opt.notice && r->ranks.rank == 0)
            r->opt.notice(line, r->opt.userdata);
        return 1;
    }
    const char *shorter = r->opt.steps ? "fewer --steps"
                          : s->dt_auto ? "a shorter run.time (dt: auto follows the shortest "
                                         "contact: larger or softer grains lengthen it)"
                                       : "dt: auto (from the contact time) or a shorter run.time";
    return rbl_warnings_add(&r->warnings,
                            "%s:%d:%d: %s; checkpoints (output.checkpoint_every) let it go on "
                            "after a stop; to shorten it: %s (if meant: warnings: {off: "
                            "[long_run]})",
                            s->path, s->at_dt.line ? s->at_dt.line : s->at_length.line,
                            s->at_dt.line ? s->at_dt.column : s->at_length.column, line,
                            shorter);
}
