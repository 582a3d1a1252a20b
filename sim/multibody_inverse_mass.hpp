// MultibodySystem::apply_inverse_mass, defined where both its users see it: the
// equations of motion (multibody_system.cpp) and the Jacobian
// (multibody_jacobian.cpp). Included by those two files alone.
#pragma once

#include "dropsim/sim/multibody_system.hpp"

namespace dropsim {

template <class Rows>
void MultibodySystem::apply_inverse_mass(std::size_t i, Rows&& rows) const {
  const Body& b = m_.bodies[i];
  switch (b.joint) {
    case Joint::vertical: rows /= b.mass; break;
    case Joint::planar:
      rows.topRows(2) /= b.mass;
      rows.row(2) /= b.inertia(2, 2);
      break;
    case Joint::free:
      rows.topRows(3) /= b.mass;
      for (Eigen::Index j = 0; j < rows.cols(); ++j) {  // column by column: no temporary
        const Eigen::Vector3d turned = inverse_inertia_[i] * rows.col(j).template tail<3>();
        rows.col(j).template tail<3>() = turned;
      }
      break;
  }
}

}  // namespace dropsim
