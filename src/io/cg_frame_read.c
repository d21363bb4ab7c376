/* cg_frame_read.c — a run's saved state for coarse-graining after the run (issue 74, `rubble
 * cg`, docs/cg.md "After the run"): a frame of the grains (grains_NNNNNN.vtp: id, radius,
 * velocity, mass; clump, if there, must be -1) and its contact file (contacts_NNNNNN.vtp,
 * .csv or .bin: the ids, normal, forces and branch vector of each contact, exact doubles), read into
 * rbl_cg_frame's arrays; a frame in pieces (several processes': a .pvtp's) joined in one
 * process's order; and a frame's time from the grains.pvd beside it. */
#include "io_internal.h"
#include "../cg/cg_internal.h" /* rbl_cg_pieces_order */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rbl_cg_frame_data_free(rbl_cg_frame_data *d)
{
    free(d->id), free(d->pos), free(d->vel), free(d->radius), free(d->mass);
    free(d->id1), free(d->id2), free(d->wall), free(d->normal), free(d->branch), free(d->fn);
    free(d->ft);
    memset(d, 0, sizeof *d);
}

static int read_grains(const char *path, rbl_cg_frame_data *d, rbl_error *err)
{
    rbl_vtp_file f;
    int rc = rbl_vtp_read(path, &f, err);
    if (rc != RBL_OK)
        return rc;
    const size_t n = f.n_points;
    int64_t *clump = NULL;
    static const char *const needed[4] = {"id", "radius", "velocity", "mass"};
    for (int k = 0; rc == RBL_OK && k < 4; k++)
        if (!rbl_vtp_has_array(&f, "PointData", needed[k]))
            rc = rbl_error_set(err, RBL_EPARSE, "%s: no PointData array '%s' (a frame to "
                               "coarse-grain needs the fields id, radius, velocity and mass: "
                               "output.fields, docs/cg.md)", path, needed[k]);
    struct {
        const char *section, *name, *type;
        int components;
        void **to;
    } want[] = {{"Points", "position", "Float64", 3, (void **)&d->pos},
                {"PointData", "id", "UInt32", 1, (void **)&d->id},
                {"PointData", "radius", "Float64", 1, (void **)&d->radius},
                {"PointData", "velocity", "Float64", 3, (void **)&d->vel},
                {"PointData", "mass", "Float64", 1, (void **)&d->mass}};
    for (int k = 0; rc == RBL_OK && k < 5; k++)
        rc = rbl_vtp_array_read(&f, want[k].section, want[k].name, want[k].type,
                                want[k].components, n, want[k].to, err);
    if (rc == RBL_OK && rbl_vtp_has_array(&f, "PointData", "clump") &&
        (rc = rbl_vtp_array_read(&f, "PointData", "clump", "Int64", 1, n, (void **)&clump,
                                 err)) == RBL_OK)
        for (size_t k = 0; k < n; k++)
            if (clump[k] >= 0) {
                rc = rbl_error_set(err, RBL_EINVAL, "%s: grain %u is a clump's sphere: a frame "
                                   "holds no clump's centre of mass and velocity; coarse-grain "
                                   "a checkpoint (docs/cg.md)", path, d->id[k]);
                break;
            }
    free(clump);
    rbl_vtp_file_free(&f);
    d->frame.n = n;
    return rc;
}

