//! Block-level types: the core behind the hasher and the raw compression
//! function.

hashes_dropin_macros::md_core_0_11! {
    name: "MD5", alg: ours::algorithm::Md5, soft: cfg!(md5_backend = "soft"), final_in_registers: false,
    core: Md5Core, words: 4, out: 16, U16, serialized: U24, alg_name: "Md5",
}
