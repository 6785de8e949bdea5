//! RMSProp, PyTorch's rule; clipping the gradients before any optimiser's step.

use approx::assert_relative_eq;
use micrograd::optim::{clip_grad_norm, clip_grad_value, Clip, RmsProp};
use micrograd::prelude::*;
use micrograd::tape::Tape;
use rand::{rngs::StdRng, SeedableRng};

/// Gives `p` the gradient `g`, as if `backward` had just run.
fn set_grad(p: &Value, g: f64) {
    p.zero_grad();
    (p * g).backward();
}

/// A fixed sequence of gradients, of both signs and different sizes.
const GRADS: [f64; 6] = [0.5, -1.5, 2.0, 0.25, -0.125, 3.0];

// torch.optim.RMSprop([p], lr=0.01)  (alpha=0.99, eps=1e-8, momentum=0, centered=False)
#[test]
fn rmsprop_follows_pytorchs_update_rule_step_by_step() {
    let p = Value::new(0.7);
    let mut opt = RmsProp::new(vec![p.clone()], 0.01).unwrap();
    // The rule as PyTorch's documentation writes it, step by step.
    let (lr, alpha, eps) = (0.01, 0.99, 1e-8);
    let (mut theta, mut v) = (0.7_f64, 0.0_f64);
    for g in GRADS {
        v = alpha * v + (1.0 - alpha) * g * g;
        theta -= lr * g / (v.sqrt() + eps);
        set_grad(&p, g);
        opt.step().unwrap();
        assert_relative_eq!(p.data(), theta, max_relative = 1e-14);
    }
}

// torch.optim.RMSprop([p], lr=0.05, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.1)
#[test]
fn rmsprop_with_momentum_centering_and_weight_decay_follows_pytorch() {
    let p = Value::new(-0.3);
    let mut opt = RmsProp::new(vec![p.clone()], 0.05)
        .and_then(|o| o.alpha(0.9))
        .and_then(|o| o.momentum(0.5))
        .and_then(|o| o.weight_decay(0.1))
        .unwrap()
        .centered(true);
    let (lr, alpha, eps, mu, wd) = (0.05, 0.9, 1e-8, 0.5, 0.1);
    let (mut theta, mut v, mut g_avg, mut b) = (-0.3_f64, 0.0, 0.0, 0.0);
    for g in GRADS {
        let g_wd = g + wd * theta;
        v = alpha * v + (1.0 - alpha) * g_wd * g_wd;
        g_avg = alpha * g_avg + (1.0 - alpha) * g_wd;
        let v_tilde = v - g_avg * g_avg;
        b = mu * b + g_wd / (v_tilde.sqrt() + eps);
        theta -= lr * b;
        set_grad(&p, g);
        opt.step().unwrap();
        assert_relative_eq!(p.data(), theta, max_relative = 1e-14);
    }
}

#[test]
fn rmsprop_saved_with_its_state_resumes_bit_for_bit() {
    let path = std::env::temp_dir().join(format!("micrograd-37-rmsprop-{}", std::process::id()));
    let run = |model: &MLP, opt: &mut RmsProp, grads: &[f64]| {
        for &g in grads {
            for p in model.parameters() {
                set_grad(&p, g * p.data());
            }
            opt.step().unwrap();
        }
    };
    let model = MLP::new(2, &[3, 1], &mut StdRng::seed_from_u64(1));
    let mut opt = RmsProp::new(model.parameters(), 0.01)
        .unwrap()
        .momentum(0.9)
        .unwrap();
    run(&model, &mut opt, &GRADS[..3]);
    model.save_with(&path, &opt).unwrap();
    run(&model, &mut opt, &GRADS[3..]);

    let resumed = MLP::new(2, &[3, 1], &mut StdRng::seed_from_u64(99));
    let mut opt2 = RmsProp::new(resumed.parameters(), 0.5).unwrap();
    resumed.load_with(&path, &mut opt2).unwrap();
    assert_eq!(opt2.learning_rate(), 0.01);
    run(&resumed, &mut opt2, &GRADS[3..]);
    std::fs::remove_file(&path).ok();
    assert_eq!(resumed.params(), model.params());
}

// torch.nn.utils.clip_grad_norm_(params, max_norm=1.0)
#[test]
fn clipping_by_norm_scales_every_gradient_by_max_norm_over_the_global_norm() {
    let params: Vec<Value> = [1.0, 2.0, 3.0].map(Value::new).to_vec();
    for (p, g) in params.iter().zip([2.0, -4.0, 4.0]) {
        set_grad(p, g);
    }
    // ‖g‖ = √(4 + 16 + 16) = 6; clip_coef = max_norm / (‖g‖ + 1e-6)
    let norm = clip_grad_norm(&params, 1.0).unwrap();
    assert_eq!(norm, 6.0);
    let coef = 1.0 / (6.0 + 1e-6);
    let grads: Vec<f64> = params.iter().map(Value::grad).collect();
    assert_eq!(grads, vec![2.0 * coef, -4.0 * coef, 4.0 * coef]);
    // Below the bound, nothing changes.
    assert_relative_eq!(clip_grad_norm(&params, 10.0).unwrap(), 6.0 * coef);
    assert_eq!(params.iter().map(Value::grad).collect::<Vec<_>>(), grads);
}

