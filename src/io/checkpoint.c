/* checkpoint.c — checkpoint and restart (issue 3): the whole simulation state in a versioned
 * binary file with a checksum, so that a run restarted from it continues bit for bit as the
 * uninterrupted run. Layout: "RUBBLECK", u32 version, u32 byte-order mark, u64 payload size,
 * payload, u64 FNV-1a checksum of the payload. The payload lists every field explicitly
 * (no raw structs), in the order of the tables below. Written atomically. */
#include "../dem/dem_internal.h"
#include "io_internal.h"
#include "checkpoint_layout.h"
#include "../bonds/bonds_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


typedef struct buf {
    uint32_t version;    /* read: the file's format (CKPT_VERSION_OLDEST to CKPT_VERSION) */
    unsigned char *p;
    size_t len, cap, at; /* at: read cursor */
    int bad;             /* out of memory (write) or truncated (read) */
    size_t total;        /* read: the payload's bytes, of which p holds the first len (0: all) */
    int more;            /* read: the payload goes on past the bytes p holds */
} buf;

/* The payload's bytes (read), wherever p ends. */
static size_t payload(const buf *b) { return b->total ? b->total : b->len; }
/* The payload's bytes after the cursor. */
static size_t left(const buf *b) { return payload(b) - b->at; }

