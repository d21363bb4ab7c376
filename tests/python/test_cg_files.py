"""Coarse-graining after the run from Python (issue 74) and the readers of what a run writes:
rubble.coarse_grain on a run's frames gives, bit for bit, the fields a live
rubble.CoarseGrain took at those steps; rubble.frames reads the CG .vti and profiles,
thermo.csv, the .pvd series, the contacts' branch vectors and the walls' loads, each checked
against what the run itself reported at the frame's step."""
import numpy as np
import pytest

import rubble
from rubble import frames

L, H = 0.008, 0.016
SCENE = f"""\
domain: {{min: [0, 0, -0.001], max: [{L}, {L}, {H}], periodic: [x, y]}}
gravity: [0, 0, -9.81]
materials: [{{name: glass, density: 2500}}]
contact: {{normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5,
          gamma_t: 0.005, friction: 0.5}}
walls: [{{point: [0, 0, 0], normal: [0, 0, 1]}}]
grains:
  - lattice: {{min: [0, 0, 0.0005], max: [{L}, {L}, 0.012], spacing: 0.0022}}
    radius: {{distribution: uniform, min: 0.00095, max: 0.00105}}
    velocity_spread: 0.05
run: {{time: 0.061, dt: 1.0e-5}}
output: {{every: 0.02, thermo_every: 0.02, contacts: [vtp, csv], wall_loads: true,
         cg: {{cells: [8, 8, 17], width: 0.002, min: [0, 0, -0.001], max: [{L}, {L}, {H}]}}}}
"""
GRID = dict(lo=(0, 0, -0.001), hi=(L, L, H), cells=(8, 8, 17), width=0.002)
FIELDS = ("density", "volume_fraction", "velocity", "stress", "contact_stress",
          "kinetic_stress", "fabric")
