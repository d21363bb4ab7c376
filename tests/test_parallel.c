/* src/parallel/ on however many ranks it is started with (ctest runs it on 1 to 4 under
 * mpirun, and alone): sums in rank order are the same bits on every rank, and exact sums the
 * bits of one process's; an exchange delivers
 * every rank's bytes to every rank; an error on one rank reaches all with its message; the
 * partition of a bed poured from the bottom (dense, costly grains low down, all on rank 0 at
 * first) tiles the domain with one box per rank, sends each grain to the box that holds it,
 * balances the cost to Zoltan's tolerance (2 %) plus one grain, and gives the same cuts when
 * asked again; self-gravity over the ranks (a tree built apart, or the gather) gives every
 * grain one process's bits, and no rank receives every grain for the tree. */
#include "test_util.h"

#include "base/base_internal.h"
#include "gravity/gravity_internal.h"
#include "parallel/parallel_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_sum_and_exchange(rbl_comm *c)
{
    const int r = rbl_comm_rank(c), p = rbl_comm_size(c);
    double s = rbl_comm_sum(c, 0.1 * (r + 1)), expect = 0.0;
    for (int q = 0; q < p; q++)
        expect += 0.1 * (q + 1);
    ASSERT_TRUE(s == expect); /* rank order: the bits of a serial sum */
    ASSERT_TRUE(rbl_comm_sum_u64(c, (uint64_t)r + 1) == (uint64_t)(p * (p + 1) / 2));
    ASSERT_TRUE(rbl_comm_max(c, (double)r) == (double)(p - 1));

    size_t *sb = calloc(4 * (size_t)p, sizeof *sb), *so = sb + p, *rb = sb + 2 * p,
           *ro = sb + 3 * p, total = 0;
    for (int q = 0; q < p; q++) /* (q + 1)(r + 1) bytes to rank q, each r * 16 + q */
        sb[q] = (size_t)((q + 1) * (r + 1)), so[q] = total, total += sb[q];
    unsigned char *send = malloc(total + 1), *recv = NULL;
    for (int q = 0; q < p; q++)
        memset(send + so[q], r * 16 + q, sb[q]);
    rbl_error err = {0};
    ASSERT_OK(rbl_comm_exchange(c, send, sb, so, (void **)&recv, rb, ro, &err));
    for (int q = 0; q < p; q++) {
        ASSERT_TRUE(rb[q] == (size_t)((r + 1) * (q + 1)));
        for (size_t k = 0; k < rb[q]; k++)
            ASSERT_TRUE(recv[ro[q] + k] == (unsigned char)(q * 16 + r));
    }
    free(send), free(recv), free(sb);

    /* the last rank fails: every rank learns it, with its message */
    rbl_error e = {0};
    int rc = r == p - 1 ? rbl_error_set(&e, RBL_EINVAL, "rank %d: bad value", r) : RBL_OK;
    rc = rbl_comm_agree(c, rc, &e);
    ASSERT_TRUE(rc == RBL_EINVAL);
    char want[64];
    snprintf(want, sizeof want, "rank %d: bad value", p - 1);
    ASSERT_TRUE(strcmp(e.message, want) == 0);
    if (r == 0)
        printf("ok: sums in rank order, an exchange of every pair of %d ranks, an error agreed\n",
               p);
}

/* Exact sums over the ranks: 3000 terms of mixed sign and magnitude dealt round robin (rank r
 * adds terms r, r + P, ...), summed over the ranks, give the bits of one sum of all of them;
 * one rank's infinity makes every rank's sum infinite. */
static void test_exact_sums(rbl_comm *c)
{
    const int r = rbl_comm_rank(c), p = rbl_comm_size(c);
    rbl_rng rng;
    rbl_rng_seed(&rng, 11);
    rbl_exact_sum mine[2], all;
    rbl_exact_clear(&mine[0]), rbl_exact_clear(&mine[1]), rbl_exact_clear(&all);
    for (int k = 0; k < 3000; k++) {
        const double x = (rbl_rng_uniform(&rng) - 0.3) * pow(10.0, (double)(k % 13) - 6.0);
        rbl_exact_add(&all, x);
        if (k % p == r)
            rbl_exact_add(&mine[0], x);
    }
    if (r == p - 1)
        rbl_exact_add(&mine[1], INFINITY);
    rbl_comm_sum_exact(c, mine, 2);
    const double got = rbl_exact_value(&mine[0]), want = rbl_exact_value(&all);
    ASSERT_TRUE(memcmp(&got, &want, sizeof got) == 0);
    ASSERT_TRUE(rbl_exact_value(&mine[1]) == INFINITY);
    if (r == 0)
        printf("ok: exact sums over %d ranks: %.17g, one process's bits\n", p, got);
}

