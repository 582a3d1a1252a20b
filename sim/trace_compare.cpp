// Trace comparison math: exact on shared samples, cubic elsewhere, summary statistics.
#include "sim/trace_compare.hpp"

#include <algorithm>
#include <cmath>

namespace dropsim {

namespace {

bool same_sample(double a, double b) {
  return std::abs(a - b) <= same_sample_relative * std::max(std::abs(a), std::abs(b));
}

std::string check_grid(const std::vector<double>& x, const std::vector<double>& y, const char* which) {
  const std::string w(which);
  if (x.size() != y.size())
    return "x and y of " + w + " differ in length (" + std::to_string(x.size()) + " and " + std::to_string(y.size()) + ")";
  if (x.size() < 2) return w + " has fewer than 2 samples";
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) return w + " has a non-finite value at sample " + std::to_string(i);
    if (i > 0 && !(x[i] > x[i - 1])) return "x of " + w + " is not strictly increasing at sample " + std::to_string(i);
  }
  return {};
}

}  // namespace

double interpolate_cubic(const std::vector<double>& x, const std::vector<double>& y, double xq) {
  const std::size_t n = x.size();
  // Interval [j, j+1] holding xq.
  std::size_t j = static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), xq) - x.begin());
  j = std::clamp<std::size_t>(j, 1, n - 1) - 1;
  if (same_sample(xq, x[j])) return y[j];
  if (same_sample(xq, x[j + 1])) return y[j + 1];
  if (y[j] == 0.0 && y[j + 1] == 0.0) return 0.0;
  if (n < 4) return y[j] + (y[j + 1] - y[j]) * (xq - x[j]) / (x[j + 1] - x[j]);
  // Centred stencil {j-1 .. j+2}, shifted inward at the ends.
  const std::size_t s = std::min(j > 0 ? j - 1 : 0, n - 4);
  double value = 0.0;
  for (std::size_t i = s; i < s + 4; ++i) {
    double w = 1.0;
    for (std::size_t k = s; k < s + 4; ++k)
      if (k != i) w *= (xq - x[k]) / (x[i] - x[k]);
    value += w * y[i];
  }
  return value;
}

CompareOutcome compare_curves(const std::vector<double>& xa, const std::vector<double>& ya,
                              const std::vector<double>& xb, const std::vector<double>& yb, const Tolerance& tol) {
  CompareOutcome out;
  if (out.error = check_grid(xa, ya, "A"); !out.error.empty()) return out;
  if (out.error = check_grid(xb, yb, "B"); !out.error.empty()) return out;
  Comparison& c = out.result;
  c.overlap_begin = std::max(xa.front(), xb.front());
  c.overlap_end = std::min(xa.back(), xb.back());
  // Samples at the overlap's edges count as inside when they coincide with them.
  auto inside = [&](double v) {
    return (v >= c.overlap_begin || same_sample(v, c.overlap_begin)) && (v <= c.overlap_end || same_sample(v, c.overlap_end));
  };

  double sum_sq = 0.0;
  bool any_b = false;
  for (std::size_t i = 0; i < xb.size(); ++i)
    if (inside(xb[i]) && (!any_b || yb[i] > c.peak_b)) {
      c.peak_b = yb[i];
      c.x_peak_b = xb[i];
      any_b = true;
    }
  for (std::size_t i = 0; i < xa.size(); ++i) {
    if (!inside(xa[i])) continue;
    const double xq = std::clamp(xa[i], xb.front(), xb.back());
    const double d = ya[i] - interpolate_cubic(xb, yb, xq);
    const double ad = std::abs(d);
    if (c.samples == 0 || ya[i] > c.peak_a) {
      c.peak_a = ya[i];
      c.x_peak_a = xa[i];
    }
    if (c.samples == 0 || ad > c.max_abs_diff) {
      c.max_abs_diff = ad;
      c.x_of_max = xa[i];
    }
    if (ad > tol.atol + tol.rtol * std::abs(ya[i])) {
      if (c.failing_samples == 0) c.x_first_failure = xa[i];
      ++c.failing_samples;
    }
    sum_sq += d * d;
    c.final_diff = d;
    ++c.samples;
  }
  if (c.samples == 0 || !any_b) {
    out.error = "the x ranges do not overlap (A covers [" + std::to_string(xa.front()) + ", " + std::to_string(xa.back()) +
                "], B covers [" + std::to_string(xb.front()) + ", " + std::to_string(xb.back()) + "])";
    return out;
  }
  c.rms_diff = std::sqrt(sum_sq / static_cast<double>(c.samples));
  return out;
}

}  // namespace dropsim
