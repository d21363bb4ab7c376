/* test_run_object.c — the run as an object (issue 42): a scene stepped in pieces of any size
 * writes the same bytes as `rubble run` (rbl_scene_run) stepping it at once, for grains (a
 * pour, a wall, frames, thermo rows, checkpoints, output.final) and for impulse objects (their
 * timing columns aside); a checkpoint asked for between two events restarts into the same
 * bits as the run that wrote it went on in; rbl_run_until stops at the first step at or
 * after its time; a run that failed steps no more. */
#include "scene_test_util.h"

#include "rubble.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

static const char *grain_scene =
    "domain: {min: [0, 0, -0.001], max: [0.01, 0.01, 0.03]}\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n  - {name: glass, density: 2500}\n"
    "contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.3, friction: 0.5}\n"
    "walls:\n  - {point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "grains:\n"
    "  - lattice: {min: [0, 0, 0], max: [0.01, 0.01, 0.006]}\n    radius: 0.001\n"
    "  - pour: {min: [0, 0, 0.02], max: [0.01, 0.01, 0.028], rate: 40000, every: 0.0003, "
    "count: 30}\n"
    "    radius: {distribution: uniform, min: 0.0008, max: 0.001}\n"
    "run: {steps: 1500, dt: auto, c: 0.05}\n"
    "output: {every: 0.0007, thermo_every: 0.00017, checkpoint_every: 0.0011, final: end.txt}\n";

static const char *object_scene =
    "gravity: [0, 0, -9.81]\n"
    "impulse: {restitution: 0.3, friction: 0.5}\n"
    "walls:\n  - {point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "  - tube: {from: [0.02, 0.02, 0], to: [0.02, 0.02, 0.06], radius: 0.02}\n"
    "objects:\n"
    "  - lattice: {min: [0.005, 0.005, 0.002], max: [0.035, 0.035, 0.04], count: 8}\n"
    "    ellipsoid: [0.006, 0.004, 0.003]\n    seed: 2\n"
    "  - pour: {min: [0.005, 0.005, 0.065], max: [0.035, 0.035, 0.08], count: 4, rate: 200,\n"
    "           every: 0.004}\n"
    "    ellipsoid: [0.004, 0.003, 0.003]\n    velocity: [0, 0, -0.5]\n"
    "run: {steps: 120, dt: 2e-4}\n"
    "output: {every: 0.005, checkpoint_every: 0.006, final: end.txt}\n";

static rbl_scene *scene_of(const char *name, const char *text)
{
    return test_scene_file(dir, name, text);
}

static rbl_run_options options(const char *out, const char *restart, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", dir, out);
    rbl_run_options opt;
    memset(&opt, 0, sizeof opt);
    opt.output_dir = buf;
    opt.restart = restart;
    opt.threads = 1;
    return opt;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    ASSERT_TRUE(b && fread(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    b[n] = 0;
    *len = (size_t)n;
    return b;
}

/* thermo.csv of an impulse run without its last four columns (the phases' wall times). */
static void drop_timings(char *text)
{
    char *w = text;
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        size_t keep = n;
        for (int k = 0; k < 4; k++)
            while (keep > 0 && line[--keep] != ',')
                ;
        memmove(w, line, keep);
        w += keep;
        *w++ = '\n';
        line += n + (end ? 1 : 0);
    }
    *w = 0;
}

/* Every file of folder a is in folder b with the same bytes, and b has no other; returns how
 * many files there are. */
static int same_files(const char *a, const char *b, int impulse)
{
    char pa[600], pb[600];
    snprintf(pa, sizeof pa, "%s/%s", dir, a);
    snprintf(pb, sizeof pb, "%s/%s", dir, b);
    int na = 0, nb = 0;
    DIR *d = opendir(pb);
    ASSERT_TRUE(d != NULL);
    for (struct dirent *e; (e = readdir(d));)
        nb += e->d_name[0] != '.';
    closedir(d);
    d = opendir(pa);
    ASSERT_TRUE(d != NULL);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char fa[900], fb[900];
        snprintf(fa, sizeof fa, "%s/%s", pa, e->d_name);
        snprintf(fb, sizeof fb, "%s/%s", pb, e->d_name);
        size_t la = 0, lb = 0;
        char *xa = slurp(fa, &la), *xb = slurp(fb, &lb);
        if (!xb)
            fprintf(stderr, "%s is missing\n", fb);
        ASSERT_TRUE(xa && xb);
        /* an impulse run's checkpoints carry its thermo rows, wall times included: two runs
           at once differ there too (their restarts are compared in cli_run_restart.sh) */
        if (impulse && strncmp(e->d_name, "checkpoint_", 11) == 0) {
            free(xa), free(xb);
            na++;
            continue;
        }
        if (impulse && strcmp(e->d_name, "thermo.csv") == 0) {
            drop_timings(xa), drop_timings(xb);
            la = strlen(xa), lb = strlen(xb);
        }
        if (la != lb || memcmp(xa, xb, la) != 0)
            fprintf(stderr, "%s and %s differ\n", fa, fb);
        ASSERT_TRUE(la == lb && memcmp(xa, xb, la) == 0);
        free(xa), free(xb);
        na++;
    }
    closedir(d);
    ASSERT_EQ_INT(na, nb);
    return na;
}

