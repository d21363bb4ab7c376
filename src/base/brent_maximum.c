/* brent_maximum.c — the maximum of a smooth function of one variable within a bracket, by
 * Brent's method (R. P. Brent, Algorithms for Minimization without Derivatives, 1973, ch. 5):
 * a parabola through the three best points so far where it steps inside the bracket and
 * shrinks it fast enough, a golden section of the larger part otherwise. Near a smooth maximum
 * the parabolic steps converge superlinearly: 18 values of a sine to its top where golden
 * sections alone take 48 (test_brent_maximum), 36 rim points for a hard dent's starts where
 * they took 102. Used where a maximum along an angle or a line is wanted without derivatives
 * (an object's farthest point from a tube's axis, the highest points along a hard dent's
 * rim). */
#include "base_internal.h"

#include <float.h>
#include <math.h>

#define MAX_VALUES 200 /* a bound the golden sections alone reach only on an absurd bracket */

double rbl_brent_maximum(double (*f)(double t, void *context), void *context, double lo,
                         double hi, double start, double tolerance)
{
    const double golden = 0.5 * (3 - sqrt(5.0)); /* the smaller golden part, 0.382 */
    /* x the best point so far, w the second best, v the previous w; values negated (least) */
    double x = start, w = start, v = start;
    double fx = -f(x, context), fw = fx, fv = fx;
    double step = 0, before = 0; /* this step and the one before the last */
    for (int n = 1; n < MAX_VALUES; n++) {
        double middle = 0.5 * (lo + hi), tol = tolerance + 2 * DBL_EPSILON * fabs(x);
        if (fabs(x - middle) <= 2 * tol - 0.5 * (hi - lo))
            break;
        int parabolic = 0;
        if (fabs(before) > tol) {
            /* the parabola through x, w, v: its vertex at x + p / q */
            double r = (x - w) * (fx - fv), q = (x - v) * (fx - fw);
            double p = (x - v) * q - (x - w) * r;
            q = 2 * (q - r);
            if (q > 0)
                p = -p;
            else
                q = -q;
            double older = before;
            before = step;
            /* taken if inside the bracket and shorter than half the step before last */
            if (fabs(p) < fabs(0.5 * q * older) && p > q * (lo - x) && p < q * (hi - x)) {
                step = p / q;
                double u = x + step;
                if (u - lo < 2 * tol || hi - u < 2 * tol)
                    step = x < middle ? tol : -tol;
                parabolic = 1;
            }
        }
        if (!parabolic) {
            before = x < middle ? hi - x : lo - x;
            step = golden * before;
        }
        double u = fabs(step) >= tol ? x + step : x + (step > 0 ? tol : -tol);
        double fu = -f(u, context);
        if (fu <= fx) {
            if (u < x)
                hi = x;
            else
                lo = x;
            v = w, fv = fw, w = x, fw = fx, x = u, fx = fu;
        } else {
            if (u < x)
                lo = u;
            else
                hi = u;
            if (fu <= fw || w == x)
                v = w, fv = fw, w = u, fw = fu;
            else if (fu <= fv || v == x || v == w)
                v = u, fv = fu;
        }
    }
    return x;
}
