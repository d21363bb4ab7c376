/* The walls drawn for ParaView (src/io/walls_vtp.c), read back from the written file: a plane
 * is the polygon it cuts from the domain's box — a floor on the box's side is that side, the
 * plane x + y + z = 1.5 through a unit cube the regular hexagon of side sqrt(2)/2 (area
 * 3 sqrt(3) / 4), x + y + z = 0.5 a triangle of area sqrt(3) / 8, a plane beside the box
 * nothing — its corners on the plane and on the box, in order about its normal; a plane that
 * moves is drawn where it is; mesh walls keep their facets, numbered after the planes; an open
 * domain draws a plane as the shadow on it of the box around the grains (a cube seen along its
 * diagonal: the hexagon of area sqrt(3)). */
#include "dem_test_util.h"
#include "io/io_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct drawn {
    size_t n_points, n_cells;
    uint32_t *wall;
    double *points;
    int64_t *conn, *offs;
} drawn;

/* The next appended block of the raw-encoded file: its byte count, then its bytes. */
static void *next_block(FILE *f, size_t *bytes)
{
    uint64_t n = 0;
    ASSERT_TRUE(fread(&n, sizeof n, 1, f) == 1);
    ASSERT_TRUE(n < ((uint64_t)1 << 30));
    void *data = malloc(n ? (size_t)n : 1);
    ASSERT_TRUE(data && fread(data, 1, (size_t)n, f) == (size_t)n);
    *bytes = (size_t)n;
    return data;
}

static drawn read_walls(const char *path)
{
    FILE *f = fopen(path, "rb");
    ASSERT_TRUE(f);
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    char *start = strstr(text, "encoding=\"raw\">");
    ASSERT_TRUE(start && (start = strchr(start, '_')));
    ASSERT_TRUE(fseek(f, (long)(start + 1 - text), SEEK_SET) == 0);
    drawn d;
    size_t bytes;
    d.wall = next_block(f, &bytes);
    d.n_points = bytes / 4;
    d.points = next_block(f, &bytes);
    ASSERT_TRUE(bytes == 24 * d.n_points);
    d.conn = next_block(f, &bytes);
    d.offs = next_block(f, &bytes);
    d.n_cells = bytes / 8;
    fclose(f);
    return d;
}

static void drawn_free(drawn *d) { free(d->wall), free(d->points), free(d->conn), free(d->offs); }

/* Cell k's corners: first index into conn and count. */
static void cell_range(const drawn *d, size_t k, size_t *first, size_t *count)
{
    *first = k ? (size_t)d->offs[k - 1] : 0;
    *count = (size_t)d->offs[k] - *first;
}

/* The polygon of cell k: its area vector 1/2 sum p_i x p_{i+1}. */
static void area_vector(const drawn *d, size_t k, double a[3])
{
    size_t first, count;
    cell_range(d, k, &first, &count);
    a[0] = a[1] = a[2] = 0.0;
    for (size_t c = 0; c < count; c++) {
        const double *p = d->points + 3 * d->conn[first + c];
        const double *q = d->points + 3 * d->conn[first + (c + 1) % count];
        a[0] += 0.5 * (p[1] * q[2] - p[2] * q[1]);
        a[1] += 0.5 * (p[2] * q[0] - p[0] * q[2]);
        a[2] += 0.5 * (p[0] * q[1] - p[1] * q[0]);
    }
}

/* Cell k is plane `wall` (n . x + offset = 0, n unit): corners on it and in the box [0, L]^3,
 * wound about n, enclosing `area`. */
static void check_plane_cell(const drawn *d, size_t k, uint32_t wall, const double n[3],
                             double offset, double L, size_t corners, double area)
{
    size_t first, count;
    cell_range(d, k, &first, &count);
    ASSERT_TRUE(count == corners);
    for (size_t c = 0; c < count; c++) {
        const int64_t v = d->conn[first + c];
        const double *p = d->points + 3 * v;
        ASSERT_TRUE(d->wall[v] == wall);
        ASSERT_NEAR(n[0] * p[0] + n[1] * p[1] + n[2] * p[2] + offset, 0.0, 1e-14);
        for (int a = 0; a < 3; a++)
            ASSERT_TRUE(p[a] >= -1e-14 && p[a] <= L + 1e-14);
    }
    double av[3];
    area_vector(d, k, av);
    ASSERT_NEAR(av[0] * n[0] + av[1] * n[1] + av[2] * n[2], area, 1e-13);
}

