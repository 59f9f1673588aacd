#!/usr/bin/env bash
# ensure-deps.sh: installs what the tests need beyond Go and gcc, only when it is missing, so
# that `make test` passes on a fresh Debian 12 machine. munge lets the auth/munge tests run their
# own private munged; MPICH lets the MPI end-to-end test run a real MPI program under srun
# --mpi=pmi2.
set -euo pipefail
missing=()
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
command -v git >/dev/null 2>&1 || missing+=(git)
# optional: without them the auth/munge tests and the MPICH test skip, naming what is missing.
optional=()
command -v munged >/dev/null 2>&1 || optional+=(munge)
command -v mpicc >/dev/null 2>&1 || optional+=(mpich libmpich-dev)
if [ $((${#missing[@]} + ${#optional[@]})) -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q && apt-get install -y -q "${missing[@]}" "${optional[@]}"
  elif [ ${#missing[@]} -gt 0 ]; then
    echo "ensure-deps: missing ${missing[*]}; install them (as root: apt-get install -y ${missing[*]})" >&2
    exit 1
  fi
fi
