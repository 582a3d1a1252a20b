// The extension module dropsim._dropsim; python/dropsim/__init__.py re-exports it.
#include "python/objects.hpp"

PYBIND11_MODULE(_dropsim, m) {
  using namespace dropsim::python;
  m.doc() = "dropsim: drop tests with penalty contact, the library the dropsim command line runs on.";
  register_exceptions(m);
  bind_scenario(m);
  bind_trace(m);
  bind_runs(m);
  bind_compare(m);
  bind_modes(m);
}
