#!/usr/bin/env bash
# Installs the Debian 12 packages cmnet needs, only those missing. Idempotent and
# non-interactive; run as root (or with sudo available).
set -euo pipefail

# What the main job needs (scripts/main.sh: build cmnet, run Verilator models).
MAIN_PACKAGES=(
  # build
  build-essential cmake ninja-build ccache pkg-config git ca-certificates
  # libraries
  libspdlog-dev libfmt-dev libcli11-dev nlohmann-json3-dev libboost-dev libusb-1.0-0-dev
  # simulation (zlib1g-dev: Verilator's FST traces link zlib)
  verilator zlib1g-dev
)
# The rest: the tests, the FPGA flow, the fuzzer.
REST_PACKAGES=(
  libgtest-dev libgmock-dev umockdev libumockdev-dev
  # (fpga-icestorm only recommends its chip database; icetime needs it)
  yosys nextpnr-ice40 fpga-icestorm fpga-icestorm-chipdb openfpgaloader tcl
  # libFuzzer (clang) for the frame-decoder fuzz test
  clang libclang-rt-14-dev
)
# --main: only the main job's packages (a fresh machine's first command starts sooner; the
# test command, or this script without arguments, installs the rest).
case "${1:-}" in
  --main) PACKAGES=("${MAIN_PACKAGES[@]}") ;;
  "") PACKAGES=("${MAIN_PACKAGES[@]}" "${REST_PACKAGES[@]}") ;;
  *) echo "install-deps: unknown argument '$1' (expected --main or nothing)" >&2; exit 2 ;;
esac

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
