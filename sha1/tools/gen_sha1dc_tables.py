#!/usr/bin/env python3
"""Generate sha1/src/dc/tables.rs: the data of SHA-1 collision detection.

Two tables, both facts about the attacks that the detection looks for
(Stevens, "Counter-cryptanalysis", CRYPTO 2013; Stevens and Shumow,
"Speeding up detection of SHA-1 collision attacks using unavoidable attack
conditions", USENIX Security 2017):

* the 32 disturbance vectors (DVs) that the reference implementation
  `sha1collisiondetection` checks, each named by its type, K and b (Manuel's
  classification, "Classification and generation of disturbance vectors for
  collision attacks against SHA-1", DCC 2011). This script *derives* each DV
  and its message XOR mask from (type, K, b):
    - type I(K, b):  DV[K..K+16] all zero except DV[K+15] = 2^b;
    - type II(K, b): as type I, and DV[K+1] = DV[K+3] = 2^(b+31 mod 32);
  the other words follow from the message expansion recurrence (run forward,
  and backward by solving it for W[t-16]); the message difference of the
  local collisions is
    dm[t] = DV[t] ^ ROTL5(DV[t-1]) ^ DV[t-2] ^ ROTL30(DV[t-3] ^ DV[t-4] ^ DV[t-5]).
  Which DVs are checked, and from which step (58 or 65) each one is
  recomputed, is the reference's choice (a fact taken from it).

* the unavoidable bit conditions: for each DV, the conditions on expanded
  message bits, W[i][a] (^ W[j][b]) == v, that every attack along that DV
  satisfies. These come out of the paper's analysis of differential paths
  and cannot be re-derived here: the script reads them from the reference
  crate's `lib/ubc_check.rs` as cargo fetched it (`sha1collisiondetection`
  0.3.4, MIT licence, copyright 2017 Marc Stevens and Dan Shumow), by
  evaluating each of its statements as a function of the message bits and
  recovering the affine condition it tests; it then checks that the
  condition list it writes filters exactly as that file's function does, on
  random expanded messages and on messages built to satisfy each DV's
  conditions (with each condition broken in turn).

The DV masks are checked against the reference's own table too.

Usage: python3 sha1/tools/gen_sha1dc_tables.py [--check] [REFERENCE_CRATE_DIR]
  With --check it compares with the committed file instead of writing it.
  Without a directory it looks in $CARGO_HOME/registry/src/*/ (~/.cargo).
"""
import glob
import os
import random
import re
import sys

M = 0xFFFFFFFF
REF_VERSION = "0.3.4"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "dc", "tables.rs")


def rotl(x, n):
    n %= 32
    return ((x << n) | (x >> (32 - n))) & M if n else x


# ---------------------------------------------------------------- the DVs

def derive_dv(kind, k, b):
    """The DV words DV[-5..80) of type `kind` (1 or 2), as a dict."""
    dv = {k + i: 0 for i in range(16)}
    dv[k + 15] = 1 << b
    if kind == 2:
        dv[k + 1] = dv[k + 3] = 1 << ((b + 31) % 32)
    for t in range(k + 16, 80):
        dv[t] = rotl(dv[t - 3] ^ dv[t - 8] ^ dv[t - 14] ^ dv[t - 16], 1)
    # W[t] = ROTL1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]) solved for W[t-16].
    for t in range(k + 15, -6 + 15, -1):
        dv[t - 16] = rotl(dv[t], 31) ^ dv[t - 3] ^ dv[t - 8] ^ dv[t - 14]
    assert all(i in dv for i in range(-5, 80))
    return dv


def derive_dm(dv):
    return [dv[t] ^ rotl(dv[t - 1], 5) ^ dv[t - 2] ^ rotl(dv[t - 3] ^ dv[t - 4] ^ dv[t - 5], 30) for t in range(80)]


