// Energies and momentum of a multibody state (the energy balance behind /energy/dissipated).
#pragma once

#include "dropsim/sim/multibody_model.hpp"

namespace dropsim {

// Energies at state x: kinetic 1/2 u^T M u, potential sum m g y (zero at y = 0),
// elastic sum count * stored energy of each contact law.
struct MultibodyEnergies {
  double kinetic = 0.0, potential = 0.0, elastic = 0.0;
  double mechanical() const { return kinetic + potential + elastic; }
};
MultibodyEnergies multibody_energies(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x);
// The same with each contact's indentation (-gap, m) known already.
MultibodyEnergies multibody_energies(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x,
                                     const double* indentations);

// Total angular momentum about the world origin (kg m^2/s, world frame).
Eigen::Vector3d angular_momentum(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x);

}  // namespace dropsim
