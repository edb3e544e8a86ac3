// http/client/transport_auth.cpp - OAuth in the HTTP client transport: a POST refused with 401
// (or 403 insufficient_scope) waits while the authorizer runs its flow on a thread of its own,
// then goes again, once per challenge, with the new Authorization value; POSTs refused while a
// flow runs wait for the same flow. A failed flow answers them with the synthesized -32010
// error, its reason in the message.
#include "transport_impl.hpp"


namespace mcp::http {

using namespace detail;

namespace {

// Each message is sent again at most this often: once after the login, and after each
// step-up the authorizer allows (it refuses beyond its own limit first).
constexpr std::size_t max_auth_retries = 4;

bool insufficient_scope(std::string_view www_authenticate) {
    return www_authenticate.find("insufficient_scope") != std::string_view::npos;
}

} // namespace

client_transport::impl::~impl() {
    // close() joins the flow's thread; when close() ran on the loop thread it could not, and
    // the thread may even hold the last reference to this impl (then it cannot join itself).
    if (auth_thread.joinable()) {
        if (auth_thread.get_id() == std::this_thread::get_id())
            auth_thread.detach();
        else
            auth_thread.join();
    }
}

core::header_list client_transport::impl::common_headers(std::string_view method) const {
    core::header_list h = opts.headers;
    if (!authorization.empty()) {
        h.emplace_back("Authorization", authorization);
        // A DPoP-bound token is presented with a fresh proof of the key on every request.
        if (auto proof = opts.authorizer->dpop_proof(method, opts.url, authorization); !proof.empty())
            h.emplace_back("DPoP", std::move(proof));
    }
    return h;
}

void client_transport::impl::note_dpop_nonce(const stream_ptr& st, std::optional<std::string_view> nonce) {
    st->dpop_nonce_offered = opts.authorizer && nonce;
    if (st->dpop_nonce_offered) opts.authorizer->note_dpop_nonce(opts.url, *nonce);
}

bool client_transport::impl::authorization_challenge(const stream_ptr& st) {
    if (!opts.authorizer || st->r != stream_state::role::post || st->legacy_post) return false;
    if (st->status != 401 && !(st->status == 403 && insufficient_scope(st->www_authenticate))) return false;
    if (st->msg.auth_retries >= max_auth_retries) return false;
    if (st->status == 401 && st->dpop_nonce_offered &&
        st->www_authenticate.find("use_dpop_nonce") != std::string::npos) {
        // RFC 9449 section 9: the server wants its nonce in the proof (noted in on_head).
        send_again(st);
        return true;
    }
    if (st->sent_authorization != authorization && !authorization.empty()) {
        // A flow ended while this request was on its way: the new token may do.
        send_again(st);
        return true;
    }
    held_for_auth.push_back(st);
    if (!auth_running) run_authorization(st);
    return true;
}

void client_transport::impl::run_authorization(const stream_ptr& st) {
    auth_running = true;
    if (auth_thread.joinable()) auth_thread.join(); // the last flow has posted its outcome
    auth_thread = std::thread([self = shared_from_this(), status = st->status, www = st->www_authenticate,
                               token = auth_cancel.token()] {
        std::string value;
        std::string why;
        try {
            value = self->opts.authorizer->handle_challenge(self->opts.url, status, www, token);
        } catch (const std::exception& e) {
            why = e.what();
        }
        self->loop->post([self, value = std::move(value), why = std::move(why)]() mutable {
            if (self->shutting_down) return;
            if (why.empty())
                self->authorized(std::move(value));
            else
                self->authorization_failed(why);
        });
    });
}

void client_transport::impl::authorized(std::string value) {
    auth_running = false;
    authorization = std::move(value);
    auto held = std::move(held_for_auth);
    held_for_auth.clear();
    for (auto& st : held) {
        if (shutting_down) return;
        send_again(st);
    }
}

void client_transport::impl::authorization_failed(const std::string& why) {
    auth_running = false;
    auto held = std::move(held_for_auth);
    held_for_auth.clear();
    for (auto& st : held) {
        if (shutting_down || st->finished) continue;
        http_failure f = failure_of(st, st->display);
        f.message += ": authorization failed: " + why;
        fail_awaiting(st, f);
        end_stream(st);
    }
    if (!shutting_down) flush_waiting();
}

void client_transport::impl::send_again(const stream_ptr& st) {
    if (st->finished) return;
    const bool probe = st->probe;
    outgoing msg = std::move(st->msg);
    ++msg.auth_retries;
    end_stream(st);
    if (probe) probe_in_flight = true; // end_stream gave the probe up; this one takes its place
    start_post(std::move(msg), probe);
}

void client_transport::impl::note_authorized_success(const stream_ptr& st) {
    if (opts.authorizer && !st->sent_authorization.empty()) opts.authorizer->note_success(opts.url);
}

} // namespace mcp::http
