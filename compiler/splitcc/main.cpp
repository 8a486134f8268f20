// splitcc-translate: one preprocessed Split-C file (.i) in, C out. The
// driver (splitcc) runs the preprocessor before and the C compiler after.
//
//   splitcc-translate --interface FILE... --view FILE [--std C] -o OUT.c IN.i
//       (--std: the C compiler's -std= value; the parse reads its GNU form)
//   splitcc-translate --legacy-strings IN.sc OUT.sc
//       (before preprocessing: multi-line string literals made standard;
//        exit status 0 and OUT written when there were any, 3 otherwise)
//
// The C interface's own headers (--interface) are replaced, for Clang's
// parse only, by the view (the same functions typed in Split-C: a global
// pointer parameter is `void *global`); they come back in the output. Then
// the pre-pass (prepass.hpp), Clang's parse and semantic analysis, and the
// AST pass (translate.hpp). Clang's complaints that a conversion changes the
// address space of a pointer (local to global, spread to global: implicit in
// Split-C, an error in Clang) are answered by inserting the explicit cast
// and parsing again. Errors are printed in the C compiler's format. Clang's
// parse runs under crash recovery: Clang 14 crashes on a function where a
// global or spread pointer is expected, and the translator then explains the
// crash from a second parse (function_designators.hpp).
#include "legacy_strings.hpp"
#include "function_designators.hpp"
#include "prepass.hpp"
#include "translate.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/DiagnosticSema.h>
#include <clang/Basic/Version.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/raw_ostream.h>

#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

namespace {

using namespace clang;

const char* const prelude_end = "/*@splitcc-prelude-end@*/\n";
const char* const view_begin = "/*@splitcc-view-begin@*/\n";
const char* const view_end = "/*@splitcc-view-end@*/\n";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "splitcc: cannot read " << path << "\n";
    std::exit(2);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The preprocessed text with the interface headers' own lines taken out
/// (each stretch replaced by a marker line) and the view put in after the
/// last of them.
struct interface_split {
  std::string text;
  std::vector<std::string> pieces;
};
interface_split split_interface(const std::string& src, const std::set<std::string>& files,
                                const std::string& view) {
  static const std::regex marker(R"(^#\s*[0-9]+\s+"([^"]*)\".*)");
  interface_split out;
  std::istringstream in(src);
  std::string line, current;
  bool inside = false;
  std::size_t last_marker = std::string::npos;
  auto close = [&] {
    if (!inside) return;
    const std::string m = "/*@splitcc-piece " + std::to_string(out.pieces.size() - 1) + "@*/\n";
    out.text += m;
    last_marker = out.text.size();
    inside = false;
  };
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, marker)) {
      close();
      current = m[1];
      out.text += line + "\n";
      continue;
    }
    if (files.count(current)) {
      if (!inside) {
        out.pieces.emplace_back();
        inside = true;
      }
      out.pieces.back() += line + "\n";
      continue;
    }
    out.text += line + "\n";
  }
  close();
  if (last_marker == std::string::npos) {
    std::cerr << "splitcc: the C interface (splitc.h) is not in the preprocessed input\n";
    std::exit(2);
  }
  out.text.insert(last_marker, std::string(view_begin) + "# 1 \"<splitc interface view>\"\n" + view + "\n" + view_end);
  return out;
}

const char* const prelude_begin = "/*@splitcc-prelude-begin@*/\n";
const char* const address_spaces =
    "#define __SCG_ __attribute__((address_space(1)))\n"
    "#define __SCS_ __attribute__((address_space(2)))\n";
const char* const prelude_rest =
    "#define _Float128 __float128\n#define _Float64 double\n#define _Float32 float\n"
    "#define _Float64x long double\n#define _Float32x double\n"
    "#define __malloc__(...) __malloc__\n"  /* GCC 11's malloc(deallocator) */
    "typedef struct splitcc_placeholder_ __splitcc_GP_;\n";

/// "file:line:col" of an offset, from the line markers before it.
std::string presumed(const std::string& text, std::size_t offset) {
  static const std::regex marker(R"(^#\s*([0-9]+)\s+"([^"]*)\".*)");
  std::string file = "<input>";
  long line = 1;
  std::size_t at = 0;
  while (at < offset && at < text.size()) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos || nl >= offset) break;
    const std::string l = text.substr(at, nl - at);
    std::smatch m;
    if (std::regex_match(l, m, marker)) {
      file = m[2];
      line = std::stol(m[1]);
    } else {
      ++line;
    }
    at = nl + 1;
  }
  return file + ":" + std::to_string(line) + ":" + std::to_string(offset - at + 1);
}