/* Whether box q holds x under the partition's rule (half-open, closed at the domain's top). */
static int box_holds(const rbl_partition *pt, int q, const double x[3])
{
    for (int a = 0; a < 3; a++) {
        double l = pt->box_lo[3 * q + a], h = pt->box_hi[3 * q + a];
        if (!(l <= x[a] && (x[a] < h || (x[a] == h && h == pt->hi[a]))))
            return 0;
    }
    return 1;
}

static void test_partition(rbl_comm *c)
{
    const int r = rbl_comm_rank(c), p = rbl_comm_size(c);
    const double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {0.04, 0.02, 0.1};
    const size_t n = r == 0 ? 40000 : 0;
    double *pos = malloc(3 * (n + 1) * sizeof *pos), *w = malloc((n + 1) * sizeof *w);
    int *dest = malloc((n + 1) * sizeof *dest);
    rbl_rng rng;
    rbl_rng_seed(&rng, 2026);
    double w_max = 0.0;
    for (size_t k = 0; k < n; k++) {
        pos[3 * k] = hi[0] * rbl_rng_uniform(&rng);
        pos[3 * k + 1] = hi[1] * rbl_rng_uniform(&rng);
        pos[3 * k + 2] = -0.02 * log(1.0 - 0.99 * rbl_rng_uniform(&rng)); /* dense at the bottom */
        w[k] = pos[3 * k + 2] < 0.02 ? 4.0 : 1.0; /* a bed's grains have contacts to compute */
        w_max = fmax(w_max, w[k]);
    }
    w_max = rbl_comm_max(c, w_max);
    rbl_partition pt;
    rbl_error err = {0};
    ASSERT_OK(rbl_partition_compute(c, n, pos, w, lo, hi, dest, &pt, &err));
    ASSERT_TRUE(pt.ranks == p);
    double volume = 0.0;
    for (int q = 0; q < p; q++)
        volume += (pt.box_hi[3 * q] - pt.box_lo[3 * q]) * (pt.box_hi[3 * q + 1] - pt.box_lo[3 * q + 1]) *
                  (pt.box_hi[3 * q + 2] - pt.box_lo[3 * q + 2]);
    ASSERT_NEAR(volume, hi[0] * hi[1] * hi[2], 1e-12 * hi[0] * hi[1] * hi[2]);
    for (int t = 0; t < 20000; t++) { /* each point of the domain in exactly one box */
        double x[3];
        for (int a = 0; a < 3; a++)
            x[a] = t < 100 ? (t % 2 ? hi[a] : lo[a]) : hi[a] * rbl_rng_uniform(&rng);
        int holders = 0, holder = -1;
        for (int q = 0; q < p; q++)
            if (box_holds(&pt, q, x))
                holders++, holder = q;
        ASSERT_TRUE(holders == 1 && rbl_partition_rank_of(&pt, x) == holder);
    }
    double *load = calloc((size_t)p, sizeof *load), total = 0.0;
    for (size_t k = 0; k < n; k++) {
        ASSERT_TRUE(box_holds(&pt, dest[k], pos + 3 * k));
        load[dest[k]] += w[k], total += w[k];
    }
    total = rbl_comm_sum(c, total);
    double worst = 0.0;
    for (int q = 0; q < p; q++)
        worst = fmax(worst, rbl_comm_sum(c, load[q]));
    const double mean = total / p;
    ASSERT_TRUE(worst <= 1.02 * mean + w_max);

    rbl_partition again;
    int *dest2 = malloc((n + 1) * sizeof *dest2);
    ASSERT_OK(rbl_partition_compute(c, n, pos, w, lo, hi, dest2, &again, &err));
    ASSERT_TRUE(memcmp(pt.box_lo, again.box_lo, 6 * (size_t)p * sizeof *pt.box_lo) == 0);
    ASSERT_TRUE(n == 0 || memcmp(dest, dest2, n * sizeof *dest) == 0);
    if (r == 0)
        printf("ok: %d boxes tile the domain; the heaviest holds %.4f of the mean cost "
               "(tolerance 1.02 + one grain); the same cuts again\n", p, worst / mean);
    rbl_partition_free(&pt), rbl_partition_free(&again);
    free(pos), free(w), free(dest), free(dest2), free(load);
}

