//! Constants of FIPS 180-4 for the SHA-512 family.

/// SHA-384/512 round constants: the first 64 bits of the fractional parts of
/// the cube roots of the first 80 primes (FIPS 180-4 §4.2.3).
#[rustfmt::skip]
pub(crate) const K: [u64; 80] = [
    0x428a_2f98_d728_ae22, 0x7137_4491_23ef_65cd, 0xb5c0_fbcf_ec4d_3b2f, 0xe9b5_dba5_8189_dbbc,
    0x3956_c25b_f348_b538, 0x59f1_11f1_b605_d019, 0x923f_82a4_af19_4f9b, 0xab1c_5ed5_da6d_8118,
    0xd807_aa98_a303_0242, 0x1283_5b01_4570_6fbe, 0x2431_85be_4ee4_b28c, 0x550c_7dc3_d5ff_b4e2,
    0x72be_5d74_f27b_896f, 0x80de_b1fe_3b16_96b1, 0x9bdc_06a7_25c7_1235, 0xc19b_f174_cf69_2694,
    0xe49b_69c1_9ef1_4ad2, 0xefbe_4786_384f_25e3, 0x0fc1_9dc6_8b8c_d5b5, 0x240c_a1cc_77ac_9c65,
    0x2de9_2c6f_592b_0275, 0x4a74_84aa_6ea6_e483, 0x5cb0_a9dc_bd41_fbd4, 0x76f9_88da_8311_53b5,
    0x983e_5152_ee66_dfab, 0xa831_c66d_2db4_3210, 0xb003_27c8_98fb_213f, 0xbf59_7fc7_beef_0ee4,
    0xc6e0_0bf3_3da8_8fc2, 0xd5a7_9147_930a_a725, 0x06ca_6351_e003_826f, 0x1429_2967_0a0e_6e70,
    0x27b7_0a85_46d2_2ffc, 0x2e1b_2138_5c26_c926, 0x4d2c_6dfc_5ac4_2aed, 0x5338_0d13_9d95_b3df,
    0x650a_7354_8baf_63de, 0x766a_0abb_3c77_b2a8, 0x81c2_c92e_47ed_aee6, 0x9272_2c85_1482_353b,
    0xa2bf_e8a1_4cf1_0364, 0xa81a_664b_bc42_3001, 0xc24b_8b70_d0f8_9791, 0xc76c_51a3_0654_be30,
    0xd192_e819_d6ef_5218, 0xd699_0624_5565_a910, 0xf40e_3585_5771_202a, 0x106a_a070_32bb_d1b8,
    0x19a4_c116_b8d2_d0c8, 0x1e37_6c08_5141_ab53, 0x2748_774c_df8e_eb99, 0x34b0_bcb5_e19b_48a8,
    0x391c_0cb3_c5c9_5a63, 0x4ed8_aa4a_e341_8acb, 0x5b9c_ca4f_7763_e373, 0x682e_6ff3_d6b2_b8a3,
    0x748f_82ee_5def_b2fc, 0x78a5_636f_4317_2f60, 0x84c8_7814_a1f0_ab72, 0x8cc7_0208_1a64_39ec,
    0x90be_fffa_2363_1e28, 0xa450_6ceb_de82_bde9, 0xbef9_a3f7_b2c6_7915, 0xc671_78f2_e372_532b,
    0xca27_3ece_ea26_619c, 0xd186_b8c7_21c0_c207, 0xeada_7dd6_cde0_eb1e, 0xf57d_4f7f_ee6e_d178,
    0x06f0_67aa_7217_6fba, 0x0a63_7dc5_a2c8_98a6, 0x113f_9804_bef9_0dae, 0x1b71_0b35_131c_471b,
    0x28db_77f5_2304_7d84, 0x32ca_ab7b_40c7_2493, 0x3c9e_be0a_15c9_bebc, 0x431d_67c4_9c10_0d4c,
    0x4cc5_d4be_cb3e_42b6, 0x597f_299c_fc65_7e2a, 0x5fcb_6fab_3ad6_faec, 0x6c44_198c_4a47_5817,
];

/// SHA-512 initial hash value: the first 64 bits of the fractional parts of
/// the square roots of the first 8 primes (FIPS 180-4 §5.3.5).
#[rustfmt::skip]
pub(crate) const H512: [u64; 8] = [
    0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179,
];

