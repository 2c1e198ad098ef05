//! Constants of RFC 1321 and the order of its 64 steps.
#![forbid(unsafe_code)]

/// The initial chaining value A, B, C, D (RFC 1321 §3.3: the words
/// `01 23 45 67`, `89 ab cd ef`, `fe dc ba 98`, `76 54 32 10`, low byte
/// first).
pub(crate) const INIT: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// T[1..=64] of RFC 1321 §3.4: the integer part of 2^32 · |sin(i)|, for
/// i in radians. `T[i]` here is the RFC's T[i + 1].
#[rustfmt::skip]
pub(crate) const T: [u32; 64] = [
    // Round 1.
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    // Round 2.
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    // Round 3.
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    // Round 4.
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// The 64 steps of RFC 1321 §3.4, in order, handed to a macro.
///
/// `md5_steps!(cb!(f, g, h, i, a, b, c, d))` expands to one call `cb! { ... }`
/// whose tokens are 64 entries `f(a, b, c, d, k, s, t)`, one per step
/// `[abcd k s i]` of the RFC, meaning
/// `a = b + ((a + F(b,c,d) + X[k] + T[i]) <<< s)`, with `t` = the RFC's
/// i − 1 (an index into [`T`]) and `f`, `g`, `h`, `i` standing for rounds
/// 1 to 4. The four variables rotate through the positions exactly as in
/// the RFC, so no values move between steps. The caller's `cb` decides what
/// a step becomes (Rust statements, or lines of an `asm!` template).
macro_rules! md5_steps {
    ($cb:ident!($f:ident, $g:ident, $h:ident, $i:ident, $a:ident, $b:ident, $c:ident, $d:ident)) => {
        $cb! {
            // Round 1: [abcd k 7 i], [dabc k 12 i], [cdab k 17 i], [bcda k 22 i].
            $f($a, $b, $c, $d, 0, 7, 0)
            $f($d, $a, $b, $c, 1, 12, 1)
            $f($c, $d, $a, $b, 2, 17, 2)
            $f($b, $c, $d, $a, 3, 22, 3)
            $f($a, $b, $c, $d, 4, 7, 4)
            $f($d, $a, $b, $c, 5, 12, 5)
            $f($c, $d, $a, $b, 6, 17, 6)
            $f($b, $c, $d, $a, 7, 22, 7)
            $f($a, $b, $c, $d, 8, 7, 8)
            $f($d, $a, $b, $c, 9, 12, 9)
            $f($c, $d, $a, $b, 10, 17, 10)
            $f($b, $c, $d, $a, 11, 22, 11)
            $f($a, $b, $c, $d, 12, 7, 12)
            $f($d, $a, $b, $c, 13, 12, 13)
            $f($c, $d, $a, $b, 14, 17, 14)
            $f($b, $c, $d, $a, 15, 22, 15)
            // Round 2: shifts 5, 9, 14, 20; X[(1 + 5j) mod 16].
            $g($a, $b, $c, $d, 1, 5, 16)
            $g($d, $a, $b, $c, 6, 9, 17)
            $g($c, $d, $a, $b, 11, 14, 18)
            $g($b, $c, $d, $a, 0, 20, 19)
            $g($a, $b, $c, $d, 5, 5, 20)
            $g($d, $a, $b, $c, 10, 9, 21)
            $g($c, $d, $a, $b, 15, 14, 22)
            $g($b, $c, $d, $a, 4, 20, 23)
            $g($a, $b, $c, $d, 9, 5, 24)
            $g($d, $a, $b, $c, 14, 9, 25)
            $g($c, $d, $a, $b, 3, 14, 26)
            $g($b, $c, $d, $a, 8, 20, 27)
            $g($a, $b, $c, $d, 13, 5, 28)
            $g($d, $a, $b, $c, 2, 9, 29)
            $g($c, $d, $a, $b, 7, 14, 30)
            $g($b, $c, $d, $a, 12, 20, 31)
            // Round 3: shifts 4, 11, 16, 23; X[(5 + 3j) mod 16].
            $h($a, $b, $c, $d, 5, 4, 32)
            $h($d, $a, $b, $c, 8, 11, 33)
            $h($c, $d, $a, $b, 11, 16, 34)
            $h($b, $c, $d, $a, 14, 23, 35)
            $h($a, $b, $c, $d, 1, 4, 36)
            $h($d, $a, $b, $c, 4, 11, 37)
            $h($c, $d, $a, $b, 7, 16, 38)
            $h($b, $c, $d, $a, 10, 23, 39)
            $h($a, $b, $c, $d, 13, 4, 40)
            $h($d, $a, $b, $c, 0, 11, 41)
            $h($c, $d, $a, $b, 3, 16, 42)
            $h($b, $c, $d, $a, 6, 23, 43)
            $h($a, $b, $c, $d, 9, 4, 44)
            $h($d, $a, $b, $c, 12, 11, 45)
            $h($c, $d, $a, $b, 15, 16, 46)
            $h($b, $c, $d, $a, 2, 23, 47)
            // Round 4: shifts 6, 10, 15, 21; X[7j mod 16].
            $i($a, $b, $c, $d, 0, 6, 48)
            $i($d, $a, $b, $c, 7, 10, 49)
            $i($c, $d, $a, $b, 14, 15, 50)
            $i($b, $c, $d, $a, 5, 21, 51)
            $i($a, $b, $c, $d, 12, 6, 52)
            $i($d, $a, $b, $c, 3, 10, 53)
            $i($c, $d, $a, $b, 10, 15, 54)
            $i($b, $c, $d, $a, 1, 21, 55)
            $i($a, $b, $c, $d, 8, 6, 56)
            $i($d, $a, $b, $c, 15, 10, 57)
            $i($c, $d, $a, $b, 6, 15, 58)
            $i($b, $c, $d, $a, 13, 21, 59)
            $i($a, $b, $c, $d, 4, 6, 60)
            $i($d, $a, $b, $c, 11, 10, 61)
            $i($c, $d, $a, $b, 2, 15, 62)
            $i($b, $c, $d, $a, 9, 21, 63)
        }
    };
}
pub(crate) use md5_steps;
