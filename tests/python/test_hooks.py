"""The hook and its external forces across a checkpoint and after the hook is removed (issue
69): a restart with the hook set again continues in the same bits as the run never stopped,
at an odd step and on a hook every 3 steps; a hook removed takes its forces with it."""
import numpy as np
import pytest

import rubble

# a settling bed: grains in contact with each other and the floor, gravity on
BED = {
    "domain": {"min": [0, 0, -0.001], "max": [0.0088, 0.0088, 0.03], "periodic": ["x", "y"]},
    "gravity": [0, 0, -9.81],
    "materials": [{"name": "glass", "density": 2500}],
    "contact": {"normal": "linear", "tangential": "spring", "kn": 2000, "restitution": 0.5,
                "friction": 0.5},
    "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1]}],
    "grains": [{"lattice": {"min": [0, 0, 0.0005], "max": [0.0088, 0.0088, 0.006]},
                "radius": {"distribution": "uniform", "min": 0.0009, "max": 0.0011},
                "velocity_spread": 0.05}],
    "run": {"steps": 3000, "dt": 2e-5},
}

# free grains, no gravity: a force's kick read from the velocity alone
FREE = {
    "domain": {"min": [0, 0, 0], "max": [0.03, 0.03, 0.06], "periodic": ["x", "y"]},
    "gravity": [0, 0, 0],
    "materials": [{"name": "glass", "density": 2500}],
    "contact": {"normal": "linear", "kn": 2000, "restitution": 0.5, "friction": 0.5},
    "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1]}],
    "grains": [{"lattice": {"min": [0.01, 0.01, 0.02], "max": [0.0121, 0.0121, 0.0221]},
                "radius": 0.001}],
    "run": {"steps": 200000, "dt": 1e-5},
}


def by_id(run):
    g = run.grains()
    o = np.argsort(g.id, kind="stable")
    return {k: np.array(getattr(g, k))[o] for k in
            ("id", "position", "velocity", "spin", "force", "torque")}


def push_and_drag(run):
    """A drag read from the grains now and a constant push: forces that change every call."""
    g = run.grains()
    f = run.external_forces()
    f[:] = -3e-4 * g.velocity
    f[:, 0] += 2e-5


@pytest.mark.parametrize("every, at", [(1, 1337), (3, 1341)])
def test_a_restart_with_the_hook_set_again_is_the_same_bits(tmp_path, every, at):
    """Checkpoint at an odd step (a multiple of `every`), restart, set the hook again: every
    grain's position, velocity, spin, force and torque the same bits 60 steps on as the run
    that never stopped (the first kick after the restart counted the forces 1.5 times)."""
    run = rubble.Run(BED, output=tmp_path / "a", threads=1)
    run.hook(every, push_and_drag)
    run.step(at)
    assert len(run.contacts().ids) + len(run.contacts().wall) > 5  # a bed, settling
    ck = run.write_checkpoint()
    run.step(60)
    straight = by_id(run)
    run.close()
    again = rubble.Run(BED, output=tmp_path / "b", threads=1, restart=ck)
    again.hook(every, push_and_drag)
    again.step(60)
    restarted = by_id(again)
    again.close()
    assert straight["id"].size > 10
    for k in straight:
        a, b = straight[k], restarted[k]
        assert np.array_equal(a, b), (k, np.abs(a - b).max())


@pytest.mark.parametrize("at, scheduled", [(1337, False), (1340, False), (1340, True)])
def test_a_restart_at_any_step_resumes_the_hook(tmp_path, at, scheduled):
    """A hook every 10 steps, checkpointed at step 1337 (the forces its call at 1330 set act
    until 1340), at 1340 after its call there (write_checkpoint) and at 1340 before it (the
    scene's checkpoint_every: it is called on setting it again), restarted with the hook set
    again: the same bits 60 steps on as the run that never stopped. At 1337 the restart
    called it at once, at 1337, before checkpoint format 15 (issue 69)."""
    scene = dict(BED, output={"checkpoint_every": 1340 * 2e-5}) if scheduled else BED
    run = rubble.Run(scene, output=tmp_path / "a", threads=1)
    run.hook(10, push_and_drag)
    run.step(at)
    assert len(run.contacts().ids) + len(run.contacts().wall) > 5  # a bed, settling
    ck = str(tmp_path / "a" / "checkpoint_000001340.bin") if scheduled else run.write_checkpoint()
    run.step(60)
    straight = by_id(run)
    run.close()
    again = rubble.Run(scene, output=tmp_path / "b", threads=1, restart=ck)
    again.hook(10, push_and_drag)
    again.step(60)
    restarted = by_id(again)
    again.close()
    assert straight["id"].size > 10
    for k in straight:
        a, b = straight[k], restarted[k]
        assert np.array_equal(a, b), (k, np.abs(a - b).max())


