// Which matrices are a rigid body's inertia: computed mass distributions pass,
// and the triangle inequality catches moments no distribution has.
#include "dropsim/sim/rigid_inertia.hpp"

#include <Eigen/Geometry>
#include <gtest/gtest.h>

namespace dropsim {
namespace {

// A solid box's inertia about its centre, from the integral of r^2 dm.
Eigen::Matrix3d box(double m, double a, double b, double c) {
  return Eigen::Vector3d(m * (b * b + c * c) / 12.0, m * (a * a + c * c) / 12.0, m * (a * a + b * b) / 12.0).asDiagonal();
}

TEST(RigidInertia, BoxesRodsAndPlatesInAnyOrientationPass) {
  const Eigen::Matrix3d r = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  for (const Eigen::Matrix3d& i : {box(2.0, 0.1, 0.2, 0.3), box(1.0, 0.0, 0.0, 1.0) /* a rod: 1/12, 1/12, 0 */,
                                   box(1.0, 1.0, 1.0, 0.0) /* a plate: the equality case */}) {
    EXPECT_EQ(inertia_defect(r * i * r.transpose()), "") << i;
    EXPECT_EQ(triangle_inequality_defect(r * i * r.transpose()), "") << i;
  }
}

TEST(RigidInertia, MomentsBreakingTheTriangleInequalityAreNamedApart) {
  // Ixx + Iyy - Izz = 2 integral of z^2 dm: below zero for (1, 1, 3), which the
  // dynamics can still take (OpenSim runs such models), so it is a defect of its own.
  const Eigen::Matrix3d odd = Eigen::Vector3d(1.0, 1.0, 3.0).asDiagonal();
  const std::string defect = triangle_inequality_defect(odd);
  EXPECT_NE(defect.find("triangle inequality"), std::string::npos) << defect;
  EXPECT_EQ(inertia_defect(odd), "");
  EXPECT_NE(inertia_defect(Eigen::Vector3d(-0.1, 1.0, 1.0).asDiagonal()).find("not all >= 0"), std::string::npos);
  Eigen::Matrix3d skew = box(1.0, 1.0, 1.0, 1.0);
  skew(0, 1) = 0.01;
  EXPECT_NE(inertia_defect(skew).find("not symmetric"), std::string::npos);
}

}  // namespace
}  // namespace dropsim