/* n bytes of data, or n zero bytes for data NULL (an array the simulation does not keep). */
static void put(buf *b, const void *data, size_t n)
{
    if (b->bad || n == 0)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *q = realloc(b->p, cap);
        if (!q) {
            b->bad = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    if (data)
        memcpy(b->p + b->len, data, n);
    else
        memset(b->p + b->len, 0, n);
    b->len += n;
}

/* n bytes into data, or past them for data NULL. */
static void get(buf *b, void *data, size_t n)
{
    if (b->bad || n == 0)
        return;
    if (n > b->len - b->at) {
        b->bad = 1;
        b->more = n <= left(b); /* past the bytes held, within the payload */
        if (data)
            memset(data, 0, n);
        return;
    }
    if (data)
        memcpy(data, b->p + b->at, n);
    b->at += n;
}

static void put_u64(buf *b, uint64_t v) { put(b, &v, sizeof v); }
static void put_f64(buf *b, double v) { put(b, &v, sizeof v); }
static uint64_t get_u64(buf *b)
{
    uint64_t v = 0;
    get(b, &v, sizeof v);
    return v;
}
static double get_f64(buf *b)
{
    double v = 0;
    get(b, &v, sizeof v);
    return v;
}

/* A wall's motion (rbl_wall_motion, its axes unit as set), then the state it carries: a
 * servo's travel and speed, and the pose at the last neighbour build (which times the next). */
#define MOTION_DOUBLES(X)                                                                      \
    X(m.velocity[0]) X(m.velocity[1]) X(m.velocity[2]) X(m.amplitude[0]) X(m.amplitude[1])     \
    X(m.amplitude[2]) X(m.frequency) X(m.axis[0]) X(m.axis[1]) X(m.axis[2]) X(m.center[0])     \
    X(m.center[1]) X(m.center[2]) X(m.omega) X(m.servo_axis[0]) X(m.servo_axis[1])            \
    X(m.servo_axis[2]) X(m.servo_force) X(m.servo_speed) X(m.servo_gain) X(travel) X(speed)    \
    X(build_shift[0]) X(build_shift[1]) X(build_shift[2]) X(build_angle) X(reach)            \
    X(shift0[0]) X(shift0[1]) X(shift0[2])

/* A flow counter's or an outlet's surface: point, normal, radius, then a mesh's corners and
 * facets (counts 0: a plane or disk). */
static void put_surface(buf *b, const rbl_flow_counter *f)
{
    for (int a = 0; a < 3; a++)
        put_f64(b, f->point[a]), put_f64(b, f->normal[a]);
    put_f64(b, f->radius);
    const rbl_mesh *m = f->mesh;
    put_u64(b, m ? m->n_vertices : 0), put_u64(b, m ? m->n_triangles : 0);
    if (m) {
        put(b, m->vertex, 3 * m->n_vertices * sizeof *m->vertex);
        put(b, m->triangle, 3 * m->n_triangles * sizeof *m->triangle);
    }
}

/* An exact sum, its carries propagated: limb by limb, then the non-finite part. */
static void put_exact(buf *b, const rbl_exact_sum *sum)
{
    rbl_exact_sum s = *sum;
    rbl_exact_normalize(&s);
    put(b, s.limb, sizeof s.limb);
    put_f64(b, s.special);
}

/* The configuration, materials, walls, meshes, counters, outlets and the run's scalars: all but
 * the grains. */
/* A mesh wall's primitive (issue 73): its kind (0: none), as added, and its frame now. */
static void put_primitive(buf *b, const rbl_prim_wall *w)
{
    put_u64(b, w ? (uint64_t)w->p.kind : 0);
    if (!w)
        return;
    const rbl_primitive *p = &w->p;
    for (int a = 0; a < 3; a++)
        put_f64(b, p->center[a]), put_f64(b, p->axis[a]), put_f64(b, p->side[a]),
            put_f64(b, p->size[a]);
    put_f64(b, p->radius[0]), put_f64(b, p->radius[1]), put_u64(b, (uint64_t)p->caps);
    for (int a = 0; a < 3; a++)
        put_f64(b, w->o[a]), put_f64(b, w->e[0][a]), put_f64(b, w->e[1][a]),
            put_f64(b, w->e[2][a]);
}

static void save_head(buf *b, const rbl_sim *sim)
{
    /* the thread count is the run's, not the state's (a restart takes its own): written as 0
     * (all cores), so the same state is the same bytes on any number of threads */
    rbl_sim_config unthreaded = sim->cfg;
    unthreaded.threads = 0;
    const rbl_sim_config *c = &unthreaded;
#define PUT_D(f) put_f64(b, c->f);
#define PUT_I(f) put_u64(b, (uint64_t)(int64_t)c->f);
    CFG_DOUBLES(PUT_D)
    CFG_INTS(PUT_I)
    put_u64(b, (uint64_t)sim->n_materials);
    for (int m = 0; m < sim->n_materials; m++) {
        const rbl_material *mt = &sim->materials[m];
        put_f64(b, mt->density), put_f64(b, mt->youngs_modulus), put_f64(b, mt->poisson_ratio);
        put_f64(b, mt->restitution), put_f64(b, mt->friction);
    }
    put_u64(b, (uint64_t)sim->n_pair_set); /* pairs' own coefficients, by slot (law_table.h) */
    for (int k = 0; k < sim->n_pair_set; k++) {
        const struct rbl_pair_set *p = &sim->pair_set[k];
        put_u64(b, (uint64_t)p->a), put_u64(b, (uint64_t)p->b);
        for (int s = 0; s < RBL_PAIR_N; s++)
            put_f64(b, p->own[s]);
    }
    put_u64(b, (uint64_t)sim->n_walls);
    for (int w = 0; w < sim->n_walls; w++) {
        const rbl_plane *p = &sim->walls[w];
        put_f64(b, p->n0[0]), put_f64(b, p->n0[1]), put_f64(b, p->n0[2]), put_f64(b, p->offset0);
        put_u64(b, (uint64_t)p->material);
    }
    put_u64(b, (uint64_t)sim->n_meshes);
    for (int k = 0; k < sim->n_meshes; k++) {
        const rbl_mesh_wall *mw = &sim->meshes[k];
        put_u64(b, mw->mesh.n_vertices), put_u64(b, mw->mesh.n_triangles);
        put_u64(b, (uint64_t)mw->material);
        put(b, mw->mesh.vertex, 3 * mw->mesh.n_vertices * sizeof *mw->mesh.vertex);
        put(b, mw->mesh.triangle, 3 * mw->mesh.n_triangles * sizeof *mw->mesh.triangle);
        put_f64(b, mw->archard), put_f64(b, mw->finnie); /* then, when it wears, its depths */
        if (mw->wear)
            put(b, mw->wear, mw->mesh.n_triangles * sizeof *mw->wear);
        put_primitive(b, mw->prim);
    }
    for (int k = 0; k < sim->n_walls + sim->n_meshes; k++) {
        const rbl_wall_pose *p = rbl_wall_pose_of((rbl_sim *)sim, k);
#define PUT_M(f) put_f64(b, p->f);
        MOTION_DOUBLES(PUT_M)
        put_u64(b, (uint64_t)p->m.servo);
        put_u64(b, (uint64_t)(p->off | p->toggled << 1)); /* taken away, its presence changed */
        const rbl_motion_table *T = p->table; /* a table: its rows as given, its start */
        put_u64(b, T ? T->n : 0);
        if (T) {
            put_f64(b, T->t0);
            for (int a = 0; a < 3; a++)
                put_f64(b, T->pivot[a]);
            for (int a = 0; a < 4; a++)
                put_f64(b, p->build_quat[a]);
            for (size_t r = 0; r < T->n; r++) {
                const rbl_motion_row *row = &T->rows[r];
                put_f64(b, row->t);
                for (int a = 0; a < 3; a++)
                    put_f64(b, row->shift[a]);
                for (int a = 0; a < 4; a++)
                    put_f64(b, row->quat[a]);
            }
        }
    }
    put_u64(b, sim->n_flows); /* flow counters: the surface, then its sums */
    for (size_t k = 0; k < sim->n_flows; k++) {
        put_surface(b, &sim->flows[k]);
        for (int q = 0; q < 4; q++)
            put_exact(b, &sim->flow_sums[4 * k + (size_t)q]);
    }
    put_u64(b, sim->n_outlets); /* outlets: the region, the surface, the sums */
    for (size_t k = 0; k < sim->n_outlets; k++) {
        const rbl_outlet *o = &sim->outlets[k];
        put_u64(b, (uint64_t)o->region);
        put_u64(b, (uint64_t)o->closed);
        for (int a = 0; a < 3; a++)
            put_f64(b, o->lo[a]), put_f64(b, o->hi[a]), put_f64(b, o->from[a]),
                put_f64(b, o->to[a]);
        put_f64(b, o->radius);
        put_surface(b, &o->surface);
        put_exact(b, &sim->outlet_sums[2 * k]), put_exact(b, &sim->outlet_sums[2 * k + 1]);
    }
    for (int k = 0; k < RBL_IN_N; k++) /* the energy account's, over every process */
        put_exact(b, &sim->health.in[k]);
    for (int k = 0; k < RBL_LOSS_N; k++)
        put_exact(b, &sim->health.lost[k]);
    put_exact(b, &sim->health.self_work);
    put_u64(b, sim->step), put_f64(b, sim->time), put_u64(b, sim->lost);
    put_u64(b, sim->next_id), put_f64(b, sim->skin), put_f64(b, sim->max_disp2);
    put_u64(b, sim->next_sort_step);
    put_u64(b, (uint64_t)sim->gravity_valid);
    put_u64(b, (uint64_t)sim->open_origin_set);
    for (int a = 0; a < 3; a++)
        put_f64(b, sim->open_origin[a]);
    /* 25: a sheared cell whose height a servo moved: its shift (the speed's sum from then) and
       the servo's strain rate */
    put_u64(b, (uint64_t)sim->shear.travel_kept);
    put_f64(b, sim->shear.travel), put_f64(b, sim->shear.strain_rate);
}

/* The grains, clumps and lists, after the head (checkpoint_layout.h: checkpoint_ranks.c writes
 * the same layout from every process's share). */
static void save_grains(buf *b, const rbl_sim *sim)
{
    const rbl_sim_config *c = &sim->cfg;
    const rbl_grains *g = &sim->g;
    size_t n = g->n;
    put_u64(b, n);
#define PUT_VEC(f) put(b, g->f, 3 * n * sizeof(double));
#define PUT_DBL(f) put(b, g->f, n * sizeof(double));
    GRAIN_VECS(PUT_VEC)
    GRAIN_DBLS(PUT_DBL)
    put(b, g->id, n * sizeof *g->id);
    put(b, g->material, n * sizeof *g->material);
    put(b, g->contacts, n * sizeof *g->contacts);
    put(b, g->body, n * sizeof *g->body);
    put(b, g->slot, n * sizeof *g->slot);
    const rbl_bodies *bd = &sim->bodies;
    put_u64(b, bd->n), put_u64(b, bd->members);
#define PUT_BODY(f, k) put(b, bd->f, (k) * bd->n * sizeof *bd->f);
    BODY_ARRAYS(PUT_BODY)
    if (bd->start)
        put(b, bd->start, (bd->n + 1) * sizeof *bd->start);
    else
        put_u64(b, 0); /* no clump was ever added: start = {0} */
    put(b, bd->member_id, bd->members * sizeof *bd->member_id);
    put(b, bd->member_index, bd->members * sizeof *bd->member_index);
    put(b, bd->offset, 3 * bd->members * sizeof *bd->offset);
    const rbl_pair_list *p = &sim->pairs;
    put_u64(b, p->n);
    put(b, p->i, p->n * sizeof *p->i);
    put(b, p->j, p->n * sizeof *p->j);
    put(b, p->image, p->n);
    put(b, p->touch, p->n);
    const size_t width = rbl_hist_width(&c->law);
    put(b, p->hist, p->n * width * sizeof *p->hist);
    for (size_t q = 0; q < p->n; q++) /* the last force evaluation's results, in pair order */
        put(b, p->touch[q] ? p->out + RBL_PAIR_OUT * (size_t)p->jpos[q] : NULL,
            RBL_PAIR_OUT * sizeof *p->out);
    const rbl_wall_list *w = &sim->wpairs;
    put_u64(b, w->n);
    put(b, w->grain, w->n * sizeof *w->grain);
    put(b, w->wall, w->n * sizeof *w->wall);
    put(b, w->touch, w->n);
    put(b, w->hist, w->n * rbl_wall_hist_width(&c->law) * sizeof *w->hist);
    for (size_t q = 0; q < w->n; q++) /* and each wall contact's, with its facet */
        put(b, w->touch[q] ? w->out + RBL_WALL_OUT * q : NULL, RBL_WALL_OUT * sizeof *w->out);
    for (size_t q = 0; q < w->n; q++) {
        const uint32_t facet = w->touch[q] ? w->facet[q] : UINT32_MAX;
        put(b, &facet, sizeof facet);
    }
    put(b, w->cand_lo, w->n * sizeof *w->cand_lo), put(b, w->cand_hi, w->n * sizeof *w->cand_hi);
    put_u64(b, w->n_cand), put_u64(b, w->cand_max);
    put(b, w->cand, w->n_cand * sizeof *w->cand);
    const size_t bond_bytes = rbl_bonds_state_bytes(sim); /* format 20: the bonds */
    unsigned char *bonds = malloc(bond_bytes);
    if (!bonds) {
        b->bad = 1;
        return;
    }
    rbl_bonds_state_write(sim, bonds);
    put(b, bonds, bond_bytes);
    free(bonds);
}

int rbl_checkpoint_file_write(const char *path, const char magic[8], uint32_t version,
                              const void *payload, size_t len, rbl_error *err)
{
    rbl_atomic_file af;
    int rc = rbl_atomic_open(&af, path, err);
    if (rc == RBL_OK) {
        uint32_t bom = CKPT_BOM;
        uint64_t n = len, sum = rbl_fnv1a(RBL_FNV1A_START, payload, len);
        fwrite(magic, 1, 8, af.file);
        fwrite(&version, sizeof version, 1, af.file);
        fwrite(&bom, sizeof bom, 1, af.file);
        fwrite(&n, sizeof n, 1, af.file);
        fwrite(payload, 1, len, af.file);
        fwrite(&sum, sizeof sum, 1, af.file);
        rc = rbl_atomic_commit(&af, err);
    }
    return rc;
}

int rbl_checkpoint_head(const rbl_sim *sim, void **out, size_t *len)
{
    buf b = {0};
    save_head(&b, sim);
    if (b.bad) {
        free(b.p);
        return 0;
    }
    *out = b.p, *len = b.len;
    return 1;
}

int rbl_checkpoint_write(const char *path, const rbl_sim *sim, const void *extra,
                         size_t extra_len, rbl_error *err)
{
    buf b = {0};
    save_head(&b, sim);
    save_grains(&b, sim);
    put_u64(&b, extra_len);
    put(&b, extra, extra_len);
    if (b.bad) {
        free(b.p);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory writing the checkpoint", path);
    }
    int rc = rbl_checkpoint_file_write(path, CKPT_MAGIC, CKPT_VERSION, b.p, b.len, err);
    free(b.p);
    return rc;
}

int rbl_sim_save(const rbl_sim *sim, const char *path, rbl_error *err)
{
    return rbl_checkpoint_write(path, sim, NULL, 0, err);
}

/* Bytes in the file (-1 when it cannot be told); the read position is kept. */
static long long file_size(FILE *f)
{
    long at = ftell(f);
    if (at < 0 || fseek(f, 0, SEEK_END) != 0)
        return -1;
    long long size = ftell(f);
    return fseek(f, at, SEEK_SET) == 0 ? size : -1;
}

int rbl_checkpoint_file_open(const char *path, const char magic_wanted[8],
                             uint32_t version_wanted, uint32_t *version_got, FILE **out,
                             uint64_t *payload_len, rbl_error *err)
{
    *out = NULL, *payload_len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return rbl_error_set(err, RBL_EIO, "%s: cannot open: %s", path, strerror(errno));
    char magic[8] = {0};
    uint32_t version = 0, bom = 0;
    uint64_t len = 0;
    long long size = 0;
    int rc = RBL_OK;
    int grains = memcmp(magic_wanted, CKPT_MAGIC, 8) == 0;
    if (fread(magic, 1, 8, f) != 8 ||
        (memcmp(magic, CKPT_MAGIC, 8) != 0 && memcmp(magic, RBL_FDO_CKPT_MAGIC, 8) != 0)) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s: not a rubble checkpoint (wrong magic bytes)",
                           path);
    } else if (memcmp(magic, magic_wanted, 8) != 0) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s: a checkpoint of %s, not of %s", path,
                           grains ? "an impulse scene" : "grains",
                           grains ? "grains" : "an impulse scene");
    } else if (fread(&version, sizeof version, 1, f) != 1 ||
               fread(&bom, sizeof bom, 1, f) != 1 || fread(&len, sizeof len, 1, f) != 1) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s: truncated checkpoint header", path);
    } else if (bom != CKPT_BOM) {
        rc = rbl_error_set(err, RBL_EPARSE,
                           "%s: checkpoint written on a machine of the other byte order", path);
    } else if (version != version_wanted &&
               !(grains && version_wanted == CKPT_VERSION && version >= CKPT_VERSION_OLDEST &&
                 version < CKPT_VERSION)) {
        rc = rbl_error_set(err, RBL_EPARSE,
                           "%s: checkpoint format version %u; this rubble reads version %u",
                           path, version, version_wanted);
    } else if ((size = file_size(f)) < 32 || len > (uint64_t)size - 32) {
        rc = rbl_error_set(err, RBL_EPARSE,
                           "%s: truncated checkpoint (header announces %llu bytes, file holds "
                           "%lld)", path, (unsigned long long)len + 32, size);
    } else if (len < (uint64_t)size - 32) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s: trailing bytes after the checkpoint", path);
    }
    if (rc != RBL_OK) {
        fclose(f);
        return rc;
    }
    *out = f, *payload_len = len;
    if (version_got)
        *version_got = version;
    return RBL_OK;
}

