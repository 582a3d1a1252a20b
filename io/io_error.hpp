// Failures of the file system or of a file format (exit status 2).
#pragma once

#include <stdexcept>
#include <string>

namespace dropsim::io {

class IoError : public std::runtime_error {
 public:
  IoError(const std::string& path, const std::string& what) : std::runtime_error(path + ": " + what) {}
};

}  // namespace dropsim::io
