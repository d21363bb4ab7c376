/* flow_output.c — output.flow_window (issue 74, docs/scenes.md): the flow counters' and the
 * outlets' crossings over windows of time, as flow.csv rows: per window and surface, the grains
 * and mass (kg) across it forward and backward in the window (outlets: taken out, forward),
 * and the net rates, grains/s and kg/s, over the window's own time. Differences of the
 * engine's exact sums (flow.c, outlets.c) summed over the processes: a window's rate times its
 * time is its change of thermo.csv's cumulative counts, and the rows are one process's bytes.
 * A checkpoint carries the rows so far and the sums at the open window's start. */
#include "run_internal.h"
#include "run_ranks.h"
#include "../dem/dem_internal.h"

#include <stdlib.h>
#include <string.h>

#define HEADER                                                                                 \
    "time_start,time_end,surface,grains_forward,grains_backward,mass_forward,mass_backward,"   \
    "grains_rate,mass_rate\n"
/* A checkpoint's share begins with this word (after output.collisions' share) */
#define STATE_MAGIC 0x31574f4c46574f4cull /* "LOWFLOW1" */
#define SUM_BYTES RBL_EXACT_BYTES

static int append(rbl_flow_output *o, const char *text, size_t n, rbl_error *err)
{
    return rbl_rows_append(&o->rows, &o->len, &o->cap, text, n, "flow.csv", err);
}

/* The run's sums now, over the processes (collective): 4 per counter, then 2 per outlet. */
static void gather(rbl_run_ranks *ranks, const rbl_sim *sim, rbl_exact_sum *s)
{
    const size_t nf = 4 * sim->n_flows, no = 2 * sim->n_outlets;
    memcpy(s, sim->flow_sums, nf * sizeof *s);
    memcpy(s + nf, sim->outlet_sums, no * sizeof *s);
    if (ranks->comm)
        rbl_comm_sum_exact(ranks->comm, s, (int)(nf + no));
}

int rbl_flow_output_start(rbl_flow_output *o, const rbl_scene *s, rbl_run_ranks *ranks,
                          rbl_sim *sim, const char *dir, double dt, uint64_t *every,
                          rbl_error *err)
{
    memset(o, 0, sizeof *o);
    *every = 0;
    if (!(s->flow_window > 0.0))
        return RBL_OK;
    if (sim->n_flows + sim->n_outlets == 0) {
        rbl_error_set(err, RBL_EINVAL, "output.flow_window needs surfaces to count: "
                      "output.flow or outlets");
        return rbl_scene_error_at(s, s->at_flow_window, err);
    }
    int rc = rbl_scene_steps_in(s, s->at_flow_window, "output.flow_window", s->flow_window, dt,
                                0, &o->every, err);
    if (rc != RBL_OK)
        return rc;
    o->n = 4 * sim->n_flows + 2 * sim->n_outlets;
    o->start = calloc(o->n + 1, sizeof *o->start);
    o->now = calloc(o->n + 1, sizeof *o->now);
    o->path = rbl_path_join(dir, "flow.csv");
    if (!o->start || !o->now || !o->path)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    o->on = 1, o->dt = dt, o->last = sim->step;
    gather(ranks, sim, o->start);
    *every = o->every;
    return append(o, HEADER, strlen(HEADER), err);
}

/* A row: surface `name`, the changes over the window of `dur` seconds (backward: none for an
 * outlet). */
static int row(rbl_flow_output *o, double t0, double t1, const char *name,
               const rbl_exact_sum *now, const rbl_exact_sum *was, int backward,
               rbl_error *err)
{
    double d[4] = {0.0, 0.0, 0.0, 0.0};
    const int n = backward ? 4 : 2;
    for (int k = 0; k < n; k++) {
        rbl_exact_sum s = now[k];
        rbl_exact_subtract(&s, &was[k]);
        d[backward ? k : 2 * k] = rbl_exact_value(&s);
    }
    const double dur = t1 - t0;
    char line[512];
    const int len = snprintf(line, sizeof line, "%.17g,%.17g,%s,%.17g,%.17g,%.17g,%.17g,%.17g,"
                             "%.17g\n", t0, t1, name, d[0], d[1], d[2], d[3],
                             (d[0] - d[1]) / dur, (d[2] - d[3]) / dur);
    return append(o, line, (size_t)len < sizeof line ? (size_t)len : sizeof line - 1, err);
}

