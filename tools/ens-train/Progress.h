//===- Progress.h - Training progress on the terminal or a log --*- C++ -*-===//

#ifndef ENS_TRAIN_PROGRESS_H
#define ENS_TRAIN_PROGRESS_H

#include "ens/Train/Training.h"

#include "llvm/Support/Process.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace ens_train {

using namespace ens::train;

/// A progress bar updated in place on a terminal, otherwise a line every
/// tenth of the run; both with the throughput and the time left (ETA) at
/// the rate so far.
class Progress {
public:
  /// A run from step `first` to step `total`.
  Progress(int64_t first, int64_t total)
      : first(first), total(total),
        tty(llvm::sys::Process::StandardOutIsDisplayed()), start(Clock::now()),
        lastDraw(start) {}

  /// Reports that `step` is done, with the members' mean loss.
  void update(int64_t step, double meanLoss);
  /// Ends the bar's line, once.
  void finish();

private:
  int digits() const { return std::to_string(total).size(); }

  int64_t first, total;
  bool tty, finished = false;
  Clock::time_point start, lastDraw;
};

} // namespace ens_train

#endif // ENS_TRAIN_PROGRESS_H
