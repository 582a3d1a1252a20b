// The OpenSim Storage reader on small texts: separators, header keys, and what it refuses.
#include "dropsim/io/storage_reader.hpp"

#include <gtest/gtest.h>

#include "dropsim/io/input_error.hpp"

namespace {

using dropsim::io::InputError;
using dropsim::io::parse_storage;

TEST(StorageReader, TabSeparatedWithLabelsHoldingSpaces) {
  const auto s = parse_storage("states\nversion=1\nnRows=2\nnColumns=3\ninDegrees=no\nendheader\n"
                               "time\tknee angle\t/jointset/drop/body_ty/value\n0\t1.5\t-2e-3\n0.01\t1.25\t-1e-3\n",
                               "s.sto");
  EXPECT_EQ(s.name, "states");
  EXPECT_FALSE(s.in_degrees);
  ASSERT_EQ(s.labels.size(), 3u);
  EXPECT_EQ(s.labels[1], "knee angle");
  EXPECT_EQ(s.labels_line, 7u);
  EXPECT_EQ(dropsim::io::storage_column(s, "s.sto", "/jointset/drop/body_ty/value"), (std::vector<double>{-2e-3, -1e-3}));
  EXPECT_EQ(s.row_lines, (std::vector<std::size_t>{8, 9}));
}

TEST(StorageReader, SpaceSeparatedMotWithFreeTextAndDegrees) {
  const auto s = parse_storage("walk.mot\nnRows=1\nnColumns=2\ninDegrees=yes\nCoordinates of a walk\n\nendheader\n"
                               "  time    hip_flexion_r  \n  0.5   30  \n\n",
                               "w.mot");
  EXPECT_TRUE(s.in_degrees);
  EXPECT_EQ(s.labels, (std::vector<std::string>{"time", "hip_flexion_r"}));
  EXPECT_EQ(s.columns[1], (std::vector<double>{30.0}));
}

TEST(StorageReader, RefusesWhatIsNotAStorageFile) {
  const char* bad[] = {"", "version=1\n", "version=1\nendheader\n", "endheader\ntime x\n0 1 2\n",
                       "endheader\ntime x\n0 1e400x\n", "nColumns=3\nendheader\ntime x\n0 1\n", "nRows=-1\nendheader\ntime\n"};
  for (const char* text : bad) EXPECT_THROW(parse_storage(text, "bad.sto"), InputError) << text;
}

TEST(StorageReader, ExtensionsThatAreStorageFiles) {
  EXPECT_TRUE(dropsim::io::is_storage_file("a/b.sto"));
  EXPECT_TRUE(dropsim::io::is_storage_file("GRF.MOT"));
  EXPECT_FALSE(dropsim::io::is_storage_file("a.h5"));
  EXPECT_FALSE(dropsim::io::is_storage_file("sto"));
}

}  // namespace
