#!/usr/bin/env bash
# The whole test suite: install what is missing, build with AddressSanitizer and UBSan on
# cmnet's own code, and run every test (RTL through Verilator, model, generator, host link,
# FPGA flow, fuzzer). Arguments go to ctest. The tests labelled `scale` (RTL == model on the
# largest networks: 32- and 64-leaf trees, 4-cubes; Verilator builds of minutes each) run only
# when asked: `scripts/test.sh -L scale`; the benches compare RTL and model at those sizes too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMNET_SANITIZE=ON >/dev/null
cmake --build build-test
# A clean tree has no timing history: start from the measured one (tests/ctest_costs.txt) so
# that ctest -j2 starts the longest tests first. ctest keeps it up to date from then on.
mkdir -p build-test/Testing/Temporary
[ -f build-test/Testing/Temporary/CTestCostData.txt ] ||
  cp tests/ctest_costs.txt build-test/Testing/Temporary/CTestCostData.txt
cd build-test
labels=(-LE scale)
for a in "$@"; do case "$a" in -L | -LE | --label-regex | --label-exclude) labels=() ;; esac; done
exec ctest --output-on-failure -j2 --timeout 1200 "${labels[@]}" "$@"
