// Plots of splitc-bench: gnuplot (Debian gnuplot-nox) driven from generated
// scripts, each written as PNG (pngcairo) and SVG into the output directory,
// next to its data (.dat) and script (.gp), so a plot can be redrawn by hand.
#pragma once

#include "harness.hpp"

#include <string>
#include <utility>
#include <vector>

namespace bench {

struct series {
  std::string label;
  std::vector<std::pair<double, double>> points;  ///< (x, y)
};

/// Whether `gnuplot` runs here (and has the pngcairo and svg terminals).
bool gnuplot_works(const std::string& gnuplot);

/// Lines against a log-2 x axis (sizes) and a log y axis.
bool line_plot(context& ctx, const std::string& base, const std::string& title,
               const std::string& xlabel, const std::string& ylabel,
               const std::vector<series>& ss);

/// Clustered bars: one cluster per category, one bar per series (NaN: no
/// bar); log y axis.
bool bar_chart(context& ctx, const std::string& base, const std::string& title,
               const std::string& ylabel, const std::vector<std::string>& categories,
               const std::vector<std::pair<std::string, std::vector<double>>>& ss);

}  // namespace bench
