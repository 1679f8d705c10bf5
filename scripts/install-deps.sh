#!/usr/bin/env bash
#===- scripts/install-deps.sh - Install ens build dependencies -----------===#
#
# Idempotent: installs the pinned Debian bookworm packages that ens needs to
# build and test, and cuobjdump and nvdisasm from PyPI where the CUDA toolkit
# lacks them. Run as root on a fresh machine. Packages already present at
# the pinned version are left alone, so a second run costs one dpkg query.
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
