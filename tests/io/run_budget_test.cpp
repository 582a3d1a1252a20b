// The resource guard: run estimates (sim/run_estimate) checked against real runs and physics,
// and the budget check (io/run_budget) with its --force escape.
#include "dropsim/io/run_budget.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <cmath>
#include <numbers>
#include <thread>

#include "tests/support/cli.hpp"
#include "dropsim/sim/simulate.hpp"

namespace fs = std::filesystem;
using namespace dropsim;
using namespace dropsim::test;

namespace {

io::Scenario drop(const std::string& contact, const std::string& integrator, const std::string& output = "") {
  return io::parse_scenario(R"({"name": "t", "duration": 0.05,
    "drop": {"mass": 2.0, "spheres": 3, "radius": 0.01, "height_over_radius": 0.25},
    "contact": )" + contact + R"(, "integrator": )" + integrator +
                                (output.empty() ? "" : R"(, "output": )" + output) + "}",
                            "t.json");
}

const std::string hertz = R"({"law": "hunt_crossley", "stiffness": 1e6, "dissipation": 1.0})";

// Fixed step: the estimate is the driver's exact count, remainders and all.
TEST(RunEstimate, FixedStepCountIsExact) {
  for (const auto& [step, output] : std::vector<std::pair<std::string, std::string>>{
           {"1e-5", ""}, {"3e-5", R"({"interval": 7e-4})"}, {"1e-3", R"({"interval": 0.003})"}}) {
    const io::Scenario s = drop(hertz, R"({"name": "rk4", "step": )" + step + "}", output);
    const RunEstimate e = estimate_run(s.drop(), s.run);
    const Trace t = simulate(s.drop(), s.run);
    EXPECT_TRUE(e.steps_exact);
    EXPECT_EQ(e.steps, static_cast<double>(t.stats.steps)) << "step " << step << " output " << output;
    EXPECT_EQ(e.samples, static_cast<double>(t.samples()));
  }
}

// The contact period at rest, 2 pi sqrt(m / k), from each law's own stiffness at equilibrium.
TEST(RunEstimate, ContactPeriodMatchesTheLawsAtEquilibrium) {
  // Linear: n k x = m g, tangent n k.
  const io::Scenario lin = drop(R"({"law": "linear", "stiffness": 5e4})", R"({"name": "dopri5"})");
  EXPECT_NEAR(estimate_run(lin.drop(), lin.run).contact_period, 2 * std::numbers::pi * std::sqrt(2.0 / (3 * 5e4)), 1e-9);
  // Hertz docs/physics.md#hertz-contact: n 4/3 E* sqrt(R) x^1.5 = m g, tangent dF/dx = 1.5 m g / x.
  const io::Scenario hc = drop(hertz, R"({"name": "dopri5"})");
  const double E = hc.drop().law.effective_modulus, g = hc.drop().gravity;
  const double x = std::pow(2.0 * g / (3 * 4.0 / 3.0 * E * std::sqrt(0.01)), 2.0 / 3.0);
  EXPECT_NEAR(estimate_run(hc.drop(), hc.run).contact_period / (2 * std::numbers::pi * std::sqrt(x / (1.5 * g))), 1.0,
              1e-9);
}

// Adaptive: a rough bound, so above what the paper runs take but not absurdly so.
TEST(RunEstimate, AdaptiveEstimateBoundsThePaperRuns) {
  for (const auto& e : fs::directory_iterator(fs::path(DROPSIM_SOURCE_DIR) / "scenarios" / "paper")) {
    if (e.path().extension() != ".json") continue;  // the folder also holds its README
    const io::Scenario s = io::load_scenario(e.path().string());
    const double estimate = estimate_run(s.drop(), s.run).steps;
    const long steps = simulate(s.drop(), s.run).stats.steps;
    EXPECT_GE(estimate, static_cast<double>(steps)) << s.name;
    EXPECT_LE(estimate, 100.0 * static_cast<double>(steps)) << s.name;
  }
}

TEST(RunBudget, RefusesOverBudgetNamingTheKeyAndTheEstimate) {
  // 4000 output intervals of 1.25e-5 s, each split into 2 steps no longer than 1e-5 s.
  const io::Scenario s = drop(hertz, R"({"name": "rk4", "step": 1e-5})");
  EXPECT_NO_THROW(io::check_run_budget(s));
  try {
    io::check_run_budget(s, {.max_steps = 1000});
    ADD_FAILURE() << "8000 steps passed a budget of 1000";
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.path(), "/integrator/step");
    EXPECT_NE(std::string(e.what()).find("needs 8e+03 steps"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--force"), std::string::npos) << e.what();
  }
  try {
    io::check_run_budget(s, {.max_trace_bytes = 1000});
    ADD_FAILURE() << "a 4001-sample trace passed a 1000-byte budget";
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.path(), "/output/interval");
  }
}

