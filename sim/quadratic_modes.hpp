// The damped quadratic eigenproblem (M s^2 + D s + K) x = 0 (docs/physics.md#modes-with-friction).
#pragma once

#include <Eigen/Core>
#include <complex>
#include <vector>

namespace dropsim {

// x' = A x with A = [[0, I], [-M^-1 K, -M^-1 D]]; M symmetric positive definite.
Eigen::MatrixXd first_order_matrix(const Eigen::MatrixXd& M, const Eigen::MatrixXd& K, const Eigen::MatrixXd& D);

// One oscillating root s (Im s > 0) and its eigenvector's displacement half v,
// rotated in phase so that its real part is largest (in M's norm) and scaled
// so that the real part's largest component is 1: x(t) = Re(v e^(s t)) starts
// at `shape` with speeds `rate_shape` and moves in this mode alone.
struct ComplexMode {
  std::complex<double> s;
  Eigen::VectorXd shape;       // Re v
  Eigen::VectorXd rate_shape;  // Re (s v)
};

struct QuadraticModes {
  std::vector<ComplexMode> oscillating;  // ascending |Im s|
  std::vector<double> decay_rates;       // real roots as -s, 1/s, fastest first
  int neutral = 0;                       // roots at zero (free motions, each counted once per root)
};

// Roots with |s| below zero_fraction of the largest |s| count as neutral. A
// free motion's double zero comes out near sqrt(epsilon |s|max), about 1e-10
// of it at friction's rates; stiff friction sets |s|max a million times above
// the modes it pins (v_t 1e-7 m/s on the box of modes_test.cpp), so the
// fraction sits between.
QuadraticModes quadratic_modes(const Eigen::MatrixXd& M, const Eigen::MatrixXd& K, const Eigen::MatrixXd& D,
                               double zero_fraction = 1e-9);

}  // namespace dropsim
