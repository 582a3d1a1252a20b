// Multibody kinematics, contact Jacobians and the equations of motion.
#include "sim/multibody.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/drop.hpp"

namespace dropsim {

namespace {

using Row6 = Eigen::Matrix<double, 6, 1>;

// Index of the vertical coordinate (y) within a body's q and u blocks.
int y_index(Joint joint) { return joint == Joint::vertical ? 0 : 1; }

Eigen::Quaterniond body_quaternion(const Eigen::Ref<const Eigen::VectorXd>& q, int offset) {
  return Eigen::Quaterniond(q[offset + 3], q[offset + 4], q[offset + 5], q[offset + 6]).normalized();
}

Eigen::Vector3d body_com(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q) {
  const int o = b.q_offset;
  switch (b.joint) {
    case Joint::vertical: return {b.position.x(), q[o], b.position.z()};
    case Joint::planar: return {q[o], q[o + 1], b.position.z()};
    case Joint::free: return q.segment<3>(o);
  }
  return Eigen::Vector3d::Zero();
}

Eigen::Vector3d body_velocity(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& u) {
  const int o = b.u_offset;
  switch (b.joint) {
    case Joint::vertical: return {0.0, u[o], 0.0};
    case Joint::planar: return {u[o], u[o + 1], 0.0};
    case Joint::free: return u.segment<3>(o);
  }
  return Eigen::Vector3d::Zero();
}

}  // namespace

std::string_view to_string(Joint joint) {
  switch (joint) {
    case Joint::vertical: return "vertical";
    case Joint::planar: return "planar";
    case Joint::free: return "free";
  }
  return "unknown";
}

int num_positions(Joint joint) { return joint == Joint::vertical ? 1 : joint == Joint::planar ? 3 : 7; }
int num_speeds(Joint joint) { return joint == Joint::vertical ? 1 : joint == Joint::planar ? 3 : 6; }

void MultibodyModel::finalize() {
  nq = nu = 0;
  for (auto& b : bodies) {
    b.q_offset = nq;
    b.u_offset = nu;
    nq += num_positions(b.joint);
    nu += num_speeds(b.joint);
  }
}

double MultibodyModel::total_mass() const {
  double m = 0.0;
  for (const auto& b : bodies) m += b.mass;
  return m;
}

Eigen::VectorXd MultibodyModel::initial_state() const {
  Eigen::VectorXd x(nq + nu);
  for (const auto& b : bodies) {
    const int o = b.q_offset, p = nq + b.u_offset;
    switch (b.joint) {
      case Joint::vertical:
        x[o] = b.position.y();
        x[p] = b.velocity.y();
        break;
      case Joint::planar:
        x.segment<2>(o) = b.position.head<2>();
        x[o + 2] = b.angle;
        x.segment<2>(p) = b.velocity.head<2>();
        x[p + 2] = b.angular_velocity.z();
        break;
      case Joint::free: {
        const Eigen::Quaterniond r = b.orientation.normalized();
        x.segment<3>(o) = b.position;
        x.segment<4>(o + 3) << r.w(), r.x(), r.y(), r.z();
        x.segment<3>(p) = b.velocity;
        x.segment<3>(p + 3) = r.toRotationMatrix().transpose() * b.angular_velocity;  // to the body frame
        break;
      }
    }
  }
  return x;
}

namespace {

// The columns of q or u, "<body>.<coordinate>" and its unit, per joint.
struct ColumnSpec {
  const char* coordinate;
  const char* unit;
};
using JointColumns = std::vector<ColumnSpec>;
const JointColumns& joint_columns(Joint joint, bool speeds) {
  static const JointColumns vertical_q{{"y", "m"}}, vertical_u{{"y", "m/s"}};
  static const JointColumns planar_q{{"x", "m"}, {"y", "m"}, {"angle", "rad"}},
      planar_u{{"x", "m/s"}, {"y", "m/s"}, {"angle", "rad/s"}};
  // A free body's q holds a unit quaternion, its u the body-frame angular velocity.
  static const JointColumns free_q{{"x", "m"}, {"y", "m"}, {"z", "m"}, {"qw", "1"}, {"qx", "1"}, {"qy", "1"}, {"qz", "1"}},
      free_u{{"x", "m/s"}, {"y", "m/s"}, {"z", "m/s"}, {"wx", "rad/s"}, {"wy", "rad/s"}, {"wz", "rad/s"}};
  switch (joint) {
    case Joint::vertical: return speeds ? vertical_u : vertical_q;
    case Joint::planar: return speeds ? planar_u : planar_q;
    case Joint::free: break;
  }
  return speeds ? free_u : free_q;
}

std::vector<std::string> columns(const std::vector<Body>& bodies, bool speeds, bool units) {
  std::vector<std::string> out;
  for (const auto& b : bodies)
    for (const ColumnSpec& c : joint_columns(b.joint, speeds)) out.push_back(units ? c.unit : b.name + "." + c.coordinate);
  return out;
}

}  // namespace

std::vector<std::string> MultibodyModel::speed_names() const { return columns(bodies, true, false); }
std::vector<std::string> MultibodyModel::position_names() const { return columns(bodies, false, false); }
std::vector<std::string> MultibodyModel::speed_units() const { return columns(bodies, true, true); }
std::vector<std::string> MultibodyModel::position_units() const { return columns(bodies, false, true); }

Eigen::Vector3d body_point(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& r) {
  const int o = b.q_offset;
  switch (b.joint) {
    case Joint::vertical: return body_com(b, q) + r;
    case Joint::planar: {
      const double c = std::cos(q[o + 2]), s = std::sin(q[o + 2]);
      return body_com(b, q) + Eigen::Vector3d(c * r.x() - s * r.y(), s * r.x() + c * r.y(), r.z());
    }
    case Joint::free: return body_com(b, q) + body_quaternion(q, o) * r;
  }
  return Eigen::Vector3d::Zero();
}

Row6 point_jacobian_row(const Body& b, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& r,
                        const Eigen::Vector3d& n) {
  Row6 row = Row6::Zero();
  const int o = b.q_offset;
  switch (b.joint) {
    case Joint::vertical: row[0] = n.y(); break;
    case Joint::planar: {
      // d/dt of the rotated arm is omega z x (R r).
      const double c = std::cos(q[o + 2]), s = std::sin(q[o + 2]);
      const double rx = c * r.x() - s * r.y(), ry = s * r.x() + c * r.y();
      row << n.x(), n.y(), rx * n.y() - ry * n.x(), 0.0, 0.0, 0.0;
      break;
    }
    case Joint::free:
      // n . (R (w_b x r)) = w_b . (r x R^T n)
      row.head<3>() = n;
      row.tail<3>() = r.cross(body_quaternion(q, o).conjugate() * n);
      break;
  }
  return row;
}

void advance_configuration(const MultibodyModel& model, Eigen::Ref<Eigen::VectorXd> q,
                           const Eigen::Ref<const Eigen::VectorXd>& du) {
  for (const auto& b : model.bodies) {
    const int o = b.q_offset, p = b.u_offset;
    if (b.joint != Joint::free) {
      q.segment(o, num_speeds(b.joint)) += du.segment(p, num_speeds(b.joint));
      continue;
    }
    q.segment<3>(o) += du.segment<3>(p);
    const Eigen::Vector3d turn = du.segment<3>(p + 3);
    const double angle = turn.norm();
    if (angle == 0.0) continue;
    const Eigen::Quaterniond r =
        (body_quaternion(q, o) * Eigen::Quaterniond(Eigen::AngleAxisd(angle, turn / angle))).normalized();
    q.segment<4>(o + 3) << r.w(), r.x(), r.y(), r.z();
  }
}

Eigen::VectorXd configuration_difference(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                                         const Eigen::Ref<const Eigen::VectorXd>& q0) {
  Eigen::VectorXd du(model.nu);
  for (const auto& b : model.bodies) {
    const int o = b.q_offset, p = b.u_offset;
    if (b.joint != Joint::free) {
      du.segment(p, num_speeds(b.joint)) = q.segment(o, num_speeds(b.joint)) - q0.segment(o, num_speeds(b.joint));
      continue;
    }
    du.segment<3>(p) = q.segment<3>(o) - q0.segment<3>(o);
    const Eigen::AngleAxisd turn(body_quaternion(q0, o).conjugate() * body_quaternion(q, o));
    du.segment<3>(p + 3) = turn.angle() * turn.axis();
  }
  return du;
}

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

ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& c,
                                     const Eigen::Ref<const Eigen::VectorXd>& x) {
  ContactKinematics k;
  const auto q = x.head(model.nq);
  const Body& a = model.bodies[c.body[0]];
  const Eigen::Vector3d pa = body_point(a, q, c.at[0]);
  if (c.type == ContactType::sphere_plane) {
    k.gap = pa.y() - c.radius[0];
    k.row[0] = point_jacobian_row(a, q, c.at[0], k.normal);
  } else {
    const Body& b = model.bodies[c.body[1]];
    const Eigen::Vector3d d = body_point(b, q, c.at[1]) - pa;
    const double distance = d.norm();
    if (distance > 0.0) k.normal = d / distance;  // coincident centres: fall back to +y
    k.gap = distance - c.radius[0] - c.radius[1];
    k.row[0] = -point_jacobian_row(a, q, c.at[0], k.normal);
    k.row[1] = point_jacobian_row(b, q, c.at[1], k.normal);
  }
  if (x.size() > model.nq) {
    const auto u = x.tail(model.nu);
    for (int s = 0; s < 2 && c.body[s] >= 0; ++s) {
      const Body& body = model.bodies[c.body[s]];
      const int n = num_speeds(body.joint);
      k.gap_rate += k.row[s].head(n).dot(u.segment(body.u_offset, n));
    }
  }
  return k;
}