// torch.nn.utils.clip_grad_value_(params, clip_value=1.0)
#[test]
fn clipping_by_value_clamps_each_gradient() {
    let params: Vec<Value> = [1.0, 2.0, 3.0].map(Value::new).to_vec();
    for (p, g) in params.iter().zip([2.0, -0.5, -4.0]) {
        set_grad(p, g);
    }
    clip_grad_value(&params, 1.0).unwrap();
    let grads: Vec<f64> = params.iter().map(Value::grad).collect();
    assert_eq!(grads, vec![1.0, -0.5, -1.0]);
}

#[test]
fn clipping_refuses_a_gradient_that_is_not_finite_and_changes_nothing() {
    let params: Vec<Value> = [1.0, 2.0].map(Value::new).to_vec();
    set_grad(&params[0], 3.0);
    set_grad(&params[1], f64::INFINITY);
    let err = clip_grad_norm(&params, 1.0).unwrap_err();
    assert!(
        matches!(err, Error::NonFiniteUpdate { index: 1, .. }),
        "{err}"
    );
    assert_eq!(params[0].grad(), 3.0);
    assert!(clip_grad_norm(&params, 0.0).is_err()); // max_norm must be > 0
}

#[test]
fn huge_finite_gradients_are_scaled_down_not_zeroed() {
    let params: Vec<Value> = [1.0, 2.0].map(Value::new).to_vec();
    set_grad(&params[0], 3e200);
    set_grad(&params[1], 4e200); // their squares overflow; the norm is 5e200
    let norm = clip_grad_norm(&params, 1.0).unwrap();
    assert_relative_eq!(norm, 5e200, max_relative = 1e-15);
    assert_relative_eq!(params[0].grad(), 0.6, max_relative = 1e-12);
}

/// An MLP(3, [8, 1]), its squared error on one sample compiled onto a tape, and the
/// sample's leaves (three inputs, then the target).
fn squared_error_tape(model: &MLP) -> (Tape, Vec<Value>) {
    let x: Vec<Value> = (0..4).map(|_| Value::new(0.0).no_grad()).collect();
    let out = &model.forward(&x[..3]).unwrap()[0];
    let tape = Tape::compile(&(out - &x[3]).powi(2)).unwrap();
    (tape, x)
}

/// Samples whose squared errors have gradients far above 1.
fn samples() -> Vec<[f64; 4]> {
    (0..37)
        .map(|i| {
            let t = f64::from(i);
            [t.sin(), (0.3 * t).cos(), 0.1 * t, 20.0 * (0.7 * t).sin()]
        })
        .collect()
}

/// The parameters after five clipped Adam steps of a `Training` on `threads` threads,
/// with `batch` samples a step.
fn clipped_training(threads: usize, batch: usize) -> Vec<f64> {
    let model = MLP::new(3, &[8, 1], &mut StdRng::seed_from_u64(5));
    let (mut tape, x) = squared_error_tape(&model);
    let inputs = tape.inputs(&x).unwrap();
    let mut opt = Clip::norm(Adam::new(model.parameters(), 0.01).unwrap(), 1.0).unwrap();
    let mut training = tape.train(&mut opt, threads).unwrap();
    for step in samples().chunks(batch).take(5) {
        training.step(&inputs, step).unwrap();
    }
    training.finish();
    model.params()
}

#[test]
fn clipping_on_the_tapes_numbers_is_the_same_on_1_and_2_threads() {
    let one = clipped_training(1, 8);
    assert_eq!(one, clipped_training(2, 8));
    // The clipping acts: without it the parameters end elsewhere.
    let model = MLP::new(3, &[8, 1], &mut StdRng::seed_from_u64(5));
    let (mut tape, x) = squared_error_tape(&model);
    let inputs = tape.inputs(&x).unwrap();
    let mut adam = Adam::new(model.parameters(), 0.01).unwrap();
    let mut training = tape.train(&mut adam, 1).unwrap();
    for step in samples().chunks(8).take(5) {
        training.step(&inputs, step).unwrap();
    }
    training.finish();
    assert_ne!(model.params(), one);
}

#[test]
fn clipping_on_the_tape_gives_the_dynamic_graphs_numbers() {
    let model = MLP::new(3, &[8, 1], &mut StdRng::seed_from_u64(5));
    let mut opt = Clip::norm(Adam::new(model.parameters(), 0.01).unwrap(), 1.0).unwrap();
    for s in samples().iter().take(5) {
        let out = &model.forward_f64(&s[..3]).unwrap()[0];
        let loss = (out - s[3]).powi(2);
        opt.zero_grad();
        loss.backward();
        opt.step().unwrap();
    }
    assert_eq!(model.params(), clipped_training(2, 1));
}
