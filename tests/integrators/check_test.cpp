// DROPSIM_CHECK: silent when its invariant holds, else an InternalError that
// names the file, the line, the condition and the message, in every build.
#include "dropsim/integrators/check.hpp"

#include <gtest/gtest.h>

#include <string>

namespace dropsim {
namespace {

TEST(Check, SilentWhenTheInvariantHoldsAndEvaluatesItOnce) {
  int evaluations = 0;
  EXPECT_NO_THROW(DROPSIM_CHECK(++evaluations == 1, "never shown"));
  EXPECT_EQ(evaluations, 1);
}

TEST(Check, ThrowsInternalErrorNamingFileLineConditionAndMessage) {
  const int stages = 3;
  const int line = __LINE__ + 2;
  try {
    DROPSIM_CHECK(stages == 4, "a table of " + std::to_string(stages) + " stages");
    FAIL() << "a false condition must throw";
  } catch (const InternalError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("check_test.cpp:" + std::to_string(line) + ":"), std::string::npos) << what;
    EXPECT_NE(what.find("DROPSIM_CHECK(stages == 4) failed: a table of 3 stages"), std::string::npos) << what;
  }
}

// Not an assert: Release builds (-DNDEBUG, the default here) check it too.
TEST(Check, IndependentOfNdebug) {
#ifdef NDEBUG
  const bool ndebug = true;
#else
  const bool ndebug = false;
#endif
  EXPECT_THROW(DROPSIM_CHECK(false, ndebug ? "under NDEBUG" : "without NDEBUG"), InternalError);
}

}  // namespace
}  // namespace dropsim