Eigen::MatrixXd contact_jacobian(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x) {
  Eigen::MatrixXd j = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(model.contacts.size()), model.nu);
  for (std::size_t i = 0; i < model.contacts.size(); ++i) {
    const Contact& c = model.contacts[i];
    const ContactKinematics k = contact_kinematics(model, c, x.head(model.nq));
    for (int s = 0; s < 2 && c.body[s] >= 0; ++s) {
      const Body& body = model.bodies[c.body[s]];
      const int n = num_speeds(body.joint);
      j.row(static_cast<Eigen::Index>(i)).segment(body.u_offset, n) += k.row[s].head(n).transpose();
    }
  }
  return j;
}

MultibodyEnergies multibody_energies(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x) {
  MultibodyEnergies e;
  const auto q = x.head(model.nq);
  const auto u = x.tail(model.nu);
  for (const auto& b : model.bodies) {
    const int n = num_speeds(b.joint);
    const auto ub = u.segment(b.u_offset, n);
    e.kinetic += 0.5 * b.mass * ub.head(b.joint == Joint::vertical ? 1 : b.joint == Joint::planar ? 2 : 3).squaredNorm();
    if (b.joint == Joint::planar) e.kinetic += 0.5 * b.inertia(2, 2) * ub[2] * ub[2];
    if (b.joint == Joint::free) e.kinetic += 0.5 * ub.tail<3>().dot(b.inertia * ub.tail<3>());
    e.potential += b.mass * model.gravity * q[b.q_offset + y_index(b.joint)];
  }
  for (const auto& c : model.contacts) {
    const ContactKinematics k = contact_kinematics(model, c, x);
    e.elastic += c.count * contact_elastic_energy(c.law, -k.gap);
  }
  return e;
}