int rbl_flow_output_write(rbl_flow_output *o, rbl_run_ranks *ranks, rbl_sim *sim,
                          uint64_t step, rbl_error *err)
{
    if (!o->on || step == o->last)
        return RBL_OK;
    gather(ranks, sim, o->now);
    int rc = RBL_OK;
    if (ranks->rank == 0) {
        const double t0 = (double)o->last * o->dt, t1 = (double)step * o->dt;
        char name[32];
        for (size_t k = 0; rc == RBL_OK && k < sim->n_flows; k++) {
            snprintf(name, sizeof name, "flow%zu", k + 1);
            rc = row(o, t0, t1, name, o->now + 4 * k, o->start + 4 * k, 1, err);
        }
        const size_t nf = 4 * sim->n_flows;
        for (size_t k = 0; rc == RBL_OK && k < sim->n_outlets; k++) {
            snprintf(name, sizeof name, "outlet%zu", k + 1);
            rc = row(o, t0, t1, name, o->now + nf + 2 * k, o->start + nf + 2 * k, 0, err);
        }
        if (rc == RBL_OK)
            rc = rbl_file_grow(o->path, &o->file, o->rows, o->len, err);
    }
    memcpy(o->start, o->now, o->n * sizeof *o->start);
    o->last = step;
    return rbl_run_ranks_agree(ranks, rc, err);
}

/* magic, length, last, sums n, rows' bytes; the sums at the window's start, the rows */
size_t rbl_flow_output_state_size(const rbl_flow_output *o)
{
    return o->on ? 40 + o->n * SUM_BYTES + o->len : 0;
}

void rbl_flow_output_state(const rbl_flow_output *o, unsigned char *at)
{
    const size_t len = rbl_flow_output_state_size(o);
    if (!len)
        return;
    const uint64_t head[5] = {STATE_MAGIC, len, o->last, o->n, o->len};
    memcpy(at, head, 40), at += 40;
    at = rbl_exact_put(at, o->start, o->n);
    memcpy(at, o->rows, o->len);
}

size_t rbl_flow_output_state_length(const unsigned char *at, size_t len)
{
    return rbl_share_length(at, len, STATE_MAGIC, 40);
}

int rbl_flow_output_restore(rbl_flow_output *o, const rbl_sim *sim, const unsigned char *at,
                            size_t len, const char *path, rbl_error *err)
{
    uint64_t head[5];
    if (len < 40)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: flow.csv's", path);
    memcpy(head, at, 40);
    const uint64_t n = head[3], rows = head[4];
    if (n > (len - 40) / SUM_BYTES || 40 + n * SUM_BYTES + rows != len || head[2] > sim->step)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: flow.csv's", path);
    if (!o->on)
        return RBL_OK; /* a restart without windows */
    const unsigned char *text = at + len - rows;
    if (rows < strlen(HEADER) || memcmp(text, HEADER, strlen(HEADER)) != 0)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: flow.csv's rows",
                             path);
    o->len = 0;
    int rc = append(o, (const char *)text, (size_t)rows, err);
    if (rc != RBL_OK || n != o->n) /* other surfaces: the window starts afresh here */
        return rc;
    o->last = head[2];
    rbl_exact_get(at + 40, o->start, o->n);
    return RBL_OK;
}

void rbl_flow_output_free(rbl_flow_output *o)
{
    free(o->path), free(o->rows), free(o->start), free(o->now);
    memset(o, 0, sizeof *o);
}
