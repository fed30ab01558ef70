#pragma once
// An empty value is an error, never a silent default: CLI11 converts '' to 0 for numbers (so
// `-w ''` read as "no warm-up" and `--gpus ''` as every GPU).
#include <CLI/CLI.hpp>

namespace fb {

// Every option that takes a value, in `app` and all its subcommands, refuses an empty one
// ("--gpus: an empty value; give one or leave the option out"). Called once all are declared.
void refuse_empty_values(CLI::App& app);

}  // namespace fb
