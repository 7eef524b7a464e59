// gamelib's driver around the C++ reference belief (smsxgz/fugitive, cpp/fugitive/belief.cc).
//
// Reads JSON lines {"id", "information_state"} (benchmarks/fugitive_reference.py --inputs),
// builds the reference's input once per line (BuildMarshalBeliefInput), times
// ComputeMarshalCompletion REPEATS times (argv[1], default 3) in process CPU time
// (CLOCK_PROCESS_CPUTIME_ID) and prints one JSON line {"id", "mass", "ms"} with the best time;
// mass is the deal-weighted mass printed as an integer. A position the reference rejects prints
// {"id", "error"}. JSON parsing is outside the timing.
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include "open_spiel/games/fugitive/belief.h"
#include "nlohmann/json.hpp"

namespace {

double CpuMs() {
  timespec now;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 3;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    const nlohmann::json row = nlohmann::json::parse(line);
    const std::string id = row.at("id").get<std::string>();
    try {
      const auto input = open_spiel::fugitive::BuildMarshalBeliefInput(
          row.at("information_state").dump());
      double best = -1.0;
      long double mass = 0.0L;
      for (int i = 0; i < repeats; ++i) {
        const double start = CpuMs();
        const auto result = open_spiel::fugitive::ComputeMarshalCompletion(input);
        const double ms = CpuMs() - start;
        mass = result.uniform_consistent_history_mass;
        if (best < 0 || ms < best) best = ms;
      }
      std::printf("{\"id\":%s,\"mass\":%.0Lf,\"ms\":%.6f}\n",
                  nlohmann::json(id).dump().c_str(), mass, best);
    } catch (const std::exception& error) {
      std::printf("{\"id\":%s,\"error\":%s}\n", nlohmann::json(id).dump().c_str(),
                  nlohmann::json(std::string(error.what())).dump().c_str());
    }
    std::fflush(stdout);
  }
  return 0;
}
