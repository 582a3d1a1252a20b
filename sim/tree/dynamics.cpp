// The body tree's mass matrix (composite rigid bodies), generalised force
// (recursive Newton–Euler at qdd = 0) and forward dynamics by Cholesky.
#include "dropsim/sim/tree/dynamics.hpp"

#include "dropsim/sim/contact_laws.hpp"

namespace dropsim::tree {

void mass_and_force(const TreeModel& model, TreeData& data) {
  const std::vector<TreeJoint>& joints = model.joints();
  const std::vector<int>& joint_of_body = model.joint_of_body();
  // Each body's inertial force at qdd = 0 in a field g: its acceleration less
  // g (the ground accelerating at -g, Featherstone 2008, sec. 5.3) and the
  // velocity product v x* I v, less the contacts' force on it.
  Vector6d lifted = Vector6d::Zero();
  lifted.tail<3>() = -model.gravity();
  for (std::size_t b = 0; b < data.force.size(); ++b) {
    const Matrix6d& inertia = data.inertia[b];
    data.force[b] = inertia * (data.bias[b] + lifted) + cross_force(data.velocity[b], inertia * data.velocity[b]) -
                    data.external[b];
  }
  // From the leaves in: forces and composite inertias summed into the
  // parents (fixed axes: no transforms), tau_j = -S_j^T f_j.
  for (std::size_t j = joints.size(); j-- > 0;) {
    const TreeJoint& joint = joints[j];
    const auto b = static_cast<std::size_t>(joint.child);
    if (joint.parent != ground_body) {
      const auto p = static_cast<std::size_t>(joint.parent);
      data.force[p] += data.force[b];
      data.inertia[p] += data.inertia[b];
    }
    const auto& s = data.motion[j];
    for (std::size_t k = 0; k < joint.speeds.size(); ++k)
      data.tau[joint.speeds[k]] = -s.col(static_cast<Eigen::Index>(k)).dot(data.force[b]);
  }
  // M: the block of joints i (an ancestor of j, or j) and j is S_i^T Ic_j S_j.
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const TreeJoint& joint = joints[j];
    if (joint.speeds.empty()) continue;
    auto& carried = data.carried[j];
    carried.noalias() = data.inertia[static_cast<std::size_t>(joint.child)] * data.motion[j];
    int ancestor = static_cast<int>(j);
    while (true) {
      const TreeJoint& i = joints[static_cast<std::size_t>(ancestor)];
      const auto& s = data.motion[static_cast<std::size_t>(ancestor)];
      for (std::size_t r = 0; r < i.speeds.size(); ++r)
        for (std::size_t k = 0; k < joint.speeds.size(); ++k) {
          const double value = s.col(static_cast<Eigen::Index>(r)).dot(carried.col(static_cast<Eigen::Index>(k)));
          data.mass(i.speeds[r], joint.speeds[k]) = value;
          data.mass(joint.speeds[k], i.speeds[r]) = value;
        }
      if (i.parent == ground_body) break;
      ancestor = joint_of_body[static_cast<std::size_t>(i.parent)];
    }
  }
}

bool forward_dynamics(const TreeModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& u, TreeData& data, Eigen::Ref<Eigen::VectorXd> qdd) {
  forward_kinematics(model, q, u, data);
  contact_forces(model, data);
  mass_and_force(model, data);
  data.cholesky.compute(data.mass);
  if (data.cholesky.info() != Eigen::Success) return false;
  qdd = data.tau;
  data.cholesky.solveInPlace(qdd);
  return true;
}

TreeEnergies tree_energies(const TreeModel& model, const TreeData& data) {
  TreeEnergies e;
  const ArticulatedModel& m = model.source();
  for (std::size_t b = 0; b < m.bodies.size(); ++b) {
    // Composite inertias are summed into data.inertia after mass_and_force():
    // the kinetic energy uses each body's own.
    const ArticulatedBody& body = m.bodies[b];
    const Eigen::Vector3d w = data.velocity[b].head<3>(), centre = data.pose[b] * body.mass_centre;
    const Eigen::Vector3d v_centre = data.velocity[b].tail<3>() + w.cross(centre);
    const Eigen::Matrix3d turned = data.pose[b].linear() * body.inertia * data.pose[b].linear().transpose();
    e.kinetic += 0.5 * (body.mass * v_centre.squaredNorm() + w.dot(turned * w));
    e.gravitational -= body.mass * model.gravity().dot(centre);
  }
  for (std::size_t i = 0; i < m.contacts.size(); ++i)
    e.elastic += contact_elastic_energy(m.contacts[i].law, data.contacts[i].indentation);
  return e;
}

}  // namespace dropsim::tree
