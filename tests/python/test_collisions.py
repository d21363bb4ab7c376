"""Collision statistics (issue 70, output.collisions): a glass grain meets a steel grain head
on and another glass grain hits a steel floor, without gravity, under the linear law. In
collisions.csv and from Run.collisions(): each event once, in its pair of materials' row (the
floor by its material), its impact energy m_eff v^2 / 2 exact and in the bin it falls in, what
it dissipated the kinetic energy its grains lost (to the integration's error at the contact's
ends, 1e-2); rows only at the interval's end, the open interval from Python before. Under
mpirun (2 processes: the pair on one, the grain on the floor on the other) Run.collisions()
is the run's whole tally on each, as collisions.csv's row."""
import csv
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import rubble

SCENE = """\
domain: {min: [-0.01, -0.01, -0.01], max: [0.03, 0.01, 0.02]}
gravity: [0, 0, 0]
materials:
  - {name: glass, density: 2500}
  - {name: steel, density: 7800}
contact: {normal: linear, kn: 2000, restitution: 0.5, tangential: none}
walls: [{point: [0, 0, 0], normal: [0, 0, 1], material: steel}]
grains: [{file: glass.txt, material: glass}, {file: steel.txt, material: steel}]
run: {time: 0.004, dt: 1.0e-6}
output: {every: 0.004, collisions: {every: 0.004, bins: 9, energy: [1.0e-9, 1.0e-6]}}
"""
R, V_PAIR, V_WALL = 0.001, 0.4, 0.3


def mass(density):
    return density * 4.0 / 3.0 * math.pi * R ** 3


def test_events_in_their_rows(tmp_path):
    (tmp_path / "glass.txt").write_text(
        f"-0.0012 0 0.01 {R} {V_PAIR / 2} 0 0\n0.02 0 0.0011 {R} 0 0 {-V_WALL}\n")
    (tmp_path / "steel.txt").write_text(f"0.0012 0 0.01 {R} {-V_PAIR / 2} 0 0\n")
    (tmp_path / "s.yaml").write_text(SCENE)
    r = rubble.Run(tmp_path / "s.yaml", output=tmp_path / "o", threads=1)
    g = r.grains()
    k0 = 0.5 * np.sum(g.mass * np.sum(g.velocity ** 2, axis=1))
    r.step(r.total_steps - 1)  # the events have ended; the row is written at the last step
    pair, wall = r.collisions(0, 1, False), r.collisions(0, 1, True)
    assert not (tmp_path / "o" / "collisions.csv").exists()  # no row before the interval ends
    g = r.grains()
    lost = k0 - 0.5 * np.sum(g.mass * np.sum(g.velocity ** 2, axis=1))
    r.step(1)
    r.close()
    mg, ms = mass(2500), mass(7800)
    e_pair = 0.5 * mg * ms / (mg + ms) * V_PAIR ** 2
    e_wall = 0.5 * mg * V_WALL ** 2
    # log bins of 1e-9 .. 1e-6 J, 3 a decade: collisions.csv's bin = floor(3 log10(E/1e-9))
    bins = {name: int(math.floor(3 * math.log10(e / 1e-9))) for name, e in
            (("pair", e_pair), ("wall", e_wall))}
    for name, got, e in (("pair", pair, e_pair), ("wall", wall, e_wall)):
        assert got.count.sum() == 1 and got.count[bins[name] + 1] == 1
        assert got.impact.sum() == pytest.approx(e, rel=1e-12)
        assert got.normal_speed.sum() == pytest.approx(V_PAIR if name == "pair" else V_WALL,
                                                       rel=1e-12)
    assert pair.dissipated.sum() + wall.dissipated.sum() == pytest.approx(lost, rel=1e-2)
    with open(tmp_path / "o" / "collisions.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(x["material_1"], x["material_2"], x["wall"]) for x in rows] == [
        ("glass", "steel", "0"), ("glass", "steel", "1")]
    for row, got, name in ((rows[0], pair, "pair"), (rows[1], wall, "wall")):
        assert int(row["bin"]) == bins[name] and int(row["count"]) == 1
        assert float(row["time_start"]) == 0.0
        assert float(row["time_end"]) == pytest.approx(0.004)
        assert float(row["impact_energy"]) == got.impact.sum()
        assert float(row["dissipated_energy"]) == got.dissipated.sum()
        lo, hi = float(row["energy_low"]), float(row["energy_high"])
        assert lo <= float(row["impact_energy"]) < hi


def test_without_the_output_python_says_so(tmp_path):
    (tmp_path / "glass.txt").write_text(f"0 0 0.01 {R} 0 0 0\n")
    (tmp_path / "steel.txt").write_text(f"0.01 0 0.01 {R} 0 0 0\n")
    (tmp_path / "s.yaml").write_text(SCENE.replace(
        ", collisions: {every: 0.004, bins: 9, energy: [1.0e-9, 1.0e-6]}", ""))
    r = rubble.Run(tmp_path / "s.yaml", output=tmp_path / "o", threads=1)
    with pytest.raises(rubble.Error, match="no collision statistics"):
        r.collisions()
    r.close()
    assert not (tmp_path / "o" / "collisions.csv").exists()


MPI_SCRIPT = """
import rubble
r = rubble.Run("s.yaml", output="o", threads=1)
r.step(r.total_steps - 1)
pair, wall = r.collisions(0, 1, False), r.collisions(0, 1, True)
s = r.summary()
r.step(1)
r.close()
open(f"rank{r.rank}.txt", "w").write(f"{s['ranks']} {pair.count.sum()} {wall.count.sum()} "
                                     f"{pair.impact.sum()!r} {wall.dissipated.sum()!r}")
"""


@pytest.mark.skipif(not os.environ.get("MPIEXEC"), reason="no mpirun (MPIEXEC unset)")
def test_under_mpirun_every_process_gets_the_whole_tally(tmp_path):
    (tmp_path / "glass.txt").write_text(
        f"-0.0012 0 0.01 {R} {V_PAIR / 2} 0 0\n0.02 0 0.0011 {R} 0 0 {-V_WALL}\n")
    (tmp_path / "steel.txt").write_text(f"0.0012 0 0.01 {R} {-V_PAIR / 2} 0 0\n")
    (tmp_path / "s.yaml").write_text(SCENE)
    (tmp_path / "run.py").write_text(MPI_SCRIPT)
    p = subprocess.run([os.environ["MPIEXEC"], "--allow-run-as-root", "--oversubscribe", "-np",
                        "2", sys.executable, "run.py"], cwd=tmp_path, timeout=120,
                       capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert p.returncode == 0, p.stdout + p.stderr
    with open(tmp_path / "o" / "collisions.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(x["count"]) for x in rows] == [1, 1]
    want = f"2 1 1 {float(rows[0]['impact_energy'])!r} {float(rows[1]['dissipated_energy'])!r}"
    for rank in (0, 1):
        assert (tmp_path / f"rank{rank}.txt").read_text() == want
