/* run.c — the run as an object (issue 42): opened from a scene, stepped in pieces, its events
 * (frames, thermo rows, pours, checkpoints, spin steps) at the steps the scene sets, whatever
 * pieces it is stepped in; `rubble run` is rbl_scene_run, the same calls end to end. What
 * differs between the grains' engine and impulse dynamics is the kind's (run_internal.h). */
#include "run_internal.h"
#include "../dem/dem_internal.h" /* rbl_sim_external_clear */

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rbl_scene_final_clear(const rbl_scene *s, const char *dir, rbl_error *err)
{
    if (!s->final_grains)
        return RBL_OK;
    char *path = rbl_path_join(dir, s->final_grains);
    if (!path)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    const char *input = rbl_same_file(path, s->path) ? s->path : NULL;
    for (int k = 0; !input && k < s->n_sources; k++)
        if (s->sources[k].kind == RBL_SOURCE_FILE && rbl_same_file(path, s->sources[k].file))
            input = s->sources[k].file;
    free(path);
    if (input)
        return rbl_error_set(err, RBL_EINVAL,
                             "%s: output.final '%s' in %s is %s, which the run reads: it would "
                             "be overwritten; choose another name or folder",
                             s->path, s->final_grains, dir, input);
    return RBL_OK;
}

/* The most steps a run, or the interval of one of its events, may span: far above any real
 * run (a billion particle-steps per second for 30 years on one grain), and far below where
 * a step count stops fitting a uint64_t or an exact double. */
#define MAX_STEPS 1e15

/* The steps in `seconds` of simulated time at dt: rounded up for the run's length, to the
 * nearest for an event's interval, at least 1. A count beyond MAX_STEPS is refused at the
 * scene's key (at; its line 0: the run's length, which set the default). */
int rbl_scene_steps_in(const rbl_scene *s, rbl_mark at, const char *key, double seconds,
                       double dt, int round_up, uint64_t *out, rbl_error *err)
{
    const double q = seconds / dt;
    if (!(q <= MAX_STEPS)) {
        rbl_error_set(err, RBL_ERANGE,
                      "%s = %g s is %.3g steps of dt = %g s: more than %g steps cannot be run",
                      key, seconds, q, dt, MAX_STEPS);
        return rbl_scene_error_at(s, at.line ? at : s->at_length, err);
    }
    const double n = round_up ? ceil(q - 1e-9) : round(q);
    *out = n < 1.0 ? 1 : (uint64_t)n;
    return RBL_OK;
}


/* The frames and thermo rows of the stage now (the scene's own without stages): its
 * intervals, counted from its first step. */
static int stage_events(rbl_run *r, rbl_error *err)
{
    const rbl_scene *s = rbl_scene_stage_scene(r->scene, r->stage);
    rbl_run_events *e = &r->events;
    const double dt = r->dt, end_time = (double)e->total * dt;
    const double thermo_dt = s->thermo_every > 0.0 ? s->thermo_every
                             : s->frame_every > 0.0 ? s->frame_every / 10.0
                                                    : end_time / r->kind->thermo_rows;
    e->base = r->stage ? r->stage_start[r->stage - 1] : 0;
    e->frame = e->total, e->thermo = 1;
    e->frame_until = s->frame_every > 0.0 ? UINT64_MAX : e->total;
    e->thermo_until = s->thermo_every > 0.0 || s->frame_every > 0.0 ? UINT64_MAX : e->total;
    int rc = RBL_OK;
    if (s->frame_every > 0.0)
        rc = rbl_scene_steps_in(s, s->at_frame_every, "output.every", s->frame_every, dt, 0,
                                &e->frame, err);
    if (rc == RBL_OK)
        rc = rbl_scene_steps_in(s, s->at_thermo_every, "output.thermo_every", thermo_dt, dt, 0,
                                &e->thermo, err);
    return rc;
}

