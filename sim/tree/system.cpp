// The body tree's ODE: rates by forward dynamics, switches of the contact laws, tolerances.
#include "dropsim/sim/tree/system.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dropsim/sim/contact_laws.hpp"
#include "dropsim/sim/tree/dynamics.hpp"

namespace dropsim::tree {

TreeSystem::TreeSystem(const TreeModel& model) : model_(model), data_(model) {
  for (const ContactPair& c : model_.source().contacts) switch_count_ += contact_switch_count(c.law);
}

void TreeSystem::operator()(const Vector& x, Vector& dxdt, double /*t*/) const {
  const int n = model_.nq();
  dxdt.head(n) = x.tail(n);
  if (!forward_dynamics(model_, x.head(n), x.tail(n), data_, dxdt.tail(n)))
    dxdt.tail(n).setConstant(std::numeric_limits<double>::quiet_NaN());
}

void TreeSystem::position_rate(const Vector& x, Vector& dxdt) const {
  const int n = model_.nq();
  dxdt.head(n) = x.tail(n);
}

void TreeSystem::jacobian(const Vector& x, double t, Matrix& dfdx) const {
  const auto size = static_cast<Eigen::Index>(this->size());
  dfdx.resize(size, size);
  Vector& probe = work_[0];
  Vector& plus = work_[1];
  Vector& minus = work_[2];
  probe = x;
  plus.resize(size);
  minus.resize(size);
  for (Eigen::Index k = 0; k < size; ++k) {
    const double step = std::cbrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, std::abs(x[k]));
    probe[k] = x[k] + step;
    (*this)(probe, plus, t);
    probe[k] = x[k] - step;
    (*this)(probe, minus, t);
    probe[k] = x[k];
    dfdx.col(k) = (plus - minus) / (2.0 * step);
  }
}

const TreeData& TreeSystem::evaluate(const Vector& x) const {
  const int n = model_.nq();
  forward_kinematics(model_, x.head(n), x.tail(n), data_);
  contact_forces(model_, data_);
  return data_;
}

void TreeSystem::switches(const Vector& x, double* out) const {
  evaluate(x);
  const auto& contacts = model_.source().contacts;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const TreeContact& c = data_.contacts[i];
    contact_switches(contacts[i].law, c.indentation, c.indentation_rate, out);
    out += contact_switch_count(contacts[i].law);
  }
}

TreeSystem::Vector TreeSystem::model_scaled_atol(double rtol) const {
  const double length = model_.characteristic_length();
  const double g = model_.gravity().norm() > 0.0 ? model_.gravity().norm() : standard_gravity;
  const int n = model_.nq();
  Vector atol(2 * n);
  for (int i = 0; i < n; ++i) {
    const bool angle =
        model_.source().coordinates[static_cast<std::size_t>(model_.speed_coordinate()[static_cast<std::size_t>(i)])].rotational;
    atol[i] = angle ? 1.0 : length;
    atol[n + i] = angle ? std::sqrt(g / length) : std::sqrt(g * length);
  }
  return rtol * atol;
}

}  // namespace dropsim::tree
