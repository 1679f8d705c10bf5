# -*- Python -*- lit configuration for the ens regression tests.

import glob
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "ENS"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ens_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs",
                   "unittests", "FakeDriver", "fuzz"]

config.substitutions.append(("%ens_src_root", config.ens_src_root))
config.substitutions.append(("%ens_tools_dir", config.ens_tools_dir))
config.substitutions.append(("%ens_lib_dir",
                             os.path.join(config.ens_obj_root, "lib")))
# Stand-ins for the CUDA driver (test/Backend/Cuda/FakeDriver), one per
# directory.
config.substitutions.append(
    ("%fake_cuda", os.path.join(config.ens_obj_root, "test", "Backend", "Cuda",
                                "FakeDriver")))

llvm_config.use_default_substitutions()
# ENS_ENABLE_ASSERTIONS: tests of -debug-only output need LLVM_DEBUG.
if config.ens_enable_assertions.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("asserts")
# A sanitized build (ENS_SANITIZE) runs its tools with the options that
# cmake/EnsSanitizers.cmake chose; lit passes neither variable through.
# The compile caches (CUDA's and the CPU's, docs/runtime.md) of the tests
# live in the build tree, not in the user's ~/.cache/ens: a rebuilt ens has
# a new build ID, and entries of old builds would pile up there. Tests of
# the caches themselves set ENS_CACHE_DIR to their own directories.
config.environment["ENS_CACHE_DIR"] = os.path.join(config.ens_obj_root,
                                                   "test", "ens-cache")
for name, value in (("ASAN_OPTIONS", config.ens_asan_options),
                    ("UBSAN_OPTIONS", config.ens_ubsan_options)):
    if value:
        config.environment[name] = value
# The tests of bounded memory run under an 8 GB address-space limit
# (issue #11), which also makes ens's default buffer limit half of it,
# 4.096 GB. AddressSanitizer reserves 16 TB of shadow address space and
# cannot start under such a limit: there the same buffer limit is set
# directly, and ASan's allocator reports any larger allocation.
# The reliability tests of issue #25 hold each bad input to 6 GB and 60 s.
if config.ens_asan_options:
    config.available_features.add("asan")
    limit = "export ENS_MAX_BUFFER_BYTES=4096000000"
    limit6 = "export ENS_MAX_BUFFER_BYTES=3072000000"
else:
    limit = "ulimit -v 8000000"
    limit6 = "ulimit -v 6000000"
config.substitutions.append(("%limit_6gb_address_space", limit6))
config.substitutions.append(("%limit_address_space", limit))
# ens-train built with MPI runs its members over processes under mpirun
# (docs/distributed.md). CI runs as root, which OpenMPI refuses unless told;
# --oversubscribe lets a 2-core machine start 3 processes.
if (config.ens_train_have_mpi.upper() in ("ON", "1", "TRUE", "YES") and
        shutil.which("mpirun")):
    config.available_features.add("mpi")
config.substitutions.append(
    ("%mpirun", "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                "OMPI_MCA_rmaps_base_oversubscribe=1 mpirun --oversubscribe"))
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# ens-bench's libtorch peer, built where libtorch is found (Debian's
# libtorch-dev, which scripts/install-deps.sh installs).
if os.path.exists(os.path.join(config.ens_tools_dir, "torch-peer")):
    config.available_features.add("libtorch-peer")

# ens-bench's ens-torch peer: the build's Python package, and an
# interpreter with torch (scripts/install-deps.sh installs both, the
# interpreter in /opt/ens/python, the package's default).
if glob.glob(os.path.join(config.ens_obj_root, "python", "ens", "_ens*.so")):
    for python in ("/opt/ens/python/bin/python3", shutil.which("python3")):
        if python and os.path.exists(python) and subprocess.run(
                [python, "-c", "import importlib.util, sys; "
                 "sys.exit(not importlib.util.find_spec('torch'))"]
        ).returncode == 0:
            config.available_features.add("ens-torch-peer")
            config.substitutions.append(("%peer_python", python))
            break

tool_dirs = [config.ens_tools_dir, config.llvm_tools_dir]
tools = ["ens-bench", "ens-export", "ens-opt", "ens-replay", "ens-run",
         "ens-sass", "ens-train"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The SASS tests need cuobjdump, which the CUDA toolkit may lack
# (scripts/install-deps.sh installs it), and NVRTC; ens-sass knows whether
# the build has both.
ens_sass = os.path.join(config.ens_tools_dir, "ens-sass")
found = subprocess.run([ens_sass, "--print-cuobjdump"], capture_output=True,
                       text=True) if os.path.exists(ens_sass) else None
if found and found.returncode == 0:
    config.available_features.add("cuobjdump")
    # The disassembler itself, for tests that look for an instruction.
    config.substitutions.append(("%cuobjdump", found.stdout.strip()))
