#===- cmake/EnsSanitizers.cmake - Sanitizer and fuzzing builds -------------===#
#
# ENS_SANITIZE=address,undefined builds every ens target with those
# sanitizers; ENS_FUZZ=ON (clang only) adds libFuzzer's coverage
# instrumentation to ens code and links the targets under test/fuzz with
# libFuzzer. Included from the top-level CMakeLists.txt after
# HandleLLVMOptions, before any target.
#
# The LLVM and MLIR libraries stay uninstrumented (Debian builds them with
# gcc): ASan checks ens's own accesses and every heap buffer, UBSan checks ens
# code. Kernels that the cuda-emu backend builds at run time with the host
# compiler are not instrumented either: they are loaded with dlopen into the
# sanitized process, which needs no runtime flags for them, and their reads
# and writes of ens-allocated (ASan-tracked) buffers go unchecked. The CPU
# JIT's code is likewise uninstrumented; the buffers it is handed are checked
# by ens's own size checks, not by ASan.
#
#===----------------------------------------------------------------------===#

set(ENS_SANITIZE "" CACHE STRING
  "Comma-separated sanitizers for every ens target, e.g. address,undefined")
option(ENS_FUZZ "Build the libFuzzer targets under test/fuzz (clang only)" OFF)

if(ENS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ENS_FUZZ needs clang (libFuzzer): configure with "
      "-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  # A fuzzer without ASan and UBSan finds only what crashes outright.
  if(NOT ENS_SANITIZE)
    set(ENS_SANITIZE "address,undefined" CACHE STRING
      "Comma-separated sanitizers for every ens target" FORCE)
  endif()
endif()

# The environment the tests run in; test/lit.site.cfg.py and the ctest
# properties in test/ take it from here.
set(ENS_SANITIZER_ASAN_OPTIONS "")
set(ENS_SANITIZER_FUZZ_ASAN_OPTIONS "")
set(ENS_SANITIZER_UBSAN_OPTIONS "")

if(ENS_SANITIZE)
  string(REPLACE "," ";" ens_sanitizers "${ENS_SANITIZE}")
  foreach(sanitizer IN LISTS ens_sanitizers)
    if(NOT sanitizer MATCHES "^(address|undefined|leak)$")
      message(FATAL_ERROR "ENS_SANITIZE: unsupported sanitizer '${sanitizer}' "
        "(use address, undefined or leak)")
    endif()
  endforeach()
  set(ens_sanitizer_flags "-fsanitize=${ENS_SANITIZE}" -fno-omit-frame-pointer
    -g1)
  if("undefined" IN_LIST ens_sanitizers)
    # UB must fail a test rather than print and go on. vptr needs RTTI, which
    # LLVM's classes lack (-fno-rtti), and clang's function check needs it
    # for the JIT's calls through typeless pointers.
    list(APPEND ens_sanitizer_flags -fno-sanitize-recover=undefined
      -fno-sanitize=vptr)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      list(APPEND ens_sanitizer_flags -fno-sanitize=function)
    endif()
    set(ENS_SANITIZER_UBSAN_OPTIONS
      "print_stacktrace=1:halt_on_error=1:abort_on_error=1")
  endif()
  if("address" IN_LIST ens_sanitizers)
    # allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons and unpoisons
    # its slabs only in instrumented code, so an allocator whose inline
    # methods ran in both ens (instrumented) and the MLIR archives (not)
    # reports accesses to memory it has handed out.
    # abort_on_error=1: a report ends the process with a signal, which `not`
    # in a lit RUN line does not accept as an expected failure.
    # detect_leaks=0: clang 14's LeakSanitizer crashes ("Tracer caught
    # signal 11") walking the dynamic TLS of bookworm's glibc in any process
    # that ran the JIT's worker threads; with use_tls=0 it reports the CPU
    # runtime's thread-local buffer caches instead. The fuzz targets other
    # than the program generator run single-threaded and keep leak checking
    # (ENS_SANITIZER_FUZZ_ASAN_OPTIONS).
    set(ENS_SANITIZER_ASAN_OPTIONS
      "allow_user_poisoning=0:abort_on_error=1:detect_leaks=0")
    set(ENS_SANITIZER_FUZZ_ASAN_OPTIONS
      "allow_user_poisoning=0:abort_on_error=1:detect_leaks=1")
  endif()
  add_compile_options(${ens_sanitizer_flags})
  add_link_options(${ens_sanitizer_flags})
  # clang links the sanitizer runtime into executables only: a shared
  # library takes its symbols from the program that loads it, so it cannot
  # be linked with every symbol defined.
  string(REPLACE "-Wl,-z,defs" "" CMAKE_SHARED_LINKER_FLAGS
    "${CMAKE_SHARED_LINKER_FLAGS}")
  message(STATUS "ens: sanitizers ${ENS_SANITIZE}")
endif()

if(ENS_FUZZ)
  # Coverage counters in all ens code, so that the fuzzers see the paths
  # they reach in the libraries; only the fuzz targets link libFuzzer.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
