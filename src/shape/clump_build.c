/* clump_build.c — Algorithm 1 of seed 001 (KL2): the inside samples of a signed distance field,
 * sorted by decreasing distance, each become a sphere of radius f unless the sphere lies inside
 * an existing one or its centre is closer than R r_phi to an existing centre; stop at P_max.
 *
 * The seed tests every candidate against every sphere (O(P) per sample). Here each accepted
 * sphere writes, once, into a per-sample "cover" the largest r_phi - |x - p_phi| over the
 * spheres (containment: the candidate's sphere lies inside phi when r_phi - |x - p_phi| >= f)
 * and +inf where |x - p_phi| < R r_phi; a candidate is then one comparison. The cost is the
 * sum of the spheres' volumes in voxels instead of P times the number of samples.
 * The field is stored in float, so a sphere tangent to another from inside may poke out by a
 * float rounding; both tests allow eps = RBL_CLUMP_TIE_VOXELS * h: contained when
 * |x - p_phi| + f <= r_phi + eps, too close when |x - p_phi| < R r_phi - eps; and samples on
 * the surface (f <= eps, positive only by round-off) are not inside. */
#include "shape_internal.h"

#include <stdlib.h>
#include <string.h>

static int clump_push(rbl_clump *c, size_t *cap, const double s[4], rbl_error *err)
{
    if (c->n == *cap) {
        size_t nc = *cap ? 2 * *cap : 256;
        double *ns = realloc(c->sphere, nc * 4 * sizeof *ns);
        if (!ns)
            return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu spheres", nc);
        c->sphere = ns;
        *cap = nc;
    }
    memcpy(c->sphere + 4 * c->n++, s, 4 * sizeof *s);
    return RBL_OK;
}

/* Write sphere (i, j, k; radius r) into the cover of every sample within max(R, 1) r. */
static void cover_sphere(const rbl_sdf *sdf, float *cover, const size_t c[3], double r,
                         double ratio)
{
    double h = sdf->h, reach = fmax(ratio, 1.0) * r + RBL_CLUMP_TIE_VOXELS * h;
    double block = ratio * r - RBL_CLUMP_TIE_VOXELS * h;
    /* spans are clipped to the grid anyway; clipped before the cast, a huge ratio cannot
     * overflow it */
    const double most = (double)(sdf->n[0] + sdf->n[1] + sdf->n[2]);
    long span = (long)fmin(floor(reach / h), most);
    long lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = (long)c[a] - span;
        hi[a] = (long)c[a] + span;
        if (lo[a] < 0)
            lo[a] = 0;
        if (hi[a] > (long)sdf->n[a] - 1)
            hi[a] = (long)sdf->n[a] - 1;
    }
#pragma omp parallel for schedule(static) if (span > 24)
    for (long k = lo[2]; k <= hi[2]; k++) {
        double dz = (double)(k - (long)c[2]) * h;
        for (long j = lo[1]; j <= hi[1]; j++) {
            double dy = (double)(j - (long)c[1]) * h, dyz2 = dy * dy + dz * dz;
            if (dyz2 > reach * reach)
                continue;
            long half = (long)fmin(floor(sqrt(reach * reach - dyz2) / h), most);
            long i0 = (long)c[0] - half, i1 = (long)c[0] + half;
            if (i0 < lo[0])
                i0 = lo[0];
            if (i1 > hi[0])
                i1 = hi[0];
            float *row = cover + rbl_sdf_index(sdf, 0, (size_t)j, (size_t)k);
            for (long i = i0; i <= i1; i++) {
                double dx = (double)(i - (long)c[0]) * h, d = sqrt(dx * dx + dyz2);
                if (d < block) {
                    row[i] = INFINITY;
                } else {
                    float depth = (float)(r - d);
                    if (depth > row[i])
                        row[i] = depth;
                }
            }
        }
    }
}

int rbl_clump_build(const rbl_sdf *sdf, const rbl_clump_options *options, rbl_clump *clump,
                    rbl_error *err)
{
    memset(clump, 0, sizeof *clump);
    double ratio = options->ratio;
    if (!(ratio > 0) || !isfinite(ratio))
        return rbl_error_set(err, RBL_ERANGE, "R = %g: the centre-distance ratio must be "
                             "positive", ratio);
    size_t total = rbl_sdf_count(sdf), inside = 0;
    const double eps = RBL_CLUMP_TIE_VOXELS * sdf->h;
    for (size_t v = 0; v < total; v++)
        inside += sdf->value[v] > eps;
    if (inside == 0)
        return rbl_error_set(err, RBL_EINVAL, "the distance field has no sample inside the body "
                             "(no positive value): nothing to fill");
    uint64_t *key = malloc(2 * inside * sizeof *key);
    uint32_t *idx = malloc(2 * inside * sizeof *idx);
    float *cover = malloc(total * sizeof *cover);
    if (!key || !idx || !cover) {
        free(key), free(idx), free(cover);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu inside samples", inside);
    }
    /* descending distance: the bits of a positive float order like the float; a stable
     * radix sort keeps ties in grid order */
    size_t m = 0;
    for (size_t v = 0; v < total; v++) {
        cover[v] = -INFINITY;
        if (sdf->value[v] > eps) {
            uint32_t bits;
            memcpy(&bits, &sdf->value[v], sizeof bits);
            key[m] = UINT32_MAX - bits;
            idx[m++] = (uint32_t)v;
        }
    }
    rbl_radix_sort_u64(key, idx, inside, 32, key + inside, idx + inside);
    size_t cap = 0, limit = options->max_spheres ? options->max_spheres : SIZE_MAX;
    int rc = RBL_OK;
    for (size_t q = 0; q < inside && clump->n < limit; q++) {
        size_t v = idx[q];
        float f = sdf->value[v];
        if ((double)cover[v] + eps >= f)
            continue;
        size_t c[3] = {v % sdf->n[0], (v / sdf->n[0]) % sdf->n[1], v / (sdf->n[0] * sdf->n[1])};
        double s[4];
        for (int a = 0; a < 3; a++)
            s[a] = sdf->origin[a] + sdf->h * (double)c[a];
        s[3] = f;
        rc = clump_push(clump, &cap, s, err);
        if (rc != RBL_OK)
            break;
        cover_sphere(sdf, cover, c, f, ratio);
    }
    free(key), free(idx), free(cover);
    if (rc != RBL_OK)
        rbl_clump_free(clump);
    return rc;
}

void rbl_clump_free(rbl_clump *clump)
{
    free(clump->sphere);
    clump->sphere = NULL;
    clump->n = 0;
}
