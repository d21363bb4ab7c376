"""Outlets (issue 44): grains taken out where they cross a plane or a mesh face, or enter a box
or a cylinder, counted with their mass in thermo.csv; the hopper's slot as an outlet takes out
what a flow counter there counts and nothing is lost; a clump goes whole and counts once;
the counts go on from a checkpoint; the scene's errors."""
import os

import numpy as np
import pytest

import rubble
from hopper_scene import hopper_text

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")
release_only = pytest.mark.skipif(bool(os.environ.get("RBL_TEST_SLOW_BUILD")),
                                  reason="long: run by the release pass")


def thermo(folder):
    return np.genfromtxt(os.path.join(folder, "thermo.csv"), delimiter=",", names=True)


@release_only
def test_the_hopper_slot_as_an_outlet(tmp_path):
    text = hopper_text(time=0.15, output="{every: 0.15, thermo_every: 0.05, flow: [{point: "
                       "[0, 0, 0], normal: [0, 0, -1]}]}\noutlets: [{point: [0, 0, 0], normal: "
                       "[0, 0, -1]}]")
    path = tmp_path / "hopper.yaml"
    path.write_text(text)
    run = rubble.Run(path, output=tmp_path / "o", threads=2)
    run.step(run.total_steps)
    grains = len(run.grains().id)
    run.close()
    t = thermo(tmp_path / "o")
    assert t["outlet1_grains"][-1] > 200
    assert t["outlet1_grains"][-1] == t["flow1_grains_forward"][-1]  # taken out as they cross
    assert t["outlet1_mass"][-1] == t["flow1_mass_forward"][-1]
    assert t["lost"][-1] == 0 and t["flow1_grains_backward"][-1] == 0
    assert grains == t["grains"][0] - t["outlet1_grains"][-1] == t["grains"][-1]


CIRCLE = """\
domain: {min: [0, 0, 0], max: [0.01, 0.01, 0.01], periodic: [x, y, z]}
gravity: [0, 0, 0]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: none, kn: 1000, restitution: 0.5}
grains: [{file: grains.txt}]
run: {time: 0.02, dt: 1.0e-6}
output: {every: 0.01, thermo_every: 0.001, checkpoint_every: 0.005}
outlets:
  - {box: {min: [0.006, 0.0005, 0.0005], max: [0.007, 0.0015, 0.0015]}}
  - {cylinder: {from: [0.004, 0.003, 0], to: [0.004, 0.003, 0.01], radius: 0.0002}}
  - {mesh: square.stl}
  - {point: [0.002, 0, 0], normal: [-1, 0, 0]}
"""


def square(path):
    """A square across x = 8 mm facing +x, over y, z in [5, 7] mm: two facets."""
    c = [(0.008, 0.005, 0.005), (0.008, 0.007, 0.005), (0.008, 0.007, 0.007),
         (0.008, 0.005, 0.007)]
    text = "solid s\n"
    for f in ((0, 1, 2), (0, 2, 3)):
        text += "facet normal 0 0 0\nouter loop\n"
        text += "".join("vertex %r %r %r\n" % c[k] for k in f)
        text += "endloop\nendfacet\n"
    path.write_text(text + "endsolid s\n")


def test_each_kind_of_outlet_takes_out_what_reaches_it(tmp_path):
    """Four grains at 1 m/s along x in a periodic box 1 cm wide, one on each outlet's path:
    the box, the cylinder (across the path) and the mesh square take theirs out on the first
    pass; the plane faces -x, so the fourth grain, moving +x, crosses it backward and stays;
    restarted from a checkpoint the counts go on digit for digit."""
    square(tmp_path / "square.stl")
    r = 0.0001
    (tmp_path / "grains.txt").write_text(
        "0.001 0.001 0.001 %r 1 0 0\n0.001 0.003 0.004 %r 1 0 0\n"
        "0.001 0.006 0.006 %r 1 0 0\n0.001 0.009 0.009 %r 1 0 0\n" % (r, r, r, r))
    path = tmp_path / "circle.yaml"
    path.write_text(CIRCLE)
    run = rubble.Run(path, output=tmp_path / "o", threads=1)
    run.step(run.total_steps)
    left = run.grains()
    run.close()
    t = thermo(tmp_path / "o")
    m = 2500 * 4 / 3 * np.pi * r**3
    row = t[-1]
    assert [row["outlet%d_grains" % k] for k in (1, 2, 3, 4)] == [1, 1, 1, 0]
    assert row["outlet1_mass"] == pytest.approx(m, rel=1e-15)
    assert list(left.id) == [3] and row["grains"] == 1 and row["lost"] == 0
    # when: the box's face at x = 6 mm (5 ms), the cylinder's at 3.8 mm (2.8 ms), the square
    # at 8 mm (7 ms): in the first thermo row (every 1 ms) at or after it
    for k, arrival in ((1, 0.005), (2, 0.0028), (3, 0.007)):
        first = t["time"][np.argmax(t["outlet%d_grains" % k] > 0)]
        assert arrival - 1e-9 <= first < arrival + 0.001 + 1e-9, (k, first)
    again = rubble.Run(path, output=tmp_path / "again", threads=1,
                       restart=tmp_path / "o" / "checkpoint_000005000.bin")
    again.step(again.total_steps - again.step_count)
    again.close()
    a = thermo(tmp_path / "again")[-1]
    names = [n for n in t.dtype.names if n.startswith("outlet")]
    assert [a[n] for n in names] == [row[n] for n in names]


