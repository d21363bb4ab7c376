/* pour_schedule.c — when a pour source places its next batch, and how many, for grain and
 * impulse scenes alike: a batch every `every` seconds (0: every 0.01 s), rate * every due at
 * each (fractions carried to the next), placed at the first step whose time reaches the
 * batch's (rbl_pour_step: the run stops there, issue 69); batches that fall in one step come
 * as one; what does not fit in the region waits for the next batch. The state travels in
 * checkpoints, so a restart pours on as the run would have. */
#include "run_internal.h"

#include <math.h>

static double interval(double every) { return every > 0.0 ? every : 0.01; }

int rbl_pour_due(rbl_pour_state *p, size_t count, double rate, double every, uint64_t seed,
                 double now, size_t *want, uint64_t *batch_seed)
{
    if (p->placed >= count || now < p->next_time)
        return 0;
    const double step = interval(every);
    double n = 1.0, next = p->next_time + step;
    if (!(next > now)) { /* more batches fall in this step (every < dt): they come as one */
        n = floor((now - p->next_time) / step) + 1.0;
        next = p->next_time + n * step;
        if (!(next > now)) /* rounding: the next batch at the next step */
            next = nextafter(now, INFINITY);
    }
    p->next_time = next;
    p->owed += rate * step * n;
    /* what is owed is bounded before it is converted (it grows while nothing fits) */
    const double left = (double)(count - p->placed);
    *want = p->owed < left ? (size_t)floor(p->owed) : (size_t)left;
    *batch_seed = seed * 0x9E3779B97F4A7C15ULL + ++p->batch;
    return 1;
}

void rbl_pour_placed(rbl_pour_state *p, size_t placed)
{
    p->owed -= (double)placed;
    p->placed += placed;
}

uint64_t rbl_pour_step(double time, double dt)
{
    if (!(time > 0.0))
        return 0;
    const double q = ceil(time / dt);
    if (!(q < 1e15))
        return UINT64_MAX;
    uint64_t k = (uint64_t)q; /* then exactly as rbl_pour_due compares: step * dt >= time */
    while (k > 0 && (double)(k - 1) * dt >= time)
        k--;
    while ((double)k * dt < time)
        k++;
    return k;
}

uint64_t rbl_pour_next_step(const rbl_pour_state *p, size_t count, double dt)
{
    return p->placed >= count ? UINT64_MAX : rbl_pour_step(p->next_time, dt);
}

uint64_t rbl_pour_waiting(const rbl_pour_state *p, size_t count)
{
    if (p->placed >= count || !(p->owed >= 1.0))
        return 0;
    const double left = (double)(count - p->placed);
    return (uint64_t)(p->owed < left ? floor(p->owed) : left);
}

int rbl_pour_state_valid(const rbl_pour_state *p, size_t count)
{
    return isfinite(p->next_time) && p->next_time >= 0.0 && isfinite(p->owed) &&
           p->owed >= 0.0 && p->placed <= count;
}
