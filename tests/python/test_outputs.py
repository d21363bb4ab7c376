"""What a frame holds (issue 43): the per-grain fields a scene chooses, and the contact
network, as lines for ParaView and as a table, checked against the grains' own forces and
torques and the run's contact list; read back with rubble.frames."""
import os

import numpy as np
import pytest

import rubble
from rubble import frames
from hopper_scene import hopper_text

# under the sanitizers (gcc's ASan and UBSan preloaded) the longest runs are the release
# pass's
release_only = pytest.mark.skipif(bool(os.environ.get("RBL_TEST_SLOW_BUILD")),
                                  reason="long: run by the release pass")

SCENE = """\
domain: {min: [0, 0, -0.001], max: [0.01, 0.01, 0.03], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials:
  - {name: glass, density: 2500}
  - {name: steel, density: 7800}
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.3, friction: 0.5}
walls:
  - {point: [0, 0, 0], normal: [0, 0, 1], material: glass}
grains:
  - lattice: {min: [0, 0, 0], max: [0.01, 0.01, 0.006]}
    radius: 0.001
    velocity_spread: 0.05
    material: glass
  - random: {min: [0, 0, 0.01], max: [0.01, 0.01, 0.02], count: 60}
    radius: {distribution: uniform, min: 0.0008, max: 0.001}
    material: steel
run: {steps: 15000, dt: auto, c: 0.05}
output: {every: 0.02, OUTPUT}
"""


def scene(tmp_path, output, text=SCENE, name="scene.yaml"):
    path = tmp_path / name
    path.write_text(text.replace("OUTPUT", output))
    return path


def last_frame(folder, prefix):
    names = sorted(n for n in os.listdir(folder) if n.startswith(prefix + "_") and
                   n.endswith(".vtp"))
    return os.path.join(folder, names[-1])


def test_the_fields_chosen_and_only_those(tmp_path):
    run = rubble.Run(scene(tmp_path, "fields: [id, mass, material, kinetic_energy, "
                           "contact_torque]"), output=tmp_path / "o", threads=1)
    run.step(run.total_steps)
    g = run.grains()
    f = frames.read(last_frame(tmp_path / "o", "grains"))
    assert sorted(f.point_data) == ["contact_torque", "id", "kinetic_energy", "mass",
                                    "material"]
    order = np.argsort(g.id)
    assert np.array_equal(f.point_data["id"], g.id[order])  # id order
    assert np.array_equal(f.points, g.position[order])
    assert np.array_equal(f.point_data["mass"], g.mass[order])
    # material: the index in the scene's list; the random grains are steel (1)
    assert set(np.unique(f.point_data["material"])) == {0, 1}
    assert np.all(f.point_data["material"][f.point_data["mass"] > 2 * g.mass.min()] == 1)
    v, w, m, r = g.velocity[order], g.spin[order], g.mass[order], g.radius[order]
    ke = 0.5 * m * (v * v).sum(1) + 0.2 * m * r * r * (w * w).sum(1)
    assert np.allclose(f.point_data["kinetic_energy"], ke, rtol=1e-14, atol=0)
    run.close()
    with pytest.raises(rubble.Error) as e:
        rubble.Run(scene(tmp_path, "fields: [id, speed]"), output=tmp_path / "bad")
    assert e.value.line == 18 and "no grain field of this name: 'speed'" in e.value.message
    assert "kinetic_energy" in e.value.message  # the names it knows
    with pytest.raises(rubble.Error) as e:
        rubble.Run(scene(tmp_path, "fields: [id, mass, id]"), output=tmp_path / "bad")
    assert "'id' is listed twice" in e.value.message
    with pytest.raises(rubble.Error) as e:
        rubble.Run(scene(tmp_path, "fields: []"), output=tmp_path / "bad")
    assert "'fields' must be a name or a list of names" in e.value.message
    with pytest.raises(rubble.Error) as e:
        rubble.Run(scene(tmp_path, "contacts: json"), output=tmp_path / "bad")
    assert "'contacts' takes vtp, csv, [vtp, csv] or false: 'json'" in e.value.message
    assert not (tmp_path / "bad").exists()