/// SHA-384 initial hash value: the first 64 bits of the fractional parts of
/// the square roots of the 9th to 16th primes (FIPS 180-4 §5.3.4).
#[rustfmt::skip]
pub(crate) const H384: [u64; 8] = [
    0xcbbb_9d5d_c105_9ed8, 0x629a_292a_367c_d507, 0x9159_015a_3070_dd17, 0x152f_ecd8_f70e_5939,
    0x6733_2667_ffc0_0b31, 0x8eb4_4a87_6858_1511, 0xdb0c_2e0d_64f9_8fa7, 0x47b5_481d_befa_4fa4,
];

/// SHA-512/224 initial hash value, from the SHA-512/t IV generation
/// function with t = 224 (FIPS 180-4 §5.3.6.1).
#[rustfmt::skip]
pub(crate) const H512_224: [u64; 8] = [
    0x8c3d_37c8_1954_4da2, 0x73e1_9966_89dc_d4d6, 0x1dfa_b7ae_32ff_9c82, 0x679d_d514_582f_9fcf,
    0x0f6d_2b69_7bd4_4da8, 0x77e3_6f73_04c4_8942, 0x3f9d_85a8_6a1d_36c8, 0x1112_e6ad_91d6_92a1,
];

/// SHA-512/256 initial hash value, from the SHA-512/t IV generation
/// function with t = 256 (FIPS 180-4 §5.3.6.2).
#[rustfmt::skip]
pub(crate) const H512_256: [u64; 8] = [
    0x2231_2194_fc2b_f72c, 0x9f55_5fa3_c84c_64c2, 0x2393_b86b_6f53_b151, 0x9638_7719_5940_eabd,
    0x9628_3ee2_a88e_ffe3, 0xbe5e_1e25_5386_3992, 0x2b01_99fc_2c85_b8aa, 0x0eb7_2ddc_81c5_2ca2,
];

/// `W[t] + K[t]` for every round of the block that pads a 128-byte message
/// (FIPS 180-4 §5.1.2: the byte 0x80, zeros, then the length 1024 in bits
/// as 128 bits). The block is the same for every such message (a pair of
/// 64-byte SHA-512 digests), so its whole schedule is a constant: a pair's
/// second block computes no schedule and adds no round constants.
#[cfg(any(
    all(target_arch = "x86_64", any(feature = "avx2", feature = "avx512")),
    all(target_arch = "aarch64", feature = "arm-sha512")
))]
pub(crate) const PAD128_WK: [u64; 80] = {
    let mut w = [0u64; 80];
    w[0] = 0x8000_0000_0000_0000;
    w[15] = 1024;
    let mut t = 16;
    while t < 80 {
        let (a, b) = (w[t - 15], w[t - 2]);
        let s0 = a.rotate_right(1) ^ a.rotate_right(8) ^ (a >> 7);
        let s1 = b.rotate_right(19) ^ b.rotate_right(61) ^ (b >> 6);
        w[t] = s1.wrapping_add(w[t - 7]).wrapping_add(s0).wrapping_add(w[t - 16]);
        t += 1;
    }
    let mut t = 0;
    while t < 80 {
        w[t] = w[t].wrapping_add(K[t]);
        t += 1;
    }
    w
};

#[cfg(test)]
mod tests {
    use super::{H512, H512_224, H512_256};
    use hash_core::Block;

    /// The SHA-512/t IV generation function (FIPS 180-4 §5.3.6): SHA-512 of
    /// the string "SHA-512/t", started from H512 with every word XORed with
    /// a5a5a5a5a5a5a5a5.
    fn sha512_t_iv(name: &[u8]) -> [u64; 8] {
        let mut state = H512.map(|w| w ^ 0xa5a5_a5a5_a5a5_a5a5);
        // One padded block (§5.1.2): the name, 0x80, zeros, 128-bit length.
        let mut block = Block::<hash_core::typenum::U128>::default();
        block[..name.len()].copy_from_slice(name);
        block[name.len()] = 0x80;
        block[120..].copy_from_slice(&(name.len() as u64 * 8).to_be_bytes());
        crate::backend::compress(crate::Backend::Portable, &mut state, core::slice::from_ref(&block));
        state
    }

    #[test]
    fn sha512_t_ivs_follow_the_generation_function() {
        assert_eq!(sha512_t_iv(b"SHA-512/224"), H512_224);
        assert_eq!(sha512_t_iv(b"SHA-512/256"), H512_256);
    }
}
