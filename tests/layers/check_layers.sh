#!/usr/bin/env bash
# The build enforces the layer graph: a file of the gpu/ layer that includes a header of bench/
# (a layer above it) must fail to compile, while the same file including only its own and
# lower layers compiles. Usage: check_layers.sh BUILD_DIR
set -u
build=$1
if ! cmake --build "$build" --target layer_probe_downward > /tmp/fb_layer_down.log 2>&1; then
  echo "FAIL: the control (gpu/ including core/) does not build:"; tail -20 /tmp/fb_layer_down.log; exit 1
fi
if cmake --build "$build" --target layer_probe_upward > /tmp/fb_layer_up.log 2>&1; then
  echo "FAIL: gpu/ including bench/plan.hpp compiled: the layer graph is not enforced"; exit 1
fi
if ! grep -q 'bench/plan.hpp: No such file' /tmp/fb_layer_up.log; then
  echo "FAIL: the upward include failed for another reason:"; tail -20 /tmp/fb_layer_up.log; exit 1
fi
echo "ok: upward include refused ($(grep -m1 'bench/plan.hpp' /tmp/fb_layer_up.log))"
