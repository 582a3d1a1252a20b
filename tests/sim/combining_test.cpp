// Simbody's rules for two surfaces in contact: a surface paired with its own
// kind gives its own properties back, the softer surface dominates the
// dissipation, and friction combines as a harmonic mean.
#include "dropsim/sim/combining.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dropsim {
namespace {

TEST(Combining, ASurfaceAgainstItselfKeepsItsDissipationAndFriction) {
  EXPECT_DOUBLE_EQ(sherman_dissipation(1e6, 1e6, 2.0, 2.0), 2.0);
  EXPECT_DOUBLE_EQ(sherman_friction(0.8, 0.8), 0.8);
  EXPECT_EQ(sherman_friction(0.0, 0.0), 0.0);  // no friction, not 0/0
  EXPECT_EQ(sherman_friction(0.0, 0.9), 0.0);  // a frictionless surface makes the pair frictionless
}

TEST(Combining, TheSofterSurfaceCarriesTheDissipation) {
  // k_i = E_i^(2/3); s1 = k2 / (k1 + k2): by hand for E1 = 1e6, E2 = 8e6 (k2 = 4 k1), s1 = 0.8.
  EXPECT_NEAR(sherman_share(1e6, 8e6), 0.8, 1e-15);
  EXPECT_NEAR(sherman_dissipation(1e6, 8e6, 1.0, 0.0), 0.8, 1e-15);
  EXPECT_NEAR(sherman_dissipation(1e6, 8e6, 0.0, 1.0), 0.2, 1e-15);
  EXPECT_NEAR(sherman_friction(0.5, 1.0), 2.0 / 3.0, 1e-15);
}

}  // namespace
}  // namespace dropsim
