#pragma once
// Writing a model in the full dialect of gemini-ir-format.md. Keys come out
// sorted as the scheduler writes them; core ids, bytes and flat transfer id
// lists whatever dialect the model was read from. Public-dialect facts the
// full dialect has no key for are kept in documented extension keys
// (docs/ir-model.md) so that load -> write -> load gives an equal model.

#include <ostream>
#include <string>

#include "gemini/ir/model.h"

namespace gemini::ir {

void write_full(const Model& m, std::ostream& os);
// The full dialect as the scheduler's IR generator writes it: buffer
// entries do not name the workload they are held for (the public dialect's
// buffer-entry workload_id, which write_full otherwise keeps; readers of
// the full dialect find the reader from the entry's transfers and layer).
void drop_entry_workload_ids(Model& m);
// Writes `path`, gzip-compressed when it ends in ".gz". Returns false and
// sets `error` on failure.
bool write_full_file(const Model& m, const std::string& path, std::string& error);

}  // namespace gemini::ir
