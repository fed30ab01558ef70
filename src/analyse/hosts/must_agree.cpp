#include "analyse/hosts/must_agree.hpp"

#include <algorithm>

namespace fb {

const MustAgree* must_agree(std::string_view variable) {
  const auto it = std::find_if(kMustAgreeEnv.begin(), kMustAgreeEnv.end(),
                               [&](const MustAgree& m) { return m.name == variable; });
  return it == kMustAgreeEnv.end() ? nullptr : &*it;
}

}  // namespace fb
