// dropsim: drop-test simulation for choosing penalty-contact parameters and steps.
#include <iostream>
#include <new>

#include "apps/commands.hpp"
#include "dropsim/io/input_error.hpp"
#include "dropsim/io/io_error.hpp"

int main(int argc, char** argv) {
  using namespace dropsim::app;
  CLI::App app{"dropsim: penalty-contact drop tests, scaling laws and step limits"};
  app.require_subcommand(1);
  add_version_flag(app);
  Runner run;
  add_run_command(app, run);
  add_compare_command(app, run);
  add_scale_command(app, run);
  add_sweep_command(app, run);
  add_merge_command(app, run);
  add_integrators_command(app, run);
  add_steplimit_command(app, run);
  add_modes_command(app, run);
  add_osim_command(app, run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? exit_ok : exit_bad_input;
  }
  try {
    return run();
  } catch (const dropsim::io::InputError& e) {
    std::cerr << "dropsim: " << e.what() << "\n";
    return exit_bad_input;
  } catch (const dropsim::io::IoError& e) {
    std::cerr << "dropsim: " << e.what() << "\n";
    return exit_bad_input;
  } catch (const std::bad_alloc&) {
    // Like a full disk, the machine's limit rather than dropsim's fault; a writer names its file.
    std::cerr << "dropsim: out of memory\n";
    return exit_bad_input;
  } catch (const std::exception& e) {
    // Anything else is dropsim's own fault, not the input's: one sentence, its own status.
    std::cerr << "dropsim: internal error: " << e.what() << "\n";
    return exit_internal_error;
  }
}
