// The "what tight code costs" floor: a minimal hand-written Dormand–Prince 5(4)
// for the 1-DOF Hunt–Crossley drop, with flight solved in closed form (exact
// touchdown) and steps landed on lift-off and on the no-pull clamp.
//
// Deliberately standalone (no dropsim headers beyond plain parameters): it is
// the baseline dropsim is measured against, so it shares none of its code.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace dropsim::floor {

// The drop ODE: m y'' = k (-y)^1.5 max(1 - 1.5 alpha y', 0) - m g for y < 0,
// free fall for y >= 0; k = n 4/3 E* sqrt(R) (all spheres together).
struct Drop {
  double mass = 0.0, gravity = 0.0, k = 0.0, alpha = 0.0;
  double y0 = 0.0, v0 = 0.0;
  double atol_y = 0.0, atol_v = 0.0;  // per component, like dropsim's model-scaled atol
};

struct Result {
  std::vector<double> force_normalized;  // on the grid (empty unless recorded)
  long steps = 0, rhs = 0;
};

namespace detail {

// Dormand–Prince 5(4) tableau and dense output (Hairer, Nørsett & Wanner, DOPRI5).
constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
constexpr double a21 = 1.0 / 5;
constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                 a65 = -5103.0 / 18656;
constexpr double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784, a76 = 11.0 / 84;
constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200, e6 = 22.0 / 525,
                 e7 = -1.0 / 40;
constexpr double d1 = -12715105075.0 / 11282082432, d3 = 87487479700.0 / 32700410799,
                 d4 = -10690763975.0 / 1880347072, d5 = 701980252875.0 / 199316789632,
                 d6 = -1453857185.0 / 822651844, d7 = 69997945.0 / 29380423;

struct Dense {  // continuous extension of one step, per component
  double r1[2], r2[2], r3[2], r4[2], r5[2];
  double t0, h;
  double at(int i, double t) const {
    const double s = (t - t0) / h, s1 = 1.0 - s;
    return r1[i] + s * (r2[i] + s1 * (r3[i] + s * (r4[i] + s1 * r5[i])));
  }
};

// The time in (a, b] at which g's sign changes from its sign at a (ga = g(a),
// gb = g(b) of the other sign) to 4e-16 relative: dropsim's driver's false
// position with the Anderson–Björck weighting, a step of one tolerance where its
// estimate meets an end and a bisection where three steps did not halve the bracket.
template <class G>
double sign_change(const G& g, double a, double ga, double b, double gb) {
  const bool positive_at_a = ga > 0.0;
  int kept = 0;
  double widths[3] = {1e300, 1e300, 1e300};
  auto weight = [](double g_new, double g_replaced) {
    const double f = 1.0 - g_new / g_replaced;
    return f > 0.0 ? f : 0.5;
  };
  for (int it = 0; it < 200 && b - a > 4e-16 * b; ++it) {
    const double width = b - a, least = std::min(4e-16 * b, 0.5 * width);
    double m = 0.5 * (a + b);
    const double estimate = b - gb * (width / (gb - ga));
    if (width <= 0.5 * widths[2] && estimate == estimate) m = std::clamp(estimate, a + least, b - least);
    widths[2] = widths[1];
    widths[1] = widths[0];
    widths[0] = width;
    const double gm = g(m);
    if ((gm > 0.0) == positive_at_a) {
      if (kept == 1) gb *= weight(gm, ga);
      a = m, ga = gm, kept = 1;
    } else {
      if (kept == -1) ga *= weight(gm, gb);
      b = m, gb = gm, kept = -1;
    }
  }
  return b;
}

}  // namespace detail

