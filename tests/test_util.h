/* test_util.h — loud assertions for rubble's tests: on failure they print both values, the
 * file and the line, and end the test with a non-zero status. */
#ifndef RBL_TEST_UTIL_H
#define RBL_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Under the sanitizers (ctest sets RBL_TEST_SLOW_BUILD) the costliest checks run this
 * fraction of their trials or steps, with the same tolerances; the release pass runs all. */
static inline int slow_build_divisor(void)
{
    const char *s = getenv("RBL_TEST_SLOW_BUILD");
    return s && *s ? 4 : 1;
}

/* A reproducible stream of 64-bit numbers (splitmix64) and of doubles in [0, 1). */
static inline uint64_t test_mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static inline double test_uniform(uint64_t *s)
{
    return (double)(test_mix(s) >> 11) / 9007199254740992.0;
}

/* Self-gravity's test scene (test_gravity_let, test_parallel): n grains in two clumps (a
 * dense one of 2 m at 30 m, one of 10 m at the origin), 1 in 101 up to 2.5 km away (the root
 * stretched), 1 in 400 within 1e-3 mm of one place (a refined cell); ids a permutation when n
 * is prime to 7919. */
static inline void test_two_clumps(size_t n, uint64_t seed, double *pos, double *mass,
                                   double *radius, uint32_t *id)
{
    for (size_t k = 0; k < n; k++) {
        const double size = k % 2 ? 10 : 2, shift = k % 2 ? 0 : 30;
        for (int a = 0; a < 3; a++)
            pos[3 * k + a] = shift + size * (test_uniform(&seed) - 0.5);
        if (k % 101 == 3)
            for (int a = 0; a < 3; a++)
                pos[3 * k + a] = 5000 * (test_uniform(&seed) - 0.5);
        if (k % 400 == 9)
            for (int a = 0; a < 3; a++)
                pos[3 * k + a] = 7 + 1e-6 * (double)(test_mix(&seed) % 1000);
        radius[k] = 0.1 + 0.01 * (double)(k % 7);
        mass[k] = 1e3 * (1 + 0.1 * (double)(k % 5));
        id[k] = (uint32_t)((k * 7919 + 13) % n);
    }
}

#define ASSERT_TRUE(cond)                                                                      \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: ASSERT_TRUE(%s) failed\n", __FILE__, __LINE__, #cond);     \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

#define ASSERT_EQ_INT(a, b)                                                                    \
    do {                                                                                       \
        long long a_ = (long long)(a), b_ = (long long)(b);                                    \
        if (a_ != b_) {                                                                        \
            fprintf(stderr, "%s:%d: ASSERT_EQ_INT(%s, %s) failed: %lld != %lld\n", __FILE__,   \
                    __LINE__, #a, #b, a_, b_);                                                 \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

#define ASSERT_NEAR(a, b, tol)                                                                 \
    do {                                                                                       \
        double a_ = (a), b_ = (b), t_ = (tol);                                                 \
        if (!(fabs(a_ - b_) <= t_)) {                                                          \
            fprintf(stderr, "%s:%d: ASSERT_NEAR(%s, %s, %s) failed: %.17g vs %.17g (diff %g)\n", \
                    __FILE__, __LINE__, #a, #b, #tol, a_, b_, fabs(a_ - b_));                  \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

#define ASSERT_OK(call)                                                                        \
    do {                                                                                       \
        rbl_error err_ = {0};                                                                  \
        (void)err_;                                                                            \
        int rc_ = (call);                                                                      \
        if (rc_ != RBL_OK) {                                                                   \
            fprintf(stderr, "%s:%d: %s returned %d (%s)\n", __FILE__, __LINE__, #call, rc_,    \
                    rbl_strerror(rc_));                                                        \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

#endif
