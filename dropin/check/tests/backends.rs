//! Which of our backends the drop-ins run on here: each crate's detected
//! backend, printed as `dropin-check: CRATE backend: NAME` (`.ci/dropin-emulated`
//! reads these lines to check that an emulated CPU without SHA-NI or AVX2
//! really ran the drop-ins on the fallbacks), and the drop-ins' answers on
//! that backend equal those of our own API.

use hash_core::testing::{say, Rng};

#[test]
fn detected_backends_answer_as_our_own_api() {
    use sha2::Digest as _;
    let md5 = ours_md5::Backend::detect();
    let sha1 = ours_sha1::Backend::detect();
    let sha256 = ours_sha256::Backend::detect();
    let sha512 = ours_sha512::Backend::detect();
    say(format_args!("dropin-check: md5 backend: {}", md5.name()));
    say(format_args!("dropin-check: sha1 backend: {}", sha1.name()));
    say(format_args!("dropin-check: sha256 backend: {}", sha256.name()));
    say(format_args!("dropin-check: sha512 backend: {}", sha512.name()));
    let mut rng = Rng::new(77);
    for len in [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 1000, 4099] {
        let msg = rng.bytes(len);
        assert_eq!(md5::Md5::digest(&msg)[..], ours_md5::Md5::digest(&msg)[..], "md5, {len} bytes");
        assert_eq!(sha1::Sha1::digest(&msg)[..], ours_sha1::Sha1::digest(&msg)[..], "sha1, {len} bytes");
        assert_eq!(sha2::Sha256::digest(&msg)[..], ours_sha256::Sha256::digest(&msg)[..], "sha256, {len} bytes");
        assert_eq!(sha2::Sha512::digest(&msg)[..], ours_sha512::Sha512::digest(&msg)[..], "sha512, {len} bytes");
    }
}
