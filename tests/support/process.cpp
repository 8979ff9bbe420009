#include "process.h"

#include <boost/process.hpp>
#include <future>

namespace denpex::testing {
namespace bp = boost::process;

ProcessResult run_program(const std::string& program, const std::vector<std::string>& args,
                          const std::string& stdin_text, const std::map<std::string, std::string>& env) {
  boost::asio::io_context ios;
  std::future<std::string> out, err;
  bp::opstream in;
  auto environment = boost::this_process::environment();
  bp::environment child_env = environment;
  child_env.erase("NO_COLOR");
  for (const auto& [k, v] : env) child_env[k] = v;
  bp::child child(program, bp::args(args), bp::std_in < in, bp::std_out > out, bp::std_err > err, child_env, ios);
  // Write stdin on a thread so a child that never reads cannot block the test.
  std::thread writer([&] {
    in << stdin_text;
    in.flush();
    in.pipe().close();
  });
  ios.run();
  writer.join();
  child.wait();
  return {child.exit_code(), out.get(), err.get()};
}

ProcessResult run_denpex(const std::vector<std::string>& args, const std::string& stdin_text,
                         const std::map<std::string, std::string>& env) {
  return run_program(DENPEX_BINARY, args, stdin_text, env);
}

}  // namespace denpex::testing
