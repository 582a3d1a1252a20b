// Articulated kinematics by one pass from the ground out; composite body; linearisation.
#include "dropsim/sim/articulated.hpp"
#include "dropsim/integrators/check.hpp"

#include <cmath>
#include <stdexcept>

#include "dropsim/sim/kinematics.hpp"

namespace dropsim {

double ArticulatedModel::total_mass() const {
  double m = 0.0;
  for (const auto& b : bodies) m += b.mass;
  return m;
}

Eigen::VectorXd ArticulatedModel::default_coordinates() const {
  Eigen::VectorXd q(static_cast<Eigen::Index>(coordinates.size()));
  for (std::size_t i = 0; i < coordinates.size(); ++i) q[static_cast<Eigen::Index>(i)] = coordinates[i].default_value;
  return q;
}

Eigen::Matrix3d body_fixed_xyz(const Eigen::Vector3d& angles) {
  return (Eigen::AngleAxisd(angles.x(), Eigen::Vector3d::UnitX()) * Eigen::AngleAxisd(angles.y(), Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(angles.z(), Eigen::Vector3d::UnitZ()))
      .toRotationMatrix();
}

namespace {

double axis_value(const TransformAxis& a, const Eigen::VectorXd& q) {
  return a.function.value(a.coordinate >= 0 ? q[a.coordinate] : 0.0);
}
double axis_rate(const TransformAxis& a, const Eigen::VectorXd& q) {
  return a.coordinate >= 0 ? a.function.derivative(q[a.coordinate]) : 0.0;
}

}  // namespace

ArticulatedKinematics articulated_kinematics(const ArticulatedModel& model, const Eigen::VectorXd& q) {
  const auto nc = static_cast<Eigen::Index>(model.coordinates.size());
  if (q.size() != nc)
    throw std::invalid_argument("articulated_kinematics: q has " + std::to_string(q.size()) + " entries, the model " +
                                std::to_string(nc) + " coordinates");
  ArticulatedKinematics kin;
  kin.pose.assign(model.bodies.size(), Eigen::Isometry3d::Identity());
  kin.jacobian.assign(model.bodies.size(), Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, nc));
  std::vector<bool> placed(model.bodies.size(), false);
  const Eigen::Matrix<double, 6, Eigen::Dynamic> ground_jacobian = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, nc);
  for (const ArticulatedJoint& joint : model.joints) {
    DROPSIM_CHECK(joint.parent == ground_body || placed[static_cast<std::size_t>(joint.parent)],
                  "articulated_kinematics: joint " + joint.name + " comes before its parent");
    const Eigen::Isometry3d parent_frame_world = kin.pose_of(joint.parent) * joint.parent_frame;
    // X_FM: body-fixed rotations, then translations in F; with the joint's
    // angular and linear velocity in F per unit coordinate rate.
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
    Eigen::Matrix<double, 3, Eigen::Dynamic> spin = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, nc);
    Eigen::Matrix<double, 3, Eigen::Dynamic> slide = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, nc);
    for (const TransformAxis& a : joint.rotations) {
      if (a.coordinate >= 0) spin.col(a.coordinate) += axis_rate(a, q) * (rotation * a.axis);
      rotation = rotation * Eigen::AngleAxisd(axis_value(a, q), a.axis).toRotationMatrix();
    }
    Eigen::Vector3d offset = Eigen::Vector3d::Zero();
    for (const TransformAxis& a : joint.translations) {
      offset += axis_value(a, q) * a.axis;
      if (a.coordinate >= 0) slide.col(a.coordinate) += axis_rate(a, q) * a.axis;
    }
    Eigen::Isometry3d joint_transform = Eigen::Isometry3d::Identity();
    joint_transform.linear() = rotation;
    joint_transform.translation() = offset;
    const Eigen::Isometry3d moving_frame_world = parent_frame_world * joint_transform;
    const auto child = static_cast<std::size_t>(joint.child);
    kin.pose[child] = moving_frame_world * joint.child_frame.inverse();
    placed[child] = true;

    // Relative motion at a point x: R_GF slide + w_j x (x - p_M); at the world origin, R_GF slide + p_M x w_j.
    const Eigen::Matrix3d r_gf = parent_frame_world.linear();
    const Eigen::Matrix<double, 3, Eigen::Dynamic> w_joint = r_gf * spin;
    auto& jac = kin.jacobian[child];
    jac = joint.parent == ground_body ? ground_jacobian : kin.jacobian[static_cast<std::size_t>(joint.parent)];
    jac.topRows<3>() += w_joint;
    jac.bottomRows<3>() += r_gf * slide + cross_matrix(moving_frame_world.translation()) * w_joint;
  }
  for (std::size_t b = 0; b < placed.size(); ++b)
    DROPSIM_CHECK(placed[b], "articulated_kinematics: body " + model.bodies[b].name + " has no joint");
  return kin;
}

