// Atomic output files and the signal cleanup of their temporaries.
#include "dropsim/io/atomic_file.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <thread>

#include "dropsim/io/io_error.hpp"

namespace dropsim::io {

namespace fs = std::filesystem;

namespace {

// Live temporaries. The signal thread holds `lock` from the moment it starts
// removing them until the process is gone, so no temporary can be created or
// renamed in between. Never destroyed: the signal thread may outlive statics.
struct Registry {
  std::mutex lock;
  std::set<std::string> temporaries;
};
Registry& registry() {
  static auto* r = new Registry;
  return *r;
}

std::string errno_text() { return std::strerror(errno); }

// Writes `text` to stderr without stdio (its lock may be held by a worker).
void say(const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(STDERR_FILENO, text.data() + done, text.size() - done);
    if (n <= 0 && errno != EINTR) return;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
}

// The file the rename must replace: the path itself, or a symlink's target.
fs::path rename_target(const std::string& final_path) {
  std::error_code ec;
  const fs::file_status st = fs::status(final_path, ec);  // follows symlinks
  if (fs::is_directory(st)) throw IoError(final_path, "is a directory, not a file path");
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw IoError(final_path,
                  "exists and is not a regular file (a device, pipe or socket" +
                      std::string(fs::is_symlink(fs::symlink_status(final_path, ec)) ? ", through a symlink" : "") +
                      "); dropsim only replaces regular files");
  if (fs::is_symlink(fs::symlink_status(final_path, ec))) {
    const fs::path target = fs::weakly_canonical(final_path, ec);
    if (!ec) return target;
  }
  return fs::path(final_path);
}

// Creates `path` exclusively and registers it for removal on a signal; -1 and errno on failure.
// Registered first: an allocation failing there must not leave a file behind.
int create_registered(const std::string& path) {
  std::lock_guard guard(registry().lock);
  const auto entry = registry().temporaries.insert(path).first;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int cause = errno;
    registry().temporaries.erase(entry);
    errno = cause;
  }
  return fd;
}

void remove_registered(const std::string& path) {
  std::lock_guard guard(registry().lock);
  ::unlink(path.c_str());
  registry().temporaries.erase(path);
}

}  // namespace

AtomicFile::AtomicFile(std::string final_path) : final_(std::move(final_path)) {
  static std::atomic<long> counter{0};
  const fs::path target = rename_target(final_);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  temporary_ = (dir / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                       std::to_string(counter++)))
                   .string();
  std::string resolved = target.string();
  // Nothing may throw once the temporary exists: the destructor would not remove it.
  fd_ = create_registered(temporary_);
  if (fd_ < 0) throw IoError(final_, "cannot create a temporary file in " + dir.string() + ": " + errno_text());
  final_ = std::move(resolved);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) remove_registered(temporary_);
}

void AtomicFile::write(const void* data, std::size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw IoError(final_, "cannot write the file: " + (n < 0 ? errno_text() : std::string("no progress")));
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

void AtomicFile::commit() {
  // fsync before rename: after a crash the name holds the old file or the whole new one.
  if (::fsync(fd_) != 0) throw IoError(final_, "cannot write the file to disk: " + errno_text());
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw IoError(final_, "cannot write the file to disk: " + errno_text());
  std::lock_guard guard(registry().lock);
  if (std::rename(temporary_.c_str(), final_.c_str()) != 0)
    throw IoError(final_, "cannot move the finished file into place: " + errno_text());
  registry().temporaries.erase(temporary_);
  committed_ = true;
}

void check_output_directory(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (ec) throw IoError(dir, "cannot create the output directory: " + ec.message());
  }
  if (!fs::is_directory(dir, ec)) throw IoError(dir, "the output path exists and is not a directory");
  // Probe by creating a file: access(W_OK) says yes to root and knows nothing of read-only mounts.
  const std::string probe = (fs::path(dir) / (".dropsim-probe-" + std::to_string(::getpid()))).string();
  const int fd = create_registered(probe);
  if (fd < 0) throw IoError(dir, "cannot create files in the output directory: " + errno_text());
  ::close(fd);
  remove_registered(probe);
}

void write_file_atomically(const std::string& path, const std::function<void(AtomicFile&)>& fill) {
  try {
    AtomicFile file(path);
    fill(file);
    file.commit();
  } catch (const std::bad_alloc&) {
    throw IoError(path, "out of memory while writing the file");
  }
}

void write_text_file(const std::string& path, const std::string& text) {
  write_file_atomically(path, [&](AtomicFile& file) { file.write(text.data(), text.size()); });
}

void check_output_file(const std::string& path) { (void)rename_target(path); }

namespace {

std::atomic<int> requested_stop{0};

// Blocks SIGINT and SIGTERM here and in every thread started later; one
// thread takes them with sigwait, where locks and unlink are safe (no
// async-signal rules). With a notice, the first signal only sets stop_signal().
void take_signals(std::optional<std::string> graceful_notice) {
  static std::once_flag once;
  std::call_once(once, [&graceful_notice] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread([set, notice = std::move(graceful_notice)] {
      int sig = 0;
      for (;;) {
        if (sigwait(&set, &sig) != 0) continue;
        if (notice && requested_stop.load() == 0) {
          requested_stop = sig;
          say("dropsim: " + std::string(sig == SIGINT ? "SIGINT" : "SIGTERM") + ": " + *notice + "\n");
          continue;
        }
        break;
      }
      Registry& r = registry();
      r.lock.lock();  // held until _exit: nothing is created or renamed after this
      for (const auto& t : r.temporaries) ::unlink(t.c_str());
      say("dropsim: interrupted by " + std::string(sig == SIGINT ? "SIGINT" : "SIGTERM") + "; removed " +
          std::to_string(r.temporaries.size()) + " unfinished output file(s), finished ones are kept\n");
      ::_exit(128 + sig);
    }).detach();
  });
}

}  // namespace

void install_signal_cleanup() { take_signals(std::nullopt); }

void install_graceful_stop(const std::string& notice) { take_signals(notice); }

int stop_signal() { return requested_stop.load(); }

}  // namespace dropsim::io
