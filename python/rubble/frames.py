"""Reading what a run writes into numpy, without VTK: the .vtp files (grains, contacts, walls
with their loads; raw appended binary, UInt64 headers) and the .pvtp that gathers several
processes' pieces, the contact tables (contacts_NNNNNN.csv), the coarse-grained fields
(cg_NNNNNN.vti) and profiles (cg_profile_NNNNNN.csv), thermo.csv and the .pvd series.

    from rubble import frames
    g = frames.read("out/grains_000010.vtp")        # or a .pvtp: its pieces in order
    g.points, g.point_data["contact_force"]         # (n, 3) arrays
    c = frames.read("out/contacts_000010.vtp")
    c.cell_data["normal_force"], c.lines            # (m, 3), (m, 2) point indices
    t = frames.read_table("out/contacts_000010.csv")  # columns by name
    w = frames.read("out/walls_000010.vtp")         # output.wall_loads: w.cell_data["force"]
    f = frames.read_vti("out/cg_000010.vti")        # f.stress: (nz, ny, nx, 3, 3)
    p = frames.read_profile("out/cg_profile_000010.csv")  # p.z, p.columns["stress_zz"]
    th = frames.read_thermo("out/thermo.csv")       # th["kinetic"]: a column
    frames.read_pvd("out/grains.pvd")               # [(time, path), ...]
"""
import os
import re
import struct
import types

import numpy as np

__all__ = ["read", "read_table", "read_vti", "read_profile", "read_thermo", "read_pvd"]

_TYPES = {"Float64": "<f8", "Float32": "<f4", "Int64": "<i8", "Int32": "<i4", "UInt32": "<u4",
          "UInt8": "<u1"}
_ARRAY = re.compile(rb'<DataArray type="(\w+)" Name="(\w+)"(?: NumberOfComponents="(\d+)")?'
                    rb' format="appended" offset="(\d+)"/>')


def _section(head, name):
    m = re.search(rb"<" + name + rb">(.*?)</" + name + rb">", head, re.S)
    return m.group(1) if m else b""


def _arrays(head, name, data):
    out = {}
    for type_, aname, comps, offset in _ARRAY.findall(_section(head, name)):
        at = int(offset)
        size = int(np.frombuffer(data, "<u8", 1, at)[0])
        a = np.frombuffer(data, _TYPES[type_.decode()], size // np.dtype(_TYPES[type_.decode()])
                          .itemsize, at + 8)
        k = int(comps or 1)
        out[aname.decode()] = a.reshape(-1, k) if k > 1 else a
    return out


def _raw(path):
    """A VTK XML file's head and its appended data."""
    with open(path, "rb") as f:
        raw = f.read()
    start = raw.find(b"<AppendedData")
    if start < 0 or raw.find(b"_", start) < 0:
        raise ValueError(f"{path}: not a VTK file with appended data, as rubble writes")
    data = raw[raw.index(b"_", start) + 1:]
    head = raw[:start]
    if b'byte_order="LittleEndian"' not in head or b'header_type="UInt64"' not in head:
        raise ValueError(f"{path}: not a frame rubble wrote (little-endian, UInt64 headers)")
    return head, data


def _read_vtp(path):
    head, data = _raw(path)
    points = _arrays(head, b"Points", data)["position"]
    kind = next((k for k in (b"Lines", b"Polys", b"Verts") if _section(head, k)), b"Verts")
    cells = _arrays(head, kind, data)
    conn, ends = cells["connectivity"], cells["offsets"]
    frame = types.SimpleNamespace(points=points.reshape(-1, 3),
                                  point_data=_arrays(head, b"PointData", data),
                                  cell_data=_arrays(head, b"CellData", data),
                                  lines=None, cells=(conn, ends))
    if kind == b"Lines" and len(ends) and np.all(np.diff(np.concatenate(([0], ends))) == 2):
        frame.lines = conn.reshape(-1, 2)
    return frame


