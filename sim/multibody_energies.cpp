// Kinetic, potential and elastic energy, and angular momentum, of a multibody state.
#include "dropsim/sim/multibody_energies.hpp"

#include "dropsim/sim/kinematics.hpp"

namespace dropsim {

namespace {

// Both overloads: indentation(i) is contact i's. The equilibrium solver calls
// the one without indentations per iterate, so neither allocates.
template <class Indentation>
MultibodyEnergies energies(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x,
                           Indentation indentation) {
  MultibodyEnergies e;
  const auto q = x.head(model.nq);
  const auto u = x.tail(model.nu);
  for (const auto& b : model.bodies) {
    const int n = num_speeds(b.joint);
    const auto ub = u.segment(b.u_offset, n);
    e.kinetic += 0.5 * b.mass * ub.head(b.joint == Joint::vertical ? 1 : b.joint == Joint::planar ? 2 : 3).squaredNorm();
    if (b.joint == Joint::planar) e.kinetic += 0.5 * b.inertia(2, 2) * ub[2] * ub[2];
    if (b.joint == Joint::free) e.kinetic += 0.5 * ub.tail<3>().dot(b.inertia * ub.tail<3>());
    e.potential += b.mass * model.gravity * q[b.q_offset + vertical_index(b.joint)];
  }
  for (std::size_t i = 0; i < model.contacts.size(); ++i) {
    const Contact& c = model.contacts[i];
    e.elastic += c.count * contact_elastic_energy(c.law, indentation(i));
  }
  return e;
}

}  // namespace

MultibodyEnergies multibody_energies(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x) {
  return energies(model, x, [&](std::size_t i) {
    return -contact_kinematics(model, model.contacts[i], x.head(model.nq)).gap;
  });
}

MultibodyEnergies multibody_energies(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x,
                                     const double* indentations) {
  return energies(model, x, [indentations](std::size_t i) { return indentations[i]; });
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

}  // namespace dropsim
