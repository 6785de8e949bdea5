//! Lesson 19: optimisers move the parameters against their gradients.
//!
//! Python: micrograd's update `for p in model.parameters(): p.data -= learning_rate * p.grad`.
//! Each rule is checked against steps worked out by hand in the comments.

use approx::assert_relative_eq;
use micrograd::optim::{AdamW, Around, OptimizerState, RmsProp};
use micrograd::prelude::*;

/// A parameter whose gradient is `grad` (as if `backward` had just run).
fn param_with_grad(data: f64, grad: f64) -> Value {
    let p = Value::new(data);
    (&p * grad).backward();
    p
}

/// Sets each parameter's gradient to the matching entry of `grads`.
fn set_grads(params: &[Value], grads: &[f64]) {
    for (p, &g) in params.iter().zip(grads) {
        p.zero_grad();
        (p * g).backward();
    }
}

fn hyper_parameter_name(result: Result<impl std::fmt::Debug, Error>) -> &'static str {
    match result {
        Err(Error::HyperParameter { name, .. }) => name,
        other => panic!("expected HyperParameter, got {other:?}"),
    }
}

// ----- SGD -----

// for p in model.parameters(): p.data -= learning_rate * p.grad
#[test]
fn plain_sgd_is_micrograds_update_bit_for_bit() {
    let (data, grads, lr) = ([0.1, -0.7, 3.3], [0.3, 1e-3, -2.9], 0.91);
    let params: Vec<Value> = data.iter().map(|&d| Value::new(d)).collect();
    set_grads(&params, &grads);
    let mut sgd = Sgd::new(params.clone(), lr).unwrap();
    sgd.step().unwrap();
    for ((p, d), g) in params.iter().zip(data).zip(grads) {
        assert_eq!(p.data(), d - lr * g);
    }
}

// A parameter listed twice is computed twice from its data before the step, so it
// moves once: 1 - 0.5·2 = 0 (not 0 - 0.5·2 = -1, as Python's loop would give).
#[test]
fn a_parameter_listed_twice_moves_once() {
    let w = param_with_grad(1.0, 2.0);
    let mut sgd = Sgd::new(vec![w.clone(), w.clone()], 0.5).unwrap();
    sgd.step().unwrap();
    assert_eq!(w.data(), 0.0);
}

#[test]
fn sgd_momentum_accumulates_a_velocity() {
    // lr = 0.1, m = 0.9, p₀ = 1
    // step 1, g = 1: v = 0.9·0 + 1 = 1,            p = 1 - 0.1·1 = 0.9
    // step 2, g = 2: v = 0.9·1 + 2 = 2.9,          p = 0.9 - 0.1·2.9 = 0.61
    // step 3, g = 0: v = 0.9·2.9 + 0 = 2.61,       p = 0.61 - 0.1·2.61 = 0.349
    let p = Value::new(1.0);
    let mut sgd = Sgd::new(vec![p.clone()], 0.1)
        .unwrap()
        .momentum(0.9)
        .unwrap();
    for (g, expected) in [(1.0, 0.9), (2.0, 0.61), (0.0, 0.349)] {
        set_grads(std::slice::from_ref(&p), &[g]);
        sgd.step().unwrap();
        assert_relative_eq!(p.data(), expected, max_relative = 1e-14);
    }
}

// PyTorch: momentum switched on after plain steps starts its buffer at the gradient
// (buf = g on its first step), not at the last gradient of a plain step.
#[test]
fn momentum_set_after_plain_steps_starts_from_no_velocity() {
    let p = Value::new(1.0);
    let mut sgd = Sgd::new(vec![p.clone()], 0.1).unwrap();
    p.set_grad(10.0);
    sgd.step().unwrap(); // p = 1 - 0.1 * 10 = 0
    let mut sgd = sgd.momentum(0.9).unwrap();
    p.set_grad(1.0);
    sgd.step().unwrap(); // v = 0.9 * 0 + 1
    assert_eq!(p.data(), 0.0 - 0.1 * 1.0);
}

#[test]
fn sgd_weight_decay_adds_wd_times_p_to_the_gradient() {
    // lr = 0.5, wd = 0.1, p = 2, g = 1: g' = 1 + 0.1·2 = 1.2, p = 2 - 0.5·1.2 = 1.4
    let p = param_with_grad(2.0, 1.0);
    let mut sgd = Sgd::new(vec![p.clone()], 0.5)
        .unwrap()
        .weight_decay(0.1)
        .unwrap();
    sgd.step().unwrap();
    assert_relative_eq!(p.data(), 1.4, max_relative = 1e-15);
}

