/* wall_wear.c — what the grains do to a mesh wall's facets (issue 43): the load on each (its
 * force, pressure and shear, as LIGGGHTS's mesh/surface/stress), and the depth worn off each
 * step by step, Archard's sliding wear and Finnie's erosion (the rules in rubble.h at
 * rbl_sim_set_mesh_wear). A contact belongs to the facet its point lies on (the one
 * mesh_contact.c found it on: for a contact on an edge or a corner, the first facet there).
 * Both are sums per facet in the order of the grains' ids (records_order), so the same for
 * any number of threads, any order of the grains in memory and any number of processes (each
 * process's contacts gathered on every one, issue 74). */
#include "contact_kernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The area of mesh wall `mesh`'s facet t where it is now, within the domain's box along the
 * periodic axes: the part its grains can press on (a grain's centre, and so its contact point,
 * lies in the box along them; a mesh that overhangs the box, as examples/hopper.stl does,
 * is pressed on the part inside only). */
static double facet_area(const rbl_sim *sim, int mesh, size_t t)
{
    const rbl_mesh *m = &sim->meshes[mesh].mesh;
    const uint32_t *c = m->triangle + 3 * t;
    double x0[9], p[RBL_POLYGON_MAX][3];
    for (int e = 0; e < 3; e++)
        memcpy(x0 + 3 * e, m->vertex + 3 * (size_t)c[e], 3 * sizeof *x0);
    rbl_sim_wall_place(sim, sim->n_walls + mesh, x0, 3, &p[0][0]);
    int n = 3;
    for (int a = 0; a < 3; a++)
        if (sim->cfg.periodic[a]) {
            n = rbl_polygon_clip(p, n, a, sim->cfg.lo[a], 1.0, 0.0);
            n = rbl_polygon_clip(p, n, a, sim->cfg.hi[a], -1.0, 0.0);
        }
    return rbl_polygon_area(p, n);
}

/* A contact's force f on its grain, n from the wall to the grain, into a load's sums: the
 * force on the wall (3), the normal force pressing it, the tangential force (3). */
static void add_load(double s[7], const double *f, const double *n)
{
    const double fn = dot3(f, n);
    for (int a = 0; a < 3; a++)
        s[a] -= f[a], s[4 + a] += f[a] - fn * n[a];
    s[3] += fn;
}

/* Finnie's function of the angle g between the impact velocity and the surface, from its
 * sine and cosine. */
static double finnie_angle(double sin_g, double cos_g)
{
    if (3.0 * sin_g > cos_g) /* tan g > 1/3 */
        return cos_g * cos_g / 3.0;
    return 2.0 * sin_g * cos_g - 3.0 * sin_g * sin_g;
}

double rbl_wear_volume(const rbl_mesh_wall *mw, const double n[3], const double v_contact[3],
                       const double v_centre[3], const double f[3], double dt)
{
    double volume = 0.0;
    const double fn = dot3(f, n);
    if (mw->archard > 0.0 && fn > 0.0) {
        const double vn = dot3(v_contact, n);
        double vt[3] = {v_contact[0] - vn * n[0], v_contact[1] - vn * n[1],
                        v_contact[2] - vn * n[2]};
        volume += mw->archard * fn * sqrt(dot3(vt, vt)) * dt;
    }
    const double vn = dot3(v_centre, n), speed = sqrt(dot3(v_centre, v_centre));
    if (mw->finnie > 0.0 && vn <= 0.0 && speed > 0.0) { /* not moving away */
        const double sin_g = fmin(1.0, -vn / speed);
        const double cos_g = sqrt(fmax(0.0, 1.0 - sin_g * sin_g));
        volume += 2.0 * mw->finnie * speed * sqrt(dot3(f, f)) * finnie_angle(sin_g, cos_g) * dt;
    }
    return volume;
}

int rbl_walls_wearing(const rbl_sim *sim)
{
    for (int m = 0; m < sim->n_meshes; m++)
        if (sim->meshes[m].wear)
            return 1;
    return 0;
}

/* A touching wall contact as a record of doubles: its wall (planes, then meshes), facet and
 * grain id (exact integers), then its values: the worn volume (WEAR), or the force on the
 * grain and the normal from the wall (LOAD). */
enum { KEY_W = 3, WEAR_W = KEY_W + 1, LOAD_W = KEY_W + 6 };

/* This process's touching contacts on its own grains with wall `wall` (-1: every mesh that
 * wears, with their worn volumes; else the loads of that wall, or of every wall: -2), then,
 * over several processes, every process's (sim->peers: gathered on each, in rank order):
 * *recs malloc'ed, of width doubles each. The count, or SIZE_MAX with err set. Collective
 * over several processes. */
