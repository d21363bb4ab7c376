/* bonds_frame.c — the bonds of a frame (issue 72, docs/bonds.md), from their views (rbl_sim_bond)
 * in the bonds' order (their ids'; gathered from every process by src/run/bond_output.c): bonds_NNNNNN.vtp, a line per bond from its first grain's centre to
 * the second's nearest image (a broken bond's where it broke), cell data id1, id2, intact,
 * force (N) and moment (N m) on the first grain, normal_force (N, tension positive), sigma and
 * tau (Pa); and breaks.csv, each breakage once: step, time, position, mode, stresses. */
#include "io_internal.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

int rbl_bonds_frame_write(const char *path, const rbl_bond_view *view, size_t n, rbl_error *err)
{
    const size_t m = n ? n : 1;
    double *points = malloc(6 * m * sizeof *points), *f = malloc(3 * m * sizeof *f);
    double *mo = malloc(3 * m * sizeof *mo), *s = malloc(3 * m * sizeof *s);
    int64_t *ids = malloc(2 * m * sizeof *ids);
    int32_t *ok = malloc(m * sizeof *ok);
    uint32_t *corners = malloc(2 * m * sizeof *corners);
    int rc = RBL_OK;
    if (!points || !f || !mo || !s || !ids || !ok || !corners || 2 * n > UINT32_MAX) {
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu bonds", path, n);
        goto done;
    }
    double *fn = s, *sigma = s + n, *tau = s + 2 * n;
    for (size_t k = 0; k < n; k++) {
        const rbl_bond_view v = view[k];
        for (int a = 0; a < 6; a++)
            points[6 * k + a] = v.ends[a];
        for (int a = 0; a < 3; a++)
            f[3 * k + a] = v.force[a], mo[3 * k + a] = v.moment[a];
        ids[2 * k] = v.id[0], ids[2 * k + 1] = v.id[1];
        ok[k] = v.intact;
        fn[k] = v.normal_force, sigma[k] = v.sigma, tau[k] = v.tau;
        corners[2 * k] = (uint32_t)(2 * k), corners[2 * k + 1] = (uint32_t)(2 * k + 1);
    }
    const rbl_vtp_array cells[] = {{"Int64", "ids", 2, 8, ids},
                                   {"Int32", "intact", 1, 4, ok},
                                   {"Float64", "force", 3, 8, f},
                                   {"Float64", "moment", 3, 8, mo},
                                   {"Float64", "normal_force", 1, 8, fn},
                                   {"Float64", "sigma", 1, 8, sigma},
                                   {"Float64", "tau", 1, 8, tau}};
    const rbl_vtp_polydata pd = {.n_points = 2 * n, .points = points, .cells = corners,
                                 .n_cells = n, .cell_size = 2, .lines = 1, .cell_arrays = cells,
                                 .n_cell_arrays = (int)(sizeof cells / sizeof *cells)};
    rc = rbl_vtp_polydata_write(path, &pd, err);
done:
    free(points), free(f), free(mo), free(s), free(ids), free(ok), free(corners);
    return rc;
}

/* Broken bonds by the step they broke at, then by their ids (their order in the list). */
typedef struct bond_break {
    uint64_t step;
    size_t k;
} bond_break;

static int by_step(const void *x, const void *y)
{
    const bond_break *p = x, *q = y;
    if (p->step != q->step)
        return p->step < q->step ? -1 : 1;
    return (p->k > q->k) - (p->k < q->k);
}

int rbl_bonds_breaks_write(const char *path, const rbl_bond_view *view, size_t n_views,
                           double dt, rbl_error *err)
{
    size_t n = 0;
    bond_break *list = malloc((n_views ? n_views : 1) * sizeof *list);
    if (!list)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu breaks", path, n_views);
    for (size_t k = 0; k < n_views; k++)
        if (!view[k].intact && view[k].mode != 0) /* (a bond whose grain left: unlisted) */
            list[n].step = view[k].broke_step, list[n++].k = k;
    qsort(list, n, sizeof *list, by_step);
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK) {
        free(list);
        return rc;
    }
    fprintf(af.file, "step,time,id1,id2,x,y,z,mode,sigma,tau\n");
    for (size_t q = 0; q < n; q++) {
        const rbl_bond_view v = view[list[q].k];
        fprintf(af.file, "%llu,%.10g,%u,%u,%.10g,%.10g,%.10g,%s,%.10g,%.10g\n",
                (unsigned long long)v.broke_step, (double)v.broke_step * dt, v.id[0], v.id[1],
                0.5 * (v.ends[0] + v.ends[3]), 0.5 * (v.ends[1] + v.ends[4]),
                0.5 * (v.ends[2] + v.ends[5]), v.mode == 1 ? "tension" : "shear", v.sigma,
                v.tau);
    }
    free(list);
    return rbl_atomic_commit(&af, err);
}
