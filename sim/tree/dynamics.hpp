// Forward dynamics of the body tree: kinematics by one pass from the ground
// out, contact forces, the mass matrix by the composite-rigid-body algorithm,
// the bias by recursive Newton–Euler, and qdd by Cholesky
// (docs/physics.md#the-body-tree; Featherstone, Rigid Body Dynamics
// Algorithms, 2008, ch. 5-6).
#pragma once

#include "dropsim/sim/tree/data.hpp"
#include "dropsim/sim/tree/model.hpp"

namespace dropsim::tree {

// Poses, joint motion subspaces S, body velocities and bias accelerations
// (S-dot u, the joints' own second-order terms included) at state (q, u).
void forward_kinematics(const TreeModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& u, TreeData& data);

// Every contact pair's force from the kinematics: data.contacts and data.external.
void contact_forces(const TreeModel& model, TreeData& data);

// From kinematics and contacts: data.mass = M(q) and data.tau = the applied
// generalised force (gravity, contacts) less the velocity-product terms, so
// that M qdd = tau.
void mass_and_force(const TreeModel& model, TreeData& data);

// All of the above and qdd = M^-1 tau. Returns false where M is not positive
// definite (qdd then unset).
bool forward_dynamics(const TreeModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& u, TreeData& data, Eigen::Ref<Eigen::VectorXd> qdd);

struct TreeEnergies {
  double kinetic = 0.0, gravitational = 0.0, elastic = 0.0;  // J
  double mechanical() const { return kinetic + gravitational + elastic; }
};
// From kinematics and contacts already evaluated in data.
TreeEnergies tree_energies(const TreeModel& model, const TreeData& data);

// Spatial cross products: motion (crm) and force (crf) by motion v.
inline Vector6d cross_motion(const Vector6d& v, const Vector6d& m) {
  Vector6d out;
  out.head<3>() = v.head<3>().cross(m.head<3>());
  out.tail<3>() = v.head<3>().cross(m.tail<3>()) + v.tail<3>().cross(m.head<3>());
  return out;
}
inline Vector6d cross_force(const Vector6d& v, const Vector6d& f) {
  Vector6d out;
  out.head<3>() = v.head<3>().cross(f.head<3>()) + v.tail<3>().cross(f.tail<3>());
  out.tail<3>() = v.head<3>().cross(f.tail<3>());
  return out;
}

}  // namespace dropsim::tree
