"""output.contacts for studies (issue 74): the columns force-chain and rheology studies read
(the tangential spring, the sliding flag, the rolling torque, the age) checked against the
law they come from; the filters (region, materials, walls or grains, |F_n|) keep exactly the rows of
the unfiltered table that they should; the binary table holds the .csv's numbers bit for bit,
the same bytes on 1 and 2 threads, and a crafted or truncated one is refused."""
import os
import struct

import numpy as np
import pytest

import rubble
from rubble import frames

# under the sanitizers (RBL_TEST_SLOW_BUILD) one thread only: the release pass compares 1 and 2
SLOW = bool(os.environ.get("RBL_TEST_SLOW_BUILD"))

# a bed of two materials dropped on a floor, friction and epsd2 rolling resistance, the
# tangential spring undamped (gamma_t 0): a sliding contact's force is then -k_t s exactly
KN, MU, MU_R = 2000.0, 0.3, 0.1
KT = 2.0 / 7.0 * KN
SCENE = f"""\
domain: {{min: [0, 0, -0.001], max: [0.01, 0.01, 0.03], periodic: [x, y]}}
gravity: [0, 0, -9.81]
materials:
  - {{name: glass, density: 2500}}
  - {{name: steel, density: 7800}}
contact: {{normal: linear, tangential: spring, kn: {KN}, restitution: 0.3, friction: {MU},
          rolling: {{model: ROLLING, friction: {MU_R}}}}}
walls:
  - {{point: [0, 0, 0], normal: [0, 0, 1], material: glass}}
grains:
  - lattice: {{min: [0, 0, 0], max: [0.01, 0.01, 0.006]}}
    radius: 0.001
    velocity_spread: 0.05
    material: glass
  - random: {{min: [0, 0, 0.01], max: [0.01, 0.01, 0.02], count: 60}}
    radius: {{distribution: uniform, min: 0.0008, max: 0.001}}
    material: steel
run: {{steps: 6000, dt: auto, c: 0.05}}
output: {{every: 0.01, fields: [id, radius, velocity, mass, material, contact_force, contact_torque], contacts: CONTACTS}}
"""
ALL = "{format: [csv, bin, vtp], columns: [spring, sliding, rolling_torque, age]}"
FILTER = ("{format: [csv, bin], columns: [spring, sliding, rolling_torque, age], "
          "region: {cylinder: {from: [0.005, 0.005, -0.001], to: [0.005, 0.005, 0.01], "
          "radius: 0.004}}, materials: [steel], min_normal_force: 2.5e-4}")


