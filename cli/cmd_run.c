/* cmd_run.c — `rubble run SCENE`: run a scene file (docs/scenes.md), show progress (percent,
 * simulated time, steps/s, ETA: one line redrawn on a terminal, a line every 30 s otherwise,
 * so that a batch job's log shows how far it is), and end with the run
 * report: particle-steps per second, time per stage, energy balance, grains lost, largest
 * overlap, where the output went; on SIGTERM or Ctrl-C, a checkpoint and exit 128 + signal. */
#include "cli.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The signal (SIGTERM from a batch system, SIGINT from Ctrl-C) that asked for a clean stop;
 * the handler only sets it (async-signal-safe) and gives the signal back its default, so a
 * second one ends the run at once. The run reads it at every step's end (rbl_run_set_stop). */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig) { stop_signal = sig; }

static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
}

/* The shortest time a contact model's own coefficient sets (rbl_sim_model_time: a linear kt,
 * a constant gamma_t), what sets it, at the run's end. */
typedef struct model_time {
    double time; /* s; INFINITY: none */
    const char *key, *what;
} model_time;

/* The scene run to its end as rbl_scene_run runs it, stopping cleanly on a signal: the run
 * writes its checkpoint and thermo.csv there (RBL_EINTERRUPT) and *stopped is the signal. */
static int run_scene(const rbl_scene *scene, const rbl_run_options *opt, rbl_run_report *rep,
                     int *stopped, uint64_t *first, int *collisions, model_time *model,
                     rbl_error *err)
{
    memset(rep, 0, sizeof *rep);
    *stopped = 0;
    rbl_run *r = NULL;
    int rc = rbl_run_open(scene, opt, &r, err);
    if (rc != RBL_OK)
        return rc;
    rbl_run_set_stop(r, &stop_signal);
    uint64_t step, total;
    rbl_run_clock(r, &step, &total, NULL);
    *first = step;
    if (step < total)
        rc = rbl_run_step(r, total - step, err);
    if (rc == RBL_OK)
        rc = rbl_run_finish(r, err);
    if (rc == RBL_OK || (rc == RBL_EINTERRUPT && (*stopped = rbl_run_stopped(r))))
        rbl_run_summary(r, rep);
    rbl_collision_bin bin; /* output.collisions on: the engine keeps the statistics */
    rbl_error none = {0};
    rbl_sim *sim = rbl_run_sim(r);
    *collisions = sim && rbl_sim_collision_bin(sim, 0, 0, 0, -1, &bin, &none) == RBL_OK;
    model->time = sim ? rbl_sim_model_time(sim, &model->key, &model->what) : INFINITY;
    rbl_run_close(r);
    return rc;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rubble run SCENE.yaml [--output DIR] [--threads N] [--steps N]\n"
            "                             [--restart CHECKPOINT] [--max-grains N] [--quiet]\n"
            "                             [--progress-every SECONDS] [--change-physics]\n"
            "  --output   folder for grains_*.vtp, grains.pvd and thermo.csv (default: the\n"
            "             scene's output.folder)\n"
            "  --threads  OpenMP threads (default: the scene's run.threads, else all cores)\n"
            "  --steps    run N steps instead of the scene's length (smoke tests)\n"
            "  --restart  continue from a checkpoint this scene wrote (output.checkpoint_every);\n"
            "             the run continues bit for bit as if it had not stopped\n"
            "  --change-physics  with --restart: the scene's physics may differ from the\n"
            "             checkpoint's (gravity, contact coefficients, materials' friction,\n"
            "             restitution and elasticity, walls' motions and servos); what changed\n"
            "             is printed; grains, spins and contact histories are kept\n"
            "  --max-grains  refuse a scene that would hold more than N grains (a typo in a\n"
            "             radius), instead of filling the memory\n"
            "  --quiet    no progress\n"
            "  --progress-every  seconds between progress reports (default: 0.5 on a terminal,\n"
            "             30 when stderr is a file or pipe, as in a batch job)\n"
            "  --test-shuffle SEED  tests only: store the grains in a random order at every\n"
            "             neighbour build; the outputs must not change (docs/testing.md)\n"
            "SIGTERM (a batch system's) or Ctrl-C: the run stops after the step it is in,\n"
            "writes a checkpoint there and exits 143 (130 for Ctrl-C); a second one ends it\n"
            "at once. Scene keys: docs/scenes.md\n");
}