int rbl_checkpoint_file_read(const char *path, const char magic_wanted[8], uint32_t version_wanted,
                             uint32_t *version_got, void **payload, size_t *payload_len,
                             rbl_error *err)
{
    *payload = NULL, *payload_len = 0;
    FILE *f;
    uint64_t len, sum = 0;
    int rc = rbl_checkpoint_file_open(path, magic_wanted, version_wanted, version_got, &f, &len,
                                      err);
    if (rc != RBL_OK)
        return rc;
    unsigned char *p = malloc(len ? len : 1);
    if (!p) {
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for %llu bytes", path,
                           (unsigned long long)len);
    } else if (fread(p, 1, len, f) != len || fread(&sum, sizeof sum, 1, f) != 1) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s: truncated checkpoint (expected %llu bytes)",
                           path, (unsigned long long)len + 32);
    } else if (rbl_fnv1a(RBL_FNV1A_START, p, len) != sum) {
        rc = rbl_error_set(err, RBL_EPARSE, "%s: corrupt checkpoint (checksum mismatch)", path);
    }
    fclose(f);
    if (rc != RBL_OK) {
        free(p);
        return rc;
    }
    *payload = p, *payload_len = (size_t)len;
    return RBL_OK;
}

/* The force and torque grain k holds kick it at the restart's first step: by at most
 * RBL_SPEED_MAX in speed and in surface speed (issue 41: a crafted torque of 1.8e219 N m ran
 * until the health check blamed the time step). A clump member's own inverses are 0. */
/* |v|, without the square overflowing for a component beyond 1e154 (a crafted file's). */
static double length3(const double v[3])
{
    return hypot(hypot(v[0], v[1]), v[2]);
}

static int kick_check(const rbl_sim *sim, size_t k, rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    const double dt = sim->cfg.dt;
    double f = length3(g->force + 3 * k);
    const double t = length3(g->torque + 3 * k);
    if (g->with_fext) /* the first refresh may take these out of it, or put those in */
        f += length3(g->fext_applied + 3 * k) + length3(g->fext + 3 * k);
    const double dv = f * g->inv_mass[k] * dt, dw = t * g->inv_inertia[k] * dt * g->radius[k];
    if (!(dv <= RBL_SPEED_MAX) || !(dw <= RBL_SPEED_MAX))
        return rbl_error_set(err, RBL_EPARSE, "its force %g N and torque %g N m would change "
                             "its speed by %g m/s and its surface speed by %g m/s in one step "
                             "(at most %g)", f, t, dv, dw, RBL_SPEED_MAX);
    return RBL_OK;
}

/* Grain ids name contact histories: two grains with one id would share them. */
static int ids_unique(const uint32_t *id, size_t n)
{
    uint64_t *keys = malloc((2 * n + 1) * sizeof *keys);
    if (!keys)
        return 0;
    for (size_t k = 0; k < n; k++)
        keys[k] = id[k];
    rbl_radix_sort_u64(keys, NULL, n, 32, keys + n, NULL);
    int unique = 1;
    for (size_t k = 1; k < n && unique; k++)
        unique = keys[k] != keys[k - 1];
    free(keys);
    return unique;
}

