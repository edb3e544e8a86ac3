// Sorting a batch before it runs (see batch_triage.hpp).
#include "http/batch_triage.hpp"

#include <mcp/jsonrpc/message.hpp>

#include <set>

namespace mcp::http::detail {

batch_triage triage_batch(json::array&& elements) {
    batch_triage out;
    std::set<jsonrpc::request_id> ids;
    auto refuse = [&](const std::optional<jsonrpc::request_id>& id, const mcp::error& e) {
        std::string reply;
        jsonrpc::serialize_error(reply, id, e, jsonrpc::unknown_id_style::null);
        out.replies.push_back(std::move(reply));
    };
    for (auto& element : elements) {
        std::optional<jsonrpc::request_id> id;
        if (auto problem = jsonrpc::check(element, &id)) {
            refuse(id, *problem);
            continue;
        }
        const auto& o = element.get_object();
        const bool request = o.contains("method") && id;
        if (request && find_string(o, "method") == "initialize") {
            refuse(id, mcp::error(error_code::invalid_request,
                                  "Invalid Request: initialize must not be part of a batch"));
            continue;
        }
        if (request && !ids.insert(*id).second) {
            refuse(id, mcp::error(error_code::invalid_request,
                                  "Invalid Request: id " + jsonrpc::id_to_string(*id) +
                                      " is used by an earlier request of this batch"));
            continue;
        }
        if (request) ++out.requests;
        out.kept.push_back(std::move(element));
    }
    return out;
}

} // namespace mcp::http::detail
