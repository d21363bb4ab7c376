/* run_ranks.c — `rubble run` started as several processes (mpirun -np P, docs/parallel.md):
 * what a scene may use over several (the rest refused by name, on every rank, before a step),
 * the one simulation spread over the ranks (src/parallel/domain.c), and the run's outputs:
 * each rank writes its piece of a frame, rank 0 the .pvtp that gathers them, the series, the
 * walls and thermo.csv from the diagnostics summed over the ranks. With one process none of
 * this is called. */
#include "run_ranks.h"

#include "../dem/dem_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the scene asks for that does not run over several processes yet, or NULL; *at its
 * line where the key has one kept (else left alone). */
static const char *not_distributed(const rbl_scene *s, const rbl_mark **at)
{
    if (s->sheared) { /* (the images' shift would have to cross the decomposition's faces) */
        *at = &s->at_shear;
        return "a sheared cell (domain.shear, docs/shear.md)";
    }
    if (s->impulse)
        return "an impulse scene (objects)";
    for (int k = 0; s->cg && k < s->n_sources; k++)
        if (s->sources[k].clump_file) /* (its particles are the clumps' centres of mass) */
            return "output.cg (coarse-graining) of clumps";
    if (s->wall_loads)
        return "output.wall_loads (the walls' loads per facet)";
    for (int m = 0; m < s->n_meshes; m++)
        if (s->mesh_wear[m][0] > 0.0 || s->mesh_wear[m][1] > 0.0)
            return "a mesh wall's wear";
    return NULL;
}

int rbl_run_ranks_start(rbl_run_ranks *r, const rbl_scene *s, rbl_error *err)
{
    memset(r, 0, sizeof *r);
    r->size = rbl_launched_ranks(&r->rank);
    if (r->size == 1)
        return RBL_OK;
    int rc = rbl_comm_create(&r->comm, err);
    if (rc != RBL_OK) { /* (the launcher's processes did not all join MPI) */
        rbl_comm_free(r->comm);
        r->comm = NULL, r->size = 1;
        return rc;
    }
    r->rank = rbl_comm_rank(r->comm), r->size = rbl_comm_size(r->comm);
    const rbl_mark *at = NULL;
    const char *what = not_distributed(s, &at);
    const char *by = rbl_launcher_name(); /* srun, mpiexec or mpirun: the one used */
    if (what && at)
        rc = rbl_error_set(err, RBL_EINVAL,
                           "%s:%d:%d: %s cannot yet run over several processes (started as %d "
                           "by %s): run this scene as one process (docs/parallel.md)",
                           s->path, at->line, at->column, what, r->size, by ? by : "the launcher");
    else if (what)
        rc = rbl_error_set(err, RBL_EINVAL,
                           "%s: %s cannot yet run over several processes (started as %d by "
                           "%s): run this scene as one process (docs/parallel.md)",
                           s->path, what, r->size, by ? by : "the launcher");
    return rbl_comm_agree(r->comm, rc, err);
}

int rbl_run_ranks_start_apart(rbl_run_ranks *r, const rbl_scene *s, rbl_sim *sim,
                              rbl_error *err)
{
    if (!r->comm)
        return RBL_OK;
    int rc = rbl_domain_create(&r->domain, r->comm, sim, err); /* (no grain yet) */
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "%s", s->path);
    /* the start's slabs: the domain's, or for an open one the sources' regions' */
    double lo[3], hi[3];
    memcpy(lo, s->cfg.lo, sizeof lo), memcpy(hi, s->cfg.hi, sizeof hi);
    if (s->cfg.open) {
        for (int a = 0; a < 3; a++)
            lo[a] = INFINITY, hi[a] = -INFINITY;
        for (int k = 0; k < s->n_sources; k++)
            if (s->sources[k].kind != RBL_SOURCE_FILE)
                for (int a = 0; a < 3; a++)
                    lo[a] = fmin(lo[a], s->sources[k].spec.lo[a]),
                    hi[a] = fmax(hi[a], s->sources[k].spec.hi[a]);
    }
    if (isfinite(lo[0]) && isfinite(hi[0])) /* (else all on rank 0 until the first build) */
        rbl_domain_set_start(r->domain, lo, hi);
    return RBL_OK;
}

/* A grains file read by each process in its part, a P-th of the bytes (rbl_text_part): the
 * lines and grains of the parts before counted first, so that the messages name the lines
 * and the grains take the ids one process gives them. Each keeps the grains of its part
 * wherever they lie: the first build sends each to its box. */