def read(path):
    """A .vtp frame, or a .pvtp's pieces joined in order: .points (n x 3), .point_data and
    .cell_data (dicts of arrays, n x k for k components), .lines (m x 2 point indices, for a
    contact network), .cells (connectivity, offsets)."""
    path = os.fspath(path)
    if not path.endswith(".pvtp"):
        return _read_vtp(path)
    with open(path, "rb") as f:
        pieces = re.findall(rb'<Piece Source="([^"]+)"/>', f.read())
    parts = [_read_vtp(os.path.join(os.path.dirname(path), p.decode())) for p in pieces]
    shift = np.cumsum([0] + [len(p.points) for p in parts[:-1]])
    joined = types.SimpleNamespace(
        points=np.concatenate([p.points for p in parts]),
        point_data={k: np.concatenate([p.point_data[k] for p in parts])
                    for k in parts[0].point_data},
        cell_data={k: np.concatenate([p.cell_data[k] for p in parts])
                   for k in parts[0].cell_data},
        lines=None, cells=None)
    if all(p.lines is not None for p in parts):
        joined.lines = np.concatenate([p.lines + s for p, s in zip(parts, shift)])
    return joined


_BIN_MAGIC = b"RBLCONTS"
_BIN_TYPES = {(b"i", 8): "<i8", (b"i", 4): "<i4", (b"u", 1): "<u1", (b"f", 8): "<f8"}


def _read_bin(path):
    """A binary contact table (contacts_NNNNNN.bin, docs/formats.md "Contact table") as flat
    columns named as the .csv's; every count of the header held against the file's size before
    anything is read by it."""
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 32 or raw[:8] != _BIN_MAGIC:
        raise ValueError(f"{path}: not a contact table rubble wrote (no {_BIN_MAGIC.decode()} "
                         "header)")
    version, ncol, nrows, npairs = struct.unpack_from("<IIQQ", raw, 8)
    if version != 1:
        raise ValueError(f"{path}: a contact table of version {version}; this reader knows 1")
    if not 1 <= ncol <= 64 or 32 + 32 * ncol > len(raw):
        raise ValueError(f"{path}: {ncol} columns in a file of {len(raw)} bytes: truncated or "
                         "not a contact table")
    heads, size = [], 32 + 32 * ncol
    for k in range(ncol):
        at = 32 + 32 * k
        name = raw[at:at + 24].split(b"\0")[0].decode("ascii", "replace")
        kind, nbytes, comps, _ = struct.unpack_from("<ccHI", raw, at + 24)
        dtype = _BIN_TYPES.get((kind, nbytes[0]))
        if dtype is None or comps not in (1, 3) or not name.isidentifier():
            raise ValueError(f"{path}: column {k + 1} ('{name}'): type {kind!r} of {nbytes[0]} "
                             f"bytes, {comps} components: not a contact table's column")
        heads.append((name, dtype, comps, size))
        size += nrows * comps * nbytes[0]
    if size != len(raw) or npairs > nrows:
        raise ValueError(f"{path}: {len(raw)} bytes, where its header's {nrows} rows of {ncol} "
                         f"columns take {size}: truncated or not whole")
    col = {}
    for name, dtype, comps, at in heads:
        a = np.frombuffer(raw, dtype, nrows * comps, at)
        if comps == 1:
            col[name] = a
        else:
            for j, axis in enumerate("xyz"):
                col[f"{name}_{axis}"] = a[j::3]
    return col


def read_table(path):
    """A contact table (contacts_NNNNNN.csv or .bin, or a process's piece of one) as a dict of
    columns; the vectors gathered: ids (m x 2, id2 = -1 for a wall), wall, point, normal, fn,
    ft, branch (m x 3), overlap, and the columns a scene asked for (spring, rolling_torque:
    m x 3; sliding: 0 or 1). A .bin holds the .csv's numbers bit for bit."""
    path = os.fspath(path)
    if path.endswith(".bin"):
        col = _read_bin(path)
    else:
        with open(path) as f:
            names = f.readline().strip().split(",")
        t = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
        col = {n: t[:, k] if len(t) else np.zeros(0) for k, n in enumerate(names)}
    stems = [k[:-2] for k in col if k.endswith("_x")]
    out = dict(ids=np.stack([col["id1"], col["id2"]], axis=-1).astype(np.int64),
               wall=col["wall"].astype(np.int32))
    for k in stems:
        out[k] = np.stack([col[f"{k}_{a}"] for a in "xyz"], axis=-1).astype(np.float64)
    for k, v in col.items():
        if k not in ("id1", "id2", "wall") and k[:-2] not in stems:
            out[k] = v.astype(np.uint8) if k == "sliding" else v.astype(np.float64)
    return out