#[test]
fn zero_grad_resets_every_parameter() {
    let params = vec![param_with_grad(1.0, 3.0), param_with_grad(2.0, -1.0)];
    let sgd = Sgd::new(params.clone(), 0.1).unwrap();
    sgd.zero_grad();
    assert!(params.iter().all(|p| p.grad() == 0.0));
}

// ----- Adam and AdamW -----

#[test]
fn adams_first_step_moves_each_parameter_by_about_lr_against_its_gradient() {
    // Step 1: m = 0.1·g, v = 0.001·g², m̂ = m/(1 - 0.9) = g, v̂ = v/(1 - 0.999) = g²,
    // so p ← p - lr·g/(|g| + 1e-8) ≈ p - lr·sign(g), whatever |g| is.
    let grads = [1e-3, 5.0, -100.0];
    let params: Vec<Value> = grads.iter().map(|&g| param_with_grad(1.0, g)).collect();
    let mut adam = Adam::new(params.clone(), 0.01).unwrap();
    adam.step().unwrap();
    for (p, g) in params.iter().zip(grads) {
        assert_relative_eq!(
            p.data(),
            1.0 - 0.01 * g / (g.abs() + 1e-8),
            max_relative = 1e-15
        );
        assert!((p.data() - (1.0 - 0.01 * g.signum())).abs() < 1e-6);
    }
}

#[test]
fn adams_second_step_uses_bias_corrected_moments() {
    // g₁ = 1: m = 0.1, v = 0.001
    // g₂ = 3: m = 0.9·0.1 + 0.1·3 = 0.39,   m̂ = 0.39 / (1 - 0.9²) = 0.39 / 0.19
    //         v = 0.999·0.001 + 0.001·9 = 0.009999, v̂ = 0.009999 / (1 - 0.999²) = 0.009999 / 0.001999
    // p₂ = p₁ - lr·m̂/(√v̂ + 1e-8), with p₁ = 1 - lr·1/(1 + 1e-8)
    let lr = 0.1;
    let p = Value::new(1.0);
    let mut adam = Adam::new(vec![p.clone()], lr).unwrap();
    for g in [1.0, 3.0] {
        set_grads(std::slice::from_ref(&p), &[g]);
        adam.step().unwrap();
    }
    let p1 = 1.0 - lr / (1.0 + 1e-8);
    let p2 = p1 - lr * (0.39 / 0.19) / ((0.009999 / 0.001999f64).sqrt() + 1e-8);
    assert_relative_eq!(p.data(), p2, max_relative = 1e-12);
}

#[test]
fn adam_takes_the_documented_steps_bit_for_bit_after_its_bias_correction_of_m_is_1() {
    // After about 350 steps 1 - 0.9**t is exactly 1 (Adam then skips m / 1): 400 steps,
    // by step and by step_numbers, against the rule written out.
    let w = Value::new(1.0);
    let mut by_values = Adam::new(vec![w.clone()], 0.01).unwrap();
    let mut adam = Adam::new(vec![Value::new(1.0)], 0.01).unwrap();
    let (b1, b2, eps, lr) = (0.9f64, 0.999f64, 1e-8, 0.01);
    let (mut p, mut m, mut v, mut numbers) = (1.0f64, 0.0, 0.0, [1.0]);
    for t in 1..=400 {
        let g = ((t * 37 % 11) as f64 - 5.0) * 0.1;
        // torch: m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2
        m = b1 * m + (1.0 - b1) * g;
        v = b2 * v + (1.0 - b2) * g * g;
        // m_hat = m / (1 - b1^t); v_hat = v / (1 - b2^t); p -= lr m_hat / (sqrt(v_hat) + eps)
        let (m_hat, v_hat) = (m / (1.0 - b1.powi(t)), v / (1.0 - b2.powi(t)));
        p -= lr * m_hat / (v_hat.sqrt() + eps);
        w.set_grad(g);
        by_values.step().unwrap();
        adam.step_numbers(&mut numbers, &[g], 1).unwrap();
        assert_eq!(
            (w.data().to_bits(), numbers[0].to_bits()),
            (p.to_bits(), p.to_bits()),
            "step {t}"
        );
    }
}