static int read_file_part(rbl_run_ranks *r, rbl_sim *sim, const rbl_source *src,
                          size_t *placed, rbl_error *err)
{
    uint64_t bytes = 0, lines = 0, grains = 0;
    int rc = rbl_comm_agree(r->comm, rbl_text_size(src->file, &bytes, err), err);
    if (rc != RBL_OK)
        return rc;
    const uint64_t P = (uint64_t)r->size, q = (uint64_t)r->rank;
    rbl_text_part part = {.start = bytes / P * q + bytes % P * q / P,
                          .end = bytes / P * (q + 1) + bytes % P * (q + 1) / P};
    rc = rbl_comm_agree(r->comm, rbl_text_part_count(src->file, part.start, part.end, &lines,
                                                     &grains, err), err);
    if (rc != RBL_OK)
        return rc;
    part.lines_before = rbl_comm_exscan_u64(r->comm, lines);
    part.grains_before = rbl_comm_exscan_u64(r->comm, grains);
    part.grains_total = rbl_comm_sum_u64(r->comm, grains);
    return rbl_comm_agree(r->comm, rbl_grains_read_text_part(sim, src->file, src->spec.material,
                                                             &part, placed, err), err);
}

int rbl_run_ranks_place(rbl_run_ranks *r, rbl_sim *sim, const rbl_source *src, size_t *placed,
                        rbl_error *err)
{
    int rc;
    if (!r->domain) /* one process */
        rc = src->kind == RBL_SOURCE_FILE
                 ? rbl_grains_read_text(sim, src->file, src->spec.material, placed, err)
             : src->kind == RBL_SOURCE_LATTICE ? rbl_sim_insert_lattice(sim, &src->spec, placed, err)
             : src->kind == RBL_SOURCE_PACK ? rbl_sim_insert_pack(sim, &src->spec, src->pack_fraction, placed,
                                                                NULL, err)
                                            : rbl_sim_insert_random(sim, &src->spec, placed, err);
    else if (src->kind == RBL_SOURCE_FILE) /* each process reads a part of it */
        rc = read_file_part(r, sim, src, placed, err);
    else
        rc = src->kind == RBL_SOURCE_LATTICE
                 ? rbl_domain_insert_lattice(r->domain, &src->spec, placed, err)
             : src->kind == RBL_SOURCE_PACK ? rbl_domain_insert_pack(r->domain, &src->spec, src->pack_fraction,
                                                                   placed, err)
                 : rbl_domain_insert_random(r->domain, &src->spec, placed, err);
    return rc;
}

int rbl_run_ranks_adopt(rbl_run_ranks *r, const rbl_scene *s, rbl_sim *sim,
                        const struct rbl_history_rows *pairs,
                        const struct rbl_history_rows *walls,
                        rbl_error *err)
{
    int rc = rbl_domain_create_apart(&r->domain, r->comm, sim, pairs, walls, err);
    return rc == RBL_OK ? rc : rbl_error_prefix(err, rc, "%s", s->path);
}

double rbl_run_ranks_min(rbl_run_ranks *r, double v)
{
    return r->comm ? -rbl_comm_max(r->comm, -v) : v;
}

int rbl_run_ranks_final_text(rbl_run_ranks *r, const rbl_sim *sim, const char *path,
                             rbl_error *err)
{
    enum { W = 8 }; /* id, position, radius, velocity */
    const rbl_grains *g = &sim->g;
    double *mine = malloc((g->n ? g->n : 1) * W * sizeof *mine), *slice = NULL;
    int rc = rbl_comm_agree(r->comm, mine ? RBL_OK
                                          : rbl_error_set(err, RBL_ENOMEM, "out of memory for "
                                                          "its %zu grains", g->n), err);
    size_t n = 0;
    if (rc == RBL_OK) {
        for (size_t k = 0; k < g->n; k++) {
            double *o = mine + W * k;
            o[0] = (double)g->id[k], o[4] = g->radius[k];
            memcpy(o + 1, g->pos + 3 * k, 3 * sizeof *o), memcpy(o + 5, g->vel + 3 * k, 3 * sizeof *o);
        }
        rc = rbl_comm_id_slices(r->comm, mine, g->n, W, &slice, &n, err);
    }
    free(mine);
    const uint64_t total = rbl_comm_sum_u64(r->comm, g->n);
    char *text = rc == RBL_OK ? malloc((n + 1) * RBL_GRAINS_TEXT_LINE) : NULL;
    rc = rbl_comm_agree(r->comm, rc != RBL_OK || text ? rc
                                 : rbl_error_set(err, RBL_ENOMEM, "out of memory for its %zu "
                                                 "lines", n), err);
    if (rc != RBL_OK) /* the agreement named the process that ran out; the file too */
        rbl_error_prefix(err, rc, "output.final %s", path);
    size_t len = 0;
    if (rc == RBL_OK) {
        if (r->rank == 0)
            len += rbl_grains_text_header(text, (size_t)total);
        for (size_t k = 0; k < n; k++)
            len += rbl_grains_text_line(text + len, slice + W * k + 1, slice[W * k + 4],
                                        slice + W * k + 5);
    }
    free(slice);
    rbl_file_piece part = {rbl_comm_exscan_u64(r->comm, len), text, len};
    if (rc == RBL_OK)
        rc = rbl_ranks_write_file(r->comm, path, &part, 1, err);
    free(text);
    return rc;
}