struct cast_fix {
  std::size_t begin, end;
  std::string type;
};

/// A file-scope initializer Clang found not constant (`int *spread p =
/// &A[3];`: the spread array is a pointer variable in the parsed text): the
/// diagnostic's offset, and its message if it is to be printed after all.
struct deferred_init {
  std::size_t at;
  std::string message;
};

/// Collects Clang's address-space conversion errors (to fix) and formats
/// the rest as the C compiler does, `file:line:col: error: message`: file
/// and line from the line markers, the column from `column` (the
/// pre-pass's edits undone, so that it counts in the program's own line).
class consumer : public DiagnosticConsumer {
 public:
  using column_fn = std::function<unsigned(std::size_t offset)>;
  consumer(column_fn column, std::size_t prelude_size) : column_(std::move(column)), prelude_size_(prelude_size) {}
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    if (info.getID() == diag::err_typecheck_incompatible_address_space && info.getNumRanges() > 0 &&
        info.getNumArgs() >= 3 && info.hasSourceManager()) {
      const unsigned action = static_cast<unsigned>(info.getArgKind(2) == DiagnosticsEngine::ak_sint
                                                        ? info.getArgSInt(2) : info.getArgUInt(2));
      const int type_arg = (action == 0 || action == 4) ? 0 : 1;  // assigning, initializing: destination first
      if (info.getArgKind(type_arg) == DiagnosticsEngine::ak_qualtype) {
        const QualType to = QualType::getFromOpaquePtr(reinterpret_cast<void*>(info.getRawArg(type_arg)));
        const SourceManager& sm = info.getSourceManager();
        const CharSourceRange r = info.getRange(0);
        const SourceLocation b = sm.getExpansionLoc(r.getBegin()), e = sm.getExpansionLoc(r.getEnd());
        const std::size_t end = sm.getFileOffset(e) + (r.isTokenRange() ? Lexer::MeasureTokenLength(e, sm, LangOptions()) : 0);
        PrintingPolicy pp{LangOptions()};
        fixes.push_back({sm.getFileOffset(b), end, to.getAsString(pp)});
        return;
      }
    }
    DiagnosticConsumer::HandleDiagnostic(level, info);  // counted (a fix is not)
    static const char* const names[] = {"ignored", "note", "remark", "warning", "error", "fatal error"};
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    std::string where = "splitcc";
    std::size_t off = std::string::npos;
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      const SourceManager& sm = info.getSourceManager();
      const SourceLocation l = sm.getExpansionLoc(info.getLocation());
      off = sm.getFileOffset(l);
      if (off < prelude_size_) return;  // a note inside the pre-pass's macros
      const PresumedLoc p = sm.getPresumedLoc(l);
      if (p.isValid()) where = std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) + ":" + std::to_string(column_(off));
    }
    std::string line = where + ": " + names[level] + ": " + split_c_types(message.str().str()) + "\n";
    if (info.getID() == diag::err_init_element_not_constant && off != std::string::npos) {
      deferred.push_back({off, std::move(line)});  // printed only if it cannot be deferred
      return;
    }
    text_ += line;
  }
  const std::string& text() const { return text_; }
  /// Clang's spelling of the pre-pass's types in Split-C's: '__SCG_ int (*)'
  /// is 'int *global'.
  static std::string split_c_types(std::string m) {
    static const std::regex g(R"(__SCG_ ([^'(]*?) ?\(\*\))"), sp(R"(__SCS_ ([^'(]*?) ?\(\*\))"),
        gf(R"(__SCG_ ([^'(]*?) ?\(\(\*\)\))"), spf(R"(__SCS_ ([^'(]*?) ?\(\(\*\)\))");
    m = std::regex_replace(m, gf, "$1 (*global)");  // a pointer to a function
    m = std::regex_replace(m, spf, "$1 (*spread)");
    m = std::regex_replace(m, g, "$1 *global");
    return std::regex_replace(m, sp, "$1 *spread");
  }
  std::vector<cast_fix> fixes;
  std::vector<deferred_init> deferred;

 private:
  column_fn column_;
  std::size_t prelude_size_;
  std::string text_;
};