/* A warning of the scene or its set-up (docs/scenes.md "Warnings"), on stderr. */
static void warning(const char *text, void *userdata)
{
    (void)userdata;
    char shown[2048];
    fprintf(stderr, "rubble run: warning: %s\n", cli_escaped(text, shown, sizeof shown));
}

/* A stage beginning, or a restart's changes of physics, on stdout as they happen. */
static void notice(const char *text, void *userdata)
{
    (void)userdata;
    char shown[2048];
    printf("rubble run: %s\n", cli_escaped(text, shown, sizeof shown));
    fflush(stdout);
}

static void progress(const rbl_run_status *st, void *userdata)
{
    (void)userdata;
    double frac = st->total_steps ? (double)st->step / (double)st->total_steps : 1.0;
    double rate = st->steps_per_second;
    double eta = rate > 0.0 ? (double)(st->total_steps - st->step) / rate : 0.0;
    fprintf(stderr, "\r  %5.1f%%  t = %-10.4g s  %zu particles  %.0f steps/s  ETA %d:%02d   ",
            100.0 * frac, st->time, st->grains, rate, (int)(eta / 60.0), (int)eta % 60);
    if (st->step == st->total_steps)
        fputc('\n', stderr);
    fflush(stderr);
}

/* Off a terminal (a batch job's log): a whole line each time, nothing redrawn; a run shorter
 * than the interval (userdata) says nothing before its report. */
static void progress_lines(const rbl_run_status *st, void *userdata)
{
    if (st->wall_seconds < *(const double *)userdata)
        return;
    double frac = st->total_steps ? (double)st->step / (double)st->total_steps : 1.0;
    double rate = st->steps_per_second;
    double eta = rate > 0.0 ? (double)(st->total_steps - st->step) / rate : 0.0;
    fprintf(stderr, "rubble run: step %llu of %llu (%.1f%%), t = %.6g s, %zu particles, "
            "%.0f steps/s, %.1f s so far, ETA %d:%02d:%02d\n",
            (unsigned long long)st->step, (unsigned long long)st->total_steps, 100.0 * frac,
            st->time, st->grains, rate, st->wall_seconds, (int)(eta / 3600.0),
            (int)(eta / 60.0) % 60, (int)eta % 60);
    fflush(stderr);
}

/* The end state (output.final) and the checkpoints this run left, where a user looks for them
 * to continue. */
static void print_final_and_checkpoints(const rbl_run_report *rep, const char *scene_path)
{
    if (rep->final_file[0])
        printf("final          %s/%s\n", rep->output_dir, rep->final_file);
    if (rep->checkpoints)
        printf("checkpoints    %zu in %s, the last %s (to go on: rubble run %s --restart %s/%s)\n",
               rep->checkpoints, rep->output_dir, rep->last_checkpoint, scene_path,
               rep->output_dir, rep->last_checkpoint);
}

/* The pour sources' line, where the scene has any: what they placed, and what was due but
 * found no room (a region the grains fill, or that walls fill or lies outside the domain). */
static void report_pour(const rbl_run_report *rep, const char *what)
{
    if (!rep->pour_asked)
        return;
    printf("pour           %llu of %llu %s placed", (unsigned long long)rep->poured,
           (unsigned long long)rep->pour_asked, what);
    if (rep->pour_waiting)
        printf("; %llu more were due by now and wait for room in the pour region%s",
               (unsigned long long)rep->pour_waiting,
               rep->poured ? " (they go in as room appears)"
                            : ": none has fitted (walls in the way, or the region outside the "
                              "domain?)");
    printf("\n");
}

