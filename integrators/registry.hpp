// The integrators dropsim offers, by name, with what a user needs to know of each.
#pragma once

#include <array>
#include <string_view>

namespace dropsim::integrators {

enum class Method { dopri5, rk4, central_difference };

struct MethodInfo {
  Method method;
  std::string_view name;
  int order;
  bool adaptive;
  bool implicit;
};

inline constexpr std::array<MethodInfo, 3> methods{{
    {Method::dopri5, "dopri5", 5, true, false},
    {Method::rk4, "rk4", 4, false, false},
    {Method::central_difference, "central_difference", 2, false, false},
}};

inline const MethodInfo* find_method(std::string_view name) {
  for (const auto& m : methods)
    if (m.name == name) return &m;
  return nullptr;
}

inline const MethodInfo& info(Method method) {
  for (const auto& m : methods)
    if (m.method == method) return m;
  return methods[0];
}

}  // namespace dropsim::integrators
