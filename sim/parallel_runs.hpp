// Independent runs on a few threads: each thread keeps its own scratch (a
// Trace, say) run after run, and the first failure by run index is the one
// reported, whatever the scheduling, so a failing sweep says the same thing
// on one thread or many.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace dropsim {

// Calls run(i, scratch) for every i in [first, last) on up to `threads`
// threads, each with its own default-constructed Scratch; progress(done) is
// called under a lock after each run. After a run throws, no new run starts,
// and the exception of the lowest failing index is rethrown here.
template <class Scratch, class Run>
void run_in_parallel(std::size_t first, std::size_t last, unsigned threads, Run&& run,
                     const std::function<void(std::size_t)>& progress) {
  std::atomic<std::size_t> next{first};
  std::atomic<bool> failed{false};
  std::mutex lock;
  std::size_t done = 0;
  std::exception_ptr error;
  std::size_t error_run = last;
  auto worker = [&] {
    Scratch scratch;
    for (std::size_t i; !failed && (i = next++) < last;) {
      try {
        run(i, scratch);
      } catch (...) {
        std::lock_guard g(lock);
        if (i < error_run) {
          error_run = i;
          error = std::current_exception();
        }
        failed = true;
      }
      std::lock_guard g(lock);
      if (progress) progress(++done);
    }
  };
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(1, last - first))));
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < threads; ++k) pool.emplace_back(worker);
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace dropsim
