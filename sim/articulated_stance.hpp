// How an articulated model stands: the static equilibrium of its rigid
// models (frozen whole, and on the vertical slider of the scaling paper's
// drop), each sphere's load, the support polygon, and the warnings a modeller
// needs (docs/physics.md#articulated-models).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dropsim/sim/articulated.hpp"
#include "dropsim/sim/equilibrium.hpp"

namespace dropsim {

struct StanceContact {
  int contact = 0;                   // into ArticulatedModel::contacts
  double default_indentation = 0.0;  // m, at the pose analysed (before equilibrium)
  double indentation = 0.0;          // m, at the equilibrium
  double force = 0.0;                // N per sphere, normal, at the equilibrium
  double load_share = 0.0;           // of the summed normal forces
};

// One rigid model's static equilibrium. Where it was not found, `contacts`
// is empty and `no_equilibrium` says what did not converge or why none exists.
struct Stance {
  MultibodyModel model;
  bool at_equilibrium = false;
  std::string no_equilibrium;
  Equilibrium equilibrium;
  std::vector<StanceContact> contacts;  // the rigid model's contacts, in its order
};

// The frozen model's mass centre against the polygon of the contacts that
// carry the vertical stance's load, in the horizontal plane.
struct SupportPolygon {
  int loaded = 0;         // contacts carrying load
  double outside = 0.0;   // m, the mass centre's distance outside the polygon; 0 inside or on it
};

struct FrozenAnalysis : Stance {
  Stance vertical;  // the paper's protocol: every coordinate locked but the vertical translation
  std::optional<SupportPolygon> support;  // where the vertical stance was found
  std::vector<std::string> warnings;
};

// Both stances of the model at q.
FrozenAnalysis analyse_frozen(const ArticulatedModel& model, const Eigen::VectorXd& q);

}  // namespace dropsim
