#!/usr/bin/env bash
#===- scripts/test-all.sh - Build ens and run every test ------------------===#
#
# The README's second command: installs, builds, and runs the lit and
# GoogleTest suites through ctest. The build treats warnings in ens's own
# sources as errors (ENS_WERROR=ON), as CI does.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ENS_BUILD_DIR:-$root/build}"
ENS_WERROR=ON "$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)"
