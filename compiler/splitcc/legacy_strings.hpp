// Old GCC's string literals that span lines: a raw newline inside "..."
// was part of the string. Before preprocessing, each such newline becomes
// the escape \n followed by a line splice (backslash-newline), which means
// the same string in standard C and keeps every line where it was.
#pragma once

#include <string>

namespace splitcc {

/// The source with multi-line string literals made standard; `changed`
/// tells whether there was any.
std::string splice_multiline_strings(const std::string& source, bool& changed);

}  // namespace splitcc