@release_only
def test_a_clump_goes_whole_and_counts_once(tmp_path):
    """The clumps example's first layer (clumps of 4 spheres) on a floor, an outlet box
    over half of it: those clumps whose sphere is in it go whole, each counted once with
    the clump's mass; the spheres left are the others' whole."""
    text = open(os.path.join(EXAMPLES, "clumps.yaml")).read().replace(
        "clumps/ellipsoid.txt", os.path.abspath(os.path.join(EXAMPLES, "clumps",
                                                             "ellipsoid.txt")))
    text = text.replace("  time: 0.4", "  steps: 3")
    text = text[:text.index("  - random:")] + text[text.index("run:"):]
    text += "outlets: [{box: {min: [0, 0, -0.001], max: [0.02, 0.04, 0.01]}}]\n"
    path = tmp_path / "clumps.yaml"
    path.write_text(text)
    run = rubble.Run(path, output=tmp_path / "o", threads=1)
    before = run.grains()
    clumps0, spheres0 = len(set(before.clump[before.clump >= 0])), len(before.id)
    run.step(3)
    after = run.grains()
    run.close()
    t = thermo(tmp_path / "o")
    taken = t["outlet1_grains"][-1]
    clumps1 = len(set(after.clump[after.clump >= 0]))
    assert 0 < taken == clumps0 - clumps1
    per_clump = spheres0 / clumps0
    assert len(after.id) == spheres0 - taken * per_clump  # whole clumps, no stray sphere
    assert np.bincount(after.clump[after.clump >= 0]).max() == per_clump
    assert t["lost"][-1] == 0


def test_outlet_errors_name_the_line(tmp_path):
    square(tmp_path / "square.stl")
    (tmp_path / "grains.txt").write_text("0.001 0.001 0.001 0.0001 1 0 0\n")
    base = CIRCLE[:CIRCLE.index("outlets:")]
    cases = {
        "outlets: {box: {min: [0, 0, 0], max: [1, 1, 1]}}": "'outlets' must be a list",
        "outlets: [{box: {min: [0, 0, 0], max: [1, 0, 1]}}]": "min < max on every axis (y",
        "outlets: [{cylinder: {from: [0, 0, 0], to: [0, 0, 0], radius: 1}}]": "apart",
        "outlets: [{cylinder: {from: [0, 0, 0], to: [0, 0, 1]}}]": "radius",
        "outlets: [{box: {min: [0, 0, 0], max: [1, 1, 1]}, point: [0, 0, 0], "
        "normal: [1, 0, 0]}]": "an outlet is one of",
        "outlets: [{point: [0, 0, 0], normal: [0, 0, 0]}]": "'normal' must not be zero",
        "outlets: [{mesh: square.stl, normal: [1, 0, 0]}]": "a 'mesh' or a 'point'",
        "outlets: [{sphere: 1}]": "sphere",
    }
    for bad, message in cases.items():
        with pytest.raises(rubble.Error) as e:
            rubble.Run.from_yaml(base + bad + "\n", name=str(tmp_path / "bad.yaml"),
                                 output=tmp_path / "x")
        assert e.value.line == 8 and message in e.value.message, e.value.message
    assert not (tmp_path / "x").exists()
