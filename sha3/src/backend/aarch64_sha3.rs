//! Keccak-p\[1600, n_r\] with the ARMv8.2 SHA3 extension (FIPS 202 §3.3),
//! the `ArmSha3` backend: two Keccak states at once, one per 64-bit half
//! of each 128-bit NEON register.
//!
//! The extension's four instructions are a Keccak round's building blocks:
//!
//! * `EOR3` (a ⊕ b ⊕ c): θ's column parities C\[x\] in two per column
//!   (§3.2.1);
//! * `RAX1` (a ⊕ (b ⋘ 1)): D\[x\] = C\[x-1\] ⊕ (C\[x+1\] ⋘ 1), one each;
//! * `XAR` ((a ⊕ b) ⋙ k): θ's XOR with D and ρ's rotation (§3.2.2) of one
//!   lane in one instruction (plain `EOR` for lane (0, 0), whose offset is
//!   0); π (§3.2.3) is only the choice of source lanes;
//! * `BCAX` (a ⊕ (b ∧ ¬c)): χ (§3.2.4), one per lane.
//!
//! With ι (§3.2.5) a round is 10 + 5 + 25 + 25 + 1 = 66 vector instructions,
//! plus one `LD1R` of the round constant. Lane (x, y) of the state lives in
//! register v(x + 5y) for the whole permutation (and across all blocks of
//! an [`absorb`] or [`absorb2`] call: one load and one store of the state
//! per call), v25..v31 hold C, D and the B lanes that cannot go elsewhere,
//! and every round ends with each lane back in its own register, so the
//! rounds need no `MOV` and nothing is spilled. Two rounds per loop
//! iteration: 2 × 67 + 2 = 136 instructions, 1632 for the 24 rounds of
//! Keccak-f\[1600\]; the 12 rounds of TurboSHAKE and KangarooTwelve are
//! unrolled by LLVM, 804. Counted in the objdump disassembly of the
//! release build (rustc 1.96): [`permute`] is 1676 instructions per call
//! for 24 rounds and 847 for 12 (state load and store and the saving of
//! v8..v15 included), OpenSSL's `KeccakF1600_ce` 1660 for 24 (69 per
//! round; 1702 with its `KeccakF1600_cext` wrapper; it has no 12-round
//! entry). A SHA3-256 block (136 bytes) takes 1663 instructions in
//! [`absorb`], OpenSSL's `SHA3_absorb_cext` 1724; a TurboSHAKE128 block
//! (168 bytes, 12 rounds) 840. [`absorb2`] takes 1707 per pair of SHA3-256
//! blocks.
//!
//! The round is inline assembly because LLVM does not allocate it without
//! copies: written with the `core::arch::aarch64` intrinsics (`veor3q_u64`,
//! `vrax1q_u64`, `vxarq_u64`, `vbcaxq_u64`), the same round costs 78 to 80
//! instructions in a one-round loop (7 or 8 `MOV`s: the 25 loop-carried
//! lanes do not come back to their registers), 71 to 75 per round in
//! loops of two to six rounds (spills), and 72 fully unrolled. The
//! schedule below is this file's own: the order of the `XAR`s and their
//! destination registers were found by a search over χ's constraints (each
//! `BCAX` writes its lane's home register, which by then must hold no B
//! lane still to be read) and checked by simulating the round against
//! FIPS 202 before it was written down; the unit test below checks it
//! against the spec permutation. Loading and storing the state and XORing
//! the message blocks in (§4 Algorithm 8 step 6) use the intrinsics.
//!
//! Single messages ([`permute`], [`absorb`]) run with their state in the
//! low halves; the `digest_many` engine ([`absorb2`]) fills both.

use core::arch::aarch64::{
    uint64x2_t, vcombine_u64, vcreate_u64, veorq_u64, vgetq_lane_u64, vld1q_u8, vreinterpretq_u64_u8, vzip1q_u64,
    vzip2q_u64,
};

use crate::consts::RC;

