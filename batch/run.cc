#include "batch/run.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <numeric>
#include <system_error>
#include <thread>

#include "batch/progress.h"

namespace causegate::batch {

int WorkerCount(int jobs, std::size_t files) {
  int n = jobs > 0 ? jobs : static_cast<int>(std::thread::hardware_concurrency());
  n = std::max(n, 1);
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(n), std::max<std::size_t>(files, 1)));
}

CheckResults CheckFiles(const std::vector<std::string>& files, const rules::RuleSet& rules,
                        const RunOptions& options) {
  std::vector<std::uintmax_t> sizes(files.size(), 0);
  std::uintmax_t total = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(files[i], ec);
    sizes[i] = ec ? 0 : size;
    total += sizes[i];
  }
  std::vector<std::size_t> order(files.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&sizes](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });

  std::unique_ptr<ProgressLine> progress;
  if (options.progress) {
    progress = std::make_unique<ProgressLine>(stderr, static_cast<int>(files.size()), static_cast<std::int64_t>(total));
  }
  std::vector<FileCheck> checked(files.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k = next++; k < order.size(); k = next++) {
      const std::size_t i = order[k];
      checked[i] = CheckFile(files[i], rules, options.check);
      if (progress) progress->FileDone(static_cast<std::int64_t>(sizes[i]), checked[i].file.turns);
    }
  };
  const int workers = WorkerCount(options.jobs, files.size());
  std::vector<std::thread> threads;
  for (int t = 1; t < workers; ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  if (progress) progress->Stop();

  CheckResults results;
  for (FileCheck& c : checked) {
    results.files.push_back(std::move(c.file));
    for (TurnRecord& turn : c.turns) results.turns.push_back(std::move(turn));
  }
  Normalize(&results);
  return results;
}

}  // namespace causegate::batch
