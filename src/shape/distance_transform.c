/* distance_transform.c — a binary voxel image turned into a signed distance field (KL1) by the
 * exact Euclidean distance transform of Felzenszwalb and Huttenlocher ("Distance Transforms of
 * Sampled Functions", Theory of Computing 8, 2012): the squared distance is the lower envelope
 * of parabolas, one axis after the other, in O(N). Integer squared distances (voxel units) are
 * exact; the surface lies halfway between an inside and an outside voxel centre. */
#include "shape_internal.h"

#include <stdlib.h>
#include <string.h>

#define FAR UINT32_MAX

/* One line: d[i] <- min_q (f[q] + (i - q)^2) over the finite f[q]. v, z, f are scratch. */
static void line_transform(uint32_t *d, size_t n, size_t stride, uint32_t *f, size_t *v, double *z)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        f[i] = d[i * stride];
    for (size_t q = 0; q < n; q++) {
        if (f[q] == FAR)
            continue;
        double fq = (double)f[q] + (double)q * (double)q;
        while (m > 0) {
            size_t p = v[m - 1];
            double s = (fq - ((double)f[p] + (double)p * (double)p)) / (2.0 * ((double)q - (double)p));
            if (s <= z[m - 1])
                m--;
            else {
                z[m] = s;
                break;
            }
        }
        if (m == 0)
            z[0] = -INFINITY;
        v[m++] = q;
    }
    if (m == 0)
        return; /* nothing on this line: all stay far */
    z[m] = INFINITY;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        while (z[k + 1] < (double)i)
            k++;
        double di = (double)i - (double)v[k];
        double val = (double)f[v[k]] + di * di;
        d[i * stride] = val >= (double)FAR ? FAR : (uint32_t)val;
    }
}

/* Squared distance (voxels^2) from every voxel to the nearest voxel whose inside flag equals
 * target. */
static int squared_distance(const uint8_t *inside, const size_t n[3], int target, uint32_t *d)
{
    size_t total = n[0] * n[1] * n[2], longest = n[0] > n[1] ? n[0] : n[1];
    if (n[2] > longest)
        longest = n[2];
    for (size_t v = 0; v < total; v++)
        d[v] = ((inside[v] != 0) == target) ? 0 : FAR;
    const size_t stride[3] = {1, n[0], n[0] * n[1]};
    int failed = 0;
    for (int axis = 0; axis < 3; axis++) {
        int o1 = (axis + 1) % 3, o2 = (axis + 2) % 3;
        long lines = (long)(n[o1] * n[o2]);
#pragma omp parallel
        {
            uint32_t *f = malloc(longest * sizeof *f);
            size_t *v = malloc(longest * sizeof *v);
            double *z = malloc((longest + 1) * sizeof *z);
            if (!f || !v || !z) {
#pragma omp atomic write
                failed = 1;
            }
#pragma omp for schedule(static)
            for (long l = 0; l < lines; l++) {
                if (!f || !v || !z)
                    continue;
                size_t a = (size_t)l % n[o1], b = (size_t)l / n[o1];
                line_transform(d + a * stride[o1] + b * stride[o2], n[axis], stride[axis], f, v, z);
            }
            free(f), free(v), free(z);
        }
    }
    return failed ? RBL_ENOMEM : RBL_OK;
}

int rbl_sdf_from_voxels(rbl_sdf *sdf, const uint8_t *inside, const size_t n[3], double h,
                        const double origin[3], size_t memory_limit, rbl_error *err)
{
    int rc = rbl_sdf_alloc(sdf, n, h, origin, memory_limit, err);
    if (rc != RBL_OK)
        return rc;
    size_t total = rbl_sdf_count(sdf), count_in = 0;
    for (size_t v = 0; v < total; v++)
        count_in += inside[v] != 0;
    if (count_in == 0 || count_in == total) {
        rbl_sdf_free(sdf);
        return rbl_error_set(err, RBL_EINVAL, count_in ? "every voxel is inside: the body "
                             "touches no outside voxel (pad the image)"
                             : "no voxel is inside: the image is empty");
    }
    uint32_t *d = malloc(total * sizeof *d);
    if (!d) {
        rbl_sdf_free(sdf);
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for the distance transform of %zu "
                             "voxels", total);
    }
    for (int pass = 0; pass < 2 && rc == RBL_OK; pass++) {
        rc = squared_distance(inside, n, pass == 0 ? 0 : 1, d);
        for (size_t v = 0; v < total && rc == RBL_OK; v++) {
            int in = inside[v] != 0;
            if (in == (pass == 0)) /* pass 0: inside voxels, distance to the outside */
                sdf->value[v] = (float)((in ? 1 : -1) * (sqrt((double)d[v]) - 0.5) * h);
        }
    }
    free(d);
    if (rc != RBL_OK) {
        rbl_sdf_free(sdf);
        return rbl_error_set(err, rc, "out of memory for the distance transform");
    }
    return RBL_OK;
}
