#!/usr/bin/env bash
# Build Fairy-Stockfish with Alice chess (gbtami's `alice` branch), the reference opponent
# for alice-match. Needs git, make and a C++17 compiler, and network access for the clone.
#
#   scripts/build-fairy-stockfish.sh [DIR] [ARCH]
#
# DIR defaults to ./fairy-stockfish (git-ignored), ARCH to x86-64-modern (see `make help`
# in DIR/src for others, e.g. x86-64-avx2, armv8, apple-silicon). An existing clone is
# updated instead of cloned again; FAIRY_STOCKFISH_REPO overrides the repository URL.
# Prints the path of the binary on the last line, e.g.
#
#   alice-match -engine cmd=alice-engine -engine cmd="$(scripts/build-fairy-stockfish.sh | tail -1)" ...
set -euo pipefail

REPO="${FAIRY_STOCKFISH_REPO:-https://github.com/gbtami/Fairy-Stockfish}"  # override for a mirror
BRANCH="alice"
DIR="${1:-./fairy-stockfish}"
ARCH="${2:-x86-64-modern}"
JOBS="$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)"

if [ -d "$DIR/.git" ]; then
    echo "updating $DIR ($BRANCH)" >&2
    git -C "$DIR" fetch --depth 1 origin "$BRANCH" >&2
    git -C "$DIR" checkout -q FETCH_HEAD
else
    echo "cloning $REPO ($BRANCH) into $DIR" >&2
    git clone --depth 1 --branch "$BRANCH" "$REPO" "$DIR" >&2
fi

echo "building (ARCH=$ARCH, $JOBS jobs)" >&2
make -C "$DIR/src" -j "$JOBS" build ARCH="$ARCH" >&2

BIN="$(cd "$DIR/src" && pwd)/stockfish"
if [ ! -x "$BIN" ]; then
    echo "error: build finished but $BIN is missing" >&2
    exit 1
fi
# Check that the binary knows the variant before handing it out.
UCI_OUT="$(printf 'uci\nquit\n' | "$BIN" 2>/dev/null || true)"
case "$UCI_OUT" in
    *"var alice"*) ;;
    *)
        echo "error: $BIN does not offer UCI_Variant alice (wrong branch?)" >&2
        exit 1
        ;;
esac
echo "$BIN"
