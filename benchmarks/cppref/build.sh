#!/bin/sh
# Build the C++ reference belief (smsxgz/fugitive) with gamelib's driver and header stand-ins.
#
#   benchmarks/cppref/build.sh PATH/TO/cpp/fugitive/belief.cc [OUT_DIR]   # OUT_DIR: /tmp/cppref
#
# The reference is not in this repository: fetch smsxgz/fugitive (commit 2a5cdcb) yourself and pass
# its belief.cc (belief.h is read from the same directory). Needs g++ and nlohmann/json (Debian
# nlohmann-json3-dev). A copy of belief.cc, without ReplayMarshalHistory (it needs the whole
# OpenSpiel game) and its helper ApplyChecked, is compiled in OUT_DIR; the binary is
# OUT_DIR/refbelief (usage: refbelief [REPEATS] < inputs.jsonl > answers.jsonl).
set -eu
SOURCE=${1:?usage: build.sh PATH/TO/belief.cc [OUT_DIR]}
OUT=${2:-/tmp/cppref}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$(dirname "$SOURCE")" && pwd)
TREE="$OUT/tree/open_spiel"
mkdir -p "$TREE/games/fugitive" "$TREE/json/include"
cp "$HERE/include/spiel.h" "$HERE/include/spiel_utils.h" "$TREE/"
cp "$HERE/include/fugitive.h" "$TREE/games/fugitive/fugitive.h"
cp "$SRC_DIR/belief.h" "$TREE/games/fugitive/belief.h"
JSON=$(echo '#include <nlohmann/json.hpp>' | g++ -std=c++17 -x c++ -M - 2>/dev/null | tr ' ' '\n' | grep -m1 'nlohmann/json.hpp$' || true)
[ -n "$JSON" ] || { echo "nlohmann/json.hpp not found: apt-get install -y nlohmann-json3-dev" >&2; exit 1; }
mkdir -p "$TREE/json/include/nlohmann"
ln -sf "$JSON" "$TREE/json/include/nlohmann/json.hpp"
python3 - "$SOURCE" "$OUT/belief_trimmed.cc" <<'PY'
import sys

text = open(sys.argv[1]).read()


def drop(text: str, head: str) -> str:
    """Remove the function whose definition starts with ``head`` (through its closing brace)."""
    start = text.index(head)
    depth, i = 0, text.index("{", start)
    while True:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            break
    return text[:start] + text[i:].lstrip("\n")


text = drop(text, "std::unique_ptr<State> ReplayMarshalHistory(")
text = drop(text, "void ApplyChecked(State* state, Action action)")
open(sys.argv[2], "w").write(text)
PY
g++ -O2 -std=c++17 -I"$OUT/tree" -I"$(dirname "$(dirname "$JSON")")" -o "$OUT/refbelief" \
  "$OUT/belief_trimmed.cc" "$HERE/driver.cc"
echo "built $OUT/refbelief"
