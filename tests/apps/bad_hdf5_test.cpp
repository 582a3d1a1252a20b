// The bad-HDF5 corpus (tests/bad_hdf5/make_corpus.py makes it from good files,
// one mutation each): every structurally bad trace handed to `compare` and
// every bad sweep shard handed to `merge` is refused with exit 2, the file and
// the object path named with the rule, and nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli.hpp"

namespace dropsim::test {
namespace {

namespace fs = std::filesystem;

TEST(BadHdf5, EveryCaseOfTheCorpusIsRefusedByName) {
  const fs::path dir = fresh_directory("bad-hdf5"), good = dir / "good", corpus = dir / "corpus";
  fs::create_directories(good);
  const std::string base = paper_scenario_path("human62_alpha-scaled");
  ASSERT_EQ(dropsim("run " + base + " -o " + good.string()).exit_code, 0);
  for (int i = 0; i < 2; ++i) {
    const CliResult s = dropsim("sweep " + base + " --vary /contact/scaled_from/dissipation=1:3:4 --shard " +
                                std::to_string(i) + "/2 -o " + (good / ("shard" + std::to_string(i) + ".h5")).string());
    ASSERT_EQ(s.exit_code, 0) << s.output();
  }
  const std::string trace = (good / "human62_alpha-scaled.h5").string(), shard0 = (good / "shard0.h5").string(),
                    shard1 = (good / "shard1.h5").string();
  const CliResult made = run_command("/usr/bin/python3 " + source_path("tests/bad_hdf5/make_corpus.py") + " " + trace +
                                     " " + shard0 + " " + shard1 + " " + corpus.string());
  ASSERT_EQ(made.exit_code, 0) << made.output();

  const auto cases = nlohmann::json::parse(slurp(corpus / "cases.json"));
  ASSERT_GE(cases.size(), 30u);
  const fs::path output = dir / "merged.h5";
  for (const auto& c : cases) {
    std::string args;
    for (std::string a : c["command"]) {
      for (const auto& [from, to] : {std::pair<std::string, std::string>{"GOOD", trace}, {"SHARD0", shard0},
                                     {"SHARD1", shard1}, {"OUTPUT", output.string()}})
        if (a == from) a = to;
      args += " " + shell_quote(a);
    }
    const CliResult r = dropsim(args);
    const std::string name = c["name"], file = c["file"], path = c["path"], message = c["message"];
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.output();
    EXPECT_NE(r.err.find(file), std::string::npos) << name << ": the file is not named: " << r.err;
    if (!path.empty()) {
      EXPECT_NE(r.err.find(": " + path + ": "), std::string::npos) << name << ": the path is not named: " << r.err;
    }
    EXPECT_NE(r.err.find(message), std::string::npos) << name << ": " << r.err;
    EXPECT_FALSE(fs::exists(output)) << name << ": wrote " << output;
  }
  std::printf("[measured] %zu bad HDF5 inputs refused with exit 2, file, path and rule\n", cases.size());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dropsim::test
