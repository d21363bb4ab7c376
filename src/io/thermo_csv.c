/* thermo_csv.c — thermo.csv (SPEC BY5): time, step, grains, lost, kinetic, rotational,
 * potential and elastic energy (J), their total, contacts, wall contacts, largest overlap over
 * the smaller radius, the force (N) and torque about the origin (N m) on each wall, when some
 * wall moves each wall's travel (m), the
 * self-gravity energy W (J; also in potential) and the virials, momentum and angular momentum,
 * the energy account (the cohesive part of elastic, the kick term, dissipated by mechanism,
 * put in by source, the balance: docs/dem.md "The energy account"), then the layers of
 * output.layers. Rows are kept in memory and the whole file is rewritten atomically at each
 * output, so it is never seen half-written. */
#include "io_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int rbl_thermo_log_append(rbl_thermo_log *log, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = log->cap - log->len;
        int w = vsnprintf(log->rows ? log->rows + log->len : NULL, log->rows ? room : 0, fmt, ap);
        va_end(ap);
        if (w < 0)
            return 0;
        if (log->rows && (size_t)w < room) {
            log->len += (size_t)w;
            return 1;
        }
        size_t cap = log->cap ? 2 * log->cap : 65536;
        while (cap < log->len + (size_t)w + 1)
            cap *= 2;
        char *grown = realloc(log->rows, cap);
        if (!grown)
            return 0;
        log->rows = grown;
        log->cap = cap;
    }
}

/* The header line of a log of rows like t's (a fresh log: with the walls' travel when t has
 * it; else as log->travel says). */
static int log_header(rbl_thermo_log *log, const rbl_thermo *t, size_t n_layers, char name,
                      int fresh)
{
    int ok = 1;
    {
        log->n_walls = t->n_walls;
        ok = rbl_thermo_log_append(
            log, "time,step,grains,lost,kinetic,rotational,potential,elastic,total,"
                 "contacts,wall_contacts,max_overlap_ratio");
        for (size_t w = 0; ok && w < t->n_walls; w++)
            ok = rbl_thermo_log_append(log,
                                       ",wall%zu_fx,wall%zu_fy,wall%zu_fz,wall%zu_tx,"
                                       "wall%zu_ty,wall%zu_tz",
                                       w + 1, w + 1, w + 1, w + 1, w + 1, w + 1);
        if (fresh)
            log->travel |= t->wall_travel != NULL;
        for (size_t w = 0; ok && log->travel && w < t->n_walls; w++)
            ok = rbl_thermo_log_append(log, ",wall%zu_dx,wall%zu_dy,wall%zu_dz", w + 1, w + 1,
                                       w + 1);
        ok = ok && rbl_thermo_log_append(
                       log, ",self_potential,gravity_virial,contact_virial,momentum_x,"
                            "momentum_y,momentum_z,angular_momentum_x,angular_momentum_y,"
                            "angular_momentum_z,cohesive,kick,dissipated_damping,"
                            "dissipated_friction,dissipated_rolling,dissipated_cohesion,"
                            "in_walls,in_external,in_added,in_removed,in_changes,self_work,"
                            "balance");
        for (size_t l = 0; ok && l < n_layers; l++)
            ok = rbl_thermo_log_append(log, ",layer%zu_v%c,layer%zu_kinetic", l + 1, name, l + 1);
        for (size_t f = 0; ok && f < t->n_flows; f++)
            ok = rbl_thermo_log_append(log, ",flow%zu_grains_forward,flow%zu_grains_backward,"
                                            "flow%zu_mass_forward,flow%zu_mass_backward",
                                       f + 1, f + 1, f + 1, f + 1);
        for (size_t o = 0; ok && o < t->n_outlets; o++)
            ok = rbl_thermo_log_append(log, ",outlet%zu_grains,outlet%zu_mass", o + 1, o + 1);
        if (log->bonds)
            ok = ok && rbl_thermo_log_append(log, ",bonds_intact,bonds_broken");
        if (log->shear)
            ok = ok && rbl_thermo_log_append(
                           log, ",shear_delta,stress_xx,stress_xy,stress_xz,stress_yx,stress_yy,"
                                "stress_yz,stress_zx,stress_zy,stress_zz,kinetic_xx,kinetic_yy,"
                                "kinetic_zz,kinetic_xy,kinetic_xz,kinetic_yz,pressure,"
                                "shear_stress,mu,inertial_number,volume_fraction");
        if (log->stage > 0)
            ok = ok && rbl_thermo_log_append(log, ",stage");
        ok = ok && rbl_thermo_log_append(log, "\n");
    }
    return ok;
}