#[test]
fn adamw_decays_the_parameter_before_the_adam_step() {
    // lr = 0.1, wd = 0.5, p = 2, g = 4:
    // decay: p = 2·(1 - 0.1·0.5) = 1.9; Adam: 1.9 - 0.1·4/(4 + 1e-8) ≈ 1.8
    // (the other order would give (2 - 0.1)·0.95 = 1.805)
    let p = param_with_grad(2.0, 4.0);
    let mut adamw = AdamW::new(vec![p.clone()], 0.1)
        .unwrap()
        .weight_decay(0.5)
        .unwrap();
    adamw.step().unwrap();
    assert_relative_eq!(
        p.data(),
        1.9 - 0.1 * 4.0 / (4.0 + 1e-8),
        max_relative = 1e-15
    );
}

#[test]
fn adamw_with_zero_weight_decay_is_adam() {
    let (a, b) = (param_with_grad(0.3, -0.2), param_with_grad(0.3, -0.2));
    let mut adam = Adam::new(vec![a.clone()], 0.05).unwrap();
    let mut adamw = AdamW::new(vec![b.clone()], 0.05)
        .unwrap()
        .weight_decay(0.0)
        .unwrap();
    adam.step().unwrap();
    adamw.step().unwrap();
    assert_eq!(a.data(), b.data());
}

// ----- non-finite numbers stop a step without changing anything -----

#[test]
fn a_nan_gradient_is_refused_and_changes_nothing() {
    let good = param_with_grad(1.0, 0.5);
    let bad = param_with_grad(2.0, f64::NAN).with_label("w7");
    let mut adam = Adam::new(vec![good.clone(), bad.clone()], 0.1).unwrap();
    let err = adam.step().unwrap_err();
    assert!(matches!(
        err,
        Error::NonFiniteUpdate {
            what: "gradient",
            index: 1,
            ..
        }
    ));
    assert!(err.to_string().contains("\"w7\""), "{err}");
    assert_eq!((good.data(), bad.data()), (1.0, 2.0));
    // The refused step left m and v at 0, so this is a first step again and moves `good`
    // by ≈ lr. (Had it kept m = 0.05, v = 0.00025 from g = 0.5, this step would give
    // m̂ = 0.095/0.1 = 0.95, v̂ = 0.00049975/0.001 ≈ 0.49975, a move of ≈ 0.134.)
    bad.zero_grad();
    adam.step().unwrap();
    assert_relative_eq!(good.data(), 1.0 - 0.1, max_relative = 1e-7);
}

#[test]
fn an_update_that_overflows_is_refused() {
    // f64::MAX - 1·(-f64::MAX) = inf
    let p = param_with_grad(f64::MAX, -f64::MAX);
    let mut sgd = Sgd::new(vec![p.clone()], 1.0).unwrap();
    let err = sgd.step().unwrap_err();
    assert!(matches!(
        err,
        Error::NonFiniteUpdate {
            what: "new value",
            ..
        }
    ));
    assert_eq!(p.data(), f64::MAX);
}

// ----- hyper-parameters are checked when the optimiser is built -----

#[test]
fn a_learning_rate_must_be_finite_and_not_negative_in_new_and_in_set_learning_rate_alike() {
    for lr in [-0.1, f64::NAN, f64::INFINITY] {
        let mut sgd = Sgd::new(vec![Value::new(1.0)], 0.1).unwrap();
        let mut adam = Adam::new(vec![Value::new(1.0)], 0.1).unwrap();
        assert_eq!(
            hyper_parameter_name(Sgd::new(vec![Value::new(1.0)], lr)),
            "lr"
        );
        assert_eq!(
            hyper_parameter_name(Adam::new(vec![Value::new(1.0)], lr)),
            "lr"
        );
        assert_eq!(hyper_parameter_name(sgd.set_learning_rate(lr)), "lr");
        assert_eq!(hyper_parameter_name(adam.set_learning_rate(lr)), "lr");
    }
    // 0 is a learning rate a schedule may anneal to, so both accept it (as PyTorch does).
    Sgd::new(vec![Value::new(1.0)], 0.0).unwrap();
    Adam::new(vec![Value::new(1.0)], 0.0).unwrap();
}

