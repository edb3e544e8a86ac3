#include "timeout_option.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>

namespace mcpxx_cli {

CLI::Option* add_timeout_option(CLI::App* command, double& seconds, const std::string& help) {
    const CLI::Validator seconds_above_zero(
        [](std::string& text) -> std::string {
            double v = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            const bool number = ec == std::errc() && end == text.data() + text.size() && std::isfinite(v);
            if (number && v > 0 && v <= max_timeout_seconds) return {};
            return "must be a number of seconds above 0 and at most 86400, not \"" + text + "\"";
        },
        "", "seconds above zero");
    return command->add_option("--timeout", seconds, help)->type_name("SECONDS")->check(seconds_above_zero);
}

} // namespace mcpxx_cli
