#include "hook/peak_rss.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace causegate::hook {

double PeakRssMiB() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  double kib = -1;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, "VmHWM:", 6) == 0) {
      kib = static_cast<double>(std::strtoll(line + 6, nullptr, 10));
      break;
    }
  }
  std::fclose(f);
  return kib < 0 ? -1 : kib / 1024;
}

}  // namespace causegate::hook
