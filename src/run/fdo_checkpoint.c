/* fdo_checkpoint.c — checkpoints of impulse scenes (issue 12): the engine's state
 * (rbl_fdo_sim_save_state) beside the run's own — the scene's digest, the step, the pour
 * sources' schedules, the times of the frames written and thermo.csv so far — in a checkpoint
 * file of its own magic, so that `rubble run --restart` continues every file and every bit.
 * Payload: u64 digest length, digest, u64 step, u64 sources, a schedule (rbl_pour_state) per
 * object source, u64 frames, their times (f64), u64 thermo length, thermo text, u64 state
 * length, state. */
#include "run_internal.h"
#include "../io/io_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FDO_CKPT_VERSION 4u /* 4: thermo.csv's solve and overlap columns */

typedef struct cursor {
    const unsigned char *p;
    size_t len, at;
} cursor;

/* The next n bytes, or NULL when fewer remain. */
static const unsigned char *take(cursor *c, size_t n)
{
    if (n > c->len - c->at)
        return NULL;
    c->at += n;
    return c->p + c->at - n;
}

static int take_u64(cursor *c, uint64_t *v)
{
    const unsigned char *p = take(c, 8);
    if (p)
        memcpy(v, p, 8);
    return p != NULL;
}

int rbl_fdo_checkpoint_write(const char *path, const rbl_scene *s, const rbl_fdo_sim *sim,
                             uint64_t step, const rbl_pour_state *pours, const double *times,
                             size_t n_frames, const rbl_thermo_log *log, rbl_error *err)
{
    void *state = NULL;
    size_t state_len = 0;
    int rc = rbl_fdo_sim_save_state(sim, &state, &state_len, err);
    if (rc != RBL_OK)
        return rc;
    size_t n_digest = s->digest ? strlen(s->digest) : 0, n_src = (size_t)s->n_objects;
    size_t len = 8 + n_digest + 8 + 8 + n_src * sizeof *pours + 8 + 8 * n_frames + 8 +
                 log->len + 8 + state_len;
    unsigned char *blob = malloc(len), *at = blob;
    if (!blob) {
        free(state);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory writing the checkpoint", path);
    }
    uint64_t v = n_digest;
    memcpy(at, &v, 8), at += 8;
    if (n_digest)
        memcpy(at, s->digest, n_digest), at += n_digest;
    memcpy(at, &step, 8), at += 8;
    v = n_src;
    memcpy(at, &v, 8), at += 8;
    if (n_src)
        memcpy(at, pours, n_src * sizeof *pours), at += n_src * sizeof *pours;
    v = n_frames;
    memcpy(at, &v, 8), at += 8;
    if (n_frames)
        memcpy(at, times, 8 * n_frames), at += 8 * n_frames;
    v = log->len;
    memcpy(at, &v, 8), at += 8;
    if (log->len)
        memcpy(at, log->rows, log->len), at += log->len;
    v = state_len;
    memcpy(at, &v, 8), at += 8;
    memcpy(at, state, state_len);
    rc = rbl_checkpoint_file_write(path, RBL_FDO_CKPT_MAGIC, FDO_CKPT_VERSION, blob, len, err);
    free(blob), free(state);
    return rc;
}

/* The run state read into the caller's; the engine's into sim (made with the scene's
 * parameters and walls, no objects). */
static int read_payload(const char *path, const rbl_scene *s, cursor *c, rbl_fdo_sim *sim,
                        uint64_t *step, rbl_pour_state *pours, double **times,
                        size_t *n_frames, rbl_thermo_log *log, rbl_error *err)
{
    uint64_t v;
    const unsigned char *p;
    /* the scene's settings first: a checkpoint of another scene is refused, naming one */
    if (!take_u64(c, &v) || !(p = take(c, v)))
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    int rc = rbl_scene_digest_compare(s, (const char *)p, (size_t)v, path, err);
    if (rc != RBL_OK)
        return rc;
    size_t n_src = (size_t)s->n_objects;
    if (!take_u64(c, step) || !take_u64(c, &v) || v != n_src ||
        !(p = take(c, n_src * sizeof *pours)))
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    if (n_src)
        memcpy(pours, p, n_src * sizeof *pours);
    for (size_t k = 0; k < n_src; k++) /* a pour's schedule as a run leaves it */
        if (s->objects[k].placement == RBL_OBJECTS_POUR &&
            !rbl_pour_state_valid(&pours[k], s->objects[k].count))
            return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: pour source %zu "
                                 "has next batch at %g s, %g objects owed and %llu placed of "
                                 "%zu", path, k + 1, pours[k].next_time, pours[k].owed,
                                 (unsigned long long)pours[k].placed, s->objects[k].count);
    if (!take_u64(c, &v) || v > (c->len - c->at) / 8)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    *n_frames = (size_t)v;
    p = take(c, 8 * *n_frames);
    *times = malloc(8 * *n_frames + 8);
    if (!*times)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    memcpy(*times, p, 8 * *n_frames);
    for (size_t k = 0; k < *n_frames; k++)
        if (!isfinite((*times)[k]) || (*times)[k] < 0 || (k && (*times)[k] < (*times)[k - 1]))
            return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state: frame %zu at "
                                 "%g s", path, k, (*times)[k]);
    if (!take_u64(c, &v) || !(p = take(c, v)))
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    log->rows = malloc(v + 1);
    if (!log->rows)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    memcpy(log->rows, p, v);
    log->len = v, log->cap = v + 1;
    if ((rc = rbl_thermo_log_check(log, path, err)) != RBL_OK)
        return rc;
    if (!take_u64(c, &v) || v != c->len - c->at)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent run state", path);
    rc = rbl_fdo_sim_load_state(sim, c->p + c->at, (size_t)v, err);
    return rc == RBL_OK ? RBL_OK : rbl_error_prefix(err, rc, "%s", path);
}

int rbl_fdo_checkpoint_read(const char *path, const rbl_scene *s, rbl_fdo_sim *sim,
                            uint64_t *step, rbl_pour_state *pours, double **times,
                            size_t *n_frames, rbl_thermo_log *log, rbl_error *err)
{
    void *payload;
    size_t len;
    *times = NULL, *n_frames = 0;
    int rc = rbl_checkpoint_file_read(path, RBL_FDO_CKPT_MAGIC, FDO_CKPT_VERSION, NULL, &payload, &len,
                                      err);
    if (rc != RBL_OK)
        return rc;
    cursor c = {payload, len, 0};
    rc = read_payload(path, s, &c, sim, step, pours, times, n_frames, log, err);
    free(payload);
    if (rc != RBL_OK) {
        free(*times), *times = NULL, *n_frames = 0;
        rbl_thermo_log_free(log);
    }
    return rc;
}
