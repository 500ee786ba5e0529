#!/usr/bin/env bash
# Installs everything mpivet needs on Debian 12 (run as root): C and Fortran compilers, CMake, both MPI
# libraries, SimGrid/SMPI (libsimgrid-dev ships smpicc and smpirun; "simgrid" is only a virtual name),
# OTF2, GSL, clang for the fuzzers, Chromium for the HTML test and Debian's real MPI applications.
set -euo pipefail
packages=(
  build-essential gfortran cmake pkg-config git python3 procps
  libgsl-dev
  openmpi-bin libopenmpi-dev
  mpich libmpich-dev
  libsimgrid-dev
  libopen-trace-format2-dev otf2-tools
  clang libclang-rt-14-dev
  chromium
  slurm-wlm munge
  libopenblas-dev
  # real applications (MPI programs we did not write; binaries lmp, nwchem.openmpi, nwchem.mpich, hpcc)
  lammps nwchem-openmpi nwchem-mpich hpcc
  # real application linked to MPICH for bench/benchgen/real-app (ScaLAPACK's test xdlu, both MPIs)
  scalapack-mpi-test
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