def test_default_fields(tmp_path):
    run = rubble.Run(scene(tmp_path, "contacts: false"), output=tmp_path / "o", threads=1,
                     steps=10)
    run.step(10)
    run.close()
    f = frames.read(last_frame(tmp_path / "o", "grains"))
    assert list(f.point_data) == ["radius", "velocity", "angular_velocity", "id",
                                  "contact_force", "contacts", "clump", "stress", "mass"]
    assert f.point_data["contact_force"].shape[1] == 3
    assert not [n for n in os.listdir(tmp_path / "o") if n.startswith("contacts")]


def network_checks(g, c, t, contacts):
    """The network c (a .vtp read back) and table t against the grain frame g and the run's
    list: the same contacts, forces summing to each grain's contact force and torque."""
    ids = g.point_data["id"]
    index = {int(i): k for k, i in enumerate(ids)}
    n_pairs = int(np.sum(c.cell_data["wall"] < 0))
    assert n_pairs == len(contacts.ids) and len(t["ids"]) == n_pairs + len(contacts.wall_grain)
    assert np.array_equal(c.cell_data["id1"][:n_pairs], contacts.ids[:, 0])
    assert np.array_equal(c.cell_data["id2"][:n_pairs], contacts.ids[:, 1])
    assert np.all(c.cell_data["id2"][n_pairs:] == -1)
    # the files number walls as thermo.csv's wallK_* and walls.vtp do, from 1; the C list
    # (run.contacts()) from 0
    assert np.array_equal(c.cell_data["wall"][n_pairs:], contacts.wall + 1)
    fn, ft = c.cell_data["normal_force"], c.cell_data["tangential_force"]
    assert np.array_equal(fn, np.concatenate([contacts.fn, contacts.wall_fn]))
    assert np.array_equal(ft, np.concatenate([contacts.ft, contacts.wall_ft]))
    # the table holds the same numbers (printed exactly)
    assert np.array_equal(t["ids"][:, 0], c.cell_data["id1"])
    assert np.array_equal(t["fn"], fn) and np.array_equal(t["ft"], ft)
    assert np.array_equal(t["point"], c.cell_data["point"])
    assert np.array_equal(t["overlap"], c.cell_data["overlap"])
    # each line runs from the first grain's centre; a pair's never crosses the box (the
    # second's nearest image), a wall contact's ends on the wall
    ends = c.points[c.lines]
    first = g.points[[index[int(i)] for i in c.cell_data["id1"]]]
    assert np.array_equal(ends[:, 0], first)
    assert np.allclose(ends[:, 1] - ends[:, 0], t["branch"], rtol=0, atol=1e-15)
    radius = g.point_data["radius"]
    r1 = radius[[index[int(i)] for i in c.cell_data["id1"]]]
    length = np.linalg.norm(t["branch"], axis=1)
    r2 = np.array([radius[index[int(j)]] if j >= 0 else 0.0 for j in c.cell_data["id2"]])
    assert np.allclose(length, r1 + r2 - c.cell_data["overlap"], rtol=1e-12)
    # the Tube filter's radius: |f| at both ends of each line
    f = fn + ft
    assert np.allclose(c.point_data["force"].reshape(-1, 2).T, np.linalg.norm(f, axis=1))
    # per grain: the contacts' forces and torques are its contact force and torque
    net, torque = np.zeros((len(ids), 3)), np.zeros((len(ids), 3))
    count = np.zeros(len(ids), int)
    centre = ends[:, 0]
    for k, (a, b) in enumerate(zip(c.cell_data["id1"], c.cell_data["id2"])):
        i = index[int(a)]
        net[i] += f[k]
        torque[i] += np.cross(c.cell_data["point"][k] - centre[k], f[k])
        count[i] += 1
        if b >= 0:
            j = index[int(b)]
            net[j] -= f[k]
            torque[j] -= np.cross(c.cell_data["point"][k] - ends[k, 1], f[k])
            count[j] += 1
    scale = np.abs(g.point_data["contact_force"]).max()
    assert np.abs(net - g.point_data["contact_force"]).max() <= 1e-13 * scale
    tscale = np.abs(g.point_data["contact_torque"]).max()
    assert np.abs(torque - g.point_data["contact_torque"]).max() <= 1e-12 * tscale
    assert np.array_equal(count, g.point_data["contacts"])


