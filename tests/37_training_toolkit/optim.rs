//! RMSProp, PyTorch's rule.

use approx::assert_relative_eq;
use micrograd::optim::RmsProp;
use micrograd::prelude::*;
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
    let mut opt = RmsProp::new(model.parameters(), 0.01).unwrap().momentum(0.9).unwrap();
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
