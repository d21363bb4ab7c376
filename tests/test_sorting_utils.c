/* test_sorting_utils.c — the shared radix sort and the Demcda pair order (i descending, then
 * j descending), against qsort on random data; the algorithm-name table. */
#include "test_util.h"

#include "base/base_internal.h"
#include "rubble.h"

#include <string.h>

static int cmp_desc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x < y) - (x > y);
}

int main(void)
{
    rbl_rng rng;
    rbl_rng_seed(&rng, 42);
    size_t n = 100000;
    uint64_t *keys = malloc(n * sizeof *keys), *tk = malloc(n * sizeof *tk);
    uint32_t *vals = malloc(n * sizeof *vals), *tv = malloc(n * sizeof *tv);
    for (size_t k = 0; k < n; k++) {
        keys[k] = rbl_rng_next(&rng) >> 20; /* 44 bits */
        vals[k] = (uint32_t)(keys[k] * 7u);
    }
    rbl_radix_sort_u64(keys, vals, n, 44, tk, tv);
    for (size_t k = 1; k < n; k++) {
        ASSERT_TRUE(keys[k - 1] <= keys[k]);
        ASSERT_TRUE(vals[k] == (uint32_t)(keys[k] * 7u)); /* payload travelled with its key */
    }

    size_t n_el = 5000;
    rbl_pairs p = {0};
    for (size_t k = 0; k < 50000; k++) {
        uint64_t i = rbl_rng_below(&rng, n_el - 1) + 1, j = rbl_rng_below(&rng, i);
        if (p.n == p.cap) {
            p.cap = p.cap ? 2 * p.cap : 1024;
            p.ij = realloc(p.ij, p.cap * sizeof *p.ij);
        }
        p.ij[p.n++] = (i << 32) | j;
    }
    uint64_t *copy = malloc(p.n * sizeof *copy);
    memcpy(copy, p.ij, p.n * sizeof *copy);
    qsort(copy, p.n, sizeof *copy, cmp_desc);
    rbl_error err;
    ASSERT_OK(rbl_pairs_sort_descending(&p, n_el, &err));
    for (size_t k = 0; k < p.n; k++)
        ASSERT_TRUE(p.ij[k] == copy[k]);

    const char *names[] = {"screening", "nbs", "direct", "sorting", "tree", "cgrid", "brute"};
    for (int k = 0; k < 7; k++) {
        rbl_cd_algorithm a;
        ASSERT_OK(rbl_cd_algorithm_parse(names[k], &a, &err));
        ASSERT_TRUE(strcmp(rbl_cd_algorithm_name(a), names[k]) == 0);
    }
    rbl_cd_algorithm a;
    ASSERT_OK(rbl_cd_algorithm_parse("1", &a, &err));
    ASSERT_EQ_INT(a, RBL_CD_SCREENING);
    ASSERT_OK(rbl_cd_algorithm_parse("2", &a, &err));
    ASSERT_EQ_INT(a, RBL_CD_NBS);
    ASSERT_EQ_INT(rbl_cd_algorithm_parse("3", &a, &err), RBL_EINVAL);
    ASSERT_TRUE(strstr(err.message, "'3'") != NULL);

    free(keys), free(tk), free(vals), free(tv), free(copy);
    rbl_pairs_free(&p);
    printf("radix sort, Demcda pair order and algorithm names: ok\n");
    return 0;
}