/// One round (FIPS 202 §3.3: ι ∘ χ ∘ π ∘ ρ ∘ θ) as `asm!` lines, lane
/// (x, y) in v(x + 5y) before and after; `{rc}` points at the round
/// constant and is stepped to the next one. The comments name the lanes of
/// §3.2 (A\[x,y\] the state, C and D θ's, B the lanes after ρ and π); the
/// `XAR` immediate is the right rotation 64 - ρ (Table 2).
macro_rules! round {
    () => {
        concat!(
            // θ (§3.2.1): C[x] into v25..v29, then D[x] into v30, v31 and
            // the registers of C lanes no longer needed.
            "eor3 v25.16b, v20.16b, v15.16b, v10.16b\n", // C[0] = A[0,4] ⊕ A[0,3] ⊕ A[0,2]
            "eor3 v26.16b, v21.16b, v16.16b, v11.16b\n", // C[1] = A[1,4] ⊕ A[1,3] ⊕ A[1,2]
            "eor3 v27.16b, v22.16b, v17.16b, v12.16b\n", // C[2] = A[2,4] ⊕ A[2,3] ⊕ A[2,2]
            "eor3 v28.16b, v23.16b, v18.16b, v13.16b\n", // C[3] = A[3,4] ⊕ A[3,3] ⊕ A[3,2]
            "eor3 v29.16b, v24.16b, v19.16b, v14.16b\n", // C[4] = A[4,4] ⊕ A[4,3] ⊕ A[4,2]
            "eor3 v25.16b, v25.16b, v5.16b, v0.16b\n",   // C[0] ⊕= A[0,1] ⊕ A[0,0]
            "eor3 v26.16b, v26.16b, v6.16b, v1.16b\n",   // C[1] ⊕= A[1,1] ⊕ A[1,0]
            "eor3 v27.16b, v27.16b, v7.16b, v2.16b\n",   // C[2] ⊕= A[2,1] ⊕ A[2,0]
            "eor3 v28.16b, v28.16b, v8.16b, v3.16b\n",   // C[3] ⊕= A[3,1] ⊕ A[3,0]
            "eor3 v29.16b, v29.16b, v9.16b, v4.16b\n",   // C[4] ⊕= A[4,1] ⊕ A[4,0]
            "rax1 v30.2d, v25.2d, v27.2d\n",             // D[1] = C[0] ⊕ (C[2] ⋘ 1)
            "rax1 v31.2d, v27.2d, v29.2d\n",             // D[3] = C[2] ⊕ (C[4] ⋘ 1)
            "rax1 v27.2d, v29.2d, v26.2d\n",             // D[0] = C[4] ⊕ (C[1] ⋘ 1)
            "rax1 v29.2d, v26.2d, v28.2d\n",             // D[2] = C[1] ⊕ (C[3] ⋘ 1)
            "rax1 v26.2d, v28.2d, v25.2d\n",             // D[4] = C[3] ⊕ (C[0] ⋘ 1)
            // θ's XOR with D[x], ρ (§3.2.2) and π (§3.2.3): B[x,y] =
            // (A[(x + 3y) mod 5, x] ⊕ D) ⋘ ρ into the register of a lane
            // already read (its own source's where χ allows it).
            "xar v13.2d, v13.2d, v31.2d, #39\n", // B[2,2] = (A[3,2] ⊕ D[3]) ⋘ 25
            "xar v6.2d, v6.2d, v30.2d, #20\n",   // B[1,0] = (A[1,1] ⊕ D[1]) ⋘ 44
            "xar v9.2d, v9.2d, v26.2d, #44\n",   // B[1,1] = (A[4,1] ⊕ D[4]) ⋘ 20
            "xar v25.2d, v21.2d, v30.2d, #62\n", // B[4,4] = (A[1,4] ⊕ D[1]) ⋘ 2
            "xar v21.2d, v17.2d, v29.2d, #49\n", // B[3,3] = (A[2,3] ⊕ D[2]) ⋘ 15
            "xar v17.2d, v11.2d, v30.2d, #54\n", // B[2,3] = (A[1,2] ⊕ D[1]) ⋘ 10
            "xar v11.2d, v22.2d, v29.2d, #3\n",  // B[4,1] = (A[2,4] ⊕ D[2]) ⋘ 61
            "xar v22.2d, v23.2d, v31.2d, #8\n",  // B[4,3] = (A[3,4] ⊕ D[3]) ⋘ 56
            "xar v28.2d, v14.2d, v26.2d, #25\n", // B[2,4] = (A[4,2] ⊕ D[4]) ⋘ 39
            "xar v14.2d, v7.2d, v29.2d, #58\n",  // B[1,2] = (A[2,1] ⊕ D[2]) ⋘ 6
            "xar v7.2d, v10.2d, v27.2d, #61\n",  // B[2,1] = (A[0,2] ⊕ D[0]) ⋘ 3
            "xar v10.2d, v3.2d, v31.2d, #36\n",  // B[0,1] = (A[3,0] ⊕ D[3]) ⋘ 28
            "xar v3.2d, v18.2d, v31.2d, #43\n",  // B[3,0] = (A[3,3] ⊕ D[3]) ⋘ 21
            "xar v18.2d, v20.2d, v27.2d, #46\n", // B[4,2] = (A[0,4] ⊕ D[0]) ⋘ 18
            "xar v20.2d, v5.2d, v27.2d, #28\n",  // B[1,3] = (A[0,1] ⊕ D[0]) ⋘ 36
            "xar v5.2d, v24.2d, v26.2d, #50\n",  // B[4,0] = (A[4,4] ⊕ D[4]) ⋘ 14
            "xar v24.2d, v8.2d, v31.2d, #9\n",   // B[1,4] = (A[3,1] ⊕ D[3]) ⋘ 55
            "xar v8.2d, v16.2d, v30.2d, #19\n",  // B[3,1] = (A[1,3] ⊕ D[1]) ⋘ 45
            "xar v16.2d, v19.2d, v26.2d, #56\n", // B[3,2] = (A[4,3] ⊕ D[4]) ⋘ 8
            "xar v31.2d, v2.2d, v29.2d, #2\n",   // B[0,4] = (A[2,0] ⊕ D[2]) ⋘ 62
            "xar v2.2d, v12.2d, v29.2d, #21\n",  // B[2,0] = (A[2,2] ⊕ D[2]) ⋘ 43
            "xar v29.2d, v15.2d, v27.2d, #23\n", // B[3,4] = (A[0,3] ⊕ D[0]) ⋘ 41
            "xar v15.2d, v1.2d, v30.2d, #63\n",  // B[0,2] = (A[1,0] ⊕ D[1]) ⋘ 1
            "xar v30.2d, v4.2d, v26.2d, #37\n",  // B[0,3] = (A[4,0] ⊕ D[4]) ⋘ 27
            "eor v4.16b, v0.16b, v27.16b\n",     // B[0,0] = A[0,0] ⊕ D[0]
            // ι's constant (§3.2.5), into D[0]'s register, free from here.
            "ld1r {{v27.2d}}, [{rc}], #8\n", // RC[i], the pointer stepped to the next round
            // χ (§3.2.4) plane by plane, each lane into its own register.
            "bcax v0.16b, v4.16b, v2.16b, v6.16b\n", // A[0,0] = B[0,0] ⊕ (B[2,0] ∧ ¬B[1,0])
            "bcax v1.16b, v6.16b, v3.16b, v2.16b\n", // A[1,0] = B[1,0] ⊕ (B[3,0] ∧ ¬B[2,0])
            "bcax v2.16b, v2.16b, v5.16b, v3.16b\n", // A[2,0] = B[2,0] ⊕ (B[4,0] ∧ ¬B[3,0])
            "bcax v3.16b, v3.16b, v4.16b, v5.16b\n", // A[3,0] = B[3,0] ⊕ (B[0,0] ∧ ¬B[4,0])
            "bcax v4.16b, v5.16b, v6.16b, v4.16b\n", // A[4,0] = B[4,0] ⊕ (B[1,0] ∧ ¬B[0,0])
            "bcax v5.16b, v10.16b, v7.16b, v9.16b\n", // A[0,1] = B[0,1] ⊕ (B[2,1] ∧ ¬B[1,1])
            "bcax v6.16b, v9.16b, v8.16b, v7.16b\n", // A[1,1] = B[1,1] ⊕ (B[3,1] ∧ ¬B[2,1])
            "bcax v7.16b, v7.16b, v11.16b, v8.16b\n", // A[2,1] = B[2,1] ⊕ (B[4,1] ∧ ¬B[3,1])
            "bcax v8.16b, v8.16b, v10.16b, v11.16b\n", // A[3,1] = B[3,1] ⊕ (B[0,1] ∧ ¬B[4,1])
            "bcax v9.16b, v11.16b, v9.16b, v10.16b\n", // A[4,1] = B[4,1] ⊕ (B[1,1] ∧ ¬B[0,1])
            "bcax v10.16b, v15.16b, v13.16b, v14.16b\n", // A[0,2] = B[0,2] ⊕ (B[2,2] ∧ ¬B[1,2])
            "bcax v11.16b, v14.16b, v16.16b, v13.16b\n", // A[1,2] = B[1,2] ⊕ (B[3,2] ∧ ¬B[2,2])
            "bcax v12.16b, v13.16b, v18.16b, v16.16b\n", // A[2,2] = B[2,2] ⊕ (B[4,2] ∧ ¬B[3,2])
            "bcax v13.16b, v16.16b, v15.16b, v18.16b\n", // A[3,2] = B[3,2] ⊕ (B[0,2] ∧ ¬B[4,2])
            "bcax v14.16b, v18.16b, v14.16b, v15.16b\n", // A[4,2] = B[4,2] ⊕ (B[1,2] ∧ ¬B[0,2])
            "bcax v15.16b, v30.16b, v17.16b, v20.16b\n", // A[0,3] = B[0,3] ⊕ (B[2,3] ∧ ¬B[1,3])
            "bcax v16.16b, v20.16b, v21.16b, v17.16b\n", // A[1,3] = B[1,3] ⊕ (B[3,3] ∧ ¬B[2,3])
            "bcax v17.16b, v17.16b, v22.16b, v21.16b\n", // A[2,3] = B[2,3] ⊕ (B[4,3] ∧ ¬B[3,3])
            "bcax v18.16b, v21.16b, v30.16b, v22.16b\n", // A[3,3] = B[3,3] ⊕ (B[0,3] ∧ ¬B[4,3])
            "bcax v19.16b, v22.16b, v20.16b, v30.16b\n", // A[4,3] = B[4,3] ⊕ (B[1,3] ∧ ¬B[0,3])
            "bcax v20.16b, v31.16b, v28.16b, v24.16b\n", // A[0,4] = B[0,4] ⊕ (B[2,4] ∧ ¬B[1,4])
            "bcax v21.16b, v24.16b, v29.16b, v28.16b\n", // A[1,4] = B[1,4] ⊕ (B[3,4] ∧ ¬B[2,4])
            "bcax v22.16b, v28.16b, v25.16b, v29.16b\n", // A[2,4] = B[2,4] ⊕ (B[4,4] ∧ ¬B[3,4])
            "bcax v23.16b, v29.16b, v31.16b, v25.16b\n", // A[3,4] = B[3,4] ⊕ (B[0,4] ∧ ¬B[4,4])
            "bcax v24.16b, v25.16b, v24.16b, v31.16b\n", // A[4,4] = B[4,4] ⊕ (B[1,4] ∧ ¬B[0,4])
            // ι (§3.2.5).
            "eor v0.16b, v0.16b, v27.16b\n", // A[0,0] ⊕= RC[i]
        )
    };
}

