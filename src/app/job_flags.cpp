#include "app/job_flags.hpp"

#include <cstdint>
#include <string>

namespace fb {

void add_job_flags(CLI::App& app) {
  const char* grp = "Job (Kubernetes, MPI without the plugin)";
  app.add_option_function<std::string>(
         "--rendezvous", [](const std::string&) {},
         "HOST:PORT where rank 0 listens and the other ranks connect, where no launcher variable says it: "
         "an Indexed Job's first pod (JOB-0.SERVICE:PORT), or mpirun's ranks meeting over TCP without "
         "the MPI plugin (docs/launch.md)")
      ->group(grp);
  app.add_option_function<int>(
         "--nnodes", [](int) {}, "How many pods (nodes) an Indexed Job has: its completions")
      ->check(CLI::Range(1, 1 << 20))
      ->group(grp);
  app.add_option_function<int>(
         "--nproc-per-node", [](int) {},
         "Ranks (GPUs) per pod where the launcher starts one process per pod (an Indexed Job, a "
         "PyTorchJob without torchrun): fabricbench starts them itself (default: PET_NPROC_PER_NODE, else 1)")
      ->check(CLI::Range(1, 256))
      ->group(grp);
  app.add_flag_function(
         "--insecure-rendezvous", [](std::int64_t) {},
         "Let a job across hosts meet without FABRICBENCH_JOB_SECRET: anyone who reaches rank 0's port may "
         "then join as a rank (docs/security.md)")
      ->group(grp);
}

}  // namespace fb
