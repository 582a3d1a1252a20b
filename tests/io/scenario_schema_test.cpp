// The scenario JSON Schema and the C++ validator agree: both reject every case of the bad-input
// corpus (tests/bad_inputs/) that a schema can express, at the same place.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "dropsim/io/scenario.hpp"
#include "tests/support/cli.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path source(DROPSIM_SOURCE_DIR);
const char* const python = "/usr/bin/python3";  // Debian's, with python3-jsonschema

// The schema's errors per file, from one run of the checker over many files
// (starting Python once per file would cost seconds each).
struct SchemaVerdicts {
  int code = -1;
  std::map<std::string, std::vector<std::string>> pointers;  // file -> JSON pointers of its errors
  std::string text;
};

SchemaVerdicts schema_check(const std::vector<fs::path>& files) {
  std::string cmd = std::string(python) + " '" + (source / "scripts/check-scenario-schema.py").string() + "'";
  for (const auto& f : files) cmd += " '" + f.string() + "'";
  SchemaVerdicts v;
  const dropsim::test::CliResult r = dropsim::test::run_command(cmd);
  v.code = r.exit_code;
  std::istringstream lines(r.output());
  for (std::string s; std::getline(lines, s);) {
    v.text += s + "\n";
    // "FILE: /pointer: message"
    const auto a = s.find(": /");
    if (a == std::string::npos) continue;
    const auto b = s.find(": ", a + 2);
    v.pointers[s.substr(0, a)].push_back(s.substr(a + 2, b == std::string::npos ? std::string::npos : b - a - 2));
  }
  return v;
}

bool encloses(const std::string& outer, const std::string& inner) {
  return outer == "/" || inner == outer || inner.rfind(outer + "/", 0) == 0;
}

std::vector<fs::path> json_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

class SchemaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(python) || std::system((std::string(python) + " -c 'import jsonschema' 2>/dev/null").c_str()) != 0)
      GTEST_SKIP() << "needs /usr/bin/python3 with python3-jsonschema";
  }
};

// The bad-input corpus's JSON cases, but those whose NAME.expect says the rule
// is beyond what a JSON Schema can state ("schema: beyond (why)").
std::vector<fs::path> schema_checkable_bad_inputs() {
  std::vector<fs::path> out;
  for (const auto& f : json_files(source / "tests/bad_inputs")) {
    if (f.parent_path().filename() == "aux") continue;  // helper inputs of other cases
    fs::path expect = f;
    expect.replace_extension(".expect");
    if (dropsim::test::slurp(expect).find("\nschema: beyond") == std::string::npos) out.push_back(f);
  }
  return out;
}

TEST_F(SchemaTest, BothRejectEveryBadExampleAtTheSamePlace) {
  const auto files = schema_checkable_bad_inputs();
  ASSERT_GE(files.size(), 60u);
  const SchemaVerdicts schema = schema_check(files);
  // 1: invalid files; 2: some are not JSON at all (the malformed cases), which
  // both sides then refuse at the root.
  EXPECT_NE(schema.code, 0) << schema.text;
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    const auto found = schema.pointers.find(f.string());
    ASSERT_NE(found, schema.pointers.end()) << "the schema accepted it";
    std::string cpp_path, cpp_message;
    try {
      dropsim::io::load_scenario(f.string());
      ADD_FAILURE() << "the C++ validator accepted it";
      continue;
    } catch (const dropsim::io::InputError& e) {
      cpp_path = e.path().empty() ? "/" : e.path();
      cpp_message = e.what();
    }
    bool same_place = false;
    for (const auto& p : found->second) same_place = same_place || encloses(p, cpp_path) || encloses(cpp_path, p);
    EXPECT_TRUE(same_place) << "C++: " << cpp_message << "\nschema:\n" << schema.text;
  }
}

TEST_F(SchemaTest, BothAcceptTheShippedAndInterfaceScenarios) {
  auto files = json_files(source / "scenarios");
  for (const auto& f : json_files(source / "tests/data/scenarios_good")) files.push_back(f);
  std::erase_if(files, [](const fs::path& p) { return p.string().find("/schema/") != std::string::npos; });
  ASSERT_GE(files.size(), 14u);
  const SchemaVerdicts schema = schema_check(files);
  EXPECT_EQ(schema.code, 0) << schema.text;
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    try {
      dropsim::io::load_scenario(f.string());
    } catch (const dropsim::io::InputError& e) {
      ADD_FAILURE() << "the C++ validator rejected it: " << e.what();
    }
  }
}

}  // namespace
