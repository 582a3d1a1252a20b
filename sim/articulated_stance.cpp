// Equilibria of the rigid models of an articulated model, load shares, the
// support polygon and the modeller's warnings.
#include "dropsim/sim/articulated_stance.hpp"
#include "dropsim/integrators/check.hpp"

#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cstdint>
#include <cmath>
#include <limits>

#include "dropsim/sim/articulated_rigid.hpp"
#include "dropsim/sim/format.hpp"
#include "dropsim/sim/kinematics.hpp"
#include "dropsim/sim/model_error.hpp"
#include "dropsim/sim/multibody_system.hpp"

namespace dropsim {

namespace {

// A sphere starting this many equilibrium indentations deep starts with a force
// far above its share of the weight: the run begins with a launch.
constexpr double deep_start_factor = 3.0;
// A contact carrying less than this fraction of the weight carries nothing.
constexpr double no_load_fraction = 1e-6;

int articulated_index(const ArticulatedModel& model, const std::string& name) {
  for (std::size_t i = 0; i < model.contacts.size(); ++i)
    if (model.contacts[i].name == name) return static_cast<int>(i);
  check_failed(__FILE__, __LINE__, "articulated_index", "rigid model's contact " + name + " is not in the articulated model");
}

// One vertical body: its support grows as it sinks (every surface under it
// pushes harder), so the balance is a bracketed root in y, found where
// Newton's tangent vanishes at first touch (Hertz's stiffness is zero there).
Equilibrium vertical_equilibrium(const MultibodyModel& m, const Eigen::VectorXd& start) {
  const MultibodySystem system(m);
  const double weight = m.total_mass() * m.gravity;
  Eigen::VectorXd x = start, f(m.nu);
  const auto imbalance = [&](double y) {  // net upward force over the weight
    x[0] = y;
    system.applied_forces(x, f);
    return f[0] / weight;
  };
  double high = start[0], low = high, sink = 1e-6 * m.characteristic_length;
  // Above: where the support does not yet carry the weight (the smoothed law may float it).
  for (int k = 0; imbalance(high) > 0.0; ++k, sink *= 2.0) {
    if (k > 200) throw EquilibriumError("the contacts push the body up at every height tried: it floats away");
    high += sink;
  }
  sink = 1e-6 * m.characteristic_length;
  for (int k = 0; imbalance(low) <= 0.0; ++k, sink *= 2.0) {
    if (k > 200 || !std::isfinite(low))
      throw EquilibriumError("the contacts under the body never carry its weight however deep it sinks");
    low -= sink;
  }
  std::uintmax_t iterations = 200;
  const auto root = boost::math::tools::toms748_solve(imbalance, low, high, boost::math::tools::eps_tolerance<double>(50), iterations);
  Equilibrium e;
  e.x = start;
  const double y = 0.5 * (root.first + root.second);
  e.residual = std::abs(imbalance(y));
  e.x[0] = y;
  e.iterations = static_cast<int>(iterations);
  if (!(e.residual < 1e-9)) throw EquilibriumError("the vertical force balance did not converge within 200 bracketing steps");
  return e;
}

// The equilibrium from the model moved up or down until its deepest contact
// just touches: OpenSim's default poses often sink the model or hold it in the air.
Stance stand(const ArticulatedModel& articulated, MultibodyModel rigid) {
  Stance out;
  out.model = std::move(rigid);
  const MultibodyModel& m = out.model;
  const Eigen::VectorXd x0 = m.initial_state();
  Eigen::VectorXd start = x0;
  double lift = -std::numeric_limits<double>::infinity();
  std::vector<double> default_gap;
  for (const Contact& c : m.contacts) {
    const ContactKinematics k = contact_kinematics(m, c, x0);
    default_gap.push_back(k.gap);
    const double rise = contact_side(c, 0) * k.normal.y();  // the gap's change per unit rise of the body
    if (rise > 0.0) lift = std::max(lift, -k.gap / rise);
  }
  if (std::isfinite(lift)) start[vertical_index(m.bodies.front().joint)] += lift;
  start.tail(m.nu).setZero();
  try {
    out.equilibrium = m.bodies.front().joint == Joint::vertical ? vertical_equilibrium(m, start) : static_equilibrium(m, start);
    out.at_equilibrium = true;
  } catch (const EquilibriumError& e) {
    out.no_equilibrium = e.what();
    return out;
  }
  double total = 0.0;
  for (std::size_t i = 0; i < m.contacts.size(); ++i) {
    const Contact& c = m.contacts[i];
    StanceContact sc;
    sc.contact = articulated_index(articulated, c.name);
    sc.default_indentation = -default_gap[i];
    sc.indentation = -contact_kinematics(m, c, out.equilibrium.x).gap;
    sc.force = contact_force(c.law, sc.indentation, 0.0);
    total += c.count * sc.force;
    out.contacts.push_back(sc);
  }
  for (StanceContact& sc : out.contacts) sc.load_share = total > 0.0 ? sc.force / total : 0.0;
  return out;
}

double cross2(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

// Distance from p to the convex hull of the points (0 inside or on it).
double outside_hull(std::vector<Eigen::Vector2d> points, const Eigen::Vector2d& p) {
  // Andrew's monotone chain.
  std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  std::vector<Eigen::Vector2d> hull;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t base = hull.size();
    for (const Eigen::Vector2d& q : points) {
      while (hull.size() >= base + 2 && cross2(hull[hull.size() - 1] - hull[hull.size() - 2], q - hull[hull.size() - 2]) <= 0.0)
        hull.pop_back();
      hull.push_back(q);
    }
    hull.pop_back();
    std::reverse(points.begin(), points.end());
  }
  if (hull.empty()) hull = points;
  const auto to_segment = [&](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    const Eigen::Vector2d ab = b - a;
    const double t = ab.squaredNorm() > 0.0 ? std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
    return (a + t * ab - p).norm();
  };
  if (hull.size() >= 3) {
    bool inside = true;
    for (std::size_t i = 0; i < hull.size(); ++i) inside = inside && cross2(hull[(i + 1) % hull.size()] - hull[i], p - hull[i]) >= 0.0;
    if (inside) return 0.0;
  }
  double d = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < hull.size(); ++i) d = std::min(d, to_segment(hull[i], hull[(i + 1) % hull.size()]));
  return d;
}

SupportPolygon support_polygon(const Stance& vertical, const Eigen::Vector3d& centre) {
  const MultibodyModel& m = vertical.model;
  const double weight = m.total_mass() * m.gravity;
  std::vector<BodyPose> poses;
  body_poses(m, vertical.equilibrium.x.head(m.nq), poses);
  std::vector<Eigen::Vector2d> points;
  for (std::size_t i = 0; i < m.contacts.size(); ++i) {
    if (!(vertical.contacts[i].force * m.contacts[i].count > no_load_fraction * weight)) continue;
    const Contact& c = m.contacts[i];
    const ContactPoses p = contact_poses(c, poses);
    const Eigen::Vector3d at = contact_point(c, p, contact_separation(c, p));
    points.emplace_back(at.x(), at.z());
  }
  SupportPolygon s;
  s.loaded = static_cast<int>(points.size());
  if (!points.empty()) s.outside = outside_hull(points, {centre.x(), centre.z()});
  return s;
}

}  // namespace