/// Run the `asm!` `$template` (whole rounds) on the 25 lanes `$a` in
/// v0..v24, with v25..v31 as scratch and `$rc` the round-constant pointer.
macro_rules! asm_rounds {
    ($a:ident, $rc:ident, $template:expr) => {
        core::arch::asm!(
            $template,
            rc = inout(reg) $rc,
            inout("v0") $a[0], inout("v1") $a[1], inout("v2") $a[2], inout("v3") $a[3], inout("v4") $a[4],
            inout("v5") $a[5], inout("v6") $a[6], inout("v7") $a[7], inout("v8") $a[8], inout("v9") $a[9],
            inout("v10") $a[10], inout("v11") $a[11], inout("v12") $a[12], inout("v13") $a[13], inout("v14") $a[14],
            inout("v15") $a[15], inout("v16") $a[16], inout("v17") $a[17], inout("v18") $a[18], inout("v19") $a[19],
            inout("v20") $a[20], inout("v21") $a[21], inout("v22") $a[22], inout("v23") $a[23], inout("v24") $a[24],
            out("v25") _, out("v26") _, out("v27") _, out("v28") _, out("v29") _, out("v30") _, out("v31") _,
            options(nostack, readonly, preserves_flags),
        )
    };
}

/// Keccak-p\[1600, `ROUNDS`\] on both halves: the last `ROUNDS` of
/// Keccak-f's rounds (FIPS 202 §3.3: Keccak-p\[1600, n_r\] runs rounds
/// 24 - n_r .. 23, with round constants `RC[24 - n_r..]`), two rounds per
/// loop iteration (one more first when `ROUNDS` is odd).
#[target_feature(enable = "sha3")]
#[inline]
fn keccak_p2<const ROUNDS: usize>(a: &mut [uint64x2_t; 25]) {
    const { assert!(ROUNDS <= 24, "Keccak-p[1600] has at most 24 rounds") };
    let mut rc = RC[24 - ROUNDS..].as_ptr();
    if ROUNDS % 2 == 1 {
        // SAFETY: the assembly reads 8 bytes at `rc`, RC[24 - ROUNDS], and
        // steps `rc` past them; it writes only the registers it declares
        // (v0..v24 in and out, v25..v31 clobbered) and no memory, stack or
        // flags. Its EOR3, RAX1, XAR and BCAX are the SHA3 extension, which
        // this function's `target_feature` makes its callers guarantee.
        unsafe { asm_rounds!(a, rc, round!()) };
    }
    for _ in 0..ROUNDS / 2 {
        // SAFETY: as above, 16 bytes at `rc`: the ROUNDS / 2 iterations
        // (after the odd round) read the rest of RC[24 - ROUNDS..], 8 bytes
        // per round, and no further.
        unsafe { asm_rounds!(a, rc, concat!(round!(), round!())) };
    }
}