def test_the_network_sums_to_each_grains_force_and_torque(tmp_path):
    """A periodic bed of two materials settling on a floor: every frame's network, read
    back, is the run's contact list; each grain's contacts sum to its contact force (1e-13)
    and torque (1e-12) and count its contacts."""
    run = rubble.Run(scene(tmp_path, "contacts: [vtp, csv], fields: [id, radius, "
                           "contact_force, contact_torque, contacts]"),
                     output=tmp_path / "o", threads=2)
    run.step(run.total_steps)
    run.write_frame()  # at the end: the state run.contacts() lists
    out = tmp_path / "o"
    g = frames.read(last_frame(out, "grains"))
    c = frames.read(last_frame(out, "contacts"))
    t = frames.read_table(last_frame(out, "contacts")[:-4] + ".csv")
    contacts = run.contacts()
    assert len(contacts.ids) > 100 and len(contacts.wall_grain) > 15
    network_checks(g, c, t, contacts)
    assert (out / "contacts.pvd").read_text().count("<DataSet") == run.summary()["frames"]
    assert run.summary()["network_files"] == "contacts.pvd, contacts_NNNNNN.csv"
    run.close()


@release_only
def test_the_network_of_a_mesh_hopper_on_any_thread_count(tmp_path):
    """The hopper example (an STL mesh, a periodic axis; tests/python/hopper_scene.py's small
    one), 9000 steps on one and two threads: the same bytes, the same checks."""
    text = hopper_text(output="{every: 0.02, contacts: [vtp, csv], fields: [id, radius, "
                       "contact_force, contact_torque, contacts]}")
    files = []
    for threads in (1, 2):
        run = rubble.Run.from_yaml(text, name=os.path.join(str(tmp_path), "hopper.yaml"),
                                   output=tmp_path / str(threads), threads=threads, steps=9000)
        run.step(9000)
        out = tmp_path / str(threads)
        name = last_frame(out, "contacts")
        files.append([open(name, "rb").read(), open(name[:-4] + ".csv", "rb").read()])
        g, c = frames.read(last_frame(out, "grains")), frames.read(name)
        contacts = run.contacts()
        assert len(contacts.ids) > 30 and len(contacts.wall_grain) > 5
        assert set(c.cell_data["wall"][c.cell_data["wall"] >= 0]) == {1}  # the one mesh
        run.close()
        # the last frame was at the last multiple of the frame interval, not at the end:
        # its own contacts, checked by the sums alone
        t = frames.read_table(name[:-4] + ".csv")
        ids = g.point_data["id"]
        index = {int(i): k for k, i in enumerate(ids)}
        net = np.zeros((len(ids), 3))
        f = t["fn"] + t["ft"]
        for k, (a, b) in enumerate(t["ids"]):
            net[index[int(a)]] += f[k]
            if b >= 0:
                net[index[int(b)]] -= f[k]
        scale = np.abs(g.point_data["contact_force"]).max()
        assert np.abs(net - g.point_data["contact_force"]).max() <= 1e-13 * scale
    assert files[0] == files[1]


WALLIDX = """\
domain: {min: [0, 0, -0.001], max: [0.01, 0.01, 0.02], periodic: [x, y]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: 1000, restitution: 0.5, friction: 0.5}
walls:
  - {point: [0, 0, 0], normal: [0, 0, 1]}
  - {point: [0, 0, 0.015], normal: [0, 0, -1]}
grains:
  - lattice: {min: [0, 0, 0.0005], max: [0.01, 0.01, 0.004]}
    radius: 0.0005
run: {steps: 30000, dt: auto}
output: {folder: out, every: 1.0, contacts: [vtp, csv]}
"""


