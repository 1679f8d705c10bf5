//===- Progress.cpp - Training progress on the terminal or a log ----------===//

#include "Progress.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

using namespace ens_train;

/// `seconds` as m:ss (h:mm:ss past an hour), or "?" before it is known.
static std::string formatDuration(double seconds) {
  if (!(seconds >= 0) || seconds > 1e9)
    return "?";
  long long s = std::llround(seconds);
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof(text), "%lld:%02lld:%02lld", s / 3600,
                  s / 60 % 60, s % 60);
  else
    std::snprintf(text, sizeof(text), "%lld:%02lld", s / 60, s % 60);
  return text;
}

void Progress::update(int64_t step, double meanLoss) {
  int64_t done = step - first;
  double seconds = secondsSince(start);
  double rate = seconds > 0 ? done / seconds : 0;
  // The time left at the rate so far.
  std::string eta = formatDuration(rate > 0 ? (total - step) / rate : -1);
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
                 << llvm::format("%8.1f steps/s", rate) << "  ETA " << eta
                 << " ";
    llvm::outs().flush();
    return;
  }
  int64_t every = std::max<int64_t>(1, (total - first) / 10);
  if (done % every != 0 && step != total)
    return;
  llvm::outs() << "step " << step << "/" << total << "  mean loss "
               << llvm::format("%.6g", meanLoss)
               << llvm::format("  (%.1f steps/s, ETA ", rate) << eta << ")\n";
  llvm::outs().flush();
}

void Progress::finish() {
  if (tty && total > first && !finished)
    llvm::outs() << "\n";
  finished = true;
}
