// Multi-line string literals made standard C (legacy_strings.hpp).
#include "legacy_strings.hpp"

namespace splitcc {

std::string splice_multiline_strings(const std::string& s, bool& changed) {
  std::string out;
  out.reserve(s.size());
  changed = false;
  enum { code, string, character, line_comment, block_comment } state = code;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    switch (state) {
      case code:
        if (c == '"') state = string;
        else if (c == '\'') state = character;
        else if (c == '/' && next == '/') state = line_comment;
        else if (c == '/' && next == '*') state = block_comment;
        break;
      case string:
      case character:
        if (c == '\\' && next != '\0') {  // an escape (or a splice): copy both
          out += c;
          out += s[++i];
          continue;
        }
        if (c == (state == string ? '"' : '\'')) state = code;
        else if (c == '\n' && state == string) {
          out += "\\n\\\n";
          changed = true;
          continue;
        } else if (c == '\n') {
          state = code;  // an unterminated character constant: the compiler says so
        }
        break;
      case line_comment:
        if (c == '\n') state = code;
        break;
      case block_comment:
        if (c == '*' && next == '/') {
          out += "*/";
          ++i;
          state = code;
          continue;
        }
        break;
    }
    out += c;
  }
  return out;
}

}  // namespace splitcc