/* The clumps, checked against the grains: every member slot points at a grain of that body. */
static int load_bodies(buf *b, rbl_sim *sim, const char *path, rbl_error *err)
{
    rbl_bodies *bd = &sim->bodies;
    rbl_grains *g = &sim->g;
    uint64_t nb = get_u64(b), members = get_u64(b);
    if (b->bad || nb > left(b) / CKPT_BODY_BYTES || members > left(b) / CKPT_SLOT_BYTES ||
        members > g->n)
        return rbl_error_set(err, RBL_EPARSE, "%s: truncated or inconsistent clump data", path);
    if (!rbl_bodies_reserve(bd, nb + 1, members + 1))
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    bd->n = nb, bd->members = members;
#define GET_BODY(f, k) get(b, bd->f, (k) * nb * sizeof *bd->f);
    BODY_ARRAYS(GET_BODY)
    get(b, bd->start, (nb + 1) * sizeof *bd->start);
    get(b, bd->member_id, members * sizeof *bd->member_id);
    get(b, bd->member_index, members * sizeof *bd->member_index);
    get(b, bd->offset, 3 * members * sizeof *bd->offset);
    int bad = b->bad || bd->start[0] != 0 || bd->start[nb] != members;
    for (size_t k = 0; k < nb && !bad; k++) {
        bad = bd->start[k + 1] < bd->start[k] || bd->material[k] < 0 ||
              bd->material[k] >= sim->n_materials || !(bd->mass[k] > 0);
        for (size_t s = bd->start[k]; s < bd->start[k + 1] && !bad; s++) {
            size_t i = bd->member_index[s];
            bad = i >= g->n || g->body[i] != (int32_t)k || g->slot[i] != s ||
                  g->id[i] != bd->member_id[s];
        }
    }
    for (size_t k = 0; k < g->n && !bad; k++)
        bad = g->body[k] < -1 || g->body[k] >= (int32_t)nb;
    if (bad)
        return rbl_error_set(err, RBL_EPARSE, "%s: inconsistent clump data", path);
    rbl_bodies_refresh_arms(bd);
    rbl_bodies_member_masses(bd, g);
    return RBL_OK;
}

/* Mesh wall k's wear: its coefficients, set as rbl_sim_set_mesh_wear sets them, and its
 * facets' depths (finite, not negative). */
static int load_wear(buf *b, rbl_sim *sim, int k, const char *path, rbl_error *err)
{
    double archard = get_f64(b), finnie = get_f64(b);
    if (b->bad)
        return rbl_error_set(err, RBL_EPARSE, "%s: truncated mesh wall %d", path, k + 1);
    int rc = rbl_sim_set_mesh_wear(sim, k, archard, finnie, err);
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "%s", path);
    rbl_mesh_wall *mw = &sim->meshes[k];
    if (!mw->wear)
        return RBL_OK;
    get(b, mw->wear, mw->mesh.n_triangles * sizeof *mw->wear);
    for (size_t t = 0; t < mw->mesh.n_triangles && !b->bad; t++)
        b->bad = !(mw->wear[t] >= 0.0 && mw->wear[t] < INFINITY);
    return b->bad ? rbl_error_set(err, RBL_EPARSE, "%s: truncated or inconsistent wear of mesh "
                                                   "wall %d", path, k + 1)
                  : RBL_OK;
}

/* A mesh wall's primitive as put_primitive wrote it, checked as rbl_sim_add_primitive_wall
 * checks one, its frame then as saved. */
static int load_primitive(buf *b, rbl_mesh_wall *mw, const char *path, rbl_error *err)
{
    uint64_t kind = get_u64(b);
    if (b->bad || kind > RBL_PRIM_BOX)
        return rbl_error_set(err, RBL_EPARSE, "%s: truncated or inconsistent primitive wall",
                             path);
    if (kind == 0)
        return RBL_OK;
    rbl_primitive p = {.kind = (int)kind};
    for (int a = 0; a < 3; a++)
        p.center[a] = get_f64(b), p.axis[a] = get_f64(b), p.side[a] = get_f64(b),
        p.size[a] = get_f64(b);
    p.radius[0] = get_f64(b), p.radius[1] = get_f64(b);
    uint64_t caps = get_u64(b);
    double at[4][3];
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < 4; k++)
            at[k][a] = get_f64(b);
    if (b->bad || caps > 3)
        return rbl_error_set(err, RBL_EPARSE, "%s: truncated primitive wall", path);
    p.caps = (int)caps;
    rbl_prim_wall *w = malloc(sizeof *w);
    if (!w)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    int rc = rbl_prim_wall_init(w, &p, err);
    if (rc != RBL_OK) {
        free(w);
        return rbl_error_prefix(err, rc, "%s", path);
    }
    const size_t facets = rbl_prim_wall_facets(w);
    if (facets != mw->mesh.n_triangles) { /* its contacts name its facets */
        free(w);
        return rbl_error_set(err, RBL_EPARSE, "%s: a primitive wall of %zu facets drawn by %zu",
                             path, facets, mw->mesh.n_triangles);
    }
    for (int a = 0; a < 3; a++) {
        w->o[a] = at[0][a];
        for (int k = 0; k < 3; k++)
            w->e[k][a] = at[k + 1][a];
        if (!isfinite(w->o[a]) || !isfinite(w->e[0][a]) || !isfinite(w->e[1][a]) ||
            !isfinite(w->e[2][a])) {
            free(w);
            return rbl_error_set(err, RBL_EPARSE, "%s: a primitive wall's frame not finite",
                                 path);
        }
    }
    mw->prim = w;
    return RBL_OK;
}

/* The mesh walls: corners and facets, checked as rbl_sim_add_mesh_wall checks any mesh. */
static int load_meshes(buf *b, rbl_sim *sim, const char *path, rbl_error *err)
{
    uint64_t count = get_u64(b);
    if (b->bad || count > payload(b))
        return rbl_error_set(err, RBL_EPARSE, "%s: truncated mesh walls", path);
    for (uint64_t k = 0; k < count; k++) {
        uint64_t nv = get_u64(b), nt = get_u64(b), material = get_u64(b);
        /* sizes the payload can hold, before anything is allocated on their word */
        if (b->bad || nv > left(b) / 24 || nt > left(b) / 12 ||
            material > INT32_MAX)
            return rbl_error_set(err, RBL_EPARSE, "%s: truncated mesh wall %llu", path,
                                 (unsigned long long)k + 1);
        rbl_mesh mesh = {(size_t)nv, (size_t)nt, malloc(3 * nv * sizeof(double) + 1),
                         malloc(3 * nt * sizeof(uint32_t) + 1)};
        int rc = RBL_OK;
        if (!mesh.vertex || !mesh.triangle) {
            rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
        } else {
            get(b, mesh.vertex, 3 * nv * sizeof *mesh.vertex);
            get(b, mesh.triangle, 3 * nt * sizeof *mesh.triangle);
            rc = b->bad ? rbl_error_set(err, RBL_EPARSE, "%s: truncated mesh wall %llu", path,
                                        (unsigned long long)k + 1)
                        : rbl_sim_add_mesh_wall(sim, &mesh, (int)material, err);
        }
        if (rc == RBL_OK)
            rc = load_wear(b, sim, (int)k, path, err);
        if (rc == RBL_OK)
            rc = load_primitive(b, &sim->meshes[k], path, err);
        free(mesh.vertex), free(mesh.triangle);
        if (rc != RBL_OK)
            return rbl_error_prefix(err, rc, "%s", path);
    }
    return RBL_OK;
}

/* Every wall's motion, set as rbl_sim_set_wall_motion sets it (so checked alike), then the
 * saved values exactly (its axes are not made unit a second time) and the state. */
/* A surface as put_surface wrote it, into f, its mesh (if any) into *mesh (freed by the
 * caller); 0 where the payload cannot hold it. */
