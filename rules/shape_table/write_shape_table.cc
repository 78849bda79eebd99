// Build step: compiles the sentence-shape model's weights file into the
// table of rules/shape_table.h (sorted FeatureHash, weight), read with the
// same reader as every weights file (rules/weights_file.h).
//
//   write_shape_table OUT.cc WEIGHTS.tsv
//
// Exits 1 with "file: what" on stderr when the file does not read or two
// of its names hash alike.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "rules/feature_hash.h"
#include "rules/shape_table.h"
#include "rules/weights_file.h"

int main(int argc, char** argv) {
  using causegate::rules::HashedWeight;
  if (argc != 3) {
    std::cerr << "usage: write_shape_table OUT.cc WEIGHTS.tsv\n";
    return 2;
  }
  const std::string file = argv[2];
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cerr << file << ": cannot read\n";
    return 1;
  }
  causegate::rules::WeightsFile weights;
  std::string error;
  if (!causegate::rules::ReadWeightsFile(text.str(), file, &weights, &error)) {
    std::cerr << error << "\n";
    return 1;
  }
  std::vector<HashedWeight> rows;
  std::vector<std::string> names;
  rows.reserve(weights.weights.size());
  for (const auto& [name, weight] : weights.weights) rows.push_back({causegate::rules::FeatureHash(name), weight});
  std::vector<std::size_t> order(rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rows[a].hash < rows[b].hash; });
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (rows[order[k]].hash == rows[order[k - 1]].hash) {
      std::cerr << file << ": \"" << weights.weights[order[k]].first << "\" and \"" << weights.weights[order[k - 1]].first
                << "\" hash alike\n";
      return 1;
    }
  }
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  const std::string base = file.substr(file.find_last_of('/') + 1);  // npos + 1 == 0: the whole name
  out << "// Written by rules/shape_table/write_shape_table from " << base << ". Do not edit.\n"
      << "#include \"rules/shape_table.h\"\n\nnamespace causegate::rules::shape_table {\n\n";
  char line[96];
  std::snprintf(line, sizeof line, "extern const double kBias = %.17g;\n", weights.bias);
  out << line;
  std::snprintf(line, sizeof line, "extern const double kThreshold = %.17g;\n", weights.threshold);
  out << line << "extern const std::size_t kWeightCount = " << rows.size() << ";\n"
      << "extern const HashedWeight kWeights[] = {\n";
  for (const std::size_t i : order) {
    std::snprintf(line, sizeof line, "    {0x%016llxULL, %.17g},\n", static_cast<unsigned long long>(rows[i].hash),
                  rows[i].weight);
    out << line;
  }
  // An empty model still needs one element for a valid array.
  if (rows.empty()) out << "    {0, 0},\n";
  out << "};\n\n}  // namespace causegate::rules::shape_table\n";
  if (!out) {
    std::cerr << argv[1] << ": cannot write\n";
    return 1;
  }
  return 0;
}