def read_vti(path):
    """Coarse-grained fields (cg_NNNNNN.vti, output.cg or `rubble cg`): .origin, .spacing (the
    first node and the nodes' spacing, m), .cells (nx, ny, nz) and each field as
    rubble.CoarseGrain.fields gives it, shaped (nz, ny, nx[, 3 | 3, 3]): density,
    volume_fraction, velocity, stress, contact_stress, kinetic_stress, fabric, wall_force."""
    path = os.fspath(path)
    head, data = _raw(path)
    grid = re.search(rb'WholeExtent="0 (\d+) 0 (\d+) 0 (\d+)" Origin="([^"]+)" '
                     rb'Spacing="([^"]+)"', head)
    if not grid:
        raise ValueError(f"{path}: not an ImageData file rubble wrote")
    cells = tuple(int(grid.group(k)) + 1 for k in (1, 2, 3))
    out = types.SimpleNamespace(origin=tuple(float(v) for v in grid.group(4).split()),
                                spacing=tuple(float(v) for v in grid.group(5).split()),
                                cells=cells)
    for name, a in _arrays(head, b"PointData", data).items():
        k = a.shape[1] if a.ndim > 1 else 1
        shape = (cells[2], cells[1], cells[0]) + ((3,) if k == 3 else (3, 3) if k == 9 else ())
        setattr(out, name, a.reshape(shape))
    return out


def read_profile(path):
    """A coarse-grained profile (cg_profile_NNNNNN.csv): .time (s), .samples, .axis ('x', 'y'
    or 'z'), .columns (a dict of arrays by the header's names: the axis's coordinate, density,
    volume_fraction, velocity_x, stress_xx, ...), and the coordinate as .x, .y or .z."""
    path = os.fspath(path)
    with open(path) as f:
        comment = f.readline()
        names = f.readline().strip().split(",")
    m = re.match(r"# time (\S+) s; .* across ([xyz]) \((\d+) samples\)", comment)
    if not m:
        raise ValueError(f"{path}:1: not a profile rubble wrote: {comment.strip()!r}")
    t = np.loadtxt(path, delimiter=",", skiprows=2, ndmin=2)
    columns = {n: t[:, k] for k, n in enumerate(names)}
    out = types.SimpleNamespace(time=float(m.group(1)), samples=int(m.group(3)),
                                axis=names[0], columns=columns)
    setattr(out, names[0], columns[names[0]])
    return out


def read_thermo(path):
    """thermo.csv as a dict of arrays, one per column of its header (time, step, grains,
    kinetic, ..., wallK_fx, ...; docs/scenes.md); the '#' lines are skipped."""
    path = os.fspath(path)
    with open(path) as f:
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    if not lines:
        raise ValueError(f"{path}: empty, not a thermo.csv rubble wrote")
    names = lines[0].strip().split(",")
    t = np.loadtxt(lines[1:], delimiter=",", ndmin=2) if len(lines) > 1 else \
        np.zeros((0, len(names)))
    if t.shape[1] != len(names):
        raise ValueError(f"{path}: rows of {t.shape[1]} values under a header of {len(names)}")
    return {n: t[:, k] for k, n in enumerate(names)}


def read_pvd(path):
    """A .pvd series (grains.pvd, contacts.pvd, walls.pvd, cg.pvd): [(time, path)] in order,
    each path joined to the .pvd's folder."""
    path = os.fspath(path)
    with open(path, "rb") as f:
        rows = re.findall(rb'<DataSet timestep="([^"]+)"[^>]* file="([^"]+)"', f.read())
    return [(float(t), os.path.join(os.path.dirname(path), name.decode())) for t, name in rows]
