#pragma once
// The cryptography of the authenticated rendezvous (comm/rendezvous_auth): HMAC-SHA256, random
// bytes and a comparison in constant time, from OpenSSL's libcrypto (a well-kept library; nothing
// of it is written here). RFC 4231's test vectors check it (tests/unit/test_rendezvous_auth.cpp).
#include <cstddef>
#include <string>
#include <string_view>

namespace fb {

inline constexpr std::size_t kHmacBytes = 32;

// HMAC-SHA256 of `message` under `key`: 32 raw bytes.
std::string hmac_sha256(std::string_view key, std::string_view message);

// Whether `a` and `b` are equal, in a time that does not depend on where they differ.
bool same_secret_bytes(std::string_view a, std::string_view b);

// `n` bytes from the operating system's random source (OpenSSL's RAND_bytes). Throws
// Error(environment) when it has none.
std::string random_bytes(std::size_t n);

// Lower-case hex of raw bytes, and back (nullopt-like: empty for anything that is not even-length hex).
std::string to_hex(std::string_view bytes);
std::string from_hex(std::string_view hex);

}  // namespace fb
