//===- ExpectError.h - Checking the API's errors ----------------*- C++ -*-===//

#ifndef ENS_TEST_API_EXPECTERROR_H
#define ENS_TEST_API_EXPECTERROR_H

#include "ens/ens.h"

#include <gtest/gtest.h>

#include <string>

namespace ens_test {

/// Expects `fn` to throw an ens::Error whose message contains `substring`.
template <typename Fn> void expectError(Fn fn, const std::string &substring) {
  try {
    fn();
    ADD_FAILURE() << "no ens::Error; expected one containing: " << substring;
  } catch (const ens::Error &error) {
    EXPECT_NE(std::string(error.what()).find(substring), std::string::npos)
        << "message: " << error.what() << "\nexpected: " << substring;
  }
}

} // namespace ens_test

#endif // ENS_TEST_API_EXPECTERROR_H
