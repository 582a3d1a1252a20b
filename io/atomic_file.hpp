// Output files that are complete or absent: write to a temporary name in the
// target directory, rename on success, remove on failure, error or signal.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace dropsim::io {

// One output file. The temporary is created (exclusively) by the constructor
// and registered, so that SIGINT/SIGTERM remove it once
// install_signal_cleanup() has run.
class AtomicFile {
 public:
  // Throws IoError if the path is a directory or a non-regular file (a
  // device such as /dev/full, directly or through a symlink), or if the
  // temporary cannot be created. A symlink to a regular file is followed:
  // the target is replaced, the link kept.
  explicit AtomicFile(std::string final_path);
  ~AtomicFile();  // removes the temporary unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::string& temporary_path() const { return temporary_; }
  const std::string& final_path() const { return final_; }
  // Appends to the temporary; throws IoError naming the cause (ENOSPC, EFBIG, ...).
  void write(const void* data, std::size_t size);
  // Flushes to disk and renames into place; throws IoError.
  void commit();

 private:
  std::string final_, temporary_;
  int fd_ = -1;
  bool committed_ = false;
};

// Writes PATH complete or not at all: `fill` writes the temporary (through
// AtomicFile::write, or by its path), then it is committed. Memory running out
// on the way is an IoError naming the file, as a full disk is.
void write_file_atomically(const std::string& path, const std::function<void(AtomicFile&)>& fill);

// A whole text file, complete or absent; throws IoError.
void write_text_file(const std::string& path, const std::string& text);

// Checks the output directory before any simulation runs; throws IoError.
// A missing directory is created (`-o results/paper` on a fresh checkout);
// one that cannot be created or written to is an error with the cause.
void check_output_directory(const std::string& dir);

// The checks AtomicFile's constructor makes on its path, without creating
// anything, so that `dropsim run` refuses before simulating; throws IoError.
void check_output_file(const std::string& path);

// From now on SIGINT and SIGTERM remove every live temporary and end the
// process with status 128 + signal. Call before starting threads (they inherit
// the blocked mask); later calls do nothing.
void install_signal_cleanup();

// As install_signal_cleanup, except that the first SIGINT or SIGTERM only asks
// the program to stop at its next safe point (stop_signal() returns it, and
// `notice` is printed); a second one cleans up and ends the process at once.
void install_graceful_stop(const std::string& notice);
// 0 until a signal asked the program to stop, then that signal's number.
int stop_signal();

}  // namespace dropsim::io
