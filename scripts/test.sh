#!/usr/bin/env bash
# The whole test suite: install what is missing, build with AddressSanitizer and UBSan on
# cmnet's own code, and run every test (RTL through Verilator, model, generator, host link,
# FPGA flow, fuzzer).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMNET_SANITIZE=ON >/dev/null
cmake --build build-test
cd build-test
exec ctest --output-on-failure -j2 --timeout 1200 "$@"