/* The report of an impulse scene (objects, seed 003): the seed's four phases per step. */
static void report_impulse(const rbl_run_report *rep, double drift, const char *scene_path)
{
    char mem[32];
    double steps = rep->steps ? (double)rep->steps : 1.0, sum = 0.0;
    for (int k = 0; k < 4; k++)
        sum += rep->phase_seconds[k];
    printf("steps          %llu of dt = %.4g s, impulse dynamics\n",
           (unsigned long long)rep->steps, rep->dt);
    printf("objects        %zu\n", rep->objects);
    report_pour(rep, "objects");
    printf("speed          %.3g object-steps/s on %d threads, %.3g s per step",
           rep->particle_steps_per_second, rep->threads, sum / steps);
    if (rep->threads_fewest && rep->threads_fewest < rep->threads)
        printf("; down to %d while other programs held the cores", rep->threads_fewest);
    printf("\n");
    printf("phases per step precompute %.3g s, contact detection %.3g s, contact resolution "
           "%.3g s, final %.3g s\n", rep->phase_seconds[0] / steps, rep->phase_seconds[1] / steps,
           rep->phase_seconds[2] / steps, rep->phase_seconds[3] / steps);
    if (rep->energy_start != 0.0)
        printf("energy         %.6g J -> %.6g J (%+.3g of the start: restitution, friction and "
               "objects poured)\n", rep->energy_start, rep->energy_end, drift);
    else
        printf("energy         %.6g J at the end (the run started without objects)\n",
               rep->energy_end);
    printf("contacts       %zu at the end; %zu contact constructions fell back, %zu bounces "
           "held to the energy they may return, over the run\n",
           rep->contacts, rep->fallbacks, rep->capped);
    if (rep->unconverged)
        printf("solve          %zu of %llu steps spent their budget of %d passes per phase "
               "before converging (they went on with the impulses they had): the largest "
               "residual %.3g m/s at step %llu, %.3g times its tolerance; per step in "
               "thermo.csv (residual, unconverged). More impulse.iterations, or a shorter dt, "
               "bring it down\n", rep->unconverged, (unsigned long long)rep->steps,
               rep->iterations, rep->worst_residual, (unsigned long long)rep->worst_step,
               rep->worst_tolerance > 0 ? rep->worst_residual / rep->worst_tolerance : 0.0);
    else
        printf("solve          every step converged (largest residual %.3g m/s, within its "
               "tolerance)\n", rep->worst_residual);
    printf("overlap        the deepest contact any step found: %.3g m\n", rep->largest_overlap);
    printf("output         %s/objects.pvd (%zu frames; Tensor Glyph of 'shape' draws the "
           "ellipsoids), %s%s%s%s%s/thermo.csv%s%s\n", rep->output_dir, rep->frames,
           rep->walls_file[0] ? rep->output_dir : "", rep->walls_file[0] ? "/" : "",
           rep->walls_file[0] ? rep->walls_file : "", rep->walls_file[0] ? ", " : "",
           rep->output_dir, rep->network_files[0] ? "; contacts: " : "", rep->network_files);
    print_final_and_checkpoints(rep, scene_path);
    printf("peak memory    %s\n", cli_bytes(rbl_peak_memory_bytes(), mem, sizeof mem));
}

