// Linearisation of the multibody and drop models at a state.
#include "dropsim/sim/linearization.hpp"

#include <Eigen/Dense>
#include <algorithm>

namespace dropsim {

Linearization linearize(const MultibodyModel& model, const Eigen::VectorXd& x) {
  Linearization lin;
  lin.M = mass_matrix(model);
  const Eigen::MatrixXd all = contact_jacobian(model, x);
  std::vector<double> k, c, ind, f;
  for (std::size_t i = 0; i < model.contacts.size(); ++i) {
    const Contact& contact = model.contacts[i];
    const ContactKinematics kin = contact_kinematics(model, contact, x);
    const ContactResponse r = contact_response(contact.law, -kin.gap, -kin.gap_rate);
    if (!(-kin.gap > 0.0) || !(r.stiffness > 0.0)) continue;
    lin.contacts.push_back(static_cast<int>(i));
    k.push_back(contact.count * r.stiffness);
    c.push_back(contact.count * r.damping);
    ind.push_back(-kin.gap);
    f.push_back(r.force);
  }
  const auto n = static_cast<Eigen::Index>(lin.contacts.size());
  lin.J.resize(n, model.nu);
  for (Eigen::Index i = 0; i < n; ++i) lin.J.row(i) = all.row(lin.contacts[static_cast<std::size_t>(i)]);
  lin.K = Eigen::Map<Eigen::VectorXd>(k.data(), n).asDiagonal();
  lin.C = Eigen::Map<Eigen::VectorXd>(c.data(), n).asDiagonal();
  lin.indentation = Eigen::Map<Eigen::VectorXd>(ind.data(), n);
  lin.force = Eigen::Map<Eigen::VectorXd>(f.data(), n);
  if (model.has_friction()) lin.friction_damping = MultibodySystem(model).friction_damping(x);
  return lin;
}

Linearization linearize(const DropModel& model, const DropSystem::Vector& x) {
  Linearization lin;
  lin.M = Eigen::MatrixXd::Constant(1, 1, model.mass);
  const ContactResponse r = contact_response(model.law, -x[0], -x[1]);
  const bool active = -x[0] > 0.0 && r.stiffness > 0.0;
  const Eigen::Index n = active ? 1 : 0;
  lin.J = Eigen::MatrixXd::Ones(n, 1);
  lin.K = Eigen::MatrixXd::Constant(n, n, model.spheres * r.stiffness);
  lin.C = Eigen::MatrixXd::Constant(n, n, model.spheres * r.damping);
  lin.indentation = Eigen::VectorXd::Constant(n, -x[0]);
  lin.force = Eigen::VectorXd::Constant(n, r.force);
  if (active) lin.contacts = {0};
  return lin;
}

Eigen::MatrixXd null_space_basis(const Eigen::MatrixXd& J, int nu) {
  Eigen::MatrixXd basis;
  if (J.rows() == 0) {
    basis = Eigen::MatrixXd::Identity(nu, nu);
  } else {
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(J, Eigen::ComputeFullV);
    const auto& s = svd.singularValues();
    Eigen::Index rank = 0;
    for (Eigen::Index i = 0; i < s.size(); ++i) rank += s[i] > 1e-10 * s[0];
    basis = svd.matrixV().rightCols(nu - rank);
  }
  if (basis.cols() == 0) return basis;
  // Reduce: pick pivot coordinates, make the basis the identity on them.
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(basis.transpose());
  const auto& perm = qr.colsPermutation().indices();
  Eigen::MatrixXd pivots(basis.cols(), basis.cols());
  for (Eigen::Index k = 0; k < basis.cols(); ++k) pivots.row(k) = basis.row(perm[k]);
  basis = (basis * pivots.inverse()).eval();
  for (Eigen::Index k = 0; k < basis.cols(); ++k) {
    for (Eigen::Index i = 0; i < basis.rows(); ++i)
      if (std::abs(basis(i, k)) < 1e-12) basis(i, k) = 0.0;
    basis.col(k) /= basis.col(k).cwiseAbs().maxCoeff();
  }
  return basis;
}

}  // namespace dropsim
