"""`pip install .` for the Python package (python/rubble, docs/python.md), offline:

    python3 -m venv --system-site-packages env      # Debian's numpy; Debian 12's pip
    env/bin/pip install --no-build-isolation .      # installs into a venv, not the system

The extension is built by the project's CMake (python/CMakeLists.txt) against the interpreter
that runs pip: in build-pip/ of the source tree, or in the build folder RUBBLE_BUILD names (an
existing `make build`'s build/ then only links what is missing).
"""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(ROOT, "build-pip"), exist_ok=True)
# the release, from its one place (include/rubble.h: RBL_VERSION_STRING)
with open(os.path.join(ROOT, "include", "rubble.h")) as header:
    VERSION = re.search(r'^#define RBL_VERSION_STRING "([0-9.]+)"', header.read(), re.M).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.path.abspath(os.environ.get("RUBBLE_BUILD", os.path.join(ROOT, "build-pip")))
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build,
                                   "-DCMAKE_BUILD_TYPE=Release",
                                   "-DPython3_EXECUTABLE=" + sys.executable])
        subprocess.check_call(["cmake", "--build", build, "--target", "rubble_python", "-j",
                               str(os.cpu_count() or 1)])
        built = os.path.join(build, "python", "rubble")
        module = [f for f in os.listdir(built) if f.startswith("_rubble") and f.endswith(".so")]
        if not module:
            raise RuntimeError("cmake built no rubble._rubble in %s (Python headers and numpy "
                               "found? apt-get install python3-dev python3-numpy)" % built)
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, module[0]), target)


setup(
    name="rubble",
    version=VERSION,
    description="rubble: discrete element method, driven from Python",
    packages=["rubble"],
    package_dir={"rubble": "python/rubble"},
    ext_modules=[Extension("rubble._rubble", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own folders apart from CMake's build/ (and egg-info out of the tree's top)
    options={"build": {"build_base": "build-pip/setuptools"},
             "egg_info": {"egg_base": "build-pip"}},
    install_requires=[],
    python_requires=">=3.9",
)
