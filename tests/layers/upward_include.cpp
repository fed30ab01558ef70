// Must NOT compile: gpu/ sits below bench/ in the layer graph, so bench's headers are not on
// its include path (tests/layers/check_layers.sh expects this build to fail on this line).
#include "bench/plan.hpp"
#include "gpu/runtime.hpp"

int fb_layer_probe_upward() { return fb::Plan{}.nranks(); }