def test_contact_files_number_walls_as_thermo_does(tmp_path):
    """A floor (thermo.csv's wall1) carries a bed; a ceiling (wall2) touches nothing. The
    contact files' `wall` of every floor contact is 1, and their normal forces sum to
    -wall1_fz. Before the fix the files said 0 (issue 69, newcomer/wallidx.yaml)."""
    run = rubble.Run.from_yaml(WALLIDX, name=str(tmp_path / "w.yaml"), output=tmp_path / "o",
                               threads=1)
    run.step(30000)
    run.write_frame()
    run.write_thermo()
    out = tmp_path / "o"
    c = frames.read(last_frame(out, "contacts"))
    t = frames.read_table(last_frame(out, "contacts")[:-4] + ".csv")
    th = np.genfromtxt(out / "thermo.csv", delimiter=",", names=True)[-1]
    on_wall = c.cell_data["wall"] >= 0
    assert on_wall.sum() > 10
    assert set(c.cell_data["wall"][on_wall]) == {1}
    assert set(t["wall"][t["wall"] >= 0]) == {1}
    fz = c.cell_data["normal_force"][on_wall, 2].sum()
    assert th["wall1_fz"] == pytest.approx(-fz, rel=1e-7)  # as thermo.csv prints it
    assert th["wall2_fz"] == 0
    run.close()


RESTART = """\
domain: {min: [0, 0, -0.001], max: [0.006, 0.006, 0.02], periodic: [x]}
gravity: [0, -4, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, tangential: spring, kn: 2000, restitution: 0.3, friction: 0.5}
walls:
  - {mesh: floor.stl}
  - {point: [0, 0, 0], normal: [0, 1, 0]}
  - {point: [0, 0.006, 0], normal: [0, -1, 0]}
grains:
  - lattice: {min: [0, 0, 0], max: [0.006, 0.006, 0.006]}
    radius: 0.0005
    velocity_spread: 0.002
run: {steps: 4000, dt: auto}
output: {every: 0.02, fields: [id, contact_force], contacts: csv}
"""


def floor_stl(path, side):
    """A floor at z = 0 over [0, side]^2: two facets."""
    c = [(0, 0, 0), (side, 0, 0), (side, side, 0), (0, side, 0)]
    text = "solid floor\n"
    for tri in ((0, 1, 2), (0, 2, 3)):
        text += "facet normal 0 0 1\nouter loop\n"
        text += "".join("vertex %r %r %r\n" % c[k] for k in tri)
        text += "endloop\nendfacet\n"
    path.write_text(text + "endsolid floor\n")


def restart_scene(tmp_path):
    floor_stl(tmp_path / "floor.stl", 0.006)
    path = tmp_path / "restart.yaml"
    path.write_text(RESTART)
    return path


def last_of(folder, prefix, ext):
    return sorted(str(folder / n) for n in os.listdir(folder)
                  if n.startswith(prefix + "_") and n.endswith(ext))[-1]


def what_a_restart_reads(run, folder):
    """What reads the last force evaluation's contacts: contacts(), a frame's contact_force
    and its contacts table, coarse-graining's contact stress, the mesh's loads per facet."""
    c = run.contacts()
    run.write_frame()
    cg = rubble.CoarseGrain((0, 0, -0.001), (0.006, 0.006, 0.013), (6, 6, 14), 0.001)
    cg.add(run)
    f = frames.read(last_of(folder, "grains", ".vtp"))
    order = np.argsort(f.point_data["id"])
    with open(last_of(folder, "contacts", ".csv"), "rb") as table:
        csv = table.read()
    return dict(c=c, contact_force=f.point_data["contact_force"][order], csv=csv,
                stress=cg.fields().contact_stress, loads=run.mesh_loads(0))