/* Over several processes: each one's share, least / mean / largest (rbl_run_report.rank_*). */
static void print_per_process(const rbl_run_report *rep)
{
    printf("per process    least / mean / largest of the %d\n", rep->ranks);
    const struct {
        const char *name, *unit;
        const rbl_rank_spread *v;
    } rows[] = {{"grains", "", &rep->rank_grains},
                {"ghosts", "", &rep->rank_ghosts},
                {"listed pairs", "", &rep->rank_pairs},
                {"force", " s", &rep->rank_force},
                {"neighbour", " s", &rep->rank_neighbor},
                {"integrate", " s", &rep->rank_integrate},
                {"self-gravity", " s", rep->timers.gravity_evaluations ? &rep->rank_gravity : NULL},
                {"exchanges", " s (and waits)", &rep->rank_comm}};
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++)
        if (rows[k].v && rows[k].unit[0]) /* seconds */
            printf("  %-13s%.3g / %.3g / %.3g%s\n", rows[k].name, rows[k].v->min,
                   rows[k].v->mean, rows[k].v->max, rows[k].unit);
        else if (rows[k].v) /* counts */
            printf("  %-13s%.0f / %.1f / %.0f\n", rows[k].name, rows[k].v->min, rows[k].v->mean,
                   rows[k].v->max);
    char a[32], b[32], c[32];
    printf("  %-13s%s / %s / %s\n", "peak memory",
           cli_bytes((size_t)rep->rank_memory.min, a, sizeof a),
           cli_bytes((size_t)rep->rank_memory.mean, b, sizeof b),
           cli_bytes((size_t)rep->rank_memory.max, c, sizeof c));
}

