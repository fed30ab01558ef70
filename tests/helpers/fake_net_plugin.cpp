// A stand-in for an NCCL NET plugin library (libnccl-net-fbtest.so), for topo/net_plugin_probe's
// tests: a shared library the probe can find and open. NCCL would look for ncclNetPlugin_vN in it;
// the probe only opens the file, so one symbol stands for the plugin's structs.
extern "C" {
__attribute__((visibility("default"))) extern const int fb_fake_net_plugin;
const int fb_fake_net_plugin = 1;
}
