// A list call's first pass (gather and scatter): each item's place found and filed, without a
// branch on the owner, as the caller's own or as another processor's. A random list would
// mispredict such a branch every other item, and each misprediction throws away the loads in
// flight behind it; filed, the caller's own items are then read or written in a loop of their
// own whose loads overlap (docs/performance.md, "Strided and indexed transfers").
#include "state.hpp"

namespace dolib {

filed_items file_items(const state& s, const array& a, int n, const int* list, int start,
                       splitc::detail::positioned_element* others, own_item* own) {
  filed_items f;
  for (int k = 0; k < n; ++k) {
    const std::int64_t i = list != nullptr ? list[k] : static_cast<std::int64_t>(start) + k;
    const place w = a.locate(i, s.procs);
    const auto position = static_cast<std::uint32_t>(k);
    // Both records written, one kept: the owner's copy of the place (on the sim, processors'
    // segments lie apart) for the others, the offset for the caller's own.
    others[f.others] = {splitc::global_ptr<void>(w.owner, a.local + std::size_t{w.offset} * a.esize).address(),
                        w.owner, position};
    own[f.own] = {w.offset, position};
    const std::size_t is_own = w.owner == s.me;
    f.own += is_own;
    f.others += 1 - is_own;
  }
  return f;
}

}  // namespace dolib