// Integrates to grid.back() (grid.front() == 0) into out, keeping its buffer's
// capacity (as dropsim's runs keep their trace's). With record, stores F/(Mg)
// on the grid; without, still visits every grid point's step but writes nothing.
inline void simulate(const Drop& d, const std::vector<double>& grid, double rtol, bool record, Result& out) {
  using namespace detail;
  out.steps = out.rhs = 0;
  out.force_normalized.clear();
  if (record) out.force_normalized.resize(grid.size(), 0.0);
  const double inv_m = 1.0 / d.mass, weight = d.mass * d.gravity, t_end = grid.back();
  long rhs = 0;
  // Acceleration and the contact force over M g, in contact (y < 0).
  auto force = [&](double y, double v) {
    const double x = -y;
    return x > 0.0 ? d.k * x * std::sqrt(x) * std::max(1.0 - 1.5 * d.alpha * v, 0.0) : 0.0;
  };
  auto accel = [&](double y, double v) {
    ++rhs;
    return force(y, v) * inv_m - d.gravity;
  };

  double t = 0.0, y = d.y0, v = d.v0;
  std::size_t next = 0;
  double h = 0.0;
  while (t < t_end) {
    // Flight, in closed form: until touchdown y = 0 (or the end).
    if (y > 0.0 || (y == 0.0 && v >= 0.0)) {
      const double dt = (v + std::sqrt(v * v + 2.0 * d.gravity * y)) / d.gravity;
      const double t_touch = std::min(t + dt, t_end);
      while (next < grid.size() && grid[next] <= t_touch) ++next;  // F = 0 in flight
      v -= d.gravity * (t_touch - t);
      y = 0.0;
      t = t_touch;
      // First step in contact from the contact time scale: sqrt(m / k_eff)
      // with the stiffness at a tolerance-sized indentation.
      if (h == 0.0) h = 1e-2 * std::pow(std::max(d.atol_y, 1e-300), 0.2) * std::pow(std::abs(v) + 1e-300, -0.2) *
                        std::pow(d.mass / d.k, 0.4);
      continue;
    }
    // Contact: DOPRI5 steps, each ending on lift-off or the clamp if one lies inside.
    double k1y = v, k1v = accel(y, v);
    bool landing = false, landing_on_lift = false;
    double h_before = h;
    while (t < t_end) {
      if (t + h > t_end) h = t_end - t;
      const double k2y = v + h * a21 * k1v, y2 = y + h * a21 * k1y;
      const double k2v = accel(y2, k2y);
      const double y3 = y + h * (a31 * k1y + a32 * k2y), k3y = v + h * (a31 * k1v + a32 * k2v);
      const double k3v = accel(y3, k3y);
      const double y4 = y + h * (a41 * k1y + a42 * k2y + a43 * k3y), k4y = v + h * (a41 * k1v + a42 * k2v + a43 * k3v);
      const double k4v = accel(y4, k4y);
      const double y5 = y + h * (a51 * k1y + a52 * k2y + a53 * k3y + a54 * k4y),
                   k5y = v + h * (a51 * k1v + a52 * k2v + a53 * k3v + a54 * k4v);
      const double k5v = accel(y5, k5y);
      const double y6 = y + h * (a61 * k1y + a62 * k2y + a63 * k3y + a64 * k4y + a65 * k5y),
                   k6y = v + h * (a61 * k1v + a62 * k2v + a63 * k3v + a64 * k4v + a65 * k5v);
      const double k6v = accel(y6, k6y);
      const double yn = y + h * (a71 * k1y + a73 * k3y + a74 * k4y + a75 * k5y + a76 * k6y),
                   vn = v + h * (a71 * k1v + a73 * k3v + a74 * k4v + a75 * k5v + a76 * k6v);
      const double k7y = vn, k7v = accel(yn, vn);
      const double ey = h * (e1 * k1y + e3 * k3y + e4 * k4y + e5 * k5y + e6 * k6y + e7 * k7y);
      const double ev = h * (e1 * k1v + e3 * k3v + e4 * k4v + e5 * k5v + e6 * k6v + e7 * k7v);
      const double err = std::max(std::abs(ey) / (d.atol_y + rtol * std::max(std::abs(y), std::abs(yn))),
                                  std::abs(ev) / (d.atol_v + rtol * std::max(std::abs(v), std::abs(vn))));
      if (!(err <= 1.0)) {
        h *= std::isfinite(err) ? std::clamp(0.9 * std::pow(err, -0.2), 0.2, 1.0) : 0.1;
        landing = false;
        continue;
      }
      Dense dense;
      dense.t0 = t;
      dense.h = h;
      const double ky[7] = {k1y, k2y, k3y, k4y, k5y, k6y, k7y}, kv[7] = {k1v, k2v, k3v, k4v, k5v, k6v, k7v};
      const double yo[2] = {y, v}, yn2[2] = {yn, vn};
      for (int i = 0; i < 2; ++i) {
        const double* k = i == 0 ? ky : kv;
        const double dy = yn2[i] - yo[i], bspl = h * k[0] - dy;
        dense.r1[i] = yo[i];
        dense.r2[i] = dy;
        dense.r3[i] = bspl;
        dense.r4[i] = dy - h * k[6] - bspl;
        dense.r5[i] = h * (d1 * k[0] + d3 * k[2] + d4 * k[3] + d5 * k[4] + d6 * k[5] + d7 * k[6]);
      }
      // Switches: lift-off (y crosses 0 upward) and the clamp (1 - 1.5 alpha v crosses 0).
      if (!landing) {
        auto clamp_arg = [&](double vv) { return 1.0 - 1.5 * d.alpha * vv; };
        const bool lift = yn >= 0.0;
        const bool clamp = d.alpha > 0.0 && (clamp_arg(v) > 0.0) != (clamp_arg(vn) > 0.0);
        if (lift || clamp) {
          auto g = [&](double tt) { return lift ? dense.at(0, tt) : clamp_arg(dense.at(1, tt)); };
          const double b = sign_change(g, t, g(t), t + h, g(t + h));
          if (b - t > 1e-12 * t_end) {
            h_before = h;
            h = b - t;
            landing = true;
            landing_on_lift = lift;
            continue;
          }
        }
      }
      const double t_new = t + h;
      for (; next < grid.size() && grid[next] <= t_new; ++next)
        if (record) out.force_normalized[next] = force(dense.at(0, grid[next]), dense.at(1, grid[next])) / weight;
      ++out.steps;
      t = t_new;
      y = yn;
      v = vn;
      k1y = k7y;
      k1v = k7v;
      const bool landed = landing;
      h = landed ? 0.1 * h_before : h * (err > 0.0 ? std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0) : 5.0);
      landing = false;
      if (landed && landing_on_lift) {  // lifted off: back to flight
        y = 0.0;
        break;
      }
    }
  }
  out.rhs = rhs;
}

inline Result simulate(const Drop& d, const std::vector<double>& grid, double rtol, bool record) {
  Result out;
  simulate(d, grid, rtol, record, out);
  return out;
}

}  // namespace dropsim::floor
