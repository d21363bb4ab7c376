/* base_internal.h — errors with context, tracked allocation, timers, random numbers, the
 * radix sort shared by the grid algorithms and Brent's maximiser of one variable. Internal to
 * librubble. */
#ifndef RBL_BASE_INTERNAL_H
#define RBL_BASE_INTERNAL_H

#include "rubble.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define RBL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define RBL_LIKELY(x) __builtin_expect(!!(x), 1)
#define RBL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define RBL_PRINTF(a, b)
#define RBL_LIKELY(x) (x)
#define RBL_UNLIKELY(x) (x)
#endif

/* Set err (if not NULL) to code and a formatted message; returns code. */
int rbl_error_set(rbl_error *err, int code, const char *fmt, ...) RBL_PRINTF(3, 4);

/* Put "<formatted prefix>: " in front of err's message (a file name or position the callee did
 * not know) and set its code; returns code. */
int rbl_error_prefix(rbl_error *err, int code, const char *fmt, ...) RBL_PRINTF(3, 4);

/* Working-memory accounting for one algorithm run: every buffer goes through rbl_mem_alloc
 * so that the peak is measured, not estimated, and the memory limit is enforced up front. */
typedef struct rbl_mem {
    size_t current;
    size_t peak;
    size_t limit; /* 0 = none */
    struct rbl_cd_workspace *cache; /* NULL, or where freed buffers wait to be reused */
} rbl_mem;

/* Allocate bytes (uninitialised); what names the buffer in the error message. Large buffers
 * are aligned to 2 MiB and advised to use transparent huge pages (fewer TLB misses). */
void *rbl_mem_alloc(rbl_mem *mem, size_t bytes, const char *what, rbl_error *err);
/* Check a planned allocation against the limit without making it. */
int rbl_mem_reserve_check(const rbl_mem *mem, size_t bytes, const char *what, rbl_error *err);
void rbl_mem_free(rbl_mem *mem, void *p, size_t bytes);
/* calloc for long-lived large arrays (element data), on transparent huge pages; free(). */
void *rbl_huge_calloc(size_t count, size_t size);
/* Room for `need` elements of `size` bytes in *p (capacity *cap, in elements), doubled from
 * 1024 so that repeated growth costs O(1) per element; 0 (nothing changed) when out of
 * memory or when the bytes overflow. */
int rbl_grow_array(void **p, size_t *cap, size_t need, size_t size);
/* Several arrays grown together, as a table of columns: items[k].p the address of array k's
 * pointer, items[k].size the bytes of one of its elements; room for `need` elements in each
 * (the shared capacity *cap, in elements, doubled from `first`), their contents kept. 0 when
 * out of memory or the bytes overflow: those grown before stay valid (larger), *cap unchanged. */
typedef struct rbl_grow_item {
    void **p;
    size_t size;
} rbl_grow_item;
int rbl_grow_arrays(const rbl_grow_item *items, size_t n, size_t *cap, size_t need,
                    size_t first);

/* Convex polygons in space (polygon.c): a square clipped by the 6 sides of a box has at most
 * 4 + 6 corners. rbl_polygon_clip keeps the part of p (n corners) where
 * sign * (x[axis] - bound) >= -tol and returns its corner count; rbl_polygon_area is the
 * area of a planar polygon (0 for fewer than 3 corners). */
enum { RBL_POLYGON_MAX = 10 };
int rbl_polygon_clip(double p[RBL_POLYGON_MAX][3], int n, int axis, double bound, double sign,
                     double tol);
double rbl_polygon_area(double p[RBL_POLYGON_MAX][3], int n);

/* Where a function f, unimodal on lo..hi, is largest, by Brent's method (fast where f is
 * smooth) from start, lo < start < hi (the best of samples taken before): the best point it
 * finds, within about tolerance (+ 2 DBL_EPSILON |t|) of the maximum. At most 200 values. */
double rbl_brent_maximum(double (*f)(double t, void *context), void *context, double lo,
                         double hi, double start, double tolerance);

/* Store one 64-byte record at a line-aligned dst with streaming (non-temporal) stores: the line
 * is not read before it is written (no read for ownership), which saves a third of the memory
 * traffic of filling an array that does not fit in cache. Fence (rbl_stream_fence) before the
 * records are read by another thread. */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline void rbl_stream_line(void *dst, const void *src)
{
    const __m128i *s = (const __m128i *)src;
    __m128i *d = (__m128i *)dst;
    for (int q = 0; q < 4; q++)
        _mm_stream_si128(d + q, _mm_loadu_si128(s + q));
}
static inline void rbl_stream_fence(void) { _mm_sfence(); }
#else
#include <string.h>
static inline void rbl_stream_line(void *dst, const void *src) { memcpy(dst, src, 64); }
static inline void rbl_stream_fence(void) {}
#endif

/* Overflow-checked a*b for sizes; returns 0 on overflow. */
int rbl_size_mul(size_t a, size_t b, size_t *out);

/* FNV-1a hash of n bytes, continuing from h (start with RBL_FNV1A_START). */
#define RBL_FNV1A_START 0xcbf29ce484222325ULL
uint64_t rbl_fnv1a(uint64_t h, const void *p, size_t n);

/* The machine's physical memory in bytes, or 0 when it cannot be told (memory.c). */
double rbl_physical_memory(void);

/* Monotonic wall clock in seconds. */
double rbl_now(void);

/* splitmix64 / xoshiro256** generator: deterministic, no global state. */
typedef struct rbl_rng {
    uint64_t s[4];
} rbl_rng;
void rbl_rng_seed(rbl_rng *rng, uint64_t seed);
uint64_t rbl_rng_next(rbl_rng *rng);
double rbl_rng_uniform(rbl_rng *rng); /* [0, 1) */
uint64_t rbl_rng_below(rbl_rng *rng, uint64_t bound); /* [0, bound) */

