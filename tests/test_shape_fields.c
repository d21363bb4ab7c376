/* test_shape_fields.c — KL1: signed distance fields. Built-in solids against closed forms (the
 * ellipsoid against a dense sampling of its surface), the voxel distance transform against
 * brute force, STL meshes against the analytic solid (rays through vertices and edges
 * included), mesh errors, and the volume file round trip. */
#include "rubble.h"
#include "shape/shape_internal.h"
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double dist(const char *text, double x, double y, double z)
{
    rbl_shape s;
    ASSERT_OK(rbl_shape_parse(text, &s, NULL));
    const double p[3] = {x, y, z};
    return rbl_shape_distance(&s, p);
}

static void test_closed_forms(void)
{
    ASSERT_NEAR(dist("sphere:1", 0.3, 0.4, 0), 0.5, 1e-15);
    ASSERT_NEAR(dist("sphere:1", 2, 0, 0), -1, 1e-15);
    ASSERT_NEAR(dist("box:2,4,6", 0, 0, 0), 1, 1e-15);
    ASSERT_NEAR(dist("box:2,4,6", 0.5, 1.9, 0), 0.1, 1e-12);
    ASSERT_NEAR(dist("box:2,4,6", 2, 3, 4), -sqrt(3.0), 1e-12);
    ASSERT_NEAR(dist("box:2", 0, 0, 1.5), -0.5, 1e-15);
    ASSERT_NEAR(dist("cylinder:1,2", 0, 0, 0), 1, 1e-15);
    ASSERT_NEAR(dist("cylinder:1,2", 0.5, 0, 0.8), 0.2, 1e-12);
    ASSERT_NEAR(dist("cylinder:1,2", 2, 0, 2), -sqrt(2.0), 1e-12);
    ASSERT_NEAR(dist("octahedron:1", 0, 0, 0), 1 / sqrt(3.0), 1e-15);
    ASSERT_NEAR(dist("octahedron:1", 2, 0, 0), -1, 1e-15);
    ASSERT_NEAR(dist("octahedron:1", 1, 1, 1), -2 / sqrt(3.0), 1e-12);
    ASSERT_NEAR(dist("octahedron:1", -1, 1, 0), -1 / sqrt(2.0), 1e-12);
    ASSERT_NEAR(dist("ellipsoid:3,2,1", 0, 0, 0), 1, 1e-12);
    ASSERT_NEAR(dist("ellipsoid:3,2,1", 0, 0, 5), -4, 1e-12);
    ASSERT_NEAR(dist("ellipsoid:3,2,1", 4, 0, 0), -1, 1e-12);
    ASSERT_NEAR(dist("ellipsoid:3,2,1", 0, 1.5, 0), 0.5, 1e-12);
    /* bad shapes */
    rbl_shape s;
    rbl_error err;
    ASSERT_EQ_INT(rbl_shape_parse("cube:1", &s, &err), RBL_EINVAL);
    ASSERT_EQ_INT(rbl_shape_parse("box:1,x,2", &s, &err), RBL_EPARSE);
    ASSERT_TRUE(strstr(err.message, "'x'") != NULL);
    ASSERT_EQ_INT(rbl_shape_parse("sphere:-1", &s, &err), RBL_ERANGE);
    ASSERT_EQ_INT(rbl_shape_parse("ellipsoid:1,2", &s, &err), RBL_EINVAL);
    ASSERT_EQ_INT(rbl_shape_parse("sphere:nan", &s, &err), RBL_ERANGE);
}

/* Eberly's bisection against the minimum over a dense parametric sampling of the surface,
 * refined around the best sample: agreement within 1e-7 of the semi-axes' scale. */
static void test_ellipsoid_brute(void)
{
    const double e[3] = {3, 2, 1};
    rbl_shape s = {RBL_SHAPE_ELLIPSOID, {3, 2, 1}};
    uint64_t seed = 7;
    for (int t = 0; t < 24; t++) {
        double p[3];
        for (int a = 0; a < 3; a++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            p[a] = ((double)(seed >> 11) / 9007199254740992.0 * 2 - 1) * 1.4 * e[a];
        }
        if (t == 0)
            p[1] = 0; /* a plane of symmetry */
        double best = INFINITY, bu = 0, bv = 0, span = M_PI;
        for (int level = 0; level < 6; level++) {
            double cu = bu, cv = bv;
            for (int i = -200; i <= 200; i++)
                for (int j = -100; j <= 100; j++) {
                    double u = cu + span * i / 200.0, v = cv + span / 2 * j / 100.0;
                    double q[3] = {e[0] * cos(v) * cos(u), e[1] * cos(v) * sin(u), e[2] * sin(v)};
                    double d = hypot(hypot(q[0] - p[0], q[1] - p[1]), q[2] - p[2]);
                    if (d < best)
                        best = d, bu = u, bv = v;
                }
            span /= 50;
        }
        double q = 0;
        for (int a = 0; a < 3; a++)
            q += p[a] * p[a] / (e[a] * e[a]);
        ASSERT_NEAR(rbl_shape_distance(&s, p), q < 1 ? best : -best, 1e-7);
    }
}

