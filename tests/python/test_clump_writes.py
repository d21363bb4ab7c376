"""Writes to a clump's spheres from Python (issue 70, found-2026-12/health/h4_clump_spin.py):
velocities and spins set through run.grains() on a clump's spheres were dropped at the next
step (the spheres follow their body) while the energy they carried was booked as put in. Now a
rigid motion of all the clump's spheres, v = V + w x (x - X) with spin w, is the clump's own
(its body takes V and w), and the energy booked is the body's change, to round-off; any other
write is refused with a rubble.Error naming the sphere and the clump, nothing booked."""
import os
import shutil

import numpy as np
import pytest

import rubble

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "examples", "clumps")

FREE = """\
domain: {min: [-0.05, -0.05, -0.05], max: [0.05, 0.05, 0.05]}
gravity: [0, 0, 0]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}
grains:
  - lattice: {min: [-0.01, -0.01, -0.01], max: [0.01, 0.01, 0.01], count: 1}
    clump: ellipsoid.txt
run: {steps: 1000, dt: 1e-6}
output: {folder: out}
"""


def free_clump(tmp_path):
    shutil.copy(os.path.join(EXAMPLES, "ellipsoid.txt"), tmp_path / "ellipsoid.txt")
    return rubble.Run.from_yaml(FREE, name=str(tmp_path / "free.yaml"), output=tmp_path / "out",
                                threads=1)


def rigid(g, omega, v0):
    """A rigid motion about the spheres' centroid by mass (not the body's centre exactly)."""
    x, m = np.array(g["position"] if isinstance(g, dict) else g.position), None
    m = np.array(g["mass"] if isinstance(g, dict) else g.mass)
    com = (m[:, None] * x).sum(0) / m.sum()
    return np.asarray(v0) + np.cross(omega, x - com)


def kinetic(run):
    s = run.summary()
    return s["energy_end"], s["energy_in"]


def test_rigid_write_moves_the_clump_and_books_its_energy(tmp_path):
    run = free_clump(tmp_path)
    g = run.grains()
    assert (np.array(g.clump) == 0).all() and len(np.array(g.clump)) > 1
    e0, in0 = kinetic(run)
    assert e0 == 0.0
    omega = 2000.0 * np.array([0.3, 0.5, 1.0]) / np.linalg.norm([0.3, 0.5, 1.0])
    g.spin[:] = omega
    g.velocity[:] = rigid(g, omega, (0.1, -0.2, 0.05))
    run.step(0)  # taken and booked, not stepped
    e1, in1 = kinetic(run)
    run.step(1)
    # the clump took it: it moves and turns (before: dropped, the clump stayed at rest)
    g = run.grains()
    assert np.allclose(np.array(g.spin), omega, rtol=2e-3)  # one step of a free top's turn
    assert np.abs(np.array(g.velocity)).max() > 0.05
    assert e1 > 0.0
    # the energy booked is what the write gave the clump (its body's), to round-off
    assert in1 - in0 == pytest.approx(e1, rel=1e-12)
    run.step(500)  # a free rigid body: its energy stays
    e2, in2 = kinetic(run)
    assert in2 == in1
    assert e2 == pytest.approx(e1, rel=1e-6)  # the free rotation's splitting: bounded error
    run.close()


def test_other_writes_refused(tmp_path):
    run = free_clump(tmp_path)
    run.step(1)
    g = run.grains()
    ids = np.array(g.id)
    g.velocity[3] = (1.0, 0.0, 0.0)  # one sphere alone: no rigid motion of the clump
    with pytest.raises(rubble.Error, match=r"grain %d is a sphere of clump 0 \(the one of grain %d\)"
                       % (ids[3], ids.min())) as e:
        run.step(1)
    assert "no rigid motion" in str(e.value)
    _, booked = kinetic(run)
    assert booked == 0.0
    # the same motion given to every sphere is a rigid one (a translation): taken
    g = run.grains()
    g.velocity[:] = (1.0, 0.0, 0.0)
    run.step(0)
    e, booked = kinetic(run)
    assert booked == pytest.approx(e, rel=1e-12) and e > 0.0
    assert np.allclose(np.array(run.grains().velocity), (1.0, 0.0, 0.0), rtol=1e-12)
    # a spin on one sphere alone, refused too
    g = run.grains()
    g.spin[0] = (0.0, 0.0, 50.0)
    with pytest.raises(rubble.Error, match="is a sphere of clump 0"):
        run.step(1)
    run.close()
