/* wall_wear.c — what the grains do to a mesh wall's facets (issue 43): the load on each (its
 * force, pressure and shear, as LIGGGHTS's mesh/surface/stress), and the depth worn off each
 * step by step, Archard's sliding wear and Finnie's erosion (the rules in rubble.h at
 * rbl_sim_set_mesh_wear). A contact belongs to the facet its point lies on (the one
 * mesh_contact.c found it on: for a contact on an edge or a corner, the first facet there).
 * Both are sums per facet in the order of the grains' ids (contacts_by_facet), so the same for
 * any number of threads and any order of the grains in memory. */
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

/* The touching contacts of mesh wall `mesh` (all meshes with wear: mesh < 0) on this
 * process's grains, as wall-list slots in the order of (mesh, facet, grain id): sums per facet
 * in that order do not depend on the grains' order in memory. *slots is malloc'ed; the count,
 * or SIZE_MAX when out of memory. */
static size_t contacts_by_facet(const rbl_sim *sim, int mesh, uint32_t **slots)
{
    const rbl_wall_list *w = &sim->wpairs;
    *slots = NULL;
    size_t n = 0;
    for (size_t q = 0; q < w->n; q++)
        n += w->touch[q] && rbl_wall_is_mesh(w->wall[q]) && w->grain[q] < sim->g.n;
    if (w->n > UINT32_MAX)
        return SIZE_MAX;
    uint64_t *keys = malloc(2 * (n + 1) * sizeof *keys);
    uint32_t *vals = malloc(2 * (n + 1) * sizeof *vals);
    if (!keys || !vals) {
        free(keys), free(vals);
        return SIZE_MAX;
    }
    size_t k = 0;
    for (size_t q = 0; q < w->n; q++) {
        const uint32_t code = w->wall[q];
        if (!w->touch[q] || !rbl_wall_is_mesh(code) || w->grain[q] >= sim->g.n)
            continue;
        const int m = (int)rbl_wall_mesh(code);
        if (mesh >= 0 ? m != mesh : !sim->meshes[m].wear)
            continue;
        /* 8 bits of mesh, 24 of facet, 32 of id: a mesh of more facets (or a 257th mesh)
         * shares a key's high half with another, which only breaks ties by memory order */
        keys[k] = (uint64_t)(m & 0xff) << 56 | (uint64_t)(w->facet[q] & 0xffffff) << 32 |
                  sim->g.id[w->grain[q]];
        vals[k++] = (uint32_t)q;
    }
    rbl_radix_sort_u64(keys, vals, k, 64, keys + n + 1, vals + n + 1);
    free(keys);
    *slots = vals;
    return k;
}

int rbl_walls_wear_add(rbl_sim *sim, rbl_error *err)
{
    const rbl_wall_list *w = &sim->wpairs;
    uint32_t *slots;
    const size_t n = contacts_by_facet(sim, -1, &slots);
    if (n == SIZE_MAX)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the wear of %zu wall contacts",
                             w->n);
    for (size_t k = 0; k < n; k++) {
        const size_t q = slots[k];
        const int mesh = (int)rbl_wall_mesh(w->wall[q]);
        rbl_mesh_wall *mw = &sim->meshes[mesh];
        const uint32_t t = w->facet[q];
        if (t < mw->mesh.n_triangles)
            mw->wear[t] += w->worn[q] / facet_area(sim, mesh, t);
    }
    free(slots);
    return RBL_OK;
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
    const rbl_mesh *m = &mw->mesh;
    const size_t nt = m->n_triangles;
    if (wear) {
        if (mw->wear)
            memcpy(wear, mw->wear, nt * sizeof *wear);
        else
            memset(wear, 0, nt * sizeof *wear);
    }
    if (!force && !pressure && !shear)
        return RBL_OK;
    double *sum = calloc(7 * nt + 1, sizeof *sum); /* per facet: force, normal, tangential */
    uint32_t *slots = NULL;
    const size_t n = sum ? contacts_by_facet(sim, mesh, &slots) : SIZE_MAX;
    if (n == SIZE_MAX) {
        free(sum);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the loads of %zu facets", nt);
    }
    const rbl_wall_list *w = &sim->wpairs;
    const size_t wide = rbl_wall_hist_width(&sim->cfg.law), width = rbl_hist_width(&sim->cfg.law);
    for (size_t k = 0; k < n; k++) { /* in (facet, id) order: the same sums in any memory order */
        const size_t q = slots[k];
        const uint32_t t = w->facet[q];
        if (t < nt)
            add_load(sum + 7 * (size_t)t, w->out + RBL_WALL_OUT * q, w->hist + wide * q + width);
    }
    free(slots);
    for (size_t t = 0; t < nt; t++) {
        const double *s = sum + 7 * t;
        if (force)
            force[3 * t] = s[0], force[3 * t + 1] = s[1], force[3 * t + 2] = s[2];
        if (pressure || shear) {
            /* a facet wholly outside a periodic box: nothing presses on it, 0 (not 0 / 0) */
            const double area = facet_area(sim, mesh, t);
            if (pressure)
                pressure[t] = area > 0.0 ? s[3] / area : 0.0;
            if (shear)
                shear[t] = area > 0.0 ? sqrt(dot3(s + 4, s + 4)) / area : 0.0;
        }
    }
    free(sum);
    return RBL_OK;
}

void rbl_plane_load(const rbl_sim *sim, int plane, double force[3], double *normal,
                    double tangential[3])
{
    const rbl_wall_list *w = &sim->wpairs;
    const double *n = sim->walls[plane].n;
    double s[7] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    for (size_t q = 0; q < w->n; q++) {
        if (!w->touch[q] || w->wall[q] != (uint32_t)plane || w->grain[q] >= sim->g.n)
            continue;
        add_load(s, w->out + RBL_WALL_OUT * q, n);
    }
    for (int a = 0; a < 3; a++)
        force[a] = s[a], tangential[a] = s[4 + a];
    *normal = s[3];
}
