// The bad-input corpus (tests/bad_inputs/): every case is refused with exit 2, a message naming
// file, JSON path and rule, and no output file. Each NAME.expect describes NAME.<ext>; the
// schema test reads the same corpus.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "tests/support/cli.hpp"

namespace fs = std::filesystem;
using namespace dropsim::test;

namespace {

const fs::path corpus = fs::path(DROPSIM_SOURCE_DIR) / "tests" / "bad_inputs";

struct Case {
  std::string name;
  fs::path input;
  int exit_code = 2;
  std::string path, message;
  std::vector<std::string> args;  // extra arguments; "@x" is corpus/x
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// Case names become test names: letters, digits and underscores only.
Case read_case(const fs::path& expect) {
  Case c;
  c.name = expect.stem().string();
  for (const auto& e : fs::directory_iterator(corpus))
    if (e.path().stem() == expect.stem() && e.path().extension() != ".expect") c.input = e.path();
  std::istringstream lines(slurp(expect));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto colon = line.find(": ");
    const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
    if (key == "exit") c.exit_code = std::stoi(value);
    else if (key == "path") c.path = value;
    else if (key == "message") c.message = value;
    else if (key == "schema") continue;  // read by the schema test (tests/io/scenario_schema_test.cpp)
    else if (key == "args") {
      std::istringstream words(value);
      for (std::string w; words >> w;) c.args.push_back(w[0] == '@' ? (corpus / w.substr(1)).string() : w);
    } else ADD_FAILURE() << expect << ": unknown line " << line;
  }
  return c;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const auto& e : fs::directory_iterator(corpus))
    if (e.path().extension() == ".expect") cases.push_back(read_case(e.path()));
  std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
  return cases;
}

class BadInput : public ::testing::TestWithParam<Case> {};

TEST_P(BadInput, RefusedWithFilePathAndRuleAndNoOutput) {
  const Case& c = GetParam();
  ASSERT_FALSE(c.input.empty()) << c.name << ".expect has no input file beside it";
  ASSERT_FALSE(c.path.empty() || c.message.empty()) << c.name << ".expect needs path: and message:";
  const fs::path out = fresh_directory("bad-" + c.name);
  std::vector<std::string> args{"run", c.input.string()};
  args.insert(args.end(), c.args.begin(), c.args.end());
  args.insert(args.end(), {"-o", out.string()});
  const CliResult r = run_dropsim(args);

  EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
  // docs/interface.md: "FILE: /json/path: rule (got V)".
  EXPECT_NE(r.err.find(c.input.string()), std::string::npos) << "names the file: " << r.err;
  EXPECT_NE(r.err.find(c.path), std::string::npos) << "names the JSON path: " << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << "states the rule: " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one sentence, no trace or progress: " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(directory_entries(out).empty()) << "bad input must write nothing";
  fs::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& test_param) { return test_param.param.name; });

TEST(BadInputCorpus, CoversAtLeastFortyCases) { EXPECT_GE(all_cases().size(), 40u); }

}  // namespace