/* The scene run at once (rbl_scene_run) into `whole` and in pieces (the object) into
 * `pieces`; the same files. */
static void pieces_as_whole(rbl_scene *s, const char *whole, const char *pieces, int impulse)
{
    char out[512];
    rbl_run_options opt = options(whole, NULL, out, sizeof out);
    rbl_run_report rep_whole, rep;
    rbl_error err = {0};
    ASSERT_OK(rbl_scene_run(s, &opt, &rep_whole, &err));
    opt = options(pieces, NULL, out, sizeof out);
    rbl_run *run = NULL;
    ASSERT_OK(rbl_run_open(s, &opt, &run, &err));
    rbl_run_status st;
    rbl_run_progress(run, &st);
    ASSERT_EQ_INT(st.step, 0);
    const uint64_t sizes[] = {1, 7, 1, 333, 2, 199, 200, 64};
    for (size_t k = 0; st.step < st.total_steps; k++) {
        uint64_t n = sizes[k % (sizeof sizes / sizeof *sizes)];
        if (n > st.total_steps - st.step)
            n = st.total_steps - st.step;
        ASSERT_OK(rbl_run_step(run, n, &err));
        uint64_t before = st.step;
        rbl_run_progress(run, &st);
        ASSERT_EQ_INT(st.step, before + n);
    }
    ASSERT_OK(rbl_run_finish(run, &err));
    rbl_run_summary(run, &rep);
    rbl_run_close(run);
    ASSERT_EQ_INT(rep.steps, rep_whole.steps);
    ASSERT_EQ_INT(rep.frames, rep_whole.frames);
    ASSERT_EQ_INT(rep.checkpoints, rep_whole.checkpoints);
    ASSERT_NEAR(rep.energy_end, rep_whole.energy_end, 0.0);
    int files = same_files(whole, pieces, impulse);
    printf("%s: %llu steps in pieces of 1 to 333: %d files the same as at once (%zu frames, "
           "%zu checkpoints)\n", impulse ? "objects" : "grains", (unsigned long long)rep.steps,
           files, rep.frames, rep.checkpoints);
    ASSERT_TRUE(files >= 8);
}

/* A checkpoint asked for at step 137 (no event there) restarts into the same final grains as
 * the run that wrote it, stepped on to the end. */
