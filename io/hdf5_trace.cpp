// HDF5 trace writer: time-major datasets, shuffle+deflate, /time as a dimension scale.
#include "dropsim/io/hdf5_trace.hpp"
#include "dropsim/integrators/check.hpp"

#include <H5Cpp.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "dropsim/io/hdf5_image.hpp"
#include "dropsim/io/hdf5_strings.hpp"

namespace dropsim::io {

namespace {

template <class Location, class T>
void number_attribute(Location& where, const char* name, T value) {
  const H5::PredType& type = std::is_integral_v<T> ? H5::PredType::NATIVE_LLONG : H5::PredType::NATIVE_DOUBLE;
  H5::Attribute a = where.createAttribute(name, type, H5::DataSpace(H5S_SCALAR));
  if constexpr (std::is_integral_v<T>) {
    const long long v = value;
    a.write(type, &v);
  } else {
    const double v = value;
    a.write(type, &v);
  }
}

// A 1-D double attribute (a state vector).
template <class Location>
void vector_attribute(Location& where, const char* name, const double* values, int count) {
  const hsize_t dims[1] = {static_cast<hsize_t>(count)};
  H5::Attribute a = where.createAttribute(name, H5::PredType::NATIVE_DOUBLE, H5::DataSpace(1, dims));
  a.write(H5::PredType::NATIVE_DOUBLE, values);
}

// One time-major dataset: contiguous, or with `compress` chunked by rows with
// shuffle + deflate.
H5::DataSet dataset(H5::Group& where, const char* name, const std::vector<double>& data, hsize_t rows, hsize_t columns,
                    const char* units, bool compress) {
  const int rank = columns == 0 ? 1 : 2;
  const hsize_t dims[2] = {rows, columns};
  H5::DataSpace space(rank, dims);
  // Contiguous datasets share one list, made once (a fresh list per dataset
  // was 3 % of the writer) and never closed; neither kind records a
  // modification time, so the same run gives the same bytes.
  static const auto* const contiguous = new H5::DSetCreatPropList(untimed_dataset());
  H5::DSetCreatPropList props(*contiguous);
  if (rows > 0 && compress) {
    props = untimed_dataset();
    const hsize_t chunk[2] = {std::min<hsize_t>(rows, 8192), std::max<hsize_t>(columns, 1)};
    props.setChunk(rank, chunk);
    props.setShuffle();
    // Level 1: the paper suite's files are 1.2 % larger than at level 4 and
    // take a quarter less CPU to write (144 -> 106 ms for the 14 files).
    props.setDeflate(1);
  }
  H5::DataSet d = where.createDataSet(name, H5::PredType::NATIVE_DOUBLE, space, props);
  if (rows > 0) d.write(data.data(), H5::PredType::NATIVE_DOUBLE);
  string_attribute(d, "units", units);
  return d;
}

// /time as dimension 0 of every other dataset: what H5DSattach_scale writes
// (DIMENSION_LIST on each dataset, REFERENCE_LIST on the scale; h5dump shows
// the same attributes), written once. The library rereads, deletes and
// rewrites the scale's list at every attachment: that was a fifth of the
// paper suite's HDF5 time.
void attach_time_scale(const H5::DataSet& scale, const std::vector<H5::DataSet>& datasets) {
  struct ReferenceEntry {  // H5DS's ds_list_t
    hobj_ref_t dataset;
    int dimension;
  };
  auto reference = [](const H5::DataSet& d) {
    hobj_ref_t r;
    if (H5Rcreate(&r, d.getId(), ".", H5R_OBJECT, -1) < 0)
      throw H5::DataSetIException("H5Rcreate", "cannot reference a dataset");
    return r;
  };
  hobj_ref_t scale_ref = reference(scale);
  const H5::VarLenType dimension_list_type(H5::PredType::STD_REF_OBJ);
  std::vector<ReferenceEntry> entries;
  for (const H5::DataSet& d : datasets) {
    // One list of scales per dimension; only dimension 0 has one.
    const int rank = d.getSpace().getSimpleExtentNdims();
    std::vector<hvl_t> dimension_list(static_cast<std::size_t>(rank), hvl_t{0, nullptr});
    dimension_list[0] = {1, &scale_ref};
    const hsize_t dims[1] = {static_cast<hsize_t>(rank)};
    d.createAttribute("DIMENSION_LIST", dimension_list_type, H5::DataSpace(1, dims))
        .write(dimension_list_type, dimension_list.data());
    entries.push_back({reference(d), 0});
  }
  H5::CompType entry_type(sizeof(ReferenceEntry));
  entry_type.insertMember("dataset", HOFFSET(ReferenceEntry, dataset), H5::PredType::STD_REF_OBJ);
  entry_type.insertMember("dimension", HOFFSET(ReferenceEntry, dimension), H5::PredType::NATIVE_INT);
  const hsize_t count[1] = {entries.size()};
  scale.createAttribute("REFERENCE_LIST", entry_type, H5::DataSpace(1, count)).write(entry_type, entries.data());
}

// The trace's datasets and attributes.
void write_contents(H5::H5File& file, const Scenario& scenario, const Trace& t) {
  const hsize_t n = t.samples();
  const auto C = static_cast<hsize_t>(t.contacts);
  const bool compress = scenario.compress_traces;
  H5::Group root = file.openGroup("/");

  H5::DataSet time = dataset(root, "time", t.time, n, 0, "s", compress);
  H5DSset_scale(time.getId(), "time");
  std::vector<H5::DataSet> timed;
  timed.push_back(dataset(root, "tau", t.tau, n, 0, "1", compress));
  timed.push_back(dataset(root, "force", t.force, n, 0, "N", compress));
  timed.push_back(dataset(root, "force_normalized", t.force_normalized, n, 0, "1", compress));
  timed.push_back(dataset(root, "contact_force", t.contact_force, n, C, "N", compress));
  timed.push_back(dataset(root, "indentation", t.indentation, n, C, "m", compress));
  timed.push_back(dataset(root, "indentation_relative", t.indentation_relative, n, C, "1", compress));
  timed.push_back(dataset(root, "q", t.q, n, static_cast<hsize_t>(t.nq), "m", compress));
  timed.push_back(dataset(root, "u", t.u, n, static_cast<hsize_t>(t.nu), "m/s", compress));
  // Multibody traces mix lengths, angles and quaternions: name each column
  // and give its unit ("units" stays the dataset's leading unit).
  auto joined = [](const std::vector<std::string>& parts) {
    std::string list;
    for (const auto& p : parts) list += (list.empty() ? "" : ",") + p;
    return list;
  };
  for (auto [d, names, units] : {std::tuple{timed.end() - 2, &t.q_names, &t.q_units},
                                 std::tuple{timed.end() - 1, &t.u_names, &t.u_units}}) {
    if (!names->empty()) string_attribute(*d, "columns", joined(*names));
    if (!units->empty()) string_attribute(*d, "column_units", joined(*units));
  }
  if (!t.friction_force.empty()) {  // only where a contact has friction: other traces keep their layout
    timed.push_back(dataset(root, "friction_force", t.friction_force, n, C, "N", compress));
    timed.push_back(dataset(root, "slip_speed", t.slip_speed, n, C, "m/s", compress));
  }
  H5::Group energy = untimed_group(file, "energy");
  timed.push_back(dataset(energy, "kinetic", t.kinetic, n, 0, "J", compress));
  timed.push_back(dataset(energy, "potential", t.potential, n, 0, "J", compress));
  timed.push_back(dataset(energy, "elastic", t.elastic, n, 0, "J", compress));
  timed.push_back(dataset(energy, "dissipated", t.dissipated, n, 0, "J", compress));
  attach_time_scale(time, timed);

  string_attribute(root, "dropsim_version", DROPSIM_VERSION);
  string_attribute(root, "scenario", scenario.resolved.dump());
  string_attribute(root, "integrator", t.integrator);
  const bool diverged = t.stats.status == integrators::Status::diverged;
  string_attribute(root, "status", diverged ? "diverged" : "ok");
  if (diverged) {
    string_attribute(root, "diverged_reason", t.stats.reason);
    number_attribute(root, "diverged_time", t.stats.end_time);
    // The last finite state is the last sample: the observer records only finite ones.
    if (n > 0) {
      number_attribute(root, "last_finite_time", t.time.back());
      vector_attribute(root, "last_finite_q", t.q.data() + (n - 1) * t.nq, t.nq);
      vector_attribute(root, "last_finite_u", t.u.data() + (n - 1) * t.nu, t.nu);
    }
  }
  number_attribute(root, "steps", t.stats.steps);
  number_attribute(root, "rejected_steps", t.stats.rejected_steps);
  number_attribute(root, "rhs_evaluations", t.stats.rhs_evaluations);
  number_attribute(root, "newton_failures", t.stats.newton_failures);
  if (t.step > 0.0) {
    number_attribute(root, "step", t.step);
  } else {  // adaptive: what held the steps (docs/integrators.md#stiffness-attribution)
    if (t.stiffness_attributed) {  // absent, not zero, when the run did not judge its steps
      number_attribute(root, "stability_bound_steps", t.stats.stability_bound_steps);
      number_attribute(root, "stability_bound_time_s", t.stats.stability_bound_time);
    }
    number_attribute(root, "cap_bound_steps", t.stats.cap_bound_steps);
    number_attribute(root, "cap_bound_time_s", t.stats.cap_bound_time);
  }
  // Variable-order methods: the steps taken at each order, 1 to the highest used.
  const auto& by_order = t.stats.steps_by_order;
  const auto highest = std::find_if(by_order.rbegin(), by_order.rend(), [](long c) { return c > 0; });
  if (highest != by_order.rend()) {
    const int orders = static_cast<int>(by_order.rend() - highest) - 1;
    std::vector<double> counts(by_order.begin() + 1, by_order.begin() + 1 + orders);
    vector_attribute(root, "steps_by_order", counts.data(), orders);
    number_attribute(root, "order_reductions", t.stats.order_reductions);
  }
  number_attribute(root, "wall_time_s", t.wall_time);
  number_attribute(root, "equilibrium_indentation_relative", t.final_indentation_relative());
  const std::size_t peak = t.peak_index();
  number_attribute(root, "peak_force_normalized", n ? t.force_normalized[peak] : 0.0);
  number_attribute(root, "tau_of_peak", n ? t.tau[peak] : 0.0);
  if (t.has_friction) {
    number_attribute(root, "peak_friction_ratio", t.peak_friction_ratio());
    number_attribute(root, "final_slip_speed", t.final_slip_speed());
  }
}

}  // namespace

void write_trace_hdf5(const std::string& path, const Scenario& scenario, const Trace& t) {
  DROPSIM_CHECK(t.columns_complete(), "write_trace_hdf5: the trace's columns are not derived (derive_columns() first)");
  // Sized so that an uncompressed trace fits in the driver's first block.
  const std::size_t sample_bytes = sizeof(double) * (8 + 3 * t.contacts + t.nq + t.nu);
  write_hdf5_file(path, t.samples() * sample_bytes + (1 << 16),
                  [&](H5::H5File& file) { write_contents(file, scenario, t); });
}

}  // namespace dropsim::io