#[test]
fn weight_decay_that_would_flip_signs_is_refused() {
    // p ← p·(1 - lr·wd) - ...: with lr·wd = 0.5·4 = 2, a parameter with zero gradient
    // would go 1 → -1 → 1 → ...
    let adamw = || AdamW::new(vec![Value::new(1.0)], 0.5).unwrap();
    let err = adamw().weight_decay(4.0).unwrap_err();
    assert!(
        matches!(err, Error::HyperParameter { name: "lr * weight_decay", value, .. } if value == 2.0),
        "{err:?}"
    );
    assert!(err.to_string().contains("lower the learning rate"), "{err}");
    let mut ok = adamw().weight_decay(2.0).unwrap(); // lr·wd = 1: allowed
    assert_eq!(
        hyper_parameter_name(ok.set_learning_rate(0.6)),
        "lr * weight_decay"
    );
    assert_eq!(ok.learning_rate(), 0.5); // a refused rate changes nothing
    assert_eq!(
        hyper_parameter_name(AdamW::new(vec![Value::new(1.0)], 200.0)), // default wd 0.01
        "lr * weight_decay"
    );
    let sgd = Sgd::new(vec![Value::new(1.0)], 0.5).unwrap();
    assert_eq!(
        hyper_parameter_name(sgd.weight_decay(4.0)),
        "lr * weight_decay"
    );
}

#[test]
fn momentum_betas_weight_decay_and_eps_are_range_checked() {
    let sgd = || Sgd::new(vec![Value::new(1.0)], 0.1).unwrap();
    let adam = || Adam::new(vec![Value::new(1.0)], 0.1).unwrap();
    let adamw = || AdamW::new(vec![Value::new(1.0)], 0.1).unwrap();
    assert_eq!(hyper_parameter_name(sgd().momentum(1.0)), "momentum");
    assert_eq!(hyper_parameter_name(sgd().momentum(-0.1)), "momentum");
    assert_eq!(
        hyper_parameter_name(sgd().weight_decay(-1e-4)),
        "weight_decay"
    );
    assert_eq!(hyper_parameter_name(adam().betas(1.0, 0.999)), "beta1");
    assert_eq!(hyper_parameter_name(adam().betas(0.9, f64::NAN)), "beta2");
    assert_eq!(hyper_parameter_name(adam().eps(0.0)), "eps");
    assert_eq!(
        hyper_parameter_name(adamw().weight_decay(f64::NAN)),
        "weight_decay"
    );
    let err = sgd().momentum(1.0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "momentum = 1 is out of range: it must be in [0, 1)"
    );
}

#[test]
fn an_optimizer_needs_parameters() {
    assert!(matches!(Sgd::new(vec![], 0.1), Err(Error::InvalidInput(_))));
    assert!(matches!(
        Adam::new(vec![], 0.1),
        Err(Error::InvalidInput(_))
    ));
}

#[test]
fn a_refused_learning_rate_leaves_the_old_one() {
    let mut sgd = Sgd::new(vec![Value::new(1.0)], 0.1).unwrap();
    sgd.set_learning_rate(0.0).unwrap();
    assert_eq!(sgd.learning_rate(), 0.0);
    assert_eq!(hyper_parameter_name(sgd.set_learning_rate(-1.0)), "lr");
    assert_eq!(sgd.learning_rate(), 0.0);
}

#[test]
fn an_optimizers_debug_shows_its_settings_not_its_parameters() {
    let params: Vec<Value> = (0..2410).map(|i| Value::new(i as f64)).collect();
    let sgd = Sgd::new(params.clone(), 0.1)
        .unwrap()
        .momentum(0.9)
        .unwrap();
    assert_eq!(
        format!("{sgd:?}"),
        "Sgd { lr: 0.1, momentum: 0.9, weight_decay: 0.0, params: 2410 }"
    );
    let mut adamw = AdamW::new(params.clone(), 0.01).unwrap();
    adamw.zero_grad();
    adamw.step().unwrap();
    assert_eq!(
        format!("{adamw:?}"),
        "AdamW(Adam { lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, weight_decay: 0.01, \
         step: 1, params: 2410 })"
    );
}

// ----- the state of an optimiser, to resume a run (lesson 17 saves it in a file) -----

