// results/reference/ against an independent computation: the dimensionless drop ODE of docs/physics.md section 4.
//
// Each reference is checked without dropsim's parser, laws or integrator: the
// model's numbers come straight from its scenario JSON, E* and alpha from
// docs/physics.md#combining-rules, #size-scaling, #scaling-the-dissipation, free fall to touchdown is analytic, and contact is
// integrated with odeint's Runge–Kutta–Fehlberg 7(8) at tolerance 1e-13 in tau.
#include <gtest/gtest.h>

#include <array>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "dropsim/io/hdf5_reader.hpp"
#include "tests/support/cli.hpp"

namespace fs = std::filesystem;
namespace odeint = boost::numeric::odeint;

namespace {

constexpr double g = 9.80665;  // scenarios take the default gravity

// The drop in tau = t sqrt(g/R), xh = indentation / R:
// xh'' = 1 - K max(xh, 0)^(3/2) max(1 + D xh', 0).
struct Dimensionless {
  double K = 0.0;  // 4 n E* R^2 / (3 M g)
  double D = 0.0;  // 1.5 alpha sqrt(g R)
  double force_normalized(double xh, double rate) const {
    return xh > 0.0 ? K * std::pow(xh, 1.5) * std::max(1.0 + D * rate, 0.0) : 0.0;
  }
};

Dimensionless from_scenario(const fs::path& file) {
  std::ifstream in(file);
  const nlohmann::json s = nlohmann::json::parse(in);
  const auto& drop = s.at("drop");
  const auto& contact = s.at("contact");
  const auto& ref = contact.at("scaled_from");
  EXPECT_EQ(contact.at("law"), "hunt_crossley");
  EXPECT_EQ(contact.value("combining", "sherman"), "sherman");
  EXPECT_DOUBLE_EQ(drop.value("height_over_radius", 0.25), 0.25);
  const double M = drop.at("mass"), R = drop.at("radius");
  const double n = drop.at("spheres");
  const double Ma = ref.at("mass"), Ra = ref.at("radius"), na = ref.at("spheres");
  // docs/physics.md#combining-rules Sherman, two equal surfaces: E* = E / 2^(3/2); docs/physics.md#size-scaling to model b.
  const double Eb = double(ref.at("stiffness")) / std::pow(2.0, 1.5) * (M / Ma) * (na / n) * (Ra / R) * (Ra / R);
  // docs/physics.md#scaling-the-dissipation alpha_b = alpha_a sqrt(L_a / L_b), L = R.
  const double alpha = double(ref.at("dissipation")) * (contact.value("scale_dissipation", false) ? std::sqrt(Ra / R) : 1.0);
  return {4.0 * n * Eb * R * R / (3.0 * M * g), 1.5 * alpha * std::sqrt(g * R)};
}

// F/(Mg) at each tau: analytic free fall from xh = -1/4 at rest, then RKF78.
std::vector<double> independent_force(const Dimensionless& m, const std::vector<double>& tau) {
  using State = std::array<double, 2>;
  const double tau0 = std::sqrt(0.5);  // xh = -1/4 + tau^2 / 2 reaches 0
  std::vector<double> out;
  std::vector<double> times = {tau0};
  for (double t : tau) {
    if (t <= tau0) out.push_back(0.0);
    else times.push_back(t);
  }
  if (times.size() == 1) return out;
  State x = {0.0, tau0};
  auto rhs = [&m](const State& s, State& d, double) {
    d[0] = s[1];
    d[1] = 1.0 - m.force_normalized(s[0], s[1]);
  };
  auto record = [&](const State& s, double t) {
    if (t > tau0) out.push_back(m.force_normalized(s[0], s[1]));
  };
  odeint::integrate_times(odeint::make_controlled(1e-13, 1e-13, odeint::runge_kutta_fehlberg78<State>()), rhs, x,
                          times.begin(), times.end(), 1e-3, record);
  return out;
}

const fs::path source(DROPSIM_SOURCE_DIR);

TEST(ReferenceTraces, OneCompactReferencePerPaperScenario) {
  std::size_t scenarios = 0;
  std::uintmax_t bytes = 0;
  for (const auto& e : fs::directory_iterator(source / "scenarios/paper")) {
    if (e.path().extension() != ".json") continue;
    ++scenarios;
    const fs::path ref = source / "results/reference" / (e.path().stem().string() + ".h5");
    ASSERT_TRUE(fs::exists(ref)) << ref << " missing: run scripts/regenerate-references.sh";
    bytes += fs::file_size(ref);
  }
  EXPECT_EQ(scenarios, 14u);
  EXPECT_LT(bytes, 1024u * 1024u) << "references should stay compact (decimated, compressed)";
}

TEST(ReferenceTraces, MatchTheDimensionlessOdeIntegratedIndependently) {
  for (const auto& e : fs::directory_iterator(source / "scenarios/paper")) {
    if (e.path().extension() != ".json") continue;
    const std::string name = e.path().stem().string();
    const std::string ref = (source / "results/reference" / (name + ".h5")).string();
    const auto tau = dropsim::io::read_series(ref, "tau");
    const auto force = dropsim::io::read_series(ref, "force_normalized");
    ASSERT_EQ(force.units, "1");
    const auto expected = independent_force(from_scenario(e.path()), tau.values);
    ASSERT_EQ(expected.size(), force.values.size()) << name;
    double worst = 0.0, where = 0.0;
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (const double d = std::abs(force.values[i] - expected[i]); d > worst) {
        worst = d;
        where = tau.values[i];
      }
    EXPECT_LT(worst, 1e-9) << name << ": worst at tau = " << where;
    std::printf("%-26s max |F/(Mg) - ODE| = %.2e at tau = %.2f over %zu samples\n", name.c_str(), worst, where,
                expected.size());
  }
}

// The gate of scripts/ci-references.sh (reference as A, the committed scenario
// as B, atol 1e-8) passes as things stand and fails when the modulus moves by 1e-6.
TEST(ReferenceTraces, GateCatchesAPhysicsChange) {
  using dropsim::test::dropsim;
  using dropsim::test::shell_quote;
  const std::string ref = (source / "results/reference/human62_alpha-scaled.h5").string();
  nlohmann::json s = nlohmann::json::parse(dropsim::test::slurp(dropsim::test::paper_scenario_path("human62_alpha-scaled")));
  s["name"] = "gate_same";
  const std::string same = dropsim::test::run_scenario(s);
  s["name"] = "gate_moved";
  s["contact"]["scaled_from"]["stiffness"] = double(s["contact"]["scaled_from"]["stiffness"]) * (1.0 + 1e-6);
  const std::string moved = dropsim::test::run_scenario(s);
  ASSERT_FALSE(same.empty() || moved.empty());
  EXPECT_EQ(dropsim("compare --atol 1e-8 " + shell_quote(ref) + " " + shell_quote(same)).exit_code, 0);
  const auto r = dropsim("compare --atol 1e-8 " + shell_quote(ref) + " " + shell_quote(moved));
  EXPECT_EQ(r.exit_code, 1) << r.out;
}

}  // namespace
