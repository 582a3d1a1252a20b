// Frozen equilibrium, load shares, modeller's warnings, and modes of an articulated model.
#include "dropsim/sim/articulated_analysis.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dropsim/sim/format.hpp"
#include "dropsim/sim/kinematics.hpp"

namespace dropsim {

namespace {

// A sphere starting this many equilibrium indentations deep starts with a force
// far above its share of the weight: the run begins with a launch.
constexpr double deep_start_factor = 3.0;
// A contact carrying less than this fraction of the weight carries nothing.
constexpr double no_load_fraction = 1e-6;

int articulated_index(const ArticulatedModel& model, const std::string& name) {
  for (std::size_t i = 0; i < model.contacts.size(); ++i)
    if (model.contacts[i].name == name) return static_cast<int>(i);
  throw std::logic_error("frozen contact " + name + " is not in the model");
}

}  // namespace

FrozenAnalysis analyse_frozen(const ArticulatedModel& model, const Eigen::VectorXd& q) {
  FrozenAnalysis out;
  out.model = frozen_model(model, q);
  const MultibodyModel& frozen = out.model;
  const Eigen::VectorXd x0 = frozen.initial_state();
  // The search starts with the body moved up or down until its deepest sphere
  // just touches: OpenSim's default poses often sink the model or hold it in the air.
  Eigen::VectorXd start = x0;
  double lift = -std::numeric_limits<double>::infinity();
  for (const Contact& c : frozen.contacts)
    if (c.plane_normal.y() > 0.0) lift = std::max(lift, -contact_kinematics(frozen, c, x0).gap / c.plane_normal.y());
  if (std::isfinite(lift)) start[vertical_index(Joint::free)] += lift;
  try {
    out.equilibrium = static_equilibrium(frozen, start);
    out.at_equilibrium = true;
  } catch (const EquilibriumError& e) {
    out.no_equilibrium = e.what();
  }
  const Eigen::VectorXd& x = out.at_equilibrium ? out.equilibrium.x : x0;
  double total = 0.0;
  for (std::size_t k = 0; k < frozen.contacts.size(); ++k) {
    const Contact& c = frozen.contacts[k];
    FrozenContact fc;
    fc.contact = articulated_index(model, c.name);
    fc.default_indentation = -contact_kinematics(frozen, c, x0).gap;
    fc.indentation = -contact_kinematics(frozen, c, x).gap;
    fc.force = contact_force(c.law, fc.indentation, 0.0);
    total += fc.force;
    out.contacts.push_back(fc);
  }
  const double weight = frozen.total_mass() * frozen.gravity;
  for (FrozenContact& fc : out.contacts) fc.load_share = total > 0.0 ? fc.force / total : 0.0;

  if (!out.at_equilibrium) out.warnings.push_back("no static equilibrium with every joint locked: " + out.no_equilibrium);
  const auto n = static_cast<double>(out.contacts.size());
  for (const FrozenContact& fc : out.contacts) {
    const SphereOnHalfSpace& c = model.contacts[static_cast<std::size_t>(fc.contact)];
    const double radius = c.law.radius;
    if (out.at_equilibrium && fc.default_indentation > 0.0 && fc.indentation > 0.0 &&
        fc.default_indentation > deep_start_factor * fc.indentation)
      out.warnings.push_back(c.name + ": the sphere starts " + significant(fc.default_indentation, 4) + " m (" +
                             significant(fc.default_indentation / radius, 3) + " radii) inside the half-space, " +
                             significant(fc.default_indentation / fc.indentation, 3) +
                             " times its equilibrium indentation; a run from this pose starts with a launch");
    if (out.at_equilibrium && fc.force < no_load_fraction * weight)
      out.warnings.push_back(c.name + ": carries no load at the frozen equilibrium (the sphere stands " +
                             significant(-fc.indentation, 4) + " m off the half-space)");
    // The smoothed law's constant contact force pushes even at zero indentation;
    // where that alone exceeds the sphere's load, the model floats.
    if (c.law.kind == ContactLawKind::smooth_hunt_crossley) {
      const double at_touch = contact_force(c.law, 0.0, 0.0);
      const double share = out.at_equilibrium && total > 0.0 ? fc.force : weight / n;
      if (at_touch > share)
        out.warnings.push_back(c.name + ": constant_contact_force alone pushes " + significant(at_touch, 4) +
                               " N at zero indentation, more than the sphere's load of " + significant(share, 4) +
                               " N: the model floats on it (equilibrium indentation " + significant(fc.indentation, 3) +
                               " m; scale cf with the radius)");
    }
  }
  return out;
}

ModelModes analyse_model_modes(const ArticulatedModel& model, const Eigen::VectorXd& q, const FrozenAnalysis& frozen) {
  ModelModes out;
  const Eigen::VectorXd& x = frozen.at_equilibrium ? frozen.equilibrium.x : frozen.model.initial_state();
  out.frozen = analyse_modes(frozen.model, x);
  std::vector<double> indentation(model.contacts.size(), 0.0);
  for (const FrozenContact& fc : frozen.contacts) indentation[static_cast<std::size_t>(fc.contact)] = fc.indentation;
  Linearization lin = articulated_linearization(model, q, indentation);
  if (lin.M.rows() > 0 && Eigen::LLT<Eigen::MatrixXd>(lin.M).info() != Eigen::Success)
    throw std::invalid_argument("the joint-space mass matrix is singular at this pose: some unlocked coordinate moves no mass");
  out.articulated = contact_modes(std::move(lin));
  for (const int c : free_coordinates(model)) out.articulated_speeds.push_back(model.coordinates[static_cast<std::size_t>(c)].name);
  return out;
}

int dominant_contact(const Mode& mode) {
  if (mode.gap_shape.size() == 0) return -1;
  Eigen::Index i = 0;
  mode.gap_shape.cwiseAbs().maxCoeff(&i);
  return static_cast<int>(i);
}

}  // namespace dropsim
