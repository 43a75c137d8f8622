// gpusizer command line: see `gpusizer help` and docs/scenario.md.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string stdin_text;
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--scenario" && args[i + 1] == "-")
            stdin_text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    gpusizer::cli::Io io;
    io.stdin_text = stdin_text;
    const int code = gpusizer::cli::run(args, io);
    std::fwrite(io.out.data(), 1, io.out.size(), stdout);
    std::fwrite(io.err.data(), 1, io.err.size(), stderr);
    return code;
}
