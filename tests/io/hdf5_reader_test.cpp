// Reading series back from HDF5: datasets by path, columns of 2-D datasets, units, and errors that say what is wrong.
#include "dropsim/io/hdf5_reader.hpp"

#include <H5Cpp.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "dropsim/io/input_error.hpp"
#include "tests/support/cli.hpp"

namespace {

using dropsim::io::InputError;
using dropsim::io::read_series;

// A small file with a 1-D dataset, a 3 x 2 dataset and one in a group.
std::string make_file() {
  const std::string path = (dropsim::test::scratch() / "reader.h5").string();
  H5::H5File f(path, H5F_ACC_TRUNC);
  H5::StrType str(H5::PredType::C_S1, H5T_VARIABLE);
  const hsize_t n[1] = {3}, nm[2] = {3, 2};
  const double x[3] = {0.0, 0.5, 1.0}, m[6] = {1, 2, 3, 4, 5, 6};
  H5::DataSet d = f.createDataSet("x", H5::PredType::NATIVE_DOUBLE, H5::DataSpace(1, n));
  d.write(x, H5::PredType::NATIVE_DOUBLE);
  d.createAttribute("units", str, H5::DataSpace(H5S_SCALAR)).write(str, std::string("s"));
  H5::DataSet d2 = f.createDataSet("m", H5::PredType::NATIVE_DOUBLE, H5::DataSpace(2, nm));
  d2.write(m, H5::PredType::NATIVE_DOUBLE);
  d2.createAttribute("units", str, H5::DataSpace(H5S_SCALAR)).write(str, std::string("N"));
  H5::Group g = f.createGroup("energy");
  g.createDataSet("kinetic", H5::PredType::NATIVE_DOUBLE, H5::DataSpace(1, n)).write(x, H5::PredType::NATIVE_DOUBLE);
  return path;
}

std::string message(const std::string& path, const std::string& spec) {
  try {
    read_series(path, spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Hdf5Reader, ReadsDatasetsColumnsAndUnits) {
  const std::string f = make_file();
  const auto x = read_series(f, "x");
  EXPECT_EQ(x.values, (std::vector<double>{0.0, 0.5, 1.0}));
  EXPECT_EQ(x.units, "s");
  const auto c1 = read_series(f, "m[1]");  // row-major 3 x 2: column 1 is 2, 4, 6
  EXPECT_EQ(c1.values, (std::vector<double>{2, 4, 6}));
  EXPECT_EQ(c1.units, "N");
  const auto k = read_series(f, "/energy/kinetic");
  EXPECT_EQ(k.values.size(), 3u);
  EXPECT_EQ(k.units, "");
}

TEST(Hdf5Reader, SaysWhatIsWrong) {
  const std::string f = make_file();
  EXPECT_NE(message(f + ".missing", "x").find("no such file"), std::string::npos);
  EXPECT_NE(message(f, "y").find("/y: no such dataset"), std::string::npos);
  EXPECT_NE(message(f, "energy/potential").find("no such dataset"), std::string::npos);
  EXPECT_NE(message(f, "nope/x").find("no such dataset"), std::string::npos);
  EXPECT_NE(message(f, "x/deeper").find("no such dataset"), std::string::npos);
  EXPECT_NE(message(f, "energy").find("no such dataset"), std::string::npos);
  EXPECT_NE(message(f, "m").find("2-D with 2 columns"), std::string::npos);
  EXPECT_NE(message(f, "m[2]").find("out of range"), std::string::npos);
  EXPECT_NE(message(f, "x[0]").find("1-D"), std::string::npos);
  EXPECT_NE(message(f, "m[a]").find("NAME[COLUMN]"), std::string::npos);
  const std::string text = (dropsim::test::scratch() / "not.h5").string();
  std::ofstream(text) << "hello";
  EXPECT_NE(message(text, "x").find("not an HDF5 file"), std::string::npos);
}

}  // namespace
