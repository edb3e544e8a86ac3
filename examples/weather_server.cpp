// weather_server: the README's quick start, kept compiling here. A typed tool over stdio.
#include <mcp/server/server.hpp>

enum class units { celsius, fahrenheit };
MCP_DESCRIBE_ENUM(units, celsius, fahrenheit)

struct forecast_args {
    std::string city;
    int days = 3;
    std::optional<units> unit;
};
MCP_DESCRIBE(forecast_args, (city, "City name"), (days, "Days ahead", mcp::field::range(1, 7)),
             (unit, "Units"))

struct forecast {
    std::string summary;
    double temp_c;
};
MCP_DESCRIBE(forecast, (summary, "One line"), (temp_c, "Temperature in C"))

int main() {
    mcp::server server({.info = {.name = "weather", .version = "1.0.0"}});
    server.add_tool({.name = "forecast", .description = "Forecast for a city"},
                    [](const forecast_args& a, mcp::context& ctx) -> forecast {
                        ctx.progress(1, 2, "looking up");    // if the caller asked for progress
                        return {"Sunny in " + a.city, 21.5}; // structuredContent + a text copy
                    });
    return mcp::serve_stdio(server); // until stdin closes
}
