"""Mass-flow rates over windows of time (issue 74, output.flow_window): flow.csv's rows for
flow counters and outlets; each window's change is the change of thermo.csv's cumulative
counts over it, its rate times its time is that change, the windows sum to the run's counts;
the same bytes on 1 and 2 threads (3 processes and a restart at an odd step:
tests/cli_mpi_run.sh)."""
import os

import numpy as np
import pytest

import rubble

SCENE = """\
domain: {min: [0, 0, -0.001], max: [0.01, 0.01, 0.03], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}
walls: [{point: [0, 0, 0], normal: [0, 0, 1]}]
grains:
  - random: {min: [0, 0, 0.008], max: [0.01, 0.01, 0.028], count: 120}
    radius: {distribution: uniform, min: 0.0005, max: 0.0008}
    velocity: [0, 0, -0.3]
    velocity_spread: 0.2
outlets: [{box: {min: [0, 0, -0.001], max: [0.01, 0.01, 0.002]}}]
run: {time: 0.04, dt: auto, c: 0.05}
output: {every: 0.04, thermo_every: WINDOW, OUTPUT
         flow: [{point: [0, 0, 0.006], normal: [0, 0, -1]},
                {point: [0.005, 0.005, 0.012], normal: [0, 0, 1], radius: 0.003}]}
"""
WINDOW = 0.004


def run(tmp_path, name, threads, output="flow_window: 0.004,"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(SCENE.replace("WINDOW", str(WINDOW)).replace("OUTPUT", output))
    r = rubble.Run(path, output=tmp_path / name, threads=threads)
    r.step(r.total_steps)
    r.close()
    return tmp_path / name


def test_windows_are_the_cumulative_counts_changes(tmp_path):
    one = run(tmp_path, "one", 1)
    if not os.environ.get("RBL_TEST_SLOW_BUILD"):  # (the sanitizers: one thread only)
        two = run(tmp_path, "two", 2)
        assert (one / "flow.csv").read_bytes() == (two / "flow.csv").read_bytes()
    w = np.genfromtxt(one / "flow.csv", delimiter=",", names=True, dtype=None, encoding=None)
    t = np.genfromtxt(one / "thermo.csv", delimiter=",", names=True)
    # thermo's rows at the windows' ends (the same interval): the cumulative counts there
    at = {round(x / 1e-9): k for k, x in enumerate(t["time"])}
    columns = {"flow1": ("flow1_grains_forward", "flow1_grains_backward", "flow1_mass_forward",
                         "flow1_mass_backward"),
               "flow2": ("flow2_grains_forward", "flow2_grains_backward", "flow2_mass_forward",
                         "flow2_mass_backward"),
               "outlet1": ("outlet1_grains", None, "outlet1_mass", None)}
    moved = 0
    for surface, cols in columns.items():
        rows = w[w["surface"] == surface]
        assert len(rows) == 10 and rows["time_start"][0] == 0  # 0.04 s in windows of 0.004
        assert np.array_equal(rows["time_start"][1:], rows["time_end"][:-1])  # back to back
        for name, col in zip(("grains_forward", "grains_backward", "mass_forward",
                              "mass_backward"), cols):
            d = rows[name]
            if col is None:  # an outlet takes out: nothing backward
                assert np.all(d == 0)
                continue
            c = t[col]
            k0 = [at[round(x / 1e-9)] for x in rows["time_start"][1:]]
            k1 = [at[round(x / 1e-9)] for x in rows["time_end"]]
            # each window: the change of thermo's cumulative count (thermo prints exactly)
            # (counts whole: exactly; masses: the cumulative's rounding, an ulp of the largest)
            ulp = 0.0 if name.startswith("grains") else 2.3e-16 * np.abs(c).max()
            assert np.allclose(d, c[k1] - np.concatenate(([0.0], c[k0])), rtol=0, atol=ulp)
            assert abs(d.sum() - c[-1]) <= len(d) * ulp  # they add up
            moved += d.sum() if name.startswith("grains") else 0
        dur = rows["time_end"] - rows["time_start"]
        net = rows["grains_forward"] - rows["grains_backward"]
        assert np.allclose(rows["grains_rate"] * dur, net, rtol=1e-15, atol=0)
        net = rows["mass_forward"] - rows["mass_backward"]
        assert np.allclose(rows["mass_rate"] * dur, net, rtol=1e-15, atol=1e-300)
    assert moved > 100


def test_a_window_needs_surfaces(tmp_path):
    path = tmp_path / "bad.yaml"
    text = SCENE.replace("WINDOW", "0.004").replace("OUTPUT", "flow_window: 0.004,")
    path.write_text(text.replace("outlets: [{box: {min: [0, 0, -0.001], max: [0.01, 0.01, "
                                 "0.002]}}]\n", "").replace(
        "flow: [{point: [0, 0, 0.006], normal: [0, 0, -1]},\n                {point: [0.005, "
        "0.005, 0.012], normal: [0, 0, 1], radius: 0.003}]", "final: f.txt"))
    with pytest.raises(rubble.Error) as e:
        rubble.Run(path, output=tmp_path / "bad")
    assert "needs surfaces to count" in e.value.message and e.value.line == 12
    path.write_text(SCENE.replace("WINDOW", "0.004").replace("OUTPUT", "flow_window: -1,"))
    with pytest.raises(rubble.Error) as e:
        rubble.Run(path, output=tmp_path / "bad")
    assert "flow_window" in e.value.message and e.value.line == 13
