//===- Escape.h - Input text inside generated code --------------*- C++ -*-===//
//
// Generated source (CUDA C++ for NVRTC and for the emulator's host compiler)
// must never contain input text except as inert data: a newline in a
// location string would end a `//` comment, a `*/` a block comment, and a
// trailing backslash would splice the next line into it. Anything of the
// input that is written into a comment goes through escapeForComment.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_SUPPORT_ESCAPE_H
#define ENS_SUPPORT_ESCAPE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::ens {

/// `text` with every byte outside a safe set (letters, digits, space and
/// `_.,:;+-=()[]<>#@%`) written as `\xNN`, so that the result can stand in a
/// `//` or `/* */` comment of C or C++ source and end neither.
std::string escapeForComment(llvm::StringRef text);

} // namespace mlir::ens

#endif // ENS_SUPPORT_ESCAPE_H
