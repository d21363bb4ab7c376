"""Staged studies in one scene (issue 44 item 5, docs/scenes.md "Stages"): each stage's changes
(friction, gravity, a wall's motion, pours) take effect at its start and not before, measured on
a sliding grain and a falling one against closed forms; a checkpoint restarts inside any stage
in the same bits as the run that wrote it; --change-physics restarts under changed physics and
the new friction is the one that acts; what a stage may not change is refused at its line."""
import csv

import numpy as np
import pytest

import rubble

SLIDE = """\
domain: {min: [-0.1, -0.05, -0.01], max: [0.1, 0.05, 0.05]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 1.0e4, restitution: 0.5, friction: 0.5}
walls: [{name: floor, point: [0, 0, 0], normal: [0, 0, 1]}]
grains: [{file: grain.txt}]
run: {dt: 1.0e-5}
stages:
  - {name: rough, time: 0.01}
  - {name: smooth, time: 0.01, contact: {friction: FRICTION}}
"""


def scene(tmp_path, text, name="scene", grain="0 0 0.001 0.001 0.5 0 0\n"):
    (tmp_path / "grain.txt").write_text(grain)
    path = tmp_path / (name + ".yaml")
    path.write_text(text)
    return path


def velocity(r):
    g = r.grains()
    return g.velocity[0].copy()


def test_a_stage_changes_friction_at_its_start(tmp_path):
    """While the grain slides, the floor takes mu times the normal impulse from its horizontal
    momentum: dv_x = -mu (g dt + dv_z) over each stage, with stage 1's mu (0.5) up to step
    1000 and stage 2's (0.1) after; rolling would set in only at 2 v0 / (7 mu g) = 0.029 s."""
    r = rubble.Run(scene(tmp_path, SLIDE.replace("FRICTION", "0.1")), output=tmp_path / "o",
                   threads=1)
    r.step(1000)
    v1 = velocity(r)
    r.step(1000)
    v2 = velocity(r)
    r.close()
    v0 = 0.5
    mu1 = (v0 - v1[0]) / (9.81 * 0.01 + v1[2])
    mu2 = (v1[0] - v2[0]) / (9.81 * 0.01 + v2[2] - v1[2])
    assert mu1 == pytest.approx(0.5, rel=2e-3)
    assert mu2 == pytest.approx(0.1, rel=2e-3)
    rows = list(csv.DictReader(open(tmp_path / "o" / "thermo.csv")))
    assert [r["stage"] for r in rows if r["step"] in ("0", "999", "1000", "2000")] == \
        ["1", "2", "2"]  # a row marks stage 2's start at step 1000


FALL = """\
domain: {min: [-0.1, -0.1, -1], max: [0.1, 0.1, 1]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 100, restitution: 0.5, friction: 0.5}
grains: [{file: grain.txt}]
run: {dt: 1.0e-4}
stages:
  - {time: 0.1}
  - {time: 0.05, gravity: [0, 0, 9.81]}
"""


def test_gravity_turns_at_the_stage(tmp_path):
    r = rubble.Run(scene(tmp_path, FALL, grain="0 0 0 0.001 0 0 0\n"), output=tmp_path / "o",
                   threads=1)
    r.step(r.total_steps)
    v = velocity(r)
    r.close()
    assert v[2] == pytest.approx(-9.81 * 0.1 + 9.81 * 0.05, rel=1e-9)


OUTLET = """\
domain: {min: [-0.1, -0.1, -1], max: [0.1, 0.1, 1]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 100, restitution: 0.5, friction: 0.5}
grains: [{file: grain.txt}]
outlets: [{name: hole, point: [0, 0, -0.05], normal: [0, 0, -1], open: false}]
run: {dt: 1.0e-4}
stages:
  - {time: 0.2}
  - {time: 0.2, outlets: [{name: hole, open: true}]}
"""


def test_a_stage_opens_an_outlet(tmp_path):
    """Grain 0 crosses the closed outlet at t = 0.101 s (stage 1) and falls on; grain 1, from
    0.3 m higher, crosses at 0.267 s, after stage 2 has opened it, and is taken out."""
    path = scene(tmp_path, OUTLET, grain="0 0 0 0.001 0 0 0\n0.05 0 0.3 0.001 0 0 0\n")
    r = rubble.Run(path, output=tmp_path / "o", threads=1)
    r.step(r.total_steps)
    g = r.grains()
    assert list(g.id) == [0]
    r.close()
    rows = list(csv.DictReader(open(tmp_path / "o" / "thermo.csv")))
    assert rows[-1]["outlet1_grains"] == "1"


