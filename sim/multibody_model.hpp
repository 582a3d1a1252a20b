// Rigid bodies on penalty sphere contacts: the model (bodies, joints, contacts) and its coordinates.
//
// Coordinates per joint (q | u):
//   vertical  y                              | vy
//   planar    x, y, angle (about +z)         | vx, vy, omega
//   free      x, y, z, qw, qx, qy, qz        | vx, vy, vz, wx, wy, wz
// The free body's angular velocity in u is in the BODY frame, so its mass
// block diag(m, m, m, I_body) is constant and Euler's equations carry the
// gyroscopic term -w x I w.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <string>
#include <vector>

#include "dropsim/sim/contact_laws.hpp"
#include "dropsim/sim/conventions.hpp"
#include "dropsim/sim/names.hpp"

namespace dropsim {

enum class Joint { vertical, planar, free };
inline constexpr std::array<Named<Joint>, 3> joint_names{
    {{Joint::vertical, "vertical"}, {Joint::planar, "planar"}, {Joint::free, "free"}}};
constexpr std::string_view to_string(Joint joint) { return name_in(joint_names, joint); }
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
inline constexpr int ground_index = -1;  // Contact::body of the world itself
inline constexpr std::array<Named<ContactType>, 2> contact_type_names{
    {{ContactType::sphere_plane, "sphere_plane"}, {ContactType::sphere_sphere, "sphere_sphere"}}};

// sphere_plane: sphere (body[0], at[0], radius[0]) on a fixed plane through
// plane_point with outward normal plane_normal (unit; default the ground y = 0).
// sphere_sphere: spheres on body[0] (A) and body[1] (B); the normal points A -> B.
// B may be the ground (body[1] == ground_index): a sphere fixed in the world
// with its centre at at[1] in world coordinates, as a sphere on a ground-fixed
// body of an OpenSim model is.
struct Contact {
  std::string name;
  ContactType type = ContactType::sphere_plane;
  std::array<int, 2> body{-1, -1};
  std::array<Eigen::Vector3d, 2> at{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};  // body frame
  std::array<double, 2> radius{0.0, 0.0};
  int count = 1;   // identical spheres at the same place: force x count
  ContactLaw law;  // per sphere; law.radius is the composite radius
  Eigen::Vector3d plane_point = Eigen::Vector3d::Zero();   // sphere_plane, world
  Eigen::Vector3d plane_normal = Eigen::Vector3d::UnitY();  // sphere_plane, world, unit
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
  bool has_friction() const;                  // some contact's friction acts
  double slowest_transition_velocity() const;  // m/s, the smallest v_t of a contact with friction; inf without
  Eigen::VectorXd initial_state() const;     // [q; u] from the bodies' initial values
  std::vector<std::string> speed_names() const;     // "bar.y", "bar.angle", "box.wx", ...
  std::vector<std::string> position_names() const;  // "bar.y", ..., "box.qw", ...
  std::vector<std::string> speed_units() const;      // per column of u: "m/s", "rad/s"
  std::vector<std::string> position_units() const;   // per column of q: "m", "rad", "1" (quaternion)
};

struct DropModel;
// The 1-DOF drop as a multibody model: one vertical body whose n spheres are one
// sphere_plane contact with count n, centred on the centre of mass.
MultibodyModel multibody_from_drop(const DropModel& drop);

}  // namespace dropsim