static int read_contacts_vtp(const char *path, rbl_cg_frame_data *d, rbl_error *err)
{
    rbl_vtp_file f;
    int rc = rbl_vtp_read(path, &f, err);
    if (rc != RBL_OK)
        return rc;
    const size_t n = f.n_cells;
    double *points = NULL;
    /* the cell arrays: name, type, components, where */
    struct {
        const char *name, *type;
        int components;
        void **to;
    } want[] = {{"id1", "Int64", 1, (void **)&d->id1},
                {"id2", "Int64", 1, (void **)&d->id2},
                {"wall", "Int32", 1, (void **)&d->wall},
                {"normal", "Float64", 3, (void **)&d->normal},
                {"normal_force", "Float64", 3, (void **)&d->fn},
                {"tangential_force", "Float64", 3, (void **)&d->ft},
                {"branch", "Float64", 3, (void **)&d->branch}};
    const int has_branch = rbl_vtp_has_array(&f, "CellData", "branch");
    for (int k = 0; rc == RBL_OK && k < 6 + has_branch; k++)
        rc = rbl_vtp_array_read(&f, "CellData", want[k].name, want[k].type, want[k].components,
                                n, want[k].to, err);
    if (rc != RBL_OK || has_branch)
        goto done;
    /* written before issue 74: the branch from the line's ends, to their rounding */
    if (f.n_points != 2 * n) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s: %zu points for %zu contact lines, not 2 each",
                           path, f.n_points, n);
        goto done;
    }
    if ((rc = rbl_vtp_array_read(&f, "Points", "position", "Float64", 3, 2 * n,
                                 (void **)&points, err)) != RBL_OK)
        goto done;
    if (!(d->branch = malloc((3 * n + 1) * sizeof *d->branch))) {
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
        goto done;
    }
    for (size_t k = 0; k < n; k++)
        for (int a = 0; a < 3; a++)
            d->branch[3 * k + a] = points[6 * k + 3 + a] - points[6 * k + a];
    d->inexact = 1;
done:
    for (size_t k = 0; rc == RBL_OK && k < n; k++)
        if (!(d->id1[k] >= 0 && d->id1[k] <= UINT32_MAX && d->id2[k] >= -1 &&
              d->id2[k] <= UINT32_MAX))
            rc = rbl_error_set(err, RBL_EPARSE, "%s: contact %zu: ids %lld, %lld: not grain ids "
                               "(the second -1 for a wall)", path, k, (long long)d->id1[k],
                               (long long)d->id2[k]);
    free(points);
    rbl_vtp_file_free(&f);
    d->frame.n_contacts = n;
    return rc;
}

/* Grows the contact arrays to hold cap contacts. */
static int grow(rbl_cg_frame_data *d, size_t cap)
{
    int64_t *i1 = realloc(d->id1, cap * sizeof *i1);
    if (i1)
        d->id1 = i1;
    int64_t *i2 = realloc(d->id2, cap * sizeof *i2);
    if (i2)
        d->id2 = i2;
    int32_t *w = realloc(d->wall, cap * sizeof *w);
    if (w)
        d->wall = w;
    double **v[4] = {&d->normal, &d->fn, &d->ft, &d->branch};
    int ok = i1 && i2 && w;
    for (int k = 0; k < 4; k++) {
        double *p = realloc(*v[k], 3 * cap * sizeof *p);
        if (p)
            *v[k] = p;
        ok &= p != NULL;
    }
    return ok;
}

#define CSV_HEADER "id1,id2,wall,point_x,point_y,point_z,normal_x,normal_y,normal_z,fn_x,fn_y," \
                   "fn_z,ft_x,ft_y,ft_z,overlap,branch_x,branch_y,branch_z"

