/* clock_rng.c — monotonic wall clock and a deterministic xoshiro256** generator
 * (Blackman & Vigna), seeded through splitmix64. */
#include "base_internal.h"

#include <time.h>

double rbl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void rbl_rng_seed(rbl_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rbl_rng_next(rbl_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rbl_rng_uniform(rbl_rng *rng) { return (double)(rbl_rng_next(rng) >> 11) * 0x1.0p-53; }

uint64_t rbl_rng_below(rbl_rng *rng, uint64_t bound)
{
    /* Lemire's nearly-divisionless method would do; bias of a plain modulo of 64 random bits
     * is below 2^-40 for the bounds used here (<= 2^24), so keep it simple. */
    return bound ? rbl_rng_next(rng) % bound : 0;
}
