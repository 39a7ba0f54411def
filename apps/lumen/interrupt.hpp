#pragma once
// Ctrl-C and SIGTERM remove the temporary files being written (lumen::temp_files) and then end the process by
// the same signal, so the shell still reports 130 (SIGINT) or 143 (SIGTERM). Commands that catch the signals
// themselves (train, serve) install their own handlers over this one while they run.

namespace lumen::cli {

void install_interrupt_cleanup();

}  // namespace lumen::cli
