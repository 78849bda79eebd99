#include "batch/run.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <numeric>
#include <system_error>
#include <thread>

#include "batch/progress.h"
#include "batch/work_queue.h"

namespace causegate::batch {

int ThreadCount(int jobs) {
  const int n = jobs > 0 ? jobs : static_cast<int>(std::thread::hardware_concurrency());
  return std::max(n, 1);
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
  const int threads = ThreadCount(options.jobs);
  CheckOptions check = options.check;
  // Enough turns read ahead that no thread waits for a reader, few enough
  // that memory stays a few turns a thread: 2 per thread in all, shared by
  // the files read at once (at least 2 each).
  const auto n = static_cast<std::size_t>(threads);
  const std::size_t readers = std::max<std::size_t>(1, std::min(n, files.size()));
  check.turns_in_flight = n > 1 ? std::max<std::size_t>(2, 2 * n / readers) : 1;
  if (options.spill && !files.empty() && !SpillFile::Open(&check.spill).ok()) check.spill = nullptr;
  WorkQueue queue;
  std::vector<FileCheck> checked(files.size());
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> unfinished{files.size()};
  if (files.empty()) queue.Close();
  // Each thread reads the next file (judging its own and other files'
  // turns while it waits); with no file left it judges until all are done.
  auto work = [&] {
    for (std::size_t k = next++; k < order.size(); k = next++) {
      const std::size_t i = order[k];
      checked[i] = CheckFile(files[i], rules, check, &queue);
      if (progress) progress->FileDone(static_cast<std::int64_t>(sizes[i]), checked[i].file.turns);
      if (--unfinished == 0) queue.Close();
    }
    queue.Serve();
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (progress) progress->Stop();

  // Each file's turns moved into one list, each file's own freed as it
  // goes: a large check holds its records once, not twice.
  CheckResults results;
  for (FileCheck& c : checked) {
    results.files.push_back(std::move(c.file));
    results.turns.Splice(std::move(c.turns));
  }
  Normalize(&results);
  return results;
}

}  // namespace causegate::batch
