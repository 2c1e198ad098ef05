//! Block-level types: the core behind the hasher and the raw compression
//! function.

hashes_dropin_macros::md_core_0_11! {
    name: "SHA-1", alg: ours::algorithm::Sha1, soft: cfg!(sha1_backend = "soft"), final_in_registers: cfg!(target_arch = "x86_64"),
    core: Sha1Core, words: 5, out: 20, U20, serialized: U28, alg_name: "Sha1",
}
