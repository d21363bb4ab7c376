/* elements.c — allocation and validation of an element set (CD5: "the input is checked for
 * correctness before anything runs"). Messages name the 1-based element and the value. */
#include "grid_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rbl_elements_alloc(rbl_elements *e, int dim, size_t n, rbl_error *err)
{
    memset(e, 0, sizeof *e);
    if (dim != 2 && dim != 3)
        return rbl_error_set(err, RBL_EINVAL, "dimension must be 2 or 3, got %d", dim);
    size_t bytes;
    if (!rbl_size_mul(n ? n : 1, 4 * sizeof(double), &bytes))
        return rbl_error_set(err, RBL_ETOOBIG, "%zu elements do not fit in memory", n);
    e->pos = rbl_huge_calloc(n ? 3 * n : 1, sizeof(double));
    e->radius = rbl_huge_calloc(n ? n : 1, sizeof(double));
    if (!e->pos || !e->radius) {
        rbl_elements_free(e);
        return rbl_error_set(err, RBL_ENOMEM, "cannot allocate %zu bytes for %zu elements",
                             bytes, n);
    }
    e->dim = dim;
    e->n = n;
    return RBL_OK;
}

void rbl_elements_free(rbl_elements *e)
{
    free(e->pos);
    free(e->radius);
    e->pos = e->radius = NULL;
    e->n = 0;
}

int rbl_elements_check(const rbl_elements *e, rbl_error *err)
{
    static const char axis[3] = {'x', 'y', 'z'};
    if (e->dim != 2 && e->dim != 3)
        return rbl_error_set(err, RBL_EINVAL, "dimension must be 2 or 3, got %d", e->dim);
    for (int a = 0; a < e->dim; a++) {
        if (!(fabs(e->lo[a]) <= RBL_CD_COORD_MAX && fabs(e->hi[a]) <= RBL_CD_COORD_MAX))
            return rbl_error_set(err, RBL_ERANGE, "bounds of %c [%g, %g] must be within "
                                 "+-%g (the touch test squares distances)",
                                 axis[a], e->lo[a], e->hi[a], RBL_CD_COORD_MAX);
        if (!(e->hi[a] > e->lo[a]))
            return rbl_error_set(err, RBL_ERANGE,
                                 "bounds of %c: maximum %.17g must be greater than minimum %.17g",
                                 axis[a], e->hi[a], e->lo[a]);
    }
    for (size_t i = 0; i < e->n; i++) {
        double r = e->radius[i];
        if (!(r >= RBL_CD_RADIUS_MIN && r <= RBL_CD_RADIUS_MAX))
            return rbl_error_set(err, RBL_ERANGE, "element %zu: radius %g must be within "
                                 "[%g, %g] (the touch test squares it)", i + 1, r,
                                 RBL_CD_RADIUS_MIN, RBL_CD_RADIUS_MAX);
        for (int a = 0; a < e->dim; a++) {
            double x = e->pos[3 * i + (size_t)a];
            if (!isfinite(x))
                return rbl_error_set(err, RBL_ERANGE, "element %zu: %c = %g is not finite",
                                     i + 1, axis[a], x);
            if (x < e->lo[a] || x > e->hi[a])
                return rbl_error_set(err, RBL_ERANGE,
                                     "element %zu: %c = %.17g is outside the bounds [%.17g, %.17g]",
                                     i + 1, axis[a], x, e->lo[a], e->hi[a]);
        }
        if (e->dim == 2 && e->pos[3 * i + 2] != 0.0)
            return rbl_error_set(err, RBL_EINVAL, "element %zu: z must be 0 in 2D", i + 1);
    }
    return RBL_OK;
}
