"""An impulse scene's inputs and outputs for users (issue 45 item 5): objects read from a file
at explicit poses and motions, starting in touch; a spin given to a source; the contacts of
the last step with the mean forces of their impulses (Run.contacts(), output.contacts) and the
deepest overlap in thermo.csv. Checked against statics: a column of two spheres at rest on a
floor carries the top one's weight between them and both on the floor."""
import csv
import math

import numpy as np
import pytest

import rubble

SCENE = """\
gravity: [0, 0, -9.81]
impulse: {restitution: 0.3, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
objects:
  - file: objects.txt
    ellipsoid: [0.01, 0.01, 0.01]
    density: 2000
    SPIN
run: {steps: STEPS, dt: 1.0e-4}
output: {every: 0.01, contacts: [vtp, csv]}
"""


def open_run(tmp_path, lines, steps, spin=""):
    (tmp_path / "objects.txt").write_text(lines)
    scene = tmp_path / "scene.yaml"
    scene.write_text(SCENE.replace("STEPS", str(steps)).replace("SPIN", spin))
    return rubble.Run(scene, output=tmp_path / "out", threads=1)


def test_a_column_in_touch_from_a_file_carries_its_weight(tmp_path):
    """Two spheres stacked, touching from the first step (a file source may start them so):
    after 0.1 s at rest the contact between them carries the top one's weight, the floor
    both, to 1e-6 of m g (impulse / dt over the last step)."""
    r = open_run(tmp_path, "0 0 0.01 1 0 0 0\n0 0 0.03 1 0 0 0\n", 1000)
    r.step(r.total_steps)
    o = r.objects()
    c = r.contacts()
    r.close()
    m = 2000 * 4 / 3 * math.pi * 0.01 ** 3
    assert o.position[:, 2] == pytest.approx([0.01, 0.03], abs=1e-6)
    assert len(c.ids) == 1 and len(c.wall) == 1
    # the normal into the first object; the force on it pushes it away from the other
    first, second = c.ids[0]
    push = c.fn[0] * (1 if o.position[first, 2] > o.position[second, 2] else -1)
    assert push[2] == pytest.approx(m * 9.81, rel=1e-6)
    assert c.wall_fn[0][2] == pytest.approx(2 * m * 9.81, rel=1e-6)
    assert np.abs(c.ft).max() < 1e-9 * m * 9.81
    # the files of the last frame hold the same, and thermo.csv the deepest overlap
    rows = list(csv.DictReader(open(tmp_path / "out" / "contacts_000010.csv")))
    assert len(rows) == 2
    assert float(rows[1]["fn_z"]) == pytest.approx(2 * m * 9.81, rel=1e-6)
    assert (tmp_path / "out" / "contacts.pvd").read_text().count("<DataSet") == 11
    thermo = list(csv.DictReader(open(tmp_path / "out" / "thermo.csv")))
    deepest = max(float(t["largest_overlap"]) for t in thermo)
    assert 0 <= deepest < 1e-6  # within the slop, 1e-4 of the radius


def test_a_file_gives_motions_and_a_source_its_spin(tmp_path):
    """A line's velocity and spin are the object's; where a line has none, the source's
    velocity and spin; no gravity acting yet (0 steps)."""
    r = open_run(tmp_path, "0 0 0.05 1 0 0 0 1 2 3 4 5 6\n0.05 0 0.05 1 0 0 0\n", 1,
                 spin="spin: [0, 0, 30]")
    o = r.objects()
    r.close()
    assert o.velocity[0] == pytest.approx([1, 2, 3])
    assert o.spin[0] == pytest.approx([4, 5, 6])
    assert o.velocity[1] == pytest.approx([0, 0, 0])
    assert o.spin[1] == pytest.approx([0, 0, 30])


def test_output_final_starts_the_next_run(tmp_path):
    """Objects thrown with spin onto the floor for 0.05 s; output.final read back by a file
    source gives the same positions and velocities, bit for bit, and orientations and spins to
    their last bits (the quaternion made unit again, the spin through the angular momentum)."""
    lines = "".join("%g 0 %g 1 0 0 0 %g 0 -0.5 %g %g %g\n" % (0.03 * k, 0.02 + 0.01 * k, 0.2 * k,
                                                             k, 2 * k, -3)
                    for k in range(4))
    r = open_run(tmp_path, lines, 500)
    r.step(r.total_steps)
    before = r.objects()
    r.close()
    text = (tmp_path / "scene.yaml").read_text().replace("every: 0.01,", "every: 0.01, final: end.txt,")
    (tmp_path / "scene.yaml").write_text(text)
    r = rubble.Run(tmp_path / "scene.yaml", output=tmp_path / "first", threads=1)
    r.step(r.total_steps)
    r.finish()
    r.close()
    (tmp_path / "objects.txt").write_text((tmp_path / "first" / "end.txt").read_text())
    r = rubble.Run(tmp_path / "scene.yaml", output=tmp_path / "second", threads=1)
    after = r.objects()
    r.close()
    for name in ("position", "velocity"):
        assert np.array_equal(getattr(after, name), getattr(before, name)), name
    # the spin goes through the angular momentum and back (L = R I R^T w): its last bits
    assert np.abs(after.spin - before.spin).max() < 1e-13 * np.abs(before.spin).max()
    assert np.abs(after.quaternion - before.quaternion).max() < 1e-15


def test_a_bad_file_is_named_with_its_line(tmp_path):
    with pytest.raises(rubble.Error, match=r"objects.txt:2: x 'oops' is not a number"):
        open_run(tmp_path, "0 0 0.01 1 0 0 0\noops 0 0.03 1 0 0 0\n", 10)


def test_a_run_of_hours_is_announced(tmp_path):
    """Two objects for 1e8 steps: about 1.4 hours at the seed's tube pile's 2.6e-5 s per
    object-step, said as the run opens (a warning: nothing stops)."""
    with pytest.warns(Warning, match=r"about 1.44 hours of work: 100000000 steps of dt = "
                      r"\S+ s, 2 objects on average, at 2.6e-05 s per object-step"):
        r = open_run(tmp_path, "0 0 0.01 1 0 0 0\n0 0 0.03 1 0 0 0\n", 100000000)
    r.close()
