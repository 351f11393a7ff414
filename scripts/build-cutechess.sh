#!/usr/bin/env bash
# Build cutechess-cli (and with --gui the Cute Chess GUI) with the project's Alice chess board
# (contrib/cutechess/: the board's sources, the alicemoves test harness, a patch that registers
# them and adds Alice cases to cutechess's unit tests, and one that marks board-B pieces in the
# GUI; docs/cutechess.md). Needs CMake, a C++17
# compiler and Qt 6 (Debian: `apt-get install cmake qt6-base-dev qt6-svg-dev`).
#
#   scripts/build-cutechess.sh [SOURCE] [--gui]
#
# SOURCE is a cutechess archive (.tar.gz, default ../shared/vendor/cutechess-5e84232b.tar.gz)
# or a cutechess git checkout. The work goes to CUTECHESS_BUILD_DIR (default
# ./cutechess-build, git-ignored): SOURCE unpacked into src/ (cutechess's code is never part
# of this project), the CMake build in build/. A second run reuses both and only recompiles
# what changed. Prints the path of cutechess-cli on the last line (with --gui: of the GUI,
# cutechess, in the same folder), e.g.
#
#   cutechess-cli -variant alice -engine cmd=alice-engine -engine cmd=... -each proto=uci ...
set -euo pipefail

HERE="$(cd "$(dirname "$0")/.." && pwd)"
CONTRIB="$HERE/contrib/cutechess"
SOURCE=""
GUI=0
for arg in "$@"; do
    case "$arg" in
        --gui) GUI=1 ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "error: unknown option $arg (usage: $0 [SOURCE] [--gui])" >&2; exit 2 ;;
        *) SOURCE="$arg" ;;
    esac
done
SOURCE="${SOURCE:-$HERE/../shared/vendor/cutechess-5e84232b.tar.gz}"
if [ ! -e "$SOURCE" ]; then
    echo "error: no cutechess source at $SOURCE (give an archive or a git checkout)" >&2
    exit 1
fi
for tool in cmake make c++; do
    command -v "$tool" >/dev/null || { echo "error: $tool not found (apt-get install cmake make g++)" >&2; exit 1; }
done
if [ ! -e /usr/lib/x86_64-linux-gnu/cmake/Qt6/Qt6Config.cmake ] && ! ls /usr/lib/*/cmake/Qt6/Qt6Config.cmake >/dev/null 2>&1 \
    && [ -z "${Qt6_DIR:-}${CMAKE_PREFIX_PATH:-}" ]; then
    echo "error: Qt 6 not found (apt-get install qt6-base-dev qt6-svg-dev, or set Qt6_DIR)" >&2
    exit 1
fi
BUILD_ROOT="${CUTECHESS_BUILD_DIR:-$HERE/cutechess-build}"
mkdir -p "$BUILD_ROOT"
BUILD_ROOT="$(cd "$BUILD_ROOT" && pwd)"
SRC="$BUILD_ROOT/src"
BUILD="$BUILD_ROOT/build"

# The identity of the source and of the patch: when either changes, src/ is unpacked again.
if [ -d "$SOURCE" ]; then
    STAMP="git $(git -C "$SOURCE" rev-parse HEAD) $(git -C "$SOURCE" status --porcelain | sha256sum | cut -c1-16)"
else
    STAMP="tar $(sha256sum < "$SOURCE" | cut -c1-64)"
fi
STAMP="$STAMP patch $(cat "$CONTRIB"/*.patch | sha256sum | cut -c1-64)"
# A new source or patch is unpacked and patched in a fresh folder, then only the files that
# differ are copied into src/: the others keep their times and make does not rebuild them.
if [ "$(cat "$BUILD_ROOT/src.stamp" 2>/dev/null || true)" != "$STAMP" ]; then
    echo "unpacking $SOURCE" >&2
    FRESH="$(mktemp -d "$BUILD_ROOT/fresh.XXXXXX")"
    trap 'rm -rf "$FRESH"' EXIT
    if [ -d "$SOURCE" ]; then
        (cd "$SOURCE" && git ls-files -z | tar --null -cf - -T -) | tar -xf - -C "$FRESH"
    else
        tar -xzf "$SOURCE" -C "$FRESH" --strip-components=1
    fi
    for p in "$CONTRIB"/*.patch; do
        echo "applying $(basename "$p")" >&2
        patch -d "$FRESH" -p1 --quiet --forward < "$p"
    done
    (cd "$FRESH" && find . -type f -print0) | while IFS= read -r -d '' f; do
        if ! cmp -s "$FRESH/$f" "$SRC/$f"; then
            mkdir -p "$(dirname "$SRC/$f")"
            cp "$FRESH/$f" "$SRC/$f"
        fi
    done
    rm -rf "$FRESH"
    echo "$STAMP" > "$BUILD_ROOT/src.stamp"
fi
# The board and the harness: copied only when changed, so make recompiles only them.
sync_file() {
    mkdir -p "$(dirname "$2")"
    cmp -s "$1" "$2" || cp "$1" "$2"
}
sync_file "$CONTRIB/src/aliceboard.h" "$SRC/projects/lib/src/board/aliceboard.h"
sync_file "$CONTRIB/src/aliceboard.cpp" "$SRC/projects/lib/src/board/aliceboard.cpp"
sync_file "$CONTRIB/tools/alicemoves.cpp" "$SRC/projects/lib/tests/alicemoves/alicemoves.cpp"

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    echo "configuring $BUILD" >&2
    # A unity build (several .cpp files a compiler run) parses Qt's headers far less often:
    # about a third of the CPU time of a plain build.
    cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DWITH_TESTS=ON -DCMAKE_UNITY_BUILD=ON >&2
fi
TARGETS=(cli test_chessboard test_alicemoves)
[ "$GUI" = 1 ] && TARGETS+=(gui)
JOBS="${CUTECHESS_JOBS:-2}"  # the machine is shared: 2 jobs, niced
echo "building ${TARGETS[*]} ($JOBS jobs)" >&2
nice make -C "$BUILD" -j "$JOBS" "${TARGETS[@]}" >&2

CLI="$BUILD/cutechess-cli"
if ! "$CLI" --version >/dev/null 2>&1; then
    echo "error: build finished but $CLI does not run" >&2
    exit 1
fi
if [ "$GUI" = 1 ]; then
    echo "$BUILD/cutechess"
else
    echo "$CLI"
fi
