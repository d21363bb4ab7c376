/* walls_vtp.c — the walls where they are now, for ParaView: each plane as the polygon it cuts
 * from the domain's box (an open domain has no box: the shadow on the plane of the box around
 * the grains and the mesh walls, widened by the largest grain), each mesh wall as its facets; a point array `wall`
 * gives each corner's wall number as in thermo.csv's columns (planes, then meshes, from 1).
 * With the loads (output.wall_loads, or a mesh that wears), cell arrays: force (N, what the
 * grains exert on the cell), pressure and shear (Pa: their normal force, positive pressing,
 * and the magnitude of their tangential force over its area) and wear (m, the depth worn). */
#include "io_internal.h"
#include "../dem/dem_internal.h"
#include "../shape/shape_internal.h" /* rbl_cross3 */
#include "../fdo/fdo_internal.h"     /* an impulse scene's planes and tubes */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The plane n . x + offset = 0's directions u, v (u x v = n) and its point nearest c. */
static void plane_frame(const double n[3], double offset, const double c[3], double u[3],
                        double v[3], double foot[3])
{
    const int least = fabs(n[0]) <= fabs(n[1]) && fabs(n[0]) <= fabs(n[2]) ? 0
                      : fabs(n[1]) <= fabs(n[2])                          ? 1
                                                                          : 2;
    double e[3] = {0.0, 0.0, 0.0};
    e[least] = 1.0;
    rbl_cross3(n, e, u);
    const double lu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int a = 0; a < 3; a++)
        u[a] /= lu;
    rbl_cross3(n, u, v);
    const double s = n[0] * c[0] + n[1] * c[1] + n[2] * c[2] + offset;
    for (int a = 0; a < 3; a++)
        foot[a] = c[a] - s * n[a];
}

/* The polygon the plane cuts from the box lo..hi, corners wound about n, into p; its corner
 * count (0 where it misses the box). A square in the plane wider than the box, clipped by the
 * box's six sides (a floor on a side of the box gives that side). */
static int plane_in_box(const double n[3], double offset, const double lo[3], const double hi[3],
                        double p[RBL_POLYGON_MAX][3])
{
    double c[3], span = 0.0, u[3], v[3], foot[3];
    for (int a = 0; a < 3; a++)
        c[a] = 0.5 * (lo[a] + hi[a]), span += (hi[a] - lo[a]) * (hi[a] - lo[a]);
    span = sqrt(span);
    plane_frame(n, offset, c, u, v, foot);
    static const double corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int k = 0; k < 4; k++)
        for (int a = 0; a < 3; a++)
            p[k][a] = foot[a] + span * (corner[k][0] * u[a] + corner[k][1] * v[a]);
    int m = 4;
    const double tol = 1e-12 * span;
    for (int a = 0; a < 3 && m >= 3; a++) {
        m = rbl_polygon_clip(p, m, a, lo[a], 1.0, tol);
        m = rbl_polygon_clip(p, m, a, hi[a], -1.0, tol);
    }
    return m >= 3 ? m : 0;
}

/* The box lo..hi's shadow on the plane (along n), the hull of its corners' shadows wound
 * about n, into p; its corner count (at most 6; 0 for a box of no breadth across n). */
