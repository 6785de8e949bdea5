//! Lesson 20: a schedule changes the learning rate as training goes on.
//!
//! Python: micrograd's demo sets `learning_rate = 1.0 - 0.9*k/100` at step k.

use approx::assert_relative_eq;
use micrograd::optim::Schedule;
use micrograd::prelude::*;

fn hyper_parameter_name(result: Result<Schedule, Error>) -> &'static str {
    match result {
        Err(Error::HyperParameter { name, .. }) => name,
        other => panic!("expected HyperParameter, got {other:?}"),
    }
}

#[test]
fn a_constant_schedule_never_changes() {
    let s = Schedule::constant(0.05).unwrap();
    assert_eq!((s.lr_at(0), s.lr_at(1_000_000)), (0.05, 0.05));
}

// learning_rate = 1.0 - 0.9*k/100
#[test]
fn linear_from_1_to_0_1_over_100_steps_is_micrograds_schedule_bit_for_bit() {
    let s = Schedule::linear(1.0, 0.1, 100).unwrap();
    for k in 0..100 {
        assert_eq!(s.lr_at(k), 1.0 - 0.9 * k as f64 / 100.0, "step {k}");
    }
}

#[test]
fn linear_goes_straight_from_start_to_end_then_stays() {
    // 2 - (2 - 1)·k/4: k = 0 → 2, k = 1 → 1.75, k = 2 → 1.5, k = 4 → 1, then 1
    let s = Schedule::linear(2.0, 1.0, 4).unwrap();
    let lrs: Vec<f64> = [0, 1, 2, 4, 5, 100].map(|k| s.lr_at(k)).to_vec();
    assert_eq!(lrs, [2.0, 1.75, 1.5, 1.0, 1.0, 1.0]);
}

#[test]
fn step_decay_multiplies_by_gamma_every_n_steps() {
    // 0.1·0.5^⌊k/10⌋: k = 0..9 → 0.1, k = 10..19 → 0.05, k = 25 → 0.025
    let s = Schedule::step_decay(0.1, 0.5, 10).unwrap();
    let lrs: Vec<f64> = [0, 9, 10, 19, 25].map(|k| s.lr_at(k)).to_vec();
    assert_eq!(lrs, [0.1, 0.1, 0.05, 0.05, 0.025]);
}

#[test]
fn cosine_goes_from_max_to_min_along_half_a_cosine_then_stays() {
    // min + (max - min)·(1 + cos(πk/n))/2 with max = 1, min = 0.1, n = 100:
    // k = 0: cos 0 = 1 → 1; k = 50: cos(π/2) = 0 → 0.55; k = 100: cos π = -1 → 0.1;
    // k = 25: cos(π/4) = √2/2 → 0.1 + 0.9·(1 + √2/2)/2
    let s = Schedule::cosine(1.0, 0.1, 100).unwrap();
    assert_eq!(s.lr_at(0), 1.0);
    assert_relative_eq!(s.lr_at(50), 0.55, max_relative = 1e-15);
    let quarter = 0.1 + 0.9 * (1.0 + std::f64::consts::FRAC_1_SQRT_2) / 2.0;
    assert_relative_eq!(s.lr_at(25), quarter, max_relative = 1e-15);
    assert_relative_eq!(s.lr_at(100), 0.1, max_relative = 1e-15);
    assert_eq!(s.lr_at(101), 0.1);
}

#[test]
fn apply_drives_any_optimizer() {
    let s = Schedule::linear(1.0, 0.1, 100).unwrap();
    let p = Value::new(1.0);
    let mut optimizers: Vec<Box<dyn Optimizer>> = vec![
        Box::new(Sgd::new(vec![p.clone()], 1.0).unwrap()),
        Box::new(Adam::new(vec![p.clone()], 1.0).unwrap()),
    ];
    for opt in &mut optimizers {
        s.apply(opt.as_mut(), 50).unwrap();
        assert_eq!(opt.learning_rate(), 0.55);
    }
}

