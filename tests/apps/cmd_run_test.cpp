// `dropsim run` end to end: the paper suite's files, and bad input that writes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <nlohmann/json.hpp>

#include "dropsim/integrators/sundials.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/scenarios.hpp"

namespace dropsim {
namespace {

namespace fs = std::filesystem;

fs::path fresh_directory(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("dropsim_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(RunCommand, PaperSuiteWritesFourteenFilesReadableByH5py) {
  const fs::path out = fresh_directory("paper");
  const auto r = test::dropsim("run " + test::source_path("scenarios/paper/*.json") + " -o " + out.string() + " -j 2");
  // `run` is the subcommand; the glob expands in the shell.
  ASSERT_EQ(r.exit_code, 0) << r.output();
  int files = 0;
  for (const auto& e : fs::directory_iterator(out)) files += e.path().extension() == ".h5";
  EXPECT_EQ(files, 14);
  // Debian's h5py reads every file, finds the units and the equilibrium.
  const auto check = test::run_python("import h5py,glob\n"
                                      "fs=sorted(glob.glob('" + out.string() + "/*.h5'))\n"
                                      "for f in fs:\n"
                                      "  h=h5py.File(f,'r')\n"
                                      "  assert h['force_normalized'].attrs['units']=='1', f\n"
                                      "  assert h['time'].attrs['units']=='s', f\n"
                                      "  assert h['contact_force'].shape[0]==h['time'].shape[0], f\n"
                                      "  assert h.attrs['status']=='ok', f\n"
                                      "  d=h['force']; assert d.dims[0][0].name=='/time' and d.compression is None and d.chunks is None, f\n"
                                      // Every dataset has /time as dimension 0, and the scale lists them all.
                                      "  timed=[k for k in ('tau','force','force_normalized','contact_force','indentation','indentation_relative','q','u')]+['energy/'+k for k in h['energy']]\n"
                                      "  assert len(timed)==12 and h5py.h5ds.is_scale(h['time'].id), f\n"
                                      "  for k in timed:\n"
                                      "    assert h5py.h5ds.is_attached(h[k].id,h['time'].id,0) and h[k].dims[0][0].name=='/time', (f,k)\n"
                                      "    assert all(len(h[k].dims[i])==0 for i in range(1,h[k].ndim)), (f,k)\n"
                                      "  assert h['energy/dissipated'].attrs['units']=='J', f\n"
                                      "  assert abs(h['indentation_relative'][-1,0]-0.35322)<1e-4, f\n"
                                      "print(len(fs))");
  EXPECT_EQ(check.exit_code, 0) << check.output();
  EXPECT_EQ(check.output(), "14\n");
  fs::remove_all(out);
}

// "output": {"compression": "gzip"} writes chunked, shuffled, deflated datasets
// holding exactly the numbers of the default (contiguous) file, in fewer bytes.
TEST(RunCommand, GzipTracesHoldTheSameNumbersInFewerBytes) {
  const fs::path dir = fresh_directory("gzip");
  std::ifstream in(test::source_path("scenarios/paper/human62_alpha-scaled.json"));
  nlohmann::json doc = nlohmann::json::parse(in);
  doc["name"] = "plain";
  std::ofstream(dir / "plain.json") << doc.dump();
  doc["name"] = "packed";
  doc["output"]["compression"] = "gzip";
  std::ofstream(dir / "packed.json") << doc.dump();
  const auto r = test::dropsim("run " + (dir / "plain.json").string() + " " + (dir / "packed.json").string() +
                                   " -o " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output();
  EXPECT_LT(fs::file_size(dir / "packed.h5"), fs::file_size(dir / "plain.h5"));
  const auto check = test::run_python("import h5py,numpy\n"
                                      "a=h5py.File('" + (dir / "plain.h5").string() + "','r')\n"
                                      "b=h5py.File('" + (dir / "packed.h5").string() + "','r')\n"
                                      "names=[]\n"
                                      "a.visititems(lambda n,o: names.append(n) if isinstance(o,h5py.Dataset) else None)\n"
                                      "assert len(names)==13, names\n"
                                      "for n in names:\n"
                                      "  assert a[n].compression is None and b[n].compression=='gzip' and b[n].shuffle, n\n"
                                      "  assert numpy.array_equal(a[n][()], b[n][()]), n\n"
                                      "assert b.attrs['scenario'].find('gzip')>0\n"
                                      "print('same')");
  EXPECT_EQ(check.exit_code, 0) << check.output();
  EXPECT_EQ(check.output(), "same\n");
  fs::remove_all(dir);
}

// The summary row's alpha is the dissipation the run used: the drop's law, or
// a multi-contact scenario's first contact (it printed 0 for those before).
TEST(RunCommand, SummaryShowsTheDissipationOfEveryKindOfScenario) {
  const fs::path out = fresh_directory("alpha");
  const auto r = test::dropsim("run " + test::source_path("scenarios/paper/giraffe_alpha-unscaled.json") + " " +
                                   test::source_path("scenarios/modes/quadruped_two_limbs.json") + " " +
                                   test::source_path("scenarios/modes/particle_on_wall.json") + " -o " +
                                   out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output();
  std::map<std::string, std::string> modulus, alpha;  // name -> the E* and alpha columns as printed
  std::istringstream rows(r.output());
  for (std::string line; std::getline(rows, line);) {
    std::istringstream fields(line);
    std::string name, m, a;
    if (fields >> name >> m >> a) modulus[name] = m, alpha[name] = a;
  }
  EXPECT_EQ(alpha["giraffe_alpha-unscaled"], "2") << r.output();  // docs/physics.md: unscaled alpha is 2 s/m
  EXPECT_EQ(alpha["quadruped_two_limbs"], "1") << r.output();     // its contacts' "dissipation": 1.0
  // A linear spring has no E* and no alpha: a dash, not a 0 that reads as a value.
  EXPECT_EQ(modulus["particle_on_wall"], "-") << r.output();
  EXPECT_EQ(alpha["particle_on_wall"], "-") << r.output();
  fs::remove_all(out);
}

// With friction, the summary adds its line and the file its attributes: the
// block sliding to rest with mu 0.5 called on exactly mu (it slid at Coulomb's
// saturated law) and ended stuck; the slope below the friction angle ends
// creeping at v_t tan(theta) / mu.
TEST(RunCommand, FrictionRunsReportTheCoefficientUsedAndTheFinalSlip) {
  const fs::path out = fresh_directory("friction");
  const auto r = test::dropsim("run " + test::source_path("scenarios/friction/block_sliding.json") + " " +
                               test::source_path("scenarios/friction/slope_held.json") + " -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output();
  EXPECT_NE(r.out.find("friction: up to 0.5 of the normal force"), std::string::npos) << r.output();
  const double creep = 0.01 * std::tan(0.8 * std::atan(0.5)) / 0.5;
  const auto check = test::run_python(
      "import h5py\n"
      "b=h5py.File('" + (out / "block_sliding.h5").string() + "','r')\n"
      "assert abs(b.attrs['peak_friction_ratio']-0.5)<1e-6, b.attrs['peak_friction_ratio']\n"
      "assert b.attrs['final_slip_speed']<1e-5, b.attrs['final_slip_speed']\n"
      "s=h5py.File('" + (out / "slope_held.h5").string() + "','r')\n"
      "assert abs(s.attrs['final_slip_speed']-" + std::to_string(creep) + ")<1e-3*" + std::to_string(creep) +
      ", s.attrs['final_slip_speed']\n");
  EXPECT_EQ(check.exit_code, 0) << check.output();
  fs::remove_all(out);
}

// --no-attribution leaves the trajectory alone (the attribution only watches
// the steps) and writes no stability-bound counts it did not take; the cap's
// stay. With --explain, which prints those counts, it is refused.
TEST(RunCommand, NoAttributionSameTraceWithoutStabilityCounts) {
  const fs::path with = fresh_directory("attributed"), without = fresh_directory("unattributed");
  const std::string box = test::source_path("scenarios/friction/box_on_edge.json");
  const auto a = test::dropsim("run " + box + " -o " + with.string());
  const auto b = test::dropsim("run " + box + " --no-attribution -o " + without.string());
  ASSERT_EQ(a.exit_code, 0) << a.output();
  ASSERT_EQ(b.exit_code, 0) << b.output();
  const auto check = test::run_python(
      "import h5py,numpy\n"
      "a=h5py.File('" + (with / "box_on_edge.h5").string() + "','r')\n"
      "b=h5py.File('" + (without / "box_on_edge.h5").string() + "','r')\n"
      "for k in ('time','q','u','force_normalized','contact_force','friction_force'):\n"
      "  assert numpy.array_equal(a[k][()],b[k][()]), k\n"
      "assert a.attrs['steps']==b.attrs['steps']\n"
      "assert a.attrs['stability_bound_steps']>0 and 'stability_bound_steps' not in b.attrs\n"
      "assert 'stability_bound_time_s' not in b.attrs and 'cap_bound_steps' in b.attrs\n");
  EXPECT_EQ(check.exit_code, 0) << check.output();
  const auto both = test::dropsim("run " + box + " --no-attribution --explain -o " + without.string());
  EXPECT_EQ(both.exit_code, 2) << both.output();
  fs::remove_all(with);
  fs::remove_all(without);
}

// CVODE recovers from a nonlinear solve that failed to converge (a fresh Jacobian
// or a smaller step): the trace counts those failures, and `run` does not warn of
// unconverged solves as it does where dropsim's own implicit steppers go on from one.
TEST(RunCommand, SundialsRecoveredSolvesAreCountedWithoutAWarning) {
  if (!integrators::sundials_available()) GTEST_SKIP() << integrators::unavailable_message("cvode_bdf");
  const fs::path dir = fresh_directory("cvode-retries");
  const auto r = test::dropsim("run --integrator cvode_bdf --rtol 1e-6 " + test::paper_scenario_path("human62_alpha-scaled") +
                               " -o " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.output();
  EXPECT_EQ(r.err.find("iteration cap"), std::string::npos) << r.err;
  const auto failures = test::run_python("import h5py\n"
                                         "f=h5py.File('" + (dir / "human62_alpha-scaled.h5").string() + "','r')\n"
                                         "print(f.attrs['newton_failures'])\n");
  fs::remove_all(dir);
  ASSERT_EQ(failures.exit_code, 0) << failures.output();
  // Without a failure to count, the run shows nothing about the warning.
  if (std::stol(failures.out) == 0) GTEST_SKIP() << "this SUNDIALS converged at every solve of the run";
}

TEST(RunCommand, BadInputExitsTwoAndWritesNothing) {
  const fs::path dir = fresh_directory("bad");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"name":"a","duration":1,"drop":{"mass":1,"spheres":1,"radius":-0.002},"contact":{"law":"hertz","stiffness":1e6}})",
       "/drop/radius: must be > 0"},
      {R"({"name":"a","duration":1,"drop":{"mass":1,"spheres":1,"radius":0.002},"contact":{"law":"hertz","stiffness":1e6,"dissipaton":2}})",
       "/contact/dissipaton: unknown key"},
      {R"({"name":"a","duration":1,"drop":{"spheres":1,"radius":0.002},"contact":{"law":"hertz","stiffness":1e6}})",
       "/drop/mass: is required"},
      {R"({"name":"a","duration":1,"drop":{"mass":1,"spheres":0,"radius":0.002},"contact":{"law":"hertz","stiffness":1e6}})",
       "/drop/spheres: must lie in"},
      {R"({"name":"a","duration":1,"drop":{"mass":1,"spheres":1,"radius":0.002},"contact":{"law":"hertz","stiffness":NaN}})",
       "malformed JSON"},
      {R"({"name":"a","duration":1,"drop":{"mass":1,"spheres":1,"radius":0.002},"contact":{"law":"hertz","stiffness":"NaN"}})",
       "/contact/stiffness: must be a number"},
      {R"({"name":"a","duration":1,)", "malformed JSON"},
      {R"({"name":"a","duration":1,"drop":{"mass":1,"spheres":1,"radius":0.002},"contact":{"law":"hertz","stiffness":1e6},"output":{"compression":"lz4"}})",
       "/output/compression: must be \"none\" or \"gzip\""},
  };
  for (const auto& [text, fragment] : cases) {
    const fs::path file = dir / "case.json";
    std::ofstream(file) << text;
    const auto r = test::dropsim("run " + file.string() + " -o " + (dir / "out").string());
    EXPECT_EQ(r.exit_code, 2) << text;
    EXPECT_NE(r.output().find(file.string() + ": "), std::string::npos) << r.output();  // names the file
    EXPECT_NE(r.output().find(fragment), std::string::npos) << r.output();
    EXPECT_FALSE(fs::exists(dir / "out" / "a.h5"));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dropsim
