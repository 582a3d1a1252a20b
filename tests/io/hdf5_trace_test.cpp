// The trace writer builds each file in memory it keeps per thread: no bytes of
// an earlier file may reach a later one.
#include "dropsim/io/hdf5_trace.hpp"
#include "dropsim/integrators/check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "dropsim/io/scenario.hpp"
#include "tests/support/h5_read.hpp"
#include "tests/support/cli.hpp"

namespace {

using dropsim::test::paper_scenario_path;
using dropsim::test::scratch;

std::vector<char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Hdf5Trace, ReusedMemoryCarriesNoBytesOfTheFileBefore) {
  // A big file whose every number is one marker, then a small real one.
  const auto mouse = dropsim::io::load_scenario(paper_scenario_path("mouse_alpha-scaled"));
  dropsim::Trace big = dropsim::simulate(mouse.drop(), mouse.run);
  const double marker = std::bit_cast<double>(0x4123456789abcdefULL);
  for (auto* column : {&big.time, &big.tau, &big.force, &big.force_normalized, &big.contact_force, &big.indentation,
                       &big.indentation_relative, &big.q, &big.u, &big.kinetic, &big.potential, &big.elastic,
                       &big.dissipated})
    std::fill(column->begin(), column->end(), marker);
  const auto giraffe = dropsim::io::load_scenario(paper_scenario_path("giraffe_alpha-scaled"));
  const dropsim::Trace small = dropsim::simulate(giraffe.drop(), giraffe.run);
  ASSERT_GT(big.samples(), 4 * small.samples());

  const std::string big_path = (scratch() / "marked.h5").string(), small_path = (scratch() / "after.h5").string();
  dropsim::io::write_trace_hdf5(big_path, mouse, big);
  dropsim::io::write_trace_hdf5(small_path, giraffe, small);

  char pattern[sizeof marker];
  std::memcpy(pattern, &marker, sizeof marker);
  const std::vector<char> before = file_bytes(big_path), after = file_bytes(small_path);
  ASSERT_NE(std::search(before.begin(), before.end(), pattern, pattern + sizeof pattern), before.end());
  EXPECT_EQ(std::search(after.begin(), after.end(), pattern, pattern + sizeof pattern), after.end());
  EXPECT_LT(after.size(), before.size() / 2);
  // And the small file is whole: its numbers read back exactly.
  const hid_t file = H5Fopen(small_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  EXPECT_EQ(dropsim::test::read_doubles(file, "/force_normalized"), small.force_normalized);
  EXPECT_EQ(dropsim::test::read_doubles(file, "/energy/dissipated"), small.dissipated);
  H5Fclose(file);
}

// A trace that records the state alone is written only once its columns are derived:
// before, the writer refuses it and leaves no file.
TEST(Hdf5Trace, StatesOnlyTraceIsWrittenOnlyOnceDerived) {
  auto human = dropsim::io::load_scenario(paper_scenario_path("human62_alpha-scaled"));
  const dropsim::Trace full = dropsim::simulate(human.drop(), human.run);
  human.run.record_states_only = true;
  dropsim::Trace states = dropsim::simulate(human.drop(), human.run);
  const std::string path = (scratch() / "states_only.h5").string();
  std::filesystem::remove(path);
  EXPECT_THROW(dropsim::io::write_trace_hdf5(path, human, states), dropsim::InternalError);
  EXPECT_FALSE(std::filesystem::exists(path));
  dropsim::derive_columns(human.drop(), states);
  dropsim::io::write_trace_hdf5(path, human, states);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  EXPECT_EQ(dropsim::test::read_doubles(file, "/force_normalized"), full.force_normalized);
  EXPECT_EQ(dropsim::test::read_doubles(file, "/energy/dissipated"), full.dissipated);
  H5Fclose(file);
}

}  // namespace