def run(tmp_path, name, contacts, threads=1, rolling="epsd2"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(SCENE.replace("CONTACTS", contacts).replace("ROLLING", rolling))
    r = rubble.Run(path, output=tmp_path / name, threads=threads)
    r.step(r.total_steps)
    r.close()
    return tmp_path / name


def frames_of(folder, ext):
    return sorted(folder / n for n in os.listdir(folder)
                  if n.startswith("contacts_") and n.endswith(ext))


@pytest.mark.parametrize("rolling", ["epsd2", "cdt"])
def test_columns_follow_the_law_and_the_forces_sum(tmp_path, rolling):
    """epsd2's torque is its spring's, read from the history; cdt keeps none, its torque is
    the contact's torque less the tangential force's moment: both sum to contact_torque."""
    out = run(tmp_path, "all", ALL, rolling=rolling)
    sliding = sticking = 0
    for csv in frames_of(out, ".csv"):
        t, b = frames.read_table(csv), frames.read_table(str(csv)[:-4] + ".bin")
        assert sorted(t) == sorted(b)  # the binary table: the .csv's numbers, bit for bit
        for k in t:
            assert t[k].dtype == b[k].dtype and np.array_equal(t[k], b[k]), k
        v = frames.read(str(csv)[:-4] + ".vtp").cell_data
        for k, c in (("spring", "spring"), ("rolling_torque", "rolling_torque"),
                     ("sliding", "sliding"), ("normal_force", "fn"), ("age", "age")):
            assert np.array_equal(v[k], t[c]), k
        if not len(t["ids"]):  # the first frame: none yet
            continue
        fn = np.linalg.norm(t["fn"], axis=1)
        ft = np.linalg.norm(t["ft"], axis=1)
        # undamped spring: the tangential force is -k_t s, sliding or not
        assert np.allclose(t["ft"], -KT * t["spring"], rtol=0, atol=1e-12 * fn.max())
        s = t["sliding"] == 1
        assert np.all(np.abs(ft[s] - MU * fn[s]) <= 1e-9 * MU * fn[s])  # at the limit
        assert np.all(ft[~s] < MU * fn[~s] * (1 - 1e-9))  # within it
        sliding, sticking = sliding + s.sum(), sticking + (~s).sum()
        # epsd2: a bending moment in the tangent plane, within mu_r |F_n| R*
        m = t["rolling_torque"]
        assert np.all(np.abs((m * t["normal"]).sum(1)) <= 1e-12 * (np.abs(m).max() + 1e-30))
        g = frames.read(out / csv.name.replace("contacts", "grains").replace(".csv", ".vtp"))
        r = dict(zip(g.point_data["id"].tolist(), g.point_data["radius"]))
        ri = np.array([r[i] for i in t["ids"][:, 0]])
        rj = np.array([r[j] if j >= 0 else np.inf for j in t["ids"][:, 1]])
        reff = np.where(np.isinf(rj), ri, ri * rj / (ri + rj))
        if rolling == "epsd2":
            assert np.all(np.linalg.norm(m, axis=1) <= MU_R * fn * reff * (1 + 1e-12))
        # sum rules: each grain's contacts sum to its contact_force (1e-13 of the largest),
        # their forces' moments at the contact points and the rolling torques (on the first
        # grain, its opposite on the second) to its contact_torque (1e-12)
        index = {int(i): k for k, i in enumerate(g.point_data["id"])}
        net, torque = np.zeros((len(index), 3)), np.zeros((len(index), 3))
        f = t["fn"] + t["ft"]
        for (a, c), fc, p, br, mc in zip(t["ids"], f, t["point"], t["branch"], m):
            x = g.points[index[a]]
            net[index[a]] += fc
            torque[index[a]] += np.cross(p - x, fc) + mc
            if c >= 0:
                net[index[c]] -= fc
                torque[index[c]] -= np.cross(p - (x + br), fc) + mc
        scale = np.abs(g.point_data["contact_force"]).max()
        assert np.abs(net - g.point_data["contact_force"]).max() <= 1e-13 * scale
        tscale = np.abs(g.point_data["contact_torque"]).max()
        assert np.abs(torque - g.point_data["contact_torque"]).max() <= 1e-12 * tscale
    assert sliding > 20 and sticking > 100  # both kinds seen


def keep(t, material, alone=None):
    """The rows FILTER keeps, from the unfiltered table and the grains' materials (alone:
    by its region (0), materials (1) or force (2) only)."""
    p = t["point"]
    in_cyl = (np.hypot(p[:, 0] - 0.005, p[:, 1] - 0.005) <= 0.004) & (p[:, 2] >= -0.001) & \
        (p[:, 2] <= 0.01)
    steel = np.array([material[i] == 1 or (j >= 0 and material[j] == 1) for i, j in t["ids"]],
                     dtype=bool)
    strong = np.linalg.norm(t["fn"], axis=1) >= 2.5e-4
    return (in_cyl, steel, strong)[alone] if alone is not None else in_cyl & steel & strong


def test_filters_keep_their_rows_on_any_thread_count(tmp_path):
    whole = run(tmp_path, "whole", ALL)
    part = run(tmp_path, "part", FILTER, threads=1 if SLOW else 2)
    again = part if SLOW else run(tmp_path, "again", FILTER, threads=1)
    kept, out_by = 0, [0, 0, 0]
    for csv in frames_of(whole, ".csv"):
        for ext in (".csv", ".bin"):  # 1 and 2 threads: the same bytes
            name = csv.name[:-4] + ext
            assert (part / name).read_bytes() == (again / name).read_bytes()
        g = frames.read(whole / csv.name.replace("contacts", "grains").replace(".csv", ".vtp"))
        material = dict(zip(g.point_data["id"].tolist(), g.point_data["material"].tolist()))
        t, f = frames.read_table(csv), frames.read_table(part / csv.name)
        rows = keep(t, material)
        for c in range(3):  # each of the three tests leaves some out
            out_by[c] += (~keep(t, material, c)).sum()
        # the filtered rows are the unfiltered rows the filter keeps, in their order
        for k in t:
            assert np.array_equal(f[k], t[k][rows]), k
        kept += rows.sum()
        lines = (whole / csv.name).read_text().splitlines()
        assert (part / csv.name).read_text().splitlines() == \
            [lines[0]] + [l for l, k in zip(lines[1:], rows) if k]
    assert kept > 20 and min(out_by) > 20, (kept, out_by)
    walls = run(tmp_path, "walls", "{format: csv, only: walls}")
    grains = run(tmp_path, "grains", "{format: csv, only: grains}")
    for csv in frames_of(whole, ".csv"):
        t = frames.read_table(csv)
        w, p = frames.read_table(walls / csv.name), frames.read_table(grains / csv.name)
        assert np.array_equal(w["ids"], t["ids"][t["wall"] >= 0])
        assert np.array_equal(p["ids"], t["ids"][t["wall"] < 0])


def test_bad_keys_are_refused_at_their_line(tmp_path):
    path = tmp_path / "bad.yaml"
    for contacts, says in (
            ("{columns: [spring, age2]}", "no contact column of this name: 'age2'"),
            ("{columns: [sprng]}", "did you mean 'spring'"),
            ("{format: [csv, csv]}", "'csv' is listed twice"),
            ("{format: xml}", "'contacts' takes vtp, csv, bin"),
            ("{only: both}", "'only' takes grains or walls: 'both'"),
            ("{materials: [glas]}", "no material of this name: 'glas'"),
            ("{min_normal_force: -1}", "min_normal_force"),
            ("{region: {min: [0, 0, 0], max: [1, 1, -1]}}", "max must exceed min"),
            ("{region: {sphere: {centre: [0, 0, 0]}}}", "radius"),
            ("{colour: red}", "colour")):
        path.write_text(SCENE.replace("CONTACTS", contacts).replace("ROLLING", "epsd2"))
        with pytest.raises(rubble.Error) as e:
            rubble.Run(path, output=tmp_path / "bad")
        assert says in e.value.message, (contacts, e.value.message)
        assert e.value.line >= 19, (contacts, e.value.line)


def test_a_crafted_or_truncated_table_is_refused(tmp_path):
    out = run(tmp_path, "b", "{format: bin, columns: [sliding]}")
    good = frames_of(out, ".bin")[-1].read_bytes()
    bad = tmp_path / "x.bin"
    cases = [(good[:-1], "truncated or not whole"), (good[:40], "truncated"),
             (b"RBLCONTX" + good[8:], "not a contact table"),
             (good[:8] + struct.pack("<I", 2) + good[12:], "version 2"),
             # rows claimed by the header beyond the file: refused before any allocation
             (good[:16] + struct.pack("<Q", 2**62) + good[24:], "truncated or not whole"),
             (good[:12] + struct.pack("<I", 2**31) + good[16:], "columns"),
             (good[:32 + 24] + b"z" + good[32 + 25:], "not a contact table's column")]
    for data, says in cases:
        bad.write_bytes(data)
        with pytest.raises(ValueError) as e:
            frames.read_table(bad)
        assert says in str(e.value) and "x.bin" in str(e.value), (says, str(e.value))


def test_coarse_graining_reads_a_table_with_columns(tmp_path):
    """rubble cg from a .csv with the study columns = from the plain one, byte for byte."""
    files = []
    for name, contacts in (("plain", "csv"), ("study", "{format: csv, columns: [spring, "
                                                        "sliding, rolling_torque]}")):
        out = run(tmp_path, name, contacts)
        cg = rubble.coarse_grain(tmp_path / f"{name}.yaml", out / "grains_000004.vtp",
                                 output=tmp_path / f"cg_{name}",
                                 cg={"cells": [4, 4, 8], "width": 0.002})
        assert cg.outputs == 1
        files.append(open(cg.files[0], "rb").read())
    assert files[0] == files[1]


def test_ages_count_the_steps_a_contact_lasted(tmp_path):
    """A contact's age is the force evaluations it touched in: from one frame to the next, a
    contact that lasted is older by the steps between (one that parted and touched again is
    younger), none older than the run; a restart at an odd step carries them (the same
    bytes), a restart that adds the column marks the contacts touching then unknown (-1)."""
    path = tmp_path / "age.yaml"
    text = SCENE.replace("ROLLING", "epsd2").replace(
        "CONTACTS", "{format: csv, columns: [age]}, checkpoint_every: 0.0151")
    path.write_text(text.replace("every: 0.01,", "every: 0.005,"))
    r = rubble.Run(path, output=tmp_path / "a", threads=1)
    r.step(r.total_steps)
    dt = r.dt
    r.close()
    out = tmp_path / "a"
    tables = [frames.read_table(f) for f in frames_of(out, ".csv")]
    at = [round(t / dt) for t, _ in frames.read_pvd(out / "grains.pvd")]  # the frames' steps
    lasted = younger = 0
    for k, (a, b) in enumerate(zip(tables[:-1], tables[1:])):
        between = at[k + 1] - at[k]
        assert np.all(b["age"] >= 1) and np.all(b["age"] <= at[k + 1] + 1)
        was = {(i, j, w): g for (i, j), w, g in zip(a["ids"].tolist(), a["wall"], a["age"])}
        for (i, j), w, g in zip(b["ids"].tolist(), b["wall"], b["age"]):
            if (i, j, w) in was:  # the same contact, or one that parted and touched again
                assert g == was[(i, j, w)] + between or g <= between
                lasted += g == was[(i, j, w)] + between
                younger += g <= between
            else:  # begun since the last frame
                assert g <= between
    assert lasted > 80 and younger > 10, (lasted, younger)
    # a restart from the odd step's checkpoint: the frames after it, the same bytes
    ckpt = sorted(n for n in os.listdir(out) if n.startswith("checkpoint_"))[0]
    r = rubble.Run(path, output=tmp_path / "b", restart=out / ckpt, threads=1)
    r.step(r.total_steps - r.step_count)
    r.close()
    names = [n for n in os.listdir(tmp_path / "b") if n.startswith("contacts_")]
    assert len(names) >= 2
    for n in names:
        assert (tmp_path / "b" / n).read_bytes() == (out / n).read_bytes(), n
    # a restart that adds the column: the contacts touching then are of unknown age
    plain = tmp_path / "plain.yaml"
    plain.write_text(text.replace("{format: csv, columns: [age]}", "csv")
                     .replace("every: 0.01,", "every: 0.005,"))
    r = rubble.Run(plain, output=tmp_path / "c", threads=1)
    r.step(r.total_steps)
    r.close()
    r = rubble.Run(path, output=tmp_path / "d", restart=tmp_path / "c" / ckpt, threads=1)
    r.step(r.total_steps - r.step_count)
    r.close()
    t = frames.read_table(frames_of(tmp_path / "d", ".csv")[0])  # the first after it
    assert np.any(t["age"] == -1) and np.any(t["age"] >= 1)