int rbl_scene_stage_starts(const rbl_scene *s, double dt, uint64_t *starts, rbl_error *err)
{
    uint64_t at = 0;
    for (int k = 0; k < s->n_stages; k++) {
        const rbl_scene_stage *st = &s->stages[k];
        uint64_t steps = st->steps;
        int rc = steps ? RBL_OK
                       : rbl_scene_steps_in(s, st->at, "a stage's time", st->time, dt, 1, &steps,
                                            err);
        if (rc != RBL_OK)
            return rc;
        if (steps > (uint64_t)1e15 - at) {
            rbl_error_set(err, RBL_ERANGE, "the stages up to '%s' last more than 1e15 steps",
                          st->name);
            return rbl_scene_error_at(s, st->at, err);
        }
        starts[k] = at;
        at += steps;
    }
    starts[s->n_stages] = at;
    return RBL_OK;
}

int rbl_scene_stage_of(const rbl_scene *s, const uint64_t *starts, uint64_t step)
{
    int k = 1;
    while (k < s->n_stages && starts[k] <= step)
        k++;
    return k;
}

/* Where each stage starts and the run's length (their sum); the stage that holds the step
 * (a restart's: the stages up to it are in its checkpoint). */
static int stage_schedule(rbl_run *r, uint64_t *total, rbl_error *err)
{
    const rbl_scene *s = r->scene;
    r->stage_start = calloc((size_t)s->n_stages + 1, sizeof *r->stage_start);
    if (!r->stage_start)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    int rc = rbl_scene_stage_starts(s, r->dt, r->stage_start, err);
    *total = r->stage_start[s->n_stages];
    r->stage = rbl_scene_stage_of(s, r->stage_start, r->step);
    return rc;
}

/* The scene's events in steps of dt: its length (or --steps), frames, thermo rows,
 * checkpoints, spin steps (+ spin_step at every multiple of spin_every, n_spin times, by step
 * number, so a restart applies the same ones). */
static int schedule(rbl_run *r, rbl_error *err)
{
    const rbl_scene *s = r->scene;
    rbl_run_events *e = &r->events;
    const double dt = r->dt;
    int rc = RBL_OK;
    uint64_t staged = 0;
    if (s->n_stages)
        rc = stage_schedule(r, &staged, err);
    e->total = r->opt.steps ? r->opt.steps : s->n_stages ? staged : s->steps;
    if (rc == RBL_OK && !e->total)
        rc = rbl_scene_steps_in(s, s->at_length, "run.time", s->end_time, dt, 1, &e->total, err);
    if (rc == RBL_OK)
        rc = stage_events(r, err);
    if (rc == RBL_OK && s->checkpoint_every > 0.0)
        rc = rbl_scene_steps_in(s, s->at_checkpoint_every, "output.checkpoint_every",
                                s->checkpoint_every, dt, 0, &e->checkpoint, err);
    if (rc == RBL_OK && s->spin && s->spin_step > 0.0 && r->kind->spin) {
        rc = rbl_scene_steps_in(s, s->at_spin, "spin.every", s->spin_every, dt, 0, &e->spin,
                                err);
        e->n_spin = (uint64_t)floor((s->spin_until - s->spin_omega) / s->spin_step + 1e-9);
    }
    if (rc == RBL_OK && r->restart && r->step >= e->total)
        rc = rbl_error_set(err, RBL_EINVAL,
                           "%s: the checkpoint is at step %llu, already at or past the end of "
                           "the run (step %llu of %s): nothing to run. run.time, run.steps and "
                           "--steps count from the run's start, not from the restart",
                           r->restart, (unsigned long long)r->step,
                           (unsigned long long)e->total, r->opt.steps ? "--steps" : s->path);
    return rc;
}

/* The next multiple of `every` counted from base after step (UINT64_MAX: none). */
static uint64_t next_from(uint64_t step, uint64_t base, uint64_t every)
{
    if (!every || step < base)
        return UINT64_MAX;
    const uint64_t q = (step - base) / every;
    if (q >= (UINT64_MAX - base) / every - 1)
        return UINT64_MAX;
    return base + (q + 1) * every;
}

