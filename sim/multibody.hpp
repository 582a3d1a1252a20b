// Rigid bodies on penalty sphere contacts: the multi-contact model and its ODE (state x = [q; u]).
//
// Coordinates per joint (q | u):
//   vertical  y                              | vy
//   planar    x, y, angle (about +z)         | vx, vy, omega
//   free      x, y, z, qw, qx, qy, qz        | vx, vy, vz, wx, wy, wz
// The free body's angular velocity in u is in the BODY frame, so its mass
// block diag(m, m, m, I_body) is constant and Euler's equations carry the
// gyroscopic term -w x I w. Contacts are frictionless normal forces; a gap g
// has rate gdot = J u and its force lambda acts as J^T lambda (docs/physics.md#effective-mass).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <string>
#include <vector>

#include "sim/contact_laws.hpp"
#include "sim/conventions.hpp"

namespace dropsim {

enum class Joint { vertical, planar, free };
std::string_view to_string(Joint joint);
int num_positions(Joint joint);  // nq of one body
int num_speeds(Joint joint);     // nu of one body

struct Body {
  std::string name;
  Joint joint = Joint::free;
  double mass = 0.0;                                          // kg
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();          // kg m^2, body frame, about the centre of mass
  Eigen::Vector3d position = Eigen::Vector3d::Zero();         // centre of mass, world (vertical: x, z kept)
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();  // free
  double angle = 0.0;                                         // planar, rad about +z
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();         // world
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero(); // world (planar: z only)
  int q_offset = 0, u_offset = 0;                             // set by MultibodyModel::finalize
};

enum class ContactType { sphere_plane, sphere_sphere };

// sphere_plane: sphere (body[0], at[0], radius[0]) on the ground plane y = 0.
// sphere_sphere: spheres on body[0] (A) and body[1] (B); the normal points A -> B.
struct Contact {
  std::string name;
  ContactType type = ContactType::sphere_plane;
  std::array<int, 2> body{-1, -1};
  std::array<Eigen::Vector3d, 2> at{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};  // body frame
  std::array<double, 2> radius{0.0, 0.0};
  int count = 1;   // identical spheres at the same place: force x count
  ContactLaw law;  // per sphere; law.radius is the composite radius
};

// Constant after finalize(); a sweep builds a new one per point.
struct MultibodyModel {
  std::vector<Body> bodies;
  std::vector<Contact> contacts;
  double gravity = standard_gravity;
  double characteristic_length = 0.0;  // m, L in tau = t sqrt(g/L) and in the model-scaled atol
  int nq = 0, nu = 0;

  void finalize();  // coordinate offsets; call after filling bodies
  double total_mass() const;
  Eigen::VectorXd initial_state() const;     // [q; u] from the bodies' initial values
  std::vector<std::string> speed_names() const;     // "bar.y", "bar.angle", "box.wx", ...
  std::vector<std::string> position_names() const;  // "bar.y", ..., "box.qw", ...
  std::vector<std::string> speed_units() const;      // per column of u: "m/s", "rad/s"
  std::vector<std::string> position_units() const;   // per column of q: "m", "rad", "1" (quaternion)
};

// World position of body point r (body frame) at configuration q.
Eigen::Vector3d body_point(const Body& body, const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Vector3d& r);

// Row of d(n . p)/du for the body point p = body_point(r): the body's block of a
// contact Jacobian (first num_speeds(joint) entries used).
Eigen::Matrix<double, 6, 1> point_jacobian_row(const Body& body, const Eigen::Ref<const Eigen::VectorXd>& q,
                                               const Eigen::Vector3d& r, const Eigen::Vector3d& n);

// q <- q (+) du: translations and planar angles add, free orientations turn by
// the body-frame rotation vector du_w (exact exponential map).
void advance_configuration(const MultibodyModel& model, Eigen::Ref<Eigen::VectorXd> q,
                           const Eigen::Ref<const Eigen::VectorXd>& du);

// The inverse of advance_configuration: du with q0 (+) du = q (rotation vectors
// for free orientations, body frame).
Eigen::VectorXd configuration_difference(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& q,
                                         const Eigen::Ref<const Eigen::VectorXd>& q0);

// Block-diagonal generalised mass matrix (nu x nu).
Eigen::MatrixXd mass_matrix(const MultibodyModel& model);

// One contact at one instant: gap (m, indentation = -gap), its rate, and the
// Jacobian rows of the (up to two) bodies it touches.
struct ContactKinematics {
  double gap = 0.0, gap_rate = 0.0;
  std::array<Eigen::Matrix<double, 6, 1>, 2> row{Eigen::Matrix<double, 6, 1>::Zero(),
                                                 Eigen::Matrix<double, 6, 1>::Zero()};
  Eigen::Vector3d normal = Eigen::Vector3d::UnitY();  // world, A -> B (ground -> body)
};
ContactKinematics contact_kinematics(const MultibodyModel& model, const Contact& contact,
                                     const Eigen::Ref<const Eigen::VectorXd>& x);

// Dense contact Jacobian (contacts x nu) at state x (only q is used).
Eigen::MatrixXd contact_jacobian(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x);

// Energies at state x: kinetic 1/2 u^T M u, potential sum m g y (zero at y = 0),
// elastic sum count * stored energy of each contact law.
struct MultibodyEnergies {
  double kinetic = 0.0, potential = 0.0, elastic = 0.0;
  double mechanical() const { return kinetic + potential + elastic; }
};
MultibodyEnergies multibody_energies(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x);

// Total angular momentum about the world origin (kg m^2/s, world frame).
Eigen::Vector3d angular_momentum(const MultibodyModel& model, const Eigen::Ref<const Eigen::VectorXd>& x);

struct DropModel;
// The 1-DOF drop as a multibody model: one vertical body whose n spheres are one
// sphere_plane contact with count n, centred on the centre of mass.
MultibodyModel multibody_from_drop(const DropModel& drop);

// The multibody ODE in the integrators' System concept (integrators/system.hpp).
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
  // df/dx by central differences: what the implicit and Rosenbrock methods need.
  void jacobian(const Vector& x, double t, Matrix& dfdx) const;
  int num_switches() const { return switch_count_; }
  void switches(const Vector& x, double* out) const;
  void project(Vector& x) const;  // unit quaternions

  // Generalised applied force (nu): gravity plus contacts, no inertial terms.
  // Also returns each contact's per-sphere force if `forces` is non-null.
  void applied_forces(const Eigen::Ref<const Vector>& x, Eigen::Ref<Vector> f, double* forces = nullptr) const;

  Vector initial_state() const { return m_.initial_state(); }
  // rtol L for positions, rtol for quaternions and angles, rtol sqrt(g L) for
  // speeds, rtol sqrt(g / L) for angular speeds.
  Vector model_scaled_atol(double rtol) const;

 private:
  MultibodyModel m_;
  std::vector<Eigen::Matrix3d> inverse_inertia_;  // per body
  int switch_count_ = 0;
};

}  // namespace dropsim
