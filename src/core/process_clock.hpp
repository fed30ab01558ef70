#pragma once
// Milliseconds since this process started (its first static initialiser), on the steady clock.
// Start-up phases are stamped with it so that `run --verbose` can say where the time went.
namespace fb {

double ms_since_process_start();

}  // namespace fb
