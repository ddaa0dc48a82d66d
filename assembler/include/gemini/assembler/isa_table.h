#pragma once
// THE instruction table of the Gemini core ISA (docs/isa.md): every opcode
// and every field of it, written once, here. Everything that knows a field's
// name, type, offset or range is generated from these lists (as LLVM
// generates its MC layer from one description):
//   * isa.h: the Opcode enumeration;
//   * isa_table.cpp: the Field / OpInfo tables the encoder, decoder, printer,
//     text parser, binder and verifier walk;
//   * instr_views.h: one typed struct per opcode (PeConfig, DmaIn, ...) with
//     encode(view) -> Instr and decode<View>(Instr) at these offsets.
//
// GEMINI_ISA_OPS(OP) calls OP(mnemonic, opcode, engine, View, FIELDS) once per
// opcode, in this order. `engine` is the queue it runs on (kCount: the queue
// is chosen per instruction: waits, signal, view); `View` names its typed
// struct; FIELDS(F, FLAG, USE, REMOTE) lists its fields and the rules of its
// memory operands:
//   F(name, type, offset, min, max [, role, access, memory [, optional]])
//     type: a FieldType (the C++ type of the view member follows from it);
//     offset: bytes into the 64-byte instruction (the header is bytes 0-7);
//     [min, max]: the range a value must lie in (a box: every coordinate);
//     role / access / memory: a tensor slot (isa.h, Field);
//     optional: left out of the text when 0.
//   FLAG(name): the name of flag bit 0 (at most one per opcode).
//   USE(slot, field, lo, hi): memory operand `slot` is accessed only while
//     field `field` lies in [lo, hi] (vp_run's in1 with two inputs).
//   REMOTE(slot, bytes): memory operand `slot` is another core's L2, and
//     moves field `bytes` bytes (noc_send's dst).
// A memory operand's byte count is otherwise the field of its role without
// access that is not a box. The verifier reads the operands so (isa.h,
// OperandRule); a rule naming a field the opcode lacks aborts at start-up.
// The enumerations of enum-typed fields follow, each value once with its
// text spelling (its name); a field's range is its enumeration's.
// The macros expand to tokens only where they are used, inside namespace
// gemini::assembler (the limits below are isa.h's).
//
// Adding a field: one F line here (and docs/isa.md); the tables, the view's
// member, its encoding and decoding and the round-trip test follow. Adding
// an enumeration value: one E entry below.

// clang-format off
#define GEMINI_ISA_OPS(OP)                                                      \
  OP(nop,        0x00, ctrl,    Nop,       GEMINI_ISA_NO_FIELDS)                \
  OP(end,        0x01, ctrl,    End,       GEMINI_ISA_NO_FIELDS)                \
  /* block the queue until engine `on` has retired `count` instructions */      \
  OP(wait_local, 0x02, kCount,  WaitLocal, GEMINI_ISA_WAIT_LOCAL)               \
  /* block the queue until token (kind, transfer, from) has arrived */          \
  OP(wait_token, 0x03, kCount,  WaitToken, GEMINI_ISA_WAIT_TOKEN)               \
  /* after the queue's earlier instructions retire, send a token */             \
  OP(signal,     0x04, kCount,  Signal,    GEMINI_ISA_SIGNAL)                   \
  /* operand layouts of the queue's next data instruction */                    \
  OP(view,       0x05, kCount,  ViewInstr, GEMINI_ISA_VIEW)                     \
  OP(dma_in,     0x10, dma_in,  DmaIn,     GEMINI_ISA_DMA_IN)   /* DRAM -> L2 */ \
  OP(dma_out,    0x11, dma_out, DmaOut,    GEMINI_ISA_DMA_OUT)  /* L2 -> DRAM */ \
  /* L2 -> another core's L2 (delivers a data token) */                         \
  OP(noc_send,   0x12, noc,     NocSend,   GEMINI_ISA_NOC_SEND)                 \
  OP(wl0_load,   0x13, wl0,     Wl0Load,   GEMINI_ISA_WL0_LOAD) /* L2 or DRAM -> WL0 */ \
  /* PE tiling registers for the following pe_run */                            \
  OP(pe_cfg,     0x20, pe,      PeConfig,  GEMINI_ISA_PE_CFG)                   \
  /* convolution / matrix product over L2 and WL0 */                            \
  OP(pe_run,     0x21, pe,      PeRun,     GEMINI_ISA_PE_RUN)                   \
  OP(vp_run,     0x30, vp,      VpRun,     GEMINI_ISA_VP_RUN)   /* vector operation over L2 */ \
  /* vector-processor window / requantisation registers for the next vp_run */  \
  OP(vp_cfg,     0x31, vp,      VpConfig,  GEMINI_ISA_VP_CFG)