Eigen::Vector3d angular_momentum(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x) {
  const auto q = x.head(model.nq);
  const auto u = x.tail(model.nu);
  Eigen::Vector3d h = Eigen::Vector3d::Zero();
  for (const auto& b : model.bodies) {
    h += b.mass * body_com(b, q).cross(body_velocity(b, u));
    if (b.joint == Joint::planar) h.z() += b.inertia(2, 2) * u[b.u_offset + 2];
    if (b.joint == Joint::free)
      h += body_quaternion(q, b.q_offset) * (b.inertia * u.segment<3>(b.u_offset + 3));
  }
  return h;
}

MultibodyModel multibody_from_drop(const DropModel& drop) {
  MultibodyModel m;
  m.gravity = drop.gravity;
  m.characteristic_length = drop.characteristic_length;
  Body b;
  b.name = "body";
  b.joint = Joint::vertical;
  b.mass = drop.mass;
  b.position.y() = drop.initial_height + drop.law.radius;
  b.velocity.y() = drop.initial_velocity;
  m.bodies.push_back(b);
  Contact c;
  c.name = "spheres";
  c.body[0] = 0;
  c.radius[0] = drop.law.radius;
  c.count = drop.spheres;
  c.law = drop.law;
  m.contacts.push_back(c);
  m.finalize();
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
  for (const auto& b : m_.bodies) f[b.u_offset + y_index(b.joint)] -= b.mass * m_.gravity;
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
  Vector xp = x, fp(n), fm(n);
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
