// What goes into an evidence pack from the environment, and what must not: a pack is meant to be
// attached to a ticket, so a secret that slips into it is leaked.
#include <array>
#include <cctype>
#include <cmath>

#include "denpex/server/evidence.h"

namespace denpex::features {
namespace {

constexpr std::string_view kRedacted = "<redacted>";

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool secret_name(std::string_view name) {
  const std::string u = upper(name);
  for (const char* word : {"TOKEN", "KEY", "SECRET", "PASSWORD", "PASS", "CREDENTIAL", "AUTH", "COOKIE", "SESSION"})
    if (u.find(word) != std::string::npos) return true;
  return false;
}

// Token formats of the services training code talks to: Hugging Face, GitHub, OpenAI-style,
// GitLab, Slack, AWS access keys, JWTs.
constexpr std::array<std::string_view, 11> kTokenPrefixes = {"hf_",  "ghp_",   "gho_",  "ghs_", "ghu_", "github_pat_",
                                                             "sk-",  "glpat-", "xoxb-", "AKIA", "eyJ"};

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool token_char(char c) { return word_char(c) || c == '+'; }
bool prefixed_token_char(char c) { return token_char(c) || c == '-' || c == '.'; }

double entropy_bits(std::string_view s) {
  std::array<int, 256> count{};
  for (unsigned char c : s) ++count[c];
  double h = 0;
  for (int n : count)
    if (n) {
      double p = static_cast<double>(n) / static_cast<double>(s.size());
      h -= p * std::log2(p);
    }
  return h;
}

// A long run of letters and digits, mixed, with little repetition: a key or a token. Paths,
// UUIDs (hyphenated) and words are split into short runs by their separators and stay.
bool high_entropy(std::string_view run) {
  if (run.size() < 32) return false;
  bool letter = false, digit = false;
  for (char c : run) {
    letter = letter || std::isalpha(static_cast<unsigned char>(c));
    digit = digit || std::isdigit(static_cast<unsigned char>(c));
  }
  return letter && digit && entropy_bits(run) >= 3.5;
}

}  // namespace

bool evidence_env_name(std::string_view name) {
  for (std::string_view prefix : {"NCCL_", "PYTORCH_", "CUDA_", "TORCH_", "TORCHELASTIC_", "SLURM_", "GLOO_", "NVIDIA_",
                                  "CUBLAS_", "CUDNN_"})
    if (name.starts_with(prefix)) return true;
  for (std::string_view exact : {"MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE",
                                 "GROUP_RANK", "NODE_RANK", "OMP_NUM_THREADS", "LD_LIBRARY_PATH", "LD_PRELOAD"})
    if (name == exact) return true;
  return false;
}

std::string redact_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    size_t end = i;
    if (i == 0 || !word_char(text[i - 1]))
      for (std::string_view p : kTokenPrefixes)
        if (text.substr(i).starts_with(p)) {
          end = i + p.size();
          while (end < text.size() && prefixed_token_char(text[end])) ++end;
          // "sk-" or "eyJ" followed by little is a word, not a token.
          if (end - i < p.size() + 16) end = i;
          break;
        }
    if (end == i && (i == 0 || !token_char(text[i - 1]))) {
      while (end < text.size() && token_char(text[end])) ++end;
      if (!high_entropy(text.substr(i, end - i))) end = i;
      while (end > i && end < text.size() && text[end] == '=') ++end;  // base64 padding
    }
    if (end > i) {
      out += kRedacted;
      i = end;
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string redact_env_value(std::string_view name, std::string_view value) {
  if (value.empty()) return "";
  if (secret_name(name)) return std::string(kRedacted);
  return redact_text(value);
}

}  // namespace denpex::features
