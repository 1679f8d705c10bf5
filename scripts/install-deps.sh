#!/usr/bin/env bash
#===- scripts/install-deps.sh - Install ens build dependencies -----------===#
#
# Idempotent: installs the pinned Debian bookworm packages that ens needs to
# build and test, cuobjdump and nvdisasm from PyPI where the CUDA toolkit
# lacks them, and the venv the Python package is built for. Run as root on a
# fresh machine. Packages already present at the pinned version are left
# alone, so a second run costs one dpkg query.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

LLVM_VERSION=19
LLVM_DEB_VERSION="1:19.1.7-3~deb12u1"
# clang and its libFuzzer/sanitizer runtimes, for the ENS_SANITIZE and
# ENS_FUZZ builds (scripts/sanitize.sh, scripts/fuzz.sh); clang-format for
# scripts/format.sh and the clang-format test.
CLANG_VERSION=14
CLANG_DEB_VERSION="1:14.0.6-12"

packages=(
  "libmlir-${LLVM_VERSION}-dev=${LLVM_DEB_VERSION}"
  "mlir-${LLVM_VERSION}-tools=${LLVM_DEB_VERSION}"
  "llvm-${LLVM_VERSION}-dev=${LLVM_DEB_VERSION}"
  "llvm-${LLVM_VERSION}-tools=${LLVM_DEB_VERSION}"
  nlohmann-json3-dev
  libgtest-dev
  libdlpack-dev
  "libtorch-dev=1.13.1+dfsg-4"
  # ens-train's members across processes (docs/distributed.md).
  "libopenmpi-dev=4.1.4-3+b1"
  "openmpi-bin=4.1.4-3+b1"
  "libomp5-19=${LLVM_DEB_VERSION}"
  "clang-${CLANG_VERSION}=${CLANG_DEB_VERSION}"
  "libclang-rt-${CLANG_VERSION}-dev=${CLANG_DEB_VERSION}"
  "clang-format-${CLANG_VERSION}=${CLANG_DEB_VERSION}"
  libopenblas0-pthread
  libzstd-dev
  zlib1g-dev
  libedit-dev
  libxml2-dev
  libcurl4-openssl-dev
  cmake
  ninja-build
  ccache
  g++
  python3
  # The venv of the Python package (install_python_venv).
  python3-dev
  python3-venv
)

# cuobjdump and nvdisasm, which ens-sass (tools/ens-sass) runs on CUBINs.
# The CUDA toolkit here lacks them; NVIDIA publishes them on PyPI, and pip
# puts them in $CUDA_TOOLS_DIR/nvidia/cu13/bin, where CMake looks.
CUDA_TOOLS_DIR=/opt/ens/cuda-tools
CUDA_TOOLS_VERSION=13.5.37

install_cuda_tools() {
  local bin="$CUDA_TOOLS_DIR/nvidia/cu13/bin"
  if [[ -x /usr/local/cuda/bin/cuobjdump && -x /usr/local/cuda/bin/nvdisasm ]] ||
     [[ -x "$bin/cuobjdump" && -x "$bin/nvdisasm" ]]; then
    echo "install-deps: cuobjdump and nvdisasm present"
    return 0
  fi
  if [[ "$(id -u)" != 0 ]]; then
    echo "install-deps: cuobjdump and nvdisasm missing; run this script as" \
      "root to install them in $CUDA_TOOLS_DIR" >&2
    return 1
  fi
  python3 -m pip install --quiet --disable-pip-version-check \
    --target "$CUDA_TOOLS_DIR" \
    "nvidia-cuda-cuobjdump==$CUDA_TOOLS_VERSION" \
    "nvidia-cuda-nvdisasm==$CUDA_TOOLS_VERSION"
  echo "install-deps: installed cuobjdump and nvdisasm in $bin"
}

# The Python package `ens` (python/, docs/python.md) is built for this venv
# of Debian's python3, which CMake picks by default (ENS_PYTHON): nanobind
# for the bindings, NumPy and pytest for its tests, PyTorch (CPU) for
# ens.torch and its tests, and JAX as another DLPack producer. A stamp records what was installed, so a second
# run costs one file read.
PYTHON_VENV=/opt/ens/python
PYTHON_REQUIREMENTS=(nanobind==3.1.0 numpy==2.4.6 pytest==9.2.0
  filelock==4.3.1 typing_extensions==4.16.0 sympy==1.14.0 networkx==3.6.1
  jinja2==3.1.6 fsspec==2026.9.0 jax==0.10.2 jaxlib==0.10.2 ml_dtypes==0.6.0
  opt_einsum==3.4.0 scipy==1.17.1)
# PyPI's torch is a CUDA build whose dependencies are about 3 GB of CUDA
# wheels. Without them its CPU code still loads libtorch_cuda.so; the CUDA
# 13 toolkit of this machine image has most of what that links, and these
# four wheels the rest (docs/benchmarks.md, "Reproducing"): about 1.3 GB.
PYTHON_NO_DEPS=(torch==2.15.0 nvidia-cufile==1.17.1.22
  nvidia-cusparselt-cu13==0.8.1 nvidia-nvshmem-cu13==3.7.2
  nvidia-nccl-cu13==2.30.7)

install_python_venv() {
  local stamp="$PYTHON_VENV/.ens-requirements"
  local want="${PYTHON_REQUIREMENTS[*]} ${PYTHON_NO_DEPS[*]}"
  if [[ -x "$PYTHON_VENV/bin/python3" && -f "$stamp" &&
        "$(cat "$stamp")" == "$want" ]]; then
    echo "install-deps: Python venv $PYTHON_VENV present"
    return 0
  fi
  if [[ "$(id -u)" != 0 ]]; then
    echo "install-deps: Python venv $PYTHON_VENV missing or outdated; run" \
      "this script as root to make it" >&2
    return 1
  fi
  /usr/bin/python3 -m venv "$PYTHON_VENV"
  "$PYTHON_VENV/bin/python3" -m pip install --quiet \
    --disable-pip-version-check "${PYTHON_REQUIREMENTS[@]}"
  "$PYTHON_VENV/bin/python3" -m pip install --quiet \
    --disable-pip-version-check --no-deps "${PYTHON_NO_DEPS[@]}"
  echo "$want" >"$stamp"
  echo "install-deps: made the Python venv $PYTHON_VENV ($want)"
}

missing=()
for spec in "${packages[@]}"; do
  name="${spec%%=*}"
  want="${spec#*=}"
  have="$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)"
  if [[ "$have" != "install ok installed"* ]]; then
    missing+=("$spec")
  elif [[ "$spec" == *=* && "$have" != *" $want" ]]; then
    missing+=("$spec")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all dependencies present"
  install_cuda_tools
  install_python_venv
  exit 0
fi

if [[ "$(id -u)" != 0 ]]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run this script as root to install them" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${missing[*]}"
install_cuda_tools
install_python_venv
