// Tests of sim/linearization.*: the drop and its multibody form linearise alike; free-motion bases.
#include "dropsim/sim/linearization.hpp"

#include <gtest/gtest.h>

#include "tests/support/models.hpp"

namespace dropsim {
namespace {

// One physics, two models: the 1-DOF drop and the vertical body multibody_from_drop builds.
TEST(Linearize, DropAndItsMultibodyFormAgree) {
  const DropModel drop = test::human_drop(5.5e5, 6);
  const DropSystem::Vector s(-0.01, -0.2);  // 1 cm in, compressing at 0.2 m/s
  const Linearization a = linearize(drop, s);

  const MultibodyModel m = multibody_from_drop(drop);
  Eigen::VectorXd x(2);
  x << s[0] + drop.law.radius, s[1];  // centre of mass at the sphere centres
  const Linearization b = linearize(m, x);

  ASSERT_EQ(a.J.rows(), 1);
  ASSERT_EQ(b.J.rows(), 1);
  EXPECT_DOUBLE_EQ(a.M(0, 0), b.M(0, 0));
  EXPECT_DOUBLE_EQ(a.J(0, 0), b.J(0, 0));
  EXPECT_NEAR(a.K(0, 0), b.K(0, 0), 1e-9 * a.K(0, 0));
  EXPECT_NEAR(a.C(0, 0), b.C(0, 0), 1e-9 * a.C(0, 0));
  // Hertz tangent docs/physics.md#hertz-stiffness times the Hunt–Crossley factor, six spheres.
  const double fe = hertz_force(5.5e5, 0.032, 0.01);
  EXPECT_NEAR(a.K(0, 0), 6 * 1.5 * fe / 0.01 * (1 + 1.5 * 2.0 * 0.2), 1e-9 * a.K(0, 0));
  EXPECT_NEAR(a.C(0, 0), 6 * 1.5 * 2.0 * fe, 1e-9 * a.C(0, 0));
}

TEST(Linearize, OpenContactsAreLeftOut) {
  DropModel drop;
  drop.mass = 1.0;
  drop.law.kind = ContactLawKind::linear;
  drop.law.stiffness = 1e4;
  drop.law.radius = 0.01;
  EXPECT_EQ(linearize(drop, DropSystem::Vector(0.001, 0.0)).J.rows(), 0);
}

// Free motions come out reduced: one pivot coordinate each, unit there.
TEST(NullSpaceBasis, ReducedOnPivots) {
  Eigen::MatrixXd j(2, 3);
  j << 0, 1, -0.1,  //
      0, 1, 0.1;
  const Eigen::MatrixXd n = null_space_basis(j, 3);
  ASSERT_EQ(n.cols(), 1);
  EXPECT_NEAR(std::abs(n(0, 0)), 1.0, 1e-12);
  EXPECT_NEAR(n(1, 0), 0.0, 1e-12);
  EXPECT_NEAR(n(2, 0), 0.0, 1e-12);
  EXPECT_EQ(null_space_basis(Eigen::MatrixXd(0, 3), 3).cols(), 3);  // nothing touches: all free
  Eigen::MatrixXd one(1, 3);
  one << 0, 1, 0.1;  // off-centre contact: sliding, and turning about the contact point
  const Eigen::MatrixXd two = null_space_basis(one, 3);
  ASSERT_EQ(two.cols(), 2);
  EXPECT_LT((one * two).norm(), 1e-12);
}

}  // namespace
}  // namespace dropsim
