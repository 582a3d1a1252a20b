// The multibody equations of motion: generalised forces and Newton–Euler (the
// Jacobian: multibody_jacobian.cpp).
#include "dropsim/sim/multibody_system.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dropsim {

Eigen::MatrixXd mass_matrix(const MultibodyModel& model) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(model.nu, model.nu);
  for (const auto& b : model.bodies) {
    const int p = b.u_offset;
    switch (b.joint) {
      case Joint::vertical: m(p, p) = b.mass; break;
      case Joint::planar:
        m(p, p) = m(p + 1, p + 1) = b.mass;
        m(p + 2, p + 2) = b.inertia(2, 2);
        break;
      case Joint::free:
        m.block<3, 3>(p, p) = b.mass * Eigen::Matrix3d::Identity();
        m.block<3, 3>(p + 3, p + 3) = b.inertia;
        break;
    }
  }
  return m;
}

MultibodySystem::MultibodySystem(const MultibodyModel& model) : m_(model) {
  for (const auto& b : m_.bodies) {
    if (!(b.mass > 0.0)) throw std::invalid_argument("body " + b.name + ": mass must be > 0");
    inverse_inertia_.push_back(b.joint == Joint::free ? Eigen::Matrix3d(b.inertia.inverse()) : Eigen::Matrix3d::Zero());
  }
  for (const auto& c : m_.contacts) switch_count_ += contact_switch_count(c.law);
  // Sized once: a right-hand side allocates nothing.
  poses_.resize(m_.bodies.size());
  motions_.resize(m_.bodies.size());
  wrenches_.resize(m_.bodies.size());
}

void MultibodySystem::position_rate(const Vector& x, Vector& dxdt) const {
  const int nq = m_.nq;
  for (const auto& b : m_.bodies) {
    const int o = b.q_offset, p = nq + b.u_offset;
    if (b.joint != Joint::free) {
      dxdt.segment(o, num_speeds(b.joint)) = x.segment(p, num_speeds(b.joint));
      continue;
    }
    dxdt.segment<3>(o) = x.segment<3>(p);
    // Quaternion kinematics with body-frame w: qdot = 1/2 q (x) (0, w).
    const double w = x[o + 3];
    const Eigen::Vector3d v = x.segment<3>(o + 4), om = x.segment<3>(p + 3);
    dxdt[o + 3] = -0.5 * v.dot(om);
    dxdt.segment<3>(o + 4) = 0.5 * (w * om + v.cross(om));
  }
}

namespace {

// Whether contact c's law reads the gap rate (and so the rows) at k's gap:
// apart, a law that pushes only in contact does not. A NaN gap reads them.
bool law_reads_rate(const Contact& c, const ContactGap& k) {
  return !(k.gap >= 0.0) || !pushes_only_in_contact(c.law);
}

}  // namespace

ContactKinematics MultibodySystem::acting_kinematics(const Contact& c, const ContactPoses& poses,
                                                     const double* u) const {
  ContactKinematics k{contact_separation(c, poses)};
  if (law_reads_rate(c, k)) add_contact_rows(m_, c, poses, u, k);
  return k;
}

void MultibodySystem::place_bodies(const Eigen::Ref<const Vector>& x) const {
  body_poses(m_, x.head(m_.nq), poses_);
  const double* u = x.data() + m_.nq;
  for (std::size_t i = 0; i < m_.bodies.size(); ++i) motions_[i] = body_motion(m_.bodies[i], poses_[i], u);
}

// Inlined into both callers, as the per-contact kinematics it calls (sim/kinematics.hpp).
[[gnu::always_inline]] inline ContactGap MultibodySystem::acting_gap(const Contact& c) const {
  ContactGap k = contact_separation(c, contact_poses(c, poses_));
  if (law_reads_rate(c, k)) k.gap_rate = contact_gap_rate(c, contact_motions(c, motions_), k);
  return k;
}

void MultibodySystem::applied_forces(const Eigen::Ref<const Vector>& x, Eigen::Ref<Vector> f, double* forces,
                                     double* tangential, double* slip_speeds, double* vertical,
                                     double* indentations) const {
  contact_forces<true>(x, f.data(), forces, tangential, slip_speeds, vertical, indentations);
}

void MultibodySystem::contact_columns(const Eigen::Ref<const Vector>& x, double* forces, double* tangential,
                                      double* slip_speeds, double* vertical, double* indentations) const {
  contact_forces<false>(x, nullptr, forces, tangential, slip_speeds, vertical, indentations);
}