BOX = """\
domain: {min: [0, 0, 0], max: [0.1, 0.1, 0.2]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2000, restitution: 0.5, friction: 0.5}
walls:
  - {name: floor, point: [0, 0, 0], normal: [0, 0, 1]}
  - {point: [0, 0, 0], normal: [1, 0, 0]}
  - {point: [0.1, 0, 0], normal: [-1, 0, 0]}
  - {point: [0, 0, 0], normal: [0, 1, 0]}
  - {point: [0, 0.1, 0], normal: [0, -1, 0]}
  - {name: lid, point: [0, 0, 0.19], normal: [0, 0, -1]}
grains:
  - {lattice: {min: [0.01, 0.01, 0.01], max: [0.09, 0.09, 0.06], count: 100}, radius: 0.004}
run: {dt: auto}
output: {every: 0.05, checkpoint_every: 0.03}
stages:
  - {name: settle, time: 0.1}
  - name: tilt
    time: 0.1
    gravity: [3, 0, -9]
    contact: {friction: 0.2}
  - name: press
    time: 0.1
    walls: [{name: lid, velocity: [0, 0, -0.2]}]
    grains: [{pour: {min: [0.01, 0.01, 0.1], max: [0.09, 0.09, 0.15], count: 40, rate: 800},
              radius: 0.003}]
    output: {every: 0.02}
"""


def run_all(path, out, **kw):
    r = rubble.Run(path, output=out, threads=1, **kw)
    r.step(r.total_steps - r.step_count)
    g = r.grains()
    order = g.id.argsort()
    state = {k: getattr(g, k)[order].copy() for k in ("id", "position", "velocity", "spin")}
    r.close()
    return state


def test_restart_inside_each_stage_in_the_same_bits(tmp_path):
    path = scene(tmp_path, BOX)
    full = run_all(path, tmp_path / "full")
    assert len(full["id"]) == 140  # stage 3's pour placed all its 40 grains
    # the lid moves only in stage 3, yet every frame carries the walls (ParaView's walls.pvd)
    frames = sorted((tmp_path / "full").glob("grains_*.vtp"))
    walls = sorted((tmp_path / "full").glob("walls_*.vtp"))
    assert len(frames) > 5 and [f.name[6:] for f in frames] == [w.name[5:] for w in walls]
    assert not (tmp_path / "full" / "walls.vtp").exists()
    checkpoints = sorted((tmp_path / "full").glob("checkpoint_*.bin"))
    steps = [int(c.stem.split("_")[1]) for c in checkpoints]
    r = rubble.Run(path, output=tmp_path / "probe", threads=1)
    total = r.total_steps
    r.close()
    # one checkpoint in stage 2 (tilt) and one in stage 3 (press: the lid re-based, a pour)
    inside = [c for c, s in zip(checkpoints, steps) if total / 3 < s < total * 2 / 3][:1] + \
             [c for c, s in zip(checkpoints, steps) if total * 2 / 3 < s < total][:1]
    assert len(inside) == 2
    for c in inside:
        again = run_all(path, tmp_path / ("again_" + c.stem), restart=c)
        for k in full:
            assert (again[k] == full[k]).all(), (c.name, k)


def test_change_physics_at_a_restart(tmp_path):
    """A checkpoint of the rough stage, restarted under a scene whose smooth stage has 0.3: refused
    without the option; with it the grain slides on under 0.3 in the smooth stage."""
    first = scene(tmp_path, SLIDE.replace("FRICTION", "0.1") +
                  "output: {checkpoint_every: 0.005}\n", name="first")
    r = rubble.Run(first, output=tmp_path / "a", threads=1)
    r.step(r.total_steps)
    r.close()
    ck = tmp_path / "a" / "checkpoint_000001000.bin"  # the first step of the smooth stage
    second = scene(tmp_path, SLIDE.replace("FRICTION", "0.3") +
                   "output: {checkpoint_every: 0.005}\n", name="second")
    with pytest.raises(rubble.Error, match="stages.1..contact.friction: 0.1.*--change-physics"):
        rubble.Run(second, output=tmp_path / "b", threads=1, restart=ck)
    r = rubble.Run(second, output=tmp_path / "b", threads=1, restart=ck, change_physics=True)
    v1 = velocity(r)
    r.step(1000)
    v2 = velocity(r)
    r.close()
    mu = (v1[0] - v2[0]) / (9.81 * 0.01 + v2[2] - v1[2])
    assert mu == pytest.approx(0.3, rel=2e-3)
    # what no running simulation can take is refused even so
    third = scene(tmp_path, SLIDE.replace("FRICTION", "0.3").replace("2500", "2600") +
                  "output: {checkpoint_every: 0.005}\n", name="third")
    with pytest.raises(rubble.Error, match="materials.0..density: 2500 -> 2600"):
        rubble.Run(third, output=tmp_path / "c", threads=1, restart=ck, change_physics=True)