/* The next multiple of `every` after step (UINT64_MAX: none, or past what a count holds). */
static uint64_t next_multiple(uint64_t step, uint64_t every)
{
    if (!every || step / every >= UINT64_MAX / every - 1)
        return UINT64_MAX;
    return (step / every + 1) * every;
}

/* Where the stepping from `step` next stops to look at the events: the next multiple of the
 * kind's stride or of an event's interval, a pour's next batch, or the run's end, whichever
 * comes first. Fixed by the step (and the pours' schedules) alone, so that stepping in pieces
 * stops where stepping at once does, and a batch falls on its own step whatever the output
 * intervals (issue 69). */
static uint64_t next_stop(const rbl_run *r, uint64_t step)
{
    const rbl_run_events *e = &r->events;
    uint64_t next = next_multiple(step, r->kind->stride);
    const int n_stages = r->scene->n_stages;
    const uint64_t at[] = {step < e->frame_until ? next_from(step, e->base, e->frame) : UINT64_MAX,
                           step < e->thermo_until ? next_from(step, e->base, e->thermo)
                                                  : UINT64_MAX,
                           r->stage && r->stage < n_stages ? r->stage_start[r->stage]
                                                           : UINT64_MAX,
                           next_multiple(step, e->checkpoint),
                           e->spin && step / e->spin < e->n_spin ? next_multiple(step, e->spin)
                                                                 : UINT64_MAX,
                           r->hook ? next_multiple(step, e->hook) : UINT64_MAX,
                           next_multiple(step, e->cg),
                           next_multiple(step, e->collisions), next_multiple(step, e->flows),
                           r->kind->pour_next ? r->kind->pour_next(r, step) : UINT64_MAX,
                           step < e->total ? e->total : UINT64_MAX};
    for (size_t k = 0; k < sizeof at / sizeof *at; k++)
        if (at[k] < next)
            next = at[k];
    return next;
}

static int write_checkpoint(rbl_run *r, rbl_error *err)
{
    int rc = r->kind->checkpoint(r, err);
    if (rc == RBL_OK && r->ranks.rank == 0)
        rc = rbl_checkpoint_series_add(&r->checkpoints, r->dir, r->step, err);
    return rc;
}

/* The caller's hook mid-stepping: what it changes in the grains is work put in. */
static int call_hook(rbl_run *r, rbl_error *err)
{
    if (r->kind->outside)
        r->kind->outside(r, 0);
    r->hook_last = r->step;
    int rc = r->hook(r, r->hook_data, err);
    if (rc == RBL_OK && r->kind->written && (rc = r->kind->written(r, err)) != RBL_OK)
        rbl_error_prefix(err, rc, "after the hook at step %llu", (unsigned long long)r->step);
    if (r->kind->outside)
        r->kind->outside(r, 1);
    return rc;
}

void rbl_run_notice(const rbl_run *r, const char *head, const char *changes)
{
    if (!r->opt.notice || r->ranks.rank != 0)
        return;
    char line[1400];
    const char *c = changes && *changes ? changes : "(nothing)\n";
    const size_t n = strlen(c) - (c[strlen(c) - 1] == '\n');
    snprintf(line, sizeof line, "%s: %.*s", head, (int)(n > 1200 ? 1200 : n), c);
    for (char *p = line; *p; p++) /* one line: the changes joined by "; " */
        if (*p == '\n')
            *p = ';';
    r->opt.notice(line, r->opt.userdata);
}

/* Stage r->stage begins: the engine takes its physics (booked as work put in, as a hook's
 * changes are), its frames and rows fall from here, and the caller hears what changed. */
