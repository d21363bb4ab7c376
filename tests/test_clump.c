/* test_clump.c — KL2-KL4: Algorithm 1 against the seed's literal loop (every candidate against
 * every sphere), the clump's invariants, Algorithm 2 against closed forms (a single sphere;
 * box and ellipsoid clumps), the iso-surface (closed, outward, on the level), Q_r's bounds, and
 * the clump file round trip. */
#include "rubble.h"
#include "shape/shape_internal.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Seed 001, Algorithm 1, as printed: O(P) work per candidate (with the library's tolerance
 * for ties, which the float field needs). */
static const float *sort_values;

static int by_value_then_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (sort_values[x] != sort_values[y])
        return sort_values[x] > sort_values[y] ? -1 : 1;
    return x < y ? -1 : (x > y);
}

static size_t seed_algorithm1(const rbl_sdf *sdf, double ratio, size_t p_max, double *out)
{
    size_t total = rbl_sdf_count(sdf), n_in = 0, p = 0;
    double eps = RBL_CLUMP_TIE_VOXELS * sdf->h; /* float storage of the field */
    size_t *order = malloc(total * sizeof *order);
    for (size_t v = 0; v < total; v++)
        if (sdf->value[v] > eps)
            order[n_in++] = v;
    sort_values = sdf->value; /* descending, ties in grid order */
    qsort(order, n_in, sizeof *order, by_value_then_index);
    for (size_t q = 0; q < n_in && p < p_max; q++) {
        size_t v = order[q];
        double c[3] = {sdf->origin[0] + sdf->h * (double)(v % sdf->n[0]),
                       sdf->origin[1] + sdf->h * (double)(v / sdf->n[0] % sdf->n[1]),
                       sdf->origin[2] + sdf->h * (double)(v / (sdf->n[0] * sdf->n[1]))};
        double r = sdf->value[v];
        int skip = 0;
        for (size_t s = 0; s < p && !skip; s++) {
            const double *phi = out + 4 * s;
            double d = sqrt((c[0] - phi[0]) * (c[0] - phi[0]) + (c[1] - phi[1]) * (c[1] - phi[1]) +
                            (c[2] - phi[2]) * (c[2] - phi[2]));
            skip = d + r <= phi[3] + eps || d < ratio * phi[3] - eps;
        }
        if (skip)
            continue;
        memcpy(out + 4 * p, c, sizeof c);
        out[4 * p + 3] = r;
        p++;
    }
    free(order);
    return p;
}

static void test_against_seed_loop(void)
{
    const char *shapes[] = {"ellipsoid:1,0.7,0.4", "cylinder:0.5,1.6", "octahedron:1"};
    const double ratios[] = {0.85, 0.5, 1.2};
    for (int s = 0; s < 3; s++)
        for (int r = 0; r < 3; r++) {
            rbl_shape shape;
            ASSERT_OK(rbl_shape_parse(shapes[s], &shape, NULL));
            rbl_sdf sdf;
            ASSERT_OK(rbl_sdf_from_shape(&sdf, &shape, 0.04, 2, 0, NULL));
            size_t p_max = r == 1 ? 120 : 100000;
            double *ref = malloc(rbl_sdf_count(&sdf) * 4 * sizeof *ref);
            size_t n_ref = seed_algorithm1(&sdf, ratios[r], p_max, ref);
            rbl_clump c;
            rbl_clump_options o = {ratios[r], p_max};
            ASSERT_OK(rbl_clump_build(&sdf, &o, &c, NULL));
            printf("%-22s R = %.2f: %zu spheres, seed loop %zu\n", shapes[s], ratios[r], c.n, n_ref);
            ASSERT_EQ_INT(c.n, n_ref);
            for (size_t q = 0; q < 4 * c.n; q++)
                ASSERT_NEAR(c.sphere[q], ref[q], 1e-12);
            /* invariants: each sphere lies inside the body (f is the distance to the surface) */
            for (size_t q = 0; q < c.n; q++)
                ASSERT_TRUE(rbl_shape_distance(&shape, c.sphere + 4 * q) >= c.sphere[4 * q + 3] - 1e-6);
            rbl_clump_free(&c);
            free(ref);
            rbl_sdf_free(&sdf);
        }
}

