#!/bin/sh
# Install the Debian packages rubble needs, only those missing. Usage:
#   scripts/install-deps.sh build     compiler, make, cmake, libyaml (scene files), Open MPI and
#                                      Zoltan (runs over several processes: src/parallel/),
#                                      Debian's Python 3 headers and numpy (python/: import rubble)
#   scripts/install-deps.sh test      + clang with its OpenMP, sanitizer and libFuzzer runtimes
#                                      (the suite under clang's UBSan, the fuzz harnesses),
#                                      pkgconf (a program built against the installed library),
#                                      pytest and matplotlib (the Python package's tests and
#                                      examples/python, which plot), pip and setuptools
#                                      (`pip install .` is tested)
#   scripts/install-deps.sh bench     + gnuplot (PNG plots), LIGGGHTS, LAMMPS and Yade (peers), GNU time,
#                                      ParaView's pvpython (python3-paraview) and Xvfb (the
#                                      force-chain render of make validate, make renders),
#                                      valgrind and matplotlib (make bench-roofline)
set -eu
want="gcc make cmake libyaml-dev libopenmpi-dev openmpi-bin libtrilinos-zoltan-dev python3-dev python3-numpy"
case "${1:-build}" in
    test) want="$want clang libomp-dev libclang-rt-dev pkgconf python3-pytest python3-matplotlib python3-pip python3-setuptools" ;;
    bench) want="$want gnuplot-nox liggghts lammps yade openmpi-bin time paraview python3-paraview xvfb xauth valgrind python3-matplotlib" ;;
esac
missing=""
for pkg in $want; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
