// Tests of io/scenario_multibody.*: the multi-contact form, its errors, and `dropsim run` on it.
#include "dropsim/io/scenario_multibody.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>

#include "dropsim/io/scenario.hpp"

namespace dropsim::io {
namespace {

const char* base = R"({"name": "t", "duration": 0.1,
  "bodies": [{"name": "box", "joint": "free", "mass": 2, "inertia": [0.1, 0.2, 0.3], "position": [0, 0.1, 0]},
             {"name": "bar", "joint": "planar", "mass": 1, "inertia": 0.01, "position": [0.5, 0.2], "angle": 0.1}],
  "contacts": [{"type": "sphere_plane", "body": "box", "at": [0.1, -0.1, 0.1], "radius": 0.01, "count": 3,
                "law": "hunt_crossley", "stiffness": 1e6, "dissipation": 1.0},
               {"type": "sphere_sphere", "bodies": ["box", "bar"], "at": [[0, 0, 0], [0.1, 0]], "radius": [0.02, 0.03],
                "law": "linear", "stiffness": 1e4, "name": "touch"}]})";

std::string with(const std::string& from, const std::string& to) {
  std::string s = base;
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

void expect_error(const std::string& text, const std::string& path, const std::string& words) {
  try {
    parse_scenario(text, "x.json");
    ADD_FAILURE() << "expected an InputError at " << path;
  } catch (const InputError& e) {
    EXPECT_EQ(e.path(), path) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(ScenarioMultibody, ParsesBodiesAndContacts) {
  const Scenario s = parse_scenario(base, "x.json");
  ASSERT_TRUE(s.multibody());
  const MultibodyModel& m = *s.multibody();
  EXPECT_EQ(m.nq, 7 + 3);
  EXPECT_EQ(m.nu, 6 + 3);
  EXPECT_EQ(m.contacts[0].count, 3);
  EXPECT_DOUBLE_EQ(m.contacts[1].law.radius, 0.02 * 0.03 / 0.05);  // composite radius
  EXPECT_EQ(m.contacts[1].name, "touch");
  EXPECT_DOUBLE_EQ(m.characteristic_length, 0.01);  // first contact's sphere
  EXPECT_EQ(s.modes_at, "equilibrium");
  // The resolved form reproduces the same model.
  const Scenario again = parse_scenario(s.resolved.dump(), "x.json");
  EXPECT_EQ(again.resolved, s.resolved);
}

TEST(ScenarioMultibody, RejectsBadInput) {
  expect_error(with(R"("joint": "planar")", R"("joint": "hinge")"), "/bodies/1/joint", "unknown joint");
  expect_error(with(R"("body": "box")", R"("body": "bx")"), "/contacts/0/body", "no body named \"bx\"");
  expect_error(with(R"("at": [0.1, -0.1, 0.1])", R"("at": [0.1, -0.1])"), "/contacts/0/at", "array of 3 numbers");
  expect_error(with(R"("radius": 0.01)", R"("radius": 0)"), "/contacts/0/radius", "must be > 0 for the hunt_crossley law");
  expect_error(with(R"("count": 3)", R"("count": 0)"), "/contacts/0/count", "must lie in");
  expect_error(with(R"("angle": 0.1)", R"("angel": 0.1)"), "/bodies/1/angel", "unknown key");
  expect_error(with(R"("inertia": [0.1, 0.2, 0.3])", R"("inertia": [0.1, -0.2, 0.3])"), "/bodies/0/inertia", "> 0");
  expect_error(with(R"("bodies": ["box", "bar"])", R"("bodies": ["box", "box"])"), "/contacts/1/bodies", "two different");
  expect_error(with(R"("name": "bar")", R"("name": "box")"), "/bodies/1/name", "names another body");
  expect_error(with(R"("name": "t",)", R"("name": "t", "modes_at": "peak",)"), "/modes_at", "equilibrium");
}

TEST(ScenarioMultibody, RunWritesTheTraceLayout) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "mb_run";
  const std::string cmd = std::string(DROPSIM_BINARY) + " run " + DROPSIM_SOURCE_DIR +
                          "/scenarios/modes/bar_two_supports.json --integrator rk4 --step 1e-5 -o " + dir.string() +
                          " > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string check = "/usr/bin/python3 -c \"import h5py,sys; f=h5py.File('" + (dir / "bar_two_supports.h5").string() +
                            "'); sys.exit(0 if f['q'].shape[1]==3 and f['contact_force'].shape[1]==2 and "
                            "f.attrs['status']=='ok' and f['q'].attrs['columns']=='bar.x,bar.y,bar.angle' and "
                            "f['q'].attrs['column_units']=='m,m,rad' and f['u'].attrs['column_units']=='m/s,m/s,rad/s' "
                            "else 1)\"";
  EXPECT_EQ(std::system(check.c_str()), 0);
}

// A free body's q holds a unit quaternion and its u an angular velocity: the
// columns say so, so that readers need not guess from "units" (the leading one).
TEST(ScenarioMultibody, FreeBodyColumnsCarryTheirUnits) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "mb_free";
  const std::string cmd = std::string(DROPSIM_BINARY) + " run " + DROPSIM_SOURCE_DIR +
                          "/scenarios/modes/quadruped_two_limbs.json -o " + dir.string() + " > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string check =
      "/usr/bin/python3 -c \"import h5py,sys; f=h5py.File('" + (dir / "quadruped_two_limbs.h5").string() +
      "'); q=f['q'].attrs; u=f['u'].attrs; sys.exit(0 if "
      "q['columns']=='trunk.x,trunk.y,trunk.z,trunk.qw,trunk.qx,trunk.qy,trunk.qz' and "
      "q['column_units']=='m,m,m,1,1,1,1' and u['column_units']=='m/s,m/s,m/s,rad/s,rad/s,rad/s' and "
      "len(q['column_units'].split(','))==f['q'].shape[1] else 1)\"";
  EXPECT_EQ(std::system(check.c_str()), 0);
}

}  // namespace
}  // namespace dropsim::io