struct job {
  splitcc::prepass_result pre;
  std::size_t skip_begin = 0, skip_end = 0;
  std::string output, trailer;
  bool translated = false;
  std::vector<std::size_t> unnamed_tags;  // this round's: tags to insert first?
  int tags_named = 0;
  const consumer* diags = nullptr;  // this round's: casts to insert first?
};

class action : public ASTFrontendAction {
 public:
  explicit action(job& j) : job_(j) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& ci, StringRef) override {
    struct c : ASTConsumer {
      job& j;
      CompilerInstance& ci;
      c(job& j, CompilerInstance& ci) : j(j), ci(ci) {}
      void HandleTranslationUnit(ASTContext& ctx) override {
        auto& diags = ci.getDiagnostics();
        if (diags.hasErrorOccurred()) return;
        if (j.diags != nullptr && !j.diags->fixes.empty()) return;
        Rewriter rw(ctx.getSourceManager(), ctx.getLangOpts());
        j.trailer = splitcc::translate(ctx, rw, {&j.pre, j.skip_begin, j.skip_end, &j.unnamed_tags});
        if (diags.hasErrorOccurred() || !j.unnamed_tags.empty()) return;
        const RewriteBuffer* buf = rw.getRewriteBufferFor(ctx.getSourceManager().getMainFileID());
        j.output = buf ? std::string(buf->begin(), buf->end())
                       : ctx.getSourceManager().getBufferData(ctx.getSourceManager().getMainFileID()).str();
        j.translated = true;
      }
    };
    return std::make_unique<c>(job_, ci);
  }

 private:
  job& job_;
};

/// One parse of `text` by Clang in the C dialect `std`, `act` run on it.
void parse(const std::string& text, const std::string& std, std::unique_ptr<FrontendAction> act,
           DiagnosticConsumer& diags) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> fs(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> mem(new llvm::vfs::InMemoryFileSystem);
  fs->pushOverlay(mem);
  mem->addFile("splitcc-input.c", 0, llvm::MemoryBuffer::getMemBufferCopy(text));
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(clang::FileSystemOptions(), fs));
  clang::tooling::ToolInvocation inv(
      {"splitcc-translate", "-fsyntax-only", "-x", "c", "-std=" + std, "-w", "-ferror-limit=50",
       "-fno-color-diagnostics", "-fno-caret-diagnostics", "splitcc-input.c"},
      std::move(act), files.get());
  inv.setDiagnosticConsumer(&diags);
  inv.run();
}

/// Diagnostics (lines `file:line:col: level: ...`) in order of position, each
/// error with the notes after it.
std::string in_order(const std::string& lines) {
  static const std::regex where(R"(^(.*):([0-9]+):([0-9]+): (error|warning|note): .*)");
  struct group {
    std::string file;
    long line = 0, col = 0;
    std::string text;
  };
  std::vector<group> groups;
  std::istringstream in(lines);
  std::string l;
  while (std::getline(in, l)) {
    std::smatch m;
    const bool located = std::regex_match(l, m, where);
    if (groups.empty() || !located || m[4] != "note") {
      groups.push_back({});
      if (located) groups.back() = {m[1], std::stol(m[2]), std::stol(m[3]), ""};
    }
    groups.back().text += l + "\n";
  }
  std::stable_sort(groups.begin(), groups.end(), [](const group& a, const group& b) {
    return std::tie(a.file, a.line, a.col) < std::tie(b.file, b.line, b.col);
  });
  std::string out;
  for (const auto& g : groups) out += g.text;
  return out;
}