static size_t contact_records(const rbl_sim *sim, int wall, double **recs, rbl_error *err)
{
    const rbl_wall_list *w = &sim->wpairs;
    const int wear = wall == -1, width = wear ? WEAR_W : LOAD_W;
    const size_t wide = rbl_wall_hist_width(&sim->cfg.law), hw = rbl_hist_width(&sim->cfg.law);
    size_t n = 0;
    for (size_t q = 0; q < w->n; q++)
        n += w->touch[q] && w->grain[q] < sim->g.n;
    double *r = malloc((n * (size_t)width + 1) * sizeof *r);
    if (!r) {
        *recs = NULL;
        rbl_error_set(err, RBL_ENOMEM, "out of memory for the loads of %zu wall contacts", n);
        n = SIZE_MAX;
    } else {
        size_t k = 0;
        for (size_t q = 0; q < w->n; q++) {
            const uint32_t code = w->wall[q];
            if (!w->touch[q] || w->grain[q] >= sim->g.n)
                continue;
            const int mesh = rbl_wall_is_mesh(code), m = mesh ? (int)rbl_wall_mesh(code) : -1;
            const int at = mesh ? sim->n_walls + m : (int)code; /* planes, then meshes */
            if (wear ? !mesh || !sim->meshes[m].wear : wall >= 0 && at != wall)
                continue;
            double *p = r + k++ * (size_t)width;
            p[0] = at, p[1] = mesh ? w->facet[q] : 0.0, p[2] = sim->g.id[w->grain[q]];
            if (wear) {
                p[3] = w->worn[q];
                continue;
            }
            memcpy(p + 3, w->out + RBL_WALL_OUT * q, 3 * sizeof *p);
            memcpy(p + 6, mesh ? w->hist + wide * q + hw : sim->walls[code].n, 3 * sizeof *p);
        }
        n = k;
    }
    *recs = r;
    if (!sim->peers) /* one process */
        return n;
    /* every process's (each rank's in its order: the sort below makes them one order) */
    double *all = NULL;
    size_t cap = 0, first = 0, total = 0;
    int rc = sim->peers->allgather(sim->peers->ctx, r, n == SIZE_MAX ? 0 : n * (size_t)width,
                                   &all, &cap, &first, &total, err);
    if (rc == RBL_OK && n == SIZE_MAX)
        rc = RBL_ENOMEM;
    free(r);
    *recs = rc == RBL_OK ? all : (free(all), NULL);
    return rc == RBL_OK ? total / (size_t)width : SIZE_MAX;
}

/* The n records' order by (wall, facet, grain id): sums per facet in that order do not
 * depend on the grains' order in memory, nor on which process holds them. malloc'ed; NULL
 * when out of memory. */
static uint32_t *records_order(const double *recs, size_t n, int width)
{
    uint64_t *keys = malloc(2 * (n + 1) * sizeof *keys);
    uint32_t *vals = malloc(2 * (n + 1) * sizeof *vals);
    if (!keys || !vals || n > UINT32_MAX) {
        free(keys), free(vals);
        return NULL;
    }
    for (size_t k = 0; k < n; k++) {
        const double *p = recs + k * (size_t)width;
        /* 8 bits of wall, 24 of facet, 32 of id: a mesh of more facets (or a 257th wall)
         * shares a key's high half with another, which interleaves their contacts but keeps
         * each facet's in id order */
        keys[k] = (uint64_t)((uint32_t)p[0] & 0xff) << 56 |
                  (uint64_t)((uint32_t)p[1] & 0xffffff) << 32 | (uint32_t)p[2];
        vals[k] = (uint32_t)k;
    }
    rbl_radix_sort_u64(keys, vals, n, 64, keys + n + 1, vals + n + 1);
    free(keys);
    return vals;
}

int rbl_walls_wear_add(rbl_sim *sim, rbl_error *err)
{
    double *recs;
    const size_t n = contact_records(sim, -1, &recs, err);
    uint32_t *order = n == SIZE_MAX ? NULL : records_order(recs, n, WEAR_W);
    if (!order) {
        free(recs);
        return n == SIZE_MAX ? err->code
                             : rbl_error_set(err, RBL_ENOMEM, "out of memory for the wear of "
                                             "%zu wall contacts", n);
    }
    for (size_t k = 0; k < n; k++) {
        const double *p = recs + (size_t)order[k] * WEAR_W;
        const int mesh = (int)p[0] - sim->n_walls;
        rbl_mesh_wall *mw = &sim->meshes[mesh];
        const size_t t = (size_t)p[1];
        if (t < mw->mesh.n_triangles)
            mw->wear[t] += p[3] / facet_area(sim, mesh, t);
    }
    free(order), free(recs);
    return RBL_OK;
}