static int box_shadow(const double n[3], double offset, const double lo[3], const double hi[3],
                      double p[RBL_POLYGON_MAX][3])
{
    double c[3], u[3], v[3], foot[3], q[8][2];
    for (int a = 0; a < 3; a++)
        c[a] = 0.5 * (lo[a] + hi[a]);
    plane_frame(n, offset, c, u, v, foot);
    for (int k = 0; k < 8; k++) {
        double x[3];
        for (int a = 0; a < 3; a++)
            x[a] = (k >> a & 1 ? hi[a] : lo[a]) - c[a];
        q[k][0] = x[0] * u[0] + x[1] * u[1] + x[2] * u[2];
        q[k][1] = x[0] * v[0] + x[1] * v[1] + x[2] * v[2];
    }
    for (int k = 1; k < 8; k++) /* by u, then v (insertion) */
        for (int j = k; j > 0 && (q[j][0] < q[j - 1][0] ||
                                  (q[j][0] == q[j - 1][0] && q[j][1] < q[j - 1][1]));
             j--) {
            double t0 = q[j][0], t1 = q[j][1];
            q[j][0] = q[j - 1][0], q[j][1] = q[j - 1][1], q[j - 1][0] = t0, q[j - 1][1] = t1;
        }
    int h[16], m = 0; /* Andrew's monotone chain: the lower hull, then the upper */
    for (int pass = 0; pass < 2; pass++) {
        const int base = m;
        for (int j = 0; j < 8; j++) {
            const int k = pass ? 7 - j : j;
            while (m >= base + 2) {
                const double *a = q[h[m - 2]], *b = q[h[m - 1]];
                if ((b[0] - a[0]) * (q[k][1] - a[1]) - (b[1] - a[1]) * (q[k][0] - a[0]) > 0.0)
                    break;
                m--;
            }
            h[m++] = k;
        }
        m--; /* each chain's last corner starts the other */
    }
    if (m < 3 || m > 6)
        return 0;
    for (int k = 0; k < m; k++)
        for (int a = 0; a < 3; a++)
            p[k][a] = foot[a] + q[h[k]][0] * u[a] + q[h[k]][1] * v[a];
    return m;
}

void rbl_walls_grains_box(const rbl_sim *sim, double box[7])
{
    for (int a = 0; a < 3; a++)
        box[a] = INFINITY, box[3 + a] = -INFINITY;
    box[6] = 0.0;
    for (size_t k = 0; k < sim->g.n; k++) {
        box[6] = fmax(box[6], sim->g.radius[k]);
        for (int a = 0; a < 3; a++)
            box[a] = fmin(box[a], sim->g.pos[3 * k + a]),
            box[3 + a] = fmax(box[3 + a], sim->g.pos[3 * k + a]);
    }
}

/* The box the planes are drawn by: the domain's (each plane cut from it); an open domain's,
 * the grains (grains_box: over every process; NULL: this one's) and the mesh walls with the
 * largest grain's radius around them (each plane its shadow, wherever the plane is); 0:
 * nothing to frame them by. */
static int drawing_box(const rbl_sim *sim, const double *grains_box, const double *mesh_points,
                       size_t n_mesh_points, double lo[3], double hi[3])
{
    if (!sim->cfg.open) {
        for (int a = 0; a < 3; a++)
            lo[a] = sim->cfg.lo[a], hi[a] = sim->cfg.hi[a];
        return 1;
    }
    double own[7];
    if (!grains_box)
        rbl_walls_grains_box(sim, own), grains_box = own;
    const double r = grains_box[6];
    for (int a = 0; a < 3; a++)
        lo[a] = grains_box[a], hi[a] = grains_box[3 + a];
    for (size_t k = 0; k < n_mesh_points; k++)
        for (int a = 0; a < 3; a++)
            lo[a] = fmin(lo[a], mesh_points[3 * k + a]), hi[a] = fmax(hi[a], mesh_points[3 * k + a]);
    if (!(lo[0] <= hi[0]))
        return 0;
    for (int a = 0; a < 3; a++)
        lo[a] -= r, hi[a] += r;
    return 1;
}

int rbl_walls_drawn_per_frame(const rbl_sim *sim, int loads)
{
    int toggled = 0; /* a wall taken away or put back in the run (wall_presence.c) */
    for (int k = 0; k < sim->n_walls + sim->n_meshes; k++)
        toggled |= rbl_wall_pose_of((rbl_sim *)sim, k)->toggled;
    return sim->walls_moving || (sim->cfg.open && sim->n_walls > 0) ||
           (loads && sim->n_walls + sim->n_meshes > 0) || rbl_walls_wearing(sim) || toggled;
}