int rbl_thermo_log_add(rbl_thermo_log *log, const rbl_thermo *t, const rbl_layer_row *layers,
                       size_t n_layers, int axis, rbl_error *err)
{
    const char name = (char)('x' + axis);
    int ok = 1;
    if (log->len == 0) {
        ok = log_header(log, t, n_layers, name, 1);
    } else { /* rows carried by a restart: under the header this run writes (a crafted run
                state's header, which its rows matched, gave rows of two widths) */
        rbl_thermo_log own = {0};
        own.stage = log->stage, own.travel = log->travel, own.bonds = log->bonds;
        own.shear = log->shear;
        ok = log_header(&own, t, n_layers, name, 0);
        const char *eol = memchr(log->rows, '\n', log->len);
        const int same = ok && eol && (size_t)(eol + 1 - log->rows) == own.len &&
                         memcmp(log->rows, own.rows, own.len) == 0;
        free(own.rows);
        if (ok && !same)
            return rbl_error_set(err, RBL_EPARSE, "thermo.csv: the rows the run state carries "
                                 "have other columns than this run writes (a checkpoint of "
                                 "another version, or altered)");
    }
    ok = ok && rbl_thermo_log_append(
                   log, "%.10g,%llu,%zu,%llu,%.10g,%.10g,%.10g,%.10g,%.10g,%zu,%zu,%.6g", t->time,
                   (unsigned long long)t->step, t->grains, (unsigned long long)t->lost, t->kinetic,
                   t->rotational, t->potential, t->elastic,
                   t->kinetic + t->rotational + t->potential + t->elastic, t->contacts,
                   t->wall_contacts, t->max_overlap_ratio);
    for (size_t w = 0; ok && w < t->n_walls; w++)
        ok = rbl_thermo_log_append(log, ",%.8g,%.8g,%.8g,%.8g,%.8g,%.8g", t->wall_force[3 * w],
                                   t->wall_force[3 * w + 1], t->wall_force[3 * w + 2],
                                   t->wall_torque[3 * w], t->wall_torque[3 * w + 1],
                                   t->wall_torque[3 * w + 2]);
    for (size_t w = 0; ok && log->travel && w < t->n_walls; w++)
        ok = t->wall_travel ? rbl_thermo_log_append(log, ",%.10g,%.10g,%.10g",
                                                    t->wall_travel[3 * w],
                                                    t->wall_travel[3 * w + 1],
                                                    t->wall_travel[3 * w + 2])
                            : rbl_thermo_log_append(log, ",0,0,0");
    ok = ok && rbl_thermo_log_append(log, ",%.10g,%.10g,%.10g", t->self_potential,
                                     t->gravity_virial, t->contact_virial);
    for (int a = 0; ok && a < 3; a++)
        ok = rbl_thermo_log_append(log, ",%.12g", t->momentum[a]);
    for (int a = 0; ok && a < 3; a++)
        ok = rbl_thermo_log_append(log, ",%.12g", t->angular_momentum[a]);
    ok = ok && rbl_thermo_log_append(log, ",%.17g,%.17g", t->cohesive, t->kick);
    for (int m = 0; ok && m < RBL_LOSS_N; m++)
        ok = rbl_thermo_log_append(log, ",%.17g", t->dissipated[m]);
    for (int s = 0; ok && s < RBL_IN_N; s++)
        ok = rbl_thermo_log_append(log, ",%.17g", t->put_in[s]);
    ok = ok && rbl_thermo_log_append(log, ",%.17g,%.17g", t->self_work, t->balance);
    for (size_t l = 0; ok && l < n_layers; l++)
        ok = rbl_thermo_log_append(log, ",%.8g,%.8g", layers[l].velocity[axis], layers[l].kinetic);
    for (size_t f = 0; ok && f < t->n_flows; f++)
        ok = rbl_thermo_log_append(log, ",%.17g,%.17g,%.17g,%.17g", t->flow[4 * f],
                                   t->flow[4 * f + 1], t->flow[4 * f + 2], t->flow[4 * f + 3]);
    for (size_t o = 0; ok && o < t->n_outlets; o++)
        ok = rbl_thermo_log_append(log, ",%.17g,%.17g", t->outlet[2 * o], t->outlet[2 * o + 1]);
    if (log->bonds)
        ok = ok && rbl_thermo_log_append(log, ",%zu,%zu", log->bonds_intact, log->bonds_broken);
    if (log->shear) {
        const rbl_shear_state *h = &log->shear_state;
        const double *k = h->kinetic;
        ok = ok && rbl_thermo_log_append(log, ",%.17g", h->delta);
        for (int a = 0; ok && a < 9; a++)
            ok = rbl_thermo_log_append(log, ",%.10g", h->stress[a]);
        ok = ok && rbl_thermo_log_append(log, ",%.10g,%.10g,%.10g,%.10g,%.10g,%.10g", k[0], k[4],
                                         k[8], k[1], k[2], k[5]);
        ok = ok && rbl_thermo_log_append(log, ",%.10g,%.10g,%.10g,%.10g,%.10g", h->pressure,
                                         h->shear_stress, h->mu, h->inertial,
                                         h->volume_fraction);
    }
    if (log->stage > 0)
        ok = ok && rbl_thermo_log_append(log, ",%d", log->stage);
    ok = ok && rbl_thermo_log_append(log, "\n");
    return ok ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "thermo log: out of memory");
}

