// replay_main.cpp - runs a libFuzzer harness over saved inputs without libFuzzer, so that every
// build (g++ too, Release and the sanitizer stage) replays the corpora as ordinary tests:
// an input that once crashed a harness and was saved into fuzz/corpus/<harness>/ is run forever.
//
//   <harness>_replay PATH...   every regular file of each directory PATH (sorted, recursively),
//                              or PATH itself when it is a file, given to LLVMFuzzerTestOneInput
//
// A harness reports a broken property by aborting (std::abort, __builtin_trap) and the
// sanitizers abort on what they find, so a bad input ends the process here with a signal; the
// name of the input is printed before it runs, so the log says which one. Exit 0 when every
// input ran, 1 when no input was found (a corpus that vanished must not pass unnoticed), 2 when
// a path cannot be read.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Optional in a harness, as in libFuzzer: called once before the first input.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace fs = std::filesystem;

namespace {

bool read_all(const fs::path& p, std::vector<std::uint8_t>& out) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);

    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        const fs::path root(argv[i]);
        std::error_code ec;
        if (fs::is_directory(root, ec)) {
            for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
                if (it->is_regular_file(ec)) inputs.push_back(it->path());
        } else if (fs::is_regular_file(root, ec)) {
            inputs.push_back(root);
        } else {
            ec = ec ? ec : std::make_error_code(std::errc::no_such_file_or_directory);
        }
        if (ec) {
            std::fprintf(stderr, "replay: cannot read %s: %s\n", root.c_str(), ec.message().c_str());
            return 2;
        }
    }
    if (inputs.empty()) {
        std::fprintf(stderr, "replay: no inputs found in the paths given\n");
        return 1;
    }
    // Sorted: the same order on every machine, so a failure is reproduced by the same run.
    std::sort(inputs.begin(), inputs.end());

    std::vector<std::uint8_t> bytes;
    for (const auto& p : inputs) {
        if (!read_all(p, bytes)) {
            std::fprintf(stderr, "replay: cannot read %s\n", p.c_str());
            return 2;
        }
        // Named before it runs: if it crashes, this is the last line of the log.
        std::fprintf(stderr, "replay: %s (%zu bytes)\n", p.c_str(), bytes.size());
        std::fflush(stderr);
        // A copy of exactly `size` bytes on the heap, as libFuzzer gives it, so that ASan sees a
        // read past the end.
        std::vector<std::uint8_t> input(bytes);
        LLVMFuzzerTestOneInput(input.empty() ? nullptr : input.data(), input.size());
    }
    std::printf("replay: %zu inputs ran without a failure\n", inputs.size());
    return 0;
}
