// A machine model of the user's own, read from a file (SPLITC_SIM_MACHINE=
// <path>; docs/sim-machines.md, "A machine of your own"): JSON with comments,
// LogGP costs by message kind and size, optional collective hardware. Every
// mistake ends the job with the file, the place in it and the cause.
#include <splitc/sim_engine/machine_model.hpp>

#include <splitc/port/fail.hpp>

#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace splitc::backends::sim {
namespace {

using json = nlohmann::json;

constexpr std::string_view loggp_fields[] = {"send_overhead_ns", "receive_overhead_ns",
                                             "latency_ns", "gap_ns", "ns_per_byte"};

class model_reader {
 public:
  explicit model_reader(std::string path) : path_(std::move(path)) {}

  machine_model read() {
    const json top = parse();
    if (!top.is_object()) wrong("the file", "is not a JSON object");
    known_keys(top, "the file",
               {"id", "description", "sources", "cpu_mhz", "poll_ns", "packet_bytes", "messages",
                "active", "packet", "put", "get", "collective_hardware"});
    machine_model m;
    m.id = top.contains("id") ? text(top["id"], "\"id\"") : path_;
    m.description = top.contains("description") ? text(top["description"], "\"description\"")
                                                 : "a machine model file";
    if (top.contains("sources") && !top["sources"].is_array() && !top["sources"].is_string())
      wrong("\"sources\"", "is not a string or a list of strings");
    m.cpu_mhz = positive(required(top, "cpu_mhz", "the file"), "\"cpu_mhz\"");
    m.poll_ns = positive(required(top, "poll_ns", "the file"), "\"poll_ns\"");
    if (top.contains("packet_bytes")) {
      m.packet_bytes = bytes(top["packet_bytes"], "\"packet_bytes\"");
      if (m.packet_bytes == 0) wrong("\"packet_bytes\"", "is 0");
    }
    std::vector<size_class> common;
    if (top.contains("messages")) common = classes(top["messages"], "\"messages\"");
    for (std::size_t k = 0; k < message_kinds; ++k) {
      const std::string key(message_kind_names[k]);
      if (top.contains(key))
        m.classes[k] = classes(top[key], "\"" + key + "\"");
      else if (!common.empty())
        m.classes[k] = common;
      else
        wrong("the file", fmt::format("gives no costs for {} messages: give \"messages\" (every "
                                      "kind) or \"{}\"",
                                      key, key));
    }
    if (top.contains("collective_hardware")) collectives(top["collective_hardware"], m);
    return m;
  }

 private:
  [[noreturn]] void wrong(const std::string& where, const std::string& cause) const {
    port::fail("SPLITC_SIM_MACHINE={}: {} {}", path_, where, cause);
  }

  json parse() const {
    std::ifstream in(path_);
    if (!in) port::fail("SPLITC_SIM_MACHINE={}: cannot read the machine model file: {}", path_,
                        std::strerror(errno));
    std::stringstream text;
    text << in.rdbuf();
    try {
      return json::parse(text.str(), nullptr, true, /*ignore_comments=*/true);
    } catch (const json::parse_error& e) {
      port::fail("SPLITC_SIM_MACHINE={}: not a JSON machine model: {}", path_, e.what());
    }
  }

  void known_keys(const json& object, const std::string& where,
                  const std::vector<std::string>& keys) const {
    for (const auto& [key, value] : object.items())
      if (std::find(keys.begin(), keys.end(), key) == keys.end())
        wrong(where, fmt::format("has an unknown key \"{}\" (known: {})", key, fmt::join(keys, ", ")));
  }

  const json& required(const json& object, const char* key, const std::string& where) const {
    if (!object.contains(key)) wrong(where, fmt::format("lacks \"{}\"", key));
    return object[key];
  }

  std::string text(const json& v, const std::string& where) const {
    if (!v.is_string()) wrong(where, "is not a string");
    return v.get<std::string>();
  }

  double number(const json& v, const std::string& where) const {
    if (!v.is_number()) wrong(where, fmt::format("is {}, not a number", v.dump()));
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < 0) wrong(where, fmt::format("is {}: a cost is a finite number ≥ 0", d));
    return d;
  }

  double positive(const json& v, const std::string& where) const {
    const double d = number(v, where);
    if (d <= 0) wrong(where, "is 0: it must be positive");
    return d;
  }

  std::size_t bytes(const json& v, const std::string& where) const {
    if (!v.is_number_unsigned()) wrong(where, fmt::format("is {}, not a byte count", v.dump()));
    return v.get<std::size_t>();
  }

  /// A list of size classes; a class after the first may leave out a cost,
  /// which it then shares with the class before it.
  std::vector<size_class> classes(const json& list, const std::string& where) const {
    if (!list.is_array() || list.empty()) wrong(where, "is not a non-empty list of size classes");
    std::vector<size_class> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const json& c = list[i];
      const std::string here = fmt::format("{}[{}]", where, i);
      if (!c.is_object()) wrong(here, "is not an object");
      std::vector<std::string> keys{"from_bytes"};
      keys.insert(keys.end(), std::begin(loggp_fields), std::end(loggp_fields));
      known_keys(c, here, keys);
      size_class s{};
      s.from_bytes = bytes(required(c, "from_bytes", here), here + ".from_bytes");
      if (i == 0 && s.from_bytes != 0) wrong(here, "must start at \"from_bytes\": 0");
      if (i > 0 && s.from_bytes <= out.back().from_bytes)
        wrong(here, fmt::format("starts at {} bytes, not after the class before it ({})",
                                s.from_bytes, out.back().from_bytes));
      // A later class starts from the costs of the one before it.
      if (i > 0) s.costs = out.back().costs;
      double* fields[] = {&s.costs.send_overhead_ns, &s.costs.receive_overhead_ns,
                          &s.costs.latency_ns, &s.costs.gap_ns, &s.costs.ns_per_byte};
      for (std::size_t f = 0; f < std::size(loggp_fields); ++f) {
        const std::string key(loggp_fields[f]);
        if (c.contains(key))
          *fields[f] = number(c[key], here + "." + key);
        else if (i == 0)
          wrong(here, fmt::format("lacks \"{}\" (the first class gives every cost)", key));
      }
      out.push_back(s);
    }
    return out;
  }

  void collectives(const json& hw, machine_model& m) const {
    const std::string where = "\"collective_hardware\"";
    if (!hw.is_object()) wrong(where, "is not an object");
    std::vector<std::string> keys;
    for (std::string_view op : collective_operations) keys.push_back(fmt::format("{}_ns", op));
    known_keys(hw, where, keys);
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (hw.contains(keys[i])) m.collective_ns[i] = number(hw[keys[i]], where + "." + keys[i]);
  }

  std::string path_;
};

}  // namespace

machine_model read_machine_model_file(const std::string& path) { return model_reader(path).read(); }

}  // namespace splitc::backends::sim
