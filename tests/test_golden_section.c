/* test_golden_section.c — the golden-section maximiser (golden_section.c): the maximum of a
 * parabola found to the width of the last bracket, (hi - lo) 0.618^steps; of a sine to the
 * limit that rounding sets (near its top sin changes by less than its last bit within
 * 1.5e-8 of pi/2); a monotone function's maximum at the end of the interval; and steps + 2
 * calls of the function. */
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
    const double ratio = 0.5 * (sqrt(5.0) - 1);
    const double peaks[] = {0.3, -0.999, 0.0, 0.71};
    for (int k = 0; k < 4; k++) {
        for (int steps = 10; steps <= 60; steps += 25) {
            probe p = {peaks[k], 0};
            double t = rbl_golden_maximum(parabola, &p, -1, 1, steps);
            ASSERT_NEAR(t, peaks[k], 2 * pow(ratio, steps));
            ASSERT_EQ_INT(p.calls, steps + 2);
        }
    }
    /* a wider bracket than the last one would not do: 10 steps leave the peak off by more
     * than 0.618^30 */
    probe coarse = {0.3, 0};
    ASSERT_TRUE(fabs(rbl_golden_maximum(parabola, &coarse, -1, 1, 10) - 0.3) > pow(ratio, 30));

    probe s = {0, 0};
    double top = rbl_golden_maximum(sine, &s, 0, 3, 60);
    ASSERT_NEAR(top, M_PI / 2, 3e-8);

    probe r = {0, 0};
    double end = rbl_golden_maximum(rising, &r, 2, 5, 40);
    ASSERT_TRUE(end < 5 && end > 5 - 3 * pow(ratio, 40));
    return 0;
}
