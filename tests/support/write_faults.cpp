// An LD_PRELOAD shim that makes the k-th write, pwrite, writev, fsync or rename of a
// process fail with ENOSPC (a full disk), to test that every writer reports it
// and leaves only complete files. Environment:
//   WRITE_FAULT_AT=k       the call that fails (1-based; unset: none)
//   WRITE_FAULT_COUNT=FILE where to write how many such calls the process made
// Writes to stdin, stdout and stderr (fds 0-2) are neither counted nor failed.
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace {

long calls = 0, fail_at = -1;

__attribute__((constructor)) void read_settings() {
  if (const char* s = std::getenv("WRITE_FAULT_AT")) fail_at = std::atol(s);
}

__attribute__((destructor)) void report_count() {
  const char* path = std::getenv("WRITE_FAULT_COUNT");
  if (!path) return;
  char text[32];
  const int n = std::snprintf(text, sizeof text, "%ld\n", calls);
  // Raw system calls: the shim must not count (or fail) its own report.
  const long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  syscall(SYS_write, fd, text, n);
  syscall(SYS_close, fd);
}

bool fails_now() {
  if (__atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST) != fail_at) return false;
  errno = ENOSPC;
  return true;
}

}  // namespace

extern "C" {

ssize_t write(int fd, const void* data, size_t size) {
  if (fd > 2 && fails_now()) return -1;
  return syscall(SYS_write, fd, data, size);
}

ssize_t pwrite(int fd, const void* data, size_t size, off_t offset) {
  if (fd > 2 && fails_now()) return -1;
  return syscall(SYS_pwrite64, fd, data, size, offset);
}

ssize_t pwrite64(int fd, const void* data, size_t size, off_t offset) { return pwrite(fd, data, size, offset); }

// libstdc++'s filebuf flushes its buffer and a large write together with writev.
ssize_t writev(int fd, const struct iovec* parts, int count) {
  if (fd > 2 && fails_now()) return -1;
  return syscall(SYS_writev, fd, parts, count);
}

int fsync(int fd) { return fails_now() ? -1 : static_cast<int>(syscall(SYS_fsync, fd)); }

int fdatasync(int fd) { return fails_now() ? -1 : static_cast<int>(syscall(SYS_fdatasync, fd)); }

int rename(const char* from, const char* to) {
  return fails_now() ? -1 : static_cast<int>(syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 0));
}

}  // extern "C"