/* The cell arrays of the walls' loads: force (3), pressure, shear, wear per cell. */
typedef struct loads {
    double *force, *pressure, *shear, *wear;
} loads;

/* Where mesh wall m's facets' sums begin in rbl_walls_load_sums's cells (m = n_meshes: the
 * planes'). */
static size_t mesh_first(const rbl_sim *sim, int m)
{
    size_t cells = 0;
    for (int k = 0; k < m; k++)
        cells += sim->meshes[k].mesh.n_triangles;
    return cells;
}

/* Plane w's load as cell `cell` from its sums s (rbl_walls_load_sums): per area of its polygon
 * in a closed domain's box (the plane's part inside it); an open domain's plane has no area
 * (NaN). */
static void plane_cell(const rbl_sim *sim, const double s[7], double p[RBL_POLYGON_MAX][3],
                       int m, loads *l, size_t cell)
{
    const double area = sim->cfg.open ? NAN : rbl_polygon_area(p, m);
    for (int a = 0; a < 3; a++)
        l->force[3 * cell + a] = s[a];
    l->pressure[cell] = s[3] / area;
    l->shear[cell] = sqrt(s[4] * s[4] + s[5] * s[5] + s[6] * s[6]) / area;
    l->wear[cell] = 0.0;
}

/* Mesh wall m's facets' loads as cells from `cell` on, from their sums s. */
static void mesh_cells(const rbl_sim *sim, int m, const double *s, loads *l, size_t cell)
{
    const rbl_mesh_wall *mw = &sim->meshes[m];
    for (size_t t = 0; t < mw->mesh.n_triangles; t++, cell++) {
        for (int a = 0; a < 3; a++)
            l->force[3 * cell + a] = s[7 * t + a];
        rbl_load_cell(s + 7 * t, rbl_mesh_facet_area(sim, m, t), l->pressure + cell,
                      l->shear + cell);
        l->wear[cell] = mw->wear ? mw->wear[t] : 0.0;
    }
}

