// What the commands' --json outputs share: vectors as arrays, and null where a
// number is not finite (JSON has no inf or NaN).
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

namespace dropsim::app {

inline std::vector<double> values(const Eigen::Ref<const Eigen::VectorXd>& v) { return {v.data(), v.data() + v.size()}; }

inline nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

}  // namespace dropsim::app
