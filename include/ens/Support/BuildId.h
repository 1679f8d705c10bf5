//===- BuildId.h - The build of loaded code ---------------------*- C++ -*-===//
//
// Caches of compiled code key on the builds of the compiler that made it:
// two builds of the same version may compile the same input differently.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_BUILDID_H
#define ENS_SUPPORT_BUILDID_H

#include <string>

namespace mlir::ens {

/// The GNU build ID (the linker's NT_GNU_BUILD_ID note) of the loaded
/// executable or shared library that contains `address`, as lowercase hex;
/// empty when that object has no such note or `address` is in none.
std::string getBuildId(const void *address);

} // namespace mlir::ens

#endif // ENS_SUPPORT_BUILDID_H