static int get_surface(buf *b, rbl_flow_counter *f, rbl_mesh *mesh)
{
    memset(f, 0, sizeof *f), memset(mesh, 0, sizeof *mesh);
    for (int a = 0; a < 3; a++)
        f->point[a] = get_f64(b), f->normal[a] = get_f64(b);
    f->radius = get_f64(b);
    uint64_t nv = get_u64(b), nt = get_u64(b);
    if (b->bad || nv > left(b) / 24 || nt > left(b) / 12)
        return 0;
    if (!nt)
        return 1;
    mesh->n_vertices = (size_t)nv, mesh->n_triangles = (size_t)nt;
    mesh->vertex = malloc(3 * nv * sizeof(double) + 1);
    mesh->triangle = malloc(3 * nt * sizeof(uint32_t) + 1);
    if (!mesh->vertex || !mesh->triangle)
        return -1;
    get(b, mesh->vertex, 3 * nv * sizeof *mesh->vertex);
    get(b, mesh->triangle, 3 * nt * sizeof *mesh->triangle);
    f->mesh = mesh;
    return !b->bad;
}

/* An exact sum of either sign as put_exact wrote it: limbs below the top in range (carries
 * propagated), the top one holding the sign, within what a sum of doubles reaches, finite. */
static int get_signed_exact(buf *b, rbl_exact_sum *s)
{
    get(b, s->limb, sizeof s->limb);
    s->special = get_f64(b);
    s->adds = 0;
    const int64_t top = s->limb[RBL_EXACT_LIMBS - 1];
    if (b->bad || s->special != 0.0 || top < -((int64_t)1 << 40) || top > (int64_t)1 << 40)
        return 0;
    for (int l = 0; l + 1 < RBL_EXACT_LIMBS; l++)
        if (s->limb[l] < 0 || s->limb[l] >= (int64_t)1 << 32)
            return 0;
    return 1;
}

/* An exact sum as put_exact wrote it: limbs in range (carries propagated), finite. */
static int get_exact(buf *b, rbl_exact_sum *s)
{
    get(b, s->limb, sizeof s->limb);
    s->special = get_f64(b);
    s->adds = 0;
    if (b->bad || s->special != 0.0 || s->limb[RBL_EXACT_LIMBS - 1] < 0)
        return 0;
    for (int l = 0; l + 1 < RBL_EXACT_LIMBS; l++)
        if (s->limb[l] < 0 || s->limb[l] >= (int64_t)1 << 32)
            return 0;
    return 1;
}

/* The flow counters and the outlets: each added as rbl_sim_add_flow_counter or
 * rbl_sim_add_outlet adds one, its saved normal kept (unit already), then its sums. */
static int load_flows(buf *b, rbl_sim *sim, const char *path, rbl_error *err)
{
    for (int outlets = 0; outlets < 2; outlets++) {
        const char *what = outlets ? "outlet" : "flow counter";
        uint64_t count = get_u64(b);
        if (b->bad || count > left(b) / 56)
            return rbl_error_set(err, RBL_EPARSE, "%s: truncated %ss", path, what);
        for (uint64_t k = 0; k < count; k++) {
            rbl_outlet o;
            memset(&o, 0, sizeof o);
            if (outlets) {
                o.region = (int)get_u64(b);
                const uint64_t closed = get_u64(b);
                if (closed > 1)
                    return rbl_error_set(err, RBL_EPARSE, "%s: outlet %llu: open or closed is "
                                         "%llu", path, (unsigned long long)k + 1,
                                         (unsigned long long)closed);
                o.closed = (int)closed;
                for (int a = 0; a < 3; a++)
                    o.lo[a] = get_f64(b), o.hi[a] = get_f64(b), o.from[a] = get_f64(b),
                    o.to[a] = get_f64(b);
                o.radius = get_f64(b);
            }
            rbl_mesh mesh;
            const int got = get_surface(b, &o.surface, &mesh);
            size_t index = 0;
            int rc = got < 0 ? rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path)
                     : !got  ? rbl_error_set(err, RBL_EPARSE, "%s: truncated %s %llu", path,
                                             what, (unsigned long long)k + 1)
                     : outlets ? rbl_sim_add_outlet(sim, &o, &index, err)
                               : rbl_sim_add_flow_counter(sim, &o.surface, &index, err);
            free(mesh.vertex), free(mesh.triangle);
            if (rc != RBL_OK)
                return rbl_error_prefix(err, rc, "%s", path);
            rbl_flow_counter *f = outlets ? &sim->outlets[index].surface : &sim->flows[index];
            if (!f->mesh && !(outlets && o.region)) /* as saved: unit */
                memcpy(f->normal, o.surface.normal, sizeof f->normal);
            rbl_exact_sum *sums = outlets ? &sim->outlet_sums[2 * index]
                                          : &sim->flow_sums[4 * index];
            for (int q = 0; q < (outlets ? 2 : 4); q++) {
                if (!get_exact(b, &sums[q]))
                    return rbl_error_set(err, RBL_EPARSE, "%s: truncated or inconsistent %s "
                                                          "%llu", path, what,
                                         (unsigned long long)k + 1);
                /* grain counts (outlets: the first; flows: the first two) whole, masses
                   finite, none below 0 */
                const double v = rbl_exact_value(&sums[q]);
                const int whole = outlets ? q == 0 : q < 2;
                if (!(v >= 0.0 && v <= 1e15) || (whole && v != floor(v)))
                    return rbl_error_set(err, RBL_EPARSE, "%s: %s %llu's %s is %g", path, what,
                                         (unsigned long long)k + 1,
                                         whole ? "grain count" : "mass", v);
            }
        }
    }
    return RBL_OK;
}

/* Wall k's motion table as the writer put it (a row count, 0: none), set on sim from its
 * start; its orientation at the last build into build_quat. The count is vouched for by the
 * bytes left before anything is allocated. */
static int load_table(buf *b, rbl_sim *sim, int k, double build_quat[4], const char *path,
                      rbl_error *err)
{
    const uint64_t n = get_u64(b);
    if (b->bad)
        return rbl_error_set(err, RBL_EPARSE, "%s: truncated wall motions", path);
    if (n == 0)
        return RBL_OK;
    const size_t row_bytes = 8 * sizeof(double);
    if (n < 2 || n > left(b) / row_bytes)
        return rbl_error_set(err, RBL_EPARSE, "%s: wall %d's motion table of %llu rows does "
                             "not fit the %zu bytes left", path, k + 1, (unsigned long long)n,
                             left(b));
    rbl_wall_table tab = {.n = (size_t)n};
    const double t0 = get_f64(b);
    for (int a = 0; a < 3; a++)
        tab.pivot[a] = get_f64(b);
    for (int a = 0; a < 4; a++)
        build_quat[a] = get_f64(b);
    rbl_motion_row *rows = malloc((size_t)n * sizeof *rows);
    if (!rows)
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for a motion table", path);
    for (size_t r = 0; r < (size_t)n; r++) {
        rows[r].t = get_f64(b);
        for (int a = 0; a < 3; a++)
            rows[r].shift[a] = get_f64(b);
        for (int a = 0; a < 4; a++)
            rows[r].quat[a] = get_f64(b);
    }
    tab.rows = rows;
    int rc = RBL_OK;
    const double len = sqrt(build_quat[0] * build_quat[0] + build_quat[1] * build_quat[1] +
                            build_quat[2] * build_quat[2] + build_quat[3] * build_quat[3]);
    if (b->bad)
        rc = rbl_error_set(err, RBL_EPARSE, "%s: truncated wall motions", path);
    else if (!(isfinite(t0) && t0 >= 0.0 && fabs(len - 1.0) <= 1e-6))
        rc = rbl_error_set(err, RBL_EPARSE, "%s: wall %d's motion table's start or pose at "
                           "the last build is out of range", path, k + 1);
    else if ((rc = rbl_wall_table_install(sim, k, &tab, t0, err)) != RBL_OK)
        rbl_error_prefix(err, rc, "%s", path);
    free(rows);
    return rc;
}

