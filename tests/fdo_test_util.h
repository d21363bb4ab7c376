/* fdo_test_util.h — random draws shared by the tests of functionally defined objects: one
 * generator per test program, uniform numbers, and uniformly random unit vectors (directions
 * in 3-D, rotations as unit quaternions in 4-D) by rejection from the unit ball. */
#ifndef RBL_FDO_TEST_UTIL_H
#define RBL_FDO_TEST_UTIL_H

#include "base/base_internal.h"

#include <math.h>

static rbl_rng rng;

static inline double uniform(double lo, double hi)
{
    return lo + (hi - lo) * rbl_rng_uniform(&rng);
}

static inline void random_unit_vector(double *v, int dim)
{
    double n;
    do {
        n = 0;
        for (int k = 0; k < dim; k++)
            v[k] = uniform(-1, 1), n += v[k] * v[k];
    } while (n > 1 || n < 1e-3);
    for (int k = 0; k < dim; k++)
        v[k] /= sqrt(n);
}

static inline void random_quat(double q[4]) { random_unit_vector(q, 4); }
static inline void random_unit(double u[3]) { random_unit_vector(u, 3); }

#endif
