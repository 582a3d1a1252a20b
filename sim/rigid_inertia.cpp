// A rigid body's inertia: I_xx = integral of (y^2 + z^2) dm and its like, so
// I_xx + I_yy - I_zz = 2 integral of z^2 dm >= 0 about the principal axes.
#include "dropsim/sim/rigid_inertia.hpp"

#include <Eigen/Eigenvalues>

#include "dropsim/sim/format.hpp"

namespace dropsim {

std::string inertia_defect(const Eigen::Matrix3d& inertia) {
  const double scale = inertia.cwiseAbs().maxCoeff();
  const double slop = 1e-12 * scale;  // rounding in files that write six digits stays well above this
  if (!((inertia - inertia.transpose()).cwiseAbs().maxCoeff() <= slop)) return "it is not symmetric";
  const Eigen::Vector3d p = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(inertia).eigenvalues();  // ascending
  const std::string moments = significant(p[0], 6) + ", " + significant(p[1], 6) + " and " + significant(p[2], 6) + " kg m^2";
  if (p[0] < -slop) return "its principal moments " + moments + " are not all >= 0";
  if (p[0] + p[1] < p[2] - slop)
    return "its principal moments " + moments +
           " break the triangle inequality (the largest exceeds the sum of the other two): no mass distribution has them";
  return {};
}

}  // namespace dropsim
