/* grains_text.c — grains as plain text, one per line: "x y z radius" or
 * "x y z radius vx vy vz" (SI units, '#' comments). Read as a scene's `file` source (errors
 * name file:line and value) and written as a run's `output.final`, so a settled bed can seed
 * other runs and other programs (bench/). */
#include "io_internal.h"
#include "../dem/dem_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rbl_grains_read_text(rbl_sim *sim, const char *path, int material, size_t *placed,
                         rbl_error *err)
{
    return rbl_grains_read_text_part(sim, path, material, NULL, placed, err);
}

int rbl_grains_read_text_part(rbl_sim *sim, const char *path, int material,
                              const rbl_text_part *part, size_t *placed, rbl_error *err)
{
    *placed = 0;
    const uint32_t first = sim->next_id;
    if (part && part->grains_total > (uint64_t)UINT32_MAX - first)
        return rbl_error_set(err, RBL_ETOOBIG, "%s: %llu grains: too many grains", path,
                             (unsigned long long)part->grains_total);
    rbl_line_reader r;
    int rc = part ? rbl_reader_open_part(&r, path, part->start, part->end, part->lines_before,
                                         err)
                  : rbl_reader_open(&r, path, err);
    if (rc != RBL_OK)
        return rc;
    if (part) /* the grains of the parts before took their ids */
        sim->next_id = first + (uint32_t)part->grains_before;
    static const char *const names[7] = {"x", "y", "z", "radius", "vx", "vy", "vz"};
    while ((rc = rbl_reader_next(&r, err)) == 1) {
        int tokens = rbl_reader_count_tokens(&r);
        if (tokens != 4 && tokens != 7) {
            rc = rbl_error_set(err, RBL_EPARSE,
                               "%s:%ld: expected 'x y z radius' or 'x y z radius vx vy vz', "
                               "found %d values",
                               path, r.line, tokens);
            break;
        }
        double v[7] = {0};
        for (int k = 0; k < tokens && rc >= 0; k++)
            rc = rbl_reader_double(&r, names[k], &v[k], err);
        if (rc < 0)
            break;
        if (!(v[3] > 0.0)) {
            rc = rbl_error_set(err, RBL_EINVAL, "%s:%ld: radius must be > 0: '%g'", path, r.line,
                               v[3]);
            break;
        }
        rbl_grain g;
        memset(&g, 0, sizeof g);
        memcpy(g.pos, v, sizeof g.pos);
        g.radius = v[3];
        memcpy(g.vel, v + 4, sizeof g.vel);
        g.material = material;
        /* a part: --max-grains counts every process's (before the run every id is a grain's) */
        if (part && sim->max_grains && sim->next_id >= sim->max_grains) {
            rc = rbl_error_set(err, RBL_ETOOBIG, "%s:%ld: more than %zu grains, the limit set "
                               "for this run (--max-grains)", path, r.line, sim->max_grains);
            break;
        }
        if ((rc = rbl_sim_add_grain(sim, &g, NULL, err)) != RBL_OK) {
            rc = rbl_error_prefix(err, rc, "%s:%ld", path, r.line);
            break;
        }
        ++*placed;
    }
    rbl_reader_close(&r);
    if (rc >= 0 && part) /* (the parts after take theirs) */
        sim->next_id = first + (uint32_t)part->grains_total, *placed = part->grains_total;
    return rc < 0 ? rc : RBL_OK;
}

size_t rbl_grains_text_header(char out[RBL_GRAINS_TEXT_LINE], size_t n)
{
    return (size_t)snprintf(out, RBL_GRAINS_TEXT_LINE,
                            "# x y z radius vx vy vz (m, m/s): %zu grains\n", n);
}

size_t rbl_grains_text_line(char out[RBL_GRAINS_TEXT_LINE], const double pos[3], double radius,
                            const double vel[3])
{
    return (size_t)snprintf(out, RBL_GRAINS_TEXT_LINE, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
                            pos[0], pos[1], pos[2], radius, vel[0], vel[1], vel[2]);
}

int rbl_grains_write_text(const rbl_sim *sim, const char *path, rbl_error *err)
{
    rbl_grains_view v;
    rbl_sim_grains(sim, &v);
    /* in id order: the same file whatever the grains' order in memory (the reordering by
       cell, the processes a run was spread over) */
    uint64_t *order = rbl_grains_id_order(&v);
    if (!order)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %zu grains", path, v.n);
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc != RBL_OK) {
        free(order);
        return rc;
    }
    char line[RBL_GRAINS_TEXT_LINE];
    rbl_grains_text_header(line, v.n);
    fputs(line, af.file);
    for (size_t e = 0; e < v.n; e++) {
        const size_t k = (size_t)(order[e] & UINT32_MAX);
        rbl_grains_text_line(line, v.pos + 3 * k, v.radius[k], v.vel + 3 * k);
        fputs(line, af.file);
    }
    free(order);
    return rbl_atomic_commit(&af, err);
}
