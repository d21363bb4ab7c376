/* contact_frame.c — the contact network of a frame (issue 43, output.contacts), from the one
 * contact list (rbl_sim_contacts' order, ids: the same bytes on any thread count), the
 * contacts a filter keeps (issue 74), with the columns a study asks for:
 *   contacts_NNNNNN.vtp: a line per contact from the first grain's centre to the second's (its
 *     nearest periodic image, so a line never crosses the box) or, for a wall contact, to its
 *     point on the wall. Cell data: the columns of contact_columns.c (id1, id2, wall, point,
 *     normal, normal_force, tangential_force, overlap, branch, then those asked for); point
 *     data: force, the contact's |f| at both ends, for ParaView's Tube filter.
 *   contacts_NNNNNN.csv: the same contacts as a table, grain pairs first, exact doubles.
 * Over several processes each writes the contacts whose first grain is its own. */
#include "io_internal.h"
#include "../dem/dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void rbl_contact_frame_layout(unsigned columns, rbl_vtp_layout *l)
{
    memset(l, 0, sizeof *l);
    l->point[0] = (rbl_vtp_array){"Float64", "force", 1, 8, NULL};
    l->n_point = 1;
    for (int c = 0; c < rbl_contact_column_count(); c++) {
        const rbl_contact_column *col = rbl_contact_column_at(c);
        if (rbl_contact_column_wanted(col, columns))
            l->cell[l->n_cell++] =
                (rbl_vtp_array){col->vtk, col->name, col->components, col->size, NULL};
    }
}

static double norm_sum(const double *a, const double *b)
{
    const double f[3] = {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    return sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
}

int rbl_contact_rows_vtp_write(const char *path, const rbl_contact_row *rows, size_t n,
                               unsigned columns, rbl_error *err)
{
    rbl_vtp_layout l;
    rbl_contact_frame_layout(columns, &l);
    const size_t m = n ? n : 1;
    double *points = malloc(6 * m * sizeof *points), *force = malloc(2 * m * sizeof *force);
    uint32_t *corners = malloc(2 * m * sizeof *corners);
    void *cell[RBL_VTP_MAX_ARRAYS] = {NULL};
    int ok = points && force && corners && 2 * n <= UINT32_MAX;
    for (int a = 0, c = 0; ok && c < rbl_contact_column_count(); c++) {
        const rbl_contact_column *col = rbl_contact_column_at(c);
        if (!rbl_contact_column_wanted(col, columns))
            continue;
        ok = (cell[a] = rbl_contact_column_array(col, rows, n)) != NULL;
        l.cell[a].data = cell[a];
        a++;
    }
    int rc;
    if (!ok) {
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu contacts", path, n);
    } else {
        for (size_t k = 0; k < n; k++) {
            const rbl_contact_item *it = &rows[k].it;
            for (int a = 0; a < 3; a++) /* from the centre to centre + branch */
                points[6 * k + a] = it->centre[a],
                points[6 * k + 3 + a] = it->centre[a] + it->branch[a];
            force[2 * k] = force[2 * k + 1] = norm_sum(it->fn, it->ft);
            corners[2 * k] = (uint32_t)(2 * k), corners[2 * k + 1] = (uint32_t)(2 * k + 1);
        }
        l.point[0].data = force;
        rbl_vtp_polydata pd = {.n_points = 2 * n, .points = points, .arrays = l.point,
                               .n_arrays = l.n_point, .n_cells = n, .cell_size = 2, .lines = 1,
                               .cells = corners, .cell_arrays = l.cell,
                               .n_cell_arrays = l.n_cell};
        rc = rbl_vtp_polydata_write(path, &pd, err);
    }
    free(points), free(force), free(corners);
    for (int a = 0; a < RBL_VTP_MAX_ARRAYS; a++)
        free(cell[a]);
    return rc;
}

int rbl_contact_rows_csv_write(const char *path, const rbl_contact_row *rows, size_t n,
                               unsigned columns, rbl_error *err)
{
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK)
        return rc;
    FILE *f = af.file;
    const char *sep = "";
    for (int c = 0; c < rbl_contact_column_count(); c++) { /* the header */
        const rbl_contact_column *col = rbl_contact_column_at(c);
        for (int a = 0; a < col->components && rbl_contact_column_wanted(col, columns); a++) {
            if (col->components == 1)
                fprintf(f, "%s%s", sep, col->csv);
            else
                fprintf(f, "%s%s_%c", sep, col->csv, "xyz"[a]);
            sep = ",";
        }
    }
    fputc('\n', f);
    for (size_t k = 0; k < n; k++) {
        sep = "";
        for (int c = 0; c < rbl_contact_column_count(); c++) {
            const rbl_contact_column *col = rbl_contact_column_at(c);
            for (int a = 0; a < col->components && rbl_contact_column_wanted(col, columns); a++) {
                rbl_contact_value v = rbl_contact_column_value(col, &rows[k], a);
                if (col->integer)
                    fprintf(f, "%s%lld", sep, (long long)v.i);
                else
                    fprintf(f, "%s%.17g", sep, v.d);
                sep = ",";
            }
        }
        fputc('\n', f);
    }
    return rbl_atomic_commit(&af, err);
}