static void checkpoint_between_events(rbl_scene *s)
{
    char out[512], ckpt[700];
    rbl_run_options opt = options("asked", NULL, out, sizeof out);
    rbl_run *run = NULL;
    rbl_error err = {0};
    ASSERT_OK(rbl_run_open(s, &opt, &run, &err));
    ASSERT_OK(rbl_run_step(run, 137, &err));
    ASSERT_OK(rbl_run_write_checkpoint(run, &err));
    rbl_run_report rep;
    rbl_run_summary(run, &rep);
    ASSERT_TRUE(strcmp(rep.last_checkpoint, "checkpoint_000000137.bin") == 0);
    rbl_run_status st;
    rbl_run_progress(run, &st);
    ASSERT_OK(rbl_run_step(run, st.total_steps - st.step, &err));
    ASSERT_OK(rbl_run_finish(run, &err));
    rbl_run_close(run);
    snprintf(ckpt, sizeof ckpt, "%s/asked/checkpoint_000000137.bin", dir);
    opt = options("asked_restart", ckpt, out, sizeof out);
    ASSERT_OK(rbl_run_open(s, &opt, &run, &err));
    rbl_run_progress(run, &st);
    ASSERT_EQ_INT(st.step, 137);
    ASSERT_OK(rbl_run_step(run, st.total_steps - st.step, &err));
    ASSERT_OK(rbl_run_finish(run, &err));
    rbl_run_close(run);
    char a[700], b[700];
    snprintf(a, sizeof a, "%s/asked/end.txt", dir);
    snprintf(b, sizeof b, "%s/asked_restart/end.txt", dir);
    size_t la, lb;
    char *xa = slurp(a, &la), *xb = slurp(b, &lb);
    ASSERT_TRUE(xa && xb && la == lb && memcmp(xa, xb, la) == 0);
    free(xa), free(xb);
    printf("a checkpoint asked for at step 137 restarts into the same final grains\n");
}

/* rbl_run_until: the first step at or after the time; a time passed steps nothing. */
static void until(rbl_scene *s)
{
    char out[512];
    rbl_run_options opt = options("until", NULL, out, sizeof out);
    rbl_run *run = NULL;
    rbl_error err = {0};
    ASSERT_OK(rbl_run_open(s, &opt, &run, &err));
    rbl_run_report rep;
    rbl_run_summary(run, &rep);
    const double dt = rep.dt;
    ASSERT_OK(rbl_run_until(run, 10.5 * dt, &err));
    rbl_run_status st;
    rbl_run_progress(run, &st);
    ASSERT_EQ_INT(st.step, 11);
    ASSERT_OK(rbl_run_until(run, 3 * dt, &err));
    rbl_run_progress(run, &st);
    ASSERT_EQ_INT(st.step, 11);
    ASSERT_OK(rbl_run_until(run, 20 * dt, &err));
    rbl_run_progress(run, &st);
    ASSERT_EQ_INT(st.step, 20);
    ASSERT_TRUE(rbl_run_until(run, NAN, &err) != RBL_OK);
    rbl_run_close(run);
    printf("run until: 10.5 dt -> step 11, 3 dt -> stays, 20 dt -> step 20\n");
}

/* Two grains closing at 2000 m/s: the health check stops the run; it steps no more. */
static void failed_steps_no_more(void)
{
    rbl_scene *s = scene_of("bullets.yaml",
        "domain: {min: [0, 0, 0], max: [0.2, 0.02, 0.02]}\n"
        "materials:\n  - {name: glass, density: 2500}\n"
        "contact: {normal: linear, kn: 2000, restitution: 0.5, tangential: spring, "
        "friction: 0.3}\n"
        "grains:\n"
        "  - lattice: {min: [0.05, 0.009, 0.009], max: [0.0521, 0.0111, 0.0111], count: 1}\n"
        "    radius: 0.001\n    velocity: [1000, 0, 0]\n"
        "  - lattice: {min: [0.148, 0.009, 0.009], max: [0.1501, 0.0111, 0.0111], count: 1}\n"
        "    radius: 0.001\n    velocity: [-1000, 0, 0]\n"
        "run: {time: 0.0002, dt: auto}\n");
    char out[512];
    rbl_run_options opt = options("bullets", NULL, out, sizeof out);
    rbl_run *run = NULL;
    rbl_error err = {0};
    ASSERT_OK(rbl_run_open(s, &opt, &run, &err));
    int rc = rbl_run_step(run, 1000, &err);
    ASSERT_EQ_INT(rc, RBL_EUNSTABLE);
    rc = rbl_run_step(run, 1, &err);
    ASSERT_TRUE(rc != RBL_OK && strstr(err.message, "cannot go on") != NULL);
    ASSERT_TRUE(rbl_run_write_frame(run, &err) != RBL_OK);
    rbl_run_close(run);
    rbl_scene_free(s);
    printf("a run the health check stopped steps no more: %s\n", err.message);
}