/// Two lanes in one register: `lo` in the low half, `hi` in the high half.
#[target_feature(enable = "sha3")]
#[inline]
fn pair(lo: u64, hi: u64) -> uint64x2_t {
    vcombine_u64(vcreate_u64(lo), vcreate_u64(hi))
}

/// Little-endian 64-bit word `j` of `block` (FIPS 202 §B.1).
#[inline(always)]
fn word(block: &[u8], j: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&block[8 * j..8 * j + 8]);
    u64::from_le_bytes(w)
}

/// Two little-endian 64-bit words (FIPS 202 §B.1) in one 16-byte load
/// (two scalar loads on big-endian aarch64, where the lanes of a byte
/// vector would come out byte-reversed).
#[target_feature(enable = "sha3")]
#[inline]
fn load2(bytes: &[u8]) -> uint64x2_t {
    let bytes: &[u8; 16] = bytes.try_into().expect("16 bytes");
    if cfg!(target_endian = "big") {
        return pair(word(bytes, 0), word(bytes, 1));
    }
    // SAFETY: `bytes` is 16 readable bytes; `vld1q_u8` reads them
    // unaligned, and NEON is part of the `sha3` target feature this
    // function is compiled with. On little-endian aarch64 (checked above)
    // the two lanes are the words in the byte order of §B.1.
    vreinterpretq_u64_u8(unsafe { vld1q_u8(bytes.as_ptr()) })
}

