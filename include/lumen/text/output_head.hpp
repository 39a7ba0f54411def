#pragma once
// An untied model's output head W, found beside its input table E as a user names the table: what comparing a
// model's two heads opens (`lumen compare --heads`, the explorer's "head" table, Python's lumen.compare(heads=True)).
#include <string>

#include "lumen/io/open.hpp"
#include "lumen/text/load_table.hpp"

namespace lumen::text {

// The request that opens the output head of the table `table` names, with the table's options (its tensor aside):
// `head` when given (a file of any format); for a safetensors checkpoint, the same file's output head tensor
// (lm_head.weight, embed_out.weight, output.weight: the same token labels, so rows pair by token id); else
// TABLE.out beside the table, as training an untied next-token model writes it. InputError when there is none.
TableRequest output_head_request(const TableRequest& table, const std::string& head = "");

// Opens that request (load_table). A head read from the checkpoint's own file names its tensor in its source
// ("model.safetensors [lm_head.weight]"): the two tables' sources then differ.
LoadedTable load_output_head(const TableRequest& table, const std::string& head, io::LoadReport& report);

}  // namespace lumen::text