/* Records with sparse, skewed ids (3 k^2 + 1), dealt to the ranks out of order, come back
 * as slices in id order: each sorted, each rank's after the one before, none lost, each about
 * N/P long, their payload whole; each rank then writes its slice's lines at its offset of
 * one file (rbl_comm_write_pieces), which reads back as the lines of all the ids in order. */
static void test_id_slices(rbl_comm *c)
{
    const int r = rbl_comm_rank(c), p = rbl_comm_size(c);
    enum { N = 5000, W = 3 };
    double *mine = malloc(N * W * sizeof *mine), *slice = NULL;
    size_t n = 0, got = 0;
    for (size_t k = 0; k < N; k++)
        if ((int)((k * 7919) % (size_t)p) == r) {
            double id = 3.0 * (double)k * (double)k + 1.0;
            mine[W * n] = id, mine[W * n + 1] = 2 * id, mine[W * n + 2] = -id, n++;
        }
    rbl_error err = {0};
    ASSERT_OK(rbl_comm_id_slices(c, mine, n, W, &slice, &got, &err));
    for (size_t k = 0; k < got; k++) {
        ASSERT_TRUE(slice[W * k + 1] == 2 * slice[W * k] && slice[W * k + 2] == -slice[W * k]);
        ASSERT_TRUE(k == 0 || slice[W * k] > slice[W * (k - 1)]);
    }
    ASSERT_TRUE(rbl_comm_sum_u64(c, got) == N);
    ASSERT_TRUE(rbl_comm_max(c, (double)got) <= 1.5 * N / p + 1);
    double ends[2] = {got ? slice[0] : INFINITY, got ? slice[W * (got - 1)] : -INFINITY}, *all = NULL;
    size_t cap = 0, first, total;
    ASSERT_OK(rbl_comm_allgather(c, ends, 2, &all, &cap, &first, &total, &err));
    double last = -1;
    for (int q = 0; q < p; q++)
        if (isfinite(all[2 * q])) {
            ASSERT_TRUE(all[2 * q] > last);
            last = all[2 * q + 1];
        }
    free(all);
    /* each its lines, at its offset of one file */
    char *text = malloc(got * 24 + 1), path[64];
    size_t len = 0;
    for (size_t k = 0; k < got; k++)
        len += (size_t)sprintf(text + len, "%.0f\n", slice[W * k]);
    snprintf(path, sizeof path, "/tmp/rubble_test_write_at_%d.txt",
             (int)rbl_comm_max(c, r == 0 ? (double)getpid() : 0.0));
    if (r == 0)
        remove(path);
    ASSERT_OK(rbl_comm_agree(c, RBL_OK, &err));
    rbl_file_piece part = {rbl_comm_exscan_u64(c, len), text, len};
    ASSERT_OK(rbl_comm_write_pieces(c, path, &part, 1, &err));
    if (r == 0) {
        FILE *f = fopen(path, "r");
        ASSERT_TRUE(f != NULL);
        double id;
        size_t k = 0;
        while (fscanf(f, "%lf", &id) == 1) {
            ASSERT_TRUE(id == 3.0 * (double)k * (double)k + 1.0);
            k++;
        }
        ASSERT_TRUE(k == N);
        fclose(f);
        remove(path);
        printf("ok: %d records in id slices over %d ranks (the largest %.0f), written at once "
               "into one file in id order\n", N, p, rbl_comm_max(c, (double)got));
    } else {
        rbl_comm_max(c, (double)got);
    }
    free(mine), free(slice), free(text);
}

/* The field of n grains (two clumps, a few far away, a few in one deepest cell; with
 * `heaped`, 9 in 10 on one spot, where no cut can go), each rank holding those with
 * k % size == rank (rank 0's to rank 1 with `none_on_0`), against one process's evaluation of
 * all of them. expect_apart: the tree is built apart (1), gathered (0). */
