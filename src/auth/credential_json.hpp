// auth/credential_json.hpp - the JSON form of what a credential_store keeps (tokens, a client
// registration, a pending authorization, discovery results), for stores that write files.
// Times are seconds since the Unix epoch. Reading throws std::invalid_argument naming the
// member that is missing or of the wrong kind, never quoting a value.
#pragma once

#include <mcp/auth/client_store.hpp>

#include <boost/json/object.hpp>

namespace mcp::auth::detail {

boost::json::object to_json_object(const token_set& t);
boost::json::object to_json_object(const client_registration& c);
boost::json::object to_json_object(const pending_authorization& p);
boost::json::object to_json_object(const discovery_state& d);

token_set tokens_from_json(const boost::json::object& o);
client_registration client_from_json(const boost::json::object& o);
pending_authorization pending_from_json(const boost::json::object& o);
discovery_state discovery_from_json(const boost::json::object& o);

} // namespace mcp::auth::detail
