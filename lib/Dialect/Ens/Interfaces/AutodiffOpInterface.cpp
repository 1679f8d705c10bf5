//===- AutodiffOpInterface.cpp - Per-op reverse-mode rules ----------------===//

#include "ens/Dialect/Ens/Interfaces/AutodiffOpInterface.h"

#include "ens/Dialect/Ens/Interfaces/AutodiffOpInterface.cpp.inc"
