//===- Error.h - Errors of the ens runtime ----------------------*- C++ -*-===//
//
// The runtime links neither LLVM nor MLIR, so it has its own small
// counterparts of llvm::Error and llvm::Expected: a failure is a message,
// checked by the caller, never an exception across the library's edge.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_RUNTIME_ERROR_H
#define ENS_RUNTIME_ERROR_H

#include <optional>
#include <string>
#include <utility>

namespace ens::runtime {

/// A failure with its message, or success; true when it is a failure, as
/// llvm::Error.
class [[nodiscard]] Error {
public:
  static Error success() { return Error(); }
  explicit Error(std::string message) : message(std::move(message)) {}

  explicit operator bool() const { return message.has_value(); }
  /// The message of a failure.
  const std::string &getMessage() const { return *message; }

private:
  Error() = default;
  std::optional<std::string> message;
};

/// A value, or the message of a failure.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : value(std::move(value)) {}
  Expected(Error error) : failure(std::move(error)) {}

  explicit operator bool() const { return value.has_value(); }
  T &operator*() { return *value; }
  const T &operator*() const { return *value; }
  T *operator->() { return &*value; }
  const T *operator->() const { return &*value; }
  /// The failure; only when there is no value.
  Error takeError() { return std::move(failure); }

private:
  std::optional<T> value;
  Error failure = Error::success();
};

} // namespace ens::runtime

#endif // ENS_RUNTIME_ERROR_H