static int load_motions(buf *b, rbl_sim *sim, const char *path, rbl_error *err)
{
    for (int k = 0; k < sim->n_walls + sim->n_meshes; k++) {
        rbl_wall_pose saved;
        memset(&saved, 0, sizeof saved);
        rbl_wall_pose *p = &saved;
#define GET_M(f) p->f = get_f64(b);
        MOTION_DOUBLES(GET_M)
        p->m.servo = get_u64(b) != 0;
        const uint64_t presence = get_u64(b);
        if (b->bad)
            return rbl_error_set(err, RBL_EPARSE, "%s: truncated wall motions", path);
        if (presence > 3)
            return rbl_error_set(err, RBL_EPARSE, "%s: wall %d's presence is %llu (0-3)", path,
                                 k + 1, (unsigned long long)presence);
        int rc = rbl_sim_set_wall_motion(sim, k, &saved.m, err);
        if (rc != RBL_OK)
            return rbl_error_prefix(err, rc, "%s", path);
        double build_quat[4] = {1.0, 0.0, 0.0, 0.0};
        if (b->version >= 23 && (rc = load_table(b, sim, k, build_quat, path, err)) != RBL_OK)
            return rc; /* (format 22: no tables) */
        if (!(isfinite(saved.travel) && isfinite(saved.speed) && isfinite(saved.build_angle) &&
              isfinite(saved.reach) && isfinite(saved.build_shift[0]) &&
              isfinite(saved.build_shift[1]) && isfinite(saved.build_shift[2]) &&
              isfinite(saved.shift0[0]) && isfinite(saved.shift0[1]) &&
              isfinite(saved.shift0[2])))
            return rbl_error_set(err, RBL_EPARSE, "%s: wall %d's state is not finite", path,
                                 k + 1);
        p = rbl_wall_pose_of(sim, k);
        p->m = saved.m;
        p->off = (int)(presence & 1), p->toggled = (int)(presence >> 1);
        p->travel = saved.travel, p->speed = saved.speed, p->build_angle = saved.build_angle;
        p->reach = saved.reach;
        memcpy(p->build_quat, build_quat, sizeof p->build_quat);
        memcpy(p->build_shift, saved.build_shift, sizeof p->build_shift);
        memcpy(p->shift0, saved.shift0, sizeof p->shift0);
    }
    return RBL_OK;
}

int rbl_checkpoint_walls_valid(const rbl_sim *sim, const rbl_wall_list *w, size_t grains)
{
    const size_t wide = rbl_wall_hist_width(&sim->cfg.law);
    for (size_t q = 0; q < w->n * wide; q++)
        if (!isfinite(w->hist[q]))
            return 0;
    for (size_t q = 0; q < w->n * RBL_WALL_OUT; q++) /* results: finite, none while apart */
        if (!isfinite(w->out[q]) || (!w->touch[q / RBL_WALL_OUT] && w->out[q] != 0.0))
            return 0;
    for (size_t q = 0; q < w->n; q++) {
        uint32_t code = w->wall[q];
        if (w->grain[q] >= grains || (q && w->grain[q] < w->grain[q - 1]) || w->touch[q] > 1)
            return 0;
        /* a facet: a touching mesh contact's, of its mesh (below); none else */
        if (w->facet[q] != UINT32_MAX && !(w->touch[q] && rbl_wall_is_mesh(code)))
            return 0;
        if (!rbl_wall_is_mesh(code)) {
            if (code >= (uint32_t)sim->n_walls)
                return 0;
            continue;
        }
        uint32_t m = rbl_wall_mesh(code), slot = rbl_wall_slot(code);
        if (m >= (uint32_t)sim->n_meshes || slot > q || q - slot + RBL_MESH_SLOTS > w->n)
            return 0;
        if (w->touch[q] && w->facet[q] >= sim->meshes[m].mesh.n_triangles)
            return 0;
        size_t q0 = q - slot;
        if (w->wall[q0] != RBL_MESH_CODE(m, 0) || w->grain[q0] != w->grain[q] ||
            w->cand_lo[q] != w->cand_lo[q0] || w->cand_hi[q] != w->cand_hi[q0] ||
            w->cand_lo[q] > w->cand_hi[q] || w->cand_hi[q] > w->n_cand ||
            w->cand_hi[q] - w->cand_lo[q] > w->cand_max)
            return 0;
        for (size_t c = w->cand_lo[q]; c < w->cand_hi[q]; c++)
            if (w->cand[c] >= sim->meshes[m].mesh.n_triangles)
                return 0;
    }
    return 1;
}

/* The head (checkpoint_layout.h): the simulation made from its configuration, with its
 * materials, walls, meshes, motions, counters, outlets and the run's scalars; no grain yet. */
static int load_head(buf *b, rbl_sim **out, const char *path, rbl_error *err)
{
    *out = NULL;
    rbl_sim_config c;
    memset(&c, 0, sizeof c);
#define GET_D(f) c.f = get_f64(b);
#define GET_I(f) c.f = (__typeof__(c.f))(int64_t)get_u64(b);
    CFG_DOUBLES(GET_D)
    CFG_INTS(GET_I)
    if (b->bad)
        return rbl_error_set(err, RBL_EPARSE, "%s: truncated configuration", path);
    rbl_sim *sim = NULL;
    int rc = rbl_sim_create(&sim, &c, err);
    if (rc != RBL_OK)
        return rc;
    sim->cfg.law.collisions = c.law.collisions & (RBL_LAW_EVENTS | RBL_LAW_AGES); /* (rbl_sim_create leaves it to the
                                                        library: the histories' width) */
    uint64_t nm = get_u64(b);
    for (uint64_t m = 0; rc == RBL_OK && !b->bad && m < nm && m < 65536; m++) {
        rbl_material mt;
        mt.density = get_f64(b), mt.youngs_modulus = get_f64(b), mt.poisson_ratio = get_f64(b);
        mt.restitution = get_f64(b), mt.friction = get_f64(b);
        rc = rbl_sim_add_material(sim, &mt, NULL, err);
    }
    uint64_t n_pairs = rc == RBL_OK ? get_u64(b) : 0;
    if (!b->bad && n_pairs > left(b) / (16 + 8 * RBL_PAIR_N))
        b->bad = 1;
    for (uint64_t k = 0; rc == RBL_OK && !b->bad && k < n_pairs; k++) {
        uint64_t a = get_u64(b), c2 = get_u64(b);
        double own[RBL_PAIR_N];
        for (int s = 0; s < RBL_PAIR_N; s++)
            own[s] = get_f64(b);
        rc = b->bad ? RBL_OK
                    : rbl_sim_set_pair_own(sim, a > INT32_MAX ? -1 : (int)a,
                                           c2 > INT32_MAX ? -1 : (int)c2, own, err);
        if (rc != RBL_OK)
            rbl_error_prefix(err, rc, "%s", path);
    }
    uint64_t nw = get_u64(b);
    for (uint64_t w = 0; rc == RBL_OK && !b->bad && w < nw && w < 65536; w++) {
        rbl_wall wl;
        wl.normal[0] = get_f64(b), wl.normal[1] = get_f64(b), wl.normal[2] = get_f64(b);
        wl.offset = get_f64(b);
        wl.material = (int)get_u64(b);
        rc = rbl_sim_add_wall(sim, &wl, err);
        if (rc == RBL_OK) { /* exactly as saved: no second normalisation */
            rbl_plane *pl = &sim->walls[sim->n_walls - 1];
            memcpy(pl->n, wl.normal, sizeof pl->n), memcpy(pl->n0, wl.normal, sizeof pl->n0);
            pl->offset = pl->offset0 = wl.offset;
        }
    }
    if (rc == RBL_OK)
        rc = load_meshes(b, sim, path, err);
    if (rc == RBL_OK)
        rc = load_motions(b, sim, path, err);
    if (rc == RBL_OK)
        rc = load_flows(b, sim, path, err);
    for (int k = 0; k <= RBL_IN_N + RBL_LOSS_N; k++)
        if (!get_signed_exact(b, k < RBL_IN_N         ? &sim->health.in[k]
                          : k < RBL_IN_N + RBL_LOSS_N ? &sim->health.lost[k - RBL_IN_N]
                                                      : &sim->health.self_work) &&
            rc == RBL_OK)
            rc = rbl_error_set(err, RBL_EPARSE, "%s: the energy account is not a sum a run "
                               "can hold", path);
    sim->step = get_u64(b), sim->time = get_f64(b), sim->lost = get_u64(b);
    uint64_t next_id = get_u64(b);
    if (next_id > UINT32_MAX)
        b->bad = 1;
    sim->next_id = (uint32_t)next_id, sim->skin = get_f64(b), sim->max_disp2 = get_f64(b);
    sim->next_sort_step = get_u64(b);
    sim->gravity_valid = get_u64(b) != 0;
    sim->open_origin_set = get_u64(b) != 0;
    for (int a = 0; a < 3; a++)
        if (!isfinite(sim->open_origin[a] = get_f64(b)) && rc == RBL_OK)
            rc = rbl_error_set(err, RBL_EPARSE, "%s: open domain's origin is not finite: '%g'",
                               path, sim->open_origin[a]);
    if (b->version >= 25) { /* a sheared cell's servo (the scene sets the rest) */
        sim->shear.travel_kept = get_u64(b) != 0;
        sim->shear.travel = get_f64(b), sim->shear.strain_rate = get_f64(b);
        const double L = sim->cfg.hi[0] - sim->cfg.lo[0], W = sim->cfg.hi[1] - sim->cfg.lo[1];
        if (rc == RBL_OK && !b->bad &&
            (!isfinite(sim->shear.strain_rate) || !isfinite(sim->shear.travel) ||
             fabs(sim->shear.travel) > 0.5 * fmax(L, W)))
            rc = rbl_error_set(err, RBL_EPARSE, "%s: a sheared cell's shift (%g m) or strain "
                               "rate (%g 1/s) is not one a run can hold", path,
                               sim->shear.travel, sim->shear.strain_rate);
        if (!sim->shear.travel_kept)
            sim->shear.travel = sim->shear.strain_rate = 0.0;
    }
    if (rc == RBL_OK && b->bad)
        rc = rbl_error_set(err, RBL_EPARSE, "%s: truncated or inconsistent checkpoint head",
                           path);
    if (rc != RBL_OK) {
        rbl_sim_destroy(sim);
        return rc;
    }
    *out = sim;
    return RBL_OK;
}

