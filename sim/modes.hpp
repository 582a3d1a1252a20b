// Coupled normal-contact penalty modes at a frozen state (docs/physics.md#effective-mass, #coupled-contact-modes).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "dropsim/sim/linearization.hpp"
#include "dropsim/sim/multibody.hpp"

namespace dropsim {

// One active contact seen alone docs/physics.md#effective-mass: m_eff = 1 / (J M^-1 J^T), omega = sqrt(k / m_eff).
struct ContactMode {
  int contact = 0;               // model contact index
  double indentation = 0.0;      // m
  double force = 0.0;            // N, per sphere
  double stiffness = 0.0;        // N/m, tangent, count included
  double damping = 0.0;          // N s/m, tangent, count included
  double effective_mass = 0.0;   // kg
  double omega_single = 0.0;     // rad/s, the independent-contact estimate
};

struct Mode {
  double omega = 0.0;          // rad/s, undamped, from K^1/2 A K^1/2
  double damping_ratio = 0.0;  // from the damped eigenvalue matched to this mode
  double damped_omega = 0.0;   // rad/s, imaginary part of that eigenvalue (0 if overdamped)
  bool overdamped = false;
  Eigen::VectorXd shape;       // speed-space displacement (nu), largest component 1
  Eigen::VectorXd gap_shape;   // J shape, per active contact (m per unit shape)
  // Friction modes only (a complex root s, x = Re(v e^(s t)) with Re v = shape):
  // the speeds Re(s v) that, with shape, start this mode alone. Empty otherwise.
  Eigen::VectorXd rate_shape;
};

struct ModesAnalysis {
  Eigen::VectorXd x;                       // the state analysed
  Linearization lin;
  Eigen::MatrixXd A;                       // J M^-1 J^T over active contacts, 1/kg
  std::vector<ContactMode> contacts;       // active contacts
  std::vector<Mode> modes;                 // ascending omega
  int redundant = 0;                       // zero eigenvalues of K^1/2 A K^1/2: redundant gap coordinates
  Eigen::MatrixXd free_motions;            // nu x k: null space of J
  // With load (geometric) stiffness: eigenvalues of K_t q = omega^2 M q, where
  // K_t = -df/dq is the full tangent of the applied forces (contact laws,
  // moving contact points, gravity's moment). Frozen geometry omits the last
  // two; they matter where weight acts high above the supports (rocking).
  std::vector<Mode> loaded_modes;          // ascending, positive eigenvalues only
  int unstable_loaded = 0;                 // negative eigenvalues: the pose would topple
  double omega_max = 0.0;                  // rad/s
  double t_c = 0.0, period = 0.0;          // of the fastest mode: 1/omega, 2 pi/omega
  double step_20 = 0.0;                    // period / 20: twenty steps per fastest period
  // With friction: the real eigenvalues of the linearised system (friction's
  // tangential decay, and any overdamped contact), as rates -lambda in 1/s,
  // fastest first. Empty without friction.
  std::vector<double> decay_rates;
  bool friction_stiffest = false;  // the fastest decay outruns every rate of the frictionless system
  // With friction, the modes a run shows (docs/physics.md#modes-with-friction): the
  // damped quadratic eigenproblem (M s^2 + D s + K_t) x = 0 with D = J^T C J plus
  // friction's damping and K_t the full tangent. Friction's damping nearly pins
  // the contact points, which the undamped modes above leave free to slide.
  // Each complex pair is a mode: omega = |s|, damped_omega = Im s, damping_ratio
  // = -Re s / |s|. Empty without friction.
  std::vector<Mode> friction_modes;          // ascending damped_omega
  std::vector<double> friction_decay_rates;  // its real roots s < 0 as -s, 1/s, fastest first
  std::vector<double> friction_growth_rates; // real roots s > 0, 1/s: the pose would topple
  double friction_fastest = 0.0;             // largest |s| of the damped problem, 1/s
  // The damped problem's K and D (with friction): K_t and J^T C J + friction's
  // damping at rest; the exact linearisation about a steady creep; frozen
  // geometry's J^T K J where the analysis has no model (add_frozen_geometry_friction_modes).
  Eigen::MatrixXd friction_stiffness, friction_damping;
  Eigen::MatrixXd tangent;                   // K_t, nu x nu (empty without contacts)
};

// With friction: M, K_t, D of the damped problem the friction modes solve.
integrators::LinearSystem friction_system(const ModesAnalysis& analysis);

// The real decay rates of lin's full linear system (empty without friction).
std::vector<double> real_decay_rates(const Linearization& lin);

ModesAnalysis analyse_modes(const MultibodyModel& model, const Eigen::VectorXd& x);

// The contact modes of a linearisation alone (no load stiffness: that needs
// the model's forces): what analyse_modes computes from linearize(). Any
// generalised speeds: the articulated analysis passes joint-space ones.
ModesAnalysis contact_modes(Linearization lin);

// With friction, the damped problem's modes on the frozen geometry's J^T K J:
// what an analysis without the model's forces (contact_modes) can add.
void add_frozen_geometry_friction_modes(ModesAnalysis& analysis);

// -df/dq at x (speeds set to zero), exact, along speed-space increments
// (q (+) du); nu x nu (docs/physics.md#load-stiffness).
Eigen::MatrixXd tangent_stiffness(const MultibodyModel& model, const Eigen::VectorXd& x);

}  // namespace dropsim
