"""Bonded particles (issue 72, docs/bonds.md) from Python: Run.bonds() holds the scene's bonds
in the order of their ids, its counts are thermo.csv's, a broken bond carries nothing and says
when it broke, and the intact ones' stresses are below their strengths' spread's reach."""
import os

import numpy as np
import pytest

import rubble

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


def test_bonds_of_the_bonded_block(tmp_path):
    text = open(os.path.join(EXAMPLES, "bonded_block.yaml")).read()
    text = text.replace("run: {time: 0.01,", "run: {time: 0.003,")
    text = text.replace("output: {folder: output/bonded_block, every: 0.001}",
                        "output: {every: 0.003, thermo_every: 0.001}")
    path = tmp_path / "block.yaml"
    path.write_text(text)
    run = rubble.Run(path, output=tmp_path / "o", threads=2)
    run.step(run.total_steps)
    b = run.bonds()
    run.close()
    t = np.genfromtxt(tmp_path / "o" / "thermo.csv", delimiter=",", names=True)
    assert b.ids.shape == (300, 2) and b.force.shape == (300, 3)
    assert np.all(b.ids[:, 0] < b.ids[:, 1])
    order = b.ids[:, 0].astype(np.uint64) << 32 | b.ids[:, 1]
    assert np.all(np.diff(order.astype(np.int64)) > 0)  # by ids
    broken = ~b.intact
    assert broken.sum() == t["bonds_broken"][-1] > 0
    assert b.intact.sum() == t["bonds_intact"][-1]
    assert np.all(b.force[broken] == 0) and np.all(b.energy[broken] == 0)
    assert np.all(b.broke_step[broken] > 0) and np.all(b.broke_step[b.intact] == 0)
    assert np.all(b.energy[b.intact] >= 0)


def test_fragments_of_the_bonded_block(tmp_path):
    """Run.fragments() at the last frame: the components numpy finds from Run.bonds() and
    Run.grains() (labels by least id, counts, masses), and the frame's fragments_NNNNNN.csv."""
    text = open(os.path.join(EXAMPLES, "bonded_block.yaml")).read()
    text = text.replace("run: {time: 0.01,", "run: {time: 0.0045,")
    text = text.replace("output: {folder: output/bonded_block, every: 0.001}",
                        "output: {every: 0.0045}")
    path = tmp_path / "block.yaml"
    path.write_text(text)
    run = rubble.Run(path, output=tmp_path / "o", threads=2)
    run.step(run.total_steps)
    f, b, g = run.fragments(), run.bonds(), run.grains()
    ids, mass = np.array(g.id), np.array(g.mass)
    run.close()
    # union-find by hand over the intact bonds, roots the least id
    up = {int(i): int(i) for i in ids}

    def root(k):
        while up[k] != k:
            k = up[k]
        return k
    for a, c in b.ids[b.intact]:
        ra, rc = root(int(a)), root(int(c))
        up[max(ra, rc)] = min(ra, rc)
    label = np.array([root(int(i)) for i in ids])
    labels, counts = np.unique(label, return_counts=True)
    assert np.array_equal(f.label, labels) and np.array_equal(f.grains, counts)
    assert len(labels) > 1  # it broke apart
    for k, lab in enumerate(labels):
        assert abs(f.mass[k] - mass[label == lab].sum()) < 1e-12 * f.mass[k]
    table = np.genfromtxt(tmp_path / "o" / "fragments_000001.csv", delimiter=",", names=True)
    table = np.atleast_1d(table)
    assert np.array_equal(table["label"], f.label) and np.array_equal(table["grains"], f.grains)
    assert np.allclose(table["mass"], f.mass, rtol=1e-9)
    # (the frame at 0.0045 s is written a step before the last: gravity's g dt apart)
    assert np.allclose(table["vz"], f.velocity[:, 2], rtol=0, atol=2 * 9.81 * 7.3e-7)


def _block(tmp_path, name, bonds):
    """bonded_block.yaml for 0.003 s, its `bonds:` block kept or taken out."""
    text = open(os.path.join(EXAMPLES, "bonded_block.yaml")).read()
    text = text.replace("run: {time: 0.01,", "run: {time: 0.003,")
    text = text.replace("output: {folder: output/bonded_block, every: 0.001}",
                        "output: {every: 0.003}")
    if not bonds:
        start = text.index("bonds:")
        text = text[:start] + text[text.index("run:"):]
    path = tmp_path / (name + ".yaml")
    path.write_text(text)
    return rubble.Run(path, output=tmp_path / name)


def test_add_bonds_makes_the_scenes_bonds(tmp_path):
    """Run.add_bonds before the first step with the scene's `bonds:` values gives the bonds,
    breaks and motion of the scene that has the block, to the bit; made again, none."""
    runs = [_block(tmp_path, "scene", True), _block(tmp_path, "python", False)]
    made = runs[1].add_bonds(youngs_modulus=1.0e6, stiffness_ratio=2, radius_multiplier=1,
                             tensile_strength=1.5e4, shear_strength=8e3, damping=0.1, gap=1e-6,
                             spread="weibull", spread_value=5, seed=3)
    assert made == 300
    assert runs[1].add_bonds(youngs_modulus=1.0e6, gap=1e-6) == 0  # each pair once
    out = []
    for run in runs:
        run.step(run.total_steps)
        b, g = run.bonds(), run.grains()
        out.append((b, np.array(g.position), np.array(g.id)))
        run.close()
    (b0, x0, i0), (b1, x1, i1) = out
    assert (~b0.intact).sum() > 0  # some broke
    for key in ("ids", "intact", "force", "moment", "sigma", "tau", "energy", "broke_step"):
        assert np.array_equal(getattr(b0, key), getattr(b1, key)), key
    assert np.array_equal(x0[np.argsort(i0)], x1[np.argsort(i1)])


def test_add_bonds_by_pairs_and_refusals(tmp_path):
    run = _block(tmp_path, "pairs", False)
    ids = np.array(run.grains().id)
    # the first grain and its neighbour along x (the lattice's spacing 2 mm: touching)
    assert run.add_bonds(youngs_modulus=1e6, pairs=[[0, 1]], radius=[5e-4]) == 1
    b = run.bonds()
    assert b.ids.tolist() == [[0, 1]] and b.intact.all()
    with pytest.raises(rubble.Error, match="pair 1: grain 3 bonded to itself"):
        run.add_bonds(youngs_modulus=1e6, pairs=[[1, 2], [3, 3]])
    with pytest.raises(rubble.Error, match="pair 0: grains 2 and 4 are 0.002 m apart"):
        run.add_bonds(youngs_modulus=1e6, pairs=[[2, 4]])
    with pytest.raises(rubble.Error, match="pair 0: no grain"):
        run.add_bonds(youngs_modulus=1e6, pairs=[[0, ids.max() + 1]])
    with pytest.raises(rubble.Error, match="youngs_modulus must be > 0"):
        run.add_bonds(youngs_modulus=-1.0)
    with pytest.raises(rubble.Error, match="tensile_strength must be > 0"):
        run.add_bonds(youngs_modulus=1e6, tensile_strength=-5)
    with pytest.raises(ValueError, match="not both"):
        run.add_bonds(youngs_modulus=1e6, ids=[0, 1], pairs=[[0, 1]])
    assert len(run.bonds().ids) == 1  # none of the refused calls' bonds
    run.close()
