// Bad user input: one exception type whose message names file, JSON path and rule.
#pragma once

#include <stdexcept>
#include <string>

namespace dropsim::io {

// `dropsim` turns this into exit status 2. The message reads
// "FILE: /json/path: rule (got VALUE)".
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string path, const std::string& rule)
      : std::runtime_error(file + ": " + (path.empty() ? std::string("/") : path) + ": " + rule),
        file_(std::move(file)), path_(std::move(path)) {}
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }

 private:
  std::string file_, path_;
};

}  // namespace dropsim::io