static int enter_stage(rbl_run *r, int book, rbl_error *err)
{
    const rbl_scene_stage *st = &r->scene->stages[r->stage - 1];
    if (book && r->kind->outside)
        r->kind->outside(r, 0);
    int rc = r->kind->stage(r, err);
    if (book && r->kind->outside)
        r->kind->outside(r, 1);
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "stage %d ('%s') at step %llu", r->stage, st->name,
                                (unsigned long long)r->step);
    if ((rc = stage_events(r, err)) != RBL_OK)
        return rc;
    char head[160];
    snprintf(head, sizeof head, "stage %d of %d ('%s') from step %llu, t = %.6g s", r->stage,
             r->scene->n_stages, st->name, (unsigned long long)r->step, (double)r->step * r->dt);
    rbl_run_notice(r, head, st->changes);
    return RBL_OK;
}

/* The events that fall on this step, in the order `rubble run` has always made them. */
static int events_at(rbl_run *r, rbl_error *err)
{
    const rbl_run_events *e = &r->events;
    const uint64_t step = r->step;
    int rc = RBL_OK, begins = 0;
    if (r->stage && r->stage < r->scene->n_stages && step == r->stage_start[r->stage]) {
        r->stage++, begins = 1; /* a stage begins: a row and a frame mark it */
        rc = enter_stage(r, 1, err);
    }
    if (rc == RBL_OK && e->spin && step % e->spin == 0 && step / e->spin <= e->n_spin)
        rc = r->kind->spin(r, err);
    if (rc == RBL_OK && (((step - e->base) % e->thermo == 0 && step <= e->thermo_until) ||
                         step == e->total || begins))
        rc = r->kind->thermo(r, err);
    if (rc == RBL_OK && (((step - e->base) % e->frame == 0 && step <= e->frame_until) ||
                         step == e->total || begins))
        rc = r->kind->frame(r, err);
    if (rc == RBL_OK && e->cg && step % e->cg == 0)
        rc = r->kind->cg(r, err);
    if (rc == RBL_OK && e->collisions && (step % e->collisions == 0 || step == e->total))
        rc = r->kind->collisions(r, err);
    if (rc == RBL_OK && e->flows && (step % e->flows == 0 || step == e->total))
        rc = r->kind->flows(r, err);
    if (rc == RBL_OK)
        rc = r->kind->pour(r, (double)step * r->dt, err);
    if (rc == RBL_OK && e->checkpoint && step % e->checkpoint == 0)
        rc = write_checkpoint(r, err);
    if (rc == RBL_OK && r->hook && step % e->hook == 0) /* last: after the checkpoint, as a */
        rc = call_hook(r, err);                         /* restart calls it on setting it */
    return rc;
}

/* The stop flag was seen (rbl_run_set_stop; by the engine at a step's end on every process
 * at once, or here between an impulse run's steps): the run put on disk whole at this step, a
 * checkpoint (unless the schedule wrote one here) and thermo.csv, and RBL_EINTERRUPT naming
 * them. */
static int stop_here(rbl_run *r, rbl_error *err)
{
    const uint64_t every = r->events.checkpoint;
    r->stopped = (int)-rbl_run_ranks_min(&r->ranks, -(double)*r->stop); /* the signal */
    int rc = every && r->step % every == 0 ? RBL_OK : write_checkpoint(r, err);
    if (rc == RBL_OK)
        rc = r->kind->thermo_file(r, err);
    if (rc != RBL_OK)
        return rbl_error_prefix(err, rc, "stopping at step %llu on signal %d",
                                (unsigned long long)r->step, r->stopped);
    char name[64];
    rbl_checkpoint_name(name, sizeof name, r->step);
    return rbl_error_set(err, RBL_EINTERRUPT, "stopped at step %llu of %llu (t = %.6g s) on "
                         "signal %d: checkpoint %.240s/%s written, thermo.csv and the frames "
                         "whole to that step", (unsigned long long)r->step,
                         (unsigned long long)r->events.total, (double)r->step * r->dt,
                         r->stopped, r->dir, name);
}

static int refuse_failed(const rbl_run *r, rbl_error *err)
{
    return rbl_error_set(err, RBL_EINVAL,
                         "the run stopped after an error in the steps up to %llu: it cannot go "
                         "on (open it again, from a checkpoint)", (unsigned long long)r->step);
}

