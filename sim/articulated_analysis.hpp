// The contact modes of an articulated model at a pose, frozen and
// articulated, with the forces of its frozen stance (docs/physics.md#articulated-models).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dropsim/sim/articulated_stance.hpp"
#include "dropsim/sim/modes.hpp"

namespace dropsim {

struct ModelModes {
  ModesAnalysis frozen;       // speeds: the composite body's six
  ModesAnalysis articulated;  // speeds: the unlocked coordinates
  std::vector<std::string> articulated_speeds;  // coordinate names
  Eigen::VectorXd pose;       // the coordinates the articulated analysis used
  bool pose_at_equilibrium = false;  // the frozen equilibrium's rigid motion carried into the root joints
};

// The coordinates with the frozen equilibrium's rigid motion (from the pose q
// to the body at rest) carried into the root joints, where every root is a
// Free joint (three body-fixed rotations x, y, z, then translations x, y, z);
// nullopt otherwise.
std::optional<Eigen::VectorXd> pose_at_frozen_equilibrium(const ArticulatedModel& model, const Eigen::VectorXd& q,
                                                          const FrozenAnalysis& frozen);

// Both analyses at the frozen equilibrium's contact forces; the articulated
// one with M(q) at the frozen equilibrium's pose where the roots allow it
// (pose_at_frozen_equilibrium), else at q. Throws std::invalid_argument when
// M(q) is singular (a coordinate that moves no mass).
ModelModes analyse_model_modes(const ArticulatedModel& model, const Eigen::VectorXd& q, const FrozenAnalysis& frozen);

// The contact whose gap the mode moves most (an index into the linearisation's contacts).
int dominant_contact(const Mode& mode);

}  // namespace dropsim
