/* test_exact_sum.c — the exact sum (exact_sum.c): sums whose plain floating-point sum loses
 * everything (1e300 + 1 - 1e300), the result against a long double sum of terms chosen so that
 * it is exact, the same bits for any order of the terms and any split of them merged, correct
 * rounding on ties, subnormals, negative sums, and the non-finite terms kept apart. */
#include "test_util.h"

#include "base/base_internal.h"

#include <float.h>
#include <string.h>

static double sum_of(const double *x, size_t n)
{
    rbl_exact_sum s;
    rbl_exact_clear(&s);
    for (size_t k = 0; k < n; k++)
        rbl_exact_add(&s, x[k]);
    return rbl_exact_value(&s);
}

static uint64_t bits_of(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static void test_cancellation(void)
{
    const double a[] = {1e300, 1.0, -1e300};
    ASSERT_TRUE(sum_of(a, 3) == 1.0);
    const double b[] = {0x1p1000, 0x1p-1000, -0x1p1000, 0x1p-1074};
    ASSERT_TRUE(sum_of(b, 4) == 0x1p-1000 + 0x1p-1074 || sum_of(b, 4) == 0x1p-1000);
    /* 0x1p-1000 + 0x1p-1074 rounds to 0x1p-1000 (74 bits apart): correctly rounded */
    ASSERT_TRUE(sum_of(b, 4) == 0x1p-1000);
    const double c[] = {DBL_MAX, DBL_MAX, -DBL_MAX};
    ASSERT_TRUE(sum_of(c, 3) == DBL_MAX); /* no overflow in between */
    const double d[] = {0x1p-1074, 0x1p-1074, 0x1p-1074};
    ASSERT_TRUE(sum_of(d, 3) == 3 * 0x1p-1074);
    const double e[] = {-2.5, 1.0, -0.25};
    ASSERT_TRUE(sum_of(e, 3) == -1.75);
    ASSERT_TRUE(sum_of(NULL, 0) == 0.0);
    const double f[] = {-0.0, 0.0};
    ASSERT_TRUE(sum_of(f, 2) == 0.0);
    printf("cancellation: 1e300 + 1 - 1e300 = %g, subnormals and DBL_MAX exact\n", sum_of(a, 3));
}

/* Ties: 1 + 2^-53 is halfway between 1 and its successor: to even (1); one more tiny term
 * breaks the tie upwards, even 2^-1074. */
static void test_rounding(void)
{
    const double tie[] = {1.0, 0x1p-53};
    ASSERT_TRUE(sum_of(tie, 2) == 1.0);
    const double up[] = {1.0, 0x1p-53, 0x1p-1074};
    ASSERT_TRUE(sum_of(up, 3) == 1.0 + 0x1p-52);
    const double odd_tie[] = {1.0 + 0x1p-52, 0x1p-53};
    ASSERT_TRUE(sum_of(odd_tie, 2) == 1.0 + 0x1p-51);
    const double neg[] = {-1.0, -0x1p-53, -0x1p-1074};
    ASSERT_TRUE(sum_of(neg, 3) == -(1.0 + 0x1p-52));
    printf("rounding: ties to even, a sticky 2^-1074 breaks them\n");
}

/* Terms of 40 significant bits between 2^-20 and 2^20: their sum fits a long double's 64 bits
 * exactly, so rounding it to double is the correctly rounded sum. Any order and any split
 * into merged parts gives the same bits. */
static void test_orders(void)
{
    enum { N = 20000 };
    static double x[N];
    rbl_rng rng;
    rbl_rng_seed(&rng, 7);
    long double exact = 0.0L;
    for (int k = 0; k < N; k++) {
        double m = (double)(rbl_rng_next(&rng) >> 24) * 0x1p-40; /* [0, 1), 40 bits */
        int e = (int)rbl_rng_below(&rng, 12) - 6;
        x[k] = ldexp(rbl_rng_uniform(&rng) < 0.5 ? -m : m, e);
        exact += x[k];
    }
    const double want = (double)exact;
    const double first = sum_of(x, N);
    ASSERT_TRUE(first == want);
    int plain_differs = 0;
    for (int trial = 0; trial < 20; trial++) {
        for (int k = N - 1; k > 0; k--) { /* shuffle */
            int j = (int)rbl_rng_below(&rng, (uint64_t)k + 1);
            double t = x[k];
            x[k] = x[j], x[j] = t;
        }
        double plain = 0.0;
        for (int k = 0; k < N; k++)
            plain += x[k];
        plain_differs += plain != want;
        /* split into 1 .. 7 parts summed apart and merged */
        const int parts = 1 + trial % 7;
        rbl_exact_sum total, part;
        rbl_exact_clear(&total);
        for (int p = 0; p < parts; p++) {
            rbl_exact_clear(&part);
            for (int k = N * p / parts; k < N * (p + 1) / parts; k++)
                rbl_exact_add(&part, x[k]);
            rbl_exact_merge(&total, &part);
        }
        ASSERT_TRUE(bits_of(rbl_exact_value(&total)) == bits_of(want));
        ASSERT_TRUE(bits_of(sum_of(x, N)) == bits_of(first));
    }
    printf("orders: 20 shuffles x 1-7 merged parts give the same bits; the plain sum differed in "
           "%d of 20\n",
           plain_differs);
    ASSERT_TRUE(plain_differs > 0); /* the case is one where order matters */
}

/* More terms than the carries' period (2^29), each close to the most a term adds to a limb
 * (53 bits set, straddling three limbs): the carries propagated mid-sum keep it exact, 2^29 + 5
 * of them sum to the integer product, rounded once. */
static void test_many_terms(void)
{
    rbl_exact_sum s;
    rbl_exact_clear(&s);
    const double x = 0x1.fffffffffffffp1; /* (2^53 - 1) 2^-51: its lowest bit at limb bit 31 */
    const uint64_t n = (UINT64_C(1) << 29) + 5;
    for (uint64_t k = 0; k < n; k++)
        rbl_exact_add(&s, x);
    const unsigned __int128 units = (unsigned __int128)n * ((UINT64_C(1) << 53) - 1);
    const double want = ldexp((double)units, -51); /* the conversion rounds to nearest */
    ASSERT_TRUE(rbl_exact_value(&s) == want);
    printf("many terms: 2^29 + 5 terms of 53 bits each: %.17g, as the exact product\n", want);
}

static void test_special(void)
{
    const double a[] = {1.0, INFINITY, 2.0};
    ASSERT_TRUE(sum_of(a, 3) == INFINITY);
    const double b[] = {INFINITY, -INFINITY};
    ASSERT_TRUE(isnan(sum_of(b, 2)));
    const double c[] = {1.0, NAN};
    ASSERT_TRUE(isnan(sum_of(c, 2)));
}

int main(void)
{
    test_cancellation();
    test_rounding();
    test_orders();
    if (!getenv("RBL_TEST_SLOW_BUILD")) /* 2^29 terms: 2 s in a release build */
        test_many_terms();
    test_special();
    printf("test_exact_sum: ok\n");
    return 0;
}