/* LSD radix sort of 64-bit keys in ascending order, with an optional 32-bit payload carried
 * along (vals may be NULL). key_bits bounds the significant bits (passes of 11 bits each).
 * tmp_keys/tmp_vals are scratch arrays of the same length. The sorted data ends in keys/vals. */
void rbl_radix_sort_u64(uint64_t *keys, uint32_t *vals, size_t n, unsigned key_bits,
                        uint64_t *tmp_keys, uint32_t *tmp_vals);

/* Number of bits needed to hold values 0..max_value. */
unsigned rbl_bits_for(uint64_t max_value);

/* A sum of doubles held exactly (exact_sum.c): a fixed-point integer from 2^-1074 (the least
 * subnormal) past 2^1024, in 32-bit limbs. Its value is the correctly rounded sum whatever the
 * order of the terms or how they were split among threads or processes (merged limb by limb,
 * an integer addition), so a sum over grains gives the same bits on any decomposition.
 * Non-finite terms are kept apart (their sum is the result: inf, -inf or NaN). */
#define RBL_EXACT_LIMBS 68
typedef struct rbl_exact_sum {
    int64_t limb[RBL_EXACT_LIMBS]; /* limb i weighs 2^(32 i - 1074) */
    double special;                /* the sum of the non-finite terms (0 when none) */
    uint32_t adds;                 /* terms since the carries were last propagated */
} rbl_exact_sum;
void rbl_exact_clear(rbl_exact_sum *s);
void rbl_exact_add(rbl_exact_sum *s, double x);
/* Carries propagated: limbs 0 .. LIMBS-2 in [0, 2^32), the last one signed (what a merge over
 * processes adds limb by limb). */
void rbl_exact_normalize(rbl_exact_sum *s);
/* into += from */
void rbl_exact_merge(rbl_exact_sum *into, const rbl_exact_sum *from);
/* The sum rounded to the nearest double (ties to even; in the subnormal range within one
 * unit of the last place). */
double rbl_exact_value(const rbl_exact_sum *s);
/* into -= from, exactly. */
void rbl_exact_subtract(rbl_exact_sum *into, const rbl_exact_sum *from);
/* Whether the two hold the same value (and no infinity or NaN). */
int rbl_exact_equal(const rbl_exact_sum *a, const rbl_exact_sum *b);

/* The energy balance of a health check (energy_watch.c): the energy and the energy put in at the
 * reference, and the largest energy scale seen (kinetic + rotational + |elastic| + |W|). */
typedef struct rbl_energy_watch {
    int set;
    double energy_ref, in_ref, scale;
    double least;     /* rbl_energy_watch_rise: the balance's least value so far */
    uint64_t least_step; /* and the step it had it at */
    double through_least; /* the energy that had gone through driven contacts by then */
#define RBL_ENERGY_WATCH_WINDOW 10
    double through_seen[RBL_ENERGY_WATCH_WINDOW]; /* and at the last checks (a ring) */
    unsigned checks;
} rbl_energy_watch;
/* The growth of energy e beyond what was put in (in, cumulative) since the reference, over the
 * scale (the first call takes the reference and returns 0); potential: the gravitational
 * energy, whose round-off sets a floor under the scale. */
double rbl_energy_watch_share(rbl_energy_watch *w, double e, double in, double scale,
                              double potential);
/* The rise of an energy account's balance (held + dissipated - put in: constant while every
 * joule is booked) above its least value so far, over the largest scale seen (the first call
 * takes the reference and returns 0). Energy made after early dissipation rises from the
 * least, where a comparison with the start would still find it below. magnitude: the largest
 * terms of the balance, whose round-off sets a floor under the scale. through: the energy that
 * went through driven contacts so far (cumulative, each step's |work| of moving walls): what
 * went through since the least, or over the last RBL_ENERGY_WATCH_WINDOW checks where more,
 * joins the scale: the time step's error on a driven contact is a share of what it passes on
 * (a grain bouncing on a floor vibrating at 10 steps a period, its contacts 4 steps long: 0.1
 * of it), of either sign, so a walk from a least just set would trip it within a check or
 * two, where a blow-up grows whatever the window. */
double rbl_energy_watch_rise(rbl_energy_watch *w, double balance, uint64_t step, double scale,
                             double magnitude, double through);
/* The least energy scale one body adds: its kinetic energy moving RBL_ENERGY_MOTION_SHARE of its
 * size (a grain's radius, an object's smallest semi-axis) a step. Below it the energy's changes
 * are round-off (bodies at rest, touching or overlapping) and no growth a user would see: a
 * scale of bodies at rest is 0, and a growth of 1e-67 J over it is not a blow-up. */
#define RBL_ENERGY_MOTION_SHARE 1e-4
double rbl_energy_motion_floor(double mass, double size, double dt);

/* did_you_mean.c (the scene's messages; the law's names in the C API): the name among names
 * (count of them, or up to a NULL when count < 0) nearest to word, when close enough to be a slip (one edit in a word of up to four letters,
 * two in a longer one; case ignored), else NULL. */
const char *rbl_nearest_name(const char *word, const char *const *names, int count);
/* "; did you mean 'NAME'?" for an unknown word into out, or "" when no name is near: for the
 * end of a message refusing it. From names as above, or from a list "a, b, c". */
#define RBL_DID_YOU_MEAN_MAX 96
const char *rbl_did_you_mean(char out[RBL_DID_YOU_MEAN_MAX], const char *word,
                             const char *const *names, int count);
const char *rbl_did_you_mean_list(char out[RBL_DID_YOU_MEAN_MAX], const char *word,
                                  const char *list);

#endif