static void test_errors(void)
{
    rbl_shape shape;
    ASSERT_OK(rbl_shape_parse("sphere:1", &shape, NULL));
    rbl_sdf sdf;
    ASSERT_OK(rbl_sdf_from_shape(&sdf, &shape, 0.1, 2, 0, NULL));
    rbl_clump c;
    rbl_error err;
    rbl_clump_options bad = {0, 10};
    ASSERT_EQ_INT(rbl_clump_build(&sdf, &bad, &c, &err), RBL_ERANGE);
    for (size_t v = 0; v < rbl_sdf_count(&sdf); v++)
        sdf.value[v] = -1;
    rbl_clump_options o = {0.85, 10};
    ASSERT_EQ_INT(rbl_clump_build(&sdf, &o, &c, &err), RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "no sample inside") != NULL);
    rbl_sdf_free(&sdf);
}

/* Counting on cell centres of edge s: for a sphere of radius r = 50 s, volume within 0.1%, the
 * centre within s/100, the moment 2/5 m r^2 within 0.2%, off-diagonal terms below 1e-4 of it.
 * (Lattice-point counts of a ball deviate by O((r/s)^1.5) cells: 0.1% is about 4 times the
 * error measured at several offsets.) */
static void test_mass_sphere(void)
{
    const double offsets[3][3] = {{0.3, -0.2, 0.1}, {0, 0, 0}, {0.0123, 0.777, -0.5}};
    for (int o = 0; o < 3; o++) {
        double sphere[4] = {offsets[o][0], offsets[o][1], offsets[o][2], 1};
        rbl_clump c = {1, sphere};
        rbl_mass_properties p;
        ASSERT_OK(rbl_clump_mass_properties(&c, 0.02, 2000, &p, NULL));
        double v = 4.0 / 3.0 * M_PI, m = 2000 * v;
        ASSERT_NEAR(p.volume / v, 1, 1e-3);
        for (int a = 0; a < 3; a++)
            ASSERT_NEAR(p.centre[a], sphere[a], 2e-4);
        for (int a = 0; a < 3; a++) {
            ASSERT_NEAR(p.inertia[a][a] / (0.4 * m), 1, 2e-3);
            ASSERT_NEAR(p.principal[a] / (0.4 * m), 1, 2e-3);
            for (int b = 0; b < 3; b++)
                if (a != b)
                    ASSERT_NEAR(p.inertia[a][b] / (0.4 * m), 0, 1e-4);
        }
    }
    /* two equal spheres apart: the union's closed form (parallel axis) */
    double two[8] = {-1, 0, 0, 0.5, 1, 0, 0, 0.5};
    rbl_clump c = {2, two};
    rbl_mass_properties p;
    ASSERT_OK(rbl_clump_mass_properties(&c, 0.01, 1000, &p, NULL));
    double m1 = 1000 * 4.0 / 3.0 * M_PI * 0.125;
    ASSERT_NEAR(p.mass / (2 * m1), 1, 1e-3);
    ASSERT_NEAR(p.centre[0], 0, 1e-4);
    ASSERT_NEAR(p.principal[0] / (2 * 0.4 * m1 * 0.25), 1, 2e-3);           /* about x */
    ASSERT_NEAR(p.principal[1] / (2 * (0.4 * m1 * 0.25 + m1)), 1, 2e-3);    /* about y, z */
    ASSERT_NEAR(fabs(p.axes[0][0]), 1, 1e-9);
    rbl_error err;
    ASSERT_EQ_INT(rbl_clump_mass_properties(&c, 0, 1000, &p, &err), RBL_ERANGE);
}

/* A dense clump of a solid carries the solid's mass properties up to its volume deficit: the
 * tolerances are the measured Q_V gap (2-3%) with a margin; axes must be the solid's. */
