/* progress.c — the progress calls of a run (grains and impulse scenes alike): about every
 * progress_interval wall seconds and at the last step, with the rate of steps over the last
 * calls' window. A run's speed changes as it goes (a pour fills the box, a pile settles), and a
 * restart's steps before the checkpoint were not run here, so the whole run's mean would
 * misjudge what is left. */
#include "run_internal.h"

#include <string.h>

void rbl_progress_start(rbl_progress *p, const rbl_run_options *opt, uint64_t step, double now)
{
    memset(p, 0, sizeof *p);
    p->fn = opt->progress, p->userdata = opt->userdata;
    p->interval = opt->progress_interval > 0.0 ? opt->progress_interval : 0.5;
    p->start = p->last = now;
    p->step[0] = step, p->time[0] = now, p->n = 1;
}

void rbl_progress_status(const rbl_progress *p, uint64_t step, uint64_t total, double time,
                         double end_time, size_t grains, double now, rbl_run_status *st)
{
    size_t oldest = p->n < RBL_PROGRESS_WINDOW ? 0 : p->n % RBL_PROGRESS_WINDOW;
    double span = now - p->time[oldest];
    double rate = span > 0.0 && step >= p->step[oldest]
                      ? (double)(step - p->step[oldest]) / span
                      : 0.0;
    *st = (rbl_run_status){step, total, time, end_time, grains, now - p->start, rate};
}

void rbl_progress_update(rbl_progress *p, uint64_t step, uint64_t total, double time,
                         double end_time, size_t grains, double now)
{
    if (!p->fn || (now - p->last < p->interval && step != total))
        return;
    rbl_run_status st;
    rbl_progress_status(p, step, total, time, end_time, grains, now, &st);
    p->fn(&st, p->userdata);
    p->step[p->n % RBL_PROGRESS_WINDOW] = step, p->time[p->n % RBL_PROGRESS_WINDOW] = now;
    p->n++;
    p->last = now;
}