int rbl_run_open(const rbl_scene *s, const rbl_run_options *opt, rbl_run **out,
                 rbl_error *err)
{
    *out = NULL;
    rbl_run *r = calloc(1, sizeof *r);
    if (!r)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory");
    r->scene = s;
    if (opt)
        r->opt = *opt;
    r->kind = s->impulse ? &rbl_object_run : &rbl_grain_run;
    const char *dir = r->opt.output_dir ? r->opt.output_dir : s->output_dir;
    r->dir = strdup(dir);
    r->restart = r->opt.restart ? strdup(r->opt.restart) : NULL;
    r->opt.output_dir = r->dir, r->opt.restart = r->restart;
    int rc = !r->dir || (opt && opt->restart && !r->restart)
                 ? rbl_error_set(err, RBL_ENOMEM, "out of memory")
                 : rbl_run_ranks_start(&r->ranks, s, err); /* mpirun -np P: the processes */
    if (rc == RBL_OK)
        rc = r->kind->open(r, err);
    r->first_step = r->step;
    if (rc == RBL_OK) /* the run's length, for the estimate of its work */
        rc = schedule(r, err);
    if (rc == RBL_OK) /* before the folder is made: whether it held an earlier run's files */
        rc = rbl_run_setup_warnings(r, err);
    for (size_t k = 0; rc == RBL_OK && r->opt.warning && r->ranks.rank == 0 &&
                       k < r->warnings.n; k++)
        r->opt.warning(r->warnings.text[k], r->opt.userdata);
    if (rc == RBL_OK)
        rc = rbl_scene_final_clear(s, r->dir, err);
    if (rc == RBL_OK && (rc = rbl_make_dirs(r->dir, err)) != RBL_OK) {
        if (opt && opt->output_dir)
            rbl_error_prefix(err, rc, "--output");
        else
            rbl_scene_error_at(s, s->at_output, err);
    }
    if (rc == RBL_OK && r->ranks.rank == 0) /* a killed run's staging files, before any rank */
        rbl_remove_stale_temps(r->dir, s->final_grains); /* writes (the agreement below) */
    rc = rbl_run_ranks_agree(&r->ranks, rc, err);
    if (rc == RBL_OK && r->stage && !r->restart) /* the first stage's changes, at step 0, */
        rc = enter_stage(r, 0, err);               /* before the energy's reference */
    if (rc == RBL_OK)
        rc = r->kind->begin(r, err);
    if (rc == RBL_OK && !r->restart) { /* the start: what is poured at 0, a row, a frame */
        rc = r->kind->pour(r, 0.0, err);
        if (rc == RBL_OK)
            rc = r->kind->thermo(r, err);
        if (rc == RBL_OK)
            rc = r->kind->frame(r, err);
        if (rc == RBL_OK && r->events.cg)
            rc = r->kind->cg(r, err);
    }
    if (rc != RBL_OK) {
        rbl_run_close(r);
        return rc;
    }
    r->checkpoints.keep = s->checkpoint_keep;
    if (r->kind->outside)
        r->kind->outside(r, 0);
    rbl_progress_start(&r->progress, &r->opt, r->step, rbl_now());
    *out = r;
    return RBL_OK;
}

