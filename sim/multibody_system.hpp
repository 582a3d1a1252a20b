// The multibody equations of motion: mass matrix, applied forces and the ODE in the System concept.
#pragma once

#include <array>

#include "dropsim/sim/friction.hpp"
#include "dropsim/sim/kinematics.hpp"
#include "dropsim/sim/multibody_model.hpp"

namespace dropsim {

// Block-diagonal generalised mass matrix (nu x nu).
Eigen::MatrixXd mass_matrix(const MultibodyModel& model);

// The multibody ODE in the integrators' System concept (integrators/system.hpp).
// It keeps scratch (body poses, Jacobian work) between calls so that a step
// allocates nothing: one system per thread.
class MultibodySystem {
 public:
  using Vector = Eigen::VectorXd;
  using Matrix = Eigen::MatrixXd;

  explicit MultibodySystem(const MultibodyModel& model);

  const MultibodyModel& model() const { return m_; }
  int size() const { return m_.nq + m_.nu; }
  int num_positions() const { return m_.nq; }

  void operator()(const Vector& x, Vector& dxdt, double t) const;
  void position_rate(const Vector& x, Vector& dxdt) const;
  // df/dx, exact: contact tangents J^T K J and J^T C J, the contacts' geometric
  // terms, quaternion kinematics, Euler's gyroscopic term and friction's speed
  // terms; friction's configuration terms by central differences of the
  // friction forces alone (docs/physics.md#the-exact-multibody-jacobian).
  void jacobian(const Vector& x, double t, Matrix& dfdx) const;
  // The exact derivatives of the generalised force (applied plus gyroscopic,
  // before the inverse mass) by configuration increment xi (q (+) xi, as in
  // advance_configuration) and by speed u; nu x nu each.
  void force_derivatives(const Vector& x, Matrix& by_increment, Matrix& by_speed) const;
  // -d(friction)/du (nu x nu): at rest, friction's linear damping (docs/physics.md#friction).
  Eigen::MatrixXd friction_damping(const Vector& x) const;
  int num_switches() const { return switch_count_; }
  void switches(const Vector& x, double* out) const;
  void project(Vector& x) const;  // unit quaternions

  // Generalised applied force (nu): gravity plus contacts (normal and
  // friction), no inertial terms. Per contact, when the pointers are non-null:
  // the per-sphere normal force (N), the per-sphere friction force (N), the
  // tangential slip speed (m/s), the per-sphere vertical (+y) component of
  // the whole contact force on B (N) and the indentation -gap (m).
  void applied_forces(const Eigen::Ref<const Vector>& x, Eigen::Ref<Vector> f, double* forces = nullptr,
                      double* tangential = nullptr, double* slip_speeds = nullptr, double* vertical = nullptr,
                      double* indentations = nullptr) const;
  // The per-contact columns of applied_forces() alone, without the generalised
  // force: what a recorded sample reads.
  void contact_columns(const Eigen::Ref<const Vector>& x, double* forces, double* tangential, double* slip_speeds,
                       double* vertical, double* indentations) const;

  Vector initial_state() const { return m_.initial_state(); }
  // rtol L for positions, rtol for quaternions and angles, rtol sqrt(g L) for
  // speeds, rtol sqrt(g / L) for angular speeds.
  Vector model_scaled_atol(double rtol) const;

 private:
  // rows <- M^-1 rows for body i's block of rows (a vector segment or matrix rows).
  template <class Rows>
  void apply_inverse_mass(std::size_t i, Rows&& rows) const;
  // Contact c's kinematics as its law acts on them: apart, a law that pushes
  // only in contact gives zero whatever the gap rate (and its switches ignore
  // the rate), so the rows and the rate are left out: a body resting on some
  // of its spheres holds the others up in the air.
  ContactKinematics acting_kinematics(const Contact& c, const ContactPoses& poses, const double* u) const;
  // applied_forces() (generalised: f, nu entries, gets the generalised force)
  // and contact_columns() (f unused) in one loop.
  template <bool generalised>
  void contact_forces(const Eigen::Ref<const Vector>& x, double* f, double* forces, double* tangential,
                      double* slip_speeds, double* vertical, double* indentations) const;
  // Every body's pose and motion at x, into poses_ and motions_.
  void place_bodies(const Eigen::Ref<const Vector>& x) const;
  // Contact c's gap, normal and arms from poses_, and its gap rate from
  // motions_ where its law reads it (acting_kinematics() without the rows).
  ContactGap acting_gap(const Contact& c) const;
  // Contact c's friction terms of force_derivatives() at speeds u (its bodies
  // at `poses`; normal_slope[t] is -d(lambda)/d(xi_t)), and those by speed
  // alone, which return the friction law's slope at the slip they used.
  FrictionSlope friction_by_speed(const Contact& c, const ContactPoses& poses, const ContactSlip& slip,
                                  const ContactKinematics& k, const ContactResponse& response,
                                  Matrix& by_speed) const;
  void friction_derivatives(const Contact& c, const double* u, const ContactPoses& poses, const ContactKinematics& k,
                            const ContactResponse& response,
                            const std::array<Eigen::Matrix<double, 1, 6>, 2>& normal_slope, Matrix& by_increment,
                            Matrix& by_speed) const;

  MultibodyModel m_;
  std::vector<Eigen::Matrix3d> inverse_inertia_;  // per body
  int switch_count_ = 0;
  mutable std::array<Matrix, 2> jacobian_work_;   // jacobian()'s force derivatives: a step allocates nothing
  // Every body's pose and motion, computed once per call that needs them, and
  // the world force and moment (about its centre of mass) the contacts put on it.
  struct Wrench {
    Eigen::Vector3d force, moment;
  };
  mutable std::vector<BodyPose> poses_;
  mutable std::vector<BodyMotion> motions_;
  mutable std::vector<Wrench> wrenches_;
};

// Here, not in a source file: the equations of motion (multibody_system.cpp)
// and the Jacobian (multibody_jacobian.cpp) both divide by the mass this way.
template <class Rows>
void MultibodySystem::apply_inverse_mass(std::size_t i, Rows&& rows) const {
  const Body& b = m_.bodies[i];
  switch (b.joint) {
    case Joint::vertical: rows /= b.mass; break;
    case Joint::planar:
      rows.topRows(2) /= b.mass;
      rows.row(2) /= b.inertia(2, 2);
      break;
    case Joint::free:
      rows.topRows(3) /= b.mass;
      for (Eigen::Index j = 0; j < rows.cols(); ++j) {  // column by column: no temporary
        const Eigen::Vector3d turned = inverse_inertia_[i] * rows.col(j).template tail<3>();
        rows.col(j).template tail<3>() = turned;
      }
      break;
  }
}

}  // namespace dropsim
