"""Orientation invariance (issue 69, docs/testing.md): a scene without periodic axes and
without uniform gravity, turned by a rotation, runs as the same scene turned. A pile of 170
grains held by direct self-gravity, colliding with friction and rolling resistance, for 300
steps: every grain's position and velocity in the turned run is the turned position and
velocity, to 1e-9 of the pile's size and of the largest speed (round-off, grown by the
collisions; the tree's cells are not turned with it, so the direct sum is the reference)."""
import numpy as np
import pytest

import rubble

SCENE = """\
domain: {{min: [-1, -1, -1], max: [1, 1, 1]}}
materials: [{{name: rock, density: 2000}}]
contact: {{normal: linear, tangential: spring, kn: 0.02, restitution: 0.5, friction: 0.6,
          rolling: {{model: epsd2, friction: 0.1}}}}
self_gravity: {{method: direct, G: 1.0e-6}}
grains: [{{file: {name}.txt}}]
run: {{steps: 300, dt: 0.2}}
"""


def pile(seed=4, n=170):
    rng = np.random.default_rng(seed)
    x, r = [], []
    while len(x) < n:
        p = rng.uniform(-0.09, 0.09, 3)
        q = rng.uniform(0.008, 0.012)
        if np.linalg.norm(p) > 0.09 or any(np.linalg.norm(p - y) < q + s for y, s in zip(x, r)):
            continue
        x.append(p), r.append(q)
    v = rng.normal(0, 2e-5, (n, 3))
    return np.array(x), np.array(r), v


def rotation(seed=9):
    q = np.random.default_rng(seed).normal(size=4)
    w, a, b, c = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (b * b + c * c), 2 * (a * b - c * w), 2 * (a * c + b * w)],
                     [2 * (a * b + c * w), 1 - 2 * (a * a + c * c), 2 * (b * c - a * w)],
                     [2 * (a * c - b * w), 2 * (b * c + a * w), 1 - 2 * (a * a + b * b)]])


def run(tmp_path, name, x, r, v):
    np.savetxt(tmp_path / f"{name}.txt", np.column_stack([x, r, v]), fmt="%.17g")
    with rubble.Run.from_yaml(SCENE.format(name=name), name=str(tmp_path / f"{name}.yaml"),
                              output=tmp_path / name, threads=1) as sim:
        sim.step(300)
        g = sim.grains()
        order = np.argsort(g.id)
        return g.position[order], g.velocity[order], sim.summary()


def test_a_turned_scene_runs_turned(tmp_path):
    x, r, v = pile()
    R = rotation()
    xa, va, sa = run(tmp_path, "a", x, r, v)
    xb, vb, sb = run(tmp_path, "b", x @ R.T, r, v @ R.T)
    assert sa["contacts"] > 50  # the pile collapsed: the collisions are the test
    np.testing.assert_allclose(xb, xa @ R.T, rtol=0, atol=1e-9 * 0.1)
    np.testing.assert_allclose(vb, va @ R.T, rtol=0, atol=1e-9 * np.abs(va).max())
