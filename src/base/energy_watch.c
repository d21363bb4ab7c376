/* energy_watch.c — the energy balance of the health check (issue 41): a system whose laws only
 * take energy out (damping, friction, restitution below 1) must not end with more than it
 * started with plus what was put in; a growth beyond the integrator's own error, relative to
 * the largest energy scale seen, means the integration broke down. Shared by the grains'
 * engine (dem/health.c) and the impulse engine's run (run/object_run.c), with the least scale
 * a body adds (rbl_energy_motion_floor): a system at rest has none of its own. */
#include "base_internal.h"

#include <math.h>

double rbl_energy_watch_share(rbl_energy_watch *w, double e, double in, double scale,
                              double potential)
{
    if (!isfinite(e) && w->set && isfinite(w->energy_ref)) /* inf, or NaN (a crafted state) */
        return INFINITY;
    if (!w->set) {
        w->set = 1;
        w->energy_ref = e, w->in_ref = in, w->scale = scale;
        return 0.0;
    }
    if (scale > w->scale)
        w->scale = scale;
    const double grown = (e - w->energy_ref) - (in - w->in_ref);
    /* the sums' own round-off: each term is rounded to 1e-16 of itself */
    const double floor = 1e-10 * (fabs(potential) + fabs(e) + fabs(w->energy_ref));
    return grown / (w->scale + floor);
}


double rbl_energy_watch_rise(rbl_energy_watch *w, double balance, uint64_t step, double scale,
                             double magnitude, double through)
{
    if (!isfinite(balance) && w->set && isfinite(w->least))
        return INFINITY;
    if (!w->set) {
        w->set = 1;
        w->energy_ref = w->least = balance, w->least_step = step;
        w->in_ref = 0.0, w->scale = scale, w->through_least = through;
        for (int k = 0; k < RBL_ENERGY_WATCH_WINDOW; k++)
            w->through_seen[k] = through;
        w->checks = 1;
        return 0.0;
    }
    /* the through of the check RBL_ENERGY_WATCH_WINDOW before this one (the ring's oldest) */
    const double window = w->through_seen[w->checks % RBL_ENERGY_WATCH_WINDOW];
    w->through_seen[w->checks % RBL_ENERGY_WATCH_WINDOW] = through;
    w->checks++;
    if (scale > w->scale)
        w->scale = scale;
    if (balance < w->least)
        w->least = balance, w->least_step = step, w->through_least = through;
    /* the sums' own round-off: each term is rounded to 1e-16 of itself */
    const double floor = 1e-10 * (magnitude + fabs(balance) + fabs(w->energy_ref));
    const double from = window < w->through_least ? window : w->through_least;
    return (balance - w->least) / (w->scale + (through - from) + floor);
}

double rbl_energy_motion_floor(double mass, double size, double dt)
{
    const double v = RBL_ENERGY_MOTION_SHARE * size / dt;
    return 0.5 * mass * v * v;
}
