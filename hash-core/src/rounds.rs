//! The round order that the SHA-2 compression functions share.

/// Eight rounds of a SHA-2 compression function (FIPS 180-4 §6.2.2 and
/// §6.4.2, step 3) with the eight working variables named in rotated order,
/// so that nothing moves between rounds: the caller's
/// `round!(a, b, c, d, e, f, g, h, t)` computes round `t` into its `d` (the
/// next round's `e`) and its `h` (the next round's `a`). With a `schedule`
/// macro first, `schedule!(t)` runs before each round `t` (the message
/// schedule of step 1, extended one word ahead of the round that reads it).
///
/// ```text
/// hash_core::sha2_eight_rounds!(round, [a, b, c, d, e, f, g, h], 0);
/// hash_core::sha2_eight_rounds!(schedule, round, [a, b, c, d, e, f, g, h], 16);
/// ```
#[macro_export]
macro_rules! sha2_eight_rounds {
    ($round:ident, [$a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident], $t:expr) => {
        $round!($a, $b, $c, $d, $e, $f, $g, $h, $t);
        $round!($h, $a, $b, $c, $d, $e, $f, $g, $t + 1);
        $round!($g, $h, $a, $b, $c, $d, $e, $f, $t + 2);
        $round!($f, $g, $h, $a, $b, $c, $d, $e, $t + 3);
        $round!($e, $f, $g, $h, $a, $b, $c, $d, $t + 4);
        $round!($d, $e, $f, $g, $h, $a, $b, $c, $t + 5);
        $round!($c, $d, $e, $f, $g, $h, $a, $b, $t + 6);
        $round!($b, $c, $d, $e, $f, $g, $h, $a, $t + 7);
    };
    ($schedule:ident, $round:ident,
     [$a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident], $t:expr) => {
        $schedule!($t);
        $round!($a, $b, $c, $d, $e, $f, $g, $h, $t);
        $schedule!($t + 1);
        $round!($h, $a, $b, $c, $d, $e, $f, $g, $t + 1);
        $schedule!($t + 2);
        $round!($g, $h, $a, $b, $c, $d, $e, $f, $t + 2);
        $schedule!($t + 3);
        $round!($f, $g, $h, $a, $b, $c, $d, $e, $t + 3);
        $schedule!($t + 4);
        $round!($e, $f, $g, $h, $a, $b, $c, $d, $t + 4);
        $schedule!($t + 5);
        $round!($d, $e, $f, $g, $h, $a, $b, $c, $t + 5);
        $schedule!($t + 6);
        $round!($c, $d, $e, $f, $g, $h, $a, $b, $t + 6);
        $schedule!($t + 7);
        $round!($b, $c, $d, $e, $f, $g, $h, $a, $t + 7);
    };
}