int rbl_run_step(rbl_run *r, uint64_t steps, rbl_error *err)
{
    if (r->failed)
        return refuse_failed(r, err);
    if (r->stepping)
        return rbl_error_set(err, RBL_EINVAL, "the run was asked to step from inside its own "
                             "hook (step %llu): a hook sets forces and reads the grains; the "
                             "run steps on when it returns", (unsigned long long)r->step);
    if ((double)steps > MAX_STEPS)
        return rbl_error_set(err, RBL_ERANGE, "%llu more steps: more than 1e15 steps cannot "
                             "be run", (unsigned long long)steps);
    if (steps > UINT64_MAX - r->step)
        return rbl_error_set(err, RBL_ERANGE, "%llu more steps from step %llu: beyond what a "
                             "step count holds", (unsigned long long)steps,
                             (unsigned long long)r->step);
    /* a script's NaN is refused before it is booked or stepped (the run not failed: it may set
     * a number and step on), naming the grain, not blamed on dt a step later */
    int rc = r->kind->written ? r->kind->written(r, err) : RBL_OK;
    if (rc != RBL_OK)
        return rc;
    rbl_run_resume_drop(&r->resume); /* a hook set from here on is called at once */
    const uint64_t target = r->step + steps;
    const double start = rbl_now();
    if (r->kind->outside)
        r->kind->outside(r, 1);
    const double end_time = (double)r->events.total * r->dt;
    r->stepping = 1;
    while (rc == RBL_OK && r->step < target) {
        const uint64_t stop = next_stop(r, r->step), next = stop < target ? stop : target;
        const size_t count = r->kind->count(r);
        const uint64_t before = r->sim ? r->sim->step : 0;
        rc = r->kind->advance(r, next - r->step, err);
        /* the stop flag seen: the engine ended after the step it was seen in, or (objects, one
           process) it is read here */
        const int halted = rc == RBL_EINTERRUPT ||
                           (rc == RBL_OK && !r->sim && r->stop && *r->stop);
        const uint64_t done = rc == RBL_EINTERRUPT ? r->step + (r->sim->step - before) : next;
        r->particle_steps += (double)count * (double)(done - r->step);
        r->step = done;
        if (halted)
            rc = RBL_OK;
        if (rc == RBL_OK && done == stop) {
            rc = events_at(r, err);
            if (rc == RBL_EUNSTABLE) { /* the health check on a thermo row (the same verdict on
                                          every process): the rows that found it on disk too */
                rbl_error ignored = {0};
                (void)r->kind->thermo_file(r, &ignored);
            }
        }
        rbl_progress_update(&r->progress, r->step, r->events.total, (double)r->step * r->dt,
                            end_time, count, rbl_now());
        if (rc == RBL_OK && halted) {
            rc = stop_here(r, err);
            break;
        }
        if (rc == RBL_OK && r->step < target && r->interrupt &&
            r->interrupt(r, r->interrupt_data)) /* the run whole here: it may step on */
            rc = rbl_error_set(err, RBL_EINTERRUPT, "interrupted at step %llu, %llu steps "
                               "before the %llu asked for: the run may step on from there",
                               (unsigned long long)r->step,
                               (unsigned long long)(target - r->step),
                               (unsigned long long)target);
    }
    r->stepping = 0;
    if (r->kind->outside)
        r->kind->outside(r, 0);
    r->seconds += rbl_now() - start;
    r->failed = rc != RBL_OK && rc != RBL_EINTERRUPT;
    return rc;
}

int rbl_run_until(rbl_run *r, double time, rbl_error *err)
{
    const double now = (double)r->step * r->dt;
    if (!(time == time))
        return rbl_error_set(err, RBL_EINVAL, "run until time %g: not a number", time);
    if (time <= now)
        return RBL_OK;
    const double q = ceil((time - now) / r->dt - 1e-9);
    if (!(q <= 1e15))
        return rbl_error_set(err, RBL_ERANGE, "run until %g s from %g s is %.3g steps of dt = "
                             "%g s: more than 1e15 steps cannot be run", time, now, q, r->dt);
    return rbl_run_step(r, q < 1.0 ? 1 : (uint64_t)q, err);
}

void rbl_run_progress(const rbl_run *r, rbl_run_status *st)
{
    rbl_run *w = (rbl_run *)r; /* counting asks the kind, which reads only */
    rbl_progress_status(&r->progress, r->step, r->events.total, (double)r->step * r->dt,
                        (double)r->events.total * r->dt, r->kind->count(w), rbl_now(), st);
}