#define GEMINI_ISA_NO_FIELDS(F, FLAG, USE, REMOTE)
// For expansions that take the fields but not the operand rules.
#define GEMINI_ISA_NO_RULE(...)

#define GEMINI_ISA_WAIT_LOCAL(F, FLAG, USE, REMOTE)                             \
  F(on,          engine,     8,  0, kEngines - 1)                               \
  F(count,       u32,       12,  1, kMaxU32)

#define GEMINI_ISA_WAIT_TOKEN(F, FLAG, USE, REMOTE)                             \
  F(kind,        token_kind, 8,  0, kTokenKinds - 1)                            \
  F(transfer,    u32,       12,  0, kMaxU32)                                    \
  F(from,        u16,       16,  0, kMaxU16)                                    \
  /* wait until this many such tokens arrived */                                \
  F(count,       u32,       20,  1, kMaxU32)

#define GEMINI_ISA_SIGNAL(F, FLAG, USE, REMOTE)                                 \
  F(kind,        token_kind, 8,  0, kTokenKinds - 1)                            \
  F(transfer,    u32,       12,  0, kMaxU32)                                    \
  F(to,          u16,       16,  0, kMaxU16)                                    \
  /* a credit grants the receiver's L2 range the sender will write */           \
  F(grant,       u32,       20,  0, kMaxU32, Role::grant, Access::write, Memory::l2) \
  F(grant_bytes, u32,       24,  0, kMaxU32, Role::grant)

// The layouts of the operands of the queue's next data instruction that the
// instruction itself does not carry, and the channel shift from its source
// frame to its destination frame (docs/isa.md, "Data layout").
#define GEMINI_ISA_VIEW(F, FLAG, USE, REMOTE)                                   \
  F(shift,       i32,        8,  kMinI32, kMaxI32)                              \
  F(box0,        box,       12,  0, kMaxU16)                                    \
  F(box1,        box,       28,  0, kMaxU16)

// members / part: DRAM multicast (docs/isa.md): one of `members` cores'
// dma_in of group `part` of the transfer; 0 for a read of its own.
#define GEMINI_ISA_DMA_IN(F, FLAG, USE, REMOTE)                                 \
  F(l2,          u32,        8,  0, kMaxU32, Role::dst, Access::write, Memory::l2) \
  F(bytes,       u32,       12,  1, kMaxU32, Role::dst)                         \
  F(dram,        u64,       16,  0, kMaxDramAddress, Role::src, Access::read, Memory::dram) \
  F(transfer,    u32,       24,  0, kMaxU32)                                    \
  F(dst_box,     box,       28,  0, kMaxU16, Role::dst)                         \
  F(src_box,     box,       44,  0, kMaxU16, Role::src)                         \
  F(members,     u16,       60,  0, kMaxU16, Role::none, Access::none, Memory::none, true) \
  F(part,        u16,       62,  0, kMaxU16, Role::none, Access::none, Memory::none, true)

#define GEMINI_ISA_DMA_OUT(F, FLAG, USE, REMOTE)                                \
  F(l2,          u32,        8,  0, kMaxU32, Role::src, Access::read, Memory::l2) \
  F(bytes,       u32,       12,  1, kMaxU32, Role::src)                         \
  F(dram,        u64,       16,  0, kMaxDramAddress, Role::dst, Access::write, Memory::dram) \
  F(transfer,    u32,       24,  0, kMaxU32)                                    \
  F(src_box,     box,       28,  0, kMaxU16, Role::src)