EVERY = 2000  # steps between frames


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The run, stepped frame by frame; at each frame's step what the run reports: a live CG
    sample, the grains and contacts."""
    tmp = tmp_path_factory.mktemp("cg_files")
    path = tmp / "bed.yaml"
    path.write_text(SCENE)
    run = rubble.Run(path, output=tmp / "o", threads=1)
    seen = []
    for k in range(4):  # frames 0..3 at steps 0, 2000, 4000, 6000 (the run ends at 6100)
        if k:
            run.step(EVERY)
        cg = rubble.CoarseGrain(GRID["lo"], GRID["hi"], GRID["cells"], GRID["width"])
        g = run.grains()
        seen.append(dict(cg=cg.add(run), fields=cg.fields(), contacts=run.contacts(),
                         id=g.id.copy(), position=g.position.copy(),
                         velocity=g.velocity.copy(), mass=g.mass.copy()))
    run.step(run.total_steps - 3 * EVERY)
    run.close()
    return tmp, seen


def test_coarse_grain_from_frames_is_the_live_sample(finished, tmp_path):
    tmp, seen = finished
    names = [tmp / "o" / f"grains_{k:06d}.vtp" for k in range(4)]
    grid = {"cells": list(GRID["cells"]), "width": GRID["width"], "min": list(GRID["lo"]),
            "max": list(GRID["hi"])}
    out = rubble.coarse_grain(tmp / "bed.yaml", names, output=tmp_path / "p", cg=grid)
    assert out.outputs == 4 and not out.inexact
    assert out.times == [t for t, _ in frames.read_pvd(tmp / "o" / "grains.pvd")][:4]
    for file, s in zip(out.files, seen):
        f = frames.read_vti(file)
        for name in FIELDS:
            assert np.array_equal(getattr(f, name), getattr(s["fields"], name)), name
    # the bed touches: contact stress and the floor's share in it
    assert np.abs(seen[3]["fields"].contact_stress).max() > 1.0
    # two frames per output: the mean of frames 2 and 3's live samples (the linear fields)
    out2 = rubble.coarse_grain(tmp / "bed.yaml", names, output=tmp_path / "p2",
                               cg=dict(grid, samples=2))
    assert out2.outputs == 2 and out2.files[-1].endswith("cg_000003.vti")
    f = frames.read_vti(out2.files[-1])
    for name in ("density", "volume_fraction", "contact_stress", "fabric"):
        a, b = getattr(seen[2]["fields"], name), getattr(seen[3]["fields"], name)
        np.testing.assert_allclose(getattr(f, name), (a + b) / 2, rtol=1e-12,
                                   atol=1e-12 * np.abs(a + b).max())


def test_coarse_grain_refuses_with_the_file(finished, tmp_path):
    tmp, _ = finished
    bad = tmp_path / "grains_000001.vtp"
    bad.write_bytes((tmp / "o" / "grains_000001.vtp").read_bytes()[:2000])
    (tmp_path / "contacts_000001.csv").write_bytes((tmp / "o" / "contacts_000001.csv")
                                                   .read_bytes())
    with pytest.raises(rubble.Error, match="grains_000001.vtp: byte"):
        rubble.coarse_grain(tmp / "bed.yaml", [bad], output=tmp_path / "p",
                            cg={"cells": [2, 2, 2], "width": 0.003})
    assert not (tmp_path / "p").exists()


def test_read_vti_and_profile_are_output_cg_s(finished):
    tmp, seen = finished
    f = frames.read_vti(tmp / "o" / "cg_000003.vti")
    assert f.cells == GRID["cells"]
    assert f.origin == pytest.approx((L / 16, L / 16, -0.001 + (H + 0.001) / 34), rel=1e-15)
    for name in FIELDS:
        assert np.array_equal(getattr(f, name), getattr(seen[3]["fields"], name)), name
    p = frames.read_profile(tmp / "o" / "cg_profile_000003.csv")
    assert p.axis == "z" and p.samples == 1
    assert p.time == pytest.approx(3 * EVERY * 1e-5, rel=1e-9)
    np.testing.assert_allclose(p.z, f.origin[2] + np.arange(17) * f.spacing[2], rtol=1e-9)
    s = seen[3]["fields"]
    for column, values in (("density", s.density), ("volume_fraction", s.volume_fraction),
                           ("velocity_z", s.velocity[..., 2]), ("stress_zz", s.stress[..., 2, 2]),
                           ("fabric_xy", s.fabric[..., 0, 1])):
        mean = values.mean(axis=(1, 2))
        np.testing.assert_allclose(p.columns[column], mean, rtol=1e-9,
                                   atol=1e-9 * np.abs(mean).max())


def test_read_thermo_and_wall_loads_are_the_run_s(finished):
    tmp, seen = finished
    th = frames.read_thermo(tmp / "o" / "thermo.csv")
    for k, s in enumerate(seen):
        row = np.flatnonzero(th["step"] == k * EVERY)
        assert len(row) == 1, f"no thermo row at step {k * EVERY}"
        row = row[0]
        kinetic = 0.5 * (s["mass"] * (s["velocity"] ** 2).sum(axis=1)).sum()
        assert th["kinetic"][row] == pytest.approx(kinetic, rel=1e-9)  # (10 digits)
        assert th["grains"][row] == len(s["id"])
        c = s["contacts"]
        assert th["contacts"][row] == len(c.ids) and th["wall_contacts"][row] == len(c.wall)
        on_wall = -(c.wall_fn + c.wall_ft).sum(axis=0)  # what the grains exert on the floor
        w = frames.read(tmp / "o" / f"walls_{k:06d}.vtp")
        np.testing.assert_allclose(w.cell_data["force"].sum(axis=0), on_wall, rtol=1e-9,
                                   atol=1e-12)
        # (thermo.csv's wall forces: 8 significant digits)
        np.testing.assert_allclose([th[f"wall1_f{a}"][row] for a in "xyz"], on_wall,
                                   rtol=1e-8, atol=1e-8 * np.abs(on_wall).max())
    assert seen[3]["contacts"].wall.size > 5


def test_contact_files_hold_the_branch_vectors(finished):
    """The branch from the first grain's centre to the second's nearest image (a wall: to the
    contact's point), in the .vtp and the .csv alike, against the run's grains."""
    tmp, seen = finished
    s = seen[3]
    order = np.argsort(s["id"])
    pos = s["position"][order]
    c = s["contacts"]
    d = pos[np.searchsorted(s["id"][order], c.ids[:, 1])] - \
        pos[np.searchsorted(s["id"][order], c.ids[:, 0])]
    d[:, :2] -= L * np.round(d[:, :2] / L)  # the nearest image across x and y
    wall = c.wall_point - pos[np.searchsorted(s["id"][order], c.wall_grain)]
    expected = np.concatenate([d, wall])
    v = frames.read(tmp / "o" / "contacts_000003.vtp")
    t = frames.read_table(tmp / "o" / "contacts_000003.csv")
    np.testing.assert_allclose(v.cell_data["branch"], expected, rtol=0, atol=1e-17)
    assert np.array_equal(v.cell_data["branch"], t["branch"])
    # the line's ends are the centre and centre + branch
    ends = v.points[v.lines]
    np.testing.assert_allclose(ends[:, 1] - ends[:, 0], expected, rtol=0, atol=1e-17)


def test_an_ensemble_of_runs(finished, tmp_path):
    """The same frame of several runs (another seed each) as the samples of one output: their
    ensemble mean (issue 74). Density, contact stress and fabric are the runs' means; the
    velocity the mean momentum over the mean density; the kinetic stress -(the momentum flux's
    mean less rho u u of the ensemble's own mean velocity), docs/cg.md: each run's kinetic
    stress less rho u u of its own velocity, averaged, plus the ensemble's."""
    tmp, seen = finished
    other = tmp_path / "seeded.yaml"
    other.write_text(SCENE.replace("velocity_spread: 0.05", "velocity_spread: 0.05\n    seed: 7"))
    run = rubble.Run(other, output=tmp_path / "b", threads=1)
    run.step(3 * EVERY)
    cg = rubble.CoarseGrain(GRID["lo"], GRID["hi"], GRID["cells"], GRID["width"])
    b = cg.add(run).fields()
    run.step(run.total_steps - 3 * EVERY)
    run.close()
    a = seen[3]["fields"]
    assert not np.array_equal(a.velocity, b.velocity)  # two runs, not one twice
    grid = {"cells": list(GRID["cells"]), "width": GRID["width"], "min": list(GRID["lo"]),
            "max": list(GRID["hi"]), "samples": 2}
    out = rubble.coarse_grain(tmp / "bed.yaml", [tmp / "o" / "grains_000003.vtp",
                                                 tmp_path / "b" / "grains_000003.vtp"],
                              output=tmp_path / "e", cg=grid)
    assert out.outputs == 1
    e = frames.read_vti(out.files[0])

    def close(x, want, what):
        np.testing.assert_allclose(x, want, rtol=1e-12, atol=1e-12 * np.abs(want).max(),
                                   err_msg=what)
    for name in ("density", "volume_fraction", "contact_stress", "fabric"):
        close(getattr(e, name), (getattr(a, name) + getattr(b, name)) / 2, name)
    rho = (a.density + b.density) / 2
    momentum = (a.density[..., None] * a.velocity + b.density[..., None] * b.velocity) / 2
    filled = rho > 0
    close(e.velocity[filled], momentum[filled] / rho[filled][:, None], "velocity")

    def flux(f):  # rho u u of a field's own velocity
        return f.density[..., None, None] * f.velocity[..., :, None] * f.velocity[..., None, :]
    mean_u = np.zeros_like(momentum)
    mean_u[filled] = momentum[filled] / rho[filled][:, None]
    ens = rho[..., None, None] * mean_u[..., :, None] * mean_u[..., None, :]
    close(e.kinetic_stress, (a.kinetic_stress - flux(a) + b.kinetic_stress - flux(b)) / 2 + ens,
          "kinetic stress")