def test_a_restarted_hook_is_called_when_the_run_would_have_called_it(tmp_path):
    """Checkpointed at step 1337 with a hook every 10: set again every 10 it is first called
    at 1340; set every 7 (another schedule), or after the restart has stepped, it is called
    at once, as a new hook is."""
    run = rubble.Run(BED, output=tmp_path / "a", threads=1)
    run.hook(10, push_and_drag)
    run.step(1337)
    ck = run.write_checkpoint()
    run.close()

    def calls(every, first_steps=0):
        at = []

        def note(r):
            at.append(r.step_count)
            push_and_drag(r)

        again = rubble.Run(BED, output=tmp_path / f"b{every}_{first_steps}", threads=1,
                           restart=ck)
        if first_steps:
            again.step(first_steps)
        again.hook(every, note)
        again.step(25)
        again.close()
        return at

    assert calls(10) == [1340, 1350, 1360]
    assert calls(7) == [1337, 1344, 1351, 1358]
    assert calls(10, first_steps=1) == [1338, 1340, 1350, 1360]


def test_the_first_kick_after_a_restart_counts_the_force_once(tmp_path):
    """A constant 1e-6 N on a free grain: each step adds F/m dt to its velocity, the first
    one after a restart too."""
    F, dt = 1e-6, 1e-5

    def push(r):
        r.external_forces()[:] = (F, 0, 0)

    run = rubble.Run(FREE, output=tmp_path / "a", threads=1)
    run.hook(1, push)
    run.step(101)
    ck = run.write_checkpoint()
    run.close()
    run = rubble.Run(FREE, output=tmp_path / "b", threads=1, restart=ck)
    run.hook(1, push)
    v = [run.grains().velocity[0, 0]]
    for _ in range(3):
        run.step(1)
        v.append(run.grains().velocity[0, 0])
    m = run.grains().mass[0]
    run.close()
    assert np.allclose(np.diff(v) / (F / m * dt), 1.0, rtol=1e-9, atol=0)


def test_a_restart_without_the_hook_has_no_external_forces(tmp_path):
    """The checkpoint holds the forces the grains' forces hold, not the hook: restarted without
    it, a free grain keeps its velocity from the first step on."""
    def push(r):
        r.external_forces()[:] = (1e-6, 0, 0)

    run = rubble.Run(FREE, output=tmp_path / "a", threads=1)
    run.hook(1, push)
    run.step(11)
    ck = run.write_checkpoint()
    run.close()
    run = rubble.Run(FREE, output=tmp_path / "b", threads=1, restart=ck)
    v0 = run.grains().velocity.copy()
    run.step(5)
    assert np.array_equal(run.grains().velocity, v0)
    run.close()


def test_removing_the_hook_removes_its_forces(tmp_path):
    """A Stokes drag hook removed: the grain goes on at the speed it had then, not pushed
    backwards by the drag's last force (it was: +0.1 m/s to -1.8 m/s within 1 s)."""
    run = rubble.Run(FREE, output=tmp_path / "a", threads=1)
    run.grains().velocity[:] = (0.1, 0, 0)

    def drag(r):
        r.external_forces()[:] = -2e-4 * r.grains().velocity

    run.hook(1, drag)
    run.step(10)
    v = run.grains().velocity.copy()
    assert v[0, 0] < 0.1
    run.hook(1, None)
    assert not run.external_forces().any()
    run.step(1000)
    assert np.array_equal(run.grains().velocity, v)
    run.close()


def test_a_hook_sees_the_grains_in_any_memory_order(tmp_path):
    """The hook reads and writes the grains' arrays in memory order; with the grains stored in
    a new random order at every neighbour build (test_shuffle) and on 2 threads, a drag and a
    push every 3 steps give every grain, by id, the same bits 1500 steps on (issue 69,
    docs/testing.md: the memory order of hooks)."""
    ends = []
    for name, kw in (("plain", {"threads": 1}), ("shuffled", {"threads": 2, "test_shuffle": 5})):
        run = rubble.Run(BED, output=tmp_path / name, **kw)
        run.hook(3, push_and_drag)
        run.step(1500)
        if name == "shuffled":  # the case: not in id order
            assert not np.all(np.diff(run.grains().id.astype(np.int64)) > 0)
        ends.append(by_id(run))
        run.close()
    for k in ends[0]:
        assert np.array_equal(ends[0][k], ends[1][k]), k