def read_ref_dvs(src):
    tab = src[src.index("pub const sha1_dvs"):src.index("pub fn ubc_check")]
    out = []
    for e in tab.split("dv_info_t{")[1:]:
        g = lambda key: int(re.search(key + r":\s*(\d+)", e).group(1))
        dm = [int(x, 16) if x.startswith("0x") else 0 for x in re.findall(r"(0x[0-9a-fA-F]+|\b0\b) as", e.split("dm:")[1])]
        assert len(dm) == 80
        out.append(dict(kind=g("dvType"), k=g("dvK"), b=g("dvB"), testt=int(re.search(r"Step(\d+)", e).group(1)),
                        maskb=g("maskb"), dm=dm))
    return out


# ------------------------------------- a small evaluator for ubc_check.rs

TOKEN = re.compile(r"\s*(0x[0-9a-fA-F]+|\d+|[A-Za-z_][A-Za-z_0-9]*|>>|<<|==|!=|\|\||&&|&=|[-!&^|()\[\]{};.*=,:<>])")


def tokenize(s):
    toks, pos = [], 0
    while pos < len(s):
        if s[pos:].strip() == "":
            break
        m = TOKEN.match(s, pos)
        assert m, s[pos:pos + 40]
        toks.append(m.group(1))
        pos = m.end()
    return toks


class Parser:
    # Rust precedence, loosest first.
    BINARY = [["||"], ["&&"], ["==", "!="], ["|"], ["^"], ["&"], ["<<", ">>"], ["-"]]

    def __init__(self, toks, consts):
        self.t, self.i, self.consts = toks, 0, consts

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def eat(self, want=None):
        tok = self.t[self.i]
        assert want is None or tok == want, (want, tok, self.t[self.i - 5:self.i + 5])
        self.i += 1
        return tok

    def expr(self, level=0):
        if level == len(self.BINARY):
            return self.unary()
        left = self.expr(level + 1)
        while self.peek() in self.BINARY[level]:
            op = self.eat()
            left = (op, left, self.expr(level + 1))
        return left

    def unary(self):
        if self.peek() == "!":
            self.eat()
            return ("!", self.unary())
        node = self.postfix()
        while self.peek() == "as":
            self.eat()
            self.eat()  # the type: every value is a 32-bit word here
        return node

    def postfix(self):
        tok = self.eat()
        if tok == "(":
            node = self.expr()
            self.eat(")")
        elif tok == "W":
            self.eat("[")
            node = ("W", int(self.eat()))
            self.eat("]")
        elif tok == "mask":
            node = ("mask",)
        elif tok in self.consts:
            node = ("const", self.consts[tok])
        else:
            node = ("const", int(tok, 0))
        while self.peek() == ".":
            self.eat(".")
            assert self.eat() == "wrapping_sub"
            self.eat("(")
            node = ("-", node, self.expr())
            self.eat(")")
        return node

    def block(self):
        """Statements up to the closing brace (or the end)."""
        stmts = []
        while self.peek() not in (None, "}"):
            if self.peek() == "if":
                self.eat()
                cond = self.expr()
                self.eat("{")
                body = self.block()
                self.eat("}")
                stmts.append(("if", cond, body))
            elif self.peek() == "mask":
                self.eat()
                self.eat("&=")
                stmts.append(("and", self.expr()))
                if self.peek() == ";":
                    self.eat()
            else:
                raise AssertionError(self.t[self.i:self.i + 8])
        return stmts


def ev(node, w, mask=M):
    op = node[0]
    if op == "const":
        return node[1]
    if op == "W":
        return w[node[1]]
    if op == "mask":
        return mask
    if op == "!":
        v = ev(node[1], w, mask)
        return (not v) if isinstance(v, bool) else (~v & M)
    a, b = ev(node[1], w, mask), ev(node[2], w, mask)
    return {
        "||": lambda: a or b, "&&": lambda: a and b, "==": lambda: a == b, "!=": lambda: a != b,
        "|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b, "<<": lambda: (a << b) & M,
        ">>": lambda: a >> b, "-": lambda: (a - b) & M,
    }[op]()