static int read_contacts_csv(const char *path, rbl_cg_frame_data *d, rbl_error *err)
{
    static const char *const names[19] = {
        "id1",  "id2",  "wall", "point_x", "point_y", "point_z", "normal_x",
        "normal_y", "normal_z", "fn_x", "fn_y", "fn_z", "ft_x", "ft_y", "ft_z",
        "overlap", "branch_x", "branch_y", "branch_z"};
    rbl_line_reader r;
    int rc = rbl_reader_open(&r, path, err);
    if (rc != RBL_OK)
        return rc;
    size_t n = 0, cap = 0;
    int got = rbl_reader_next(&r, err);
    if (got < 0) {
        rc = got;
    } else if (got == 0 || strncmp(r.cursor, CSV_HEADER, strlen(CSV_HEADER)) != 0 ||
               (r.cursor[strlen(CSV_HEADER)] != ',' && /* a study's columns may follow */
                strspn(r.cursor + strlen(CSV_HEADER), " \t\r\n") !=
                    strlen(r.cursor + strlen(CSV_HEADER)))) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: not the header of a contact table rubble "
                           "writes (%s)", path, r.line, CSV_HEADER);
    }
    while (rc == RBL_OK && (got = rbl_reader_next(&r, err)) == 1) {
        if (n == cap && !grow(d, cap = cap ? 2 * cap : 1024)) {
            rc = rbl_error_set(err, RBL_ENOMEM, "%s:%ld: out of memory", path, r.line);
            break;
        }
        double v[19];
        char *at = r.cursor;
        for (int c = 0; rc == RBL_OK && c < 19; c++) {
            char *end;
            errno = 0;
            v[c] = c < 3 ? (double)strtoll(at, &end, 10) : strtod(at, &end);
            const char sep = c < 18 ? ',' : 0;
            if (end == at || errno || !(isfinite(v[c])) ||
                !(*end == sep || (c == 18 && (*end == ',' || strspn(end, " \t\r\n") ==
                                                                 strlen(end)))))
                rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: column %d ('%s'): not a number "
                                   "followed by %s: '%.40s'", path, r.line, c + 1, names[c],
                                   c < 18 ? "a comma" : "the line's end", at);
            at = end + (c < 18);
        }
        if (rc != RBL_OK)
            break;
        if (!(v[0] >= 0 && v[0] <= UINT32_MAX && v[1] >= -1 && v[1] <= UINT32_MAX &&
              v[2] >= -1 && v[2] <= INT32_MAX)) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: ids %.0f, %.0f, wall %.0f: not grain "
                               "ids (the second -1 for a wall) and a wall's number", path,
                               r.line, v[0], v[1], v[2]);
            break;
        }
        d->id1[n] = (int64_t)v[0], d->id2[n] = (int64_t)v[1], d->wall[n] = (int32_t)v[2];
        for (int a = 0; a < 3; a++) {
            d->normal[3 * n + a] = v[6 + a], d->fn[3 * n + a] = v[9 + a];
            d->ft[3 * n + a] = v[12 + a], d->branch[3 * n + a] = v[16 + a];
        }
        n++;
    }
    if (rc == RBL_OK && got < 0)
        rc = got;
    if (rc == RBL_OK && !d->id1 && !grow(d, 1))
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    rbl_reader_close(&r);
    d->frame.n_contacts = n;
    return rc;
}

/* A binary contact table (contact_bin_read.c): the columns coarse-graining reads. */
static int read_contacts_bin(const char *path, rbl_cg_frame_data *d, rbl_error *err)
{
    rbl_contact_bin t;
    int rc = rbl_contact_bin_read(path, &t, err);
    if (rc != RBL_OK)
        return rc;
    const size_t n = t.rows;
    int64_t *wall = NULL;
    if (!grow(d, n + 1) || !(wall = malloc((n + 1) * sizeof *wall)))
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu contacts", path, n);
    int64_t *ints[3] = {d->id1, d->id2, wall};
    double *vectors[4] = {d->normal, d->fn, d->ft, d->branch};
    static const char *const int_names[3] = {"id1", "id2", "wall"};
    static const char *const vector_names[4] = {"normal", "fn", "ft", "branch"};
    for (int k = 0; rc == RBL_OK && k < 3; k++)
        rc = rbl_contact_bin_integers(&t, path, int_names[k], ints[k], err);
    for (int k = 0; rc == RBL_OK && k < 4; k++)
        rc = rbl_contact_bin_doubles(&t, path, vector_names[k], 3, vectors[k], err);
    for (size_t k = 0; rc == RBL_OK && k < n; k++) {
        if (!(d->id1[k] >= 0 && d->id1[k] <= UINT32_MAX && d->id2[k] >= -1 &&
              d->id2[k] <= UINT32_MAX && wall[k] >= -1 && wall[k] <= INT32_MAX))
            rc = rbl_error_set(err, RBL_EPARSE, "%s: contact %zu: ids %lld, %lld, wall %lld: "
                               "not grain ids (the second -1 for a wall) and a wall's number",
                               path, k, (long long)d->id1[k], (long long)d->id2[k],
                               (long long)wall[k]);
        d->wall[k] = (int32_t)wall[k];
    }
    for (size_t k = 0; rc == RBL_OK && k < 3 * n; k++)
        if (!(isfinite(d->normal[k]) && isfinite(d->fn[k]) && isfinite(d->ft[k]) &&
              isfinite(d->branch[k])))
            rc = rbl_error_set(err, RBL_EPARSE, "%s: contact %zu: a normal, force or branch "
                               "that is not a finite number", path, k / 3);
    free(wall);
    rbl_contact_bin_free(&t);
    d->frame.n_contacts = n;
    return rc;
}

