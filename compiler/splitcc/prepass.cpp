// The token-level pre-pass (prepass.hpp): Split-C's qualifiers, assignment
// operators and spreaders rewritten into C that Clang types.
#include "prepass.hpp"

#include <algorithm>
#include <cctype>

namespace splitcc {
namespace {

struct token {
  std::size_t begin, end;
  bool ident;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Tokens of preprocessed C: identifiers, numbers, literals and punctuators
/// (the two-character ones Split-C adds, '::', ':=', ':-', kept whole).
/// Directive lines (line markers, #pragma) are skipped.
std::vector<token> tokenize(const std::string& s) {
  std::vector<token> out;
  std::size_t i = 0;
  bool line_start = true;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') { line_start = true; ++i; continue; }
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (line_start && c == '#') {  // a directive: to the end of the line
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    line_start = false;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const std::size_t e = s.find("*/", i + 2);
      i = e == std::string::npos ? s.size() : e + 2;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    const std::size_t b = i;
    if (ident_start(c)) {
      while (i < s.size() && ident_char(s[i])) ++i;
      // L"..." and u8'...' prefixes belong to the literal
      if (i < s.size() && (s[i] == '"' || s[i] == '\'') && i - b <= 2) {
      } else {
        out.push_back({b, i, true});
        continue;
      }
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      while (i < s.size() && (ident_char(s[i]) || s[i] == '.' ||
                              ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E' ||
                                                                s[i - 1] == 'p' || s[i - 1] == 'P'))))
        ++i;
      out.push_back({b, i, false});
      continue;
    }
    if (s[i] == '"' || s[i] == '\'') {
      const char q = s[i++];
      while (i < s.size() && s[i] != q) {
        if (s[i] == '\\') ++i;
        ++i;
      }
      ++i;
      out.push_back({b, std::min(i, s.size()), false});
      continue;
    }
    static const char* const two[] = {"::", ":=", ":-", "->", "++", "--", "<<", ">>", "<=", ">=",
                                      "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=",
                                      "|=", "^="};
    std::size_t len = 1;
    if (s.compare(i, 3, "...") == 0 || s.compare(i, 3, "<<=") == 0 || s.compare(i, 3, ">>=") == 0)
      len = 3;
    else
      for (const char* t : two)
        if (s.compare(i, 2, t) == 0) len = 2;
    i += len;
    out.push_back({b, i, false});
  }
  return out;
}

struct edit {
  std::size_t begin, end;
  std::string text;
};

}  // namespace