/// One state into the low halves of 25 registers.
#[target_feature(enable = "sha3")]
#[inline]
fn load1(state: &[u64; 25]) -> [uint64x2_t; 25] {
    core::array::from_fn(|i| pair(state[i], 0))
}

/// The low halves of `a` back into one state.
#[target_feature(enable = "sha3")]
#[inline]
fn store1(state: &mut [u64; 25], a: &[uint64x2_t; 25]) {
    for (lane, v) in state.iter_mut().zip(a) {
        *lane = vgetq_lane_u64::<0>(*v);
    }
}

/// Apply Keccak-p\[1600, `ROUNDS`\] once to one state (in the low halves).
#[target_feature(enable = "sha3")]
pub(super) fn permute<const ROUNDS: usize>(state: &mut [u64; 25]) {
    let mut a = load1(state);
    keccak_p2::<ROUNDS>(&mut a);
    store1(state, &a);
}

/// Absorb `blocks` (each `RATE` bytes) into one state (FIPS 202 §4
/// Algorithm 8 step 6), kept in the low halves of v0..v24 across all
/// blocks: one load and one store of the state per call.
#[target_feature(enable = "sha3")]
pub(super) fn absorb<const RATE: usize, const ROUNDS: usize, B: AsRef<[u8]>>(state: &mut [u64; 25], blocks: &[B]) {
    let mut a = load1(state);
    for block in blocks {
        let block = &block.as_ref()[..RATE];
        for (j, lane) in a.iter_mut().take(RATE / 8).enumerate() {
            *lane = veorq_u64(*lane, pair(word(block, j), 0));
        }
        keccak_p2::<ROUNDS>(&mut a);
    }
    store1(state, &a);
}