// members / part: NoC multicast (docs/isa.md): one of the `members`
// consecutive noc_sends of one source range, sent once along the XY tree; 0
// for a send of its own.
#define GEMINI_ISA_NOC_SEND(F, FLAG, USE, REMOTE)                               \
  F(src,         u32,        8,  0, kMaxU32, Role::src, Access::read, Memory::l2) \
  F(dst,         u32,       12,  0, kMaxU32, Role::dst, Access::write, Memory::l2) \
  F(bytes,       u32,       16,  1, kMaxU32, Role::src)                         \
  F(to,          u16,       20,  0, kMaxU16)                                    \
  F(transfer,    u32,       24,  0, kMaxU32)                                    \
  F(src_box,     box,       28,  0, kMaxU16, Role::src)                         \
  F(dst_box,     box,       44,  0, kMaxU16, Role::dst)                         \
  F(members,     u16,       60,  0, kMaxU16, Role::none, Access::none, Memory::none, true) \
  F(part,        u16,       62,  0, kMaxU16, Role::none, Access::none, Memory::none, true) \
  REMOTE(dst, bytes)

#define GEMINI_ISA_WL0_LOAD(F, FLAG, USE, REMOTE)                               \
  F(source,      wl0_src,    8,  0, kWl0Srcs - 1)                               \
  F(wl0,         u32,       12,  0, kMaxU32, Role::wl0, Access::write, Memory::wl0) \
  F(bytes,       u32,       16,  1, kMaxU32, Role::wl0)                         \
  F(l2,          u32,       20,  0, kMaxU32, Role::src, Access::read, Memory::l2) \
  F(dram,        u64,       24,  0, kMaxDramAddress)                            \
  F(transfer,    u32,       32,  0, kMaxU32)                                    \
  /* l2 is read only from L2 */                                                 \
  USE(l2, source, static_cast<std::int64_t>(Wl0Src::l2), static_cast<std::int64_t>(Wl0Src::l2))

// gk .. chain: the layer's geometry for the computation itself (docs/isa.md):
// output / input channels per group, the input's rows and columns (outside
// is padding), the requantisation shift and how many pe_runs accumulate
// before it.
#define GEMINI_ISA_PE_CFG(F, FLAG, USE, REMOTE)                                 \
  FLAG(per_sample)                                                              \
  F(loop,        loop_order, 8,  0, 23)                                         \
  F(cut,         cut_mode,   9,  0, kCutModes - 1)                              \
  F(ci_cut,      u16,       10,  1, kMaxU16)                                    \
  F(mtc0,        u16,       12,  1, kMaxU16)                                    \
  F(mtk0,        u16,       14,  1, kMaxU16)                                    \
  F(om_n,        u16,       16,  1, kMaxU16)                                    \
  F(om_k,        u16,       18,  1, kMaxU16)                                    \
  F(om_h,        u16,       20,  1, kMaxU16)                                    \
  F(om_w,        u16,       22,  1, kMaxU16)                                    \
  F(am_n,        u16,       24,  1, kMaxU16)                                    \
  F(am_c,        u16,       26,  1, kMaxU16)                                    \
  F(am_h,        u16,       28,  1, kMaxU16)                                    \
  F(am_w,        u16,       30,  1, kMaxU16)                                    \
  F(pad_t,       u8,        32,  0, kMaxU8)                                     \
  F(pad_b,       u8,        33,  0, kMaxU8)                                     \
  F(pad_l,       u8,        34,  0, kMaxU8)                                     \
  F(pad_r,       u8,        35,  0, kMaxU8)                                     \
  F(r,           u8,        36,  1, kMaxU8)                                     \
  F(s,           u8,        37,  1, kMaxU8)                                     \
  F(stride_h,    u8,        38,  1, kMaxU8)                                     \
  F(stride_w,    u8,        39,  1, kMaxU8)                                     \
  F(wl0,         u16,       40,  0, kMaxU16)                                    \
  F(gk,          u16,       42,  1, kMaxU16)                                    \
  F(gc,          u16,       44,  1, kMaxU16)                                    \
  F(in_h,        u16,       46,  1, kMaxU16)                                    \
  F(in_w,        u16,       48,  1, kMaxU16)                                    \
  F(shift,       u8,        50,  0, 31)                                         \
  F(chain,       u8,        51,  1, kMaxU8)

