/* test_restart_check.c — issue 41: a checkpoint whose checksum and scene digest are valid but
 * whose own configuration differs from its scene's (kn doubled, gravity flipped, a wall moved)
 * or whose thermo rows are not rows of numbers under their header is refused on restart,
 * naming the value; the file as written restarts. The crafted files are written the way a
 * checkpoint is (rbl_checkpoint_write: a fresh checksum). */
#include "io/io_internal.h"
#include "run/run_internal.h"
#include "dem/dem_internal.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

static const char *scene_text =
    "domain: {min: [0, 0, -0.001], max: [0.02, 0.02, 0.05]}\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n  - {name: glass, density: 2500}\n"
    "contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, "
    "restitution: 0.3, friction: 0.5}\n"
    "walls:\n  - {point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "grains:\n  - lattice: {min: [0, 0, 0], max: [0.02, 0.02, 0.01]}\n    radius: 0.001\n"
    "run: {steps: 400, dt: auto, c: 0.05}\n"
    "output: {every: 0.001, checkpoint_every: 0.002}\n";

/* rubble run of the scene into dir/name (restart: a checkpoint or NULL); its code, err. */
static int run(rbl_scene *s, const char *name, const char *restart, rbl_error *err)
{
    char out[512];
    snprintf(out, sizeof out, "%s/%s", dir, name);
    rbl_run_options opt;
    memset(&opt, 0, sizeof opt);
    opt.output_dir = out;
    opt.restart = restart;
    opt.threads = 1;
    rbl_run_report rep;
    memset(err, 0, sizeof *err);
    return rbl_scene_run(s, &opt, &rep, err);
}

typedef void (*alter_fn)(rbl_sim *sim, unsigned char *blob, size_t len);

/* The checkpoint read, altered, written again as a checkpoint is; its restart refused with
 * needle in the message. */
static void refused(rbl_scene *s, const char *ckpt, alter_fn alter, const char *needle)
{
    rbl_sim *sim = NULL;
    void *blob = NULL;
    size_t len = 0;
    rbl_error err = {0};
    ASSERT_OK(rbl_checkpoint_read(ckpt, &sim, &blob, &len, &err));
    alter(sim, blob, len);
    char crafted[512];
    snprintf(crafted, sizeof crafted, "%s/crafted.bin", dir);
    ASSERT_OK(rbl_checkpoint_write(crafted, sim, blob, len, &err));
    rbl_sim_destroy(sim);
    free(blob);
    int rc = run(s, "crafted_out", crafted, &err);
    printf("refused: %s\n", err.message);
    ASSERT_TRUE(rc != RBL_OK);
    ASSERT_TRUE(strstr(err.message, needle) != NULL);
}

static void double_kn(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    sim->cfg.law.kn *= 2.0;
}

static void flip_gravity(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    sim->cfg.gravity[2] = -sim->cfg.gravity[2];
}

static void move_wall(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    sim->walls[0].offset0 -= 0.001;
}

/* The run state's thermo rows (after the digest, the pour states, the frame times): the
 * second row's third field made a word of the same length. */
static char *thermo_rows(unsigned char *blob, size_t len, size_t *rows_len)
{
    uint64_t v;
    size_t at = 0;
    memcpy(&v, blob + at, 8), at += 8 + v; /* digest */
    memcpy(&v, blob + at, 8), at += 8 + v * sizeof(rbl_pour_state);
    memcpy(&v, blob + at, 8), at += 8 + v * sizeof(double); /* frames */
    memcpy(&v, blob + at, 8), at += 8;
    ASSERT_TRUE(at + v <= len);
    *rows_len = v;
    return (char *)blob + at;
}

static void word_in_row(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)sim;
    size_t n;
    char *rows = thermo_rows(blob, len, &n);
    char *row2 = memchr(rows, '\n', n) + 1;
    char *f3 = strchr(strchr(row2, ',') + 1, ',') + 1; /* grains */
    memcpy(f3, "x", 1);
}

static void short_row(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)sim;
    size_t n;
    char *rows = thermo_rows(blob, len, &n);
    char *row2 = memchr(rows, '\n', n) + 1;
    char *comma = strchr(row2, ','); /* time 0, step 0: "0,0" made "0.0", one field short */
    ASSERT_TRUE(comma[-1] == '0' && comma[1] == '0');
    *comma = '.';
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/rubble_restart_check_%d", (int)getpid());
    ASSERT_OK(rbl_make_dirs(dir, NULL));
    char scene_path[512], ckpt[512];
    snprintf(scene_path, sizeof scene_path, "%s/scene.yaml", dir);
    FILE *f = fopen(scene_path, "w");
    ASSERT_TRUE(f != NULL);
    fputs(scene_text, f);
    fclose(f);
    rbl_scene *s = NULL;
    rbl_error err = {0};
    ASSERT_OK(rbl_scene_load(scene_path, &s, &err));
    ASSERT_OK(run(s, "first", NULL, &err));
    snprintf(ckpt, sizeof ckpt, "%s/first/checkpoint_000000232.bin", dir);
    ASSERT_TRUE(access(ckpt, R_OK) == 0);
    ASSERT_OK(run(s, "again", ckpt, &err)); /* as written: restarts */
    refused(s, ckpt, double_kn, "the checkpoint's law.kn is 4000 where its scene makes 2000");
    refused(s, ckpt, flip_gravity, "the checkpoint's gravity[2] is 9.81");
    refused(s, ckpt, move_wall, "the checkpoint's wall 1's offset is");
    refused(s, ckpt, word_in_row, "thermo row 1, field 3 is not a number: 'x");
    refused(s, ckpt, short_row, "thermo row 1 has");
    rbl_scene_free(s);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ASSERT_TRUE(system(cmd) == 0);
    printf("restart check: a checkpoint altered inside (kn, gravity, a wall, thermo rows) is "
           "refused; as written it restarts\n");
    return 0;
}
