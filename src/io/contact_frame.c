/* contact_frame.c — the contact network of a frame (issue 43, output.contacts), from the one
 * contact list (rbl_sim_contacts, in id order: the same bytes on any thread count):
 *   contacts_NNNNNN.vtp: a line per contact from the first grain's centre to the second's (its
 *     nearest periodic image, so a line never crosses the box) or, for a wall contact, to its
 *     point on the wall. Cell data: id1, id2 (-1 for a wall), wall (-1 for two grains), point,
 *     normal, normal_force, tangential_force (on the first grain), overlap, branch (the line's
 *     vector, exact: what coarse-graining from the file needs, issue 74); point data: force,
 *     the contact's |f| at both ends, so that ParaView's Tube filter can vary the radius by it.
 *   contacts_NNNNNN.csv: the same contacts as a table, grain pairs first, exact doubles.
 * Over several processes each writes the contacts whose first grain is its own. */
#include "io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rbl_contact_frame_layout(rbl_vtp_layout *l)
{
    static const rbl_vtp_layout layout = {
        .point = {{"Float64", "force", 1, 8, NULL}},
        .n_point = 1,
        .cell = {{"Int64", "id1", 1, 8, NULL},
                 {"Int64", "id2", 1, 8, NULL},
                 {"Int32", "wall", 1, 4, NULL},
                 {"Float64", "point", 3, 8, NULL},
                 {"Float64", "normal", 3, 8, NULL},
                 {"Float64", "normal_force", 3, 8, NULL},
                 {"Float64", "tangential_force", 3, 8, NULL},
                 {"Float64", "overlap", 1, 8, NULL},
                 {"Float64", "branch", 3, 8, NULL}},
        .n_cell = 9,
    };
    *l = layout;
}

/* The arrays of the .vtp, grain pairs then wall contacts (n = c->n + c->n_wall lines). */
typedef struct network {
    double *points, *force, *point, *normal, *fn, *ft, *overlap, *branch;
    int64_t *id1, *id2;
    int32_t *wall;
} network;

static double norm_sum(const double *a, const double *b)
{
    const double f[3] = {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    return sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
}

/* Line k: from centre to centre + branch, the rest copied from entry e of the list's arrays. */
static void line(network *w, size_t k, const double *centre, const double *branch,
                 const double *point, const double *normal, const double *fn, const double *ft,
                 double overlap)
{
    for (int a = 0; a < 3; a++) {
        w->points[6 * k + a] = centre[a];
        w->points[6 * k + 3 + a] = centre[a] + branch[a];
        w->point[3 * k + a] = point[a], w->normal[3 * k + a] = normal[a];
        w->fn[3 * k + a] = fn[a], w->ft[3 * k + a] = ft[a];
        w->branch[3 * k + a] = branch[a];
    }
    w->force[2 * k] = w->force[2 * k + 1] = norm_sum(fn, ft);
    w->overlap[k] = overlap;
}

int rbl_contact_frame_write(const char *path, const rbl_sim *sim, rbl_error *err)
{
    rbl_contact_list c;
    int rc = rbl_sim_contacts(sim, &c, err);
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "%s", path);
    rc = rbl_contact_list_vtp_write(path, &c, err);
    rbl_contact_list_free(&c);
    return rc;
}

