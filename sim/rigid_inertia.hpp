// What makes a 3x3 matrix the inertia of a rigid body about its mass centre.
#pragma once

#include <Eigen/Core>
#include <string>

namespace dropsim {

// Empty when `inertia` (kg m^2) is symmetric with principal moments >= 0, each
// at most the sum of the other two (the triangle inequality every mass
// distribution obeys; Simbody's Inertia refuses any other); else a sentence
// saying which rule fails, with the principal moments.
std::string inertia_defect(const Eigen::Matrix3d& inertia);

}  // namespace dropsim
