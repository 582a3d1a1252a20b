// Frozen equilibrium, load shares, modeller's warnings, and modes of an articulated model.
#include "dropsim/sim/articulated_analysis.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
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
      out.warnings.push_back(c.name + ": the sphere starts " + significant(fc.default_indentation, 4) + " m (x/R " +
                             significant(fc.default_indentation / radius, 3) + ") inside the half-space, " +
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

namespace {

bool unit_slope(const TransformAxis& a, int axis) {
  return a.coordinate >= 0 && a.axis.isApprox(Eigen::Vector3d::Unit(axis), 1e-15) && a.function.value(0.0) == 0.0 &&
         a.function.value(1.0) == 1.0 && a.function.derivative(0.37) == 1.0;
}

bool free_like(const ArticulatedJoint& j) {
  if (j.rotations.size() != 3 || j.translations.size() != 3) return false;
  for (int k = 0; k < 3; ++k)
    if (!unit_slope(j.rotations[static_cast<std::size_t>(k)], k) || !unit_slope(j.translations[static_cast<std::size_t>(k)], k))
      return false;
  return true;
}

// Body-fixed x-y-z angles of R = Rx(a) Ry(b) Rz(c), b in [-pi/2, pi/2].
Eigen::Vector3d xyz_angles(const Eigen::Matrix3d& r) {
  return {std::atan2(-r(1, 2), r(2, 2)), std::asin(std::clamp(r(0, 2), -1.0, 1.0)), std::atan2(-r(0, 1), r(0, 0))};
}

}  // namespace

std::optional<Eigen::VectorXd> pose_at_frozen_equilibrium(const ArticulatedModel& model, const Eigen::VectorXd& q,
                                                          const FrozenAnalysis& frozen) {
  if (!frozen.at_equilibrium) return std::nullopt;
  for (const ArticulatedJoint& j : model.joints)
    if (j.parent == ground_body && !free_like(j)) return std::nullopt;
  // The rigid motion D taking the frozen body from q to rest: p -> c1 + Q (p - c0).
  const Eigen::VectorXd x0 = frozen.model.initial_state(), &x1 = frozen.equilibrium.x;
  const Eigen::Vector3d c0 = x0.segment<3>(0), c1 = x1.segment<3>(0);
  const Eigen::Matrix3d rotation = Eigen::Quaterniond(x1[3], x1[4], x1[5], x1[6]).normalized().toRotationMatrix();
  Eigen::Isometry3d d = Eigen::Isometry3d::Identity();
  d.linear() = rotation;
  d.translation() = c1 - rotation * c0;
  Eigen::VectorXd moved = q;
  const ArticulatedKinematics kin = articulated_kinematics(model, q);
  for (const ArticulatedJoint& j : model.joints) {
    if (j.parent != ground_body) continue;
    // X_GB = X_GF X_FM X_MB, so the new X_FM = X_GF^-1 D X_GF X_FM.
    const Eigen::Isometry3d fm = j.parent_frame.inverse() * kin.pose_of(j.child) * j.child_frame;
    const Eigen::Isometry3d moved_fm = j.parent_frame.inverse() * d * j.parent_frame * fm;
    const Eigen::Vector3d angles = xyz_angles(moved_fm.linear());
    for (int k = 0; k < 3; ++k) {
      moved[j.rotations[static_cast<std::size_t>(k)].coordinate] = angles[k];
      moved[j.translations[static_cast<std::size_t>(k)].coordinate] = moved_fm.translation()[k];
    }
  }
  return moved;
}

ModelModes analyse_model_modes(const ArticulatedModel& model, const Eigen::VectorXd& q, const FrozenAnalysis& frozen) {
  ModelModes out;
  const Eigen::VectorXd& x = frozen.at_equilibrium ? frozen.equilibrium.x : frozen.model.initial_state();
  out.frozen = analyse_modes(frozen.model, x);
  std::vector<double> indentation(model.contacts.size(), 0.0);
  for (const FrozenContact& fc : frozen.contacts) indentation[static_cast<std::size_t>(fc.contact)] = fc.indentation;
  const std::optional<Eigen::VectorXd> at_rest = pose_at_frozen_equilibrium(model, q, frozen);
  out.pose = at_rest ? *at_rest : q;
  out.pose_at_equilibrium = at_rest.has_value();
  Linearization lin = articulated_linearization(model, out.pose, indentation);
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
