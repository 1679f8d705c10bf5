//===- JsonFields.h - Checked reads of a manifest's fields ------*- C++ -*-===//
//
// A checkpoint's manifest comes from disk, so none of its fields is trusted:
// each is read through these functions, which check that it is present and
// of the right type and range, and throw Failure naming the field (for
// example "optimizer.beta1") otherwise. nlohmann's own get<T>() would
// silently turn 1e30 or 2^64 - 1 into some integer.
//
//===----------------------------------------------------------------------===//

#ifndef ENS_TRAIN_JSONFIELDS_H
#define ENS_TRAIN_JSONFIELDS_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ens::train {

/// `object`'s field `key`, which must be present; `prefix` ("optimizer.")
/// comes before `key` in messages. `object` must be a JSON object.
const nlohmann::json &getField(const nlohmann::json &object,
                               const std::string &key,
                               const std::string &prefix = "");

/// A whole number from `min` to `max`.
int64_t getInteger(const nlohmann::json &object, const std::string &key,
                   int64_t min, int64_t max, const std::string &prefix = "");

/// A whole number from 0 to 2^64 - 1.
uint64_t getUnsigned(const nlohmann::json &object, const std::string &key,
                     const std::string &prefix = "");

/// Any number (JSON has no infinities or NaNs).
double getNumber(const nlohmann::json &object, const std::string &key,
                 const std::string &prefix = "");

std::string getString(const nlohmann::json &object, const std::string &key,
                      const std::string &prefix = "");

bool getBool(const nlohmann::json &object, const std::string &key,
             const std::string &prefix = "");

/// A JSON object.
const nlohmann::json &getObject(const nlohmann::json &object,
                                const std::string &key,
                                const std::string &prefix = "");

/// A shape: a list of at most kMaxRank sizes, each a whole number >= 0, or
/// with `openFirst` -1 (`?`) for the first. `value` is named `name` in
/// messages.
std::vector<int64_t> getShape(const nlohmann::json &value,
                              const std::string &name, bool openFirst = false);

/// The largest rank getShape accepts.
inline constexpr size_t kMaxRank = 64;

} // namespace ens::train

#endif // ENS_TRAIN_JSONFIELDS_H