int rbl_contact_list_vtp_write(const char *path, const rbl_contact_list *list, rbl_error *err)
{
    const rbl_contact_list c = *list;
    int rc = RBL_OK;
    const size_t n = c.n + c.n_wall, m = n ? n : 1;
    network w = {malloc(6 * m * sizeof(double)), malloc(2 * m * sizeof(double)),
                 malloc(3 * m * sizeof(double)), malloc(3 * m * sizeof(double)),
                 malloc(3 * m * sizeof(double)), malloc(3 * m * sizeof(double)),
                 malloc(m * sizeof(double)),     malloc(3 * m * sizeof(double)),
                 malloc(m * sizeof(int64_t)),    malloc(m * sizeof(int64_t)),
                 malloc(m * sizeof(int32_t))};
    if (!(w.points && w.force && w.point && w.normal && w.fn && w.ft && w.overlap && w.branch &&
          w.id1 && w.id2 && w.wall)) {
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu contacts", path, n);
        goto done;
    }
    for (size_t k = 0; k < c.n; k++) {
        line(&w, k, c.centre + 3 * k, c.branch + 3 * k, c.point + 3 * k, c.normal + 3 * k,
             c.fn + 3 * k, c.ft + 3 * k, c.overlap[k]);
        w.id1[k] = c.ids[2 * k], w.id2[k] = c.ids[2 * k + 1], w.wall[k] = -1;
    }
    for (size_t q = 0; q < c.n_wall; q++) {
        const size_t k = c.n + q;
        double branch[3];
        for (int a = 0; a < 3; a++)
            branch[a] = c.wall_point[3 * q + a] - c.wall_centre[3 * q + a];
        line(&w, k, c.wall_centre + 3 * q, branch, c.wall_point + 3 * q, c.wall_normal + 3 * q,
             c.wall_fn + 3 * q, c.wall_ft + 3 * q, c.wall_overlap[q]);
        w.id1[k] = c.wall_grain[q], w.id2[k] = -1, w.wall[k] = c.wall[q] + 1; /* thermo.csv's K of wallK_* */
    }
    rbl_vtp_layout l;
    rbl_contact_frame_layout(&l);
    l.point[0].data = w.force;
    const void *cell_data[9] = {w.id1, w.id2, w.wall, w.point, w.normal,
                                w.fn,  w.ft,  w.overlap, w.branch};
    for (int a = 0; a < l.n_cell; a++)
        l.cell[a].data = cell_data[a];
    rbl_vtp_polydata pd = {.n_points = 2 * n, .points = w.points, .arrays = l.point,
                           .n_arrays = l.n_point, .n_cells = n, .cell_size = 2, .lines = 1,
                           .cell_arrays = l.cell, .n_cell_arrays = l.n_cell};
    /* the corners of line k are points 2k and 2k + 1: the identity */
    uint32_t *corners = malloc(2 * m * sizeof *corners);
    if (!corners || 2 * n > UINT32_MAX) {
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu contacts", path, n);
        free(corners);
        goto done;
    }
    for (size_t k = 0; k < 2 * n; k++)
        corners[k] = (uint32_t)k;
    pd.cells = corners;
    rc = rbl_vtp_polydata_write(path, &pd, err);
    free(corners);
done:
    free(w.points), free(w.force), free(w.point), free(w.normal), free(w.fn), free(w.ft);
    free(w.overlap), free(w.branch), free(w.id1), free(w.id2), free(w.wall);
    return rc;
}

static void row(FILE *f, long long id1, long long id2, int wall, const double *point,
                const double *normal, const double *fn, const double *ft, double overlap,
                const double *branch)
{
    fprintf(f, "%lld,%lld,%d", id1, id2, wall);
    const double *v[5] = {point, normal, fn, ft, branch};
    for (int k = 0; k < 5; k++) {
        if (k == 4)
            fprintf(f, ",%.17g", overlap);
        fprintf(f, ",%.17g,%.17g,%.17g", v[k][0], v[k][1], v[k][2]);
    }
    fputc('\n', f);
}

int rbl_contact_table_write(const char *path, const rbl_sim *sim, rbl_error *err)
{
    rbl_contact_list c;
    int rc = rbl_sim_contacts(sim, &c, err);
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "%s", path);
    rc = rbl_contact_list_csv_write(path, &c, err);
    rbl_contact_list_free(&c);
    return rc;
}

int rbl_contact_list_csv_write(const char *path, const rbl_contact_list *list, rbl_error *err)
{
    const rbl_contact_list c = *list;
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    FILE *f = af.file;
    fprintf(f, "id1,id2,wall,point_x,point_y,point_z,normal_x,normal_y,normal_z,fn_x,fn_y,fn_z,"
               "ft_x,ft_y,ft_z,overlap,branch_x,branch_y,branch_z\n");
    for (size_t k = 0; k < c.n; k++)
        row(f, c.ids[2 * k], c.ids[2 * k + 1], -1, c.point + 3 * k, c.normal + 3 * k,
            c.fn + 3 * k, c.ft + 3 * k, c.overlap[k], c.branch + 3 * k);
    for (size_t q = 0; q < c.n_wall; q++) {
        double branch[3];
        for (int a = 0; a < 3; a++)
            branch[a] = c.wall_point[3 * q + a] - c.wall_centre[3 * q + a];
        row(f, c.wall_grain[q], -1, c.wall[q] + 1, c.wall_point + 3 * q, c.wall_normal + 3 * q,
            c.wall_fn + 3 * q, c.wall_ft + 3 * q, c.wall_overlap[q], branch);
    }
    return rbl_atomic_commit(&af, err);
}