/* rbl_cg_frame's pointers to d's arrays. */
static void point(rbl_cg_frame_data *d)
{
    rbl_cg_frame *f = &d->frame;
    f->id = d->id, f->pos = d->pos, f->vel = d->vel, f->radius = d->radius, f->mass = d->mass;
    f->id1 = d->id1, f->id2 = d->id2, f->normal = d->normal, f->branch = d->branch;
    f->fn = d->fn, f->ft = d->ft;
}

int rbl_cg_frame_read(const char *grains, const char *contacts, rbl_cg_frame_data *d,
                      rbl_error *err)
{
    memset(d, 0, sizeof *d);
    int rc = read_grains(grains, d, err);
    const size_t len = strlen(contacts);
    if (rc == RBL_OK)
        rc = len > 4 && strcmp(contacts + len - 4, ".csv") == 0
                 ? read_contacts_csv(contacts, d, err)
             : len > 4 && strcmp(contacts + len - 4, ".bin") == 0
                 ? read_contacts_bin(contacts, d, err)
                 : read_contacts_vtp(contacts, d, err);
    if (rc != RBL_OK)
        rbl_cg_frame_data_free(d);
    else
        point(d);
    return rc;
}

/* d's arrays for n grains and n_c contacts; 0: out of memory (d freed). */
static int alloc_arrays(rbl_cg_frame_data *d, size_t n, size_t n_c)
{
    memset(d, 0, sizeof *d);
    d->id = malloc((n + 1) * sizeof *d->id);
    d->radius = malloc((n + 1) * sizeof *d->radius), d->mass = malloc((n + 1) * sizeof *d->mass);
    d->pos = malloc((3 * n + 1) * sizeof *d->pos), d->vel = malloc((3 * n + 1) * sizeof *d->vel);
    d->id1 = malloc((n_c + 1) * sizeof *d->id1), d->id2 = malloc((n_c + 1) * sizeof *d->id2);
    d->wall = malloc((n_c + 1) * sizeof *d->wall);
    d->normal = malloc((3 * n_c + 1) * sizeof *d->normal);
    d->branch = malloc((3 * n_c + 1) * sizeof *d->branch);
    d->fn = malloc((3 * n_c + 1) * sizeof *d->fn), d->ft = malloc((3 * n_c + 1) * sizeof *d->ft);
    if (d->id && d->radius && d->mass && d->pos && d->vel && d->id1 && d->id2 && d->wall &&
        d->normal && d->branch && d->fn && d->ft) {
        d->frame.n = n, d->frame.n_contacts = n_c;
        return 1;
    }
    rbl_cg_frame_data_free(d);
    return 0;
}

/* Grain k of `to` from grain g of `from`; contact q of `to` from contact c of `from`. */
static void copy_grain(rbl_cg_frame_data *to, size_t k, const rbl_cg_frame_data *from, size_t g)
{
    to->id[k] = from->id[g], to->radius[k] = from->radius[g], to->mass[k] = from->mass[g];
    memcpy(to->pos + 3 * k, from->pos + 3 * g, 3 * sizeof *to->pos);
    memcpy(to->vel + 3 * k, from->vel + 3 * g, 3 * sizeof *to->vel);
}

static void copy_contact(rbl_cg_frame_data *to, size_t q, const rbl_cg_frame_data *from,
                         size_t c)
{
    to->id1[q] = from->id1[c], to->id2[q] = from->id2[c], to->wall[q] = from->wall[c];
    memcpy(to->normal + 3 * q, from->normal + 3 * c, 3 * sizeof *to->normal);
    memcpy(to->branch + 3 * q, from->branch + 3 * c, 3 * sizeof *to->branch);
    memcpy(to->fn + 3 * q, from->fn + 3 * c, 3 * sizeof *to->fn);
    memcpy(to->ft + 3 * q, from->ft + 3 * c, 3 * sizeof *to->ft);
}

