// One sphere on the ground as Simbody computes its contact: the oracle for
// dropsim's normal and friction laws at a single state.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "dropsim/sim/contact_laws.hpp"

namespace dropsim::peers {

// What Simbody applies to the sphere's body: the force and the moment about
// the sphere's centre (the body's origin), both in the world frame.
struct SimbodyContactWrench {
  Eigen::Vector3d force = Eigen::Vector3d::Zero(), moment = Eigen::Vector3d::Zero();
};

// A free body carrying a sphere of `radius` at its origin, above the ground
// y = 0, in the state given (world velocities). hunt_crossley and hertz go
// through SimTK::HuntCrossleyForce, smooth_hunt_crossley through
// SimTK::SmoothSphereHalfSpaceForce, each set up as OpenSim sets them up (the
// same stiffness, dissipation and friction on both surfaces).
SimbodyContactWrench simbody_sphere_on_ground(const ContactLaw& law, double radius, const Eigen::Vector3d& centre,
                                              const Eigen::Quaterniond& orientation, const Eigen::Vector3d& velocity,
                                              const Eigen::Vector3d& angular_velocity);

}  // namespace dropsim::peers
