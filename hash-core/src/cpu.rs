//! What the batch engines need to know about the CPU beyond its feature
//! flags, and a once-per-process cache for the engine each backend's
//! batches use.
//!
//! Feature flags say which engines can run; they do not say which is
//! fastest. The same instruction can be latency-bound on one core and
//! throughput-bound on another: the SHA-NI unit of AMD Zen cores accepts a
//! new `sha1rnds4` every cycle or two while one takes several cycles, so
//! interleaved SHA-NI streams pay there, whereas on Intel server cores
//! (Ice Lake-SP to Emerald Rapids) the SHA unit is busy for the whole
//! instruction and interleaving gains nothing. So, as OpenSSL
//! (`OPENSSL_ia32cap`) and Intel ISA-L (its multi-buffer dispatchers) do,
//! an engine choice may look at the vendor and family from `cpuid` leaf 0
//! and 1 ([`x86`]) as well as at the feature flags.
//!
//! Each crate states its rule next to its `Backend` enum and caches the
//! outcome in an [`EngineCache`]. `Backend::batch_engine(messages)` names
//! the engine a batch of that many messages runs on.

use core::sync::atomic::{AtomicU8, Ordering};

/// The x86 CPU vendor, from the 12-byte string of `cpuid` leaf 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vendor {
    /// `GenuineIntel`.
    Intel,
    /// `AuthenticAMD`, and `HygonGenuine` (Hygon Dhyana is an AMD Zen 1
    /// core).
    Amd,
    /// Anything else (Zhaoxin, VIA, a hypervisor's own string), or not x86.
    Other,
}

/// Vendor and display family/model of the running x86 CPU (`cpuid` leaf 1,
/// with the extended family and model folded in as the Intel SDM vol. 2A
/// "CPUID—CPU Identification" and AMD APM vol. 3 §E.3.2 describe).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct X86Id {
    /// The vendor.
    pub vendor: Vendor,
    /// The display family: 6 for Intel Core and Xeon, 0x17 for AMD Zen 1
    /// and 2, 0x19 for Zen 3 and 4, 0x1a for Zen 5.
    pub family: u32,
    /// The display model.
    pub model: u32,
}

/// The identity of this x86 CPU, read once per call (callers cache the
/// decision they base on it, see [`EngineCache`]); `None` on other
/// architectures.
pub fn x86() -> Option<X86Id> {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::__cpuid;
        // `cpuid` exists on every x86-64 CPU, so these intrinsics are safe
        // to call.
        let leaf0 = __cpuid(0);
        let mut name = [0u8; 12];
        name[..4].copy_from_slice(&leaf0.ebx.to_le_bytes());
        name[4..8].copy_from_slice(&leaf0.edx.to_le_bytes());
        name[8..].copy_from_slice(&leaf0.ecx.to_le_bytes());
        let vendor = match &name {
            b"GenuineIntel" => Vendor::Intel,
            b"AuthenticAMD" | b"HygonGenuine" => Vendor::Amd,
            _ => Vendor::Other,
        };
        let (family, model) = if leaf0.eax >= 1 { family_model(__cpuid(1).eax) } else { (0, 0) };
        Some(X86Id { vendor, family, model })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// The vendor of this CPU ([`Vendor::Other`] off x86-64).
pub fn vendor() -> Vendor {
    x86().map_or(Vendor::Other, |id| id.vendor)
}

/// Display family and model from `cpuid` leaf 1 `eax`: the extended family
/// (bits 20..28) adds to the base family (bits 8..12) when the base family
/// is 0xf, and the extended model (bits 16..20) is the model's high nibble
/// when the base family is 6 or 0xf.
pub fn family_model(eax: u32) -> (u32, u32) {
    let base_family = (eax >> 8) & 0xf;
    let base_model = (eax >> 4) & 0xf;
    let family = if base_family == 0xf { base_family + ((eax >> 20) & 0xff) } else { base_family };
    let model =
        if base_family == 6 || base_family == 0xf { (((eax >> 16) & 0xf) << 4) | base_model } else { base_model };
    (family, model)
}

/// Caches, per backend, the engine that backend's batches run on, so that
/// the rule (feature flags, `cpuid`) runs once per process.
///
/// `SLOTS` is the number of backends; the engine is stored as its index in
/// the crate's list of engines.
///
/// ```
/// # use hash_core::cpu::EngineCache;
/// #[derive(Clone, Copy, PartialEq, Eq, Debug)]
/// enum Engine { Lanes, OneByOne }
/// const ENGINES: &[Engine] = &[Engine::Lanes, Engine::OneByOne];
/// static CHOSEN: EngineCache<2> = EngineCache::new();
/// let e = CHOSEN.get(0, ENGINES, || Engine::OneByOne);
/// assert_eq!(e, Engine::OneByOne);
/// assert_eq!(CHOSEN.get(0, ENGINES, || Engine::Lanes), Engine::OneByOne, "decided once");
/// ```
#[derive(Debug)]
pub struct EngineCache<const SLOTS: usize>([AtomicU8; SLOTS]);

impl<const SLOTS: usize> EngineCache<SLOTS> {
    /// An empty cache.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        EngineCache([const { AtomicU8::new(0) }; SLOTS])
    }

    /// The engine cached in `slot`, or `choose()`'s answer, cached. An
    /// engine missing from `engines` is returned but not cached.
    ///
    /// # Panics
    /// If `slot >= SLOTS`.
    #[inline]
    pub fn get<E: Copy + PartialEq>(&self, slot: usize, engines: &[E], choose: impl FnOnce() -> E) -> E {
        let cell = &self.0[slot];
        let index = cell.load(Ordering::Relaxed);
        if let Some(&e) = (index as usize).checked_sub(1).and_then(|i| engines.get(i)) {
            return e;
        }
        let e = choose();
        if let Some(i) = engines.iter().position(|&x| x == e) {
            // Racing threads store the same value.
            cell.store(u8::try_from(i + 1).unwrap_or(0), Ordering::Relaxed);
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_and_model() {
        // Intel Sapphire Rapids: family 6, model 0x8f.
        assert_eq!(family_model(0x000806f8), (6, 0x8f));
        // AMD Zen 3 (EPYC 7003): family 0x19, model 0x01.
        assert_eq!(family_model(0x00a00f11), (0x19, 0x01));
        // AMD Zen 5: family 0x1a.
        assert_eq!(family_model(0x00b00f21).0, 0x1a);
        // Old family 5: no extended fields.
        assert_eq!(family_model(0x00000543), (5, 4));
    }

    #[test]
    fn this_cpu() {
        let id = x86();
        #[cfg(target_arch = "x86_64")]
        assert!(id.is_some_and(|id| id.family >= 5), "{id:?}");
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(id, None);
    }
}
