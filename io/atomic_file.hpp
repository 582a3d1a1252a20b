// Output files that are complete or absent: write to a temporary name in the
// target directory, rename on success, remove on failure.
#pragma once

#include <string>

namespace dropsim::io {

class AtomicFile {
 public:
  explicit AtomicFile(std::string final_path);
  ~AtomicFile();  // removes the temporary unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::string& temporary_path() const { return temporary_; }
  const std::string& final_path() const { return final_; }
  void commit();  // rename into place; throws IoError

 private:
  std::string final_, temporary_;
  bool committed_ = false;
};

// Checks the output directory before any simulation runs; throws IoError.
void check_output_directory(const std::string& dir);

}  // namespace dropsim::io
