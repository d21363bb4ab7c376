"""Mass flow through a surface (issue 43, output.flow): the hopper's grains through the plane
of its slot against those it lost; a grain circling a periodic box through a plane, a disk
it passes and one it misses, and the plane on the box's side; the counts through a
checkpoint; the scene's errors."""
import os

import numpy as np
import pytest

import rubble
from hopper_scene import hopper_text

# under the sanitizers (gcc's ASan and UBSan preloaded) the longest runs are the release
# pass's
release_only = pytest.mark.skipif(bool(os.environ.get("RBL_TEST_SLOW_BUILD")),
                                  reason="long: run by the release pass")


def stl(path, corners, facets):
    """An ASCII STL of these corners and facets (corner indices, wound as given)."""
    text = "solid s\n"
    for f in facets:
        text += "facet normal 0 0 0\nouter loop\n"
        text += "".join("vertex %r %r %r\n" % tuple(corners[k]) for k in f)
        text += "endloop\nendfacet\n"
    path.write_text(text + "endsolid s\n")


def thermo(folder):
    return np.genfromtxt(os.path.join(folder, "thermo.csv"), delimiter=",", names=True)


@release_only
def test_the_hopper_discharge_through_its_slot(tmp_path):
    """Grains crossing z = 0 downwards are those lost below the domain plus those between
    z = 0 and its floor; none comes back; the mass is theirs."""
    text = hopper_text(time=0.15, output="{every: 0.15, thermo_every: 0.05, final: final.txt, "
                       "flow: [{point: [0, 0, 0], normal: [0, 0, -1]}, {mesh: slot.stl}]}")
    # the slot's plane as a mesh face, wider than the slot and the periodic slice, facing down
    c = [(-0.01, -0.001, 0), (0.01, -0.001, 0), (0.01, 0.011, 0), (-0.01, 0.011, 0)]
    stl(tmp_path / "slot.stl", c, [(0, 2, 1), (0, 3, 2)])
    path = tmp_path / "hopper.yaml"
    path.write_text(text)
    run = rubble.Run(path, output=tmp_path / "o", threads=2)
    run.step(run.total_steps)
    run.finish()
    run.close()
    t = thermo(tmp_path / "o")
    final = np.loadtxt(tmp_path / "o" / "final.txt", ndmin=2)
    below = final[:, 2] < 0
    assert t["lost"][-1] > 200
    assert t["flow1_grains_forward"][-1] == t["lost"][-1] + below.sum()
    assert t["flow1_grains_backward"][-1] == 0 and t["flow1_mass_backward"][-1] == 0
    m = 2500 * 4 / 3 * np.pi * np.array([0.0009, 0.001]) ** 3  # the radii's range
    per = t["flow1_mass_forward"][-1] / t["flow1_grains_forward"][-1]
    assert m[0] < per < m[1]
    assert np.all(np.diff(t["flow1_grains_forward"]) >= 0)
    for kind in ("grains_forward", "grains_backward", "mass_forward", "mass_backward"):
        assert np.array_equal(t["flow2_" + kind], t["flow1_" + kind])


CIRCLE = """\
domain: {min: [0, 0, 0], max: [0.01, 0.01, 0.01], periodic: [x, y, z]}
gravity: [0, 0, 0]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: none, kn: 1000, restitution: 0.5}
grains: [{file: grain.txt}]
run: {time: 0.105, dt: 1.0e-6}
output: {every: 0.05, thermo_every: 0.01, checkpoint_every: 0.05, flow: [
  {point: [0.005, 0, 0], normal: [1, 0, 0]},
  {point: [0.002, 0.003, 0.004], normal: [-2, 0, 0], radius: 0.0005},
  {point: [0.002, 0.006, 0.004], normal: [1, 0, 0], radius: 0.0005},
  {point: [0, 0, 0], normal: [1, 0, 0]},
  {mesh: square.stl}]}
"""


