/* golden_section.c — the maximum of a function of one variable on an interval by golden
 * sections: each step keeps the part of the bracket that holds the larger of two inner
 * values and reuses the other inner point, so one new value per step shrinks the bracket by
 * 0.618. Used where a maximum along an angle or a line is wanted without derivatives (an
 * object's farthest point from a tube's axis, the highest point along a dent's rim). */
#include "base_internal.h"

#include <math.h>

double rbl_golden_maximum(double (*f)(double t, void *context), void *context, double lo,
                          double hi, int steps)
{
    const double ratio = 0.5 * (sqrt(5.0) - 1);
    double t1 = hi - ratio * (hi - lo), t2 = lo + ratio * (hi - lo);
    double f1 = f(t1, context), f2 = f(t2, context);
    for (int step = 0; step < steps; step++) {
        if (f1 > f2)
            hi = t2, t2 = t1, f2 = f1, t1 = hi - ratio * (hi - lo), f1 = f(t1, context);
        else
            lo = t1, t1 = t2, f1 = f2, t2 = lo + ratio * (hi - lo), f2 = f(t2, context);
    }
    return 0.5 * (lo + hi);
}
