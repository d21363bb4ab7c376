/* cg_coords.c — coarse-graining on cylindrical (r, theta, z) and spherical (r, theta, phi)
 * grids (issue 74, docs/cg.md "Cylindrical and spherical grids"): the nodes' places about an
 * axis (x, y or z) through a centre, the nodes a kernel's ball reaches, and each node's local
 * basis, into which vectors and tensors are turned. Lengths in m, angles in radians: theta
 * from the axis u towards v (cylindrical; u, v, axis right-handed), or the polar angle from the
 * axis with phi the azimuth from u towards v (spherical). */
#include "cg_internal.h"

#include <math.h>
#include <stdlib.h>

/* The axes u, v across the axis a (u x v = a). */
static void across(int a, int *u, int *v)
{
    *u = (a + 1) % 3, *v = (a + 2) % 3;
}

/* The local basis at coordinates q: rows e1, e2, e3 as Cartesian vectors. */
void rbl_cg_coords_basis(const rbl_cg_coords *co, const double q[3], double e[9])
{
    int u, v;
    across(co->axis, &u, &v);
    for (int k = 0; k < 9; k++)
        e[k] = 0.0;
    if (co->kind == RBL_CG_CYLINDRICAL) {
        const double c = cos(q[1]), s = sin(q[1]);
        e[u] = c, e[v] = s;                   /* e_r */
        e[3 + u] = -s, e[3 + v] = c;          /* e_theta */
        e[6 + co->axis] = 1.0;                /* e_z */
    } else {
        const double ct = cos(q[1]), st = sin(q[1]), cp = cos(q[2]), sp = sin(q[2]);
        e[u] = st * cp, e[v] = st * sp, e[co->axis] = ct;                /* e_r */
        e[3 + u] = ct * cp, e[3 + v] = ct * sp, e[3 + co->axis] = -st; /* e_theta */
        e[6 + u] = -sp, e[6 + v] = cp;                                  /* e_phi */
    }
}

int rbl_cg_coords_nodes(rbl_cg_coords *co, const size_t n[3], const double origin[3],
                        const double h[3])
{
    const size_t nodes = n[0] * n[1] * n[2];
    free(co->pos);
    co->pos = malloc(3 * nodes * sizeof *co->pos);
    if (!co->pos)
        return 0;
    for (int a = 0; a < 3; a++)
        co->box_lo[a] = INFINITY, co->box_hi[a] = -INFINITY;
    for (size_t k = 0; k < n[2]; k++)
        for (size_t j = 0; j < n[1]; j++)
            for (size_t i = 0; i < n[0]; i++) {
                const double q[3] = {origin[0] + (double)i * h[0], origin[1] + (double)j * h[1],
                                     origin[2] + (double)k * h[2]};
                double e[9], *p = co->pos + 3 * (i + n[0] * (j + n[1] * k));
                rbl_cg_coords_basis(co, q, e);
                for (int a = 0; a < 3; a++) {
                    p[a] = co->kind == RBL_CG_CYLINDRICAL
                               ? (a == co->axis ? q[2] : co->centre[a] + q[0] * e[a])
                               : co->centre[a] + q[0] * e[a];
                    co->box_lo[a] = p[a] < co->box_lo[a] ? p[a] : co->box_lo[a];
                    co->box_hi[a] = p[a] > co->box_hi[a] ? p[a] : co->box_hi[a];
                }
            }
    return 1;
}

/* Index range of [lo, hi] along grid axis a, clipped; 0 when it misses. */
static int range(const size_t n[3], const double origin[3], const double h[3], int a, double lo,
                 double hi, size_t *i0, size_t *i1)
{
    const double f0 = ceil((lo - origin[a]) / h[a]), f1 = floor((hi - origin[a]) / h[a]);
    if (f1 < 0.0 || f0 > (double)(n[a] - 1) || f1 < f0)
        return 0;
    *i0 = f0 < 0.0 ? 0 : (size_t)f0;
    *i1 = f1 > (double)(n[a] - 1) ? n[a] - 1 : (size_t)f1;
    return 1;
}

int rbl_cg_coords_reach(const rbl_cg_coords *co, const size_t n[3], const double origin[3],
                        const double h[3], const double m[3], double radius, size_t i0[3],
                        size_t i1[3])
{
    int u, v;
    across(co->axis, &u, &v);
    const double du = m[u] - co->centre[u], dv = m[v] - co->centre[v];
    const double da = m[co->axis] - co->centre[co->axis];
    const double r = co->kind == RBL_CG_CYLINDRICAL ? sqrt(du * du + dv * dv)
                                                    : sqrt(du * du + dv * dv + da * da);
    if (!range(n, origin, h, 0, r - radius, r + radius, &i0[0], &i1[0]))
        return 0;
    i0[1] = 0, i1[1] = n[1] - 1; /* every angle: the kernel's cutoff leaves out the far ones */
    if (co->kind == RBL_CG_CYLINDRICAL && !co->flat_axis)
        return range(n, origin, h, 2, m[co->axis] - radius, m[co->axis] + radius, &i0[2],
                     &i1[2]);
    i0[2] = 0, i1[2] = n[2] - 1;
    return 1;
}
