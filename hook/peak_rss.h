// The process's own peak resident memory, for the hook's timing line
// (CAUSEGATE_LOG=debug), which bench/hook_bench.py and the scaling smoke
// test read. getrusage's ru_maxrss would also count the memory of the
// process that forked us before exec (a Python harness: ~17 MB), hiding
// ours; /proc/self/status VmHWM covers only this program's address space.
#pragma once

namespace causegate::hook {

// Peak RSS in MiB, or a negative value where /proc is not available.
double PeakRssMiB();

}  // namespace causegate::hook
