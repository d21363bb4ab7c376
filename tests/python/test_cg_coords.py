"""Coarse-graining on cylindrical (r, theta, z) and spherical (r, theta, phi) grids (issue 74,
docs/cg.md "Cylindrical and spherical grids"): a solid-body rotation gives v_theta = omega r
(v_phi = omega r sin theta) and nothing else; the density integrates to the mass with the
volume element r dr dtheta dz (r^2 sin theta dr dtheta dphi); a ball's volume fraction is the
lattice's; a drum's fields at theta = pi are a Cartesian grid's at the same points, its
components turned (its wall force density too); the same bits on one and two threads."""
import numpy as np
import pytest

import rubble
from test_cg_average import HI, LO, drum  # noqa: F401 (drum: a fixture)

SCENE = """\
domain: {{min: [{lo}, {lo}, {lo}], max: [{hi}, {hi}, {hi}]{periodic}}}
materials: [{{name: glass, density: 2500}}]
contact: {{normal: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}}
grains: [{{file: grains.txt}}]
run: {{steps: 1, dt: 1.0e-7}}
"""
B, S, OMEGA = 0.03, 0.0011, 2.0  # the box's side, the lattice's step (m), rad/s
C = 0.002                         # Lucy's width


def rotating(tmp_path, inside, axis, centre, periodic="", threads=1):
    """Grains of radius 0.5 mm on a cubic lattice S apart, those `inside`, turning as a solid
    body at OMEGA about `axis` through `centre`, apart (no contacts)."""
    k = np.arange(-B / 2 + S / 2, B / 2, S)
    p = np.stack(np.meshgrid(k, k, k, indexing="ij"), -1).reshape(-1, 3)
    p = p[inside(p)] + centre
    v = np.cross(OMEGA * np.asarray(axis, float), p - centre)
    np.savetxt(tmp_path / "grains.txt", np.column_stack([p, np.full(len(p), 0.0005), v]),
               fmt="%.17g")
    text = SCENE.format(lo=-B / 2, hi=B / 2, periodic=periodic)
    run = rubble.Run.from_yaml(text, name=str(tmp_path / "scene.yaml"), output=tmp_path / "out",
                               threads=threads)
    run.step(0)
    return run


def test_a_turning_cylinder(tmp_path):
    """A cylinder of radius R = 12 mm about y, periodic in y (the grid averaged along it):
    v_theta = omega r, v_r = 0 within 5e-3 of omega R at r < R - c (measured 1.2e-3: each
    node's kernel-weighted centre of mass is off the node by the lattice's graininess), v_z = 0
    exactly; the mass, summed with r dr dtheta dz, within 2e-4 (measured 8.6e-5, nodes c / 4
    apart in r)."""
    R = 0.012
    run = rotating(tmp_path, lambda p: p[:, 0]**2 + p[:, 2]**2 < R**2, (0, 1, 0), (0, 0, 0),
                   ", periodic: [y]")
    f = rubble.CoarseGrain((0, 0, -B / 2), (R + 1.5 * C, 2 * np.pi, B / 2), (32, 64, 1), C,
                           coordinates="cylindrical", axis="y", average="z").add(run).fields()
    r = f.origin[0] + np.arange(32) * f.spacing[0]
    mass = (f.density[0] * r).sum() * f.spacing[0] * f.spacing[1] * B
    assert abs(mass / run.grains().mass.sum() - 1) < 2e-4
    inner = r < R - C
    v = f.velocity[0][:, inner]  # (theta, r, component)
    assert np.abs(v[..., 1] - OMEGA * r[inner]).max() < 5e-3 * OMEGA * R
    assert np.abs(v[..., 0]).max() < 5e-3 * OMEGA * R
    assert np.all(v[..., 2] == 0)
    run.close()


def test_a_turning_ball(tmp_path):
    """A ball of radius R = 11 mm about a centre off the box's, turning about z: v_phi = omega
    r sin theta, v_r = v_theta = 0 within 5e-3 of omega R (measured 1.5e-3); the mass, summed
    with r^2 sin theta dr dtheta dphi, within 1e-3 (5.8e-4 measured); the radial profile's
    volume fraction inside is the lattice's, 4/3 pi 0.5^3 / 1.1^3 = 0.3934, within 0.5 %."""
    R, centre = 0.011, np.array([0.001, -0.002, 0.0005])
    run = rotating(tmp_path, lambda p: (p**2).sum(1) < R**2, (0, 0, 1), centre)
    f = rubble.CoarseGrain((0, 0, 0), (R + 1.5 * C, np.pi, 2 * np.pi), (24, 24, 48), C,
                           coordinates="spherical", axis="z", centre=centre).add(run).fields()
    r = f.origin[0] + np.arange(24) * f.spacing[0]
    theta = f.origin[1] + np.arange(24) * f.spacing[1]
    dv = r[None, None, :]**2 * np.sin(theta)[None, :, None] * np.prod(f.spacing)
    assert abs((f.density * dv).sum() / run.grains().mass.sum() - 1) < 1e-3
    inner = r < R - C
    v = f.velocity[:, :, inner]  # (phi, theta, r, component)
    vphi = OMEGA * r[inner][None, None, :] * np.sin(theta)[None, :, None]
    assert np.abs(v[..., 2] - vphi).max() < 5e-3 * OMEGA * R
    assert np.abs(v[..., :2]).max() < 5e-3 * OMEGA * R
    shell = (f.volume_fraction * np.sin(theta)[None, :, None]).sum((0, 1)) / \
        (np.sin(theta).sum() * 48)
    lattice = 4 / 3 * np.pi * 0.5**3 / 1.1**3
    assert np.abs(shell[inner] / lattice - 1).max() < 5e-3
    run.close()


