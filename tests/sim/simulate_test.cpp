// The drop engine against the paper's numbers, invariants and an independent integration.
#include <gtest/gtest.h>

#include "dropsim/sim/recorder.hpp"

#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "dropsim/sim/combining.hpp"
#include "dropsim/sim/scaling.hpp"
#include "dropsim/sim/simulate.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/scenarios.hpp"
#include "tests/support/summary.hpp"

namespace dropsim {
namespace {

using test::paper_scenario;

const char* const paper_models[] = {"human62", "human500", "mouse", "emu10", "emu2", "horse", "giraffe"};

// docs/physics.md#size-scaling with the paper's human: E* = 1e6 / 2^1.5 and xh = (3 M g / (4 n E* R^2))^(2/3).
TEST(PaperHuman, ContactParametersMatchThePaper) {
  const io::Scenario s = paper_scenario("human62_alpha-unscaled");
  const DropModel& m = s.drop();
  EXPECT_NEAR(m.law.effective_modulus, 1e6 / std::pow(2.0, 1.5), 1e-9);
  const double xh = rest_indentation_relative({m.mass, m.spheres, m.law.radius}, m.gravity, m.law.effective_modulus);
  EXPECT_NEAR(xh, 0.3532, 1e-4);
  // Tangent stiffness per sphere at rest docs/physics.md#hertz-stiffness; the paper quotes 13.5 kN/m.
  const double k = hertz_stiffness(m.law.effective_modulus, m.law.radius, xh * m.law.radius);
  EXPECT_NEAR(k, 13.45e3, 50.0);
  EXPECT_NEAR(1.5 * (m.mass * m.gravity / m.spheres) / (xh * m.law.radius), k, 1e-6 * k);
  // Impact speed from 0.25 R and the docs/physics.md#restitution restitution estimate.
  const double v = impact_speed(m.gravity, m.initial_height);
  EXPECT_NEAR(v, 0.396, 5e-4);
  EXPECT_NEAR(restitution_estimate(m.law.dissipation, v), 0.21, 0.005);
}

// Every paper run settles at the same relative indentation: the moduli follow docs/physics.md#size-scaling.
TEST(PaperSuite, EveryRunReachesTheSameEquilibrium) {
  const io::Scenario human = paper_scenario("human62_alpha-scaled");
  const double xh_human = rest_indentation_relative({human.drop().mass, human.drop().spheres, human.drop().law.radius},
                                                    human.drop().gravity, human.drop().law.effective_modulus);
  for (const char* model : paper_models) {
    for (const char* alpha : {"alpha-scaled", "alpha-unscaled"}) {
      const std::string stem = std::string(model) + "_" + alpha;
      const io::Scenario s = paper_scenario(stem);
      const Trace t = simulate(s.drop(), s.run);
      ASSERT_EQ(t.stats.status, integrators::Status::ok) << stem;
      const double tolerance = std::string(alpha) == "alpha-scaled" ? 1e-6 : 1e-5;
      EXPECT_NEAR(t.final_indentation_relative(), xh_human, tolerance) << stem;
      std::printf("[measured] %-24s xh(2 s) - xh_eq = %+.3g\n", stem.c_str(), t.final_indentation_relative() - xh_human);
      EXPECT_NEAR(t.final_indentation_relative(), 0.3532, 1e-4) << stem;
    }
  }
}

int local_maxima_above(const std::vector<double>& f, double level) {
  int count = 0;
  for (std::size_t i = 1; i + 1 < f.size(); ++i)
    if (f[i] > f[i - 1] && f[i] >= f[i + 1] && f[i] > level) ++count;
  return count;
}

// Largest |F/(Mg)| difference over the samples two runs share on their
// common tau grid (the paper scenarios record at interval_tau 0.01; each run's
// last sample, at t = duration, lies off that grid).
double max_difference_on_common_tau(const Trace& a, const Trace& b) {
  const std::size_t n = std::min(a.samples(), b.samples()) - 1;
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(a.tau[i], b.tau[i], 1e-9 * std::max(1.0, a.tau[i]));
    worst = std::max(worst, std::abs(a.force_normalized[i] - b.force_normalized[i]));
  }
  return worst;
}

// With docs/physics.md#size-scaling, #scaling-the-dissipation the drop is the same dimensionless motion for every size.
TEST(PaperSuite, ScaledRunsCollapseInDimensionlessTime) {
  const io::Scenario mouse = paper_scenario("mouse_alpha-scaled");
  const io::Scenario giraffe = paper_scenario("giraffe_alpha-scaled");
  const double worst = max_difference_on_common_tau(simulate(mouse.drop(), mouse.run), simulate(giraffe.drop(), giraffe.run));
  std::printf("[measured] scaled mouse vs scaled giraffe: max |dF/(Mg)| on common tau = %.3g\n", worst);
  EXPECT_LE(worst, 1e-6);
}

// With alpha unscaled the small model is underdamped: the mouse rings, the giraffe does not.
TEST(PaperSuite, UnscaledDissipationBreaksTheCollapse) {
  const io::Scenario mouse = paper_scenario("mouse_alpha-unscaled");
  const io::Scenario giraffe = paper_scenario("giraffe_alpha-unscaled");
  const Trace tm = simulate(mouse.drop(), mouse.run);
  const Trace tg = simulate(giraffe.drop(), giraffe.run);
  const double worst = max_difference_on_common_tau(tm, tg);
  std::printf("[measured] unscaled: max |dF/(Mg)| = %.3g; mouse maxima > 1.05: %d, giraffe: %d; mouse xh(2 s) - "
              "xh_eq = %.3g\n",
              worst, local_maxima_above(tm.force_normalized, 1.05), local_maxima_above(tg.force_normalized, 1.05),
              tm.final_indentation_relative() - 0.3532197211);
  EXPECT_GT(worst, 0.5);
  EXPECT_GE(local_maxima_above(tm.force_normalized, 1.05), 5);
  EXPECT_LE(local_maxima_above(tg.force_normalized, 1.05), 2);
  // How close the ringing mouse gets to rest by t = 2 s (reported in the README).
  EXPECT_NEAR(tm.final_indentation_relative(), 0.35322, 1e-5);
}

// An independent computation: the dimensionless ODE of docs/physics.md#dimensionless-drop,
//   xh'' = 1 - c1 max(xh,0)^1.5 max(1 + c2 xh', 0),
// with free fall done analytically and the contact phase integrated by
// Boost.Odeint's Runge–Kutta–Fehlberg 7(8) at 1e-13, sharing no code with dropsim.
TEST(PaperSuite, AgreesWithAnIndependentIntegration) {
  const io::Scenario s = paper_scenario("human62_alpha-scaled");
  const DropModel& m = s.drop();
  const Trace t = simulate(m, s.run);
  const double R = m.law.radius, g = m.gravity;
  const double c1 = 4.0 * m.spheres * m.law.effective_modulus * R * R / (3.0 * m.mass * g);
  const double c2 = 1.5 * m.law.dissipation * std::sqrt(g * R);
  const double h0 = m.initial_height / R;  // 0.25
  const double tau_touch = std::sqrt(2.0 * h0);

  using State = std::array<double, 2>;  // xh, xh' in tau
  auto rhs = [&](const State& z, State& dz, double) {
    const double xh = std::max(z[0], 0.0);
    dz[0] = z[1];
    dz[1] = 1.0 - c1 * xh * std::sqrt(xh) * std::max(1.0 + c2 * z[1], 0.0);
  };
  std::vector<double> taus;
  for (std::size_t i = 0; i < t.samples(); ++i)
    if (t.tau[i] > tau_touch) taus.push_back(t.tau[i]);
  taus.insert(taus.begin(), tau_touch);
  std::vector<double> expected;
  State z{0.0, tau_touch};  // touchdown speed sqrt(2 h0) in units of sqrt(g R)
  namespace odeint = boost::numeric::odeint;
  odeint::integrate_times(odeint::make_controlled(1e-13, 1e-13, odeint::runge_kutta_fehlberg78<State>()), rhs, z,
                          taus.begin(), taus.end(), 1e-4, [&](const State& zz, double) {
                            const double xh = std::max(zz[0], 0.0);
                            expected.push_back(c1 * xh * std::sqrt(xh) * std::max(1.0 + c2 * zz[1], 0.0));
                          });
  double worst = 0.0;
  std::size_t k = 1;  // expected[0] is touchdown itself
  for (std::size_t i = 0; i < t.samples(); ++i) {
    if (t.tau[i] <= tau_touch) {
      EXPECT_EQ(t.force_normalized[i], 0.0);  // still in free fall
      continue;
    }
    worst = std::max(worst, std::abs(t.force_normalized[i] - expected[k++]));
  }
  EXPECT_EQ(k, expected.size());
  std::printf("[measured] human62 scaled vs independent RKF78: max |dF/(Mg)| = %.3g\n", worst);
  EXPECT_LE(worst, 1e-8);
}

// Undamped Hertz: kinetic + gravitational + elastic energy is conserved
// through repeated bounces (every touchdown and lift-off landed on).
TEST(DropEnergy, HertzBouncingConservesEnergy) {
  io::Scenario s = paper_scenario("human62_alpha-unscaled");
  DropModel m = s.drop();
  m.law.kind = ContactLawKind::hertz;
  m.law.dissipation = 0.0;
  m.initial_height = m.law.radius;  // drop from 1 R
  RunSettings run = s.run;
  run.integrator.rtol = 1e-10;
  const Trace t = simulate(m, run);
  ASSERT_EQ(t.stats.status, integrators::Status::ok);
  const double e0 = t.kinetic[0] + t.potential[0] + t.elastic[0];
  double worst = 0.0;
  int touchdowns = 0;
  for (std::size_t i = 0; i < t.samples(); ++i) {
    worst = std::max(worst, std::abs(t.kinetic[i] + t.potential[i] + t.elastic[i] - e0) / e0);
    if (i > 0 && t.indentation[i - 1] <= 0.0 && t.indentation[i] > 0.0) ++touchdowns;
  }
  EXPECT_GE(touchdowns, 5);  // it really bounces
  std::printf("[measured] undamped Hertz, %d touchdowns: max relative energy error %.3g\n", touchdowns, worst);
  EXPECT_LE(worst, 1e-8);
}

// Touchdown time from the last free-flight sample: y - v s - g s^2 / 2 = 0
// holds exactly until touchdown, so no interpolation error enters.
double touchdown_time(const Trace& t, double g) {
  for (std::size_t i = 1; i < t.samples(); ++i)
    if (t.indentation[i - 1] <= 0.0 && t.indentation[i] > 0.0) {
      const double y = t.q[i - 1], v = t.u[i - 1];
      return t.time[i - 1] + (v + std::sqrt(v * v + 2.0 * g * y)) / g;
    }
  return NAN;
}

// Loose tolerances must not let a step jump through the ground (Simbody's RKF
// does on these drops: 5–9 radii deep at 1000 body weights).
TEST(Tunnelling, LooseToleranceStillTouchesDownOnTime) {
  for (const char* stem : {"giraffe_alpha-scaled", "mouse_alpha-scaled"}) {
    io::Scenario s = paper_scenario(stem);
    const Trace tight = simulate(s.drop(), s.run);
    s.run.integrator.rtol = 1e-3;
    const Trace loose = simulate(s.drop(), s.run);
    ASSERT_EQ(loose.stats.status, integrators::Status::ok) << stem;
    EXPECT_NEAR(touchdown_time(loose, s.drop().gravity), touchdown_time(tight, s.drop().gravity), 1e-4) << stem;
    // And both touch down when free fall says they must: sqrt(2 h / g).
    EXPECT_NEAR(touchdown_time(tight, s.drop().gravity), std::sqrt(2.0 * s.drop().initial_height / s.drop().gravity), 1e-9) << stem;
    EXPECT_LE(*std::max_element(loose.indentation_relative.begin(), loose.indentation_relative.end()), 0.6) << stem;
  }
}

// Fixed-step methods reproduce the adaptive run when the step resolves the contact.
TEST(FixedStep, Rk4AndCentralDifferenceConvergeToTheAdaptiveRun) {
  io::Scenario s = paper_scenario("human62_alpha-scaled");
  const Trace reference = simulate(s.drop(), s.run);
  for (auto method : {integrators::Method::rk4, integrators::Method::central_difference}) {
    s.run.integrator.method = method;
    s.run.integrator.step = 1e-5;
    const Trace t = simulate(s.drop(), s.run);
    ASSERT_EQ(t.stats.status, integrators::Status::ok);
    EXPECT_NEAR(t.final_indentation_relative(), reference.final_indentation_relative(), 1e-6);
    const double peak_ref = reference.force_normalized[reference.peak_index()];
    EXPECT_NEAR(t.force_normalized[t.peak_index()], peak_ref, 2e-3);
  }
}

// A summary-only run (what sweeps run) skips the contact law, and where it can
// the interpolation, on samples that cannot change its summary; its summary must still be the
// recorded run's to the bit, undamped and damped, loose and tight.
TEST(SummaryOnly, SameSummaryToTheBitAsTheRecordedRun) {
  auto bits = [](double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
  };
  int runs = 0;
  for (const char* model : paper_models) {
    for (const char* alpha : {"alpha-scaled", "alpha-unscaled"}) {
      const std::string stem = std::string(model) + "_" + alpha;
      for (const bool undamped : {false, true}) {
        for (const double rtol : {1e-3, 1e-6, 1e-9}) {
          io::Scenario s = paper_scenario(stem);
          if (undamped) s.drop().law.kind = ContactLawKind::hertz;  // bounces for ever: never settles
          s.run.integrator.rtol = rtol;
          s.run.record_samples = true;
          const Trace recorded = simulate(s.drop(), s.run);
          s.run.record_samples = false;
          const Trace summary_only = simulate(s.drop(), s.run);
          const std::string what = stem + (undamped ? " undamped" : "") + " rtol " + std::to_string(rtol);
          const TraceSummary &a = recorded.summary, &b = summary_only.summary;
          EXPECT_EQ(a.samples, b.samples) << what;
          EXPECT_EQ(bits(a.peak_force_normalized), bits(b.peak_force_normalized)) << what;
          EXPECT_EQ(bits(a.tau_of_peak), bits(b.tau_of_peak)) << what;
          EXPECT_EQ(bits(a.settling_time), bits(b.settling_time)) << what;
          EXPECT_EQ(bits(a.equilibrium_indentation_relative), bits(b.equilibrium_indentation_relative)) << what;
          EXPECT_EQ(recorded.stats.steps, summary_only.stats.steps) << what;
          EXPECT_EQ(recorded.stats.status, summary_only.stats.status) << what;
          EXPECT_EQ(summary_only.samples(), 0u) << what << ": nothing stored";
          // Both runs skip the law where bounds show a sample cannot change the summary;
          // the recorded trace's columns evaluate it at every sample.
          ASSERT_TRUE(recorded.columns_complete()) << what;
          const TraceSummary c = test::summary_of_columns(recorded);
          EXPECT_EQ(a.samples, c.samples) << what;
          EXPECT_EQ(bits(a.peak_force_normalized), bits(c.peak_force_normalized)) << what;
          EXPECT_EQ(bits(a.tau_of_peak), bits(c.tau_of_peak)) << what;
          EXPECT_EQ(bits(a.settling_time), bits(c.settling_time)) << what;
          EXPECT_EQ(bits(a.equilibrium_indentation_relative), bits(c.equilibrium_indentation_relative)) << what;
          ++runs;
        }
      }
    }
  }
  EXPECT_EQ(runs, 84);
}

// A trace's columns against the contact law and the energies evaluated
// anew at each recorded state: the law to the bit, the energies to rounding.
void expect_columns_of_states(const Trace& t, const DropModel& m, const std::string& what) {
  ASSERT_TRUE(t.columns_complete()) << what;
  const double weight = m.mass * m.gravity, e0 = drop_energies(m, m.initial_height, m.initial_velocity).mechanical();
  for (std::size_t i = 0; i < t.samples(); ++i) {
    const double y = t.q[i], v = t.u[i];
    const ContactSample contact = contact_sample(m.law, -y, -v);
    const Energies e = drop_energies(m, y, v);
    const double scale = 1e-12 * (std::abs(e0) + e.kinetic + std::abs(e.potential) + e.elastic) + 1e-300;
    ASSERT_EQ(t.contact_force[i], contact.force) << what << " sample " << i;
    ASSERT_EQ(t.force_normalized[i], contact.force * (m.spheres / weight)) << what << " sample " << i;
    ASSERT_EQ(t.force[i], m.spheres * contact.force) << what << " sample " << i;
    ASSERT_EQ(t.indentation[i], -y) << what << " sample " << i;
    ASSERT_NEAR(t.kinetic[i], e.kinetic, scale) << what << " sample " << i;
    ASSERT_NEAR(t.potential[i], e.potential, scale) << what << " sample " << i;
    ASSERT_NEAR(t.elastic[i], e.elastic, scale) << what << " sample " << i;
    ASSERT_NEAR(t.dissipated[i], e0 - e.mechanical(), scale) << what << " sample " << i;
  }
}

// A run that records the state alone, its columns derived afterwards, gives
// the run that records every column, to the bit, and both give what the law
// evaluated anew at every state gives: adaptive and fixed-step, every kind of
// law, and a run that diverges (its columns end where its samples do). Until
// derived, the trace writers refuse it (tests/io).
TEST(StatesOnly, DerivedColumnsAreTheLawAtEveryRecordedState) {
  auto same = [](const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
  };
  struct Case {
    const char* stem;
    ContactLawKind kind;
    integrators::Method method;
    double step;  // fixed-step methods; the output interval is scaled by 20 for the one that must diverge
  };
  const Case cases[] = {
      {"human62_alpha-scaled", ContactLawKind::hunt_crossley, integrators::Method::dopri5, 0.0},
      {"mouse_alpha-unscaled", ContactLawKind::hertz, integrators::Method::dopri5, 0.0},
      {"giraffe_alpha-unscaled", ContactLawKind::smooth_hunt_crossley, integrators::Method::dopri5, 0.0},
      {"human62_alpha-unscaled", ContactLawKind::linear_damped, integrators::Method::dopri5, 0.0},
      {"emu2_alpha-scaled", ContactLawKind::hunt_crossley, integrators::Method::rk4, 1e-4},
      {"mouse_alpha-scaled", ContactLawKind::hertz, integrators::Method::euler, 1.0},  // undamped, h omega 0.4
  };
  int diverged = 0;
  for (const Case& c : cases) {
    io::Scenario s = paper_scenario(c.stem);
    DropModel& m = s.drop();
    m.law.kind = c.kind;
    if (c.kind == ContactLawKind::linear_damped) {  // a spring holding the weight at a tenth of the radius
      m.law.stiffness = 10.0 * m.mass * m.gravity / (m.spheres * m.law.radius);
      m.law.damping = 0.2 * m.law.stiffness * std::sqrt(m.mass / m.spheres / m.law.stiffness);
    }
    s.run.integrator.method = c.method;
    s.run.integrator.step = c.step;
    if (c.method == integrators::Method::euler) s.run.output_interval *= 20.0;  // steps of the output interval
    const Trace full = simulate(m, s.run);
    s.run.record_states_only = true;
    Trace states = simulate(m, s.run);
    const std::string what = std::string(c.stem) + " " + std::string(to_string(c.kind)) + " " +
                             std::string(integrators::info(c.method).name);
    ASSERT_GT(full.samples(), 10u) << what;
    diverged += full.stats.status == integrators::Status::diverged;
    expect_columns_of_states(full, m, what);
    EXPECT_FALSE(states.columns_complete()) << what;
    EXPECT_TRUE(states.force_normalized.empty()) << what;
    EXPECT_TRUE(same(states.q, full.q) && same(states.u, full.u) && same(states.time, full.time)) << what;
    EXPECT_EQ(states.summary.peak_force_normalized, full.summary.peak_force_normalized) << what;
    EXPECT_EQ(states.stats.status, full.stats.status) << what;
    derive_force_normalized(m, states);
    EXPECT_TRUE(same(states.force_normalized, full.force_normalized)) << what;
    derive_columns(m, states);
    for (const auto column : {&Trace::tau, &Trace::force, &Trace::force_normalized, &Trace::contact_force,
                              &Trace::indentation, &Trace::indentation_relative, &Trace::kinetic,
                              &Trace::potential, &Trace::elastic, &Trace::dissipated})
      EXPECT_TRUE(same(states.*column, full.*column)) << what;
  }
  EXPECT_EQ(diverged, 1) << "the forward-Euler run blows up, and only it";
  Trace multibody_like;
  multibody_like.nq = 7;
  EXPECT_THROW(derive_columns(paper_scenario("mouse_alpha-scaled").drop(), multibody_like), std::invalid_argument);
}

// The probe contract as a concept: a probe with every member passes, and one
// that can neither keep a sample nor keep its states is refused at compile time.
struct ProbeObservation {
  double mechanical, force_normalized, indentation;
};
struct CompleteProbe {
  using State = Eigen::Vector2d;
  using Observation = ProbeObservation;
  double initial_energy() const { return 0.0; }
  void describe() {}
  template <class F>
  std::size_t with_sampler(F f) {
    return f([](const State& x) { return Observation{x[0], x[1], x[0]}; });
  }
  void keep(double, const State&, const Observation&) {}
  void finish(bool) {}
};
struct ProbeThatCannotKeep : CompleteProbe {
  void keep() = delete;
};
struct ProbeWithoutEnergy : CompleteProbe {
  double initial_energy() const = delete;
};
TEST(RecorderProbe, ConceptStatesTheContract) {
  static_assert(RecorderProbe<CompleteProbe>);
  static_assert(!RecorderProbe<ProbeThatCannotKeep>);
  static_assert(!RecorderProbe<ProbeWithoutEnergy>);
  // And the run of a complete probe through the recorder's own sampler loop counts its samples.
  CompleteProbe probe;
  EXPECT_EQ(probe.with_sampler([](const auto& sampler) {
    return static_cast<std::size_t>(sampler(Eigen::Vector2d(3.0, 4.0)).force_normalized);
  }), 4u);
}

}  // namespace
}  // namespace dropsim
