// splitcc-fuzz: mutations of Split-C programs through the translator, failing
// on any signal or hang (issue 45: a translator that never crashes). Each
// mutant is one to three token edits of a program of the corpus — a token
// deleted, doubled or swapped with the next, an identifier replaced by another
// of the same file (a function where data was expected) or misspelt (Clang's
// typo correction), a punctuator or a Split-C qualifier put in — and is run as
// `SPLITCC -E -o OUT MUTANT -I DIR` (translation only), under a time limit.
// A wrong program must get an error and a status; a status of 128 and more
// (the driver's report of a signal), a signal, or no end within the limit is
// a failure, and the mutant is kept for the report. Deterministic for a seed.
//
//   splitcc-fuzz --splitcc PATH --work DIR [--count N] [--seed S]
//                [--timeout SECONDS] CORPUS_DIR...
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct token {
  std::string text;
  bool identifier = false, punctuator = false, mutable_ = true;  // false: whitespace, preprocessor lines
};

/// The program as tokens; preprocessor lines, comments and whitespace are
/// kept as unmutable pieces so that every mutant still preprocesses.
std::vector<token> tokenize(const std::string& s) {
  std::vector<token> out;
  std::size_t i = 0;
  bool line_start = true;
  auto keep = [&](std::size_t from, bool mut, bool ident, bool punct) {
    out.push_back({s.substr(from, i - from), ident, punct, mut});
  };
  while (i < s.size()) {
    const std::size_t from = i;
    const char c = s[i];
    if (line_start && c == '#') {  // a directive, with its continuations
      while (i < s.size() && !(s[i] == '\n' && s[i - 1] != '\\')) ++i;
      keep(from, false, false, false);
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) {
        if (s[i] == '\n') line_start = true;
        ++i;
      }
      keep(from, false, false, false);
      continue;
    }
    line_start = false;
    if (s.compare(i, 2, "/*") == 0) {
      const std::size_t end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 2;
      keep(from, false, false, false);
    } else if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      keep(from, false, false, false);
    } else if (c == '"' || c == '\'') {
      for (++i; i < s.size() && s[i] != c && s[i] != '\n'; ++i)
        if (s[i] == '\\') ++i;
      i = std::min(i + 1, s.size());
      keep(from, true, false, false);
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      keep(from, true, true, false);
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
      keep(from, true, false, false);
    } else {
      static const char* const two[] = {":=", ":-", "::", "->", "++", "--", "&&", "||", "==", "!=", "<=", ">="};
      i += std::any_of(std::begin(two), std::end(two), [&](const char* t) { return s.compare(i, 2, t) == 0; }) ? 2 : 1;
      keep(from, true, false, true);
    }
  }
  return out;
}

class mutator {
 public:
  explicit mutator(std::uint64_t seed) : rng_(seed) {}

  std::string mutate(const std::string& program) {
    std::vector<token> t = tokenize(program);
    std::vector<std::string> names;
    for (const auto& k : t)
      if (k.identifier) names.push_back(k.text);
    const int edits = 1 + static_cast<int>(pick(3));
    for (int e = 0; e < edits; ++e) edit(t, names);
    std::string out;
    for (const auto& k : t) out += k.text;
    return out;
  }