// 5e15 steps: past what the driver's integer step counts hold, refused even with --force.
TEST(RunBudget, HardLimitsHoldEvenWithForce) {
  const io::Scenario s = drop(hertz, R"({"name": "rk4", "step": 1e-17})");
  try {
    io::check_run_budget(s, io::hard_run_limits);
    ADD_FAILURE() << "5e15 steps passed the hard limits";
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.path(), "/integrator/step");
    EXPECT_NE(std::string(e.what()).find("even with --force"), std::string::npos) << e.what();
  }
  const io::Scenario paper = io::load_scenario(std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/mouse_alpha-scaled.json");
  EXPECT_NO_THROW(io::check_run_budget(paper, io::hard_run_limits));
}

// `--force` runs what the guard refuses: the 1e12-step case starts (and is stopped by SIGTERM).
TEST(RunBudget, ForceRunsWhatTheGuardRefuses) {
  const std::string scenario = (fs::path(DROPSIM_SOURCE_DIR) / "tests" / "bad_inputs" / "steps_1e12.json").string();
  const fs::path out = fresh_directory("force");
  EXPECT_EQ(run_dropsim({"run", scenario, "-o", out.string()}).exit_code, 2);
  const CliResult r = run_dropsim({"run", scenario, "-o", out.string(), "--force"}, "timeout --preserve-status -s TERM 2");
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << "still running when stopped: " << r.err;
  EXPECT_EQ(r.err.find("budget"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(out));
  fs::remove_all(out);
}

// The same drop in both forms: the paper's mouse, a vertical body on one
// contact of four spheres. The multi-contact estimate comes from
// static_equilibrium and the coupled modes, the drop's from bisection on the
// law: two computations, one contact period (0.043 s).
const std::string mouse_drop = R"("drop": {"mass": 0.02, "spheres": 4, "radius": 0.002, "height": 0.0005},
    "contact": {"law": "hunt_crossley", "stiffness": 320000, "combining": "sherman", "dissipation": 8})";
const std::string mouse_bodies = R"("bodies": [{"name": "mouse", "joint": "vertical", "mass": 0.02,
                "position": [0, 0.0025]}],
    "contacts": [{"type": "sphere_plane", "body": "mouse", "at": [0, 0], "radius": 0.002, "count": 4,
                  "law": "hunt_crossley", "stiffness": 320000, "combining": "sherman", "dissipation": 8}])";

// 1e5 s at rtol 1e-12: about 2.3e6 contact periods of about 1000 dopri5 steps,
// over the 1e9-step budget in either form.
const std::string long_tight = R"({"name": "long", "duration": 1e5, "integrator": {"name": "dopri5", "rtol": 1e-12},
    "output": {"interval": 10.0}, )";

io::Scenario long_tight_run(const std::string& model) { return io::parse_scenario(long_tight + model + "}", "long.json"); }

RunSettings long_run() {
  RunSettings run;
  run.duration = 1e5;
  run.output_interval = 10.0;
  return run;
}

TEST(RunEstimate, BothFormsOfOneDropGiveOneContactPeriod) {
  const RunSettings long_run_settings = long_run();
  const RunEstimate drop_form = estimate_run(long_tight_run(mouse_drop).model, long_run_settings);
  const RunEstimate body_form = estimate_run(long_tight_run(mouse_bodies).model, long_run_settings);
  ASSERT_GT(drop_form.contact_period, 0.0);
  EXPECT_NEAR(body_form.contact_period / drop_form.contact_period, 1.0, 1e-6);
}

// The long tight run is refused in either form, naming the estimate.
TEST(RunBudget, RefusesTheLongTightRunInBothForms) {
  for (const std::string& model : {mouse_drop, mouse_bodies}) {
    try {
      io::check_run_budget(long_tight_run(model));
      ADD_FAILURE() << "a 1e5 s run at rtol 1e-12 passed the budget: " << model;
    } catch (const io::InputError& e) {
      EXPECT_EQ(e.path(), "/duration");
      EXPECT_NE(std::string(e.what()).find("contact periods of"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("--force"), std::string::npos) << e.what();
    }
  }
}

// Through the command line: exit 2 with the estimate; `--force` starts it (stopped by SIGTERM).
TEST(RunBudget, ForceRunsTheRefusedMultiContactRun) {
  const fs::path dir = fresh_directory("force_multibody");
  const fs::path scenario = dir / "long.json";
  std::ofstream(scenario) << long_tight + mouse_bodies + "}";
  const fs::path out = dir / "out";
  fs::create_directories(out);
  const CliResult refused = run_dropsim({"run", scenario.string(), "-o", out.string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("steps (an estimate)"), std::string::npos) << refused.err;
  const CliResult r = run_dropsim({"run", scenario.string(), "-o", out.string(), "--force"}, "timeout --preserve-status -s TERM 2");
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << "still running when stopped: " << r.err;
  EXPECT_TRUE(fs::is_empty(out));
  fs::remove_all(dir);
}

}  // namespace
