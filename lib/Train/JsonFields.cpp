//===- JsonFields.cpp - Checked reads of a manifest's fields --------------===//

#include "ens/Train/JsonFields.h"

#include "ens/Train/Failure.h"

#include <limits>

using namespace ens::train;
using ens::train::Failure;
using nlohmann::json;

/// `value` as the manifest spells it, shortened for a one-line message.
static std::string quote(const json &value) {
  std::string text = value.dump();
  return text.size() <= 40 ? text : text.substr(0, 37) + "...";
}

[[noreturn]] static void fail(const std::string &name, const std::string &what,
                              const json &value) {
  throw Failure(name + " must be " + what + " (got " + quote(value) + ")");
}

const json &ens::train::getField(const json &object, const std::string &key,
                                 const std::string &prefix) {
  auto it = object.find(key);
  if (it == object.end())
    throw Failure(prefix + key + " is missing");
  return *it;
}

int64_t ens::train::getInteger(const json &object, const std::string &key,
                               int64_t min, int64_t max,
                               const std::string &prefix) {
  const json &value = getField(object, key, prefix);
  // Unsigned values above INT64_MAX are out of every range asked for.
  bool fits =
      value.is_number_integer() &&
      !(value.is_number_unsigned() &&
        value.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max()));
  if (!fits || value.get<int64_t>() < min || value.get<int64_t>() > max)
    fail(prefix + key,
         "a whole number from " + std::to_string(min) + " to " +
             std::to_string(max),
         value);
  return value.get<int64_t>();
}

uint64_t ens::train::getUnsigned(const json &object, const std::string &key,
                                 const std::string &prefix) {
  const json &value = getField(object, key, prefix);
  if (!value.is_number_unsigned() &&
      !(value.is_number_integer() && value.get<int64_t>() >= 0))
    fail(prefix + key, "a whole number >= 0", value);
  return value.get<uint64_t>();
}

double ens::train::getNumber(const json &object, const std::string &key,
                             const std::string &prefix) {
  const json &value = getField(object, key, prefix);
  if (!value.is_number())
    fail(prefix + key, "a number", value);
  return value.get<double>();
}

std::string ens::train::getString(const json &object, const std::string &key,
                                  const std::string &prefix) {
  const json &value = getField(object, key, prefix);
  if (!value.is_string())
    fail(prefix + key, "a string", value);
  return value.get<std::string>();
}

bool ens::train::getBool(const json &object, const std::string &key,
                         const std::string &prefix) {
  const json &value = getField(object, key, prefix);
  if (!value.is_boolean())
    fail(prefix + key, "true or false", value);
  return value.get<bool>();
}

const json &ens::train::getObject(const json &object, const std::string &key,
                                  const std::string &prefix) {
  const json &value = getField(object, key, prefix);
  if (!value.is_object())
    fail(prefix + key, "an object", value);
  return value;
}

std::vector<int64_t> ens::train::getShape(const json &value,
                                          const std::string &name,
                                          bool openFirst) {
  const std::string what = "a shape, a list of at most " +
                           std::to_string(kMaxRank) + " whole numbers >= 0" +
                           (openFirst ? " (or -1 first)" : "");
  if (!value.is_array() || value.size() > kMaxRank)
    fail(name, what, value);
  std::vector<int64_t> shape;
  for (const json &size : value) {
    int64_t least = openFirst && shape.empty() ? -1 : 0;
    bool valid = size.is_number_unsigned()
                     ? size.get<uint64_t>() <=
                           uint64_t(std::numeric_limits<int64_t>::max())
                     : size.is_number_integer() && size.get<int64_t>() >= least;
    if (!valid)
      fail(name, what, value);
    shape.push_back(size.get<int64_t>());
  }
  return shape;
}
