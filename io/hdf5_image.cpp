// In-memory HDF5 files written through AtomicFile.
#include "dropsim/io/hdf5_image.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "dropsim/io/atomic_file.hpp"
#include "dropsim/io/io_error.hpp"

namespace dropsim::io {

namespace {

// The core driver's memory, kept per thread across files. The driver would
// malloc a file-sized block per file and free it at close; once a long
// process had moved glibc's mmap and trim thresholds, every file faulted in
// fresh pages (2 000 faults, 8 MB per paper suite: the suite's HDF5 time
// doubled). The arena only grows; freeing keeps it for the next file.
class CoreArena {
 public:
  // Callbacks for a file access list; the arena must outlive the file.
  H5FD_file_image_callbacks_t callbacks() {
    return {&CoreArena::allocate, &CoreArena::copy, &CoreArena::reallocate, &CoreArena::keep,
            &CoreArena::share,    &CoreArena::release, this};
  }

 private:
  static void* allocate(size_t size, H5FD_file_image_op_t, void* udata) {
    return static_cast<CoreArena*>(udata)->grow(size);
  }
  static void* reallocate(void*, size_t size, H5FD_file_image_op_t, void* udata) {
    return static_cast<CoreArena*>(udata)->grow(size);
  }
  static void* copy(void* to, const void* from, size_t size, H5FD_file_image_op_t, void*) {
    return std::memcpy(to, from, size);
  }
  static herr_t keep(void*, H5FD_file_image_op_t, void*) { return 0; }
  // The property list copies its udata; every copy is this arena.
  static void* share(void* udata) { return udata; }
  static herr_t release(void*) { return 0; }

  // realloc's contract: the first bytes are kept (vector growth copies them).
  // Called from libhdf5's C code, so no exception may leave: null is its "no memory".
  void* grow(size_t size) noexcept {
    try {
      if (bytes_.size() < size) bytes_.resize(size);
    } catch (const std::bad_alloc&) {
      return nullptr;
    }
    return bytes_.data();
  }

  std::vector<char> bytes_;
};

}  // namespace

void write_hdf5_file(const std::string& path, std::size_t expected_bytes,
                     const std::function<void(H5::H5File&)>& contents) {
  write_file_atomically(path, [&](AtomicFile& out) {
    try {
      H5::Exception::dontPrint();
      H5::FileAccPropList in_memory;
      in_memory.setCore(std::max<std::size_t>(1 << 16, expected_bytes), false);
      thread_local CoreArena arena;
      H5FD_file_image_callbacks_t callbacks = arena.callbacks();
      if (H5Pset_file_image_callbacks(in_memory.getId(), &callbacks) < 0)
        throw H5::PropListIException("H5Pset_file_image_callbacks", "cannot give the core driver its memory");
      // No sieve buffer: the file is memory already. With one, every dataset
      // smaller than 64 KB was copied through a freshly calloc'ed buffer.
      in_memory.setSieveBufSize(0);
      // No modification time on the root group (nor, through
      // untimed_dataset(), on datasets that ask): the same content, the same bytes.
      H5::FileCreatPropList untimed;
      if (H5Pset_obj_track_times(untimed.getId(), false) < 0)
        throw H5::PropListIException("H5Pset_obj_track_times", "cannot turn off modification times");
      H5::H5File file(out.temporary_path(), H5F_ACC_TRUNC, untimed, in_memory);
      contents(file);
      file.flush(H5F_SCOPE_GLOBAL);
      const ssize_t size = H5Fget_file_image(file.getId(), nullptr, 0);
      if (size < 0) throw H5::FileIException("H5Fget_file_image", "cannot size the in-memory file");
      // Kept per thread across files, like the arena: fresh pages per file cost more than the copy.
      thread_local std::vector<char> image;
      image.resize(static_cast<std::size_t>(size));
      if (H5Fget_file_image(file.getId(), image.data(), image.size()) != size)
        throw H5::FileIException("H5Fget_file_image", "cannot copy the in-memory file");
      file.close();
      out.write(image.data(), image.size());
    } catch (const H5::Exception& e) {
      throw IoError(path, "HDF5 write failed: " + e.getDetailMsg());
    }
  });
}

H5::Group untimed_group(H5::Group& parent, const char* name) {
  const hid_t props = H5Pcreate(H5P_GROUP_CREATE);
  if (props < 0 || H5Pset_obj_track_times(props, false) < 0)
    throw H5::PropListIException("H5Pset_obj_track_times", "cannot turn off modification times");
  const hid_t id = H5Gcreate2(parent.getId(), name, H5P_DEFAULT, props, H5P_DEFAULT);
  H5Pclose(props);
  if (id < 0) throw H5::GroupIException("H5Gcreate2", std::string("cannot create group ") + name);
  H5::Group group(id);  // takes a reference of its own
  H5Gclose(id);
  return group;
}

H5::DSetCreatPropList untimed_dataset() {
  H5::DSetCreatPropList props;
  if (H5Pset_obj_track_times(props.getId(), false) < 0)
    throw H5::PropListIException("H5Pset_obj_track_times", "cannot turn off modification times");
  return props;
}

}  // namespace dropsim::io
