// OpenSim Storage export: header counts match the data, `time` first, values survive
// the text round trip; `dropsim run --sto` writes one next to each HDF5 trace.
#include "dropsim/io/sto_writer.hpp"
#include "dropsim/integrators/check.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>


namespace dropsim {
namespace {

namespace fs = std::filesystem;

struct Storage {
  std::map<std::string, std::string> header;  // key=value lines
  std::string name;
  std::vector<std::string> labels;
  std::vector<std::vector<double>> rows;
};

// A reader written to the Storage format's description, independent of the writer.
Storage read_storage(std::istream& in) {
  Storage s;
  std::string line;
  std::getline(in, s.name);
  while (std::getline(in, line) && line != "endheader") {
    const auto eq = line.find('=');
    EXPECT_NE(eq, std::string::npos) << "header line without '=': " << line;
    if (eq != std::string::npos) s.header[line.substr(0, eq)] = line.substr(eq + 1);
  }
  EXPECT_EQ(line, "endheader");
  std::getline(in, line);
  std::stringstream labels(line);
  for (std::string l; std::getline(labels, l, '\t');) s.labels.push_back(l);
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    std::vector<double> row;
    for (std::string c; std::getline(cells, c, '\t');) row.push_back(std::strtod(c.c_str(), nullptr));
    s.rows.push_back(row);
  }
  return s;
}

Trace small_trace() {
  Trace t;
  t.nq = t.nu = 1;
  t.contacts = 1;
  for (int i = 0; i < 5; ++i) {
    t.time.push_back(0.1 * i);
    t.q.push_back(0.008 - 0.001 * i * i);
    t.u.push_back(-0.002 * i);
    t.force.push_back(i < 2 ? 0.0 : 100.0 * i + 0.1);
  }
  return t;
}

TEST(StoWriter, HeaderCountsMatchTheData) {
  std::stringstream text;
  io::write_trace_sto(text, "run_a", small_trace());
  const Storage s = read_storage(text);
  EXPECT_EQ(s.name, "run_a");
  EXPECT_EQ(s.header.at("version"), "1");
  EXPECT_EQ(s.header.at("inDegrees"), "no");
  EXPECT_EQ(std::stoul(s.header.at("nRows")), s.rows.size());
  EXPECT_EQ(s.rows.size(), 5u);
  EXPECT_EQ(std::stoul(s.header.at("nColumns")), s.labels.size());
  ASSERT_FALSE(s.labels.empty());
  EXPECT_EQ(s.labels[0], "time");
  for (const auto& row : s.rows) EXPECT_EQ(row.size(), s.labels.size());
}

// A trace of states whose force column is not derived is refused, not written with garbage forces.
TEST(StoWriter, RefusesATraceWithoutItsForceColumn) {
  Trace t = small_trace();
  t.force.clear();
  std::stringstream text;
  EXPECT_THROW(io::write_trace_sto(text, "run_a", t), InternalError);
}

TEST(StoWriter, ValuesSurviveTheRoundTrip) {
  const Trace t = small_trace();
  std::stringstream text;
  io::write_trace_sto(text, "run_a", t);
  const Storage s = read_storage(text);
  auto column = [&](const std::string& label) {
    for (std::size_t c = 0; c < s.labels.size(); ++c)
      if (s.labels[c] == label) return c;
    ADD_FAILURE() << "no column " << label;
    return std::size_t{0};
  };
  for (std::size_t i = 0; i < t.samples(); ++i) {
    EXPECT_EQ(s.rows[i][0], t.time[i]);
    EXPECT_EQ(s.rows[i][column("/jointset/drop/body_ty/value")], t.q[i]);
    EXPECT_EQ(s.rows[i][column("/jointset/drop/body_ty/speed")], t.u[i]);
    EXPECT_EQ(s.rows[i][column("contact.body.force.Y")], t.force[i]);  // up on the body
    EXPECT_EQ(s.rows[i][column("contact.ground.force.Y")], -t.force[i]);
  }
}

TEST(StoWriter, RunWritesStoBesideHdf5) {
  const fs::path dir = fs::temp_directory_path() / ("dropsim_sto_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string scenario = std::string(DROPSIM_SOURCE_DIR) + "/scenarios/paper/human62_alpha-scaled.json";
  const std::string cmd = std::string(DROPSIM_BINARY) + " run " + scenario + " -o " + dir.string() + " --sto >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  ASSERT_TRUE(fs::exists(dir / "human62_alpha-scaled.h5"));
  std::ifstream in(dir / "human62_alpha-scaled.sto");
  ASSERT_TRUE(in.good());
  const Storage s = read_storage(in);
  EXPECT_EQ(std::stoul(s.header.at("nRows")), s.rows.size());
  EXPECT_EQ(std::stoul(s.header.at("nColumns")), s.labels.size());
  // The run lasts 2 s and starts at rest 0.25 R up.
  EXPECT_EQ(s.rows.front()[0], 0.0);
  EXPECT_NEAR(s.rows.back()[0], 2.0, 1e-12);
  EXPECT_NEAR(s.rows.front()[1], 0.25 * 0.032, 1e-15);
  // At the end it rests: the contact carries the weight.
  EXPECT_NEAR(s.rows.back()[4], 62.0 * 9.80665, 1e-3 * 62.0 * 9.80665);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dropsim