/* The values each of sim's grains may have, named by their place first + k in the file: a
 * material and an id the head knows, finite values in range, a mass that follows from its
 * material and radius (a clump member's: its share of the body, positive and finite; issue
 * 41: a fuzzed mass of 5e175 ran until the health check stopped it), forces that do not kick
 * it beyond reason. */
int rbl_checkpoint_grains_check(const rbl_sim *sim, size_t first, const char *path,
                                rbl_error *err)
{
    const rbl_grains *g = &sim->g;
    int rc = RBL_OK;
    for (size_t k = 0; k < g->n && rc == RBL_OK; k++) {
        if (g->material[k] < 0 || g->material[k] >= sim->n_materials || g->id[k] >= sim->next_id)
            return rbl_error_set(err, RBL_EPARSE, "%s: grain %zu: material %d, id %u (the "
                                 "checkpoint's next id is %u)", path, first + k,
                                 (int)g->material[k], g->id[k], sim->next_id);
        rc = rbl_grain_values_check(g->pos + 3 * k, g->vel + 3 * k, g->omega + 3 * k,
                                    g->radius[k], err);
        if (rc == RBL_OK)
            rc = rbl_grain_mass_check(sim, k, err);
        if (rc == RBL_OK)
            rc = kick_check(sim, k, err);
        const double *lost = g->loss + 3 * k;
        if (rc == RBL_OK && !(isfinite(lost[0] + lost[1] + lost[2] + g->loss_cohesion[k])))
            rc = rbl_error_set(err, RBL_EPARSE, "the energy it dissipated is not finite "
                               "(%g, %g, %g, %g J)", lost[0], lost[1], lost[2],
                               g->loss_cohesion[k]);
        if (rc != RBL_OK)
            rbl_error_prefix(err, rc, "%s: grain %zu", path, first + k);
    }
    return rc;
}

/* The external forces the grains' forces hold and those asked for, as read: kept when one is
 * not zero (the first refresh takes them out of the forces, or keeps them as the caller sets
 * them again; those asked for are the run's to hold for a hook that resumes), else none kept
 * (a run that never had any gathers as it did: no +0.0 added to its forces). */
void rbl_checkpoint_external_kept(rbl_grains *g)
{
    for (size_t k = 0; k < 3 * g->n; k++)
        if (g->fext_applied[k] != 0.0 || g->fext[k] != 0.0)
            return;
    free(g->fext), free(g->fext_applied);
    g->fext = g->fext_applied = NULL;
    g->with_fext = 0;
}

/* Pairs q of p: first grains from lo up to hi, in order; second grains below n; images,
 * touch flags and histories as a list holds them (fuzz_checkpoint); results (out, in pair
 * order) finite, and zeros where the pair does not touch (the gather sums every slot). */
int rbl_checkpoint_pairs_valid(const rbl_pair_list *p, const double *out, size_t width,
                               size_t lo, size_t hi, size_t n)
{
    for (size_t q = 0; q < p->n; q++)
        if (p->i[q] < lo || p->i[q] >= hi || p->j[q] >= n || p->image[q] > 26 ||
            p->touch[q] > 1 || (q && p->i[q] < p->i[q - 1]))
            return 0;
    for (size_t q = 0; q < p->n * width; q++)
        if (!isfinite(p->hist[q]))
            return 0;
    for (size_t q = 0; q < p->n * RBL_PAIR_OUT; q++)
        if (!isfinite(out[q]) || (!p->touch[q / RBL_PAIR_OUT] && out[q] != 0.0))
            return 0;
    return 1;
}

/* The grains, clumps and lists after the head: arrays of the loaded sizes, filled from the
 * payload. */
