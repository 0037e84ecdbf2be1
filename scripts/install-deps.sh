#!/usr/bin/env bash
# Installs the Debian 12 packages cmnet needs, only those missing. Idempotent and
# non-interactive; run as root (or with sudo available).
set -euo pipefail

PACKAGES=(
  # build
  build-essential cmake ninja-build ccache pkg-config git ca-certificates
  # libraries
  libgtest-dev libgmock-dev libspdlog-dev libfmt-dev libcli11-dev nlohmann-json3-dev
  libboost-dev libusb-1.0-0-dev umockdev libumockdev-dev
  # simulation and the FPGA flow
  # (fpga-icestorm only recommends its chip database; icetime needs it)
  # (zlib1g-dev: Verilator's FST traces link zlib)
  verilator zlib1g-dev yosys nextpnr-ice40 fpga-icestorm fpga-icestorm-chipdb openfpgaloader tcl
  # libFuzzer (clang) for the frame-decoder fuzz test
  clang libclang-rt-14-dev
)

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
