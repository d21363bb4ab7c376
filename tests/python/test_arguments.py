"""What a script hands the run (issue 69): step counts (whole numbers only, numpy's too, at
most 1e15 as until()), Ctrl-C during a long step() (KeyboardInterrupt between pieces, the run
whole and able to step on in the same bits), numpy values in a scene dict."""
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import rubble


def bed(count=None, corner=(0.011, 0.011, 0.006)):
    lattice = {"min": [0, 0, 0.0005], "max": corner}
    if count is not None:
        lattice["count"] = count
    return {"domain": {"min": [0, 0, -0.001], "max": [0.011, 0.011, 0.03],
                       "periodic": ["x", "y"]},
            "gravity": [0, 0, -9.81], "materials": [{"name": "glass", "density": 2500}],
            "contact": {"normal": "linear", "kn": 2000, "restitution": 0.5, "friction": 0.5},
            "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1]}],
            "grains": [{"lattice": lattice, "radius": 0.001}],
            "run": {"steps": 1000, "dt": 5e-6}}


def by_id(run):
    g = run.grains()
    o = np.argsort(g.id, kind="stable")
    return [np.array(a)[o] for a in (g.id, g.position, g.velocity, g.spin)]


def test_step_counts_are_whole_numbers(tmp_path):
    """step(2.5) ran 2 steps without a word: refused now; 3.0, 1e3 and numpy's integers are
    counts; a bool, a str and a NaN are not."""
    run = rubble.Run(bed(), output=tmp_path / "o", threads=1)
    with pytest.raises(ValueError, match="whole number"):
        run.step(2.5)
    with pytest.raises(ValueError, match="whole number"):
        run.step(np.float64(0.5))
    with pytest.raises(ValueError, match="whole number"):
        run.step(float("nan"))
    assert run.step_count == 0  # nothing stepped by a refused count
    for n in (np.int64(2), np.uint32(3), np.int8(1), 3.0, np.float32(4.0), 1e1):
        before = run.step_count
        run.step(n)
        assert run.step_count - before == int(n)
    for n in (True, "10", [1]):
        with pytest.raises(TypeError):
            run.step(n)
    run.close()


BOUND = """
import sys
sys.path[:0] = [%(package)r, %(here)r]
import rubble
from test_arguments import bed
run = rubble.Run(bed(), output="o", threads=1)
for ask in (lambda: run.step(10 ** 16), lambda: run.until(1e16 * run.dt)):
    try:
        ask()
    except rubble.Error as e:
        assert "more than 1e15 steps" in e.message, e.message
    else:
        raise AssertionError("not refused")
assert run.step_count == 0
run.step(10)
assert run.step_count == 10
print("refused")
"""


