#!/usr/bin/env bash
# The main job: install what is missing, build cmnet (Release), generate a CM-1 network, route a
# random pattern on its RTL (Verilator) and on the reference model, and print the comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMNET_TESTS=OFF >/dev/null
cmake --build build --target cmnet
exec build/gen/cli/cmnet demo -o out/demo "$@"
