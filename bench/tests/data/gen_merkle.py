#!/usr/bin/env python3
"""Write merkle.txt, the Merkle tree vectors of bench/tests/merkle.rs.

A reference written line by line from the specifications on Python's
hashlib, independent of the Rust code it checks:

* RFC 9162 §2.1.1 (MTH), §2.1.3.1 (PATH) and §2.1.4.1 (PROOF, SUBPROOF),
  as the recursive definitions are written there, on list slices;
* SSZ's merkleize (the consensus-specs "simple-serialize" document): pad
  the chunks with zero chunks to next_pow_of_two(limit or len), at least one
  chunk, then hash pairs level by level; for the one very large limit, the
  zero-padded right side is computed from zero-subtree roots instead.

Leaf i of every tree: (i * 7) % 70 bytes, byte j = (i * 31 + j * 7 + 1) % 256.
SSZ chunk i (digest-sized): byte j = (i * 13 + j * 5 + 3) % 256.

Run from the workspace root: python3 bench/tests/data/gen_merkle.py > bench/tests/data/merkle.txt
bench/tests/merkle.rs runs it and fails if the committed file differs.
"""
import hashlib


def leaf(i):
    return bytes((i * 31 + j * 7 + 1) % 256 for j in range((i * 7) % 70))


def chunk(i, n):
    return bytes((i * 13 + j * 5 + 3) % 256 for j in range(n))


def H(alg, data):
    return hashlib.new(alg, data).digest()


# RFC 9162 §2.1.1
def mth(alg, d):
    n = len(d)
    if n == 0:
        return H(alg, b"")
    if n == 1:
        return H(alg, b"\x00" + d[0])
    k = 1
    while k * 2 < n:
        k *= 2
    return H(alg, b"\x01" + mth(alg, d[:k]) + mth(alg, d[k:]))


def split(n):
    k = 1
    while k * 2 < n:
        k *= 2
    return k


# RFC 9162 §2.1.3.1
def path(alg, m, d):
    n = len(d)
    if n == 1:
        return []
    k = split(n)
    if m < k:
        return path(alg, m, d[:k]) + [mth(alg, d[k:])]
    return path(alg, m - k, d[k:]) + [mth(alg, d[:k])]


# RFC 9162 §2.1.4.1
def subproof(alg, m, d, b):
    n = len(d)
    if m == n:
        return [] if b else [mth(alg, d)]
    k = split(n)
    if m <= k:
        return subproof(alg, m, d[:k], b) + [mth(alg, d[k:])]
    return subproof(alg, m - k, d[k:], False) + [mth(alg, d[:k])]


def proof(alg, m, d):
    return subproof(alg, m, d, True)


def next_pow2(x):
    p = 1
    while p < x:
        p *= 2
    return p


# SSZ merkleize, padding explicitly.
def ssz(alg, chunks, limit):
    n = H(alg, b"").__len__()
    width = next_pow2(limit if limit is not None else len(chunks))
    level = list(chunks) + [bytes(n)] * (width - len(chunks))
    while len(level) > 1:
        level = [H(alg, level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]


# SSZ merkleize for a huge limit: the list's own tree, then zero subtrees.
def ssz_big(alg, chunks, depth):
    n = H(alg, b"").__len__()
    own = next_pow2(len(chunks))
    root = ssz(alg, chunks, own)
    zero = bytes(n)
    h = 0
    while (1 << h) < own:
        zero = H(alg, zero + zero)
        h += 1
    while h < depth:
        root = H(alg, root + zero)
        zero = H(alg, zero + zero)
        h += 1
    return root


def hexes(nodes):
    return ":".join(x.hex() for x in nodes) if nodes else "-"


ALGS = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256",
        "sha3_224", "sha3_256", "sha3_384", "sha3_512"]
out = []
w = out.append
w("# Merkle tree vectors (RFC 9162 tree hashes, inclusion and consistency proofs; SSZ roots).")
w("# Written by gen_merkle.py (next to this file), a line-by-line reference on Python's hashlib;")
w("# bench/tests/merkle.rs fails if this file differs from what the generator writes.")
w("# Where each source comes from, and its licence: THIRD-PARTY.md at the workspace root.")
w("# Leaf i: (i * 7) % 70 bytes, byte j = (i * 31 + j * 7 + 1) % 256.")
w("# SSZ chunk i: byte j = (i * 13 + j * 5 + 3) % 256, one digest wide.")
w("# root ALG SIZE ROOT | inclusion ALG SIZE INDEX PROOF | consistency ALG FIRST SECOND PROOF |")
w("# ssz ALG COUNT LIMIT ROOT (LIMIT 'none': the next power of two of COUNT). PROOF: hex nodes")
w("# joined by ':', '-' when empty.")
for alg in ALGS:
    sizes = list(range(0, 131)) if alg in ("sha256", "sha3_256") else list(range(0, 20)) + [33, 64, 65, 100]
    if alg == "sha256":
        sizes += [1000, 4096, 4097]
    leaves = [leaf(i) for i in range(max(sizes))]
    for n in sizes:
        w(f"root {alg} {n} {mth(alg, leaves[:n]).hex()}")
for alg, top in (("sha256", 24), ("sha3_256", 9), ("md5", 9), ("sha512", 9)):
    leaves = [leaf(i) for i in range(top)]
    for n in range(1, top + 1):
        for m in range(n):
            w(f"inclusion {alg} {n} {m} {hexes(path(alg, m, leaves[:n]))}")
    for n in range(1, top + 1):
        for m in range(1, n + 1):
            w(f"consistency {alg} {m} {n} {hexes(proof(alg, m, leaves[:n]))}")
for alg in ("sha256", "sha1", "sha3_256"):
    n = H(alg, b"").__len__()
    for count in list(range(0, 41)) + [64, 65, 127, 130]:
        chunks = [chunk(i, n) for i in range(count)]
        w(f"ssz {alg} {count} none {ssz(alg, chunks, None).hex()}")
        for limit in (count, next_pow2(count) * 2, 1024):
            if limit >= count:
                w(f"ssz {alg} {count} {limit} {ssz(alg, chunks, limit).hex()}")
    for count in (0, 1, 5, 64):
        chunks = [chunk(i, n) for i in range(count)]
        w(f"ssz {alg} {count} {1 << 40} {ssz_big(alg, chunks, 40).hex()}")
print("\n".join(out))
