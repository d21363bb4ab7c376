"""test_cg_wall's bed between two side walls, settled for several lattice seeds: at 160k steps
the kinetic energy (translation, rotation) and the share carried by grains whose only contact
is the floor; from 120k to 160k steps the balance's change against the dissipation's
(docs/dem.md "A bed at rest makes no energy this way"). Run with each build's python/ first:
PYTHONPATH=BUILD/python python3 walled_bed_spinners.py [SEEDS] (default 1,...,8)."""
import sys
import tempfile

import numpy as np

import rubble

BED = """\
domain: {min: [0, 0, -0.003], max: [0.006, 0.006, 0.02], periodic: [y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.1, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}, {point: [0, 0, 0], normal: [1, 0, 0]},
        {point: [0.006, 0, 0], normal: [-1, 0, 0]}]
grains:
  - lattice: {min: [0.0003, 0, 0.0001], max: [0.0057, 0.006, 0.008], spacing: 0.00105}
    radius: {distribution: uniform, min: 0.0004, max: 0.0005}
    velocity_spread: 0.05
    seed: SEED
run: {steps: 1, dt: 2.0e-6}
output: {folder: bed, every: 1}
"""

for seed in (int(s) for s in (sys.argv[1] if len(sys.argv) > 1 else "1,2,3,4,5,6,7,8").split(",")):
    with tempfile.TemporaryDirectory() as tmp:
        run = rubble.Run.from_yaml(BED.replace("SEED", str(seed)), name=f"{tmp}/bed.yaml",
                                   output=f"{tmp}/bed", threads=1)
        run.step(120000)
        s0 = run.summary()
        run.step(40000)
        s1 = run.summary()
        g, c = run.grains(), run.contacts()
        kin = 0.5 * g.mass * (g.velocity**2).sum(1)
        both = kin + 0.2 * g.mass * g.radius**2 * (g.spin**2).sum(1)
        pairs = np.array([((c.ids[:, 0] == i) | (c.ids[:, 1] == i)).sum() for i in g.id])
        walls = np.array([(c.wall_grain == i).sum() for i in g.id])
        lone = (pairs == 0) & (walls == 1)
        lost = sum(s1["dissipated"].values()) - sum(s0["dissipated"].values())
        print(f"seed {seed}: kinetic {kin.sum():.2e} J, rotational {both.sum() - kin.sum():.2e} J; "
              f"{lone.sum()} grains alone on the floor carry {kin[lone].sum() / kin.sum():.3f} of "
              f"the kinetic, {both[lone].sum() / both.sum():.3f} of both | 120k-160k: balance "
              f"{s1['balance_drift'] - s0['balance_drift']:+.1e} J, dissipated {lost:.1e} J",
              flush=True)
