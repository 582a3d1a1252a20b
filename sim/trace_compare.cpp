// Trace comparison math: exact on shared samples, cubic elsewhere, summary statistics.
#include "dropsim/sim/trace_compare.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace dropsim {

namespace {

// Samples closer than this fraction of the local spacing are not used as separate nodes.
constexpr double sliver = 1e-3;

bool same_sample(double a, double b) {
  return std::abs(a - b) <= same_sample_relative * std::max(std::abs(a), std::abs(b));
}

}  // namespace

CurveProblem check_curve(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size())
    return {"x and y differ in length (" + std::to_string(x.size()) + " and " + std::to_string(y.size()) + ")", false};
  if (x.size() < 2) return {"fewer than 2 samples", false};
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) return {"non-finite value at sample " + std::to_string(i), true};
    if (!std::isfinite(y[i])) return {"non-finite value at sample " + std::to_string(i), false};
    if (i > 0 && !(x[i] > x[i - 1])) return {"not strictly increasing at sample " + std::to_string(i), true};
  }
  return {};
}

double interpolate_cubic(const std::vector<double>& x, const std::vector<double>& y, double xq) {
  const std::size_t n = x.size();
  // Interval [j, j+1] holding xq.
  std::size_t j = static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), xq) - x.begin());
  j = std::clamp<std::size_t>(j, 1, n - 1) - 1;
  if (same_sample(xq, x[j])) return y[j];
  if (same_sample(xq, x[j + 1])) return y[j + 1];
  if (y[j] == 0.0 && y[j + 1] == 0.0) return 0.0;

  // A grid may end with a sliver (the last sample sits at `duration`, however
  // close to the one before). Nodes that close would amplify the integration
  // error in the samples by h / sliver, so the stencil skips them, and inside a
  // sliver the straight line is exact enough.
  const double h = x[j + 1] - x[j];
  const double neighbour = std::max(j > 0 ? x[j] - x[j - 1] : 0.0, j + 2 < n ? x[j + 2] - x[j + 1] : 0.0);
  if (h < sliver * neighbour) return y[j] + (y[j + 1] - y[j]) * (xq - x[j]) / h;
  std::size_t nodes[4] = {j, j + 1, 0, 0};
  std::size_t count = 2;
  std::size_t left = j, right = j + 1;  // outermost nodes so far
  bool from_left = true;                // alternate sides: a centred stencil
  for (std::size_t l = j, r = j + 1; count < 4 && (l > 0 || r + 1 < n);) {
    const bool use_left = l > 0 && (from_left || r + 1 >= n);
    const std::size_t k = use_left ? --l : ++r;
    if (std::abs(x[k] - x[use_left ? left : right]) < sliver * h) continue;
    nodes[count++] = k;
    (use_left ? left : right) = k;
    from_left = !use_left;
  }
  double value = 0.0;
  for (std::size_t a = 0; a < count; ++a) {
    double w = 1.0;
    for (std::size_t b = 0; b < count; ++b)
      if (b != a) w *= (xq - x[nodes[b]]) / (x[nodes[a]] - x[nodes[b]]);
    value += w * y[nodes[a]];
  }
  return value;
}

CompareOutcome compare_curves(const std::vector<double>& xa, const std::vector<double>& ya,
                              const std::vector<double>& xb, const std::vector<double>& yb, const Tolerance& tol) {
  CompareOutcome out;
  for (const auto& [x, y, which] : {std::tuple(&xa, &ya, "A"), std::tuple(&xb, &yb, "B")})
    if (const CurveProblem p = check_curve(*x, *y); !p.message.empty()) {
      out.error = std::string(p.in_x ? "x" : "y") + " of " + which + ": " + p.message;
      return out;
    }
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
