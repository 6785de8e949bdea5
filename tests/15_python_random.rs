//! Lesson 15: `PythonRandom` draws exactly what CPython's `random` module draws.
//!
//! Every expected number below is printed by `scripts/ci/python_random_reference.py`
//! (CPython 3.11: `random.seed(n)` then `random.random()`, `random.uniform(-1, 1)` and
//! `random.getrandbits(32)`).

use micrograd::random::{random, uniform, PythonRandom};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Python's draws after `random.seed(seed)`.
struct Reference {
    seed: i128,
    random: [f64; 5],
    uniform: [f64; 3],
    u32: [u32; 3],
}

const REFERENCE: [Reference; 4] = [
    Reference {
        seed: 0,
        random: [
            0.8444218515250481,
            0.7579544029403025,
            0.420571580830845,
            0.25891675029296335,
            0.5112747213686085,
        ],
        uniform: [0.6888437030500962, 0.515908805880605, -0.15885683833831],
        u32: [3626764237, 1654615998, 3255389356],
    },
    Reference {
        seed: 1,
        random: [
            0.13436424411240122,
            0.8474337369372327,
            0.763774618976614,
            0.2550690257394217,
            0.49543508709194095,
        ],
        uniform: [-0.7312715117751976, 0.6948674738744653, 0.5275492379532281],
        u32: [577090037, 2444712010, 3639700191],
    },
    Reference {
        seed: 1337,
        random: [
            0.6177528569514706,
            0.5332655736050008,
            0.36584835924937553,
            0.5857873539022715,
            0.16568728368878083,
        ],
        uniform: [
            0.23550571390294128,
            0.06653114721000164,
            -0.26830328150124894,
        ],
        u32: [2653228291, 3975144315, 2290358181],
    },
    // 2**40 + 5 needs two key words: [5, 256]
    Reference {
        seed: (1 << 40) + 5,
        random: [
            0.5043802970418443,
            0.2686044399723282,
            0.9257865475671585,
            0.530959239292452,
            0.8179643216302002,
        ],
        uniform: [0.008760594083688567, -0.4627911200553436, 0.851573095134317],
        u32: [2166296868, 2220160828, 1153647273],
    },
];

// Python: random.seed(n); [random.random() for _ in range(5)]
#[test]
fn random_matches_python_for_every_seed() {
    for r in &REFERENCE {
        let mut rng = PythonRandom::seed(r.seed);
        let got: Vec<f64> = (0..5).map(|_| rng.random()).collect();
        assert_eq!(got, r.random, "seed {}", r.seed);
    }
}

// Python: random.seed(n); [random.uniform(-1, 1) for _ in range(3)]
#[test]
fn uniform_matches_python_for_every_seed() {
    for r in &REFERENCE {
        let mut rng = PythonRandom::seed(r.seed);
        let got: Vec<f64> = (0..3).map(|_| rng.uniform(-1.0, 1.0)).collect();
        assert_eq!(got, r.uniform, "seed {}", r.seed);
    }
}

// Python: random.seed(n); [random.getrandbits(32) for _ in range(3)]
#[test]
fn next_u32_is_the_raw_mersenne_twister_output() {
    for r in &REFERENCE {
        let mut rng = PythonRandom::seed(r.seed);
        let got: Vec<u32> = (0..3).map(|_| rng.next_u32()).collect();
        assert_eq!(got, r.u32, "seed {}", r.seed);
    }
}

// Python: random.seed(-1337) is random.seed(1337)
#[test]
fn a_negative_seed_is_its_absolute_value() {
    assert_eq!(PythonRandom::seed(-1337), PythonRandom::seed(1337));
}

#[test]
fn the_free_functions_work_with_any_rng_and_a_seed_reproduces_them() {
    let draw = |seed| {
        let mut rng = StdRng::seed_from_u64(seed);
        (random(&mut rng), uniform(&mut rng, -1.0, 1.0))
    };
    let (r, u) = draw(7);
    assert!((0.0..1.0).contains(&r));
    assert!((-1.0..=1.0).contains(&u));
    assert_eq!(draw(7), (r, u));
}

// random() is a multiple of 2^-53 built from two u32s: check it by hand for all-ones words
#[test]
fn random_uses_27_plus_26_bits_of_two_words() {
    struct Ones;
    impl rand::TryRng for Ones {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(u32::MAX)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(u64::MAX)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.fill(0xff);
            Ok(())
        }
    }
    // (2^27 - 1) * 2^26 + (2^26 - 1) = 2^53 - 1, so random() = 1 - 2^-53
    assert_eq!(random(&mut Ones), 1.0 - f64::EPSILON / 2.0);
}