FrozenAnalysis analyse_frozen(const ArticulatedModel& model, const Eigen::VectorXd& q) {
  FrozenAnalysis out;
  static_cast<Stance&>(out) = stand(model, frozen_model(model, q));
  try {
    out.vertical = stand(model, vertical_model(model, q, 0.0));
  } catch (const ModelError& e) {  // nothing under the model to fall on
    out.vertical.no_equilibrium = e.what();
  }
  const double weight = out.model.total_mass() * out.model.gravity;
  if (out.vertical.at_equilibrium) out.support = support_polygon(out.vertical, out.model.bodies.front().position);

  if (!out.at_equilibrium) {
    if (out.support && out.support->outside > 0.0)
      out.warnings.push_back("frozen whole, the model topples: its mass centre is " + significant(out.support->outside, 3) +
                             " m outside the support polygon of its " + std::to_string(out.support->loaded) +
                             " loaded contacts (no frozen equilibrium: " + out.no_equilibrium + ")");
    else
      out.warnings.push_back("no static equilibrium with every joint locked: " + out.no_equilibrium);
  }
  if (!out.vertical.at_equilibrium)
    out.warnings.push_back("no equilibrium on the vertical slider: " + out.vertical.no_equilibrium);
  for (const StanceContact& fc : out.contacts) {
    const ContactPair& c = model.contacts[static_cast<std::size_t>(fc.contact)];
    if (fc.default_indentation > 0.0 && fc.indentation > 0.0 && fc.default_indentation > deep_start_factor * fc.indentation)
      out.warnings.push_back(c.name + ": the sphere starts " + significant(fc.default_indentation, 4) + " m (x/R " +
                             significant(fc.default_indentation / c.law.radius, 3) + ") inside, " +
                             significant(fc.default_indentation / fc.indentation, 3) +
                             " times its equilibrium indentation; a run from this pose starts with a launch");
    if (fc.force < no_load_fraction * weight)
      out.warnings.push_back(c.name + ": carries no load at the frozen equilibrium (the surfaces stand " +
                             significant(-fc.indentation, 4) + " m apart)");
  }
  // The smoothed law's constant contact force pushes even at zero indentation;
  // where that alone exceeds the sphere's load, the model floats on it. The
  // load and the indentation come from a stance that was found, else none is given.
  const Stance* found = out.at_equilibrium ? static_cast<const Stance*>(&out) : out.vertical.at_equilibrium ? &out.vertical : nullptr;
  for (std::size_t i = 0; i < model.contacts.size(); ++i) {
    const ContactPair& c = model.contacts[i];
    if (c.law.kind != ContactLawKind::smooth_hunt_crossley) continue;
    const StanceContact* sc = nullptr;
    if (found)
      for (const StanceContact& s : found->contacts)
        if (s.contact == static_cast<int>(i)) sc = &s;
    const double at_touch = contact_force(c.law, 0.0, 0.0);
    const double share = sc ? sc->force : weight / static_cast<double>(std::max<std::size_t>(1, model.contacts.size()));
    if (!(at_touch > share)) continue;
    std::string where = sc ? "equilibrium indentation " + significant(sc->indentation, 3) + " m" + (found == &out.vertical ? " on the vertical slider" : "")
                           : "no equilibrium was found to say where it rests";
    out.warnings.push_back(c.name + ": constant_contact_force alone pushes " + significant(at_touch, 4) +
                           " N at zero indentation, more than the sphere's load of " + significant(share, 4) +
                           " N: the model floats on it (" + where + "; scale cf with the radius)");
  }
  return out;
}

}  // namespace dropsim