/* The rows of the contacts a scene's filter keeps, written by `write`. */
static int from_sim(const char *path, const rbl_sim *sim, const rbl_contact_output *o,
                    int (*write)(const char *, const rbl_contact_row *, size_t, unsigned,
                                 rbl_error *),
                    rbl_error *err)
{
    rbl_contact_row *rows;
    size_t n, n_pairs;
    if (!rbl_sim_contact_rows(sim, o ? o->filter : NULL, &rows, &n, &n_pairs))
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for the contacts", path);
    int rc = write(path, rows, n, o ? o->columns : 0, err);
    free(rows);
    return rc;
}

int rbl_contact_frame_write(const char *path, const rbl_sim *sim, const rbl_contact_output *o,
                            rbl_error *err)
{
    return from_sim(path, sim, o, rbl_contact_rows_vtp_write, err);
}

int rbl_contact_table_write(const char *path, const rbl_sim *sim, const rbl_contact_output *o,
                            rbl_error *err)
{
    return from_sim(path, sim, o, rbl_contact_rows_csv_write, err);
}

int rbl_contact_bin_write(const char *path, const rbl_sim *sim, const rbl_contact_output *o,
                          rbl_error *err)
{
    return from_sim(path, sim, o, rbl_contact_rows_bin_write, err);
}

/* A list made elsewhere (the impulse engine's) as rows: its contacts, no study columns. */
static rbl_contact_row *rows_of_list(const rbl_contact_list *c, size_t *n)
{
    *n = c->n + c->n_wall;
    rbl_contact_row *rows = calloc(*n + 1, sizeof *rows);
    for (size_t k = 0; rows && k < c->n; k++) {
        rbl_contact_item *it = &rows[k].it;
        it->id1 = c->ids[2 * k], it->id2 = c->ids[2 * k + 1], it->wall = -1;
        memcpy(it->point, c->point + 3 * k, sizeof it->point);
        memcpy(it->normal, c->normal + 3 * k, sizeof it->normal);
        memcpy(it->fn, c->fn + 3 * k, sizeof it->fn);
        memcpy(it->ft, c->ft + 3 * k, sizeof it->ft);
        memcpy(it->centre, c->centre + 3 * k, sizeof it->centre);
        memcpy(it->branch, c->branch + 3 * k, sizeof it->branch);
        it->overlap = c->overlap[k];
    }
    for (size_t q = 0; rows && q < c->n_wall; q++) {
        rbl_contact_item *it = &rows[c->n + q].it;
        it->id1 = c->wall_grain[q], it->id2 = UINT32_MAX, it->wall = c->wall[q];
        memcpy(it->point, c->wall_point + 3 * q, sizeof it->point);
        memcpy(it->normal, c->wall_normal + 3 * q, sizeof it->normal);
        memcpy(it->fn, c->wall_fn + 3 * q, sizeof it->fn);
        memcpy(it->ft, c->wall_ft + 3 * q, sizeof it->ft);
        memcpy(it->centre, c->wall_centre + 3 * q, sizeof it->centre);
        for (int a = 0; a < 3; a++)
            it->branch[a] = it->point[a] - it->centre[a];
        it->overlap = c->wall_overlap[q];
    }
    return rows;
}

static int list_write(const char *path, const rbl_contact_list *list,
                      int (*write)(const char *, const rbl_contact_row *, size_t, unsigned,
                                   rbl_error *),
                      rbl_error *err)
{
    size_t n;
    rbl_contact_row *rows = rows_of_list(list, &n);
    int rc = rows ? write(path, rows, n, 0, err)
                  : rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu contacts", path, n);
    free(rows);
    return rc;
}

int rbl_contact_list_write(const char *path, const rbl_contact_list *list, int format,
                           rbl_error *err)
{
    return list_write(path, list,
                      format == RBL_NETWORK_VTP   ? rbl_contact_rows_vtp_write
                      : format == RBL_NETWORK_CSV ? rbl_contact_rows_csv_write
                                                  : rbl_contact_rows_bin_write,
                      err);
}

void rbl_contact_files_name(int network, char *out, size_t size)
{
    const int csv = network & RBL_NETWORK_CSV, bin = network & RBL_NETWORK_BIN;
    snprintf(out, size, "%s%s%s%s", network & RBL_NETWORK_VTP ? "contacts.pvd" : "",
             network & RBL_NETWORK_VTP && (csv || bin) ? ", " : "",
             csv ? "contacts_NNNNNN.csv" : bin ? "contacts_NNNNNN.bin" : "",
             csv && bin ? ", .bin" : "");
}

int rbl_contact_list_vtp_write(const char *path, const rbl_contact_list *list, rbl_error *err)
{
    return list_write(path, list, rbl_contact_rows_vtp_write, err);
}

int rbl_contact_list_csv_write(const char *path, const rbl_contact_list *list, rbl_error *err)
{
    return list_write(path, list, rbl_contact_rows_csv_write, err);
}
