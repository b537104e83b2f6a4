#!/usr/bin/env bash
# The project's Python environment: a git-ignored virtual environment `.venv/` at the
# repository root, with the packages of the groups named on the command line
# (docs/backend.md, "Installing NVRTC"; docs/oracle.md, "The Python environment").
# Idempotent: a group whose pinned packages are installed already costs one `pip` metadata
# check and no download.
#
#   scripts/python-env.sh nvrtc        # NVRTC (libnvrtc.so.12) for the CUDA tests
#   scripts/python-env.sh jax          # JAX on the CPU (float64), for `adora difftest --against jax`
#   scripts/python-env.sh torch        # PyTorch, for `adora difftest --against pytorch`
#   scripts/python-env.sh nvrtc jax    # several groups
#   scripts/python-env.sh --lib-path   # print the directory of libnvrtc (for LD_LIBRARY_PATH)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
groups="nvrtc jax torch"

# Pinned versions, one array per group.
group_nvrtc=("nvidia-cuda-nvrtc-cu12==12.9.86")
group_jax=("jax[cpu]==0.10.2" "numpy")
group_torch=("torch==2.15.0" "numpy")

lib_path() {
  local d
  for d in "$venv"/lib/python3*/site-packages/nvidia/cuda_nvrtc/lib; do
    if [ -e "$d/libnvrtc.so.12" ]; then
      echo "$d"
      return 0
    fi
  done
  return 1
}

if [ "${1:-}" = "--lib-path" ]; then
  lib_path
  exit $?
fi

if [ "$#" -eq 0 ]; then
  echo "usage: scripts/python-env.sh GROUP... (groups: $groups) | --lib-path" >&2
  exit 2
fi

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi

for group in "$@"; do
  if ! declare -p "group_${group}" >/dev/null 2>&1; then
    echo "unknown group \`$group\` (groups: $groups)" >&2
    exit 2
  fi
  var="group_${group}[@]"
  pkgs=("${!var}")
  missing=()
  for p in "${pkgs[@]}"; do
    name="${p%%==*}"
    name="${name%%\[*}"
    have="$("$venv/bin/python" -m pip show "$name" 2>/dev/null | sed -n 's/^Version: //p' || true)"
    if [ "$p" = "$name" ]; then
      # Unpinned: installed at any version is enough.
      [ -n "$have" ] || missing+=("$p")
    else
      want="${p##*==}"
      # A local version suffix (`2.15.0+cu132`) counts as the pinned version.
      [ "${have%%+*}" = "$want" ] || missing+=("$p")
    fi
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${missing[@]}"
  fi
  echo "python-env: group $group ready in $venv"
done

if d="$(lib_path)"; then
  echo "python-env: libnvrtc in $d"
fi
