#!/usr/bin/env bash
# The main job: install what is missing, build cmnet (Release), then
#  1. run a CM-1 network on the simulated board (the Verilator model of the generated board
#     top, behind a TCP socket on 127.0.0.1), driven by the host driver, with a report that
#     compares every counter and reception with the reference model (out/run/);
#  2. route a random pattern on a 16-chip network's RTL and on the reference model and compare
#     them message by message (out/demo/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMNET_TESTS=OFF >/dev/null
cmake --build build --target cmnet
build/host/cli/cmnet run gen/examples/cm1_board.json --pattern many-to-one --per-proc 4 --seed 7 -o out/run
build/host/cli/cmnet demo -o out/demo