int rbl_run_ranks_insert_random(rbl_run_ranks *r, rbl_sim *sim, const rbl_insert_spec *spec,
                                size_t *placed, rbl_error *err)
{
    return r->domain ? rbl_domain_insert_random(r->domain, spec, placed, err)
                     : rbl_sim_insert_random(sim, spec, placed, err);
}

int rbl_run_ranks_agree(rbl_run_ranks *r, int rc, rbl_error *err)
{
    return r->comm ? rbl_comm_agree(r->comm, rc, err) : rc;
}

void rbl_run_ranks_thermo(rbl_run_ranks *r, rbl_sim *sim, rbl_thermo *t)
{
    if (r->domain)
        rbl_domain_thermo(r->domain, t);
    else
        rbl_sim_thermo(sim, t);
}

int rbl_run_ranks_step(rbl_run_ranks *r, rbl_sim *sim, uint64_t steps, rbl_error *err)
{
    int rc = rbl_sim_step(sim, steps, err);
    /* a rank that fails alone mid-step leaves the others in a collective call: stop them all
       (a stop asked for, RBL_EINTERRUPT, is all ranks' at the same step) */
    if (rc != RBL_OK && rc != RBL_EINTERRUPT && r->comm)
        rbl_comm_abort(r->comm, err);
    return rc;
}

size_t rbl_run_ranks_grains(rbl_run_ranks *r, const rbl_sim *sim)
{
    return r->comm ? (size_t)rbl_comm_sum_u64(r->comm, sim->g.n) : sim->g.n;
}

int rbl_run_ranks_frame(rbl_run_ranks *r, const char *dir, size_t frame, rbl_sim *sim,
                        const rbl_frame_writer *w, char **name, rbl_error *err)
{
    char file[96];
    if (name)
        *name = NULL;
    if (!r->comm)
        snprintf(file, sizeof file, "%s_%06zu.%s", w->prefix, frame, w->ext);
    else
        snprintf(file, sizeof file, "%s_%06zu_%d.%s", w->prefix, frame, r->rank, w->ext);
    char *path = rbl_path_join(dir, file);
    int rc = path ? w->write(path, sim, w->ctx, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path);
    rc = rbl_run_ranks_agree(r, rc, err);
    if (rc == RBL_OK && r->comm && w->layout) { /* rank 0: the .pvtp over the pieces */
        snprintf(file, sizeof file, "%s_%06zu.pvtp", w->prefix, frame);
        if (r->rank == 0) {
            char **pieces = calloc((size_t)r->size, sizeof *pieces);
            char *pvtp = rbl_path_join(dir, file);
            rc = pieces && pvtp ? RBL_OK : rbl_error_set(err, RBL_ENOMEM, "out of memory");
            for (int q = 0; rc == RBL_OK && q < r->size; q++) {
                char piece[96];
                snprintf(piece, sizeof piece, "%s_%06zu_%d.%s", w->prefix, frame, q, w->ext);
                if (!(pieces[q] = strdup(piece)))
                    rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
            }
            if (rc == RBL_OK)
                rc = rbl_pvtp_write(pvtp, w->layout, pieces, r->size, err);
            for (int q = 0; pieces && q < r->size; q++)
                free(pieces[q]);
            free(pieces), free(pvtp);
        }
        rc = rbl_run_ranks_agree(r, rc, err);
    }
    if (rc == RBL_OK && name && !(*name = strdup(file)))
        rc = rbl_error_set(err, RBL_ENOMEM, "out of memory");
    return rc;
}

/* Each process's share (rbl_run_report.rank_*): the least, mean and largest over the
 * processes of what each holds and spent. Collective. */