def test_step_refuses_more_than_until_does(tmp_path):
    """step(1e16) ran for ever (Ctrl-C ignored) where until() refused more than 1e15 steps:
    refused now, at once, and the run may still step (in a process of its own, which the code
    before the fix never ended: killed after 60 s)."""
    here = os.path.dirname(os.path.abspath(__file__))
    package = os.path.dirname(os.path.dirname(os.path.abspath(rubble.__file__)))
    p = subprocess.run([sys.executable, "-c", BOUND % {"here": here, "package": package}],
                       cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "refused" in p.stdout, p.stdout + p.stderr


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signals reach the main thread")
def test_ctrl_c_stops_a_long_step_between_pieces(tmp_path):
    """SIGINT 0.3 s into a step() that would last some 100 s raises KeyboardInterrupt within a
    second or two (it was ignored until step() returned); the run stopped whole at a step it
    can step on from, to the same bits as a run stepped straight there."""
    run = rubble.Run(bed(), output=tmp_path / "a", threads=1)
    run.step(200)  # the set-up and the first builds out of the rate below
    t0 = time.monotonic()
    run.step(1800)
    rate = 1800 / max(time.monotonic() - t0, 1e-6)
    long = int(min(rate * 100, 1e14))  # 100 s at the rate measured: a loaded machine varies 10x
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run.step(long)
        took = time.monotonic() - t0
    finally:
        timer.cancel()
    at = run.step_count
    assert took < 5, (took, at)
    assert 2000 < at < 2000 + long
    run.step(1000)  # it steps on
    interrupted = by_id(run)
    run.close()
    straight = rubble.Run(bed(), output=tmp_path / "b", threads=1)
    straight.step(at + 1000)
    assert all(np.array_equal(a, b) for a, b in zip(interrupted, by_id(straight)))
    straight.close()


def test_numpy_values_in_a_scene_dict(tmp_path):
    """np.int64 counts (from np.arange) and an np.array corner raised json's TypeError ('Object
    of type int64 is not JSON serializable'): taken as their numbers now, the same run as with
    Python's."""
    counts = []
    for count in np.arange(10, 31, 10):
        run = rubble.Run(bed(count=count), output=tmp_path / str(count), threads=1)
        counts.append(run.summary()["grains"])
        run.close()
    assert counts == [10, 20, 30]
    corner = np.array([0.011, 0.011, 0.006])
    a = rubble.Run(bed(corner=corner), output=tmp_path / "a", threads=1)
    b = rubble.Run(bed(corner=[0.011, 0.011, 0.006]), output=tmp_path / "b", threads=1)
    a.step(50), b.step(50)
    assert all(np.array_equal(x, y) for x, y in zip(by_id(a), by_id(b)))
    a.close(), b.close()
    with pytest.raises(TypeError, match="scene dict holds"):
        rubble.Run(dict(bed(), gravity=[0, 0, object()]), output=tmp_path / "c")


def test_a_nan_written_names_its_grain(tmp_path):
    """A NaN written into a velocity (or a spin, or an external force) is refused before the
    step, naming the grain (it was 'a grain's position is no longer finite; the time step is
    too large for the contact stiffness' a step later); the run is not failed: a number set
    again, it steps on."""
    run = rubble.Run(bed(), output=tmp_path / "o", threads=1)
    run.step(10)
    g = run.grains()
    gid = int(g.id[3])
    g.velocity[3, 0] = float("nan")
    with pytest.raises(rubble.Error, match="grain %d: its velocity .* is not a number" % gid):
        run.step(1)
    assert run.step_count == 10
    run.grains().velocity[3, 0] = 0.0
    run.grains().spin[5, 2] = float("inf")
    sid = int(run.grains().id[5])
    with pytest.raises(rubble.Error, match="grain %d: its spin" % sid):
        run.step(1)
    run.grains().spin[5, 2] = 0.0
    run.step(1)

    spoilt = []

    def bad(r):
        if r.step_count >= 13:
            r.external_forces()[7, 1] = float("nan")
            spoilt.append(int(r.grains().id[7]))  # rows in the order of now

    run.hook(1, bad)
    with pytest.raises(rubble.Error, match="after the hook at step 13: grain ") as e:
        run.step(5)
    assert "grain %d: its external force" % spoilt[0] in e.value.message
    assert run.step_count == 13
    run.close()


def test_moving_a_grain_into_a_wall_is_refused_naming_both(tmp_path):
    """move_grains 70 % into the floor (or behind it) was taken without a word and the next
    step blamed kn and dt: refused now as the scene's placement check refuses it, naming the
    grain and the wall (counted from 1 in messages, as thermo.csv's wall1_* and walls.vtp:
    the floor is index 0, 'wall 1'), nothing moved."""
    run = rubble.Run(bed(), output=tmp_path / "o", threads=1)
    run.step(10)
    g = run.grains()
    i = int(g.position[:, 2].argmin())
    gid, x, y = int(g.id[i]), float(g.position[i, 0]), float(g.position[i, 1])
    before = run.grains().position.copy()
    with pytest.raises(rubble.Error, match=r"grain %d at .* overlaps wall 1 \(distance "
                       r"0.0003\) by more than 0.1 of its radius where it would be moved: "
                       r"nothing was moved" % gid):
        run.move_grains([gid], [[x, y, 0.0003]])
    with pytest.raises(rubble.Error, match=r"wall 1 \(distance -0.0005: behind it\)"):
        run.move_grains([gid], [[x, y, -0.0005]])
    assert np.array_equal(run.grains().position, before)
    run.move_grains([gid], [[x, y, 0.02]])  # into the open: taken
    run.step(100)
    run.close()


def test_wall_indices_and_wall_numbers_agree(tmp_path):
    """Python's wall arguments are indices from 0 (planes, then meshes), messages count walls
    from 1 as thermo.csv and walls.vtp do: an index out of range is named as an index, with
    the one numbering explained (set_wall_motion(7) said 'no wall 8', (-1) 'no wall 0', which
    exists)."""
    run = rubble.Run(bed(), output=tmp_path / "o", threads=1)
    for k in (7, -1):
        with pytest.raises(rubble.Error, match=r"index %d names no wall: the scene has 1 wall, "
                           r"indices 0 to 0 \(index K is wall K \+ 1 in messages, thermo.csv "
                           r"and walls.vtp\)" % k):
            run.set_wall_motion(k, velocity=(0, 0, 1))
        with pytest.raises(rubble.Error, match="index %d names no wall" % k):
            run.set_servo_force(k, 1.0)
    with pytest.raises(rubble.Error, match=r"wall 1 \(index 0\) has no servo"):
        run.set_servo_force(0, 1.0)
    run.step(1)
    run.write_thermo()
    header = open(tmp_path / "o" / "thermo.csv").readline().split(",")
    assert "wall1_fz" in header and "wall0_fz" not in header
    assert set(run.contacts().wall) <= {0}  # the floor's contacts: index 0
    run.close()
