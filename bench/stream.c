/* stream.c — the machine's own limits for the roofline (issue 75, docs/bench/roofline.md):
 * STREAM-like read, copy and triad bandwidths (GB/s, 1e9 bytes; STREAM's count: the bytes a
 * kernel names, read and written, no write-allocate) on arrays in the second-level cache, in
 * the last-level cache and far beyond it, on 1 and 2 threads, and the peak of double-precision
 * FMAs (GFLOP/s, an FMA = 2 flops) from independent chains of 8-wide vectors, on one core. The
 * machine is shared: each figure is the best of many short repeats (the least disturbed one).
 * Built and run by bench/roofline.sh: cc -O3 -march=native -fopenmp bench/stream.c -o stream
 * Output: one line per figure, "kind size_bytes threads value unit". */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One sweep of a kernel over [0, n). */
static double kernel(int kind, double *restrict a, const double *restrict b,
                     double *restrict c, long n)
{
    double sum = 0.0;
    const double s = 1.0000001;
    if (kind == 0) {
#pragma omp simd reduction(+ : sum)
        for (long k = 0; k < n; k++)
            sum += a[k];
    } else if (kind == 1) {
#pragma omp simd
        for (long k = 0; k < n; k++)
            c[k] = a[k];
    } else {
#pragma omp simd
        for (long k = 0; k < n; k++)
            a[k] = b[k] + s * c[k];
    }
    return sum;
}

/* Bytes a kernel names per element: read 8; copy 8 + 8; triad 16 + 8. */
static const double BYTES[3] = {8.0, 16.0, 24.0};
static const char *NAMES[3] = {"read", "copy", "triad"};

/* Each thread sweeps arrays of its own (first touched by it), all threads together between
 * barriers; a repeat's time is from the first thread's start to the last one's end, so it
 * counts only traffic that ran at once. The machine is shared: the best repeat of budget_s
 * is kept (the one the other programs disturbed least). */
static void bandwidth(long bytes_per_array, int threads, double budget_s)
{
    double best[3] = {1e30, 1e30, 1e30};
    const long n = bytes_per_array / (long)sizeof(double) / threads;
    /* sweeps per timing: at least about 1 MB of traffic, so the clock's grain does not count */
    const long inner = n * 8 >= (1L << 20) ? 1 : (1L << 20) / (n * 8);
    double t_start[2], t_end[2];
    int more = 1;
#pragma omp parallel num_threads(threads)
    {
        const int me = omp_get_thread_num();
        double *a = aligned_alloc(64, (size_t)n * sizeof(double));
        double *b = aligned_alloc(64, (size_t)n * sizeof(double));
        double *c = aligned_alloc(64, (size_t)n * sizeof(double));
        if (!a || !b || !c) {
            fprintf(stderr, "stream: out of memory for %ld bytes per array\n", bytes_per_array);
            exit(1);
        }
        for (long k = 0; k < n; k++)
            a[k] = 1.0, b[k] = 2.0, c[k] = 0.5;
        volatile double sink = 0.0;
        for (int kind = 0; kind < 3; kind++) {
            double start = now();
            for (int rep = 0;; rep++) {
#pragma omp barrier
                t_start[me] = now();
                for (long r = 0; r < inner; r++)
                    sink += kernel(kind, a, b, c, n);
                t_end[me] = now();
#pragma omp barrier
#pragma omp single
                {
                    double t0 = t_start[0], t1 = t_end[0];
                    for (int t = 1; t < threads; t++) {
                        t0 = t_start[t] < t0 ? t_start[t] : t0;
                        t1 = t_end[t] > t1 ? t_end[t] : t1;
                    }
                    double t = (t1 - t0) / (double)inner;
                    best[kind] = t < best[kind] ? t : best[kind];
                    more = rep < 5 || now() - start < budget_s;
                }
                if (!more)
                    break;
            }
        }
        (void)sink;
        free(a), free(b), free(c);
    }
    for (int kind = 0; kind < 3; kind++)
        printf("%s %ld %d %.2f GB/s\n", NAMES[kind], bytes_per_array, threads,
               BYTES[kind] * (double)(n * threads) / best[kind] * 1e-9);
}

/* Independent FMA chains: CHAINS accumulators of W doubles each, enough to cover the FMA
 * latency on every FMA port. Returns GFLOP/s of one thread's best timing. */
#define CHAINS 16
typedef double vec8 __attribute__((vector_size(64)));

static double peak_vector(double budget_s)
{
    vec8 acc[CHAINS];
    for (int c = 0; c < CHAINS; c++)
        for (int l = 0; l < 8; l++)
            acc[c][l] = 1.0 + 1e-3 * (c * 8 + l);
    vec8 x, y;
    for (int l = 0; l < 8; l++)
        x[l] = 0.999999, y[l] = 1e-9;
    const long iters = 200000;
    double best = 1e30, start = now();
    for (int rep = 0; rep < 5 || (now() - start < budget_s && rep < 2000); rep++) {
        double t0 = now();
        for (long i = 0; i < iters; i++) {
            for (int c = 0; c < CHAINS; c++)
                acc[c] = acc[c] * x + y;
            __asm__ volatile("" : "+x"(x)); /* keep the loop */
        }
        double t = now() - t0;
        best = t < best ? t : best;
    }
    double s = 0.0;
    for (int c = 0; c < CHAINS; c++)
        for (int l = 0; l < 8; l++)
            s += acc[c][l];
    if (s == 42.0)
        printf("\n");
    return 2.0 * 8.0 * CHAINS * (double)iters / best * 1e-9;
}

int main(int argc, char **argv)
{
    /* seconds of repeats per figure (the best of them is kept) */
    const double budget = argc > 1 ? atof(argv[1]) : 1.0;
    /* per array: in L2 (3 x 256 KiB), in L3 (3 x 4 MiB of 32 MiB), far beyond it (3 x 128 MiB) */
    const long sizes[3] = {256L << 10, 4L << 20, 128L << 20};
    for (int s = 0; s < 3; s++)
        for (int threads = 1; threads <= 2; threads++)
            bandwidth(sizes[s], threads, budget);
    printf("fma_vector8 0 1 %.2f GFLOP/s\n", peak_vector(budget));
    return 0;
}
