/* test_restart_check.c — issue 41: a checkpoint whose checksum and scene digest are valid but
 * whose own configuration differs from its scene's (kn doubled, gravity flipped, a wall moved)
 * or whose thermo rows are not rows of numbers under their header is refused on restart,
 * naming the value; the file as written restarts. The crafted files are written the way a
 * checkpoint is (rbl_checkpoint_write: a fresh checksum). Then what fuzz_checkpoint found
 * (issue 15), crafted at the current format, so that these regressions follow every format
 * (the fuzzer's own inputs of formats 8-21 are refused at the version now): a contact's touch
 * flag of 2, a history not finite, an outlet's count of 1.3e102, a pour owing -8.6e86 grains,
 * a NaN external force, a grain 5.8e17 m out along a periodic side; each read apart as several
 * processes read it, with the whole read's verdict (fuzz/apart_as_whole.h). */
#include "io/io_internal.h"
#include "run/run_internal.h"
#include "dem/dem_internal.h"
#include "bonds/bonds_internal.h"
#include "fuzz/apart_as_whole.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <math.h>
#include <unistd.h>

static char dir[256];
static rbl_comm *comm; /* one process: a read apart's share is every grain */

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

/* The path of the last checkpoint a run wrote into dir/name. */
static void last_checkpoint(const char *name, char *path, size_t size)
{
    char folder[300], last[200] = "";
    snprintf(folder, sizeof folder, "%.250s/%s", dir, name);
    DIR *d = opendir(folder);
    ASSERT_TRUE(d != NULL);
    for (struct dirent *e; (e = readdir(d));)
        if (!strncmp(e->d_name, "checkpoint_", 11) && strcmp(e->d_name, last) > 0)
            snprintf(last, sizeof last, "%.190s", e->d_name);
    closedir(d);
    ASSERT_TRUE(last[0] != 0);
    snprintf(path, size, "%s/%s", folder, last);
}

typedef void (*alter_fn)(rbl_sim *sim, unsigned char *blob, size_t len);

/* The checkpoint read, altered, written again as a checkpoint is (a fresh checksum); read
 * apart as several processes read it, with the whole read's verdict; restarted: its code, err
 * (needle NULL: it must restart; else refused with needle in the message). */
static void restarted(rbl_scene *s, const char *ckpt, alter_fn alter, const char *needle)
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
    apart_as_whole(crafted, comm);
    int rc = run(s, "crafted_out", crafted, &err);
    if (!needle) {
        ASSERT_OK(rc);
        return;
    }
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

/* What fuzz_checkpoint found, crafted in the second scene's checkpoint (a periodic bed under
 * a pour, with an outlet): the first touching pair's or wall contact's flag made 2 (it
 * over-counted the carried histories: a read past them), a touching pair's history NaN. */
static size_t first_touching(const uint8_t *touch, size_t n)
{
    for (size_t q = 0; q < n; q++)
        if (touch[q])
            return q;
    ASSERT_TRUE(0); /* (the bed rests on its floor: it has both) */
    return 0;
}

static void pair_touch_2(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    sim->pairs.touch[first_touching(sim->pairs.touch, sim->pairs.n)] = 2;
}

static void wall_touch_2(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    sim->wpairs.touch[first_touching(sim->wpairs.touch, sim->wpairs.n)] = 2;
}

static void history_nan(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    size_t q = first_touching(sim->pairs.touch, sim->pairs.n);
    sim->pairs.hist[rbl_hist_width(&sim->cfg.law) * q] = NAN;
}

/* an outlet's count of grains taken out 1.3e102 (cast to an integer in the report: UBSan) */
static void outlet_count_huge(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    ASSERT_TRUE(sim->n_outlets == 1);
    rbl_exact_clear(&sim->outlet_sums[0]);
    rbl_exact_add(&sim->outlet_sums[0], 1.3e102);
}

