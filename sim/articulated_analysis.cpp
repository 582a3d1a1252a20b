// Modes of an articulated model, frozen and articulated.
#include "dropsim/sim/articulated_analysis.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dropsim/sim/format.hpp"
#include "dropsim/sim/model_error.hpp"
#include "dropsim/sim/kinematics.hpp"

namespace dropsim {

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
  // The moving roots: joints from the ground (or a body fixed to it) to a moving body.
  const std::vector<bool> fixed = ground_fixed_bodies(model);
  const auto moving_root = [&](const ArticulatedJoint& j) {
    return !fixed[static_cast<std::size_t>(j.child)] && (j.parent == ground_body || fixed[static_cast<std::size_t>(j.parent)]);
  };
  for (const ArticulatedJoint& j : model.joints)
    if (moving_root(j) && (j.parent != ground_body || !free_like(j))) return std::nullopt;
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
    if (!moving_root(j)) continue;
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
  for (const StanceContact& fc : frozen.contacts) indentation[static_cast<std::size_t>(fc.contact)] = fc.indentation;
  const std::optional<Eigen::VectorXd> at_rest = pose_at_frozen_equilibrium(model, q, frozen);
  out.pose = at_rest ? *at_rest : q;
  out.pose_at_equilibrium = at_rest.has_value();
  Linearization lin = articulated_linearization(model, out.pose, indentation);
  if (lin.M.rows() > 0 && Eigen::LLT<Eigen::MatrixXd>(lin.M).info() != Eigen::Success)
    throw ModelError("the joint-space mass matrix is singular at this pose: some unlocked coordinate moves no mass");
  out.articulated = contact_modes(std::move(lin));
  add_frozen_geometry_friction_modes(out.articulated);
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