void rbl_run_set_interrupt(rbl_run *r, rbl_run_interrupt fn, void *userdata)
{
    r->interrupt = fn, r->interrupt_data = userdata;
}

void rbl_run_set_stop(rbl_run *r, const volatile sig_atomic_t *flag)
{
    r->stop = flag;
    if (r->sim)
        r->sim->stop = flag;
}

int rbl_run_stopped(const rbl_run *r) { return r->stopped; }

void rbl_run_clock(const rbl_run *r, uint64_t *step, uint64_t *total_steps, double *dt)
{
    if (step)
        *step = r->step;
    if (total_steps)
        *total_steps = r->events.total;
    if (dt)
        *dt = r->dt;
}

void rbl_run_resume_drop(rbl_run_resume *h)
{
    free(h->id), free(h->fext);
    memset(h, 0, sizeof *h);
}

/* The restart's hook resumes: the external forces it had asked for back on their grains (by
 * id: the caller may have added grains since), its last call the checkpoint's. */
static int resume_hook(rbl_run *r, rbl_error *err)
{
    const rbl_run_resume *h = &r->resume;
    r->hook_last = h->last;
    if (!h->n || !r->sim)
        return RBL_OK;
    double *f = rbl_sim_external_forces(r->sim, err);
    if (!f)
        return err->code ? err->code : RBL_ENOMEM;
    rbl_grains_view v;
    rbl_sim_grains(r->sim, &v);
    uint64_t *order = rbl_grains_id_order(&v);
    if (!order)
        return rbl_error_set(err, RBL_ENOMEM, "out of memory for %zu grains", v.n);
    for (size_t k = 0; k < h->n; k++) {
        const size_t at = rbl_grains_index_of(order, v.n, h->id[k]);
        if (at != SIZE_MAX) /* one taken out since has none */
            memcpy(f + 3 * at, h->fext + 3 * k, 3 * sizeof *f);
    }
    free(order);
    return RBL_OK;
}

int rbl_run_set_hook(rbl_run *r, uint64_t every, rbl_run_hook fn, void *userdata,
                     rbl_error *err)
{
    if (r->failed)
        return refuse_failed(r, err);
    if (fn && every == 0)
        return rbl_error_set(err, RBL_EINVAL, "a hook every 0 steps: give it 1 or more");
    if (!fn && r->hook && r->sim) /* a hook removed: the forces it set go with it */
        rbl_sim_external_clear(r->sim);
    /* a restart's hook set again with its `every` before the first step: it resumes */
    const int resume = fn && r->resume.every && every == r->resume.every;
    int rc = resume ? resume_hook(r, err) : RBL_OK, call = fn != NULL;
    if (resume && rc == RBL_OK) /* called now only where its next call falls now (a */
        call = next_multiple(r->hook_last, every) <= r->step; /* checkpoint before it) */
    rbl_run_resume_drop(&r->resume);
    if (rc != RBL_OK)
        return rc;
    r->hook = fn, r->hook_data = userdata;
    r->events.hook = fn ? every : 0;
    if (call)
        r->hook_last = r->step;
    rc = call ? fn(r, userdata, err) : RBL_OK;
    if (rc == RBL_OK && fn && r->kind->written && (rc = r->kind->written(r, err)) != RBL_OK)
        rbl_error_prefix(err, rc, "after the hook at step %llu", (unsigned long long)r->step);
    r->failed = rc != RBL_OK;
    return rc;
}

int rbl_run_write_frame(rbl_run *r, rbl_error *err)
{
    if (r->failed)
        return refuse_failed(r, err);
    return r->kind->frame(r, err);
}

int rbl_run_write_thermo(rbl_run *r, rbl_error *err)
{
    if (r->failed)
        return refuse_failed(r, err);
    int rc = r->kind->thermo(r, err);
    return rc == RBL_OK ? r->kind->thermo_file(r, err) : rc;
}

int rbl_run_write_checkpoint(rbl_run *r, rbl_error *err)
{
    if (r->failed)
        return refuse_failed(r, err);
    return write_checkpoint(r, err);
}

