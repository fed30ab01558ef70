#pragma once
// Reading launcher variables, shared by the launcher table (launch_env_table.cpp) and the
// functions that apply it (launch_env.cpp): set or not, required, whole numbers in a range, the
// first of a list. Errors name the variable, or the flag that sets one of fabricbench's own.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "comm/launch_env.hpp"

namespace fb::launch_vars {

inline constexpr int kMaxRanks = 1 << 20;

bool has(const EnvLookup& env, std::string_view name);
std::optional<std::string> get(const EnvLookup& env, std::string_view name);

// How an error names a variable: "--nnodes (FABRICBENCH_NNODES)" for those a flag sets.
std::string shown(std::string_view name);

// The variable's value; a usage error naming it (and `launcher`) when unset or empty.
std::string need(const EnvLookup& env, std::string_view name, std::string_view launcher);

// A required whole number in [lo, hi].
int int_var(const EnvLookup& env, std::string_view name, std::string_view launcher, int lo, int hi);

// The variable's whole number when it is set and one (PET_NPROC_PER_NODE may say "auto").
std::optional<int> int_if_number(const EnvLookup& env, std::string_view name);

// The first of `names` that is set, else the last one named (the one an error names); empty for
// an empty list.
std::string_view first_set(const EnvLookup& env, std::span<const std::string_view> names);

// "NAME=value" for a message; a long value cut.
std::string name_value(const EnvLookup& env, std::string_view name);

}  // namespace fb::launch_vars
