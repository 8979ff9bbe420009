#include "denpex/logs/evidence.h"

#include <cstdio>

#include "denpex/core/size.h"

namespace denpex::logs {
namespace {

std::optional<double> number(const Captures& c, const char* name) {
  auto it = c.find(name);
  if (it == c.end()) return std::nullopt;
  return core::parse_quantity(it->second);
}

std::string get(const Captures& c, const char* name) {
  auto it = c.find(name);
  return it == c.end() ? std::string() : it->second;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void oom(const Captures& c, std::vector<std::string>& out) {
  auto tried = number(c, "tried");
  if (!tried) return;
  auto capacity = number(c, "capacity"), free = number(c, "free"), allocated = number(c, "allocated"),
       reserved = number(c, "reserved"), unallocated = number(c, "unallocated");
  std::string s = "Tried to allocate " + core::format_bytes(*tried);
  if (free && capacity) s += " with " + core::format_bytes(*free) + " free of " + core::format_bytes(*capacity);
  s += ".";
  out.push_back(s);
  if (allocated) {
    std::string a = "PyTorch had " + core::format_bytes(*allocated) + " allocated";
    if (reserved) a += " and " + core::format_bytes(*reserved) + " reserved";
    out.push_back(a + ".");
  }
  if (!unallocated && reserved && allocated && *reserved >= *allocated) unallocated = *reserved - *allocated;
  if (unallocated) {
    std::string u = core::format_bytes(*unallocated) + " was reserved by PyTorch but unallocated";
    if (*unallocated >= *tried) {
      u += ": more than the failed request, so the cache is fragmented. Fragmentation is the likely cause; "
           "try PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True before shrinking the batch.";
    } else {
      u += ": less than the failed request, so fragmentation is not the cause; the working set does not fit.";
    }
    out.push_back(u);
  }
  if (capacity && allocated && *capacity > 0 && *allocated / *capacity > 0.9)
    out.push_back("Allocations filled " + fixed(100.0 * *allocated / *capacity, 0) + "% of the GPU: the model, "
                  "activations and optimizer state at this batch size exceed its memory.");
}

void nccl_timeout(const Captures& c, std::vector<std::string>& out) {
  auto timeout = number(c, "timeout_ms");
  std::string op = get(c, "op"), seq = get(c, "seq");
  if (!timeout && seq.empty()) return;
  std::string s = "Collective";
  if (!op.empty()) s += " " + op;
  if (!seq.empty()) s += " (SeqNum " + seq + ")";
  if (timeout) s += " timed out after " + fixed(*timeout / 1000.0, 0) + " s";
  s += ".";
  out.push_back(s);
  auto enq = number(c, "last_enqueued"), done = number(c, "last_completed");
  if (enq && done)
    out.push_back("Last enqueued work " + fixed(*enq, 0) + ", last completed " + fixed(*done, 0) + ".");
}

}  // namespace

std::vector<std::string> findings_from_captures(const Captures& captures) {
  std::vector<std::string> out;
  oom(captures, out);
  nccl_timeout(captures, out);
  if (auto xid = get(captures, "xid"); !xid.empty()) {
    std::string s = "NVIDIA Xid " + xid;
    if (auto pci = get(captures, "pci"); !pci.empty()) s += " on the GPU at PCI " + pci;
    out.push_back(s + ".");
  }
  if (auto sig = get(captures, "signal"); !sig.empty()) out.push_back("Killed by signal: " + sig + ".");
  return out;
}

}  // namespace denpex::logs