/// After Clang crashed parsing `text` (which begins with the prelude): the
/// designator parse (function_designators.hpp), its errors and its finds
/// formatted as the C compiler's (`column` maps an offset of `text` to its
/// column in the program's line); a plain error when there are none.
std::string explain_crash(const std::string& text, const std::string& std,
                          const std::function<unsigned(std::size_t)>& column, int status) {
  const std::size_t replaced = std::string(prelude_begin).size() + std::string(address_spaces).size();
  const std::string marked = std::string(prelude_begin) + splitcc::designator_prelude + text.substr(replaced);
  const long shift = static_cast<long>(marked.size()) - static_cast<long>(text.size());
  std::string out;
  struct finder_action : ASTFrontendAction {
    std::string& out;
    const std::function<unsigned(std::size_t)>& column;
    long shift;
    finder_action(std::string& o, const std::function<unsigned(std::size_t)>& c, long s) : out(o), column(c), shift(s) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance&, StringRef) override {
      struct c : ASTConsumer {
        finder_action& a;
        explicit c(finder_action& a) : a(a) {}
        void HandleTranslationUnit(ASTContext& ctx) override {
          const SourceManager& sm = ctx.getSourceManager();
          const SourceLocation start = sm.getLocForStartOfFile(sm.getMainFileID());
          for (const auto& e : splitcc::find_function_designators(ctx)) {
            const PresumedLoc p = sm.getPresumedLoc(start.getLocWithOffset(static_cast<int>(e.offset)));
            a.out += std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) + ":" +
                     std::to_string(a.column(static_cast<std::size_t>(static_cast<long>(e.offset) - a.shift))) +
                     ": error: " + consumer::split_c_types(e.message) + "\n";
          }
        }
      };
      return std::make_unique<c>(*this);
    }
  };
  // Its own errors too: they say what a typo was corrected to.
  const std::size_t marked_prelude = std::string(prelude_begin).size() + std::string(splitcc::designator_prelude).size() +
                                     std::string(prelude_rest).size() + std::string(prelude_end).size();
  consumer errors([&](std::size_t off) { return column(static_cast<std::size_t>(static_cast<long>(off) - shift)); },
                  marked_prelude);
  llvm::CrashRecoveryContext again;
  again.RunSafely([&] { parse(marked, std, std::make_unique<finder_action>(out, column, shift), errors); });
  out = in_order(errors.text() + out);
  if (out.empty())
    out = "splitcc: error: the C parser (Clang " CLANG_VERSION_STRING ") crashed on this file (status " +
          std::to_string(status) + ") in a construct splitcc does not know; the errors above, if any, "
          "are the parse's last words\n";
  return out;
}

/// A file-scope initializer Clang found no constant, at offset `at` (`int
/// *spread p = &A[3];`: the spread array is a pointer variable in the parsed
/// text), is wrapped as `= __builtin_choose_expr(/*@splitcc-deferred@*/0,
/// (&A[3]), 0)`: a constant for Clang (the null chosen), whose other operand
/// the translation assigns at start-up (translate.cpp). Text is only inserted,
/// so lines and the other offsets keep their meaning. The extent found here:
/// after the declarator's '=' up to the ',' or ';' that ends the initializer.
/// Empty when it is not a plain initializer (a braced one): the error stands.
struct deferral {
  std::size_t begin = 0, end = 0;
};
std::optional<deferral> find_deferral(const std::string& t, std::size_t at) {
  auto punct = [&](std::size_t i) { return std::string_view("=!<>+-*/%&|^").find(t[i]) != std::string_view::npos; };
  auto opens = [](char c) { return c == '(' || c == '[' || c == '{'; };
  auto closes = [](char c) { return c == ')' || c == ']' || c == '}'; };
  // Back to where the declaration starts: a ';' or '{' outside the groups
  // passed over (the groups that hold `at` are left, not counted).
  std::size_t start = std::min(at, t.size());
  for (int depth = 0; start > 0; --start) {
    const char c = t[start - 1];
    if (closes(c)) ++depth;
    else if (opens(c) && depth > 0) --depth;
    else if (depth == 0 && (c == ';' || c == '{')) break;
  }
  // Forward: the declarator's '=' whose initializer (up to the ',' or ';'
  // outside any group) holds `at`.
  int depth = 0;
  std::size_t begin = std::string::npos;
  for (std::size_t i = start; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '"' || c == '\'') {
      for (++i; i < t.size() && t[i] != c; ++i)
        if (t[i] == '\\') ++i;
      continue;
    }
    if (opens(c)) ++depth;
    else if (closes(c)) --depth;
    else if (depth == 0 && c == '=' && !punct(i - 1) && i + 1 < t.size() && t[i + 1] != '=') begin = i + 1;
    else if (depth == 0 && (c == ',' || c == ';')) {
      if (begin != std::string::npos && begin <= at && at < i) {
        std::size_t first = begin;
        while (first < i && std::isspace(static_cast<unsigned char>(t[first]))) ++first;
        if (t[first] == '{') return std::nullopt;  // a braced initializer: the error stands
        return deferral{begin, i};
      }
      begin = std::string::npos;
      if (c == ';' && i >= at) return std::nullopt;
    }
  }
  return std::nullopt;
}