def test_a_drum_at_theta_pi_is_the_cartesian_field(drum):
    """examples/drum.yaml (about y, its grains at the bottom): the cylindrical grid's nodes at
    theta = pi lie on the z axis below the centre (theta from z towards x), where a Cartesian
    grid of one node across x puts its nodes; both averaged along y. The fields agree to
    round-off, (r, theta, z) being (-z, -x, y)."""
    n, h = 40, 2 * np.pi / 72
    cyl = rubble.CoarseGrain((0, -h / 2, LO[1]), (0.04, 2 * np.pi - h / 2, HI[1]), (n, 72, 1),
                             0.002, coordinates="cylindrical", axis="y", average="z")
    car = rubble.CoarseGrain((-1e-3, LO[1], -0.04), (1e-3, HI[1], 0), (1, 1, n), 0.002,
                             average="y")
    a, b = cyl.add(drum).fields(), car.add(drum).fields()
    turn, sign = [2, 0, 1], np.array([-1.0, -1.0, 1.0])
    at = lambda x: x[36, :]  # noqa: E731 (theta = 36 h = pi; r outwards)
    bt = lambda x: x[::-1, 0, 0]  # noqa: E731 (z from the centre down)
    assert bt(b.density).max() > 100  # grains there
    assert np.allclose(at(a.density[0]), bt(b.density), rtol=1e-12, atol=1e-9)
    vb = bt(b.velocity)[:, turn] * sign
    assert np.abs(at(a.velocity[0]) - vb).max() < 1e-12 * np.abs(vb).max()
    for key in ("stress", "contact_stress", "fabric"):
        tb = bt(getattr(b, key))[:, turn][:, :, turn] * sign[:, None] * sign[None, :]
        assert np.abs(at(getattr(a, key)[0]) - tb).max() < 1e-11 * np.abs(tb).max(), key
    assert np.abs(bt(b.contact_stress)).max() > 1  # contacts there
    wb = bt(b.wall_force)[:, turn] * sign  # the drum's wall: its force density, a vector
    assert np.abs(at(a.wall_force[0]) - wb).max() < 1e-12 * np.abs(wb).max()
    assert wb[:, 0].max() > 1e3  # pressed outwards (t_r > 0) at the drum's shell


def test_the_same_bits_on_one_and_two_threads(tmp_path):
    fields = []
    for threads in (1, 2):
        (tmp_path / str(threads)).mkdir()
        run = rotating(tmp_path / str(threads), lambda p: (p**2).sum(1) < 0.01**2, (0, 0, 1),
                       (0, 0, 0), threads=threads)
        cg = rubble.CoarseGrain((0, 0, 0), (0.012, np.pi, 2 * np.pi), (12, 12, 24), C,
                                coordinates="spherical")
        fields.append(cg.add(run).fields())
        run.close()
    for key in ("density", "velocity", "stress", "fabric"):
        assert np.array_equal(getattr(fields[0], key), getattr(fields[1], key)), key


def test_bad_coordinates_are_refused(tmp_path):
    from test_cg import BED
    cases = {
        "cg: {cells: [2, 4, 4], width: 0.001, coordinates: cylindrical}": "need 'min' and 'max'",
        "cg: {cells: [2, 4, 4], width: 0.001, coordinates: polar}": "'coordinates'",
        "cg: {cells: [2, 4, 4], width: 0.001, axis: y}": "'axis' is for cylindrical",
    }
    for bad, message in cases.items():
        text = BED.replace("STEPS", "10").replace("OUTPUT", "every: 0.001, " + bad)
        with pytest.raises(rubble.Error) as e:
            rubble.Run.from_yaml(text, name=str(tmp_path / "bad.yaml"), output=tmp_path / "x")
        assert e.value.line == 11 and message in e.value.message, e.value.message
    for lo, hi, kind, average, message in [
            ((-1, 0, 0), (1, 1, 1), "cylindrical", (), "r >= 0"),
            ((0, 0, 0), (1, 7, 1), "cylindrical", (), "more than 2 pi"),
            ((0, 0, 0), (1, 4, 1), "spherical", (), "theta within 0 .. pi"),
            ((0, 0, 0), (1, 1, 1), "cylindrical", "x", "only along a cylinder's axis")]:
        with pytest.raises(rubble.Error, match=message):
            rubble.CoarseGrain(lo, hi, (1, 1, 1), 0.1, coordinates=kind, average=average)