/* The distance transform is exact: equal to brute force over all voxel pairs. */
static void test_distance_transform(void)
{
    const size_t n[3] = {13, 11, 9};
    size_t total = n[0] * n[1] * n[2];
    uint8_t *in = calloc(total, 1);
    uint64_t seed = 99;
    for (size_t k = 1; k + 1 < n[2]; k++)
        for (size_t j = 1; j + 1 < n[1]; j++)
            for (size_t i = 1; i + 1 < n[0]; i++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                in[i + n[0] * (j + n[1] * k)] = (seed >> 33) % 10 < 6;
            }
    const double origin[3] = {-1, 2, 0.5}, h = 0.25;
    rbl_sdf sdf;
    ASSERT_OK(rbl_sdf_from_voxels(&sdf, in, n, h, origin, 0, NULL));
    for (size_t a = 0; a < total; a++) {
        double best = INFINITY;
        for (size_t b = 0; b < total; b++) {
            if ((in[a] != 0) == (in[b] != 0))
                continue;
            double di = (double)(a % n[0]) - (double)(b % n[0]);
            double dj = (double)(a / n[0] % n[1]) - (double)(b / n[0] % n[1]);
            double dk = (double)(a / (n[0] * n[1])) - (double)(b / (n[0] * n[1]));
            best = fmin(best, sqrt(di * di + dj * dj + dk * dk));
        }
        double expect = (in[a] ? 1 : -1) * (best - 0.5) * h;
        ASSERT_NEAR(sdf.value[a], expect, 1e-6);
    }
    rbl_sdf_free(&sdf);
    /* all outside, all inside */
    rbl_error err;
    memset(in, 0, total);
    ASSERT_EQ_INT(rbl_sdf_from_voxels(&sdf, in, n, h, origin, 0, &err), RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "empty") != NULL);
    memset(in, 1, total);
    ASSERT_EQ_INT(rbl_sdf_from_voxels(&sdf, in, n, h, origin, 0, &err), RBL_EINVAL);
    free(in);
}

/* ---- STL files ---- */

static void write_stl_ascii(const char *path, const double *v, const int (*tri)[3], int nt,
                            int flip)
{
    FILE *f = fopen(path, "w");
    ASSERT_TRUE(f != NULL);
    fprintf(f, "solid test\n");
    for (int t = 0; t < nt; t++) {
        fprintf(f, "  facet normal 0 0 0\n    outer loop\n");
        for (int c = 0; c < 3; c++) {
            int k = tri[t][flip ? 2 - c : c];
            fprintf(f, "      vertex %.17g %.17g %.17g\n", v[3 * k], v[3 * k + 1], v[3 * k + 2]);
        }
        fprintf(f, "    endloop\n  endfacet\n");
    }
    fprintf(f, "endsolid test\n");
    fclose(f);
}

static void write_stl_binary(const char *path, const double *v, const int (*tri)[3], int nt)
{
    FILE *f = fopen(path, "wb");
    ASSERT_TRUE(f != NULL);
    char header[80] = "solid-looking header of a binary file";
    fwrite(header, 1, 80, f);
    uint32_t n = (uint32_t)nt;
    fwrite(&n, 4, 1, f);
    for (int t = 0; t < nt; t++) {
        float rec[12] = {0};
        for (int c = 0; c < 3; c++)
            for (int a = 0; a < 3; a++)
                rec[3 + 3 * c + a] = (float)v[3 * tri[t][c] + a];
        fwrite(rec, 4, 12, f);
        uint16_t attr = 0;
        fwrite(&attr, 2, 1, f);
    }
    fclose(f);
}