#[test]
fn a_cosine_schedule_may_anneal_an_optimizer_to_zero() {
    let s = Schedule::cosine(0.5, 0.0, 10).unwrap();
    let mut sgd = Sgd::new(vec![Value::new(1.0)], 0.5).unwrap();
    s.apply(&mut sgd, 10).unwrap();
    assert_eq!(sgd.learning_rate(), 0.0);
}

#[test]
fn schedule_parameters_are_checked() {
    assert_eq!(hyper_parameter_name(Schedule::constant(-0.1)), "lr");
    assert_eq!(
        hyper_parameter_name(Schedule::linear(f64::NAN, 0.1, 10)),
        "start"
    );
    assert_eq!(hyper_parameter_name(Schedule::linear(1.0, -0.1, 10)), "end");
    assert_eq!(hyper_parameter_name(Schedule::linear(1.0, 0.1, 0)), "steps");
    assert_eq!(
        hyper_parameter_name(Schedule::step_decay(0.1, 0.0, 10)),
        "gamma"
    );
    assert_eq!(
        hyper_parameter_name(Schedule::step_decay(0.1, 1.5, 10)),
        "gamma"
    );
    assert_eq!(
        hyper_parameter_name(Schedule::step_decay(0.1, 0.5, 0)),
        "every"
    );
    assert_eq!(hyper_parameter_name(Schedule::cosine(-1.0, 0.0, 10)), "max");
    assert_eq!(
        hyper_parameter_name(Schedule::cosine(f64::INFINITY, 0.0, 10)),
        "max"
    );
    assert_eq!(hyper_parameter_name(Schedule::cosine(1.0, 2.0, 10)), "min");
    assert_eq!(hyper_parameter_name(Schedule::cosine(1.0, 0.0, 0)), "steps");
}

#[test]
fn a_linear_schedule_to_zero_ends_at_zero_not_below() {
    // 0.1 - (0.1 - 0)·3/3 rounds to -1.39e-17; the schedule ends at 0 exactly.
    let (start, k) = (0.1, 3.0);
    assert!(start - start * k / 3.0 < 0.0);
    let s = Schedule::linear(0.1, 0.0, 3).unwrap();
    assert_eq!(s.lr_at(3), 0.0);
    let mut sgd = Sgd::new(vec![Value::new(1.0)], 0.1).unwrap();
    s.apply(&mut sgd, 3).unwrap();
}

/// Every rate of `s` over steps `0..=steps + 2` lies between `from` and `to` and moves
/// monotonically from `from` towards `to`; the rate at `steps` is `to` itself.
fn assert_stays_between_and_monotone(s: Schedule, from: f64, to: f64, steps: usize) {
    let (lo, hi) = (from.min(to), from.max(to));
    let mut previous = from;
    for k in 0..=steps + 2 {
        let lr = s.lr_at(k);
        assert!((lo..=hi).contains(&lr), "{s:?}: lr_at({k}) = {lr:e}");
        let forward = if from >= to {
            lr <= previous
        } else {
            lr >= previous
        };
        assert!(forward, "{s:?}: lr_at({k}) = {lr:e} after {previous:e}");
        previous = lr;
    }
    assert_eq!(s.lr_at(steps), to, "{s:?}");
}

#[test]
fn linear_and_cosine_schedules_never_leave_their_range_and_are_monotone() {
    // 6,000 configurations from a fixed seed, ends drawn on several scales.
    use rand::{rngs::StdRng, RngExt, SeedableRng};
    let mut rng = StdRng::seed_from_u64(20);
    for _ in 0..3_000 {
        let scale = 10f64.powi(rng.random_range(-6..=1));
        let (a, b) = (rng.random::<f64>() * scale, rng.random::<f64>() * scale);
        let b = if rng.random::<bool>() { 0.0 } else { b };
        let steps = rng.random_range(1..=60);
        let linear = Schedule::linear(a, b, steps).unwrap();
        assert_stays_between_and_monotone(linear, a, b, steps);
        let (max, min) = (a.max(b), a.min(b));
        let cosine = Schedule::cosine(max, min, steps).unwrap();
        assert_stays_between_and_monotone(cosine, max, min, steps);
    }
}
