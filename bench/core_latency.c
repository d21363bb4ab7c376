/* core_latency.c — how far apart the machine's first two cores are now: one cache line
 * handed back and forth between two threads pinned to cores 0 and 1, the time of one hand-over
 * printed in nanoseconds. On the 2-core virtual machines of this project it reads about 35 ns
 * for a while (the two cores share a cache), then about 170 ns for a while (the host moved
 * them apart), and a run with two threads that share grains takes up to twice as long in the
 * second case; bench/dem.sh records it beside each measurement. Built and run by the bench
 * scripts: cc -O2 -pthread bench/core_latency.c -o core_latency && ./core_latency */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#define ROUNDS 200000

static _Atomic long turn __attribute__((aligned(64)));

static int pin(int core)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* the second thread: answers each odd value with the next even one */
static void *answer(void *arg)
{
    (void)arg;
    pin(1);
    for (long i = 0; i < ROUNDS; i++) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 1)
            ;
        atomic_store_explicit(&turn, 2 * i + 2, memory_order_release);
    }
    return NULL;
}

int main(void)
{
    if (pin(0) != 0) {
        fprintf(stderr, "core_latency: cannot pin a thread to core 0\n");
        return 1;
    }
    pthread_t other;
    if (pthread_create(&other, NULL, answer, NULL) != 0) {
        fprintf(stderr, "core_latency: cannot start a second thread\n");
        return 1;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < ROUNDS; i++) {
        atomic_store_explicit(&turn, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 2)
            ;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    pthread_join(other, NULL);
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    printf("%.0f\n", ns / (2.0 * ROUNDS));
    return 0;
}