int rbl_walls_vtp_write(const rbl_sim *sim, const char *path, const double *load_sums,
                        const double *grains_box, rbl_error *err)
{
    const int with_loads = load_sums != NULL;
    size_t mesh_points = 0, facets = 0;
    for (int m = 0; m < sim->n_meshes; m++)
        mesh_points += sim->meshes[m].mesh.n_vertices, facets += sim->meshes[m].mesh.n_triangles;
    const size_t np = mesh_points + (size_t)sim->n_walls * RBL_POLYGON_MAX;
    const size_t nc = facets + (size_t)sim->n_walls;
    double *points = malloc((np ? 3 * np : 1) * sizeof *points);
    uint32_t *corners = malloc((3 * facets + RBL_POLYGON_MAX * (size_t)sim->n_walls + 1) *
                               sizeof *corners);
    uint32_t *ends = malloc((nc ? nc : 1) * sizeof *ends), *wall = malloc((np ? np : 1) *
                                                                           sizeof *wall);
    loads l = {NULL, NULL, NULL, NULL};
    double *cell_data = with_loads ? malloc((6 * nc + 1) * sizeof *cell_data) : NULL;
    if (cell_data)
        l = (loads){cell_data, cell_data + 3 * nc, cell_data + 4 * nc, cell_data + 5 * nc};
    if (!points || !corners || !ends || !wall || np > UINT32_MAX || (with_loads && !cell_data)) {
        free(points), free(corners), free(ends), free(wall), free(cell_data);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for the walls", path);
    }
    size_t v0 = 0, k0 = 0, cells = 0;
    for (int m = 0; m < sim->n_meshes; m++) { /* the meshes first: their corners frame planes */
        const rbl_mesh *mesh = &sim->meshes[m].mesh;
        if (sim->meshes[m].pose.off) /* taken away: not drawn */
            continue;
        rbl_sim_wall_place(sim, sim->n_walls + m, mesh->vertex, mesh->n_vertices, points + 3 * v0);
        for (size_t v = 0; v < mesh->n_vertices; v++)
            wall[v0 + v] = (uint32_t)(sim->n_walls + m + 1);
        if (with_loads)
            mesh_cells(sim, m, load_sums + 7 * mesh_first(sim, m), &l, cells);
        for (size_t t = 0; t < mesh->n_triangles; t++) {
            for (int c = 0; c < 3; c++)
                corners[k0++] = mesh->triangle[3 * t + c] + (uint32_t)v0;
            ends[cells++] = (uint32_t)k0;
        }
        v0 += mesh->n_vertices;
    }
    double lo[3], hi[3];
    if (drawing_box(sim, grains_box, points, v0, lo, hi)) {
        for (int w = 0; w < sim->n_walls; w++) {
            double p[RBL_POLYGON_MAX][3];
            const rbl_plane *pl = &sim->walls[w];
            if (pl->pose.off)
                continue;
            const int m = sim->cfg.open ? box_shadow(pl->n, pl->offset, lo, hi, p)
                                        : plane_in_box(pl->n, pl->offset, lo, hi, p);
            for (int c = 0; c < m; c++) {
                for (int a = 0; a < 3; a++)
                    points[3 * v0 + a] = p[c][a];
                wall[v0] = (uint32_t)(w + 1);
                corners[k0++] = (uint32_t)v0++;
            }
            if (m && with_loads)
                plane_cell(sim, load_sums + 7 * (mesh_first(sim, sim->n_meshes) + (size_t)w), p,
                           m, &l, cells);
            if (m)
                ends[cells++] = (uint32_t)k0;
        }
    }
    const rbl_vtp_array arrays[] = {{"UInt32", "wall", 1, 4, wall}};
    double *packed_at[3] = {NULL, NULL, NULL}; /* pressure, shear, wear */
    if (with_loads) { /* the arrays packed to the cells drawn (a plane may miss the box) */
        const double *from[3] = {l.pressure, l.shear, l.wear};
        for (int k = 0; k < 3; k++) {
            packed_at[k] = cell_data + (3 + (size_t)k) * cells;
            memmove(packed_at[k], from[k], cells * sizeof *cell_data);
        }
    }
    const rbl_vtp_array packed[] = {{"Float64", "force", 3, 8, l.force},
                                    {"Float64", "pressure", 1, 8, packed_at[0]},
                                    {"Float64", "shear", 1, 8, packed_at[1]},
                                    {"Float64", "wear", 1, 8, packed_at[2]}};
    rbl_vtp_polydata pd = {.n_points = v0, .points = points, .arrays = arrays, .n_arrays = 1,
                           .cells = corners, .cell_ends = ends, .n_cells = cells,
                           .cell_arrays = with_loads ? packed : NULL,
                           .n_cell_arrays = with_loads ? 4 : 0};
    int rc = rbl_vtp_polydata_write(path, &pd, err);
    free(points), free(corners), free(ends), free(wall), free(cell_data);
    return rc;
}

/* An impulse scene's walls (seed 003), for ParaView: each plane as the shadow on it of the box
 * about the objects and tubes (widened by the largest object's reach), each tube as its mantle
 * in TUBE_SIDES quads; point array `wall` numbers them as the scene lists them, planes first.
 * Nothing to frame the planes by (no object, no tube): the tubes alone. */
enum { TUBE_SIDES = 48 };