void shift(std::map<std::size_t, splitcc::assign_kind>& m, std::size_t at, std::size_t by) {
  std::map<std::size_t, splitcc::assign_kind> out;
  for (auto& [k, v] : m) out[k >= at ? k + by : k] = v;
  m = std::move(out);
}
void shift(std::map<std::size_t, splitcc::spread_declarator>& m, std::size_t at, std::size_t by) {
  std::map<std::size_t, splitcc::spread_declarator> out;
  for (auto& [k, v] : m) out[k >= at ? k + by : k] = v;
  m = std::move(out);
}

/// The dialect of the parse for the C compiler's -std=: the GNU form of the
/// same C standard, so that what changes meaning between standards (gnu89's
/// `extern inline` beside the function's real definition, implicit int) is
/// read as the C compiler will read it.
std::string parse_dialect(const std::string& std) {
  static const std::regex c89(R"((gnu|c|iso9899:)(89|90|1990|199409))"), c99(R"((gnu|c|iso9899:)(99|9x|1999))"),
      c11(R"((gnu|c|iso9899:)(11|1x|2011))"), c17(R"((gnu|c|iso9899:)(17|18|2017|2018))");
  if (std::regex_match(std, c89)) return "gnu89";
  if (std::regex_match(std, c99)) return "gnu99";
  if (std::regex_match(std, c11)) return "gnu11";
  if (std::regex_match(std, c17)) return "gnu17";
  return "gnu2x";
}

}  // namespace