@pytest.mark.parametrize("stages, message", [
    ("[{time: 0.1, domain: {min: [0, 0, 0], max: [1, 1, 1]}}]", "unknown key in 'stages'"),
    ("[{time: 0.1, materials: [{name: glass, density: 3000}]}]",
     r"stage 1 \('stage 1'\) changes 'materials\[0\]\.density: 2500 -> 3000', which a running "
     "simulation cannot take"),
    ("[{time: 0.1, contact: {normal: hertz}}]", "changes 'contact.normal: linear -> hertz'"),
    ("[{name: a, time: 0.1}, {name: a, time: 0.1}]", "two stages are named 'a'"),
    ("[{time: 0.1, steps: 10}]", "needs exactly one of 'time' .s. and 'steps'"),
    ("[{time: 0.1, grains: [{lattice: {min: [0, 0, 0], max: [0.01, 0.01, 0.01], count: 1}, "
     "radius: 0.001}]}]", "a stage's grains are poured from its start"),
    ("[]", "'stages' must be a list of stages"),
])
def test_stage_errors_name_the_line(tmp_path, stages, message):
    text = SLIDE.split("stages:")[0] + "stages: " + stages + "\n"
    with pytest.raises(rubble.Error, match=message) as e:
        rubble.Run(scene(tmp_path, text), output=tmp_path / "o")
    assert "scene.yaml:" in str(e.value)


def test_run_length_with_stages_is_theirs(tmp_path):
    text = SLIDE.replace("run: {dt: 1.0e-5}", "run: {dt: 1.0e-5, time: 1}")
    with pytest.raises(rubble.Error, match="with 'stages' the run lasts as long as they do"):
        rubble.Run(scene(tmp_path, text.replace("FRICTION", "0.1")), output=tmp_path / "o")


# a bed whose gravity a script turns at step 400 (issue 69), and the same study as stages
TURN_BASE = {
    "domain": {"min": [0, 0, -0.001], "max": [0.011, 0.011, 0.03], "periodic": ["x", "y"]},
    "gravity": [0, 0, -9.81], "materials": [{"name": "glass", "density": 2500}],
    "contact": {"normal": "linear", "kn": 2000, "restitution": 0.5, "friction": 0.5},
    "walls": [{"point": [0, 0, 0], "normal": [0, 0, 1]}],
    "grains": [{"lattice": {"min": [0, 0, 0.0005], "max": [0.011, 0.011, 0.006]},
                "radius": 0.001}],
    "run": {"steps": 1000, "dt": 5e-6}}


def turn_staged(gravity):
    staged = {k: v for k, v in TURN_BASE.items() if k != "run"}
    staged["run"] = {"dt": 5e-6}
    staged["stages"] = [{"name": "a", "steps": 400},
                        {"name": "b", "steps": 600, "gravity": gravity},
                        {"name": "c", "steps": 200, "gravity": [0, 0, -9.81]}]
    return staged


def test_a_checkpoint_staged_from_python_restarts_under_the_stages_scene(tmp_path):
    """Gravity turned from Python at step 400, a checkpoint at 500: the scene whose stages make
    that turn at 400 restarts it (it was refused: 'has stages[0].name: a, which its scene has
    not') into the same bits as the script's run going on, and its later stage (c, gravity
    back at step 1000) takes effect; thermo.csv keeps the columns its header has. A stages
    scene whose physics at step 500 are not the checkpoint's is refused, naming gravity."""
    py = rubble.Run(TURN_BASE, output=tmp_path / "py", threads=1)
    py.step(400)
    py.gravity = (4.9, 0, -8.5)
    py.step(100)
    ck = py.write_checkpoint()
    py.step(500)
    g = py.grains()
    straight = {int(i): p.copy() for i, p in zip(g.id, g.position)}
    py.close()
    re = rubble.Run(turn_staged([4.9, 0, -8.5]), output=tmp_path / "re", threads=1, restart=ck)
    assert re.gravity == (4.9, 0, -8.5)
    re.step(500)  # to step 1000, where stage c begins
    g = re.grains()
    assert all(np.array_equal(straight[int(i)], p) for i, p in zip(g.id, g.position))
    assert re.gravity == (0, 0, -9.81)
    ck2 = re.write_checkpoint()
    re.close()
    rows = list(csv.reader(open(tmp_path / "re" / "thermo.csv")))
    assert len({len(r) for r in rows}) == 1 and "stage" not in rows[0]
    # and its own checkpoint restarts again under the same scene
    rubble.Run(turn_staged([4.9, 0, -8.5]), output=tmp_path / "re2", threads=1,
               restart=ck2).close()
    with pytest.raises(rubble.Error, match="gravity"):
        rubble.Run(turn_staged([0, 4.9, -8.5]), output=tmp_path / "bad", threads=1, restart=ck)