prepass_result prepass(const std::string& src) {
  prepass_result result;
  const std::vector<token> toks = tokenize(src);
  auto text = [&](std::size_t k) { return src.substr(toks[k].begin, toks[k].end - toks[k].begin); };
  auto is = [&](std::size_t k, const char* t) { return k < toks.size() && text(k) == t; };

  std::vector<edit> edits;
  std::vector<std::pair<std::size_t, assign_kind>> assign_at;  // edit index -> kind
  struct pending_spread {
    std::size_t edit_index;
    spread_declarator decl;
  };
  std::vector<pending_spread> spread_at;

  // Pending '?' per bracket depth: a ':-' that closes a '?' is ': -'.
  std::vector<int> questions(1, 0);
  // Whether a ':' after token k, in the same brackets and before the
  // statement ends, closes the '?' pending there (nested ?: counted).
  auto colon_follows = [&](std::size_t k) {
    int depth = 0, need = 1;
    for (std::size_t j = k + 1; j < toks.size(); ++j) {
      const std::string u = text(j);
      if (u == "(" || u == "[") ++depth;
      else if (u == ")" || u == "]") { if (--depth < 0) return false; }
      else if (u == ";" || u == "{" || u == "}") return false;
      else if (depth == 0 && u == "?") ++need;
      else if (depth == 0 && (u == ":" || u == ":-") && --need == 0) return true;
    }
    return false;
  };
  for (std::size_t k = 0; k < toks.size(); ++k) {
    const std::string t = text(k);
    if (t == "(" || t == "[" || t == "{") { questions.push_back(0); continue; }
    if (t == ")" || t == "]" || t == "}") {
      if (questions.size() > 1) questions.pop_back();
      continue;
    }
    if (t == ";") { questions.back() = 0; continue; }
    if (t == "?") { ++questions.back(); continue; }
    if (t == ":") {
      if (questions.back() > 0) --questions.back();
      continue;
    }
    if (t == ":=" || t == ":-") {
      // Inside a pending '?', ':-' closes it (`a ? b :-c` is `a ? b : -c`)
      // unless a later ':' does: then it is a store (`a ? g :- v : w`).
      if (t == ":-" && questions.back() > 0 && !colon_follows(k)) { --questions.back(); continue; }
      assign_at.push_back({edits.size(), t == ":=" ? assign_kind::split_phase : assign_kind::store});
      edits.push_back({toks[k].begin, toks[k].end, "= "});
      continue;
    }
    if (toks[k].ident && (t == "global" || t == "spread")) {
      const char* qual = t == "global" ? "__SCG_" : "__SCS_";
      if (k == 0 || !is(k - 1, "*")) {
        result.errors.push_back({toks[k].begin, "'" + t + "' qualifies a pointer: write it after the '*' (int *" + t + " p)"});
        continue;
      }
      const std::size_t star = k - 1;
      // A '*' that starts a declarator gets the parenthesized form, so that
      // the qualifier stays with this declarator (in the declaration
      // specifiers it would qualify every declarator of the list).
      const bool after_comma = !(star > 0 && is(star - 1, "*"));
      // Replace "*global" (with any blanks between) by "__SCG_*", padded.
      std::string repl = std::string(after_comma ? "(" : "") + qual + "*";
      const std::size_t span = toks[k].end - toks[star].begin;
      if (repl.size() < span) repl.append(span - repl.size(), ' ');
      edits.push_back({toks[star].begin, toks[k].end, repl});
      if (after_comma) {  // close the parenthesis at the end of the declarator
        int depth = 0;
        std::size_t j = k + 1;
        for (; j < toks.size(); ++j) {
          const std::string u = text(j);
          if (u == "(" || u == "[") ++depth;
          else if (u == ")" || u == "]") {
            if (depth == 0) break;
            --depth;
          } else if (depth == 0 && (u == "," || u == ";" || u == "=" || u == ":" || u == "{")) break;
          else if (depth == 0 && toks[j].ident && (is(j - 1, ")") || is(j - 1, "]")))
            break;  // a K&R parameter declaration, an attribute or asm label
        }
        const std::size_t at = j < toks.size() ? toks[j].begin : src.size();
        edits.push_back({at, at, ")"});
      }
      continue;
    }
    if (t == "::") {
      // Walk back over the spread dimensions to the declarator's name.
      std::size_t j = k;
      std::vector<std::pair<std::size_t, std::size_t>> groups;  // token ranges of [..]
      while (j > 0 && is(j - 1, "]")) {
        int depth = 0;
        std::size_t open = j - 1;
        for (;; --open) {
          if (is(open, "]")) ++depth;
          else if (is(open, "[") && --depth == 0) break;
          if (open == 0) break;
        }
        groups.insert(groups.begin(), {open, j - 1});
        j = open;
      }
      if (groups.empty() || j == 0 || !toks[j - 1].ident) {
        result.errors.push_back({toks[k].begin, "spreader '::' must follow the dimensions of an array declarator (T a[n]::)"});
        continue;
      }
      const std::size_t name = j - 1;
      spread_declarator decl;
      auto inner = [&](std::pair<std::size_t, std::size_t> g) {
        return src.substr(toks[g.first].end, toks[g.second].begin - toks[g.first].end);
      };
      for (auto g : groups) decl.spread_dims.push_back(inner(g));
      // Local dimensions after the spreader.
      std::size_t e = k + 1;
      std::vector<std::pair<std::size_t, std::size_t>> locals;
      while (is(e, "[")) {
        int depth = 0;
        std::size_t close = e;
        for (; close < toks.size(); ++close) {
          if (is(close, "[")) ++depth;
          else if (is(close, "]") && --depth == 0) break;
        }
        locals.push_back({e, close});
        e = close + 1;
      }
      for (auto g : locals) decl.local_dims.push_back(inner(g));
      std::string repl = "(__SCS_ *" + text(name) + ")";
      // At file scope a run-time dimension (int A[n][PROCS]::) would make
      // a variably modified type, which C forbids there: the parse sees
      // [1] instead (the translation takes the dimensions from this table,
      // never from the type).
      const bool file_scope = questions.size() == 1;
      for (std::size_t d = 1; d < decl.spread_dims.size(); ++d)
        repl += "[" + (file_scope ? std::string("1") : decl.spread_dims[d]) + "]";
      for (const auto& l : decl.local_dims) repl += "[" + l + "]";
      const std::size_t end = locals.empty() ? toks[k].end : toks[locals.back().second].end;
      // Earlier edits inside the range (none expected: dimensions are plain
      // expressions) would overlap; drop them.
      while (!edits.empty() && edits.back().begin >= toks[name].begin) edits.pop_back();
      spread_at.push_back({edits.size(), decl});
      edits.push_back({toks[name].begin, end, repl});
      k = e - 1;
      continue;
    }
  }

  // Apply the edits (sorted by position; insertions come in order).
  std::vector<std::size_t> order(edits.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return edits[a].begin < edits[b].begin; });
  std::vector<std::size_t> out_pos(edits.size());
  std::size_t at = 0;
  for (std::size_t i : order) {
    result.text.append(src, at, edits[i].begin - at);
    out_pos[i] = result.text.size();
    result.edits.push_back({result.text.size(), edits[i].text.size(), edits[i].begin, edits[i].end - edits[i].begin});
    result.text += edits[i].text;
    at = edits[i].end;
  }
  result.text.append(src, at, std::string::npos);
  for (auto [i, kind] : assign_at) result.assignments[out_pos[i]] = kind;
  for (auto& p : spread_at)
    result.spreads[out_pos[p.edit_index] + std::string("(__SCS_ *").size()] = p.decl;
  return result;
}

std::size_t source_offset(const prepass_result& pre, std::size_t out) {
  // The last edit starting at or before `out`.
  auto it = std::upper_bound(pre.edits.begin(), pre.edits.end(), out,
                             [](std::size_t o, const text_edit& e) { return o < e.out_begin; });
  if (it == pre.edits.begin()) return out;
  --it;
  if (out < it->out_begin + it->out_size) return it->src_begin;
  return it->src_begin + it->src_size + (out - it->out_begin - it->out_size);
}

}  // namespace splitcc