static void check_gravity(rbl_comm *c, size_t n, rbl_gravity_method method, int heaped,
                          int none_on_0, int expect_apart)
{
    const int r = rbl_comm_rank(c), p = rbl_comm_size(c);
    const uint64_t seed = 20261128 + n;
    double *pos = malloc(3 * n * sizeof *pos), *mass = malloc(n * sizeof *mass);
    double *radius = malloc(n * sizeof *radius);
    uint32_t *id = malloc(n * sizeof *id);
    test_two_clumps(n, seed, pos, mass, radius, id); /* n prime to 7919 */
    for (size_t k = 0; heaped && k < n; k++)
        if (k % 10)
            for (int a = 0; a < 3; a++)
                pos[3 * k + a] = 1.5;
    rbl_self_gravity cfg = {.method = method, .theta = 0.6};
    rbl_error err = {0};
    double *acc = malloc(3 * n * sizeof *acc), *phi = malloc(n * sizeof *phi), per = 0;
    rbl_gravity_work whole = {0};
    const rbl_gravity_input all = {n, pos, mass, radius, id, NULL};
    ASSERT_OK(rbl_gravity_eval(&whole, &cfg, &all, 1, acc, phi, &per, &err));
    /* this rank's grains */
    size_t m = 0;
    double *mp = malloc(3 * n * sizeof *mp), *mm = malloc(n * sizeof *mm);
    double *mr = malloc(n * sizeof *mr), *ma = malloc(3 * n * sizeof *ma);
    double *mphi = malloc(n * sizeof *mphi);
    uint32_t *mid = malloc(n * sizeof *mid);
    size_t *from = malloc(n * sizeof *from);
    for (size_t k = 0; k < n; k++) {
        const int owner = none_on_0 && p > 1 && (int)(k % (size_t)p) == 0 ? 1 : (int)(k % (size_t)p);
        if (owner != r)
            continue;
        memcpy(mp + 3 * m, pos + 3 * k, 3 * sizeof *mp);
        mm[m] = mass[k], mr[m] = radius[k], mid[m] = id[k], from[m++] = k;
    }
    rbl_gravity_ranks *g = NULL;
    const rbl_gravity_input mine = {m, mp, mm, mr, mid, NULL};
    double per_ranks = 0;
    for (int twice = 0; twice < 2; twice++) /* the workspace kept */
        ASSERT_OK(rbl_gravity_ranks_eval(c, &g, &cfg, &mine, 2, ma, mphi, &per_ranks, &err));
    size_t differ = 0;
    for (size_t j = 0; j < m; j++)
        differ += memcmp(ma + 3 * j, acc + 3 * from[j], 3 * sizeof *ma) != 0 ||
                  memcmp(mphi + j, phi + from[j], sizeof *phi) != 0;
    const rbl_gravity_ranks_stats *st = rbl_gravity_ranks_stats_of(g);
    const uint64_t all_differ = rbl_comm_sum_u64(c, differ);
    const double most_nodes = rbl_comm_max(c, (double)st->let_nodes / (double)st->evaluations);
    if (r == 0)
        printf("self-gravity over %d ranks, %zu grains, method %d: %s, %llu grains differ from "
               "one process; the largest tree put together %.0f nodes, one process's %zu; "
               "%.3g MB sent a rank\n", p, n, (int)method,
               st->apart ? "tree apart" : p == 1 ? "one process" : "gathered",
               (unsigned long long)all_differ,
               most_nodes, whole.n_nodes, (double)st->bytes / 2e6);
    ASSERT_TRUE(all_differ == 0);
    ASSERT_TRUE(st->evaluations == 2);
    if (st->apart || p == 1) /* (gathered, a rank counts the groups of its own grains) */
        ASSERT_TRUE(per_ranks == per);
    if (p > 1 && expect_apart) {
        ASSERT_TRUE(st->apart == 2 && st->gathers == 0);
        ASSERT_TRUE(most_nodes < (double)whole.n_nodes); /* no rank holds the whole tree */
    }
    if (p > 1 && !expect_apart)
        ASSERT_TRUE(st->apart == 0 && st->gathers == 2);
    rbl_gravity_ranks_free(g);
    rbl_gravity_work_free(&whole);
    free(pos), free(mass), free(radius), free(id), free(acc), free(phi);
    free(mp), free(mm), free(mr), free(ma), free(mphi), free(mid), free(from);
}

int main(void)
{
    rbl_comm *c;
    rbl_error err = {0};
    ASSERT_OK(rbl_comm_create(&c, &err));
    test_sum_and_exchange(c);
    test_exact_sums(c);
    test_partition(c);
    test_id_slices(c);
    /* (under the sanitizers a quarter of the grains: still a few thousand a rank) */
    const size_t n = slow_build_divisor() > 1 ? 7507 : 30011;
    check_gravity(c, n, RBL_GRAVITY_TREE, 0, 0, 1);
    check_gravity(c, n, RBL_GRAVITY_TREE, 0, 1, 1);     /* a rank without grains */
    check_gravity(c, 401, RBL_GRAVITY_TREE, 0, 0, 0);   /* too few a rank: gathered */
    check_gravity(c, 3001, RBL_GRAVITY_CELLS, 0, 0, 0); /* every grain by design */
    check_gravity(c, n, RBL_GRAVITY_TREE, 1, 0, 0);     /* no place to cut: gathered */
    rbl_comm_free(c);
    return 0;
}
