//! The generator's random numbers: `SplitMix64` (Steele, Lea and Flood,
//! "Fast splittable pseudorandom number generators", 2014), written out
//! here so that its output is fixed by this file alone: no crate's
//! version can change a generated track. Floats are made from the top 53
//! bits, exactly, so every machine gets the same ones.

/// A `SplitMix64` stream.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A float in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A float in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// An integer in [0, n), n > 0 (the remainder's slight bias is part
    /// of the generator's definition).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference output of `SplitMix64` seeded with 1234567 (from the
    /// algorithm's published C code): if this changes, every generated
    /// track does.
    #[test]
    fn the_stream_is_splitmix64() {
        let mut r = Rng::new(1_234_567);
        let got: Vec<u64> = (0..5).map(|_| r.next_u64()).collect();
        assert_eq!(
            got,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821,
            ]
        );
    }

    #[test]
    fn units_are_in_zero_to_one() {
        let mut r = Rng::new(7);
        assert!(
            (0..10_000)
                .map(|_| r.unit())
                .all(|u| (0.0..1.0).contains(&u))
        );
    }
}
