//! [`PythonRandom`]: CPython's generator (feature `rand_mt`).

use std::convert::Infallible;

use rand::TryRng;
use rand_mt::Mt;

use super::{random, uniform};

/// CPython's random number generator: MT19937 seeded as `random.seed(n)` seeds it.
///
/// `random.seed(n)` for an integer `n` calls MT19937's `init_by_array` with the key made
/// of the 32-bit words of `|n|`, least significant word first (and the key `[0]` for
/// `n = 0`). [`PythonRandom::seed`] does the same, so the `u32` stream, [`random`] and
/// [`uniform`] match Python's draw for draw.
///
/// It implements [`rand::Rng`], so it can be passed wherever a generator is wanted,
/// e.g. to [`MLP::new`](crate::nn::MLP::new).
///
/// ```
/// use micrograd::random::PythonRandom;
/// use rand::Rng;
/// // Python: random.seed(1337); random.getrandbits(32)
/// let mut rng = PythonRandom::seed(1337);
/// assert_eq!(rng.next_u32(), 2653228291);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PythonRandom {
    mt: Mt,
}

impl PythonRandom {
    /// The generator after Python's `random.seed(n)`.
    ///
    /// The sign of `n` is ignored, as in Python (`seed(-5)` is `seed(5)`).
    ///
    /// ```
    /// use micrograd::random::PythonRandom;
    /// // Python: random.seed(2**40 + 5); random.random()
    /// let mut rng = PythonRandom::seed((1 << 40) + 5);
    /// assert_eq!(rng.random(), 0.5043802970418443);
    /// ```
    pub fn seed(n: i128) -> PythonRandom {
        PythonRandom {
            mt: Mt::new_with_key(seed_key(n)),
        }
    }

    /// Python's `random.random()`: see [`random`].
    pub fn random(&mut self) -> f64 {
        random(self)
    }

    /// Python's `random.uniform(a, b)`: see [`uniform`].
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        uniform(self, a, b)
    }
}

/// The `init_by_array` key CPython builds from a seed: the 32-bit words of `|n|`, least
/// significant first, with no high zero words (and `[0]` for 0).
fn seed_key(n: i128) -> Vec<u32> {
    let mut rest = n.unsigned_abs();
    let mut key = Vec::new();
    loop {
        key.push(rest as u32); // the low word; `as` keeps exactly the low 32 bits
        rest >>= 32;
        if rest == 0 {
            return key;
        }
    }
}

/// The `rand` core trait: `next_u32` is MT19937's `genrand_uint32`, Python's
/// `getrandbits(32)`. `next_u64` and `fill_bytes` follow `rand_mt`.
impl TryRng for PythonRandom {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.mt.next_u32())
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.mt.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.mt.fill_bytes(dst);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::seed_key;

    #[test]
    fn seed_key_is_the_little_endian_words_of_the_absolute_value() {
        assert_eq!(seed_key(0), [0]);
        assert_eq!(seed_key(1337), [1337]);
        assert_eq!(seed_key(-1337), [1337]);
        assert_eq!(seed_key((1 << 40) + 5), [5, 1 << 8]);
        assert_eq!(seed_key(1 << 32), [0, 1]);
    }
}