#[test]
fn a_state_that_does_not_fit_is_refused_and_changes_nothing() {
    let params = vec![Value::new(1.0), Value::new(2.0)];
    let mut sgd = Sgd::new(params.clone(), 0.1)
        .unwrap()
        .momentum(0.5)
        .unwrap();
    set_grads(&params, &[1.0, -1.0]);
    sgd.step().unwrap();
    let before = sgd.state();
    assert_eq!(before.slots, vec![vec![1.0], vec![-1.0]]); // v = g after one step

    let mut one_short = before.clone();
    one_short.slots.pop();
    let mut not_finite = before.clone();
    not_finite.slots[1][0] = f64::NAN;
    let mut bad_lr = before.clone();
    bad_lr.hyper_parameters[0].1 = -1.0;
    let adams = Adam::new(params.clone(), 0.1).unwrap().state();
    for state in [one_short, not_finite, adams] {
        let err = sgd.set_state(&state).unwrap_err();
        assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    }
    assert_eq!(hyper_parameter_name(sgd.set_state(&bad_lr)), "lr");
    assert_eq!(sgd.state(), before);
}

#[test]
fn a_state_with_a_hyper_parameter_the_optimizer_does_not_know_is_refused() {
    let params = vec![Value::new(1.0)];
    let mut adam = Adam::new(params.clone(), 0.1).unwrap();
    let mut adamw = AdamW::new(params.clone(), 0.1).unwrap();
    let mut misspelt = adamw.state();
    misspelt.hyper_parameters.last_mut().unwrap().0 = "weight_decy".into();
    misspelt.kind = "Adam".into(); // an Adam knows no weight decay at all
    let err = adam.set_state(&misspelt).unwrap_err().to_string();
    assert!(
        err.contains("`weight_decy`") && err.contains("lr, beta1, beta2, eps"),
        "{err}"
    );
    misspelt.kind = "AdamW".into(); // nor, spelt so, does an AdamW
    let err = adamw.set_state(&misspelt).unwrap_err().to_string();
    assert!(err.contains("`weight_decy`"), "{err}");
}

#[test]
fn a_state_that_gives_a_hyper_parameter_twice_is_refused() {
    let mut sgd = Sgd::new(vec![Value::new(1.0)], 0.1).unwrap();
    let mut twice = sgd.state();
    twice.hyper_parameters.push(("lr".into(), 5.0)); // which lr was meant?
    let err = sgd.set_state(&twice).unwrap_err().to_string();
    assert!(err.contains("`lr` twice"), "{err}");
    assert_eq!(sgd.learning_rate(), 0.1);
}

#[test]
fn step_numbers_on_many_parameters_steps_them_all_or_refuses_the_lowest_index() {
    // 4,000 parameters on one thread: blocks of 1,000, each computed a few hundred at a
    // time, then looked at for a number that is not finite.
    let data: Vec<f64> = (0..4000).map(|i| (i % 7) as f64 - 3.0).collect();
    let mut grads: Vec<f64> = (0..4000).map(|i| (i % 5) as f64 * 0.5).collect();
    let params: Vec<Value> = data.iter().map(|&d| Value::new(d)).collect();
    let mut by_values = Adam::new(params.clone(), 0.01).unwrap();
    let mut adam = Adam::new(params.clone(), 0.01).unwrap();
    let mut numbers = data.clone();
    set_grads(&params, &grads);
    by_values.step().unwrap();
    adam.step_numbers(&mut numbers, &grads, 1).unwrap();
    let stepped: Vec<f64> = params.iter().map(Value::data).collect();
    assert_eq!(numbers, stepped);
    grads[2900] = f64::NAN;
    grads[2600] = f64::INFINITY; // the same block, a later part of it than its first
    let before = (numbers.clone(), adam.state());
    let err = adam.step_numbers(&mut numbers, &grads, 1).unwrap_err();
    assert!(
        matches!(err, Error::NonFiniteUpdate { index: 2600, .. }),
        "{err}"
    );
    assert_eq!((numbers, adam.state()), before);
}

// PyTorch: torch.optim.SGD([y], lr=0.1) for y = w * 2 raises "can't optimize a
// non-leaf Tensor": the next forward pass builds y again, and the step is lost.
#[test]
fn an_optimizer_over_a_computed_value_is_refused_naming_it() {
    let w = Value::new(1.0);
    let y = &w * 2.0;
    let err = Sgd::new(vec![w.clone(), y.clone()], 0.1).unwrap_err();
    assert!(
        err.to_string().contains("parameter #1 was computed by `*`"),
        "{err}"
    );
    assert!(Adam::new(vec![y.clone()], 0.1).is_err());
    assert!(RmsProp::new(vec![y], 0.1).is_err());
}

