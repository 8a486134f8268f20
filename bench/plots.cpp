// gnuplot scripts for splitc-bench's plots (see plots.hpp).
#include "plots.hpp"

#include "format.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace bench {
namespace {

std::string quote_gp(std::string s) {
  for (char& c : s)
    if (c == '"') c = '\'';
  return "\"" + s + "\"";
}
std::string quote_sh(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

/// Both terminals: PNG for people, SVG for documents.
std::string terminals(const std::string& base, const std::string& plot_cmd) {
  return fmt::format(
      "set terminal pngcairo size 1100,680 noenhanced font 'sans,10'\n"
      "set output \"{0}.png\"\n{1}\n"
      "set terminal svg size 1100,680 dynamic noenhanced font 'sans,10' background '#ffffff'\n"
      "set output \"{0}.svg\"\n{1}\n"
      "unset output\n",
      base, plot_cmd);
}

bool run_gnuplot(context& ctx, const std::string& base) {
  const std::filesystem::path dir = ctx.cfg.out_dir;
  const std::string cmd =
      fmt::format("cd {} && {} {}.gp >>gnuplot.log 2>&1", quote_sh(dir.string()),
                  quote_sh(ctx.cfg.gnuplot), quote_sh(base));
  const int rc = std::system(cmd.c_str());
  const bool ok = rc == 0 && std::filesystem::exists(dir / (base + ".png"));
  if (ok) {
    ctx.written.push_back((dir / (base + ".png")).string());
    ctx.written.push_back((dir / (base + ".svg")).string());
  } else {
    fmt::print(stderr, "splitc-bench: gnuplot failed for {} (see {})\n", base,
               (dir / "gnuplot.log").string());
  }
  return ok;
}

}  // namespace

bool gnuplot_works(const std::string& gnuplot) {
  const std::string cmd = fmt::format(
      "{} -e \"set terminal pngcairo; set terminal svg\" >/dev/null 2>&1", quote_sh(gnuplot));
  return std::system(cmd.c_str()) == 0;
}

bool line_plot(context& ctx, const std::string& base, const std::string& title,
               const std::string& xlabel, const std::string& ylabel,
               const std::vector<series>& ss) {
  if (ss.empty()) return false;
  const std::filesystem::path dir = ctx.cfg.out_dir;
  {
    std::ofstream dat(dir / (base + ".dat"));
    for (const series& s : ss) {
      dat << "# " << s.label << "\n";
      for (const auto& [x, y] : s.points)
        dat << fmt::format("{} {}\n", x, std::isfinite(y) && y > 0 ? fmt::format("{:.6g}", y)
                                                                  : std::string("NaN"));
      dat << "\n\n";
    }
  }
  ctx.written.push_back((dir / (base + ".dat")).string());
  if (!ctx.have_gnuplot) return false;

  double lo = 1e300, hi = 0;
  for (const series& s : ss)
    for (const auto& p : s.points) {
      lo = std::min(lo, p.first);
      hi = std::max(hi, p.first);
    }
  std::string xtics;
  for (double x = lo; x <= hi * 1.0001; x *= 4) {
    if (!xtics.empty()) xtics += ", ";
    xtics += fmt::format("\"{}\" {}", format_size(static_cast<std::size_t>(x)), x);
  }
  std::string plot = "plot ";
  for (std::size_t i = 0; i < ss.size(); ++i) {
    const std::string& l = ss[i].label;
    std::string style;
    if (l.rfind("memcpy", 0) == 0)
      style = "with lines lw 2 dt 3 lc rgb 'black'";
    else if (l.rfind("Open MPI", 0) == 0)
      style = "with linespoints lw 2 dt 2 pt 6 lc rgb '#d62728'";
    else
      style = fmt::format("with linespoints lw 2 pt 7 ps 0.8 lc {}", i + 1);
    plot += fmt::format("{}\"{}.dat\" index {} using 1:2 {} title {}", i ? ", \\\n     " : "",
                        base, i, style, quote_gp(l));
  }
  std::ofstream gp(dir / (base + ".gp"));
  gp << "# " << title << " (written by splitc-bench; run: gnuplot " << base << ".gp)\n"
     << "set datafile missing \"NaN\"\n"
     << "set title " << quote_gp(title) << "\n"
     << "set xlabel " << quote_gp(xlabel) << "\nset ylabel " << quote_gp(ylabel) << "\n"
     << "set logscale x 2\nset logscale y 10\n"
     << "set xtics (" << xtics << ")\n"
     << "set format y \"%.0s%c\"\n"
     << "set grid xtics ytics mytics lc rgb '#dddddd'\n"
     << "set key outside right top box\n"
     << terminals(base, plot);
  gp.close();
  ctx.written.push_back((dir / (base + ".gp")).string());
  return run_gnuplot(ctx, base);
}

bool bar_chart(context& ctx, const std::string& base, const std::string& title,
               const std::string& ylabel, const std::vector<std::string>& categories,
               const std::vector<std::pair<std::string, std::vector<double>>>& ss) {
  if (ss.empty() || categories.empty()) return false;
  const std::filesystem::path dir = ctx.cfg.out_dir;
  {
    std::ofstream dat(dir / (base + ".dat"));
    dat << "category";
    for (const auto& s : ss) dat << " " << quote_gp(s.first);
    dat << "\n";
    for (std::size_t c = 0; c < categories.size(); ++c) {
      dat << quote_gp(categories[c]);
      for (const auto& s : ss) {
        const double v = c < s.second.size() ? s.second[c] : NAN;
        dat << " " << (std::isfinite(v) && v > 0 ? fmt::format("{:.6g}", v) : std::string("NaN"));
      }
      dat << "\n";
    }
  }
  ctx.written.push_back((dir / (base + ".dat")).string());
  if (!ctx.have_gnuplot) return false;
  std::string plot = "plot ";
  for (std::size_t i = 0; i < ss.size(); ++i)
    plot += fmt::format("{}\"{}.dat\" using {}{} title {}", i ? ", \\\n     " : "", base, i + 2,
                        i == 0 ? ":xtic(1)" : "", quote_gp(ss[i].first));
  std::ofstream gp(dir / (base + ".gp"));
  gp << "# " << title << " (written by splitc-bench; run: gnuplot " << base << ".gp)\n"
     << "set datafile missing \"NaN\"\n"
     << "set title " << quote_gp(title) << "\n"
     << "set ylabel " << quote_gp(ylabel) << "\n"
     << "set style data histograms\nset style histogram clustered gap 1\n"
     << "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
     << "set logscale y 10\nset yrange [0.5:*]\n"
     << "set format y \"%.0s%c\"\n"
     << "set xtics rotate by -25 nomirror\n"
     << "set grid ytics mytics lc rgb '#dddddd'\n"
     << "set key outside right top box\n"
     << "set key autotitle columnheader\n"
     << terminals(base, plot);
  gp.close();
  ctx.written.push_back((dir / (base + ".gp")).string());
  return run_gnuplot(ctx, base);
}

}  // namespace bench
