// The model a scenario describes, and the one place that dispatches on its kind.
//
// Two systems stand behind one run pipeline: the paper's 1-DOF drop keeps its
// fixed-size DropSystem (the fast path the paper suite runs on); bodies on
// contacts run as a MultibodySystem. Every consumer that works on either —
// run, budget estimate, equilibrium, linearisation — takes a Model and lets
// std::visit pick the system.
#pragma once

#include <variant>

#include "dropsim/sim/drop.hpp"
#include "dropsim/sim/multibody.hpp"

namespace dropsim {

using Model = std::variant<DropModel, MultibodyModel>;

inline double gravity_of(const Model& model) {
  return std::visit([](const auto& m) { return m.gravity; }, model);
}
inline double characteristic_length_of(const Model& model) {
  return std::visit([](const auto& m) { return m.characteristic_length; }, model);
}

}  // namespace dropsim
