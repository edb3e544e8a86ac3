// Random bytes from the kernel (getrandom), HMAC-SHA256 and SHA-256 over OpenSSL's libcrypto
// (see crypto.hpp).
#include "crypto/crypto.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

#include <sys/random.h>

#include <cerrno>
#include <cstring>

namespace mcp::detail {

std::string to_hex(std::string_view bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out.push_back(digits[c >> 4]);
        out.push_back(digits[c & 15]);
    }
    return out;
}

std::string random_bytes(std::size_t n) {
    // Straight from the kernel's CSPRNG (what OpenSSL's generator seeds from): a server that
    // draws its sealing key at start-up must not pay for initializing OpenSSL's DRBG and
    // providers, which costs milliseconds and megabytes of touched code in a static binary.
    std::string out(n, '\0');
    std::size_t off = 0;
    while (off < n) {
        const auto got = ::getrandom(out.data() + off, n - off, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error(std::string("the OS random generator failed: ") + std::strerror(errno));
        }
        off += static_cast<std::size_t>(got);
    }
    return out;
}

std::string random_hex_id() {
    return to_hex(random_bytes(16));
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
              reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &len))
        throw std::runtime_error("HMAC-SHA256 failed");
    return std::string(reinterpret_cast<const char*>(mac), len);
}

std::string sha256(std::string_view data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    return std::string(reinterpret_cast<const char*>(digest), len);
}

std::string sha256_hex(std::string_view data) {
    return to_hex(sha256(data));
}

} // namespace mcp::detail