 private:
  std::size_t pick(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

  void edit(std::vector<token>& t, const std::vector<std::string>& names) {
    std::vector<std::size_t> at;  // the tokens an edit may touch
    for (std::size_t k = 0; k < t.size(); ++k)
      if (t[k].mutable_) at.push_back(k);
    if (at.empty()) return;
    const std::size_t k = at[pick(at.size())];
    static const char* const inserts[] = {"*", "&", ";", ",", "(", ")", "{", "}", ":=", ":-", "::", "[", "]",
                                          "global", "spread", "*global", "*spread", "0", "=", "."};
    switch (pick(7)) {
      case 0: t[k].text.clear(); break;                           // deleted
      case 1: t[k].text += " " + t[k].text; break;                // doubled
      case 2: {                                                   // swapped with the next
        const auto next = std::find(at.begin(), at.end(), k) + 1;
        if (next != at.end()) std::swap(t[k].text, t[*next].text);
        break;
      }
      case 3:                                                     // another name of the file
        if (!names.empty()) t[k].text = names[pick(names.size())];
        break;
      case 4:                                                     // a misspelt name
        if (t[k].identifier && t[k].text.size() > 2) {
          std::string& w = t[k].text;
          const std::size_t p = pick(w.size() - 1);
          if (pick(2) == 0) std::swap(w[p], w[p + 1]);
          else w.erase(p, 1);
        }
        break;
      case 5: t[k].text = inserts[pick(std::size(inserts))]; break;            // replaced
      default: t[k].text = std::string(inserts[pick(std::size(inserts))]) + " " + t[k].text; break;  // put in
    }
  }

  std::mt19937_64 rng_;
};

struct outcome {
  enum { status, signalled, hung } how;
  int value;
  std::string output;
};

/// Runs `argv` in a process group of its own with output to `log`, killing
/// the group after `timeout`.
outcome run(const std::vector<std::string>& argv, const fs::path& log, double timeout) {
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid, pid);
  const auto start = std::chrono::steady_clock::now();
  int st = 0;
  for (int sleep_us = 200;; sleep_us = std::min(sleep_us * 2, 20000)) {
    if (waitpid(pid, &st, WNOHANG) == pid) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout) {
      kill(-pid, SIGKILL);
      waitpid(pid, &st, 0);
      return {outcome::hung, 0, ""};
    }
    usleep(sleep_us);
  }
  kill(-pid, SIGKILL);  // anything the driver left behind
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  if (WIFSIGNALED(st)) return {outcome::signalled, WTERMSIG(st), text.str()};
  const int code = WEXITSTATUS(st);
  if (code >= 128) return {outcome::signalled, code - 128, text.str()};
  return {outcome::status, code, text.str()};
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Mutations of Split-C programs through splitcc: fails on any signal or hang"};
  std::string splitcc;
  fs::path work;
  int count = 100;
  std::uint64_t seed = 1;
  double timeout = 30;
  std::vector<fs::path> corpus_dirs;
  app.add_option("--splitcc", splitcc, "the splitcc driver")->required()->check(CLI::ExistingFile);
  app.add_option("--work", work, "directory for mutants (failing ones are kept)")->required();
  app.add_option("--count", count, "mutants to run")->check(CLI::PositiveNumber);
  app.add_option("--seed", seed, "random seed (the run is the same for a seed)");
  app.add_option("--timeout", timeout, "seconds one translation may take")->check(CLI::PositiveNumber);
  app.add_option("corpus", corpus_dirs, "directories of .sc programs (searched recursively)")
      ->required()->check(CLI::ExistingDirectory);
  CLI11_PARSE(app, argc, argv);

  std::vector<fs::path> corpus;
  for (const auto& d : corpus_dirs)
    for (const auto& e : fs::recursive_directory_iterator(d))
      if (e.is_regular_file() && e.path().extension() == ".sc") corpus.push_back(e.path());
  std::sort(corpus.begin(), corpus.end());
  if (corpus.empty()) {
    fmt::print(stderr, "splitcc-fuzz: no .sc programs in the corpus directories\n");
    return 2;
  }
  fs::create_directories(work);
  mutator m(seed);
  std::mt19937_64 choose(seed ^ 0x9e3779b97f4a7c15ULL);
  int failures = 0, rejected = 0;
  for (int i = 0; i < count; ++i) {
    const fs::path& original = corpus[std::uniform_int_distribution<std::size_t>(0, corpus.size() - 1)(choose)];
    const fs::path mutant = work / fmt::format("mutant_{}_{}", i, original.filename().string());
    std::ofstream(mutant, std::ios::binary) << m.mutate(read(original));
    const outcome r = run({splitcc, "-E", "-o", (work / "out.c").string(), mutant.string(), "-I",
                           original.parent_path().string()},
                          work / "log.txt", timeout);
    if (r.how == outcome::status) {
      rejected += r.value != 0;
      fs::remove(mutant);
      continue;
    }
    ++failures;
    if (r.how == outcome::hung)
      fmt::print("FAIL {} (from {}): hung (no end within {} s)\n", mutant.string(), original.string(), timeout);
    else
      fmt::print("FAIL {} (from {}): crashed (signal {})\n{}", mutant.string(), original.string(), r.value, r.output);
  }
  fmt::print("splitcc-fuzz: {} mutants (seed {}): {} translated, {} rejected with an error, {} crashed or hung\n",
             count, seed, count - rejected - failures, rejected, failures);
  return failures == 0 ? 0 : 1;
}