int cmd_run(int argc, char **argv)
{
    const char *scene_path = NULL, *output = NULL, *restart = NULL;
    int quiet = 0, change_physics = 0;
    size_t threads = 0, steps = 0, max_grains = 0, test_shuffle = 0;
    double progress_every = 0.0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(argv[i], "--change-physics") == 0) {
            change_physics = 1;
        } else if ((v = cli_option_value(argc, argv, &i, "--progress-every"))) {
            if (cli_parse_double(v, &progress_every) != 0 || !(progress_every > 0.0) ||
                progress_every > 1e9)
                return cli_fail("run", EXIT_USAGE,
                                "--progress-every: not a number of seconds > 0: '%s'", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--output"))) {
            output = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--threads"))) {
            if (cli_parse_size(v, &threads) != 0 || threads > 1024)
                return cli_fail("run", EXIT_USAGE, "--threads: not a thread count: '%s'", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--restart"))) {
            restart = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--max-grains"))) {
            if (cli_parse_size(v, &max_grains) != 0 || max_grains == 0)
                return cli_fail("run", EXIT_USAGE, "--max-grains: not a grain count: '%s'", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--test-shuffle"))) {
            if (cli_parse_size(v, &test_shuffle) != 0 || test_shuffle == 0)
                return cli_fail("run", EXIT_USAGE, "--test-shuffle: not a seed > 0: '%s'", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--steps"))) {
            if (cli_parse_size(v, &steps) != 0 || steps == 0)
                return cli_fail("run", EXIT_USAGE, "--steps: not a step count: '%s'", v);
        } else if (argv[i][0] != '-' && !scene_path) {
            scene_path = argv[i];
        } else {
            usage(stderr);
            return cli_fail("run", EXIT_USAGE, "unknown argument '%s'", argv[i]);
        }
    }
    if (!scene_path) {
        usage(stderr);
        return cli_fail("run", EXIT_USAGE, "no scene file given");
    }
    rbl_error err = {0};
    rbl_scene *scene = NULL;
    if (change_physics && !restart)
        return cli_fail("run", EXIT_USAGE, "--change-physics goes with --restart: a fresh run "
                        "takes its physics from its scene");
    /* over several processes each loads the scene: one that fails stops them all (mpirun) */
    if (rbl_parallel_agree(rbl_scene_load(scene_path, &scene, &err), &err) != RBL_OK) {
        rbl_scene_free(scene);
        return cli_fail("run", EXIT_INPUT, "%s", err.message);
    }
    rbl_run_options opt;
    memset(&opt, 0, sizeof opt);
    opt.output_dir = output;
    opt.threads = (int)threads;
    opt.steps = steps;
    opt.max_grains = max_grains;
    opt.test_shuffle = test_shuffle;
    opt.restart = restart;
    int rank;
    rbl_launched_ranks(&rank); /* over several processes (mpirun) rank 0 tells the run */
    const int terminal = isatty(STDERR_FILENO);
    opt.progress = quiet || rank != 0 ? NULL : terminal ? progress : progress_lines;
    opt.progress_interval = progress_every > 0.0 ? progress_every : terminal ? 0.5 : 30.0;
    opt.userdata = &opt.progress_interval;
    opt.warning = warning;
    opt.notice = notice;
    opt.change_physics = change_physics;
    rbl_run_report rep;
    catch_stop_signals();
    int stopped;
    uint64_t first = 0;
    int collisions = 0;
    model_time model = {INFINITY, NULL, NULL};
    int rc = run_scene(scene, &opt, &rep, &stopped, &first, &collisions, &model, &err);
    if (stopped) { /* docs/scenes.md "Restarts": 128 + the signal, as a shell reports it */
        if (rank == 0) {
            char said[1024], dir[sizeof rep.output_dir];
            fprintf(stderr, "rubble run: %s: %s; to go on: rubble run %s --restart %s/%s\n",
                    scene_path, cli_escaped(err.message, said, sizeof said), scene_path,
                    cli_escaped(rep.output_dir, dir, sizeof dir), rep.last_checkpoint);
        }
        rbl_parallel_agree(RBL_OK, NULL); /* the others wait for it: mpirun ends the job as */
        rbl_scene_free(scene);            /* the first exits non-zero */
        return 128 + stopped;
    }
    if (rc != RBL_OK) {
        rbl_scene_free(scene);
        if (rc == RBL_EUNSTABLE) /* the health check stopped it (docs/dem.md) */
            return cli_fail("run", EXIT_UNSTABLE, "%s: the run was stopped: %s", scene_path,
                            err.message);
        return cli_fail("run", EXIT_INPUT, "%s", err.message);
    }
    if (rank != 0) {
        rbl_scene_free(scene);
        return 0;
    }
    { /* names from the scene, shown with their control bytes escaped (cut to fit) */
        char shown[sizeof rep.output_dir];
        snprintf(rep.output_dir, sizeof rep.output_dir, "%s",
                 cli_escaped(rep.output_dir, shown, sizeof shown));
        snprintf(rep.final_file, sizeof rep.final_file, "%s",
                 cli_escaped(rep.final_file, shown, sizeof shown));
    }
    char mem[32];
    double drift = rep.energy_start != 0.0
                       ? (rep.energy_end - rep.energy_start) / fabs(rep.energy_start)
                       : 0.0;
    printf("scene          %s\n", scene_path);
    if (rep.impulse) {
        report_impulse(&rep, drift, scene_path);
        rbl_scene_free(scene);
        return 0;
    }
    if (isfinite(rep.contact_time) && model.time < rep.contact_time && model.key)
        /* a model's own time is the shorter: it set dt: auto (law_table.h) */
        printf("steps          %llu of dt = %.4g s (set by contact.%s, %s: pi / its rate "
               "%.4g s, %.0f steps; shortest contact %.4g s, %.0f steps)\n",
               (unsigned long long)rep.steps, rep.dt, model.key, model.what, model.time,
               model.time / rep.dt, rep.contact_time, rep.contact_time / rep.dt);
    else if (isfinite(rep.contact_time))
        printf("steps          %llu of dt = %.4g s (shortest contact %.4g s, %.0f steps)\n",
               (unsigned long long)rep.steps, rep.dt, rep.contact_time,
               rep.contact_time / rep.dt);
    else /* every grain has left */
        printf("steps          %llu of dt = %.4g s (no grain left to touch)\n",
               (unsigned long long)rep.steps, rep.dt);
    char outlets[64] = ""; /* what the outlets took out, where the scene has some */
    if (rep.outlets)
        snprintf(outlets, sizeof outlets, ", %llu taken out by the outlets",
                 (unsigned long long)rep.taken_out);
    if (!rep.open)
        printf("grains         %zu at the end, %llu lost (left the domain)%s\n", rep.grains,
               (unsigned long long)rep.lost, outlets);
    else if (rep.escape > 0.0)
        printf("grains         %zu at the end, %llu escaped (farther than %g m from the centre "
               "of mass)\n",
               rep.grains, (unsigned long long)rep.lost, rep.escape);
    else
        printf("grains         %zu at the end, %llu lost (open domain: not finite)\n", rep.grains,
               (unsigned long long)rep.lost);
    if (rep.clumps)
        printf("clumps         %zu at the end (their spheres are counted above)\n", rep.clumps);
    report_pour(&rep, "grains");
    printf("speed          %.3g particle-steps/s on %d thread%s (%.3g us per particle-step)",
           rep.particle_steps_per_second, rep.threads, rep.threads == 1 ? "" : "s",
           rep.particle_steps_per_second > 0 ? 1e6 / rep.particle_steps_per_second : 0.0);
    if (rep.threads_fewest < rep.threads)
        printf("; down to %d while other programs held the cores", rep.threads_fewest);
    printf("\n");
    if (rep.stages)
        printf("staged         %d stages in the scene; the run ended in stage %d ('%s')\n",
               rep.stages, rep.stage, rep.stage_name);
    printf("stages         force %.2f s, neighbour %.2f s (%llu builds), integrate %.2f s%s\n",
           rep.timers.force, rep.timers.neighbor,
           (unsigned long long)(rep.timers.rebuilds - rep.timers.setup_builds),
           rep.timers.integrate, rep.ranks > 1 ? " (each the slowest process's)" : "");
    if (rep.timers.setup_builds)
        printf("setup          %.2f s before the first step: the first neighbour build and forces "
               "(not in the stages, as LAMMPS's setup is not in its loop time)\n",
               rep.timers.setup);
    if (rep.ranks > 1)
        printf("processes      %d, started by %s: at most %.2f s of one in exchanges and waits, the "
               "slowest one's work %.2f of the mean; %.3g bytes in %llu messages between them, "
               "%llu grains moved rank, %llu partitions, %llu ghosts held at the end; each "
               "exchanged with at most %d neighbours (%llu exchanges among all, after a new "
               "partition)\n",
               rep.ranks, rbl_launcher_name() ? rbl_launcher_name() : "the launcher",
               rep.comm_seconds, rep.imbalance, (double)rep.comm_bytes,
               (unsigned long long)rep.comm_messages, (unsigned long long)rep.migrated,
               (unsigned long long)rep.partitions, (unsigned long long)rep.ghosts,
               rep.neighbours, (unsigned long long)rep.exchanges_all);
    if (rep.ranks > 1)
        print_per_process(&rep);
    if (rep.timers.gravity_evaluations) {
        printf("self-gravity   %.2f s, %llu evaluations, %.0f interactions per grain at the last",
               rep.timers.gravity, (unsigned long long)rep.timers.gravity_evaluations,
               rep.timers.gravity_interactions);
        if (rep.ranks > 1)
            printf("; the tree built apart in %llu, every grain gathered in %llu; %.3g bytes "
                   "sent (%.3g of them the trees')",
                   (unsigned long long)rep.gravity_apart,
                   (unsigned long long)rep.gravity_gathers, (double)rep.gravity_bytes,
                   (double)rep.gravity_tree_bytes);
        printf("\n");
    }
    /* the energy account the health check keeps: what came in, where it went */
    printf("energy         %.6g J -> %.6g J (kinetic, potential, contacts)", rep.energy_start,
           rep.energy_end);
    if (restart) /* the account over this run's steps; thermo.csv's columns are since t = 0 */
        printf(" since the restart at step %llu%s; from t = 0: thermo.csv",
               (unsigned long long)first,
               change_physics ? ", before its change of physics" : "");
    printf("\n");
    printf("  put in       %.4g J: walls %.4g, external forces %.4g, grains added %.4g and "
           "taken out %.4g, changes between steps %.4g\n",
           rep.energy_in, rep.put_in[RBL_IN_WALLS], rep.put_in[RBL_IN_EXTERNAL],
           rep.put_in[RBL_IN_ADDED], rep.put_in[RBL_IN_REMOVED], rep.put_in[RBL_IN_CHANGES]);
    printf("  dissipated   %.4g J: damping %.4g, friction %.4g, rolling %.4g, cohesion %.4g\n",
           rep.dissipated[RBL_LOSS_DAMPING] + rep.dissipated[RBL_LOSS_FRICTION] +
               rep.dissipated[RBL_LOSS_ROLLING] + rep.dissipated[RBL_LOSS_COHESION],
           rep.dissipated[RBL_LOSS_DAMPING], rep.dissipated[RBL_LOSS_FRICTION],
           rep.dissipated[RBL_LOSS_ROLLING], rep.dissipated[RBL_LOSS_COHESION]);
    /* the drift against the energy that went through: the scale, or what was put in and
       dissipated where more (a vibrated bed's throughput is many times what it holds) */
    const double lost = rep.dissipated[RBL_LOSS_DAMPING] + rep.dissipated[RBL_LOSS_FRICTION] +
                        rep.dissipated[RBL_LOSS_ROLLING] + rep.dissipated[RBL_LOSS_COHESION];
    const double through = fmax(rep.energy_scale, fabs(rep.energy_in) + fabs(lost));
    printf("  balance      %+.3g J unaccounted, %.2g of the %.4g J %s: the time step's own "
           "error\n", rep.balance_drift,
           through > 0.0 ? fabs(rep.balance_drift) / through : 0.0, through,
           through > rep.energy_scale ? "put in and dissipated" : "energy scale");
    printf("contacts       %zu touching pairs, %zu pairs in the neighbour list (%.2f and %.2f "
           "per grain)",
           rep.contacts, rep.pairs_listed, rep.grains ? (double)rep.contacts / (double)rep.grains : 0.0,
           rep.grains ? (double)rep.pairs_listed / (double)rep.grains : 0.0);
    if (rep.threads > 1 && rep.ranks <= 1)
        printf(", %llu of them across the threads' ranges",
               (unsigned long long)rep.timers.pairs_across_threads);
    printf("\n");
    if (rep.peak_overlap > 0.0 && rep.peak_overlap_wall)
        printf("largest overlap %.3g of the radius over the run, at step %llu (grain %u on wall "
               "%d); %.3g at the end\n",
               rep.peak_overlap, (unsigned long long)rep.peak_overlap_step,
               rep.peak_overlap_ids[0], rep.peak_overlap_wall, rep.max_overlap_ratio);
    else if (rep.peak_overlap > 0.0)
        printf("largest overlap %.3g of the smaller radius over the run, at step %llu (grains "
               "%u and %u); %.3g at the end\n",
               rep.peak_overlap, (unsigned long long)rep.peak_overlap_step,
               rep.peak_overlap_ids[0], rep.peak_overlap_ids[1], rep.max_overlap_ratio);
    else
        printf("largest overlap 0: no contact over the run\n");
    printf("output         %s/grains.pvd (%zu frames), ", rep.output_dir, rep.frames);
    if (rep.walls_file[0])
        printf("%s/%s, ", rep.output_dir, rep.walls_file);
    printf("%s/thermo.csv", rep.output_dir);
    if (collisions)
        printf(", %s/collisions.csv", rep.output_dir);
    printf("\n");
    if (rep.network_files[0])
        printf("contact network %s in %s (Tube filter, radius by 'force', draws the force "
               "chains)\n", rep.network_files, rep.output_dir);
    print_final_and_checkpoints(&rep, scene_path);
    if (rep.frames_elsewhere)
        printf("               %zu earlier frames are not in %s (written before the restart, "
               "elsewhere): grains.pvd lists only what the folder holds\n",
               rep.frames_elsewhere, rep.output_dir);
    if (rep.ranks > 1)
        printf("peak memory    %s on the largest of the %d processes\n",
               cli_bytes((size_t)rep.rank_memory.max, mem, sizeof mem), rep.ranks);
    else
        printf("peak memory    %s\n", cli_bytes(rbl_peak_memory_bytes(), mem, sizeof mem));
    rbl_scene_free(scene);
    return 0;
}