int rbl_thermo_log_write(const rbl_thermo_log *log, const char *path, rbl_grown_file *g,
                         rbl_error *err)
{
    rbl_grown_file once = {0};
    return rbl_file_grow(path, g ? g : &once, log->rows, log->len, err);
}

void rbl_thermo_log_free(rbl_thermo_log *log)
{
    free(log->rows);
    memset(log, 0, sizeof *log);
}

/* Whether the header (the first line) holds `name` (",column," with its commas). */
static int header_has(const rbl_thermo_log *log, const char *name)
{
    const char *eol = log->len ? memchr(log->rows, '\n', log->len) : NULL;
    const size_t n = strlen(name);
    for (const char *at = log->rows; eol && at + n <= eol; at++)
        if (memcmp(at, name, n) == 0)
            return 1;
    return 0;
}

int rbl_thermo_log_has_travel(const rbl_thermo_log *log)
{
    return header_has(log, ",wall1_dx,");
}

/* Columns spliced into every line: after field `before` (SIZE_MAX: at the line's end, before
 * the stage column when the header ends with it), `head` into the header, `row` into each row
 * but the last, which gets `last`. */
static int splice_columns(rbl_thermo_log *log, size_t before, const char *head, const char *row,
                          const char *last, rbl_error *err)
{
    const char *eol0 = memchr(log->rows, '\n', log->len);
    const int staged = before == SIZE_MAX && eol0 && eol0 - log->rows >= 6 &&
                       memcmp(eol0 - 6, ",stage", 6) == 0;
    size_t lines = 0;
    for (size_t k = 0; k < log->len; k++)
        lines += log->rows[k] == '\n';
    const size_t add = strlen(head) + (lines ? lines - 1 : 0) * strlen(row) + strlen(last);
    char *out = malloc(log->len + add + 1), *to = out;
    if (!out)
        return rbl_error_set(err, RBL_ENOMEM, "thermo log: out of memory");
    const char *at = log->rows, *end = log->rows + log->len;
    for (size_t line = 0; at < end; line++) {
        const char *eol = memchr(at, '\n', (size_t)(end - at)), *cut = at;
        if (before == SIZE_MAX) { /* the end, or the stage column's comma */
            cut = eol;
            while (staged && cut > at && cut[0] != ',')
                cut--;
        } else {
            for (size_t f = 0; cut < eol && f < before; cut++)
                f += *cut == ',';
            if (cut < eol) /* (past the comma that ends field `before`: back onto it) */
                cut--;
        }
        const char *put = line == 0 ? head : line + 1 == lines ? last : row;
        memcpy(to, at, (size_t)(cut - at)), to += cut - at;
        memcpy(to, put, strlen(put)), to += strlen(put);
        memcpy(to, cut, (size_t)(eol + 1 - cut)), to += eol + 1 - cut;
        at = eol + 1;
    }
    free(log->rows);
    log->rows = out;
    log->len = (size_t)(to - out);
    log->cap = log->len + 1;
    return RBL_OK;
}

