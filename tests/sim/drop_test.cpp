// The drop system (sim/drop.hpp): its analytic Jacobian against central differences.
#include "dropsim/sim/drop.hpp"

#include <gtest/gtest.h>

#include "tests/support/models.hpp"

namespace dropsim {
namespace {

TEST(DropSystem, JacobianMatchesFiniteDifferences) {
  const DropSystem sys(test::human_drop(3.5e5, 6));
  // In contact, compressing and recovering; open (zero force slope).
  for (const auto& x : {DropSystem::Vector(-0.01, -0.2), DropSystem::Vector(-0.011, 0.1), DropSystem::Vector(0.01, -1.0)}) {
    DropSystem::Matrix jac;
    sys.jacobian(x, 0.0, jac);
    for (int k = 0; k < 2; ++k) {
      const double d = 1e-7 * std::max(1e-3, std::abs(x[k]));
      DropSystem::Vector xp = x, xm = x, fp, fm;
      xp[k] += d;
      xm[k] -= d;
      sys(xp, fp, 0.0);
      sys(xm, fm, 0.0);
      const DropSystem::Vector column = (fp - fm) / (2.0 * d);
      for (int r = 0; r < 2; ++r) EXPECT_NEAR(jac(r, k), column[r], 1e-6 * (1.0 + std::abs(column[r]))) << r << k;
    }
  }
}

}  // namespace
}  // namespace dropsim