/* the pour's schedule owing -8.6e86 grains (converted to size_t: undefined) */
static void pour_owes_negative(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)sim;
    uint64_t v, n;
    memcpy(&v, blob, 8);
    memcpy(&n, blob + 8 + v, 8);
    ASSERT_TRUE(n == 2 && 8 + v + 8 + n * sizeof(rbl_pour_state) <= len);
    rbl_pour_state ps;
    memcpy(&ps, blob + 8 + v + 8 + sizeof ps, sizeof ps); /* the second source: the pour */
    ps.owed = -8.6e86;
    memcpy(blob + 8 + v + 8 + sizeof ps, &ps, sizeof ps);
}

/* an external force asked for that is not a number (refused whole and read apart alike) */
static void external_nan(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    rbl_error err = {0};
    ASSERT_OK(rbl_grains_external(&sim->g, &err));
    memset(sim->g.fext, 0, 3 * sim->g.n * sizeof *sim->g.fext);
    memset(sim->g.fext_applied, 0, 3 * sim->g.n * sizeof *sim->g.fext_applied);
    sim->g.fext[3 * 4 + 2] = NAN;
}

/* a grain 5.8e17 m out along a periodic side: the grid's integer conversion was undefined; the
 * wrap cannot bring it into the box, so it is refused or lost, never placed */
static void beyond_wrap(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    sim->g.pos[3 * 6] = -5.8e17;
}

/* the carried thermo rows' header naming the wall's travel where this run writes its force
 * (the rows' width unchanged: the rows would sit under another run's header) */
static void header_travel(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)sim;
    size_t n;
    char *rows = thermo_rows(blob, len, &n);
    char *f = strstr(rows, "wall1_fx,wall1_fy,wall1_fz");
    ASSERT_TRUE(f != NULL && f < rows + n);
    memcpy(f, "wall1_dx,wall1_dy,wall1_dz", 26);
}

/* a plane wall contact's unused candidate range made [0, 1) where the file holds no
 * candidates: the read apart counted it among the mesh candidates and refused what the whole
 * read takes (fuzz_checkpoint); both must take it */
static void plane_candidates(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    size_t q = first_touching(sim->wpairs.touch, sim->wpairs.n);
    sim->wpairs.cand_lo[q] = 0, sim->wpairs.cand_hi[q] = 1;
}

/* more broken bonds than bonds (the read apart took a bond section counting broken bonds
 * without bonds, which the whole read refuses) */
static void broken_beyond_bonds(rbl_sim *sim, unsigned char *blob, size_t len)
{
    (void)blob, (void)len;
    ASSERT_TRUE(sim->bonds && sim->bonds->n > 0);
    sim->bonds->broken = sim->bonds->n + 1;
}

static const char *bonded_scene_text =
    "domain: {min: [-0.01, -0.01, 0], max: [0.01, 0.01, 0.02]}\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n  - {name: rock, density: 2500}\n"
    "contact: {normal: linear, damping: linear, tangential: none, kn: 1.0e4, gamma_n: 0.05}\n"
    "walls:\n  - {plane: [0, 0, 1, 0]}\n"
    "grains:\n  - lattice: {min: [-0.003, -0.003, 0.001], max: [0.003, 0.003, 0.005], "
    "spacing: 0.002}\n    radius: 0.001\n"
    "bonds: {youngs_modulus: 2.0e6, tensile_strength: 1.0e4, shear_strength: 2.0e4, "
    "gap: 1.0e-5}\n"
    "run: {steps: 40, dt: auto, c: 0.01}\n"
    "output: {every: 0.01, checkpoint_every: 2e-5}\n";

