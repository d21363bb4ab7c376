"""Reading rubble's frames into numpy, without VTK: the .vtp files a run writes (grains,
contacts, walls; raw appended binary, UInt64 headers) and the .pvtp that gathers several
processes' pieces, and the contact tables (contacts_NNNNNN.csv).

    from rubble import frames
    g = frames.read("out/grains_000010.vtp")        # or a .pvtp: its pieces in order
    g.points, g.point_data["contact_force"]         # (n, 3) arrays
    c = frames.read("out/contacts_000010.vtp")
    c.cell_data["normal_force"], c.lines            # (m, 3), (m, 2) point indices
    t = frames.read_table("out/contacts_000010.csv")  # columns by name
"""
import os
import re
import types

import numpy as np

__all__ = ["read", "read_table"]

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


def _read_vtp(path):
    with open(path, "rb") as f:
        raw = f.read()
    start = raw.index(b"<AppendedData")
    data = raw[raw.index(b"_", start) + 1:]
    head = raw[:start]
    if b'byte_order="LittleEndian"' not in head or b'header_type="UInt64"' not in head:
        raise ValueError(f"{path}: not a frame rubble wrote (little-endian, UInt64 headers)")
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


def read_table(path):
    """A contact table (contacts_NNNNNN.csv, or a process's piece of one) as a dict of columns;
    the vectors gathered: ids (m x 2, id2 = -1 for a wall), wall, point, normal, fn, ft,
    branch (m x 3), overlap."""
    path = os.fspath(path)
    with open(path) as f:
        names = f.readline().strip().split(",")
    t = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    col = {n: t[:, k] if len(t) else np.zeros(0) for k, n in enumerate(names)}
    vec = {k: np.stack([col[f"{k}_{a}"] for a in "xyz"], axis=-1)
           for k in ("point", "normal", "fn", "ft", "branch")}
    return dict(ids=np.stack([col["id1"], col["id2"]], axis=-1).astype(np.int64),
                wall=col["wall"].astype(np.int32), overlap=col["overlap"], **vec)