static void rank_spreads(rbl_run_ranks *r, const rbl_sim *sim, const rbl_domain_stats *st,
                         rbl_run_report *rep)
{
    enum { N = 9 };
    rbl_rank_spread *out[N] = {&rep->rank_grains,   &rep->rank_ghosts,  &rep->rank_pairs,
                               &rep->rank_force,    &rep->rank_neighbor, &rep->rank_integrate,
                               &rep->rank_gravity,  &rep->rank_comm,    &rep->rank_memory};
    const double mine[N] = {(double)sim->g.n,
                            st ? (double)st->ghosts : 0.0,
                            (double)sim->pairs.n,
                            rep->timers.force,
                            rep->timers.neighbor,
                            rep->timers.integrate,
                            rep->timers.gravity,
                            st ? st->seconds : 0.0,
                            (double)rbl_peak_memory_bytes()};
    double most[N], least[N], sum[N];
    for (int k = 0; k < N; k++)
        most[k] = mine[k], least[k] = -mine[k], sum[k] = mine[k];
    if (r->comm) {
        rbl_comm_max_n(r->comm, most, N);
        rbl_comm_max_n(r->comm, least, N);
        rbl_comm_sum_n(r->comm, sum, N);
    }
    for (int k = 0; k < N; k++)
        *out[k] = (rbl_rank_spread){-least[k], sum[k] / r->size, most[k]};
}

void rbl_run_ranks_report(rbl_run_ranks *r, rbl_sim *sim, double seconds, rbl_run_report *rep)
{
    rep->ranks = r->size;
    if (!r->domain) {
        rank_spreads(r, sim, NULL, rep);
        return;
    }
    rbl_domain_stats st;
    rbl_domain_stats_get(r->domain, &st);
    rank_spreads(r, sim, &st, rep); /* (before the stages' times become the slowest's) */
    /* the stepping's work on each rank: its time less its waiting and exchanges */
    double work = seconds - st.seconds, v[2] = {st.seconds, work};
    rbl_comm_max_n(r->comm, v, 2);
    double mean = rbl_comm_sum(r->comm, work) / r->size;
    rep->comm_seconds = v[0];
    rep->imbalance = mean > 0.0 ? v[1] / mean : 1.0;
    double sums[7] = {(double)st.bytes, (double)st.messages, (double)st.migrated,
                      (double)st.ghosts, (double)sim->bodies.n, (double)st.gravity_bytes,
                      (double)st.gravity_tree_bytes};
    rbl_comm_sum_n(r->comm, sums, 7);
    rep->gravity_bytes = (uint64_t)sums[5], rep->gravity_tree_bytes = (uint64_t)sums[6];
    rep->gravity_apart = st.gravity_apart, rep->gravity_gathers = st.gravity_gathers;
    rep->comm_bytes = (uint64_t)sums[0], rep->comm_messages = (uint64_t)sums[1];
    rep->migrated = (uint64_t)sums[2], rep->ghosts = (uint64_t)sums[3];
    rep->clumps = (size_t)sums[4]; /* each process's own */
    /* each stage's time: the slowest process's */
    double stages[5] = {rep->timers.force, rep->timers.neighbor, rep->timers.integrate,
                        rep->timers.gravity, rep->timers.setup};
    rbl_comm_max_n(r->comm, stages, 5);
    rep->timers.force = stages[0], rep->timers.neighbor = stages[1];
    rep->timers.integrate = stages[2], rep->timers.gravity = stages[3];
    rep->timers.setup = stages[4];
    rep->partitions = st.partitions;
    rep->neighbours = (int)rbl_comm_max(r->comm, (double)st.neighbours);
    rep->exchanges_all = st.exchanges_all; /* decided together: the same on every rank */
}

void rbl_run_ranks_health(rbl_run_ranks *r, const rbl_sim *sim, rbl_run_report *rep)
{
    rbl_health h;
    rbl_sim_health(sim, &h);
    if (r->comm) { /* the deepest; of those, the lowest ids (ids < 2^32: exact as doubles) */
        double v = rbl_comm_max(r->comm, h.peak_overlap);
        int mine = h.peak_overlap == v;
        double ids[4] = {mine ? -(double)h.peak_overlap_ids[0] : -INFINITY,
                         mine ? -(double)h.peak_overlap_ids[1] : -INFINITY,
                         mine ? (double)h.peak_overlap_step : -INFINITY,
                         mine ? (double)h.peak_overlap_wall : -INFINITY};
        rbl_comm_max_n(r->comm, ids, 4);
        h.peak_overlap = v;
        h.peak_overlap_ids[0] = (uint32_t)-ids[0], h.peak_overlap_ids[1] = (uint32_t)-ids[1];
        h.peak_overlap_step = (uint64_t)ids[2], h.peak_overlap_wall = (int)ids[3];
    }
    rep->peak_overlap = h.peak_overlap;
    rep->peak_overlap_step = h.peak_overlap_step;
    rep->peak_overlap_ids[0] = h.peak_overlap_ids[0];
    rep->peak_overlap_ids[1] = h.peak_overlap_ids[1];
    rep->peak_overlap_wall = h.peak_overlap_wall;
}

void rbl_run_ranks_end(rbl_run_ranks *r)
{
    rbl_domain_free(r->domain);
    rbl_comm_free(r->comm);
    memset(r, 0, sizeof *r);
}
