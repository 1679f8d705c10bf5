//===- Progress.cpp - Training progress on the terminal or a log ----------===//

#include "Progress.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace ens_train;

void Progress::update(int64_t step, double meanLoss) {
  int64_t done = step - first;
  double seconds = secondsSince(start);
  double rate = seconds > 0 ? done / seconds : 0;
  if (tty) {
    if (step != total && secondsSince(lastDraw) < 0.1)
      return;
    lastDraw = Clock::now();
    const int width = 30;
    int filled = total ? static_cast<int>(width * step / total) : width;
    llvm::outs() << "\r  step "
                 << llvm::format("%*lld", digits(),
                                 static_cast<long long>(step))
                 << "/" << total << " [" << std::string(filled, '#')
                 << std::string(width - filled, '-') << "]  mean loss "
                 << llvm::format("%-10.4g", meanLoss)
                 << llvm::format("%8.1f steps/s ", rate);
    llvm::outs().flush();
    return;
  }
  int64_t every = std::max<int64_t>(1, (total - first) / 10);
  if (done % every != 0 && step != total)
    return;
  llvm::outs() << "step " << step << "/" << total << "  mean loss "
               << llvm::format("%.6g", meanLoss)
               << llvm::format("  (%.1f steps/s)", rate) << "\n";
  llvm::outs().flush();
}

void Progress::finish() {
  if (tty && total > first)
    llvm::outs() << "\n";
}
