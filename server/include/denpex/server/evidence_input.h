#pragma once
// An evidence pack as one more input of a diagnosis (`diagnose --evidence DIR`, and `triage` for
// a job directory holding a pack): reading evidence.json, and feeding its kernel log.
#include <optional>
#include <string>

#include "denpex/logs/diagnoser.h"
#include "denpex/server/evidence.h"

namespace denpex::cli {

// DIR/evidence.json, parsed; nullopt with `error` set (a sentence for the user) when it cannot be.
std::optional<features::EvidencePack> read_evidence_pack(const std::string& dir, std::string& error);

// The pack's kernel log as one more input, named as a kernel log of its host (DIR/dmesg-HOST.log)
// so that its lines belong to that node: an Xid there joins the ranks' NCCL errors by bus id.
void feed_kernel_log(logs::Diagnoser& diagnoser, const features::EvidencePack& pack, const std::string& dir);

}  // namespace denpex::cli
