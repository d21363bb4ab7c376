"""Bonded particles (issue 72, docs/bonds.md) from Python: Run.bonds() holds the scene's bonds
in the order of their ids, its counts are thermo.csv's, a broken bond carries nothing and says
when it broke, and the intact ones' stresses are below their strengths' spread's reach."""
import os

import numpy as np

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
