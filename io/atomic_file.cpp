// Atomic output files.
#include "io/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

#include "io/io_error.hpp"

namespace dropsim::io {

namespace fs = std::filesystem;

AtomicFile::AtomicFile(std::string final_path) : final_(std::move(final_path)) {
  static std::atomic<long> counter{0};
  const fs::path p(final_);
  if (fs::is_directory(p)) throw IoError(final_, "is a directory, not a file path");
  temporary_ = (p.parent_path() / ("." + p.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                                   std::to_string(counter++)))
                   .string();
}

AtomicFile::~AtomicFile() {
  if (!committed_) std::remove(temporary_.c_str());
}

void AtomicFile::commit() {
  if (std::rename(temporary_.c_str(), final_.c_str()) != 0)
    throw IoError(final_, std::string("cannot move the finished file into place: ") + std::strerror(errno));
  committed_ = true;
}

void check_output_directory(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) throw IoError(dir, "cannot create the output directory: " + ec.message());
  }
  if (!fs::is_directory(dir, ec)) throw IoError(dir, "the output path exists and is not a directory");
  if (::access(dir.c_str(), W_OK) != 0) throw IoError(dir, "the output directory is not writable");
}

}  // namespace dropsim::io