static void write_and_read(rbl_sim *sim, drawn *d)
{
    rbl_error err = {0};
    const char *path = "test_walls_vtp.vtp";
    if (rbl_walls_vtp_write(sim, path, NULL, NULL, &err) != RBL_OK) {
        fprintf(stderr, "rbl_walls_vtp_write: %s\n", err.message);
        exit(1);
    }
    *d = read_walls(path);
    remove(path);
}

static void add_plane(rbl_sim *sim, double nx, double ny, double nz, double offset)
{
    rbl_error err = {0};
    rbl_wall w = {.normal = {nx, ny, nz}, .offset = offset};
    ASSERT_OK(rbl_sim_add_wall(sim, &w, &err));
}

static void test_planes_in_box(void)
{
    rbl_sim_config c = dem_config(0.0, 1.0, 1e3, 0.0, 1e-4);
    rbl_sim *sim = dem_create(&c, 1000.0);
    const double s = 1.0 / sqrt(3.0);
    add_plane(sim, 0.0, 0.0, 1.0, 0.0);   /* the floor: the box's bottom */
    add_plane(sim, 1.0, 1.0, 1.0, -1.5);  /* through the centre: a hexagon */
    add_plane(sim, -1.0, -1.0, -1.0, 0.5); /* near the origin, facing it: a triangle */
    add_plane(sim, 1.0, 0.0, 0.0, -2.0);  /* beside the box */
    drawn d;
    write_and_read(sim, &d);
    ASSERT_TRUE(d.n_cells == 3);
    const double up[3] = {0.0, 0.0, 1.0}, diag[3] = {s, s, s}, back[3] = {-s, -s, -s};
    check_plane_cell(&d, 0, 1, up, 0.0, 1.0, 4, 1.0);
    check_plane_cell(&d, 1, 2, diag, -1.5 * s, 1.0, 6, 3.0 * sqrt(3.0) / 4.0);
    check_plane_cell(&d, 2, 3, back, 0.5 * s, 1.0, 3, sqrt(3.0) / 8.0);
    for (size_t v = 0; v < 4; v++) /* the floor is exactly the bottom, not a sliver above it */
        ASSERT_TRUE(d.points[3 * d.conn[v] + 2] == 0.0);
    drawn_free(&d);
    printf("ok: planes in the box: the floor's square, a hexagon %.15g, a triangle %.15g\n",
           3.0 * sqrt(3.0) / 4.0, sqrt(3.0) / 8.0);
    rbl_sim_destroy(sim);
}

/* A piston moving down at 0.1 m/s is drawn where it is after 0.5 s; a mesh wall after it keeps
 * its facets and takes the next wall number. */
