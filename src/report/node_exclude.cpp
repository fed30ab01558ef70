#include "report/node_exclude.hpp"

#include "comm/hostlist.hpp"
#include "core/file_io.hpp"

namespace fb {

std::string exclude_line(const NodeRanking& ranking, const std::vector<std::string>& names) {
  return compress_hostlist(named_host_names(ranking, names)) + "\n";
}

void write_exclude_file(const std::string& path, const NodesInfo& nodes) {
  write_file_atomically(path, nodes.exclude + "\n");
}

}  // namespace fb