/* Arrays held (rbl_sim_hold_arrays) while a pour grows the grains past their first room: the
 * old arrays stay readable, as they were, until the hold ends (under ASan a read of freed
 * memory stops the test). */
static void held_arrays_outlive_growth(void)
{
    rbl_scene *s = scene_of("grow.yaml",
        "domain: {min: [0, 0, -0.001], max: [0.02, 0.02, 0.03]}\n"
        "gravity: [0, 0, -9.81]\n"
        "materials:\n  - {name: glass, density: 2500}\n"
        "contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.3, "
        "friction: 0.5}\n"
        "walls:\n  - {point: [0, 0, 0], normal: [0, 0, 1]}\n"
        "grains:\n"
        "  - lattice: {min: [0, 0, 0], max: [0.02, 0.02, 0.005], count: 1000}\n"
        "    radius: 0.0005\n"
        "  - pour: {min: [0, 0, 0.02], max: [0.02, 0.02, 0.028], rate: 50000, every: 0.0003, "
        "count: 200}\n"
        "    radius: 0.0005\n"
        "run: {steps: 3000, dt: auto, c: 0.05}\n");
    char out[512];
    rbl_run_options opt = options("grow", NULL, out, sizeof out);
    rbl_run *run = NULL;
    rbl_error err = {0};
    ASSERT_OK(rbl_run_open(s, &opt, &run, &err));
    rbl_sim *sim = rbl_run_sim(run);
    rbl_sim_hold_arrays(sim, 1);
    rbl_grains_view before, now;
    rbl_sim_grains(sim, &before);
    ASSERT_TRUE(before.n < 1024);
    double *copy = malloc(3 * before.n * sizeof *copy);
    ASSERT_TRUE(copy != NULL);
    now = before;
    while (now.n <= 1024) {
        memcpy(copy, before.pos, 3 * before.n * sizeof *copy); /* as it was before this piece */
        ASSERT_OK(rbl_run_step(run, 50, &err));
        rbl_sim_grains(sim, &now);
    }
    ASSERT_TRUE(now.pos != before.pos);
    /* the retired array still holds the grains as they were when the engine grew */
    double moved = 0.0;
    for (size_t k = 0; k < 3 * before.n; k++)
        moved = fmax(moved, fabs(before.pos[k] - copy[k]));
    ASSERT_TRUE(moved < 0.01);
    rbl_sim_hold_arrays(sim, 0);
    free(copy);
    rbl_run_close(run);
    rbl_scene_free(s);
    printf("held arrays: %zu grains grew to %zu; the old arrays stayed readable\n", before.n,
           now.n);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/rubble_run_object_%d", (int)getpid());
    ASSERT_TRUE(mkdir(dir, 0777) == 0);
    rbl_scene *grains = scene_of("grains.yaml", grain_scene);
    pieces_as_whole(grains, "grains_whole", "grains_pieces", 0);
    checkpoint_between_events(grains);
    until(grains);
    rbl_scene_free(grains);
    rbl_scene *objects = scene_of("objects.yaml", object_scene);
    pieces_as_whole(objects, "objects_whole", "objects_pieces", 1);
    rbl_scene_free(objects);
    failed_steps_no_more();
    held_arrays_outlive_growth();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ASSERT_TRUE(system(cmd) == 0);
    return 0;
}