Eigen::MatrixXd joint_space_mass_matrix(const ArticulatedModel& model, const Eigen::VectorXd& q) {
  return joint_space_mass_matrix(model, articulated_kinematics(model, q));
}

Eigen::MatrixXd joint_space_mass_matrix(const ArticulatedModel& model, const ArticulatedKinematics& kin) {
  const auto nc = static_cast<Eigen::Index>(model.coordinates.size());
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(nc, nc);
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const ArticulatedBody& body = model.bodies[b];
    const Eigen::Isometry3d& pose = kin.pose[b];
    const Eigen::Vector3d centre = pose * body.mass_centre;
    const Eigen::Matrix<double, 3, Eigen::Dynamic> jw = kin.jacobian[b].topRows<3>();
    const Eigen::Matrix<double, 3, Eigen::Dynamic> jc = kin.jacobian[b].bottomRows<3>() - cross_matrix(centre) * jw;
    const Eigen::Matrix3d inertia = pose.linear() * body.inertia * pose.linear().transpose();
    m.noalias() += body.mass * jc.transpose() * jc + jw.transpose() * inertia * jw;
  }
  return 0.5 * (m + m.transpose());
}

Eigen::Vector3d sphere_centre(const ArticulatedModel& model, const ArticulatedKinematics& kin, int sphere) {
  const ContactSphereGeometry& s = model.spheres[static_cast<std::size_t>(sphere)];
  return kin.pose_of(s.body) * s.centre;
}

WorldPlane half_space_plane(const ArticulatedModel& model, const ArticulatedKinematics& kin, int half_space) {
  const ContactHalfSpaceGeometry& h = model.half_spaces[static_cast<std::size_t>(half_space)];
  const Eigen::Isometry3d pose = kin.pose_of(h.body);
  return {pose * h.frame.translation(), (pose.linear() * h.outward_normal()).normalized()};
}

ContactSides contact_sides(const ArticulatedModel& model, const ArticulatedKinematics& kin, int contact) {
  const ContactPair& c = model.contacts[static_cast<std::size_t>(contact)];
  const ContactSphereGeometry& sphere = model.spheres[static_cast<std::size_t>(c.sphere)];
  ContactSides g;
  if (c.between_spheres()) {
    // Simbody's sphere-sphere tracker: the normal along the line of centres, A to B.
    const ContactSphereGeometry& other = model.spheres[static_cast<std::size_t>(c.other_sphere)];
    const Eigen::Vector3d a = sphere_centre(model, kin, c.sphere), b = sphere_centre(model, kin, c.other_sphere);
    const double distance = (b - a).norm();
    g.body = {sphere.body, other.body};
    g.normal = distance > 0.0 ? Eigen::Vector3d((b - a) / distance) : Eigen::Vector3d::UnitY();
    g.indentation = sphere.radius + other.radius - distance;
    g.centre_b = b;
    g.radius_b = other.radius;
  } else {
    const WorldPlane plane = half_space_plane(model, kin, c.half_space);
    g.body = {model.half_spaces[static_cast<std::size_t>(c.half_space)].body, sphere.body};
    g.normal = plane.normal;
    g.centre_b = sphere_centre(model, kin, c.sphere);
    g.radius_b = sphere.radius;
    g.indentation = sphere.radius - plane.normal.dot(g.centre_b - plane.point);
  }
  return g;
}

double contact_indentation(const ArticulatedModel& model, const ArticulatedKinematics& kin, int contact) {
  return contact_sides(model, kin, contact).indentation;
}

std::vector<bool> ground_fixed_bodies(const ArticulatedModel& model) {
  std::vector<bool> moves(model.joints.size(), false);  // per joint: an unlocked coordinate
  for (const GeneralisedCoordinate& c : model.coordinates)
    if (!c.locked) moves[static_cast<std::size_t>(c.joint)] = true;
  std::vector<bool> fixed(model.bodies.size(), false);
  // Joints come parents first: a body is fixed when its joint and its parent are.
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    const ArticulatedJoint& joint = model.joints[j];
    const bool parent_fixed = joint.parent == ground_body || fixed[static_cast<std::size_t>(joint.parent)];
    fixed[static_cast<std::size_t>(joint.child)] = parent_fixed && !moves[j];
  }
  return fixed;
}