static void test_mass_solids(void)
{
    const char *shapes[] = {"box:2,1,0.6", "ellipsoid:1,0.6,0.35"};
    for (int s = 0; s < 2; s++) {
        rbl_shape shape;
        ASSERT_OK(rbl_shape_parse(shapes[s], &shape, NULL));
        rbl_sdf sdf;
        ASSERT_OK(rbl_sdf_from_shape(&sdf, &shape, 0.02, 2, 0, NULL));
        rbl_clump c;
        rbl_clump_options o = {0.5, 20000};
        ASSERT_OK(rbl_clump_build(&sdf, &o, &c, NULL));
        rbl_mass_properties p, exact;
        ASSERT_OK(rbl_clump_mass_properties(&c, 0.01, 1000, &p, NULL));
        rbl_shape_mass_properties(&shape, 1000, &exact);
        printf("%-22s P = %zu: V %.5f (exact %.5f), I/m %.5f %.5f %.5f (exact %.5f %.5f %.5f)\n",
               shapes[s], c.n, p.volume, exact.volume, p.principal[0] / p.mass,
               p.principal[1] / p.mass, p.principal[2] / p.mass, exact.principal[0] / exact.mass,
               exact.principal[1] / exact.mass, exact.principal[2] / exact.mass);
        ASSERT_NEAR(p.volume / exact.volume, 1, 0.04);
        for (int a = 0; a < 3; a++) {
            ASSERT_NEAR(p.centre[a], 0, sdf.h);
            ASSERT_NEAR((p.principal[a] / p.mass) / (exact.principal[a] / exact.mass), 1, 0.05);
            ASSERT_NEAR(fabs(rbl_dot3(p.axes[a], exact.axes[a])), 1, 1e-3);
        }
        rbl_clump_free(&c);
        rbl_sdf_free(&sdf);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : (x > y);
}

/* A cube's and a cylinder's equal moments leave axes undetermined: they follow the source
 * frame, not the sampling noise. */
static void test_degenerate_axes(void)
{
    const char *shapes[] = {"box:1", "cylinder:0.4,1.5"};
    for (int s = 0; s < 2; s++) {
        rbl_shape shape;
        ASSERT_OK(rbl_shape_parse(shapes[s], &shape, NULL));
        rbl_sdf sdf;
        ASSERT_OK(rbl_sdf_from_shape(&sdf, &shape, 0.025, 2, 0, NULL));
        rbl_clump c;
        rbl_clump_options o = {0.5, 3000};
        ASSERT_OK(rbl_clump_build(&sdf, &o, &c, NULL));
        rbl_mass_properties p;
        ASSERT_OK(rbl_clump_mass_properties(&c, 0.0125, 1000, &p, NULL));
        for (int m = 0; m < 3; m++) {
            double big = fmax(fmax(fabs(p.axes[m][0]), fabs(p.axes[m][1])), fabs(p.axes[m][2]));
            ASSERT_NEAR(big, 1, s == 0 ? 1e-12 : 1e-4);
        }
        ASSERT_TRUE(p.principal[0] <= p.principal[1] && p.principal[1] <= p.principal[2]);
        double cross[3];
        rbl_cross3(p.axes[0], p.axes[1], cross);
        ASSERT_NEAR(rbl_dot3(cross, p.axes[2]), 1, 1e-12);
        rbl_clump_free(&c);
        rbl_sdf_free(&sdf);
    }
}

/* Surface nets of a sphere: every edge shared by two quads with opposite directions (closed,
 * consistently wound), Euler characteristic 2, outward (positive enclosed volume close to the
 * ball's), vertices on the level within a fraction of the step. */
static void test_isosurface(void)
{
    rbl_shape shape;
    ASSERT_OK(rbl_shape_parse("sphere:1", &shape, NULL));
    rbl_sdf sdf;
    ASSERT_OK(rbl_sdf_from_shape(&sdf, &shape, 0.05, 2, 0, NULL));
    const double alpha = 0.2;
    rbl_quad_mesh m;
    ASSERT_OK(rbl_isosurface_build(&sdf, alpha, 0.025, &m, NULL));
    size_t ne = 4 * m.n_quads;
    uint64_t *key = malloc(ne * sizeof *key);
    for (size_t q = 0; q < m.n_quads; q++)
        for (int e = 0; e < 4; e++)
            key[4 * q + (size_t)e] = (uint64_t)m.quad[4 * q + (size_t)e] << 32 |
                                     m.quad[4 * q + (size_t)(e + 1) % 4];
    /* each directed edge once, and its reverse present */
    qsort(key, ne, sizeof *key, cmp_u64);
    for (size_t a = 0; a < ne; a++) {
        uint64_t rev = key[a] << 32 | key[a] >> 32;
        ASSERT_TRUE(a == 0 || key[a] != key[a - 1]);
        ASSERT_TRUE(bsearch(&rev, key, ne, sizeof *key, cmp_u64) != NULL);
    }
    long euler = (long)m.n_vertices - (long)ne / 2 + (long)m.n_quads;
    ASSERT_EQ_INT(euler, 2);
    double vol = 0;
    for (size_t q = 0; q < m.n_quads; q++) {
        const double *p0 = m.vertex + 3 * (size_t)m.quad[4 * q];
        for (int t = 1; t <= 2; t++) {
            double c[3];
            rbl_cross3(m.vertex + 3 * (size_t)m.quad[4 * q + (size_t)t],
                       m.vertex + 3 * (size_t)m.quad[4 * q + (size_t)t + 1], c);
            vol += rbl_dot3(p0, c) / 6;
        }
    }
    double r = 1 - alpha, exact = 4.0 / 3.0 * M_PI * r * r * r;
    ASSERT_NEAR(vol / exact, 1, 0.01);
    for (size_t v = 0; v < m.n_vertices; v++)
        ASSERT_NEAR(sqrt(rbl_dot3(m.vertex + 3 * v, m.vertex + 3 * v)), r, 0.01);
    free(key);
    /* Q_r bounds: every vertex inside one sphere of radius 0.9 -> 0; a sphere of 0.5 -> 1 */
    double big[4] = {0, 0, 0, 0.9}, small[4] = {0, 0, 0, 0.5}, share;
    rbl_clump cb = {1, big}, cs = {1, small};
    ASSERT_OK(rbl_clump_outside_share(&cb, m.vertex, m.n_vertices, &share, NULL));
    ASSERT_NEAR(share, 0, 0);
    ASSERT_OK(rbl_clump_outside_share(&cs, m.vertex, m.n_vertices, &share, NULL));
    ASSERT_NEAR(share, 1, 0);
    rbl_quad_mesh_free(&m);
    rbl_sdf_free(&sdf);
}

/* The clump file holds the spheres in the body frame: the mass properties recomputed from the
 * file's spheres have their centre at the origin and a diagonal inertia. */
static void test_clump_file(void)
{
    rbl_shape shape;
    ASSERT_OK(rbl_shape_parse("ellipsoid:1,0.6,0.35", &shape, NULL));
    rbl_sdf sdf;
    ASSERT_OK(rbl_sdf_from_shape(&sdf, &shape, 0.04, 2, 0, NULL));
    sdf.origin[0] += 3, sdf.origin[1] -= 1; /* off the origin */
    rbl_clump c, back;
    rbl_clump_options o = {0.7, 300};
    ASSERT_OK(rbl_clump_build(&sdf, &o, &c, NULL));
    rbl_mass_properties p, pb, again;
    ASSERT_OK(rbl_clump_mass_properties(&c, 0.02, 2500, &p, NULL));
    char path[] = "/tmp/rubble_clump_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    close(fd);
    ASSERT_OK(rbl_clump_write(path, &c, &p, NULL));
    ASSERT_OK(rbl_clump_read(path, &back, &pb, NULL));
    ASSERT_EQ_INT(back.n, c.n);
    ASSERT_NEAR(pb.mass, p.mass, 0);
    for (int a = 0; a < 3; a++)
        ASSERT_NEAR(pb.principal[a], p.principal[a], 0);
    ASSERT_OK(rbl_clump_mass_properties(&back, 0.02, 2500, &again, NULL));
    for (int a = 0; a < 3; a++) {
        ASSERT_NEAR(again.centre[a], 0, 0.01);
        ASSERT_NEAR(again.inertia[a][a] / p.principal[a], 1, 0.01);
        for (int b = 0; b < 3; b++)
            if (a != b)
                ASSERT_NEAR(again.inertia[a][b] / p.principal[2], 0, 0.01);
    }
    rbl_clump_free(&back);
    /* corrupt files are refused with the line */
    FILE *f = fopen(path, "w");
    fprintf(f, "rubble-clump 1\ndensity 1000\nvolume 1\nmass -3\n");
    fclose(f);
    rbl_error err;
    ASSERT_EQ_INT(rbl_clump_read(path, &back, &pb, &err), RBL_ERANGE);
    ASSERT_TRUE(strstr(err.message, ":4: mass -3 must be positive") != NULL);
    unlink(path);
    rbl_clump_free(&c), rbl_clump_free(&back);
    rbl_sdf_free(&sdf);
}

int main(void)
{
    test_against_seed_loop();
    test_errors();
    test_mass_sphere();
    test_mass_solids();
    test_degenerate_axes();
    test_isosurface();
    test_clump_file();
    printf("test_clump: ok\n");
    return 0;
}