int main(int argc, char** argv) {
  llvm::CrashRecoveryContext::Enable();  // a crash in Clang's parse is explained, not a signal
  if (argc == 4 && std::string(argv[1]) == "--legacy-strings") {
    bool changed = false;
    const std::string out = splitcc::splice_multiline_strings(read_file(argv[2]), changed);
    if (!changed) return 3;
    std::ofstream o(argv[3], std::ios::binary);
    o << "#line 1 \"" << argv[2] << "\"\n" << out;
    return o ? 0 : 1;
  }
  std::set<std::string> interface_files;
  std::string view_path, out_path, in_path, parse_std = "gnu11";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--interface" && i + 1 < argc) interface_files.insert(argv[++i]);
    else if (a == "--view" && i + 1 < argc) view_path = argv[++i];
    else if (a == "-o" && i + 1 < argc) out_path = argv[++i];
    else if (a == "--std" && i + 1 < argc) parse_std = parse_dialect(argv[++i]);
    else if (!a.empty() && a[0] != '-') in_path = a;
    else {
      std::cerr << "splitcc-translate: unknown argument " << a << "\n"
                << "usage: splitcc-translate --interface FILE... --view FILE [--std C] -o OUT.c IN.i\n";
      return 2;
    }
  }
  if (in_path.empty() || out_path.empty() || view_path.empty()) {
    std::cerr << "usage: splitcc-translate --interface FILE... --view FILE -o OUT.c IN.i\n";
    return 2;
  }
  const interface_split split = split_interface(read_file(in_path), interface_files, read_file(view_path));
  job j;
  const std::string source = std::string(prelude_begin) + address_spaces + prelude_rest + prelude_end + split.text;
  j.pre = splitcc::prepass(source);
  if (!j.pre.errors.empty()) {
    for (const auto& e : j.pre.errors)
      std::cerr << presumed(source, e.offset) << ": error: " << e.message << "\n";
    return 1;
  }
  std::string text = j.pre.text;
  // Where an offset of `text` was in the pre-pass's input: the inserted casts
  // taken out (last inserted first), then the pre-pass's edits undone.
  std::vector<std::pair<std::size_t, std::size_t>> insertions;  // (offset, size), in order
  auto column = [&](std::size_t off) -> unsigned {
    for (auto it = insertions.rbegin(); it != insertions.rend(); ++it) {
      if (off >= it->first + it->second) off -= it->second;
      else if (off >= it->first) off = it->first;
    }
    off = splitcc::source_offset(j.pre, off);
    const std::size_t line_start = source.rfind('\n', off == 0 ? 0 : off - 1);
    return static_cast<unsigned>(off - (line_start == std::string::npos ? 0 : line_start + 1) + 1);
  };
  const std::size_t prelude_size = source.size() - split.text.size();
  for (int round = 0;; ++round) {
    j.skip_begin = text.find(view_begin);
    j.skip_end = text.find(view_end);
    consumer diags(column, prelude_size);
    j.translated = false;
    j.unnamed_tags.clear();
    j.diags = &diags;
    llvm::CrashRecoveryContext crash;
    if (!crash.RunSafely([&] { parse(text, parse_std, std::make_unique<action>(j), diags); })) {
      // The errors Clang gave before it crashed, and the designator parse's not among them.
      std::string said = diags.text(), line;
      std::istringstream more(explain_crash(text, parse_std, column, crash.RetCode));
      while (std::getline(more, line))
        if (said.find(line + "\n") == std::string::npos) said += line + "\n";
      std::cerr << said;
      return 1;
    }
    // File-scope initializers that are no constants become start-up
    // functions (the translation checks the variable is a global or spread
    // pointer); the others' errors stand.
    std::map<std::size_t, deferral> deferrals;  // by where the initializer begins
    std::string unfixed;
    for (const auto& d : diags.deferred) {
      if (auto f = round < 16 ? find_deferral(text, d.at) : std::nullopt) deferrals.emplace(f->begin, *f);
      else unfixed += d.message;
    }
    if (!j.unnamed_tags.empty() && diags.fixes.empty() && deferrals.empty() && round < 16) {
      // Structs defined without a name where the translation must name them.
      std::sort(j.unnamed_tags.begin(), j.unnamed_tags.end());
      for (auto it = j.unnamed_tags.rbegin(); it != j.unnamed_tags.rend(); ++it) {
        const std::string tag = " splitcc_tag_" + std::to_string(++j.tags_named);
        text.insert(*it, tag);
        insertions.push_back({*it, tag.size()});
        shift(j.pre.assignments, *it, tag.size());
        shift(j.pre.spreads, *it, tag.size());
      }
      continue;
    }
    if ((!diags.fixes.empty() || !deferrals.empty()) && round < 16) {
      // Insert the casts (non-overlapping ones this round) and the deferrals,
      // from the end of the text, and parse again.
      std::sort(diags.fixes.begin(), diags.fixes.end(), [](auto& a, auto& b) { return a.begin < b.begin; });
      std::vector<std::pair<std::size_t, std::string>> inserts;  // (offset, text)
      std::size_t last_end = 0;
      for (auto& f : diags.fixes)
        if (inserts.empty() || f.begin >= last_end) {
          inserts.push_back({f.begin, "((" + f.type + ")("});
          inserts.push_back({f.end, "))"});
          last_end = f.end;
        }
      for (auto& [begin, d] : deferrals) {
        inserts.push_back({d.begin, " __builtin_choose_expr(/*@splitcc-deferred@*/0, ("});
        inserts.push_back({d.end, "), 0)"});
      }
      std::stable_sort(inserts.begin(), inserts.end(), [](auto& a, auto& b) { return a.first < b.first; });
      for (auto it = inserts.rbegin(); it != inserts.rend(); ++it) {
        text.insert(it->first, it->second);
        insertions.push_back({it->first, it->second.size()});
        shift(j.pre.assignments, it->first, it->second.size());
        shift(j.pre.spreads, it->first, it->second.size());
      }
      continue;
    }
    std::cerr << diags.text() << unfixed;
    if (!j.translated) return 1;
    break;
  }
  // Put the interface headers back, drop the prelude and the view.
  std::string out = j.output;
  if (auto p = out.find(prelude_end); p != std::string::npos) out.erase(0, p + std::string(prelude_end).size());
  const auto vb = out.find(view_begin), ve = out.find(view_end);
  if (vb != std::string::npos && ve != std::string::npos) out.erase(vb, ve + std::string(view_end).size() - vb);
  for (std::size_t k = 0; k < split.pieces.size(); ++k) {
    const std::string m = "/*@splitcc-piece " + std::to_string(k) + "@*/\n";
    if (auto p = out.find(m); p != std::string::npos) out.replace(p, m.size(), split.pieces[k]);
  }
  std::ofstream o(out_path, std::ios::binary);
  o << "/* Generated by splitcc from Split-C: the C interface's calls (splitc.h) and the\n"
       " * translation's macros (split-c/splitcc-ops.h). */\n#include <split-c/splitcc-ops.h>\n"
    << out;
  if (!j.trailer.empty()) o << "# 1 \"<splitcc generated>\"\n" << j.trailer;
  return o ? 0 : 1;
}