static int load_grains(buf *b, rbl_sim *sim, const char *path, rbl_error *err)
{
    int rc = RBL_OK;
    uint64_t n = get_u64(b);
    if (rc == RBL_OK && (b->bad || n > left(b) / CKPT_GRAIN_BYTES))
        rc = rbl_error_set(err, RBL_EPARSE, "%s: truncated or inconsistent grain data", path);
    rbl_grains *g = &sim->g;
    if (rc == RBL_OK)
        rc = rbl_grains_reserve(g, n, err);
    if (rc == RBL_OK) /* read into, then dropped if zero (rbl_checkpoint_external_kept) */
        rc = rbl_grains_external(g, err);
    if (rc == RBL_OK) {
        g->n = n;
#define GET_VEC(f) get(b, g->f, 3 * n * sizeof(double));
#define GET_DBL(f) get(b, g->f, n * sizeof(double));
        GRAIN_VECS(GET_VEC)
        GRAIN_DBLS(GET_DBL)
        get(b, g->id, n * sizeof *g->id);
        get(b, g->material, n * sizeof *g->material);
        get(b, g->contacts, n * sizeof *g->contacts);
        get(b, g->body, n * sizeof *g->body);
        get(b, g->slot, n * sizeof *g->slot);
        rbl_checkpoint_external_kept(g);
        if (!b->bad)
            rc = rbl_checkpoint_grains_check(sim, 0, path, err);
        if (rc == RBL_OK && !b->bad && !ids_unique(g->id, n))
            rc = rbl_error_set(err, RBL_EPARSE, "%s: two grains share one id", path);
    }
    if (rc == RBL_OK)
        rc = load_bodies(b, sim, path, err);
    rbl_pair_list *p = &sim->pairs;
    const size_t width = rbl_hist_width(&sim->cfg.law);
    uint64_t np = rc == RBL_OK ? get_u64(b) : 0;
    /* a pair's bytes: i, j, image, touch, history, results */
    if (rc == RBL_OK && (b->bad || np > left(b) / (10 + 8 * (width + RBL_PAIR_OUT))))
        rc = rbl_error_set(err, RBL_EPARSE, "%s: truncated or inconsistent contact data", path);
    if (rc == RBL_OK)
        rc = rbl_pair_list_reserve(p, np + 1, n, width, err);
    double *outs = rc == RBL_OK ? malloc((np * RBL_PAIR_OUT + 1) * sizeof *outs) : NULL;
    if (rc == RBL_OK && !outs)
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    if (rc == RBL_OK) {
        p->n = np;
        get(b, p->i, np * sizeof *p->i), get(b, p->j, np * sizeof *p->j);
        get(b, p->image, np), get(b, p->touch, np);
        get(b, p->hist, np * width * sizeof *p->hist);
        get(b, outs, np * RBL_PAIR_OUT * sizeof *outs);
        if (!b->bad && !rbl_checkpoint_pairs_valid(p, outs, width, 0, n, n))
            rc = rbl_error_set(err, RBL_EPARSE, "%s: inconsistent pair contacts (a pair's "
                               "grains, image, touch flag, history or results)", path);
    }
    rbl_wall_list *w = &sim->wpairs;
    const size_t wide = rbl_wall_hist_width(&sim->cfg.law);
    uint64_t nwc = rc == RBL_OK ? get_u64(b) : 0;
    /* a wall contact's bytes: grain, wall, touch, history, results, facet, candidates */
    if (rc == RBL_OK && (b->bad || nwc > left(b) / (29 + 8 * (wide + RBL_WALL_OUT))))
        rc = rbl_error_set(err, RBL_EPARSE, "%s: truncated or inconsistent wall data", path);
    if (rc == RBL_OK && !rbl_wall_list_reserve(w, nwc + 1, n, wide))
        rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
    if (rc == RBL_OK) {
        w->n = nwc;
        get(b, w->grain, nwc * sizeof *w->grain), get(b, w->wall, nwc * sizeof *w->wall);
        get(b, w->touch, nwc);
        get(b, w->hist, nwc * wide * sizeof *w->hist);
        get(b, w->out, nwc * RBL_WALL_OUT * sizeof *w->out);
        get(b, w->facet, nwc * sizeof *w->facet);
        get(b, w->cand_lo, nwc * sizeof *w->cand_lo), get(b, w->cand_hi, nwc * sizeof *w->cand_hi);
        for (size_t q = 0; q < nwc; q++) /* this step's, added to the wear after the wall pass */
            w->worn[q] = 0.0;
        uint64_t n_cand = get_u64(b), cand_max = get_u64(b);
        if (b->bad || n_cand > left(b) / sizeof *w->cand) {
            b->bad = 1;
        } else if (!rbl_grow_array((void **)&w->cand, &w->cand_cap, n_cand + 1, sizeof *w->cand)) {
            rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
        } else {
            w->n_cand = n_cand, w->cand_max = cand_max;
            get(b, w->cand, n_cand * sizeof *w->cand);
        }
        b->bad = b->bad || !rbl_checkpoint_walls_valid(sim, w, n);
    }
    if (rc == RBL_OK && b->bad)
        rc = rbl_error_set(err, RBL_EPARSE, "%s: inconsistent checkpoint contents", path);
    /* The gather tables follow from the lists, exactly as the build made them; then each
     * touching pair's results into its slot (the others hold zeros). */
    if (rc == RBL_OK)
        rc = rbl_pair_list_index(p, n, g->id, sim->threads, err);
    for (size_t q = 0; rc == RBL_OK && q < p->n; q++)
        if (p->touch[q])
            memcpy(p->out + RBL_PAIR_OUT * (size_t)p->jpos[q], outs + RBL_PAIR_OUT * q,
                   RBL_PAIR_OUT * sizeof *outs);
    free(outs);
    if (rc == RBL_OK)
        rbl_wall_list_index(w, n);
    if (rc == RBL_OK) { /* the bonds (format 20), checked against the grains just read */
        size_t used = 0;
        rc = rbl_bonds_state_read(sim, b->p + b->at, b->at <= b->len ? b->len - b->at : 0,
                                  &used, 0, path, err);
        b->at += used;
    }
    return rc;
}

int rbl_checkpoint_loaded(rbl_sim *sim, rbl_error *err)
{
    int rc = rbl_sim_check_law(sim, err); /* coefficients; kt was defaulted before saving */
    if (rc != RBL_OK)
        return rc;
    rbl_walls_move_to(sim, sim->time);
    /* The grid and cell tables are rebuilt at the next neighbour build; until then the lists
     * serve. */
    sim->prepared = 1;
    sim->fresh_from = sim->next_id; /* its grains came before its forces (account.c) */
    return RBL_OK;
}

int rbl_checkpoint_read_head(const void *bytes, size_t have, size_t total, uint32_t version,
                             const char *path, rbl_sim **out, size_t *used, int *more,
                             rbl_error *err)
{
    buf b = {.version = version, .p = (unsigned char *)bytes, .len = have, .total = total};
    int rc = load_head(&b, out, path, err);
    *used = b.at, *more = b.more;
    return rc;
}

/* The whole simulation from the payload. */
static int load_state(buf *b, rbl_sim **out, const char *path, rbl_error *err)
{
    rbl_sim *sim = NULL;
    int rc = load_head(b, &sim, path, err);
    if (rc == RBL_OK)
        rc = load_grains(b, sim, path, err);
    if (rc == RBL_OK)
        rc = rbl_checkpoint_loaded(sim, err);
    if (rc != RBL_OK) {
        rbl_sim_destroy(sim);
        return rc;
    }
    *out = sim;
    return RBL_OK;
}

int rbl_checkpoint_read(const char *path, rbl_sim **sim, void **extra, size_t *extra_len,
                        rbl_error *err)
{
    *sim = NULL;
    if (extra)
        *extra = NULL, *extra_len = 0;
    buf b = {0};
    void *payload;
    int rc = rbl_checkpoint_file_read(path, CKPT_MAGIC, CKPT_VERSION, &b.version, &payload,
                                      &b.len, err);
    b.p = payload;
    if (rc == RBL_OK)
        rc = load_state(&b, sim, path, err);
    if (rc == RBL_OK && extra) {
        uint64_t len = get_u64(&b);
        if (b.bad || len > b.len - b.at) {
            rc = rbl_error_set(err, RBL_EPARSE, "%s: truncated run state", path);
        } else {
            *extra = malloc(len ? len : 1);
            if (!*extra) {
                rc = rbl_error_set(err, RBL_ENOMEM, "%s: out of memory", path);
            } else {
                get(&b, *extra, len);
                *extra_len = len;
            }
        }
        if (rc != RBL_OK) {
            rbl_sim_destroy(*sim);
            *sim = NULL;
        }
    }
    free(b.p);
    return rc;
}

int rbl_sim_load(const char *path, rbl_sim **sim, rbl_error *err)
{
    return rbl_checkpoint_read(path, sim, NULL, NULL, err);
}
