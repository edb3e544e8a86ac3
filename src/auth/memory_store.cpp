// mcp::auth::memory_store: the credential_store of one process.
#include <mcp/auth/client_store.hpp>

namespace mcp::auth {

namespace {

template <class Map, class Key>
auto load(std::mutex& mu, const Map& m, const Key& k) -> std::optional<typename Map::mapped_type> {
    std::lock_guard lock(mu);
    if (auto it = m.find(k); it != m.end()) return it->second;
    return std::nullopt;
}

template <class Map, class Key, class Value>
void save(std::mutex& mu, Map& m, const Key& k, const Value& v) {
    std::lock_guard lock(mu);
    m.insert_or_assign(k, v);
}

template <class Map, class Key>
void erase(std::mutex& mu, Map& m, const Key& k) {
    std::lock_guard lock(mu);
    m.erase(k);
}

} // namespace

std::optional<token_set> memory_store::load_tokens(const store_key& key) { return load(mutex_, tokens_, key); }
void memory_store::save_tokens(const store_key& key, const token_set& t) { save(mutex_, tokens_, key, t); }
void memory_store::erase_tokens(const store_key& key) { erase(mutex_, tokens_, key); }

std::optional<client_registration> memory_store::load_client(const store_key& key) {
    return load(mutex_, clients_, key);
}
void memory_store::save_client(const store_key& key, const client_registration& c) { save(mutex_, clients_, key, c); }
void memory_store::erase_client(const store_key& key) { erase(mutex_, clients_, key); }

std::optional<pending_authorization> memory_store::load_pending(const store_key& key) {
    return load(mutex_, pending_, key);
}
void memory_store::save_pending(const store_key& key, const pending_authorization& p) {
    save(mutex_, pending_, key, p);
}
void memory_store::erase_pending(const store_key& key) { erase(mutex_, pending_, key); }

std::optional<discovery_state> memory_store::load_discovery(const std::string& server) {
    return load(mutex_, discovery_, server);
}
void memory_store::save_discovery(const std::string& server, const discovery_state& d) {
    save(mutex_, discovery_, server, d);
}
void memory_store::erase_discovery(const std::string& server) { erase(mutex_, discovery_, server); }

} // namespace mcp::auth