/// Absorb `data[i]` into `states[i]` for both lanes (FIPS 202 §4 Algorithm
/// 8 step 6), the states kept in v0..v24 across all blocks. Both slices
/// have the same length, a whole number of `RATE`-byte blocks (the
/// multi-buffer scheduler's contract).
#[target_feature(enable = "sha3")]
pub(super) fn absorb2<const RATE: usize, const ROUNDS: usize>(states: &mut [[u64; 25]; 2], data: [&[u8]; 2]) {
    assert!(data[0].len() == data[1].len() && data[0].len().is_multiple_of(RATE), "absorb2: equal whole blocks");
    let mut a: [uint64x2_t; 25] = core::array::from_fn(|i| pair(states[0][i], states[1][i]));
    for (m0, m1) in data[0].chunks_exact(RATE).zip(data[1].chunks_exact(RATE)) {
        // Words j and j + 1 of each block in one 16-byte load, paired up
        // by lane with ZIP1 and ZIP2: 3 instructions per lane as written;
        // LLVM's scheduler hoists the loads and spills a few of them to the
        // stack (75 instructions per pair of SHA3-256 blocks outside the
        // rounds, where 51 would do; scalar loads with INS or LD1 lane
        // inserts fared worse).
        for j in (0..RATE / 8 - 1).step_by(2) {
            let (w0, w1) = (load2(&m0[8 * j..8 * j + 16]), load2(&m1[8 * j..8 * j + 16]));
            a[j] = veorq_u64(a[j], vzip1q_u64(w0, w1));
            a[j + 1] = veorq_u64(a[j + 1], vzip2q_u64(w0, w1));
        }
        if !RATE.is_multiple_of(16) {
            let j = RATE / 8 - 1;
            a[j] = veorq_u64(a[j], pair(word(m0, j), word(m1, j)));
        }
        keccak_p2::<ROUNDS>(&mut a);
    }
    for (i, v) in a.iter().enumerate() {
        states[0][i] = vgetq_lane_u64::<0>(*v);
        states[1][i] = vgetq_lane_u64::<1>(*v);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::{absorb, absorb2, permute};
    use crate::backend::aarch64_keccak::tests::{spec_keccak_p, states};

    /// Both entry points against the spec permutation, for Keccak-f (24
    /// rounds), the 12-round Keccak-p of TurboSHAKE and KangarooTwelve, and
    /// odd round counts (23, 1) for the round before the two-round loop;
    /// the two-lane engine with different states and data in its lanes.
    #[test]
    fn sha3_extension_rounds_match_the_spec() {
        if !std::arch::is_aarch64_feature_detected!("sha3") {
            hash_core::testing::say(format_args!("sha3: SKIPPED arm-sha3 unit tests: this CPU has no SHA3 extension"));
            return;
        }
        fn check<const ROUNDS: usize>() {
            let all: Vec<[u64; 25]> = states(17).collect();
            for (trial, pair) in all.windows(2).enumerate() {
                let (s0, s1) = (pair[0], pair[1]);
                let mut want0 = s0;
                spec_keccak_p(&mut want0, ROUNDS);
                let mut got = s0;
                // SAFETY: the SHA3 extension was detected above.
                unsafe { permute::<ROUNDS>(&mut got) };
                assert_eq!(got, want0, "permute::<{ROUNDS}>, trial {trial}");

                // Two blocks of rate 136 into two different states.
                let data: [Vec<u8>; 2] =
                    core::array::from_fn(|l| (0..272).map(|i| (i * 7 + l * 13 + trial) as u8).collect());
                let mut want = [s0, s1];
                for (state, msg) in want.iter_mut().zip(&data) {
                    for block in msg.chunks(136) {
                        crate::backend::portable::xor_block(state, block);
                        spec_keccak_p(state, ROUNDS);
                    }
                }
                let mut got = [s0, s1];
                // SAFETY: as above.
                unsafe { absorb2::<136, ROUNDS>(&mut got, [&data[0], &data[1]]) };
                assert_eq!(got, want, "absorb2::<136, {ROUNDS}>, trial {trial}");
                let mut one = s0;
                let blocks: Vec<&[u8]> = data[0].chunks(136).collect();
                // SAFETY: as above.
                unsafe { absorb::<136, ROUNDS, &[u8]>(&mut one, &blocks) };
                assert_eq!(one, want[0], "absorb::<136, {ROUNDS}>, trial {trial}");
            }
        }
        check::<24>();
        check::<12>();
        // Odd round counts take one round before the two-round loop.
        check::<23>();
        check::<1>();
    }
}
