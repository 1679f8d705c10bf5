//===- BatchingOpInterface.cpp - Per-op batching rules --------------------===//

#include "ens/Dialect/Ens/Interfaces/BatchingOpInterface.h"

#include "ens/Dialect/Ens/Interfaces/BatchingOpInterface.cpp.inc"
