// Names of enum values, each enum's listed once: a table of (value, name)
// pairs from which to_string, parsing and the "expected one of" of error
// messages are all read.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace dropsim {

template <class Enum>
struct Named {
  Enum value;
  std::string_view name;
};

template <class Enum, std::size_t N>
constexpr std::string_view name_in(const std::array<Named<Enum>, N>& table, Enum value) {
  for (const auto& entry : table)
    if (entry.value == value) return entry.name;
  return "unknown";
}

template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_in(const std::array<Named<Enum>, N>& table, std::string_view name) {
  for (const auto& entry : table)
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

// "a, b or c", for messages that list what a key accepts.
template <class Enum, std::size_t N>
std::string names_in(const std::array<Named<Enum>, N>& table) {
  std::string names;
  for (std::size_t i = 0; i < N; ++i)
    names += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(table[i].name);
  return names;
}

}  // namespace dropsim
