#!/bin/sh
# The installed library (issue 42): `cmake --install` into a fresh prefix, then a small C program
# built against the installed copy through pkg-config (shared, then static) and through CMake's
# find_package(rubble), each of which must start without LD_LIBRARY_PATH and run a simulation.
#   tests/cli_install.sh BUILD_DIR
set -eu
BUILD=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
prefix="$work/prefix"
cmake --install "$BUILD" --prefix "$prefix" > "$work/install.log" || fail "cmake --install failed"
# the SONAME's number is the ABI's, read where it is set (include/rubble.h)
abi=$(sed -n 's/^#define RBL_ABI_VERSION \([0-9]*\)$/\1/p' "$(dirname "$0")/../include/rubble.h")
[ -n "$abi" ] || fail "no RBL_ABI_VERSION in include/rubble.h"
lib=$(ls -d "$prefix"/lib*/librubble.so."$abi" 2>/dev/null | head -1)
[ -n "$lib" ] || fail "no librubble.so.$abi installed: $(find "$prefix" -type f | head)"
libdir=$(dirname "$lib")
for f in "$prefix/bin/rubble" "$prefix/include/rubble.h" "$libdir/librubble.a" \
         "$libdir/librubble.so" "$libdir/pkgconfig/rubble.pc" \
         "$libdir/cmake/rubble/rubbleConfig.cmake"; do
    [ -e "$f" ] || fail "$f not installed"
done
readelf -d "$lib" | grep -q "SONAME.*\[librubble.so.$abi\]" || fail "no SONAME librubble.so.$abi"
version=$(sed -n 's/^#define RBL_VERSION_STRING "\(.*\)"$/\1/p' "$(dirname "$0")/../include/rubble.h")
grep -q "^Version: $version$" "$libdir/pkgconfig/rubble.pc" || fail "rubble.pc is not version $version"
"$prefix/bin/rubble" --help > /dev/null 2>&1 || "$prefix/bin/rubble" > /dev/null 2>&1 ||
    [ $? -lt 126 ] || fail "the installed rubble does not start"

# a grain dropped onto a floor: at rest there after bouncing (e about 0.5), sunk by mg / kn
cp "$(dirname "$0")/../examples/c/drop.c" "$work/drop.c"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2046
cc -o "$work/drop_shared" "$work/drop.c" $(pkg-config --cflags --libs rubble) ||
    fail "pkg-config: the program did not build against the shared library"
env -u LD_LIBRARY_PATH "$work/drop_shared" > "$work/out.txt" ||
    fail "pkg-config: the program (shared) did not run: $(cat "$work/out.txt")"
# shellcheck disable=SC2046
cc -o "$work/drop_static" "$work/drop.c" -I"$prefix/include" "$libdir/librubble.a" \
    $(pkg-config --static --libs-only-other --libs-only-l rubble | sed 's/-lrubble//') ||
    fail "pkg-config --static: the program did not build against the static library"
"$work/drop_static" > /dev/null || fail "pkg-config --static: the program did not run"
echo "ok: pkg-config, shared and static: $(cat "$work/out.txt")"

mkdir -p "$work/project"
cp "$work/drop.c" "$work/project/"
# the release asked for is this one's major.minor (0.x: a minor may change the ABI)
cat > "$work/project/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.16)
project(drop LANGUAGES C)
find_package(rubble ${version%.*} REQUIRED)
add_executable(drop drop.c)
target_link_libraries(drop PRIVATE rubble::rubble)
add_executable(drop_static drop.c)
target_link_libraries(drop_static PRIVATE rubble::rubble_static)
CM
cmake -S "$work/project" -B "$work/project/build" -DCMAKE_PREFIX_PATH="$prefix" \
    > "$work/cmake.log" 2>&1 || fail "find_package(rubble) failed: $(tail -20 "$work/cmake.log")"
cmake --build "$work/project/build" > "$work/build.log" 2>&1 ||
    fail "the CMake project did not build: $(tail -20 "$work/build.log")"
env -u LD_LIBRARY_PATH "$work/project/build/drop" > /dev/null || fail "CMake: drop did not run"
"$work/project/build/drop_static" > /dev/null || fail "CMake: drop_static did not run"
echo "ok: find_package(rubble), rubble::rubble and rubble::rubble_static"
