/* test_work_estimate.c — a grain run's wall time said as it opens (issue 70,
 * src/run/work_estimate.c): nothing for a short run; a notice from a minute, with the grains a
 * pour brings counted as they come (the mean over the run: N (T - N / 2R) / T); a warning
 * from an hour at dt's line (`dt: 3e-9`) naming what would shorten it, which
 * `warnings: {off: [long_run]}` turns back into the notice. Nothing is stepped. */
#include "test_util.h"

#include "rubble.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

typedef struct heard {
    char notice[1024], warning[1024];
    int notices, warnings;
} heard;

static void on_notice(const char *text, void *userdata)
{
    heard *h = userdata;
    snprintf(h->notice, sizeof h->notice, "%s", text);
    h->notices++;
}

static void on_warning(const char *text, void *userdata)
{
    heard *h = userdata;
    snprintf(h->warning, sizeof h->warning, "%s", text);
    h->warnings++;
}

/* The scene: a pour of 1000 grains at 2000 per second (0.5 s to place them) into an empty
 * box on one thread, for `run`; opened and closed, what was said into h. */
static void open_scene(const char *name, const char *run, const char *extra, heard *h)
{
    char path[512], out[512];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, name);
    snprintf(out, sizeof out, "%s/out_%s", dir, name);
    FILE *f = fopen(path, "w");
    ASSERT_TRUE(f != NULL);
    fprintf(f, "domain: {min: [0, 0, 0], max: [0.04, 0.04, 0.08]}\n"
               "gravity: [0, 0, -9.81]\n"
               "materials: [{name: glass, density: 2500}]\n"
               "contact: {normal: linear, kn: 2000, restitution: 0.5, friction: 0.5}\n"
               "walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]\n"
               "grains:\n"
               "  - pour: {min: [0, 0, 0.04], max: [0.04, 0.04, 0.08], count: 1000, rate: 2000}\n"
               "    radius: 0.001\n"
               "%s\n%s", run, extra);
    fclose(f);
    rbl_scene *s = NULL;
    rbl_error err = {0};
    int rc = rbl_scene_load(path, &s, &err);
    if (rc != RBL_OK)
        fprintf(stderr, "%s\n", err.message);
    ASSERT_OK(rc);
    rbl_run_options opt;
    memset(&opt, 0, sizeof opt);
    opt.output_dir = out, opt.threads = 1;
    opt.notice = on_notice, opt.warning = on_warning, opt.userdata = h;
    memset(h, 0, sizeof *h);
    rbl_run *r = NULL;
    rc = rbl_run_open(s, &opt, &r, &err);
    if (rc != RBL_OK)
        fprintf(stderr, "%s\n", err.message);
    ASSERT_OK(rc);
    rbl_run_close(r);
    rbl_scene_free(s);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/rubble_work_estimate_%d", (int)getpid());
    ASSERT_TRUE(mkdir(dir, 0777) == 0);
    heard h;

    open_scene("short", "run: {time: 0.2, dt: 1.0e-5}", "", &h); /* 4e7 particle-steps: 8 s */
    ASSERT_EQ_INT(h.notices, 0);
    ASSERT_EQ_INT(h.warnings, 0);

    /* 2 s at 1e-6 s: 2e6 steps; the pour fills in 0.5 s, so 1000 (2 - 0.25) / 2 = 875 grains
     * on average, 1.75e9 particle-steps at 2e-7 s: 350 s on one core */
    open_scene("minutes", "run: {time: 2, dt: 1.0e-6}", "", &h);
    ASSERT_EQ_INT(h.notices, 1);
    ASSERT_EQ_INT(h.warnings, 0);
    printf("notice: %s\n", h.notice);
    ASSERT_TRUE(strstr(h.notice, "about 5.8 minutes of work: 2000000 steps of dt = 1e-06 s, "
                                 "875 grains on average") != NULL);

    /* dt 3e-9: 6.7e8 steps, about 32 hours: a warning at dt's line (the scene's line 9) */
    open_scene("tiny_dt", "run: {time: 2, dt: 3.0e-9}", "", &h);
    printf("warning: %s\n", h.warning);
    ASSERT_EQ_INT(h.warnings, 1);
    ASSERT_EQ_INT(h.notices, 0);
    ASSERT_TRUE(strstr(h.warning, "tiny_dt.yaml:9:") != NULL);
    ASSERT_TRUE(strstr(h.warning, "about 32.4 hours of work: 666666667 steps") != NULL);
    ASSERT_TRUE(strstr(h.warning, "dt: auto") != NULL);
    ASSERT_TRUE(strstr(h.warning, "warnings: {off: [long_run]}") != NULL);

    /* a run of 500 s under dt: auto: a shorter run.time is the way */
    open_scene("long_time", "run: {time: 500, dt: auto}", "", &h);
    printf("warning: %s\n", h.warning);
    ASSERT_EQ_INT(h.warnings, 1);
    ASSERT_TRUE(strstr(h.warning, "a shorter run.time") != NULL);

    /* meant: the estimate is said as a notice, not warned */
    open_scene("meant", "run: {time: 2, dt: 3.0e-9}", "warnings: {off: [long_run]}\n", &h);
    ASSERT_EQ_INT(h.warnings, 0);
    ASSERT_EQ_INT(h.notices, 1);
    ASSERT_TRUE(strstr(h.notice, "hours of work") != NULL);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ASSERT_TRUE(system(cmd) == 0);
    return 0;
}
