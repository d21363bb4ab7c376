/* cd_cgrid.c — C-grid contact detection for elements of arbitrary size (CD4; after Williams,
 * Perkins & Cook, Eng. Comput. 21 (2004) 235–248: bins from hashing bounding boxes, large
 * objects allowed to span several bins). Bins are sized from the MEAN diameter, not the
 * largest, and each element is entered in every bin its bounding box overlaps, so a large
 * element costs more bins instead of making every small element search a large mask. Two
 * touching elements share at least one bin; the pair is reported only in the bin holding the
 * lowest corner of the intersection of their boxes, so each pair comes out once without a
 * mask or a hash set. Bins are sparse (sorted keys), so memory is O(entries), never O(cells).
 * This is rubble's answer for wide size ranges; see docs/contact-detection.md. */
#include "grid_internal.h"

/* Boxes are inflated by this relative margin so that pairs touching within
 * RBL_TOUCH_REL_TOL still have overlapping boxes. */
#define BOX_MARGIN (1.0 + 4.0 * RBL_TOUCH_REL_TOL)
/* Bins are never smaller than this share of the largest diameter: it caps the bins one
 * large element can occupy at about 9^3. */
#define MIN_EDGE_SHARE (1.0 / 8.0)

static void box_cells(const rbl_grid *g, const double *p, double r, int64_t lo[3], int64_t hi[3])
{
    double rr = r * BOX_MARGIN;
    for (int a = 0; a < 3; a++) {
        lo[a] = rbl_grid_coord(g, a, p[a] - rr);
        hi[a] = rbl_grid_coord(g, a, p[a] + rr);
    }
}

int rbl_cd_cgrid(rbl_cd_context *ctx, rbl_pairs *pairs, rbl_error *err)
{
    const rbl_elements *e = ctx->e;
    size_t n = e->n;
    double mean = 0.0;
    for (size_t k = 0; k < n; k++)
        mean += e->radius[k];
    mean = n ? 2.0 * mean / (double)n : 1.0;
    double d_max = 2.0 * rbl_radius_max(e);
    double edge = mean > MIN_EDGE_SHARE * d_max ? mean : MIN_EDGE_SHARE * d_max;
    rbl_grid g;
    int rc = rbl_grid_init_edge(&g, e, edge * (1.0 + 1e-6), err);
    if (rc != RBL_OK)
        return rc;

    /* count entries: every (bin, element) with the bin overlapping the element's box */
    size_t entries = 0;
    for (size_t k = 0; k < n; k++) {
        int64_t lo[3], hi[3];
        box_cells(&g, e->pos + 3 * k, e->radius[k], lo, hi);
        entries += (size_t)((hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1));
    }
    size_t unit = 2 * (sizeof(uint64_t) + sizeof(uint32_t));
    if (entries > SIZE_MAX / unit)
        return rbl_error_set(err, RBL_ETOOBIG, "cgrid: %zu bin entries overflow", entries);
    uint64_t *keys = rbl_mem_alloc(&ctx->mem, entries * sizeof *keys, "cgrid bin keys", err);
    uint32_t *ids = keys ? rbl_mem_alloc(&ctx->mem, entries * sizeof *ids, "cgrid ids", err) : NULL;
    uint64_t *tk = ids ? rbl_mem_alloc(&ctx->mem, entries * sizeof *tk, "sort scratch", err) : NULL;
    uint32_t *ti = tk ? rbl_mem_alloc(&ctx->mem, entries * sizeof *ti, "sort scratch", err) : NULL;
    if (!ti) {
        rbl_mem_free(&ctx->mem, tk, entries * sizeof *tk);
        rbl_mem_free(&ctx->mem, ids, entries * sizeof *ids);
        rbl_mem_free(&ctx->mem, keys, entries * sizeof *keys);
        return err ? err->code : RBL_ENOMEM;
    }
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        int64_t lo[3], hi[3];
        box_cells(&g, e->pos + 3 * k, e->radius[k], lo, hi);
        for (int64_t z = lo[2]; z <= hi[2]; z++)
            for (int64_t y = lo[1]; y <= hi[1]; y++)
                for (int64_t x = lo[0]; x <= hi[0]; x++) {
                    keys[m] = rbl_grid_key(&g, x, y, z);
                    ids[m++] = (uint32_t)k;
                }
    }
    rbl_radix_sort_u64(keys, ids, m, g.key_bits, tk, ti);
    rbl_mem_free(&ctx->mem, ti, entries * sizeof *ti);
    rbl_mem_free(&ctx->mem, tk, entries * sizeof *tk);

    size_t checks = 0;
    for (size_t begin = 0; begin < m && rc == RBL_OK;) {
        size_t end = begin + 1;
        while (end < m && keys[end] == keys[begin])
            end++;
        for (size_t u = begin; u < end && rc == RBL_OK; u++) {
            uint32_t a = ids[u];
            const double *pa = e->pos + 3 * (size_t)a;
            double ra = e->radius[a];
            for (size_t v = u + 1; v < end; v++) {
                uint32_t b = ids[v];
                const double *pb = e->pos + 3 * (size_t)b;
                double rb = e->radius[b];
                checks++;
                if (!rbl_touch(pa, pb, ra + rb))
                    continue;
                double corner[3];
                for (int ax = 0; ax < 3; ax++) {
                    double la = pa[ax] - ra * BOX_MARGIN, lb = pb[ax] - rb * BOX_MARGIN;
                    corner[ax] = la > lb ? la : lb;
                }
                if (rbl_grid_key_of(&g, corner) != keys[begin])
                    continue; /* reported in another shared bin */
                if (rbl_pairs_add(pairs, a, b) != RBL_OK) {
                    rc = RBL_ENOMEM;
                    break;
                }
            }
        }
        begin = end;
    }
    ctx->candidates = checks;
    rbl_mem_free(&ctx->mem, ids, entries * sizeof *ids);
    rbl_mem_free(&ctx->mem, keys, entries * sizeof *keys);
    return rc;
}
