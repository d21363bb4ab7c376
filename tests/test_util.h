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
