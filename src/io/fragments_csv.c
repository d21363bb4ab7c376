/* fragments_csv.c — a frame's fragments (issue 72, docs/bonds.md "Fragments"):
 * fragments_NNNNNN.csv, one row per fragment by label (its least grain id): grains, mass (kg),
 * equivalent diameter (m), centre of mass (m) and its velocity (m/s); and
 * fragment_sizes_NNNNNN.csv, the size distribution: per number of grains, the fragments of
 * that size and their share of the mass. */
#include "io_internal.h"

#include <stdio.h>
#include <stdlib.h>

static int by_grains(const void *x, const void *y)
{
    const rbl_fragment *p = x, *q = y;
    if (p->grains != q->grains)
        return p->grains < q->grains ? -1 : 1;
    return (p->label > q->label) - (p->label < q->label);
}

int rbl_fragments_write(const char *path, const char *sizes_path, const rbl_fragment *f,
                        size_t n, rbl_error *err)
{
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    fprintf(af.file, "label,grains,mass,diameter,x,y,z,vx,vy,vz\n");
    double mass = 0.0;
    for (size_t q = 0; q < n; q++) {
        const rbl_fragment *p = f + q;
        mass += p->mass;
        fprintf(af.file, "%u,%u,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g\n", p->label,
                p->grains, p->mass, p->diameter, p->centre[0], p->centre[1], p->centre[2],
                p->velocity[0], p->velocity[1], p->velocity[2]);
    }
    if ((rc = rbl_atomic_commit(&af, err)) != RBL_OK)
        return rc;
    rbl_fragment *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", sizes_path);
    for (size_t q = 0; q < n; q++)
        sorted[q] = f[q];
    qsort(sorted, n, sizeof *sorted, by_grains); /* (ties by label: the sums' order fixed) */
    rc = rbl_atomic_open(&af, sizes_path, err);
    if (rc == RBL_OK) {
        fprintf(af.file, "grains,fragments,mass_fraction\n");
        for (size_t q = 0; q < n;) {
            size_t e = q;
            double m = 0.0;
            for (; e < n && sorted[e].grains == sorted[q].grains; e++)
                m += sorted[e].mass;
            fprintf(af.file, "%u,%zu,%.10g\n", sorted[q].grains, e - q, mass > 0 ? m / mass : 0.0);
            q = e;
        }
        rc = rbl_atomic_commit(&af, err);
    }
    free(sorted);
    return rc;
}
