// Tests of sim/multibody_system.*: the exact Jacobian against central differences of the right-hand side.
#include "dropsim/sim/multibody_system.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/support/models.hpp"

namespace dropsim {
namespace {

// Every contact of m pressed `depth` into its surface: the radii grow to the
// present distance plus depth (the law's composite radius with them).
void press_every_contact(MultibodyModel& m, double depth) {
  const Eigen::VectorXd q = m.initial_state().head(m.nq);
  for (Contact& c : m.contacts) {
    const double gap = contact_kinematics(m, c, q).gap;
    if (c.type == ContactType::sphere_plane) {
      c.radius[0] += gap + depth;
      c.law.radius = c.radius[0];
    } else {
      const double grow = (gap + depth) / 2.0;
      c.radius[0] += grow;
      c.radius[1] += grow;
      c.law.radius = c.radius[0] * c.radius[1] / (c.radius[0] + c.radius[1]);
    }
  }
}

// Central differences of the right-hand side in the stored coordinates
// (quaternion components included): the independent oracle.
Eigen::MatrixXd central_differences(const MultibodySystem& system, const Eigen::VectorXd& x) {
  const auto n = x.size();
  Eigen::MatrixXd dfdx(n, n);
  Eigen::VectorXd xp = x, fp(n), fm(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const double h = 1e-6 * std::max(1e-2, std::abs(x[j]));
    xp[j] = x[j] + h;
    system(xp, fp, 0.0);
    xp[j] = x[j] - h;
    system(xp, fm, 0.0);
    xp[j] = x[j];
    dfdx.col(j) = (fp - fm) / (2.0 * h);
  }
  return dfdx;
}

void expect_jacobian_matches_differences(const MultibodySystem& system, const Eigen::VectorXd& x) {
  Eigen::MatrixXd exact;
  system.jacobian(x, 0.0, exact);
  const Eigen::MatrixXd differences = central_differences(system, x);
  ASSERT_EQ(exact.rows(), differences.rows());
  for (Eigen::Index j = 0; j < x.size(); ++j)
    EXPECT_LE((exact.col(j) - differences.col(j)).norm(), 1e-6 * (1.0 + differences.col(j).norm()))
        << "column " << j << "\nexact       " << exact.col(j).transpose() << "\ndifferences "
        << differences.col(j).transpose();
}

// Moving and spinning, every contact compressed: the contact stiffness and
// damping, the geometric terms of the turning contact rows and normals, the
// quaternion kinematics and the gyroscopic term all show in the Jacobian.
Eigen::VectorXd moving_state(const MultibodyModel& m) {
  Eigen::VectorXd x = m.initial_state();
  x.tail(m.nu) = Eigen::VectorXd::LinSpaced(m.nu, -0.8, 1.1);
  return x;
}

// The every-joint model on `kind` contacts (E* 1 MPa), each pressed 2 mm in.
MultibodyModel pressed_model(ContactLawKind kind, double dissipation, const Friction& friction = {}) {
  ContactLaw law = test::hertz(1e6);
  law.kind = kind;
  law.dissipation = dissipation;
  law.friction = friction;
  MultibodyModel m = test::every_joint_and_contact(law);
  press_every_contact(m, 2e-3);
  return m;
}

TEST(MultibodySystem, JacobianIsExactForHuntCrossleyContacts) {
  const MultibodyModel m = pressed_model(ContactLawKind::hunt_crossley, 1.5);
  expect_jacobian_matches_differences(MultibodySystem(m), moving_state(m));
}

TEST(MultibodySystem, JacobianIsExactForTheSmoothedLaw) {
  const MultibodyModel m = pressed_model(ContactLawKind::smooth_hunt_crossley, 1.0);
  expect_jacobian_matches_differences(MultibodySystem(m), moving_state(m));
}

// Friction on every contact, sliding fast and creeping below v_t: its
// derivatives by speed (exact) and by configuration (differences of the
// friction forces alone) join the rest.
TEST(MultibodySystem, JacobianHoldsWithFriction) {
  for (const auto kind : {ContactLawKind::hunt_crossley, ContactLawKind::smooth_hunt_crossley}) {
    const MultibodyModel m = pressed_model(kind, 1.5, {0.9, 0.6, 0.05, 0.05});
    const MultibodySystem system(m);
    Eigen::VectorXd x = moving_state(m);
    expect_jacobian_matches_differences(system, x);
    x.tail(m.nu) *= 1e-3;  // slip well below v_t
    expect_jacobian_matches_differences(system, x);
  }
}

// Off the unit sphere the quaternion's length must not matter: its radial
// column of the acceleration block vanishes.
TEST(MultibodySystem, JacobianIgnoresTheQuaternionLength) {
  const MultibodyModel m = pressed_model(ContactLawKind::hertz, 0.0);
  const MultibodySystem system(m);
  Eigen::VectorXd x = moving_state(m);
  x.segment<4>(3) *= 1.3;
  expect_jacobian_matches_differences(system, x);
  Eigen::MatrixXd exact;
  system.jacobian(x, 0.0, exact);
  const Eigen::VectorXd radial = exact.block(m.nq, 3, m.nu, 4) * x.segment<4>(3);
  EXPECT_LT(radial.norm(), 1e-9 * exact.block(m.nq, 3, m.nu, 4).norm());
}

}  // namespace
}  // namespace dropsim