std::vector<int> free_coordinates(const ArticulatedModel& model) {
  std::vector<int> out;
  for (std::size_t i = 0; i < model.coordinates.size(); ++i)
    if (!model.coordinates[i].locked) out.push_back(static_cast<int>(i));
  return out;
}

Linearization articulated_linearization(const ArticulatedModel& model, const Eigen::VectorXd& q,
                                        const std::vector<double>& indentation) {
  if (indentation.size() != model.contacts.size())
    throw std::invalid_argument("articulated_linearization: one indentation per contact");
  const ArticulatedKinematics kin = articulated_kinematics(model, q);
  const std::vector<int> speeds = free_coordinates(model);
  const auto nu = static_cast<Eigen::Index>(speeds.size());
  // Restrict a matrix over all coordinates to the free ones (columns).
  const auto columns = [&](const Eigen::MatrixXd& all) {
    Eigen::MatrixXd out(all.rows(), nu);
    for (Eigen::Index k = 0; k < nu; ++k) out.col(k) = all.col(speeds[static_cast<std::size_t>(k)]);
    return out;
  };
  Linearization lin;
  const Eigen::MatrixXd m_all = joint_space_mass_matrix(model, kin);
  lin.M = columns(columns(m_all).transpose().eval());  // rows and columns
  std::vector<double> k, c, x, f;
  std::vector<Eigen::RowVectorXd> rows;
  Eigen::MatrixXd friction = Eigen::MatrixXd::Zero(nu, nu);
  bool any_friction = false;
  for (std::size_t i = 0; i < model.contacts.size(); ++i) {
    const ContactPair& contact = model.contacts[i];
    const ContactResponse r = contact_response(contact.law, indentation[i], 0.0);
    if (!(indentation[i] > 0.0) || !(r.stiffness > 0.0)) continue;
    const ContactSides g = contact_sides(model, kin, static_cast<int>(i));
    // Velocity of B's point at the contact, midway through the overlap,
    // relative to A's (docs/physics.md#friction).
    const Eigen::Vector3d point = g.centre_b - (g.radius_b - 0.5 * indentation[i]) * g.normal;
    const auto point_velocity = [&](int body) -> Eigen::Matrix<double, 3, Eigen::Dynamic> {
      if (body == ground_body) return Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, m_all.rows());
      const auto& j = kin.jacobian[static_cast<std::size_t>(body)];
      return j.bottomRows<3>() - cross_matrix(point) * j.topRows<3>();
    };
    const Eigen::MatrixXd relative = columns(point_velocity(g.body[1]) - point_velocity(g.body[0]));
    // Gap rate = n . (v_B - v_A): B moving against the normal closes the gap.
    rows.push_back(g.normal.transpose() * relative);
    lin.contacts.push_back(static_cast<int>(i));
    k.push_back(r.stiffness);
    c.push_back(r.damping);
    x.push_back(indentation[i]);
    f.push_back(r.force);
    if (contact.law.friction.acts() && r.force > 0.0) {
      any_friction = true;
      const double at_rest = contact.law.kind == ContactLawKind::smooth_hunt_crossley ? std::sqrt(contact.law.cf) : 0.0;
      const double per_slip = r.force * friction_slope(contact.law.friction, at_rest).per_slip;
      const Eigen::Matrix3d tangent_plane = Eigen::Matrix3d::Identity() - g.normal * g.normal.transpose();
      friction.noalias() += per_slip * relative.transpose() * tangent_plane * relative;
    }
  }
  const auto n = static_cast<Eigen::Index>(rows.size());
  lin.J.resize(n, nu);
  for (Eigen::Index i = 0; i < n; ++i) lin.J.row(i) = rows[static_cast<std::size_t>(i)];
  lin.K = Eigen::Map<Eigen::VectorXd>(k.data(), n).asDiagonal();
  lin.C = Eigen::Map<Eigen::VectorXd>(c.data(), n).asDiagonal();
  lin.indentation = Eigen::Map<Eigen::VectorXd>(x.data(), n);
  lin.force = Eigen::Map<Eigen::VectorXd>(f.data(), n);
  if (any_friction) lin.friction_damping = friction;
  return lin;
}

}  // namespace dropsim