static const double box_v[8][3] = {{-1, -1.5, -2.2}, {1, -1.5, -2.2}, {1, 1.5, -2.2},
                                   {-1, 1.5, -2.2},  {-1, -1.5, 2.2}, {1, -1.5, 2.2},
                                   {1, 1.5, 2.2},    {-1, 1.5, 2.2}};
static const int box_t[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                 {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5},
                                 {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
static const double oct_v[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
static const int oct_t[8][3] = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};

/* The mesh field against the analytic one at every sample: max |difference|. */
static double field_vs_shape(const char *path, const char *shape_text, double h)
{
    rbl_mesh m;
    rbl_error err = {0};
    if (rbl_stl_read(path, &m, &err) != RBL_OK) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    rbl_sdf sdf;
    ASSERT_OK(rbl_sdf_from_mesh(&sdf, &m, h, 2, 0, NULL));
    rbl_shape s;
    ASSERT_OK(rbl_shape_parse(shape_text, &s, NULL));
    double worst = 0;
    for (size_t k = 0; k < sdf.n[2]; k++)
        for (size_t j = 0; j < sdf.n[1]; j++)
            for (size_t i = 0; i < sdf.n[0]; i++) {
                double p[3] = {sdf.origin[0] + h * (double)i, sdf.origin[1] + h * (double)j,
                               sdf.origin[2] + h * (double)k};
                double d = fabs(sdf.value[rbl_sdf_index(&sdf, i, j, k)] - rbl_shape_distance(&s, p));
                worst = fmax(worst, d);
            }
    rbl_sdf_free(&sdf);
    rbl_mesh_free(&m);
    return worst;
}

static void test_stl_exact_solids(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/box.stl", dir);
    write_stl_ascii(path, &box_v[0][0], box_t, 12, 0);
    rbl_mesh m;
    ASSERT_OK(rbl_stl_read(path, &m, NULL));
    ASSERT_EQ_INT(m.n_vertices, 8);
    ASSERT_NEAR(rbl_mesh_volume(&m), 2 * 3 * 4.4, 1e-12);
    rbl_mesh_free(&m);
    /* float storage of the field: 1e-6 relative to the extent */
    ASSERT_NEAR(field_vs_shape(path, "box:2,3,4.4", 0.1), 0, 4e-6);
    /* inward facets are turned outward: the same field */
    write_stl_ascii(path, &box_v[0][0], box_t, 12, 1);
    ASSERT_NEAR(field_vs_shape(path, "box:2,3,4.4", 0.1), 0, 4e-6);
    /* binary octahedron, h = 0.25: rays run exactly through its vertices and along its edges */
    snprintf(path, sizeof path, "%s/oct.stl", dir);
    write_stl_binary(path, &oct_v[0][0], oct_t, 8);
    ASSERT_NEAR(field_vs_shape(path, "octahedron:1", 0.25), 0, 1e-6);
    ASSERT_NEAR(field_vs_shape(path, "octahedron:1", 0.05), 0, 1e-6);
}

/* An icosphere of 5120 facets inscribed in the unit sphere: the field differs from the
 * sphere's by at most the sagitta of its longest edge, e^2 / (8 r) (about 0.0009). */
static void test_stl_icosphere(const char *dir)
{
    double *v = malloc(3 * 12 * sizeof *v);
    int (*t)[3] = malloc(20 * sizeof *t), nv = 12, nt = 20;
    const double g = (1 + sqrt(5.0)) / 2;
    const double base[12][3] = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0},
                                {0, -1, g}, {0, 1, g}, {0, -1, -g}, {0, 1, -g},
                                {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
    const int faces[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                              {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                              {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                              {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (int k = 0; k < 12; k++) {
        double len = sqrt(base[k][0] * base[k][0] + base[k][1] * base[k][1] + base[k][2] * base[k][2]);
        for (int a = 0; a < 3; a++)
            v[3 * k + a] = base[k][a] / len;
    }
    memcpy(t, faces, sizeof faces);
    for (int level = 0; level < 4; level++) { /* split every edge at its midpoint, pushed out */
        int (*nt4)[3] = malloc(4 * (size_t)nt * sizeof *nt4);
        v = realloc(v, 3 * (size_t)(nv + 3 * nt) * sizeof *v);
        for (int f = 0; f < nt; f++) {
            int mid[3];
            for (int e = 0; e < 3; e++) {
                int a = t[f][e], b = t[f][(e + 1) % 3];
                double m[3], len = 0;
                for (int x = 0; x < 3; x++)
                    m[x] = 0.5 * (v[3 * a + x] + v[3 * b + x]), len += m[x] * m[x];
                len = sqrt(len);
                for (int x = 0; x < 3; x++)
                    v[3 * nv + x] = m[x] / len; /* duplicates are welded by the reader */
                mid[e] = nv++;
            }
            int c0 = t[f][0], c1 = t[f][1], c2 = t[f][2];
            int sub[4][3] = {{c0, mid[0], mid[2]}, {c1, mid[1], mid[0]}, {c2, mid[2], mid[1]},
                             {mid[0], mid[1], mid[2]}};
            memcpy(nt4 + 4 * f, sub, sizeof sub);
        }
        free(t);
        t = nt4, nt *= 4;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/ico.stl", dir);
    write_stl_ascii(path, v, (const int(*)[3])t, nt, 0);
    /* the two surfaces are at most 1 - cos(angle of the largest circumradius) apart (the
     * Hausdorff distance: a facet sags most at its circumcentre) */
    double sagitta = 0;
    for (int f = 0; f < nt; f++) {
        const double *a = v + 3 * t[f][0], *b = v + 3 * t[f][1], *c = v + 3 * t[f][2];
        double ab[3], ac[3], n[3];
        rbl_sub3(b, a, ab);
        rbl_sub3(c, a, ac);
        rbl_cross3(ab, ac, n);
        double la = sqrt(rbl_dot3(ab, ab)), lc = sqrt(rbl_dot3(ac, ac)), bc[3];
        rbl_sub3(c, b, bc);
        double lb = sqrt(rbl_dot3(bc, bc));
        double rc = la * lb * lc / (2 * sqrt(rbl_dot3(n, n))); /* circumradius: abc / (4 area) */
        sagitta = fmax(sagitta, 1 - sqrt(1 - rc * rc));
    }
    double worst = field_vs_shape(path, "sphere:1", 0.05);
    printf("icosphere: %d facets, worst |field - sphere| %.3g <= sagitta %.3g (h/2 = 0.025)\n", nt,
           worst, sagitta);
    ASSERT_TRUE(worst <= sagitta * 1.01 + 1e-6);
    free(v), free(t);
}

static void expect_stl_error(const char *path, const char *text, int code, const char *needle)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    rbl_mesh m;
    rbl_error err = {0};
    int rc = rbl_stl_read(path, &m, &err);
    if (rc != code || !strstr(err.message, needle)) {
        fprintf(stderr, "expected %d with '%s', got %d: %s\n", code, needle, rc, err.message);
        exit(1);
    }
}

static void test_stl_errors(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad.stl", dir);
    /* a box with one facet missing */
    write_stl_ascii(path, &box_v[0][0], box_t, 11, 0);
    rbl_mesh m;
    rbl_error err = {0};
    ASSERT_EQ_INT(rbl_stl_read(path, &m, &err), RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "not closed") != NULL);
    /* one facet wound the other way */
    int flipped[12][3];
    memcpy(flipped, box_t, sizeof flipped);
    flipped[5][1] = box_t[5][2], flipped[5][2] = box_t[5][1];
    write_stl_ascii(path, &box_v[0][0], (const int(*)[3])flipped, 12, 0);
    ASSERT_EQ_INT(rbl_stl_read(path, &m, &err), RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "inconsistent orientation") != NULL);
    expect_stl_error(path, "hello world\n", RBL_EPARSE, "not an STL file");
    expect_stl_error(path, "solid x\nfacet normal 0 0 1\nouter loop\nvertex 1 2 zz\n", RBL_EPARSE,
                     ":4: 'zz' is not a number");
    expect_stl_error(path, "solid x\nfacet normal 0 0 1\nouter loop\nvertex 1 2 3\n", RBL_EPARSE,
                     "expected 'vertex'");
    expect_stl_error(path, "solid x\nfacet normal 0 0 1\nouter loop\nvertex 1 2 nan\n", RBL_EPARSE,
                     "not a finite number");
    expect_stl_error(path, "solid x\nendsolid x\n", RBL_EINVAL, "cannot enclose");
    ASSERT_EQ_INT(rbl_stl_read("/nonexistent/x.stl", &m, &err), RBL_EIO);
}

/* Issue 41: an ASCII file of several solids (CAD exports name each patch) is read whole: the
 * box's 12 facets as two solids of 6; text after the last 'endsolid' is refused. */
static void test_stl_solids(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/patches.stl", dir);
    FILE *f = fopen(path, "w");
    ASSERT_TRUE(f != NULL);
    for (int t = 0; t < 12; t++) {
        if (t % 6 == 0)
            fprintf(f, "solid patch%d\n", t / 6);
        fprintf(f, "facet normal 0 0 0\nouter loop\n");
        for (int c = 0; c < 3; c++) {
            const double *v = box_v[box_t[t][c]];
            fprintf(f, "vertex %.17g %.17g %.17g\n", v[0], v[1], v[2]);
        }
        fprintf(f, "endloop\nendfacet\n");
        if (t % 6 == 5)
            fprintf(f, "endsolid patch%d\n", t / 6);
    }
    fclose(f);
    rbl_mesh m;
    rbl_error err = {0};
    ASSERT_OK(rbl_stl_read(path, &m, &err));
    ASSERT_EQ_INT(m.n_triangles, 12);
    rbl_mesh_free(&m);
    expect_stl_error(path, "solid a\nendsolid a\nfacet\n", RBL_EPARSE,
                     ":3: expected 'solid' or the end of the file after 'endsolid'");
    printf("stl: a box as two solids read as one mesh of 12 facets\n");
}

static void test_volume_files(const char *dir)
{
    rbl_shape s;
    ASSERT_OK(rbl_shape_parse("ellipsoid:1,0.6,0.4", &s, NULL));
    rbl_sdf a, b;
    ASSERT_OK(rbl_sdf_from_shape(&a, &s, 0.1, 2, 0, NULL));
    char path[512];
    snprintf(path, sizeof path, "%s/e.sdf", dir);
    ASSERT_OK(rbl_sdf_write(path, &a, NULL));
    ASSERT_OK(rbl_volume_read(path, &b, 0, NULL));
    ASSERT_TRUE(memcmp(a.n, b.n, sizeof a.n) == 0);
    ASSERT_NEAR(b.h, a.h, 0);
    ASSERT_TRUE(memcmp(a.value, b.value, rbl_sdf_count(&a) * sizeof(float)) == 0);
    rbl_sdf_free(&b);
    /* the same body as an ASCII voxel image */
    snprintf(path, sizeof path, "%s/e.vox", dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "# an ellipsoid\nrubble-voxels 1\ndims %zu %zu %zu\nspacing %.17g\n"
               "origin %.17g %.17g %.17g\ndata ascii\n",
            a.n[0], a.n[1], a.n[2], a.h, a.origin[0], a.origin[1], a.origin[2]);
    size_t total = rbl_sdf_count(&a);
    uint8_t *in = malloc(total);
    for (size_t v = 0; v < total; v++) {
        in[v] = a.value[v] > 0;
        fprintf(f, "%d%c", in[v], v % 20 == 19 ? '\n' : ' ');
    }
    fclose(f);
    rbl_sdf c;
    ASSERT_OK(rbl_volume_read(path, &b, 0, NULL));
    ASSERT_OK(rbl_sdf_from_voxels(&c, in, a.n, a.h, a.origin, 0, NULL));
    ASSERT_TRUE(memcmp(b.value, c.value, total * sizeof(float)) == 0);
    /* the voxel field is within one voxel of the exact one */
    for (size_t v = 0; v < total; v++)
        ASSERT_NEAR(b.value[v], a.value[v], a.h);
    rbl_sdf_free(&b), rbl_sdf_free(&c), rbl_sdf_free(&a);
    free(in);
    /* a grid too large for the memory limit */
    rbl_error err;
    const size_t big[3] = {4000, 4000, 4000};
    const double o[3] = {0, 0, 0};
    ASSERT_EQ_INT(rbl_sdf_alloc(&a, big, 1, o, (size_t)1 << 30, &err), RBL_ETOOBIG);
    ASSERT_TRUE(strstr(err.message, "too large") != NULL);
}

int main(void)
{
    char dir[] = "/tmp/rubble_shape_XXXXXX";
    ASSERT_TRUE(mkdtemp(dir) != NULL);
    test_closed_forms();
    test_ellipsoid_brute();
    test_distance_transform();
    test_stl_exact_solids(dir);
    test_stl_icosphere(dir);
    test_stl_errors(dir);
    test_stl_solids(dir);
    test_volume_files(dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ASSERT_TRUE(system(cmd) == 0);
    printf("test_shape_fields: ok\n");
    return 0;
}
