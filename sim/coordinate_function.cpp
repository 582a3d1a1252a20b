// Coordinate functions: polynomials by Horner, cubic splines solved once for their curvatures.
#include "dropsim/sim/coordinate_function.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace dropsim {

CoordinateFunction CoordinateFunction::constant(double value) { return polynomial({value}); }

CoordinateFunction CoordinateFunction::linear(double slope, double intercept) { return polynomial({slope, intercept}); }

CoordinateFunction CoordinateFunction::polynomial(std::vector<double> coefficients) {
  if (coefficients.empty()) coefficients = {0.0};
  CoordinateFunction f;
  f.polynomial_ = std::move(coefficients);
  return f;
}

// sigma_i = s''(x_i) / 6 from the tridiagonal continuity equations
//   h_{i-1} sigma_{i-1} + 2 (h_{i-1} + h_i) sigma_i + h_i sigma_{i+1} = D_i - D_{i-1},
// D_i the slope of piece i, closed by the chosen end rows (Forsythe, Malcolm &
// Moler 1977, `spline`; docs/physics.md#articulated-models).
CoordinateFunction CoordinateFunction::spline(const std::vector<double>& x, const std::vector<double>& y,
                                              SplineEnds ends) {
  const std::size_t n = x.size();
  if (n != y.size())
    throw std::invalid_argument("x and y must have the same number of points (got " + std::to_string(n) + " and " +
                                std::to_string(y.size()) + ")");
  if (n < 2) throw std::invalid_argument("a spline needs at least two points (got " + std::to_string(n) + ")");
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) throw std::invalid_argument("the points must be finite numbers");
    if (i > 0 && !(x[i] > x[i - 1]))
      throw std::invalid_argument("x must increase strictly (x[" + std::to_string(i) + "] = " + std::to_string(x[i]) +
                                  " after " + std::to_string(x[i - 1]) + ")");
  }
  CoordinateFunction f;
  f.x_ = x;
  f.y_ = y;
  std::vector<double> h(n - 1), slope(n - 1);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    h[i] = x[i + 1] - x[i];
    slope[i] = (y[i + 1] - y[i]) / h[i];
  }
  std::vector<double> sigma(n, 0.0);
  if (n > 2) {
    // Rows: sub[i] sigma_{i-1} + diag[i] sigma_i + super[i] sigma_{i+1} = rhs[i].
    std::vector<double> sub(n, 0.0), diag(n, 1.0), super(n, 0.0), rhs(n, 0.0);
    for (std::size_t i = 1; i + 1 < n; ++i) {
      sub[i] = h[i - 1];
      diag[i] = 2.0 * (h[i - 1] + h[i]);
      super[i] = h[i];
      rhs[i] = slope[i] - slope[i - 1];
    }
    if (ends == SplineEnds::divided_differences) {
      // Each end piece's third derivative equals that of the cubic through the
      // four end points (three points: zero, a parabola).
      diag[0] = -h[0];
      super[0] = h[0];
      sub[n - 1] = h[n - 2];
      diag[n - 1] = -h[n - 2];
      if (n > 3) {
        const auto third_difference = [&](std::size_t i) {  // f[x_i, ..., x_i+3]
          const double left = (slope[i + 1] - slope[i]) / (x[i + 2] - x[i]);
          const double right = (slope[i + 2] - slope[i + 1]) / (x[i + 3] - x[i + 1]);
          return (right - left) / (x[i + 3] - x[i]);
        };
        rhs[0] = h[0] * h[0] * third_difference(0);
        rhs[n - 1] = -h[n - 2] * h[n - 2] * third_difference(n - 4);
      }
    }  // natural: rows 0 and n-1 stay sigma = 0
    // Thomas algorithm: the system is diagonally dominant inside, and the end rows
    // eliminate cleanly against their neighbours.
    for (std::size_t i = 1; i < n; ++i) {
      const double w = sub[i] / diag[i - 1];
      diag[i] -= w * super[i - 1];
      rhs[i] -= w * rhs[i - 1];
    }
    sigma[n - 1] = rhs[n - 1] / diag[n - 1];
    for (std::size_t i = n - 1; i-- > 0;) sigma[i] = (rhs[i] - super[i] * sigma[i + 1]) / diag[i];
  }
  f.b_.resize(n);
  f.c_.resize(n);
  f.e_.resize(n);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    f.b_[i] = slope[i] - h[i] * (sigma[i + 1] + 2.0 * sigma[i]);
    f.c_[i] = 3.0 * sigma[i];
    f.e_[i] = (sigma[i + 1] - sigma[i]) / h[i];
  }
  f.b_[n - 1] = slope[n - 2] + h[n - 2] * (sigma[n - 2] + 2.0 * sigma[n - 1]);  // the end slope
  f.c_[n - 1] = 3.0 * sigma[n - 1];
  f.e_[n - 1] = 0.0;
  return f;
}

CoordinateFunction CoordinateFunction::multiplied(CoordinateFunction f, double scale) {
  f.scale_ *= scale;
  return f;
}

int CoordinateFunction::segment(double q) const {
  const auto it = std::upper_bound(x_.begin(), x_.end(), q);
  const auto i = static_cast<int>(it - x_.begin()) - 1;
  return std::clamp(i, 0, static_cast<int>(x_.size()) - 2);
}

double CoordinateFunction::value(double q) const {
  if (!polynomial_.empty()) {
    double v = 0.0;
    for (const double a : polynomial_) v = v * q + a;
    return scale_ * v;
  }
  if (q < x_.front()) return scale_ * (y_.front() + (q - x_.front()) * b_.front());
  if (q > x_.back()) return scale_ * (y_.back() + (q - x_.back()) * b_.back());
  const auto i = static_cast<std::size_t>(segment(q));
  const double d = q - x_[i];
  return scale_ * (y_[i] + d * (b_[i] + d * (c_[i] + d * e_[i])));
}

double CoordinateFunction::derivative(double q) const {
  if (!polynomial_.empty()) {
    double v = 0.0;
    const std::size_t n = polynomial_.size();
    for (std::size_t k = 0; k + 1 < n; ++k) v = v * q + static_cast<double>(n - 1 - k) * polynomial_[k];
    return scale_ * v;
  }
  if (q < x_.front()) return scale_ * b_.front();
  if (q > x_.back()) return scale_ * b_.back();
  const auto i = static_cast<std::size_t>(segment(q));
  const double d = q - x_[i];
  return scale_ * (b_[i] + d * (2.0 * c_[i] + 3.0 * d * e_[i]));
}

double CoordinateFunction::second_derivative(double q) const {
  if (!polynomial_.empty()) {
    double v = 0.0;
    const std::size_t n = polynomial_.size();
    for (std::size_t k = 0; k + 2 < n; ++k) {
      const auto power = static_cast<double>(n - 1 - k);
      v = v * q + power * (power - 1.0) * polynomial_[k];
    }
    return scale_ * v;
  }
  if (q < x_.front() || q > x_.back()) return 0.0;  // straight beyond the end knots
  const auto i = static_cast<std::size_t>(segment(q));
  return scale_ * (2.0 * c_[i] + 6.0 * (q - x_[i]) * e_[i]);
}

bool CoordinateFunction::is_constant() const {
  if (scale_ == 0.0) return true;
  if (polynomial_.empty()) return false;
  return std::all_of(polynomial_.begin(), polynomial_.end() - 1, [](double a) { return a == 0.0; });
}

}  // namespace dropsim
