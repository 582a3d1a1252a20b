// The suites and their references (suites.hpp), and the models the floor and
// Simbody take of a multi-contact scene.
#include "bench/work_precision/suites.hpp"

#include "dropsim/integrators/check.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/multibody_system.hpp"
#include "dropsim/sim/run.hpp"

namespace work_precision {

Suite& suite() {
  static Suite s = [] {
    Suite out;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(DROPSIM_SOURCE_DIR "/scenarios/paper"))
      if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      Scenario sc = dropsim::io::load_scenario(f.string());
      out.grids.push_back(dropsim::integrators::output_grid(0.0, sc.run.duration, sc.run.output_interval));
      dropsim::RunSettings tight = sc.run;
      tight.integrator.rtol = reference_rtol;
      out.reference.push_back(dropsim::simulate(sc.drop(), tight).force_normalized);
      out.scenarios.push_back(std::move(sc));
    }
    return out;
  }();
  return s;
}

// Max |F/(Mg) - reference| over one run's grid; infinite when the run fell short.
double max_error(const std::vector<double>& fn, const std::vector<double>& ref) {
  if (fn.size() != ref.size()) return std::numeric_limits<double>::infinity();
  double worst = 0.0;
  for (std::size_t i = 0; i < fn.size(); ++i) worst = std::max(worst, std::abs(fn[i] - ref[i]));
  return std::isfinite(worst) ? worst : std::numeric_limits<double>::infinity();
}

dropsim::floor::Drop floor_drop(const Scenario& s, double rtol) {
  const auto& m = s.drop();
  dropsim::floor::Drop d;
  d.mass = m.mass;
  d.gravity = m.gravity;
  d.k = m.spheres * (4.0 / 3.0) * m.law.effective_modulus * std::sqrt(m.law.radius);
  d.alpha = m.law.kind == dropsim::ContactLawKind::hertz ? 0.0 : m.law.dissipation;
  d.y0 = m.initial_height;
  d.v0 = m.initial_velocity;
  const auto atol = dropsim::DropSystem(m).model_scaled_atol(rtol);
  d.atol_y = atol[0];
  d.atol_v = atol[1];
  return d;
}

namespace {

// What the Simbody peer and the floor both take: one free body with principal
// inertia on one sphere per contact, on the ground y = 0, every sphere of one
// radius and one law. Throws naming `who` otherwise.
void require_free_body_on_equal_spheres(const dropsim::MultibodyModel& m, const std::string& who) {
  const auto& body = m.bodies.at(0);
  const auto& first = m.contacts.at(0);
  for (const auto& c : m.contacts) {
    const auto &law = c.law, &f = first.law;
    const bool same_law = law.kind == f.kind && law.effective_modulus == f.effective_modulus &&
                          law.radius == f.radius && law.dissipation == f.dissipation &&
                          law.friction.static_coefficient == f.friction.static_coefficient &&
                          law.friction.dynamic_coefficient == f.friction.dynamic_coefficient &&
                          law.friction.viscous_coefficient == f.friction.viscous_coefficient &&
                          law.friction.transition_velocity == f.friction.transition_velocity;
    if (m.bodies.size() != 1 || body.joint != dropsim::Joint::free || !body.inertia.isDiagonal() ||
        c.type != dropsim::ContactType::sphere_plane || c.count != 1 || !same_law || c.radius[0] != first.radius[0] ||
        c.plane_normal != Eigen::Vector3d::UnitY() || !c.plane_point.isZero())
      dropsim::check_failed(__FILE__, __LINE__, "require_free_body_on_equal_spheres",
                            who + " takes one free body with principal inertia on equal spheres on the ground y = 0");
  }
}

#ifdef DROPSIM_HAVE_SIMBODY
// A free body on spheres as Simbody's landing peer takes it.
dropsim::peers::SimbodyLanding simbody_landing_of(const dropsim::MultibodyModel& m) {
  require_free_body_on_equal_spheres(m, "the Simbody landing peer");
  const auto& body = m.bodies.at(0);
  const auto& first = m.contacts.at(0);
  dropsim::peers::SimbodyLanding out;
  out.law = first.law;
  out.radius = first.radius[0];
  out.mass = body.mass;
  out.gravity = m.gravity;
  out.principal_inertia = body.inertia.diagonal();
  out.position = body.position;
  out.orientation = body.orientation;
  out.velocity = body.velocity;
  out.angular_velocity = body.angular_velocity;
  for (const auto& c : m.contacts) out.spheres.push_back(c.at[0]);
  return out;
}
#endif

// A free body on spheres as the free-body floor takes it, its spheres
// Hunt-Crossley; atol is dropsim's model-scaled atol at rtol 1 (it scales with rtol).
dropsim::floor::FreeBody floor_free_body_of(const dropsim::MultibodyModel& m) {
  require_free_body_on_equal_spheres(m, "the free-body floor");
  const auto& body = m.bodies.at(0);
  const auto& law = m.contacts.at(0).law;
  DROPSIM_CHECK(law.kind == dropsim::ContactLawKind::hunt_crossley, "the free-body floor takes Hunt-Crossley spheres");
  dropsim::floor::FreeBody out;
  out.mass = body.mass;
  out.gravity = m.gravity;
  out.inertia = body.inertia.diagonal();
  out.radius = law.radius;
  out.modulus = law.effective_modulus;
  out.dissipation = law.dissipation;
  out.mu_s = law.friction.static_coefficient;
  out.mu_d = law.friction.dynamic_coefficient;
  out.mu_v = law.friction.viscous_coefficient;
  out.v_t = law.friction.transition_velocity;
  out.x0 = m.initial_state();
  out.atol = dropsim::MultibodySystem(m).model_scaled_atol(1.0);
  for (const auto& c : m.contacts) out.spheres.push_back(c.at[0]);
  return out;
}

}  // namespace

std::vector<ContactSuite>& contact_suites() {
  static std::vector<ContactSuite> suites = [] {
    std::vector<ContactSuite> out;
    for (const char* file : {"box_on_edge", "quadruped_friction", "bar_rocking"}) {
      ContactSuite s;
      s.scenario = dropsim::io::load_scenario(DROPSIM_SOURCE_DIR "/scenarios/friction/" + std::string(file) + ".json");
      s.name = s.scenario.name;
      dropsim::RunSettings tight = s.scenario.run;
      tight.integrator.rtol = reference_rtol;
      s.reference = dropsim::simulate(s.scenario.model, tight).force_normalized;
      s.grid = dropsim::integrators::output_grid(0.0, s.scenario.run.duration, s.scenario.run.output_interval);
      s.floor = floor_free_body_of(*s.scenario.multibody());
#ifdef DROPSIM_HAVE_SIMBODY
      s.landing = simbody_landing_of(*s.scenario.multibody());
#endif
      out.push_back(std::move(s));
    }
    return out;
  }();
  return suites;
}

std::vector<double> tolerance_grid() {
  std::vector<double> out = {1e-3};
  // Exact powers of ten and correctly rounded quotients: the same doubles as the literals 5e-4, 2e-4, ...
  for (double decade = 1e4; decade <= 1e10; decade *= 10.0)
    for (double mantissa : {5.0, 2.0, 1.0}) out.push_back(mantissa / decade);
  return out;
}

}  // namespace work_precision
