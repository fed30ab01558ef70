// Must compile: the control for upward_include.cpp, built the same way (a gpu/-layer file
// that includes its own layer and core/, which sits below it).
#include "core/units.hpp"
#include "gpu/runtime.hpp"

int fb_layer_probe_downward() { return static_cast<int>(fb::kBytesPerGB > 0); }
