#include "comm/hmac.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>

#include "core/error.hpp"

namespace fb {

std::string hmac_sha256(std::string_view key, std::string_view message) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int len = 0;
  const auto* done = HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
                          reinterpret_cast<const unsigned char*>(message.data()),  // NOLINT: OpenSSL's API
                          message.size(), out.data(), &len);
  if (done == nullptr || len != kHmacBytes)
    throw Error(ExitCode::environment, "OpenSSL's HMAC-SHA256 failed (libcrypto without SHA-256?)");
  return {reinterpret_cast<const char*>(out.data()), len};  // NOLINT: bytes as a string
}

bool same_secret_bytes(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string random_bytes(std::size_t n) {
  std::string out(n, '\0');
  if (n > 0 && RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1)  // NOLINT
    throw Error(ExitCode::environment, "no random bytes from the operating system (OpenSSL's RAND_bytes)");
  return out;
}

std::string to_hex(std::string_view bytes) {
  static constexpr std::string_view kDigits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    out += kDigits[u >> 4U];
    out += kDigits[u & 15U];
  }
  return out;
}

std::string from_hex(std::string_view hex) {
  const auto value = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0) return {};
  std::string out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = value(hex[i]);
    const int lo = value(hex[i + 1]);
    if (hi < 0 || lo < 0) return {};
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

}  // namespace fb