int rbl_walls_load_sums(const rbl_sim *sim, int wall, double *sums, rbl_error *err)
{
    size_t cells = 0; /* the meshes' facets, then the planes (one cell each) */
    size_t *first = malloc(((size_t)sim->n_walls + (size_t)sim->n_meshes + 1) * sizeof *first);
    if (!first)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the walls' loads");
    for (int m = 0; m < sim->n_meshes; m++)
        first[sim->n_walls + m] = cells, cells += sim->meshes[m].mesh.n_triangles;
    for (int p = 0; p < sim->n_walls; p++)
        first[p] = cells++;
    if (wall >= 0) /* that wall's cells alone, from sums[0] */
        cells = wall >= sim->n_walls ? sim->meshes[wall - sim->n_walls].mesh.n_triangles : 1;
    memset(sums, 0, 7 * cells * sizeof *sums);
    double *recs;
    const size_t n = contact_records(sim, wall >= 0 ? wall : -2, &recs, err);
    uint32_t *order = n == SIZE_MAX ? NULL : records_order(recs, n, LOAD_W);
    if (!order) {
        free(recs), free(first);
        return n == SIZE_MAX ? err->code
                             : rbl_error_set(err, RBL_ENOMEM, "out of memory for the loads of "
                                             "%zu wall contacts", n);
    }
    for (size_t k = 0; k < n; k++) { /* in (facet, id) order: the same sums in any order */
        const double *p = recs + (size_t)order[k] * LOAD_W;
        const int at = (int)p[0];
        const size_t t = (size_t)p[1];
        const size_t nt = at >= sim->n_walls ? sim->meshes[at - sim->n_walls].mesh.n_triangles
                                             : 1;
        if (t < nt)
            add_load(sums + 7 * ((wall >= 0 ? 0 : first[at]) + t), p + 3, p + 6);
    }
    free(order), free(recs), free(first);
    return RBL_OK;
}

void rbl_load_cell(const double s[7], double area, double *pressure, double *shear)
{
    /* a facet wholly outside a periodic box: nothing presses on it, 0 (not 0 / 0) */
    *pressure = area > 0.0 ? s[3] / area : 0.0;
    *shear = area > 0.0 ? sqrt(dot3(s + 4, s + 4)) / area : 0.0;
}

double rbl_mesh_facet_area(const rbl_sim *sim, int mesh, size_t t)
{
    return facet_area(sim, mesh, t);
}

int rbl_sim_set_mesh_wear(rbl_sim *sim, int mesh, double archard, double finnie, rbl_error *err)
{
    if (mesh < 0 || mesh >= sim->n_meshes)
        return rbl_error_set(err, RBL_EINVAL, "wear: index %d names no mesh wall (%d added: "
                             "indices from 0)", mesh, sim->n_meshes);
    if (!(archard >= 0.0 && archard <= 1.0) || !(finnie >= 0.0 && finnie <= 1.0))
        return rbl_error_set(err, RBL_EINVAL,
                             "wear of wall %d (mesh index %d): coefficients %g (Archard) and %g "
                             "(Finnie) must be finite, >= 0 and at most 1 (1/Pa)",
                             sim->n_walls + mesh + 1, mesh, archard, finnie);
    rbl_mesh_wall *mw = &sim->meshes[mesh];
    const size_t nt = mw->mesh.n_triangles;
    if (archard == 0.0 && finnie == 0.0) {
        free(mw->wear);
        mw->wear = NULL;
    } else if (!mw->wear && !(mw->wear = calloc(nt, sizeof *mw->wear))) {
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the wear of %zu facets", nt);
    }
    mw->archard = archard, mw->finnie = finnie;
    return RBL_OK;
}

size_t rbl_sim_mesh_facets(const rbl_sim *sim, int mesh)
{
    return mesh >= 0 && mesh < sim->n_meshes ? sim->meshes[mesh].mesh.n_triangles : 0;
}

int rbl_sim_mesh_loads(const rbl_sim *sim, int mesh, double *force, double *pressure,
                       double *shear, double *wear, rbl_error *err)
{
    if (mesh < 0 || mesh >= sim->n_meshes)
        return rbl_error_set(err, RBL_EINVAL, "loads: index %d names no mesh wall (%d added: "
                             "indices from 0)", mesh, sim->n_meshes);
    const rbl_mesh_wall *mw = &sim->meshes[mesh];
    const size_t nt = mw->mesh.n_triangles;
    if (wear) {
        if (mw->wear)
            memcpy(wear, mw->wear, nt * sizeof *wear);
        else
            memset(wear, 0, nt * sizeof *wear);
    }
    if (!force && !pressure && !shear)
        return RBL_OK;
    double *sum = malloc((7 * nt + 1) * sizeof *sum); /* per facet: force, normal, tangential */
    if (!sum)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the loads of %zu facets", nt);
    int rc = rbl_walls_load_sums(sim, sim->n_walls + mesh, sum, err);
    for (size_t t = 0; rc == RBL_OK && t < nt; t++) {
        const double *s = sum + 7 * t;
        if (force)
            force[3 * t] = s[0], force[3 * t + 1] = s[1], force[3 * t + 2] = s[2];
        double p, sh;
        if (pressure || shear)
            rbl_load_cell(s, facet_area(sim, mesh, t), &p, &sh);
        if (pressure)
            pressure[t] = p;
        if (shear)
            shear[t] = sh;
    }
    free(sum);
    return rc;
}