def run_ref(stmts, w):
    mask = M
    for s in stmts:
        if s[0] == "and":
            mask &= ev(s[1], w, mask)
        elif ev(s[1], w, mask):
            mask = run_ref_block(s[2], w, mask)
    return mask


def run_ref_block(stmts, w, mask):
    for s in stmts:
        if s[0] == "and":
            mask &= ev(s[1], w, mask)
        elif ev(s[1], w, mask):
            mask = run_ref_block(s[2], w, mask)
    return mask


def words_of(node, acc):
    if node[0] == "W":
        acc.add(node[1])
    for x in node[1:]:
        if isinstance(x, tuple):
            words_of(x, acc)
    return acc


def affine(f, words, rng):
    """f: W -> 0/1 depending on bits of `words` only. Returns (support, f(0)),
    support a sorted tuple of (word, bit), after checking f is affine in them."""
    zero = [0] * 80
    f0 = f(zero)
    support = []
    for i in sorted(words):
        for bit in range(32):
            w = list(zero)
            w[i] = 1 << bit
            if f(w) != f0:
                support.append((i, bit))
    for _ in range(64):
        w = [rng.getrandbits(32) for _ in range(80)]
        want = f0
        for (i, bit) in support:
            want ^= (w[i] >> bit) & 1
        assert f(w) == want, "not affine"
    return tuple(support), f0


def conditions(stmts, rng):
    """{dv bit: set of (support, value)}: DV d passes iff XOR of W bits of
    `support` equals `value` for each of its conditions."""
    cond = {d: set() for d in range(32)}

    def add(d, support, value):
        assert 1 <= len(support) <= 2, support
        cond[d].add((support, value))

    def visit(stmts, guard):
        for s in stmts:
            if s[0] == "and":
                words = words_of(s[1], set())
                for d in range(32):
                    f = lambda w, d=d: (ev(s[1], w) >> d) & 1
                    support, f0 = affine(f, words, rng)
                    if not support:
                        assert f0 == 1, "a DV that never passes"
                        continue
                    assert guard is None or (1 << d) & guard, "a statement outside its guard"
                    add(d, support, 1 ^ f0)
            else:
                c = s[1]
                # `if mask & DVs != 0 { ... }`: skips work, no condition.
                # (`if mask != 0 { ... }` likewise, for every DV.)
                if not words_of(c, set()):
                    if c[0] == "!=" and c[1][0] == "&" and c[1][1] == ("mask",) and c[2] == ("const", 0):
                        visit(s[2], ev(c[1][2], [0] * 80))
                    else:
                        assert c == ("!=", ("mask",), ("const", 0)), c
                        visit(s[2], guard)
                    continue
                # `if p1 || p2 || ... { mask &= !DV }`: the DV needs every p false.
                body = s[2]
                assert len(body) == 1 and body[0][0] == "and" and body[0][1][0] == "!", body
                cleared = ~ev(body[0][1], [0] * 80) & M
                disj = []
                stack = [c]
                while stack:
                    n = stack.pop()
                    if n[0] == "||":
                        stack += [n[1], n[2]]
                    else:
                        disj.append(n)
                for p in disj:
                    words = words_of(p, set())
                    support, p0 = affine(lambda w, p=p: int(bool(ev(p, w))), words, rng)
                    assert support
                    for d in range(32):
                        if cleared >> d & 1:
                            assert guard is None or (1 << d) & guard
                            add(d, support, p0)  # p false: XOR(support) == p0

    visit(stmts, None)
    return cond


def ours(cond, w):
    mask = 0
    for d, cs in cond.items():
        ok = True
        for support, value in cs:
            x = 0
            for (i, bit) in support:
                x ^= (w[i] >> bit) & 1
            ok &= x == value
        mask |= ok << d
    return mask


