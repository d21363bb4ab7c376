"""A run of many frames grows grains.pvd and thermo.csv in place (issue 70, st09: 10,000
one-step stages, a frame and a row each, took over a minute: both files were rewritten whole
under a new name at every frame, and ext4's inode allocation slows with every file deleted).
What a frame costs is counted, not timed: each file is rewritten whole only when what it gains
crosses one of its 4096-byte pages (else one write inside that page, all or nothing), so at
most 2 + its size / 4096 times (the first write, each page, the end). At every step, and at a
SIGKILL at any moment, the .pvd is whole XML listing every frame the folder holds (killed: but
perhaps the one being written) and thermo.csv ends with a whole row."""
import os
import signal
import subprocess
import time
import xml.etree.ElementTree as ET

import pytest

import rubble

HEAD = """\
domain: {min: [-0.01, -0.01, -0.01], max: [0.01, 0.01, 0.02]}
gravity: [0, 0, -9.81]
materials: [{name: glass, density: 2500}]
contact: {normal: linear, kn: 2000, restitution: 0.5, friction: 0.5}
walls: [{point: [0, 0, -0.01], normal: [0, 0, 1]}]
grains:
  - {random: {min: [-0.008, -0.008, -0.008], max: [0.008, 0.008, 0.008], count: 20}, radius: 0.001}
run: {dt: auto}
output: {folder: out, every: 1.0}
stages:
"""


def staged(tmp_path, n):
    """n stages of one step each, gravity turned on and off: a frame and a row at each start."""
    path = tmp_path / "many.yaml"
    path.write_text(HEAD + "".join(f"  - {{steps: 1, gravity: [0, 0, {-(k % 2)}]}}\n"
                                   for k in range(n)))
    return path


def whole(out, killed=False):
    """The frames grains.pvd lists (it must parse), and thermo.csv's rows (it must end with a
    whole one); every frame the folder holds is listed (killed: but perhaps the last, which is
    written before the .pvd that lists it)."""
    listed = [d.get("file") for d in ET.parse(out / "grains.pvd").getroot().iter("DataSet")]
    held = sorted(p.name for p in out.glob("grains_*.vtp"))
    assert listed == held or (killed and listed == held[:-1])
    text = (out / "thermo.csv").read_text()
    assert text.endswith("\n")
    lines = text.splitlines()
    assert all(len(l.split(",")) == len(lines[0].split(",")) for l in lines)
    return listed, lines


def test_a_frame_at_each_of_300_stages_grows_the_files_in_place(tmp_path):
    out = tmp_path / "o"
    r = rubble.Run(staged(tmp_path, 300), output=out, threads=1)
    seen = {"grains.pvd": [], "thermo.csv": []}
    for k in range(r.total_steps):
        r.step(1)
        listed, rows = whole(out)
        assert len(listed) == k + 2 and len(rows) == k + 3  # the header, step 0, each stage's
        for name, inodes in seen.items():
            inodes.append(os.stat(out / name).st_ino)
    r.close()
    for name, inodes in seen.items():
        whole_writes = 1 + sum(a != b for a, b in zip(inodes, inodes[1:]))
        bound = 2 + os.path.getsize(out / name) // 4096
        assert whole_writes <= bound, (name, whole_writes, bound, len(inodes))


@pytest.mark.skipif(not os.environ.get("RUBBLE"), reason="needs the rubble program ($RUBBLE)")
def test_a_run_killed_at_any_moment_leaves_whole_files(tmp_path):
    path = staged(tmp_path, 2000)
    for k, wait in enumerate((0.0, 0.02, 0.1, 0.2)):
        out = tmp_path / f"k{k}"
        p = subprocess.Popen([os.environ["RUBBLE"], "run", str(path), "--output", str(out),
                              "--threads", "1", "--quiet"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        start = time.monotonic()  # the stages' frames begin once it is set up
        while not (out / "grains_000001.vtp").exists() and time.monotonic() - start < 60:
            time.sleep(0.002)
        time.sleep(wait)
        p.send_signal(signal.SIGKILL)
        assert p.wait() == -signal.SIGKILL, "the run ended before it was killed"
        listed, _ = whole(out, killed=True)
        assert len(listed) > 1
