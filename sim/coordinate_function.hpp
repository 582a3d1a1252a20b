// Functions of one generalised coordinate, as OpenSim's joints use them to
// move a joint axis (docs/physics.md#articulated-models): polynomials (Constant,
// LinearFunction, PolynomialFunction), cubic splines (SimmSpline,
// NaturalCubicSpline) and a scale factor (MultiplierFunction).
#pragma once

#include <vector>

namespace dropsim {

class CoordinateFunction {
 public:
  // How a spline closes at its end knots.
  enum class SplineEnds {
    // Forsythe, Malcolm & Moler's: third derivatives at the ends from divided
    // differences of the end four points (OpenSim's SimmSpline).
    divided_differences,
    natural,  // zero curvature at the ends (OpenSim's NaturalCubicSpline)
  };

  static CoordinateFunction constant(double value);
  static CoordinateFunction linear(double slope, double intercept);
  // coefficients[0] q^n + ... + coefficients[n], highest power first as OpenSim writes them.
  static CoordinateFunction polynomial(std::vector<double> coefficients);
  // Through (x[i], y[i]), x strictly increasing, at least two knots; beyond the
  // end knots it continues along the end slope, as OpenSim's splines do.
  // Throws std::invalid_argument with a sentence on bad knots.
  static CoordinateFunction spline(const std::vector<double>& x, const std::vector<double>& y, SplineEnds ends);
  // scale * f(q).
  static CoordinateFunction multiplied(CoordinateFunction f, double scale);

  double value(double q) const;
  double derivative(double q) const;  // d value / dq
  double second_derivative(double q) const;  // d^2 value / dq^2 (0 beyond a spline's end knots)
  bool is_constant() const;          // does not depend on q

 private:
  CoordinateFunction() = default;
  int segment(double q) const;  // spline piece holding q

  double scale_ = 1.0;
  std::vector<double> polynomial_;  // highest power first; empty for a spline
  // Spline: y_i + b_i d + c_i d^2 + e_i d^3 with d = q - x_i on [x_i, x_i+1].
  std::vector<double> x_, y_, b_, c_, e_;
};

}  // namespace dropsim