def test_a_grain_circling_a_periodic_box(tmp_path):
    """A grain at 1 m/s along x from x = 1.1 mm in a periodic box 1 cm wide: in 0.105 s it
    passes x = 5 mm (plane) and x = 2 mm (a disk facing -x) 11 times each, forward and
    backward, not at all the disk beside its path, and the box's side x = 0 (a plane there
    counts like any) 10 times, and a mesh square at x = 7 mm 10 times, where its two facets
    meet, each time once."""
    (tmp_path / "grain.txt").write_text("0.0011 0.003 0.004 0.0002 1 0 0\n")
    # a square across x = 7 mm facing +x, its two facets meeting on the grain's path
    c = [(0.007, 0, 0.001), (0.007, 0.006, 0.001), (0.007, 0.006, 0.007), (0.007, 0, 0.007)]
    stl(tmp_path / "square.stl", c, [(0, 1, 2), (0, 2, 3)])
    path = tmp_path / "circle.yaml"
    path.write_text(CIRCLE)
    run = rubble.Run(path, output=tmp_path / "o", threads=1)
    run.step(run.total_steps)
    run.close()
    t = thermo(tmp_path / "o")
    m = 2500 * 4 / 3 * np.pi * 0.0002**3
    row = t[-1]
    assert (row["flow1_grains_forward"], row["flow1_grains_backward"]) == (11, 0)
    assert row["flow1_mass_forward"] == pytest.approx(11 * m, rel=1e-15)
    assert (row["flow2_grains_forward"], row["flow2_grains_backward"]) == (0, 11)
    assert row["flow3_grains_forward"] + row["flow3_grains_backward"] == 0
    assert (row["flow4_grains_forward"], row["flow4_grains_backward"]) == (10, 0)
    # through the mesh square where its facets meet: once each time
    assert (row["flow5_grains_forward"], row["flow5_grains_backward"]) == (10, 0)
    # restarted from the checkpoint at 0.05 s: the same counts, digit for digit
    run = rubble.Run(path, output=tmp_path / "again", threads=1,
                     restart=tmp_path / "o" / "checkpoint_000050000.bin")
    run.step(run.total_steps - run.step_count)
    run.close()
    again = thermo(tmp_path / "again")[-1]
    names = [n for n in t.dtype.names if n.startswith("flow")]
    assert [again[n] for n in names] == [row[n] for n in names]


def test_flow_errors_name_the_line(tmp_path):
    (tmp_path / "grain.txt").write_text("0.0011 0.003 0.004 0.0002 1 0 0\n")
    stl(tmp_path / "square.stl", [(0, 0, 0), (0, 1, 0), (0, 1, 1)], [(0, 1, 2)])
    base = CIRCLE.split("flow: [")[0]
    cases = {
        "flow: {point: [0, 0, 0], normal: [1, 0, 0]}}": "'flow' must be a list",
        "flow: [{point: [0, 0, 0], normal: [0, 0, 0]}]}": "'normal' must not be zero",
        "flow: [{point: [0, 0, 0]}]}": "normal",
        "flow: [{point: [0, 0, 0], normal: [1, 0, 0], radius: -1}]}": "'radius' must be > 0",
        "flow: [{point: [0, 0, 0], normal: [1, 0, 0], size: 1}]}": "size",
        "flow: [{mesh: none.stl}]}": "none.stl",
        "flow: [{mesh: square.stl, normal: [1, 0, 0]}]}": "a 'mesh' or a 'point'",
        "flow: [{point: [0, 0, 0], normal: [1, 0, 0], scale: 2}]}": "are for a 'mesh'",
    }
    for bad, message in cases.items():
        with pytest.raises(rubble.Error) as e:
            rubble.Run.from_yaml(base + bad + "\n", name=str(tmp_path / "bad.yaml"),
                                 output=tmp_path / "x")
        assert e.value.line == 7 and message in e.value.message, e.value.message
    assert not (tmp_path / "x").exists()