// A panic in the caller's `before` (one block's gradients, say) stops the step: the
// blocks already updated get their old data back, as for a refused step.
#[test]
fn a_panic_around_a_block_leaves_no_parameter_stepped() {
    for threads in [1, 2] {
        let data: Vec<f64> = (0..64).map(f64::from).collect();
        let params: Vec<Value> = data.iter().map(|&d| Value::new(d)).collect();
        let mut sgd = Sgd::new(params, 0.5).unwrap();
        let before_state = sgd.state();
        let (mut numbers, mut grads) = (data.clone(), vec![0.0; 64]);
        let around = Around {
            before: &|range, g| match range.end < 64 {
                true => g.fill(1.0),
                false => panic!("the last block's gradients"),
            },
            after: &|_, _| {},
        };
        let step = std::panic::AssertUnwindSafe(|| {
            sgd.step_numbers_around(&mut numbers, &mut grads, threads, &around)
        });
        assert!(std::panic::catch_unwind(step).is_err());
        assert_eq!(numbers, data, "{threads} threads");
        assert_eq!(sgd.state(), before_state);
    }
}

#[test]
fn step_numbers_takes_more_threads_than_parameters_and_steps_the_same() {
    // Threads beyond one per parameter have nothing to do: the step is the one on
    // one thread, for any count (`usize::MAX` too), not an overflow.
    for threads in [3, 1000, usize::MAX] {
        let params = vec![Value::new(1.0), Value::new(-2.0)];
        let mut adam = Adam::new(params.clone(), 0.1).unwrap();
        let mut one = Adam::new(params, 0.1).unwrap();
        let (mut numbers, mut on_one) = ([1.0, -2.0], [1.0, -2.0]);
        adam.step_numbers(&mut numbers, &[5.0, 0.5], threads)
            .unwrap();
        one.step_numbers(&mut on_one, &[5.0, 0.5], 1).unwrap();
        assert_eq!(numbers.map(f64::to_bits), on_one.map(f64::to_bits));
    }
}

/// Three sets of an SGD, an Adam and an AdamW.
type Optimizers = Vec<Vec<Box<dyn Optimizer>>>;

/// Three optimisers of each kind over the same 1,000 parameters (data and gradients of
/// very different sizes), for comparing `step` with `step_numbers`.
fn numbers_and_optimizers() -> (Vec<f64>, Vec<f64>, Optimizers) {
    let data: Vec<f64> = (0..1000)
        .map(|i| ((i * 37 % 101) as f64 - 50.0) * 1.1f64.powi(i % 40))
        .collect();
    let grads: Vec<f64> = (0..1000)
        .map(|i| ((i * 53 % 97) as f64 - 48.5) / 1.3f64.powi(i % 30))
        .collect();
    let optimizers = (0..3)
        .map(|_| {
            let params = || data.iter().map(|&d| Value::new(d)).collect::<Vec<_>>();
            let sgd = Sgd::new(params(), 0.01).unwrap().momentum(0.9).unwrap();
            let adam = Adam::new(params(), 0.002).unwrap();
            let adamw = AdamW::new(params(), 0.002).unwrap();
            vec![
                Box::new(sgd) as Box<dyn Optimizer>,
                Box::new(adam),
                Box::new(adamw),
            ]
        })
        .collect();
    (data, grads, optimizers)
}

#[test]
fn step_numbers_is_step_on_plain_numbers_bit_for_bit_on_any_threads() {
    // for p in model.parameters(): p.data -= learning_rate * p.grad   (by each rule)
    let (data, grads, mut opts) = numbers_and_optimizers();
    let [by_values, on_1, on_3] = &mut opts[..] else {
        unreachable!()
    };
    for ((a, b), c) in by_values.iter_mut().zip(on_1).zip(on_3) {
        let (mut d1, mut d3) = (data.clone(), data.clone());
        for _ in 0..3 {
            set_grads(a.params(), &grads);
            a.step().unwrap();
            b.step_numbers(&mut d1, &grads, 1).unwrap();
            c.step_numbers(&mut d3, &grads, 3).unwrap();
        }
        let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let stepped: Vec<f64> = a.params().iter().map(Value::data).collect();
        assert_eq!(bits(&d1), bits(&stepped));
        assert_eq!(bits(&d3), bits(&stepped));
        assert_eq!((b.state(), c.state()), (a.state(), a.state()));
        // The Values of `step_numbers` were not touched.
        assert!(b.params().iter().zip(&data).all(|(p, &d)| p.data() == d));
    }
}

