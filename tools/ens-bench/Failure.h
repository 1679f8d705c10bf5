//===- Failure.h - How ens-bench reports errors -----------------*- C++ -*-===//
//
// Every part of ens-bench reports a failure by throwing Failure with one
// line of text; main prints it as "ens-bench: error: <text>" and exits 1.
// A peer that cannot run is not a failure: it is reported as unavailable.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_BENCH_FAILURE_H
#define ENS_BENCH_FAILURE_H

#include <stdexcept>
#include <string>

namespace ens_bench {

/// A failure of ens-bench, with a message for the user.
class Failure : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace ens_bench

#endif // ENS_BENCH_FAILURE_H
