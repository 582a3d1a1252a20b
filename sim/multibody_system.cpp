// The multibody equations of motion: generalised forces, Newton–Euler, and the Jacobian.
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

void MultibodySystem::applied_forces(const Eigen::Ref<const Vector>& x, Eigen::Ref<Vector> f, double* forces) const {
  f.setZero();
  for (const auto& b : m_.bodies) f[b.u_offset + vertical_index(b.joint)] -= b.mass * m_.gravity;
  for (std::size_t i = 0; i < m_.contacts.size(); ++i) {
    const Contact& c = m_.contacts[i];
    const ContactKinematics k = contact_kinematics(m_, c, x);
    const double per_sphere = contact_force(c.law, -k.gap, -k.gap_rate);
    if (forces) forces[i] = per_sphere;
    if (per_sphere == 0.0) continue;
    const double lambda = c.count * per_sphere;  // along +gap: pushes the bodies apart
    for (int s = 0; s < 2 && c.body[s] >= 0; ++s) {
      const Body& body = m_.bodies[c.body[s]];
      const int n = num_speeds(body.joint);
      f.segment(body.u_offset, n) += lambda * k.row[s].head(n);
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
    switch (b.joint) {
      case Joint::vertical: a[p] /= b.mass; break;
      case Joint::planar:
        a.segment<2>(p) /= b.mass;
        a[p + 2] /= b.inertia(2, 2);
        break;
      case Joint::free: {
        a.segment<3>(p) /= b.mass;
        // Euler's equations in the body frame: I wdot = tau - w x I w.
        const Eigen::Vector3d om = x.segment<3>(m_.nq + p + 3);
        const Eigen::Vector3d tau = a.segment<3>(p + 3) - om.cross(b.inertia * om);
        a.segment<3>(p + 3) = inverse_inertia_[i] * tau;
        break;
      }
    }
  }
}

void MultibodySystem::switches(const Vector& x, double* out) const {
  for (const auto& c : m_.contacts) {
    const ContactKinematics k = contact_kinematics(m_, c, x);
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

void MultibodySystem::jacobian(const Vector& x, double t, Matrix& dfdx) const {
  const auto n = x.size();
  dfdx.resize(n, n);
  // Scratch kept by the system: a step of an implicit method allocates nothing.
  Vector &xp = jacobian_work_[0], &fp = jacobian_work_[1], &fm = jacobian_work_[2];
  xp = x;
  fp.resize(n);
  fm.resize(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const double h = 1e-7 * std::max(1.0, std::abs(x[j]));
    xp[j] = x[j] + h;
    (*this)(xp, fp, t);
    xp[j] = x[j] - h;
    (*this)(xp, fm, t);
    xp[j] = x[j];
    dfdx.col(j) = (fp - fm) / (2.0 * h);
  }
}

}  // namespace dropsim
