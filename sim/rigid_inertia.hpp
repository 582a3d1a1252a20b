// What makes a 3x3 matrix the inertia of a rigid body about its mass centre.
#pragma once

#include <Eigen/Core>
#include <string>

namespace dropsim {

// Empty when `inertia` (kg m^2) is symmetric with principal moments >= 0, as
// the dynamics needs (M(q) positive); else a sentence saying which rule fails.
std::string inertia_defect(const Eigen::Matrix3d& inertia);

// Empty when each principal moment is at most the sum of the other two, as
// for every mass distribution; else a sentence with the moments. Simbody checks
// this only in its debug builds, so OpenSim runs models that break it (public
// models do: a toe with moments 0, 0 and 0.001 kg m^2).
std::string triangle_inequality_defect(const Eigen::Matrix3d& inertia);

}  // namespace dropsim