int rbl_thermo_log_add_travel(rbl_thermo_log *log, rbl_error *err)
{
    if (!log->len || !log->n_walls || rbl_thermo_log_has_travel(log))
        return RBL_OK;
    /* after the walls' forces and torques: the first 12 + 6 n_walls fields of every line */
    rbl_thermo_log names = {0}, zeros = {0};
    int ok = 1;
    for (size_t w = 0; ok && w < log->n_walls; w++)
        ok = rbl_thermo_log_append(&names, ",wall%zu_dx,wall%zu_dy,wall%zu_dz", w + 1, w + 1,
                                   w + 1) &&
             rbl_thermo_log_append(&zeros, ",0,0,0");
    int rc = ok ? splice_columns(log, 12 + 6 * log->n_walls, names.rows, zeros.rows, zeros.rows,
                                 err)
                : rbl_error_set(err, RBL_ENOMEM, "thermo log: out of memory");
    free(names.rows), free(zeros.rows);
    if (rc == RBL_OK)
        log->travel = 1;
    return rc;
}

int rbl_thermo_log_has_bonds(const rbl_thermo_log *log)
{
    return header_has(log, ",bonds_intact,");
}

int rbl_thermo_log_add_bonds(rbl_thermo_log *log, size_t intact, size_t broken,
                             rbl_error *err)
{
    log->bonds = 1;
    if (!log->len || rbl_thermo_log_has_bonds(log))
        return RBL_OK;
    char last[64];
    snprintf(last, sizeof last, ",%zu,%zu", intact, broken);
    return splice_columns(log, SIZE_MAX, ",bonds_intact,bonds_broken", ",0,0", last, err);
}

int rbl_thermo_log_check(const rbl_thermo_log *log, const char *path, rbl_error *err)
{
    const char *at = log->rows, *end = log->rows + log->len;
    if (log->len && (end[-1] != '\n' || memchr(at, '\0', log->len)))
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: thermo rows not "
                             "whole lines of text", path);
    size_t fields = 0;
    for (size_t line = 1; at < end; line++) {
        const char *eol = memchr(at, '\n', (size_t)(end - at));
        size_t count = 0;
        for (const char *f = at; f <= eol; count++) {
            const char *sep = f;
            while (sep < eol && *sep != ',')
                sep++;
            int ok = sep > f;
            if (line == 1) /* the header: names */
                for (const char *c = f; ok && c < sep; c++)
                    ok = isalnum((unsigned char)*c) || *c == '_';
            else if (ok) {
                char *stop = NULL;
                strtod(f, &stop);
                ok = stop == sep;
            }
            if (!ok)
                return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: thermo "
                                     "row %zu, field %zu is not %s: '%.*s'",
                                     path, line - 1, count + 1,
                                     line == 1 ? "a column name" : "a number",
                                     (int)(sep - f < 40 ? sep - f : 40), f);
            f = sep + 1;
        }
        if (line == 1)
            fields = count;
        else if (count != fields)
            return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: thermo row %zu "
                                 "has %zu fields under a header of %zu",
                                 path, line - 1, count, fields);
        at = eol + 1;
    }
    return RBL_OK;
}