int rbl_run_finish(rbl_run *r, rbl_error *err)
{
    const rbl_scene *s = r->scene;
    if (r->failed)
        return refuse_failed(r, err);
    if (!s->final_grains)
        return RBL_OK;
    char *path = rbl_path_join(r->dir, s->final_grains);
    int rc = path ? r->kind->final(r, path, err)
                  : rbl_error_set(err, RBL_ENOMEM, "out of memory");
    free(path);
    return rc;
}

void rbl_run_report_pour(rbl_run_report *rep, const rbl_pour_state *p, size_t count)
{
    rep->poured += p->placed;
    rep->pour_asked += count;
    rep->pour_waiting += rbl_pour_waiting(p, count);
}

void rbl_run_summary(rbl_run *r, rbl_run_report *rep)
{
    const rbl_scene *s = r->scene;
    memset(rep, 0, sizeof *rep);
    rep->steps = r->step - r->first_step;
    rep->seconds = r->seconds;
    rep->dt = r->dt;
    rep->particle_steps_per_second = r->seconds > 0.0 ? r->particle_steps / r->seconds : 0.0;
    r->kind->summary(r, rep);
    snprintf(rep->output_dir, sizeof rep->output_dir, "%s", r->dir);
    rep->checkpoints = rbl_checkpoint_series_kept(&r->checkpoints, rep->last_checkpoint,
                                                  sizeof rep->last_checkpoint);
    snprintf(rep->final_file, sizeof rep->final_file, "%s",
             s->final_grains ? s->final_grains : "");
    rep->stages = s->n_stages, rep->stage = r->stage;
    if (r->stage)
        snprintf(rep->stage_name, sizeof rep->stage_name, "%s", s->stages[r->stage - 1].name);
}

rbl_sim *rbl_run_sim(rbl_run *r) { return r->sim; }

int rbl_run_collision_bins(rbl_run *r, int a, int b, int wall, rbl_collision_bin *out, int n,
                           rbl_error *err)
{
    if (!r->sim)
        return rbl_error_set(err, RBL_EINVAL, "an impulse scene has objects, not grains: no "
                             "collision statistics");
    return rbl_collision_output_bins(&r->ranks, r->sim, a, b, wall, out, n, err);
}

rbl_fdo_sim *rbl_run_objects(rbl_run *r) { return r->objects; }

int rbl_run_processes(const rbl_run *r, int *rank)
{
    if (rank)
        *rank = r->ranks.rank;
    return r->ranks.size > 0 ? r->ranks.size : 1;
}

void rbl_run_close(rbl_run *r)
{
    if (!r)
        return;
    rbl_run_ranks_end(&r->ranks); /* before the engine: its domain points at the simulation */
    if (r->engine)
        r->kind->close(r);
    rbl_checkpoint_series_free(&r->checkpoints);
    rbl_run_resume_drop(&r->resume);
    rbl_warnings_free(&r->warnings);
    free(r->stage_start);
    free(r->dir), free(r->restart);
    free(r);
}

size_t rbl_run_warnings(const rbl_run *run, const char *const **text)
{
    *text = (const char *const *)run->warnings.text;
    return run->warnings.n;
}

int rbl_scene_run(const rbl_scene *s, const rbl_run_options *opt, rbl_run_report *rep,
                  rbl_error *err)
{
    memset(rep, 0, sizeof *rep);
    rbl_run *r = NULL;
    int rc = rbl_run_open(s, opt, &r, err);
    if (rc != RBL_OK)
        return rc;
    if (r->step < r->events.total)
        rc = rbl_run_step(r, r->events.total - r->step, err);
    if (rc == RBL_OK)
        rc = rbl_run_finish(r, err);
    if (rc == RBL_OK)
        rbl_run_summary(r, rep);
    else
        rep->steps = r->step - r->first_step;
    rbl_run_close(r);
    return rc;
}
