#!/usr/bin/env bash
# Installs the Debian packages gemini needs. Idempotent: prints nothing and
# touches nothing when every package is already installed.
#   bash scripts/setup.sh        what building and testing need
#   bash scripts/setup.sh fuzz   that, and clang with libFuzzer (scripts/fuzz.sh)
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  flex bison  # BookSim 2's configuration parser (noc.model "booksim2", cmake/booksim2.cmake)
  libsystemc-dev libboost-json1.81-dev libeigen3-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev zlib1g-dev
  python3-matplotlib
  python3-dev pybind11-dev python3-numpy python3-pytest
  # Ramulator 2's dependencies (cmake/ramulator2.cmake builds it from
  # ../shared/third_party for dram.model "ramulator2")
  libyaml-cpp-dev libspdlog-dev libfmt-dev
)
# (Slurm and munge, for the one-node test cluster, are installed by
# scripts/slurm_local.sh when its test starts it.)
case "${1:-}" in
  "") ;;
  fuzz) packages+=(clang libclang-rt-dev) ;;  # libclang-rt-dev: libFuzzer's runtime
  *) echo "usage: bash scripts/setup.sh [fuzz]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
