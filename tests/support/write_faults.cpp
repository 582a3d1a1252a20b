// An LD_PRELOAD shim that makes one call of a process fail, to test that every
// writer reports it and leaves only complete files:
//   - the k-th write, pwrite, writev, fsync or rename fails with ENOSPC (a full disk);
//   - or the k-th operator new made while an output temporary is open (from
//     opening a path holding ".tmp-", docs/reliability.md, to renaming it into
//     place) throws std::bad_alloc (memory exhausted): the writers' allocations. libhdf5's own mallocs are left
//     alone: libhdf5 1.10 does not survive a null from malloc (double frees,
//     crashes in H5CX_pop, measured with an earlier malloc version of this shim).
// Environment:
//   WRITE_FAULT_AT=k       the write point that fails (1-based; unset: none)
//   ALLOC_FAULT_AT=k       the allocation that fails (1-based; unset: none)
//   WRITE_FAULT_COUNT=FILE where to write "WRITES ALLOCATIONS", the calls the process made
// Writes to stdin, stdout and stderr (fds 0-2) are neither counted nor failed.
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {

long writes = 0, write_fail_at = -1;
long allocations = 0, alloc_fail_at = -1;
bool armed = false;  // an output temporary is being written

// operator new may run before this: it fails nothing until a temporary is opened, long after.
__attribute__((constructor)) void read_settings() {
  if (const char* s = std::getenv("WRITE_FAULT_AT")) write_fail_at = std::atol(s);
  if (const char* s = std::getenv("ALLOC_FAULT_AT")) alloc_fail_at = std::atol(s);
}

__attribute__((destructor)) void report_count() {
  const char* path = std::getenv("WRITE_FAULT_COUNT");
  if (!path) return;
  char text[64];
  const int n = std::snprintf(text, sizeof text, "%ld %ld\n", writes, allocations);
  // Raw system calls: the shim must not count (or fail) its own report.
  const long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  syscall(SYS_write, fd, text, n);
  syscall(SYS_close, fd);
}

bool write_fails_now() {
  if (__atomic_add_fetch(&writes, 1, __ATOMIC_SEQ_CST) != write_fail_at) return false;
  errno = ENOSPC;
  return true;
}

bool allocation_fails_now() {
  return __atomic_load_n(&armed, __ATOMIC_SEQ_CST) &&
         __atomic_add_fetch(&allocations, 1, __ATOMIC_SEQ_CST) == alloc_fail_at;
}

void* allocate(std::size_t size) {
  if (allocation_fails_now()) throw std::bad_alloc();
  for (;;) {
    if (void* p = std::malloc(size ? size : 1)) return p;
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

int open_noting(int dir, const char* path, int flags, mode_t mode) {
  if (path && std::strstr(path, ".tmp-")) __atomic_store_n(&armed, true, __ATOMIC_SEQ_CST);
  return static_cast<int>(syscall(SYS_openat, dir, path, flags, mode));
}

mode_t mode_argument(int flags, va_list args) {
  return (flags & (O_CREAT | O_TMPFILE)) ? static_cast<mode_t>(va_arg(args, int)) : 0;
}

}  // namespace

extern "C" {

ssize_t write(int fd, const void* data, size_t size) {
  if (fd > 2 && write_fails_now()) return -1;
  return syscall(SYS_write, fd, data, size);
}

ssize_t pwrite(int fd, const void* data, size_t size, off_t offset) {
  if (fd > 2 && write_fails_now()) return -1;
  return syscall(SYS_pwrite64, fd, data, size, offset);
}

ssize_t pwrite64(int fd, const void* data, size_t size, off_t offset) { return pwrite(fd, data, size, offset); }

// libstdc++'s filebuf flushes its buffer and a large write together with writev.
ssize_t writev(int fd, const struct iovec* parts, int count) {
  if (fd > 2 && write_fails_now()) return -1;
  return syscall(SYS_writev, fd, parts, count);
}

int fsync(int fd) { return write_fails_now() ? -1 : static_cast<int>(syscall(SYS_fsync, fd)); }

int fdatasync(int fd) { return write_fails_now() ? -1 : static_cast<int>(syscall(SYS_fdatasync, fd)); }

int rename(const char* from, const char* to) {
  const int done = write_fails_now() ? -1 : static_cast<int>(syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 0));
  if (from && std::strstr(from, ".tmp-")) __atomic_store_n(&armed, false, __ATOMIC_SEQ_CST);
  return done;
}

int open(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_argument(flags, args);
  va_end(args);
  return open_noting(AT_FDCWD, path, flags, mode);
}

// The same function under its large-file name.
int open64(const char* path, int flags, ...) __attribute__((alias("open")));

int openat(int dir, const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = mode_argument(flags, args);
  va_end(args);
  return open_noting(dir, path, flags, mode);
}

}  // extern "C"

// Plain and array new; their deletes (libstdc++'s) free what malloc gave.
void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