def satisfying(cs, rng, broken=None):
    """Random expanded-message words meeting every condition of `cs`
    (except `broken`, which is made false)."""
    w = [rng.getrandbits(32) for _ in range(80)]
    for _ in range(100):
        changed = False
        for c in sorted(cs):
            support, value = c
            want = value ^ (c == broken)
            x = 0
            for (i, bit) in support:
                x ^= (w[i] >> bit) & 1
            if x != want:
                i, bit = support[rng.randrange(len(support))]
                w[i] ^= 1 << bit
                changed = True
        if not changed:
            return w
    raise AssertionError("conditions could not be met")


# ------------------------------------------------- ordering for early exit

def random_messages(n):
    rng = random.Random(1)
    out = []
    for _ in range(n):
        w = [rng.getrandbits(32) for _ in range(16)]
        for t in range(16, 80):
            w.append(rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1))
        out.append(w)
    return out


def fail_set(sample, support, value=None):
    """The messages of `sample` (as a bit set) that fail the condition
    `support` (a pair of (word, bit)) == value."""
    if value is None:
        support, value = support
    (i, a), (j, b) = support
    bits = 0
    for n, w in enumerate(sample):
        if ((w[i] >> a) ^ (w[j] >> b)) & 1 != value:
            bits |= 1 << n
    return bits


def greedy(tests):
    """An order of `tests` (each a list of (fail set, DV set)) that rules
    out the most (message, DV) pairs soonest."""
    out_ = [0] * 32  # per DV: the messages where it is ruled out
    left = list(range(len(tests)))
    order = []
    while left:
        def gain(k):
            per_dv = {}
            for fails, dvs in tests[k]:
                for d in range(32):
                    if dvs >> d & 1:
                        per_dv[d] = per_dv.get(d, 0) | fails
            return sum(bin(f & ~out_[d]).count("1") for d, f in per_dv.items())
        best = max(left, key=lambda k: (gain(k), -k))
        for fails, dvs in tests[best]:
            for d in range(32):
                if dvs >> d & 1:
                    out_[d] |= fails
        order.append(best)
        left.remove(best)
    return order


def stage_split(sample, vectors):
    """The number of vectors after which to test for an early exit that
    makes the expected work least (a taken exit saves the vectors after it,
    a check costs about one vector, a mispredicted one about three), and
    the share of messages that do not exit there."""
    n = len(sample)
    ruled = [0] * n
    best = None
    for k, (_, d, lanes) in enumerate(vectors):
        for c in lanes:
            if not c:
                continue
            i, a, b, value, dvset = c
            fails = fail_set(sample, ((i, a), (i + d, b)), value)
            for m in range(n):
                if fails >> m & 1:
                    ruled[m] |= dvset
        left = sum(1 for r in ruled if r != M) / n
        cost = (k + 1) + 1 + left * (len(vectors) - k - 1) + 3 * min(left, 1 - left)
        if best is None or cost < best[0]:
            best = (cost, k + 1, left)
    return best[1], best[2]


# ------------------------------------------------------------ the output

