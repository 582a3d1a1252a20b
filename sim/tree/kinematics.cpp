// The body tree's kinematics: one pass from the ground out, with each
// function-based joint's motion subspace S(q) and its own S-dot u terms.
#include <cmath>

#include "dropsim/sim/kinematics.hpp"
#include "dropsim/sim/tree/dynamics.hpp"

namespace dropsim::tree {

TreeData::TreeData(const TreeModel& model)
    : coordinates(model.held_coordinates()),
      pose(static_cast<std::size_t>(model.num_bodies()), Eigen::Isometry3d::Identity()),
      velocity(static_cast<std::size_t>(model.num_bodies()), Vector6d::Zero()),
      bias(velocity),
      inertia(static_cast<std::size_t>(model.num_bodies()), Matrix6d::Zero()),
      force(velocity),
      external(velocity),
      contacts(model.source().contacts.size()),
      mass(Eigen::MatrixXd::Zero(model.nu(), model.nu())),
      tau(Eigen::VectorXd::Zero(model.nu())),
      cholesky(model.nu()) {
  for (const TreeJoint& j : model.joints()) {
    motion.emplace_back(Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, static_cast<Eigen::Index>(j.speeds.size())));
    carried.push_back(motion.back());
  }
}

namespace {

// The world spatial inertia of a body at `pose`: mass m, mass centre c and
// central inertia Ic turned to world axes,
// [Ic - m [c]x [c]x, m [c]x; -m [c]x, m 1].
Matrix6d world_inertia(const ArticulatedBody& b, const Eigen::Isometry3d& pose) {
  const Eigen::Matrix3d cx = cross_matrix(pose * b.mass_centre);
  Matrix6d out;
  out.topLeftCorner<3, 3>() = pose.linear() * b.inertia * pose.linear().transpose() - b.mass * cx * cx;
  out.topRightCorner<3, 3>() = b.mass * cx;
  out.bottomLeftCorner<3, 3>() = -b.mass * cx;
  out.bottomRightCorner<3, 3>() = b.mass * Eigen::Matrix3d::Identity();
  return out;
}

}  // namespace

void forward_kinematics(const TreeModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                        const Eigen::Ref<const Eigen::VectorXd>& u, TreeData& data) {
  model.full_coordinates(q, data.coordinates);
  const Eigen::VectorXd& c = data.coordinates;
  const std::vector<TreeJoint>& joints = model.joints();
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const TreeJoint& joint = joints[j];
    auto& s = data.motion[j];
    s.setZero();
    // X_FM in F: body-fixed rotations, each about its axis turned by the ones
    // before it, then translations along fixed axes of F. With the relative
    // angular velocity w and its qdd = 0 rate: each axis adds
    // f' qd R_<k a_k to w, and f'' qd^2 R_<k a_k + w_<k x (f' qd R_<k a_k)
    // to its rate (R_<k turns with w_<k).
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
    Eigen::Vector3d spin = Eigen::Vector3d::Zero(), spin_bias = Eigen::Vector3d::Zero();
    for (std::size_t k = 0; k < joint.rotations.size(); ++k) {
      const TransformAxis& a = joint.rotations[k];
      const double value = a.coordinate >= 0 ? c[a.coordinate] : 0.0;
      const int at = joint.rotation_speed[k];
      if (at >= 0) {
        const Eigen::Vector3d direction = rotation * a.axis;
        const double rate = a.function.derivative(value), qd = u[joint.speeds[static_cast<std::size_t>(at)]];
        s.col(at).head<3>() += rate * direction;
        const Eigen::Vector3d turn = (rate * qd) * direction;
        spin_bias += (a.function.second_derivative(value) * qd * qd) * direction + spin.cross(turn);
        spin += turn;
      }
      rotation = rotation * Eigen::AngleAxisd(a.function.value(value), a.axis).toRotationMatrix();
    }
    Eigen::Vector3d offset = Eigen::Vector3d::Zero(), slide = Eigen::Vector3d::Zero(), slide_bias = Eigen::Vector3d::Zero();
    for (std::size_t k = 0; k < joint.translations.size(); ++k) {
      const TransformAxis& a = joint.translations[k];
      const double value = a.coordinate >= 0 ? c[a.coordinate] : 0.0;
      offset += a.function.value(value) * a.axis;
      const int at = joint.translation_speed[k];
      if (at < 0) continue;
      const double rate = a.function.derivative(value), qd = u[joint.speeds[static_cast<std::size_t>(at)]];
      s.col(at).tail<3>() += rate * a.axis;
      slide += (rate * qd) * a.axis;
      slide_bias += (a.function.second_derivative(value) * qd * qd) * a.axis;
    }
    const bool grounded = joint.parent == ground_body;
    const auto parent = static_cast<std::size_t>(joint.parent);
    const Eigen::Isometry3d frame = grounded ? joint.parent_frame : Eigen::Isometry3d(data.pose[parent] * joint.parent_frame);
    const Eigen::Matrix3d& r = frame.linear();
    const Eigen::Vector3d moving_origin = frame * offset;  // M's origin in world
    // S in world about the origin: (R w, R v_M + p_M x R w) per column.
    for (Eigen::Index k = 0; k < s.cols(); ++k) {
      const Eigen::Vector3d w = r * s.col(k).head<3>();
      s.col(k).tail<3>() = r * s.col(k).tail<3>() + moving_origin.cross(w);
      s.col(k).head<3>() = w;
    }
    // The relative velocity and its rate at qdd = 0 about F's origin in F,
    // (w, v_M + p x w) and (w', v_M' + v_M x w + p x w'), then in world.
    Vector6d relative, own_bias;
    relative << r * spin, r * slide + moving_origin.cross(r * spin);
    const Eigen::Vector3d spin_bias_world = r * spin_bias;
    own_bias << spin_bias_world,
        r * (slide_bias + slide.cross(spin) + offset.cross(spin_bias)) + frame.translation().cross(spin_bias_world);
    Eigen::Isometry3d joint_transform = Eigen::Isometry3d::Identity();
    joint_transform.linear() = rotation;
    joint_transform.translation() = offset;
    const auto b = static_cast<std::size_t>(joint.child);
    data.pose[b] = frame * joint_transform * joint.child_frame_inverse;
    // v = v_parent + S u; a = a_parent + v_parent x S u + (S-dot u)_own, in
    // fixed axes: F moves with the parent (Featherstone 2008, eq. 2.45).
    const Vector6d parent_velocity = grounded ? Vector6d::Zero() : data.velocity[parent];
    const Vector6d parent_bias = grounded ? Vector6d::Zero() : data.bias[parent];
    data.velocity[b] = parent_velocity + relative;
    data.bias[b] = parent_bias + cross_motion(parent_velocity, relative) + own_bias;
    data.inertia[b] = world_inertia(model.source().bodies[b], data.pose[b]);
  }
}

}  // namespace dropsim::tree
