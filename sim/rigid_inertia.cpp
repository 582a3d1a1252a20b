// A rigid body's inertia: I_xx = integral of (y^2 + z^2) dm and its like, so
// I_xx + I_yy - I_zz = 2 integral of z^2 dm >= 0 about the principal axes.
#include "dropsim/sim/rigid_inertia.hpp"

#include <Eigen/Eigenvalues>

#include "dropsim/sim/format.hpp"

namespace dropsim {

namespace {

double slop(const Eigen::Matrix3d& inertia) { return 1e-12 * inertia.cwiseAbs().maxCoeff(); }

std::string moments(const Eigen::Vector3d& p) {
  return significant(p[0], 6) + ", " + significant(p[1], 6) + " and " + significant(p[2], 6) + " kg m^2";
}

}  // namespace

std::string inertia_defect(const Eigen::Matrix3d& inertia) {
  if (!((inertia - inertia.transpose()).cwiseAbs().maxCoeff() <= slop(inertia))) return "it is not symmetric";
  const Eigen::Vector3d p = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(inertia).eigenvalues();  // ascending
  if (p[0] < -slop(inertia)) return "its principal moments " + moments(p) + " are not all >= 0";
  return {};
}

std::string triangle_inequality_defect(const Eigen::Matrix3d& inertia) {
  const Eigen::Vector3d p = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(inertia).eigenvalues();  // ascending
  if (p[0] + p[1] >= p[2] - slop(inertia)) return {};
  return "its principal moments " + moments(p) +
         " break the triangle inequality (the largest exceeds the sum of the other two): no mass distribution has them";
}

}  // namespace dropsim