int rbl_fdo_walls_vtp_write(const rbl_fdo_sim *sim, const char *path, int *written,
                            rbl_error *err)
{
    *written = sim->n_planes + sim->n_tubes > 0;
    if (!*written)
        return RBL_OK;
    const size_t np = sim->n_planes * RBL_POLYGON_MAX + sim->n_tubes * 2 * TUBE_SIDES;
    const size_t nc = sim->n_planes + sim->n_tubes * TUBE_SIDES;
    double *points = malloc((3 * np + 1) * sizeof *points);
    uint32_t *corners = malloc((RBL_POLYGON_MAX * sim->n_planes + 4 * TUBE_SIDES * sim->n_tubes + 1) *
                               sizeof *corners);
    uint32_t *ends = malloc((nc + 1) * sizeof *ends), *wall = malloc((np + 1) * sizeof *wall);
    if (!points || !corners || !ends || !wall) {
        free(points), free(corners), free(ends), free(wall);
        return rbl_error_set(err, RBL_ENOMEM, "%s: out of memory for the walls", path);
    }
    double lo[3], hi[3], reach = 0.0;
    for (int a = 0; a < 3; a++)
        lo[a] = INFINITY, hi[a] = -INFINITY;
    for (size_t k = 0; k < rbl_fdo_sim_count(sim); k++) {
        double x[3], q[4], v[3], w[3], semi[3];
        rbl_fdo_sim_get(sim, k, x, q, v, w);
        rbl_fdo_sim_semi_axes(sim, k, semi);
        reach = fmax(reach, fmax(semi[0], fmax(semi[1], semi[2])));
        for (int a = 0; a < 3; a++)
            lo[a] = fmin(lo[a], x[a]), hi[a] = fmax(hi[a], x[a]);
    }
    size_t v0 = 0, k0 = 0, cells = 0;
    for (size_t t = 0; t < sim->n_tubes; t++) { /* from, unit axis, length, radius */
        const double *tb = sim->tube + 8 * t, *u = tb + 3;
        double e1[3], e2[3], foot[3];
        plane_frame(u, 0.0, tb, e1, e2, foot);
        for (int end = 0; end < 2; end++)
            for (int s = 0; s < TUBE_SIDES; s++) {
                const double phi = 2.0 * M_PI * s / TUBE_SIDES;
                double *p = points + 3 * v0;
                for (int a = 0; a < 3; a++) {
                    p[a] = tb[a] + end * tb[6] * u[a] +
                           tb[7] * (cos(phi) * e1[a] + sin(phi) * e2[a]);
                    lo[a] = fmin(lo[a], p[a]), hi[a] = fmax(hi[a], p[a]);
                }
                wall[v0++] = (uint32_t)(sim->n_planes + t + 1);
            }
        const uint32_t base = (uint32_t)(v0 - 2 * TUBE_SIDES);
        for (uint32_t s = 0; s < TUBE_SIDES; s++) {
            const uint32_t s1 = (s + 1) % TUBE_SIDES;
            corners[k0++] = base + s, corners[k0++] = base + s1;
            corners[k0++] = base + TUBE_SIDES + s1, corners[k0++] = base + TUBE_SIDES + s;
            ends[cells++] = (uint32_t)k0;
        }
    }
    if (lo[0] <= hi[0]) { /* something to frame the planes by */
        for (int a = 0; a < 3; a++)
            lo[a] -= reach, hi[a] += reach;
        for (size_t w = 0; w < sim->n_planes; w++) {
            double p[RBL_POLYGON_MAX][3] = {{0.0}};
            const double *pl = sim->plane + 4 * w;
            const int m = box_shadow(pl, -pl[3], lo, hi, p); /* n . x = offset there */
            for (int c = 0; c < m; c++) {
                for (int a = 0; a < 3; a++)
                    points[3 * v0 + a] = p[c][a];
                wall[v0] = (uint32_t)(w + 1);
                corners[k0++] = (uint32_t)v0++;
            }
            if (m)
                ends[cells++] = (uint32_t)k0;
        }
    }
    const rbl_vtp_array arrays[] = {{"UInt32", "wall", 1, 4, wall}};
    rbl_vtp_polydata pd = {.n_points = v0, .points = points, .arrays = arrays, .n_arrays = 1,
                           .cells = corners, .cell_ends = ends, .n_cells = cells};
    int rc = rbl_vtp_polydata_write(path, &pd, err);
    free(points), free(corners), free(ends), free(wall);
    return rc;
}