template <bool generalised>
void MultibodySystem::contact_forces(const Eigen::Ref<const Vector>& x, double* f, double* forces, double* tangential,
                                     double* slip_speeds, double* vertical, double* indentations) const {
  place_bodies(x);
  // Each body's contact forces are summed as one world force and moment about
  // its centre of mass and turned into generalised forces once: per contact,
  // turning every force into the body's frame cost a rotation more.
  if constexpr (generalised)
    for (std::size_t b = 0; b < m_.bodies.size(); ++b)
      wrenches_[b] = {Eigen::Vector3d(0.0, -m_.bodies[b].mass * m_.gravity, 0.0), Eigen::Vector3d::Zero()};
  for (std::size_t i = 0; i < m_.contacts.size(); ++i) {
    const Contact& c = m_.contacts[i];
    const ContactGap k = acting_gap(c);
    const double per_sphere = contact_force(c.law, -k.gap, -k.gap_rate);
    if (forces) forces[i] = per_sphere;
    if (tangential) tangential[i] = 0.0;
    if (slip_speeds) slip_speeds[i] = 0.0;
    if (vertical) vertical[i] = per_sphere * k.normal.y();
    if (indentations) indentations[i] = -k.gap;
    if (per_sphere == 0.0) continue;
    const double lambda = c.count * per_sphere;  // along +gap: pushes the bodies apart
    const ContactPoses poses = contact_poses(c, poses_);
    if constexpr (generalised) {
      const Eigen::Vector3d push = lambda * k.normal;  // on B, through the sphere centres
      for (int s = 0; s < contact_bodies(c); ++s) {
        Wrench& w = wrenches_[static_cast<std::size_t>(c.body[s])];
        const double side = contact_side(c, s);
        w.force += side * push;
        w.moment += k.arm[s].cross(side * push);
      }
    }
    if (!c.law.friction.acts()) continue;
    // Friction opposes B's slip on A at the contact point, in proportion to the
    // normal force as the law computes it (docs/physics.md#friction).
    const ContactSlip slip = contact_slip(c, poses, contact_motions(c, motions_), k);
    const double per_slip = friction_slope(c.law.friction, slip.speed, slip.speed_squared).per_slip;
    if constexpr (generalised) {
      const Eigen::Vector3d friction = -(lambda * per_slip) * slip.tangential;
      for (int s = 0; s < contact_bodies(c); ++s) {
        Wrench& w = wrenches_[static_cast<std::size_t>(c.body[s])];
        const Eigen::Vector3d on_body = contact_side(c, s) * friction;
        w.force += on_body;
        w.moment += (slip.point - poses[s]->com).cross(on_body);
      }
    }
    // Per sphere, F_n mu/s v_t: the friction over the count, without dividing by it.
    const double slip_speed = tangential || slip_speeds ? slip.tangential.norm() : 0.0;
    if (tangential) tangential[i] = per_sphere * std::abs(per_slip) * slip_speed;
    if (slip_speeds) slip_speeds[i] = slip_speed;
    if (vertical) vertical[i] -= per_sphere * per_slip * slip.tangential.y();
  }
  if constexpr (generalised) {
    for (int j = 0; j < m_.nu; ++j) f[j] = 0.0;
    for (std::size_t b = 0; b < m_.bodies.size(); ++b) {
      const Body& body = m_.bodies[b];
      add_body_wrench(body, poses_[b], wrenches_[b].force, wrenches_[b].moment, f + body.u_offset);
    }
  }
}

void MultibodySystem::operator()(const Vector& x, Vector& dxdt, double /*t*/) const {
  position_rate(x, dxdt);
  auto a = dxdt.tail(m_.nu);
  applied_forces(x, a);
  for (std::size_t i = 0; i < m_.bodies.size(); ++i) {
    const Body& b = m_.bodies[i];
    const int p = b.u_offset;
    if (b.joint == Joint::free) {
      // Euler's equations in the body frame: I wdot = tau - w x I w.
      const Eigen::Vector3d om = x.segment<3>(m_.nq + p + 3);
      a.segment<3>(p + 3) -= om.cross(b.inertia * om);
    }
    apply_inverse_mass(i, a.segment(p, num_speeds(b.joint)));
  }
}

void MultibodySystem::switches(const Vector& x, double* out) const {
  place_bodies(x);
  for (const auto& c : m_.contacts) {
    const ContactGap k = acting_gap(c);
    contact_switches(c.law, -k.gap, -k.gap_rate, out);
    out += contact_switch_count(c.law);
  }
}

void MultibodySystem::project(Vector& x) const {
  for (const auto& b : m_.bodies)
    if (b.joint == Joint::free) x.segment<4>(b.q_offset + 3).normalize();
}

MultibodySystem::Vector MultibodySystem::model_scaled_atol(double rtol) const {
  const double length = m_.characteristic_length;
  // Zero gravity still needs a speed scale: take standard gravity's.
  const double g = m_.gravity > 0.0 ? m_.gravity : standard_gravity;
  const double speed = std::sqrt(g * length), rate = std::sqrt(g / length);
  Vector atol(size());
  for (const auto& b : m_.bodies) {
    const int o = b.q_offset, p = m_.nq + b.u_offset;
    switch (b.joint) {
      case Joint::vertical:
        atol[o] = length;
        atol[p] = speed;
        break;
      case Joint::planar:
        atol.segment<3>(o) << length, length, 1.0;
        atol.segment<3>(p) << speed, speed, rate;
        break;
      case Joint::free:
        atol.segment<3>(o).setConstant(length);
        atol.segment<4>(o + 3).setConstant(1.0);
        atol.segment<3>(p).setConstant(speed);
        atol.segment<3>(p + 3).setConstant(rate);
        break;
    }
  }
  return rtol * atol;
}

}  // namespace dropsim
