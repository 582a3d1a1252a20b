// Comparing two sampled curves on different grids: B interpolated onto A's grid over their overlap.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace dropsim {

// Two x values count as the same sample when they differ by less than this
// fraction of their magnitude (a tau grid of 0.01 computed for a mouse and
// for a giraffe agrees to a few ulps).
constexpr double same_sample_relative = 1e-12;

// Value of the curve (x, y) at xq: y[i] itself where x[i] matches xq within
// same_sample_relative, else a 4-point Lagrange cubic on the nearest samples
// (local error O(h^4)) that skips samples a sliver apart; exactly 0 between
// two exact zeros, so free flight stays free of ringing from a nearby
// touchdown. x strictly increasing, size >= 2, xq within [x.front(), x.back()].
double interpolate_cubic(const std::vector<double>& x, const std::vector<double>& y, double xq);

struct Tolerance {
  double atol = 1e-6;
  double rtol = 0.0;  // a sample passes when |a - b| <= atol + rtol |a|
};

struct Comparison {
  double overlap_begin = 0.0, overlap_end = 0.0;  // x range both curves cover
  std::size_t samples = 0;                        // A samples inside the overlap (compared)
  double max_abs_diff = 0.0, x_of_max = 0.0;      // largest |a - b| and where
  double rms_diff = 0.0;
  double peak_a = 0.0, x_peak_a = 0.0;  // largest A sample in the overlap
  double peak_b = 0.0, x_peak_b = 0.0;  // largest B sample in the overlap
  double final_diff = 0.0;              // a - b at the last compared sample
  std::size_t failing_samples = 0;      // beyond tolerance
  double x_first_failure = 0.0;
  bool within_tolerance() const { return failing_samples == 0; }
};

// Result of a comparison, or why there is none (empty when fine).
struct CompareOutcome {
  Comparison result;
  std::string error;  // e.g. "x of B: not strictly increasing at sample 10"
};

// What is wrong with one sampled curve, if anything: x and y of unequal
// length, fewer than 2 samples, a non-finite value, or x not strictly
// increasing. `in_x` says which of the two the problem is in.
struct CurveProblem {
  std::string message;  // empty: the curve can be compared
  bool in_x = false;
};
CurveProblem check_curve(const std::vector<double>& x, const std::vector<double>& y);

// Compares b(x) against a(x) on A's samples inside the overlap of the two x ranges.
CompareOutcome compare_curves(const std::vector<double>& xa, const std::vector<double>& ya,
                              const std::vector<double>& xb, const std::vector<double>& yb, const Tolerance& tol);

}  // namespace dropsim
