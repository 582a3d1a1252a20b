// Static equilibrium under gravity, one function per model kind: bisection for
// the drop, Newton with a line search on the generalised force balance for bodies.
#pragma once

#include <Eigen/Core>
#include <stdexcept>
#include <string>

#include "dropsim/sim/drop.hpp"
#include "dropsim/sim/multibody.hpp"

namespace dropsim {

// No equilibrium exists from the given configuration (or none was found); the
// message is a sentence saying why, naming the offending motion.
class EquilibriumError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Equilibrium {
  Eigen::VectorXd x;        // [q; u]: u = 0 at rest, the creep velocity when creeping
  int iterations = 0;
  double residual = 0.0;    // |M^-1/2 f| / (g sqrt(total mass)): dimensionless force imbalance
  // Regularised friction holds a body on a slope only by creeping
  // (docs/physics.md#friction): the largest contact slip speed of that steady
  // motion, m/s; 0 at rest.
  double creep_speed = 0.0;
};

// Starts from the configuration in x0 (its speeds are ignored). Motions no
// compressed contact resists but gravity drives are followed, by a linearised
// line search, until a contact closes; where none would ever close the body
// falls or tips over and EquilibriumError says so. Motions gravity does not
// drive (sliding on frictionless contacts) are left as they are. Where gravity
// drives a sliding motion and contacts have friction, the result is the steady
// creep at which friction balances it; beyond what friction can hold
// EquilibriumError says the body slides.
Equilibrium static_equilibrium(const MultibodyModel& model, const Eigen::VectorXd& x0);

// The drop's static equilibrium: the indentation at which n spheres carry the
// weight, n F(x, 0) = m g, by bisection (every law's elastic force grows with x).
// Throws EquilibriumError when no indentation up to 2^60 radii carries it.
double equilibrium_indentation(const DropModel& model);

// "bar.y -0.1, bar.angle 1": a speed-space direction, largest component 1.
std::string describe_motion(const MultibodyModel& model, const Eigen::VectorXd& du);

}  // namespace dropsim