#define GEMINI_ISA_PE_RUN(F, FLAG, USE, REMOTE)                                 \
  FLAG(acc)                                                                     \
  F(ifmap,        u32,       8,  0, kMaxU32, Role::ifmap, Access::read, Memory::l2) \
  F(ifmap_bytes,  u32,      12,  1, kMaxU32, Role::ifmap)                       \
  F(weight,       u32,      16,  0, kMaxU32, Role::weight, Access::read, Memory::l2) \
  F(weight_bytes, u32,      20,  0, kMaxU32, Role::weight)                      \
  F(ofmap,        u32,      24,  0, kMaxU32, Role::ofmap, Access::write, Memory::l2) \
  F(ofmap_bytes,  u32,      28,  1, kMaxU32, Role::ofmap)                       \
  F(ifmap_box,    box,      32,  0, kMaxU16, Role::ifmap)                       \
  F(ofmap_box,    box,      48,  0, kMaxU16, Role::ofmap)

#define GEMINI_ISA_VP_RUN(F, FLAG, USE, REMOTE)                                 \
  F(op,          vp_op,      8,  0, kVpOps - 1)                                 \
  F(inputs,      u8,         9,  1, 2)                                          \
  F(window,      u8,        10,  1, kMaxU8)                                     \
  F(stride,      u8,        11,  1, kMaxU8)                                     \
  F(in0,         u32,       12,  0, kMaxU32, Role::src, Access::read, Memory::l2) \
  F(in1,         u32,       16,  0, kMaxU32, Role::src, Access::read, Memory::l2) \
  F(out,         u32,       20,  0, kMaxU32, Role::dst, Access::write, Memory::l2) \
  F(in_bytes,    u32,       24,  1, kMaxU32, Role::src)                         \
  F(out_bytes,   u32,       28,  1, kMaxU32, Role::dst)                         \
  F(in_box,      box,       32,  0, kMaxU16, Role::src)                         \
  F(out_box,     box,       48,  0, kMaxU16, Role::dst)                         \
  USE(in1, inputs, 2, 2)

// perm: transpose: input dimension i becomes output dimension
// (perm >> 2i) & 3 (instr_views.h: pack_permutation / unpack_permutation).
#define GEMINI_ISA_VP_CFG(F, FLAG, USE, REMOTE)                                 \
  F(r,           u8,         8,  1, kMaxU8)                                     \
  F(s,           u8,         9,  1, kMaxU8)                                     \
  F(stride_h,    u8,        10,  1, kMaxU8)                                     \
  F(stride_w,    u8,        11,  1, kMaxU8)                                     \
  F(pad_t,       u8,        12,  0, kMaxU8)                                     \
  F(pad_l,       u8,        13,  0, kMaxU8)                                     \
  F(in_h,        u16,       14,  1, kMaxU16)                                    \
  F(in_w,        u16,       16,  1, kMaxU16)                                    \
  F(shift,       u8,        18,  0, 31)                                         \
  F(perm,        u8,        19,  0, kMaxU8)

// The enumerations: E(name [, ...]) once per value, in encoding order; the
// name is the value's enumerator and its text spelling.
#define GEMINI_ISA_ENGINES(E) E(dma_in) E(dma_out) E(noc) E(wl0) E(pe) E(vp) E(ctrl)
#define GEMINI_ISA_TOKEN_KINDS(E) E(data) E(credit) E(dram)
// E(name, layer_op): each VP operation and the layer operation it computes
// (ir::LayerOp, op_table.h): the lowering selects it, the functional unit
// builds its tile operation (model::tile_op_for) from it.
#define GEMINI_ISA_VP_OPS(E)                                                    \
  E(pool_max, pool_max) E(pool_avg, pool_avg) E(add, eltwise) E(transpose, transpose) E(copy, copy)
// E(name, tile): each cut mode and the IR's tile_info cut_mode that selects
// it (any other string: none).
#define GEMINI_ISA_CUT_MODES(E) E(none, "") E(k, "K") E(h, "H") E(kh, "KH")
#define GEMINI_ISA_WL0_SRCS(E) E(l2) E(dram)
// clang-format on