// A caller that makes the gradients and takes the new data block by block (a tape's
// step: its gradient sums in, its new weights out, on the threads that update them)
// gets the bits of step_numbers, from every optimiser, also one written elsewhere.
#[test]
fn step_numbers_around_takes_gradients_from_before_and_hands_every_new_number_to_after() {
    let (data, grads, mut opts) = numbers_and_optimizers();
    let [plain, around, _] = &mut opts[..] else {
        unreachable!()
    };
    let hand_written = |data: &[f64]| {
        let params = data.iter().map(|&d| Value::new(d)).collect();
        Box::new(HandWritten(params)) as Box<dyn Optimizer>
    };
    plain.push(hand_written(&data));
    around.push(hand_written(&data));
    let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for (a, b) in plain.iter_mut().zip(around) {
        for (threads, bad) in [(1, None), (3, None), (3, Some(700))] {
            let mut grads = grads.clone();
            if let Some(i) = bad {
                grads[i] = f64::NAN;
            }
            let (mut d1, mut d2, mut g2) = (data.clone(), data.clone(), vec![0.0; data.len()]);
            let handed = std::sync::Mutex::new(vec![f64::NAN; data.len()]);
            let around = Around {
                before: &|block, g| g.copy_from_slice(&grads[block]),
                after: &|block, d| handed.lock().unwrap()[block].copy_from_slice(d),
            };
            let stepped = a.step_numbers(&mut d1, &grads, threads);
            let stepped_around = b.step_numbers_around(&mut d2, &mut g2, threads, &around);
            assert_eq!(bits(&g2), bits(&grads));
            assert_eq!(bits(&d2), bits(&d1));
            assert_eq!(b.state(), a.state());
            match (stepped, stepped_around) {
                (Ok(()), Ok(())) => assert_eq!(bits(&handed.into_inner().unwrap()), bits(&d1)),
                (Err(e1), Err(e2)) => assert_eq!(e2.to_string(), e1.to_string()),
                other => panic!("{other:?}"),
            }
        }
    }
}

#[test]
fn step_numbers_refuses_a_nan_gradient_of_its_lowest_index_and_changes_nothing() {
    let (data, mut grads, mut opts) = numbers_and_optimizers();
    grads[700] = f64::NAN;
    grads[300] = f64::INFINITY;
    for opt in &mut opts[0] {
        let before = opt.state();
        let mut numbers = data.clone();
        let err = opt.step_numbers(&mut numbers, &grads, 3).unwrap_err();
        assert!(
            matches!(
                err,
                Error::NonFiniteUpdate {
                    what: "gradient",
                    index: 300,
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!((numbers, opt.state()), (data.clone(), before));
        let short = opt.step_numbers(&mut [1.0], &grads, 1).unwrap_err();
        assert!(
            short
                .to_string()
                .contains("1 data and 1000 gradients for 1000 parameters"),
            "{short}"
        );
    }
}

/// An optimiser written outside the crate: `p.data -= lr * p.grad`, nothing more.
struct HandWritten(Vec<Value>);

impl Optimizer for HandWritten {
    fn params(&self) -> &[Value] {
        &self.0
    }
    fn step(&mut self) -> Result<(), Error> {
        for p in &self.0 {
            p.set_data(p.data() - 0.1 * p.grad());
        }
        Ok(())
    }
    fn learning_rate(&self) -> f64 {
        0.1
    }
    fn set_learning_rate(&mut self, _: f64) -> Result<(), Error> {
        Ok(())
    }
    fn state(&self) -> OptimizerState {
        Sgd::new(self.0.clone(), 0.1).unwrap().state()
    }
    fn set_state(&mut self, _: &OptimizerState) -> Result<(), Error> {
        Ok(())
    }
}

#[test]
fn step_numbers_of_an_optimizer_written_elsewhere_steps_through_its_values_and_restores_them() {
    // for p in model.parameters(): p.data -= 0.1 * p.grad
    let w = param_with_grad(2.0, 7.0);
    let mut opt = HandWritten(vec![w.clone()]);
    let mut data = [1.0];
    opt.step_numbers(&mut data, &[3.0], 1).unwrap();
    assert_eq!(data, [1.0 - 0.1 * 3.0]);
    assert_eq!((w.data(), w.grad()), (2.0, 7.0));
}