/* The pieces joined rank after rank, then put in one process's order (rbl_cg_pieces_order)
 * into d. */
static int join(const rbl_cg_frame_data *pieces, size_t n_pieces, rbl_cg_frame_data *d,
                rbl_error *err)
{
    size_t n = 0, n_c = 0;
    for (size_t p = 0; p < n_pieces; p++)
        n += pieces[p].frame.n, n_c += pieces[p].frame.n_contacts;
    rbl_cg_frame_data all;
    size_t *go = NULL, *co = NULL;
    if (!alloc_arrays(&all, n, n_c))
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", n);
    size_t i = 0, q = 0;
    for (size_t p = 0; p < n_pieces; p++) {
        for (size_t k = 0; k < pieces[p].frame.n; k++)
            copy_grain(&all, i++, &pieces[p], k);
        for (size_t k = 0; k < pieces[p].frame.n_contacts; k++)
            copy_contact(&all, q++, &pieces[p], k);
        all.inexact |= pieces[p].inexact;
    }
    int ok = rbl_cg_pieces_order(n, all.id, n_c, all.id1, all.id2, all.wall, &go, &co) &&
             alloc_arrays(d, n, n_c);
    for (size_t k = 0; ok && k < n; k++)
        copy_grain(d, k, &all, go[k]);
    for (size_t k = 0; ok && k < n_c; k++)
        copy_contact(d, k, &all, co[k]);
    if (ok)
        d->inexact = all.inexact;
    free(go), free(co);
    rbl_cg_frame_data_free(&all);
    return ok ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", n);
}

int rbl_cg_pieces_read(char *const *grains, char *const *contacts, size_t n,
                       rbl_cg_frame_data *d, rbl_error *err)
{
    memset(d, 0, sizeof *d);
    if (n == 1)
        return rbl_cg_frame_read(grains[0], contacts[0], d, err);
    rbl_cg_frame_data *pieces = calloc(n, sizeof *pieces);
    if (!pieces)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    int rc = RBL_OK;
    for (size_t p = 0; rc == RBL_OK && p < n; p++)
        rc = rbl_cg_frame_read(grains[p], contacts[p], &pieces[p], err);
    if (rc == RBL_OK)
        rc = join(pieces, n, d, err);
    for (size_t p = 0; p < n; p++)
        rbl_cg_frame_data_free(&pieces[p]);
    free(pieces);
    if (rc == RBL_OK)
        point(d);
    return rc;
}

int rbl_frame_time(const char *frame, double *time, rbl_error *err)
{
    const char *slash = strrchr(frame, '/');
    const char *name = slash ? slash + 1 : frame;
    const size_t dir_len = slash ? (size_t)(slash - frame) : 1;
    char *dir = malloc(dir_len + 1);
    if (!dir)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    memcpy(dir, slash ? frame : ".", dir_len);
    dir[dir_len] = 0;
    char *pvd = rbl_path_join(dir, "grains.pvd");
    free(dir);
    if (!pvd)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    char key[512];
    snprintf(key, sizeof key, " file=\"%s\"", name);
    rbl_line_reader r;
    int rc = rbl_reader_open(&r, pvd, err), got = 0, found = 0;
    const int opened = rc == RBL_OK;
    while (rc == RBL_OK && !found && (got = rbl_reader_next(&r, err)) == 1) {
        const char *t = strstr(r.cursor, "timestep=\"");
        if (!t || !strstr(r.cursor, key))
            continue;
        char *end;
        *time = strtod(t + 10, &end);
        if (*end != '"' || !isfinite(*time))
            rc = rbl_error_set(err, RBL_EPARSE, "%s:%ld: the time of %s is not a number",
                               pvd, r.line, name);
        found = 1;
    }
    if (rc == RBL_OK && got < 0)
        rc = got;
    if (rc == RBL_OK && !found)
        rc = rbl_error_set(err, RBL_EINVAL, "%s does not list %s", pvd, name);
    if (opened)
        rbl_reader_close(&r);
    free(pvd);
    return rc;
}
