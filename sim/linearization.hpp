// The linearised contact dynamics at one state: M, J, K, C (docs/physics.md#effective-mass, #coupled-contact-modes).
//
// Small motions about a state with frozen geometry obey
//   M du' + J^T C J du + J^T K J dq = 0,
// with J the Jacobian of the active (compressed, stiff) contacts' gaps and K, C
// the diagonal tangent stiffness and damping of their laws (count included);
// friction adds its damping D at the state (at rest: a linear damper per
// tangential direction, docs/physics.md#friction), M du' + (J^T C J + D) du + ...
// Consumed by the modes analysis and by step-limit predictions.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "dropsim/integrators/stability.hpp"
#include "dropsim/sim/drop.hpp"
#include "dropsim/sim/multibody.hpp"

namespace dropsim {

struct Linearization {
  Eigen::MatrixXd M;          // nu x nu, generalised mass
  Eigen::MatrixXd J;          // active x nu, gap rate = J u
  Eigen::MatrixXd K;          // active x active, diagonal, N/m
  Eigen::MatrixXd C;          // active x active, diagonal, N s/m
  std::vector<int> contacts;  // model contact index of each row of J
  Eigen::VectorXd indentation, force;  // per active contact: m, N (per sphere)
  Eigen::MatrixXd friction_damping;    // nu x nu, N s/m (generalised); empty without friction

  // The same as a first-order system x' = A x (the step-limit analysis's input).
  integrators::LinearSystem linear_system() const {
    if (friction_damping.size() == 0) return normal_system();
    return {M, J.transpose() * K * J, J.transpose() * C * J + friction_damping};
  }
  // Without friction: the normal contact modes alone.
  integrators::LinearSystem normal_system() const { return integrators::LinearSystem::from_contacts(M, J, K, C); }
};

// Active contacts: indentation > 0 and positive tangent stiffness.
Linearization linearize(const MultibodyModel& model, const Eigen::VectorXd& x);
// The 1-DOF drop: gap = y, one contact of n spheres.
Linearization linearize(const DropModel& model, const DropSystem::Vector& x);
// The drop at rest at indentation x (the step-limit predictions' states).
inline Linearization linearize_at_rest(const DropModel& model, double indentation) {
  return linearize(model, DropSystem::Vector(-indentation, 0.0));
}

// Basis of the null space of J (nu columns when J has no rows): the free
// motions. Columns are reduced so that each has a 1 at its own pivot
// coordinate and 0 at the others' (x sliding comes out as [1, 0, 0]).
Eigen::MatrixXd null_space_basis(const Eigen::MatrixXd& J, int nu);

}  // namespace dropsim
