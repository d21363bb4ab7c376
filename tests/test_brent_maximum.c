/* test_brent_maximum.c — Brent's maximiser (brent_maximum.c): a parabola's peak after a few
 * values (one parabolic step is exact there), a sine's to the limit that rounding sets (near
 * its top sin changes by less than its last bit within 1.5e-8 of pi/2) in 18 values where
 * golden sections take 48 to bracket 1e-9, a tent (not smooth: golden sections) to the
 * tolerance, and a monotone function's end of the bracket. */
#include "test_util.h"

#include "base/base_internal.h"

#include <math.h>

typedef struct {
    double peak;
    int calls;
} probe;

static double parabola(double t, void *context)
{
    probe *p = context;
    p->calls++;
    return -(t - p->peak) * (t - p->peak);
}

static double tent(double t, void *context)
{
    probe *p = context;
    p->calls++;
    return -fabs(t - p->peak);
}

static double sine(double t, void *context)
{
    ((probe *)context)->calls++;
    return sin(t);
}

static double rising(double t, void *context)
{
    ((probe *)context)->calls++;
    return t;
}

int main(void)
{
    const double peaks[] = {0.3, -0.999, 0.0, 0.71, 0.999};
    for (int k = 0; k < 5; k++) {
        probe p = {peaks[k], 0};
        double t = rbl_brent_maximum(parabola, &p, -1, 1, 0.5, 1e-9);
        ASSERT_NEAR(t, peaks[k], 3e-9);
        ASSERT_TRUE(p.calls <= 20); /* 6 from inside, 16 at an end: the bracket must close */
        probe q = {peaks[k], 0};
        t = rbl_brent_maximum(tent, &q, -1, 1, 0.5, 1e-9);
        ASSERT_NEAR(t, peaks[k], 3e-9);
        ASSERT_TRUE(q.calls <= 60);
    }
    /* a coarse tolerance is honoured, not exceeded by much */
    probe coarse = {0.3, 0};
    double t = rbl_brent_maximum(tent, &coarse, -1, 1, 0.5, 1e-3);
    ASSERT_TRUE(fabs(t - 0.3) < 3e-3 && coarse.calls < 25);

    probe s = {0, 0};
    double top = rbl_brent_maximum(sine, &s, 0, 3, 1, 1e-9);
    ASSERT_NEAR(top, M_PI / 2, 3e-8);
    ASSERT_TRUE(s.calls <= 25); /* 18; golden sections: 48 */

    probe r = {0, 0};
    double end = rbl_brent_maximum(rising, &r, 2, 5, 3, 1e-9);
    ASSERT_TRUE(end < 5 && end > 5 - 3e-9);
    ASSERT_TRUE(r.calls < 60);
    return 0;
}