def render(dvs, cond):
    names = []
    for d in dvs:
        names.append("{}_{}_{}".format("I" if d["kind"] == 1 else "II", d["k"], d["b"]))
    # Group DVs by condition: one test per distinct condition.
    groups = {}
    for d, cs in cond.items():
        for c in cs:
            groups[c] = groups.get(c, 0) | (1 << d)
    # The order of the tests: most DVs ruled out soonest on random messages,
    # so that the filters can stop early once no DV is left (greedy, on a
    # fixed sample of random expanded messages).
    sample = random_messages(4000)
    items = sorted(groups.items())
    order = greedy([[(fail_set(sample, c), dvset)] for c, dvset in items])
    order = [items[k] for k in order]
    L = []
    L.append("// @generated by sha1/tools/gen_sha1dc_tables.py; do not edit by hand.")
    L.append("//")
    L.append("// The disturbance vectors are derived from (type, K, b) by that script;")
    L.append("// which DVs are checked, their recomputation steps and the unavoidable bit")
    L.append("// conditions are data from the reference implementation, read from the")
    L.append("// crate `sha1collisiondetection` {} (`lib/ubc_check.rs`; MIT licence,".format(REF_VERSION))
    L.append("// copyright 2017 Marc Stevens and Dan Shumow) and checked there against its")
    L.append("// filter. See the script's header for how.")
    L.append("")
    L.append("use super::{Dv, DvType, Packed, Ubc};")
    L.append("")
    L.append("/// The disturbance vectors checked, in the order of their bit in the")
    L.append("/// mask that the unavoidable-bit-condition filter returns.")
    L.append("pub(crate) const DVS: [Dv; 32] = [")
    for d, name in zip(dvs, names):
        L.append("    // {}".format(name))
        L.append("    Dv {{ kind: DvType::{}, k: {}, b: {}, step: {}, dm: [".format(
            "I" if d["kind"] == 1 else "II", d["k"], d["b"], d["testt"]))
        for r in range(0, 80, 8):
            L.append("        " + " ".join("0x{:08x},".format(x) for x in d["dm"][r:r + 8]))
        L.append("    ] },")
    L.append("];")
    L.append("")
    L.append("/// The unavoidable bit conditions, {} distinct ones: a DV stays in the".format(len(order)))
    L.append("/// mask only if its expanded message meets all of those that name it:")
    L.append("/// bit `a` of W[i] xor bit `b` of W[j] equals `value`.")
    L.append("/// Ordered by how many DVs each one names, most first.")
    L.append("pub(crate) const UBCS: [Ubc; {}] = [".format(len(order)))
    for (support, value), dvset in order:
        # Every condition the reference tests relates two bits.
        assert len(support) == 2, support
        (i, a), (j, b) = support
        L.append("    Ubc {{ i: {}, a: {}, j: {}, b: {}, value: {}, dvs: 0x{:08x} }}, // {}".format(
            i, a, j, b, value, dvset,
            " ".join(names[d] for d in range(32) if dvset >> d & 1)))
    L.append("];")
    L.append("")
    # The same conditions packed for SIMD: vectors of LANES conditions
    # whose lanes read consecutive words W[s + lane] and W[s + lane + d]
    # (one offset d per vector), so each operand is one unaligned load.
    LANES = 8
    byd = {}
    for (support, value), dvset in order:
        (i, a), (j, b) = sorted(support)
        byd.setdefault(j - i, []).append((i, a, b, value, dvset))
    vectors = []
    for d in sorted(byd):
        rem = sorted(byd[d])
        while rem:
            s = rem[0][0]
            lanes = [None] * LANES
            for c in list(rem):
                if c[0] - s < LANES and lanes[c[0] - s] is None:
                    lanes[c[0] - s] = c
                    rem.remove(c)
            vectors.append((s, d, lanes))
    # Greedy order, as for the conditions; the filters test after
    # PACKED_FIRST vectors whether any DV is left.
    vo = greedy([[(fail_set(sample, ((i, a), (i + d, b)), value), dvset) for (i, a, b, value, dvset) in lanes if True]
                 for _, d, lanes in [(v[0], v[1], [c for c in v[2] if c]) for v in vectors]])
    vectors = [vectors[k] for k in vo]
    first, left = stage_split(sample, vectors)
    lo = min(s for s, _, _ in vectors)
    hi = max(s + d + LANES for s, d, _ in vectors)
    L.append("/// The first and one past the last W index that the packed conditions")
    L.append("/// read (whole vectors, unused lanes included).")
    L.append("pub(crate) const PACKED_W: (usize, usize) = ({}, {});".format(lo, hi))
    L.append("")
    L.append("/// How many of the [`PACKED`] vectors come before the filters check")
    L.append("/// whether any DV is left: on random messages, none is left after them")
    L.append("/// in {:.1f}% of cases.".format(100 * (1 - left)))
    L.append("pub(crate) const PACKED_FIRST: usize = {};".format(first))
    L.append("")
    L.append("/// The conditions of [`UBCS`] packed {} to a vector, {} vectors: lane `l`".format(LANES, len(vectors)))
    L.append("/// of a vector tests bit `a` of W[s + l] against bit `b` of W[s + l + d],")
    L.append("/// stored as left shifts that move those bits to bit 31, the wanted XOR")
    L.append("/// in bit 31 of `value`, and the DVs a failure rules out (0 in unused lanes).")
    L.append("pub(crate) const PACKED: [Packed; {}] = [".format(len(vectors)))
    for s, d, lanes in vectors:
        sa = [31 - c[1] if c else 0 for c in lanes]
        sb = [31 - c[2] if c else 0 for c in lanes]
        vv = ["0x{:08x}".format(c[3] << 31 if c else 0) for c in lanes]
        dv = ["0x{:08x}".format(c[4] if c else 0) for c in lanes]
        L.append("    Packed {{ s: {}, d: {}, sa: [{}], sb: [{}], value: [{}], dvs: [{}] }},".format(
            s, d, ", ".join(map(str, sa)), ", ".join(map(str, sb)), ", ".join(vv), ", ".join(dv)))
    L.append("];")
    L.append("")
    return "\n".join(L)


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    check = "--check" in sys.argv[1:]
    if args:
        ref = args[0]
    else:
        home = os.environ.get("CARGO_HOME") or os.path.expanduser("~/.cargo")
        hits = sorted(glob.glob(os.path.join(home, "registry/src/*/sha1collisiondetection-" + REF_VERSION)))
        if not hits:
            sys.exit("sha1collisiondetection {} not in {}/registry/src: run `cargo fetch` first".format(REF_VERSION, home))
        ref = hits[0]
    print("reading", os.path.join(ref, "lib/ubc_check.rs"), file=sys.stderr)
    src = open(os.path.join(ref, "lib/ubc_check.rs")).read()
    rng = random.Random(20170223)

    ref_dvs = read_ref_dvs(src)
    assert [d["maskb"] for d in ref_dvs] == list(range(32))
    for d in ref_dvs:
        assert derive_dm(derive_dv(d["kind"], d["k"], d["b"])) == d["dm"], d
        d["dm"] = derive_dm(derive_dv(d["kind"], d["k"], d["b"]))
    print("32 DVs derived from (type, K, b): the same masks as the reference's table", file=sys.stderr)

    consts = {}
    for name, bit in re.findall(r"const (DV_\w+_bit): uint32_t =\s*\(1 as i32 as uint32_t\) << (\d+) as i32;", src):
        consts[name] = 1 << int(bit)
    assert len(consts) == 32
    body = src[src.index("pub fn ubc_check"):]
    body = body[body.index("!(0 as i32 as uint32_t);") + len("!(0 as i32 as uint32_t);"):body.index("*dvmask = mask;")]
    stmts = Parser(tokenize(body), consts).block()
    print("parsed", len(stmts), "top-level statements; recovering their conditions", file=sys.stderr)
    cond = conditions(stmts, rng)
    total = sum(len(c) for c in cond.values())
    print("{} conditions over 32 DVs".format(total), file=sys.stderr)

    # Check: the conditions filter as the reference does.
    for n in range(2000):
        w = [rng.getrandbits(32) for _ in range(80)]
        assert ours(cond, w) == run_ref(stmts, w)
    for d in range(32):
        w = satisfying(cond[d], rng)
        assert ours(cond, w) >> d & 1 and run_ref(stmts, w) == ours(cond, w)
        for c in cond[d]:
            w = satisfying(cond[d], rng, broken=c)
            assert not ours(cond, w) >> d & 1 and run_ref(stmts, w) == ours(cond, w)
    print("checked: same filter as the reference on 2000 random messages and", total, "met/broken ones", file=sys.stderr)

    text = render(ref_dvs, cond)
    if check:
        old = open(OUT).read()
        if old != text:
            sys.exit("{} differs from what the script generates: rerun it".format(OUT))
        print("up to date:", OUT, file=sys.stderr)
    else:
        os.makedirs(os.path.dirname(OUT), exist_ok=True)
        open(OUT, "w").write(text)
        print("wrote", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