def test_a_restart_reads_the_forces_of_the_step_it_starts_at(tmp_path):
    """Restarted from a checkpoint at step 3037, before any step: the contacts' forces (fn,
    ft, grain and wall contacts), a frame's contact_force and contacts table, the coarse-
    grained contact stress and the mesh's loads per facet are the uninterrupted run's, bit for
    bit; and the run goes on in its bits. Before checkpoint format 14 the forces read zero
    until the first step (issue 69: the per-contact results were not in the checkpoint)."""
    path = restart_scene(tmp_path)
    whole = rubble.Run(path, output=tmp_path / "a", threads=1)
    whole.step(3037)
    ck = whole.write_checkpoint()
    a = what_a_restart_reads(whole, tmp_path / "a")
    whole.step(400)
    end = whole.grains()
    order = np.argsort(end.id)
    end_pos, end_force = end.position[order].copy(), end.force[order].copy()
    whole.close()
    assert len(a["c"].fn) > 40 and np.abs(a["c"].fn).max() > 0
    assert (a["c"].wall == 0).sum() > 5 and (a["c"].wall == 2).sum() > 10  # a plane, the mesh
    assert np.abs(a["c"].wall_ft).max() > 0 and np.abs(a["stress"]).max() > 0
    assert np.abs(a["loads"].force).max() > 0

    again = rubble.Run(path, output=tmp_path / "b", restart=ck, threads=2)
    b = what_a_restart_reads(again, tmp_path / "b")
    for k in ("ids", "fn", "ft", "wall_grain", "wall", "wall_fn", "wall_ft", "wall_point"):
        assert getattr(a["c"], k).tobytes() == getattr(b["c"], k).tobytes(), k
    assert a["contact_force"].tobytes() == b["contact_force"].tobytes()
    assert a["csv"] == b["csv"]
    assert a["stress"].tobytes() == b["stress"].tobytes()
    for k in ("force", "pressure", "shear"):
        assert getattr(a["loads"], k).tobytes() == getattr(b["loads"], k).tobytes(), k
    again.step(400)
    g = again.grains()
    order = np.argsort(g.id)
    assert g.position[order].tobytes() == end_pos.tobytes()
    assert g.force[order].tobytes() == end_force.tobytes()
    again.close()


RESTART_MPI = """
import sys
import rubble
what, ck = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None
if what == "write":  # the run to step 3037, its checkpoint then its frame there
    run = rubble.Run("restart.yaml", output="w", threads=1)
    run.step(3037)
    run.write_checkpoint()
    run.write_frame()
else:  # restarted from it: the frame at that step, before any step
    run = rubble.Run("restart.yaml", output=what, restart=ck, threads=1)
    run.write_frame()
run.close()
"""


def contact_rows(folder, frame):
    """The rows of a frame's contacts table, its pieces (one per process) together, sorted."""
    rows = []
    for name in sorted(os.listdir(folder)):
        if name.startswith(frame) and name.endswith(".csv"):
            with open(folder / name) as f:
                rows += f.read().splitlines()[1:]
    return sorted(rows)


@release_only
@pytest.mark.skipif(not os.environ.get("MPIEXEC"), reason="no mpirun (MPIEXEC unset)")
def test_a_checkpoint_of_3_processes_restarts_on_2_and_1_with_its_forces(tmp_path):
    """A checkpoint written by 3 processes at step 3037, restarted on 2 (read apart: each
    contact's results travel with its history to the processes holding its grains) and on 1
    (read whole), writes before any step the contacts table one process writes at that step,
    row for row; before checkpoint format 14 its forces were zeros (issue 69)."""
    import subprocess
    import sys
    restart_scene(tmp_path)
    (tmp_path / "run.py").write_text(RESTART_MPI)
    mpi = [os.environ["MPIEXEC"], "--allow-run-as-root", "--oversubscribe", "-np"]
    env = dict(os.environ, OMP_NUM_THREADS="1")

    def job(np_, *args):
        cmd = (mpi + [str(np_)] if np_ > 1 else []) + [sys.executable, "run.py", *args]
        p = subprocess.run(cmd, cwd=tmp_path, timeout=300, capture_output=True, text=True,
                           env=env)
        assert p.returncode == 0, p.stdout + p.stderr

    one = rubble.Run(tmp_path / "restart.yaml", output=tmp_path / "one", threads=1)
    one.step(3037)
    one.write_checkpoint()
    one.write_frame()
    one.close()
    frame = os.path.basename(last_of(tmp_path / "one", "contacts", ".csv"))[:-4]
    want = contact_rows(tmp_path / "one", frame)
    assert len(want) > 40 and any(float(r.split(",")[11]) != 0 for r in want)  # fn_z
    job(3, "write")
    ck = last_of(tmp_path / "w", "checkpoint", ".bin")
    assert contact_rows(tmp_path / "w", frame) == want
    job(2, "on2", ck)
    job(1, "on1", ck)
    for out in ("on2", "on1"):
        got = contact_rows(tmp_path / out, frame)
        assert got == want, (out, [(a, b) for a, b in zip(got, want) if a != b][:3])
