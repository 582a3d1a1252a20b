// The "what tight code costs" floor of a free body on spheres: a minimal
// hand-written Dormand–Prince 5(4) for one free rigid body on N equal
// Hunt–Crossley spheres with friction on the ground y = 0, the multi-contact
// suite of bench/work_precision_bench.cpp (scenarios/friction/box_on_edge.json).
//
// Deliberately standalone, like floor_dopri5.hpp (whose tableau it shares):
// plain parameters in, none of dropsim's code. Its physics is dropsim's
// (docs/physics.md#hunt-crossley, #friction), so both converge to one trajectory.
#pragma once

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "bench/floor/floor_dopri5.hpp"

namespace dropsim::floor {

// x y z (centre of mass, world) | qw qx qy qz | vx vy vz (world) | wx wy wz (BODY frame), as dropsim's free joint.
using FreeBodyState = Eigen::Matrix<double, 13, 1>;

struct FreeBody {
  double mass = 0.0, gravity = 0.0;                   // gravity along -y
  Eigen::Vector3d inertia = Eigen::Vector3d::Zero();  // principal moments (body axes), kg m^2
  std::vector<Eigen::Vector3d> spheres;               // centres, body frame
  double radius = 0.0, modulus = 0.0;                 // each sphere's R and E*: Fe = 4/3 E* sqrt(R) x^1.5
  double dissipation = 0.0;                           // Hunt–Crossley alpha, s/m
  double mu_s = 0.0, mu_d = 0.0, mu_v = 0.0, v_t = 0.01;  // Simbody's friction (mu_v in s/m, v_t in m/s)
  FreeBodyState x0 = FreeBodyState::Zero();
  FreeBodyState atol = FreeBodyState::Zero();  // per component, like dropsim's model-scaled atol
};

// Integrates to grid.back() (grid.front() == 0) into out, keeping its buffer's
// capacity (as dropsim's runs keep their trace's), and stores F_y/(Mg), the
// vertical contact force over the weight, on the grid; a run whose step
// underflows (the solution blew up) leaves no samples.
//
// Steps end on every switch of the force law, as dropsim's driver does (a
// sphere's touchdown and lift-off, indentation 0, and its no-pull clamp,
// 1 + 1.5 alpha xdot = 0): the cheapest way to a given accuracy. On
// box_on_edge, landing on none, or on touchdowns alone, saved under 10 % of
// the steps and left 5-500x the error (mostly 15-50x) at rtol 1e-5 to 1e-10:
// across a lift-off or the clamp the embedded estimate misses the kink's error.
inline void simulate(const FreeBody& b, const std::vector<double>& grid, double rtol, Result& out) {
  using namespace detail;
  using State = FreeBodyState;
  using Eigen::Vector3d;
  out.steps = 0;
  out.force_normalized.assign(grid.size(), 0.0);
  const double k = (4.0 / 3.0) * b.modulus * std::sqrt(b.radius), weight = b.mass * b.gravity;
  const double t_end = grid.back(), h_min = 1e-14 * std::max(1.0, t_end);
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t n_switch = 2 * b.spheres.size();
  long rhs = 0;

  // Body to world, from the normalised quaternion (so no projection is needed between steps).
  auto rotation = [](const State& x) {
    const double qw = x[3], qx = x[4], qy = x[5], qz = x[6];
    const double s = 2.0 / (qw * qw + qx * qx + qy * qy + qz * qz);
    Eigen::Matrix3d r;
    r << 1.0 - s * (qy * qy + qz * qz), s * (qx * qy - qw * qz), s * (qx * qz + qw * qy),  //
        s * (qx * qy + qw * qz), 1.0 - s * (qx * qx + qz * qz), s * (qy * qz - qw * qx),   //
        s * (qx * qz - qw * qy), s * (qy * qz + qw * qx), 1.0 - s * (qx * qx + qy * qy);
    return r;
  };
  // A sphere's indentation, and in xdot its rate (minus its centre's vertical speed), from arm = R at.
  auto indentation = [&](const State& x, const Vector3d& arm, const Vector3d& w_world, double& xdot) {
    xdot = -(x[8] + w_world.z() * arm.x() - w_world.x() * arm.z());
    return b.radius - x[1] - arm.y();
  };

  // dx/dt; `vertical` gets the vertical contact force (N). Friction is
  // tangent to the ground, so the normal forces alone make that force.
  auto rate = [&](const State& x, double& vertical) {
    State dx;
    const Vector3d v = x.segment<3>(7), w = x.tail<3>();
    // Quaternion kinematics with body-frame w: qdot = 1/2 q (x) (0, w).
    dx.head<3>() = v;
    dx[3] = -0.5 * x.segment<3>(4).dot(w);
    dx.segment<3>(4) = 0.5 * (x[3] * w + x.segment<3>(4).cross(w));
    const Eigen::Matrix3d r = rotation(x);
    const Vector3d w_world = r * w;
    Vector3d force(0.0, -weight, 0.0), torque = Vector3d::Zero();  // world; torque about the centre of mass
    vertical = 0.0;
    for (const Vector3d& at : b.spheres) {
      const Vector3d arm = r * at;  // centre of mass -> sphere centre
      double xdot;
      const double depth = indentation(x, arm, w_world, xdot);
      if (depth <= 0.0) continue;
      // Hunt–Crossley, clamped per contact so that it never pulls.
      const double fn = std::max(k * depth * std::sqrt(depth) * (1.0 + 1.5 * b.dissipation * xdot), 0.0);
      if (fn == 0.0) continue;  // a contact that does not push does not rub
      vertical += fn;
      torque += arm.cross(Vector3d(0.0, fn, 0.0));
      // Friction at the contact point, half the indentation below the ground,
      // against the point's tangential slip: F_t = -F_n mu(s)/s v_t.
      const Vector3d point(arm.x(), arm.y() - b.radius + 0.5 * depth, arm.z());
      Vector3d slip = v + w_world.cross(point);
      slip.y() = 0.0;
      const double speed = slip.norm(), ratio = speed / b.v_t;
      const double mu = b.mu_d + 2.0 * (b.mu_s - b.mu_d) / (1.0 + ratio * ratio);
      const Vector3d friction = -(fn * ((ratio < 1.0 ? mu / b.v_t : mu / speed) + b.mu_v)) * slip;
      force += friction;
      force.y() += fn;
      torque += point.cross(friction);
    }
    dx.segment<3>(7) = force / b.mass;
    // Euler's equations in the body frame: I wdot = tau - w x I w.
    dx.tail<3>() = (r.transpose() * torque - w.cross(b.inertia.cwiseProduct(w))).cwiseQuotient(b.inertia);
    return dx;
  };
  auto f = [&](const State& x) {
    ++rhs;
    double vertical;
    return rate(x, vertical);
  };
  // Per sphere: the indentation, and the clamp's argument 1 + 1.5 alpha xdot
  // (held at 1 while apart, so a body in flight has no clamp events).
  auto switches = [&](const State& x, std::vector<double>& g) {
    const Eigen::Matrix3d r = rotation(x);
    const Vector3d w_world = r * x.tail<3>();
    for (std::size_t i = 0; i < b.spheres.size(); ++i) {
      double xdot;
      g[2 * i] = indentation(x, r * b.spheres[i], w_world, xdot);
      g[2 * i + 1] = g[2 * i] > 0.0 ? 1.0 + 1.5 * b.dissipation * xdot : 1.0;
    }
  };
  auto sample = [&](std::size_t i, const State& x) {
    double vertical;
    rate(x, vertical);
    out.force_normalized[i] = vertical / weight;
  };

  State x = b.x0, k1 = f(x);
  std::size_t next = 0;
  for (; next < grid.size() && grid[next] <= 0.0; ++next) sample(next, x);
  // Hairer–Nørsett–Wanner's starting step.
  double size = 0.0, slope = 0.0;
  for (int i = 0; i < 13; ++i) {
    const double sc = b.atol[i] + rtol * std::abs(x[i]);
    size = std::max(size, std::abs(x[i]) / sc);
    slope = std::max(slope, std::abs(k1[i]) / sc);
  }
  double h = std::min(size < 1e-5 || slope < 1e-5 ? 1e-6 * t_end : 0.01 * size / slope, 0.01 * t_end);
  double t = 0.0, h_before = h;
  bool landing = false;  // this try was shortened to end on a switch
  std::vector<double> g_old(n_switch), g_new(n_switch), g_probe(n_switch);
  switches(x, g_old);
  State r1, r2, r3, r4, r5;  // the step's dense output (Hairer's contd5)
  auto dense = [&](double tt) {
    const double s = (tt - t) / h, s1 = 1.0 - s;
    return State(r1 + s * (r2 + s1 * (r3 + s * (r4 + s1 * r5))));
  };
  while (t < t_end) {
    if (t + h > t_end - h_min) h = t_end - t;
    const State k2 = f(x + h * a21 * k1);
    const State k3 = f(x + h * (a31 * k1 + a32 * k2));
    const State k4 = f(x + h * (a41 * k1 + a42 * k2 + a43 * k3));
    const State k5 = f(x + h * (a51 * k1 + a52 * k2 + a53 * k3 + a54 * k4));
    const State k6 = f(x + h * (a61 * k1 + a62 * k2 + a63 * k3 + a64 * k4 + a65 * k5));
    const State xn = x + h * (a71 * k1 + a73 * k3 + a74 * k4 + a75 * k5 + a76 * k6);
    const State k7 = f(xn);
    const State e = h * (e1 * k1 + e3 * k3 + e4 * k4 + e5 * k5 + e6 * k6 + e7 * k7);
    // Hairer's scale atol + rtol max(|x|, |xn|) per component; the largest ratio, as dropsim's driver.
    const auto scale = b.atol.array() + rtol * x.cwiseAbs().cwiseMax(xn.cwiseAbs()).array();
    const double err = xn.allFinite() ? (e.array().abs() / scale).maxCoeff() : inf;
    if (!(err <= 1.0)) {
      h *= err < inf ? std::clamp(0.9 * std::pow(err, -0.2), 0.2, 1.0) : 0.1;
      landing = false;
      if (h < h_min) {
        out.force_normalized.clear();
        break;
      }
      continue;
    }
    const State dx = xn - x, bspl = h * k1 - dx;
    r1 = x;
    r2 = dx;
    r3 = bspl;
    r4 = dx - h * k7 - bspl;
    r5 = h * (d1 * k1 + d3 * k3 + d4 * k4 + d5 * k5 + d6 * k6 + d7 * k7);
    if (!landing) {
      // The earliest switch inside the step, on the dense output; redo the step to end there.
      // (Signs compared at the step's ends only: dropsim's driver also looks at its midpoint.)
      switches(xn, g_new);
      double t_switch = t + h;
      for (std::size_t i = 0; i < n_switch; ++i) {
        if ((g_new[i] > 0.0) == (g_old[i] > 0.0)) continue;
        auto g = [&](double tt) {
          switches(dense(tt), g_probe);
          return g_probe[i];
        };
        t_switch = std::min(t_switch, sign_change(g, t, g_old[i], t + h, g_new[i]));
      }
      if (t_switch < t + h && t_switch - t > 1e-12 * std::max(1.0, t_end)) {
        h_before = h;
        h = t_switch - t;
        landing = true;
        continue;
      }
    }
    const double t_new = t + h;
    for (; next < grid.size() && grid[next] <= t_new; ++next) sample(next, dense(grid[next]));
    ++out.steps;
    t = t_new;
    x = xn;
    k1 = k7;
    if (landing) switches(x, g_old);  // else g_new holds them
    else std::swap(g_old, g_new);
    // After a switch, resume at a tenth of the step the error control chose
    // before the switch shortened it: across the kink its estimate undershoots.
    h = landing ? 0.1 * h_before : h * (err > 0.0 ? std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0) : 5.0);
    landing = false;
  }
  out.rhs = rhs;
}

inline Result simulate(const FreeBody& b, const std::vector<double>& grid, double rtol) {
  Result out;
  simulate(b, grid, rtol, out);
  return out;
}

}  // namespace dropsim::floor