static void test_moving_plane_and_mesh(void)
{
    rbl_sim_config c = dem_config(0.0, 1.0, 1e3, 0.0, 5e-4);
    c.gravity[2] = 0.0;
    rbl_sim *sim = dem_create(&c, 1000.0);
    rbl_error err = {0};
    add_plane(sim, 0.0, 0.0, -1.0, 0.9); /* z = 0.9, facing down */
    uint64_t seed = 7;
    rbl_mesh mesh;
    dem_flat_mesh(&mesh, 3, 1.0, &seed);
    ASSERT_OK(rbl_sim_add_mesh_wall(sim, &mesh, 0, &err));
    rbl_wall_motion m = {.velocity = {0.0, 0.0, -0.1}};
    ASSERT_OK(rbl_sim_set_wall_motion(sim, 0, &m, &err));
    dem_grain(sim, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0, 0.01);
    dem_step(sim, 1000);
    drawn d;
    write_and_read(sim, &d);
    ASSERT_TRUE(d.n_cells == mesh.n_triangles + 1);
    const double down[3] = {0.0, 0.0, -1.0};
    check_plane_cell(&d, mesh.n_triangles, 1, down, 0.9 - 0.05, 1.0, 4, 1.0);
    for (size_t v = 0; v < mesh.n_vertices; v++) {
        ASSERT_TRUE(d.wall[v] == 2);
        for (int a = 0; a < 3; a++)
            ASSERT_TRUE(d.points[3 * v + a] == mesh.vertex[3 * v + a]);
    }
    for (size_t k = 0; k < mesh.n_triangles; k++) {
        size_t first, count;
        cell_range(&d, k, &first, &count);
        ASSERT_TRUE(count == 3);
        for (int cc = 0; cc < 3; cc++)
            ASSERT_TRUE(d.conn[first + (size_t)cc] == (int64_t)mesh.triangle[3 * k + (size_t)cc]);
    }
    ASSERT_TRUE(rbl_walls_drawn_per_frame(sim, 0));
    drawn_free(&d);
    printf("ok: a piston moved 0.05 m is drawn there; the mesh's %zu facets follow as wall 2\n",
           mesh.n_triangles);
    rbl_mesh_free(&mesh);
    rbl_sim_destroy(sim);
}

/* An open domain has no box: a plane is drawn across the grains' extent widened by the largest
 * radius, and again each frame (the extent changes). */
static void test_open_domain(void)
{
    rbl_sim_config c = dem_config(0.0, 1.0, 1e3, 0.0, 1e-4);
    c.open = 1;
    c.gravity[2] = 0.0;
    rbl_sim *sim = dem_create(&c, 1000.0);
    add_plane(sim, 0.0, 0.0, 1.0, 0.0);
    ASSERT_TRUE(rbl_walls_drawn_per_frame(sim, 0));
    drawn d;
    write_and_read(sim, &d); /* no grains: nothing to frame the plane by */
    ASSERT_TRUE(d.n_cells == 0 && d.n_points == 0);
    drawn_free(&d);
    dem_grain(sim, 0.2, 0.3, 0.1, 0.0, 0.0, 0.0, 0.05);
    dem_grain(sim, 1.2, 0.8, 0.4, 0.0, 0.0, 0.0, 0.05);
    write_and_read(sim, &d);
    ASSERT_TRUE(d.n_cells == 1);
    double av[3];
    area_vector(&d, 0, av);
    ASSERT_NEAR(av[2], (1.0 + 0.1) * (0.5 + 0.1), 1e-13);
    drawn_free(&d);
    printf("ok: an open domain's floor drawn across the grains (%.3g m^2)\n", av[2]);
    rbl_sim_destroy(sim);

    /* a cube of grains seen along its diagonal from a plane far off: a hexagon of area sqrt 3 */
    sim = dem_create(&c, 1000.0);
    const double s = 1.0 / sqrt(3.0);
    add_plane(sim, 1.0, 1.0, 1.0, -10.0);
    dem_grain(sim, 0.05, 0.05, 0.05, 0.0, 0.0, 0.0, 0.05);
    dem_grain(sim, 0.95, 0.95, 0.95, 0.0, 0.0, 0.0, 0.05);
    write_and_read(sim, &d);
    ASSERT_TRUE(d.n_cells == 1 && d.offs[0] == 6);
    for (int k = 0; k < 6; k++) {
        const double *p = d.points + 3 * d.conn[k];
        ASSERT_NEAR(s * (p[0] + p[1] + p[2]) - 10.0 * s, 0.0, 1e-13);
    }
    area_vector(&d, 0, av);
    ASSERT_NEAR(s * (av[0] + av[1] + av[2]), sqrt(3.0), 1e-13);
    drawn_free(&d);
    printf("ok: a tilted plane far off drawn as the grains' shadow, the hexagon %.15g\n",
           s * (av[0] + av[1] + av[2]));
    rbl_sim_destroy(sim);
}

int main(void)
{
    test_planes_in_box();
    test_moving_plane_and_mesh();
    test_open_domain();
    return 0;
}
