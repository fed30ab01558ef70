// Which NCCL NET plugin NCCL would load (topo/net_plugin_probe.hpp): the names NCCL tries for each
// NCCL_NET_PLUGIN, and the probe opening a real shared library (tests/helpers/fake_net_plugin.cpp,
// built as libnccl-net-fbtest.so) by path and by NCCL's libnccl-net-<name>.so form.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "topo/net_plugin_probe.hpp"

namespace {

using Env = std::map<std::string, std::string>;
using Names = std::vector<std::string>;

Env plugin(const std::string& value) { return {{"NCCL_NET_PLUGIN", value}, {"NCCL_DEBUG", "INFO"}}; }

// The directory of the fake plugin joined to NCCL's prefix: "<dir>/libnccl-net", so that the
// libnccl-net-<name>.so form names the fake by path.
std::string prefix_beside_the_fake() {
  return (std::filesystem::path(FB_FAKE_NET_PLUGIN).parent_path() / "libnccl-net").string();
}

}  // namespace

TEST(NetPluginCandidates, UnsetIsTheDefaultLibrary) {
  EXPECT_EQ(fb::net_plugin_candidates({}), Names{"libnccl-net.so"});
  EXPECT_EQ(fb::net_plugin_candidates({{"NCCL_DEBUG", "INFO"}}), Names{"libnccl-net.so"});
  EXPECT_EQ(fb::net_plugin_candidates({}, fb::kRcclNetPluginPrefix), Names{"librccl-net.so"});
}

TEST(NetPluginCandidates, NoneOrEmptyIsNoPlugin) {
  for (const char* none : {"none", "NONE", "None", ""})
    EXPECT_TRUE(fb::net_plugin_candidates(plugin(none)).empty()) << none;
}

TEST(NetPluginCandidates, ANameIsTriedAsGivenThenAsNcclsLibraryName) {
  EXPECT_EQ(fb::net_plugin_candidates(plugin("ofi")), (Names{"ofi", "libnccl-net-ofi.so"}));
  EXPECT_EQ(fb::net_plugin_candidates(plugin("ofi"), fb::kRcclNetPluginPrefix),
            (Names{"ofi", "librccl-net-ofi.so"}));
  // A path or a "lib*.so" file name is only tried as given.
  EXPECT_EQ(fb::net_plugin_candidates(plugin("/opt/x/libnccl-net-ofi.so")),
            Names{"/opt/x/libnccl-net-ofi.so"});
  EXPECT_EQ(fb::net_plugin_candidates(plugin("libnccl-net-ofi.so")), Names{"libnccl-net-ofi.so"});
  EXPECT_EQ(fb::net_plugin_candidates(plugin("lib/x")), Names{"lib/x"});
  // "libfoo.so.1" is not "lib*.so": NCCL tries libnccl-net-libfoo.so.1.so too.
  EXPECT_EQ(fb::net_plugin_candidates(plugin("libfoo.so.1")),
            (Names{"libfoo.so.1", "libnccl-net-libfoo.so.1.so"}));
}

TEST(NetPluginCandidates, AListIsTriedInOrder) {
  EXPECT_EQ(fb::net_plugin_candidates(plugin("aws,,/p/libx.so")),
            (Names{"aws", "libnccl-net-aws.so", "/p/libx.so"}));
}

TEST(NetPluginCandidates, PrefixFollowsTheLibraryLoaded) {
  EXPECT_EQ(fb::net_plugin_prefix("RCCL"), fb::kRcclNetPluginPrefix);
  EXPECT_EQ(fb::net_plugin_prefix("NCCL"), fb::kNcclNetPluginPrefix);
  EXPECT_EQ(fb::net_plugin_prefix(""), fb::kNcclNetPluginPrefix);
}

TEST(FindNetPlugin, OpensTheLibraryByPath) {
  const std::string fake = FB_FAKE_NET_PLUGIN;
  ASSERT_TRUE(std::filesystem::exists(fake)) << fake;
  EXPECT_EQ(fb::find_net_plugin(plugin(fake)), fake);
  EXPECT_EQ(fb::find_net_plugin(plugin("/nonexistent/libnccl-net-x.so," + fake)),
            fake);  // the next in the list
}

TEST(FindNetPlugin, OpensTheLibraryByNcclsNameForm) {
  const std::string fake = FB_FAKE_NET_PLUGIN;
  EXPECT_EQ(std::filesystem::path(fake).filename(), "libnccl-net-fbtest.so");
  EXPECT_EQ(fb::find_net_plugin(plugin("fbtest"), prefix_beside_the_fake()), fake);
}

TEST(FindNetPlugin, NothingToOpenIsNoPlugin) {
  EXPECT_EQ(fb::find_net_plugin(plugin("none")), "");
  EXPECT_EQ(fb::find_net_plugin(plugin("/nonexistent/libnccl-net-x.so")), "");
  EXPECT_EQ(fb::find_net_plugin(plugin("fbtest-absent"), prefix_beside_the_fake()), "");
  // Unset: the default name beside the fake, where no such file is.
  EXPECT_EQ(fb::find_net_plugin({}, prefix_beside_the_fake()), "");
}