static const char *crafted_scene_text =
    "domain: {min: [0, 0, -0.001], max: [0.01, 0.01, 0.03], periodic: [x, y]}\n"
    "gravity: [0, 0, -9.81]\n"
    "materials:\n  - {name: glass, density: 2500}\n"
    "contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.3, "
    "friction: 0.5}\n"
    "walls:\n  - {point: [0, 0, 0], normal: [0, 0, 1]}\n"
    "grains:\n  - lattice: {min: [0, 0, 0], max: [0.01, 0.01, 0.006]}\n    radius: 0.001\n"
    "  - pour: {min: [0, 0, 0.02], max: [0.01, 0.01, 0.028], rate: 100000, every: 0.0001, "
    "count: 30}\n    radius: 0.0009\n"
    "outlets: [{box: {min: [0, 0, 0.029], max: [0.01, 0.01, 0.03]}}]\n"
    "run: {steps: 1500, dt: auto, c: 0.05}\n"
    "output: {every: 0.005, checkpoint_every: 0.005}\n";

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/rubble_restart_check_%d", (int)getpid());
    ASSERT_OK(rbl_make_dirs(dir, NULL));
    rbl_error made = {0};
    ASSERT_OK(rbl_comm_create(&comm, &made));
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
    restarted(s, ckpt, double_kn, "the checkpoint's law.kn is 4000 where its scene makes 2000");
    restarted(s, ckpt, flip_gravity, "the checkpoint's gravity[2] is 9.81");
    restarted(s, ckpt, move_wall, "the checkpoint's wall 1's offset is");
    restarted(s, ckpt, word_in_row, "thermo row 1, field 3 is not a number: 'x");
    restarted(s, ckpt, short_row, "thermo row 1 has");
    rbl_scene_free(s);

    /* what fuzz_checkpoint found, at this format */
    snprintf(scene_path, sizeof scene_path, "%s/crafted.yaml", dir);
    f = fopen(scene_path, "w");
    ASSERT_TRUE(f != NULL);
    fputs(crafted_scene_text, f);
    fclose(f);
    ASSERT_OK(rbl_scene_load(scene_path, &s, &err));
    ASSERT_OK(run(s, "second", NULL, &err));
    last_checkpoint("second", ckpt, sizeof ckpt);
    ASSERT_TRUE(apart_as_whole(ckpt, comm));
    ASSERT_OK(run(s, "second_again", ckpt, &err)); /* as written: restarts */
    restarted(s, ckpt, pair_touch_2, "inconsistent pair contacts");
    restarted(s, ckpt, wall_touch_2, "inconsistent checkpoint contents");
    restarted(s, ckpt, history_nan, "inconsistent pair contacts");
    restarted(s, ckpt, outlet_count_huge, "outlet 1's grain count is 1.3e+102");
    restarted(s, ckpt, pour_owes_negative, "inconsistent run state: pour source 2 has next batch "
                                         "at");
    restarted(s, ckpt, external_nan, "grain 4: its force nan N");
    restarted(s, ckpt, beyond_wrap, "grain 6: grain: position (-5.8e+17");
    restarted(s, ckpt, header_travel, "thermo.csv: the rows the run state carries have other "
                                    "columns");
    restarted(s, ckpt, plane_candidates, NULL); /* (a range unused: both reads take it) */
    rbl_scene_free(s);
    /* a bonded block's checkpoint (its last step's) */
    snprintf(scene_path, sizeof scene_path, "%s/bonded.yaml", dir);
    f = fopen(scene_path, "w");
    ASSERT_TRUE(f != NULL);
    fputs(bonded_scene_text, f);
    fclose(f);
    ASSERT_OK(rbl_scene_load(scene_path, &s, &err));
    ASSERT_OK(run(s, "bonded", NULL, &err));
    last_checkpoint("bonded", ckpt, sizeof ckpt);
    ASSERT_TRUE(apart_as_whole(ckpt, comm));
    restarted(s, ckpt, broken_beyond_bonds, "broken");
    rbl_scene_free(s);
    rbl_comm_free(comm);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ASSERT_TRUE(system(cmd) == 0);
    printf("restart check: a checkpoint altered inside (kn, gravity, a wall, thermo rows, and "
           "what fuzz_checkpoint found) is refused, read whole or apart; as written it "
           "restarts\n");
    return 0;
}
